"""Values in error messages: a message names what it could not take, and stays short whatever
that is (a 100 KB string, a list of a million moves, an int of a million digits), as the C
library's games do with their input."""

from __future__ import annotations

import reprlib

#: The most characters of a value's repr an error message shows.
QUOTED_CHARS = 100


class _Short(reprlib.Repr):
    """reprlib's short reprs (the first items of a container, the ends of a long string or
    int), with ints too long for Python to print shown by their size (it refuses more than
    4300 digits, and a message needs none of them)."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4 * QUOTED_CHARS:
            return f"<an int of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_SHORT = _Short()
_SHORT.maxstring = _SHORT.maxlong = _SHORT.maxother = QUOTED_CHARS


def shown(value: object) -> str:
    """A repr of `value` of at most about `QUOTED_CHARS` characters: a longer string is cut
    there and followed by its length ("… (N characters)"), a container shows its first
    items, an int too long to print its size."""
    if isinstance(value, str):
        text = repr(value)
        if len(text) > QUOTED_CHARS:
            return f"{text[:QUOTED_CHARS]}… ({len(value)} characters)"
        return text
    try:
        text = _SHORT.repr(value)
    except Exception:  # an object whose own repr fails
        return f"a {type(value).__name__}"
    return text if len(text) <= QUOTED_CHARS else f"{text[:QUOTED_CHARS]}…"

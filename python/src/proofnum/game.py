"""The `Game` protocol users implement, and its translation into the C ABI's callback table.

Nothing may unwind from a Python callback into C: ctypes would print the exception, drop it and
return an undefined value, and the search would go on from a half-played move. So every
callback catches everything (`BaseException`: KeyboardInterrupt and SystemExit included),
keeps the first exception and returns -1, which ends the search with PN_STATUS_CALLBACK_FAILED;
the solver raises the exception again once the C call has returned. An exception that lands
before a callback's `try` (Python runs signal handlers, hence a Ctrl-C's KeyboardInterrupt, at
the entry of a function) is caught one level up, by `sys.unraisablehook`, which ctypes calls
with the callback: `_catch_unraisable` keeps it and stops the search, so it is raised all the
same.
"""

from __future__ import annotations

import array
import ctypes as C
import sys
from typing import Any, Callable, Dict, Iterable, Optional, Protocol, runtime_checkable

from . import _abi
from ._text import shown
from .types import Outcome, Repetition, Side

_HASH_MAX = 2**64 - 1
_MATERIAL_MAX = 2**32 - 1
# The optional methods that declare dominance, all three or none.
_DOMINANCE = ("class_hash", "material", "material_at_least")
_GAME_OUTCOMES = frozenset(int(o) for o in Outcome)
_REPETITION_VALUES = frozenset({Outcome.WIN, Outcome.LOSS, Outcome.DRAW})
# array typecode of a C uint32_t (moves are copied into the library's buffer as one block).
_MOVE_TYPECODE = next(code for code in "IL" if array.array(code).itemsize == 4)
_MOVE_BYTES = 4
# The sides by their C value, for material_at_least (an enum lookup by value costs more).
_SIDES = (Side.FIRST, Side.SECOND)


@runtime_checkable
class Game(Protocol):
    """A two-player game the solver can search, as one mutable position.

    Implement the six methods (subclass `Game`, or write any class with these methods). The
    solver plays moves and takes them back on the one object, so `play` followed by `undo` of
    the same move must restore the position exactly. Moves are
    ints from 0 to 2**32 - 1, whatever they mean to the game. The search tells positions apart
    by `hash()`: equal positions (with the same side to move) must hash equal, and different
    ones should differ in all 64 bits. A hash collision can mislead the search; the walk that
    confirms every answer (`Solver(confirm=True)`, the default) then reports `Unconfirmed`
    rather than a wrong answer, exactly so when the game has `encode()`.

    Optional, used when present:

    - `repetition_rule`, a `Repetition` (a class attribute): how a position that repeats one
      on the current line scores. `Repetition.DRAW` when absent, right for every game;
      `Repetition.ACYCLIC` is much faster for a game whose positions never repeat.
    - `estimate() -> Optional[Tuple[int, int]]`: (φ, δ), how hard the side to move's win is
      to prove and to disprove (df-pn+ style: ints from 0 to 2**32 - 1, which the search
      clamps into 1 to 2**32 - 2), or None for (1, 1).
    - `repetition_value() -> Outcome`: required with `Repetition.BY_POSITION`, the value
      (`WIN`, `LOSS` or `DRAW`, for the side to move) of the position, which repeats one on
      the current line.
    - `deferred_moves() -> int`: how many of the moves `moves()` just returned, counted from
      the end of the list, the df-pn engines may leave unplayed until the moves before them
      have failed for the side to move, then play one at a time (delayed expansion: a tsume
      defender's drops on a square after the first there, say). It changes the order of the
      search, never a value; more than the number of moves means all of them.
    - `encode() -> bytes`: an exact encoding of the position, at most 256 bytes: equal bytes
      for equal positions (side to move included) and different bytes for different ones,
      where `hash()` only makes that likely. The walks that confirm answers and write
      certificates tell positions apart by it, so positions whose hashes collide cannot make
      a confirmed answer wrong; a certificate names its root by it, and `check_certificate`
      compares positions by it (it needs one for a game whose positions can repeat).
    - `encode_class() -> bytes`, with dominance: an exact encoding of the position's class
      (the position without its material), as `encode()` is of the position. The walks then
      key classes by it and `check_certificate` compares a dominance record's classes by it,
      so classes whose `class_hash()` collides cannot make a confirmed answer or a checked
      certificate wrong.
    - Dominance, all three or none (Tsume-shogi's hand pieces are the classic case; any game
      where some *material*, such as stones or pieces in hand, only adds options for its
      owner): positions of one *class* (equal but for their material) are ordered by their
      material, and the solver solves a position from a solved one of its class, a win found
      with material no better for the winner or a failure found with material no worse.
      This must be *true* of the game: a false order can give wrong answers (the confirming
      walk, on by default, reported `Unconfirmed` instead in the tests, though it trusts the
      order where it accepts a position dominated by one it has walked, and so does
      `check_certificate` where a certificate has a dominance record; with
      `confirm=False` a wrong answer is reported). Not with `Repetition.BY_POSITION` (a `TypeError`).

      - `class_hash() -> int`: the hash of the position without its material (side to move
        included), an int from 0 to 2**64 - 1, as `hash()`.
      - `material() -> int`: the material, packed into an int from 0 to 2**32 - 1 as the game
        likes (the stones a side may still drop, a few bits a piece type in hand).
      - `material_at_least(side: Side, a: int, b: int) -> bool`: in the current position's
        class, material `a` is at least as good for `side` as material `b` (True or False; an
        int is an error). A partial order for each side: reflexive and transitive. For
        material that only adds options for its owner: more is at least as good for the
        owner, and fewer for the other side.
    """

    def side_to_move(self) -> Side:
        """The player to move: `Side.FIRST` or `Side.SECOND` (or 0 and 1; not False and True,
        which Python would take for 0 and 1)."""
        ...

    def hash(self) -> int:
        """A 64-bit hash of the position, side to move included: an int from 0 to 2**64 - 1.
        Anything else is an error, not reduced: fold a wider or negative hash into 64 bits
        yourself (`h & (2**64 - 1)`; Python's own `hash()` is negative half the time)."""
        ...

    def outcome(self) -> Outcome:
        """What is known without search, for the side to move: `Outcome.UNKNOWN` for a
        position to search, `WIN`, `LOSS` or `DRAW` for a finished one (or one whose value
        the game knows), or a bound `CANNOT_WIN` / `CANNOT_LOSE` for a position that goes
        on."""
        ...

    def moves(self) -> Iterable[int]:
        """The legal moves of a position that is not over. A position without moves is lost
        for the side to move. A move known to lose for the mover may be left out while
        another move is listed."""
        ...

    def play(self, move: int) -> None:
        """Plays a move `moves()` listed in this position. If it raises, the position must
        be as it was: the move counts as not played, and is never undone."""
        ...

    def undo(self, move: int) -> None:
        """Takes back `move`, the last move played."""
        ...


def _encoding_callback(name: str, method: str, game_method: Callable[[], Any],
                       fail: Callable[[BaseException, str], int]) -> Any:
    """The `pn_encode_fn` of `game_method` (the game's `encode` or `encode_class`, named
    `method`): its bytes copied into the library's buffer."""

    # `buffer` is the library's, never NULL: `capacity` (256) writable bytes.
    def encode(_ctx: Any, buffer: int, capacity: int, out_length: Any) -> int:
        try:
            data = game_method()
            if not isinstance(data, (bytes, bytearray, memoryview)):
                raise TypeError(f"{name}.{method}() returned {shown(data)}; expected bytes")
            data = bytes(data)
            if len(data) > capacity:
                raise ValueError(
                    f"{name}.{method}() returned {len(data)} bytes; at most {capacity} are "
                    "allowed")
            C.memmove(buffer, data, len(data))
            out_length[0] = len(data)
            return 0
        except BaseException as error:
            return fail(error, method)

    return encode


def _has(game: Any, name: str) -> bool:
    """Whether the game has the optional method `name`."""
    return callable(getattr(game, name, None))


class CallbackTable:
    """One search call's pn_game for a Python game, and the first exception its callbacks met.

    The ctypes callback objects live as long as this object; keep it alive during the call.
    """

    def __init__(self, game: Game, caller: str) -> None:
        for name in ("side_to_move", "hash", "outcome", "moves", "play", "undo"):
            if not callable(getattr(game, name, None)):
                raise TypeError(
                    f"{caller}: {type(game).__name__} is not a proofnum.Game: it has no "
                    f"{name}() method")
        rule = getattr(game, "repetition_rule", Repetition.DRAW)
        if rule not in (0, 1, 2) or isinstance(rule, bool):
            raise TypeError(
                f"{caller}: {type(game).__name__}.repetition_rule is {shown(rule)}; expected a "
                "proofnum.Repetition")
        if rule == Repetition.BY_POSITION and not _has(game, "repetition_value"):
            raise TypeError(
                f"{caller}: {type(game).__name__} uses Repetition.BY_POSITION but has no "
                "repetition_value() method")
        dominance = [name for name in _DOMINANCE if _has(game, name)]
        if dominance and len(dominance) < len(_DOMINANCE):
            missing = ", ".join(f"{name}()" for name in _DOMINANCE if name not in dominance)
            raise TypeError(
                f"{caller}: {type(game).__name__} declares dominance with "
                f"{', '.join(f'{name}()' for name in dominance)} but has no {missing}: "
                "dominance needs all three of class_hash(), material() and material_at_least()")
        if dominance and rule == Repetition.BY_POSITION:
            raise TypeError(
                f"{caller}: {type(game).__name__} declares dominance under "
                "Repetition.BY_POSITION, where the solver keeps results per line: dominance is "
                "for Repetition.ACYCLIC and Repetition.DRAW games")
        # Checked at every call: a program (or pytest) may have set its own hook since.
        install_unraisable_hook()
        self.game = game
        self.caller = caller
        #: The first exception a callback raised (or that escaped one), and where.
        self.pending: Optional[BaseException] = None
        self.pending_method = ""
        #: Called once when the first exception is kept (the solver stops its search).
        self.on_failure: Callable[[], None] = lambda: None
        #: The most moves a position listed beyond the buffer (for TooManyMoves' message).
        self.most_moves_listed = 0
        self.table = self._build(game, int(rule))

    def fail(self, error: BaseException, method: str) -> int:
        """Keeps the first exception; returns the failure code for C."""
        if self.pending is None:
            self.pending, self.pending_method = error, method
            self.on_failure()
        return -1

    def raise_pending(self) -> None:
        """Raises the kept exception, if any, with a note saying where it came from."""
        error, self.pending = self.pending, None
        if error is None:
            return
        if hasattr(error, "add_note"):  # Python 3.11 and later
            where = (f"the {self.pending_method} callback"
                     if self.pending_method in ("progress", "clock", "sink")
                     else f"{type(self.game).__name__}.{self.pending_method}()")
            error.add_note(
                f"(raised in {where} during proofnum's {self.caller}; the search ended "
                "without an answer, taking back the moves it had played, except one whose "
                "play() raised)")
        raise error

    def _build(self, game: Game, rule: int) -> _abi.GameTable:
        # Each callback binds what it calls as locals: this is the hot path of a search.
        fail = self.fail
        game_side, game_hash, game_outcome = game.side_to_move, game.hash, game.outcome
        game_moves, game_play, game_undo = game.moves, game.play, game.undo
        outcomes, hash_max, typecode, memmove = (_GAME_OUTCOMES, _HASH_MAX, _MOVE_TYPECODE,
                                                 C.memmove)
        name = type(game).__name__

        def side(_ctx: Any, out: Any) -> int:
            try:
                value = game_side()
                if isinstance(value, bool):  # an int to Python: True == 1
                    raise _bool_returned(name, "side_to_move", value,
                                         "Side.FIRST or Side.SECOND (0 or 1)")
                if value != 0 and value != 1:
                    raise ValueError(
                        f"{name}.side_to_move() returned {shown(value)}; expected Side.FIRST or "
                        "Side.SECOND (0 or 1)")
                out[0] = value
                return 0
            except BaseException as error:
                return fail(error, "side_to_move")

        def hash_(_ctx: Any, out: Any) -> int:
            try:
                value = game_hash()
                if isinstance(value, bool):
                    raise _bool_returned(name, "hash", value, "an int")
                try:
                    in_range = 0 <= value <= hash_max  # a str is a TypeError here,
                    if in_range:
                        out[0] = value  # and a float here
                except TypeError:
                    raise TypeError(
                        f"{name}.hash() returned {shown(value)}; expected an int") from None
                if not in_range:
                    # ctypes would have stored its low 64 bits without a word.
                    raise ValueError(
                        f"{name}.hash() returned {shown(value)}; expected an int from 0 to "
                        "2**64 - 1 (fold a wider or negative hash yourself: h & (2**64 - 1))")
                return 0
            except BaseException as error:
                return fail(error, "hash")

        def outcome(_ctx: Any, out: Any) -> int:
            try:
                value = game_outcome()
                if isinstance(value, bool):
                    raise _bool_returned(name, "outcome", value, "an Outcome")
                try:
                    known = value in outcomes
                except TypeError:
                    known = False
                if not known:
                    raise ValueError(
                        f"{name}.outcome() returned {shown(value)}; expected an Outcome (UNKNOWN, "
                        "WIN, LOSS, DRAW, CANNOT_WIN or CANNOT_LOSE)")
                out[0] = value
                return 0
            except BaseException as error:
                return fail(error, "outcome")

        # `buffer` is the library's move buffer, never NULL (ctypes would give None).
        def generate(_ctx: Any, buffer: int, capacity: int, out_count: Any) -> int:
            try:
                listed = game_moves()
                kind = listed.__class__
                try:
                    if kind is not range and kind is not list and kind is not tuple:
                        listed = list(listed)  # a generator, say: read once, checked below
                    moves = array.array(typecode, listed)
                except (TypeError, OverflowError):
                    raise ValueError(
                        f"{name}.moves() returned {shown(listed)}; expected ints from 0 to "
                        "2**32 - 1") from None
                if kind is not range and bool in map(type, listed):
                    raise TypeError(
                        f"{name}.moves() returned {shown(listed)}, which holds a bool; expected "
                        "ints from 0 to 2**32 - 1 (True and False are not moves)")
                count = len(moves)
                if count <= capacity:
                    if count:
                        memmove(buffer, moves.buffer_info()[0], count * _MOVE_BYTES)
                elif count > self.most_moves_listed:
                    self.most_moves_listed = count
                out_count[0] = count
                return 0
            except BaseException as error:
                return fail(error, "moves")

        def play(_ctx: Any, move: int) -> int:
            try:
                game_play(move)
                return 0
            except BaseException as error:
                return fail(error, "play")

        def undo(_ctx: Any, move: int) -> int:
            try:
                game_undo(move)
                return 0
            except BaseException as error:
                return fail(error, "undo")

        callbacks = {
            "side_to_move": _abi.SIDE_FN(side),
            "hash": _abi.HASH_FN(hash_),
            "outcome": _abi.OUTCOME_FN(outcome),
            "generate_moves": _abi.GENERATE_FN(generate),
            "play": _abi.MOVE_FN(play),
            "undo": _abi.MOVE_FN(undo),
        }
        functions = {"side_to_move": side, "hash": hash_, "outcome": outcome,
                     "moves": generate, "play": play, "undo": undo}
        if _has(game, "estimate"):
            game_estimate = getattr(game, "estimate")

            def estimate(_ctx: Any, out_phi: Any, out_delta: Any) -> int:
                try:
                    numbers = game_estimate()
                    if numbers is not None:
                        try:
                            phi, delta = numbers
                            valid = (isinstance(phi, int) and isinstance(delta, int)
                                     and 0 <= phi < 2**32 and 0 <= delta < 2**32)
                        except (TypeError, ValueError):
                            valid = False
                        if not valid:
                            raise ValueError(
                                f"{name}.estimate() returned {shown(numbers)}; expected None or "
                                "(phi, delta), ints from 0 to 2**32 - 1")
                        if isinstance(phi, bool) or isinstance(delta, bool):
                            raise TypeError(
                                f"{name}.estimate() returned {shown(numbers)}, which holds a "
                                "bool; expected None or (phi, delta), ints from 0 to 2**32 - 1")
                        out_phi[0], out_delta[0] = phi, delta
                    else:
                        out_phi[0], out_delta[0] = 1, 1
                    return 0
                except BaseException as error:
                    return fail(error, "estimate")

            callbacks["estimate"] = _abi.ESTIMATE_FN(estimate)
            functions["estimate"] = estimate
        if _has(game, "deferred_moves"):
            game_deferred = getattr(game, "deferred_moves")

            def deferred_moves(_ctx: Any, out_n: Any) -> int:
                try:
                    n = game_deferred()
                    if isinstance(n, bool):
                        raise _bool_returned(name, "deferred_moves", n, "an int of at least 0")
                    if not isinstance(n, int) or n < 0:
                        raise ValueError(
                            f"{name}.deferred_moves() returned {shown(n)}; expected an int of "
                            "at least 0")
                    out_n[0] = min(n, 2**31)  # more than any move list: all of them
                    return 0
                except BaseException as error:
                    return fail(error, "deferred_moves")

            callbacks["deferred_moves"] = _abi.COUNT_FN(deferred_moves)
            functions["deferred_moves"] = deferred_moves
        if rule == Repetition.BY_POSITION:
            game_repetition_value = getattr(game, "repetition_value")
            values = _REPETITION_VALUES

            def repetition_value(_ctx: Any, out: Any) -> int:
                try:
                    value = game_repetition_value()
                    if isinstance(value, bool):
                        raise _bool_returned(name, "repetition_value", value,
                                             "Outcome.WIN, LOSS or DRAW")
                    try:
                        known = value in values
                    except TypeError:
                        known = False
                    if not known:
                        raise ValueError(
                            f"{name}.repetition_value() returned {shown(value)}; expected "
                            "Outcome.WIN, LOSS or DRAW")
                    out[0] = value
                    return 0
                except BaseException as error:
                    return fail(error, "repetition_value")

            callbacks["repetition_value"] = _abi.OUTCOME_FN(repetition_value)
            functions["repetition_value"] = repetition_value
        # `encode_class` only means something with dominance (the library ignores it without).
        for method in ("encode", "encode_class"):
            if _has(game, method) and (method == "encode" or _has(game, "class_hash")):
                encode = _encoding_callback(name, method, getattr(game, method), fail)
                callbacks[method] = _abi.ENCODE_FN(encode)
                functions[method] = encode
        if _has(game, "class_hash"):
            self._add_dominance(game, callbacks, functions)
        for method, function in functions.items():
            guard_function(self, function, method)
        self._callbacks = callbacks  # keeps the ctypes thunks alive
        return _abi.GameTable(
            struct_size=C.sizeof(_abi.GameTable), repetition_rule=rule, **callbacks)

    def _add_dominance(self, game: Game, callbacks: Dict[str, Any],
                       functions: Dict[str, Any]) -> None:
        """The dominance callbacks (`class_hash`, `material`, `material_at_least`)."""
        fail = self.fail
        game_class_hash = getattr(game, "class_hash")
        game_material = getattr(game, "material")
        game_at_least = getattr(game, "material_at_least")
        hash_max, material_max, sides = _HASH_MAX, _MATERIAL_MAX, _SIDES
        name = type(game).__name__

        def class_hash(_ctx: Any, out: Any) -> int:
            try:
                value = game_class_hash()
                if isinstance(value, bool):
                    raise _bool_returned(name, "class_hash", value, "an int")
                try:
                    in_range = 0 <= value <= hash_max
                    if in_range:
                        out[0] = value
                except TypeError:
                    raise TypeError(
                        f"{name}.class_hash() returned {shown(value)}; expected an int") from None
                if not in_range:
                    raise ValueError(
                        f"{name}.class_hash() returned {shown(value)}; expected an int from 0 to "
                        "2**64 - 1 (fold a wider or negative hash yourself: h & (2**64 - 1))")
                return 0
            except BaseException as error:
                return fail(error, "class_hash")

        def material(_ctx: Any, out: Any) -> int:
            try:
                value = game_material()
                if isinstance(value, bool):
                    raise _bool_returned(name, "material", value, "an int")
                try:
                    in_range = 0 <= value <= material_max
                    if in_range:
                        out[0] = value
                except TypeError:
                    raise TypeError(
                        f"{name}.material() returned {shown(value)}; expected an int") from None
                if not in_range:
                    raise ValueError(
                        f"{name}.material() returned {shown(value)}; expected an int from 0 to "
                        "2**32 - 1 (pack the material into 32 bits)")
                return 0
            except BaseException as error:
                return fail(error, "material")

        def material_at_least(_ctx: Any, side: int, a: int, b: int, out: Any) -> int:
            try:
                value = game_at_least(sides[side], a, b)
                if value is True:
                    out[0] = 1
                elif value is False:
                    out[0] = 0
                else:
                    raise TypeError(
                        f"{name}.material_at_least() returned {shown(value)}; expected True or "
                        "False")
                return 0
            except BaseException as error:
                return fail(error, "material_at_least")

        callbacks["class_hash"] = _abi.HASH_FN(class_hash)
        callbacks["material"] = _abi.MATERIAL_FN(material)
        callbacks["material_at_least"] = _abi.MATERIAL_AT_LEAST_FN(material_at_least)
        functions["class_hash"] = class_hash
        functions["material"] = material
        functions["material_at_least"] = material_at_least


def _bool_returned(name: str, method: str, value: bool, expected: str) -> TypeError:
    """The error of a method that returned True or False where an int is expected: Python
    takes a bool for the int 1 or 0, which would hide a bug in the game."""
    return TypeError(f"{name}.{method}() returned {value}, a bool; expected {expected}")


def guard_function(table: CallbackTable, function: Any, method: str) -> Any:
    """Marks a callback of the call for `_catch_unraisable`: the call it belongs to, and the
    method it calls."""
    function._proofnum_table = table
    function._proofnum_method = method
    return function


def _catch_unraisable(unraisable: Any) -> None:
    """sys.unraisablehook: keeps an exception that escaped one of our callbacks (one raised
    at its entry, before its `try`: a signal handler's) for its call, and stops that search;
    everything else goes to the hook that was there before."""
    table = getattr(unraisable.object, "_proofnum_table", None)
    if isinstance(table, CallbackTable) and unraisable.exc_value is not None:
        table.fail(unraisable.exc_value, unraisable.object._proofnum_method)
    else:
        _previous_unraisablehook(unraisable)


_previous_unraisablehook = sys.unraisablehook


def install_unraisable_hook() -> None:
    """Installs `_catch_unraisable` once (it forwards everything that is not ours)."""
    global _previous_unraisablehook
    if sys.unraisablehook is not _catch_unraisable:
        _previous_unraisablehook = sys.unraisablehook
        sys.unraisablehook = _catch_unraisable

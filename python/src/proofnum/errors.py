"""The exceptions the solver raises: one class for each kind of C status (pn_status).

An exception raised by the game's own methods during a search is not turned into one of
these: it ends the search and is raised again, unchanged, when the call returns.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Type

from .types import Stats


class ProofnumError(Exception):
    """Base of every error the solver reports; `status` is the C ABI's pn_status code, and
    `library_message` the C library's own words for what was wrong (pn_solver_last_error,
    pn_config_error: the field, argument or callback, with its value), also in the message;
    empty when this layer said it in Python's terms instead."""

    library_message: str = ""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class SearchIncomplete(ProofnumError):
    """The search ran and ended without an answer; nothing was claimed.

    `stats` counts the work done; `best_move` is the move the search found most promising, with
    no guarantee; `moves` is the part of the line found so far (from `principal_variation`).
    """

    def __init__(self, message: str, status: int, stats: Optional[Stats] = None,
                 best_move: Optional[int] = None, moves: Optional[List[int]] = None) -> None:
        super().__init__(message, status)
        self.stats = stats
        self.best_move = best_move
        self.moves = moves


class NodeLimitReached(SearchIncomplete):
    """The search evaluated `max_nodes` positions without an answer."""


class TimeLimitReached(SearchIncomplete):
    """The search ran for `max_time` seconds without an answer."""


class SearchStopped(SearchIncomplete):
    """`Solver.stop()` ended the search (or a progress callback raised, which stops it)."""


class DepthLimitReached(SearchIncomplete):
    """A line was deeper than the solver's `max_depth`."""


class TooManyMoves(SearchIncomplete):
    """A position had more moves than the solver's `max_moves`."""


class MemoryLimitReached(SearchIncomplete):
    """The PNS arena (`Engine.PNS`, `Engine.PN2`) was full even after freeing solved subtrees."""


class Unconfirmed(SearchIncomplete):
    """Every answer the search found was refuted by its confirmation, each time it searched
    again over new table keys: positions the game's `hash()` does not tell apart (give the game
    an `encode()`, or a better hash), most likely. No answer is reported rather than a wrong
    one; `stats.refutations` counts the refutations."""


class InvalidConfiguration(ProofnumError, ValueError):
    """A solver setting or an argument is out of range."""


class SolverBusy(ProofnumError):
    """The solver is in use by another call: from another thread, or from inside one of the
    game's methods during a search (only `Solver.stop()` may be called from there)."""


class InvalidGame(ProofnumError):
    """The library found the game's answers inconsistent or out of range."""


class TableLoadError(ProofnumError, ValueError):
    """The bytes given to `Solver.load_table` are not a table this solver can load."""


class Refuted(ProofnumError):
    """A claim does not hold: a principal variation did not go the way the search said (a hash
    collision in the game, or a game whose methods are not consistent; `moves` is the line up
    to that point), or `Solver.certify` was asked for the certificate of a false claim."""

    def __init__(self, message: str, status: int, moves: Optional[List[int]] = None) -> None:
        super().__init__(message, status)
        self.moves = moves


class CertificateWriteError(ProofnumError, OSError):
    """A certificate could not be written (its sink refused bytes). An exception raised while
    writing (a full disk's `OSError`, say) is raised itself, not this."""


class InvalidCertificate(ProofnumError, ValueError):
    """`check_certificate` rejected a certificate. `verdict` says why: "malformed" (the bytes
    are not a certificate: truncated, damaged; `offset` is where), "mismatch" (it is about
    another game name, repetition rule or position), or "faulty" (a step of the proof is
    wrong: `line` holds the move indices, among the moves `moves()` lists, from the root to
    the faulty position). The message is the checker's."""

    def __init__(self, message: str, status: int, verdict: str, line: List[int],
                 offset: Optional[int]) -> None:
        super().__init__(message, status)
        self.verdict = verdict
        self.line = line
        self.offset = offset


class InternalError(ProofnumError):
    """A bug in proofnum: please report it."""


# pn_status codes and the class that reports each. Codes missing here (NULL pointers, struct
# sizes, alignment, handles) are never caused by this package's calls and are reported as
# plain ProofnumError, naming the call.
ERROR_CLASSES: Dict[int, Type[ProofnumError]] = {
    3: InvalidConfiguration,
    7: SolverBusy,
    8: InvalidConfiguration,  # an engine this build of the library leaves out
    9: InvalidGame,
    10: NodeLimitReached,
    11: TimeLimitReached,
    12: SearchStopped,
    13: DepthLimitReached,
    14: TooManyMoves,
    16: InvalidGame,
    17: TableLoadError,
    18: TableLoadError,
    19: TableLoadError,
    20: TableLoadError,
    21: Refuted,
    22: InternalError,
    23: MemoryLimitReached,
    24: Unconfirmed,
    25: CertificateWriteError,
}

"""What the solver talks about: sides, outcomes, settings, and the results of its calls."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional


class Side(enum.IntEnum):
    """A player: the one who moves first in the game, or the other one."""

    FIRST = 0
    SECOND = 1

    @property
    def opponent(self) -> "Side":
        """The other player."""
        # (Not Side(1 - self): an enum lookup by value costs ten times this.)
        return Side.SECOND if self is Side.FIRST else Side.FIRST


class Outcome(enum.IntEnum):
    """What is known about a position, for its side to move.

    A game's `outcome()` reports `UNKNOWN` (search it), an exact value (`WIN`, `LOSS`, `DRAW`)
    or a bound (`CANNOT_WIN`, `CANNOT_LOSE`: one-sided knowledge of a position whose game goes
    on; the solver still asks for its moves). `Solver.solve_value` answers `WIN`, `LOSS` or
    `DRAW`.
    """

    UNKNOWN = 0
    WIN = 1
    LOSS = 2
    DRAW = 3
    CANNOT_WIN = 6
    CANNOT_LOSE = 7


class Repetition(enum.IntEnum):
    """How a game scores a position that repeats one on the current line (`Game.repetition_rule`)."""

    #: A repetition is a draw: right for every game (the default).
    DRAW = 0
    #: Positions never repeat (stones only accumulate): much faster, everything shared.
    ACYCLIC = 1
    #: `Game.repetition_value()` scores each repetition.
    BY_POSITION = 2


class Engine(enum.IntEnum):
    """The search `Solver.solve` and `Solver.solve_value` run."""

    #: Depth-first proof-number search with the 1+ε trick over the table (the default).
    DFPN = 0
    #: Best-first proof-number search over a node arena (`arena_nodes`).
    PNS = 1
    #: PN²: PNS whose new leaves are evaluated by a second, bounded PNS.
    PN2 = 2


@dataclass(frozen=True)
class Stats:
    """Counters of one solver call."""

    #: Positions evaluated (made, looked up and taken back).
    nodes: int
    #: Interior node visits (MID calls): the search's work.
    mid_calls: int
    #: Deepest ply reached below the root.
    max_depth: int
    #: Positions found repeating one on the current line.
    repetitions: int
    #: Transposition table lookups, the ones that found their position, writes, and writes
    #: that evicted another position's entry.
    table_probes: int
    table_hits: int
    table_stores: int
    table_drops: int
    #: Microseconds the call took (on `time.monotonic`).
    elapsed_us: int
    #: Positions the walks that confirmed the answers visited (0 when nothing was confirmed:
    #: `Solver(confirm=False)`, or no answer).
    confirm_nodes: int = 0
    #: Answers a confirming walk refuted, each searched again over new table keys (a table
    #: false match, or positions the game's `hash()` does not tell apart). Normally 0.
    refutations: int = 0


@dataclass(frozen=True)
class SolveResult:
    """`Solver.solve`'s answer: can `attacker` force a win from the position?"""

    attacker: Side
    #: True: the attacker forces a win; False: it cannot (draws count against it).
    proven: bool
    #: The move that achieves it when the winner of this question is to move: the attacker's
    #: shortest win found, or the defence that resists longest. None in a finished position.
    best_move: Optional[int]
    #: Plies to the end of the solved line (shortest win, longest loss), saturated at 1023.
    distance: int
    stats: Stats


@dataclass(frozen=True)
class ValueResult:
    """`Solver.solve_value`'s answer: the game-theoretic value for the side to move."""

    #: `Outcome.WIN`, `Outcome.LOSS` or `Outcome.DRAW`, for the side to move.
    value: Outcome
    #: The move that achieves it (the winning or drawing move, or the defence that resists
    #: longest); None in a finished position.
    best_move: Optional[int]
    stats: Stats


@dataclass(frozen=True)
class Verification:
    """`Solver.verify`'s answer: does the claim hold, walked down to positions the game scores?"""

    holds: bool
    #: When it holds and the winner is to move: the checked winning move.
    best_move: Optional[int]
    stats: Stats


@dataclass(frozen=True)
class Progress:
    """A snapshot of a running search, handed to a `progress` callback."""

    mid_calls: int
    nodes: int
    max_depth: int
    elapsed_us: int
    #: The root's proof and disproof numbers for its side to move (0: proven; 2**32 - 1: disproven).
    root_phi: int
    root_delta: int


@dataclass(frozen=True)
class TableInfo:
    """A picture of the transposition table."""

    #: Bytes `Solver.save_table()` returns.
    saved_bytes: int
    entries: int
    generation: int
    #: Occupied entries per thousand (estimated from a sample on large tables).
    fill_per_mille: int


@dataclass(frozen=True)
class CertificateReport:
    """`check_certificate`'s answer for a valid certificate: what the checker did."""

    #: Positions judged.
    positions: int
    #: Distinct records (positions) the proof uses.
    records: int
    #: True when positions were told apart by the game's `encode()`; False when the game has
    #: none and the certificate was followed as a tree (only `Repetition.ACYCLIC` games).
    exact: bool
    #: The longest line followed, in plies.
    depth: int
    #: The checker's summary ("valid: ...").
    message: str

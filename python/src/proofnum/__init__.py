"""proofnum: proof-number search for games written in Python.

Implement `Game` for your game, make a `Solver`, and ask it whether a player can force a win
(`Solver.solve`) or for the position's value (`Solver.solve_value`)::

    from proofnum import Game, Outcome, Repetition, Side, Solver

    class Nim(Game):
        "Take 1, 2 or 3 stones; whoever takes the last stone wins."
        repetition_rule = Repetition.ACYCLIC  # piles only shrink
        def __init__(self, stones): self.stones, self.to_move = stones, Side.FIRST
        def side_to_move(self): return self.to_move
        def hash(self): return self.stones << 1 | self.to_move
        def outcome(self): return Outcome.LOSS if self.stones == 0 else Outcome.UNKNOWN
        def moves(self): return range(1, min(self.stones, 3) + 1)
        def play(self, take): self.stones -= take; self.to_move = self.to_move.opponent
        def undo(self, take): self.stones += take; self.to_move = self.to_move.opponent

    result = Solver().solve_value(Nim(21))
    assert result.value == Outcome.WIN and result.best_move == 1

Every answer is confirmed before it is returned (`Solver(confirm=True)`, the default). The proof
of an answer can be written as a certificate (`Solver.certify`) that `check_certificate`
checks from the game's rules alone; a game with an exact position encoding (`Game.encode()`)
is checked, and confirmed, by it rather than by its hash.

The search runs in proofnum's C library (built by `pip install`); this package is a typed layer
over its C ABI through ctypes. Statuses become exceptions (`errors`), and an exception raised by
the game's methods during a search ends the search and is raised again after it.
"""

from . import _abi
from .certificates import check_certificate
from .errors import (CertificateWriteError, DepthLimitReached, InternalError,
                     InvalidCertificate, InvalidConfiguration, InvalidGame, MemoryLimitReached,
                     NodeLimitReached, ProofnumError, Refuted, SearchIncomplete, SearchStopped,
                     SolverBusy, TableLoadError, TimeLimitReached, TooManyMoves, Unconfirmed)
from .game import Game
from .solver import Solver
from .types import (CertificateReport, Engine, Outcome, Progress, Repetition, Side,
                    SolveResult, Stats, TableInfo, ValueResult, Verification)

__version__ = "0.1.0"


def library_version() -> str:
    """The version of the C library in use, such as "0.1.0"."""
    return str(_abi.library().pn_version_string().decode())


__all__ = [
    "CertificateReport", "CertificateWriteError", "DepthLimitReached", "Engine", "Game",
    "InternalError", "InvalidCertificate", "InvalidConfiguration", "InvalidGame",
    "MemoryLimitReached", "NodeLimitReached", "Outcome", "Progress", "ProofnumError",
    "Refuted", "Repetition", "SearchIncomplete", "SearchStopped", "Side", "SolveResult",
    "Solver", "SolverBusy", "Stats", "TableInfo", "TableLoadError", "TimeLimitReached",
    "TooManyMoves", "Unconfirmed", "ValueResult", "Verification", "check_certificate",
    "library_version",
]

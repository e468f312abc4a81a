#!/usr/bin/env python3
"""Solve games defined in Python with proofnum's C library, through ctypes only.

    python3 solve.py [path/to/libproofnum.so]

The library comes from the argument, $PROOFNUM_LIB, or the repository's target/release (build
it with `cargo build --release -p proofnum-capi`). The script defines tic-tac-toe and Nim as
Python classes, hands them to the solver as C callbacks, and checks the answers against a plain
Python negamax and against Bouton's theorem for Nim. It exits with 1 on any disagreement.
"""

import ctypes as C
import os
import sys
from functools import lru_cache, reduce
from operator import xor

# ---- The C declarations of include/proofnum.h that this script uses ----
# Game and Result are the first versions of pn_game and pn_result (before copy_size and the
# parallel statistics), and Config that of pn_config (before the engine fields), which is what
# the pn_config_default symbol returns: the library still accepts them by their struct_size,
# which this script thereby checks.

PN_STATUS_OK = 0
PN_OUTCOME_UNKNOWN, PN_OUTCOME_WIN, PN_OUTCOME_LOSS, PN_OUTCOME_DRAW = 0, 1, 2, 3
PN_OUTCOME_PROVEN, PN_OUTCOME_DISPROVEN = 4, 5
PN_OUTCOME_CANNOT_WIN, PN_OUTCOME_CANNOT_LOSE = 6, 7  # bounds an outcome() may report
PN_REPETITION_DRAW, PN_REPETITION_ACYCLIC = 0, 1
PN_ABI_VERSION = 1
OUTCOME_NAMES = {0: "unknown", 1: "win", 2: "loss", 3: "draw", 4: "proven", 5: "disproven"}


class Config(C.Structure):
    _fields_ = [
        ("struct_size", C.c_size_t),
        ("table_bytes", C.c_size_t),
        ("verify_memo_entries", C.c_size_t),
        ("max_depth", C.c_uint32),
        ("max_moves", C.c_uint32),
        ("epsilon_numerator", C.c_uint32),
        ("epsilon_denominator", C.c_uint32),
        ("threads", C.c_uint32),
    ]


SIDE_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint32))
HASH_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint64))
OUTCOME_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint32))
GENERATE_FN = C.CFUNCTYPE(
    C.c_int, C.c_void_p, C.POINTER(C.c_uint32), C.c_size_t, C.POINTER(C.c_size_t)
)
MOVE_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_uint32)


class Game(C.Structure):
    _fields_ = [
        ("struct_size", C.c_size_t),
        ("ctx", C.c_void_p),
        ("side_to_move", SIDE_FN),
        ("hash", HASH_FN),
        ("outcome", OUTCOME_FN),
        ("generate_moves", GENERATE_FN),
        ("play", MOVE_FN),
        ("undo", MOVE_FN),
        ("estimate", C.c_void_p),  # optional callbacks left NULL
        ("clone", C.c_void_p),
        ("free", C.c_void_p),
        ("repetition_value", C.c_void_p),  # only for PN_REPETITION_BY_POSITION
        ("repetition_rule", C.c_uint32),
    ]


class Stats(C.Structure):
    _fields_ = [
        (name, C.c_uint64)
        for name in (
            "nodes", "mid_calls", "max_depth", "repetitions", "table_probes",
            "table_hits", "table_stores", "table_drops", "elapsed_us",
        )
    ]


class Result(C.Structure):
    _fields_ = [
        ("struct_size", C.c_size_t),
        ("status", C.c_uint32),
        ("outcome", C.c_uint32),
        ("has_best_move", C.c_uint32),
        ("best_move", C.c_uint32),
        ("distance", C.c_uint32),
        ("stats", Stats),
    ]


def load_library(path):
    lib = C.CDLL(path)
    lib.pn_abi_version.restype = C.c_uint32
    lib.pn_version_string.restype = C.c_char_p
    lib.pn_status_str.argtypes = [C.c_uint32]
    lib.pn_status_str.restype = C.c_char_p
    lib.pn_config_default.restype = Config
    lib.pn_solver_memory_requirements.argtypes = [
        C.POINTER(Config), C.POINTER(C.c_size_t), C.POINTER(C.c_size_t)
    ]
    lib.pn_solver_memory_requirements.restype = C.c_uint32
    lib.pn_solver_init.argtypes = [
        C.c_void_p, C.c_size_t, C.POINTER(Config), C.POINTER(C.c_void_p)
    ]
    lib.pn_solver_init.restype = C.c_uint32
    for name in ("pn_solve",):
        getattr(lib, name).argtypes = [
            C.c_void_p, C.POINTER(Game), C.c_uint32, C.c_void_p, C.POINTER(Result)
        ]
        getattr(lib, name).restype = C.c_uint32
    lib.pn_solve_value.argtypes = [C.c_void_p, C.POINTER(Game), C.c_void_p, C.POINTER(Result)]
    lib.pn_solve_value.restype = C.c_uint32
    return lib


class ProofnumError(Exception):
    pass


class Solver:
    """A solver in memory this object owns (a ctypes array, kept alive with the object)."""

    def __init__(self, lib, table_bytes=1 << 16, max_depth=64, max_moves=32):
        self.lib = lib
        config = lib.pn_config_default()
        config.table_bytes, config.max_depth, config.max_moves = table_bytes, max_depth, max_moves
        size, align = C.c_size_t(), C.c_size_t()
        self._check(lib.pn_solver_memory_requirements(C.byref(config), C.byref(size), C.byref(align)))
        # Over-allocate and start at the first aligned address.
        self._memory = (C.c_uint8 * (size.value + align.value))()
        offset = -C.addressof(self._memory) % align.value
        handle = C.c_void_p()
        self._check(lib.pn_solver_init(
            C.addressof(self._memory) + offset, size.value, C.byref(config), C.byref(handle)))
        self.handle = handle

    def _check(self, status):
        if status != PN_STATUS_OK:
            raise ProofnumError(self.lib.pn_status_str(status).decode())

    def solve_value(self, game):
        """The value for the side to move: (status, outcome, best move or None, nodes). An
        exception a callback raised is raised again here, once the search has returned."""
        table = game.table()
        result = Result(struct_size=C.sizeof(Result))
        status = self.lib.pn_solve_value(self.handle, C.byref(table), None, C.byref(result))
        game.raise_pending()
        return status, result.outcome, result.best_move if result.has_best_move else None, result.stats.nodes

    def solve(self, game, attacker):
        """Can `attacker` force a win: (status, outcome). Callback exceptions as solve_value."""
        table = game.table()
        result = Result(struct_size=C.sizeof(Result))
        status = self.lib.pn_solve(self.handle, C.byref(table), attacker, None, C.byref(result))
        game.raise_pending()
        return status, result.outcome


class CallbackGame:
    """Turns a Python game into a pn_game. Subclasses define side(), key(), outcome(), moves(),
    play(move) and undo(move). An exception inside a callback must not unwind into C, so each
    callback catches everything, BaseException included, and returns -1: the solver then ends
    the search with PN_STATUS_CALLBACK_FAILED, never an answer, and raise_pending() (which the
    Solver calls after every search) raises the first exception again.

    BaseException matters: a KeyboardInterrupt (Ctrl-C arrives while C code runs, so Python
    raises it at the next callback) or SystemExit that escaped a callback would be printed and
    swallowed by ctypes, which then returns 0, a success, and the search would go on from a
    half-played move and could report a wrong answer."""

    # Both games here only add stones to the board or take them away: no position repeats.
    repetition_rule = PN_REPETITION_ACYCLIC
    # The first exception a callback raised during the current search.
    pending = None

    def raise_pending(self):
        """Raises the first exception a callback caught since table() was called, if any."""
        exc, self.pending = self.pending, None
        if exc is not None:
            raise exc

    def table(self):
        self.pending = None

        def guarded(body):
            def callback(*args):
                try:
                    body(*args)
                    return 0
                except BaseException as e:  # noqa: BLE001 - nothing may unwind into C
                    if self.pending is None:
                        self.pending = e
                    return -1
            return callback

        def side(_ctx, out):
            out[0] = self.side()

        def hash_(_ctx, out):
            out[0] = self.key() & 0xFFFF_FFFF_FFFF_FFFF

        def outcome(_ctx, out):
            out[0] = self.outcome()

        def generate(_ctx, moves, cap, out_n):
            legal = self.moves()
            for i, m in enumerate(legal[:cap]):
                moves[i] = m
            out_n[0] = len(legal)

        # Keep the ctypes callback objects alive as long as the table can be used.
        self._callbacks = (
            SIDE_FN(guarded(side)), HASH_FN(guarded(hash_)), OUTCOME_FN(guarded(outcome)),
            GENERATE_FN(guarded(generate)),
            MOVE_FN(guarded(lambda _ctx, m: self.play(m))),
            MOVE_FN(guarded(lambda _ctx, m: self.undo(m))),
        )
        return Game(C.sizeof(Game), None, *self._callbacks, None, None, None, None,
                    self.repetition_rule)


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe(CallbackGame):
    def __init__(self, cells="........."):
        self.cells = list(cells)
        self.to_move = 0 if cells.count("X") == cells.count("O") else 1

    def side(self):
        return self.to_move

    def key(self):
        k = self.to_move
        for c in self.cells:
            k = k * 3 + ".XO".index(c)
        return k

    def outcome(self):
        if any(self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]
               for a, b, c in LINES):
            return PN_OUTCOME_LOSS  # the previous player made a line
        return PN_OUTCOME_DRAW if "." not in self.cells else PN_OUTCOME_UNKNOWN

    def moves(self):
        return [i for i, c in enumerate(self.cells) if c == "."]

    def play(self, m):
        if self.cells[m] != ".":
            raise ValueError(f"cell {m} is taken")
        self.cells[m] = "XO"[self.to_move]
        self.to_move ^= 1

    def undo(self, m):
        self.cells[m] = "."
        self.to_move ^= 1


@lru_cache(maxsize=None)
def negamax(cells):
    """+1, 0 or -1 for the side to move: the independent oracle."""
    g = TicTacToe(cells)
    o = g.outcome()
    if o != PN_OUTCOME_UNKNOWN:
        return {PN_OUTCOME_LOSS: -1, PN_OUTCOME_DRAW: 0}[o]
    best = -1
    for m in g.moves():
        g.play(m)
        best = max(best, -negamax("".join(g.cells)))
        g.undo(m)
    return best


class Nim(CallbackGame):
    """Take any number of stones from one pile; whoever takes the last stone wins."""

    def __init__(self, piles):
        self.piles, self.to_move = list(piles), 0

    def side(self):
        return self.to_move

    def key(self):
        k = self.to_move
        for n in self.piles:
            k = k << 8 | n
        return k

    def outcome(self):
        return PN_OUTCOME_LOSS if sum(self.piles) == 0 else PN_OUTCOME_UNKNOWN

    def moves(self):
        return [p << 8 | t for p, n in enumerate(self.piles) for t in range(1, n + 1)]

    def play(self, m):
        self.piles[m >> 8] -= m & 0xFF
        self.to_move ^= 1

    def undo(self, m):
        self.piles[m >> 8] += m & 0xFF
        self.to_move ^= 1


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "..", "target", "release", "libproofnum.so")
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PROOFNUM_LIB", default)
    lib = load_library(path)
    if lib.pn_abi_version() != PN_ABI_VERSION:
        sys.exit(f"library ABI {lib.pn_abi_version()}, this script expects {PN_ABI_VERSION}")
    print(f"proofnum {lib.pn_version_string().decode()} from {path}")
    solver = Solver(lib)
    failures = 0

    for cells in [".........", "X...O....", "XO.......", "XX.OO....", "XOXOXO..."]:
        game = TicTacToe(cells)
        status, outcome, best, nodes = solver.solve_value(game)
        expected = {1: PN_OUTCOME_WIN, 0: PN_OUTCOME_DRAW, -1: PN_OUTCOME_LOSS}[negamax(cells)]
        ok = status == PN_STATUS_OK and outcome == expected and "".join(game.cells) == cells
        failures += not ok
        print(f"tic-tac-toe {cells}: {OUTCOME_NAMES[outcome]} (best move {best}, {nodes} nodes)"
              f"{'' if ok else '  <-- negamax says ' + OUTCOME_NAMES[expected]}")

    for piles in [(1, 2, 3), (3, 4, 5), (2, 2), (1, 4, 6, 7)]:
        status, outcome = solver.solve(Nim(piles), 0)
        wins = reduce(xor, piles) != 0  # Bouton's theorem
        ok = status == PN_STATUS_OK and outcome == (PN_OUTCOME_PROVEN if wins else PN_OUTCOME_DISPROVEN)
        failures += not ok
        print(f"nim {piles}: first player {'wins' if outcome == PN_OUTCOME_PROVEN else 'does not win'}"
              f"{'' if ok else '  <-- Bouton says otherwise'}")

    # A callback that raises: the search fails, and the exception comes out of solve_value.
    broken = TicTacToe()
    broken.moves = lambda: 1 / 0
    try:
        solver.solve_value(broken)
        print("a raising callback gave an answer  <-- it must not")
        failures += 1
    except ZeroDivisionError as e:
        print(f"a raising callback: the search failed and solve_value raised {e!r}")

    print("all answers agree with the oracles" if failures == 0 else f"{failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

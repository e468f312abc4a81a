#!/usr/bin/env python3
"""The Python package's C layer (python/src/proofnum) against a build of the C ABI.

    python3 test_python.py path/to/libproofnum.so path/to/struct_layout

Uses the package from the source tree, on the library given (ffi-tests/run.sh passes the std
and the no-std builds), with the standard library only:
  - the package's ctypes structs have the C header's sizes and field offsets, as the C
    compiler lays them out (struct_layout, built from ffi-tests/struct_layout.c, prints them);
  - at the C boundary, a KeyboardInterrupt or SystemExit raised in a game callback (play, and
    encode, which the confirming walk calls) ends the
    search with PN_STATUS_CALLBACK_FAILED and PN_OUTCOME_UNKNOWN, never an answer, and is kept
    (ctypes once printed and dropped it, and pn_solve_value answered
    "win" for a drawn position); through the package's Solver it is raised after the call;
  - the solver answers tic-tac-toe (examples/python/tictactoe.py) as plain negamax does
    (python/tests/references.py), before and after those failures.
Prints "test_python: N passed, N failed" like the C and C++ tests. The package's own tests
(python/tests, pytest) cover the rest of its API.
"""

import ctypes as C
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
os.environ["PROOFNUM_LIB"] = os.path.abspath(sys.argv[1])
sys.path[:0] = [os.path.join(ROOT, "python", "src"), os.path.join(ROOT, "python", "tests"),
                os.path.join(ROOT, "examples", "python")]

import references as ref  # noqa: E402
from tictactoe import TicTacToe  # noqa: E402

from proofnum import Outcome, Solver, _abi  # noqa: E402
from proofnum.game import CallbackTable  # noqa: E402

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAILED: {what}", file=sys.stderr)


STRUCTS = {"pn_config": _abi.Config, "pn_progress": _abi.Progress, "pn_limits": _abi.Limits,
           "pn_game": _abi.GameTable, "pn_stats": _abi.Stats, "pn_result": _abi.Result,
           "pn_table_info": _abi.TableInfo, "pn_check_limits": _abi.CheckLimits,
           "pn_check_report": _abi.CheckReport}


def check_layout(program):
    lines = subprocess.run([program], check=True, capture_output=True, text=True).stdout
    fields = 0
    for line in lines.splitlines():
        name, value = line.rsplit(" ", 1)
        if name.endswith(" size"):
            struct = STRUCTS[name[: -len(" size")]]
            check(C.sizeof(struct) == int(value),
                  f"{name}: C says {value}, ctypes {C.sizeof(struct)}")
        else:
            struct_name, field = name.split(".")
            struct = STRUCTS[struct_name]
            offset = getattr(struct, field).offset
            check(offset == int(value), f"{name}: C offset {value}, ctypes {offset}")
            fields += 1
    declared = sum(len(s._fields_) for s in STRUCTS.values())
    check(fields == declared, f"struct_layout printed {fields} fields, ctypes declares {declared}")


class Interrupted(TicTacToe):
    """Tic-tac-toe whose play() raises `exc` on its `after`-th call."""

    def __init__(self, after, exc):
        super().__init__()
        self.after, self.exc, self.plays = after, exc, 0

    def play(self, cell):
        self.plays += 1
        if self.plays == self.after:
            raise self.exc
        super().play(cell)


class EncodeInterrupted(TicTacToe):
    """Tic-tac-toe with an exact encoding whose encode() raises `exc` on its `after`-th call."""

    def __init__(self, after, exc):
        super().__init__()
        self.after, self.exc, self.encodes = after, exc, 0

    def encode(self):
        self.encodes += 1
        if self.encodes == self.after:
            raise self.exc
        return bytes([0 if c is None else 1 + int(c) for c in self.cells] + [self.to_move])


def main():
    check_layout(sys.argv[2])
    lib = _abi.library()
    drawn = Outcome.DRAW if ref.tic_tac_toe("." * 9) == ref.DRAW else None
    check(drawn == Outcome.DRAW, "negamax says tic-tac-toe is a draw")

    # At the C boundary: a fresh solver each time, so no table entry shortens the search.
    raised = ((KeyboardInterrupt(), KeyboardInterrupt), (SystemExit(3), SystemExit))
    for after in (1, 7, 40):
        for exc, kind in raised:
            solver = Solver(table_bytes=1 << 16, max_depth=9, max_moves=9)
            table = CallbackTable(Interrupted(after, exc), "test_python")
            result = _abi.Result(struct_size=C.sizeof(_abi.Result))
            what = f"{exc!r} in play() after {after} plays"
            try:
                status = lib.pn_solve_value(solver._handle, C.byref(table.table), None,
                                            C.byref(result))
            except BaseException as e:  # noqa: BLE001
                check(False, f"{what}: {e!r} escaped into ctypes")
                continue
            check(status == _abi.STATUS_CALLBACK_FAILED, f"{what}: status {status}")
            check(result.outcome == 0, f"{what}: outcome {result.outcome}")
            check(isinstance(table.pending, kind), f"{what}: kept {table.pending!r}")

    # The same for encode(), which the walk confirming every answer calls.
    for exc, kind in raised:
        solver = Solver(table_bytes=1 << 16, max_depth=9, max_moves=9)
        table = CallbackTable(EncodeInterrupted(3, exc), "test_python")
        result = _abi.Result(struct_size=C.sizeof(_abi.Result))
        what = f"{exc!r} in encode()"
        status = lib.pn_solve_value(solver._handle, C.byref(table.table), None, C.byref(result))
        check(status == _abi.STATUS_CALLBACK_FAILED, f"{what}: status {status}")
        check(result.outcome == 0, f"{what}: outcome {result.outcome}")
        check(isinstance(table.pending, kind), f"{what}: kept {table.pending!r}")

    # Through the package: raised after the call; the same solver answers afterwards.
    solver = Solver(table_bytes=1 << 16, max_depth=9, max_moves=9)
    for exc, kind in raised:
        try:
            answer = solver.solve_value(Interrupted(5, exc))
            check(False, f"{exc!r}: solve_value answered {answer}")
        except kind:
            check(True, "")
        result = solver.solve_value(TicTacToe())
        check(result.value == drawn, f"a clean search after {exc!r}: {result.value!r}")

    print(f"test_python: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

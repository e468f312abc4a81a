#!/usr/bin/env python3
"""The Python client's callback wrappers under exceptions that are not `Exception`s.

    python3 test_python.py path/to/libproofnum.so

A KeyboardInterrupt (or SystemExit) inside a callback must end the search with
PN_STATUS_CALLBACK_FAILED, never an answer, and come out of the Solver's call once the search
has returned (issue 12, finding 6: `except Exception` let it escape into ctypes, which printed
it and returned 0, and pn_solve_value answered "win" for a drawn tic-tac-toe position). The
oracles are solve.py's plain negamax for tic-tac-toe and Bouton's theorem for Nim. Prints
"test_python: N passed, N failed" like the C and C++ tests.
"""

import _thread
import ctypes as C
import os
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "python"))
import solve  # noqa: E402  (the client under test)

PN_STATUS_CALLBACK_FAILED = 15

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAILED: {what}", file=sys.stderr)


class Interrupted(solve.TicTacToe):
    """Tic-tac-toe whose play() raises `exc` on its `after`-th call (once), or, with
    exc=None, receives a real Ctrl-C there: _thread.interrupt_main() marks SIGINT as
    arrived, and Python raises KeyboardInterrupt at its next check inside this callback."""

    def __init__(self, cells, after, exc):
        super().__init__(cells)
        self.after, self.exc, self.plays = after, exc, 0

    def play(self, m):
        self.plays += 1
        if self.plays == self.after:
            if self.exc is None:
                _thread.interrupt_main()
                for _ in range(1000):  # ordinary Python work; the interrupt lands in here
                    pass
            else:
                raise self.exc
        super().play(m)


def raw_value(lib, solver, game):
    """pn_solve_value through ctypes directly: (status, outcome), and the game's pending
    exception, taken without raising it."""
    table = game.table()
    result = solve.Result(struct_size=C.sizeof(solve.Result))
    status = lib.pn_solve_value(solver.handle, C.byref(table), None, C.byref(result))
    pending, game.pending = getattr(game, "pending", None), None
    return status, result.outcome, pending


def main():
    # A process started in the background by a non-interactive shell (as CI may start this
    # one) inherits SIGINT ignored, and then Python installs no handler and interrupt_main()
    # does nothing: install Python's own handler, as an interactive run has it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    lib = solve.load_library(sys.argv[1])
    solver = solve.Solver(lib)
    drawn = "........."  # tic-tac-toe is a draw
    want = {1: solve.PN_OUTCOME_WIN, 0: solve.PN_OUTCOME_DRAW, -1: solve.PN_OUTCOME_LOSS}[
        solve.negamax(drawn)]
    check(want == solve.PN_OUTCOME_DRAW, "the negamax oracle says tic-tac-toe is a draw")

    # At the C boundary: the failed callback ends the search without an answer. A fresh
    # solver each time, so no table entry from an earlier search shortens this one.
    raised = ((KeyboardInterrupt, KeyboardInterrupt), (SystemExit(3), SystemExit),
              (None, KeyboardInterrupt))
    for after in (1, 7, 40):
        for exc, kind in raised:
            game = Interrupted(drawn, after, exc)
            what = f"{exc!r} in play() after {after} plays"
            try:
                status, outcome, pending = raw_value(lib, solve.Solver(lib), game)
            except BaseException as e:  # noqa: BLE001
                check(False, f"{what}: {e!r} escaped into ctypes")
                continue
            check(status == PN_STATUS_CALLBACK_FAILED, f"{what}: status {status}")
            check(outcome == solve.PN_OUTCOME_UNKNOWN, f"{what}: outcome {outcome}")
            check(isinstance(pending, kind), f"{what}: kept {pending!r}")

    # Through the client: the exception comes out of the call, after the search returned.
    for exc, kind in raised:
        try:
            answer = solver.solve_value(Interrupted(drawn, 5, exc))
            check(False, f"{exc!r}: solve_value answered {answer}")
        except kind:
            check(True, "")
        try:
            answer = solver.solve(solve.Nim((1, 2, 3)), 0)
        except BaseException as e:  # noqa: BLE001 - nothing was pending any more
            check(False, f"a later search raised {e!r}")
            continue
        # Bouton: XOR 1 ^ 2 ^ 3 == 0, so the player to move cannot win.
        check(answer == (solve.PN_STATUS_OK, solve.PN_OUTCOME_DISPROVEN), f"nim after {exc!r}: {answer}")

    # And the solver still answers correctly afterwards.
    status, outcome, _, _ = solver.solve_value(solve.TicTacToe(drawn))
    check(status == solve.PN_STATUS_OK and outcome == want, f"a clean search after: {outcome}")

    print(f"test_python: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

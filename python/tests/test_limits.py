"""Searches that end without an answer: node, time and depth limits, stops from a progress
callback and from another thread, a busy solver, and Ctrl-C, including the interrupt that
lands at a callback's very entry, where no `try` can catch it."""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from typing import Any, Iterator, List

import pytest
from games import ConnectFour, Nim

from proofnum import (DepthLimitReached, NodeLimitReached, Outcome, Progress, SearchStopped,
                      Side, Solver, SolverBusy, TimeLimitReached)
from proofnum import _abi, game as game_module, solver as solver_module


def hard_position() -> ConnectFour:
    """Connect Four 5x4 from the start: a draw, about 700,000 MID calls (seconds)."""
    return ConnectFour(5, 4)


def small_solver() -> Solver:
    return Solver(table_bytes=1 << 16, max_depth=20, max_moves=5)


def test_a_node_limit_ends_the_search_with_its_counts() -> None:
    solver = small_solver()
    with pytest.raises(NodeLimitReached, match="max_nodes=1000") as caught:
        solver.solve_value(hard_position(), max_nodes=1000)
    stats = caught.value.stats
    assert stats is not None and 1000 <= stats.nodes < 2000 and stats.mid_calls > 0
    # The game was restored, and the same solver answers a small question afterwards.
    assert solver.solve_value(ConnectFour(4, 4, "2323")).value in set(Outcome)


def test_a_time_limit_ends_the_search() -> None:
    with pytest.raises(TimeLimitReached, match="max_time=0.05 s") as caught:
        small_solver().solve(hard_position(), Side.FIRST, max_time=0.05)
    assert caught.value.stats is not None and caught.value.stats.elapsed_us >= 50_000


def test_a_line_deeper_than_max_depth() -> None:
    with pytest.raises(DepthLimitReached, match="max_depth is 10 plies"):
        Solver(max_depth=10, max_moves=3).solve_value(Nim(40))


def test_progress_reports_and_a_stop_from_it() -> None:
    solver = small_solver()
    seen: List[Progress] = []

    def progress(snapshot: Progress) -> None:
        seen.append(snapshot)
        if len(seen) == 3:
            solver.stop()

    with pytest.raises(SearchStopped, match="Solver.stop\\(\\) was called"):
        solver.solve_value(hard_position(), progress=progress)
    assert len(seen) == 3
    assert all(isinstance(s, Progress) for s in seen)
    assert seen[0].mid_calls < seen[1].mid_calls < seen[2].mid_calls


def test_an_exception_in_progress_stops_the_search_and_is_raised() -> None:
    def progress(_snapshot: Progress) -> None:
        raise LookupError("progress display broke")

    with pytest.raises(LookupError, match="progress display broke") as caught:
        small_solver().solve_value(hard_position(), progress=progress)
    if sys.version_info >= (3, 11):
        assert "raised in the progress callback" in caught.value.__notes__[0]


def test_a_stop_from_another_thread() -> None:
    solver = small_solver()
    started = threading.Event()

    class Signalling(ConnectFour):
        def play(self, column: int) -> None:
            started.set()
            super().play(column)

    def stop_once_started() -> None:
        started.wait()
        solver.stop()

    stopper = threading.Thread(target=stop_once_started)
    stopper.start()
    try:
        with pytest.raises(SearchStopped):
            solver.solve_value(Signalling(5, 4))
    finally:
        stopper.join()
    # A stop with no search running does nothing: the next search answers.
    solver.stop()
    assert solver.solve_value(Nim(5)).value == Outcome.WIN


def test_calling_the_solver_from_inside_its_search_is_busy() -> None:
    solver = small_solver()

    class Reentrant(Nim):
        def play(self, take: int) -> None:
            solver.solve_value(Nim(3))
            super().play(take)

    with pytest.raises(SolverBusy, match="in use"):
        solver.solve_value(Reentrant(9))
    assert solver.solve_value(Nim(8)).value == Outcome.LOSS


@pytest.fixture
def python_sigint_handler() -> Iterator[None]:
    """Python's own SIGINT handler (a process started in the background inherits SIGINT
    ignored, and then a Ctrl-C would do nothing)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_during_a_search_is_raised_never_dropped(
        python_sigint_handler: None, capfd: pytest.CaptureFixture[str]) -> None:
    # A real Ctrl-C: Python raises KeyboardInterrupt at the next point where it checks for
    # signals, wherever the search is (inside a game method, or at a callback's entry, which
    # is the case ctypes would print and drop). Each round sends one, after a given number of
    # moves; the search must end and raise it every time.
    for after in range(1, 60, 3):
        plays = [0]

        class Interrupted(ConnectFour):
            def play(self, column: int) -> None:
                plays[0] += 1
                if plays[0] == after:
                    threading.Thread(target=_thread.interrupt_main).start()
                super().play(column)

        with pytest.raises(KeyboardInterrupt):
            small_solver().solve_value(Interrupted(5, 4))
    assert "Exception ignored" not in capfd.readouterr().err


def test_an_exception_that_escapes_a_callback_is_raised_all_the_same(
        monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    # The case above, made certain: a play callback with no `try`, as if the exception had
    # been raised at its entry. ctypes hands it to sys.unraisablehook and returns an undefined
    # value to C; proofnum's hook keeps it and stops the search, and the call raises it.
    calls = [0]

    class Escaping(game_module.CallbackTable):
        def _build(self, game: Any, rule: int) -> _abi.GameTable:
            table = super()._build(game, rule)
            guarded_play = table.play

            def play(ctx: Any, move: int) -> int:
                calls[0] += 1
                if calls[0] == 50:
                    raise KeyboardInterrupt  # escapes into ctypes
                return int(guarded_play(ctx, move))

            self._callbacks["play"] = _abi.MOVE_FN(game_module.guard_function(self, play, "play"))
            table.play = self._callbacks["play"]
            return table

    monkeypatch.setattr(solver_module, "CallbackTable", Escaping)
    with pytest.raises(KeyboardInterrupt):
        small_solver().solve_value(hard_position())
    assert calls[0] >= 50
    assert "Exception ignored" not in capfd.readouterr().err

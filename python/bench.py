#!/usr/bin/env python3
"""How many MID calls a second proofnum reaches on games written in Python (on demand; it
prints figures and asserts nothing).

    pip install ./python && python python/bench.py [--rounds N]

Each workload is solved `--rounds` times (3 by default) with a fresh solver; the figures are the
median round, in wall time and in the process's CPU time (which a loaded machine disturbs
less: quote that one when other jobs run). A MID call is one visit of an interior node by df-pn; each costs about 19 calls
into the game's Python methods on Connect Four (4 side_to_move, 4 hash, 2 outcome, 1 moves,
4 play, 4 undo), so a pure-Python game's speed is set by its methods and by ctypes' cost per
callback. `Nim` has the cheapest methods a game can have: its figure is the ceiling.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, List, Tuple

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE / "tests"), str(HERE.parent / "examples" / "python")]

from games import ConnectFour, Nim  # noqa: E402
from tictactoe import TicTacToe  # noqa: E402

from proofnum import Game, Solver  # noqa: E402

WORKLOADS: List[Tuple[str, Callable[[], Game], int]] = [
    # (name, the position, max_depth)
    ("Nim, 1000 stones (the cheapest methods)", lambda: Nim(1000), 1000),
    ("tic-tac-toe, empty board", lambda: TicTacToe(), 9),
    ("Connect Four 4x4, empty board", lambda: ConnectFour(4, 4), 16),
    ("Connect Four 5x4, after 2 moves (34)", lambda: ConnectFour(5, 4, "34"), 20),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'workload':42} {'MID calls':>10} {'positions':>10} {'seconds':>8} "
          f"{'MID calls/s':>12} {'positions/s':>12} {'MID calls/CPU s':>16}")
    for name, make, depth in WORKLOADS:
        rounds = []
        for _ in range(args.rounds):
            solver = Solver(table_bytes=1 << 22, max_depth=depth, max_moves=9)
            start, start_cpu = time.perf_counter(), time.process_time()
            result = solver.solve_value(make())
            rounds.append((time.perf_counter() - start, time.process_time() - start_cpu,
                           result.stats))
        seconds = statistics.median(wall for wall, _, _ in rounds)
        cpu_seconds = statistics.median(cpu for _, cpu, _ in rounds)
        stats = rounds[0][2]
        print(f"{name:42} {stats.mid_calls:>10,} {stats.nodes:>10,} {seconds:>8.3f} "
              f"{stats.mid_calls / seconds:>12,.0f} {stats.nodes / seconds:>12,.0f} "
              f"{stats.mid_calls / cpu_seconds:>16,.0f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Tic-tac-toe written in Python and solved by proofnum (the Python package).

    pip install ./python                       # once, from the repository root
    python3 examples/python/tictactoe.py       # the empty board: a draw
    python3 examples/python/tictactoe.py 40    # the cells played so far, X first (0-8)

Prints the value for the side to move, the best move and the principal variation.
"""

from __future__ import annotations

import sys
from typing import List, Optional

from proofnum import Game, Outcome, Repetition, Side, Solver

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe(Game):
    """The board as nine cells: None, or the side whose mark it holds."""

    repetition_rule = Repetition.ACYCLIC  # marks only accumulate

    def __init__(self, played: str = "") -> None:
        self.cells: List[Optional[Side]] = [None] * 9
        self.to_move = Side.FIRST
        for cell in played:
            self.play(int(cell))

    def side_to_move(self) -> Side:
        return self.to_move

    def hash(self) -> int:
        key = int(self.to_move)
        for cell in self.cells:
            key = key * 3 + (0 if cell is None else 1 + int(cell))
        return key

    def outcome(self) -> Outcome:
        cells = self.cells
        for a, b, c in LINES:
            if cells[a] is not None and cells[a] == cells[b] == cells[c]:
                return Outcome.LOSS  # the previous player made a line
        return Outcome.DRAW if None not in cells else Outcome.UNKNOWN

    def moves(self) -> List[int]:
        return [cell for cell, mark in enumerate(self.cells) if mark is None]

    def play(self, cell: int) -> None:
        if self.cells[cell] is not None:
            raise ValueError(f"cell {cell} is taken")
        self.cells[cell] = self.to_move
        self.to_move = self.to_move.opponent

    def undo(self, cell: int) -> None:
        self.cells[cell] = None
        self.to_move = self.to_move.opponent

    def __str__(self) -> str:
        marks = ["." if c is None else "XO"[c] for c in self.cells]
        return "\n".join(" ".join(marks[row * 3:row * 3 + 3]) for row in range(3))


def main(argv: List[str]) -> int:
    played = argv[1] if len(argv) > 1 else ""
    if not all(c in "012345678" for c in played) or len(set(played)) != len(played):
        print(f"usage: {argv[0]} [CELLS]  (distinct cells 0-8, X first)", file=sys.stderr)
        return 2
    game = TicTacToe(played)
    if game.outcome() != Outcome.UNKNOWN:
        print(f"{game}\nthe game is over")
        return 2
    solver = Solver(table_bytes=1 << 16, max_depth=9, max_moves=9)
    result = solver.solve_value(game)
    mover = "XO"[game.side_to_move()]
    print(game)
    print(f"value: {result.value.name.lower()} for {mover}, best move: {result.best_move}, "
          f"{result.stats.mid_calls} MID calls")
    if result.value != Outcome.DRAW:
        winner = game.side_to_move() if result.value == Outcome.WIN else \
            game.side_to_move().opponent
        line = solver.principal_variation(game, winner)
        print("principal variation:", " ".join(map(str, line)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

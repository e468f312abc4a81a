"""Games for the tests and the benchmark, written against proofnum.Game only.

Tic-tac-toe is the example's (examples/python/tictactoe.py, put on the path by conftest.py and
bench.py). The references the tests compare with are written separately, in the tests, on
their own representations of the positions.
"""

from __future__ import annotations

from typing import List

from proofnum import Game, Outcome, Repetition, Side


_SIDES = (Side.FIRST, Side.SECOND)


class Nim(Game):
    """One pile; take 1, 2 or 3 stones; whoever takes the last stone wins."""

    repetition_rule = Repetition.ACYCLIC  # the pile only shrinks

    def __init__(self, stones: int) -> None:
        self.stones, self.to_move = stones, Side.FIRST

    def side_to_move(self) -> Side:
        return self.to_move

    def hash(self) -> int:
        return self.stones << 1 | self.to_move

    def outcome(self) -> Outcome:
        # The previous player took the last stone.
        return Outcome.LOSS if self.stones == 0 else Outcome.UNKNOWN

    def moves(self) -> range:
        return range(1, min(self.stones, 3) + 1)

    def play(self, take: int) -> None:
        self.stones -= take
        self.to_move = self.to_move.opponent

    def undo(self, take: int) -> None:
        self.stones += take
        self.to_move = self.to_move.opponent


class ConnectFour(Game):
    """Connect Four on a `width` × `height` board, as bitboards (one bit a cell, `height + 1`
    bits a column, the extra bit keeping columns apart): `mine` holds the stones of the side
    to move, `filled` every stone. Moves are column numbers from 0."""

    repetition_rule = Repetition.ACYCLIC  # stones only accumulate

    def __init__(self, width: int = 7, height: int = 6, moves: str = "") -> None:
        self.width, self.height = width, height
        self.mine = self.filled = 0
        self.played = 0
        self.cells = width * height
        stride = height + 1
        self.bottom = [1 << (column * stride) for column in range(width)]
        self.top = [1 << (column * stride + height - 1) for column in range(width)]
        # Shifts that step along a row, a column and both diagonals.
        self.directions = (stride, 1, stride + 1, stride - 1)
        # Columns from the centre out (the usual move order), and each column's bits.
        centre = (width - 1) / 2
        self.order = sorted(range(width), key=lambda column: abs(column - centre))
        self.column_bits = [((1 << stride) - 1) << (column * stride) for column in range(width)]
        for column in moves:
            self.play(int(column) - 1)

    def side_to_move(self) -> Side:
        return _SIDES[self.played & 1]

    def hash(self) -> int:
        # The stones of the side to move plus every stone and the bottom row: unique.
        return self.mine + self.filled

    def _four(self, stones: int) -> bool:
        for shift in self.directions:
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> 2 * shift):
                return True
        return False

    def outcome(self) -> Outcome:
        if self._four(self.mine ^ self.filled):  # the previous player made four
            return Outcome.LOSS
        return Outcome.DRAW if self.played == self.cells else Outcome.UNKNOWN

    def moves(self) -> List[int]:
        filled, top = self.filled, self.top
        return [column for column in self.order if not filled & top[column]]

    def play(self, column: int) -> None:
        self.mine ^= self.filled
        self.filled |= self.filled + self.bottom[column]
        self.played += 1

    def undo(self, column: int) -> None:
        highest = (self.filled & self.column_bits[column]).bit_length() - 1
        self.filled ^= 1 << highest
        self.mine ^= self.filled
        self.played -= 1

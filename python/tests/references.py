"""Independent references: plain negamax over their own representations of the positions,
sharing no code with the games under test (games.py, examples/python/tictactoe.py)."""

from __future__ import annotations

from functools import lru_cache
from typing import Tuple

# Values for the side to move.
WIN, DRAW, LOSS = 1, 0, -1

TIC_TAC_TOE_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
                     (0, 4, 8), (2, 4, 6)]


@lru_cache(maxsize=None)
def tic_tac_toe(board: str) -> int:
    """The value of a tic-tac-toe board ('X', 'O', '.' for nine cells; X moves first)."""
    for a, b, c in TIC_TAC_TOE_LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return LOSS  # the player who just moved made the line
    if "." not in board:
        return DRAW
    mark = "X" if board.count("X") == board.count("O") else "O"
    return max(-tic_tac_toe(board[:i] + mark + board[i + 1:])
               for i, cell in enumerate(board) if cell == ".")


def tic_tac_toe_board(played: str) -> str:
    """The board after the cells `played` (X first)."""
    cells = ["."] * 9
    for ply, cell in enumerate(played):
        cells[int(cell)] = "XO"[ply % 2]
    return "".join(cells)


def nim(stones: int) -> int:
    """Take 1 to 3 stones, the last stone wins: the side to move loses exactly on multiples
    of four (whatever it takes, the opponent takes the rest of four)."""
    return LOSS if stones % 4 == 0 else WIN


Columns = Tuple[str, ...]


def connect_four_columns(width: int, moves: str) -> Columns:
    """The columns (bottom first; 'a' for the first player's stones, 'b' for the second's)
    after `moves`, column numbers from 1."""
    columns = [""] * width
    for ply, column in enumerate(moves):
        columns[int(column) - 1] += "ab"[ply % 2]
    return tuple(columns)


def _makes_four(columns: Columns, x: int, height: int) -> bool:
    """Whether the top stone of column `x` completes four in a row."""
    width, y = len(columns), len(columns[x]) - 1
    stone = columns[x][y]

    def at(i: int, j: int) -> str:
        return columns[i][j] if 0 <= i < width and 0 <= j < len(columns[i]) else ""

    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            k = 1
            while at(x + sign * k * dx, y + sign * k * dy) == stone:
                run, k = run + 1, k + 1
        if run >= 4:
            return True
    return False


def connect_four(columns: Columns, height: int) -> int:
    """The value of a Connect Four position for the side to move, by full negamax (a
    position given must not be finished already)."""
    for x in range(len(columns)):
        if columns[x] and _makes_four(columns, x, height):
            raise ValueError("the position is finished")
    return _connect_four(columns, height)


@lru_cache(maxsize=None)
def _connect_four(columns: Columns, height: int) -> int:
    played = sum(map(len, columns))
    if played == len(columns) * height:
        return DRAW
    mover = "ab"[played % 2]
    best = LOSS
    for x, column in enumerate(columns):
        if len(column) < height:
            child = columns[:x] + (column + mover,) + columns[x + 1:]
            if _makes_four(child, x, height):
                return WIN
            best = max(best, -_connect_four(child, height))
            if best == WIN:
                break
    return best

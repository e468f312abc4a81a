"""Solved games against independent references (references.py): tic-tac-toe and Connect Four
by plain negamax, Nim by the multiple-of-four rule. Every answer is also replayed: the best
move must keep the value, and a principal variation must be a legal line the winner wins."""

from __future__ import annotations

from itertools import permutations
from typing import List, Tuple

import pytest
from games import ConnectFour, Nim
from tictactoe import TicTacToe

import references as ref
from proofnum import Engine, Game, Outcome, Side, Solver

VALUE = {ref.WIN: Outcome.WIN, ref.DRAW: Outcome.DRAW, ref.LOSS: Outcome.LOSS}


def replay(game: Game, line: List[int]) -> Outcome:
    """Plays `line` on the game (each move must be listed) and returns the final outcome for
    the side then to move; takes the moves back."""
    for played, move in enumerate(line):
        assert game.outcome() == Outcome.UNKNOWN, f"the game ended before move {played}"
        assert move in list(game.moves()), f"move {move} is not legal"
        game.play(move)
    outcome = game.outcome()
    for move in reversed(line):
        game.undo(move)
    return outcome


def tic_tac_toe_positions(max_plies: int) -> List[str]:
    """Every sequence of cells up to `max_plies` long that does not pass a finished board."""
    positions = []
    for plies in range(max_plies + 1):
        for cells in permutations("012345678", plies):
            played = "".join(cells)
            if not any(_finished(played[:k]) for k in range(plies + 1)):
                positions.append(played)
    return positions


def _finished(played: str) -> bool:
    board = ref.tic_tac_toe_board(played)
    return "." not in board or any(
        board[a] != "." and board[a] == board[b] == board[c] for a, b, c in ref.TIC_TAC_TOE_LINES)


# Every position up to two plies, and some of three and four.
TIC_TAC_TOE = tic_tac_toe_positions(2) + ["012", "048", "4012", "0142", "01234", "8403"]


@pytest.mark.parametrize("engine", [Engine.DFPN, Engine.PNS, Engine.PN2])
def test_tic_tac_toe_values_match_negamax(engine: Engine) -> None:
    solver = Solver(table_bytes=1 << 16, max_depth=9, max_moves=9, engine=engine)
    for played in TIC_TAC_TOE:
        game = TicTacToe(played)
        want = VALUE[ref.tic_tac_toe(ref.tic_tac_toe_board(played))]
        result = solver.solve_value(game)
        assert result.value == want, f"{played}: {result.value!r}, negamax says {want!r}"
        assert game.cells == TicTacToe(played).cells, "the position was restored"
        # The best move keeps the value: after it, the opponent's value is the opposite.
        assert result.best_move is not None
        after = ref.tic_tac_toe(ref.tic_tac_toe_board(played + str(result.best_move)))
        assert VALUE[-after] == want, f"{played}: best move {result.best_move} does not keep it"


def test_the_empty_tic_tac_toe_board_is_a_draw() -> None:
    result = Solver().solve_value(TicTacToe())
    assert result.value == Outcome.DRAW
    assert result.stats.mid_calls > 0 and result.stats.nodes >= result.stats.mid_calls


def test_tic_tac_toe_solve_answers_each_attacker_and_its_line_wins() -> None:
    solver = Solver(table_bytes=1 << 16, max_depth=9, max_moves=9)
    for played in ["01", "4012", "048", "0", ""]:
        game = TicTacToe(played)
        value = ref.tic_tac_toe(ref.tic_tac_toe_board(played))
        mover = game.side_to_move()
        for attacker in (Side.FIRST, Side.SECOND):
            wins = value == ref.WIN if attacker == mover else value == ref.LOSS
            result = solver.solve(game, attacker)
            assert result.proven == wins and result.attacker == attacker, played
            if wins:
                line = solver.principal_variation(game, attacker)
                assert len(line) == result.distance
                # The line ends with the attacker's line of three: the loser is to move.
                assert replay(game, line) == Outcome.LOSS
                assert len(line) % 2 == (1 if attacker == mover else 0)
            verified = solver.verify(game, attacker, wins)
            assert verified.holds
            assert not solver.verify(game, attacker, not wins).holds


@pytest.mark.parametrize("stones", range(0, 41))
def test_nim_follows_the_multiple_of_four_rule(stones: int) -> None:
    solver = Solver(table_bytes=1 << 12, max_depth=64, max_moves=3)
    game = Nim(stones)
    result = solver.solve_value(game)
    assert result.value == VALUE[ref.nim(stones)], stones
    assert game.stones == stones and game.to_move == Side.FIRST
    if stones % 4:
        assert result.best_move == stones % 4  # leave a multiple of four
    solved = solver.solve(game, Side.FIRST)
    assert solved.proven == (stones % 4 != 0)
    if solved.proven:
        line = solver.principal_variation(game, Side.FIRST)
        assert sum(line) == stones and len(line) % 2 == 1  # the first player takes the last


def test_nim_large_pile_needs_the_depth() -> None:
    # 201 stones: the first player wins by taking 1; lines are up to 201 plies long.
    result = Solver(max_depth=256, max_moves=3).solve_value(Nim(201))
    assert (result.value, result.best_move) == (Outcome.WIN, 1)


def connect_four_cases() -> List[Tuple[int, int, str]]:
    cases = [(4, 4, "")]
    cases += [(4, 4, str(column)) for column in range(1, 5)]
    cases += [(4, 4, "2323"), (4, 4, "1122"), (5, 4, "3344"), (5, 4, "334455"),
              (5, 4, "12345"), (7, 6, "176122144644156276331331"),
              (7, 6, "232752622665264451411115")]
    return cases


@pytest.mark.parametrize("width,height,moves", connect_four_cases())
def test_connect_four_values_match_negamax(width: int, height: int, moves: str) -> None:
    want = VALUE[ref.connect_four(ref.connect_four_columns(width, moves), height)]
    game = ConnectFour(width, height, moves)
    solver = Solver(table_bytes=1 << 20, max_depth=width * height, max_moves=width)
    result = solver.solve_value(game)
    assert result.value == want, f"{width}x{height} {moves}: negamax says {want!r}"
    if want != Outcome.DRAW:
        winner = game.side_to_move() if want == Outcome.WIN else game.side_to_move().opponent
        line = solver.principal_variation(game, winner)
        assert replay(game, line) == Outcome.LOSS  # the winner made four

"""Bad input through every door: game methods that return the wrong things or raise, objects
that are not games, settings out of range, tables that are not tables. Each gets a clear
exception, never an answer, and the solver keeps working afterwards."""

from __future__ import annotations

import math
import re
import sys
from typing import Any, Callable, Dict

import pytest
from games import ConnectFour, Nim
from tictactoe import TicTacToe

import proofnum
from proofnum import (Engine, InvalidConfiguration, MemoryLimitReached, Outcome, Repetition,
                      Side, Solver, TableLoadError, TooManyMoves)


def broken_nim(method: str, returns: Any) -> Nim:
    """Nim(10) whose `method` returns `returns` once the search has played a few moves."""

    class Broken(Nim):
        pass

    original = getattr(Nim, method, lambda self: None)  # estimate: optional

    def wrong(self: Nim, *args: Any) -> Any:
        if self.stones < 8:
            return returns
        return original(self, *args)

    setattr(Broken, method, wrong)
    return Broken(10)


WRONG_RETURNS = [
    ("side_to_move", 2, ValueError, "side_to_move() returned 2"),
    ("side_to_move", "0", ValueError, "side_to_move() returned '0'"),
    ("side_to_move", None, ValueError, "side_to_move() returned None"),
    ("hash", 1.5, TypeError, "hash() returned 1.5; expected an int"),
    # Outside 64 bits: refused, never reduced (ctypes would keep the low 64 bits silently).
    ("hash", -1, ValueError, "hash() returned -1; expected an int from 0 to 2**64 - 1"),
    ("hash", 2**64, ValueError, "hash() returned 18446744073709551616; expected an int from 0"),
    ("hash", -2**63, ValueError, "hash() returned -9223372036854775808"),
    ("hash", 2**200, ValueError, "(fold a wider or negative hash yourself: h & (2**64 - 1))"),
    ("hash", "abc", TypeError, "hash() returned 'abc'"),
    ("outcome", 4, ValueError, "outcome() returned 4; expected an Outcome"),  # PROVEN in C
    ("outcome", None, ValueError, "outcome() returned None"),
    ("outcome", [1], ValueError, "outcome() returned [1]"),
    ("outcome", True, TypeError, "outcome() returned True, a bool"),
    ("moves", [-1], ValueError, "moves() returned [-1]; expected ints from 0 to 2**32 - 1"),
    ("moves", [2**32], ValueError, "moves() returned [4294967296]"),
    ("moves", ["a"], ValueError, "moves() returned ['a']"),
    ("moves", None, ValueError, "moves() returned None"),
    ("estimate", (1,), ValueError, "estimate() returned (1,)"),
    ("estimate", (-1, 2), ValueError, "estimate() returned (-1, 2)"),
]


@pytest.mark.parametrize("method,returns,kind,message", WRONG_RETURNS)
def test_a_method_returning_the_wrong_thing_raises_a_clear_error(
        method: str, returns: Any, kind: type, message: str) -> None:
    solver = Solver(table_bytes=1 << 12, max_depth=32, max_moves=3)
    with pytest.raises(kind, match=re.escape(message)):
        solver.solve_value(broken_nim(method, returns))
    # The solver still answers (Nim 10 is a win: take 2).
    assert solver.solve_value(Nim(10)).value == Outcome.WIN


HUGE = "x" * 100_000


@pytest.mark.parametrize("method,returns", [
    pytest.param(method, returns, id=f"{method}-{kind}") for method, returns, kind in [
        ("side_to_move", HUGE, "str"), ("hash", HUGE, "str"), ("outcome", HUGE, "str"),
        ("moves", [HUGE], "str"), ("moves", list(range(-1, -100_000, -1)), "list"),
        ("estimate", (HUGE, 1), "str"), ("side_to_move", 10**5000, "int"),
        ("outcome", 10**5000, "int"), ("moves", [10**5000], "int"),
    ]
])
def test_a_huge_return_value_is_shown_by_a_short_prefix(method: str, returns: Any) -> None:
    # The message names what the method returned in about 100 characters (a string's start
    # and length, a list's first items, an int Python will not print by its size), never the
    # whole.
    with pytest.raises((TypeError, ValueError)) as caught:
        Solver(table_bytes=1 << 12, max_depth=32, max_moves=3).solve_value(
            broken_nim(method, returns))
    message = str(caught.value)
    assert len(message) < 400, message[:400]
    assert f"Broken.{method}() returned" in message, message


@pytest.mark.parametrize("call", [
    lambda: Solver(max_depth=10**5000),
    lambda: Solver(max_depth=-10**5000),
    lambda: Solver(engine=HUGE),  # type: ignore[arg-type]
    lambda: Solver(epsilon=HUGE),  # type: ignore[arg-type]
    lambda: Solver().solve(Nim(5), HUGE),  # type: ignore[arg-type]
    lambda: Solver().verify(Nim(5), Side.FIRST, HUGE),  # type: ignore[arg-type]
    lambda: Solver().solve_value(Nim(5), max_time=HUGE),  # type: ignore[arg-type]
    lambda: Solver().solve_value(Nim(5), max_nodes=10**5000),
])
def test_a_huge_argument_is_shown_by_a_short_prefix(call: Callable[[], object]) -> None:
    with pytest.raises((TypeError, ValueError)) as caught:
        call()
    message = str(caught.value)
    assert len(message) < 400, message[:400]
    assert "characters)" in message or "bits" in message, message


def test_a_long_string_is_cut_and_its_length_given() -> None:
    with pytest.raises(ValueError) as caught:
        Solver().solve(Nim(5), HUGE)  # type: ignore[arg-type]
    assert str(caught.value) == ("attacker must be Side.FIRST or Side.SECOND; got '"
                                 + "x" * 99 + "… (100000 characters)")


def test_hashes_fill_the_64_bits() -> None:
    # Every hash from 0 to 2**64 - 1 is taken as it is: Nim with its hashes at the top and the
    # bottom of the range (Nim(21) is a win: take 1).
    class High(Nim):
        def hash(self) -> int:
            return 2**64 - 1 - super().hash()

    for game in (Nim(21), High(21)):
        result = Solver(table_bytes=1 << 12, max_depth=32, max_moves=3).solve_value(game)
        assert (result.value, result.best_move) == (Outcome.WIN, 1)


@pytest.mark.parametrize("method", ["side_to_move", "hash", "outcome", "moves", "play", "undo",
                                    "estimate"])
@pytest.mark.parametrize("raised", [RuntimeError("game bug"), KeyboardInterrupt(),
                                    SystemExit(3)])
def test_an_exception_in_a_method_is_raised_after_the_search(
        method: str, raised: BaseException) -> None:
    game = broken_nim(method, None)

    def boom(self: Nim, *args: Any) -> Any:
        if self.stones < 8:
            raise raised
        return getattr(Nim, method, lambda self: None)(self, *args)

    setattr(type(game), method, boom)
    solver = Solver(table_bytes=1 << 12, max_depth=32, max_moves=3)
    with pytest.raises(type(raised)) as caught:
        solver.solve_value(game)
    assert caught.value is raised
    if sys.version_info >= (3, 11):
        assert any(f"Broken.{method}() during proofnum's Solver.solve_value" in note
                   for note in caught.value.__notes__)
    assert solver.solve(Nim(12), Side.FIRST).proven is False  # a multiple of four


class NimWhosePlayFails(Nim):
    """Nim whose `failing`-th call of `play` raises without playing, keeping a ledger of the
    moves on the pile: an `undo` with none on it takes back a move that was never played."""

    def __init__(self, stones: int, failing: int) -> None:
        super().__init__(stones)
        self.failing, self.plays, self.on_pile, self.undos_of_unplayed_moves = failing, 0, 0, 0

    def play(self, take: int) -> None:
        self.plays += 1
        if self.plays == self.failing:
            raise RuntimeError("play failed")
        super().play(take)
        self.on_pile += 1

    def undo(self, take: int) -> None:
        if self.on_pile == 0:
            self.undos_of_unplayed_moves += 1
        else:
            self.on_pile -= 1
        super().undo(take)


SEARCHES_THAT_PLAY = [pytest.param(call, engine, id=f"{call}-{engine.name}")
                      for engine in Engine for call in ("solve", "solve_value")]
SEARCHES_THAT_PLAY += [pytest.param(call, Engine.DFPN, id=call)
                       for call in ("verify", "principal_variation")]


@pytest.mark.parametrize("call,engine", SEARCHES_THAT_PLAY)
def test_a_play_that_raises_is_never_undone_and_the_game_is_restored(
        call: str, engine: Engine) -> None:
    # A move whose play raised was not played: taking it back would leave the game a ply off.
    # Whichever play raises, the exception comes out, no unplayed move was undone, and the
    # pile is back at its 9 stones with the first player to move.
    for failing in range(1, 25):
        game = NimWhosePlayFails(9, failing)
        solver = Solver(table_bytes=1 << 12, max_depth=32, max_moves=3, engine=engine,
                        arena_nodes=1024)
        searches: Dict[str, Callable[[], object]] = {
            "solve": lambda: solver.solve(game, Side.FIRST),
            "solve_value": lambda: solver.solve_value(game),
            "verify": lambda: solver.verify(game, Side.FIRST, True),
            "principal_variation": lambda: solver.principal_variation(game, Side.FIRST),
        }
        with pytest.raises(RuntimeError, match="play failed"):
            searches[call]()
        assert game.undos_of_unplayed_moves == 0, f"play {failing} failing"
        assert game.on_pile == 0, f"play {failing} failing: a played move was left"
        assert (game.stones, game.to_move) == (9, Side.FIRST), f"play {failing} failing"


def test_repetition_value_under_by_position() -> None:
    class Cycle(Nim):
        """Nim where a move of 3 from 5 stones comes back to 5 stones: a cycle."""

        repetition_rule = Repetition.BY_POSITION

        def repetition_value(self) -> Outcome:
            return Outcome.UNKNOWN  # not a value

    with pytest.raises(ValueError, match=r"Cycle.repetition_value\(\) returned"):
        # Positions never repeat in Nim, so wrap play to make one that does.
        game = Cycle(6)
        game.play = lambda take: Nim.play(game, take) if game.stones > 4 else None  # type: ignore
        game.undo = lambda take: Nim.undo(game, take) if game.stones > 3 else None  # type: ignore
        Solver(max_depth=32).solve_value(game)


@pytest.mark.parametrize("not_a_game,message", [
    (object(), "object is not a proofnum.Game: it has no side_to_move"),
    ("nim", "str is not a proofnum.Game"),
    (None, "NoneType is not a proofnum.Game"),
])
def test_something_that_is_not_a_game(not_a_game: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        Solver().solve_value(not_a_game)


def test_a_game_class_with_a_bad_repetition_rule() -> None:
    class Bad(Nim):
        repetition_rule = 5  # type: ignore[assignment]

    class NoValue(Nim):
        repetition_rule = Repetition.BY_POSITION

    with pytest.raises(TypeError, match="repetition_rule is 5"):
        Solver().solve_value(Bad(3))
    with pytest.raises(TypeError, match="has no repetition_value"):
        Solver().solve_value(NoValue(3))


def test_a_game_needs_only_the_methods() -> None:
    # Duck typing: no subclass of Game, no repetition_rule (a repetition is a draw).
    class Plain:
        def __init__(self) -> None:
            self.game = Nim(7)

        def side_to_move(self) -> Side:
            return self.game.side_to_move()

        def hash(self) -> int:
            return self.game.hash()

        def outcome(self) -> Outcome:
            return self.game.outcome()

        def moves(self) -> Any:
            return self.game.moves()

        def play(self, move: int) -> None:
            self.game.play(move)

        def undo(self, move: int) -> None:
            self.game.undo(move)

    assert isinstance(Plain(), proofnum.Game)
    result = Solver().solve_value(Plain())
    assert (result.value, result.best_move) == (Outcome.WIN, 3)


def test_too_many_moves_names_the_count_and_the_setting() -> None:
    with pytest.raises(TooManyMoves, match="a position listed 9 moves; this solver's max_moves "
                                           "is 4: make one with a larger max_moves") as caught:
        Solver(max_moves=4).solve_value(TicTacToe())
    assert caught.value.stats is not None


@pytest.mark.parametrize("settings,kind,message", [
    ({"table_bytes": 100}, ValueError, "table_bytes must be from 191"),
    ({"table_bytes": "1 MiB"}, TypeError, "table_bytes must be an int, not str"),
    ({"max_depth": 0}, ValueError, "max_depth must be from 1 to 65534"),
    ({"max_depth": 70000}, ValueError, "max_depth must be from 1 to 65534"),
    ({"max_depth": True}, TypeError, "max_depth must be an int, not bool"),
    ({"max_moves": -1}, ValueError, "max_moves must be from 1"),
    ({"max_moves": 2.5}, TypeError, "max_moves must be an int, not float"),
    ({"epsilon": (1, 0)}, ValueError, "epsilon's denominator must be from 1"),
    ({"epsilon": 0.25}, TypeError, "epsilon must be a Fraction or a \\(numerator, "),
    ({"table_bytes": 2**64 - 1}, InvalidConfiguration, "does not fit in the address space"),
    ({"engine": 7}, ValueError, "engine must be an Engine"),
    ({"engine": 1.0}, ValueError, "engine must be an Engine"),
    # Fits the address space, but no allocator gives 4 EiB: a message, not a bare MemoryError.
    ({"table_bytes": 2**62}, MemoryError, "cannot allocate the .* bytes these settings need"),
    ({"verify_memo_entries": -5}, ValueError, "verify_memo_entries must be from 0"),
    # Checked by the library: PNS records a position's move count in 15 bits.
    ({"engine": Engine.PNS, "max_moves": 40000}, InvalidConfiguration,
     "Solver\\(\\): .*\\(PNS and PN2 allow at most 32767 moves a position; "
     "config.max_moves is 40000; expected 1 to 32767"),
])
def test_settings_out_of_range(settings: Dict[str, Any], kind: type, message: str) -> None:
    with pytest.raises(kind, match=message):
        Solver(**settings)


@pytest.mark.parametrize("attacker", [2, -1, "FIRST", None, 1.0])
def test_attacker_must_be_a_side(attacker: Any) -> None:
    with pytest.raises(ValueError, match="attacker must be Side.FIRST or Side.SECOND"):
        Solver().solve(Nim(5), attacker)


# A bool is an int to Python (True == 1, False == 0), so True passed for a side, a move or a
# hash used to be taken for 1: almost surely a bug in the caller or the game. Every int the
# package takes refuses a bool with a TypeError that says so.

@pytest.mark.parametrize("method,returns,message", [
    ("side_to_move", True, "side_to_move() returned True, a bool; expected Side.FIRST"),
    ("side_to_move", False, "side_to_move() returned False, a bool"),
    ("hash", True, "hash() returned True, a bool; expected an int"),
    ("outcome", False, "outcome() returned False, a bool; expected an Outcome"),
    ("moves", [True, 2], "moves() returned [True, 2], which holds a bool"),
    ("moves", (1, False), "moves() returned (1, False), which holds a bool"),
    ("moves", iter([True]), "moves() returned [True], which holds a bool"),
    ("estimate", (True, 1), "estimate() returned (True, 1), which holds a bool"),
])
def test_a_game_method_returning_a_bool_for_an_int_is_a_type_error(
        method: str, returns: Any, message: str) -> None:
    with pytest.raises(TypeError, match=re.escape(message)):
        Solver(table_bytes=1 << 12, max_depth=32, max_moves=3).solve_value(
            broken_nim(method, returns))


def test_repetition_value_returning_a_bool_is_a_type_error() -> None:
    class Cycle(Nim):
        repetition_rule = Repetition.BY_POSITION

        def repetition_value(self) -> Outcome:
            return True  # type: ignore[return-value]

    game = Cycle(6)
    game.play = lambda take: Nim.play(game, take) if game.stones > 4 else None  # type: ignore
    game.undo = lambda take: Nim.undo(game, take) if game.stones > 3 else None  # type: ignore
    with pytest.raises(TypeError, match=re.escape("repetition_value() returned True, a bool")):
        Solver(max_depth=32).solve_value(game)


@pytest.mark.parametrize("call", [
    pytest.param(lambda: Solver().solve(Nim(5), True), id="solve"),  # type: ignore[arg-type]
    pytest.param(lambda: Solver().verify(Nim(5), False, True), id="verify"),  # type: ignore
    pytest.param(lambda: Solver().principal_variation(Nim(5), True),  # type: ignore[arg-type]
                 id="principal_variation"),
])
def test_a_bool_is_not_a_side(call: Callable[[], object]) -> None:
    with pytest.raises(TypeError, match="attacker must be Side.FIRST or Side.SECOND, not a bool"):
        call()


def test_a_bool_is_not_an_engine() -> None:
    with pytest.raises(TypeError, match="engine must be an Engine .*, not a bool"):
        Solver(engine=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("proven", ["yes", None, 1])
def test_a_claim_to_verify_is_a_bool(proven: Any) -> None:
    with pytest.raises(TypeError, match="proven must be True"):
        Solver().verify(Nim(5), Side.FIRST, proven)


@pytest.mark.parametrize("max_time", [math.inf, 1e30])
def test_a_time_limit_past_what_the_library_counts_is_no_limit(max_time: float) -> None:
    result = Solver().solve_value(Nim(21), max_time=max_time)
    assert (result.value, result.best_move) == (Outcome.WIN, 1)


@pytest.mark.parametrize("limits,kind,message", [
    ({"max_nodes": -1}, ValueError, "max_nodes must be from 0"),
    ({"max_nodes": 1.0}, TypeError, "max_nodes must be an int"),
    ({"max_time": -1}, ValueError, "max_time must be a number of seconds >= 0"),
    ({"max_time": "1s"}, ValueError, "max_time must be a number of seconds"),
    ({"progress": 5}, TypeError, "progress must be callable"),
])
def test_limits_out_of_range(limits: Dict[str, Any], kind: type, message: str) -> None:
    with pytest.raises(kind, match=message):
        Solver().solve_value(Nim(5), **limits)


def test_saved_tables_load_and_garbage_does_not() -> None:
    game = ConnectFour(4, 4, "23")
    solver = Solver(table_bytes=1 << 16, max_depth=16, max_moves=4)
    cold = solver.solve_value(game)
    saved = solver.save_table()
    assert len(saved) == solver.table_info().saved_bytes > 0

    other = Solver(table_bytes=1 << 16, max_depth=16, max_moves=4)
    other.load_table(saved)
    warm = other.solve_value(game)
    assert warm.value == cold.value and warm.stats.mid_calls < cold.stats.mid_calls

    info = other.table_info()
    for garbage, message in [(b"", "0 bytes given"), (b"not a table" * 10, "110 bytes given"),
                             (saved[:100], "100 bytes given")]:
        with pytest.raises(TableLoadError, match=message):
            other.load_table(garbage)
        assert other.table_info() == info, "a failed load leaves the table as it was"
    small = Solver(table_bytes=1 << 12, max_depth=16, max_moves=4)
    with pytest.raises(TableLoadError, match=f"saved table \\({len(saved)} bytes\\) is larger"):
        small.load_table(saved)
    with pytest.raises(TypeError, match="load_table takes bytes, not str"):
        other.load_table("table")  # type: ignore[arg-type]


def test_a_full_pns_arena_is_a_memory_limit() -> None:
    solver = Solver(engine=Engine.PNS, arena_nodes=50, max_depth=16, max_moves=4)
    with pytest.raises(MemoryLimitReached, match="arena"):
        solver.solve_value(ConnectFour(4, 4))
    assert solver.solve_value(Nim(5)).value == Outcome.WIN  # a small tree fits


def test_errors_from_the_library_carry_its_message() -> None:
    """A status from the C library comes with the library's words for what was wrong."""
    with pytest.raises(InvalidConfiguration) as refused:
        Solver(engine=Engine.PNS, max_moves=40000)
    assert refused.value.library_message.startswith(
        "config.max_moves is 40000; expected 1 to 32767 (PN_PNS_MAX_MOVES)")
    assert refused.value.library_message in str(refused.value)
    solver = Solver(table_bytes=1 << 12, max_depth=16, max_moves=4)
    with pytest.raises(TableLoadError) as garbage:
        solver.load_table(b"not a table" * 10)
    assert ("the 110 saved bytes do not begin with a proofnum table header"
            in str(garbage.value))
    with pytest.raises(TableLoadError) as short:
        solver.load_table(b"x")
    assert "the 1 saved bytes are too few" in short.value.library_message


class Deferring(Nim):
    """Nim whose last `count` moves are deferred (`deferred_moves`)."""

    def __init__(self, stones: int, count: Any) -> None:
        super().__init__(stones)
        self.count = count

    def deferred_moves(self) -> Any:
        return self.count


def test_deferred_moves_change_no_value() -> None:
    solver = Solver(max_depth=64)
    for count in (1, 2, 5):
        for stones in range(1, 17):
            solver.clear_table()
            result = solver.solve_value(Deferring(stones, count))
            want = Outcome.LOSS if stones % 4 == 0 else Outcome.WIN
            assert result.value == want, f"{stones} stones, {count} deferred"


@pytest.mark.parametrize("count,error", [(-1, ValueError), (True, TypeError), ("2", ValueError)])
def test_a_bad_deferred_count_raises(count: Any, error: type) -> None:
    with pytest.raises(error, match=r"Deferring.deferred_moves\(\) returned"):
        Solver().solve_value(Deferring(9, count))

"""Dominance from Python: the optional `Game.class_hash()`, `material()` and
`material_at_least()`.

The games (as ffi-tests/test_dominance.c and the core's tests/dominance.rs): random layered
DAGs whose positions are a graph node and the first player's stones in hand. The first player
may play a graph move, or, with a stone in hand, drop one on the way (the same graph move,
spending a stone). A leaf is won by the first player when it holds at least the leaf's
threshold of stones. More stones never hurt the first player (its moves with more are a
superset, the second player's are the same, the leaves are monotone), so the dominance the
methods declare is true by construction: the class is the node, the material the stones, more
at least as good for the first player and fewer for the second. The reference is negamax over
(node, stones) in this file, which never uses proofnum.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Dict, List, Optional, Tuple

import pytest

from proofnum import (Engine, InvalidCertificate, Outcome, Refuted, Repetition, Side, Solver,
                      Unconfirmed, check_certificate)

# The games' shape: 2 to MAX_LAYERS layers of 1 to MAX_WIDTH nodes, up to MAX_CHILDREN children
# in the next layer, leaves' thresholds up to MAX_THRESHOLD, up to MAX_STONES stones at the root.
MAX_LAYERS, MAX_WIDTH, MAX_CHILDREN, MAX_THRESHOLD, MAX_STONES = 12, 8, 4, 4, 5
# A leaf among interior nodes, in per cent.
LEAF_PERCENT = 15
GAMES = 120
SEED = 20_261_126


@dataclass
class Node:
    mover: Side
    children: List[int] = field(default_factory=list)
    #: A leaf: the first player wins with at least this many stones (None: interior).
    threshold: Optional[int] = None
    #: The node's class hash.
    hash: int = 0


def random_graph(rng: random.Random) -> List[Node]:
    """A layered DAG: each node's children are in the next layer, the last layer is leaves."""
    layers = rng.randint(2, MAX_LAYERS)
    width = rng.randint(1, MAX_WIDTH)
    nodes: List[Node] = []
    starts = []
    for layer in range(layers):
        starts.append(len(nodes))
        count = 1 if layer == 0 else rng.randint(1, width)
        nodes.extend(Node(Side.FIRST if layer % 2 == 0 else Side.SECOND, hash=rng.getrandbits(64))
                     for _ in range(count))
    starts.append(len(nodes))
    for layer in range(layers):
        for node in nodes[starts[layer]:starts[layer + 1]]:
            if layer + 1 == layers or rng.randrange(100) < LEAF_PERCENT:
                node.threshold = rng.randint(0, MAX_THRESHOLD)
                continue
            tries = min(rng.randint(1, MAX_CHILDREN), rng.randint(1, MAX_CHILDREN))
            for _ in range(tries):
                child = rng.randrange(starts[layer + 1], starts[layer + 2])
                if child not in node.children:
                    node.children.append(child)
    return nodes


def first_wins(nodes: List[Node], stones: int) -> bool:
    """The reference: does the first player win from the root with `stones`? Negamax over
    (node, stones)."""

    @lru_cache(maxsize=None)
    def wins(at: int, held: int) -> bool:
        node = nodes[at]
        if node.threshold is not None:
            return held >= node.threshold
        options = [(child, held) for child in node.children]
        if node.mover == Side.FIRST and held > 0:
            options += [(child, held - 1) for child in node.children]
        results = (wins(child, left) for child, left in options)
        return any(results) if node.mover == Side.FIRST else all(results)

    return wins(0, stones)


class Stones:
    """A position of a random game, without dominance. Moves are `to << 1 | drop`."""

    repetition_rule = Repetition.ACYCLIC  # a DAG

    def __init__(self, nodes: List[Node], stones: int) -> None:
        self.nodes, self.at, self.stones = nodes, 0, stones
        self.path: List[int] = []

    def side_to_move(self) -> Side:
        return self.nodes[self.at].mover

    def hash(self) -> int:
        return self.nodes[self.at].hash ^ ((self.stones + 1) * 0x9E3779B97F4A7C15 & (2**64 - 1))

    def outcome(self) -> Outcome:
        node = self.nodes[self.at]
        if node.threshold is None:
            return Outcome.UNKNOWN
        first_wins_here = self.stones >= node.threshold
        return Outcome.WIN if first_wins_here == (node.mover == Side.FIRST) else Outcome.LOSS

    def moves(self) -> List[int]:
        node = self.nodes[self.at]
        moves = [child << 1 for child in node.children]
        if node.mover == Side.FIRST and self.stones > 0:
            moves += [child << 1 | 1 for child in node.children]
        return moves

    def play(self, move: int) -> None:
        self.path.append(self.at)
        self.at, self.stones = move >> 1, self.stones - (move & 1)

    def undo(self, move: int) -> None:
        self.at, self.stones = self.path.pop(), self.stones + (move & 1)

    def encode(self) -> bytes:
        return bytes((self.at, self.stones))


class DominantStones(Stones):
    """The same positions, declaring their dominance; counts the calls."""

    def __init__(self, nodes: List[Node], stones: int) -> None:
        super().__init__(nodes, stones)
        self.calls: Dict[str, int] = {"class_hash": 0, "material": 0, "material_at_least": 0}

    def class_hash(self) -> int:
        self.calls["class_hash"] += 1
        return self.nodes[self.at].hash

    def material(self) -> int:
        self.calls["material"] += 1
        return self.stones

    def material_at_least(self, side: Side, a: int, b: int) -> bool:
        self.calls["material_at_least"] += 1
        assert isinstance(side, Side)
        return a >= b if side == Side.FIRST else a <= b


def games(seed: int, count: int) -> List[Tuple[List[Node], int]]:
    rng = random.Random(seed)
    return [(random_graph(rng), rng.randint(0, MAX_STONES)) for _ in range(count)]


def value(first_wins_root: bool) -> Outcome:
    """The root's value: its first player is to move."""
    return Outcome.WIN if first_wins_root else Outcome.LOSS


@pytest.mark.parametrize("engine", [Engine.DFPN, Engine.PNS])
def test_random_games_with_and_without_dominance_answer_as_negamax(engine: Engine) -> None:
    solver = Solver(table_bytes=1 << 14, max_depth=2 * MAX_LAYERS, max_moves=2 * MAX_CHILDREN,
                    engine=engine, arena_nodes=4096 if engine == Engine.PNS else 0)
    mid_calls = {True: 0, False: 0}
    for nodes, stones in games(SEED, GAMES):
        want = value(first_wins(nodes, stones))
        for dominance in (True, False):
            game = DominantStones(nodes, stones) if dominance else Stones(nodes, stones)
            solver.clear_table()
            result = solver.solve_value(game)
            assert result.value == want, (stones, dominance)
            assert (game.at, game.stones) == (0, stones)
            mid_calls[dominance] += result.stats.mid_calls
    # Deterministic (a fixed seed, fresh tables): dominance saves search.
    assert mid_calls[True] < mid_calls[False], mid_calls


def test_the_three_methods_are_asked_with_sides_and_every_answer_is_confirmed() -> None:
    solver = Solver(table_bytes=1 << 14, max_depth=2 * MAX_LAYERS, max_moves=2 * MAX_CHILDREN)
    asked = 0
    for nodes, stones in games(SEED + 1, GAMES):
        game = DominantStones(nodes, stones)
        solver.clear_table()
        result = solver.solve_value(game)
        assert result.value == value(first_wins(nodes, stones))
        assert result.stats.refutations == 0
        asked += game.calls["material_at_least"] > 0
        # A solve with dominance, then the walk: the claim holds.
        assert solver.verify(game, Side.FIRST, result.value == Outcome.WIN).holds
    assert asked > 0


@lru_cache(maxsize=None)
def a_game_that_compares() -> Tuple[List[Node], int]:
    """A game whose search asks material_at_least (a class met twice). Unconfirmed, as the
    tests that use it solve: the verification walk compares materials too (its class hints), so
    a game found with it might compare only there."""
    solver = Solver(table_bytes=1 << 14, max_depth=2 * MAX_LAYERS, max_moves=2 * MAX_CHILDREN,
                    confirm=False)
    for nodes, stones in games(SEED + 2, 200):
        game = DominantStones(nodes, stones)
        solver.solve_value(game)
        if game.calls["material_at_least"] > 0:
            return nodes, stones
    raise AssertionError("no game compared materials")


@pytest.mark.parametrize("missing", [
    ("material",), ("material_at_least",), ("class_hash",), ("material", "material_at_least"),
])
def test_one_or_two_of_the_three_methods_are_refused(missing: Tuple[str, ...]) -> None:
    nodes, stones = games(SEED, 1)[0]
    members: Dict[str, Any] = {
        name: getattr(DominantStones, name)
        for name in ("class_hash", "material", "material_at_least") if name not in missing}
    Partial = type("Partial", (Stones,), members)
    with pytest.raises(TypeError, match="dominance needs all three of class_hash"):
        Solver().solve_value(Partial(nodes, stones))


def test_dominance_under_the_by_position_rule_is_refused() -> None:
    class ByPosition(DominantStones):
        repetition_rule = Repetition.BY_POSITION

        def repetition_value(self) -> Outcome:
            return Outcome.DRAW

    nodes, stones = games(SEED, 1)[0]
    with pytest.raises(TypeError, match="dominance under Repetition.BY_POSITION"):
        Solver().solve_value(ByPosition(nodes, stones))


WRONG_RETURNS = [
    ("class_hash", True, TypeError, "class_hash() returned True, a bool; expected an int"),
    ("class_hash", -1, ValueError, "class_hash() returned -1; expected an int from 0 to 2**64 - 1"),
    ("class_hash", 2**64, ValueError, "class_hash() returned 18446744073709551616"),
    ("class_hash", 1.5, TypeError, "class_hash() returned 1.5; expected an int"),
    ("material", False, TypeError, "material() returned False, a bool; expected an int"),
    ("material", -1, ValueError, "material() returned -1; expected an int from 0 to 2**32 - 1"),
    ("material", 2**32, ValueError, "material() returned 4294967296"),
    ("material", "3", TypeError, "material() returned '3'; expected an int"),
    ("material_at_least", 1, TypeError, "material_at_least() returned 1; expected True or False"),
    ("material_at_least", None, TypeError, "material_at_least() returned None"),
]


@pytest.mark.parametrize("method,returns,kind,message", WRONG_RETURNS)
def test_a_method_returning_the_wrong_thing_raises_a_clear_error(
        method: str, returns: Any, kind: type, message: str) -> None:
    nodes, stones = a_game_that_compares()

    class Broken(DominantStones):
        pass

    setattr(Broken, method, lambda self, *args: returns)
    solver = Solver(table_bytes=1 << 14, max_depth=2 * MAX_LAYERS, max_moves=2 * MAX_CHILDREN,
                    confirm=False)
    with pytest.raises(kind, match=re.escape(message)):
        solver.solve_value(Broken(nodes, stones))
    # The solver still answers right over the same table, unconfirmed: the failed call left
    # nothing there that misleads it.
    for held in range(MAX_STONES + 1):
        result = solver.solve_value(DominantStones(nodes, held))
        assert result.value == value(first_wins(nodes, held))


@pytest.mark.parametrize("method", ["class_hash", "material", "material_at_least"])
@pytest.mark.parametrize("raised", [RuntimeError("game bug"), KeyboardInterrupt()])
def test_an_exception_in_a_method_is_raised_after_the_search(
        method: str, raised: BaseException) -> None:
    nodes, stones = a_game_that_compares()

    class Raising(DominantStones):
        pass

    def boom(self: DominantStones, *args: Any) -> Any:
        raise raised

    setattr(Raising, method, boom)
    game = Raising(nodes, stones)
    with pytest.raises(type(raised)):
        Solver(max_depth=2 * MAX_LAYERS, max_moves=2 * MAX_CHILDREN).solve_value(game)
    assert (game.at, game.stones) == (0, stones)


def test_a_false_order_is_never_reported_under_confirmation() -> None:
    # Fewer stones claimed better for the first player: the game's bug. Confirmed, the answer
    # is right or Unconfirmed, never wrong; some searches were misled (without confirmation
    # they answer wrong), so the test asks something.
    class Reversed(DominantStones):
        def material_at_least(self, side: Side, a: int, b: int) -> bool:
            return a <= b if side == Side.FIRST else a >= b

    solver = Solver(table_bytes=1 << 14, max_depth=2 * MAX_LAYERS, max_moves=2 * MAX_CHILDREN)
    unconfirmed = 0
    for nodes, stones in games(SEED + 3, GAMES):
        solver.clear_table()
        try:
            result = solver.solve_value(Reversed(nodes, stones))
        except Unconfirmed:
            unconfirmed += 1
            continue
        assert result.value == value(first_wins(nodes, stones))
    assert unconfirmed > 0


def test_certificates_carry_dominance_records_the_checker_takes_from_the_methods() -> None:
    """`Solver.certify` writes a dominance record where the walk settles a position by one of
    its class; `check_certificate` accepts it through the three methods, and the same
    positions without them refuse such a certificate as faulty."""
    solver = Solver(table_bytes=1 << 14, max_depth=2 * MAX_LAYERS, max_moves=2 * MAX_CHILDREN)
    refused = 0
    for nodes, stones in games(SEED + 3, GAMES):
        wins = first_wins(nodes, stones)
        game = DominantStones(nodes, stones)
        solver.clear_table()
        certificate = solver.certify(game, Side.FIRST, wins, "stones")
        report = check_certificate(game, "stones", certificate)
        assert report.exact and report.message.startswith("valid: ")
        try:
            check_certificate(Stones(nodes, stones), "stones", certificate)
        except InvalidCertificate as e:
            assert "claims dominance" in str(e), e
            refused += 1
        assert (game.at, game.stones) == (0, stones), "restored"
    assert refused > 0, "no certificate used dominance"


def test_class_encodings_keep_a_colliding_class_hash_from_wrong_answers() -> None:
    """With `encode_class()`, the confirming walk and `check_certificate` tell classes apart by
    it: over a class hash that collides for every class (the table's class entries then
    mislead the search), every answer is right or Unconfirmed, never wrong; certificates check;
    the method is asked."""

    class Encoded(DominantStones):
        def class_hash(self) -> int:
            self.calls["class_hash"] += 1
            return 0x5EED

        def encode_class(self) -> bytes:
            self.calls["encode_class"] = self.calls.get("encode_class", 0) + 1
            return bytes((self.at,))

    solver = Solver(table_bytes=1 << 14, max_depth=2 * MAX_LAYERS, max_moves=2 * MAX_CHILDREN)
    right = asked = 0
    for nodes, stones in games(SEED + 4, GAMES):
        wins = first_wins(nodes, stones)
        game = Encoded(nodes, stones)
        solver.clear_table()
        try:
            result = solver.solve_value(game)
            assert result.value == value(wins)
            right += 1
        except Unconfirmed:
            pass
        asked += game.calls.get("encode_class", 0) > 0
        solver.clear_table()
        try:
            certificate = solver.certify(game, Side.FIRST, wins, "stones")
        except Refuted:
            continue  # the walk's searches, misled by the table, did not show it
        assert check_certificate(game, "stones", certificate).exact
    assert right > 0 and asked > 0, (right, asked)

"""Trust: confirmed answers, exact encodings and proof certificates.

- The "two doors" game (the Rust tests' tests/common/doors.rs, here in Python): the attacker
  opens door A or B; behind A the defender must go to P, where the attacker can only lose;
  behind B to Q, where it can only win. So the attacker wins, through B. When P and Q hash
  equal, a search that stored P as lost reads Q as lost too: every unconfirmed answer is wrong
  (asserted, so these tests bite), and the default, confirmed answer is `Unconfirmed`, never
  wrong, since the confirming walk tells P and Q apart by `encode()`.
- Certificates of tic-tac-toe (negamax's values, references.py) written by `Solver.certify`
  and checked by `check_certificate`; spoiled ones rejected with their reasons.
- Exceptions raised in `encode()` or while writing a certificate are raised after the call.
"""

from __future__ import annotations

import errno
import tempfile
from pathlib import Path
from typing import Any, List, Optional, cast

import pytest
from games import Nim
from tictactoe import TicTacToe

import references as ref
from proofnum import (CertificateReport, Engine, Game, InvalidCertificate, InvalidGame,
                      NodeLimitReached, Outcome, Refuted, Repetition, Side, Solver,
                      TooManyMoves, Unconfirmed, check_certificate)

ROOT, DOOR_A, DOOR_B, P, Q, LOST, WON = range(7)
PARENT = [ROOT, ROOT, ROOT, DOOR_A, DOOR_B, P, Q]
NEXT = {ROOT: [DOOR_A, DOOR_B], DOOR_A: [P], DOOR_B: [Q], P: [LOST], Q: [WON], LOST: [],
        WON: []}
SAME = 0xC0FFEE0012345678


class Doors(Game):
    """The two doors, with the hashes of P and Q chosen by the test, and no encoding."""

    repetition_rule = Repetition.ACYCLIC

    def __init__(self, hash_p: int, hash_q: int) -> None:
        self.at, self.hash_p, self.hash_q = ROOT, hash_p, hash_q

    def side_to_move(self) -> Side:
        return Side.FIRST if self.at in (ROOT, P, Q) else Side.SECOND

    def hash(self) -> int:
        return {P: self.hash_p, Q: self.hash_q}.get(self.at, 0x5EED0000 + self.at)

    def outcome(self) -> Outcome:
        # The defender is to move at LOST (it has won) and at WON (it has lost).
        return {LOST: Outcome.WIN, WON: Outcome.LOSS}.get(self.at, Outcome.UNKNOWN)

    def moves(self) -> List[int]:
        return NEXT[self.at]

    def play(self, move: int) -> None:
        assert PARENT[move] == self.at and move != ROOT
        self.at = move

    def undo(self, move: int) -> None:
        assert move == self.at
        self.at = PARENT[move]


class ExactDoors(Doors):
    """The two doors with their exact encoding: the position's number."""

    def encode(self) -> bytes:
        return bytes([self.at])


class EncodedTicTacToe(TicTacToe):
    """The example's tic-tac-toe with its exact encoding: nine cells and the side to move."""

    def encode(self) -> bytes:
        return bytes([0 if c is None else 1 + int(c) for c in self.cells] + [self.to_move])


ENGINES = [Engine.DFPN, Engine.PNS, Engine.PN2]
TTT = "tic-tac-toe"


def solver(engine: Engine = Engine.DFPN, confirm: bool = True) -> Solver:
    return Solver(table_bytes=1 << 16, max_depth=12, max_moves=9, engine=engine,
                  arena_nodes=4096, second_level_nodes=64, confirm=confirm)


@pytest.mark.parametrize("engine", ENGINES)
def test_equal_hashes_make_unconfirmed_answers_wrong_and_confirmed_ones_unconfirmed(
        engine: Engine) -> None:
    # Told apart: right, confirmed.
    result = solver(engine).solve(ExactDoors(1, 2), Side.FIRST)
    assert (result.proven, result.best_move) == (True, DOOR_B)
    assert result.stats.confirm_nodes > 0 and result.stats.refutations == 0

    # Colliding, unconfirmed: wrong (the attacker does win, through B).
    assert solver(engine, confirm=False).solve(ExactDoors(SAME, SAME), Side.FIRST).proven is False
    value = solver(engine, confirm=False).solve_value(ExactDoors(SAME, SAME))
    assert value.value != Outcome.WIN
    assert value.stats.confirm_nodes == 0

    # Colliding, confirmed (the default): no answer rather than a wrong one.
    doors = ExactDoors(SAME, SAME)
    with pytest.raises(Unconfirmed, match="answers refuted") as raised:
        solver(engine).solve(doors, Side.FIRST)
    assert raised.value.stats is not None and raised.value.stats.refutations > 0
    with pytest.raises(Unconfirmed):
        solver(engine).solve_value(doors)
    assert doors.at == ROOT


def test_the_default_solver_confirms_and_confirm_false_walks_nothing() -> None:
    assert Solver().confirm is True
    on = Solver(table_bytes=1 << 16).solve_value(TicTacToe())
    off = Solver(table_bytes=1 << 16, confirm=False).solve_value(TicTacToe())
    assert on.value == off.value == Outcome.DRAW
    assert on.stats.confirm_nodes > 0 and off.stats.confirm_nodes == 0
    with pytest.raises(TypeError, match="confirm must be True or False"):
        Solver(confirm=1)  # type: ignore[arg-type]


def test_a_loaded_table_is_confirmed_even_when_opted_out() -> None:
    writer = solver(confirm=False)
    writer.solve(ExactDoors(1, 2), Side.FIRST)
    reader = solver(confirm=False)
    reader.load_table(writer.save_table())
    assert reader.solve(ExactDoors(1, 2), Side.FIRST).stats.confirm_nodes > 0
    reader.clear_table()
    assert reader.solve(ExactDoors(1, 2), Side.FIRST).stats.confirm_nodes == 0


POSITIONS = ["", "0", "4", "01", "04", "0143", "012", "40"]


@pytest.mark.parametrize("played", POSITIONS)
def test_tic_tac_toe_certificates_check(played: str) -> None:
    s = solver()
    game = EncodedTicTacToe(played)
    value = ref.tic_tac_toe(ref.tic_tac_toe_board(played))
    mover = game.side_to_move()
    for attacker in (Side.FIRST, Side.SECOND):
        wins = value == ref.WIN if attacker == mover else value == ref.LOSS
        certificate = s.certify(game, attacker, wins, TTT)
        assert certificate.startswith(b"PNCERT")
        report = check_certificate(game, TTT, certificate)
        assert isinstance(report, CertificateReport)
        assert report.exact and report.positions >= 1 and report.message.startswith("valid: ")
        with pytest.raises(Refuted, match="does not hold"):
            s.certify(game, attacker, not wins, TTT)
    assert game.cells == EncodedTicTacToe(played).cells, "the position is restored"


def test_games_without_an_encoding_are_checked_as_trees() -> None:
    game = TicTacToe("04")
    certificate = solver().certify(game, Side.FIRST, False, TTT)
    report = check_certificate(game, TTT, certificate)
    assert report.exact is False
    # A game whose positions can repeat needs an encoding to be checked.
    drawn_nim = Nim(6)
    drawn_nim.repetition_rule = Repetition.DRAW
    nim_certificate = solver().certify(drawn_nim, Side.FIRST, True, "nim")
    with pytest.raises(InvalidGame, match="no encode"):
        check_certificate(drawn_nim, "nim", nim_certificate)


def first_or_index(data: bytes) -> int:
    """The offset of the first OR record's move index (format version 2)."""
    at = 8  # "PNCERT", version, reserved

    def varint() -> int:
        nonlocal at
        value, shift = 0, 0
        while True:
            byte = data[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    name = varint()  # (read first: `at += varint()` would add to the old `at`)
    at += name + 3  # the name, rule, attacker, claim
    encoding = varint()
    at += encoding  # the root's encoding
    while True:
        tag = data[at]
        at += 1
        varint()  # node id
        if tag == 1:
            return at
        assert tag == 2, "a record"
        for _ in range(varint()):
            varint()


def resealed(data: bytearray) -> bytes:
    """The certificate with its trailing checksum (FNV-1a, 64-bit) made right again."""
    h = 0xCBF29CE484222325
    for byte in data[:-8]:
        h = ((h ^ byte) * 0x100000001B3) & (2**64 - 1)
    data[-8:] = h.to_bytes(8, "little")
    return bytes(data)


def test_spoiled_certificates_are_rejected_with_their_reasons() -> None:
    game = EncodedTicTacToe("01")  # X to move wins (negamax)
    certificate = solver().certify(game, Side.FIRST, True, TTT)

    for cut in (0, 7, len(certificate) // 2, len(certificate) - 1):
        with pytest.raises(InvalidCertificate, match="not a valid certificate") as raised:
            check_certificate(game, TTT, certificate[:cut])
        assert raised.value.verdict == "malformed" and raised.value.offset is not None

    changed = bytearray(certificate)
    changed[len(changed) // 2] ^= 0x08
    with pytest.raises(InvalidCertificate) as raised:
        check_certificate(game, TTT, bytes(changed))
    assert raised.value.verdict == "malformed"

    wrong = bytearray(certificate)
    wrong[first_or_index(certificate)] = 100
    with pytest.raises(InvalidCertificate, match="plays move 100, but the game lists") as raised:
        check_certificate(game, TTT, resealed(wrong))
    assert raised.value.verdict == "faulty"
    assert all(0 <= index < 9 for index in raised.value.line)

    with pytest.raises(InvalidCertificate, match="not \"noughts\"") as raised:
        check_certificate(game, "noughts", certificate)
    assert raised.value.verdict == "mismatch"
    with pytest.raises(InvalidCertificate, match="another position"):
        check_certificate(EncodedTicTacToe("02"), TTT, certificate)
    with pytest.raises(NodeLimitReached, match="incomplete"):
        check_certificate(game, TTT, certificate, max_positions=1)
    with pytest.raises(TooManyMoves):
        check_certificate(game, TTT, certificate, max_moves=2)
    with pytest.raises(ValueError, match="max_moves must be from 1"):
        check_certificate(game, TTT, certificate, max_moves=0)
    with pytest.raises(TypeError, match="bytes or a pathlib.Path"):
        check_certificate(game, TTT, "a path as a str")  # type: ignore[arg-type]


def test_certificates_go_to_a_file_only_when_complete(tmp_path: Path) -> None:
    s, game = solver(), EncodedTicTacToe("01")
    target = tmp_path / "ttt.cert"
    written = s.certify(game, Side.FIRST, True, TTT, target)
    assert written == target.stat().st_size
    assert target.read_bytes() == s.certify(game, Side.FIRST, True, TTT)
    assert check_certificate(game, TTT, target).exact
    # A false claim: the earlier file is kept, and no partial file is left behind.
    with pytest.raises(Refuted):
        s.certify(game, Side.FIRST, False, TTT, target)
    assert check_certificate(game, TTT, target).exact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ttt.cert"]


REAL_TEMPORARY_FILE = tempfile.NamedTemporaryFile


class FailingFile:
    """A temporary file whose writes fail (a full disk) after `good` of them."""

    def __init__(self, error: BaseException, good: int = 0, **kwargs: Any) -> None:
        self.file = REAL_TEMPORARY_FILE(**kwargs)
        self.name, self.error, self.good = self.file.name, error, good

    def write(self, data: bytes) -> int:
        if self.good == 0:
            raise self.error
        self.good -= 1
        return int(self.file.write(data))

    def close(self) -> None:
        self.file.close()


@pytest.mark.parametrize("error", [OSError(errno.ENOSPC, "No space left on device"),
                                   KeyboardInterrupt()])
def test_an_exception_while_writing_is_raised_and_leaves_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    made: List[FailingFile] = []

    def failing(**kwargs: Any) -> FailingFile:
        made.append(FailingFile(error, **kwargs))
        return made[-1]

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", failing)
    s = solver()
    with pytest.raises(type(error)):
        s.certify(EncodedTicTacToe("01"), Side.FIRST, True, TTT, tmp_path / "ttt.cert")
    assert made and list(tmp_path.iterdir()) == []
    # The solver answers afterwards.
    monkeypatch.undo()
    assert s.solve_value(TicTacToe()).value == Outcome.DRAW


class BadEncoding(ExactDoors):
    def __init__(self, returns: Optional[Any] = None, raises: Optional[BaseException] = None):
        super().__init__(1, 2)
        self.returns, self.raises = returns, raises

    def encode(self) -> bytes:
        if self.raises is not None:
            raise self.raises
        return cast(bytes, self.returns)  # deliberately anything


@pytest.mark.parametrize("returns,kind,message", [
    (bytes(257), ValueError, "encode() returned 257 bytes; at most 256 are allowed"),
    ("P", TypeError, "encode() returned 'P'; expected bytes"),
    (None, TypeError, "encode() returned None; expected bytes"),
])
def test_an_encoding_that_breaks_the_contract_is_a_clear_error(
        returns: Any, kind: type, message: str) -> None:
    s = solver()
    with pytest.raises(kind, match=message.replace("(", r"\(").replace(")", r"\)")):
        s.solve(BadEncoding(returns=returns), Side.FIRST)
    with pytest.raises(kind):
        s.certify(BadEncoding(returns=returns), Side.FIRST, True, "doors")
    assert s.solve(ExactDoors(1, 2), Side.FIRST).proven


@pytest.mark.parametrize("error", [RuntimeError("no encoding today"), KeyboardInterrupt()])
def test_an_exception_in_encode_is_raised_after_the_call(error: BaseException) -> None:
    s = solver()
    with pytest.raises(type(error)):
        s.solve(BadEncoding(raises=error), Side.FIRST)
    certificate = solver().certify(ExactDoors(1, 2), Side.FIRST, True, "doors")
    with pytest.raises(type(error)):
        check_certificate(BadEncoding(raises=error), "doors", certificate)

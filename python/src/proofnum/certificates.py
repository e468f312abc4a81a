"""`check_certificate`: proof certificates (from `Solver.certify`) checked by proofnum's
independent checker, which replays them on the game's own methods and shares no code with the
search."""

from __future__ import annotations

import ctypes as C
import os
from typing import Optional, Union

from . import _abi
from ._text import shown
from .errors import (ERROR_CLASSES, InvalidCertificate, InvalidGame, NodeLimitReached,
                     ProofnumError)
from .game import CallbackTable, Game
from .types import CertificateReport

#: Room for the checker's message and a faulty line on the first try (a longer one is checked
#: again with room for all of it).
_MESSAGE_BYTES = 512
_LINE_MOVES = 256


def check_certificate(game: Game, game_name: str,
                      data: Union[bytes, bytearray, memoryview, "os.PathLike[str]"], *,
                      max_positions: Optional[int] = None,
                      max_moves: Optional[int] = None) -> CertificateReport:
    """Checks a certificate (its bytes, or the `pathlib.Path` of its file) against the game's
    rules and its current position, with no solver involved: the certificate must name
    `game_name`, the game's repetition rule and (where the game has `encode()`) this position,
    and every step of its proof must hold on the game's own `moves()`, `play()` and
    `outcome()`. The position is restored before returning.

    Returns a `CertificateReport` for a valid certificate. Raises `InvalidCertificate` for a
    rejected one, its `verdict` saying why ("malformed", "mismatch" or "faulty") and, for a
    faulty step, its `line` (the move indices from the root) in the message too;
    `NodeLimitReached` when `max_positions` positions were judged first; `InvalidGame` for a
    game whose positions can repeat without an `encode()` (its repetitions cannot be judged),
    or whose methods returned something out of range; `TooManyMoves` for a position with more
    than `max_moves` moves (4096 by default); and any exception the game's methods raised.
    """
    if isinstance(data, os.PathLike):
        with open(os.fspath(data), "rb") as file:
            data = file.read()
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("check_certificate takes the certificate's bytes or a pathlib.Path, "
                        f"not {type(data).__name__}")
    if not isinstance(game_name, str):
        raise TypeError(f"game_name must be a str; got {shown(game_name)}")
    lib = _abi.library()
    limits = lib.pn_check_limits_default()
    if max_positions is not None:
        limits.max_positions = _bounded("max_positions", max_positions, 0, 2**64 - 2)
    if max_moves is not None:
        limits.max_moves = _bounded("max_moves", max_moves, 1, _abi.CHECK_MAX_MOVES)
    certificate, name = bytes(data), game_name.encode()
    call = "check_certificate"
    table = CallbackTable(game, call)
    report = _abi.CheckReport()
    line_room, message_room = _LINE_MOVES, _MESSAGE_BYTES
    while True:
        line = (C.c_uint64 * line_room)()
        message = C.create_string_buffer(message_room)
        report = _abi.CheckReport(struct_size=C.sizeof(_abi.CheckReport))
        status = lib.pn_certificate_check(
            C.byref(table.table), name, len(name), certificate, len(certificate),
            C.byref(limits), line, line_room, message, message_room, C.byref(report))
        table.raise_pending()
        written = status in (_abi.STATUS_OK, _abi.STATUS_CERTIFICATE_INVALID,
                             _abi.STATUS_NODE_LIMIT)
        if not written or (report.line_length <= line_room
                           and report.message_length < message_room):
            break
        # Cut short: check again with room for all of it (the check is deterministic).
        line_room = max(line_room, report.line_length)
        message_room = max(message_room, report.message_length + 1)
    text = message.value.decode()
    if status == _abi.STATUS_OK:
        return CertificateReport(report.positions, report.records, bool(report.exact),
                                 report.depth, text)
    what = lib.pn_status_str(status).decode()
    if status == _abi.STATUS_CERTIFICATE_INVALID:
        verdict = _abi.CHECK_VERDICTS.get(report.verdict, "invalid")
        raise InvalidCertificate(
            f"{call}: {text}", status, verdict, list(line[: report.line_length]),
            report.offset if verdict == "malformed" else None)
    if status == _abi.STATUS_NODE_LIMIT:
        raise NodeLimitReached(f"{call}: {text}", status)
    if status == _abi.STATUS_MISSING_CALLBACK:
        raise InvalidGame(
            f"{call}: {type(game).__name__} has no encode() method, and its positions can "
            "repeat (its repetition_rule is not Repetition.ACYCLIC): the checker cannot "
            "recognise a repetition without an exact encoding", status)
    kind = ERROR_CLASSES.get(status, ProofnumError)
    raise kind(f"{call}: {what}", status)


def _bounded(name: str, value: object, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}; got {shown(value)}")
    return value

"""`Solver`: a proofnum solver in memory this object owns, and its calls."""

from __future__ import annotations

import ctypes as C
import os
import tempfile
import time
from fractions import Fraction
from typing import (IO, Any, Callable, Dict, List, NoReturn, Optional, Tuple, Union,
                    overload)

from . import _abi
from ._text import shown
from .errors import (ERROR_CLASSES, ProofnumError, Refuted, SearchIncomplete,
                     TableLoadError)
from .game import CallbackTable, Game, guard_function
from .types import (Engine, Outcome, Progress, Side, SolveResult, Stats, TableInfo,
                    ValueResult, Verification)

ProgressCallback = Callable[[Progress], None]
Epsilon = Union[Fraction, Tuple[int, int]]

# The C outcomes of a solve call's result.
_PROVEN, _DISPROVEN = 4, 5


def _stats(result: _abi.Result) -> Stats:
    s = result.stats
    return Stats(s.nodes, s.mid_calls, s.max_depth, s.repetitions, s.table_probes,
                 s.table_hits, s.table_stores, s.table_drops, s.elapsed_us, s.confirm_nodes,
                 s.refutations)


def _best_move(result: _abi.Result) -> Optional[int]:
    return int(result.best_move) if result.has_best_move else None


def _check_int(name: str, value: Any, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}; got {shown(value)}")
    return value


def _side(name: str, value: Any) -> Side:
    if isinstance(value, bool):  # an int to Python: True == 1
        raise TypeError(f"{name} must be Side.FIRST or Side.SECOND, not a bool ({value})")
    if not isinstance(value, int) or value not in (0, 1):
        raise ValueError(f"{name} must be Side.FIRST or Side.SECOND; got {shown(value)}")
    return Side(value)


class Solver:
    """A solver and the memory it lives in: a transposition table, a search stack and a move
    buffer, allocated once here and kept by this object (the C library allocates nothing).

    The table keeps what searches learnt between calls, and from one game to another (results
    of different games are told apart only by their hashes: `clear_table()` between games whose
    hashes may collide). One call at a time: a second call while one runs, from another thread
    or from the game's own methods, raises `SolverBusy`; only `stop()` may be called then.

    Settings (keywords): `table_bytes` (the transposition table, at least 191 bytes; any size
    gives correct answers, more is faster on hard positions), `max_depth` (the deepest line, in
    plies), `max_moves` (the most moves a position may have), `epsilon` (ε of df-pn's 1+ε
    trick, a Fraction or (numerator, denominator); 0 is classic df-pn), `engine`, the PNS
    arena's `arena_nodes` and PN²'s `second_level_nodes` (0: the library's defaults),
    `verify_memo_entries` (8 bytes each, two a position: the walks that confirm answers,
    `verify` and `certify` remember the positions they checked there, so a transposition is
    walked once; the default, 65 536 entries, holds the proofs a default table finds), and
    `confirm`.

    `confirm=True` (the default): every answer is confirmed before it is returned, by a walk of
    its whole proof that trusts no solved table entry and accepts only positions the game
    itself scores (told apart by `encode()` where the game has it); an answer the walk refutes
    is searched again over new table keys, and one refuted every time raises `Unconfirmed`.
    The walk adds a few per cent to a search that keeps its proof in the table
    (`Stats.confirm_nodes`). `confirm=False` returns answers as the search found them, for
    speed; the risk: a table false match, or two positions whose `hash()` collide, can make
    it return a wrong answer with nothing to warn of it. Over a table from `load_table` answers
    are confirmed either way.
    """

    def __init__(self, *, table_bytes: int = 1 << 20, max_depth: int = 128,
                 max_moves: int = 64, epsilon: Epsilon = Fraction(1, 4),
                 engine: Engine = Engine.DFPN, arena_nodes: int = 0,
                 second_level_nodes: int = 0, verify_memo_entries: int = 1 << 16,
                 confirm: bool = True) -> None:
        lib = _abi.library()
        size_max = 2 ** (8 * C.sizeof(C.c_size_t)) - 1
        if isinstance(epsilon, Fraction):
            numerator, denominator = epsilon.numerator, epsilon.denominator
        elif isinstance(epsilon, tuple) and len(epsilon) == 2:
            numerator, denominator = epsilon
        else:
            raise TypeError("epsilon must be a Fraction or a (numerator, denominator) pair; "
                            f"got {shown(epsilon)}")
        # The defaults in this package's version of the struct (_abi.Config).
        config = _abi.Config(struct_size=C.sizeof(_abi.Config))
        status = lib.pn_config_init(C.byref(config))
        if status != _abi.STATUS_OK:
            self._raise("Solver()", status, detail="pn_config_init refused _abi.Config's size")
        config.table_bytes = _check_int("table_bytes", table_bytes, _abi.TABLE_MIN_BYTES,
                                        size_max)
        config.max_depth = _check_int("max_depth", max_depth, 1, _abi.MAX_DEPTH_LIMIT)
        config.max_moves = _check_int("max_moves", max_moves, 1, 2**32 - 1)
        config.epsilon_numerator = _check_int("epsilon's numerator", numerator, 0, 2**32 - 1)
        config.epsilon_denominator = _check_int("epsilon's denominator", denominator, 1,
                                                2**32 - 1)
        if isinstance(engine, bool):
            raise TypeError(f"engine must be an Engine (DFPN, PNS or PN2), not a bool ({engine})")
        if not isinstance(engine, int) or engine not in (0, 1, 2):
            raise ValueError(f"engine must be an Engine (DFPN, PNS or PN2); got {shown(engine)}")
        config.engine = engine
        config.arena_nodes = _check_int("arena_nodes", arena_nodes, 0, size_max)
        config.second_level_nodes = _check_int("second_level_nodes", second_level_nodes, 0,
                                               size_max)
        config.verify_memo_entries = _check_int("verify_memo_entries", verify_memo_entries,
                                                0, size_max)
        if not isinstance(confirm, bool):
            raise TypeError(f"confirm must be True or False; got {shown(confirm)}")
        config.confirm = _abi.CONFIRM if confirm else _abi.CONFIRM_OFF
        needed, align = C.c_size_t(), C.c_size_t()
        status = lib.pn_solver_memory_requirements(C.byref(config), C.byref(needed),
                                                   C.byref(align))
        if status == _abi.STATUS_UNSUPPORTED:
            self._raise("Solver()", status, detail=(
                "this build of the library has no PNS and PN2 engines (its `pns` feature)"),
                c_message=_abi.config_error(lib, config))
        if status != _abi.STATUS_OK:
            self._raise("Solver()", status, c_message=_abi.config_error(lib, config), detail=(
                f"PNS and PN2 allow at most {_abi.PNS_MAX_MOVES} moves a position"
                if engine != Engine.DFPN and max_moves > _abi.PNS_MAX_MOVES else
                "the memory these settings need does not fit in the address space"))
        # Over-allocate by the alignment and start at the first aligned address; ctypes
        # zero-fills the array, so the library never reads memory nobody wrote.
        try:
            self._memory = (C.c_uint8 * (needed.value + align.value))()
        except (MemoryError, OverflowError):
            raise MemoryError(
                f"Solver(): cannot allocate the {needed.value} bytes these settings need "
                f"(table_bytes={table_bytes}): make a smaller table") from None
        start = C.addressof(self._memory) + (-C.addressof(self._memory) % align.value)
        handle = C.c_void_p()
        status = lib.pn_solver_init(start, needed.value, C.byref(config), C.byref(handle))
        if status != _abi.STATUS_OK:
            self._raise("Solver()", status, c_message=_abi.config_error(lib, config))
        self._lib = lib
        self._handle = handle
        # Bytes of the solver's memory (table, stack, arena, move buffer).
        self.memory_bytes = needed.value
        self.table_bytes, self.max_depth, self.max_moves = table_bytes, max_depth, max_moves
        self.epsilon = Fraction(numerator, denominator)
        self.engine = Engine(engine)
        self.confirm = confirm

    def __repr__(self) -> str:
        return (f"Solver(table_bytes={self.table_bytes}, max_depth={self.max_depth}, "
                f"max_moves={self.max_moves}, epsilon={self.epsilon}, engine={self.engine!r}, "
                f"confirm={self.confirm})")

    # ---- searches ----

    def solve(self, game: Game, attacker: Side, *, max_nodes: Optional[int] = None,
              max_time: Optional[float] = None,
              progress: Optional[ProgressCallback] = None) -> SolveResult:
        """Can `attacker` force a win from the game's position? (Draws count against it.)

        Raises a `SearchIncomplete` exception when a limit ends the search first (`max_nodes`
        positions, `max_time` seconds, `stop()`, `max_depth`, `max_moves`), and any exception
        the game's methods raised, once the search has returned. `progress` is called with a
        `Progress` snapshot every 1024 search steps.
        """
        side = _side("attacker", attacker)
        result = self._search("Solver.solve", game, max_nodes, max_time, progress,
                              lambda table, limits, out: self._lib.pn_solve(
                                  self._handle, table, side, limits, out))
        return SolveResult(side, result.outcome == _PROVEN, _best_move(result),
                           int(result.distance), _stats(result))

    def solve_value(self, game: Game, *, max_nodes: Optional[int] = None,
                    max_time: Optional[float] = None,
                    progress: Optional[ProgressCallback] = None) -> ValueResult:
        """The value of the game's position for its side to move: `Outcome.WIN`, `LOSS` or
        `DRAW` (two searches sharing the table and the limits). Errors as for `solve`."""
        result = self._search("Solver.solve_value", game, max_nodes, max_time, progress,
                              lambda table, limits, out: self._lib.pn_solve_value(
                                  self._handle, table, limits, out))
        return ValueResult(Outcome(result.outcome), _best_move(result), _stats(result))

    def verify(self, game: Game, attacker: Side, proven: bool, *,
               max_nodes: Optional[int] = None, max_time: Optional[float] = None,
               progress: Optional[ProgressCallback] = None) -> Verification:
        """Checks a claim independently of the table: that `attacker` wins (`proven=True`) or
        does not (`proven=False`), walking the whole proof down to positions the game itself
        scores. `holds` is False when the claim is refuted. Errors as for `solve`."""
        side = _side("attacker", attacker)
        if not isinstance(proven, bool):
            raise TypeError(f"proven must be True (attacker wins) or False (it does not); "
                            f"got {shown(proven)}")
        claim = _PROVEN if proven else _DISPROVEN
        result = self._search("Solver.verify", game, max_nodes, max_time, progress,
                              lambda table, limits, out: self._lib.pn_verify(
                                  self._handle, table, side, claim, limits, out),
                              refuted_is_answer=True)
        holds = result.status == _abi.STATUS_OK
        return Verification(holds, _best_move(result) if holds else None, _stats(result))

    @overload
    def certify(self, game: Game, attacker: Side, proven: bool, game_name: str,
                path: None = None, *, max_nodes: Optional[int] = None,
                max_time: Optional[float] = None) -> bytes: ...

    @overload
    def certify(self, game: Game, attacker: Side, proven: bool, game_name: str,
                path: Union[str, "os.PathLike[str]"], *, max_nodes: Optional[int] = None,
                max_time: Optional[float] = None) -> int: ...

    def certify(self, game: Game, attacker: Side, proven: bool, game_name: str,
                path: Union[None, str, "os.PathLike[str]"] = None, *,
                max_nodes: Optional[int] = None,
                max_time: Optional[float] = None) -> Union[bytes, int]:
        """The proof certificate of a claim: that `attacker` wins from the game's position
        (`proven=True`) or does not (`proven=False`), typically the answer just found. A
        certificate lists, where the claimed winner is to move, its winning move, and where the
        other side is, an answer to every move, down to positions the game scores itself; it
        names the game `game_name`, and its root by `encode()` where the game has one.
        `check_certificate` checks it from the game's rules alone.

        Returns the certificate's bytes; with `path`, writes them to that file instead
        (through a temporary file beside it, renamed into place only when complete) and returns
        their number. The certificate is written by a walk that checks the claim as it goes,
        trusting no solved table entry (what the table no longer proves is searched again,
        within `max_nodes` and `max_time`): `Refuted` for a claim that does not hold; errors
        otherwise as for `solve`, and an exception raised while writing the file is raised as
        it is."""
        side = _side("attacker", attacker)
        if not isinstance(proven, bool):
            raise TypeError(f"proven must be True (attacker wins) or False (it does not); "
                            f"got {shown(proven)}")
        if not isinstance(game_name, str):
            raise TypeError(f"game_name must be a str; got {shown(game_name)}")
        name = game_name.encode()
        call = "Solver.certify"
        table = CallbackTable(game, call)
        limits = _Limits(self, table, max_nodes, max_time, None)
        pieces: List[bytes] = []
        output: Optional[IO[bytes]] = None
        if path is not None:
            target = os.fspath(path)
            output = tempfile.NamedTemporaryFile(
                dir=os.path.dirname(os.path.abspath(target)), prefix=".proofnum-",
                suffix=".partial", delete=False)
        write = pieces.append if output is None else output.write
        fail = table.fail
        string_at = C.string_at

        def sink(_ctx: Any, data: Any, length: int) -> int:
            try:
                write(string_at(data, length))
                return 0
            except BaseException as error:
                return fail(error, "sink")

        thunk = _abi.SINK_FN(guard_function(table, sink, "sink"))
        result = _abi.Result(struct_size=C.sizeof(_abi.Result))
        claim = _PROVEN if proven else _DISPROVEN
        complete = False
        try:
            status = self._lib.pn_certify(self._handle, C.byref(table.table), side, claim, name,
                                          len(name), thunk, None, C.byref(limits.struct),
                                          C.byref(result))
            table.raise_pending()
            if status != _abi.STATUS_OK:
                self._raise(call, status, limits=limits, result=result, table=table)
            if output is None:
                return b"".join(pieces)
            output.close()
            written = os.path.getsize(output.name)
            os.replace(output.name, target)
            complete = True
            return written
        finally:
            if output is not None and not complete:
                output.close()
                try:
                    os.unlink(output.name)
                except OSError:
                    pass

    def principal_variation(self, game: Game, attacker: Side, *,
                            max_nodes: Optional[int] = None,
                            max_time: Optional[float] = None) -> List[int]:
        """The solved line of `attacker`'s search from the game's position: the winner's
        shortest win and the loser's longest resistance, as far as the proofs found tell.
        Call it after `solve` or `solve_value` of the same position (what the table no longer
        holds is searched again). Errors as for `solve`; `Refuted` if the position does not go
        the way the search said. Every exception from a cut line carries the moves found so
        far in `moves`."""
        side = _side("attacker", attacker)
        capacity = self.max_depth + 1
        moves = (C.c_uint32 * capacity)()
        length = C.c_size_t()
        call = "Solver.principal_variation"
        table = CallbackTable(game, call)
        limits = _Limits(self, table, max_nodes, max_time, None)
        status = self._lib.pn_principal_variation(
            self._handle, C.byref(table.table), side, C.byref(limits.struct), moves, capacity,
            C.byref(length))
        table.raise_pending()
        line = list(moves[: length.value])
        if status != _abi.STATUS_OK:
            self._raise(call, status, limits=limits, moves=line, table=table)
        return line

    def stop(self) -> None:
        """Asks the running search to stop soon; it then raises `SearchStopped`. May be called
        from another thread or from the game's methods or a progress callback; with no search
        running it does nothing."""
        self._lib.pn_solver_stop(self._handle)

    # ---- the table ----

    def table_info(self) -> TableInfo:
        """A picture of the transposition table."""
        info = _abi.TableInfo(struct_size=C.sizeof(_abi.TableInfo))
        self._check("Solver.table_info", self._lib.pn_table_get_info(self._handle,
                                                                     C.byref(info)))
        return TableInfo(info.saved_bytes, info.entries, info.generation, info.fill_per_mille)

    def clear_table(self) -> None:
        """Forgets every position (also makes a loaded table trusted again)."""
        self._check("Solver.clear_table", self._lib.pn_table_clear(self._handle))

    def new_generation(self) -> None:
        """Starts a new table generation: earlier results stay usable but are replaced first
        (call it between searches of unrelated positions)."""
        self._check("Solver.new_generation", self._lib.pn_table_new_generation(self._handle))

    def save_table(self) -> bytes:
        """The table's bytes (header and entries), for `load_table` later."""
        size = self.table_info().saved_bytes
        buffer = (C.c_uint8 * size)()
        written = C.c_size_t()
        self._check("Solver.save_table", self._lib.pn_table_save(
            self._handle, buffer, size, C.byref(written)))
        return bytes(buffer)[: written.value]

    def load_table(self, data: Union[bytes, bytearray, memoryview]) -> None:
        """Replaces the table with bytes from `save_table`. The header is checked first
        (`TableLoadError`, the current table unchanged); the loaded table is untrusted until
        `clear_table()`: every answer over it is confirmed by a `verify` walk first."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"load_table takes bytes, not {type(data).__name__}")
        data = bytes(data)
        status = self._lib.pn_table_load(self._handle, data, len(data))
        if status == _abi.STATUS_BUFFER_TOO_SMALL:
            raise TableLoadError(
                f"Solver.load_table: the saved table ({len(data)} bytes) is larger than this "
                f"solver's ({self.table_bytes} bytes)", status)
        self._check("Solver.load_table", status, detail=f"{len(data)} bytes given")

    # ---- plumbing ----

    def _search(self, call: str, game: Game, max_nodes: Optional[int],
                max_time: Optional[float], progress: Optional[ProgressCallback],
                run: Callable[[Any, Any, Any], int],
                refuted_is_answer: bool = False) -> _abi.Result:
        table = CallbackTable(game, call)
        result = _abi.Result(struct_size=C.sizeof(_abi.Result))
        limits = _Limits(self, table, max_nodes, max_time, progress)
        status = run(C.byref(table.table), C.byref(limits.struct), C.byref(result))
        table.raise_pending()
        if status == _abi.STATUS_OK or (refuted_is_answer and status == _abi.STATUS_REFUTED):
            return result
        self._raise(call, status, limits=limits, result=result, table=table)

    def _check(self, call: str, status: int, detail: str = "") -> None:
        if status != _abi.STATUS_OK:
            self._raise(call, status, detail=detail)

    def _raise(self, call: str, status: int, *, detail: str = "",
               limits: Optional["_Limits"] = None, result: Optional[_abi.Result] = None,
               table: Optional[CallbackTable] = None,
               moves: Optional[List[int]] = None,
               c_message: Optional[str] = None) -> NoReturn:
        """Raises the error of a failed call. Its message is the status's description, with
        in parentheses this layer's detail (in Python's terms: the limits' and settings'
        names) and the library's own message (pn_solver_last_error, or pn_config_error from
        `Solver()`), which names the field, argument or callback that was wrong."""
        lib = _abi.library()
        what = lib.pn_status_str(status).decode()
        handle = getattr(self, "_handle", None)
        if c_message is None and handle is not None and status != _abi.STATUS_BUSY:
            c_message = _abi.last_error(lib, handle)
        ran = result if result is not None and result.status == status else None
        stats = _stats(ran) if ran is not None else None
        details: Dict[int, Callable[[], str]] = {
            10: lambda: f"max_nodes={limits.max_nodes if limits else '?'} positions evaluated",
            11: lambda: f"max_time={limits.max_time if limits else '?'} s",
            12: lambda: "Solver.stop() was called",
            13: lambda: (f"this solver's max_depth is {self.max_depth} plies: make one with "
                         "a larger max_depth (or, if positions can repeat, do not use "
                         "Repetition.ACYCLIC)"),
            14: lambda: (f"a position listed {table.most_moves_listed} moves; this solver's "
                         f"max_moves is {self.max_moves}: make one with a larger max_moves"
                         if table is not None and table.most_moves_listed
                         else f"this solver's max_moves is {self.max_moves}"),
            23: lambda: "make a Solver with more arena_nodes, or use Engine.DFPN",
            24: lambda: (f"{stats.refutations if stats else '?'} answers refuted; does the "
                         "game's hash() tell its positions apart? (an encode() method makes "
                         "confirmation exact)"),
        }
        if not detail and status in details:
            # This layer says these in Python's terms (max_nodes=..., not limits->max_nodes).
            detail, c_message = details[status](), None
        parts = [part for part in (detail, c_message) if part and part != what]
        message = f"{call}: {what}" + (f" ({'; '.join(parts)})" if parts else "")
        if stats is not None:
            message += f"; {stats.nodes} positions, {stats.mid_calls} MID calls searched"
        kind = ERROR_CLASSES.get(status, ProofnumError)
        error: ProofnumError
        if issubclass(kind, SearchIncomplete):
            error = kind(message, status, stats, _best_move(ran) if ran is not None else None,
                         moves)
        elif kind is Refuted:
            error = Refuted(message, status, moves)
        else:
            error = kind(message, status)
        error.library_message = c_message or ""
        raise error


def _time_limit_us(max_time: Optional[float]) -> int:
    """`max_time` seconds as the C limits' microseconds: None and times past what 64 bits of
    microseconds hold (math.inf included: 584,000 years) are no limit."""
    if max_time is None or max_time * 1_000_000 >= _abi.UNLIMITED:
        return _abi.UNLIMITED
    return int(max_time * 1_000_000)


class _Limits:
    """A call's pn_limits: the node and time limits and the progress callback, the clock that
    measures the call's time (time.monotonic), and a stop when a game callback fails."""

    def __init__(self, solver: Solver, table: CallbackTable, max_nodes: Optional[int],
                 max_time: Optional[float], progress: Optional[ProgressCallback]) -> None:
        if max_nodes is not None:
            _check_int("max_nodes", max_nodes, 0, 2**64 - 2)
        if max_time is not None and (not isinstance(max_time, (int, float))
                                     or isinstance(max_time, bool) or not max_time >= 0):
            raise ValueError(f"max_time must be a number of seconds >= 0; got {shown(max_time)}")
        if progress is not None and not callable(progress):
            raise TypeError(f"progress must be callable; got {shown(progress)}")
        self.max_nodes, self.max_time = max_nodes, max_time
        lib, handle = solver._lib, solver._handle
        fail = table.fail
        # A failed game callback also stops the search: the failure code ends it already, but
        # an exception that escaped a callback (see game.py) returned no code at all.
        table.on_failure = lambda: lib.pn_solver_stop(handle)
        monotonic_ns = time.monotonic_ns
        last = [monotonic_ns() // 1000]

        def clock(_ctx: Any) -> int:
            try:
                last[0] = monotonic_ns() // 1000
            except BaseException as error:
                fail(error, "clock")
            return last[0]

        thunks = {"clock": _abi.CLOCK_FN(guard_function(table, clock, "clock"))}
        if progress is not None:
            user_progress = progress

            def report(_ctx: Any, snapshot: Any) -> None:
                try:
                    s = snapshot[0]
                    user_progress(Progress(s.mid_calls, s.nodes, s.max_depth, s.elapsed_us,
                                           s.root_phi, s.root_delta))
                except BaseException as error:
                    fail(error, "progress")

            thunks["progress"] = _abi.PROGRESS_FN(guard_function(table, report, "progress"))
        self._thunks = thunks  # keeps the ctypes thunks alive
        self.struct = _abi.Limits(
            struct_size=C.sizeof(_abi.Limits),
            max_nodes=_abi.UNLIMITED if max_nodes is None else max_nodes,
            max_time_us=_time_limit_us(max_time),
            **thunks)

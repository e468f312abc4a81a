"""The C declarations of include/proofnum.h, in ctypes, and the library that implements them.

This is the only module that knows the C layout. The structs are the current versions of the
header's (the library also accepts older, smaller ones by their `struct_size`; the C tests
check that). The library is loaded on first use: the copy built into this package by
`pip install`, or the file named by the environment variable PROOFNUM_LIB (another build of
the C ABI, such as the one ffi-tests/run.sh tests).
"""

from __future__ import annotations

import ctypes as C
import importlib.machinery
import os
from pathlib import Path
from typing import Any, Optional

# The ABI version this module's declarations describe (PN_ABI_VERSION).
ABI_VERSION = 1
# The file stem of the shared library that `pip install` builds into this package
# (the RustExtension's target in python/setup.py).
BUNDLED_LIBRARY = "_libproofnum"
LIBRARY_ENVIRONMENT_VARIABLE = "PROOFNUM_LIB"

# Statuses (pn_status) that the Python layer treats specially; errors.py maps the rest.
STATUS_OK = 0
STATUS_BUSY = 7
STATUS_BUFFER_TOO_SMALL = 4
STATUS_UNSUPPORTED = 8
STATUS_MISSING_CALLBACK = 9
STATUS_NODE_LIMIT = 10
STATUS_CALLBACK_FAILED = 15
STATUS_REFUTED = 21
STATUS_OUTPUT_FAILED = 25
STATUS_CERTIFICATE_INVALID = 26

# pn_config.confirm.
CONFIRM, CONFIRM_OFF = 1, 0
# PN_ENCODING_CAPACITY: the most bytes Game.encode() may return.
ENCODING_CAPACITY = 256
# PN_CHECK_MAX_MOVES: the largest max_moves of a certificate check.
CHECK_MAX_MOVES = 1 << 20
# pn_check_verdict, by value.
CHECK_VERDICTS = {0: "valid", 1: "malformed", 2: "mismatch", 3: "faulty", 4: "incomplete"}

UNLIMITED = 2**64 - 1
TABLE_MIN_BYTES = 191
MAX_DEPTH_LIMIT = 65534
PNS_MAX_MOVES = 32767


class Config(C.Structure):
    """pn_config."""

    _fields_ = [
        ("struct_size", C.c_size_t),
        ("table_bytes", C.c_size_t),
        ("verify_memo_entries", C.c_size_t),
        ("max_depth", C.c_uint32),
        ("max_moves", C.c_uint32),
        ("epsilon_numerator", C.c_uint32),
        ("epsilon_denominator", C.c_uint32),
        ("threads", C.c_uint32),
        ("arena_nodes", C.c_size_t),
        ("second_level_nodes", C.c_size_t),
        ("engine", C.c_uint32),
        ("confirm", C.c_size_t),
    ]


class Progress(C.Structure):
    """pn_progress."""

    _fields_ = [
        ("struct_size", C.c_size_t),
        ("mid_calls", C.c_uint64),
        ("nodes", C.c_uint64),
        ("max_depth", C.c_uint64),
        ("elapsed_us", C.c_uint64),
        ("root_phi", C.c_uint32),
        ("root_delta", C.c_uint32),
    ]


CLOCK_FN = C.CFUNCTYPE(C.c_uint64, C.c_void_p)
PROGRESS_FN = C.CFUNCTYPE(None, C.c_void_p, C.POINTER(Progress))


class Limits(C.Structure):
    """pn_limits."""

    _fields_ = [
        ("struct_size", C.c_size_t),
        ("max_nodes", C.c_uint64),
        ("max_time_us", C.c_uint64),
        ("clock", CLOCK_FN),
        ("clock_ctx", C.c_void_p),
        ("progress", PROGRESS_FN),
        ("progress_ctx", C.c_void_p),
    ]


# The game's callbacks. Out-parameters are POINTERs, written as `out[0] = value` (taking them as
# c_void_p and writing through from_address measured no faster).
SIDE_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint32))
HASH_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint64))
OUTCOME_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint32))
GENERATE_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_void_p, C.c_size_t, C.POINTER(C.c_size_t))
MOVE_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_uint32)
ESTIMATE_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint32), C.POINTER(C.c_uint32))
ENCODE_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_void_p, C.c_size_t, C.POINTER(C.c_size_t))
MATERIAL_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint32))
COUNT_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_size_t))
MATERIAL_AT_LEAST_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_uint32, C.c_uint32, C.c_uint32,
                                   C.POINTER(C.c_uint32))
MATERIAL_NEEDED_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_uint32, C.c_uint32, C.c_uint32,
                                 C.POINTER(C.c_uint32), C.POINTER(C.c_uint32))
MATERIAL_JOIN_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_uint32, C.c_uint32, C.c_uint32,
                               C.POINTER(C.c_uint32))


class GameTable(C.Structure):
    """pn_game."""

    _fields_ = [
        ("struct_size", C.c_size_t),
        ("ctx", C.c_void_p),
        ("side_to_move", SIDE_FN),
        ("hash", HASH_FN),
        ("outcome", OUTCOME_FN),
        ("generate_moves", GENERATE_FN),
        ("play", MOVE_FN),
        ("undo", MOVE_FN),
        ("estimate", ESTIMATE_FN),
        ("clone", C.c_void_p),  # the parallel calls' callbacks: not used from Python
        ("free", C.c_void_p),
        ("repetition_value", OUTCOME_FN),
        ("repetition_rule", C.c_uint32),
        ("copy_size", C.c_size_t),
        ("encode", ENCODE_FN),
        ("class_hash", HASH_FN),
        ("material", MATERIAL_FN),
        ("material_at_least", MATERIAL_AT_LEAST_FN),
        ("deferred_moves", COUNT_FN),
        ("encode_class", ENCODE_FN),
        ("material_needed", MATERIAL_NEEDED_FN),  # not offered by the Python Game class yet
        ("material_join", MATERIAL_JOIN_FN),
    ]


class Stats(C.Structure):
    """pn_stats."""

    _fields_ = [
        ("nodes", C.c_uint64),
        ("mid_calls", C.c_uint64),
        ("max_depth", C.c_uint64),
        ("repetitions", C.c_uint64),
        ("table_probes", C.c_uint64),
        ("table_hits", C.c_uint64),
        ("table_stores", C.c_uint64),
        ("table_drops", C.c_uint64),
        ("elapsed_us", C.c_uint64),
        ("jobs", C.c_uint64),
        ("threads", C.c_uint32),
        ("worker_idle_per_mille", C.c_uint32),
        ("confirm_nodes", C.c_uint64),
        ("refutations", C.c_uint64),
    ]


class Result(C.Structure):
    """pn_result."""

    _fields_ = [
        ("struct_size", C.c_size_t),
        ("status", C.c_uint32),
        ("outcome", C.c_uint32),
        ("has_best_move", C.c_uint32),
        ("best_move", C.c_uint32),
        ("distance", C.c_uint32),
        ("stats", Stats),
    ]


SINK_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.POINTER(C.c_uint8), C.c_size_t)


class CheckLimits(C.Structure):
    """pn_check_limits."""

    _fields_ = [
        ("struct_size", C.c_size_t),
        ("max_positions", C.c_uint64),
        ("max_moves", C.c_uint32),
    ]


class CheckReport(C.Structure):
    """pn_check_report."""

    _fields_ = [
        ("struct_size", C.c_size_t),
        ("verdict", C.c_uint32),
        ("exact", C.c_uint32),
        ("positions", C.c_uint64),
        ("records", C.c_uint64),
        ("depth", C.c_uint64),
        ("offset", C.c_uint64),
        ("line_length", C.c_uint64),
        ("message_length", C.c_uint64),
    ]


class TableInfo(C.Structure):
    """pn_table_info."""

    _fields_ = [
        ("struct_size", C.c_size_t),
        ("saved_bytes", C.c_size_t),
        ("entries", C.c_uint64),
        ("generation", C.c_uint32),
        ("fill_per_mille", C.c_uint32),
    ]


def _declare(lib: C.CDLL) -> None:
    """Gives every function the library exports its C signature."""
    solver, game, limits = C.c_void_p, C.POINTER(GameTable), C.POINTER(Limits)
    status, u32, size = C.c_uint32, C.c_uint32, C.c_size_t
    signatures = {
        "pn_version": (u32, []),
        "pn_abi_version": (u32, []),
        "pn_version_string": (C.c_char_p, []),
        "pn_features": (u32, []),
        "pn_status_str": (C.c_char_p, [u32]),
        "pn_config_init": (status, [C.POINTER(Config)]),
        "pn_limits_default": (Limits, []),
        "pn_solver_memory_requirements": (
            status, [C.POINTER(Config), C.POINTER(size), C.POINTER(size)]),
        "pn_solver_init": (status, [C.c_void_p, size, C.POINTER(Config), C.POINTER(solver)]),
        "pn_solver_config": (status, [solver, C.POINTER(Config)]),
        "pn_solver_stop": (status, [solver]),
        "pn_solve": (status, [solver, game, u32, limits, C.POINTER(Result)]),
        "pn_solve_value": (status, [solver, game, limits, C.POINTER(Result)]),
        "pn_principal_variation": (
            status, [solver, game, u32, limits, C.POINTER(C.c_uint32), size, C.POINTER(size)]),
        "pn_verify": (status, [solver, game, u32, u32, limits, C.POINTER(Result)]),
        "pn_certify": (status, [solver, game, u32, u32, C.c_char_p, size, SINK_FN, C.c_void_p,
                                limits, C.POINTER(Result)]),
        "pn_check_limits_default": (CheckLimits, []),
        "pn_certificate_check": (
            status, [game, C.c_char_p, size, C.c_char_p, size, C.POINTER(CheckLimits),
                     C.POINTER(C.c_uint64), size, C.c_char_p, size, C.POINTER(CheckReport)]),
        "pn_table_clear": (status, [solver]),
        "pn_table_new_generation": (status, [solver]),
        "pn_table_get_info": (status, [solver, C.POINTER(TableInfo)]),
        "pn_table_save": (status, [solver, C.c_void_p, size, C.POINTER(size)]),
        "pn_table_load": (status, [solver, C.c_void_p, size]),
        "pn_solver_last_error": (size, [solver, C.c_char_p, size]),
        "pn_config_error": (size, [C.POINTER(Config), C.c_char_p, size]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = restype, argtypes


# PN_ERROR_CAPACITY: a buffer this large holds any message of the two calls below.
ERROR_CAPACITY = 256


def last_error(lib: C.CDLL, solver: Any) -> str:
    """pn_solver_last_error: what the solver's last call found wrong ("" after a success)."""
    buffer = C.create_string_buffer(ERROR_CAPACITY)
    lib.pn_solver_last_error(solver, buffer, ERROR_CAPACITY)
    return buffer.value.decode("ascii", "replace")


def config_error(lib: C.CDLL, config: "Config") -> str:
    """pn_config_error: what pn_solver_init would refuse in `config` ("" for nothing)."""
    buffer = C.create_string_buffer(ERROR_CAPACITY)
    lib.pn_config_error(C.byref(config), buffer, ERROR_CAPACITY)
    return buffer.value.decode("ascii", "replace")


def bundled_library_path() -> Optional[Path]:
    """The shared library `pip install` put beside this module, if there is one."""
    here = Path(__file__).parent
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = here / (BUNDLED_LIBRARY + suffix)
        if candidate.is_file():
            return candidate
    return None


_library: Optional[C.CDLL] = None


def library() -> C.CDLL:
    """The C library, loaded and checked on first use."""
    global _library
    if _library is None:
        _library = _load()
    return _library


def _load() -> C.CDLL:
    override = os.environ.get(LIBRARY_ENVIRONMENT_VARIABLE)
    path = Path(override) if override else bundled_library_path()
    if path is None:
        raise ImportError(
            "proofnum's C library is missing from the package: install the package with "
            "`pip install ./python` from a clone of the repository (it builds the library "
            f"with cargo), or name a built libproofnum in ${LIBRARY_ENVIRONMENT_VARIABLE}")
    try:
        lib = C.CDLL(str(path))
    except OSError as error:
        raise ImportError(f"cannot load proofnum's C library {path}: {error}") from error
    _declare(lib)
    if lib.pn_abi_version() != ABI_VERSION:
        raise ImportError(
            f"{path} implements proofnum ABI version {lib.pn_abi_version()}; this package "
            f"speaks version {ABI_VERSION}: install the package and the library together")
    return lib

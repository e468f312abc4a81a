#!/usr/bin/env bash
# Builds and runs everything that uses the C ABI, and prints one closing line
# "N passed, N failed":
#   - include/proofnum.h compiled alone as C99, C++11 and C++17 with warnings as errors;
#   - ffi-tests/test_c.c, test_resources.c, test_loaded_table.c, test_certificates.c,
#     test_dominance.c and test_errors.c (C99) and test_cpp.cpp
#     (C++11 and C++17), with warnings as errors, under AddressSanitizer and
#     UndefinedBehaviorSanitizer, linked to libproofnum.a;
#   - examples/c/minimal.c (C99, warnings as errors), linked statically (sanitized) and to
#     libproofnum.so through an rpath, which must print its values' agreement and exit 0;
#   - the C and C++ examples (built with their Makefiles, also sanitized; chess_endgame checks
#     random KQK and KRK positions against its own retrograde tables), and
#     ffi-tests/test_python.py: the Python package's ctypes layer on libproofnum.so (its
#     structs against the header's layout from struct_layout.c, its callbacks under
#     KeyboardInterrupt and SystemExit).
# Each test program counts its own checks; every other step counts as one check.
#
# Usage: ffi-tests/run.sh LIB_DIR BUILD_DIR
#   LIB_DIR holds libproofnum.a and libproofnum.so (e.g. target/release);
#   BUILD_DIR receives the binaries. CC, CXX and PYTHON may be overridden.
#   FFI_TESTS_QUICK=1 stops after the header and minimal.c (seconds instead of a minute):
#   scripts/tests/55-guide-c.sh sets it when it runs the guide's line, since `cargo test` runs
#   the whole script (capi/tests/ffi.rs).
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 LIB_DIR BUILD_DIR" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$(cd "$1" && pwd)
mkdir -p "$2"
build=$(cd "$2" && pwd)
CC=${CC:-gcc}
CXX=${CXX:-g++}
PYTHON=${PYTHON:-python3}

warn="-Wall -Wextra -Wpedantic -Werror"
san="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
libs="$lib/libproofnum.a -pthread -ldl -lm"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

passed=0
failed=0

# pass/fail NAME: one check.
pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAILED: $1"; }

# step NAME COMMAND...: runs the command (output kept in the build log), one check.
step() {
    local name=$1
    shift
    if "$@" >"$build/step.log" 2>&1; then
        pass "$name"
    else
        cat "$build/step.log"
        fail "$name"
    fi
}

# program NAME BINARY [ARGS...]: runs a test program and adds its "N passed, M failed" line.
program() {
    local name=$1 bin=$2 out summary p f
    shift 2
    out=$("$bin" "$@" 2>&1)
    local rc=$?
    echo "$out"
    summary=$(printf '%s\n' "$out" | grep -E '^[^ ].*: [0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    if [ -z "$summary" ]; then
        fail "$name (exit $rc, no summary line)"
        return
    fi
    p=$(printf '%s' "$summary" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\1/')
    f=$(printf '%s' "$summary" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed$/\2/')
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        fail "$name (exit $rc)"
    fi
}

# expect NAME PATTERN COMMAND...: runs the command; one check that it exits 0 and prints a
# line matching PATTERN.
expect() {
    local name=$1 pattern=$2 out
    shift 2
    out=$("$@" 2>&1)
    local rc=$?
    echo "$out"
    if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qE "$pattern"; then
        pass "$name"
    else
        fail "$name (exit $rc, want a line matching '$pattern')"
    fi
}

echo "== the header alone"
printf '#include "proofnum.h"\nint main(void) { return (int)pn_version() * 0; }\n' >"$build/header.c"
cp "$build/header.c" "$build/header.cpp"
step "proofnum.h as C99" $CC -std=c99 $warn -I"$root/include" -c "$build/header.c" -o "$build/header_c.o"
step "proofnum.h as C++11" $CXX -std=c++11 $warn -I"$root/include" -c "$build/header.cpp" -o "$build/header_11.o"
step "proofnum.h as C++17" $CXX -std=c++17 $warn -I"$root/include" -c "$build/header.cpp" -o "$build/header_17.o"

echo "== minimal C example (tic-tac-toe; the guide's C snippets made whole)"
# As the guide's C chapter builds it, with the static and with the shared library (an rpath, so that it
# starts without LD_LIBRARY_PATH); it exits 1 unless its values are the known ones.
step "build minimal (C99, static, ASan+UBSan)" $CC -std=c99 $warn $san -I"$root/include" \
    "$root/examples/c/minimal.c" $libs -o "$build/minimal"
expect "minimal (static)" '^both values agree with the known ones$' "$build/minimal"
step "build minimal (C99, shared)" $CC -std=c99 $warn -I"$root/include" \
    "$root/examples/c/minimal.c" -L"$lib" -Wl,-rpath,"$lib" -lproofnum -o "$build/minimal_shared"
expect "minimal (shared, no LD_LIBRARY_PATH)" '^both values agree with the known ones$' \
    env -u LD_LIBRARY_PATH "$build/minimal_shared"

if [ "${FFI_TESTS_QUICK:-0}" = 1 ]; then
    echo "$passed passed, $failed failed (FFI_TESTS_QUICK=1: the header and minimal.c only)"
    [ "$failed" -eq 0 ]
    exit
fi

echo "== C test"
step "build test_c (C99, ASan+UBSan)" $CC -std=c99 -D_POSIX_C_SOURCE=200809L $warn $san \
    -I"$root/include" "$root/ffi-tests/test_c.c" $libs -o "$build/test_c"
[ -x "$build/test_c" ] && program "test_c" "$build/test_c"

echo "== C test: memory and threads beyond what can be had"
step "build test_resources (C99, ASan+UBSan)" $CC -std=c99 $warn $san -I"$root/include" \
    "$root/ffi-tests/test_resources.c" $libs -o "$build/test_resources"
# ASan's allocator answers an impossible request with NULL, as the system's does, instead of
# ending the program: the library must turn that NULL into PN_STATUS_MEMORY_LIMIT.
[ -x "$build/test_resources" ] && program "test_resources" \
    env "ASAN_OPTIONS=$ASAN_OPTIONS:allocator_may_return_null=1" "$build/test_resources"

echo "== C test: tables loaded from forged and damaged bytes"
step "build test_loaded_table (C99, ASan+UBSan)" $CC -std=c99 $warn $san -I"$root/include" \
    "$root/ffi-tests/test_loaded_table.c" $libs -o "$build/test_loaded_table"
[ -x "$build/test_loaded_table" ] && program "test_loaded_table" "$build/test_loaded_table"

echo "== C test: confirmed answers under forced collisions, and certificates"
step "build test_certificates (C99, ASan+UBSan)" $CC -std=c99 $warn $san -I"$root/include" \
    "$root/ffi-tests/test_certificates.c" $libs -o "$build/test_certificates"
[ -x "$build/test_certificates" ] && program "test_certificates" "$build/test_certificates"

echo "== C test: dominance (class_hash, material, material_at_least) on random games"
step "build test_dominance (C99, ASan+UBSan)" $CC -std=c99 $warn $san -I"$root/include" \
    "$root/ffi-tests/test_dominance.c" $libs -o "$build/test_dominance"
[ -x "$build/test_dominance" ] && program "test_dominance" "$build/test_dominance"

echo "== C test: error messages (pn_solver_last_error, pn_config_error)"
step "build test_errors (C99, ASan+UBSan)" $CC -std=c99 $warn $san -I"$root/include" \
    "$root/ffi-tests/test_errors.c" $libs -o "$build/test_errors"
[ -x "$build/test_errors" ] && program "test_errors" "$build/test_errors"

for std in c++11 c++17; do
    echo "== C++ test ($std)"
    step "build test_cpp ($std, ASan+UBSan)" $CXX -std=$std $warn $san -I"$root/include" \
        "$root/ffi-tests/test_cpp.cpp" $libs -o "$build/test_cpp_$std"
    [ -x "$build/test_cpp_$std" ] && program "test_cpp ($std)" "$build/test_cpp_$std"
done

echo "== C example (Connect Four)"
mkdir -p "$build/c4_5x4" "$build/c4_7x6"
step "make examples/c (5 x 4)" make -s -C "$root/examples/c" LIBDIR="$lib" OUT="$build/c4_5x4" \
    WIDTH=5 HEIGHT=4 EXTRA_CFLAGS="-Werror $san"
step "make examples/c (7 x 6)" make -s -C "$root/examples/c" LIBDIR="$lib" OUT="$build/c4_7x6" \
    EXTRA_CFLAGS="-Werror $san"
# 5 x 4 Connect Four is a draw (J. Tromp's table of small boards; test_c's negamax agrees).
expect "connect4 5x4: draw" '^value: draw' "$build/c4_5x4/connect4"
expect "connect4 7x6 after 10 moves: solved" '^value: (win|loss|draw) ' \
    "$build/c4_7x6/connect4" 4444443332

echo "== C example (chess endgames: KQK and KRK)"
step "make examples/c chess_endgame" make -s -C "$root/examples/c" LIBDIR="$lib" OUT="$build" \
    "$build/chess_endgame" EXTRA_CFLAGS="-Werror $san"
# 20 random positions (seed 1) against the program's own retrograde tables of KQK and KRK and
# the rules' facts (every position won with White to move, Black's capture and stalemate
# draw); its move generator against the tables' geometry on every placement first. Exits 1
# on a wrong answer or an unknown. About 10 s under the sanitizers.
[ -x "$build/chess_endgame" ] && program "chess_endgame --check" "$build/chess_endgame" \
    --check 20 1
expect "chess_endgame: KRK mate in 2, a win for White" '^value: win for White' \
    "$build/chess_endgame" "7k/8/5K2/8/8/8/8/R7 w - - 0 1"

echo "== C++ example (tic-tac-toe)"
step "make examples/cpp" make -s -C "$root/examples/cpp" LIBDIR="$lib" OUT="$build" \
    EXTRA_CXXFLAGS="-Werror $san"
# Tic-tac-toe is a draw; after X in a corner and O on an adjacent edge, X wins.
expect "tictactoe self-play: draw" '^result: draw$' "$build/tictactoe"
expect "tictactoe after 0, 1: X wins" '^result: X wins$' "$build/tictactoe" 01

echo "== the Python package's C layer (ctypes) on this library"
# python/src/proofnum's ctypes structs against the header's layout, and its callbacks under
# KeyboardInterrupt and SystemExit (a failed search, never an answer). python/tests (pytest,
# scripts/tests/40-python.sh) tests the installed package.
step "build struct_layout (C99)" $CC -std=c99 $warn -I"$root/include" \
    "$root/ffi-tests/struct_layout.c" -o "$build/struct_layout"
program "test_python" "$PYTHON" "$root/ffi-tests/test_python.py" "$lib/libproofnum.so" \
    "$build/struct_layout"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

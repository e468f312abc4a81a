# The C library installed the way other Rust-made C libraries install (the guide's C chapter):
# cargo-c's `cargo cinstall` into a temporary prefix, then consumers built against that prefix
# alone and run:
#   - the header is the committed include/proofnum.h; the shared library has a versioned soname;
#   - examples/c/minimal.c through `pkg-config --cflags --libs proofnum` (shared library), and
#     through `pkg-config --static` from a static-only install (no libproofnum.so needed);
#   - examples/cmake through find_package(proofnum) (proofnum::proofnum shared,
#     proofnum::proofnum_static, the C++ wrapper) and through pkg_check_modules' imported
#     target, and a version the package must refuse.
# Installs cargo-c when missing (0.10.24 needs Rust 1.95). It embeds cargo, about 400 crates:
# built unoptimised (opt-level 0) that takes 241 s of CPU instead of 801 s (about 2 minutes
# instead of 7 on 2 quiet cores), and cargo-c then spends 0.55 s instead of 0.30 s per
# cinstall; its binaries are larger (4 x 81 MB instead of 4 x 36 MB).
set -euo pipefail
CARGO_C_VERSION=0.10.24

if ! cargo cinstall --version >/dev/null 2>&1; then
    echo "+ CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo install cargo-c --version $CARGO_C_VERSION --locked"
    SECONDS=0
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo install cargo-c --version "$CARGO_C_VERSION" --locked
    echo "cargo-c installed in $SECONDS s"
fi
cargo cinstall --version

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$(sed -n 's/^version = "\(.*\)"/\1/p' capi/Cargo.toml | head -n 1)
major_minor=$(echo "$version" | cut -d. -f1,2)
next_minor=$(echo "$version" | awk -F. '{print $1 "." $2 + 1}')
warn=(-Wall -Wextra -Wpedantic -Werror)

# needed BINARY: the shared libraries BINARY names (DT_NEEDED).
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

echo "+ cargo cinstall -p proofnum-capi --release --prefix PREFIX (default libdir)"
SECONDS=0
prefix=$work/prefix
cargo cinstall -p proofnum-capi --release --prefix "$prefix" >"$work/cinstall.log" 2>&1 ||
    { cat "$work/cinstall.log"; exit 1; }
echo "installed in $SECONDS s:"
(cd "$prefix" && find . -type f -o -type l | sort)
pc=$(find "$prefix" -name proofnum.pc)
libdir=$(dirname "$(dirname "$pc")")
cmp "$prefix/include/proofnum/proofnum.h" include/proofnum.h
cmp "$prefix/include/proofnum/proofnum.hpp" include/proofnum.hpp
soname=$(readelf -d "$libdir/libproofnum.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
echo "soname: $soname"
[ "$soname" = "libproofnum.so.$major_minor" ]
[ -e "$libdir/$soname" ]

export PKG_CONFIG_PATH=$libdir/pkgconfig
[ "$(pkg-config --modversion proofnum)" = "$version" ]
echo "+ cc minimal.c \$(pkg-config --cflags --libs proofnum)"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
cc -std=c99 "${warn[@]}" examples/c/minimal.c $(pkg-config --cflags --libs proofnum) \
    -Wl,-rpath,"$(pkg-config --variable=libdir proofnum)" -o "$work/minimal_shared"
"$work/minimal_shared"
needed "$work/minimal_shared" | grep -x "$soname"

echo "+ cargo cinstall --library-type staticlib; cc minimal.c \$(pkg-config --static --cflags --libs proofnum)"
static_prefix=$work/static
cargo cinstall -p proofnum-capi --release --prefix "$static_prefix" --libdir lib \
    --library-type staticlib >"$work/cinstall-static.log" 2>&1 ||
    { cat "$work/cinstall-static.log"; exit 1; }
[ ! -e "$static_prefix/lib/libproofnum.so" ]
# shellcheck disable=SC2046
PKG_CONFIG_PATH=$static_prefix/lib/pkgconfig cc -std=c99 "${warn[@]}" examples/c/minimal.c \
    $(PKG_CONFIG_PATH=$static_prefix/lib/pkgconfig pkg-config --static --cflags --libs proofnum) \
    -o "$work/minimal_static"
"$work/minimal_static"
if needed "$work/minimal_static" | grep libproofnum; then
    echo "the static consumer needs a shared libproofnum" >&2
    exit 1
fi

echo "+ cmake -S examples/cmake -DCMAKE_PREFIX_PATH=PREFIX; cmake --build"
cmake -S examples/cmake -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake.log" 2>&1 ||
    { cat "$work/cmake.log"; exit 1; }
cmake --build "$work/cmake"
"$work/cmake/minimal"
"$work/cmake/minimal_static"
"$work/cmake/tictactoe" >/dev/null
"$work/cmake/minimal_pkgconfig"   # pkg_check_modules(... IMPORTED_TARGET proofnum)
needed "$work/cmake/minimal" | grep -x "$soname"
if needed "$work/cmake/minimal_static" | grep libproofnum; then
    echo "proofnum::proofnum_static needs a shared libproofnum" >&2
    exit 1
fi

# The package's version file: the installed version is accepted, the next minor refused (0.y
# versions of a semver crate are incompatible with each other).
mkdir "$work/version"
for wanted in "$major_minor" "$next_minor"; do
    printf 'cmake_minimum_required(VERSION 3.13)\nproject(v C)\nfind_package(proofnum %s REQUIRED)\n' \
        "$wanted" >"$work/version/CMakeLists.txt"
    rm -rf "$work/version/build"
    if cmake -S "$work/version" -B "$work/version/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null 2>&1; then
        outcome=accepted
    else
        outcome=refused
    fi
    echo "find_package(proofnum $wanted): $outcome"
    case "$wanted:$outcome" in
        "$major_minor:accepted" | "$next_minor:refused") ;;
        *) exit 1 ;;
    esac
done
echo "install and consumers: $SECONDS s"

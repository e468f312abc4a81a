# The Python package's source distribution: `python -m build --sdist python` (python/setup.py
# vendors the Rust crates the C library needs into it, with a Cargo.lock), then the sdist alone,
# copied away from the repository, installed with pip into a fresh virtual environment (cargo
# builds the library from the vendored crates with --locked; pip fetches build,
# setuptools and setuptools-rust from PyPI, cargo the crates.io dependencies), then one import
# and one solve. Fails on the first error. About half a minute, most of it the library's build.
SECONDS=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/build-venv"
"$work/build-venv/bin/pip" install --quiet --disable-pip-version-check build
echo "+ python -m build --sdist python"
"$work/build-venv/bin/python" -m build --sdist --outdir "$work/dist" python >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; exit 1; }
sdist=$(find "$work/dist" -name 'proofnum-*.tar.gz')
tar tzf "$sdist" >"$work/files"
echo "sdist: $(basename "$sdist"), $(wc -c <"$sdist") bytes, $(wc -l <"$work/files") files"
# The Rust sources and the lock the build needs are in it (grep reads the whole list: a grep
# -q on a pipe could stop its writer early and fail the pipe under pipefail).
for file in rust/Cargo.toml rust/Cargo.lock rust/capi/Cargo.toml rust/capi/src/lib.rs \
    rust/core/src/lib.rs rust/game-trait/src/lib.rs rust/check/src/lib.rs setup.py; do
    grep -x "proofnum-[0-9.]*/$file" "$work/files" >/dev/null ||
        { echo "the sdist lacks $file" >&2; exit 1; }
done

# Installed from a directory with nothing of the repository around it, without pip's wheel
# cache (so the library is built here), into a fresh environment.
mkdir "$work/elsewhere"
cp "$sdist" "$work/elsewhere/"
python3 -m venv "$work/venv"
echo "+ pip install $(basename "$sdist") (fresh virtual environment, no wheel cache)"
(cd "$work/elsewhere" && env -u CARGO_TARGET_DIR "$work/venv/bin/pip" install --no-cache-dir \
    --disable-pip-version-check -v "./$(basename "$sdist")") >"$work/install.log" 2>&1 ||
    { tail -n 60 "$work/install.log"; exit 1; }
grep -o 'cargo rustc .*--manifest-path rust/capi/Cargo.toml.*--locked.*' "$work/install.log" ||
    { echo "pip did not build the vendored crates with --locked" >&2; exit 1; }
(cd "$work/elsewhere" && "$work/venv/bin/python" - <<'EOF'
from proofnum import Game, Outcome, Repetition, Side, Solver, library_version


class Nim(Game):
    """Take 1, 2 or 3 stones; whoever takes the last stone wins: a multiple of 4 loses."""
    repetition_rule = Repetition.ACYCLIC

    def __init__(self, stones: int) -> None:
        self.stones, self.to_move = stones, Side.FIRST
    def side_to_move(self) -> Side: return self.to_move
    def hash(self) -> int: return self.stones << 1 | self.to_move
    def outcome(self) -> Outcome: return Outcome.LOSS if self.stones == 0 else Outcome.UNKNOWN
    def moves(self) -> range: return range(1, min(self.stones, 3) + 1)
    def play(self, take: int) -> None: self.stones -= take; self.to_move = self.to_move.opponent
    def undo(self, take: int) -> None: self.stones += take; self.to_move = self.to_move.opponent


won, lost = Solver().solve_value(Nim(21)), Solver().solve_value(Nim(20))
assert (won.value, won.best_move) == (Outcome.WIN, 1), won
assert lost.value == Outcome.LOSS, lost
print(f"installed from the sdist: library {library_version()}; Nim 21 {won.value.name} "
      f"(take {won.best_move}), Nim 20 {lost.value.name}")
EOF
)
echo "python sdist build, install and solve: $SECONDS s"

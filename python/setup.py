"""Where the C library's Rust sources come from, for a build from the repository and from an sdist.

The package's C library (proofnum/_libproofnum<suffix>) is the capi crate built by cargo through
setuptools-rust. Its sources live outside this directory (../capi, the core crate at .., and
../game-trait, ../check), which a source distribution cannot reach. So:

- `python -m build --sdist` (the `sdist` command below) first vendors the crates into rust/
  (gitignored): `cargo package` writes each crate as crates.io would receive it (its manifest
  made self-contained, only the files its `include` list names), each is unpacked into
  rust/<crate>/, and rust/Cargo.toml is a workspace of them whose [patch.crates-io] points the
  crates' dependencies on each other at those directories. rust/Cargo.lock is the repository's
  lock file, from which cargo drops the repository's other crates (games, command line, MPI)
  and what only they use; the members' dev-dependencies stay in it. So the build from the sdist
  uses the repository's dependency versions (`cargo build --locked`; the only download is from
  crates.io).
- A build from an unpacked sdist (it has PKG-INFO, which a clone does not) uses
  rust/capi/Cargo.toml; a build from the clone (`pip install ./python`) uses ../capi/Cargo.toml
  and never reads a leftover rust/.
"""

import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.sdist import sdist
from setuptools_rust import Binding, RustExtension

HERE = Path(__file__).resolve().parent
VENDORED = HERE / "rust"
# The crates the C library needs, each with its directory under rust/.
CRATES = {
    "proofnum-game": "game-trait",
    "proofnum": "core",
    "proofnum-check": "check",
    "proofnum-capi": "capi",
}
WORKSPACE = """\
# Written by python/setup.py for the sdist: the crates the C library needs, as `cargo package`
# wrote them, with their dependencies on each other patched to these directories.
[workspace]
members = ["game-trait", "core", "check", "capi"]
resolver = "2"

[patch.crates-io]
proofnum-game = { path = "game-trait" }
proofnum = { path = "core" }
proofnum-check = { path = "check" }

# The repository's release profile (its Cargo.toml).
[profile.release]
codegen-units = 1
lto = "thin"
"""


def vendor_crates(repository: Path, out: Path) -> None:
    """Writes the crates into `out` as the sdist carries them (see the module's docstring)."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir()
    with tempfile.TemporaryDirectory() as target:
        packages = [arg for name in CRATES for arg in ("-p", name)]
        # --allow-dirty: an sdist of uncommitted work is still this work; --no-verify: the
        # wheel build compiles it anyway.
        subprocess.run(["cargo", "package", "--no-verify", "--allow-dirty", "--quiet",
                        "--target-dir", target, *packages], cwd=repository, check=True)
        for name, directory in CRATES.items():
            version = crate_version(repository / directory_in_repository(directory))
            crate = Path(target) / "package" / f"{name}-{version}.crate"
            with tarfile.open(crate) as archive:
                prefix = f"{name}-{version}/"
                for member in archive.getmembers():
                    if not member.name.startswith(prefix) or not member.isfile():
                        continue
                    relative = member.name[len(prefix):]
                    # cargo's own records, and each crate's lock (the workspace has one).
                    if relative in ("Cargo.toml.orig", ".cargo_vcs_info.json", "Cargo.lock"):
                        continue
                    destination = out / directory / relative
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    source = archive.extractfile(member)
                    assert source is not None
                    destination.write_bytes(source.read())
    (out / "Cargo.toml").write_text(WORKSPACE)
    # The repository's lock, which cargo metadata fits to this workspace (dropping the packages
    # it does not use, keeping every version); the second run proves the result --locked.
    shutil.copy(repository / "Cargo.lock", out / "Cargo.lock")
    for locked in ([], ["--locked"]):
        subprocess.run(["cargo", "metadata", "--format-version", "1", "--quiet", *locked,
                        "--manifest-path", str(out / "Cargo.toml")],
                       check=True, stdout=subprocess.DEVNULL)


def directory_in_repository(directory: str) -> str:
    """Where a vendored crate's directory is in the repository (the core is its root)."""
    return "." if directory == "core" else directory


def crate_version(crate: Path) -> str:
    """The `version = "..."` of a crate's Cargo.toml (its first version line, [package]'s)."""
    manifest = crate / "Cargo.toml"
    for line in manifest.read_text().splitlines():
        if line.startswith("version = "):
            return line.split('"')[1]
    raise RuntimeError(f"no version in {manifest}")


class VendoringSdist(sdist):
    """`sdist` that vendors the Rust crates into rust/ first (MANIFEST.in grafts it)."""

    def run(self) -> None:
        if not (HERE / "PKG-INFO").exists():
            vendor_crates(HERE.parent, VENDORED)
        super().run()


if (HERE / "PKG-INFO").exists():
    # An unpacked sdist: the vendored crates, with the lock they came with.
    if not (VENDORED / "capi" / "Cargo.toml").exists():
        raise RuntimeError("this source distribution lacks rust/capi/Cargo.toml")
    manifest, cargo_args = "rust/capi/Cargo.toml", ["--locked"]
else:
    manifest, cargo_args = "../capi/Cargo.toml", []

setup(
    cmdclass={"sdist": VendoringSdist},
    rust_extensions=[
        # The C library, built by cargo from the capi crate (its default features) and copied
        # into the package as proofnum/_libproofnum<suffix>; proofnum/_abi.py loads it with
        # ctypes (NoBinding: a plain cdylib, no Python bindings).
        RustExtension("proofnum._libproofnum", manifest, binding=Binding.NoBinding,
                      py_limited_api=False, args=cargo_args),
    ],
)

#!/usr/bin/env python3
"""The README's and the user guide's own test: their commands run, their links resolve.

    python3 scripts/docs-test.py links              # SUMMARY.md lists every chapter; every
                                                    # relative link and anchor resolves
    python3 scripts/docs-test.py commands --list    # every ```sh block and what the test does
    python3 scripts/docs-test.py commands           # runs them (scripts/tests/80-docs.sh)
    python3 scripts/docs-test.py commands FILE...   # only these files' blocks

Every ```sh block of README.md and docs/src/**/*.md runs with `bash -euo pipefail` at the
repository root, in the order of its file, with target/release first on PATH and the CLI built
there first (so `proofnum` is the binary `cargo install --path cli` would install), under a
deadline. The blocks of the C chapter
(docs/src/c.md) are left to scripts/tests/55-guide-c.sh, which runs them as one script and
checks the header they regenerate.

Comments right above a block say how the test treats it; each names its reason:

    <!-- docs-test: skip (REASON; covered by: TEST) -->   not run; TEST covers it instead
    <!-- docs-test: run-as: COMMAND -->                     COMMAND runs instead (one a line)
    <!-- docs-test: replace: OLD => NEW -->                 the block with OLD replaced by NEW
    <!-- docs-test: exit: N -->                             the block must exit with status N
"""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "src"
# Left to scripts/tests/55-guide-c.sh (run as one script, the header checked after it).
OTHER_PART = {GUIDE / "c.md": "scripts/tests/55-guide-c.sh"}
# Files the commands write at the repository root, removed after the run.
OUTPUTS = ["c4.cert", "c4.ck"]
DEADLINE_S = 600
MARKER = re.compile(r"^<!-- docs-test: (skip|run-as|replace|exit)\b:?\s*(.*?)\s*-->$")


def documents():
    """README.md and every chapter, in a fixed order."""
    return [ROOT / "README.md"] + sorted(GUIDE.rglob("*.md"))


class Block:
    def __init__(self, path, line, text, markers):
        self.path, self.line, self.text, self.markers = path, line, text, markers

    def where(self):
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    def plan(self):
        """(script to run or None, expected exit status, what the test does)."""
        script, expected, notes = self.text, 0, []
        run_as = []
        for kind, arg in self.markers:
            if kind == "skip":
                if "covered by:" not in arg:
                    raise SystemExit(f"{self.where()}: a skip must say what covers it "
                                     f"('covered by: ...'): {arg}")
                return None, 0, f"skipped {arg}"
            if kind == "run-as":
                run_as.append(arg)
            elif kind == "replace":
                old, sep, new = arg.partition(" => ")
                if not sep or old not in script:
                    raise SystemExit(f"{self.where()}: replace: '{old}' is not in the block")
                new = new.split("  #")[0].rstrip()
                script = script.replace(old, new)
                notes.append(f"with {old!r} replaced by {new!r}")
            elif kind == "exit":
                expected = int(arg.split()[0])
                notes.append(f"expecting exit status {expected}")
        if run_as:
            script = "\n".join(run_as) + "\n"
            notes.append("as: " + "; ".join(r.split("  #")[0].strip() for r in run_as))
        return script, expected, "run " + ", ".join(notes) if notes else "run as written"


def sh_blocks(path):
    """The ```sh blocks of a Markdown file with the docs-test markers right above each."""
    lines = path.read_text().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```sh":
            markers, j = [], i - 1
            while j >= 0 and MARKER.match(lines[j].strip()):
                m = MARKER.match(lines[j].strip())
                markers.insert(0, (m.group(1), m.group(2)))
                j -= 1
            end = i + 1
            while lines[end].strip() != "```":
                end += 1
            blocks.append(Block(path, i + 1, "\n".join(lines[i + 1:end]) + "\n", markers))
            i = end
        elif lines[i].strip().startswith("<!-- docs-test") and not MARKER.match(lines[i].strip()):
            raise SystemExit(f"{path.relative_to(ROOT)}:{i + 1}: unknown docs-test marker: {lines[i]}")
        i += 1
    return blocks


def commands(args):
    listing = "--list" in args
    files = [Path(a).resolve() for a in args if a != "--list"] or documents()
    env = dict(os.environ)
    env["PATH"] = f"{ROOT / 'target' / 'release'}{os.pathsep}{env['PATH']}"
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # Open MPI refuses root without these
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    ran = skipped = 0
    failures = []
    start_all = time.monotonic()
    if not listing:
        # `proofnum` in the blocks is this build (what `cargo install --path cli` installs).
        print("== cargo build --release -p proofnum-cli", flush=True)
        subprocess.run(["cargo", "build", "--release", "-p", "proofnum-cli"], cwd=ROOT,
                       env=env, check=True)
    for path in files:
        if path in OTHER_PART:
            print(f"== {path.relative_to(ROOT)}: its blocks run in {OTHER_PART[path]}")
            continue
        for block in sh_blocks(path):
            script, expected, what = block.plan()
            print(f"\n== {block.where()}: {what}", flush=True)
            if script is None:
                skipped += 1
                continue
            print(script.rstrip(), flush=True)
            if listing:
                continue
            start = time.monotonic()
            try:
                status = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=ROOT,
                                        env=env, timeout=DEADLINE_S).returncode
            except subprocess.TimeoutExpired:
                status = f"no end within {DEADLINE_S} s"
            took = time.monotonic() - start
            ran += 1
            if status != expected:
                failures.append(f"{block.where()}: exit status {status}, expected {expected}")
                print(f"!! {failures[-1]}", flush=True)
            print(f"== {block.where()}: {took:.1f} s", flush=True)
    for name in OUTPUTS:
        for leftover in ROOT.glob(name + "*"):
            leftover.unlink()
    print(f"\n== {ran} blocks run, {skipped} skipped, in {time.monotonic() - start_all:.0f} s")
    if failures:
        print("failed:\n  " + "\n  ".join(failures), file=sys.stderr)
        sys.exit(1)


def slug(heading):
    """The anchor mdBook (and GitHub) give a heading."""
    text = re.sub(r"`|\*\*|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip()
    return "".join(c.lower() if c.isalnum() or c in "-_" else "-" if c.isspace() else ""
                   for c in text)


def anchors(path):
    text = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.*)$", text, re.M)}


def links():
    errors = []
    summary = GUIDE / "SUMMARY.md"
    listed = {(GUIDE / m).resolve() for m in re.findall(r"\]\(([^)]+\.md)\)", summary.read_text())}
    for chapter in GUIDE.rglob("*.md"):
        if chapter != summary and chapter.resolve() not in listed:
            errors.append(f"{chapter.relative_to(ROOT)}: not in docs/src/SUMMARY.md")
    for path in documents():
        text = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)
        text = re.sub(r"`[^`\n]*`", "", text)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address: not checked (the tests run without the web)
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists():
                errors.append(f"{path.relative_to(ROOT)}: broken link {target}")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                errors.append(f"{path.relative_to(ROOT)}: no heading for #{anchor} in {file or path.name}")
            elif path.is_relative_to(GUIDE) and not dest.is_relative_to(GUIDE):
                errors.append(f"{path.relative_to(ROOT)}: {target} is outside docs/src, "
                              "which the book does not carry (cite a repository file as `code`)")
    print(f"links: {len(documents())} files checked")
    if errors:
        print("\n".join(errors), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    if sys.argv[1:2] == ["links"]:
        links()
    elif sys.argv[1:2] == ["commands"]:
        commands(sys.argv[2:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)

#!/usr/bin/env python3
"""What trust costs: confirmation and certificates, measured with the `proofnum` command.

For each position: the solve with its answer confirmed (the default) and without
(`--no-confirm`), interleaved round by round, medians of the rounds and their ratio; the
positions the confirmation walked; then a certificate written (`--certificate`) and checked
(`proofnum check`): its size, records, and the check's time against the solve's.

Run from the repository root after `cargo build --release -p proofnum-cli`:
    python3 benches/trust.py [--runs 5] [--proofnum target/release/proofnum]
Prints figures only; asserts nothing (the machines are shared: compare ratios within a run).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

POSITIONS = [
    ("connect4", "444444", "README's Connect Four position"),
    ("uttt", "X;..@...O..;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./"
             "..X...OOO/..OX.X.../.O.....XX", "the guide's UTTT position"),
    ("atarigo", "", "the 6x6 crosscut"),
    ("chess", "3k3r/R2bb1R1/5p1p/2pPp2P/1p2P2P/1P3N2/1BP5/Q3KB2 w - - 0 1",
     "a mate in 4 (s1g23p50)"),
]


def run(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if out.returncode not in (0,):
        sys.exit(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}")
    return wall, out.stdout


def field(text, pattern, default=None):
    m = re.search(pattern, text)
    if not m:
        if default is not None:
            return default
        sys.exit(f"no {pattern!r} in:\n{text}")
    return m.group(1).replace(",", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--proofnum", default="target/release/proofnum")
    args = ap.parse_args()
    pn = args.proofnum
    print(f"{'position':32} {'confirmed s':>11} {'raw s':>8} {'ratio':>6} {'walked':>9} "
          f"{'of search':>9} {'cert bytes':>11} {'records':>8} {'check s':>8} {'check/solve':>11}")
    for game, pos, label in POSITIONS:
        confirmed, raw = [], []
        walked = searched = None
        for _ in range(args.runs):
            for mode in ("confirmed", "raw"):
                extra = ["--no-confirm"] if mode == "raw" else []
                wall, out = run([pn, game, pos, "--quiet", *extra])
                seconds = float(field(out, r"time: ([0-9.]+) s"))
                (confirmed if mode == "confirmed" else raw).append(seconds)
                if mode == "confirmed" and game != "chess":
                    walked = int(field(out, r"confirmed: ([0-9,]+) positions walked"))
                    searched = int(field(out, r"positions: ([0-9,]+)"))
                elif mode == "confirmed":
                    walked = int(field(out, r"confirmed: ([0-9,]+) positions walked", "0"))
                    searched = int(field(out, r"positions: ([0-9,]+)"))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "proof.cert")
            _, out = run([pn, game, pos, "--quiet", "--certificate", path])
            files = [path] if os.path.exists(path) else sorted(
                os.path.join(tmp, f) for f in os.listdir(tmp))
            size = sum(os.path.getsize(f) for f in files)
            records = sum(int(r.replace(",", "")) for r in re.findall(r"([0-9,]+) records", out))
            checks = []
            for _ in range(args.runs):
                total = 0.0
                for f in files:
                    _, cout = run([pn, "check", game, pos, f])
                    total += float(field(cout, r", ([0-9.]+) s\n"))
                checks.append(total)
        c, r, k = statistics.median(confirmed), statistics.median(raw), statistics.median(checks)
        print(f"{label:32} {c:11.3f} {r:8.3f} {c / r:6.2f} {walked:9,} "
              f"{100 * walked / max(searched, 1):8.1f}% {size:11,} {records:8,} {k:8.3f} "
              f"{k / c:11.3f}")


if __name__ == "__main__":
    main()

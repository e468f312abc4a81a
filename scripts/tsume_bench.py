#!/usr/bin/env python3
"""proofnum against cshogi's df-pn on a tsume-shogi suite, one thread each, side by side.

Run on demand (it is no test):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install cshogi
    /tmp/venv/bin/python scripts/tsume_bench.py --cap 60 --table-mib 1024

Problem by problem, proofnum first (`tsumesuite prove` on that problem: df-pn's proof alone, a
fresh table of --table-mib, the time limit --cap), then cshogi's `DfPn` (its C++ df-pn; cshogi
is GPL-3.0 and runs here only as a separate process) in a child process killed at the cap: on a
shared machine both programs then see the same load (run one after the other over the whole
suite, as this script first did, the ratio moved from 1.02 to 1.14 with the load). Both
answer the same question, "is it a mate?" (no mate length):
times are wall-clock seconds of the search alone, each program's own measurement, on the
same machine in the same run, one after the other. Prints one row a problem, then: how many
each proves, on how many of the problems both prove proofnum is faster, and the totals with
unproven problems counted at the cap; then the totals with every answer at its own time, a "no
mate" too (the three records flagged as misprints have none) unless the other program proves
a mate there, and unanswered problems at the cap.
"""

import argparse
import json
import os
import subprocess
import sys

CSHOGI_CHILD = r"""
import sys, time, cshogi
board = cshogi.Board(sys.argv[1])
dfpn = cshogi.DfPn()
start = time.perf_counter()
mate = dfpn.search(board)
print(("proven" if mate else "disproven-or-limit"), time.perf_counter() - start, dfpn.searched_node)
"""


def read_suite(path, ids, max_plies):
    problems = []
    with open(path, encoding="utf-8") as suite:
        for line in suite:
            if line.strip():
                record = json.loads(line)
                if (not ids or record["id"] in ids) and record["moves"] <= max_plies:
                    problems.append(record)
    return problems


def build_proofnum():
    """Builds `tsumesuite` once; returns its path."""
    command = ["cargo", "build", "--quiet", "--release", "-p", "proofnum-tools", "--bin",
               "tsumesuite"]
    print("+", " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    return os.path.join(target, "release", "tsumesuite")


def run_proofnum(binary, args, problem_id):
    """proofnum's proof of one problem in its own process: (status, seconds, MID calls)."""
    command = [binary, "prove", args.suite, "--cap", str(args.cap), "--table-mib",
               str(args.table_mib), "--ids", problem_id]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    for line in output.splitlines()[1:]:
        problem, status, seconds, mid_calls, _positions, _depth = line.split("\t")
        if problem == problem_id:
            return (status, float(seconds), int(mid_calls))
    return ("missing", args.cap, 0)


def run_cshogi(sfen, cap):
    try:
        result = subprocess.run([sys.executable, "-c", CSHOGI_CHILD, sfen], capture_output=True,
                                text=True, timeout=cap + 5)
    except subprocess.TimeoutExpired:
        return ("unknown (time limit)", cap, 0)
    if result.returncode != 0:
        return ("error: " + result.stderr.strip().splitlines()[-1], cap, 0)
    status, seconds, nodes = result.stdout.split()
    seconds = float(seconds)
    if seconds > cap:
        return ("unknown (time limit)", cap, int(nodes))
    return (status, seconds, int(nodes))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="games/suites/tsume-open.jsonl")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per problem and program")
    parser.add_argument("--table-mib", type=int, default=1024, help="proofnum's table")
    parser.add_argument("--ids", default="", help="comma-separated problem ids (default: all)")
    parser.add_argument("--max-plies", type=int, default=10**9,
                        help="only problems recorded at most this long")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ids = [i for i in args.ids.split(",") if i]
    problems = read_suite(args.suite, ids, args.max_plies)
    binary = build_proofnum()

    print(f"{'problem':<10} {'record':>6} {'proofnum':>10} {'s':>8} {'MID calls':>12} "
          f"{'cshogi':>10} {'s':>8} {'nodes':>12} {'cshogi/proofnum':>16}")
    both = faster = only_ours = only_theirs = 0
    total_ours = total_theirs = 0.0
    # Besides: every answer at its own time, a "no mate" too, unless the other program proves
    # a mate there (then it is a wrong answer, at the cap like no answer). proofnum's
    # disproofs are exact; cshogi's search ending without a mate is its claim.
    answered_ours = answered_theirs = 0.0
    for problem in problems:
        # One problem at a time, each program in turn, so both see the same load.
        status, seconds, mid_calls = run_proofnum(binary, args, problem["id"])
        proven = status == "proven"
        their_status, their_seconds, nodes = run_cshogi(problem["sfen"], args.cap)
        their_proven = their_status == "proven"
        ours_answers = proven or (status == "disproven" and not their_proven)
        theirs_answers = their_proven or (their_status == "disproven-or-limit" and not proven)
        answered_ours += seconds if ours_answers else args.cap
        answered_theirs += their_seconds if theirs_answers else args.cap
        seconds = seconds if proven else args.cap
        their_seconds = their_seconds if their_proven else args.cap
        total_ours += seconds
        total_theirs += their_seconds
        ratio = ""
        if proven and their_proven:
            both += 1
            faster += seconds < their_seconds
            ratio = f"{their_seconds / max(seconds, 1e-6):.2f}"
        elif proven:
            only_ours += 1
        elif their_proven:
            only_theirs += 1
        print(f"{problem['id']:<10} {problem['moves']:>6} {status.split()[0]:>10} {seconds:>8.3f} "
              f"{mid_calls:>12} {their_status.split()[0]:>10} {their_seconds:>8.3f} {nodes:>12} "
              f"{ratio:>16}", flush=True)
    print(f"{len(problems)} problems, cap {args.cap:g} s: both prove {both}; proofnum alone "
          f"{only_ours}, cshogi alone {only_theirs}; proofnum faster on {faster} of the {both} "
          f"both prove ({100 * faster / max(both, 1):.0f}%); total time (unproven at the cap) "
          f"proofnum {total_ours:.1f} s, cshogi {total_theirs:.1f} s, ratio "
          f"{total_ours / max(total_theirs, 1e-9):.2f}; every answer at its time, a no-mate too "
          f"(unanswered or refuted at the cap): {answered_ours:.1f} s and "
          f"{answered_theirs:.1f} s, ratio "
          f"{answered_ours / max(answered_theirs, 1e-9):.2f}")


if __name__ == "__main__":
    main()

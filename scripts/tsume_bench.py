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
a mate there, and unanswered problems at the cap. With several table sizes
(`--table-mib 64,1024`), proofnum runs once with each on every problem, one row each, and the
summary comes once a size, all against the same cshogi run.

A problem whose first runs both took under --repeat-below seconds is run --runs times in all
by each program (in turn, ours first), and each side's median time is the one compared: a
search of a few milliseconds moves by a factor of two with the load of the moment, and one
run would decide "faster" by that noise. Longer problems are run once (their times move by
far less than the gaps between the programs). Times are measured in microseconds.
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


def median(values):
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def repeated(args, first_ours, first_theirs, ours, theirs):
    """The medians of --runs runs of each program when both first runs were short: every
    later run of ours (a function of no arguments returning (status, seconds, work)) is
    followed by one of theirs, so both see the same load. Returns (ours, theirs)."""
    if max(first_theirs[1], max(o[1] for o in first_ours.values())) >= args.repeat_below:
        return first_ours, first_theirs
    our_times = {size: [result[1]] for size, result in first_ours.items()}
    their_times = [first_theirs[1]]
    for _ in range(args.runs - 1):
        for size in first_ours:
            status, seconds, _ = ours(size)
            if status != first_ours[size][0]:
                sys.exit(f"proofnum's answer changed between runs: {status}")
            our_times[size].append(seconds)
        status, seconds, _ = theirs()
        if status != first_theirs[0]:
            sys.exit(f"cshogi's answer changed between runs: {status}")
        their_times.append(seconds)
    return ({size: (result[0], median(our_times[size]), result[2])
             for size, result in first_ours.items()},
            (first_theirs[0], median(their_times), first_theirs[2]))


def run_proofnum(binary, args, problem_id, table_mib):
    """proofnum's proof of one problem in its own process: (status, seconds, MID calls)."""
    command = [binary, "prove", args.suite, "--cap", str(args.cap), "--table-mib",
               str(table_mib), "--ids", problem_id]
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
    parser.add_argument("--table-mib", default="1024",
                        help="proofnum's table, MiB; several comma-separated sizes are run in "
                        "turn on each problem and compared with the same cshogi run")
    parser.add_argument("--ids", default="", help="comma-separated problem ids (default: all)")
    parser.add_argument("--max-plies", type=int, default=10**9,
                        help="only problems recorded at most this long")
    parser.add_argument("--runs", type=int, default=5,
                        help="runs of each program on a short problem; the median is compared")
    parser.add_argument("--repeat-below", type=float, default=1.0,
                        help="a problem is short when both first runs took under this many "
                        "seconds")
    args = parser.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ids = [i for i in args.ids.split(",") if i]
    problems = read_suite(args.suite, ids, args.max_plies)
    binary = build_proofnum()

    sizes = [int(size) for size in args.table_mib.split(",") if size]
    print(f"{'problem':<10} {'record':>6} {'MiB':>5} {'proofnum':>10} {'s':>8} {'MID calls':>12} "
          f"{'cshogi':>10} {'s':>8} {'nodes':>12} {'cshogi/proofnum':>16}")
    tallies = {size: Tally() for size in sizes}
    for problem in problems:
        # One problem at a time, each program in turn, so both see the same load.
        def ours_once(size, problem=problem):
            return run_proofnum(binary, args, problem["id"], size)

        def theirs_once(problem=problem):
            return run_cshogi(problem["sfen"], args.cap)

        ours = {size: ours_once(size) for size in sizes}
        theirs = theirs_once()
        ours, theirs = repeated(args, ours, theirs, ours_once, theirs_once)
        their_status, their_seconds, nodes = theirs
        for size, (status, seconds, mid_calls) in ours.items():
            ratio = tallies[size].add(args.cap, status, seconds, their_status, their_seconds)
            print(f"{problem['id']:<10} {problem['moves']:>6} {size:>5} {status.split()[0]:>10} "
                  f"{seconds:>8.4f} {mid_calls:>12} {their_status.split()[0]:>10} "
                  f"{their_seconds:>8.4f} {nodes:>12} {ratio:>16}", flush=True)
    for size in sizes:
        print(f"{len(problems)} problems, cap {args.cap:g} s, proofnum's table {size} MiB: "
              + tallies[size].summary())


class Tally:
    """One table size's counts and totals against cshogi."""

    def __init__(self):
        self.both = self.faster = self.only_ours = self.only_theirs = 0
        self.total_ours = self.total_theirs = 0.0
        # Besides: every answer at its own time, a "no mate" too, unless the other program
        # proves a mate there (then it is a wrong answer, at the cap like no answer).
        # proofnum's disproofs are exact; cshogi's search ending without a mate is its claim.
        self.answered_ours = self.answered_theirs = 0.0

    def add(self, cap, status, seconds, their_status, their_seconds):
        """Counts one problem; returns the printed ratio (empty unless both prove it)."""
        proven = status == "proven"
        their_proven = their_status == "proven"
        ours_answers = proven or (status == "disproven" and not their_proven)
        theirs_answers = their_proven or (their_status == "disproven-or-limit" and not proven)
        self.answered_ours += seconds if ours_answers else cap
        self.answered_theirs += their_seconds if theirs_answers else cap
        seconds = seconds if proven else cap
        their_seconds = their_seconds if their_proven else cap
        self.total_ours += seconds
        self.total_theirs += their_seconds
        if proven and their_proven:
            self.both += 1
            self.faster += seconds < their_seconds
            return f"{their_seconds / max(seconds, 1e-6):.2f}"
        if proven:
            self.only_ours += 1
        elif their_proven:
            self.only_theirs += 1
        return ""

    def summary(self):
        return (f"both prove {self.both}; proofnum alone {self.only_ours}, cshogi alone "
                f"{self.only_theirs}; proofnum faster on {self.faster} of the {self.both} both "
                f"prove ({100 * self.faster / max(self.both, 1):.0f}%); total time (unproven at "
                f"the cap) proofnum {self.total_ours:.1f} s, cshogi {self.total_theirs:.1f} s, "
                f"ratio {self.total_ours / max(self.total_theirs, 1e-9):.2f}; every answer at "
                f"its time, a no-mate too (unanswered or refuted at the cap): "
                f"{self.answered_ours:.1f} s and {self.answered_theirs:.1f} s, ratio "
                f"{self.answered_ours / max(self.answered_theirs, 1e-9):.2f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Tsume-shogi lengths against the records, each difference put to cshogi's df-pn.

Reads the report of `tsumesuite run` (standard input or a file) and the suite, and for every
problem whose exact length differs from its record asks cshogi's depth-limited df-pn
(`cshogi.DfPn(depth, nodes)`, PyPI, GPL-3.0, a separate process: it shares no code with
proofnum) whether a mate exists within the record's plies and within proofnum's. cshogi
counts every ply, futile interpositions included, so:

- proofnum longer than the record: cshogi finding a mate within the record would contradict
  proofnum (whose lengths never count more than every ply); cshogi finding none says that,
  counting every ply, White has a defence longer than the record's: the record either missed
  it or counts it futile by a wider rule than proofnum's (cshogi cannot tell the two apart).
- proofnum shorter than the record: cshogi finding a mate within proofnum's length confirms a
  shorter mate the record missed; cshogi finding none means the shorter length rests on the
  futile-interposition rule (games/src/shogi/mate.rs), which cshogi does not apply.

A depth-limited df-pn is a second opinion, not a proof: its table does not key results by the
depth left, and its move generator leaves out some moves that do not promote. On musou-071
(record 25, proofnum 27) it "mates" in 11 plies, R*9h 8h7g N*6i 8i6i+ P*7h ..., in 12 nodes,
never trying White's 8i6i without promotion, after which both programs find no mate at all
(the unpromoted rook no longer guards 7h, so P*7h would be mate by a pawn drop). So a
disagreement is printed as disputed, to settle by hand, not as a proofnum error. Prints a line
per difference and a summary; exits 1 when any is disputed.
"""

import argparse
import json
import sys

import cshogi


def mate_within(sfen: str, plies: int, nodes: int):
    """(True, line) when cshogi mates within `plies`, (False, []) when it proves it cannot,
    (None, []) when it ran out of nodes."""
    board = cshogi.Board(sfen)
    search = cshogi.DfPn(plies, nodes)
    if search.search(board):
        return True, [cshogi.move_to_usi(m) for m in search.get_pv(board)]
    if search.searched_node >= nodes:
        return None, []
    return False, []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", nargs="?", help="tsumesuite's report (default: standard input)")
    parser.add_argument("--suite", default="games/suites/tsume-open.jsonl")
    parser.add_argument("--nodes", type=int, default=20_000_000, help="cshogi's nodes a search")
    args = parser.parse_args()

    suite = {}
    with open(args.suite, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                p = json.loads(line)
                suite[p["id"]] = p
    report = open(args.report, encoding="utf-8") if args.report else sys.stdin

    counts = {"=": 0, "<": 0, ">": 0, "bound": 0, "none": 0}
    contradicted = 0
    for line in report:
        fields = line.split()
        if len(fields) < 5 or fields[0] not in suite:
            continue
        ident, length, vs = fields[0], fields[3], fields[4]
        if vs not in ("=", "<", ">"):
            counts["bound" if length.startswith("≤") else "none"] += 1
            continue
        counts[vs] += 1
        if vs == "=":
            continue
        record, ours = int(fields[1]), int(length)
        sfen = suite[ident]["sfen"]
        at_record, _ = mate_within(sfen, record, args.nodes)
        at_ours, line_ours = mate_within(sfen, ours, args.nodes)
        word = {True: "mate", False: "no mate", None: "node limit"}
        if vs == ">":
            verdict = {
                True: "DISPUTED: cshogi mates within the record (settle by hand)",
                False: "a longer defence than the record's (cshogi: no mate within it): missed, or futile by a wider rule",
                None: "open (cshogi's node limit)",
            }[at_record]
            contradicted += at_record is True
        else:
            verdict = {
                True: "a shorter mate than the record's (cshogi agrees)",
                False: "shorter by the futile-interposition rule (cshogi counts every ply)",
                None: "open (cshogi's node limit)",
            }[at_ours]
        print(f"{ident}\trecord {record}\tproofnum {ours}\tcshogi within {record}: "
              f"{word[at_record]}; within {ours}: {word[at_ours]}\t{verdict}"
              + (f"\tcshogi's line: {' '.join(line_ours)}" if line_ours else ""), flush=True)

    print(f"lengths: {counts['=']} equal to the record, {counts['<']} shorter, {counts['>']} longer, "
          f"{counts['bound']} bounds only, {counts['none']} without a length; "
          f"{contradicted} disputed by cshogi")
    return 1 if contradicted else 0


if __name__ == "__main__":
    sys.exit(main())

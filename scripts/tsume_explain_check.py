#!/usr/bin/env python3
"""Checks `tsumesuite explain`'s longer defences with cshogi, a separate process.

Reads the rows `tsumesuite explain --defences FILE` writes (id, ply, White's reply, the
position after it as SFEN, the plies the record has left after it, the plies proofnum's mate
takes after it or `-`, the mating line in USI, `-` or `?`) and puts each to cshogi (PyPI,
GPL-3.0; shares no code with proofnum):

- no mate within the record's plies left: cshogi's depth-limited df-pn (`cshogi.DfPn`) must
  not find one. cshogi counts every ply, futile interpositions included, and proofnum's
  lengths never count more, so a cshogi mate there contradicts proofnum's claim that the
  reply outlasts the record;
- a board-move reply must come with its mating line (`?` where proofnum's search for it
  stopped at a limit), which must replay as a tsume mate
  (`tsume_referee.referee`: every Black move a legal check, every White move legal, checkmate
  at the end), no shorter than the claimed plies: it shows White's futile interpositions and
  their captures, which the claim does not count, so it may be longer. A line is given for
  board-move replies only, whose position carries no pending free capture.

Prints a verdict a row; exits 1 on a bad line, a disputed row, or fewer rows than --expect.
A depth-limited df-pn is a second opinion, not a proof (see scripts/tsume_lengths.py: on
musou-071 its generator never tries a White move without promotion and "mates" where no mate
exists), so a cshogi mate is printed as disputed, with its line, to settle by hand. A cshogi
search that runs out of nodes is reported, not failed.
"""

import argparse
import sys

import tsume_lengths
from tsume_referee import finish, referee, tsv_rows


def mate_within(sfen: str, plies: int, nodes: int):
    """`tsume_lengths.mate_within`, with no mate within zero plies."""
    if plies <= 0:
        return False, []
    return tsume_lengths.mate_within(sfen, plies, nodes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("defences", help="the file tsumesuite explain --defences wrote")
    parser.add_argument("--expect", type=int, default=1,
                        help="fail unless at least this many rows arrive (default 1)")
    parser.add_argument("--nodes", type=int, default=20_000_000, help="cshogi's nodes a search")
    args = parser.parse_args()
    seen = failed = 0
    with open(args.defences, encoding="utf-8") as f:
        for fields in tsv_rows(f, 7):
            if fields is None:
                failed += 1
                continue
            problem, ply, reply, sfen, left, plies, line = fields
            seen += 1
            name = f"{problem} ply {ply} {reply}"
            within, pv = mate_within(sfen, int(left), args.nodes)
            if within:
                print(f"DISPUTED {name}: cshogi mates within the record's {left} plies left: "
                      f"{' '.join(pv)}")
                failed += 1
                continue
            drop = "*" in reply
            if line == "-" and not drop:
                print(f"FAIL {name}: a board-move reply without its line")
                failed += 1
                continue
            if line not in ("-", "?"):
                moves = line.split()
                error = referee(sfen, moves)
                # The line shows futile interpositions and their captures, which the claimed
                # length does not count: never shorter than the claim, longer only so.
                if error is None and plies != "-" and len(moves) < int(plies):
                    error = f"the line has {len(moves)} plies, fewer than the {plies} claimed"
                if error is not None:
                    print(f"FAIL {name}: {error}")
                    failed += 1
                    continue
                checked = f"line of {len(moves)} plies replayed (claimed {plies})"
            elif line == "?":
                checked = "no line (proofnum's search for it stopped at a limit)"
            else:
                checked = "no line (a drop)"
            searched = "out of nodes" if within is None else "no mate"
            print(f"ok   {name}: within the record's {left} plies left cshogi: {searched}; "
                  f"{checked}")
    return finish(seen, failed, args.expect, "defences checked", "rows")


if __name__ == "__main__":
    sys.exit(main())

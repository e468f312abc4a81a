#!/usr/bin/env python3
"""The tsume-shogi referee: replays proofnum's mating lines on cshogi's board.

cshogi (PyPI, GPL-3.0) is an independent shogi implementation (Apery's move generator in
C++); it runs here as a separate process and shares no code with proofnum. Reads lines
`id<TAB>sfen<TAB>usi moves` on standard input (what `tsumesuite run --lines FILE` writes) and
checks each: every Black move is legal and gives check, every White move is legal (mate by a
pawn drop and two pawns on a file are illegal by cshogi's rules too), and the line ends with
White to move, in check, without a legal move. Prints one verdict a line; exits 1 when any
line fails or when fewer lines than --expect arrived.
"""

import argparse
import sys

import cshogi


def referee(sfen: str, moves: list[str]) -> str | None:
    """None when `moves` is a tsume mate from `sfen`, else what is wrong."""
    board = cshogi.Board(sfen)
    if board.turn != cshogi.BLACK:
        return "the position does not have Black to move"
    for ply, text in enumerate(moves, start=1):
        legal = {cshogi.move_to_usi(m): m for m in board.legal_moves}
        if text not in legal:
            return f"ply {ply}: {text} is not a legal move"
        board.push(legal[text])
        if ply % 2 == 1 and not board.is_check():
            return f"ply {ply}: {text} gives no check"
    if len(moves) % 2 == 0:
        return "the line does not end with a Black move"
    if not board.is_check() or any(True for _ in board.legal_moves):
        return "the line does not end in checkmate"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--expect", type=int, default=1,
                        help="fail unless at least this many lines arrive (default 1)")
    args = parser.parse_args()
    seen = failed = 0
    for fields in tsv_rows(sys.stdin, 3):
        if fields is None:
            failed += 1
            continue
        problem, sfen, moves = fields
        seen += 1
        error = referee(sfen, moves.split())
        if error is None:
            print(f"ok   {problem}: mate in {len(moves.split())} plies")
        else:
            print(f"FAIL {problem}: {error}")
            failed += 1
    return finish(seen, failed, args.expect, "lines refereed", "lines")


def tsv_rows(lines, width: int):
    """The tab-separated rows of `lines`, blank ones skipped: each a list of `width` fields,
    or None for a row of another width (printed as a failure)."""
    for line in lines:
        if not line.strip():
            continue
        fields = line.rstrip("\n").split("\t")
        if len(fields) != width:
            print(f"FAIL malformed row: {line[:80]!r}")
            yield None
        else:
            yield fields


def finish(seen: int, failed: int, expect: int, done: str, items: str) -> int:
    """Prints the summary; the exit code: 1 when any failed or fewer than `expect` arrived."""
    print(f"{seen} {done}, {failed} failed")
    if seen < expect:
        print(f"FAIL: {expect} {items} expected, {seen} arrived")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

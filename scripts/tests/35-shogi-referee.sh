# The tsume-shogi referee: proofnum on a few short problems of the Open Tsume collection
# (games/suites/tsume-open.jsonl), then every mating line replayed by cshogi (PyPI, GPL-3.0,
# used only as a separate process: scripts/tsume_referee.py), which checks that each Black
# move is a legal check and that the line ends in checkmate. The suite runner itself fails on
# any wrong or disputed answer (lines replayed on rsshogi's board too) and on any certificate
# proofnum-check rejects (each proof's certificate is written and checked); the referee fails on
# any line it rejects and when fewer lines than problems arrive (a problem left unproven).
# About a minute after the release build, most of it pip.
venv=target/shogi-referee-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check cshogi
lines=target/tsume-ci-lines.tsv
problems=musou-055,musou-077,zukou-036,zukou-092
cargo run --release -p proofnum-tools --bin tsumesuite -- run games/suites/tsume-open.jsonl \
    --ids "$problems" --cap 30 --length-cap 30 --table-mib 256 --lines "$lines" \
    --certificates target/tsume-ci-certs
"$venv/bin/python" scripts/tsume_referee.py --expect 4 < "$lines"
# `tsumesuite within`: musou-077's record, an 11-ply line the referee above replays, is a mate
# within 6 Black moves, so MateWithin(6) must be proven.
within=$(cargo run --quiet --release -p proofnum-tools --bin tsumesuite -- within \
    games/suites/tsume-open.jsonl --ids musou-077 --moves 6 --cap 30 --table-mib 64)
echo "$within"
grep -qP '^musou-077\t6\tproven\t' <<< "$within" || { echo "within: musou-077 not proven within 6 moves" >&2; exit 1; }
# `tsumesuite explain`: musou-055 (record 11 plies) and musou-021 (21) have no mate within
# their records; the walk names the record's White reply that is not the longest and the
# replies that outlast it. cshogi checks each such reply (no mate within the plies the record
# has left after it, counting every ply) and replays its mating line.
defences=target/tsume-ci-defences.tsv
cargo run --quiet --release -p proofnum-tools --bin tsumesuite -- explain \
    games/suites/tsume-open.jsonl --ids musou-055,musou-021 --cap 30 --table-mib 64 \
    --defences "$defences"
"$venv/bin/python" scripts/tsume_explain_check.py "$defences" --expect 2

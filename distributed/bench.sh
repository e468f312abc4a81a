#!/usr/bin/env bash
# The distributed solver's benchmark: the issue-5 positions of the guide's Parallel table (Connect
# Four 444444, 12345, 4453; UTTT positions 1 and 2 of tools/src/bin/bench.rs), each asked "can the
# side to move win?" as parallel_bench asks it, on 1, 2 and 4 ranks with one job thread per
# rank that runs jobs (with 1 rank the coordinator runs them itself; with more it only
# coordinates). Rounds run every rank count back to back; prints each run, then per position
# and rank count the medians of MID calls, time, slots' idle share, jobs, messages and bytes
# (both directions, all ranks) and the coordinator's operations per busy second.
#
#   distributed/bench.sh                   # 3 rounds, 64 MiB tables, ranks 1 2 4
#   RUNS=5 RANKS="1 3" TABLE_MIB=256 distributed/bench.sh
#
# Runs on demand (not in CI). As root, mpirun needs --allow-run-as-root; with more ranks than
# cores, --oversubscribe: both are passed. Each run has a deadline (CAP seconds, default 600),
# so that a hang ends the benchmark with an error instead of stalling it.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
ranks=${RANKS:-1 2 4}
table_mib=${TABLE_MIB:-64}
extra=${EXTRA:-}
cap=${CAP:-600}
cargo build --release -p proofnum-mpi --bin solve_mpi >/dev/null 2>&1
solve_mpi=${CARGO_TARGET_DIR:-target}/release/solve_mpi
mpirun=(mpirun --oversubscribe --bind-to none)
if [ "$(id -u)" = 0 ]; then mpirun+=(--allow-run-as-root); fi

positions=(
    "connect4 444444 first"
    "connect4 12345 second"
    "connect4 4453 first"
    "uttt X;..@...O..;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/..OX.X.../.O.....XX x"
    "uttt O;......O@.;X.O.O.X../OX.O...../X.....X.O/..OX.OX../OX..X..../...O.X.O./..X...OOO/...X.X.../.O.....XX o"
)

echo "distributed bench: $runs rounds, ranks $ranks, ${table_mib} MiB per rank, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for round in $(seq "$runs"); do
    for p in "${positions[@]}"; do
        read -r game position attacker <<<"$p"
        for np in $ranks; do
            out=$(timeout "$cap" "${mpirun[@]}" -np "$np" "$solve_mpi" "$game" "$position" \
                --attacker "$attacker" --threads 1 --table-mib "$table_mib" --quiet $extra)
            # One line per run: position np mid time idle jobs messages bytes ops/s answer
            echo "$out" | awk -v pos="$game ${position:0:12}" -v np="$np" '
                /^MID calls:/ { gsub(",", "", $3); mid = $3; time = $7 }
                /^answer:/ { answer = $2 }
                /^distributed: [0-9]+ job slots/ {
                    for (i = 1; i <= NF; i++) {
                        if ($i == "jobs,") { jobs = $(i - 1) }
                        if ($i == "idle") { idle = $(i + 1) }
                        if ($i == "per") { ops = $(i - 1) }
                    }
                    gsub(/[(,%]/, "", jobs); gsub(/[,%]/, "", idle); gsub(/[(,]/, "", ops)
                }
                /^  rank/ {
                    gsub(",", "")
                    for (i = 1; i <= NF; i++) {
                        if ($i == "messages") { m += $(i + 1) + $(i + 4) }
                        if ($i == "bytes") { b += $(i + 1) + $(i + 4) }
                    }
                }
                END {
                    gsub(",", "", m)
                    printf "%-22s %2d %10d %8.3f %6.1f %7d %8d %11d %9d %s\n", pos, np, mid, time, idle, jobs, m, b, ops, answer
                }' | tee -a "$results"
        done
    done
done
echo
echo "medians over $runs rounds (messages and bytes: both directions, all ranks)"
printf "%-22s %5s %12s %9s %7s %7s %9s %12s %10s %9s\n" position ranks "MID calls" time idle% jobs messages bytes "ops/s" "B/job"
sort -k1,2 -k3,3n "$results" | awk '
    function median(list, n,    sorted, i, j, t) {
        for (i = 1; i <= n; i++) sorted[i] = list[i]
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (sorted[j] < sorted[i]) { t = sorted[i]; sorted[i] = sorted[j]; sorted[j] = t }
        return sorted[int((n + 1) / 2)]
    }
    {
        key = $1 " " $2 "|" $3
        n[key]++
        mid[key, n[key]] = $4; time[key, n[key]] = $5; idle[key, n[key]] = $6
        jobs[key, n[key]] = $7; msg[key, n[key]] = $8; bytes[key, n[key]] = $9; ops[key, n[key]] = $10
        if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
    }
    END {
        for (k = 1; k <= keys; k++) {
            key = order[k]; c = n[key]
            for (f = 1; f <= c; f++) { a[f] = mid[key, f] } ; m1 = median(a, c)
            for (f = 1; f <= c; f++) { a[f] = time[key, f] } ; m2 = median(a, c)
            for (f = 1; f <= c; f++) { a[f] = idle[key, f] } ; m3 = median(a, c)
            for (f = 1; f <= c; f++) { a[f] = jobs[key, f] } ; m4 = median(a, c)
            for (f = 1; f <= c; f++) { a[f] = msg[key, f] } ; m5 = median(a, c)
            for (f = 1; f <= c; f++) { a[f] = bytes[key, f] } ; m6 = median(a, c)
            for (f = 1; f <= c; f++) { a[f] = ops[key, f] } ; m7 = median(a, c)
            split(key, parts, "|")
            printf "%-22s %5s %12d %9.2f %7.1f %7d %9d %12d %10d %9d\n", parts[1], parts[2], m1, m2, m3, m4, m5, m6, m7, (m4 > 0 ? m6 / m4 : 0)
        }
    }'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

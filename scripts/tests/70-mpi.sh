# The distributed solver (distributed/, crate proofnum-mpi) under mpirun on this machine, with
# more ranks than cores (--oversubscribe; as root also --allow-run-as-root), every mpirun under
# a deadline so that a hang fails the part instead of stalling the run:
#   - the random-game oracle suite on 3 and 5 ranks: every answer against brute force, with tiny
#     tables, job budgets and split thresholds so that root trees grow and jobs overlap;
#   - the Connect Four late suite on 3 and 5 ranks against the alpha-beta scores;
#   - in both, solved positions passed between ranks (every solved one: the default threshold,
#     2^6 MID calls below a position, is more than these jobs spend);
#   - a checkpoint written mid-solve (a node limit stops the solve) and resumed to the same
#     answer with fewer MID calls than a solve from scratch (one job thread: deterministic),
#     and refused with a clear error for another position or game, or without a worker rank's
#     table file (the error names the file);
#   - a --checkpoint path that cannot be written: bad input (exit 2) before anything is
#     searched or printed;
#   - SIGUSR1 writes a checkpoint at once; a worker rank killed mid-solve ends the run with a
#     clear error naming the last checkpoint, and that checkpoint resumes to the same answer;
#   - a worker rank stopped mid-solve (SIGSTOP) is given up, and the run ends with the answer.
# About 2 minutes after the release build (the guide's docs/src/parallel.md has the figures).
set -euo pipefail

cargo build --release -p proofnum-mpi --examples
bin=target/release/examples
mpirun=(mpirun --oversubscribe)
if [ "$(id -u)" = 0 ]; then mpirun+=(--allow-run-as-root); fi
deadline=300
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
SECONDS=0

for np in 3 5; do
    echo "+ mpirun -np $np oracle_mpi --games 150"
    timeout "$deadline" "${mpirun[@]}" -np "$np" "$bin/oracle_mpi" --games 150
    echo "+ mpirun -np $np c4suite_mpi games/suites/c4-late.txt (jobs of 20 MID calls, sharing)"
    timeout "$deadline" "${mpirun[@]}" -np "$np" "$bin/c4suite_mpi" games/suites/c4-late.txt \
        --job-work 20 --split-work 40 --share-solved 16 --shared-min-work-log2 0
done
echo "suites: $SECONDS s"

# solve_mpi's value line and MID calls from its report.
value() { grep '^value:' "$1"; }
mid_calls() { sed -n 's/^MID calls: \([0-9,]*\) .*/\1/p' "$1" | tr -d ,; }

# Connect Four 444444: First wins (the README's first command), 1.57 M MID calls serially.
solve=("$bin/solve_mpi" connect4 444444 --quiet --threads 1 --table-mib 16)
echo "+ checkpoint mid-solve and resume (2 ranks, one job thread)"
timeout "$deadline" "${mpirun[@]}" -np 2 "${solve[@]}" >"$work/scratch.txt"
scratch=$(mid_calls "$work/scratch.txt")
status=0
timeout "$deadline" "${mpirun[@]}" -np 2 "${solve[@]}" --checkpoint "$work/a.ck" \
    --nodes 2000000 >"$work/stopped.txt" 2>"$work/stopped.err" || status=$?
if [ "$status" != 1 ] || ! grep -q '^value: unknown (node limit' "$work/stopped.txt"; then
    echo "the node limit should have stopped the solve (exit 1), got exit $status:"
    cat "$work/stopped.txt" "$work/stopped.err"
    exit 1
fi
test -s "$work/a.ck" && test -s "$work/a.ck.rank1"
timeout "$deadline" "${mpirun[@]}" -np 2 "${solve[@]}" --checkpoint "$work/a.ck" --resume \
    >"$work/resumed.txt"
resumed=$(mid_calls "$work/resumed.txt")
if [ "$(value "$work/resumed.txt")" != "$(value "$work/scratch.txt")" ] ||
    [ "$resumed" -ge "$scratch" ]; then
    echo "resumed: $(value "$work/resumed.txt") in $resumed MID calls;" \
        "from scratch: $(value "$work/scratch.txt") in $scratch"
    exit 1
fi
echo "from scratch $scratch MID calls; stopped, then resumed with $resumed more; $(value "$work/resumed.txt")"
# The same checkpoint for another position, or another game: refused with a clear error.
for other in "connect4 4444" "tictactoe 5"; do
    status=0
    timeout "$deadline" "${mpirun[@]}" -np 2 "$bin/solve_mpi" $other --quiet --table-mib 16 \
        --checkpoint "$work/a.ck" --resume >"$work/other.txt" 2>"$work/other.err" || status=$?
    if [ "$status" != 4 ] ||
        ! grep -q "^error: cannot resume: the checkpoint is of \"connect4 444444\", not \"$other\"" \
            "$work/other.err"; then
        echo "resuming connect4 444444's checkpoint as $other should be refused (exit $status):"
        cat "$work/other.txt" "$work/other.err"
        exit 1
    fi
done
echo "a checkpoint resumed for another position or game: refused"
# Without rank 1's table file, the resume is refused and the error names the file.
mv "$work/a.ck.rank1" "$work/a.ck.rank1.away"
status=0
timeout "$deadline" "${mpirun[@]}" -np 2 "${solve[@]}" --checkpoint "$work/a.ck" --resume \
    >"$work/no-rank-file.txt" 2>"$work/no-rank-file.err" || status=$?
if [ "$status" != 4 ] ||
    ! grep -q "^error: cannot resume: rank 1's table file $work/a.ck.rank1 is missing" \
        "$work/no-rank-file.err"; then
    echo "resuming without rank 1's table file should be refused naming it (exit $status):"
    cat "$work/no-rank-file.txt" "$work/no-rank-file.err"
    exit 1
fi
mv "$work/a.ck.rank1.away" "$work/a.ck.rank1"
echo "a resume without a rank's table file: refused, naming the file"
# A --checkpoint path that cannot be written is bad input, found before the solve starts.
status=0
timeout "$deadline" "${mpirun[@]}" -np 2 "${solve[@]}" --checkpoint "$work/no/such/dir/c.ck" \
    >"$work/unwritable.txt" 2>"$work/unwritable.err" || status=$?
if [ "$status" != 2 ] || [ -s "$work/unwritable.txt" ] ||
    ! grep -q "^error: --checkpoint: cannot write $work/no/such/dir/c.ck: " "$work/unwritable.err"
then
    echo "an unwritable --checkpoint path should be refused at once (exit $status):"
    cat "$work/unwritable.txt" "$work/unwritable.err"
    exit 1
fi
echo "an unwritable --checkpoint path: refused before the solve"

# The pid of rank RANK among the processes below PID (Open MPI sets OMPI_COMM_WORLD_RANK).
rank_pid() {
    local pid=$1 rank=$2 child
    for child in $(pgrep -P "$pid"); do
        if tr '\0' '\n' <"/proc/$child/environ" 2>/dev/null |
            grep -qx "OMPI_COMM_WORLD_RANK=$rank"; then
            echo "$child"
            return
        fi
        rank_pid "$child" "$rank"
    done
}

# Connect Four 12345: Second (to move) wins, 5.9 M MID calls serially: long enough to signal.
long=("$bin/solve_mpi" connect4 12345 --quiet --table-mib 16 --checkpoint "$work/b.ck")
echo "+ SIGUSR1 to rank 0, then SIGKILL to rank 2 (3 ranks)"
# mpirun follows its SIGTERM with SIGKILL after odls_base_sigkill_timeout (1 s by default): on
# a loaded machine rank 0 may need longer to name its checkpoint and exit, so it gets 10 s.
timeout "$deadline" "${mpirun[@]}" --mca odls_base_sigkill_timeout 10 -np 3 "${long[@]}" \
    >"$work/killed.txt" 2>"$work/killed.err" &
run=$!
for _ in $(seq 100); do
    coordinator=$(rank_pid "$run" 0)
    worker=$(rank_pid "$run" 2)
    if [ -n "$coordinator" ] && [ -n "$worker" ]; then break; fi
    sleep 0.1
done
sleep 1
kill -USR1 "$coordinator"
for _ in $(seq 100); do
    if [ -s "$work/b.ck" ] && [ -s "$work/b.ck.rank2" ]; then break; fi
    sleep 0.1
done
kill -KILL "$worker"
status=0
wait "$run" || status=$?
if [ "$status" = 0 ] || [ "$status" = 124 ] ||
    ! grep -q '^checkpoint: ' "$work/killed.err" ||
    ! grep -q "the last checkpoint is $work/b.ck" "$work/killed.err"; then
    echo "a killed rank should end the run with the last checkpoint named (exit $status):"
    cat "$work/killed.txt" "$work/killed.err"
    exit 1
fi
grep '^error:' "$work/killed.err"
timeout "$deadline" "${mpirun[@]}" -np 3 "${long[@]}" --resume >"$work/after-kill.txt"
if [ "$(value "$work/after-kill.txt")" != "value: Win for the side to move (win for Second)" ]; then
    echo "resumed after the kill:"
    cat "$work/after-kill.txt"
    exit 1
fi
echo "killed rank: clear error, resumed to $(value "$work/after-kill.txt")"

# A rank that stops answering (SIGSTOP: alive, silent) is given up after --rank-timeout; the
# others finish the solve, and the run ends (MPI_Abort: MPI_Finalize would wait for the stopped
# rank) with the answer's exit code instead of hanging.
echo "+ SIGSTOP to rank 2 (3 ranks, --rank-timeout 2)"
timeout "$deadline" "${mpirun[@]}" -np 3 "$bin/solve_mpi" connect4 12345 --quiet --table-mib 16 \
    --threads 1 --rank-timeout 2 >"$work/stopped-rank.txt" 2>"$work/stopped-rank.err" &
run=$!
for _ in $(seq 100); do
    worker=$(rank_pid "$run" 2)
    if [ -n "$worker" ]; then break; fi
    sleep 0.1
done
sleep 1
kill -STOP "$worker"
status=0
wait "$run" || status=$?
kill -KILL "$worker" 2>/dev/null || true
if [ "$status" != 0 ] ||
    [ "$(value "$work/stopped-rank.txt")" != "value: Win for the side to move (win for Second)" ] ||
    ! grep -q '^  rank 2: .*given up' "$work/stopped-rank.txt"; then
    echo "a stopped rank should be given up and the run end with the answer (exit $status):"
    cat "$work/stopped-rank.txt" "$work/stopped-rank.err"
    exit 1
fi
echo "stopped rank: given up, $(value "$work/stopped-rank.txt")"
echo "distributed checks: $SECONDS s"

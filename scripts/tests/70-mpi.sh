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
#     last checkpoint (the surviving ranks' tables) and the command that resumes, which
#     resumes to the same answer;
#   - a worker rank stopped mid-solve (SIGSTOP) is given up, and the run ends with the answer;
#   - the guide's commands as written (in a scratch directory): a run that says rank 0's pid
#     and the commands that drive it, a checkpoint on the --checkpoint-trigger file, a stop on
#     the --stop-trigger file that prints the command that resumes, that command, Ctrl-C at
#     mpirun (SIGINT to mpirun, which ends the ranks with SIGTERM) with a last checkpoint and
#     the command that resumes, and that command to Connect Four 1235's known value;
#   - `solve_mpi` built as an example (its old name) is the same program.
# About 3 minutes after the release build (the guide's docs/src/parallel.md has the figures).
set -euo pipefail

cargo build --release -p proofnum-mpi --bins --examples
target=$(realpath "${CARGO_TARGET_DIR:-target}")
bin=$target/release/examples
solve_mpi=$target/release/solve_mpi
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
solve=("$solve_mpi" connect4 444444 --quiet --threads 1 --table-mib 16)
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
    timeout "$deadline" "${mpirun[@]}" -np 2 "$solve_mpi" $other --quiet --table-mib 16 \
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

# Connect Four 12355: Second (to move) wins, 8.4 M MID calls serially: long enough to signal.
long=("$solve_mpi" connect4 12355 --quiet --table-mib 16 --checkpoint "$work/b.ck")
echo "+ SIGUSR1 to rank 0, then SIGKILL to rank 2 (3 ranks)"
# mpirun follows its SIGTERM with SIGKILL after odls_base_sigkill_timeout (1 s by default):
# rank 0 waits 80% of it for the ranks' tables (rank 2, dead, never answers), then writes the
# tree; on a loaded machine 1 s may not be enough to say so, so it gets 4 s.
timeout "$deadline" "${mpirun[@]}" --mca odls_base_sigkill_timeout 4 -np 3 "${long[@]}" \
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
    [ "$(grep -c '^checkpoint: ' "$work/killed.err")" != 2 ] ||
    ! grep -q "the last checkpoint is $work/b.ck (written just now); resume with:" \
        "$work/killed.err"; then
    echo "a killed rank should end the run with a last checkpoint named (exit $status):"
    cat "$work/killed.txt" "$work/killed.err"
    exit 1
fi
grep '^stopped:' "$work/killed.err"
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
timeout "$deadline" "${mpirun[@]}" -np 3 "$solve_mpi" connect4 12355 --quiet --table-mib 16 \
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

# Waits up to 60 s for the shell condition $1.
wait_for() {
    for _ in $(seq 600); do
        if eval "$1" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "waited 60 s for: $1"
    exit 1
}
# The one line after "resume with:" in file $1: the command that resumes.
resume_line() { grep -A1 'resume with:$' "$1" | tail -n 1 | sed 's/^  //'; }
# Runs a printed resume command, as root with what mpirun needs as root (the guide says so).
run_printed() { timeout "$deadline" bash -c "$1"; }

echo "+ the guide's commands: a checkpoint and a stop on trigger files, Ctrl-C at mpirun, resumes"
guide=$work/guide
mkdir "$guide"
ln -s "$target" "$guide/target"
as_root=()
if [ "$(id -u)" = 0 ]; then as_root=(--allow-run-as-root); fi
# As written in the guide (only --allow-run-as-root added as root, as the guide says).
start=(mpirun --oversubscribe "${as_root[@]}" -np 3 target/release/solve_mpi connect4 1235
    --checkpoint c4.ck --checkpoint-trigger c4.ck.now --stop-trigger c4.ck.stop)
(cd "$guide" && timeout "$deadline" "${start[@]}") >"$work/guide1.txt" 2>"$work/guide1.err" &
run=$!
# The block's last line, whole (a line can be seen half written): all of it is there.
wait_for "grep -q '^  Ctrl-C at mpirun: .* for more)\$' '$work/guide1.err'"
pid=$(sed -n 's/^solve_mpi: rank 0 is pid \([0-9]*\) on .*/\1/p' "$work/guide1.err")
if ! grep -q "^  checkpoint now: kill -USR1 $pid   or: touch $guide/c4.ck.now\$" "$work/guide1.err" ||
    ! grep -q "^  stop with a checkpoint: kill -INT $pid   or: touch $guide/c4.ck.stop\$" \
        "$work/guide1.err" ||
    ! grep -q "^  Ctrl-C at mpirun: a last checkpoint if it can be written in the 1 s" \
        "$work/guide1.err" ||
    [ "$(tr '\0' '\n' <"/proc/$pid/environ" | grep OMPI_COMM_WORLD_RANK=)" != OMPI_COMM_WORLD_RANK=0 ]
then
    echo "rank 0 should say its pid and the commands that drive it:"
    cat "$work/guide1.err"
    exit 1
fi
touch "$guide/c4.ck.now"
# Rank 0 removes the trigger once the checkpoint is written.
wait_for "[ ! -e '$guide/c4.ck.now' ]"
test -s "$guide/c4.ck"
grep -q '^checkpoint: c4.ck ' "$work/guide1.err"
touch "$guide/c4.ck.stop"
status=0
wait "$run" || status=$?
resume=$(resume_line "$work/guide1.err")
if [ "$status" != 1 ] || ! grep -q '^value: unknown (stopped' "$work/guide1.txt" ||
    [ -e "$guide/c4.ck.stop" ] ||
    ! grep -q '^stopped (SIGINT or the stop trigger); the checkpoint is c4.ck; resume with:$' "$work/guide1.err" ||
    [ "$resume" != "(cd $guide && ${start[*]} --resume)" ]; then
    echo "the stop trigger should stop the run (exit 1) and print the command that resumes" \
        "(exit $status):"
    cat "$work/guide1.txt" "$work/guide1.err"
    exit 1
fi
echo "trigger files: a checkpoint, then a stop (exit 1) that printed: $resume"
# The printed command, interrupted as by Ctrl-C at mpirun (the terminal's SIGINT goes to
# mpirun alone; the ranks have process groups of their own), after its first checkpoint.
run_printed "$resume" >"$work/guide2.txt" 2>"$work/guide2.err" &
run=$!
# The block's last line, whole (a line can be seen half written): all of it is there.
wait_for "grep -q '^  Ctrl-C at mpirun: .* for more)\$' '$work/guide2.err'"
pid=$(sed -n 's/^solve_mpi: rank 0 is pid \([0-9]*\) on .*/\1/p' "$work/guide2.err")
mpirun_pid=$(ps -o ppid= -p "$pid" | tr -d ' ')
touch "$guide/c4.ck.now"
wait_for "[ ! -e '$guide/c4.ck.now' ]"
kill -INT "$mpirun_pid"
status=0
wait "$run" || status=$?
resume=$(resume_line "$work/guide2.err")
# Open MPI's mpirun exits with 1 when interrupted, whatever the ranks' codes.
if [ "$status" != 1 ] ||
    ! grep -q '^stopped: the run was ended from outside (SIGTERM.*); the last checkpoint is c4.ck (written just now); resume with:$' \
        "$work/guide2.err" ||
    [ "$resume" != "(cd $guide && ${start[*]} --resume)" ]; then
    echo "Ctrl-C at mpirun should end the run with a last checkpoint and the command that" \
        "resumes (exit $status):"
    cat "$work/guide2.txt" "$work/guide2.err"
    exit 1
fi
echo "Ctrl-C at mpirun: a last checkpoint, and the same command to resume"
# As the guide writes the resume (the checkpoint trigger left out), to the known value.
(cd "$guide" && timeout "$deadline" mpirun --oversubscribe "${as_root[@]}" -np 3 \
    target/release/solve_mpi connect4 1235 --checkpoint c4.ck --resume) >"$work/guide3.txt"
if [ "$(value "$work/guide3.txt")" != "value: Loss for the side to move (win for Second)" ] ||
    ! grep -q '^  (this run; the runs it resumed made [0-9,]* MID calls before)' "$work/guide3.txt"
then
    echo "resumed twice:"
    cat "$work/guide3.txt"
    exit 1
fi
echo "resumed twice: $(value "$work/guide3.txt")"

# The example of the old name is the same program.
"${mpirun[@]}" -np 1 "$bin/solve_mpi" --help >"$work/example-help.txt"
"${mpirun[@]}" -np 1 "$solve_mpi" --help | cmp - "$work/example-help.txt"
echo "the example solve_mpi: the same program"
echo "distributed checks: $SECONDS s"

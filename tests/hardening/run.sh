#!/bin/sh
# run.sh - `make check-hardening`: reliability figures in one table.
# Parts, each with a time budget (seconds; the sum stays within 20 minutes on
# 2 cores): crash consistency under kill -9, fuzzing (+ line coverage), two
# processes on one database, hostile text, faults. HARDEN_QUICK=1 is the short
# version `make check` runs (seconds). Exit status 1 when a goal is missed.
# Environment (set by the Makefile): AMC, TOOLS, SRC, and for fuzzing CLANG,
# FUZZ_CPPFLAGS, FUZZ_LIBS, FUZZ_SRCS, FUZZ_TARGETS, LLVM_PROFDATA, LLVM_COV.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${AMC:?}" "${TOOLS:?}" "${SRC:?}"
export AMC TOOLS SRC
quick=${HARDEN_QUICK:-0}
if [ "$quick" = 1 ]; then
	KILLS=${KILLS:-4}; FUZZ_SECONDS=0; TWOPROC_SECONDS=${TWOPROC_SECONDS:-3}; FAULT_RUNS=${FAULT_RUNS:-1}
	PARTS=${PARTS:-"crash twoproc hostile faults"}
	HOSTILE_ONLY=${HOSTILE_ONLY:-"csi c1csi bidi overlong wide"}; FAULTS_QUICK=1
	export HOSTILE_ONLY FAULTS_QUICK
else
	KILLS=${KILLS:-100}; FUZZ_SECONDS=${FUZZ_SECONDS:-30}; TWOPROC_SECONDS=${TWOPROC_SECONDS:-60}; FAULT_RUNS=${FAULT_RUNS:-2}
	PARTS=${PARTS:-"crash fuzz twoproc hostile faults"}
fi
SEED=${SEED:-16}
export KILLS FUZZ_SECONDS TWOPROC_SECONDS FAULT_RUNS SEED
ntargets=$(echo ${FUZZ_TARGETS:-} | wc -w)
# Budgets (s): a part that runs past its budget is stopped and reported.
# Defaults (17 fuzz targets, two at a time): 240 + 528 + 90 + 100 + 180 =
# 1138 s, under 20 minutes.
b_crash=$((KILLS * 2 + 40))
b_fuzz=$(((ntargets + 1) / 2 * (FUZZ_SECONDS + 12) + 150))
b_twoproc=$((TWOPROC_SECONDS + 30))
b_hostile=100
b_faults=$((FAULT_RUNS * 60 + 60))
# The quick hostile part takes 25-45 s on 2 busy cores (make check -j2 runs
# the agent CLIs and the fleet beside it): its budget is a hang guard, not
# a target, so it keeps the full run's.
[ "$quick" = 1 ] && { b_crash=60; b_hostile=100; b_faults=60; }
# ASan and UBSan (./configure --enable-sanitizers) make amc several times
# slower: the budgets stretch with it, the goals stay the same.
if [ -n "${AMC_TEST_SANITIZED:-}" ]; then
	b_crash=$((b_crash * 4)); b_fuzz=$((b_fuzz * 4)); b_twoproc=$((b_twoproc * 4))
	b_hostile=$((b_hostile * 4)); b_faults=$((b_faults * 4))
fi
top=$(mktemp -d "${TMPDIR:-/tmp}/amc-harden-XXXXXX")
RESULTS="$top/results"; : > "$RESULTS"; export RESULTS
trap '[ -n "${AMC_TEST_KEEP:-}" ] || rm -rf "$top"' EXIT
over=""
for p in $PARTS; do
	eval "b=\$b_$p"
	WORK="$top/$p"; mkdir -p "$WORK"; export WORK
	echo "hardening: $p (budget $b s)" >&2
	t0=$(date +%s)
	timeout -k 5 "$b" sh "$here/$p.sh"; rc=$?
	t=$(( $(date +%s) - t0 ))
	echo "${p}_seconds=$t" >> "$RESULTS"
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then over="$over $p"; echo "${p}_over_budget=1" >> "$RESULTS"; fi
done
v() { sed -n "s/^$1=//p" "$RESULTS" | tail -n 1; }
row() { printf '%-24s %-12s %s\n' "$1" "$2" "$3"; }
echo
echo "amc check-hardening (seed $SEED$( [ "$quick" = 1 ] && echo ', quick'))"
row PART BUDGET/USED FIGURES
total=0; for p in $PARTS; do eval "total=\$((total + b_$p))"; done
for p in $PARTS; do
	bu="$(eval echo \$b_$p)/$(v ${p}_seconds)s"
	case $p in
	crash) row "crash (kill -9)" "$bu" "kills $(v crash_kills) (finished first $(v crash_finished_before_kill)), corrupt databases $(v crash_corrupt), not interrupted $(v crash_not_interrupted), lost finished steps $(v crash_lost_steps), dangling paths $(v crash_dangling), temp files left $(v crash_temp_files), next task not started $(v crash_next_not_started)" ;;
	fuzz)
		row "fuzz (${FUZZ_SECONDS} s/target)" "$bu" "executions $(v fuzz_exec), crashes $(v fuzz_crashes) (-rss_limit_mb=256 -malloc_limit_mb=128 -timeout=2)"
		for t in ${FUZZ_TARGETS:-}; do
			row "  $t" "" "exec $(v fuzz_${t}_exec), crashes $(v fuzz_${t}_crashes), parser coverage $(v fuzz_${t}_lines)"
		done ;;
	twoproc) row "two processes, one db" "$bu" "commits $(v twoproc_commits), 'database is locked' $(v twoproc_locked), other errors $(v twoproc_errors), longest lock wait $(v twoproc_wait_ms) ms, tasks $(v twoproc_tasks) (incomplete $(v twoproc_incomplete)), reader polls $(v twoproc_polls), events lost on the TUI's screen $(v twoproc_lost_on_screen)" ;;
	hostile) row "hostile text" "$bu" "inputs x surfaces $(v hostile_tried), control bytes reaching output $(v hostile_leaks), cells misaligned $(v hostile_misaligned)" ;;
	faults) row "faults" "$bu" "tasks $(v faults_tasks): $(v faults_states); hangs $(v faults_hangs), without a reason $(v faults_noreason), database not ok $(v faults_corrupt), device vanished $(v faults_vanished) times (next task failed $(v faults_not_back))" ;;
	esac
done
echo "budgets: $total s in all$( [ "$(echo $PARTS | wc -w)" -gt 1 ] && echo " ($(echo $PARTS | tr ' ' '+'))")"
[ -z "$over" ] || echo "over budget:$over"
bad=0
for k in crash_corrupt crash_not_interrupted crash_lost_steps crash_dangling crash_temp_files crash_next_not_started \
	fuzz_crashes twoproc_locked twoproc_errors twoproc_incomplete twoproc_lost_on_screen hostile_leaks hostile_misaligned faults_hangs faults_noreason faults_corrupt faults_not_back; do
	val=$(v $k)
	[ -z "$val" ] || [ "$val" = 0 ] || { echo "goal missed: $k = $val"; bad=1; }
done
[ -z "$over" ] || bad=1
exit $bad

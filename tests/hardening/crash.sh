#!/bin/sh
# crash.sh - crash consistency under kill -9. KILLS runs (flows on the sim, and
# every third one a scripted agentic run against the mock model) are killed with
# SIGKILL after a delay drawn from SEED; after each: PRAGMA integrity_check, the
# killed task reads `interrupted` at the next start, every finished step has
# complete artifacts (PNGs decode), no row names a missing file, no temp file
# outlives the next start, and the next task on that device starts.
PART=crash
. "$(dirname "$0")/lib.sh"
KILLS=${KILLS:-100}
SEED=${SEED:-16}
export AMC_HOME="$WORK/home"
flow="$SRC/data/flows/add-contact.yaml"
agent="launch com.android.contacts
tap Add contact
tap Name
type Ada Lovelace
tap Phone
type 555-0100
tap Save
finish true Added Ada Lovelace"
report() {
	result crash_seed "$SEED"
	result crash_kills "$kills"
	result crash_finished_before_kill "$finished_before"
	result crash_corrupt "$corrupt"
	result crash_not_interrupted "$not_interrupted"
	result crash_lost_steps "$lost"
	result crash_dangling "$dangling"
	result crash_temp_files "$temps"
	result crash_next_not_started "$no_start"
}
rnd_list "$SEED" "$KILLS" 30 1500 > "$WORK/delays"
: > "$WORK/tmps_seen"
kills=0 corrupt=0 lost=0 dangling=0 not_interrupted=0 no_start=0 temps=0 finished_before=0
start_ms=1000; [ -n "${AMC_TEST_SANITIZED:-}" ] && start_ms=4000
i=0
while read -r delay; do
	i=$((i + 1))
	before=$(db "SELECT count(*) FROM tasks" 2>/dev/null || echo 0)
	"$AMC" sim reset >/dev/null 2>&1
	if [ $((i % 3)) -eq 0 ]; then
		start_mock "$WORK/mock" "$agent" || log "mock did not start"
		AMC_SIM_FAULTS=latency:20 "$AMC" run "Add a contact for Ada" </dev/null >/dev/null 2>&1 &
	else
		AMC_SIM_FAULTS=latency:30 "$AMC" run --flow "$flow" </dev/null >/dev/null 2>&1 &
	fi
	pid=$!
	sleep "$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 1000 }')"
	kill -9 $pid 2>/dev/null && kills=$((kills + 1))
	wait $pid 2>/dev/null
	stop_mock
	# The next start: any amc command recovers the dead owner's task.
	"$AMC" tasks >/dev/null 2>&1
	id=$(db "SELECT id FROM tasks ORDER BY created_ms DESC, rowid DESC LIMIT 1" 2>/dev/null)
	after=$(db "SELECT count(*) FROM tasks" 2>/dev/null || echo 0)
	# A kill in the first second may land before the task row exists (amc's
	# start-up, the sim's first capture; longer on a loaded machine or under
	# ASan): then there is no task to judge. Later, a missing task is a fault.
	started=1
	if [ "$after" -le "$before" ]; then
		started=0
		if [ "$delay" -ge "$start_ms" ]; then
			no_start=$((no_start + 1)); log "kill $i: no task started on sim:0 within $delay ms"
		fi
	fi
	# The device is free again: not busy with the killed task.
	if "$AMC" devices 2>/dev/null | grep -q '^sim:0 .*busy'; then
		no_start=$((no_start + 1)); log "kill $i: sim:0 still busy after the next start"
	fi
	st=$(db "SELECT status FROM tasks WHERE id = '$id'" 2>/dev/null)
	[ $started = 1 ] || st=never-started
	case $st in
	never-started) ;;
	interrupted) ;;
	succeeded|failed) finished_before=$((finished_before + 1)) ;;
	*) not_interrupted=$((not_interrupted + 1)); log "kill $i (seed $SEED, ${delay} ms): task $id is '$st'" ;;
	esac
	# Temp files that outlived the next start, each counted once.
	find "$AMC_HOME" -name '*.tmp.*' > "$WORK/tmps"
	n=$(sort -u "$WORK/tmps" "$WORK/tmps_seen" 2>/dev/null | wc -l)
	m=$(sort -u "$WORK/tmps_seen" 2>/dev/null | wc -l)
	[ "$n" -eq "$m" ] || { log "kill $i: $((n - m)) temp files left after the next start"; }
	sort -u "$WORK/tmps" "$WORK/tmps_seen" -o "$WORK/tmps_seen" 2>/dev/null
	temps=$(wc -l < "$WORK/tmps_seen")
	check_home "$id"
	corrupt=$((corrupt + CORRUPT)); lost=$((lost + LOST)); dangling=$((dangling + DANGLING))
	[ $CORRUPT -eq 0 ] || { log "kill $i: database corrupt, starting a new one"; rm -rf "$AMC_HOME"; }
	# Figures so far (run.sh reads the last of each): a part stopped at its
	# budget still reports the kills it made.
	report
done < "$WORK/delays"
check_home
corrupt=$((corrupt + CORRUPT)); lost=$((lost + LOST)); dangling=$((dangling + DANGLING))
# The last check: a whole task runs on the device after all those kills.
"$AMC" sim reset >/dev/null 2>&1
"$AMC" run --flow "$flow" </dev/null >/dev/null 2>&1; last=$?
[ $last -eq 0 ] || { no_start=$((no_start + 1)); log "the final flow after the kills failed ($last)"; }
report

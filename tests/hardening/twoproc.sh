#!/bin/sh
# twoproc.sh - two processes, one database: for TWOPROC_SECONDS, two `amc run`
# loops write on sim:0 and sim:1, `amc retention` runs every second and a
# reader polls `amc tasks` and `amc show` of the newest task, while a niced CPU
# burner adds load. Counted: commits (step and task records written), "database
# is locked" errors, other errors, the longest lock wait (AMC_STORE_STATS), and
# tasks that did not end `succeeded`. The TUI reads along (script mode, its
# script fed through a FIFO: a reload check every second, as its loop does on
# an inotify wake); once the writers are done its final Tasks screen must show
# every task the database holds, each with the database's status: events lost
# on screen are the rows that differ.
PART=twoproc
. "$(dirname "$0")/lib.sh"
export AMC_HOME="$WORK/home"
export AMC_STORE_STATS=1
secs=${TWOPROC_SECONDS:-60}
end=$(( $(date +%s) + secs ))
"$AMC" tasks >/dev/null 2>&1   # create the database before the race
writer() { # writer N FLOW
	while [ "$(date +%s)" -lt "$end" ]; do
		"$AMC" sim --device "sim:$1" reset >/dev/null 2>>"$WORK/err$1"
		"$AMC" run --flow "$SRC/data/flows/$2.yaml" --device "sim:$1" --json </dev/null \
			>"$WORK/out$1" 2>>"$WORK/err$1"
		echo "rc=$? $(tr -d '\n\t ' < "$WORK/out$1" | sed -n 's/.*"status":"\([a-z_]*\)".*"steps":\([0-9]*\),.*/\1 \2/p')" >> "$WORK/runs$1"
	done
}
keeper() {
	while [ "$(date +%s)" -lt "$end" ]; do
		"$AMC" retention --keep 6 >/dev/null 2>>"$WORK/err_ret" || echo fail >> "$WORK/ret_fail"
		sleep 1
	done
}
reader() {
	while [ "$(date +%s)" -lt "$end" ]; do
		id=$("$AMC" tasks --json 2>>"$WORK/err_read" | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1)
		[ -z "$id" ] || "$AMC" show "$id" >/dev/null 2>>"$WORK/err_read" || echo "show $id" >> "$WORK/read_fail"
		echo poll >> "$WORK/polls"
	done
}
fifo="$WORK/tui.keys"; mkfifo "$fifo"
"$AMC" tui --script "$fifo" --dump-dir "$WORK" --size 120x40 </dev/null >/dev/null 2>"$WORK/tui_err" & tui=$!
exec 7>"$fifo"
tui_feed() { while [ "$(date +%s)" -lt "$end" ]; do echo ":changes" >&7; sleep 1; done; }
( while [ "$(date +%s)" -lt "$end" ]; do :; done ) & burner=$!
renice -n 19 -p $burner >/dev/null 2>&1
writer 0 add-contact & w0=$!
writer 1 create-note & w1=$!
keeper & k=$!
reader & r=$!
tui_feed & f=$!
wait $w0 $w1 $k $r $f
kill $burner 2>/dev/null; wait $burner 2>/dev/null
printf ':changes\n:dump final\nq\n' >&7; exec 7>&-
wait $tui; tui_rc=$?
# the screen against the database: id and status of every row. The TUI shows
# ids as git abbreviates them (as long as this database needs: tasks started
# in the same second share 8 characters), so a screen id is a prefix.
db "SELECT id || ' ' || status FROM tasks ORDER BY created_ms DESC LIMIT 30" | sort > "$WORK/db_rows"
sed -n 's/^[> ] *[^ ]* \([a-z_]*\) *\([0-9a-z]\{4,16\}\) .*/\2 \1/p' "$WORK/final.txt" 2>/dev/null | sort > "$WORK/screen_rows"
awk 'NR == FNR { sid[NR] = $1; sst[NR] = $2; n = NR; next }
	{ hit = 0; for (i = 1; i <= n; i++) if (!used[i] && sst[i] == $2 && index($1, sid[i]) == 1) { used[i] = 1; hit = 1; break }
	  if (!hit) print "db only: " $0 }
	END { for (i = 1; i <= n; i++) if (!used[i]) print "screen only: " sid[i] " " sst[i] }' \
	"$WORK/screen_rows" "$WORK/db_rows" > "$WORK/screen_vs_db"
lost=$(wc -l < "$WORK/screen_vs_db")
[ -s "$WORK/screen_rows" ] || { lost=$((lost + 1)); log "the TUI showed no task (rc $tui_rc): $(head -c 300 "$WORK/tui_err")"; }
[ "$lost" -eq 0 ] || { log "screen vs database:"; head -n 5 "$WORK/screen_vs_db" >&2; }
cat "$WORK"/err* > "$WORK/allerr" 2>/dev/null
locked=$(grep -ci 'database is locked\|busy for over' "$WORK/allerr")
other=$(grep -v '^amc-store-stats:' "$WORK/allerr" | grep -vci 'database is locked\|busy for over')
other=$((other + $(cat "$WORK/ret_fail" "$WORK/read_fail" 2>/dev/null | wc -l)))
wait_ms=$(sed -n 's/^amc-store-stats: .*longest \([0-9]*\) ms/\1/p' "$WORK/allerr" | sort -n | tail -n 1)
tasks=$(cat "$WORK"/runs* | wc -l)
incomplete=$(cat "$WORK"/runs* | grep -vc '^rc=0 succeeded')
steps=$(cat "$WORK"/runs* | awk '{ s += $3 } END { print s + 0 }')
[ "$incomplete" -eq 0 ] || { log "runs not succeeded:"; grep -v '^rc=0 succeeded' "$WORK"/runs* >&2; }
[ "$other" -eq 0 ] || { log "errors:"; grep -v '^amc-store-stats:' "$WORK/allerr" | head -n 5 >&2; }
check_home
result twoproc_commits $((steps + 2 * tasks))
result twoproc_locked "$locked"
result twoproc_errors $((other + CORRUPT))
result twoproc_wait_ms "${wait_ms:-0}"
result twoproc_tasks "$tasks"
result twoproc_incomplete "$incomplete"
result twoproc_polls "$(cat "$WORK/polls" 2>/dev/null | wc -l)"
result twoproc_lost_on_screen "$lost"

#!/bin/sh
# faults.sh - faults everywhere: sim screenshot/tree failures at rates with
# latency, the device vanishing and coming back (sim.faults vanish: briefly,
# inside the capture retries, and for longer than a task can wait; the next
# task on it must start and succeed), model faults from the mock (a timeout, 429/529 storms, malformed
# JSON, a refusal, a connection cut mid-body or dropped), the disk full (a small
# tmpfs when this user can mount one, else RLIMIT_FSIZE with SIGXFSZ ignored,
# so writes fail with EFBIG), and a read-only AMC_HOME (as an unprivileged user
# when run as root). Each case runs FAULT_RUNS times under a time bound: a task
# must end in a terminal state with a reason, a refusal to start must say why,
# nothing may hang, and the database must stay consistent.
PART=faults
. "$(dirname "$0")/lib.sh"
runs=${FAULT_RUNS:-3}
bound=60                        # seconds a faulted task may take
export AMC_HOME="$WORK/home"
export AMC_PLANNER_STEP_TIMEOUT_MS=4000
flow="$SRC/data/flows/add-contact.yaml"
tasks=0 hangs=0 noreason=0 corrupt=0 vanished=0 notback=0
: > "$WORK/states"
# reason TEXT: a short name for an error text, for the table.
reason() {
	case $1 in
	'') echo "" ;;
	*"time budget"*|*imeout*) echo "(timeout)" ;;
	*"HTTP 429"*) echo "(429)" ;;
	*"HTTP 529"*) echo "(529)" ;;
	*malformed*) echo "(malformed)" ;;
	*refused*) echo "(refusal)" ;;
	*partial*|*"returned nothing"*) echo "(connection cut)" ;;
	*"No space"*|*"too large"*|*"disk"*|*"Read-only file system"*) echo "(disk full)" ;;
	*readonly*|*writable*|*"ermission"*) echo "(read-only home)" ;;
	*injected*) echo "(sim fault)" ;;
	*"device is gone"*) echo "(device gone)" ;;
	*) echo "(other)" ;;
	esac
}
# outcome CASE RC: classify the newest task (or the refusal to start).
outcome() {
	tasks=$((tasks + 1)); st=none why=
	if [ "$2" -eq 124 ] || [ "$2" -eq 137 ]; then
		hangs=$((hangs + 1)); st=hang; log "$1: no end within $bound s"; echo hang >> "$WORK/states"; return
	fi
	row=$(db "SELECT id, status, coalesce(error, '') FROM tasks WHERE created_ms >= $t0 ORDER BY created_ms DESC LIMIT 1" 2>/dev/null)
	if [ -z "$row" ]; then
		# No task: amc refused to start; it must have said why.
		echo "$1: refused (rc $2): $(head -c 200 "$WORK/err")" >> "$WORK/detail"
		if [ "$2" -ne 0 ] && [ -s "$WORK/err" ]; then echo "refused$(reason "$(cat "$WORK/err")")" >> "$WORK/states"
		else noreason=$((noreason + 1)); echo "refused-silently" >> "$WORK/states"; log "$1: no task and no message (rc $2)"; fi
		return
	fi
	st=$(echo "$row" | cut -d'|' -f2); why=$(echo "$row" | cut -d'|' -f3-)
	echo "$st$(reason "$why")" >> "$WORK/states"
	echo "$1: $st: $why" >> "$WORK/detail"
	case $st in
	succeeded) ;;
	failed|interrupted|cancelled)
		[ -n "$why" ] || { noreason=$((noreason + 1)); log "$1: $st without a reason"; } ;;
	*) noreason=$((noreason + 1)); log "$1: task left '$st'" ;;
	esac
}
go() { # go CASE CMD...: run with the time bound
	_c=$1; shift
	t0=$(now_ms)
	timeout -k 3 "$bound" "$@" </dev/null >"$WORK/out" 2>"$WORK/err"
	outcome "$_c" $?
}
"$AMC" tasks >/dev/null 2>&1
r=0
while [ $r -lt "$runs" ]; do
	r=$((r + 1))
	# Sim faults: screenshots and UI dumps fail at rates, with latency.
	specs="screenshot:0.3,latency:20 ui_tree:0.3 screenshot:0.1,ui_tree:0.1,latency:80"
	[ -z "${FAULTS_QUICK:-}" ] || specs=screenshot:0.2,ui_tree:0.2
	for spec in $specs; do
		"$AMC" sim reset >/dev/null 2>&1
		AMC_SIM_FAULTS="$spec" go "sim $spec" "$AMC" run --flow "$flow"
	done
	# The device vanishes and comes back: within the capture retries, and for
	# longer than a task waits. Then the next task on it must succeed.
	for spec in vanish:4,vanish_ms:250 vanish:8,vanish_ms:5000; do
		"$AMC" sim reset >/dev/null 2>&1
		AMC_SIM_FAULTS="$spec" go "sim $spec" "$AMC" run --flow "$flow"
		go "after sim $spec" "$AMC" run --flow "$flow"
		vanished=$((vanished + 1))
		[ "$st" = succeeded ] || { notback=$((notback + 1)); log "after $spec: the next task $st: $why"; }
	done
	# Model faults from the mock.
	rep() { _i=0; while [ $_i -lt "$1" ]; do printf '%s\n' "$2"; _i=$((_i + 1)); done; }
	for script in "$(rep 4 'slow 30000
launch com.android.contacts')" "$(rep 8 'http 429 0')" "$(rep 6 'http 529 0')" \
		"$(rep 4 malformed)" "stop refusal" "$(rep 4 cut)" "$(rep 4 drop)" "launch com.android.contacts
$(rep 4 cut)"; do
		# The short version: the timeout, a cut and a refusal only (no backoff waits).
		case "${FAULTS_QUICK:-}:$script" in :*|*:slow*|*:stop*|*:launch*) ;; *) continue ;; esac
		start_mock "$WORK/mock" "$script" || log "mock did not start"
		"$AMC" sim reset >/dev/null 2>&1
		go "model $(echo "$script" | head -n 1)" "$AMC" run "Add a contact"
		stop_mock
	done
done
# The disk full.
full="$WORK/full"; mkdir -p "$full"
how=rlimit
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=3m amc-hardening "$full" 2>/dev/null; then how=tmpfs; fi
if [ $how = tmpfs ]; then
	AMC_HOME="$full/home" "$AMC" tasks >/dev/null 2>&1
	head -c 2500000 /dev/zero > "$full/filler" 2>/dev/null
	AMC_HOME="$full/home" go "disk full (tmpfs)" "$AMC" run --flow "$flow"
	AMC_HOME="$full/home" go "disk full (tmpfs) 2" "$AMC" run --flow "$flow"
	AMC_HOME="$full/home" db "PRAGMA integrity_check" 2>&1 | grep -qx ok || { corrupt=$((corrupt + 1)); log "disk full: integrity_check failed"; }
	umount "$full"
else
	size=$(( $(stat -c %s "$AMC_HOME/amc.db") / 1024 + 64 ))   # KB: a little above the database
	for i in 1 2; do
		"$AMC" sim reset >/dev/null 2>&1
		go "disk full (RLIMIT_FSIZE $size KB)" sh -c "trap '' XFSZ; ulimit -f $((size * 2)); exec \"\$0\" run --flow \"\$1\"" "$AMC" "$flow"
	done
fi
log "disk full via $how"
# A read-only AMC_HOME, as an unprivileged user when we are root.
ro="$WORK/ro"; mkdir -p "$ro"
as=""
if [ "$(id -u)" = 0 ]; then
	for u in nobody daemon; do id "$u" >/dev/null 2>&1 && { as="setpriv --reuid=$u --regid=$(id -g "$u") --clear-groups"; break; }; done
	chmod 755 "$(dirname "$WORK")" "$WORK"; chmod 777 "$ro"
fi
# shellcheck disable=SC2086
AMC_HOME="$ro/home" $as "$AMC" tasks >/dev/null 2>&1   # a database to start from, owned by that user
chmod 555 "$ro/home" 2>/dev/null; chmod 444 "$ro/home/amc.db" 2>/dev/null
for i in 1 2; do
	# shellcheck disable=SC2086
	AMC_HOME="$ro/home" go "read-only AMC_HOME" $as "$AMC" run --flow "$flow"
	[ $i = 1 ] && log "read-only: $(head -c 300 "$WORK/err")"
done
chmod -R u+w "$ro" 2>/dev/null
check_home
corrupt=$((corrupt + CORRUPT))
states=$(sort "$WORK/states" | uniq -c | awk '{ c = $1; $1 = ""; sub(/^ /, ""); printf "%s%s %s", (NR > 1 ? ", " : ""), $0, c }')
result faults_tasks "$tasks"
result faults_states "$states"
result faults_hangs "$hangs"
result faults_noreason "$noreason"
result faults_corrupt "$corrupt"
result faults_disk_full "$how"
result faults_vanished "$vanished"
result faults_not_back "$notback"

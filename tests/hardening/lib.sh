# lib.sh - shared helpers of the hardening parts (tests/hardening/*.sh).
# The caller sets: AMC (amc binary), TOOLS (build dir with tests/tools/*),
# SRC (source tree), WORK (a scratch folder of its own), RESULTS (a file the
# part appends `key=value` lines to; run.sh turns them into the table).
set -u
: "${AMC:?}" "${TOOLS:?}" "${SRC:?}" "${WORK:?}" "${RESULTS:?}"
PNGCHECK="$TOOLS/tests/tools/pngcheck"
MOCK="$TOOLS/tests/tools/mockllm"
unset AMC_SIM_FAULTS ANTHROPIC_BASE_URL AMC_PLANNER_MODEL
export XDG_CONFIG_HOME="$WORK/config"
mkdir -p "$XDG_CONFIG_HOME"

result() { echo "$1=$2" >> "$RESULTS"; }
log() { echo "  [$PART] $*" >&2; }
now_ms() { date +%s%3N; }
# Seeded pseudo-random numbers: rnd_list SEED COUNT LO HI prints COUNT integers.
rnd_list() { awk -v s="$1" -v n="$2" -v lo="$3" -v hi="$4" \
	'BEGIN { srand(s); for (i = 0; i < n; i++) print int(lo + rand() * (hi - lo + 1)) }'; }
# Wait until COMMAND succeeds, up to SECONDS.
wait_for() {
	_l=$(( $1 * 10 )); shift; _i=0
	while [ $_i -lt $_l ]; do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; _i=$((_i + 1)); done
	return 1
}
MPID=
start_mock() { # start_mock DIR SCRIPT_TEXT: the fake Anthropic API, sets ANTHROPIC_BASE_URL
	mkdir -p "$1"; printf '%s\n' "$2" > "$1/script"; rm -f "$1/port"
	"$MOCK" "$1/script" "$1/port" "$1" & MPID=$!
	wait_for 10 test -s "$1/port" || return 1
	export ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$1/port")" ANTHROPIC_API_KEY=sk-ant-hardening
}
stop_mock() { [ -n "$MPID" ] && kill "$MPID" 2>/dev/null && wait "$MPID" 2>/dev/null; MPID=; }
db() { sqlite3 -cmd ".timeout 10000" "$AMC_HOME/amc.db" "$@"; }

# Consistency of one AMC_HOME: sets CORRUPT (0/1), LOST (finished steps whose
# artifacts are missing or do not decode), DANGLING (paths in rows that name no
# complete file). With an argument, only that task's rows.
check_home() {
	_where=""; [ $# -gt 0 ] && _where="AND task_id = '$1'"
	CORRUPT=0; LOST=0; DANGLING=0
	ic=$(db "PRAGMA integrity_check" 2>&1)
	[ "$ic" = ok ] || { CORRUPT=1; log "integrity_check: $ic"; }
	# The search index agrees with the texts the records hold (schema 8:
	# FTS5 over the view search_doc): FTS5's own check, no document naming a
	# removed record, then every (token, document, offset) of the index
	# against an index built now from the view (FTS5's check alone misses a
	# document the index keeps after its record went); prints the sum.
	si=$(db "INSERT INTO search_fts (search_fts) VALUES ('integrity-check');
		SELECT count(*) FROM search_map m LEFT JOIN search_doc d ON d.id = m.id
		 WHERE d.body IS NULL OR d.body = '';" 2>&1)
	[ "$si" = 0 ] || { CORRUPT=1; log "search index: $si"; }
	si=$(db "CREATE VIRTUAL TABLE temp.r USING fts5(body, content = '', columnsize = 0,
		 tokenize = 'unicode61 remove_diacritics 2');
		INSERT INTO temp.r (rowid, body) SELECT id, body FROM search_doc;
		CREATE VIRTUAL TABLE temp.v1 USING fts5vocab(main, search_fts, instance);
		CREATE VIRTUAL TABLE temp.v2 USING fts5vocab(temp, r, instance);
		SELECT (SELECT count(*) FROM (SELECT term, doc, offset FROM temp.v1 EXCEPT SELECT term, doc, offset FROM temp.v2))
		 + (SELECT count(*) FROM (SELECT term, doc, offset FROM temp.v2 EXCEPT SELECT term, doc, offset FROM temp.v1));" 2>&1)
	[ "$si" = 0 ] || { CORRUPT=1; log "search index against the records: $si"; }
	db "SELECT task_id, step, coalesce(before_screenshot,''), coalesce(after_screenshot,''),
	    coalesce(ui_tree_path,''), coalesce(screenshot_path,'') FROM timeline WHERE status IS NOT NULL $_where" \
		-separator ' ' > "$WORK/rows" 2>/dev/null
	while read -r t s b a u p; do
		bad=0
		for f in $b $a $p; do
			case $f in /*) ;; *) f="$AMC_HOME/$f" ;; esac
			if [ ! -f "$f" ]; then DANGLING=$((DANGLING + 1)); bad=1; log "task $t step $s: missing $f"
			elif ! "$PNGCHECK" "$f" >/dev/null 2>&1; then DANGLING=$((DANGLING + 1)); bad=1; log "task $t step $s: $f does not decode"; fi
		done
		if [ -n "$u" ]; then
			case $u in /*) ;; *) u="$AMC_HOME/$u" ;; esac
			[ -s "$u" ] || { DANGLING=$((DANGLING + 1)); bad=1; log "task $t step $s: missing $u"; }
		fi
		[ $bad -eq 0 ] || LOST=$((LOST + 1))
	done < "$WORK/rows"
}

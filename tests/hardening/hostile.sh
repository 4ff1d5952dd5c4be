#!/bin/sh
# hostile.sh - hostile text through every surface that shows it: each corpus
# entry (hostile_corpus.sh) goes in as a flow's name and typed text, a flow
# file name, an LLM goal, typed text and summary from the mock model, an
# ask_user question, the model's reasoning, UI dump text for `amc scene`, and
# a config value. The
# text outputs of `amc run`, `amc tasks`, `amc show`, `amc show --step`, `amc
# search`, `amc scene`, `amc config`, `amc doctor` and `amc flow check` are
# searched for control bytes (C0 but tab and newline, DEL, C1, bidi controls,
# invalid UTF-8); the HTML report (`amc export --html`) for the same and for
# markup from the data; the bytes the TUI writes while every view and pane is
# shown (hostile_tui.keys, script mode) for what a terminal would obey (OSC,
# DCS, APC, PM, BEL, C1, bidi controls, CSI from the data, invalid UTF-8).
# Goal: 0 reach the output. The TUI's screen dumps are also checked for
# misaligned cells (tests/tools/cellcheck): wide, zero-width and combining text
# must keep every border in its column.
PART=hostile
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/hostile_corpus.sh"
export AMC_HOME="$WORK/home" TERM=xterm-256color
mkdir -p "$WORK/in"
tried=0 leaks=0 misaligned=0
CELLCHECK="$TOOLS/tests/tools/cellcheck"
KEYS="$(dirname "$0")/hostile_tui.keys"
# leaked FILE: 0 when the output holds no terminal control, else 1.
leaked() {
	LC_ALL=C grep -aqP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$1" && return 0
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || return 0
	return 1
}
surface() { # surface NAME INPUT CMD...: run CMD, check its stdout and stderr
	_s=$1 _n=$2; shift 2
	"$@" </dev/null >"$WORK/o" 2>&1
	tried=$((tried + 1))
	if leaked "$WORK/o"; then
		leaks=$((leaks + 1)); log "input $_n reached the output of $_s"
		cp "$WORK/o" "$WORK/leak-$_n-$(echo "$_s" | tr ' /' '__')"
	fi
}
# html_leaked FILE: control bytes, or markup the data carried (<script, a tag
# from the corpus' html entry), in an HTML page.
html_leaked() {
	leaked "$1" && return 0
	LC_ALL=C grep -aqiE '<script|<img src=x' "$1"
}
# tty_leaked FILE: terminal bytes a terminal would obey that ncurses never
# writes itself: OSC, DCS, APC, PM, BEL, C1, bidi controls, the corpus' CSI.
tty_leaked() {
	LC_ALL=C grep -aqP '\x1b[\]P_^]|\x07|\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\x1b\[31mRED|\x1b\[2Jx' "$1" && return 0
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || return 0
	return 1
}
tui_surface() { # tui_surface INPUT: every view and pane of the TUI, script mode
	_n=$1; _d="$WORK/tui-$_n"; rm -rf "$_d"; mkdir -p "$_d"
	"$AMC" tui --script "$KEYS" --dump-dir "$_d" --size 100x30 --tty-output "$_d/tty" </dev/null >/dev/null 2>&1 ||
		log "input $_n: amc tui exited with $?"
	tried=$((tried + $(grep -c '^:dump' "$KEYS")))
	if [ ! -s "$_d/tty" ] || tty_leaked "$_d/tty"; then
		leaks=$((leaks + 1)); log "input $_n reached the terminal through the TUI (or drew nothing)"
	fi
	_m=$("$CELLCHECK" 100 "$_d"/*.txt 2>&1 | tail -n 1)
	case $_m in ''|*[!0-9]*) log "input $_n: cellcheck: $_m"; _m=1 ;; esac
	[ "$_m" -eq 0 ] || { log "input $_n: $_m misaligned rows"; "$CELLCHECK" 100 "$_d"/*.txt | head -n 5 >&2; }
	misaligned=$((misaligned + _m))
}
newest() { "$AMC" tasks --json 2>/dev/null | sed -n 's/.*"id":[[:space:]]*"\([0-9a-z]*\)".*/\1/p' | head -n 1; }
mkdir -p "$XDG_CONFIG_HOME/amc"
big=$(head -c 1048576 /dev/zero | tr '\0' A)
# HOSTILE_ONLY: the entries to use (the short version in make check).
echo "$HOSTILE" | while IFS='|' read -r name raw yaml; do
	case " ${HOSTILE_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
	# shellcheck disable=SC2059
	text=$(printf "$raw")
	# 1. a flow named with the text, typing it; its file name carries it too
	if [ "$yaml" != - ]; then
		f="$WORK/in/flow-$(printf "$raw" | tr -d '/\000').yaml"
		printf 'appId: com.amc.notes\nname: "%s"\n---\n- launchApp\n- tapOn: "New note"\n- tapOn:\n    id: "title"\n- inputText: "%s"\n- assertVisible: "%s"\n' \
			"$yaml" "$yaml" "$yaml" > "$f"
		"$AMC" sim reset >/dev/null 2>&1
		surface "run --flow" "$name" "$AMC" run --flow "$f"
		surface "flow check" "$name" "$AMC" flow check "$f"
		id=$(newest)
		surface "tasks" "$name" "$AMC" tasks
		surface "show" "$name" "$AMC" show "$id"
		surface "show --step" "$name" "$AMC" show "$id" --step 4
	fi
	# 2. an LLM goal, typed text, ask_user question and summary from the model
	start_mock "$WORK/mock" "launch com.amc.notes
reason $text
tap New note
type $text
finish false $text" || log "mock did not start"
	"$AMC" sim reset >/dev/null 2>&1
	surface "run GOAL" "$name" "$AMC" run "goal $text"
	stop_mock
	id=$(newest)
	surface "tasks (goal)" "$name" "$AMC" tasks
	surface "show (goal)" "$name" "$AMC" show "$id"
	surface "show --step (goal)" "$name" "$AMC" show "$id" --step 3
	start_mock "$WORK/mock" "ask $text" || log "mock did not start"
	surface "run ask_user" "$name" "$AMC" run "ask"
	stop_mock
	surface "show (ask_user)" "$name" "$AMC" show "$(newest)"
	surface "search" "$name" "$AMC" search x
	"$AMC" export "$id" --html "$WORK/report.html" >/dev/null 2>&1
	tried=$((tried + 1))
	if [ ! -s "$WORK/report.html" ] || html_leaked "$WORK/report.html"; then
		leaks=$((leaks + 1)); log "input $name reached the HTML report (or it was not written)"
		cp "$WORK/report.html" "$WORK/leak-$name-report.html" 2>/dev/null
	fi
	rm -f "$WORK/report.html"
	tui_surface "$name"
	# 3. UI dump text and descriptions through amc scene
	d="$WORK/in/dump.xml"
	printf '<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><node index="0" text="%s" resource-id="a:id/t" class="android.widget.TextView" package="a" content-desc="%s" clickable="true" enabled="true" bounds="[0,0][1080,200]"/></hierarchy>\n' \
		"$text" "$text" > "$d"
	surface "scene" "$name" "$AMC" scene --ui "$d" --ocr off
	# 4. a config value
	printf '[device]\ndefault = %s\n[core]\nlog_level = %s\n' "$text" "$text" > "$XDG_CONFIG_HOME/amc/config" 2>/dev/null ||
		{ mkdir -p "$XDG_CONFIG_HOME/amc"; printf '[device]\ndefault = %s\n' "$text" > "$XDG_CONFIG_HOME/amc/config"; }
	surface "config" "$name" "$AMC" config
	[ -n "${HOSTILE_ONLY:-}" ] || surface "doctor" "$name" "$AMC" doctor
	rm -f "$XDG_CONFIG_HOME/amc/config"
	echo "$tried $leaks $misaligned" > "$WORK/count"
done
read -r tried leaks misaligned < "$WORK/count"
# NUL bytes and a 1 MB line, where files carry them: a UI dump, a flow, a config.
for kind in nul big; do
	if [ $kind = nul ]; then printf 'a\000b\033[31m' > "$WORK/t"; else printf '%s\033]52;c;eA==\007' "$big" > "$WORK/t"; fi
	{ printf '<?xml version="1.0"?><hierarchy><node text="'; cat "$WORK/t"; printf '" bounds="[0,0][10,10]"/></hierarchy>\n'; } > "$WORK/in/d.xml"
	{ printf 'appId: a\nname: "'; cat "$WORK/t"; printf '"\n---\n- launchApp\n'; } > "$WORK/in/f.yaml"
	{ printf '[device]\ndefault = '; cat "$WORK/t"; printf '\n'; } > "$XDG_CONFIG_HOME/amc/config"
	for s in "scene --ui $WORK/in/d.xml --ocr off" "flow check $WORK/in/f.yaml" "run --flow $WORK/in/f.yaml" config; do
		# shellcheck disable=SC2086
		surface "$s" "$kind" "$AMC" $s
	done
	rm -f "$XDG_CONFIG_HOME/amc/config"
done
result hostile_tried "$tried"
result hostile_leaks "$leaks"
result hostile_misaligned "$misaligned"

#!/bin/sh
# fuzz.sh - every libFuzzer target for FUZZ_SECONDS with the memory-bomb limits
# (-rss_limit_mb=256 -malloc_limit_mb=128 -timeout=2), two at a time, then line
# and branch coverage of each target's parser files with clang's source-based
# coverage over the corpus it ended with. Needs clang, libFuzzer (libclang-rt-14-dev) and llvm-14.
# The caller sets CLANG, FUZZ_CPPFLAGS, FUZZ_LIBS, FUZZ_SRCS (libamc's .c files),
# FUZZ_TARGETS, FUZZ_SECONDS, and LLVM_PROFDATA/LLVM_COV (may be empty).
PART=fuzz
. "$(dirname "$0")/lib.sh"
: "${CLANG:?make check-hardening needs clang}"
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
cc="$CLANG"; command -v ccache >/dev/null 2>&1 && cc="ccache $CLANG"
std="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE"
# Parser files whose line coverage the table shows, per target.
parsers() {
	case $1 in
	flow) echo src/flow/flow.c src/flow/flow_yaml.c src/flow/selector.c src/flow/flow_cmds.c src/flow/flow_cmds_sel.c src/flow/flow_cmds_ctl.c ;;
	config) echo src/util/config.c ;;
	png) echo src/image/png.c ;;
	uitree) echo src/perception/uitree.c src/perception/uitree_read.c src/perception/uitree_xml.c ;;
	model) echo src/llm/anthropic.c src/llm/openai.c src/planner/ai_judge.c src/semantic/enrich.c ;;
	state) echo src/device/sim/state.c src/device/sim/state_apps.c ;;
	rawframe) echo src/image/rawframe.c ;;
	treediff) echo src/perception/treediff.c ;;
	script) echo src/flow/script.c ;;
	mcp) echo src/mcp/jsonrpc.c ;;
	pending) echo src/runtime/pending.c ;;
	fleet) echo src/fleet/payload.c ;;
	tasktpl) echo src/suite/tasktpl.c ;;
	adb) echo src/device/adb_list.c ;;
	appium) echo src/device/appium.c ;;
	http) echo src/llm/http.c ;;
	theme) echo tui/theme.c ;;
	*) echo "" ;;
	esac
}
# Build libamc twice with clang: instrumented for libFuzzer + ASan/UBSan, and
# with coverage mapping. One archive each, objects built two at a time.
build_lib() { # build_lib DIR CFLAGS...
	d=$1; shift
	mkdir -p "$d"
	for s in $FUZZ_SRCS; do echo "$s"; done | xargs -P 2 -I{} sh -c \
		'o="$0/o$(echo "{}" | tr / _).o"; exec '"$cc $* $std $FUZZ_CPPFLAGS"' -c "{}" -o "$o"' "$d" || return 1
	rm -f "$d/lib.a"; ar rcs "$d/lib.a" "$d"/*.o
}
t0=$(now_ms)
build_lib "$WORK/fz" -g -O1 -fsanitize=fuzzer-no-link,address,undefined 2>"$WORK/build.log" ||
	{ log "building libamc with clang failed: $(tail -n 3 "$WORK/build.log")"; result fuzz_build_failed 1; exit 1; }
cov=0
if [ -n "${LLVM_PROFDATA:-}" ] && [ -n "${LLVM_COV:-}" ]; then
	build_lib "$WORK/cv" -g -O0 -fprofile-instr-generate -fcoverage-mapping 2>>"$WORK/build.log" && cov=1
fi
result fuzz_build_s $(( ($(now_ms) - t0) / 1000 ))
fuzz_one() { # fuzz_one TARGET: run it, then measure its parser's coverage
	t=$1
	exe="$WORK/fuzz_$t"
	# the theme parser lives in tui/, outside libamc: compiled in by name
	extra=""; [ "$t" != theme ] || extra="-I\"\$SRC\" \"\$SRC/tui/theme.c\" \"\$SRC/tui/text.c\""
	# shellcheck disable=SC2086
	eval "$CLANG -g -O1 -fsanitize=fuzzer,address,undefined $std $FUZZ_CPPFLAGS \"\$SRC/tests/fuzz/fuzz_$t.c\" $extra \
		\"\$WORK/fz/lib.a\" $FUZZ_LIBS -o \"\$exe\"" 2>>"$WORK/build.log" ||
		{ log "$t: link failed"; result "fuzz_${t}_exec" 0; result "fuzz_${t}_crashes" build-failed; return; }
	corpus="$WORK/corpus_$t"; rm -rf "$corpus"; mkdir -p "$corpus" "$WORK/art_$t"
	cp "$SRC/tests/fuzz/corpus/$t/"* "$corpus/"
	dict=""; [ -f "$SRC/tests/fuzz/dict/$t.dict" ] && dict="-dict=$SRC/tests/fuzz/dict/$t.dict"
	# A small ASan quarantine, so -rss_limit_mb measures the parser's memory
	# rather than freed blocks ASan holds back. A run that outlives its time
	# (libFuzzer can stall reporting an out-of-memory) counts as a crash.
	ASAN_OPTIONS=quarantine_size_mb=16:allocator_may_return_null=0 \
	timeout -k 5 $((FUZZ_SECONDS + 30)) "$exe" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=256 \
		-malloc_limit_mb=128 -timeout=2 -max_len=262144 -print_final_stats=1 $dict \
		-artifact_prefix="$WORK/art_$t/" "$corpus" >"$WORK/log_$t" 2>&1
	frc=$?
	[ $frc -ne 124 ] && [ $frc -ne 137 ] || { log "$t: the fuzzer stalled"; : > "$WORK/art_$t/stalled"; }
	ex=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/log_$t" | tail -n 1)
	cr=$(find "$WORK/art_$t" -type f | wc -l)
	[ -n "$ex" ] || ex=0
	[ "$cr" -eq 0 ] || { log "$t: $cr crash inputs in $WORK/art_$t:"; grep -m3 -E 'ERROR|SUMMARY' "$WORK/log_$t" >&2; }
	result "fuzz_${t}_exec" "$ex"
	result "fuzz_${t}_crashes" "$cr"
	if [ $cov -eq 1 ]; then
		ce="$WORK/cov_$t"
		# shellcheck disable=SC2086
		if eval "$CLANG -g -O0 -fprofile-instr-generate -fcoverage-mapping $std $FUZZ_CPPFLAGS -DFUZZ_NAME='\"$t\"' \
			\"\$SRC/tests/fuzz/fuzz_$t.c\" \"\$SRC/tests/fuzz/replay.c\" $extra \"\$WORK/cv/lib.a\" $FUZZ_LIBS -o \"\$ce\"" 2>>"$WORK/build.log"; then
			LLVM_PROFILE_FILE="$WORK/$t.profraw" "$ce" "$corpus" >/dev/null 2>&1
			"$LLVM_PROFDATA" merge -sparse "$WORK/$t.profraw" -o "$WORK/$t.profdata" 2>/dev/null
			# rows of the parser's files (the report names them by the path they
			# were compiled with, so they are matched by their ending)
			"$LLVM_COV" report "$ce" -instr-profile="$WORK/$t.profdata" >"$WORK/$t.cov" 2>/dev/null
			pct=$(awk -v want="$(parsers "$t")" 'BEGIN { n = split(want, w, " ") }
				{ for (i = 1; i <= n; i++) { f = "/" w[i]; l = length(f)
					if ($1 == w[i] || (length($1) >= l && substr($1, length($1) - l + 1) == f)) {
						L += $8; ML += $9; B += $11; MB += $12 } } }
				END { if (L) printf "%.1f%% of %d lines, %.1f%% of %d branches", 100 * (L - ML) / L, L, B ? 100 * (B - MB) / B : 0, B }' \
				"$WORK/$t.cov")
			result "fuzz_${t}_lines" "${pct:-n/a}"
		else
			result "fuzz_${t}_lines" "n/a"
		fi
	fi
}
# Two at a time (2 cores): the targets alternate between two queues.
q1="" q2="" i=0
for t in $FUZZ_TARGETS; do
	if [ $((i % 2)) -eq 0 ]; then q1="$q1 $t"; else q2="$q2 $t"; fi
	i=$((i + 1))
done
( for t in $q1; do fuzz_one "$t"; done ) &
p1=$!
( for t in $q2; do fuzz_one "$t"; done ) &
p2=$!
wait $p1 $p2
total_exec=$(sed -n 's/^fuzz_[a-z]*_exec=//p' "$RESULTS" | awk '{ s += $1 } END { print s + 0 }')
total_crash=$(sed -n 's/^fuzz_[a-z]*_crashes=//p' "$RESULTS" | awk '$1 ~ /^[0-9]+$/ { s += $1; next } { s += 1 } END { print s + 0 }')
result fuzz_exec "$total_exec"
result fuzz_crashes "$total_crash"

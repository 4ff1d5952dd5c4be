# Fuzz targets: one per parser of outside input. Each builds twice:
#  - with the normal compiler as tests/fuzz/replay_NAME, run by `make check` over the
#    committed corpus in tests/fuzz/corpus/NAME/;
#  - with clang's libFuzzer (+ASan/UBSan) by `make fuzz` (FUZZ_SECONDS each).
FUZZ_TARGETS = flow config png uitree model state rawframe treediff script mcp pending fleet tasktpl adb appium http theme agentcli
FUZZ_SECONDS = 30

check_PROGRAMS += tests/fuzz/replay_flow tests/fuzz/replay_config tests/fuzz/replay_png tests/fuzz/replay_uitree
TESTS += tests/fuzz/replay_flow tests/fuzz/replay_config tests/fuzz/replay_png tests/fuzz/replay_uitree

tests_fuzz_replay_flow_SOURCES = tests/fuzz/fuzz_flow.c tests/fuzz/replay.c
tests_fuzz_replay_flow_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"flow"'
tests_fuzz_replay_flow_LDADD = $(TEST_LDADD)
tests_fuzz_replay_config_SOURCES = tests/fuzz/fuzz_config.c tests/fuzz/replay.c
tests_fuzz_replay_config_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"config"'
tests_fuzz_replay_config_LDADD = $(TEST_LDADD)
tests_fuzz_replay_png_SOURCES = tests/fuzz/fuzz_png.c tests/fuzz/replay.c
tests_fuzz_replay_png_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"png"'
tests_fuzz_replay_png_LDADD = $(TEST_LDADD)
tests_fuzz_replay_uitree_SOURCES = tests/fuzz/fuzz_uitree.c tests/fuzz/replay.c
tests_fuzz_replay_uitree_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"uitree"'
tests_fuzz_replay_uitree_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/fuzz/replay_model tests/fuzz/replay_state
TESTS += tests/fuzz/replay_model tests/fuzz/replay_state
tests_fuzz_replay_model_SOURCES = tests/fuzz/fuzz_model.c tests/fuzz/replay.c
tests_fuzz_replay_model_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"model"'
tests_fuzz_replay_model_LDADD = $(TEST_LDADD)
tests_fuzz_replay_state_SOURCES = tests/fuzz/fuzz_state.c tests/fuzz/replay.c
tests_fuzz_replay_state_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"state"'
tests_fuzz_replay_state_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/fuzz/replay_rawframe
TESTS += tests/fuzz/replay_rawframe
tests_fuzz_replay_rawframe_SOURCES = tests/fuzz/fuzz_rawframe.c tests/fuzz/replay.c
tests_fuzz_replay_rawframe_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"rawframe"'
tests_fuzz_replay_rawframe_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/fuzz/replay_treediff
TESTS += tests/fuzz/replay_treediff
tests_fuzz_replay_treediff_SOURCES = tests/fuzz/fuzz_treediff.c tests/fuzz/replay.c
tests_fuzz_replay_treediff_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"treediff"'
tests_fuzz_replay_treediff_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/fuzz/replay_script
TESTS += tests/fuzz/replay_script
tests_fuzz_replay_script_SOURCES = tests/fuzz/fuzz_script.c tests/fuzz/replay.c
tests_fuzz_replay_script_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"script"'
tests_fuzz_replay_script_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/fuzz/replay_mcp
TESTS += tests/fuzz/replay_mcp
tests_fuzz_replay_mcp_SOURCES = tests/fuzz/fuzz_mcp.c tests/fuzz/replay.c
tests_fuzz_replay_mcp_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"mcp"'
tests_fuzz_replay_mcp_LDADD = $(TEST_LDADD)
# the confirmation files another process leaves in $AMC_HOME (runtime/pending.c)
check_PROGRAMS += tests/fuzz/replay_pending
TESTS += tests/fuzz/replay_pending
tests_fuzz_replay_pending_SOURCES = tests/fuzz/fuzz_pending.c tests/fuzz/replay.c
tests_fuzz_replay_pending_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"pending"'
tests_fuzz_replay_pending_LDADD = $(TEST_LDADD)
# the fleet payloads PostgreSQL hands over (src/fleet/payload.c)
check_PROGRAMS += tests/fuzz/replay_fleet
TESTS += tests/fuzz/replay_fleet
tests_fuzz_replay_fleet_SOURCES = tests/fuzz/fuzz_fleet.c tests/fuzz/replay.c
tests_fuzz_replay_fleet_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"fleet"'
tests_fuzz_replay_fleet_LDADD = $(TEST_LDADD)
# task templates, files a user or a colleague writes (src/suite/tasktpl.c)
check_PROGRAMS += tests/fuzz/replay_tasktpl
TESTS += tests/fuzz/replay_tasktpl
tests_fuzz_replay_tasktpl_SOURCES = tests/fuzz/fuzz_tasktpl.c tests/fuzz/replay.c
tests_fuzz_replay_tasktpl_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"tasktpl"'
tests_fuzz_replay_tasktpl_LDADD = $(TEST_LDADD)
# what adb prints (devices -l, wm size, dumpsys window: src/device/adb.c)
check_PROGRAMS += tests/fuzz/replay_adb
TESTS += tests/fuzz/replay_adb
tests_fuzz_replay_adb_SOURCES = tests/fuzz/fuzz_adb.c tests/fuzz/replay.c
tests_fuzz_replay_adb_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"adb"'
tests_fuzz_replay_adb_LDADD = $(TEST_LDADD)
# an Appium server's WebDriver answers (src/device/appium.c)
check_PROGRAMS += tests/fuzz/replay_appium
TESTS += tests/fuzz/replay_appium
tests_fuzz_replay_appium_SOURCES = tests/fuzz/fuzz_appium.c tests/fuzz/replay.c
tests_fuzz_replay_appium_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"appium"'
tests_fuzz_replay_appium_LDADD = $(TEST_LDADD)
# a model provider's response headers: retry-after, request-id (src/llm/http.c)
check_PROGRAMS += tests/fuzz/replay_http
TESTS += tests/fuzz/replay_http
tests_fuzz_replay_http_SOURCES = tests/fuzz/fuzz_http.c tests/fuzz/replay.c
tests_fuzz_replay_http_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"http"'
tests_fuzz_replay_http_LDADD = $(TEST_LDADD)
# what a coding agent's CLI prints (planner/agentcli_result.c)
check_PROGRAMS += tests/fuzz/replay_agentcli
TESTS += tests/fuzz/replay_agentcli
tests_fuzz_replay_agentcli_SOURCES = tests/fuzz/fuzz_agentcli.c tests/fuzz/replay.c
tests_fuzz_replay_agentcli_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NAME='"agentcli"'
tests_fuzz_replay_agentcli_LDADD = $(TEST_LDADD)
# a colour theme file (tui/theme.c, outside libamc: linked in by name)
check_PROGRAMS += tests/fuzz/replay_theme
TESTS += tests/fuzz/replay_theme
tests_fuzz_replay_theme_SOURCES = tests/fuzz/fuzz_theme.c tests/fuzz/replay.c tui/theme.c tui/text.c
tests_fuzz_replay_theme_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir) -DFUZZ_NAME='"theme"'
tests_fuzz_replay_theme_LDADD = $(TEST_LDADD)

EXTRA_DIST += tests/fuzz/corpus tests/fuzz/dict

AMC_FUZZ_SRCS = $(addprefix $(top_srcdir)/,$(filter %.c,$(libamc_a_SOURCES)))

fuzz:
	@test -n "$(CLANG)" || { echo "make fuzz needs clang (apt-get install clang)"; exit 2; }
	@$(MKDIR_P) fuzz-out
	@set -e; for t in $(FUZZ_TARGETS); do \
	  echo "  FUZZ     $$t ($(FUZZ_SECONDS) s)"; \
	  extra=; test $$t != theme || extra="-I$(top_srcdir) $(top_srcdir)/tui/theme.c $(top_srcdir)/tui/text.c"; \
	  $(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(DEFS) $(AM_CPPFLAGS) $(CPPFLAGS) \
	    -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	    $(top_srcdir)/tests/fuzz/fuzz_$$t.c $$extra $(AMC_FUZZ_SRCS) $(AMC_LIBS) $(LIBS) -o fuzz-out/fuzz_$$t; \
	  rm -rf fuzz-out/corpus_$$t; mkdir -p fuzz-out/corpus_$$t; \
	  cp $(top_srcdir)/tests/fuzz/corpus/$$t/* fuzz-out/corpus_$$t/; \
	  dict=; test -f $(top_srcdir)/tests/fuzz/dict/$$t.dict && dict=-dict=$(top_srcdir)/tests/fuzz/dict/$$t.dict; \
	  ASAN_OPTIONS=quarantine_size_mb=16:allocator_may_return_null=0 \
	  ./fuzz-out/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=262144 $$dict \
	    -rss_limit_mb=256 -malloc_limit_mb=128 -timeout=2 \
	    -artifact_prefix=fuzz-out/crash_$$t- fuzz-out/corpus_$$t; \
	done

clean-local: clean-fuzz
clean-fuzz:
	rm -rf fuzz-out
.PHONY: fuzz clean-fuzz

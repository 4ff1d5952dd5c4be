# `make bench`: measurements that are too slow or too noisy for `make check`.
EXTRA_PROGRAMS += bench/bench_steps
bench_bench_steps_SOURCES = bench/bench_steps.c
bench_bench_steps_LDADD = $(TEST_LDADD)
CLEANFILES += bench/bench_steps

# bench_store: step-record commits, artifact writes, retention of 10k of 100k tasks
# (short runs of it and of bench_device in `make check`: tests/integration/test_bench.sh)
check_PROGRAMS += bench/bench_store bench/bench_device
bench_bench_store_SOURCES = bench/bench_store.c
bench_bench_store_LDADD = $(TEST_LDADD)
TESTS += tests/integration/test_bench.sh
EXTRA_DIST += tests/integration/test_bench.sh bench/bench_recorded.sh

# bench_search: full-text search over 1M generated steps (STEPS=... to change it);
# a 20,000-step run in `make check` (tests/integration/test_bench.sh) checks it runs
check_PROGRAMS += bench/bench_search
bench_bench_search_SOURCES = bench/bench_search.c
bench_bench_search_LDADD = $(TEST_LDADD)
BENCH_SEARCH_STEPS = 1000000
bench-search: bench/bench_search$(EXEEXT)
	./bench/bench_search$(EXEEXT) $(BENCH_SEARCH_STEPS)
bench: bench-search
.PHONY: bench-search

# bench_device: the bundled flows over the adb stand-in with a latency model
bench_bench_device_SOURCES = bench/bench_device.c
bench_bench_device_LDADD = $(TEST_LDADD)

# bench_ocr: the OCR pipeline against `tesseract IMAGE - tsv` per screen. Built
# for `make check` too, where tests/integration/test_bench_ocr.sh runs it with
# --quick (two screens, one round) only to check that it runs.
check_PROGRAMS += bench/bench_ocr
bench_bench_ocr_SOURCES = bench/bench_ocr.c
bench_bench_ocr_LDADD = $(TEST_LDADD)

# bench_tui: the TUI on 100k tasks / 1M steps (generated once into $TMPDIR,
# a few GB, kept between runs); BENCH_TUI_ARGS="10000 10" for a smaller run.
EXTRA_PROGRAMS += bench/bench_tui
bench_bench_tui_SOURCES = bench/bench_tui.c
bench_bench_tui_LDADD = $(TEST_LDADD)
CLEANFILES += bench/bench_tui

bench: bench/bench_steps$(EXEEXT) bench/bench_ocr$(EXEEXT) bench/bench_tui$(EXEEXT) bench/bench_store$(EXEEXT) \
		bench/bench_device$(EXEEXT) tests/tools/adb-standin$(EXEEXT) amc$(EXEEXT)
	AMC_DATA_DIR=$(abs_top_srcdir)/data ./bench/bench_steps$(EXEEXT) 3
	./bench/bench_store$(EXEEXT) $(BENCH_STORE_ARGS)
	$(SHELL) $(abs_top_srcdir)/bench/bench_recorded.sh ./amc$(EXEEXT) $(abs_top_srcdir)/data
	AMC_DATA_DIR=$(abs_top_srcdir)/data ./bench/bench_device$(EXEEXT) tests/tools/adb-standin$(EXEEXT)
	AMC_DATA_DIR=$(abs_top_srcdir)/data ./bench/bench_ocr$(EXEEXT) 3
	AMC_DATA_DIR=$(abs_top_srcdir)/data ./bench/bench_tui$(EXEEXT) $(abs_top_builddir)/amc$(EXEEXT) $(BENCH_TUI_ARGS)
.PHONY: bench

# bench-tasks: the whole task suite (data/tasks) with the reference flows on
# BENCH_TASKS_SEEDS seeds over four sims in a scratch AMC_HOME; prints pass@1 per
# template and overall (make check runs one seed: tests/unit/test_suite).
BENCH_TASKS_SEEDS = 5
bench-tasks: amc$(EXEEXT)
	h=$$(mktemp -d) && AMC_HOME=$$h AMC_DATA_DIR=$(abs_top_srcdir)/data ./amc$(EXEEXT) bench tasks \
		--seeds $(BENCH_TASKS_SEEDS) --sims 4 -q; rc=$$?; rm -rf "$$h"; exit $$rc
bench: bench-tasks
.PHONY: bench-tasks

# bench_mcp: observe and act round trips of `amc mcp` on the sim, driven as an
# MCP client drives it (issue 31's targets, met/MISSED); BENCH_MCP_N round trips
# of each. A short run in `make check` (tests/integration/test_bench.sh) checks it runs.
check_PROGRAMS += bench/bench_mcp
bench_bench_mcp_SOURCES = bench/bench_mcp.c tests/unit/mcptest.h
bench_bench_mcp_LDADD = $(TEST_LDADD)
BENCH_MCP_N = 50
bench-mcp: bench/bench_mcp$(EXEEXT) amc$(EXEEXT)
	AMC_DATA_DIR=$(abs_top_srcdir)/data ./bench/bench_mcp$(EXEEXT) $(abs_top_builddir)/amc$(EXEEXT) $(BENCH_MCP_N)
bench: bench-mcp
.PHONY: bench-mcp
TESTS += tests/integration/test_bench_mcp.sh
EXTRA_DIST += tests/integration/test_bench_mcp.sh

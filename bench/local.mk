# `make bench`: measurements that are too slow or too noisy for `make check`.
EXTRA_PROGRAMS += bench/bench_steps
bench_bench_steps_SOURCES = bench/bench_steps.c
bench_bench_steps_LDADD = $(TEST_LDADD)
CLEANFILES += bench/bench_steps

bench: bench/bench_steps$(EXEEXT)
	AMC_DATA_DIR=$(abs_top_srcdir)/data ./bench/bench_steps$(EXEEXT) 3
.PHONY: bench

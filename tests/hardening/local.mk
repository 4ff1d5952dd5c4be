# make check-hardening (docs/hardening.md): reliability figures in one table,
# about 20 minutes on 2 cores, not part of make check. make check runs the
# short version (tests/hardening/test_hardening.sh, seconds). FUZZ_CPPFLAGS keeps
# its quotes (-DAMC_PKGLIBEXECDIR='"..."'): fuzz.sh evaluates it as a shell would.
HARDENING_FILES = tests/hardening/run.sh tests/hardening/lib.sh tests/hardening/crash.sh \
	tests/hardening/fuzz.sh tests/hardening/twoproc.sh tests/hardening/hostile.sh \
	tests/hardening/faults.sh tests/hardening/hostile_corpus.sh tests/hardening/hostile_tui.keys
EXTRA_DIST += $(HARDENING_FILES) tests/hardening/test_hardening.sh
TESTS += tests/hardening/test_hardening.sh

check-hardening: amc tests/tools/pngcheck tests/tools/mockllm tests/tools/cellcheck
	@AMC='$(abs_top_builddir)/amc' TOOLS='$(abs_top_builddir)' SRC='$(abs_top_srcdir)' \
	AMC_DATA_DIR='$(abs_top_srcdir)/data' LC_ALL=C.UTF-8 \
	CLANG='$(CLANG)' LLVM_PROFDATA='$(LLVM_PROFDATA)' LLVM_COV='$(LLVM_COV)' \
	FUZZ_CPPFLAGS='$(subst ','\'',$(DEFS) $(AM_CPPFLAGS) $(CPPFLAGS))' FUZZ_LIBS='$(AMC_LIBS) $(LIBS)' \
	FUZZ_SRCS='$(AMC_FUZZ_SRCS)' FUZZ_TARGETS='$(FUZZ_TARGETS)' \
	$(SHELL) $(top_srcdir)/tests/hardening/run.sh
.PHONY: check-hardening
check_PROGRAMS += tests/tools/cellcheck
tests_tools_cellcheck_SOURCES = tests/tools/cellcheck.c

libamc_a_SOURCES += src/semantic/enrich.c src/semantic/enrich.h

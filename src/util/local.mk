libamc_a_SOURCES += \
	src/util/err.c src/util/err.h \
	src/util/base64.c src/util/base64.h \
	src/util/strbuf.c src/util/strbuf.h \
	src/util/fsutil.c src/util/fsutil.h \
	src/util/paths.c src/util/paths.h \
	src/util/ids.c src/util/ids.h \
	src/util/status.c src/util/status.h \
	src/util/clock.c src/util/clock.h \
	src/util/log.c src/util/log.h \
	src/util/sanitize.c src/util/sanitize.h \
	src/util/roff.c src/util/roff.h \
	src/util/lockfile.c src/util/lockfile.h \
	src/util/config.c src/util/config.h \
	src/util/jsonutil.c src/util/jsonutil.h \
	src/util/proc.c src/util/proc.h \
	src/util/hyperlink.c src/util/hyperlink.h

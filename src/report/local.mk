libamc_a_SOURCES += \
	src/report/report.c src/report/report.h \
	src/report/html.c \
	src/report/action.c src/report/action.h

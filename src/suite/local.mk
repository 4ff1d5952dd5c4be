libamc_a_SOURCES += \
	src/suite/tasktpl.h \
	src/suite/tasktpl.c \
	src/suite/taskgen.c \
	src/suite/taskcheck.c \
	src/suite/suite.h \
	src/suite/suite.c \
	src/suite/suite_report.c

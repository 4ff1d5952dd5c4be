libamc_a_SOURCES += \
	src/storage/store.c src/storage/store.h src/storage/store_int.h \
	src/storage/checkpoint.c src/storage/checkpoint.h \
	src/storage/sql.c \
	src/storage/migrate.c src/storage/migrate.h \
	src/storage/tasks.c \
	src/storage/timeline.c \
	src/storage/artifacts.c \
	src/storage/sources.c src/storage/sources.h \
	src/storage/stored_tree.c src/storage/stored_tree.h \
	src/storage/retention.c \
	src/storage/decisions.c \
	src/storage/search.c src/storage/search.h src/storage/search_schema.h \
	src/storage/suite.c

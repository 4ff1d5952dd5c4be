libamc_a_SOURCES += \
	src/llm/http.c src/llm/http.h \
	src/llm/llm.h src/llm/prices.c \
	src/llm/anthropic.c src/llm/anthropic.h

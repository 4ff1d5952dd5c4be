libamc_a_SOURCES += \
	src/llm/http.c src/llm/http.h \
	src/llm/llm.h src/llm/prices.c src/llm/client.c src/llm/client.h \
	src/llm/anthropic.c src/llm/anthropic.h
libamc_a_SOURCES += src/llm/openai.c src/llm/openai.h src/llm/providers.c src/llm/providers.h

# LLM layer and agent tests; tests/mock/ holds the local API mocks.
MOCK_SRC = tests/mock/mockhttp.c tests/mock/mockhttp.h
LLM_TESTS = tests/unit/test_llm_http
check_PROGRAMS += $(LLM_TESTS)
TESTS += $(LLM_TESTS)
tests_unit_test_llm_http_SOURCES = tests/unit/test_llm_http.c $(MOCK_SRC)
tests_unit_test_llm_http_LDADD = $(TEST_LDADD)

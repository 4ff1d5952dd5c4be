/* test_jsonutil.c - parse limits and messages, lookups, printing. */
#include <string.h>

#include "tap.h"
#include "util/jsonutil.h"

static cJSON *parse_s(const char *s, size_t max, amc_err *e)
{
	amc_err_clear(e);
	return amc_json_parse(s, strlen(s), max, e);
}

int main(void)
{
	amc_err e;
	const char *doc = "{\"name\":\"sim\",\"n\":42,\"f\":2.9,\"neg\":-7,\"s\":\"x\\u001b[31m\",\"nul\":null,"
			  "\"arr\":[1,2],\"t\":true,\"big\":1e300,\"nums\":\"12\"}";
	cJSON *j = parse_s(doc, 4096, &e);
	ok(j != NULL, "parse a valid object");
	is_str(e.msg, "", "no error message on success");
	is_str(amc_json_str(j, "name"), "sim", "json_str of a string");
	ok(amc_json_str(j, "n") == NULL, "json_str of a number is NULL");
	ok(amc_json_str(j, "nul") == NULL, "json_str of null is NULL");
	ok(amc_json_str(j, "missing") == NULL, "json_str of a missing key is NULL");
	ok(amc_json_str(j, "Name") == NULL, "keys are case-sensitive");
	is_str(amc_json_str(j, "s"), "x\x1b[31m", "escapes decoded (the caller must sanitize)");
	is_int(amc_json_int(j, "n", -1), 42, "json_int");
	is_int(amc_json_int(j, "neg", 0), -7, "json_int negative");
	is_int(amc_json_int(j, "f", 0), 2, "json_int of 2.9 truncates");
	is_int(amc_json_int(j, "missing", -5), -5, "json_int default when missing");
	is_int(amc_json_int(j, "nums", -5), -5, "json_int default for a string");
	is_int(amc_json_int(j, "t", -5), -5, "json_int default for a bool");
	is_int(amc_json_int(j, "arr", -5), -5, "json_int default for an array");
	is_int(amc_json_int(j, "big", 0), 2147483647, "json_int of 1e300 saturates");
	ok(amc_json_str(NULL, "x") == NULL, "json_str(NULL)");
	is_int(amc_json_int(NULL, "x", 3), 3, "json_int(NULL) gives the default");
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(j, "arr");
	ok(amc_json_str(arr, "x") == NULL, "json_str on an array is NULL");
	cJSON_Delete(j);

	/* Limit. */
	j = parse_s("[1,2,3]", 7, &e);
	ok(j != NULL, "exactly at the limit is fine");
	cJSON_Delete(j);
	j = parse_s("[1,2,3]", 6, &e);
	ok(j == NULL, "over the limit refused");
	like(e.msg, "7 bytes", "limit message gives the size");
	like(e.msg, "limit of 6", "limit message gives the limit");
	is_int(e.code, AMC_EUSAGE, "limit: usage error");

	/* Invalid JSON. */
	const char *invalid[] = { "", "{", "{\"a\":}", "[1,2", "nul", "{'a':1}", "{\"a\":1,}", "\"unterminated",
				  "{} x", "[1] [2]", "1 2", "{\"a\":1}}" };
	for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
		j = parse_s(invalid[i], 1000, &e);
		ok(j == NULL, "invalid JSON refused: '%s'", invalid[i]);
		like(e.msg, "invalid JSON", "message says invalid JSON ('%s')", invalid[i]);
		cJSON_Delete(j);
	}
	j = parse_s("{\"a\": [1, 2, x]}", 1000, &e);
	ok(j == NULL, "bad token refused");
	like(e.msg, "near byte 13", "message gives the position of the error");
	j = parse_s("{\"a\":1} xyz", 1000, &e);
	ok(j == NULL, "trailing data refused");
	like(e.msg, "near byte 8", "trailing data: position of the junk");
	/* Whitespace around a value is fine; the length bounds the read. */
	j = parse_s("  \n{\"a\": 1}\r\n\t ", 1000, &e);
	ok(j != NULL, "surrounding whitespace accepted");
	cJSON_Delete(j);
	amc_err_clear(&e);
	j = amc_json_parse("{\"a\":1}GARBAGE", 7, 100, &e);
	ok(j != NULL, "only `len` bytes are parsed");
	is_int(amc_json_int(j, "a", 0), 1, "len-bounded parse content");
	cJSON_Delete(j);
	amc_err_clear(&e);
	j = amc_json_parse("[1]\0", 4, 100, &e);
	ok(j != NULL, "a NUL terminator inside len is accepted");
	cJSON_Delete(j);
	j = amc_json_parse("{}", 2, 100, NULL);
	ok(j != NULL, "NULL err tolerated on success");
	cJSON_Delete(j);
	ok(amc_json_parse("{", 1, 100, NULL) == NULL, "NULL err tolerated on failure");
	ok(amc_json_parse("{}", 2, 1, NULL) == NULL, "NULL err tolerated on limit");

	/* Deep nesting is refused, not a crash. */
	enum { DEEP = 100000 };
	char *deep = malloc(2 * DEEP + 1);
	memset(deep, '[', DEEP);
	memset(deep + DEEP, ']', DEEP);
	deep[2 * DEEP] = '\0';
	j = amc_json_parse(deep, 2 * DEEP, 4 * DEEP, &e);
	ok(j == NULL, "100000 nested arrays refused");
	free(deep);

	/* add_str and print. */
	cJSON *o = cJSON_CreateObject();
	amc_json_add_str(o, "a", "b\"c\n");
	amc_json_add_str(o, "z", NULL);
	char *p = amc_json_print(o);
	is_str(p, "{\"a\":\"b\\\"c\\n\",\"z\":null}", "print is compact; NULL string is null");
	amc_err_clear(&e);
	cJSON *back = amc_json_parse(p, strlen(p), 1000, &e);
	is_str(amc_json_str(back, "a"), "b\"c\n", "round trip");
	ok(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(back, "z")), "null round trip");
	free(p);
	cJSON_Delete(back);
	cJSON_Delete(o);
	return done_testing();
}

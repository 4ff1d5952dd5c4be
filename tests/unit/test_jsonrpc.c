/* test_jsonrpc.c - src/mcp/jsonrpc: lines bounded (a longer line is dropped
 * whole, the next one read), CR stripped, end of input; parsing: malformed
 * JSON, more than one value, batches, non-objects, depth, the version, unknown
 * members, wrong types of id, method and params, requests vs notifications vs
 * responses, and the id echoed (or left out) in error answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/jsonrpc.h"
#include "util/jsonutil.h"
#include "tap.h"

/* A FILE reading the given bytes (fmemopen). */
static FILE *input(const char *s, size_t n)
{
	static char buf[8192];
	memcpy(buf, s, n);
	return fmemopen(buf, n, "r");
}

static void test_read_line(void)
{
	amc_sb line;
	amc_sb_init(&line);
	const char in[] = "{\"a\":1}\r\nxxxxxxxxxxxxxxxxxxxxxxxxx\nshort\nlast-no-newline";
	FILE *f = input(in, sizeof in - 1);
	is_int(amc_rpc_read_line(f, 16, &line), 1, "read_line: a line");
	is_str(amc_sb_str(&line), "{\"a\":1}", "read_line: without its CR LF");
	is_int(amc_rpc_read_line(f, 16, &line), 2, "read_line: a line over the bound is reported");
	is_int((int)line.len, 0, "read_line: and nothing of it is kept");
	is_int(amc_rpc_read_line(f, 16, &line), 1, "read_line: the next line is read whole after it");
	is_str(amc_sb_str(&line), "short", "read_line: the next line's text");
	is_int(amc_rpc_read_line(f, 16, &line), 1, "read_line: a last line without a newline");
	is_str(amc_sb_str(&line), "last-no-newline", "read_line: its text");
	is_int(amc_rpc_read_line(f, 16, &line), 0, "read_line: then end of input");
	fclose(f);
	/* exactly at the bound is accepted; one more byte is not */
	f = input("0123456789abcdef\n0123456789abcdefg\n", 35);
	is_int(amc_rpc_read_line(f, 16, &line), 1, "read_line: 16 bytes with a bound of 16 pass");
	is_int(amc_rpc_read_line(f, 16, &line), 2, "read_line: 17 bytes do not");
	fclose(f);
	/* an empty line is a line (parse answers it), not end of input */
	f = input("\n", 1);
	is_int(amc_rpc_read_line(f, 16, &line), 1, "read_line: an empty line");
	is_int((int)line.len, 0, "read_line: is empty");
	fclose(f);
	amc_sb_free(&line);
}

/* Parse s: 0 or -1; *code the error's code (0 none), *id_out the id of the
 * error answer as a key ("-" none). */
static int parse(const char *s, amc_rpc_msg *m, int *code, char *id_out, size_t n)
{
	cJSON *err = NULL;
	int rc = amc_rpc_parse(s, strlen(s), m, &err);
	*code = 0;
	snprintf(id_out, n, "-");
	if (err) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(err, "error");
		*code = cJSON_GetObjectItemCaseSensitive(e, "code")->valueint;
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(err, "id");
		if (id)
			amc_rpc_id_key(id, id_out, n);
		ok(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "message")), "  the error has a message");
		cJSON_Delete(err);
	}
	return rc;
}

static void bad(const char *s, int want_code, const char *want_id, const char *what)
{
	amc_rpc_msg m;
	int code;
	char id[64];
	int rc = parse(s, &m, &code, id, sizeof id);
	ok(rc == -1 && code == want_code && !strcmp(id, want_id), "%s: %d, id %s (got %d, %d, id %s)", what, want_code,
	   want_id, rc, code, id);
	ok(m.msg == NULL, "  nothing is kept");
}

static void test_parse_errors(void)
{
	bad("", AMC_RPC_PARSE_ERROR, "-", "empty line");
	bad("{\"jsonrpc\":\"2.0\",", AMC_RPC_PARSE_ERROR, "-", "truncated JSON");
	bad("not json", AMC_RPC_PARSE_ERROR, "-", "not JSON");
	/* the id is recovered whenever the line has one (issue 30): a client is not left waiting */
	bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} {}", AMC_RPC_PARSE_ERROR, "n:1", "two values on a line");
	bad("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\",}", AMC_RPC_PARSE_ERROR, "s:a", "a trailing comma");
	bad("{\"params\":{\"id\":3},\"id\":4,\"method\":}", AMC_RPC_PARSE_ERROR, "n:4", "the top-level id, not a nested one");
	{
		static const char nul[] = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"pi\0ng\"}";
		amc_rpc_msg m;
		cJSON *err = NULL;
		int rc = amc_rpc_parse(nul, sizeof nul - 1, &m, &err);
		char *t = err ? cJSON_PrintUnformatted(err) : NULL;
		ok(rc == -1 && t && strstr(t, "-32700") && strstr(t, "\"id\":8"), "a raw NUL inside a string: -32700 with the id (%s)", t ? t : "-");
		free(t);
		cJSON_Delete(err);
	}
	{
		const char *ls = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":{\"t\":\"a\\ud83d\\\\ud83d\\ud83d\\ude00\"}}";
		amc_rpc_msg m;
		cJSON *err = NULL;
		int rc = amc_rpc_parse(ls, strlen(ls), &m, &err);
		const char *v = rc == 0 ? amc_json_str(m.params, "t") : NULL;
		ok(v && !strcmp(v, "a\xef\xbf\xbd\\ud83d\xf0\x9f\x98\x80"), "a lone surrogate is U+FFFD; an escaped backslash and a pair are kept (%s)", v ? v : "-");
		if (rc == 0)
			amc_rpc_msg_free(&m);
		cJSON_Delete(err);
	}
	bad("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", AMC_RPC_INVALID_REQUEST, "-", "a batch");
	bad("42", AMC_RPC_INVALID_REQUEST, "-", "a number");
	bad("\"ping\"", AMC_RPC_INVALID_REQUEST, "-", "a string");
	bad("{\"id\":1,\"method\":\"ping\"}", AMC_RPC_INVALID_REQUEST, "n:1", "no jsonrpc member (the id is echoed)");
	bad("{\"jsonrpc\":\"1.0\",\"id\":\"a\",\"method\":\"ping\"}", AMC_RPC_INVALID_REQUEST, "s:a", "jsonrpc 1.0");
	bad("{\"jsonrpc\":2,\"id\":1,\"method\":\"ping\"}", AMC_RPC_INVALID_REQUEST, "n:1", "jsonrpc a number");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"extra\":true}", AMC_RPC_INVALID_REQUEST, "n:1",
	    "an unknown member");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", AMC_RPC_INVALID_REQUEST, "-",
	    "a fractional id (not echoed)");
	bad("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", AMC_RPC_INVALID_REQUEST, "-", "a boolean id");
	bad("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", AMC_RPC_INVALID_REQUEST, "-", "a null id");
	bad("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", AMC_RPC_INVALID_REQUEST, "-", "an object id");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1e300,\"method\":\"ping\"}", AMC_RPC_INVALID_REQUEST, "-", "an id past 2^53");
	char longid[400];
	memset(longid, 'x', 300);
	longid[300] = 0;
	char msg[600];
	snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":\"%s\",\"method\":\"ping\"}", longid);
	bad(msg, AMC_RPC_INVALID_REQUEST, "-", "a 300-byte string id");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", AMC_RPC_INVALID_REQUEST, "n:1", "a numeric method");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}", AMC_RPC_INVALID_REQUEST, "n:1", "an empty method");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[1]}", AMC_RPC_INVALID_REQUEST, "n:1",
	    "params an array");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":\"x\"}", AMC_RPC_INVALID_REQUEST, "n:1",
	    "params a string");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"result\":{}}", AMC_RPC_INVALID_REQUEST, "n:1",
	    "a request with a result");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1}", AMC_RPC_INVALID_REQUEST, "n:1", "no method, no result");
	bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"error\":{}}", AMC_RPC_INVALID_REQUEST, "n:1",
	    "a response with result and error");
	bad("{\"jsonrpc\":\"2.0\",\"result\":{}}", AMC_RPC_INVALID_REQUEST, "-", "a response without an id");
	/* nesting past the bound */
	char deep[256] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{\"a\":";
	size_t l = strlen(deep);
	for (int i = 0; i < 40; i++)
		deep[l++] = '[';
	for (int i = 0; i < 40; i++)
		deep[l++] = ']';
	deep[l++] = '}';
	deep[l++] = '}';
	deep[l] = 0;
	bad(deep, AMC_RPC_INVALID_REQUEST, "-", "nested 42 levels deep");
}

static void test_parse_ok(void)
{
	amc_rpc_msg m;
	int code;
	char id[64];
	is_int(parse("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"act\"}}  ", &m, &code,
		     id, sizeof id), 0, "request: parses (trailing blanks are fine)");
	ok(m.kind == AMC_RPC_REQUEST && !strcmp(m.method, "tools/call") && cJSON_IsObject(m.params),
	   "request: kind, method and params");
	amc_rpc_id_key(m.id, id, sizeof id);
	is_str(id, "n:7", "request: the numeric id");
	amc_rpc_msg_free(&m);
	ok(m.msg == NULL, "msg_free clears the message");

	is_int(parse("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"ping\"}", &m, &code, id, sizeof id), 0,
	       "request with a string id and no params");
	amc_rpc_id_key(m.id, id, sizeof id);
	ok(m.params == NULL && !strcmp(id, "s:abc"), "  no params; id key s:abc");
	amc_rpc_msg_free(&m);

	is_int(parse("{\"jsonrpc\":\"2.0\",\"id\":-3,\"method\":\"ping\"}", &m, &code, id, sizeof id), 0,
	       "a negative integral id is an id");
	amc_rpc_msg_free(&m);

	is_int(parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}", &m,
		     &code, id, sizeof id), 0, "notification parses");
	ok(m.kind == AMC_RPC_NOTIFICATION && m.id == NULL, "  a notification has no id");
	amc_rpc_msg_free(&m);

	is_int(parse("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"action\":\"accept\"}}", &m, &code, id, sizeof id), 0,
	       "response with a result parses");
	ok(m.kind == AMC_RPC_RESPONSE && cJSON_IsObject(m.result) && !m.error && !m.method, "  kind response, result");
	amc_rpc_msg_free(&m);
	is_int(parse("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-1,\"message\":\"no\"}}", &m, &code, id, sizeof id),
	       0, "response with an error parses");
	ok(m.kind == AMC_RPC_RESPONSE && m.error && !m.result, "  kind response, error");
	amc_rpc_msg_free(&m);
}

static void test_build(void)
{
	cJSON *id = cJSON_CreateNumber(5);
	cJSON *e = amc_rpc_error(id, AMC_RPC_METHOD_NOT_FOUND, "no such method");
	char *s = cJSON_PrintUnformatted(e);
	is_str(s, "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-32601,\"message\":\"no such method\"}}",
	       "error: the id echoed, code and message");
	free(s);
	cJSON_Delete(e);
	e = amc_rpc_error(NULL, AMC_RPC_PARSE_ERROR, NULL);
	s = cJSON_PrintUnformatted(e);
	is_str(s, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"\"}}",
	       "error without an id: no id member at all (not null)");
	free(s);
	cJSON_Delete(e);
	cJSON *r = amc_rpc_result(id, NULL);
	s = cJSON_PrintUnformatted(r);
	is_str(s, "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}", "result: NULL is {}");
	free(s);
	cJSON_Delete(r);
	cJSON *n = amc_rpc_notification("notifications/progress", NULL);
	s = cJSON_PrintUnformatted(n);
	is_str(s, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}", "notification without params");
	ok(!strchr(s, '\n'), "one line");
	free(s);
	cJSON_Delete(n);
	char k[8];
	cJSON *sid = cJSON_CreateString("a-very-long-string-id");
	amc_rpc_id_key(sid, k, sizeof k);
	is_str(k, "s:a-ver", "id_key is cut to its buffer");
	amc_rpc_id_key(NULL, k, sizeof k);
	is_str(k, "-", "id_key of no id");
	cJSON_Delete(sid);
	cJSON_Delete(id);
}

int main(void)
{
	test_read_line();
	test_parse_errors();
	test_parse_ok();
	test_build();
	return done_testing();
}

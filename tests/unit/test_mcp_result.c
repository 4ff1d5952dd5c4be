/* test_mcp_result.c - a tool's CallToolResult: the text block, the
 * structured content taken, isError only on errors, and a failure's text
 * made terminal-safe and bounded. */
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp_result.h"
#include "tap.h"

static const char *text_of(const cJSON *r)
{
	const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "content"), 0);
	return cJSON_GetStringValue(cJSON_GetObjectItem(c, "text"));
}

int main(void)
{
	cJSON *sc = cJSON_CreateObject();
	cJSON_AddStringToObject(sc, "task", "abc");
	cJSON *r = amc_mcp_result(sc, NULL, 0);
	is_str(text_of(r), "{\"task\":\"abc\"}", "without text, the structured content is the text block");
	ok(cJSON_GetObjectItem(r, "structuredContent") == sc, "the structured content is taken, not copied");
	ok(!cJSON_GetObjectItem(r, "isError"), "no isError on success");
	is_str(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "content"), 0),
							 "type")), "text", "a text block");
	cJSON_Delete(r);

	r = amc_mcp_result(NULL, "done", 1);
	is_str(text_of(r), "done", "the given text");
	ok(cJSON_IsTrue(cJSON_GetObjectItem(r, "isError")), "isError when asked");
	ok(!cJSON_GetObjectItem(r, "structuredContent"), "no structured content when none");
	cJSON_Delete(r);

	r = amc_mcp_fail("device %s: \x1b[2Jgone\x07", "sim:0");
	ok(cJSON_IsTrue(cJSON_GetObjectItem(r, "isError")), "a failure is an error");
	const char *t = text_of(r);
	ok(t && strstr(t, "device sim:0") && !strchr(t, '\x1b') && !strchr(t, '\x07'),
	   "its text is made terminal-safe: %s", t ? t : "(null)");
	cJSON_Delete(r);

	char big[8192];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	r = amc_mcp_fail("%s", big);
	t = text_of(r);
	ok(t && strlen(t) < sizeof big - 1, "a long message is bounded (%zu bytes)", t ? strlen(t) : 0);
	cJSON_Delete(r);
	return done_testing();
}

/* test_err.c - amc_err: set, prefix, clear, truncation, NULL tolerance. */
#include <string.h>

#include "tap.h"
#include "util/err.h"

/* 1 when s is valid UTF-8 (no overlongs, no surrogates). */
static int valid_utf8(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	while (*s) {
		size_t n;
		unsigned c = *s;
		if (c < 0x80) {
			s++;
			continue;
		} else if (c >= 0xC2 && c <= 0xDF) {
			n = 2;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 3;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 4;
		} else {
			return 0;
		}
		for (size_t i = 1; i < n; i++)
			if ((s[i] & 0xC0) != 0x80)
				return 0;
		s += n;
	}
	return 1;
}

int main(void)
{
	amc_err e;
	memset(&e, 0x55, sizeof e);
	amc_err_clear(&e);
	is_int(e.code, AMC_OK, "clear sets code to AMC_OK");
	is_str(e.msg, "", "clear empties the message");

	is_int(amc_err_set(&e, AMC_EUSAGE, "bad %s %d", "value", 42), -1, "set returns -1");
	is_int(e.code, AMC_EUSAGE, "set stores the code");
	is_str(e.msg, "bad value 42", "set formats the message");

	is_int(amc_err_prefix(&e, "reading '%s'", "f.json"), -1, "prefix returns -1");
	is_str(e.msg, "reading 'f.json': bad value 42", "prefix prepends context and ': '");
	is_int(e.code, AMC_EUSAGE, "prefix keeps the code");
	amc_err_prefix(&e, "task %d", 7);
	is_str(e.msg, "task 7: reading 'f.json': bad value 42", "prefixes stack");

	/* The message may be an argument of its own replacement. */
	amc_err_set(&e, AMC_EENV, "device busy");
	amc_err_set(&e, e.code, "sim:0: %s (%s)", e.msg, e.msg);
	is_str(e.msg, "sim:0: device busy (device busy)", "set may quote the old message");
	is_int(e.code, AMC_EENV, "code kept through set(e->code)");

	/* Truncation of long messages. */
	char big[5000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	amc_err_set(&e, AMC_EFAIL, "%s", big);
	is_int(strlen(e.msg), AMC_ERR_MSG_MAX - 1, "long message truncated to AMC_ERR_MSG_MAX-1");
	ok(e.msg[0] == 'x' && e.msg[AMC_ERR_MSG_MAX - 2] == 'x', "truncated message keeps its start");
	is_int(e.code, AMC_EFAIL, "code set even when truncated");

	amc_err_set(&e, AMC_EFAIL, "tail");
	amc_err_prefix(&e, "%s", big);
	is_int(strlen(e.msg), AMC_ERR_MSG_MAX - 1, "prefix longer than the buffer is truncated");
	ok(strspn(e.msg, "x") == AMC_ERR_MSG_MAX - 1, "oversized prefix fills the buffer");

	amc_err_set(&e, AMC_EFAIL, "%s", big);
	amc_err_prefix(&e, "ctx");
	is_int(strlen(e.msg), AMC_ERR_MSG_MAX - 1, "prefix on a full message stays in bounds");
	ok(!strncmp(e.msg, "ctx: xxx", 8), "prefix stays at the start of a full message");

	/* A cut never leaves half a UTF-8 character. */
	char wide[4000] = "";
	size_t w = 0;
	while (w + 3 < sizeof wide - 1) {
		memcpy(wide + w, "\xe6\x97\xa5", 3); /* U+65E5 */
		w += 3;
	}
	wide[w] = '\0';
	for (int shift = 0; shift < 3; shift++) {
		char fmt_pre[4] = "";
		memset(fmt_pre, 'a', (size_t)shift);
		fmt_pre[shift] = '\0';
		amc_err_set(&e, AMC_EFAIL, "%s%s", fmt_pre, wide);
		ok(valid_utf8(e.msg) && strlen(e.msg) >= AMC_ERR_MSG_MAX - 4,
		   "set truncation keeps valid UTF-8 (offset %d)", shift);
		amc_err_set(&e, AMC_EFAIL, "%s", wide);
		amc_err_prefix(&e, "%s", fmt_pre[0] ? fmt_pre : "b");
		ok(valid_utf8(e.msg) && strlen(e.msg) >= AMC_ERR_MSG_MAX - 4,
		   "prefix truncation keeps valid UTF-8 (offset %d)", shift);
	}

	/* NULL err is tolerated everywhere. */
	is_int(amc_err_set(NULL, AMC_EFAIL, "x %d", 1), -1, "set(NULL) returns -1");
	is_int(amc_err_prefix(NULL, "ctx"), -1, "prefix(NULL) returns -1");
	amc_err_clear(NULL); /* no effect to see: a crash here fails the plan */

	/* Exit codes are the documented values. */
	is_int(AMC_EFAIL, 1, "AMC_EFAIL is 1");
	is_int(AMC_EUSAGE, 2, "AMC_EUSAGE is 2");
	is_int(AMC_EENV, 3, "AMC_EENV is 3");
	is_int(AMC_ECANCEL, 130, "AMC_ECANCEL is 130");
	return done_testing();
}

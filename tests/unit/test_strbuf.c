/* test_strbuf.c - amc_sb growth, printf, detach, reset and the x* helpers. */
#include <string.h>

#include "tap.h"
#include "util/strbuf.h"

int main(void)
{
	amc_sb sb;
	amc_sb_init(&sb);
	is_int(sb.len, 0, "init: empty");
	is_str(amc_sb_str(&sb), "", "str of an empty buffer is \"\"");

	/* Growth over many KB with appends of every size. */
	size_t want = 0;
	int content_ok = 1;
	for (int i = 0; i < 2000; i++) {
		char chunk[64];
		size_t n = (size_t)(i % 50) + 1;
		memset(chunk, 'a' + i % 26, n);
		amc_sb_append(&sb, chunk, n);
		want += n;
		if (sb.buf[sb.len] != '\0' || sb.len != want)
			content_ok = 0;
	}
	ok(content_ok, "append keeps len and NUL terminator through growth");
	is_int(sb.len, want, "total length after 2000 appends (%zu bytes)", want);
	ok(sb.cap > sb.len, "cap > len");
	ok(want > 40000, "grew over many KB");
	/* Check content: chunk i is (i%50)+1 copies of 'a'+i%26. */
	size_t at = 0;
	int bytes_ok = 1;
	for (int i = 0; i < 2000 && bytes_ok; i++) {
		size_t n = (size_t)(i % 50) + 1;
		for (size_t k = 0; k < n; k++)
			if (sb.buf[at + k] != 'a' + i % 26)
				bytes_ok = 0;
		at += n;
	}
	ok(bytes_ok, "content is exactly what was appended");

	/* reset keeps the buffer, empties the string. */
	size_t cap = sb.cap;
	amc_sb_reset(&sb);
	is_int(sb.len, 0, "reset: len 0");
	is_str(amc_sb_str(&sb), "", "reset: empty string");
	is_int(sb.cap, cap, "reset keeps capacity");

	/* puts / putc / printf short. */
	amc_sb_puts(&sb, "hello");
	amc_sb_putc(&sb, ' ');
	amc_sb_printf(&sb, "%s #%d %.2f", "world", 7, 1.5);
	is_str(amc_sb_str(&sb), "hello world #7 1.50", "puts/putc/printf compose");
	amc_sb_append(&sb, "", 0);
	is_str(amc_sb_str(&sb), "hello world #7 1.50", "empty append changes nothing");

	/* printf longer than the 256-byte fast path. */
	amc_sb_reset(&sb);
	char big[3000];
	memset(big, 'q', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	amc_sb_puts(&sb, "<");
	amc_sb_printf(&sb, "%s|%d|%s", big, 12345, "end");
	is_int(sb.len, 1 + 2999 + 1 + 5 + 1 + 3, "long printf: length");
	ok(sb.buf[0] == '<' && sb.buf[1] == 'q' && sb.buf[2999] == 'q', "long printf: start intact");
	ok(!strcmp(sb.buf + 1 + 2999, "|12345|end"), "long printf: tail formatted");
	ok(sb.buf[sb.len] == '\0', "long printf: NUL terminated");
	/* Exactly at the fast-path boundary. */
	for (size_t n = 253; n <= 258; n++) {
		amc_sb t;
		amc_sb_init(&t);
		amc_sb_printf(&t, "%.*s", (int)n, big);
		ok(t.len == n && strlen(amc_sb_str(&t)) == n, "printf of %zu chars", n);
		amc_sb_free(&t);
	}
	/* Many printfs growing past several KB. */
	amc_sb_reset(&sb);
	for (int i = 0; i < 3000; i++)
		amc_sb_printf(&sb, "%04d,", i);
	is_int(sb.len, 3000 * 5, "3000 printfs: length");
	ok(!strncmp(sb.buf, "0000,0001,", 10) && !strcmp(sb.buf + sb.len - 5, "2999,"), "3000 printfs: content");

	/* Appending a piece of the buffer to itself, with growth (fresh buffer, so
	 * every doubling reallocates). */
	amc_sb_free(&sb);
	amc_sb_puts(&sb, "abc");
	for (int i = 0; i < 12; i++)
		amc_sb_append(&sb, sb.buf, sb.len);
	is_int(sb.len, 3 * 4096, "self-append doubles 12 times");
	int self_ok = 1;
	for (size_t i = 0; i < sb.len; i++)
		if (sb.buf[i] != "abc"[i % 3])
			self_ok = 0;
	ok(self_ok, "self-append content is intact");
	amc_sb_free(&sb);
	amc_sb_printf(&sb, "%.300s", big);
	ok(sb.cap < 602, "buffer must grow for the next printf");
	amc_sb_printf(&sb, "[%s]", sb.buf);
	is_int(sb.len, 602, "printf of the buffer's own text");
	ok(sb.buf[300] == '[' && sb.buf[601] == ']' && sb.buf[599] == 'q', "printf of own text: content");

	/* detach hands over the buffer and leaves an empty sb. */
	amc_sb_reset(&sb);
	amc_sb_puts(&sb, "detached");
	char *d = amc_sb_detach(&sb);
	is_str(d, "detached", "detach returns the content");
	ok(sb.buf == NULL && sb.len == 0 && sb.cap == 0, "detach leaves the sb empty");
	free(d);
	d = amc_sb_detach(&sb);
	ok(d != NULL && d[0] == '\0', "detach of an empty sb returns \"\"");
	free(d);
	amc_sb_puts(&sb, "reuse");
	is_str(amc_sb_str(&sb), "reuse", "sb reusable after detach");
	amc_sb_free(&sb);
	ok(sb.buf == NULL && sb.len == 0, "free resets");
	amc_sb_free(&sb);
	ok(sb.buf == NULL && sb.len == 0 && sb.cap == 0, "a second free leaves the sb empty");
	amc_sb_puts(&sb, "again");
	is_str(amc_sb_str(&sb), "again", "and usable");
	amc_sb_free(&sb);

	/* x* helpers. */
	ok(amc_xstrdup(NULL) == NULL, "xstrdup(NULL) is NULL");
	char *s = amc_xstrdup("copy");
	is_str(s, "copy", "xstrdup copies");
	free(s);
	s = amc_xstrndup("abcdef", 3);
	is_str(s, "abc", "xstrndup cuts at n");
	free(s);
	s = amc_xstrndup("ab", 10);
	is_str(s, "ab", "xstrndup stops at the NUL");
	free(s);
	void *p = amc_xmalloc(0);
	ok(p != NULL, "xmalloc(0) is not NULL");
	p = amc_xrealloc(p, 100000);
	ok(p != NULL, "xrealloc grows");
	free(p);
	int *z = amc_xcalloc(100, sizeof *z);
	int zero = 1;
	for (int i = 0; i < 100; i++)
		if (z[i])
			zero = 0;
	ok(zero, "xcalloc zeroes");
	free(z);
	return done_testing();
}

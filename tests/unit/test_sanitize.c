/* test_sanitize.c - terminal safety of untrusted text: a hostile corpus, exact
 * outputs for known cases, UTF-8 decoding and a random fuzz. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* Strict UTF-8 check (no overlongs, no surrogates, <= U+10FFFF). */
static int valid_utf8(const unsigned char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned c = s[i];
		size_t n;
		unsigned cp, min;
		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xE0) == 0xC0) {
			n = 2; cp = c & 0x1F; min = 0x80;
		} else if ((c & 0xF0) == 0xE0) {
			n = 3; cp = c & 0x0F; min = 0x800;
		} else if ((c & 0xF8) == 0xF0) {
			n = 4; cp = c & 0x07; min = 0x10000;
		} else {
			return 0;
		}
		if (i + n > len)
			return 0;
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
		i += n;
	}
	return 1;
}

/* Code points that must never come out. */
static int forbidden_cp(unsigned cp, int multiline)
{
	if (cp == '\n')
		return !multiline;
	return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
	       (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200E || cp == 0x200F || cp == 0x061C || cp == 0x2028 || cp == 0x2029 ||
	       cp == 0xFEFF;
}

/* Returns NULL when safe, else a reason. */
static const char *unsafe(const amc_sb *out, int multiline)
{
	const unsigned char *s = (const unsigned char *)out->buf;
	size_t len = out->len;
	if (!s)
		return "NULL buffer";
	if (strlen(out->buf) != len)
		return "NUL byte in output";
	if (!valid_utf8(s, len))
		return "invalid UTF-8";
	for (size_t i = 0; i < len; i++) {
		if (s[i] < 0x20 && !(multiline && s[i] == '\n'))
			return "byte < 0x20";
		if (s[i] == 0x7F)
			return "DEL byte";
		if (s[i] == 0xC2 && i + 1 < len && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F)
			return "C1 control C2 80..9F";
		if (s[i] == 0xE2 && i + 2 < len && s[i + 1] == 0x80 && s[i + 2] >= 0xAA && s[i + 2] <= 0xAE)
			return "bidi embedding/override E2 80 AA..AE";
		if (s[i] == 0xE2 && i + 2 < len && s[i + 1] == 0x81 && s[i + 2] >= 0xA6 && s[i + 2] <= 0xA9)
			return "bidi isolate E2 81 A6..A9";
	}
	/* Decode and check every code point too. */
	size_t i = 0;
	while (i < len) {
		unsigned cp;
		size_t n = amc_utf8_decode(s + i, len - i, &cp);
		if (forbidden_cp(cp, multiline))
			return "forbidden code point";
		i += n;
	}
	return NULL;
}

struct hostile {
	const char *name;
	const char *bytes;
	size_t len; /* 0: strlen */
};

static const struct hostile CORPUS[] = {
	{ "CSI SGR", "\x1b[31mred\x1b[0m", 0 },
	{ "CSI clear screen", "a\x1b[2J\x1b[Hb", 0 },
	{ "CSI cursor up + erase line", "ok\x1b[1A\x1b[2Kforged", 0 },
	{ "OSC 52 clipboard (BEL)", "\x1b]52;c;ZWNobyBwd25lZA==\x07", 0 },
	{ "OSC 52 clipboard (ST)", "\x1b]52;c;ZWNobyBwd25lZA==\x1b\\", 0 },
	{ "OSC 8 hyperlink", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", 0 },
	{ "OSC title", "\x1b]0;pwned\x07", 0 },
	{ "DCS", "\x1bP1$r\x1b\\", 0 },
	{ "C1 CSI as UTF-8 (C2 9B)", "\xc2\x9b" "31mred", 0 },
	{ "C1 OSC as UTF-8 (C2 9D)", "\xc2\x9d" "52;c;x\xc2\x9c", 0 },
	{ "C1 NEL (C2 85)", "a\xc2\x85" "b", 0 },
	{ "C1 raw byte 0x9B", "\x9b" "31mred", 0 },
	{ "C1 raw bytes 0x80..0x9F", "\x80\x81\x8d\x8e\x8f\x90\x9b\x9c\x9d\x9e\x9f", 0 },
	{ "bidi RLO U+202E", "abc\xe2\x80\xae" "fdp.exe", 0 },
	{ "bidi LRE..RLO U+202A..202E", "\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad\xe2\x80\xae", 0 },
	{ "bidi isolates U+2066..2069", "\xe2\x81\xa6" "a\xe2\x81\xa7" "b\xe2\x81\xa8" "c\xe2\x81\xa9", 0 },
	{ "bidi marks LRM RLM ALM", "\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", 0 },
	{ "line/paragraph separators", "a\xe2\x80\xa8" "b\xe2\x80\xa9" "c", 0 },
	{ "BOM / ZWNBSP", "\xef\xbb\xbfhi", 0 },
	{ "BEL", "ding\x07\x07", 0 },
	{ "DEL", "rub\x7fout", 0 },
	{ "backspace overprint", "safe\b\b\b\bevil", 0 },
	{ "CR overwrite", "innocent\rEVIL", 0 },
	{ "CRLF", "line1\r\nline2\r\n", 0 },
	{ "all C0", "\x01\x02\x03\x04\x05\x06\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f", 0 },
	{ "NUL in the middle", "before\0\x1b[2Jafter", 16 },
	{ "only NULs", "\0\0\0", 3 },
	{ "overlong '/' (C0 AF)", "\xc0\xaf", 0 },
	{ "overlong ESC (C0 9B)", "\xc0\x9b", 0 },
	{ "overlong ESC 3 bytes (E0 80 9B)", "\xe0\x80\x9b[2J", 0 },
	{ "overlong C1 CSI (E0 82 9B)", "\xe0\x82\x9b", 0 },
	{ "overlong 4 bytes (F0 80 80 9B)", "\xf0\x80\x80\x9b", 0 },
	{ "overlong NUL (C0 80)", "a\xc0\x80" "b", 0 },
	{ "surrogate high (ED A0 80)", "\xed\xa0\x80", 0 },
	{ "surrogate low (ED BF BF)", "\xed\xbf\xbf", 0 },
	{ "surrogate pair as CESU-8", "\xed\xa0\xbd\xed\xb8\x80", 0 },
	{ "above U+10FFFF (F4 90 80 80)", "\xf4\x90\x80\x80", 0 },
	{ "F5..FF lead bytes", "\xf5\x80\x80\x80\xf8\x88\x80\x80\x80\xfc\xfe\xff", 0 },
	{ "truncated 2-byte at end", "abc\xc3", 0 },
	{ "truncated 3-byte at end", "abc\xe6\x97", 0 },
	{ "truncated 4-byte at end", "abc\xf0\x9f\x98", 0 },
	{ "truncated then ESC", "\xe6\x97\x1b[31m", 0 },
	{ "lone continuation bytes", "\x80\xbf\xa0", 0 },
	{ "lead byte then C1 byte", "\xc3\x9b", 0 },
	{ "ESC at the very end", "tail\x1b", 0 },
	{ "tab", "a\tb", 0 },
	{ "zero-length", "", 0 },
};

/* Over 120 lines: a TAP script, one check after the other over the cases
 * above; splitting it would only move the lines. */
int main(void)
{
	size_t ncorpus = sizeof CORPUS / sizeof CORPUS[0];
	for (size_t i = 0; i < ncorpus; i++) {
		const struct hostile *h = &CORPUS[i];
		size_t len = h->len ? h->len : strlen(h->bytes);
		for (int ml = 0; ml <= 1; ml++) {
			amc_sb out;
			amc_sb_init(&out);
			if (ml)
				amc_sanitize_text(h->bytes, len, &out);
			else
				amc_sanitize_line(h->bytes, len, &out);
			const char *why = unsafe(&out, ml);
			ok(!why, "%s: %s mode is safe%s%s", h->name, ml ? "text" : "line", why ? ": " : "",
			   why ? why : "");
			amc_sb_free(&out);
		}
	}

	/* Exact outputs: visible stand-ins, nothing disappears silently. */
	struct { const char *in; size_t len; const char *line; const char *text; } X[] = {
		{ "plain ASCII", 0, "plain ASCII", "plain ASCII" },
		{ "\x1b[31m", 0, "\xe2\x90\x9b[31m", "\xe2\x90\x9b[31m" },              /* ESC -> U+241B */
		{ "a\nb", 0, "a\\nb", "a\nb" },
		{ "a\tb", 0, "a b", "a b" },
		{ "a\rb", 0, "a\\rb", "ab" },
		{ "x\x7fy", 0, "x\xe2\x90\xa1y", "x\xe2\x90\xa1y" },                    /* DEL -> U+2421 */
		{ "x\x07y", 0, "x\xe2\x90\x87y", "x\xe2\x90\x87y" },                    /* BEL -> U+2407 */
		{ "a\0b", 3, "a\xe2\x90\x80" "b", "a\xe2\x90\x80" "b" },                /* NUL -> U+2400 */
		{ "\xc2\x9b", 0, "\xef\xbf\xbd", "\xef\xbf\xbd" },                      /* C1 -> U+FFFD */
		{ "\x9b", 0, "\xef\xbf\xbd", "\xef\xbf\xbd" },
		{ "\xe2\x80\xae", 0, "\xef\xbf\xbd", "\xef\xbf\xbd" },
		{ "\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd", "\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "ab\xe6\x97", 0, "ab\xef\xbf\xbd\xef\xbf\xbd", "ab\xef\xbf\xbd\xef\xbf\xbd" },
		/* Valid wide characters are preserved byte for byte. */
		{ "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 0, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e" },
		{ "\xf0\x9f\x98\x80 \xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd", 0, "\xf0\x9f\x98\x80 \xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd",
		  "\xf0\x9f\x98\x80 \xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd" },
		{ "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9", 0, "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9",
		  "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9" },                    /* ZWJ sequence kept */
		{ "caf\xc3\xa9 \xd0\x9f\xd1\x80\xd0\xb8 \xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a", 0,
		  "caf\xc3\xa9 \xd0\x9f\xd1\x80\xd0\xb8 \xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a",
		  "caf\xc3\xa9 \xd0\x9f\xd1\x80\xd0\xb8 \xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a" },
		{ "\xc2\xa0\xc2\xa9", 0, "\xc2\xa0\xc2\xa9", "\xc2\xa0\xc2\xa9" },      /* U+00A0, U+00A9 are fine */
		{ "\xf4\x8f\xbf\xbf", 0, "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf" },      /* U+10FFFF kept */
		{ "", 0, "", "" },
	};
	for (size_t i = 0; i < sizeof X / sizeof X[0]; i++) {
		size_t len = X[i].len ? X[i].len : strlen(X[i].in);
		amc_sb a, b;
		amc_sb_init(&a);
		amc_sb_init(&b);
		amc_sanitize_line(X[i].in, len, &a);
		amc_sanitize_text(X[i].in, len, &b);
		ok(a.buf && a.len == strlen(X[i].line) && !memcmp(a.buf, X[i].line, a.len), "exact line output #%zu", i);
		ok(b.buf && b.len == strlen(X[i].text) && !memcmp(b.buf, X[i].text, b.len), "exact text output #%zu", i);
		amc_sb_free(&a);
		amc_sb_free(&b);
	}

	/* Output appends to what the buffer held. */
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "pre:");
	amc_sanitize_line("\x1b", 1, &sb);
	is_str(amc_sb_str(&sb), "pre:\xe2\x90\x9b", "sanitize appends");
	amc_sb_free(&sb);
	/* Empty input still gives a non-NULL buffer. */
	amc_sb_init(&sb);
	amc_sanitize_line("", 0, &sb);
	ok(sb.buf != NULL && sb.len == 0, "empty input: \"\" not NULL");
	amc_sb_free(&sb);

	char *d = amc_sanitize_dup("name\x1b]52;c;x\x07\n");
	ok(d && !strchr(d, 0x1b) && !strchr(d, 0x07) && !strchr(d, '\n'), "sanitize_dup is line mode and safe");
	free(d);
	d = amc_sanitize_dup(NULL);
	ok(d && d[0] == '\0', "sanitize_dup(NULL) is \"\"");
	free(d);

	/* A cut never splits a character (a quoted long value ends whole). */
	is_int((long)amc_utf8_cut("abc", 10), 3, "cut: a short string whole");
	is_int((long)amc_utf8_cut("abcdef", 4), 4, "cut: ASCII at max");
	is_int((long)amc_utf8_cut("a\xe5\xad\x98\xe5\x9c\xa8", 5), 4, "cut: back to the start of a 3-byte character");
	is_int((long)amc_utf8_cut("a\xe5\xad\x98\xe5\x9c\xa8", 3), 1, "cut: inside the first one");
	is_int((long)amc_utf8_cut("\xf0\x9f\x98\x80x", 2), 0, "cut: nothing of a split 4-byte character");
	{
		char cut[16];
		snprintf(cut, sizeof cut, "%.*s", (int)amc_utf8_cut("ab\xc3\xa9\xc3\xa9", 5), "ab\xc3\xa9\xc3\xa9");
		ok(amc_utf8_valid(cut), "cut: what is left is valid UTF-8");
	}

	/* Decoder. */
	unsigned cp;
	is_int(amc_utf8_decode((const unsigned char *)"A", 1, &cp), 1, "decode ASCII: 1 byte");
	is_int(cp, 'A', "decode ASCII: value");
	is_int(amc_utf8_decode((const unsigned char *)"\xc3\xa9", 2, &cp), 2, "decode 2 bytes");
	is_int(cp, 0xE9, "decode U+00E9");
	is_int(amc_utf8_decode((const unsigned char *)"\xe6\x97\xa5", 3, &cp), 3, "decode 3 bytes");
	is_int(cp, 0x65E5, "decode U+65E5");
	is_int(amc_utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", 4, &cp), 4, "decode 4 bytes");
	is_int(cp, 0x1F600, "decode U+1F600");
	is_int(amc_utf8_decode((const unsigned char *)"\xf0\x9f\x98\x80", 3, &cp), 1, "len-limited: truncated consumes 1");
	is_int(cp, 0xFFFD, "len-limited: U+FFFD");
	is_int(amc_utf8_decode((const unsigned char *)"\xe0\x80\xaf", 3, &cp), 1, "overlong consumes 1");
	is_int(cp, 0xFFFD, "overlong: U+FFFD");
	is_int(amc_utf8_decode((const unsigned char *)"\xed\xb0\x80", 3, &cp), 1, "surrogate consumes 1");
	is_int(cp, 0xFFFD, "surrogate: U+FFFD");
	is_int(amc_utf8_decode((const unsigned char *)"\xff", 1, &cp), 1, "0xFF consumes 1");
	ok(amc_utf8_valid("") && amc_utf8_valid("Ada \xc3\xa9\xe6\x97\xa5\xf0\x9f\x98\x80"), "valid UTF-8 is valid");
	ok(amc_utf8_valid("a \xef\xbf\xbd b"), "U+FFFD written as such is valid");
	ok(!amc_utf8_valid("a\xff") && !amc_utf8_valid("\xc3") && !amc_utf8_valid("\xed\xb0\x80") &&
	   !amc_utf8_valid("\xe0\x80\xaf"), "a stray byte, a cut sequence, a surrogate, an overlong form are not");
	is_int(cp, 0xFFFD, "0xFF: U+FFFD");

	/* Encode/decode round trip over every scalar value. */
	int rt = 1;
	for (unsigned c = 0; c <= 0x10FFFF; c++) {
		if (c >= 0xD800 && c <= 0xDFFF)
			continue;
		amc_sb e;
		amc_sb_init(&e);
		amc_utf8_encode(c, &e);
		unsigned back;
		size_t n = amc_utf8_decode((const unsigned char *)e.buf, e.len, &back);
		if (n != e.len || back != c || !valid_utf8((const unsigned char *)e.buf, e.len)) {
			if (rt)
				diag("round trip failed at U+%04X", c);
			rt = 0;
		}
		amc_sb_free(&e);
		if (!rt)
			break;
	}
	ok(rt, "encode/decode round trip for all scalar values");

	/* Fuzz: random bytes biased towards the dangerous ones. */
	static const unsigned char spice[] = { 0x00, 0x07, 0x08, 0x0a, 0x0d, 0x1b, 0x7f, 0x80, 0x9b, 0x9d,
		0xc0, 0xc1, 0xc2, 0xe0, 0xe2, 0xed, 0xf0, 0xf4, 0xf5, 0xff, 0x80, 0x81, 0xa6, 0xae, '[', ']' };
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	int fuzz_ok = 1;
	for (int iter = 0; iter < 20000 && fuzz_ok; iter++) {
		unsigned char in[64];
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		size_t len = (size_t)(x % sizeof in);
		for (size_t i = 0; i < len; i++) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			in[i] = (x & 1) ? spice[(x >> 8) % sizeof spice] : (unsigned char)(x >> 16);
		}
		for (int ml = 0; ml <= 1; ml++) {
			amc_sb out;
			amc_sb_init(&out);
			if (ml)
				amc_sanitize_text((const char *)in, len, &out);
			else
				amc_sanitize_line((const char *)in, len, &out);
			const char *why = unsafe(&out, ml);
			if (why) {
				diag("fuzz case %d (%s mode): %s", iter, ml ? "text" : "line", why);
				fuzz_ok = 0;
			}
			amc_sb_free(&out);
		}
	}
	ok(fuzz_ok, "20000 random inputs all come out safe in both modes");
	return done_testing();
}

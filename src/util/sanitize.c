#include "util/sanitize.h"

#include <string.h>

size_t amc_utf8_decode(const unsigned char *s, size_t len, unsigned *cp)
{
	unsigned c = s[0];
	size_t need;
	unsigned min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xE0) == 0xC0) {
		need = 2; min = 0x80; c &= 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		need = 3; min = 0x800; c &= 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		need = 4; min = 0x10000; c &= 0x07;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	if (len < need) {
		*cp = 0xFFFD;
		return 1;
	}
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xC0) != 0x80) {
			*cp = 0xFFFD;
			return 1;
		}
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
		*cp = 0xFFFD;
		return 1;
	}
	*cp = c;
	return need;
}

void amc_utf8_encode(unsigned cp, amc_sb *out)
{
	char b[4];
	if (cp < 0x80) {
		b[0] = (char)cp;
		amc_sb_append(out, b, 1);
	} else if (cp < 0x800) {
		b[0] = (char)(0xC0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3F));
		amc_sb_append(out, b, 2);
	} else if (cp < 0x10000) {
		b[0] = (char)(0xE0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (char)(0x80 | (cp & 0x3F));
		amc_sb_append(out, b, 3);
	} else {
		b[0] = (char)(0xF0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[3] = (char)(0x80 | (cp & 0x3F));
		amc_sb_append(out, b, 4);
	}
}

/* Characters that reorder or hide text: bidi embeddings, overrides, isolates and
 * marks, plus zero-width and line/paragraph separators that some terminals treat
 * as line breaks. */
static int is_format_control(unsigned cp)
{
	return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200E || cp == 0x200F || cp == 0x061C || cp == 0x2028 || cp == 0x2029 ||
	       cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB);
}

static void sanitize(const char *in, size_t len, amc_sb *out, int multiline)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t i = 0;
	while (i < len) {
		unsigned cp;
		size_t n = amc_utf8_decode(s + i, len - i, &cp);
		i += n;
		if (cp == '\n') {
			if (multiline)
				amc_sb_putc(out, '\n');
			else
				amc_sb_puts(out, "\\n");
		} else if (cp == '\t') {
			amc_sb_putc(out, ' ');
		} else if (cp == '\r') {
			if (!multiline)
				amc_sb_puts(out, "\\r");
		} else if (cp < 0x20 || cp == 0x7F) {
			/* Control Pictures block: visible and never interpreted. */
			amc_utf8_encode(cp == 0x7F ? 0x2421 : 0x2400 + cp, out);
		} else if ((cp >= 0x80 && cp <= 0x9F) || is_format_control(cp)) {
			amc_utf8_encode(0xFFFD, out);
		} else {
			amc_utf8_encode(cp, out);
		}
	}
	if (!out->buf)
		amc_sb_append(out, "", 0);
}

void amc_sanitize_line(const char *in, size_t len, amc_sb *out)
{
	sanitize(in, len, out, 0);
}

void amc_sanitize_text(const char *in, size_t len, amc_sb *out)
{
	sanitize(in, len, out, 1);
}

char *amc_sanitize_dup(const char *in)
{
	amc_sb sb;
	amc_sb_init(&sb);
	if (in)
		amc_sanitize_line(in, strlen(in), &sb);
	return amc_sb_detach(&sb);
}

int amc_utf8_valid(const char *s)
{
	size_t len = strlen(s);
	for (size_t i = 0; i < len;) {
		unsigned cp;
		size_t n = amc_utf8_decode((const unsigned char *)s + i, len - i, &cp);
		if (cp == 0xFFFD && !(n == 3 && !memcmp(s + i, "\xef\xbf\xbd", 3)))
			return 0;
		i += n;
	}
	return 1;
}

size_t amc_utf8_cut(const char *s, size_t max)
{
	size_t len = strlen(s);
	if (len <= max)
		return len;
	size_t n = max;
	/* back off the continuation bytes of the character that would be split */
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return n;
}

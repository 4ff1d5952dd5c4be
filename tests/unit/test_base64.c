/* test_base64.c - util/base64.c: RFC 4648's test vectors, high bytes, and the
 * append form into a buffer that already holds text. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/base64.h"

int main(void)
{
	const char *in[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	const char *out[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	for (int i = 0; i < 7; i++) {
		char *b = amc_base64_encode(in[i], strlen(in[i]));
		is_str(b, out[i], "base64 \"%s\"", in[i]);
		free(b);
	}
	unsigned char all[3] = { 0xff, 0xfe, 0x00 };
	char *b = amc_base64_encode(all, 3);
	is_str(b, "//4A", "base64 of high bytes");
	free(b);
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "data:image/png;base64,");
	amc_base64_append(&sb, "foobar", 6);
	is_str(amc_sb_str(&sb), "data:image/png;base64,Zm9vYmFy", "appended after what the buffer holds");
	amc_sb_free(&sb);
	return done_testing();
}

/* test_roff.c - amc_roff_put: what roff would read as a request or an escape
 * is escaped, the rest passes as it is. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/roff.h"

static char *roff(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	amc_roff_put(f, s, strlen(s));
	fclose(f);
	return buf;
}

static void is_roff(const char *in, const char *want, const char *name)
{
	char *got = roff(in);
	is_str(got, want, name);
	free(got);
}

int main(void)
{
	is_roff("plain text", "plain text", "plain text passes");
	is_roff(".SH not a request", "\\&.SH not a request", "a leading '.' is not a request");
	is_roff("'quote", "\\&'quote", "nor a leading '\\''");
	is_roff("a.b 'c'", "a.b 'c'", "inside a line they stay");
	is_roff("--max-steps", "\\-\\-max\\-steps", "dashes are \\-");
	is_roff("C:\\path", "C:\\epath", "a backslash is \\e");
	is_roff("", "", "nothing stays nothing");
	char *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);
	amc_roff_put(f, "ab-cd", 3);
	fclose(f);
	is_str(got, "ab\\-", "only n bytes are written");
	free(got);
	return done_testing();
}

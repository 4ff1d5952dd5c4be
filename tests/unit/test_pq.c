/* test_pq.c - fleet/pq.c without a server: URLs are shown with their
 * password redacted in every form libpq takes, a connection that cannot be
 * made fails within its bound with a message that names the redacted URL. */
#include <string.h>

#include "fleet/pq.h"
#include "tap.h"
#include "util/clock.h"

static void red(const char *in, const char *want)
{
	char out[512];
	amc_pq_redact(in, out, sizeof out);
	is_str(out, want, "redact %s", want);
}

int main(void)
{
	red("postgresql://amc:s3cret@db:5432/fleet", "postgresql://amc:***@db:5432/fleet");
	red("postgres://amc@db/fleet", "postgres://amc@db/fleet");
	red("postgresql://db/fleet?user=amc&password=s3cret&sslmode=verify-full",
	    "postgresql://db/fleet?user=amc&password=***&sslmode=verify-full");
	red("host=db password=s3cret dbname=fleet", "host=db password=*** dbname=fleet");
	red("host=db PASSWORD = 's3 cret\\'x' dbname=fleet", "host=db PASSWORD = *** dbname=fleet");
	red("host=/tmp/x user=amc", "host=/tmp/x user=amc");
	char out[16];
	amc_pq_redact("postgresql://amc:s3cret@a-very-long-host-name/fleet", out, sizeof out);
	ok(strlen(out) < sizeof out && !strstr(out, "s3cret"), "a short buffer is cut, never overflows");
	amc_pq_redact("host=db\x1b[2Jpassword=x", out, sizeof out);
	ok(!strchr(out, 0x1b), "control bytes do not survive");

	amc_err e;
	PGconn *c;
	long long t0 = amc_mono_ms();
	int rc = amc_pq_connect("postgresql://amc:s3cret@/fleet?host=/nonexistent-amc-socket-dir", 2000, &c, &e);
	is_int(rc, -1, "no server: the connection fails");
	ok(amc_mono_ms() - t0 < 3000, "within its bound");
	is_int(e.code, AMC_EENV, "as an environment error");
	ok(!strstr(e.msg, "s3cret"), "the message has no password");
	like(e.msg, "amc:***@", "and names the redacted URL");
	char longurl[AMC_PQ_URL_MAX + 10];
	memset(longurl, 'a', sizeof longurl - 1);
	longurl[sizeof longurl - 1] = 0;
	ok(amc_pq_connect(longurl, 100, &c, &e) == -1, "an over-long URL is refused");
	return done_testing();
}

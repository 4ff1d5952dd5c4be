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
	/* fleet.require_tls: the decision on many conninfo shapes. */
	const char *m;
	static const struct {
		const char *url, *env_host, *env_service, *env_ssl;
		int rc;
		const char *mode;
	} tc[] = {
		{ "postgresql:///fleet", NULL, NULL, NULL, 0, NULL },
		{ "postgresql:///fleet?host=/run/postgresql", NULL, NULL, NULL, 0, NULL },
		{ "host=localhost dbname=fleet", NULL, NULL, NULL, 0, NULL },
		{ "postgresql://127.0.0.1:5433/fleet", NULL, NULL, NULL, 0, NULL },
		{ "postgresql://[::1]/fleet", NULL, NULL, NULL, 0, NULL },
		{ "postgresql://db.example.org/fleet", NULL, NULL, NULL, 0, "require" },
		{ "host=10.0.0.5 dbname=fleet", NULL, NULL, NULL, 0, "require" },
		{ "postgresql://db.example.org/fleet?sslmode=prefer", NULL, NULL, NULL, -1, NULL },
		{ "host=db sslmode=disable", NULL, NULL, NULL, -1, NULL },
		{ "host=db sslmode=allow", NULL, NULL, NULL, -1, NULL },
		{ "postgresql://db/fleet?sslmode=verify-full", NULL, NULL, NULL, 0, NULL },
		{ "host=db sslmode=verify-ca", NULL, NULL, NULL, 0, NULL },
		{ "postgresql://localhost,db2.example.org/fleet", NULL, NULL, NULL, 0, "require" },
		{ "postgresql://localhost,127.0.0.1/fleet", NULL, NULL, NULL, 0, NULL },
		{ "postgresql://h1,h2/fleet?sslmode=prefer", NULL, NULL, NULL, -1, NULL },
		{ "dbname=fleet", "db.example.org", NULL, NULL, 0, "require" },
		{ "dbname=fleet", "db.example.org", NULL, "prefer", -1, NULL },
		{ "dbname=fleet", "db.example.org", NULL, "verify-full", 0, NULL },
		{ "dbname=fleet", "/tmp", NULL, "disable", 0, NULL },
		{ "service=fleet", NULL, NULL, NULL, 0, "require" },
		{ "dbname=fleet", NULL, "fleet", NULL, 0, "require" },
		{ "service=fleet host=/tmp", NULL, NULL, NULL, 0, NULL },
		{ "host=localhost hostaddr=10.1.2.3", NULL, NULL, NULL, 0, "require" },
		{ "host=127.0.0.1.evil.example", NULL, NULL, NULL, 0, "require" },
		{ "host=localhost.evil.example", NULL, NULL, NULL, 0, "require" },
	};
	for (size_t i = 0; i < sizeof tc / sizeof tc[0]; i++) {
		int r = amc_pq_tls_decide(tc[i].url, 1, tc[i].env_host, tc[i].env_service, tc[i].env_ssl, &m, &e);
		ok(r == tc[i].rc && (tc[i].mode ? m && !strcmp(m, tc[i].mode) : !m), "require_tls on %s (PGHOST %s PGSSLMODE %s)",
		   tc[i].url, tc[i].env_host ? tc[i].env_host : "-", tc[i].env_ssl ? tc[i].env_ssl : "-");
		if (r != 0)
			like(e.msg, "fleet.require_tls", "the refusal names fleet.require_tls");
	}
	ok(amc_pq_tls_decide("host=db sslmode=disable", 0, NULL, NULL, NULL, &m, &e) == 0 && !m,
	   "require_tls off: the URL's choice stands");
	amc_pq_set_require_tls(1);
	t0 = amc_mono_ms();
	ok(amc_pq_connect("postgresql://db.invalid/fleet?sslmode=prefer", 2000, &c, &e) == -1 &&
		   strstr(e.msg, "fleet.require_tls") && amc_mono_ms() - t0 < 500,
	   "amc_pq_connect refuses before any packet leaves: %s", e.msg);
	char longurl[AMC_PQ_URL_MAX + 10];
	memset(longurl, 'a', sizeof longurl - 1);
	longurl[sizeof longurl - 1] = 0;
	ok(amc_pq_connect(longurl, 100, &c, &e) == -1, "an over-long URL is refused");
	return done_testing();
}

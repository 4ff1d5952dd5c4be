/* test_pq.c - fleet/pq.c without a server: URLs are shown with their
 * password redacted in every form libpq takes, a connection that cannot be
 * made fails within its bound with a message that names the redacted URL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet/pq.h"
#include "tap.h"
#include "util/clock.h"

static void red(const char *in, const char *want)
{
	char out[512];
	amc_pq_redact(in, out, sizeof out);
	is_str(out, want, "redact %s", want);
}

/* fleet.require_tls: the sslmode decided before connecting. want: "" no
 * change, "require" forced, "!" refused; off: the host is not local. */
static void plan(const char *url, int require, const char *want, int off)
{
	char force[16];
	int offhost = -1;
	amc_err e;
	amc_err_clear(&e);
	int rc = amc_pq_tls_plan(url, require, force, sizeof force, &offhost, &e);
	if (!strcmp(want, "!")) {
		is_int(rc, -1, "refused: %s", url);
		like(e.msg, "fleet.require_tls", "naming the setting: %s", url);
		return;
	}
	is_int(rc, 0, "allowed: %s", url);
	is_str(force, want, "sslmode forced to '%s': %s", want, url);
	is_int(offhost, off, "off-host %d: %s", off, url);
}

static void tls_plans(void)
{
	unsetenv("PGHOST");
	unsetenv("PGHOSTADDR");
	unsetenv("PGSSLMODE");
	unsetenv("PGSERVICE");
	/* local: Unix sockets and loopback stay as they are */
	plan("postgresql:///fleet?host=/tmp/sock&port=5432", 1, "", 0);
	plan("dbname=fleet", 1, "", 0);
	plan("postgresql://localhost/fleet", 1, "", 0);
	plan("postgresql://127.0.0.1:5432/fleet", 1, "", 0);
	plan("postgresql://[::1]:5432/fleet", 1, "", 0);
	plan("host=@abstract dbname=fleet", 1, "", 0);
	plan("postgresql://localhost/fleet?sslmode=disable", 1, "", 0);
	/* off-host: prefer or nothing becomes require; disable/allow refused */
	plan("postgresql://db.example.com/fleet", 1, "require", 1);
	plan("postgresql://amc:pw@db.example.com:5432/fleet?sslmode=prefer", 1, "require", 1);
	plan("postgresql://db.example.com/fleet?sslmode=require", 1, "", 1);
	plan("postgresql://db.example.com/fleet?sslmode=verify-full&sslrootcert=/x/ca.crt", 1, "", 1);
	plan("postgresql://db.example.com/fleet?sslmode=verify-ca", 1, "", 1);
	plan("postgresql://db.example.com/fleet?sslmode=disable", 1, "!", 1);
	plan("postgresql://db.example.com/fleet?sslmode=allow", 1, "!", 1);
	plan("host=10.1.2.3 dbname=fleet", 1, "require", 1);
	plan("host=127.0.0.1.example.com dbname=fleet", 1, "require", 1);
	/* multi-host: one remote entry is enough */
	plan("postgresql://localhost:5432,db2.example.com:5433/fleet", 1, "require", 1);
	plan("host=/tmp/sock,db2 port=5432,5433 dbname=fleet", 1, "require", 1);
	plan("host=localhost,127.0.0.2 dbname=fleet", 1, "", 0);
	/* hostaddr is where libpq connects: a loopback name does not hide it */
	plan("host=localhost hostaddr=192.0.2.9 dbname=fleet", 1, "require", 1);
	/* off: nothing forced, nothing refused */
	plan("postgresql://db.example.com/fleet?sslmode=disable", 0, "", 1);
	plan("postgresql://db.example.com/fleet", 0, "", 1);
	/* the environment */
	setenv("PGHOST", "db.example.com", 1);
	plan("dbname=fleet", 1, "require", 1);
	plan("host=/tmp/sock dbname=fleet", 1, "", 0);
	setenv("PGSSLMODE", "verify-full", 1);
	plan("dbname=fleet", 1, "", 1);
	setenv("PGSSLMODE", "disable", 1);
	plan("dbname=fleet", 1, "!", 1);
	plan("dbname=fleet sslmode=require", 1, "", 1);
	unsetenv("PGSSLMODE");
	unsetenv("PGHOST");
	/* service files: PGSERVICE is read; a service named in the URL must say
	 * its sslmode in the URL */
	char dir[] = "/tmp/amc-pqsvc-XXXXXX";
	if (mkdtemp(dir)) {
		char path[96];
		snprintf(path, sizeof path, "%s/pg_service.conf", dir);
		FILE *f = fopen(path, "w");
		if (f) {
			fputs("[remote]\nhost=db.example.com\ndbname=fleet\n\n[strict]\nhost=db.example.com\n"
			      "sslmode=verify-full\n\n[local]\nhost=/tmp/sock\n", f);
			fclose(f);
		}
		setenv("PGSERVICEFILE", path, 1);
		setenv("PGSERVICE", "remote", 1);
		plan("dbname=fleet", 1, "require", 1);
		setenv("PGSERVICE", "strict", 1);
		plan("dbname=fleet", 1, "", 1);
		setenv("PGSERVICE", "local", 1);
		plan("dbname=fleet", 1, "", 0);
		unsetenv("PGSERVICE");
		plan("service=remote", 1, "!", 1);
		plan("postgresql:///fleet?service=remote&sslmode=verify-full", 1, "", 1);
		plan("service=remote host=/tmp/sock", 1, "", 0);
		unsetenv("PGSERVICEFILE");
		remove(path);
		rmdir(dir);
	}
	char force[16];
	int off;
	amc_err e;
	is_int(amc_pq_tls_plan("postgresql://db/fleet?nosuchkey=1", 1, force, sizeof force, &off, &e), -1,
	       "a URL libpq cannot parse is an error");
	/* the forced sslmode is what libpq will use: it wins over the URL's */
	PGconn *c = amc_pq_start("postgresql://192.0.2.1:1/fleet?sslmode=prefer&connect_timeout=1", &e);
	ok(c != NULL, "a connection is started");
	if (c) {
		PQconninfoOption *o = PQconninfo(c);
		const char *m = NULL;
		for (PQconninfoOption *p = o; p && p->keyword; p++)
			if (!strcmp(p->keyword, "sslmode"))
				m = p->val;
		is_str(m ? m : "", "require", "libpq's effective sslmode is require, set before connecting");
		PQconninfoFree(o);
		PQfinish(c);
	}
	amc_pq_set_require_tls(0);
	c = amc_pq_start("postgresql://192.0.2.1:1/fleet?sslmode=disable&connect_timeout=1", &e);
	ok(c != NULL, "with fleet.require_tls off plaintext is allowed");
	if (c)
		PQfinish(c);
	amc_pq_set_require_tls(1);
	ok(amc_pq_start("postgresql://192.0.2.1:1/fleet?sslmode=disable", &e) == NULL, "and refused again when on");
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
	tls_plans();
	return done_testing();
}

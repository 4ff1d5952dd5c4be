/* test_hostdb.c - the connection a fleet host's devices share
 * (host/hostdb.h), against a server that accepts and never answers (so
 * each statement holds the connection for its whole bound): every wait is
 * bounded (the caller's timeout includes the wait for the connection), and
 * a renewal that arrives after a claim is waiting still goes first. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "host/hostdb.h"
#include "tap.h"
#include "util/clock.h"

static amc_hostdb *db;
static long long t0;

typedef struct call {
	amc_hostdb_prio prio;
	int timeout_ms, start_ms;
	long long done_ms;
	int rc;
	amc_err e;
} call;

static void *run(void *arg)
{
	call *c = arg;
	struct timespec ts = { c->start_ms / 1000, (c->start_ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
	c->rc = amc_hostdb_exec(db, c->prio, "SELECT 1", 0, NULL, c->timeout_ms, NULL, &c->e);
	c->done_ms = amc_mono_ms() - t0;
	return NULL;
}

int main(void)
{
	/* a listener that never accepts: the kernel completes the handshake,
	 * libpq then waits for an answer that never comes */
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t al = sizeof a;
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 16) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &al) != 0) {
		printf("1..0 # SKIP no loopback socket\n");
		return 0;
	}
	char url[128];
	snprintf(url, sizeof url, "postgresql://amc@127.0.0.1:%d/fleet?sslmode=disable", ntohs(a.sin_port));
	db = amc_hostdb_new(url);
	t0 = amc_mono_ms();
	/* the holder (an end) takes the connection for 800 ms; claims wait
	 * from 50 ms (bound: until 2600 ms), a renewal from 250 ms (until 1350
	 * ms): the renewal goes next and holds it to 1350 ms, then a claim.
	 * Were a claim first, it would hold it to 2600 ms and the renewal
	 * would give up waiting ("stayed busy"). Wide margins: a loaded
	 * machine starts threads late. */
	/* (three claims wait, so that without priorities the renewal would
	 * rarely be the one woken first) */
	call calls[5] = { { AMC_HOSTDB_END, 800, 0, 0, 0, { 0 } },
			  { AMC_HOSTDB_CLAIM, 2550, 50, 0, 0, { 0 } },
			  { AMC_HOSTDB_RENEW, 1100, 250, 0, 0, { 0 } },
			  { AMC_HOSTDB_CLAIM, 2500, 100, 0, 0, { 0 } },
			  { AMC_HOSTDB_CLAIM, 2470, 130, 0, 0, { 0 } } };
	pthread_t th[5];
	for (int i = 0; i < 5; i++)
		pthread_create(&th[i], NULL, run, &calls[i]);
	for (int i = 0; i < 5; i++)
		pthread_join(th[i], NULL);
	ok(calls[0].rc != 0 && calls[0].e.code == AMC_EENV, "a statement to a server that does not answer fails (%s)",
	   calls[0].e.msg);
	ok(calls[0].done_ms >= 750 && calls[0].done_ms < 2500, "within its bound (%lld ms)", calls[0].done_ms);
	ok(calls[2].rc != 0 && calls[1].rc != 0, "so do the two waiting behind it");
	diag("end done at %lld ms, renewal at %lld ms, claim at %lld ms", calls[0].done_ms, calls[2].done_ms,
	     calls[1].done_ms);
	ok(!strstr(calls[2].e.msg, "stayed busy") && calls[2].done_ms < calls[1].done_ms,
	   "the renewal, which came after the claim, went first (%s)", calls[2].e.msg);
	int claims_ran = !strstr(calls[1].e.msg, "stayed busy") + !strstr(calls[3].e.msg, "stayed busy") +
			 !strstr(calls[4].e.msg, "stayed busy");
	ok(claims_ran >= 1, "then the claims (%d got the connection before their bound)", claims_ran);
	/* a caller that cannot get the connection in time fails by its own bound */
	call holder = { AMC_HOSTDB_CLAIM, 600, 0, 0, 0, { 0 } }, late = { AMC_HOSTDB_RENEW, 150, 50, 0, 0, { 0 } };
	t0 = amc_mono_ms();
	pthread_create(&th[0], NULL, run, &holder);
	pthread_create(&th[1], NULL, run, &late);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	ok(late.rc != 0 && late.done_ms < 450, "a caller whose bound passes while it waits gives up then (%lld ms)",
	   late.done_ms);
	like(late.e.msg, "stayed busy", "saying the connection stayed busy");
	amc_hostdb_stats st;
	amc_hostdb_get_stats(db, &st);
	ok(st.connects >= 4 && st.max_wait_ms[AMC_HOSTDB_CLAIM] >= 700, "the stats count connections and waits");
	amc_hostdb_free(db);
	close(fd);
	return done_testing();
}

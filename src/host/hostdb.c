/* hostdb.c - the connection a fleet host's slots share (see hostdb.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fleet/pq.h"
#include "host/hostdb.h"
#include "util/clock.h"
#include "util/strbuf.h"

struct amc_hostdb {
	char *url;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int busy;                       /* a caller holds the connection */
	int waiting[AMC_HOSTDB_NPRIO];  /* callers waiting, by priority */
	PGconn *pg;                     /* touched only by the holder */
	amc_hostdb_stats st;
};

amc_hostdb *amc_hostdb_new(const char *url)
{
	amc_hostdb *d = amc_xcalloc(1, sizeof *d);
	d->url = amc_xstrdup(url);
	pthread_mutex_init(&d->mu, NULL);
	pthread_cond_init(&d->cv, NULL);
	return d;
}

void amc_hostdb_free(amc_hostdb *d)
{
	if (!d)
		return;
	if (d->pg)
		PQfinish(d->pg);
	pthread_mutex_destroy(&d->mu);
	pthread_cond_destroy(&d->cv);
	free(d->url);
	free(d);
}

/* Nobody of a higher priority waits. Under mu. */
static int my_turn(const amc_hostdb *d, int prio)
{
	if (d->busy)
		return 0;
	for (int p = 0; p < prio; p++)
		if (d->waiting[p])
			return 0;
	return 1;
}

/* Take the connection by deadline (amc_mono_ms); 0 taken, -1 not in time. */
static int take(amc_hostdb *d, int prio, long long deadline)
{
	long long t0 = amc_mono_ms();
	pthread_mutex_lock(&d->mu);
	d->waiting[prio]++;
	int rc = 0;
	while (!my_turn(d, prio)) {
		long long left = deadline - amc_mono_ms();
		if (left <= 0) {
			rc = -1;
			break;
		}
		struct timespec ts;
		amc_timespec_after(CLOCK_REALTIME, left, &ts);
		pthread_cond_timedwait(&d->cv, &d->mu, &ts);
	}
	d->waiting[prio]--;
	if (rc == 0)
		d->busy = 1;
	double w = (double)(amc_mono_ms() - t0);
	if (w > d->st.max_wait_ms[prio])
		d->st.max_wait_ms[prio] = w;
	/* a caller that gave up may have been what held others back */
	pthread_cond_broadcast(&d->cv);
	pthread_mutex_unlock(&d->mu);
	return rc;
}

static void give(amc_hostdb *d)
{
	pthread_mutex_lock(&d->mu);
	d->busy = 0;
	pthread_cond_broadcast(&d->cv);
	pthread_mutex_unlock(&d->mu);
}

int amc_hostdb_exec(amc_hostdb *d, amc_hostdb_prio prio, const char *sql, int nparams,
		    const char *const *params, int timeout_ms, PGresult **res, amc_err *e)
{
	if (res)
		*res = NULL;
	if ((int)prio < 0 || prio >= AMC_HOSTDB_NPRIO)
		prio = AMC_HOSTDB_CLAIM;
	if (timeout_ms <= 0)
		timeout_ms = AMC_PQ_QUERY_TIMEOUT_MS;
	long long deadline = amc_mono_ms() + timeout_ms;
	if (take(d, prio, deadline) != 0)
		return amc_err_set(e, AMC_EENV, "the host's fleet database connection stayed busy for %d ms", timeout_ms);
	int rc = 0;
	long long left = deadline - amc_mono_ms();
	if (left < 1)
		left = 1;
	if (!d->pg || PQstatus(d->pg) != CONNECTION_OK) {
		if (d->pg)
			PQfinish(d->pg);
		d->pg = NULL;
		rc = amc_pq_connect(d->url, (int)(left < AMC_PQ_CONNECT_TIMEOUT_MS ? left : AMC_PQ_CONNECT_TIMEOUT_MS),
				    &d->pg, e);
		pthread_mutex_lock(&d->mu);
		d->st.connects++;
		pthread_mutex_unlock(&d->mu);
		left = deadline - amc_mono_ms();
		if (left < 1)
			left = 1;
	}
	if (rc == 0) {
		int broken = 0;
		rc = amc_pq_exec(d->pg, sql, nparams, params, (int)left, res, &broken, e);
		if (rc != 0 && broken) {
			PQfinish(d->pg);
			d->pg = NULL;
		}
		pthread_mutex_lock(&d->mu);
		d->st.statements++;
		pthread_mutex_unlock(&d->mu);
	}
	give(d);
	return rc;
}

void amc_hostdb_get_stats(amc_hostdb *d, amc_hostdb_stats *out)
{
	pthread_mutex_lock(&d->mu);
	*out = d->st;
	pthread_mutex_unlock(&d->mu);
}

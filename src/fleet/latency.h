/* latency.h - a latency summary a fleet host keeps (issue 26: claim and end
 * latencies in `amc fleet metrics`): a total count and sum since the host
 * started, and the most recent AMC_LATENCY_WINDOW samples for quantiles
 * (bounded memory however long the host runs). Not thread-safe: its owner
 * locks. */
#ifndef AMC_FLEET_LATENCY_H
#define AMC_FLEET_LATENCY_H

#include <stddef.h>

#define AMC_LATENCY_WINDOW 1024

typedef struct amc_latency {
	double win[AMC_LATENCY_WINDOW]; /* seconds, a ring */
	size_t nwin, pos;
	long long count;
	double sum;                     /* seconds */
} amc_latency;

void amc_latency_init(amc_latency *l);
/* One sample in seconds (negative or NaN ones are ignored). */
void amc_latency_add(amc_latency *l, double s);
/* Add src's samples, count and sum to dst (the host sums its slots). */
void amc_latency_merge(amc_latency *dst, const amc_latency *src);
/* The q-quantile (0..1) of the window by nearest rank; 0 when empty. */
double amc_latency_quantile(const amc_latency *l, double q);
/* {count, sum, p50, p90, p99} as a PostgreSQL array literal into buf. */
void amc_latency_literal(const amc_latency *l, char *buf, size_t n);

#endif

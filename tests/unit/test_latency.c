/* test_latency.c - fleet/latency.c: count and sum since start, quantiles
 * of the newest AMC_LATENCY_WINDOW samples, merging slots. */
#include <string.h>

#include "fleet/latency.h"
#include "tap.h"

int main(void)
{
	amc_latency l;
	amc_latency_init(&l);
	ok(amc_latency_quantile(&l, 0.5) == 0, "empty: 0");
	for (int i = 1; i <= 100; i++)
		amc_latency_add(&l, i / 1000.0);
	is_int(l.count, 100, "100 samples");
	ok(l.sum > 5.049 && l.sum < 5.051, "their sum (5.05 s)");
	ok(amc_latency_quantile(&l, 0.5) == 0.05, "p50 is the 50th");
	ok(amc_latency_quantile(&l, 0.99) == 0.099, "p99 the 99th");
	ok(amc_latency_quantile(&l, 1) == 0.1, "p100 the largest");
	amc_latency_add(&l, -1);
	amc_latency_add(&l, 0.0 / 0.0);
	is_int(l.count, 100, "negative and NaN samples are ignored");
	char buf[128];
	amc_latency_literal(&l, buf, sizeof buf);
	is_str(buf, "{100,5.050000,0.050000,0.090000,0.099000}", "as an array literal");
	/* the window: the newest samples only */
	amc_latency big;
	amc_latency_init(&big);
	for (int i = 0; i < 3 * AMC_LATENCY_WINDOW; i++)
		amc_latency_add(&big, i < 2 * AMC_LATENCY_WINDOW ? 10.0 : 0.001);
	is_int(big.count, 3 * AMC_LATENCY_WINDOW, "count keeps every sample");
	ok(amc_latency_quantile(&big, 0.99) == 0.001, "quantiles see only the newest window");
	/* merge */
	amc_latency m;
	amc_latency_init(&m);
	amc_latency_merge(&m, &l);
	amc_latency_merge(&m, &big);
	is_int(m.count, 100 + 3 * AMC_LATENCY_WINDOW, "a merge adds the counts");
	ok(m.sum > 20480 && m.sum < 20490, "and the sums");
	is_int(m.nwin, AMC_LATENCY_WINDOW, "and keeps a full window");
	ok(amc_latency_quantile(&m, 0.5) == 0.001, "the newest samples (big's) win");
	return done_testing();
}

/* latency.c - see latency.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/latency.h"

void amc_latency_init(amc_latency *l)
{
	memset(l, 0, sizeof *l);
}

void amc_latency_add(amc_latency *l, double s)
{
	if (!(s >= 0) || isinf(s))
		return;
	l->win[l->pos] = s;
	l->pos = (l->pos + 1) % AMC_LATENCY_WINDOW;
	if (l->nwin < AMC_LATENCY_WINDOW)
		l->nwin++;
	l->count++;
	l->sum += s;
}

void amc_latency_merge(amc_latency *dst, const amc_latency *src)
{
	long long count = dst->count + src->count;
	double sum = dst->sum + src->sum;
	/* the window keeps the newest of each: src's, oldest first */
	size_t start = (src->pos + AMC_LATENCY_WINDOW - src->nwin) % AMC_LATENCY_WINDOW;
	for (size_t i = 0; i < src->nwin; i++)
		amc_latency_add(dst, src->win[(start + i) % AMC_LATENCY_WINDOW]);
	dst->count = count;
	dst->sum = sum;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double amc_latency_quantile(const amc_latency *l, double q)
{
	if (l->nwin == 0)
		return 0;
	double *v = malloc(l->nwin * sizeof *v);
	if (!v)
		return 0;
	memcpy(v, l->win, l->nwin * sizeof *v);
	qsort(v, l->nwin, sizeof *v, cmp_d);
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	size_t k = (size_t)ceil(q * (double)l->nwin);
	double r = v[k > 0 ? k - 1 : 0];
	free(v);
	return r;
}

void amc_latency_literal(const amc_latency *l, char *buf, size_t n)
{
	snprintf(buf, n, "{%lld,%.6f,%.6f,%.6f,%.6f}", l->count, l->sum, amc_latency_quantile(l, 0.5),
		 amc_latency_quantile(l, 0.9), amc_latency_quantile(l, 0.99));
}

/* lease.c - when a fleet host renews its lease and when it takes it as lost
 * (lease.h). */
#include "host/lease.h"

/* A renewal that could not reach the database is tried again this soon. */
#define LEASE_RETRY_MS 500

void amc_lease_start(amc_lease *l, int lease_s, int renew_s, long long claim_sent_ms)
{
	l->lease_ms = lease_s * 1000L;
	l->every_ms = renew_s * 1000L;
	if (l->every_ms > l->lease_ms / 3)
		l->every_ms = l->lease_ms / 3;
	l->deadline = claim_sent_ms + l->lease_ms;
	l->next = claim_sent_ms + l->every_ms;
}

amc_lease_do amc_lease_due(const amc_lease *l, long long now, int renew_now, long *wait_ms)
{
	if (now >= l->deadline)
		return AMC_LEASE_LOST;
	if (renew_now || now >= l->next)
		return AMC_LEASE_RENEW;
	long w = (long)((l->next < l->deadline ? l->next : l->deadline) - now);
	*wait_ms = w > 0 ? w : 1;
	return AMC_LEASE_WAIT;
}

int amc_lease_timeout_ms(const amc_lease *l, long long now)
{
	long long left = l->deadline - now;
	return left > 100 ? (int)left : 100;
}

void amc_lease_renewed(amc_lease *l, long long sent_ms)
{
	l->deadline = sent_ms + l->lease_ms;
	l->next = sent_ms + l->every_ms;
}

void amc_lease_retry(amc_lease *l, long long now)
{
	l->next = now + LEASE_RETRY_MS;
}

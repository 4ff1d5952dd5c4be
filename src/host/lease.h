/* lease.h - the host's side of a fleet lease, without PostgreSQL or a clock:
 * when to renew, how long a renewal may take, and when the lease is to be
 * taken as lost (self-fencing). The slot's renewal thread (slot.c) asks it
 * with the monotonic time; tests drive it with a fake clock and a fake
 * renewal (tests/unit/test_lease.c).
 *
 * The lease counts from the monotonic moment the claim was SENT, and after
 * each accepted renewal from the moment that renewal was sent (not answered):
 * the database's clock started it no earlier, and the host's clock cannot be
 * compared with the database's. Launch and device set-up time (an Appium
 * session takes seconds) thus count against the first lease, as they do in
 * the database. */
#ifndef AMC_FLEET_LEASE_H
#define AMC_FLEET_LEASE_H

typedef struct amc_lease {
	long lease_ms;        /* the lease the database grants (fleet.lease_s) */
	long every_ms;        /* renew this often: fleet.renew_s, at most a third of the lease */
	long long deadline;   /* monotonic ms: from here the lease is taken as lost */
	long long next;       /* monotonic ms: the next renewal is due */
} amc_lease;

typedef enum amc_lease_do {
	AMC_LEASE_WAIT,       /* nothing due: wait *wait_ms (or until woken) */
	AMC_LEASE_RENEW,      /* send a renewal now */
	AMC_LEASE_LOST        /* the deadline passed without a renewal: fence yourself */
} amc_lease_do;

/* A lease of lease_s seconds claimed at claim_sent_ms (amc_mono_ms() read
 * just before the claim was sent), renewed every renew_s seconds. */
void amc_lease_start(amc_lease *l, int lease_s, int renew_s, long long claim_sent_ms);
/* What to do at `now`; renew_now: a renewal was asked for early (a cancel
 * hint). *wait_ms is set for AMC_LEASE_WAIT (at least 1). */
amc_lease_do amc_lease_due(const amc_lease *l, long long now, int renew_now, long *wait_ms);
/* How long a renewal sent at `now` may take: until the deadline, at least 100 ms. */
int amc_lease_timeout_ms(const amc_lease *l, long long now);
/* The renewal sent at sent_ms was accepted: the lease runs from then. */
void amc_lease_renewed(amc_lease *l, long long sent_ms);
/* The renewal did not reach the database: try again soon; the deadline stays. */
void amc_lease_retry(amc_lease *l, long long now);

#endif

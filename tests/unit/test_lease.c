/* test_lease.c - fleet/lease.c with a fake clock and a fake renewal, no
 * PostgreSQL: the lease counts from the moment the claim was sent (not from
 * when the renewal thread starts: the bug where launch and device set-up time
 * went missing from a 30 s lease), renewals move it from their send time,
 * failed renewals are retried soon without moving it, and the deadline wins. */
#include "host/lease.h"
#include "tap.h"

/* The fake database: a renewal sent at `sent` is answered `latency` ms later;
 * reachable 0: it never reaches the database (the call fails). */
typedef struct fakedb {
	int reachable;
	long latency;
	int renewals;      /* renewals accepted */
	int tries;         /* renewals sent */
} fakedb;

/* The renewal thread's loop (slot.c renew_main) on a fake clock from `now`
 * until `end`: the time the lease is taken as lost, or -1 if it is not. */
static long long drive(amc_lease *l, fakedb *db, long long now, long long end)
{
	while (now < end) {
		long wait = 0;
		switch (amc_lease_due(l, now, 0, &wait)) {
		case AMC_LEASE_LOST:
			return now;
		case AMC_LEASE_WAIT:
			now += wait;
			break;
		case AMC_LEASE_RENEW: {
			long long sent = now;
			db->tries++;
			long t = amc_lease_timeout_ms(l, sent);
			now += db->reachable ? (db->latency < t ? db->latency : t) : t < 300 ? t : 300;
			if (db->reachable && db->latency < t) {
				db->renewals++;
				amc_lease_renewed(l, sent);
			} else {
				amc_lease_retry(l, now);
			}
			break;
		}
		}
	}
	return -1;
}

int main(void)
{
	amc_lease l;
	long wait = 0;

	/* the numbers */
	amc_lease_start(&l, 30, 10, 1000);
	is_int((int)l.deadline, 31000, "a 30 s lease claimed at t=1 s is held until t=31 s by this host's clock");
	is_int((int)l.next, 11000, "the first renewal is due 10 s after the claim was sent");
	amc_lease_start(&l, 3, 5, 0);
	is_int((int)l.every_ms, 1000, "renewals come at least every third of the lease");
	amc_lease_start(&l, 30, 10, 0);
	is_int(amc_lease_due(&l, 5000, 0, &wait), AMC_LEASE_WAIT, "nothing due at 5 s");
	is_int((int)wait, 5000, "wait until the renewal is due");
	is_int(amc_lease_due(&l, 5000, 1, &wait), AMC_LEASE_RENEW, "an early renewal when asked (a cancel hint)");
	is_int(amc_lease_due(&l, 10000, 0, &wait), AMC_LEASE_RENEW, "a renewal at 10 s");
	is_int(amc_lease_due(&l, 30000, 1, &wait), AMC_LEASE_LOST, "at the deadline the lease is lost, asked or not");
	is_int(amc_lease_timeout_ms(&l, 0), 30000, "a renewal may take until the deadline");
	is_int(amc_lease_timeout_ms(&l, 29950), 100, "and at least 100 ms");

	/* The fence clock: the claim was sent at t=1 s, the device took 25 s to
	 * open (an Appium session), the database is out of reach. The host must
	 * fence itself when the database's lease ends (31 s), not 30 s after its
	 * renewal thread started (56 s, the old rule). */
	fakedb down = { 0, 0, 0, 0 };
	amc_lease_start(&l, 30, 10, 1000);
	long long lost = drive(&l, &down, 26000, 120000);
	ok(lost >= 31000 && lost < 31000 + 300, "lost at the claim's deadline, 31 s (%lld)", lost);
	ok(lost < 56000, "not 30 s after the renewal thread started");
	ok(down.tries > 1, "failed renewals were retried meanwhile (%d)", down.tries);
	is_int(down.renewals, 0, "none accepted");

	/* Renewals that reach the database keep it: five minutes, never lost. */
	fakedb up = { 1, 200, 0, 0 };
	amc_lease_start(&l, 30, 10, 0);
	is_int((int)drive(&l, &up, 0, 300000), -1, "renewed leases are not lost");
	ok(up.renewals >= 28 && up.renewals <= 31, "one renewal every 10 s (%d)", up.renewals);

	/* A renewal answered late counts from when it was sent. */
	amc_lease_start(&l, 30, 10, 0);
	amc_lease_renewed(&l, 10000);
	is_int((int)l.deadline, 40000, "the lease runs from the renewal's send time");
	is_int((int)l.next, 20000, "and so does the next renewal");
	amc_lease_retry(&l, 12000);
	is_int((int)l.deadline, 40000, "a failed renewal leaves the deadline");
	is_int((int)l.next, 12500, "and is tried again soon");

	/* Slow answers beyond the deadline: the lease is lost, not stretched. */
	fakedb slow = { 1, 40000, 0, 0 };
	amc_lease_start(&l, 30, 10, 0);
	lost = drive(&l, &slow, 0, 120000);
	ok(lost >= 30000 && lost < 31000, "answers slower than the lease lose it at its deadline (%lld)", lost);
	return done_testing();
}

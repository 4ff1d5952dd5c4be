/* test_clock.c - time formatting, sleep, monotonic clock. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tap.h"
#include "util/clock.h"

static const char *dur(long long ms)
{
	static char buf[8][32];
	static int k;
	char *b = buf[k++ & 7];
	amc_format_duration(ms, b, 32);
	return b;
}

int main(void)
{
	/* Durations. */
	is_str(dur(0), "0ms", "0 ms");
	is_str(dur(340), "340ms", "340 ms");
	is_str(dur(999), "999ms", "999 ms");
	is_str(dur(1000), "1.0s", "1 s");
	is_str(dur(1200), "1.2s", "1.2 s");
	is_str(dur(59900), "59.9s", "59.9 s");
	is_str(dur(59949), "59.9s", "59.949 s");
	is_str(dur(59950), "1m00s", "59.95 s rounds to a minute, not '60.0s'");
	is_str(dur(59999), "1m00s", "59.999 s is not shown as '60.0s'");
	is_str(dur(60000), "1m00s", "1 min");
	is_str(dur(125000), "2m05s", "2m05s");
	is_str(dur(3599999), "59m59s", "just under an hour");
	is_str(dur(7200000), "120m00s", "two hours");
	is_str(dur(-5), "-", "negative duration");
	char small[4];
	amc_format_duration(123456, small, sizeof small);
	is_int(strlen(small), 3, "a small buffer is cut, NUL-terminated");

	/* Wall time formatting. */
	char t[64];
	amc_format_time(0, t, sizeof t);
	is_str(t, "-", "time 0 is '-'");
	amc_format_time(-1, t, sizeof t);
	is_str(t, "-", "negative time is '-'");
	setenv("TZ", "UTC", 1);
	tzset();
	amc_format_time(1764687097000LL, t, sizeof t); /* 2025-12-02 14:51:37 UTC */
	is_str(t, "2025-12-02 14:51:37", "formats local time (TZ=UTC)");
	amc_format_time(1764687097999LL, t, sizeof t);
	is_str(t, "2025-12-02 14:51:37", "milliseconds are truncated, not rounded");

	/* Wall clock is close to time(). */
	long long now = amc_now_ms();
	long long tsec = (long long)time(NULL);
	ok(now / 1000 >= tsec - 1 && now / 1000 <= tsec + 1, "now_ms agrees with time()");

	/* Monotonic is non-decreasing over many reads. */
	long long prev = amc_mono_ms();
	int mono = 1;
	for (int i = 0; i < 100000; i++) {
		long long m = amc_mono_ms();
		if (m < prev)
			mono = 0;
		prev = m;
	}
	ok(mono, "mono_ms never goes backwards over 100000 reads");

	/* A condition variable's deadline: 1.9 s on, carried into the seconds. */
	struct timespec dl, now_ts;
	clock_gettime(CLOCK_MONOTONIC, &now_ts);
	amc_timespec_after(CLOCK_MONOTONIC, 1900, &dl);
	long long diff_ms = (long long)(dl.tv_sec - now_ts.tv_sec) * 1000 + (dl.tv_nsec - now_ts.tv_nsec) / 1000000;
	ok(diff_ms >= 1900 && diff_ms < 2000, "timespec_after is 1900 ms on (%lld)", diff_ms);
	ok(dl.tv_nsec >= 0 && dl.tv_nsec < 1000000000L, "with nanoseconds below one second");

	/* Sleep roughly right. */
	long long a = amc_mono_ms();
	amc_sleep_ms(120);
	long long b = amc_mono_ms();
	ok(b - a >= 119 && b - a < 1000, "sleep 120 ms took %lld ms", b - a);
	ok(b > a, "mono increased across a sleep");
	a = amc_mono_ms();
	amc_sleep_ms(1050);
	b = amc_mono_ms();
	ok(b - a >= 1049 && b - a < 2500, "sleep 1050 ms (crosses a second) took %lld ms", b - a);
	a = amc_mono_ms();
	amc_sleep_ms(0);
	amc_sleep_ms(-10);
	b = amc_mono_ms();
	ok(b - a < 50, "sleep 0 and negative return at once");
	return done_testing();
}

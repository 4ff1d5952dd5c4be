#include "util/clock.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

long long amc_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

long long amc_mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

long long amc_mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void amc_sleep_ms(long ms)
{
	if (ms <= 0)
		return;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void amc_timespec_after(clockid_t clk, long long ms, struct timespec *ts)
{
	clock_gettime(clk, ts);
	long long ns = ts->tv_nsec + (ms % 1000) * 1000000LL;
	ts->tv_sec += (time_t)(ms / 1000 + ns / 1000000000LL);
	ts->tv_nsec = (long)(ns % 1000000000LL);
}

void amc_format_time(long long ms, char *out, size_t n)
{
	if (ms <= 0) {
		snprintf(out, n, "-");
		return;
	}
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(out, n, "%Y-%m-%d %H:%M:%S", &tm);
}

void amc_format_duration(long long ms, char *out, size_t n)
{
	if (ms < 0)
		snprintf(out, n, "-");
	else if (ms < 1000)
		snprintf(out, n, "%lldms", ms);
	else if (ms < 59950) /* from 59950 on, "%.1f" would round up to "60.0s" */
		snprintf(out, n, "%.1fs", ms / 1000.0);
	else if (ms < 60000)
		snprintf(out, n, "1m00s");
	else
		snprintf(out, n, "%lldm%02llds", ms / 60000, (ms / 1000) % 60);
}

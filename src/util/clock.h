/* clock.h - wall and monotonic time in milliseconds. */
#ifndef AMC_CLOCK_H
#define AMC_CLOCK_H

#include <stddef.h>
#include <time.h>

long long amc_now_ms(void);   /* wall clock, ms since the epoch */
long long amc_mono_ms(void);  /* monotonic, for durations and timeouts */
long long amc_mono_us(void);  /* monotonic in microseconds, for short calls */
void amc_sleep_ms(long ms);
/* The moment `ms` from now on clock `clk`: the deadline for a
 * pthread_cond_timedwait whose condition variable waits on that clock. */
void amc_timespec_after(clockid_t clk, long long ms, struct timespec *ts);
/* "2026-12-02 14:51:37" in local time; "-" for 0. */
void amc_format_time(long long ms, char *out, size_t n);
/* "1.2s", "340ms", "2m05s" */
void amc_format_duration(long long ms, char *out, size_t n);

#endif

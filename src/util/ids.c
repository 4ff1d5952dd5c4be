#include "util/ids.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"

static const char B32[] = "0123456789abcdefghjkmnpqrstvwxyz";

void amc_id_new(char out[AMC_ID_SIZE])
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	static long long last_ms;
	static unsigned seq;
	long long ms = amc_now_ms();
	unsigned char rnd[AMC_ID_LEN - 11];
	if (getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd) {
		unsigned long long x = (unsigned long long)ms ^ ((unsigned long long)getpid() << 20);
		for (size_t i = 0; i < sizeof rnd; i++) {
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			rnd[i] = (unsigned char)(x >> 56);
		}
	}
	/* Keep ids made in the same millisecond by one process in creation order. */
	pthread_mutex_lock(&mu);
	/* Characters 9 and 10 hold a 10-bit sequence number within the millisecond;
	 * past 1023 ids in one millisecond (or when the clock steps back), the
	 * timestamp is advanced instead, so ids from one process always increase. */
	if (ms <= last_ms) {
		ms = last_ms;
		if (++seq > 1023) {
			ms++;
			seq = 0;
		}
	} else {
		seq = 0;
	}
	last_ms = ms;
	unsigned s = seq;
	pthread_mutex_unlock(&mu);
	for (int i = 8; i >= 0; i--) {
		out[i] = B32[ms & 31];
		ms >>= 5;
	}
	out[9] = B32[(s >> 5) & 31];
	out[10] = B32[s & 31];
	for (int i = 11; i < AMC_ID_LEN; i++)
		out[i] = B32[rnd[i - 11] & 31];
	out[AMC_ID_LEN] = '\0';
}

int amc_id_is_valid_prefix(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > AMC_ID_LEN)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr(B32, s[i]) || s[i] == '\0')
			return 0;
	return 1;
}

/* test_ids.c - task ids: shape, order by creation, uniqueness, prefix validation. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/clock.h"
#include "util/ids.h"

static const char ALPHA[] = "0123456789abcdefghjkmnpqrstvwxyz";

static int cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* The millisecond timestamp in the first 9 characters. */
static long long id_ms(const char *id)
{
	long long ms = 0;
	for (int i = 0; i < 9; i++)
		ms = ms * 32 + (long long)(strchr(ALPHA, id[i]) - ALPHA);
	return ms;
}

int main(void)
{
	enum { N = 1000 };
	static char ids[N][AMC_ID_SIZE];
	long long before = amc_now_ms();
	for (int i = 0; i < N; i++)
		amc_id_new(ids[i]);
	long long after = amc_now_ms();

	int shape_ok = 1;
	for (int i = 0; i < N; i++) {
		if (strlen(ids[i]) != AMC_ID_LEN || strspn(ids[i], ALPHA) != AMC_ID_LEN) {
			diag("bad id: %s", ids[i]);
			shape_ok = 0;
		}
	}
	ok(shape_ok, "all %d ids are %d chars of the base32 alphabet", N, AMC_ID_LEN);
	is_int(strlen(ALPHA), 32, "alphabet has 32 chars");
	ok(!strpbrk(ALPHA, "ilou"), "alphabet has no i, l, o, u");

	int sorted = 1;
	for (int i = 1; i < N; i++)
		if (strcmp(ids[i - 1], ids[i]) >= 0) {
			if (sorted)
				diag("not increasing at %d: %s then %s", i, ids[i - 1], ids[i]);
			sorted = 0;
		}
	ok(sorted, "%d ids made in sequence are strictly increasing as strings", N);

	static char copy[N][AMC_ID_SIZE];
	memcpy(copy, ids, sizeof copy);
	qsort(copy, N, AMC_ID_SIZE, cmp_str);
	int unique = 1;
	for (int i = 1; i < N; i++)
		if (!strcmp(copy[i - 1], copy[i]))
			unique = 0;
	ok(unique, "%d ids are unique", N);

	/* The first 9 chars are the creation time in ms. */
	long long first = id_ms(ids[0]);
	ok(first >= before && first <= after + 1, "first id encodes the creation time (%lld in [%lld, %lld])",
	   first, before, after);
	ok(id_ms(ids[N - 1]) >= first && id_ms(ids[N - 1]) <= after + 2, "last id time is close to now");

	/* Later ids sort after earlier ones across milliseconds. */
	char a[AMC_ID_SIZE], b[AMC_ID_SIZE];
	amc_id_new(a);
	amc_sleep_ms(3);
	amc_id_new(b);
	ok(strcmp(a, b) < 0, "an id made later sorts after (%s < %s)", a, b);
	ok(id_ms(b) - id_ms(a) >= 3, "timestamp advanced by the sleep");

	/* A burst of many ids keeps order and uniqueness. */
	enum { M = 20000 };
	char (*burst)[AMC_ID_SIZE] = malloc((size_t)M * AMC_ID_SIZE);
	for (int i = 0; i < M; i++)
		amc_id_new(burst[i]);
	int burst_ok = 1;
	for (int i = 1; i < M; i++)
		if (strcmp(burst[i - 1], burst[i]) >= 0)
			burst_ok = 0;
	ok(burst_ok, "a burst of %d ids is strictly increasing (so unique)", M);
	ok(id_ms(burst[M - 1]) <= amc_now_ms() + 50, "burst timestamps do not run far ahead of the clock");
	free(burst);

	/* Random tail: ids from the same ms differ in the last 5 chars too (probabilistic,
	 * 25 random bits). */
	int tails_same = 0;
	for (int i = 1; i < N; i++)
		if (!strcmp(ids[i - 1] + 11, ids[i] + 11))
			tails_same++;
	ok(tails_same < 3, "random tails differ (%d equal neighbours)", tails_same);

	/* Prefix validation. */
	ok(amc_id_is_valid_prefix(ids[0]), "a full id is a valid prefix");
	ok(amc_id_is_valid_prefix("0"), "one char is a valid prefix");
	char p8[AMC_SHORT_ID_LEN + 1];
	memcpy(p8, ids[0], AMC_SHORT_ID_LEN);
	p8[AMC_SHORT_ID_LEN] = '\0';
	ok(amc_id_is_valid_prefix(p8), "a short id is a valid prefix");
	ok(!amc_id_is_valid_prefix(""), "empty is not a prefix");
	char longer[AMC_ID_SIZE + 1];
	memcpy(longer, ids[0], AMC_ID_LEN);
	longer[AMC_ID_LEN] = '0';
	longer[AMC_ID_LEN + 1] = '\0';
	ok(!amc_id_is_valid_prefix(longer), "17 chars is too long");
	ok(!amc_id_is_valid_prefix("abcI"), "uppercase refused");
	ok(!amc_id_is_valid_prefix("abcu"), "'u' is not in the alphabet");
	ok(!amc_id_is_valid_prefix("ab/c"), "'/' refused");
	ok(!amc_id_is_valid_prefix("../x"), "path traversal refused");
	ok(!amc_id_is_valid_prefix("ab c"), "space refused");
	ok(!amc_id_is_valid_prefix("ab%"), "'%%' refused");
	ok(!amc_id_is_valid_prefix("ab\xc3\xa9"), "non-ASCII refused");
	ok(!amc_id_is_valid_prefix("a*"), "glob char refused");
	return done_testing();
}

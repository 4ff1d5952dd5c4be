/* replay.c - runs a fuzz target's LLVMFuzzerTestOneInput over its committed corpus
 * (tests/fuzz/corpus/<name>/) so `make check` replays every input with gcc, with no
 * libFuzzer needed. Prints TAP: one line per input. `make fuzz` builds the same
 * target with clang's libFuzzer instead. */
#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX];
	const char *src = getenv("AMC_TEST_SRCDIR");
	if (argc > 1)
		snprintf(dir, sizeof dir, "%s", argv[1]);
	else
		snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", src ? src : ".", FUZZ_NAME);
	DIR *d = opendir(dir);
	if (!d) {
		printf("1..0 # SKIP no corpus at %s\n", dir);
		return 1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof *names);
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp);
	int t = 0;
	for (size_t i = 0; i < n; i++) {
		char path[PATH_MAX * 2];
		char *buf;
		size_t len;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, names[i]) >= sizeof path)
			continue;
		if (amc_read_file(path, 64u << 20, &buf, &len, NULL) != 0) {
			printf("not ok %d - %s: unreadable\n", ++t, names[i]);
			continue;
		}
		/* A crash or sanitizer report ends the program: that is the failure. */
		LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
		free(buf);
		printf("ok %d - %s %s\n", ++t, FUZZ_NAME, names[i]);
		free(names[i]);
	}
	free(names);
	printf("1..%d\n", t);
	return t > 0 ? 0 : 1;
}

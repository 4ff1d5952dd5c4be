/* adbtest.h - put the adb stand-in (tests/tools/adb-standin, which serves the
 * sim) first on PATH as `adb`, for the adb driver's tests. Include after tap.h
 * and testutil.h. */
#ifndef AMC_ADBTEST_H
#define AMC_ADBTEST_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/fsutil.h"

/* 0 when `adb` is the stand-in; skips the whole test when it is not built;
 * -1 after a "Bail out!" line when the link cannot be made. */
static inline int adb_standin_on_path(const char *home)
{
	const char *build = getenv("AMC_TEST_BUILDDIR");
	char bin[PATH_MAX + 8], link[PATH_MAX + 16], target[PATH_MAX + 64], path[16384];
	snprintf(bin, sizeof bin, "%s/bin", home);
	snprintf(link, sizeof link, "%s/adb", bin);
	snprintf(target, sizeof target, "%s/tests/tools/adb-standin", build && *build ? build : ".");
	if (access(target, X_OK) != 0)
		tap_skip_all("tests/tools/adb-standin is not built");
	amc_err e;
	if (amc_mkdir_p(bin, 0700, &e) != 0 || symlink(target, link) != 0) {
		printf("Bail out! cannot set up %s\n", link);
		return -1;
	}
	snprintf(path, sizeof path, "%s:%s", bin, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	unsetenv("AMC_ADB_STANDIN_SERIALS");
	return 0;
}

#endif

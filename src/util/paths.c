#include "util/paths.h"

#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fsutil.h"

/* An environment variable is accepted as a base folder only when it is an
 * absolute path of a sane length without control bytes (XDG spec: relative
 * values are invalid and must be ignored). */
static const char *env_dir(const char *name)
{
	const char *v = getenv(name);
	if (!v || v[0] != '/')
		return NULL;
	size_t n = strnlen(v, PATH_MAX);
	if (n >= PATH_MAX - 64)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return NULL;
	return v;
}

static int user_home(char *out, size_t n, amc_err *e)
{
	const char *h = env_dir("HOME");
	if (!h) {
		struct passwd *pw = getpwuid(getuid());
		if (pw && pw->pw_dir && pw->pw_dir[0] == '/')
			h = pw->pw_dir;
	}
	if (!h)
		return amc_err_set(e, AMC_EENV, "cannot find the home folder: set HOME or AMC_HOME");
	if ((size_t)snprintf(out, n, "%s", h) >= n)
		return amc_err_set(e, AMC_EENV, "home folder path too long");
	return 0;
}

int amc_paths_home(char *out, size_t n, amc_err *e)
{
	const char *v = getenv("AMC_HOME");
	if (v && *v) {
		if (!env_dir("AMC_HOME"))
			return amc_err_set(e, AMC_EUSAGE, "AMC_HOME must be an absolute path without control characters (it is '%.200s')", v);
		if ((size_t)snprintf(out, n, "%s", v) >= n)
			return amc_err_set(e, AMC_EUSAGE, "AMC_HOME is too long");
	} else if ((v = env_dir("XDG_DATA_HOME"))) {
		if ((size_t)snprintf(out, n, "%s/amc", v) >= n)
			return amc_err_set(e, AMC_EUSAGE, "XDG_DATA_HOME is too long");
	} else {
		char home[PATH_MAX];
		if (user_home(home, sizeof home, e) != 0)
			return -1;
		if ((size_t)snprintf(out, n, "%s/.local/share/amc", home) >= n)
			return amc_err_set(e, AMC_EENV, "home folder path too long");
	}
	if (amc_mkdir_p(out, 0700, e) != 0)
		return amc_err_prefix(e, "cannot use %s as amc's data folder (set AMC_HOME to a writable folder)", out);
	return 0;
}

int amc_paths_data_dir(char *out, size_t n, amc_err *e)
{
	const char *v = getenv("AMC_DATA_DIR");
	if (v && *v) {
		if (!env_dir("AMC_DATA_DIR"))
			return amc_err_set(e, AMC_EUSAGE, "AMC_DATA_DIR must be an absolute path");
		if ((size_t)snprintf(out, n, "%s", v) >= n)
			return amc_err_set(e, AMC_EUSAGE, "AMC_DATA_DIR is too long");
		return 0;
	}
	/* Running uninstalled: the binary sits in the build folder, data/ in the source tree. */
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			char real_build[PATH_MAX];
			if (realpath(AMC_ABS_BUILDDIR, real_build) && !strcmp(exe, real_build)) {
				if ((size_t)snprintf(out, n, "%s/data", AMC_ABS_SRCDIR) >= n)
					return amc_err_set(e, AMC_EENV, "source path too long");
				return 0;
			}
		}
	}
	if ((size_t)snprintf(out, n, "%s", AMC_PKGDATADIR) >= n)
		return amc_err_set(e, AMC_EENV, "data path too long");
	return 0;
}

int amc_paths_config_dir(char *out, size_t n, amc_err *e)
{
	const char *v = env_dir("XDG_CONFIG_HOME");
	if (v) {
		if ((size_t)snprintf(out, n, "%s/amc", v) >= n)
			return amc_err_set(e, AMC_EUSAGE, "XDG_CONFIG_HOME is too long");
		return 0;
	}
	char home[PATH_MAX];
	if (user_home(home, sizeof home, e) != 0)
		return -1;
	if ((size_t)snprintf(out, n, "%s/.config/amc", home) >= n)
		return amc_err_set(e, AMC_EENV, "home folder path too long");
	return 0;
}

int amc_paths_config_file(char *out, size_t n, amc_err *e)
{
	char dir[PATH_MAX];
	if (amc_paths_config_dir(dir, sizeof dir, e) != 0)
		return -1;
	if ((size_t)snprintf(out, n, "%s/config", dir) >= n)
		return amc_err_set(e, AMC_EUSAGE, "config path too long");
	return 0;
}

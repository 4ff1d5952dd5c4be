/* test_paths.c - AMC_HOME / XDG / HOME resolution, data dir, config file path. */
#include <sys/stat.h>

#include "tap.h"
#include "testutil.h"
#include "util/paths.h"

static int is_dir_mode(const char *path, mode_t mode)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 07777) == mode;
}

int main(void)
{
	const char *base = test_home("paths");
	char want[PATH_MAX], got[PATH_MAX], fake_home[PATH_MAX];
	amc_err e;
	umask(0);

	/* A private HOME so nothing depends on (or touches) the user's. */
	pathf(fake_home, sizeof fake_home, "%s/home", base);
	amc_mkdir_p(fake_home, 0700, NULL);
	setenv("HOME", fake_home, 1);
	unsetenv("XDG_DATA_HOME");
	unsetenv("AMC_DATA_DIR");

	/* AMC_HOME honoured and created 0700 (with missing parents). */
	pathf(want, sizeof want, "%s/custom/amc-home", base);
	setenv("AMC_HOME", want, 1);
	amc_err_clear(&e);
	is_int(amc_paths_home(got, sizeof got, &e), 0, "AMC_HOME accepted");
	is_str(got, want, "AMC_HOME honoured");
	ok(is_dir_mode(got, 0700), "AMC_HOME created with mode 0700");
	is_int(amc_paths_home(got, sizeof got, &e), 0, "AMC_HOME existing: fine");

	/* AMC_HOME beats XDG_DATA_HOME. */
	pathf(want, sizeof want, "%s/xdg-data", base);
	setenv("XDG_DATA_HOME", want, 1);
	pathf(want, sizeof want, "%s/custom/amc-home", base);
	amc_paths_home(got, sizeof got, &e);
	is_str(got, want, "AMC_HOME wins over XDG_DATA_HOME");

	/* Relative or hostile AMC_HOME refused with a message naming it. */
	setenv("AMC_HOME", "relative/amc", 1);
	amc_err_clear(&e);
	is_int(amc_paths_home(got, sizeof got, &e), -1, "relative AMC_HOME refused");
	like(e.msg, "AMC_HOME", "message names AMC_HOME");
	like(e.msg, "absolute", "message says it must be absolute");
	like(e.msg, "relative/amc", "message shows the value");
	is_int(e.code, AMC_EUSAGE, "relative AMC_HOME is a usage error");
	setenv("AMC_HOME", "/tmp/amc\nbad", 1);
	amc_err_clear(&e);
	is_int(amc_paths_home(got, sizeof got, &e), -1, "AMC_HOME with a control character refused");
	char longv[PATH_MAX + 10];
	memset(longv, 'h', sizeof longv - 1);
	longv[0] = '/';
	longv[sizeof longv - 1] = '\0';
	setenv("AMC_HOME", longv, 1);
	amc_err_clear(&e);
	is_int(amc_paths_home(got, sizeof got, &e), -1, "overlong AMC_HOME refused");
	ok(strlen(e.msg) < 400, "message does not echo the whole overlong value");

	/* AMC_HOME that cannot be a folder: error says so and suggests AMC_HOME. */
	pathf(want, sizeof want, "%s/plainfile", base);
	amc_write_atomic(want, "x", 1, 0600, NULL);
	setenv("AMC_HOME", want, 1);
	amc_err_clear(&e);
	is_int(amc_paths_home(got, sizeof got, &e), -1, "AMC_HOME on a file fails");
	like(e.msg, "plainfile", "message names the path");
	like(e.msg, "AMC_HOME", "message suggests AMC_HOME");

	/* Empty AMC_HOME means unset: XDG_DATA_HOME/amc. */
	setenv("AMC_HOME", "", 1);
	pathf(want, sizeof want, "%s/xdg-data/amc", base);
	amc_err_clear(&e);
	is_int(amc_paths_home(got, sizeof got, &e), 0, "XDG_DATA_HOME fallback");
	is_str(got, want, "XDG_DATA_HOME/amc");
	ok(is_dir_mode(got, 0700), "XDG_DATA_HOME/amc created 0700");
	unsetenv("AMC_HOME");
	is_int(amc_paths_home(got, sizeof got, &e), 0, "unset AMC_HOME: XDG_DATA_HOME fallback");
	is_str(got, want, "XDG_DATA_HOME/amc again");

	/* HOME fallback: ~/.local/share/amc; a relative XDG_DATA_HOME is ignored (XDG spec). */
	unsetenv("XDG_DATA_HOME");
	pathf(want, sizeof want, "%s/.local/share/amc", fake_home);
	amc_err_clear(&e);
	is_int(amc_paths_home(got, sizeof got, &e), 0, "HOME fallback");
	is_str(got, want, "~/.local/share/amc");
	ok(is_dir_mode(got, 0700), "~/.local/share/amc created 0700");
	setenv("XDG_DATA_HOME", "rel/data", 1);
	is_int(amc_paths_home(got, sizeof got, &e), 0, "relative XDG_DATA_HOME ignored");
	is_str(got, want, "falls back to HOME");
	setenv("XDG_DATA_HOME", "", 1);
	is_int(amc_paths_home(got, sizeof got, &e), 0, "empty XDG_DATA_HOME ignored");
	is_str(got, want, "falls back to HOME (empty XDG_DATA_HOME)");
	unsetenv("XDG_DATA_HOME");

	/* AMC_DATA_DIR honoured; relative refused. */
	setenv("AMC_DATA_DIR", "/opt/amc-data", 1);
	amc_err_clear(&e);
	is_int(amc_paths_data_dir(got, sizeof got, &e), 0, "AMC_DATA_DIR accepted");
	is_str(got, "/opt/amc-data", "AMC_DATA_DIR honoured");
	setenv("AMC_DATA_DIR", "data", 1);
	amc_err_clear(&e);
	is_int(amc_paths_data_dir(got, sizeof got, &e), -1, "relative AMC_DATA_DIR refused");
	like(e.msg, "AMC_DATA_DIR", "message names AMC_DATA_DIR");
	unsetenv("AMC_DATA_DIR");
	amc_err_clear(&e);
	is_int(amc_paths_data_dir(got, sizeof got, &e), 0, "data dir without AMC_DATA_DIR");
	ok(got[0] == '/', "data dir is absolute (%s)", got);

	/* Config file from XDG_CONFIG_HOME, else ~/.config. */
	pathf(want, sizeof want, "%s/cfg", base);
	setenv("XDG_CONFIG_HOME", want, 1);
	pathf(want, sizeof want, "%s/cfg/amc/config", base);
	amc_err_clear(&e);
	is_int(amc_paths_config_file(got, sizeof got, &e), 0, "config file path");
	is_str(got, want, "$XDG_CONFIG_HOME/amc/config");
	pathf(want, sizeof want, "%s/cfg/amc", base);
	is_int(amc_paths_config_dir(got, sizeof got, &e), 0, "config dir path");
	is_str(got, want, "$XDG_CONFIG_HOME/amc");
	setenv("XDG_CONFIG_HOME", "relative", 1);
	pathf(want, sizeof want, "%s/.config/amc/config", fake_home);
	is_int(amc_paths_config_file(got, sizeof got, &e), 0, "relative XDG_CONFIG_HOME ignored");
	is_str(got, want, "~/.config/amc/config");
	unsetenv("XDG_CONFIG_HOME");
	is_int(amc_paths_config_file(got, sizeof got, &e), 0, "unset XDG_CONFIG_HOME");
	is_str(got, want, "~/.config/amc/config (unset)");
	pathf(want, sizeof want, "%s/.config", fake_home);
	ok(!amc_file_exists(want), "resolving the config path creates nothing");

	/* A small output buffer is an error, not a cut path. */
	char tiny[8];
	pathf(want, sizeof want, "%s/custom/amc-home", base);
	setenv("AMC_HOME", want, 1);
	amc_err_clear(&e);
	is_int(amc_paths_home(tiny, sizeof tiny, &e), -1, "home into a too-small buffer fails");
	is_int(amc_paths_config_file(tiny, sizeof tiny, &e), -1, "config path into a too-small buffer fails");
	return done_testing();
}

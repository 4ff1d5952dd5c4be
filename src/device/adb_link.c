/* adb_link.c - the adb driver's link to its phone: `adb -s SERIAL ...` run
 * through amc_proc_run, a phone that went away told apart from a command
 * that failed, and the shell and push calls adb.c and adb_set.c both use.
 * Below both, so the driver and its settings never call each other back. */
#include "device/adb_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/proc.h"

/* adb's words for a phone that is not there (or not usable) any more. */
static int gone(adb *a, const amc_proc_result *r, amc_err *e)
{
	const char *marks[] = { "not found", "no devices", "device offline", "unauthorized", "error: closed",
				"no permissions" };
	for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
		if (strstr(r->err, marks[i]) || (r->out_len < 512 && strstr((const char *)r->out, marks[i]))) {
			char line[256];
			amc_adb_first_line(strstr(r->err, marks[i]) ? r->err : (const char *)r->out, line, sizeof line);
			if (!strcmp(marks[i], "unauthorized"))
				return amc_err_set(e, AMC_EENV,
						   "adb device %s is unauthorized: unlock the phone and accept the "
						   "'Allow USB debugging' prompt (adb: %s)", a->serial, line);
			if (!strcmp(marks[i], "no permissions"))
				return amc_err_set(e, AMC_EENV,
						   "no permission to use adb device %s: add a udev rule or join the "
						   "plugdev group (adb: %s)", a->serial, line);
			return amc_err_set(e, AMC_EENV,
					   "adb device %s is not connected any more (adb: %s); reconnect it and check "
					   "`adb devices`", a->serial, line);
		}
	return 0;
}

/* Run `adb -s SERIAL args...`. 0 when adb ran and the phone is there (the exit
 * code is the caller's to judge); -1 with AMC_EENV otherwise. */
int amc_adb_run(adb *a, const char *const *args, size_t max_out, amc_proc_result *r, amc_err *e)
{
	const char *argv[32];
	size_t n = 0;
	argv[n++] = a->prog;
	argv[n++] = "-s";
	argv[n++] = a->serial;
	for (size_t i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (amc_proc_run(argv, a->timeout_ms, max_out, ADB_MAX_ERR, r, e) != 0)
		return amc_err_prefix(e, "adb (install the Debian package 'adb' or set [adb] path)");
	if (r->timed_out) {
		amc_proc_result_free(r);
		return amc_err_set(e, AMC_EENV,
				   "adb -s %s %s %s: no answer within %ld ms; is the phone connected and awake? "
				   "(`adb devices`, [adb] timeout_ms)",
				   a->serial, args[0], args[1] ? args[1] : "", a->timeout_ms);
	}
	if (r->exit_code != 0 && gone(a, r, e) != 0) {
		amc_proc_result_free(r);
		return -1;
	}
	return 0;
}

/* `adb shell WORDS...`; the words are already safe for the device's shell.
 * Fails (AMC_EFAIL) when the command exits non-zero. *out (optional) gets stdout. */
int amc_adb_sh(adb *a, const char *const *words, char **out, amc_err *e)
{
	const char *args[24];
	size_t n = 0;
	args[n++] = "shell";
	for (size_t i = 0; words[i] && n < 23; i++)
		args[n++] = words[i];
	args[n] = NULL;
	amc_proc_result r;
	if (amc_adb_run(a, args, ADB_MAX_TEXT, &r, e) != 0)
		return -1;
	if (r.exit_code != 0) {
		char line[256];
		amc_adb_first_line(r.err_len ? r.err : (const char *)r.out, line, sizeof line);
		amc_err_set(e, AMC_EFAIL, "adb %s: `%s %s` failed (exit %d): %s", a->serial, words[0],
			    words[1] ? words[1] : "", r.exit_code, line[0] ? line : "no message");
		amc_proc_result_free(&r);
		return -1;
	}
	if (out)
		*out = (char *)r.out;
	else
		free(r.out);
	free(r.err);
	return 0;
}

/* For adb_set.c: the same two, on a device. */
int amc_adb_shell(amc_device *d, const char *const *words, char **out, amc_err *e)
{
	return amc_adb_sh(adb_of(d), words, out, e);
}

void amc_adb_rotated(amc_device *d, int quarter)
{
	adb *a = adb_of(d);
	if (a->w > 0 && (quarter & 1) != (a->rot & 1)) {
		int t = a->w;
		a->w = a->h;
		a->h = t;
	}
	a->rot = quarter;
}

int amc_adb_push(amc_device *d, const char *local, const char *remote, amc_err *e)
{
	adb *a = adb_of(d);
	const char *args[] = { "push", local, remote, NULL };
	amc_proc_result r;
	if (amc_adb_run(a, args, 65536, &r, e) != 0)
		return -1;
	int rc = 0;
	if (r.exit_code != 0) {
		char line[256];
		amc_adb_first_line(r.err_len ? r.err : (const char *)r.out, line, sizeof line);
		rc = amc_err_set(e, AMC_EFAIL, "adb %s: push failed (exit %d): %s", a->serial, r.exit_code,
				 line[0] ? line : "no message");
	}
	amc_proc_result_free(&r);
	return rc;
}

/* ---- info ---- */


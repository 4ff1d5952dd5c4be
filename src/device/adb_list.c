/* adb_list.c - what adb prints, parsed defensively (all of it is untrusted
 * text): the phones adb can see (`adb devices -l`: serials, states, models),
 * the screen size (`wm size`), the focused window (`dumpsys window`) and app
 * ids. Apart from adb.c because listing needs no open phone and the parsers
 * need no phone at all (tests/fuzz/fuzz_adb.c feeds them directly). */
#include "device/adb_list.h"
#include "device/adb_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/proc.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

int amc_adb_parse_devices(const char *text, amc_adb_entry **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	const char *p = strstr(text, "List of devices attached");
	if (!p)
		return -1;
	p += strcspn(p, "\n");
	size_t cap = 0;
	while (*p) {
		if (*p == '\n') {
			p++;
			continue;
		}
		size_t ll = strcspn(p, "\n");
		char line[1024];
		if (ll >= sizeof line)
			ll = sizeof line - 1;
		memcpy(line, p, ll);
		line[ll] = '\0';
		p += strcspn(p, "\n");
		char *q = line;
		if (*q == '*' || !*q) /* "* daemon started successfully" */
			continue;
		amc_adb_entry en;
		memset(&en, 0, sizeof en);
		size_t sl = strcspn(q, " \t");
		if (sl == 0 || sl >= sizeof en.serial)
			continue;
		memcpy(en.serial, q, sl);
		q += sl;
		q += strspn(q, " \t");
		if (!strncmp(q, "no permissions", 14))
			snprintf(en.state, sizeof en.state, "no permissions");
		else
			snprintf(en.state, sizeof en.state, "%.*s", (int)strcspn(q, " \t"), q);
		char *m = strstr(q, "model:");
		if (m)
			snprintf(en.model, sizeof en.model, "%.*s", (int)strcspn(m + 6, " \t"), m + 6);
		char *s1 = amc_sanitize_dup(en.serial), *s2 = amc_sanitize_dup(en.state), *s3 = amc_sanitize_dup(en.model);
		snprintf(en.serial, sizeof en.serial, "%s", s1);
		snprintf(en.state, sizeof en.state, "%s", s2);
		snprintf(en.model, sizeof en.model, "%s", s3);
		free(s1);
		free(s2);
		free(s3);
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			amc_adb_entry *nb = realloc(*out, cap * sizeof *nb);
			if (!nb)
				return -1;
			*out = nb;
		}
		(*out)[(*n)++] = en;
	}
	return 0;
}

int amc_adb_list(const amc_config *cfg, amc_adb_entry **out, size_t *n, amc_err *e)
{
	*out = NULL;
	*n = 0;
	const char *prog = cfg ? amc_config_str(cfg, "adb", "path") : "adb";
	const char *argv[] = { prog, "devices", "-l", NULL };
	amc_proc_result r;
	if (amc_proc_run(argv, cfg ? amc_config_int(cfg, "adb", "timeout_ms") : 20000, ADB_MAX_TEXT, ADB_MAX_ERR, &r,
			 e) != 0)
		return amc_err_prefix(e, "adb (install the Debian package 'adb' or set [adb] path)");
	if (r.timed_out || r.exit_code != 0 || amc_adb_parse_devices((const char *)r.out, out, n) != 0) {
		char line[256];
		amc_adb_first_line(r.err_len ? r.err : (const char *)r.out, line, sizeof line);
		amc_err_set(e, AMC_EENV, "`adb devices -l` failed (%s%s)", r.timed_out ? "timed out" : "exit status ",
			    r.timed_out ? "" : line);
		amc_proc_result_free(&r);
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	amc_proc_result_free(&r);
	return 0;
}

void amc_adb_first_line(const char *s, char *out, size_t n)
{
	while (s && (*s == '\n' || *s == '\r' || *s == ' '))
		s++;
	size_t len = s ? strcspn(s, "\r\n") : 0;
	if (len > 200)
		len = 200;
	char tmp[256];
	memcpy(tmp, s ? s : "", len);
	tmp[len] = '\0';
	char *safe = amc_sanitize_dup(tmp);
	snprintf(out, n, "%s", safe);
	free(safe);
}

/* ---- other text adb prints: wm size, dumpsys window ---- */

int amc_adb_app_id_valid(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	if (n == 0 || n > 255 || s[0] == '-')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/$") == n;
}

static int parse_size(const char *s, const char *label, int *w, int *h)
{
	const char *p = strstr(s, label);
	if (!p)
		return -1;
	int x, y;
	if (sscanf(p + strlen(label), " %dx%d", &x, &y) != 2 || x < 1 || y < 1 || x > 100000 || y > 100000)
		return -1;
	*w = x;
	*h = y;
	return 0;
}

int amc_adb_parse_wm_size(const char *out, int *w, int *h)
{
	if (!out)
		return -1;
	return parse_size(out, "Override size:", w, h) == 0 || parse_size(out, "Physical size:", w, h) == 0 ? 0 : -1;
}

char *amc_adb_parse_focus(const char *out)
{
	const char *keys[] = { "mCurrentFocus=", "mFocusedApp=" };
	for (size_t k = 0; out && k < 2; k++) {
		for (const char *p = strstr(out, keys[k]); p; p = strstr(p + 1, keys[k])) {
			/* ... Window{1a2b u0 com.pkg/com.pkg.Main} or ActivityRecord{... u0 com.pkg/.Main t12} */
			const char *end = p + strcspn(p, "\n");
			for (const char *s = p; s < end; s++) {
				if (*s != ' ')
					continue;
				const char *t = s + 1;
				size_t tl = strcspn(t, " /}\n");
				if (t + tl < end && t[tl] == '/' && tl > 0 && tl < 256 && memchr(t, '.', tl)) {
					char buf[256];
					memcpy(buf, t, tl);
					buf[tl] = '\0';
					if (amc_adb_app_id_valid(buf))
						return amc_xstrdup(buf);
				}
			}
		}
	}
	return NULL;
}

void amc_adb_parse_packages(const char *text, char ***apps, size_t *napps, size_t max)
{
	*apps = NULL;
	*napps = 0;
	char *copy = amc_xstrdup(text ? text : "");
	char *save = NULL;
	for (char *l = strtok_r(copy, "\r\n", &save); l && *napps < max; l = strtok_r(NULL, "\r\n", &save)) {
		if (strncmp(l, "package:", 8) != 0 || !amc_adb_app_id_valid(l + 8) || strchr(l + 8, '/'))
			continue;
		*apps = amc_xrealloc(*apps, (*napps + 1) * sizeof **apps);
		(*apps)[(*napps)++] = amc_xstrdup(l + 8);
	}
	free(copy);
}

char *amc_adb_package_lines(const char *out)
{
	char **apps;
	size_t n;
	amc_adb_parse_packages(out, &apps, &n, AMC_APPS_MAX);
	amc_sb sb;
	amc_sb_init(&sb);
	for (size_t i = 0; i < n; i++) {
		amc_sb_printf(&sb, "%s\n", apps[i]);
		free(apps[i]);
	}
	free(apps);
	char *r = amc_sb_detach(&sb);
	return r ? r : amc_xstrdup("");
}

/* amc doctor - check what amc needs on this host and say how to fix what is
 * missing. Each check gives ok, warn (amc works, something is degraded) or
 * fail (a feature cannot work), a detail, and a fix. Never prints a secret:
 * for API keys it says only whether one is set and where from. */
#include <limits.h>
#include <curl/curl.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "planner/agentcli_probe.h"
#include "cli/cli.h"
#include "device/adb.h"
#include "flow/script.h"
#include "perception/ocr.h"
#include "fleet/pq.h"
#include "util/proc.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

typedef struct check {
	char name[32];
	const char *status; /* ok, warn, fail */
	char detail[1024];
	char fix[1024];
} check;

typedef struct report {
	check v[64];
	int n;
} report;

static check *add(report *r, const char *name, const char *status)
{
	if (r->n >= 64)
		r->n = 63;
	check *c = &r->v[r->n++];
	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "%s", name);
	c->status = status;
	return c;
}

/* Copy a message from outside (a program, a device) terminal-safe. */
static void safe(char *out, size_t n, const char *in)
{
	char *s = amc_sanitize_dup(in ? in : "");
	snprintf(out, n, "%s", s);
	free(s);
}

static void check_adb(report *r, const amc_config *cfg)
{
	const char *prog = amc_config_str(cfg, "adb", "path");
	char path[PATH_MAX];
	if (amc_proc_which(prog, path, sizeof path) != 0) {
		check *c = add(r, "adb", "warn");
		char p[256];
		safe(p, sizeof p, prog);
		snprintf(c->detail, sizeof c->detail, "adb program '%s' not found: Android phones cannot be used (the sim works)",
			 p);
		snprintf(c->fix, sizeof c->fix,
			 "sudo apt install adb (Debian/Ubuntu), or set [adb] path in the config to the adb program");
		return;
	}
	const char *argv[] = { path, "version", NULL };
	amc_proc_result pr;
	amc_err e;
	char ver[160] = "";
	if (amc_proc_run(argv, 10000, 4096, 4096, &pr, &e) == 0) {
		char line[160];
		snprintf(line, sizeof line, "%.*s", (int)strcspn((char *)pr.out, "\n"), (char *)pr.out);
		safe(ver, sizeof ver, line);
		amc_proc_result_free(&pr);
	}
	check *c = add(r, "adb", "ok");
	char p[256];
	safe(p, sizeof p, path);
	snprintf(c->detail, sizeof c->detail, "%s%s%s", p, ver[0] ? ": " : "", ver);

	amc_adb_entry *v = NULL;
	size_t n = 0;
	if (amc_adb_list(cfg, &v, &n, &e) != 0) {
		c = add(r, "adb devices", "fail");
		safe(c->detail, sizeof c->detail, e.msg);
		snprintf(c->fix, sizeof c->fix, "run `adb kill-server; adb start-server` and look at its messages");
		return;
	}
	if (n == 0) {
		c = add(r, "adb devices", "warn");
		snprintf(c->detail, sizeof c->detail, "no phone is attached");
		snprintf(c->fix, sizeof c->fix,
			 "enable Developer options > USB debugging on the phone, plug it in and accept the prompt; "
			 "over Wi-Fi: adb connect HOST:5555");
	}
	for (size_t i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof name, "adb:%.27s", v[i].serial);
		if (!strcmp(v[i].state, "device")) {
			c = add(r, name, "ok");
			snprintf(c->detail, sizeof c->detail, "connected and authorized%s%s (device id adb:%s)",
				 v[i].model[0] ? ", model " : "", v[i].model, v[i].serial);
		} else if (!strcmp(v[i].state, "unauthorized")) {
			c = add(r, name, "fail");
			snprintf(c->detail, sizeof c->detail, "unauthorized: this computer's key is not accepted yet");
			snprintf(c->fix, sizeof c->fix,
				 "unlock the phone and accept 'Allow USB debugging?' (tick 'Always allow'); no prompt? "
				 "revoke USB debugging authorizations in Developer options and replug");
		} else if (!strcmp(v[i].state, "no permissions")) {
			c = add(r, name, "fail");
			snprintf(c->detail, sizeof c->detail, "no permissions to open the USB device");
			snprintf(c->fix, sizeof c->fix,
				 "add your user to the plugdev group and install udev rules (Debian: android-sdk-platform-tools-common), then replug");
		} else {
			c = add(r, name, "fail");
			snprintf(c->detail, sizeof c->detail, "state '%s'", v[i].state);
			snprintf(c->fix, sizeof c->fix, "replug the cable or run `adb reconnect`; for Wi-Fi phones `adb connect HOST:5555`");
		}
	}
	free(v);
}

static size_t discard(void *p, size_t sz, size_t n, void *ud)
{
	amc_sb *sb = ud;
	if (sb->len < 4096)
		amc_sb_append(sb, p, sz * n);
	return sz * n;
}

static void check_appium(report *r, const amc_config *cfg)
{
	const char *list = amc_config_str(cfg, "appium", "endpoints");
	if (!list || !*list)
		return;
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");
		char url[256];
		snprintf(url, sizeof url, "%.*s", (int)(len < 200 ? len : 200), p);
		char *u = url;
		while (*u == ' ')
			u++;
		size_t ul = strlen(u);
		while (ul && (u[ul - 1] == ' ' || u[ul - 1] == '/'))
			u[--ul] = '\0';
		p += len;
		if (*p == ',')
			p++;
		if (!*u)
			continue;
		char name[32], su[256];
		safe(su, sizeof su, u);
		snprintf(name, sizeof name, "appium");
		char status_url[300];
		snprintf(status_url, sizeof status_url, "%s/status", u);
		CURL *h = curl_easy_init();
		amc_sb body;
		amc_sb_init(&body);
		long code = 0;
		CURLcode rc = CURLE_FAILED_INIT;
		if (h) {
			curl_easy_setopt(h, CURLOPT_URL, status_url);
			curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
			curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
			curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 5000L);
			curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
			curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
			rc = curl_easy_perform(h);
			curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
			curl_easy_cleanup(h);
		}
		int ready = rc == CURLE_OK && code == 200 && strstr(amc_sb_str(&body), "\"value\"");
		check *c = add(r, name, ready ? "ok" : "fail");
		if (ready)
			snprintf(c->detail, sizeof c->detail, "%s answers /status (device id appium:%s)", su, su);
		else {
			snprintf(c->detail, sizeof c->detail, "%s does not answer /status (%s, HTTP %ld)", su,
				 rc == CURLE_OK ? "not an Appium answer" : curl_easy_strerror(rc), code);
			snprintf(c->fix, sizeof c->fix,
				 "start it: appium server --address 127.0.0.1 --port PORT (npm i -g appium, then "
				 "appium driver install uiautomator2 or xcuitest); or fix [appium] endpoints");
		}
		amc_sb_free(&body);
	}
}

static void check_ocr(report *r)
{
	amc_err e;
	if (amc_ocr_check(&e) == 0) {
		check *c = add(r, "ocr", "ok");
		snprintf(c->detail, sizeof c->detail, "tesseract starts with English language data");
	} else {
		check *c = add(r, "ocr", "warn");
		safe(c->detail, sizeof c->detail, e.msg);
		snprintf(c->fix, sizeof c->fix,
			 "sudo apt install tesseract-ocr-eng, or set TESSDATA_PREFIX to a folder with eng.traineddata; "
			 "without it text drawn only in pixels is not read ([ocr] policy = off silences this)");
	}
}

static void check_terminal(report *r)
{
	const char *term = getenv("TERM"), *ct = getenv("COLORTERM"), *nc = getenv("NO_COLOR");
	check *c = add(r, "terminal", "ok");
	char t[64], cts[64];
	safe(t, sizeof t, term ? term : "");
	safe(cts, sizeof cts, ct ? ct : "");
	const char *colours = nc && *nc ? "colour off (NO_COLOR is set)"
			      : (ct && (!strcmp(ct, "truecolor") || !strcmp(ct, "24bit"))) ? "24-bit colour"
			      : (term && strstr(term, "256color")) ? "256 colours"
			      : "basic colours";
	/* which graphics protocol the terminal offers, and, when none, how to
	 * get one (issue 27): symbols are readable only at a large zoom */
	const char *gfx = "symbols only: this terminal offers no sixel or kitty graphics (for real pixels use "
			  "kitty, WezTerm, foot, mlterm, or xterm -ti vt340)";
	const char *tp = getenv("TERM_PROGRAM");
	int in_tmux = getenv("TMUX") != NULL;
	if (in_tmux)
		gfx = "symbols: inside tmux (Debian 12's tmux 3.3a passes no sixel or kitty graphics; run amc outside "
		      "tmux in kitty, WezTerm, foot, mlterm or xterm -ti vt340 for real pixels)";
	else if ((term && !strcmp(term, "xterm-kitty")) || getenv("KITTY_WINDOW_ID"))
		gfx = "kitty graphics protocol (kitty)";
	else if (tp && !strcmp(tp, "WezTerm"))
		gfx = "kitty graphics and iTerm2 images (WezTerm); sixel too";
	else if (tp && !strcmp(tp, "iTerm.app"))
		gfx = "iTerm2 images (iTerm2)";
	else if (term && (strstr(term, "mlterm") || strstr(term, "foot") || strstr(term, "sixel")))
		gfx = "sixel (by TERM; amc asks the terminal when the TUI starts)";
	snprintf(c->detail, sizeof c->detail, "TERM=%s%s%s: %s; screenshots as %s", t[0] ? t : "(unset)",
		 cts[0] ? " COLORTERM=" : "", cts, colours, gfx);
	if (!term || !*term || !strcmp(term, "dumb")) {
		c->status = "warn";
		snprintf(c->fix, sizeof c->fix, "the TUI needs a real terminal: export TERM=xterm-256color");
	} else if (!isatty(STDOUT_FILENO)) {
		snprintf(c->fix, sizeof c->fix, "stdout is not a terminal here; run amc doctor in the terminal you use");
	}

	char prev[64];
	snprintf(prev, sizeof prev, "%s", setlocale(LC_CTYPE, NULL) ? setlocale(LC_CTYPE, NULL) : "C");
	setlocale(LC_CTYPE, "");
	const char *cs = nl_langinfo(CODESET);
	int utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
	c = add(r, "locale", utf8 ? "ok" : "warn");
	char s[64];
	safe(s, sizeof s, cs ? cs : "?");
	snprintf(c->detail, sizeof c->detail, "character set %s", s);
	if (!utf8)
		snprintf(c->fix, sizeof c->fix,
			 "use a UTF-8 locale, e.g. export LANG=C.UTF-8 (text from phones is UTF-8; box drawing needs it)");
	setlocale(LC_CTYPE, prev);
}

/* The fleet database when fleet.url is set: reachable, and over TLS with a
 * verified certificate (issue 26: fleet.require_tls decides before
 * connecting; this says what the connection turned out to be). */
static void check_fleet(report *r, const amc_config *cfg)
{
	const char *url = amc_config_str(cfg, "fleet", "url");
	if (!url || !*url)
		return;
	PGconn *c;
	amc_err e;
	if (amc_pq_connect(url, 5000, &c, &e) != 0) {
		check *k = add(r, "fleet", "warn");
		snprintf(k->detail, sizeof k->detail, "%s", e.msg);
		snprintf(k->fix, sizeof k->fix, "check fleet.url (AMC_FLEET_URL), the server and its TLS settings (docs/fleet.md)");
		return;
	}
	char line[400];
	amc_pq_tls_describe(c, line, sizeof line);
	int verified = strstr(line, "certificate verified") != NULL, plain = !PQsslInUse(c);
	const char *h = PQhost(c);
	int local = !h || !*h || h[0] == '/' || !strcmp(h, "localhost") || !strncmp(h, "127.", 4) || !strcmp(h, "::1");
	PQfinish(c);
	check *k = add(r, "fleet", verified || (plain && local) ? "ok" : "warn");
	snprintf(k->detail, sizeof k->detail, "fleet database: %s", line);
	if (!verified && !(plain && local))
		snprintf(k->fix, sizeof k->fix,
			 "add sslmode=verify-full&sslrootcert=/path/ca.crt to fleet.url so that the server's certificate "
			 "and name are checked");
}

static void check_home(report *r, const char *home)
{
	struct stat st;
	char h[300];
	safe(h, sizeof h, home);
	if (stat(home, &st) != 0) {
		check *c = add(r, "home", "ok");
		snprintf(c->detail, sizeof c->detail, "%s does not exist yet (created with mode 0700 on first use)", h);
		return;
	}
	check *c = add(r, "home", "ok");
	snprintf(c->detail, sizeof c->detail, "%s, mode %03o", h, (unsigned)(st.st_mode & 0777));
	if (!S_ISDIR(st.st_mode)) {
		c->status = "fail";
		snprintf(c->fix, sizeof c->fix, "it is not a folder: move it away or set AMC_HOME elsewhere");
	} else if (st.st_uid != getuid()) {
		c->status = "fail";
		snprintf(c->fix, sizeof c->fix, "it belongs to another user: chown -R $(id -un) %s", h);
	} else if (st.st_mode & 077) {
		c->status = "warn";
		snprintf(c->fix, sizeof c->fix, "screenshots may show private data: chmod 700 %s", h);
	} else if (access(home, W_OK) != 0) {
		c->status = "fail";
		snprintf(c->fix, sizeof c->fix, "not writable: chmod u+w %s", h);
	}

	char db[PATH_MAX + sizeof "/amc.db"];
	snprintf(db, sizeof db, "%s/amc.db", home);
	if (stat(db, &st) != 0)
		return;
	sqlite3 *s = NULL;
	c = add(r, "database", "ok");
	if (sqlite3_open_v2(db, &s, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		c->status = "fail";
		safe(c->detail, sizeof c->detail, s ? sqlite3_errmsg(s) : "cannot open");
	} else {
		sqlite3_busy_timeout(s, 5000);
		sqlite3_stmt *q = NULL;
		amc_sb res;
		amc_sb_init(&res);
		if (sqlite3_prepare_v2(s, "PRAGMA quick_check", -1, &q, NULL) == SQLITE_OK) {
			while (sqlite3_step(q) == SQLITE_ROW && res.len < 400) {
				const unsigned char *t = sqlite3_column_text(q, 0);
				if (res.len)
					amc_sb_puts(&res, "; ");
				amc_sb_puts(&res, t ? (const char *)t : "");
			}
			sqlite3_finalize(q);
		} else {
			amc_sb_puts(&res, sqlite3_errmsg(s));
		}
		char rs[400];
		safe(rs, sizeof rs, amc_sb_str(&res));
		snprintf(c->detail, sizeof c->detail, "amc.db quick_check: %s", rs);
		if (strcmp(amc_sb_str(&res), "ok")) {
			c->status = "fail";
			snprintf(c->fix, sizeof c->fix,
				 "stop amc, copy amc.db aside, then try: sqlite3 amc.db '.recover' | sqlite3 new.db");
		}
		amc_sb_free(&res);
	}
	sqlite3_close(s);
}

static void check_keys(report *r, const amc_config *cfg)
{
	const char *env = getenv("ANTHROPIC_API_KEY");
	const char *file = amc_config_str(cfg, "llm", "anthropic_key_file");
	check *c;
	if (env && *env) {
		c = add(r, "anthropic key", "ok");
		snprintf(c->detail, sizeof c->detail, "set in ANTHROPIC_API_KEY (not shown)");
	} else if (file && *file) {
		struct stat st;
		char f[300];
		safe(f, sizeof f, file);
		if (stat(file, &st) != 0) {
			c = add(r, "anthropic key", "fail");
			snprintf(c->detail, sizeof c->detail, "llm.anthropic_key_file %s does not exist", f);
			snprintf(c->fix, sizeof c->fix, "write the key into it (chmod 600) or export ANTHROPIC_API_KEY");
		} else if (st.st_mode & 077) {
			c = add(r, "anthropic key", "fail");
			snprintf(c->detail, sizeof c->detail, "llm.anthropic_key_file %s is readable by others", f);
			snprintf(c->fix, sizeof c->fix, "chmod 600 %s", f);
		} else {
			c = add(r, "anthropic key", "ok");
			snprintf(c->detail, sizeof c->detail, "in %s (not shown)", f);
		}
	} else {
		c = add(r, "anthropic key", "warn");
		snprintf(c->detail, sizeof c->detail, "no Anthropic API key: goal tasks (the LLM planner) cannot run; flows can");
		snprintf(c->fix, sizeof c->fix,
			 "export ANTHROPIC_API_KEY=sk-ant-..., or put it in a 0600 file named by [llm] anthropic_key_file");
	}
}

/* Coding agents' CLIs (amc run --agent): found, runs, and whose bill; an
 * agent that is not installed is only a note (amc works without it). */
static void check_agents(report *r, const amc_config *cfg)
{
	for (int k = AMC_AGENT_CLAUDE; k <= AMC_AGENT_CODEX; k++) {
		amc_agentcli_probe p;
		amc_agentcli_probe_run(cfg, (amc_agent_kind)k, 1, &p);
		char name[32];
		snprintf(name, sizeof name, "agent %s", amc_agentcli_kind_name((amc_agent_kind)k));
		check *c;
		if (!p.found || !p.version_ok) {
			c = add(r, name, p.found ? "fail" : "warn");
			safe(c->detail, sizeof c->detail, p.version_error);
			snprintf(c->fix, sizeof c->fix, "%s",
				 k == AMC_AGENT_CLAUDE ? "npm install -g @anthropic-ai/claude-code (2.1.197 on Node 20), or set agent.claude_path"
						       : "npm install -g @openai/codex, or set agent.codex_path");
			continue;
		}
		c = add(r, name, p.login || p.key ? "ok" : "warn");
		char ver[160], src[PATH_MAX + 64];
		safe(ver, sizeof ver, p.version);
		safe(src, sizeof src, p.login ? p.login_source : p.key_var);
		char path[320];
		safe(path, sizeof path, p.path);
		snprintf(c->detail, sizeof c->detail, "%s at %.300s; auth %s%s%.300s%s%s; billing %s (health unknown until a run)",
			 ver, path, p.auth_mode, p.login || p.key ? " from " : "", p.login || p.key ? src : "",
			 p.plan[0] ? ", plan " : "", p.plan, p.billing_mode);
		if (!p.login && !p.key)
			snprintf(c->fix, sizeof c->fix, "log in once: run `%s` (a subscription needs nothing else)",
				 amc_agentcli_kind_name((amc_agent_kind)k));
	}
}

/* amc-js: found (beside amc, then installed) and able to run a script in
 * its sandbox on this kernel (seccomp, limits). */
static void check_js(report *r)
{
	char path[PATH_MAX], p[300];
	int found = amc_script_find_helper(path, sizeof path);
	safe(p, sizeof p, path);
	check *c;
	if (found != 0) {
		c = add(r, "javascript", "fail");
		snprintf(c->detail, sizeof c->detail, "the helper amc-js is not at %s: flows with scripts "
			 "(runScript, evalScript, ${expressions}) cannot run", p);
		snprintf(c->fix, sizeof c->fix, "reinstall amc (make install puts amc-js there), or set AMC_JS "
			 "to the amc-js program");
		return;
	}
	amc_script *s = NULL;
	amc_err e;
	amc_err_clear(&e);
	char *v = NULL;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = amc_script_open(path, NULL, &s, &e);
	if (rc == 0)
		rc = amc_script_eval(s, "`${[1, 2].map((x) => x * 2).at(-1) ?? 0}`", "doctor", NULL, 0, &v, &e);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	amc_script_close(s);
	long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	if (rc == 0 && v && !strcmp(v, "4")) {
		c = add(r, "javascript", "ok");
		snprintf(c->detail, sizeof c->detail, "amc-js at %s runs a script in its sandbox (%ld ms with start-up)",
			 p, ms);
	} else {
		char m[600];
		safe(m, sizeof m, rc == 0 ? "a wrong answer" : e.msg);
		c = add(r, "javascript", "fail");
		snprintf(c->detail, sizeof c->detail, "amc-js at %s cannot run a script: %s", p, m);
		snprintf(c->fix, sizeof c->fix, "install libjavascriptcoregtk-4.1-0 and libseccomp2, on a kernel "
			 "with seccomp filters (amc-js refuses to run scripts without its sandbox)");
	}
	free(v);
}

static int run(amc_cli *cli, int argc, char **argv)
{
	int json = 0, rc = amc_cli_json_only(&amc_cmd_doctor, argc, argv, &json);
	if (rc != 0)
		return rc;
	report *r = calloc(1, sizeof *r);
	if (!r) {
		amc_err e;
		amc_err_set(&e, AMC_EENV, "out of memory");
		return amc_cli_fail(&e);
	}
	check_adb(r, cli->cfg);
	check_appium(r, cli->cfg);
	check_ocr(r);
	check_terminal(r);
	check_home(r, cli->home);
	check_fleet(r, cli->cfg);
	check_keys(r, cli->cfg);
	check_agents(r, cli->cfg);
	check_js(r);
	int fails = 0, warns = 0;
	for (int i = 0; i < r->n; i++) {
		fails += !strcmp(r->v[i].status, "fail");
		warns += !strcmp(r->v[i].status, "warn");
	}
	if (json) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddBoolToObject(o, "ok", fails == 0);
		cJSON *arr = cJSON_AddArrayToObject(o, "checks");
		for (int i = 0; i < r->n; i++) {
			cJSON *j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "name", r->v[i].name);
			cJSON_AddStringToObject(j, "status", r->v[i].status);
			cJSON_AddStringToObject(j, "detail", r->v[i].detail);
			if (r->v[i].fix[0])
				cJSON_AddStringToObject(j, "fix", r->v[i].fix);
			else
				cJSON_AddNullToObject(j, "fix");
			cJSON_AddItemToArray(arr, j);
		}
		amc_cli_print_json(o);
	} else {
		for (int i = 0; i < r->n; i++) {
			printf("%-5s %-16s %s\n", r->v[i].status, r->v[i].name, r->v[i].detail);
			if (r->v[i].fix[0])
				printf("%-5s %-16s fix: %s\n", "", "", r->v[i].fix);
		}
		printf("\n%d problem%s, %d warning%s\n", fails, fails == 1 ? "" : "s", warns, warns == 1 ? "" : "s");
	}
	free(r);
	return fails ? AMC_EENV : 0;
}

const amc_cmd amc_cmd_doctor = {
	"doctor",
	"doctor [--json]",
	"check adb and phones, Appium servers, OCR data, terminal, locale, $AMC_HOME, database and API keys",
	"  -j, --json   {\"ok\": bool, \"checks\": [{name, status, detail, fix}]} on stdout\n\n"
	"Each check is ok, warn (amc works, something is degraded) or fail, with the fix.\n"
	"Exit status 0 when nothing failed, 3 otherwise. Keys are never printed.\n",
	run,
};

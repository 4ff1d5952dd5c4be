#include "util/config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fsutil.h"
#include "util/paths.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

enum ktype { K_STR, K_INT, K_DOUBLE, K_BOOL, K_ENUM };

typedef struct keydef {
	const char *section;
	const char *key;
	enum ktype type;
	const char *def;
	double min, max;      /* K_INT, K_DOUBLE */
	const char *choices;  /* K_ENUM: "a|b|c" */
	const char *help;
} keydef;

/* The one list of settings. `amc config` prints it, the README documents it. */
static const keydef KEYS[] = {
	{ "core", "log_level", K_ENUM, "info", 0, 0, "error|warn|info|debug",
	  "what goes into $AMC_HOME/amc.log" },
	{ "device", "default", K_STR, "sim", 0, 0, NULL,
	  "device used when --device is not given (sim, sim:N, adb:SERIAL, appium:URL)" },
	{ "runner", "max_steps", K_INT, "50", 1, 10000, NULL,
	  "a task fails when it reaches this many steps" },
	{ "runner", "settle_timeout_ms", K_INT, "3000", 0, 60000, NULL,
	  "how long to wait after an action for the screen to stop changing" },
	{ "runner", "settle_interval_ms", K_INT, "100", 10, 5000, NULL,
	  "pause between two captures while settling" },
	{ "runner", "settle_tolerance", K_DOUBLE, "0.001", 0, 1, NULL,
	  "fraction of pixels (outside the status bar) that may differ between two frames that count as equal" },
	{ "runner", "capture_retries", K_INT, "3", 0, 20, NULL,
	  "how often a failed screenshot or UI dump is retried before the step fails" },
	{ "flow", "wait_timeout_ms", K_INT, "5000", 0, 600000, NULL,
	  "how long tapOn/assertVisible wait for their element to appear (Maestro waits too)" },
	{ "retention", "keep", K_INT, "1000", 1, 100000000, NULL,
	  "newest tasks kept; older ones are removed with their steps and artifacts" },
	{ "retention", "max_age_days", K_INT, "30", 1, 36500, NULL,
	  "tasks older than this many days are removed" },
	{ "sim", "seed", K_INT, "-1", -1, 2147483647, NULL,
	  "seed of the simulated phone sim:N (-1: N itself)" },
	{ "sim", "faults", K_STR, "", 0, 0, NULL,
	  "fault injection, e.g. screenshot:0.2,ui_tree:0.1,latency:200 (latency in ms), vanish:N,vanish_ms:MS (docs/sim.md)" },
	{ "sim", "notify_ms", K_INT, "0", 0, 3600000, NULL,
	  "a heads-up notification arrives this many ms of sim time after an app is opened (0: never; docs/sim.md)" },
	{ "sim", "clock", K_ENUM, "calls", 0, 0, "calls|live",
	  "sim time moves with device calls only (calls: reproducible) or with real time too (live; docs/sim.md)" },
	{ "sim", "width", K_INT, "1080", 240, 4096, NULL, "screen width of a new sim, in pixels" },
	{ "sim", "height", K_INT, "2400", 320, 8192, NULL, "screen height of a new sim, in pixels" },
	{ "llm", "anthropic_key_file", K_STR, "", 0, 0, NULL,
	  "a file (mode 0600) holding the Anthropic API key, used when ANTHROPIC_API_KEY is not set" },
	{ "llm", "price_file", K_STR, "", 0, 0, NULL,
	  "price table (USD per million tokens) replacing the bundled prices.json" },
	{ "planner", "provider", K_ENUM, "auto", 0, 0, "auto|anthropic|openai|agent:claude|agent:codex",
	  "who plans goals: anthropic, an OpenAI-compatible local server (AMC_OPENAI_BASE_URL), a coding agent's CLI "
	  "on the user's own login (agent:claude, agent:codex; docs/llm.md), or auto "
	  "(anthropic when a key is set, else the local server when AMC_OPENAI_BASE_URL is set)" },
	{ "planner", "model", K_STR, "claude-sonnet-5", 0, 0, NULL,
	  "model of the LLM planner (AMC_PLANNER_MODEL overrides; a local server needs its own model name)" },
	/* coding agents' CLIs as planners (src/planner/agentcli.c, docs/llm.md) */
	{ "agent", "claude_path", K_STR, "claude", 0, 0, NULL,
	  "the Claude Code program (a name looked up in PATH, or a path); npm @anthropic-ai/claude-code" },
	{ "agent", "codex_path", K_STR, "codex", 0, 0, NULL,
	  "the Codex program (a name looked up in PATH, or a path); npm @openai/codex" },
	{ "agent", "billing", K_ENUM, "auto", 0, 0, "auto|subscription|api",
	  "whose bill an agent run goes on: subscription (your CLI login; an API key in the environment is not "
	  "passed on), api (the API key, pay-as-you-go), or auto (the login when there is one; otherwise amc asks)" },
	{ "agent", "timeout_s", K_INT, "900", 5, 86400, NULL,
	  "wall-clock limit of one agent run; past it the CLI's process group is ended and the task fails" },
	{ "agent", "max_turns", K_INT, "80", 1, 10000, NULL,
	  "most model turns an agent CLI may take in one task (Claude Code --max-turns)" },
	{ "agent", "codex_config", K_STR, "", 0, 0, NULL,
	  "a TOML file added to the private Codex configuration amc writes (e.g. a [model_providers.X] entry and "
	  "model_provider = \"X\"); your own ~/.codex/config.toml is not read" },
	{ "planner", "max_tokens", K_INT, "1024", 64, 64000, NULL, "longest answer of one planning call, in tokens" },
	{ "planner", "max_input_tokens", K_INT, "2000000", 0, 1000000000, NULL,
	  "a task fails once its planner used this many input tokens (0: no limit)" },
	{ "planner", "max_output_tokens", K_INT, "100000", 0, 1000000000, NULL,
	  "a task fails once its planner used this many output tokens (0: no limit)" },
	{ "planner", "max_cost_usd", K_DOUBLE, "2", 0, 100000, NULL,
	  "a task fails once its model calls cost this much, by the price table (0: no limit)" },
	{ "planner", "step_timeout_ms", K_INT, "120000", 1000, 600000, NULL,
	  "time for one planning call with its retries; a longer retry-after fails the step" },
	{ "planner", "vision", K_ENUM, "auto", 0, 0, "off|on|auto",
	  "send the screenshot too: always, never, or when the scene has few elements" },
	{ "planner", "vision_max_edge", K_INT, "1568", 256, 8000, NULL,
	  "screenshots sent to the model are downscaled to this long edge" },
	{ "planner", "decisions_keep", K_INT, "200", 1, 100000000, NULL,
	  "planner decisions (prompts, tool calls) are kept for this many newest tasks" },
	{ "safety", "irreversible_words_file", K_STR, "", 0, 0, NULL,
	  "word list that marks irreversible taps (default: the bundled irreversible-words.txt)" },
	{ "secrets", "file", K_STR, "", 0, 0, NULL,
	  "a 0600 file of NAME=VALUE lines for {{secret:NAME}} (else AMC_SECRET_NAME in the environment); "
	  "every value in it and every AMC_SECRET_* is masked in every task" },
	{ "semantic", "enrich", K_ENUM, "off", 0, 0, "off|on",
	  "SemanticScene enrichment: one model call per observation; off by default" },
	{ "semantic", "provider", K_ENUM, "auto", 0, 0, "auto|anthropic|openai",
	  "who enriches Scenes: anthropic, an OpenAI-compatible local server (AMC_OPENAI_BASE_URL), or auto "
	  "(anthropic when a key is set, else the local server when AMC_OPENAI_BASE_URL is set)" },
	{ "semantic", "model", K_STR, "claude-haiku-4-5", 0, 0, NULL,
	  "model of the enrichment call (AMC_SEMANTIC_MODEL overrides; a local server needs its own model name)" },
	{ "semantic", "timeout_ms", K_INT, "8000", 500, 120000, NULL,
	  "time budget of one enrichment call; past it the step goes on with the raw Scene" },
	{ "tui", "theme", K_STR, "default", 0, 0, NULL,
	  "colour theme: default, light, high-contrast, monochrome, or $XDG_CONFIG_HOME/amc/themes/NAME.theme" },
	{ "tui", "graphics", K_ENUM, "auto", 0, 0, "auto|symbols|sixel|kitty|iterm|none",
	  "how screenshots are drawn: auto (pixels where the terminal confirms sixel/kitty, else symbols), symbols, sixel, kitty, iterm, none (no image: its size in words, [screenshot 1080x2400])" },
	{ "ocr", "policy", K_ENUM, "gaps", 0, 0, "gaps|full|off",
	  "OCR of screenshots: gaps (only where the UI tree has no text), full (whole frame) or off" },
	{ "adb", "path", K_STR, "adb", 0, 0, NULL,
	  "the adb program (a name looked up in PATH, or a path); Debian package 'adb'" },
	{ "adb", "timeout_ms", K_INT, "20000", 500, 600000, NULL,
	  "wall-clock limit for one adb call (uiautomator dump takes 1-3 s on real phones)" },
	{ "adb", "capture", K_ENUM, "auto", 0, 0, "auto|raw|png",
	  "screen capture: raw (pixels, no PNG encode on the phone nor decode here; 10 MB a 1080x2400 frame), png (screencap -p), auto (measure both on the first frame, keep the faster)" },
	{ "appium", "endpoints", K_STR, "", 0, 0, NULL,
	  "Appium servers listed by `amc devices`, comma-separated URLs (device id appium:URL)" },
	{ "appium", "capabilities", K_STR, "", 0, 0, NULL,
	  "JSON object of W3C alwaysMatch capabilities for new Appium sessions (or a JSON file named by AMC_APPIUM_CAPS)" },
	{ "appium", "platform", K_ENUM, "auto", 0, 0, "auto|android|ios",
	  "which platform's `mobile:` commands switch airplane mode, dark mode and add media: auto reads platformName (else automationName) from the capabilities; android or ios for a driver whose platformName says neither" },
	{ "appium", "timeout_ms", K_INT, "30000", 500, 600000, NULL,
	  "wall-clock limit for one Appium HTTP request" },
	/* the fleet (docs/fleet.md): amc fleet, amc host, the TUI's Fleet view */
	{ "fleet", "url", K_STR, "", 0, 0, NULL,
	  "the fleet's PostgreSQL database: a libpq URI or connection string (passwords from ~/.pgpass or PGPASSWORD, never stored by amc)" },
	{ "fleet", "require_tls", K_ENUM, "on", 0, 0, "on|off",
	  "refuse a fleet database that is not a Unix socket or loopback unless the connection uses TLS (amc sets sslmode=require before connecting when the URL says less)" },
	{ "fleet", "lease_s", K_INT, "30", 2, 3600, NULL,
	  "how long a host's claim on an assignment lasts without a renewal, in seconds (database clock)" },
	{ "fleet", "renew_s", K_INT, "10", 1, 1200, NULL,
	  "a host renews its leases this often (at most a third of fleet.lease_s is used)" },
	{ "fleet", "reap_s", K_INT, "10", 1, 3600, NULL,
	  "a host runs the reaper (lost attempts are queued again) this often" },
	{ "fleet", "reap_grace_s", K_INT, "5", 0, 3600, NULL,
	  "an attempt is lost this many seconds after its lease ran out" },
	{ "fleet", "poll_s", K_INT, "30", 1, 3600, NULL,
	  "an idle host looks for work this often even when no NOTIFY came" },
	{ "fleet", "stop_timeout_s", K_INT, "30", 0, 3600, NULL,
	  "on SIGTERM a host lets running tasks finish this long, then hands them back (released)" },
	{ "fleet", "capabilities", K_STR, "", 0, 0, NULL,
	  "what this host offers beyond its devices, KEY=VALUE,... (e.g. gpu=h100,region=eu): every device of it "
	  "has these beside its own (kind, platform, os, model, screen, app=ID); a device claims only work whose "
	  "--needs they have (agent=claude / agent=codex are added when that CLI can run here, planner=on when a "
	  "planner is configured)" },
	{ "fleet", "js_http_hosts", K_STR, "", 0, 0, NULL,
	  "host names (comma list, exact) that the scripts of a fleet payload may reach with http.*; empty: none "
	  "(a payload is the operator's, run on this host's network)" },
	{ "fleet", "decisions", K_ENUM, "off", 0, 0, "off|on",
	  "also write each planner decision (prompts, tool calls; never screenshots) to the fleet database" },
	{ "fleet", "decisions_keep", K_INT, "200", 1, 100000000, NULL,
	  "the reaper keeps the fleet decision history of this many ended assignments" },
	{ "fleet", "decisions_max_age_days", K_INT, "30", 1, 36500, NULL,
	  "and of none that ended longer ago than this" },
};
#define NKEYS (sizeof KEYS / sizeof KEYS[0])

struct amc_config {
	char *value[NKEYS];
	char *origin[NKEYS];
	char path[PATH_MAX];
};

static int find_key(const char *section, const char *key)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(KEYS[i].section, section) && !strcmp(KEYS[i].key, key))
			return (int)i;
	return -1;
}

static int section_known(const char *section)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(KEYS[i].section, section))
			return 1;
	return 0;
}

amc_config *amc_config_new(void)
{
	amc_config *c = amc_xcalloc(1, sizeof *c);
	for (size_t i = 0; i < NKEYS; i++) {
		c->value[i] = amc_xstrdup(KEYS[i].def);
		c->origin[i] = amc_xstrdup("default");
	}
	return c;
}

void amc_config_free(amc_config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < NKEYS; i++) {
		free(c->value[i]);
		free(c->origin[i]);
	}
	free(c);
}

static int validate(const keydef *k, const char *v, char *why, size_t n)
{
	char *end;
	switch (k->type) {
	case K_STR:
		for (const char *p = v; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				snprintf(why, n, "control characters are not allowed");
				return -1;
			}
		if (strlen(v) > 4096) {
			snprintf(why, n, "value longer than 4096 bytes");
			return -1;
		}
		return 0;
	case K_INT: {
		errno = 0;
		long long x = strtoll(v, &end, 10);
		if (!*v || *end || errno) {
			snprintf(why, n, "'%.60s' is not a whole number", v);
			return -1;
		}
		if (x < k->min || x > k->max) {
			snprintf(why, n, "%lld is out of range (%.0f to %.0f)", x, k->min, k->max);
			return -1;
		}
		return 0;
	}
	case K_DOUBLE: {
		errno = 0;
		double x = strtod(v, &end);
		if (!*v || *end || errno || !isfinite(x)) {
			snprintf(why, n, "'%.60s' is not a number", v);
			return -1;
		}
		if (x < k->min || x > k->max) {
			snprintf(why, n, "%g is out of range (%g to %g)", x, k->min, k->max);
			return -1;
		}
		return 0;
	}
	case K_BOOL:
		if (!strcmp(v, "true") || !strcmp(v, "false") || !strcmp(v, "on") || !strcmp(v, "off") ||
		    !strcmp(v, "yes") || !strcmp(v, "no") || !strcmp(v, "1") || !strcmp(v, "0"))
			return 0;
		snprintf(why, n, "'%.60s' is not a boolean (true/false)", v);
		return -1;
	case K_ENUM: {
		size_t len = strlen(v);
		const char *p = k->choices;
		while (p && *p) {
			const char *bar = strchr(p, '|');
			size_t l = bar ? (size_t)(bar - p) : strlen(p);
			if (l == len && !strncmp(p, v, l))
				return 0;
			p = bar ? bar + 1 : NULL;
		}
		snprintf(why, n, "'%.60s' is not one of %s", v, k->choices);
		return -1;
	}
	}
	return -1;
}

/* Strength of a value's source: command line > environment > file > default. */
static int origin_rank(const char *origin)
{
	if (!origin || !strcmp(origin, "command line"))
		return 3;
	if (!strncmp(origin, "env:", 4))
		return 2;
	if (!strcmp(origin, "default"))
		return 0;
	return 1; /* "FILE:LINE" */
}

int amc_config_set(amc_config *c, const char *section, const char *key, const char *value,
		   const char *origin, amc_err *e)
{
	int i = find_key(section, key);
	if (i < 0) {
		char *s = amc_sanitize_dup(section), *k = amc_sanitize_dup(key);
		amc_err_set(e, AMC_EUSAGE, "unknown setting '%s.%s' (see `amc config` for the list)", s, k);
		free(s);
		free(k);
		return -1;
	}
	char why[200];
	if (validate(&KEYS[i], value, why, sizeof why) != 0) {
		char *s = amc_sanitize_dup(why);
		amc_err_set(e, AMC_EUSAGE, "bad value for %s.%s: %s", section, key, s);
		free(s);
		return -1;
	}
	/* Precedence does not depend on the order of the calls: a value from a
	 * weaker source never replaces one from a stronger source. */
	if (origin_rank(origin) < origin_rank(c->origin[i]))
		return 0;
	free(c->value[i]);
	free(c->origin[i]);
	c->value[i] = amc_xstrdup(value);
	c->origin[i] = amc_xstrdup(origin ? origin : "command line");
	return 0;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	char *end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* 1-based line number of byte `off`. */
static int line_at(const char *buf, size_t off)
{
	int line = 1;
	for (size_t i = 0; i < off; i++)
		if (buf[i] == '\n' && line < INT_MAX)
			line++;
	return line;
}

static void add_err(amc_sb *all, int *n, const amc_err *one)
{
	amc_sb_printf(all, "%s%s", *n ? "; " : "", one->msg);
	(*n)++;
}

int amc_config_parse(amc_config *c, const char *buf, size_t len, const char *name, amc_err *e)
{
	if (len > AMC_CONFIG_MAX_BYTES)
		return amc_err_set(e, AMC_EUSAGE, "%s:%d: the file is larger than the limit of %u bytes",
				   name, line_at(buf, AMC_CONFIG_MAX_BYTES), AMC_CONFIG_MAX_BYTES);
	const char *nul = memchr(buf, '\0', len);
	if (nul)
		return amc_err_set(e, AMC_EUSAGE, "%s:%d: contains a NUL byte; a config file is plain text",
				   name, line_at(buf, (size_t)(nul - buf)));
	char *copy = amc_xstrndup(buf, len);
	char section[64] = "";
	int lineno = 0, rc = 0, nerr = 0, skip = 0;
	/* every error of the file at once, so one edit fixes them all */
	amc_sb all;
	amc_sb_init(&all);
	amc_err one;
	char *save = NULL;
	char *p = copy;
	for (;;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		lineno++;
		char *line = trim(p);
		if (*line == '\0' || *line == '#' || *line == ';') {
			/* comment or blank */
		} else if (*line == '[') {
			char *close = strchr(line, ']');
			if (!close || *trim(close + 1) != '\0') {
				amc_err_set(&one, AMC_EUSAGE, "%s:%d: a section header looks like [name]", name, lineno);
				add_err(&all, &nerr, &one);
				skip = 1;
				goto next;
			}
			*close = '\0';
			char *sec = trim(line + 1);
			if (!section_known(sec) || strlen(sec) >= sizeof section) {
				char *s = amc_sanitize_dup(sec);
				amc_err_set(&one, AMC_EUSAGE, "%s:%d: unknown section [%s]", name, lineno, s);
				free(s);
				add_err(&all, &nerr, &one);
				skip = 1; /* its keys are not errors of their own */
				goto next;
			}
			strcpy(section, sec);
			skip = 0;
		} else if (skip) {
			/* under a bad section header: already said */
		} else {
			char *eq = strchr(line, '=');
			if (!eq) {
				amc_err_set(&one, AMC_EUSAGE, "%s:%d: expected 'key = value'", name, lineno);
				add_err(&all, &nerr, &one);
				goto next;
			}
			if (!section[0]) {
				amc_err_set(&one, AMC_EUSAGE, "%s:%d: a setting must follow a [section] header", name, lineno);
				add_err(&all, &nerr, &one);
				goto next;
			}
			*eq = '\0';
			char *key = trim(line), *val = trim(eq + 1);
			size_t vl = strlen(val);
			/* Optional double quotes keep leading/trailing spaces. */
			if (vl >= 2 && val[0] == '"' && val[vl - 1] == '"') {
				val[vl - 1] = '\0';
				val++;
			}
			char origin[PATH_MAX + 32]; /* "FILE:LINE" */
			snprintf(origin, sizeof origin, "%s:%d", name, lineno);
			if (amc_config_set(c, section, key, val, origin, &one) != 0) {
				amc_err_prefix(&one, "%s:%d", name, lineno);
				add_err(&all, &nerr, &one);
			}
		}
	next:
		if (!nl)
			break;
		p = nl + 1;
	}
	if (nerr) {
		if (nerr > 1)
			amc_err_set(e, AMC_EUSAGE, "%d errors: %s", nerr, amc_sb_str(&all));
		else
			amc_err_set(e, AMC_EUSAGE, "%s", amc_sb_str(&all));
		rc = -1;
	}
	amc_sb_free(&all);
	(void)save;
	free(copy);
	return rc;
}

int amc_config_load_file(amc_config *c, const char *path, amc_err *e)
{
	char *buf;
	size_t len;
	snprintf(c->path, sizeof c->path, "%s", path);
	if (!amc_file_exists(path))
		return 0;
	if (amc_read_file(path, AMC_CONFIG_MAX_BYTES, &buf, &len, e) != 0)
		return amc_err_prefix(e, "config file");
	int rc = amc_config_parse(c, buf, len, path, e);
	free(buf);
	return rc;
}

int amc_config_load_env(amc_config *c, amc_err *e)
{
	for (size_t i = 0; i < NKEYS; i++) {
		char var[128];
		int n = snprintf(var, sizeof var, "AMC_%s_%s", KEYS[i].section, KEYS[i].key);
		for (int j = 0; j < n; j++)
			var[j] = (char)toupper((unsigned char)var[j]);
		const char *v = getenv(var);
		if (!v)
			continue;
		char origin[160];
		snprintf(origin, sizeof origin, "env:%s", var);
		if (amc_config_set(c, KEYS[i].section, KEYS[i].key, v, origin, e) != 0)
			return amc_err_prefix(e, "environment variable %s", var);
	}
	return 0;
}

int amc_config_load(amc_config **out, amc_err *e)
{
	amc_config *c = amc_config_new();
	char path[PATH_MAX];
	if (amc_paths_config_file(path, sizeof path, e) != 0 ||
	    amc_config_load_file(c, path, e) != 0 || amc_config_load_env(c, e) != 0) {
		amc_config_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

static int must_find(const char *section, const char *key)
{
	int i = find_key(section, key);
	if (i < 0) {
		fprintf(stderr, "amc: internal error: undeclared setting %s.%s\n", section, key);
		abort();
	}
	return i;
}

const char *amc_config_str(const amc_config *c, const char *section, const char *key)
{
	return c->value[must_find(section, key)];
}

long amc_config_int(const amc_config *c, const char *section, const char *key)
{
	return strtol(c->value[must_find(section, key)], NULL, 10);
}

double amc_config_double(const amc_config *c, const char *section, const char *key)
{
	return strtod(c->value[must_find(section, key)], NULL);
}

size_t amc_config_count(const amc_config *c)
{
	(void)c;
	return NKEYS;
}

amc_config_item amc_config_item_at(const amc_config *c, size_t i)
{
	amc_config_item it = { KEYS[i].section, KEYS[i].key, c->value[i], c->origin[i], KEYS[i].help };
	return it;
}

void amc_config_item_values(size_t i, char *buf, size_t n)
{
	if (!n)
		return;
	buf[0] = 0;
	if (i >= NKEYS)
		return;
	const keydef *k = &KEYS[i];
	switch (k->type) {
	case K_ENUM: snprintf(buf, n, "%s", k->choices); break;
	case K_BOOL: snprintf(buf, n, "true|false"); break;
	case K_INT: snprintf(buf, n, "%.0f..%.0f", k->min, k->max); break;
	case K_DOUBLE:
		if (k->min < k->max)
			snprintf(buf, n, "%g..%g", k->min, k->max);
		else
			snprintf(buf, n, "a number");
		break;
	case K_STR: snprintf(buf, n, "text"); break;
	}
}

const char *amc_config_file_path(const amc_config *c)
{
	return c->path;
}

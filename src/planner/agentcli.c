/* agentcli.c - a coding agent's CLI as a goal's planner (agentcli.h).
 *
 * Threads: the runner's (next, hooks), the watcher (runs the CLI to its end
 * and, when the agent did not finish, ends the task with the reason), and the
 * endpoint's (amc_agentcli_serve, MCP calls handed to the external planner). */
#include "planner/agentcli.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "planner/agentcli_result.h"
#include "planner/extplanner.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/log.h"
#include "util/paths.h"
#include "util/proc.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

extern char **environ;

/* What is kept of the CLI's stdout besides the stream read as it runs
 * (on_out): nothing reads it, so a little. */
#define OUT_MAX (64u * 1024)
#define ERR_MAX (256u * 1024)
/* How long an act waits for the CLI's line that announced it (its words). */
#define WORDS_WAIT_MS 1000L
/* After the agent's finish, the CLI's last turn and exit. */
#define EXIT_GRACE_MS 30000L
/* How long the watcher keeps handing in the end while a step is in flight. */
#define FINISH_RETRY_MS 60000L

typedef struct agent {
	amc_agent_kind kind;
	amc_config *cfg;                /* a copy: the caller's may be a temporary */
	char model[128];
	amc_agentcli_billing bill;
	/* Why this host cannot bill the run (not logged in, no key): met at the
	 * start, so the task is recorded failed with it, as a missing CLI is. */
	char start_err[AMC_ERR_MSG_MAX];
	char name[32];                  /* "agent:claude" */
	amc_planner *xp;                /* the external planner we delegate to */
	amc_extplanner *x;
	const amc_agentcli_serve *serve;
	void *served;                   /* the run's MCP endpoint, once started */
	char dir[PATH_MAX];             /* $AMC_HOME/agents/TASK */
	char sock[300];
	char version[128];
	char path[PATH_MAX];            /* the CLI start() found (its --version ran) */
	int started;
	pthread_t watcher;
	int watching;
	atomic_int kill;                /* set: end the CLI's process group */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int exited;                     /* under mu: the watcher has read the CLI's end */
	amc_agentcli_usage usage;       /* under mu, once exited */
	amc_agentcli_stream stream;     /* under mu: the CLI's stdout as it runs */
	int exit_code, timed_out;
	char stderr_tail[400];
	char goal[4096];
	char task_id[64];
} agent;

/* ---- set-up ---- */

static amc_config *config_copy(const amc_config *cfg, amc_err *e)
{
	amc_config *c = amc_config_new();
	for (size_t i = 0; i < amc_config_count(cfg); i++) {
		amc_config_item it = amc_config_item_at(cfg, i);
		if (strcmp(it.origin, "default") && amc_config_set(c, it.section, it.key, it.value, it.origin, e) != 0) {
			amc_config_free(c);
			return NULL;
		}
	}
	return c;
}

/* A TOML basic string: quotes and backslashes escaped, controls refused. */
static int toml_str(amc_sb *sb, const char *s)
{
	amc_sb_putc(sb, '"');
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20)
			return -1;
		if (*s == '"' || *s == '\\')
			amc_sb_putc(sb, '\\');
		amc_sb_putc(sb, *s);
	}
	amc_sb_putc(sb, '"');
	return 0;
}

static int self_exe(char *out, size_t n, amc_err *e)
{
	ssize_t l = readlink("/proc/self/exe", out, n - 1);
	if (l <= 0)
		return amc_err_set(e, AMC_EENV, "cannot find amc's own program (/proc/self/exe) to serve the agent");
	out[l] = 0;
	return 0;
}

/* Claude Code's MCP config: amc's one server, the forwarder to our socket. */
static int write_claude_config(agent *a, const char *exe, char *file, size_t n, amc_err *e)
{
	cJSON *j = cJSON_CreateObject(), *servers = cJSON_AddObjectToObject(j, "mcpServers");
	cJSON *amc = cJSON_AddObjectToObject(servers, "amc");
	amc_json_add_str(amc, "type", "stdio");
	amc_json_add_str(amc, "command", exe);
	cJSON *args = cJSON_AddArrayToObject(amc, "args");
	cJSON_AddItemToArray(args, cJSON_CreateString("mcp"));
	cJSON_AddItemToArray(args, cJSON_CreateString("--attach"));
	cJSON_AddItemToArray(args, cJSON_CreateString(a->sock));
	char *text = amc_json_print(j);
	cJSON_Delete(j);
	snprintf(file, n, "%s/mcp.json", a->dir);
	int rc = amc_write_atomic(file, text, strlen(text), 0600, e);
	free(text);
	return rc;
}

/* Codex's private CODEX_HOME: amc's config.toml (its MCP server, and the
 * user's agent.codex_config fragment), the user's auth.json linked in under
 * subscription billing. The user's own config.toml is not read. */
static int write_codex_home(agent *a, const char *exe, char *home, size_t n, amc_err *e)
{
	snprintf(home, n, "%s/codex-home", a->dir);
	if (amc_mkdir_p(home, 0700, e) != 0)
		return -1;
	amc_sb t;
	amc_sb_init(&t);
	/* amc's top-level keys, then the user's fragment (its own top-level keys
	 * before its tables), then amc's tables */
	amc_sb_puts(&t, "# written by amc for one agent run; your ~/.codex/config.toml is not read\n"
			"approval_policy = \"never\"\n"
			"sandbox_mode = \"read-only\"\n"
			"web_search = \"disabled\"\n\n");
	const char *extra = amc_config_str(a->cfg, "agent", "codex_config");
	if (extra && *extra) {
		char *buf = NULL;
		size_t len = 0;
		if (amc_read_file(extra, 256 * 1024, &buf, &len, e) != 0) {
			amc_sb_free(&t);
			return amc_err_prefix(e, "agent.codex_config");
		}
		amc_sb_append(&t, buf, len);
		free(buf);
	}
	/* only amc's tools: the shell, sub-agents, images and goals are off */
	amc_sb_puts(&t, "\n\n[features]\nshell_tool = false\nunified_exec = false\nmulti_agent = false\n"
			"view_image = false\nimage_generation = false\ngoals = false\nskill_search = false\n\n"
			"[mcp_servers.amc]\ncommand = ");
	int bad = toml_str(&t, exe);
	amc_sb_puts(&t, "\nargs = [\"mcp\", \"--attach\", ");
	bad |= toml_str(&t, a->sock);
	/* amc asks the person before irreversible taps itself: Codex must not
	 * refuse act for its destructive hint (approval_policy never) */
	amc_sb_puts(&t, "]\nstartup_timeout_sec = 30\ntool_timeout_sec = 600\ndefault_tools_approval_mode = \"approve\"\n");
	char file[PATH_MAX + 32];
	if (snprintf(file, sizeof file, "%s/config.toml", home) >= (int)sizeof file)
		bad = 1;
	int rc = bad ? amc_err_set(e, AMC_EENV, "a path has control characters; cannot write Codex's configuration")
		     : amc_write_atomic(file, t.buf, t.len, 0600, e);
	amc_sb_free(&t);
	if (rc != 0 || a->bill.api)
		return rc;
	/* the login: a link, so a token Codex refreshes lands in the user's file */
	const char *uh = getenv("CODEX_HOME");
	char user[PATH_MAX], link_path[PATH_MAX + 32];
	if (uh && *uh)
		snprintf(user, sizeof user, "%s/auth.json", uh);
	else
		snprintf(user, sizeof user, "%s/.codex/auth.json", getenv("HOME") ? getenv("HOME") : "");
	if (snprintf(link_path, sizeof link_path, "%s/auth.json", home) >= (int)sizeof link_path)
		return amc_err_set(e, AMC_EENV, "the run's folder path is too long");
	unlink(link_path);
	if (symlink(user, link_path) != 0)
		return amc_err_set(e, AMC_EENV, "cannot link your Codex login into the run's folder: %s", strerror(errno));
	return 0;
}

static int secret_env(const char *kv)
{
	return !strncmp(kv, "AMC_SECRET_", 11) || !strncmp(kv, "OMP_THREAD_LIMIT=", 17) || !strncmp(kv, "AMC_OMP_SET=", 12);
}

/* The CLI's environment: amc's, without secrets and, unless API billing was
 * chosen, without the API keys, plus what the kind needs. Owned strings. */
static char **child_env(agent *a, const char *codex_home)
{
	static const char *const KEYS[] = { "ANTHROPIC_API_KEY=", "ANTHROPIC_AUTH_TOKEN=", "OPENAI_API_KEY=",
					    "CODEX_API_KEY=", NULL };
	size_t n = 0;
	for (char **p = environ; p && *p; p++)
		n++;
	char **env = calloc(n + 8, sizeof *env);
	size_t k = 0;
	for (char **p = environ; p && *p; p++) {
		if (secret_env(*p) || !strncmp(*p, "CODEX_HOME=", 11) ||
		    !strncmp(*p, "MCP_CONNECTION_NONBLOCKING=", 27))
			continue;
		int key = 0;
		for (int i = 0; KEYS[i]; i++)
			if (!strncmp(*p, KEYS[i], strlen(KEYS[i])))
				key = 1;
		if (key && !a->bill.api)
			continue; /* never switch a subscription run to API billing */
		env[k++] = amc_xstrdup(*p);
	}
	if (codex_home) {
		amc_sb s;
		amc_sb_init(&s);
		amc_sb_printf(&s, "CODEX_HOME=%s", codex_home);
		env[k++] = amc_sb_detach(&s);
	} else {
		env[k++] = amc_xstrdup("DISABLE_AUTOUPDATER=1");
		env[k++] = amc_xstrdup("DISABLE_ERROR_REPORTING=1");
		env[k++] = amc_xstrdup("DISABLE_TELEMETRY=1");
		/* Claude Code 2.1 connects MCP servers in the background in print
		 * mode, so on a loaded host its first turn can go out without amc's
		 * tools and the run ends with no act (seen in make check at load 4):
		 * wait for amc's server before the first turn. */
		env[k++] = amc_xstrdup("MCP_CONNECTION_NONBLOCKING=0");
		/* Claude Code retries a refused call (401 included) for minutes:
		 * a bounded few, unless the user chose otherwise */
		if (!getenv("CLAUDE_CODE_MAX_RETRIES"))
			env[k++] = amc_xstrdup("CLAUDE_CODE_MAX_RETRIES=3");
	}
	env[k] = NULL;
	return env;
}

static void free_env(char **env)
{
	for (char **p = env; p && *p; p++)
		free(*p);
	free(env);
}

static void prompt_text(agent *a, amc_sb *p)
{
	amc_sb_printf(p,
		      "You operate an Android phone through amc's two MCP tools, and nothing else.\n"
		      "Goal: %s\n\n"
		      "- observe: the screen now, as a Scene (elements with ids, types, bounds and text) and a screenshot.\n"
		      "- act: one action at a time: tap or long_press an element by its id (or x,y in device pixels), "
		      "type_text, press_key, swipe, launch_app, wait. Give a short reason with every act; it is "
		      "recorded with the step. Each act answers with the new screen.\n"
		      "When the goal is reached, call act with action \"finish\", success true and a one-line summary "
		      "(for a question, the answer in \"answer\"). If it cannot be reached, call act finish with success "
		      "false and say why. A person may be asked to confirm irreversible taps; a refusal is final.",
		      a->goal);
}

/* ---- the watcher ---- */

static void tail_of(const char *s, size_t n, char *out, size_t on)
{
	/* the last non-empty line says most (Node's errors, Codex's reconnects) */
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
		n--;
	size_t b = n;
	while (b && s[b - 1] != '\n')
		b--;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(s + b, n - b > 600 ? 600 : n - b, &sb);
	snprintf(out, on, "%s", amc_sb_str(&sb));
	amc_sb_free(&sb);
}

static int has(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle) != NULL;
}

/* Why the task ends, when the agent did not finish it: a reason a person can act on. */
static void fail_reason(agent *a, amc_sb *r)
{
	const char *t = amc_agentcli_kind_title(a->kind), *n = amc_agentcli_kind_name(a->kind);
	const amc_agentcli_usage *u = &a->usage;
	const char *said = u->error[0] ? u->error : u->result[0] ? u->result : a->stderr_tail;
	long limit = amc_config_int(a->cfg, "agent", "timeout_s");
	if (a->timed_out) {
		amc_sb_printf(r, "%s did not finish within %ld s (agent.timeout_s); its processes were ended", t, limit);
		if (u->reconnecting || has(a->stderr_tail, "Reconnecting") || has(said, "Reconnecting"))
			amc_sb_puts(r, ". It kept reconnecting to its model endpoint: check the network, or the base URL "
				       "in agent.codex_config");
		else if (!u->have_result && u->tool_calls <= 0 && a->kind == AMC_AGENT_CODEX)
			amc_sb_puts(r, ". It never got an answer from its model (Codex retries an unreachable endpoint "
				       "without end): check the network, or the base URL in agent.codex_config");
	} else if (u->api_status == 401 || u->api_status == 403 || has(said, "401") || has(said, "Invalid API key") || has(said, "/login") ||
		   has(said, "authentication_error") || has(said, "Unauthorized") || has(said, "Not logged in")) {
		amc_sb_printf(r, "%s could not use its login (the model API answered %d: %s): run `%s` once and log "
			      "in again%s", t, u->api_status ? u->api_status : 401, said, n,
			      a->bill.api ? ", or check the API key (API billing was chosen)" : "");
	} else if (!strcmp(u->subtype, "error_max_turns")) {
		amc_sb_printf(r, "%s used all its turns (agent.max_turns = %ld) without finishing the goal", t,
			      amc_config_int(a->cfg, "agent", "max_turns"));
	} else if (has(u->subtype, "budget") || has(said, "budget")) {
		amc_sb_printf(r, "%s reached the cost budget (planner.max_cost_usd = %.4g USD, passed as --max-budget-usd) "
			      "without finishing the goal%s%s", t, amc_config_double(a->cfg, "planner", "max_cost_usd"),
			      said[0] ? ": " : "", said);
	} else if (a->exit_code > 128) {
		amc_sb_printf(r, "%s died (signal %d) in the middle of the task", t, a->exit_code - 128);
		if (a->stderr_tail[0])
			amc_sb_printf(r, ": %s", a->stderr_tail);
	} else if (u->is_error || a->exit_code != 0) {
		amc_sb_printf(r, "%s ended with an error (exit %d)%s%s", t, a->exit_code, said[0] ? ": " : "", said);
	} else {
		amc_sb_printf(r, "%s stopped without finishing the task (it never called act finish)%s%s", t,
			      said[0] ? "; its last words: " : "", said);
	}
}

/* The CLI has exited (ran) or could not start (e): read what it reported,
 * and if the agent did not finish the task, end it with the reason. On the
 * watcher's thread. */
static void read_end(agent *a, int ran, const amc_proc_result *rp, const amc_err *ep)
{
	pthread_mutex_lock(&a->mu);
	if (ran) {
		amc_agentcli_stream_end(&a->stream);
		a->usage = a->stream.usage;
		a->exit_code = rp->exit_code;
		a->timed_out = rp->timed_out;
		tail_of(rp->err ? rp->err : "", rp->err_len, a->stderr_tail, sizeof a->stderr_tail);
		if (a->kind == AMC_AGENT_CODEX && rp->err && strstr(rp->err, "Reconnecting"))
			a->usage.reconnecting = 1;
	} else {
		amc_agentcli_usage_init(&a->usage);
		snprintf(a->usage.error, sizeof a->usage.error, "%.500s", ep->msg);
		a->usage.is_error = 1;
		a->exit_code = -1;
	}
	a->exited = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);

	/* The CLI is gone. If the agent did not finish the task, end it. */
	amc_sb why;
	amc_sb_init(&why);
	if (!ran)
		amc_sb_printf(&why, "%s could not be started: %s", amc_agentcli_kind_title(a->kind), ep->msg);
	else
		fail_reason(a, &why);
	long long until = amc_mono_ms() + FINISH_RETRY_MS;
	while (!atomic_load(&a->kill) && amc_mono_ms() < until) {
		amc_err fe;
		if (a->serve->ended(a->served))
			break;
		if (amc_extplanner_finish(a->x, 0, amc_sb_str(&why), &fe) == 0)
			break;
		/* AMC_EUSAGE: a step it started is still being recorded, or a finish
		 * is already in: wait for the step, then say why */
		if (strstr(fe.msg, "finish"))
			break;
		amc_sleep_ms(100);
	}
	amc_sb_free(&why);
}

/* The CLI's stdout as it arrives (on the watcher's thread). */
static void on_out(const char *buf, size_t n, void *ud)
{
	agent *a = ud;
	pthread_mutex_lock(&a->mu);
	amc_agentcli_stream_feed(&a->stream, buf, n);
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

/* What the agent said before the act with this reason, for the step's
 * reasoning (extplanner's words source, on the MCP connection's thread). The
 * CLI prints the act's announcement before it calls the tool, but the two
 * travel different pipes: wait a moment for the line. */
static char *agent_words(void *ud, const char *reason)
{
	agent *a = ud;
	char *words = NULL;
	char buf[AMC_AGENTCLI_THOUGHT_MAX];
	long long until = amc_mono_ms() + WORDS_WAIT_MS;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		if (amc_agentcli_stream_take(&a->stream, reason, buf, sizeof buf)) {
			if (buf[0])
				words = amc_xstrdup(buf);
			break;
		}
		if (a->exited || amc_mono_ms() >= until)
			break;
		struct timespec ts;
		amc_timespec_after(CLOCK_MONOTONIC, 50, &ts);
		pthread_cond_timedwait(&a->cv, &a->mu, &ts);
	}
	pthread_mutex_unlock(&a->mu);
	return words;
}

static void *watch_main(void *arg)
{
	agent *a = arg;
	char exe[PATH_MAX], cfgfile[PATH_MAX + 32], codex_home[PATH_MAX + 32], work[PATH_MAX + 8];
	amc_err e;
	amc_sb prompt;
	amc_sb_init(&prompt);
	prompt_text(a, &prompt);
	snprintf(work, sizeof work, "%s/work", a->dir);
	const char *argv[40];
	int k = 0;
	char turns[32], budget[32];
	snprintf(turns, sizeof turns, "%ld", amc_config_int(a->cfg, "agent", "max_turns"));
	double max_cost = amc_config_double(a->cfg, "planner", "max_cost_usd");
	snprintf(budget, sizeof budget, "%.4f", max_cost);
	int ok = self_exe(exe, sizeof exe, &e) == 0 && amc_mkdir_p(work, 0700, &e) == 0;
	if (ok && a->kind == AMC_AGENT_CLAUDE && write_claude_config(a, exe, cfgfile, sizeof cfgfile, &e) == 0) {
		argv[k++] = a->path;
		argv[k++] = "-p";
		argv[k++] = amc_sb_str(&prompt);
		/* events as they happen: the agent's words go with its acts */
		argv[k++] = "--output-format";
		argv[k++] = "stream-json";
		argv[k++] = "--verbose";
		argv[k++] = "--max-turns";
		argv[k++] = turns;
		argv[k++] = "--tools";
		argv[k++] = "";
		argv[k++] = "--strict-mcp-config";
		argv[k++] = "--mcp-config";
		argv[k++] = cfgfile;
		argv[k++] = "--allowedTools";
		argv[k++] = "mcp__amc__observe,mcp__amc__act";
		argv[k++] = "--permission-mode";
		argv[k++] = "dontAsk";
		argv[k++] = "--no-session-persistence";
		/* the user's login, not their settings, hooks or plugins */
		argv[k++] = "--setting-sources";
		argv[k++] = "";
		if (a->bill.api) {
			argv[k++] = "--bare"; /* skips the login: only under API billing */
			if (max_cost > 0) {
				argv[k++] = "--max-budget-usd";
				argv[k++] = budget;
			}
		}
		if (a->model[0]) {
			argv[k++] = "--model";
			argv[k++] = a->model;
		}
	} else if (ok && a->kind == AMC_AGENT_CODEX && write_codex_home(a, exe, codex_home, sizeof codex_home, &e) == 0) {
		argv[k++] = a->path;
		argv[k++] = "exec";
		argv[k++] = "--json";
		argv[k++] = "--skip-git-repo-check";
		argv[k++] = "--ephemeral";
		argv[k++] = "-s";
		argv[k++] = "read-only";
		argv[k++] = "-C";
		argv[k++] = work;
		if (a->model[0]) {
			argv[k++] = "-m";
			argv[k++] = a->model;
		}
		argv[k++] = "--";
		argv[k++] = amc_sb_str(&prompt);
	} else {
		ok = 0;
	}
	argv[k] = NULL;
	amc_proc_result r = { 0 };
	r.exit_code = -1;
	int ran = 0;
	if (ok) {
		char **env = child_env(a, a->kind == AMC_AGENT_CODEX ? codex_home : NULL);
		amc_proc_opts o = { .timeout_ms = amc_config_int(a->cfg, "agent", "timeout_s") * 1000L,
				    .max_out = OUT_MAX, .max_err = ERR_MAX, .env = env, .cwd = work,
				    .cancel = &a->kill, .term_ms = 2000, .kill_group = 1,
				    .on_out = on_out, .on_out_ud = a };
		amc_log(AMC_LOG_INFO, "agent: task %s: starting %s (%s billing)", a->task_id, a->path, a->bill.mode);
		ran = amc_proc_run_opts(argv, &o, &r, &e) == 0;
		free_env(env);
	}
	amc_sb_free(&prompt);

	read_end(a, ran, &r, &e);
	amc_proc_result_free(&r);
	return NULL;
}

/* ---- the planner ---- */

/* Wait (bounded) for the watcher to have read the CLI's end; kill it past the bound. */
static void await_exit(agent *a, long ms)
{
	long long until = amc_mono_ms() + ms;
	pthread_mutex_lock(&a->mu);
	while (!a->exited) {
		if (amc_mono_ms() >= until)
			atomic_store(&a->kill, 1);
		struct timespec ts;
		amc_timespec_after(CLOCK_MONOTONIC, 100, &ts);
		pthread_cond_timedwait(&a->cv, &a->mu, &ts);
	}
	pthread_mutex_unlock(&a->mu);
}

/* The task's last decision: what the CLI reported, with billing. */
static void usage_decision(agent *a, amc_action *out)
{
	const amc_agentcli_usage *u = &a->usage;
	cJSON *d = cJSON_CreateObject();
	amc_json_add_str(d, "model", a->model[0] ? a->model : "(the CLI's default)");
	amc_json_add_str(d, "tool", a->name);
	cJSON *det = cJSON_AddObjectToObject(d, "detail");
	amc_json_add_str(det, "cli", amc_agentcli_kind_title(a->kind));
	if (a->version[0])
		amc_json_add_str(det, "version", a->version);
	amc_json_add_str(det, "billing", a->bill.mode);
	amc_json_add_str(det, "billing_why", a->bill.why);
	if (u->session_id[0])
		amc_json_add_str(det, "session_id", u->session_id);
	else
		cJSON_AddNullToObject(det, "session_id");
	if (u->turns >= 0)
		cJSON_AddNumberToObject(det, "turns", u->turns);
	else
		cJSON_AddNullToObject(det, "turns");
	if (u->cost_usd >= 0)
		cJSON_AddNumberToObject(det, a->bill.api ? "cost_usd" : "cost_usd_notional", u->cost_usd);
	else
		cJSON_AddNullToObject(det, "cost_usd");
	if (u->cache_read_tokens >= 0)
		cJSON_AddNumberToObject(det, "cache_read_tokens", (double)u->cache_read_tokens);
	cJSON_AddNumberToObject(det, "exit_code", a->exit_code);
	if (u->subtype[0])
		amc_json_add_str(det, "subtype", u->subtype);
	if (u->result[0])
		amc_json_add_str(det, "result", u->result);
	if (u->is_error)
		amc_json_add_str(det, "error", u->error[0] ? u->error : "the CLI reported an error");
	out->decision = d;
	out->input_tokens = u->input_tokens;
	out->output_tokens = u->output_tokens;
	/* a subscription's cost is notional: not charged to the task */
	out->cost_usd = a->bill.api ? u->cost_usd : -1;
}

static int start(agent *a, const amc_plan_ctx *ctx, amc_err *e)
{
	a->started = 1;
	snprintf(a->task_id, sizeof a->task_id, "%s", ctx->task->id);
	snprintf(a->goal, sizeof a->goal, "%s", ctx->task->goal ? ctx->task->goal : "");
	amc_agentcli_probe pr;
	amc_agentcli_probe_run(a->cfg, a->kind, 1, &pr);
	if (!pr.found || !pr.version_ok)
		return amc_err_set(e, AMC_EENV, "%s cannot run here: %s", amc_agentcli_kind_title(a->kind), pr.version_error);
	if (a->start_err[0])
		return amc_err_set(e, AMC_EENV, "%s", a->start_err);
	snprintf(a->version, sizeof a->version, "%s", pr.version);
	snprintf(a->path, sizeof a->path, "%s", pr.path);
	char home[PATH_MAX];
	if (amc_paths_home(home, sizeof home, e) != 0)
		return -1;
	if (snprintf(a->dir, sizeof a->dir, "%s/agents/%s", home, a->task_id) >= (int)sizeof a->dir)
		return amc_err_set(e, AMC_EENV, "$AMC_HOME is too long a path for the agent's folder");
	if (amc_mkdir_p(a->dir, 0700, e) != 0)
		return -1;
	if (a->serve->open(home, a->cfg, a->x, a->task_id, ctx->task->device, &a->served, a->sock, sizeof a->sock,
			   e) != 0)
		return -1;
	if (pthread_create(&a->watcher, NULL, watch_main, a) != 0)
		return amc_err_set(e, AMC_EENV, "cannot start a thread to run the agent");
	a->watching = 1;
	return 0;
}

static amc_plan_rc agent_next(amc_planner *p, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	agent *a = p->impl;
	if (!a->started && start(a, ctx, e) != 0)
		return AMC_PLAN_FAIL;
	a->xp->cancel = p->cancel;
	amc_plan_rc rc = a->xp->ops->next(a->xp, ctx, out, e);
	if (rc == AMC_PLAN_DONE || rc == AMC_PLAN_FAIL) {
		/* the task ends here: the CLI's last turn and its usage first */
		await_exit(a, EXIT_GRACE_MS);
		pthread_mutex_lock(&a->mu);
		usage_decision(a, out);
		pthread_mutex_unlock(&a->mu);
	}
	return rc;
}

static void agent_recorded(amc_planner *p, const amc_step_report *r)
{
	agent *a = p->impl;
	if (a->xp->hooks && a->xp->hooks->recorded)
		a->xp->hooks->recorded(a->xp, r);
}

static void agent_ended(amc_planner *p, const amc_task_outcome *o)
{
	agent *a = p->impl;
	atomic_store(&a->kill, 1); /* cancelled, failed or done: the CLI goes */
	amc_planner_ended(a->xp, o);
}

static void agent_destroy(amc_planner *p)
{
	agent *a = p->impl;
	atomic_store(&a->kill, 1);
	if (a->watching)
		pthread_join(a->watcher, NULL);
	a->serve->close(a->served);
	/* the private folder (MCP config, CODEX_HOME with the login's link) is
	 * the run's only: what the run did is in the task */
	if (a->dir[0])
		amc_rm_rf(a->dir);
	amc_extplanner_free(a->x);
	amc_planner_free(a->xp);
	amc_config_free(a->cfg);
	amc_agentcli_stream_free(&a->stream);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	free(a);
	free(p);
}

static const amc_planner_hooks AGENT_HOOKS = { agent_recorded, agent_ended };

/* Set once by the front end before any planner is made (as launch/'s agent_fn). */
static const amc_agentcli_serve *serve;

void amc_agentcli_set_serve(const amc_agentcli_serve *s)
{
	serve = s;
}

int amc_agentcli_planner_new(const amc_config *cfg, const char *provider, const char *model, amc_planner **out,
			     amc_err *e)
{
	*out = NULL;
	amc_agent_kind kind;
	if (amc_agentcli_kind_parse(provider, &kind) != 0)
		return amc_err_set(e, AMC_EUSAGE, "unknown agent: use claude or codex");
	if (!serve)
		return amc_err_set(e, AMC_EENV, "this front end serves no MCP endpoint, so a coding agent's CLI "
			       "cannot act here: use amc run --agent");
	amc_billing_choice choice;
	if (amc_agentcli_billing_parse(amc_config_str(cfg, "agent", "billing"), &choice) != 0)
		choice = AMC_BILLING_AUTO;
	amc_agentcli_probe pr;
	amc_agentcli_probe_run(cfg, kind, 0, &pr);
	amc_agentcli_billing bill;
	amc_err be;
	amc_err_clear(&be);
	int d = amc_agentcli_billing_decide(&pr, choice, &bill, &be);
	if (d < 0 && be.code != AMC_EENV) {
		*e = be;
		return -1;
	}
	if (d > 0)
		return amc_err_set(e, AMC_EUSAGE, "%s Say so with --billing api (or agent.billing = api); amc does not "
			       "start a run on a billing you did not choose", bill.why);
	agent *a = amc_xcalloc(1, sizeof *a);
	if (d < 0)
		snprintf(a->start_err, sizeof a->start_err, "%s", be.msg);
	a->cfg = config_copy(cfg, e);
	if (!a->cfg) {
		free(a);
		return -1;
	}
	a->kind = kind;
	a->bill = bill;
	a->serve = serve;
	snprintf(a->model, sizeof a->model, "%s", model ? model : "");
	snprintf(a->name, sizeof a->name, "agent:%s", amc_agentcli_kind_name(kind));
	pthread_mutex_init(&a->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&a->cv, &ca);
	pthread_condattr_destroy(&ca);
	/* the agent thinks between steps: wait for it as long as it may run */
	amc_extplanner_opts xo = { .wait_ms = amc_config_int(cfg, "agent", "timeout_s") * 1000L + 5000, .gated = 1,
				   .name = a->name, .image_edge = serve->image_edge };
	amc_extplanner_new(&xo, &a->xp, &a->x);
	amc_agentcli_stream_init(&a->stream, kind == AMC_AGENT_CODEX);
	amc_extplanner_set_words(a->x, agent_words, a);
	amc_planner *p = amc_xcalloc(1, sizeof *p);
	static amc_planner_ops ops_claude = { "agent:claude", agent_next, agent_destroy };
	static amc_planner_ops ops_codex = { "agent:codex", agent_next, agent_destroy };
	p->ops = kind == AMC_AGENT_CLAUDE ? &ops_claude : &ops_codex;
	p->impl = a;
	p->keep_going = a->xp->keep_going;
	p->gated = a->xp->gated;
	p->hooks = &AGENT_HOOKS;
	*out = p;
	return 0;
}

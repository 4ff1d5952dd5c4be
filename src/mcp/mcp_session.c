/* mcp_session.c - an MCP client's acts on one device as one recorded task
 * (mcp_session.h). */
#include "mcp/mcp_session.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "launch/launch.h"
#include "mcp/mcp_tools.h"
#include "runtime/run.h"
#include "storage/store.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

extern char **environ;

/* How often a waiting act looks at its cancel flag. */
#define SESSION_POLL_MS 100
/* How long start waits for the task to ask for its first action (the first
 * observation: screenshot, tree, OCR). */
#define SESSION_START_MS 60000L
/* How long end waits for the task to record its end. */
#define SESSION_END_MS 30000L

struct amc_mcp_session {
	char home[4096];
	const amc_config *cfg;
	char task_id[AMC_ID_SIZE];
	char device[128];
	amc_launch ln;
	amc_extplanner *x;
	atomic_int cancel;
	pthread_t thread;
	int joined;
	pthread_mutex_t mu;
	int run_done;                /* amc_launch_run returned */
	int run_rc;
	amc_err run_err;
	amc_task_outcome outcome;
	int actions, failed;         /* under mu */
	char last_shot[512];
	char reason[1025];           /* the reason of the act in progress, under mu */
	int finishing;
	int finish_set, finish_ok;   /* the client's act {action: "finish"}, under mu */
	char finish_text[512];
	amc_runner_opts ro;
	int attached;                /* amc_mcp_session_attach: x, the task and its thread are not ours */
};

/* Every secret name this host knows (AMC_SECRET_* and the secrets file's
 * NAME= lines) as {{secret:NAME}} placeholders: the client may type any of
 * them, and launch resolves the values once, here. Values are never read into
 * the text. */
static void known_names(const char *file, amc_sb *text)
{
	for (char **ep = environ; ep && *ep; ep++) {
		if (strncmp(*ep, "AMC_SECRET_", 11))
			continue;
		const char *eq = strchr(*ep, '=');
		if (eq && eq[1])
			amc_sb_printf(text, " {{secret:%.*s}}", (int)(eq - *ep - 11), *ep + 11);
	}
	FILE *f = file && *file ? fopen(file, "r") : NULL;
	if (!f)
		return;
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		size_t n = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		if (n && n <= 64 && line[n] == '=' && line[n + 1] && line[n + 1] != '\n')
			amc_sb_printf(text, " {{secret:%.*s}}", (int)n, line);
	}
	memset(line, 0, sizeof line);
	fclose(f);
}

static void *session_main(void *arg)
{
	amc_mcp_session *s = arg;
	amc_launch_ctx c;
	amc_launch_ctx_init(&c, s->home, s->cfg);
	c.cancel = &s->cancel;
	c.opts = &s->ro;
	amc_task_outcome out;
	amc_err e = { 0 };
	/* a task that could not start is recorded failed there, with e's reason */
	int rc = amc_launch_run(&s->ln, &c, &out, &e);
	pthread_mutex_lock(&s->mu);
	s->run_done = 1;
	s->run_rc = rc;
	s->run_err = e;
	s->outcome = out;
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

int amc_mcp_session_start(const amc_mcp_session_opts *o, amc_mcp_session **out, amc_err *e)
{
	*out = NULL;
	amc_mcp_session *s = amc_xcalloc(1, sizeof *s);
	pthread_mutex_init(&s->mu, NULL);
	snprintf(s->home, sizeof s->home, "%s", o->home);
	s->cfg = o->cfg;
	amc_planner *planner;
	long wait = o->idle_ms > 0 ? o->idle_ms + 5000 : 0;
	amc_extplanner_opts xo = { .wait_ms = wait, .gated = 1, .name = "mcp", .image_edge = AMC_MCP_IMAGE_EDGE };
	amc_extplanner_new(&xo, &planner, &s->x);

	char goal[512];
	snprintf(goal, sizeof goal, "MCP session: %s (%s)", o->client && *o->client ? o->client : "an MCP client",
		 o->session_id);
	amc_launch_req req;
	amc_launch_req_init(&req);
	req.device = o->device;
	req.goal = goal;
	req.planner = planner;
	req.assume_yes = o->assume_yes;
	req.max_steps = 100000; /* a session ends when its client says so, not at a step count */
	if (amc_launch_prepare(o->cfg, NULL, &req, &s->ln, e) != 0) {
		amc_extplanner_free(s->x);
		pthread_mutex_destroy(&s->mu);
		free(s);
		return -1;
	}
	/* the client may type any secret this host knows (values stay on the device) */
	amc_sb names;
	amc_sb_init(&names);
	known_names(amc_config_str(o->cfg, "secrets", "file"), &names);
	amc_secrets *sec = NULL;
	if (names.len && amc_secrets_resolve(amc_sb_str(&names), amc_config_str(o->cfg, "secrets", "file"), &sec, e) == 0) {
		amc_secrets_free(s->ln.secrets);
		s->ln.secrets = sec;
	}
	amc_sb_free(&names);
	snprintf(s->task_id, sizeof s->task_id, "%s", s->ln.task->id);
	snprintf(s->device, sizeof s->device, "%s", s->ln.task->device);
	amc_runner_opts_from_config(&s->ro, o->cfg);
	s->ro.max_steps = 100000;
	s->ro.op = o->op;
	s->ro.cancel_why = "cancelled by the MCP client";
	amc_launch_runner_opts(&s->ln, &s->ro);
	if (pthread_create(&s->thread, NULL, session_main, s) != 0) {
		amc_launch_free(&s->ln);
		amc_extplanner_free(s->x);
		pthread_mutex_destroy(&s->mu);
		free(s);
		return amc_err_set(e, AMC_EENV, "cannot start a thread for the MCP session");
	}
	long long deadline = amc_mono_ms() + SESSION_START_MS;
	for (;;) {
		int step;
		amc_err we;
		int w = amc_extplanner_wait_asked(s->x, 200, &step, NULL, &we);
		if (w == 0)
			break;
		pthread_mutex_lock(&s->mu);
		int done = s->run_done;
		amc_err re = s->run_err;
		pthread_mutex_unlock(&s->mu);
		if (w < 0 || done || amc_mono_ms() > deadline) {
			if (!done)
				atomic_store(&s->cancel, 1);
			pthread_join(s->thread, NULL);
			s->joined = 1;
			amc_err_set(e, AMC_EENV, "%s", re.msg[0] ? re.msg : w < 0 ? we.msg : "the device did not answer within 60 s");
			amc_mcp_session_free(s);
			return -1;
		}
	}
	amc_log(AMC_LOG_INFO, "mcp: session task %s on %s started", s->task_id, s->device);
	*out = s;
	return 0;
}

void amc_mcp_session_attach(amc_extplanner *x, const char *task_id, const char *device, amc_mcp_session **out)
{
	amc_mcp_session *s = amc_xcalloc(1, sizeof *s);
	pthread_mutex_init(&s->mu, NULL);
	s->attached = 1;
	s->joined = 1; /* no thread of ours */
	s->x = x;
	snprintf(s->task_id, sizeof s->task_id, "%s", task_id);
	snprintf(s->device, sizeof s->device, "%s", device);
	*out = s;
}

int amc_mcp_session_attached(const amc_mcp_session *s)
{
	return s->attached;
}

const char *amc_mcp_session_task(const amc_mcp_session *s)
{
	return s->task_id;
}

const char *amc_mcp_session_device(const amc_mcp_session *s)
{
	return s->device;
}

int amc_mcp_session_ended(amc_mcp_session *s)
{
	if (s->attached) {
		int step;
		amc_err e;
		return amc_extplanner_wait_asked(s->x, 0, &step, NULL, &e) < 0;
	}
	pthread_mutex_lock(&s->mu);
	int d = s->run_done;
	pthread_mutex_unlock(&s->mu);
	return d;
}

void amc_mcp_session_reason(amc_mcp_session *s, char *out, size_t n)
{
	pthread_mutex_lock(&s->mu);
	snprintf(out, n, "%s", s->reason);
	pthread_mutex_unlock(&s->mu);
}

int amc_mcp_session_scene(amc_mcp_session *s, cJSON **scene, char *shot, size_t shot_n, amc_err *e)
{
	int step;
	*scene = NULL;
	int w = amc_extplanner_wait_asked(s->x, 10000, &step, scene, e);
	if (w != 0) {
		if (w > 0)
			amc_err_set(e, AMC_EENV, "the device's screen could not be read within 10 s");
		return -1;
	}
	/* the screen the task will act on next (before the first act too): its
	 * stored file, or "" when it was captured again and is held in memory
	 * only (amc_mcp_session_png); the last act's after-screen otherwise */
	char asked[512];
	amc_extplanner_asked_shot(s->x, asked, sizeof asked);
	unsigned char *png = NULL;
	size_t len = 0;
	if (asked[0]) {
		snprintf(shot, shot_n, "%s", asked);
	} else if (amc_extplanner_asked_png(s->x, &png, &len) == 0) {
		free(png);
		shot[0] = 0;
	} else {
		pthread_mutex_lock(&s->mu);
		snprintf(shot, shot_n, "%s", s->last_shot);
		pthread_mutex_unlock(&s->mu);
	}
	return 0;
}

int amc_mcp_session_look(amc_mcp_session *s, long max_age_ms, long *age_ms, int *fresh, amc_err *e)
{
	return amc_extplanner_look(s->x, max_age_ms, 10000, age_ms, fresh, e);
}

int amc_mcp_session_png(amc_mcp_session *s, unsigned char **png, size_t *len)
{
	return amc_extplanner_asked_png(s->x, png, len);
}

int amc_mcp_session_image(amc_mcp_session *s, const char *shot, unsigned char **png, size_t *len, int *w, int *h,
			  int *full_w)
{
	return amc_extplanner_asked_image(s->x, shot, png, len, w, h, full_w);
}

int amc_mcp_session_act(amc_mcp_session *s, const char *tool, const cJSON *args, const char *reason,
			atomic_int *cancel, amc_ext_answer *ans, amc_err *e)
{
	memset(ans, 0, sizeof *ans);
	pthread_mutex_lock(&s->mu);
	snprintf(s->reason, sizeof s->reason, "%s", reason ? reason : "");
	pthread_mutex_unlock(&s->mu);
	if (amc_extplanner_give(s->x, tool, args, reason, e) != 0)
		return -1;
	for (;;) {
		int w = amc_extplanner_wait(s->x, SESSION_POLL_MS, ans, e);
		if (w < 0)
			return -1;
		if (w == 0)
			break;
		if (cancel && atomic_load(cancel)) {
			/* the step may be half done on the device: the task cannot go on
			 * honestly, so it is cancelled as a whole */
			atomic_store(&s->cancel, 1);
		}
	}
	if (ans->step == 0) {
		amc_err_set(e, AMC_EFAIL, "%s", ans->error[0] ? ans->error : "the session's task has ended");
		return -1;
	}
	pthread_mutex_lock(&s->mu);
	s->actions++;
	if (strcmp(ans->status, "ok"))
		s->failed++;
	if (ans->screenshot[0])
		snprintf(s->last_shot, sizeof s->last_shot, "%s", ans->screenshot);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

void amc_mcp_session_finish_as(amc_mcp_session *s, int success, const char *summary, const char *answer)
{
	pthread_mutex_lock(&s->mu);
	s->finish_set = 1;
	s->finish_ok = success;
	const char *t = summary && *summary ? summary : success ? "finished by the client" : "the client gave up";
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sanitize_line(t, strlen(t), &sb);
	snprintf(s->finish_text, sizeof s->finish_text, "%s", amc_sb_str(&sb));
	amc_sb_free(&sb);
	pthread_mutex_unlock(&s->mu);
	amc_extplanner_set_answer(s->x, answer);
}

/* An attached session's end: hand the client's finish in (the task's own
 * planner ends the task); report what was handed in. */
static void end_attached(amc_mcp_session *s, amc_mcp_end how, amc_task_outcome *out)
{
	pthread_mutex_lock(&s->mu);
	int first = !s->finishing, fset = s->finish_set, fok = s->finish_ok;
	if (how == AMC_MCP_END_CLIENT && fset)
		s->finishing = 1;
	char ftext[512];
	snprintf(ftext, sizeof ftext, "%s", s->finish_text);
	int n = s->actions;
	pthread_mutex_unlock(&s->mu);
	amc_err e;
	if (first && how == AMC_MCP_END_CLIENT && fset && amc_extplanner_finish(s->x, fok, ftext, &e) != 0)
		amc_log(AMC_LOG_WARN, "mcp: the agent's finish was not taken: %s", e.msg);
	if (out) {
		memset(out, 0, sizeof *out);
		snprintf(out->status, sizeof out->status, "%s",
			 !fset ? AMC_ST_RUNNING : fok ? AMC_ST_SUCCEEDED : AMC_ST_FAILED);
		snprintf(out->summary, sizeof out->summary, "%s", ftext);
		out->steps = n;
	}
}

void amc_mcp_session_end(amc_mcp_session *s, amc_mcp_end how, long idle_s, amc_task_outcome *out)
{
	if (s->attached) {
		end_attached(s, how, out);
		return;
	}
	pthread_mutex_lock(&s->mu);
	int first = !s->finishing;
	s->finishing = 1;
	int n = s->actions, failed = s->failed;
	int fset = s->finish_set, fok = s->finish_ok;
	char ftext[512];
	snprintf(ftext, sizeof ftext, "%s", s->finish_text);
	pthread_mutex_unlock(&s->mu);
	if (first) {
		char text[512];
		amc_err e;
		if (how == AMC_MCP_END_CANCEL) {
			atomic_store(&s->cancel, 1);
		} else if (fset && how == AMC_MCP_END_CLIENT) {
			/* the client said how it went (act finish): its words end the task */
			if (amc_extplanner_finish(s->x, fok, ftext, &e) != 0)
				atomic_store(&s->cancel, 1);
		} else {
			if (how == AMC_MCP_END_IDLE)
				snprintf(text, sizeof text, "MCP session idle for %ld s: the device was released after %d action%s",
					 idle_s, n, n == 1 ? "" : "s");
			else
				snprintf(text, sizeof text, "MCP session ended by the client after %d action%s", n,
					 n == 1 ? "" : "s");
			if (failed) {
				size_t l = strlen(text);
				snprintf(text + l, sizeof text - l, " (%d of them failed)", failed);
			}
			/* succeeded means only that every action was carried out */
			if (amc_extplanner_finish(s->x, failed == 0, text, &e) != 0)
				atomic_store(&s->cancel, 1);
		}
	}
	long long deadline = amc_mono_ms() + SESSION_END_MS;
	amc_ext_answer a;
	while (!amc_mcp_session_ended(s) && amc_mono_ms() < deadline) {
		amc_err e;
		if (amc_extplanner_wait(s->x, 100, &a, &e) == 0)
			amc_ext_answer_clear(&a);
	}
	if (!amc_mcp_session_ended(s))
		atomic_store(&s->cancel, 1);
	if (!s->joined) {
		pthread_join(s->thread, NULL);
		s->joined = 1;
	}
	if (out)
		*out = s->outcome;
}

void amc_mcp_session_free(amc_mcp_session *s)
{
	if (!s)
		return;
	if (s->attached) {
		pthread_mutex_destroy(&s->mu);
		free(s);
		return;
	}
	if (!s->joined)
		amc_mcp_session_end(s, AMC_MCP_END_CANCEL, 0, NULL);
	amc_extplanner_free(s->x);
	amc_launch_free(&s->ln); /* the planner too */
	pthread_mutex_destroy(&s->mu);
	free(s);
}

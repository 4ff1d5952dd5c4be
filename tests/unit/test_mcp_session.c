/* test_mcp_session.c - src/mcp/mcp_session.c on the simulated phone: a
 * session is a task (planner mcp, goal naming the client and the session)
 * holding its device (a second session is refused as busy, naming the task);
 * each act is a recorded step with the client's reason; the scene is read
 * between acts; an irreversible-looking tap is refused by the operator with
 * its words kept in the step's result ("why"); and the three ends: by the
 * client (succeeded only when every act was carried out), idle (the device
 * released, saying so) and cancelled. */
#include <stdlib.h>
#include <string.h>

#include "mcp/mcp_session.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/jsonutil.h"

static const char *home;
static amc_config *cfg;

/* An operator that refuses every confirmation, saying so. */
static int refuse_confirm(amc_operator *op, const char *task_id, const char *action, const char *element,
			  const char *word, amc_err *e)
{
	(void)op, (void)task_id, (void)action, (void)element, (void)word;
	amc_err_set(e, AMC_EFAIL, "the unit test refused it");
	return 0;
}
static int no_ask(amc_operator *op, const char *task_id, const char *q, char **a, amc_err *e)
{
	(void)op, (void)task_id, (void)q, (void)a;
	return amc_err_set(e, AMC_EUSAGE, "no");
}
static const amc_operator_ops REFUSER_OPS = { no_ask, refuse_confirm };
static amc_operator refuser = { &REFUSER_OPS, NULL };

static int start(const char *sid, amc_operator *op, amc_mcp_session **s, amc_err *e)
{
	amc_mcp_session_opts o = { .home = home, .cfg = cfg, .device = "sim", .client = "unit 1.0", .session_id = sid,
				   .idle_ms = 60000, .assume_yes = 0, .op = op };
	return amc_mcp_session_start(&o, s, e);
}

/* The centre of the element whose text is `text` in the session's scene. */
static int find(amc_mcp_session *s, const char *text, int *x, int *y)
{
	cJSON *scene;
	char shot[512];
	amc_err e;
	if (amc_mcp_session_scene(s, &scene, shot, sizeof shot, &e) != 0)
		return -1;
	int rc = -1;
	const cJSON *el;
	cJSON_ArrayForEach(el, cJSON_GetObjectItemCaseSensitive(scene, "elements")) {
		const char *t = amc_json_str(el, "text");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(el, "bounds");
		if (t && !strcmp(t, text) && cJSON_GetArraySize(b) == 4) {
			*x = (cJSON_GetArrayItem(b, 0)->valueint + cJSON_GetArrayItem(b, 2)->valueint) / 2;
			*y = (cJSON_GetArrayItem(b, 1)->valueint + cJSON_GetArrayItem(b, 3)->valueint) / 2;
			rc = 0;
			break;
		}
	}
	cJSON_Delete(scene);
	return rc;
}

static int tap(amc_mcp_session *s, const char *text, const char *reason, amc_ext_answer *ans, amc_err *e)
{
	int x, y;
	if (find(s, text, &x, &y) != 0)
		return amc_err_set(e, AMC_EFAIL, "no '%s' on the screen", text);
	cJSON *a = cJSON_CreateObject();
	cJSON_AddNumberToObject(a, "x", x);
	cJSON_AddNumberToObject(a, "y", y);
	int rc = amc_mcp_session_act(s, "tap", a, reason, NULL, ans, e);
	cJSON_Delete(a);
	return rc;
}

static void test_client_end(void)
{
	amc_mcp_session *s;
	amc_err e;
	is_int(start("sess1", &refuser, &s, &e), 0, "start: a session on the sim (%s)", e.msg);
	if (!s)
		return;
	char task[AMC_ID_SIZE];
	snprintf(task, sizeof task, "%s", amc_mcp_session_task(s));
	is_int((int)strlen(task), AMC_ID_LEN, "start: a task id");
	is_str(amc_mcp_session_device(s), "sim:0", "start: the canonical device id");
	ok(!amc_mcp_session_ended(s), "start: running");

	amc_mcp_session *other;
	is_int(start("sess2", NULL, &other, &e), -1, "a second session on the same device is refused");
	like(e.msg, task, "  naming the task that holds it");
	like(e.msg, "busy", "  as busy");

	amc_ext_answer ans;
	cJSON *w = cJSON_Parse("{\"ms\":1}");
	is_int(amc_mcp_session_act(s, "wait", w, "let the screen settle", NULL, &ans, &e), 0, "act wait");
	ok(ans.step == 1 && !strcmp(ans.status, "ok"), "  step 1 ok");
	char why[64];
	amc_mcp_session_reason(s, why, sizeof why);
	is_str(why, "let the screen settle", "  the reason of the act is kept for the confirmation dialog");
	amc_ext_answer_clear(&ans);
	cJSON_Delete(w);

	is_int(tap(s, "Contacts", "open Contacts", &ans, &e), 0, "act tap Contacts (%s)", e.msg);
	ok(ans.step == 2 && !strcmp(ans.status, "ok") && ans.screenshot[0], "  step 2 ok, with its screenshot");
	amc_ext_answer_clear(&ans);
	int x, y;
	ok(find(s, "Alan Turing", &x, &y) == 0, "the scene between acts is the new screen");
	is_int(tap(s, "Alan Turing", NULL, &ans, &e), 0, "act tap Alan Turing");
	amc_ext_answer_clear(&ans);
	is_int(tap(s, "Delete", "remove it", &ans, &e), 0, "act tap Delete: it ran through the gate");
	is_str(ans.status, "refused", "  the operator refused it");
	is_str(amc_json_str(ans.result, "why"), "the unit test refused it", "  the operator's words are in the result");
	is_str(amc_json_str(ans.result, "matched"), "delete", "  with the word it matched");
	amc_ext_answer_clear(&ans);
	w = cJSON_Parse("{}");
	is_int(amc_mcp_session_act(s, "fly", w, NULL, NULL, &ans, &e), -1, "an unknown tool never runs");
	cJSON_Delete(w);

	amc_task_outcome out;
	amc_mcp_session_end(s, AMC_MCP_END_CLIENT, 0, &out);
	ok(amc_mcp_session_ended(s), "end: ended");
	is_str(out.status, "failed", "end: not succeeded, one act was refused");
	like(out.error, "MCP session ended by the client after 4 actions (1 of them failed)", "end: what happened");
	amc_mcp_session_end(s, AMC_MCP_END_CLIENT, 0, NULL); /* twice is fine */
	amc_mcp_session_free(s);

	amc_store *st;
	amc_task_row t;
	if (amc_store_open(home, &st, &e) == 0 && amc_store_get_task(st, task, &t, &e) == 0) {
		is_str(t.planner, "mcp", "the task row: planner mcp");
		is_str(t.goal, "MCP session: unit 1.0 (sess1)", "the task row: goal names the client and the session");
		amc_step_row *steps;
		size_t n;
		if (amc_store_get_steps(st, task, &steps, &n, &e) == 0) {
			is_int((int)n, 4, "four steps recorded");
			if (n >= 2) {
				is_str(steps[0].reasoning, "let the screen settle", "step 1's reasoning is the client's reason");
				ok(steps[1].after_screenshot && steps[1].after_screenshot[0], "step 2 has its after screenshot");
			}
			amc_step_rows_free(steps, n);
		}
		amc_task_row_free(&t);
	} else {
		ok(0, "the task row: %s", e.msg);
	}
	amc_store_close(st);
}

static void test_other_ends(void)
{
	amc_mcp_session *s;
	amc_err e;
	amc_task_outcome out;
	is_int(start("idle", NULL, &s, &e), 0, "idle: a session");
	amc_mcp_session_end(s, AMC_MCP_END_IDLE, 5, &out);
	is_str(out.status, "succeeded", "idle: succeeded (nothing failed)");
	like(out.summary, "MCP session idle for 5 s: the device was released after 0 actions", "idle: says so");
	amc_mcp_session_free(s);

	is_int(start("cancel", NULL, &s, &e), 0, "cancel: a session (the device was released)");
	amc_mcp_session_end(s, AMC_MCP_END_CANCEL, 0, &out);
	is_str(out.status, "cancelled", "cancel: cancelled");
	like(out.error, "cancelled by the MCP client", "cancel: attributed to the client, not the operator");
	amc_mcp_session_free(s);

	is_int(start("free", NULL, &s, &e), 0, "free: a session");
	amc_mcp_session_free(s); /* without end: cancelled, joined */
	is_int(start("after", NULL, &s, &e), 0, "free: the device is released afterwards");
	amc_mcp_session_free(s);
}

int main(void)
{
	home = test_home("mcp-session");
	setenv("AMC_OCR_POLICY", "off", 1);
	cfg = amc_config_new();
	test_client_end();
	test_other_ends();
	amc_config_free(cfg);
	return done_testing();
}

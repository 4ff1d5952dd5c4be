/* test_mcp_act.c - src/mcp/mcp_act.c through the server in-process
 * (mcptest.h) on the simulated phone: observe alone starts no task; act's
 * argument errors are tool errors the model can fix; an irreversible-looking
 * tap asks a person: through the client (elicitation: accepted runs it,
 * declined is refused saying not to retry), or, without elicitation, in amc's
 * TUI through the pending files (answered here as the TUI answers: the
 * question carries the action, its target, the word, the client's reason and
 * who asks), or nobody answers in time and the refusal says what the user
 * can do; a device held by another task is refused naming that task, its
 * goal and planner and what to do. */
#include <stdlib.h>
#include <string.h>

#include "image/png.h"
#include "mcp/mcp_session.h"
#include "mcp/mcp_tools.h"
#include "mcptest.h"
#include "perception/scene.h"
#include "runtime/pending.h"
#include "storage/sources.h"
#include "tap.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/config.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"

static const char *home;
static amc_config *cfg;

/* The id of the element whose text is `text` in a result's scene. */
static const char *elem(const cJSON *r, const char *text)
{
	static char id[64];
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "structuredContent");
	const cJSON *el;
	id[0] = 0;
	cJSON_ArrayForEach(el, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(st, "scene"), "elements")) {
		const char *t = amc_json_str(el, "text");
		if (t && !strcmp(t, text))
			snprintf(id, sizeof id, "%s", amc_json_str(el, "id"));
	}
	return id;
}

static int is_error(const cJSON *r)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "isError"));
}

static const char *status(const cJSON *r)
{
	const char *s = amc_json_str(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "status");
	return s ? s : "";
}

/* From the home screen to a contact's screen; returns the result showing Delete. */
static cJSON *to_contact(mt_server *m, int *id)
{
	char a[256];
	cJSON *r = mt_call(m, (*id)++, "observe", "{\"device\":\"sim\",\"image\":false}", 30000);
	snprintf(a, sizeof a, "{\"device\":\"sim\",\"action\":\"tap\",\"element\":\"%s\"}", elem(r, "Contacts"));
	cJSON_Delete(r);
	r = mt_call(m, (*id)++, "act", a, 30000);
	snprintf(a, sizeof a, "{\"device\":\"sim\",\"action\":\"tap\",\"element\":\"%s\"}", elem(r, "Alan Turing"));
	cJSON_Delete(r);
	return mt_call(m, (*id)++, "act", a, 30000);
}

static void test_basics(void)
{
	mt_server m;
	mt_start(&m, home, cfg, 0, 0);
	cJSON_Delete(mt_init(&m, "2025-11-25", "{}"));
	cJSON *r = mt_call(&m, 2, "observe", "{\"device\":\"sim\",\"image\":false}", 30000);
	ok(!is_error(r) && elem(r, "Contacts")[0], "observe: the home screen's scene");
	ok(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "task")),
	   "observe alone starts no task");
	cJSON_Delete(r);
	r = mt_call(&m, 20, "observe", "{\"device\":\"sim\"}", 30000);
	like(mt_text(r), ": act's x,y = image x,y times", "observe with its image says the image's scale");
	cJSON_Delete(r);
	r = mt_call(&m, 3, "act", "{\"device\":\"sim\",\"action\":\"tap\"}", 30000);
	ok(is_error(r), "tap without element or x,y: a tool error");
	like(mt_text(r), "tap needs element (a Scene id) or x and y", "  saying what it needs");
	cJSON_Delete(r);
	r = mt_call(&m, 4, "act", "{\"device\":\"sim\",\"action\":\"type_text\"}", 30000);
	like(mt_text(r), "type_text needs text", "type_text without text: says so");
	cJSON_Delete(r);
	r = mt_call(&m, 5, "act", "{\"device\":\"sim\",\"action\":\"tap\",\"element\":\"nope\"}", 30000);
	like(mt_text(r), "no element 'nope' on the current screen: observe again", "an unknown element: observe again");
	cJSON_Delete(r);
	/* a client's flow text exists on no disk: its parse error names the text and the line */
	r = mt_call(&m, 6, "run_task", "{\"device\":\"sim\",\"flow\":\"appId: x\\n---\\n- back\\n- frobnicate: 3\\n\"}", 30000);
	ok(is_error(r), "a flow text that does not parse: a tool error");
	like(mt_text(r), "line 4 of the flow text you sent: unknown command 'frobnicate'", "  naming the client's text and the line");
	ok(!strstr(mt_text(r), "flow.yaml"), "  not a file that does not exist");
	cJSON_Delete(r);
	is_int(mt_stop(&m), 0, "basics: the server ends");
}

static const char *sc_str(const cJSON *r, const char *k)
{
	const char *v = amc_json_str(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), k);
	return v ? v : "";
}

/* The line the task's last step ran, from the flow's copy kept with the task
 * ("" when there is none): a client's flow text is on no disk. */
static void stored_line(const char *task, char *out, size_t n)
{
	amc_store *st;
	amc_step_row *steps = NULL;
	size_t ns = 0, len;
	amc_err e;
	char *path = NULL, *text = NULL;
	long line = 0;
	int stored = 0;
	out[0] = 0;
	if (!task || amc_store_open(home, &st, &e) != 0)
		return;
	if (amc_store_get_steps(st, task, &steps, &ns, &e) == 0 && ns &&
	    amc_store_step_source_place(steps[ns - 1].reasoning, &path, &line) &&
	    amc_store_source_read(st, task, path, &text, &len, &stored, &e) == 0 && stored) {
		const char *p = text;
		for (long i = 1; p && i < line; i++)
			p = (p = strchr(p, '\n')) ? p + 1 : NULL;
		snprintf(out, n, "%.*s", p ? (int)strcspn(p, "\n") : 0, p ? p : "");
	}
	free(text);
	free(path);
	amc_step_rows_free(steps, ns);
	amc_store_close(st);
}

/* A client's flow is nobody's yes: clearState is refused before the run, and
 * what no line shows (a word built by ${...}, a sub-flow's clearState) is
 * refused at its step, so the data stays. */
static void test_flow_gate(void)
{
	mt_server m;
	mt_start(&m, home, cfg, 0, 0);
	cJSON_Delete(mt_init(&m, "2025-11-25", "{}"));
	cJSON *r = mt_call(&m, 2, "run_task", "{\"device\":\"sim\",\"flow\":\"appId: com.android.contacts\\n---\\n"
			   "- launchApp:\\n    clearState: true\\n\"}", 30000);
	ok(is_error(r), "launchApp clearState: true in a client's flow: refused before it starts");
	like(mt_text(r), "line 4 of the flow text you sent (clearState: true) erases an app's data ('clearState')",
	     "  naming the line and what it would erase");
	cJSON_Delete(r);
	r = mt_call(&m, 3, "run_task", "{\"device\":\"sim\",\"wait\":true,\"flow\":\"appId: com.android.contacts\\n---\\n"
		    "- launchApp: {appId: com.android.contacts, clearState: false}\\n- back\\n\"}", 30000);
	ok(!is_error(r) && !strcmp(sc_str(r, "status"), "succeeded"), "clearState: false passes the gate and runs");
	cJSON_Delete(r);
	char sub[PATH_MAX], top[PATH_MAX], a[PATH_MAX + 200];
	pathf(sub, sizeof sub, "%s/wipe.yaml", home);
	FILE *f = fopen(sub, "w");
	fputs("appId: com.android.contacts\n---\n- clearState\n", f);
	fclose(f);
	pathf(top, sizeof top, "%s/top.yaml", home);
	f = fopen(top, "w");
	fputs("appId: com.android.contacts\n---\n- runFlow: wipe.yaml\n", f);
	fclose(f);
	snprintf(a, sizeof a, "{\"device\":\"sim\",\"wait\":true,\"flow\":\"%s\"}", top);
	r = mt_call(&m, 4, "run_task", a, 60000);
	ok(!is_error(r) && strcmp(sc_str(r, "status"), "succeeded"), "a sub-flow's clearState: the task does not succeed (%s)",
	   sc_str(r, "status"));
	like(sc_str(r, "error"), "clearState", "  its step was refused, naming clearState");
	cJSON_Delete(r);
	r = mt_call(&m, 5, "run_task", "{\"device\":\"sim\",\"wait\":true,\"flow\":\"appId: com.android.contacts\\n---\\n"
		    "- launchApp\\n- tapOn: Alan Turing\\n- tapOn: ${'Del' + 'ete'}\\n- tapOn: ${'Del' + 'ete'}\\n\"}", 60000);
	ok(!is_error(r) && strcmp(sc_str(r, "status"), "succeeded"), "a tap on Delete spelt by ${...}: not done (%s)",
	   sc_str(r, "status"));
	like(sc_str(r, "error"), "delete", "  refused at its step as irreversible-looking");
	char ran[256];
	stored_line(sc_str(r, "task"), ran, sizeof ran);
	is_str(ran, "- tapOn: ${'Del' + 'ete'}", "  the refused step's line, from the flow text kept with the task");
	cJSON_Delete(r);
	r = mt_call(&m, 6, "observe", "{\"device\":\"sim\",\"image\":false}", 30000);
	ok(elem(r, "Alan Turing")[0], "Alan Turing is still there");
	cJSON_Delete(r);
	is_int(mt_stop(&m), 0, "flow gate: the server ends");
}

static void test_elicitation(void)
{
	mt_server m;
	mt_start(&m, home, cfg, 0, 10);
	cJSON_Delete(mt_init(&m, "2025-11-25", "{\"elicitation\":{}}"));
	int id = 2;
	cJSON *r = to_contact(&m, &id);
	char a[256];
	snprintf(a, sizeof a, "{\"device\":\"sim\",\"action\":\"tap\",\"element\":\"%s\",\"reason\":\"the user said so\"}",
		 elem(r, "Delete"));
	cJSON_Delete(r);
	for (int round = 0; round < 2; round++) {
		char l[512];
		snprintf(l, sizeof l, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"act\","
			 "\"arguments\":%s}}", 50 + round, a);
		mt_send(&m, l);
		cJSON *req = NULL;
		for (int i = 0; i < 300 && !req; i++) {
			mt_pump(&m, 100);
			for (int k = 0; k < m.nseen; k++)
				if (!strcmp(amc_json_str(m.seen[k], "method") ? amc_json_str(m.seen[k], "method") : "",
					    "elicitation/create")) {
					req = m.seen[k];
					memmove(&m.seen[k], &m.seen[k + 1], (size_t)(m.nseen - k - 1) * sizeof m.seen[0]);
					m.nseen--;
					break;
				}
		}
		ok(req != NULL, "elicitation %d: the server asks the client's user", round);
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(req, "params");
		const char *msg = amc_json_str(p, "message");
		like(msg ? msg : "", "wants to tap at ", "  the action");
		like(msg ? msg : "", " on \"Delete\", which looks irreversible (\"delete\")", "  its target and the word");
		like(msg ? msg : "", "Its reason: the user said so", "  and the model's reason");
		snprintf(l, sizeof l, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"result\":{\"action\":\"%s\",\"content\":{\"allow\":%s}}}",
			 cJSON_GetObjectItemCaseSensitive(req, "id")->valueint, round ? "accept" : "decline",
			 round ? "true" : "false");
		mt_send(&m, l);
		cJSON_Delete(req);
		cJSON *ans = mt_answer(&m, 50 + round, 30000);
		cJSON *res = cJSON_GetObjectItemCaseSensitive(ans, "result");
		if (!round) {
			is_str(status(res), "refused", "declined: refused");
			like(mt_text(res), "needs a person's yes: your user refused it when asked. Do not retry it",
			     "declined: the model is told not to retry");
		} else {
			is_str(status(res), "ok", "accepted: the tap ran");
		}
		cJSON_Delete(ans);
	}
	is_int(mt_stop(&m), 0, "elicitation: the server ends");
}

typedef struct tui_answer {
	int yes;
	amc_pending q;
	int got;
} tui_answer;

/* Answer the first pending question as the TUI does. */
static void *tui_main(void *arg)
{
	tui_answer *t = arg;
	for (int i = 0; i < 300 && !t->got; i++) {
		amc_pending *qs;
		size_t n;
		amc_err e;
		if (amc_pending_list(home, &qs, &n, &e) == 0 && n) {
			t->q = qs[0];
			t->got = 1;
			amc_pending_answer(home, qs[0].task, t->yes, &e);
		}
		free(qs);
		usleep(50000);
	}
	return NULL;
}

static void test_tui(void)
{
	mt_server m;
	mt_start(&m, home, cfg, 0, 2);
	cJSON_Delete(mt_init(&m, "2025-11-25", "{}"));
	int id = 2;
	cJSON *r = mt_call(&m, id++, "act", "{\"device\":\"sim\",\"action\":\"press_key\",\"key\":\"home\"}", 30000);
	cJSON_Delete(r);
	r = to_contact(&m, &id);
	char a[256];
	snprintf(a, sizeof a, "{\"device\":\"sim\",\"action\":\"tap\",\"element\":\"%s\",\"reason\":\"clean up\"}",
		 elem(r, "Delete"));
	cJSON_Delete(r);
	/* nobody at the TUI: refused after --confirm-timeout 2, saying what to do */
	r = mt_call(&m, id++, "act", a, 30000);
	is_str(status(r), "refused", "no TUI: refused");
	like(mt_text(r), "needs a person's yes: nobody answered in amc's TUI within 2 s, and this MCP client cannot ask "
	     "its user", "no TUI: why");
	like(mt_text(r), "they can run `amc` on the device's host (same AMC_HOME) and press y when you retry, or restart "
	     "this server as `amc mcp --yes`", "no TUI: what the user can do");
	cJSON_Delete(r);
	/* answered no, then yes, in the TUI */
	for (int yes = 0; yes < 2; yes++) {
		tui_answer t = { .yes = yes };
		pthread_t th;
		pthread_create(&th, NULL, tui_main, &t);
		r = mt_call(&m, id++, "act", a, 30000);
		pthread_join(th, NULL);
		ok(t.got, "TUI %s: the question was pending", yes ? "yes" : "no");
		ok(!strncmp(t.q.action, "tap at ", 7) && strchr(t.q.action, ','), "  its action (%s)", t.q.action);
		is_str(t.q.target, "Delete", "  its target");
		is_str(t.q.word, "delete", "  the word");
		is_str(t.q.reason, "clean up", "  the client's reason");
		is_str(t.q.asker, "MCP client unit 1.0 on sim:0", "  who asks");
		if (!yes) {
			is_str(status(r), "refused", "TUI no: refused");
			like(mt_text(r), "the person at amc's TUI refused it. Do not retry it", "TUI no: not to retry");
		} else {
			is_str(status(r), "ok", "TUI yes: the tap ran");
		}
		cJSON_Delete(r);
	}
	is_int(mt_stop(&m), 0, "TUI: the server ends");
}

static void test_busy(void)
{
	amc_mcp_session_opts so = { .home = home, .cfg = cfg, .device = "sim", .client = "other client", .session_id = "held",
				    .idle_ms = 60000 };
	amc_mcp_session *s;
	amc_err e;
	if (amc_mcp_session_start(&so, &s, &e) != 0) {
		ok(0, "busy: a session holds the sim (%s)", e.msg);
		return;
	}
	mt_server m;
	mt_start(&m, home, cfg, 0, 0);
	cJSON_Delete(mt_init(&m, "2025-11-25", "{}"));
	cJSON *r = mt_call(&m, 2, "act", "{\"device\":\"sim\",\"action\":\"wait\",\"ms\":1}", 30000);
	ok(is_error(r), "busy: act on a held device is a tool error");
	char want[200];
	snprintf(want, sizeof want, "held by another task, %s (goal \"MCP session: other client (held)\", planner mcp",
		 amc_mcp_session_task(s));
	like(mt_text(r), want, "busy: naming the task, its goal and planner");
	snprintf(want, sizeof want, "Call task with id %s to follow it, retry once it has ended, or use another device",
		 amc_mcp_session_task(s));
	like(mt_text(r), want, "busy: and what the model can do");
	cJSON_Delete(r);
	r = mt_call(&m, 4, "run_task", "{\"device\":\"sim\",\"flow\":\"appId: x\\n---\\n- back\\n\"}", 30000);
	ok(is_error(r), "busy: run_task on a held device is refused at once");
	like(mt_text(r), "cannot run a task on sim:0: the device is held by another task", "busy: naming the task too");
	cJSON_Delete(r);
	r = mt_call(&m, 3, "observe", "{\"device\":\"sim\",\"image\":false}", 30000);
	ok(!is_error(r), "busy: observe still reads the held device (read-only)");
	cJSON_Delete(r);
	is_int(mt_stop(&m), 0, "busy: the server ends");
	amc_mcp_session_end(s, AMC_MCP_END_CLIENT, 0, NULL);
	amc_mcp_session_free(s);
}

/* The phone changes without an act (a contact synced in): another writer
 * edits sim:3's state file, which the sim reads back at its next call. */
static int sync_contact(const char *name)
{
	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s/sim/3/state.json", home);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	char *buf = NULL;
	size_t len;
	amc_err e;
	if (amc_read_file(path, 8u << 20, &buf, &len, &e) != 0)
		return -1;
	cJSON *j = cJSON_ParseWithLength(buf, len);
	free(buf);
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "name", name);
	cJSON_AddStringToObject(c, "phone", "555-0199");
	cJSON_AddFalseToObject(c, "favorite");
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(j, "contacts"), c);
	char *out = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	FILE *f = fopen(tmp, "w");
	int rc = f && fputs(out, f) >= 0 && fclose(f) == 0 ? rename(tmp, path) : -1;
	free(out);
	return rc;
}

static int fresh_of(const cJSON *r)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "fresh"));
}

static long age_of(const cJSON *r)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "structuredContent"), "age_ms");
	return cJSON_IsNumber(a) ? (long)a->valuedouble : -2;
}

/* observe inside a session reads the screen as it is now, not the frame its
 * task recorded last: a screen that changed by itself is seen changed. */
static void test_fresh(void)
{
	mt_server m;
	mt_start(&m, home, cfg, 0, 0);
	cJSON_Delete(mt_init(&m, "2025-11-25", "{}"));
	cJSON *r = mt_call(&m, 2, "act", "{\"device\":\"sim:3\",\"action\":\"launch_app\",\"app\":\"com.android.contacts\"}",
			   30000);
	is_str(status(r), "ok", "a session's act opens Contacts");
	cJSON_Delete(r);
	r = mt_call(&m, 3, "observe", "{\"device\":\"sim:3\",\"image\":true}", 30000);
	ok(elem(r, "Alan Turing")[0] && !elem(r, "Kay Synced")[0], "observe right after: Alan Turing, not Kay Synced");
	ok(!fresh_of(r) && age_of(r) >= 0 && age_of(r) <= AMC_MCP_FRESH_MS,
	   "the act's after-screen is reused (%ld ms old, fresher than the bound)", age_of(r));
	like(mt_text(r), "reused: fresher than 500 ms", "saying so, with the bound");
	ok(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "content")) >= 2, "with the screenshot");
	cJSON_Delete(r);
	amc_sleep_ms(AMC_MCP_FRESH_MS + 200);
	ok(sync_contact("Kay Synced") == 0, "the phone changes by itself (a contact synced in)");
	r = mt_call(&m, 4, "observe", "{\"device\":\"sim:3\",\"image\":true}", 30000);
	ok(!is_error(r) && elem(r, "Kay Synced")[0], "observe later sees the change: the screen is captured again");
	ok(fresh_of(r), "and says it was captured for this call (fresh)");
	like(mt_text(r), "the screen as captured now", "in its text too");
	ok(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "content")) >= 2, "with the new screenshot");
	cJSON_Delete(r);
	r = mt_call(&m, 5, "act", "{\"device\":\"sim:3\",\"action\":\"finish\",\"success\":true}", 30000);
	cJSON_Delete(r);
	is_int(mt_stop(&m), 0, "fresh: the server ends");
}


/* The image content's base64 data of a result ("" when none). */
static const char *image_data(const cJSON *r)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(r, "content")) {
		const char *t = amc_json_str(c, "type");
		if (t && !strcmp(t, "image"))
			return amc_json_str(c, "data");
	}
	return "";
}

typedef struct work {
	long decodes, encodes, scenes, scene_docs;
} work;

static work work_now(void)
{
	return (work){ amc_png_decode_count(), amc_png_encode_count(), amc_scene_build_count(), amc_scene_json_count() };
}

/* The same as test_fresh with nothing changed from outside: the sim's own
 * heads-up notification (sim.notify_ms, docs/sim.md) arrives while the client
 * waits, on a live clock (sim.clock live: the real time between device calls
 * passes on the phone). The client acts, observes at once (the act's frame,
 * reused and said so, no work at all: no PNG decoded or encoded, no Scene
 * built), waits, and observes again: captured afresh, it shows the
 * notification; an observe right after reuses that frame. */
static void test_fresh_by_itself(void)
{
	enum { NOTIFY_MS = 4000 };
	amc_config *lc = amc_config_new();
	amc_err e;
	char n[16];
	snprintf(n, sizeof n, "%d", NOTIFY_MS);
	ok(amc_config_set(lc, "sim", "notify_ms", n, "test", &e) == 0 && amc_config_set(lc, "sim", "clock", "live", "test", &e) == 0,
	   "a sim whose notification comes %d ms after an app opens, on a live clock", NOTIFY_MS);
	mt_server m;
	mt_start(&m, home, lc, 0, 0);
	cJSON_Delete(mt_init(&m, "2025-11-25", "{}"));
	long long t0 = amc_mono_ms();
	cJSON *r = mt_call(&m, 2, "act", "{\"device\":\"sim:5\",\"action\":\"launch_app\",\"app\":\"com.android.contacts\"}",
			   30000);
	long long act_ms = amc_mono_ms() - t0;
	is_str(status(r), "ok", "the client opens Contacts (%lld ms)", act_ms);
	ok(elem(r, "Alan Turing")[0] && !elem(r, "Ada Lovelace")[0], "its screen: the contacts, no notification yet");
	char *act_img = amc_xstrdup(image_data(r));
	ok(act_img[0], "with the screenshot");
	cJSON_Delete(r);

	work w0 = work_now();
	r = mt_call(&m, 3, "observe", "{\"device\":\"sim:5\",\"image\":true}", 30000);
	work w1 = work_now();
	ok(!fresh_of(r) && age_of(r) >= 0 && age_of(r) <= AMC_MCP_FRESH_MS, "observe at once: the act's frame, reused (%ld ms old)",
	   age_of(r));
	like(mt_text(r), "reused: fresher than 500 ms", "and says so, with the bound");
	ok(!elem(r, "Ada Lovelace")[0], "no notification in it");
	is_str(image_data(r), act_img, "the act's image travels again as it was");
	is_int(w1.decodes - w0.decodes, 0, "reusing it decodes no PNG");
	is_int(w1.encodes - w0.encodes, 0, "encodes none");
	is_int(w1.scenes - w0.scenes, 0, "builds no Scene");
	is_int(w1.scene_docs - w0.scene_docs, 0, "nor a Scene document");
	cJSON_Delete(r);

	/* the client thinks a while; the phone goes on meanwhile */
	amc_sleep_ms(NOTIFY_MS + 300);
	w0 = work_now();
	r = mt_call(&m, 4, "observe", "{\"device\":\"sim:5\",\"image\":true}", 30000);
	w1 = work_now();
	ok(!is_error(r) && elem(r, "Ada Lovelace")[0] && elem(r, "Running late, start without me")[0],
	   "observe after the wait sees the notification that came by itself");
	ok(fresh_of(r), "captured for this call (fresh)");
	like(mt_text(r), "the screen as captured now", "and says so");
	ok(image_data(r)[0] && strcmp(image_data(r), act_img), "with the new screenshot");
	is_int(w1.scenes - w0.scenes, 1, "one Scene built, for the new capture");
	is_int(w1.decodes - w0.decodes, 0, "no PNG decoded (the image is made from the frame's pixels)");
	char *fresh_img = amc_xstrdup(image_data(r));
	cJSON_Delete(r);

	w0 = work_now();
	r = mt_call(&m, 5, "observe", "{\"device\":\"sim:5\",\"image\":true}", 30000);
	w1 = work_now();
	ok(!fresh_of(r) && elem(r, "Ada Lovelace")[0], "an observe right after reuses that frame");
	like(mt_text(r), "reused: fresher than 500 ms", "saying so");
	is_str(image_data(r), fresh_img, "with the same image");
	ok(w1.decodes == w0.decodes && w1.encodes == w0.encodes && w1.scenes == w0.scenes,
	   "no decode, encode or Scene for it");
	cJSON_Delete(r);
	free(act_img);
	free(fresh_img);
	r = mt_call(&m, 6, "act", "{\"device\":\"sim:5\",\"action\":\"finish\",\"success\":true}", 30000);
	cJSON_Delete(r);
	is_int(mt_stop(&m), 0, "fresh by itself: the server ends");
	amc_config_free(lc);
}

int main(void)
{
	home = test_home("mcp-act");
	setenv("AMC_OCR_POLICY", "off", 1);
	if (!getenv("AMC_JS") || !*getenv("AMC_JS")) /* the build's engine, for ${...} */
		setenv("AMC_JS", AMC_ABS_BUILDDIR "/amc-js", 1);
	cfg = amc_config_new();
	test_basics();
	test_elicitation();
	test_tui();
	test_busy();
	test_fresh();
	test_fresh_by_itself();
	test_flow_gate(); /* last: it leaves Contacts open where the others start from home */
	amc_config_free(cfg);
	return done_testing();
}

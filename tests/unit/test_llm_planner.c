/* test_llm_planner.c - the LLM planner in-process on the sim against the fake
 * Anthropic endpoint (every request checked against the protocol rules), with a
 * scripted operator: ask_user answered, a confirmed irreversible tap, vision with
 * coordinate scaling, an unknown element id told to the model, a retry-after past
 * the step budget, timeouts; plus decision retention (prices: test_prices.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../mock/anthropic_mock.h"
#include "planner/llm_planner.h"
#include "llm/anthropic.h"
#include "llm/openai.h"
#include "device/device.h"
#include "runtime/events.h"
#include "launch/runner.h"
#include "runtime/safety.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"

/* scripted operator */
typedef struct op_state {
	const char *answer;
	int confirm_answer;
	int asked, confirmed;
	char question[256], word[64], element[128];
} op_state;

static int op_ask(amc_operator *op, const char *task_id, const char *q, char **answer, amc_err *e)
{
	(void)task_id;
	(void)e;
	op_state *s = op->impl;
	s->asked++;
	snprintf(s->question, sizeof s->question, "%s", q);
	*answer = amc_xstrdup(s->answer);
	return 0;
}

static int op_confirm(amc_operator *op, const char *task_id, const char *action, const char *element,
		      const char *word, amc_err *e)
{
	(void)task_id;
	(void)action;
	(void)e;
	op_state *s = op->impl;
	s->confirmed++;
	snprintf(s->word, sizeof s->word, "%s", word);
	snprintf(s->element, sizeof s->element, "%s", element);
	return s->confirm_answer;
}

static const amc_operator_ops OPS = { op_ask, op_confirm };

static int saw_waiting;
static void on_ev(const amc_event *ev, void *ud)
{
	(void)ud;
	if (ev->type == AMC_EV_TASK_STATUS && ev->status && !strcmp(ev->status, "waiting_user"))
		saw_waiting++;
}

typedef struct env {
	amc_store *store;
	amc_device *dev;
	amc_bus *bus;
	amc_config *cfg;
	amc_words words;
	op_state os;
	amc_operator op;
	amc_mock_agent agent;
	mock_server *mock;
} env;

static amc_task_outcome run_goal(env *v, const char *script, const char *goal, amc_llm_planner_opts *po,
				 long attempt_timeout_ms, int fake_clock, amc_task **task_out)
{
	amc_mock_agent_free(&v->agent);
	amc_mock_agent_load(&v->agent, script);
	amc_err e;
	amc_anthropic *client = NULL;
	if (amc_anthropic_new(NULL, &client, &e) != 0)
		diag("client: %s", e.msg);
	if (attempt_timeout_ms)
		client->attempt_timeout_ms = attempt_timeout_ms;
	if (fake_clock) {
		client->hooks = MOCK_FAKE_HOOKS;
	}
	amc_prices *prices = NULL;
	amc_prices_load(NULL, &prices, &e);
	amc_llm_planner_opts o;
	amc_llm_planner_opts_from_config(&o, v->cfg);
	if (po)
		o = *po;
	amc_planner *p = NULL;
	amc_llm_planner_new(amc_anthropic_client(client), prices, &o, &p, &e);
	amc_task *t = amc_task_new("goal", "sim:0");
	t->goal = amc_xstrdup(goal);
	amc_runner_opts ro;
	amc_runner_opts_from_config(&ro, v->cfg);
	ro.op = &v->op;
	ro.confirm_words = &v->words;
	amc_task_outcome out;
	memset(&out, 0, sizeof out);
	if (amc_task_run(&(amc_run_env){ v->store, v->bus, v->dev, NULL, NULL, NULL, NULL }, p, t, &ro, &out, &e) != 0)
		diag("run: %s", e.msg);
	amc_planner_free(p);
	if (task_out)
		*task_out = t;
	else
		amc_task_free(t);
	return out;
}

/* Over 120 lines: one scripted conversation with the mock model, each
 * turn's checks right after the turn that they check. */
int main(void)
{
	const char *home = test_home("agent");

	/* (the word list and the topmost element: test_safety.c) */
	amc_err e;

	/* ---- tools ---- */
	cJSON *tools = amc_llm_planner_tools();
	char *ts = amc_json_print(tools);
	like(ts, "\"name\":\"tap\"", "tap tool");
	like(ts, "\"element_id\"", "tap by element id");
	like(ts, "\"name\":\"ask_user\"", "ask_user tool");
	like(ts, "\"name\":\"finish\"", "finish tool");
	ok(!strstr(ts, "describe_screen") && !strstr(ts, "\"minimum\""), "no observation tools, no minimum keyword");
	free(ts);
	cJSON_Delete(tools);

	/* ---- runs on the sim ---- */
	env v;
	memset(&v, 0, sizeof v);
	v.cfg = amc_config_new();
	if (amc_store_open(home, &v.store, &e) != 0 || amc_device_open("sim", home, v.cfg, &v.dev, &e) != 0) {
		diag("%s", e.msg);
		return done_testing() + 1;
	}
	amc_words_load(test_src("data/irreversible-words.txt"), &v.words, &e);
	v.op.ops = &OPS;
	v.op.impl = &v.os;
	v.bus = amc_bus_new();
	amc_bus_subscribe(v.bus, on_ev, NULL);
	amc_mock_agent_load(&v.agent, "");
	v.mock = mock_start(0, amc_mock_agent_handle, &v.agent);
	char base[64];
	snprintf(base, sizeof base, "http://127.0.0.1:%d", mock_port(v.mock));
	setenv("ANTHROPIC_BASE_URL", base, 1);
	setenv("ANTHROPIC_API_KEY", "sk-ant-unit-test", 1);

	/* ask_user: waiting_user, the answer goes back as the tool result */
	v.os.answer = "555-0199";
	amc_task *t = NULL, *t2 = NULL;
	amc_task_outcome out = run_goal(&v, "ask Which number should I save?\nexpect 555-0199\nfinish true saved", "Save a number",
					NULL, 0, 0, &t);
	is_str(out.status, "succeeded", "ask_user run succeeds");
	is_int(v.os.asked, 1, "the operator was asked once");
	is_str(v.os.question, "Which number should I save?", "with the model's question");
	ok(saw_waiting >= 1, "the task went waiting_user");
	is_int(v.agent.violations, 0, "requests kept the rules%s%s", v.agent.violations ? ": " : "", v.agent.last_violation);
	amc_decision_row *d = NULL;
	size_t nd = 0;
	amc_store_get_decisions(v.store, t->id, &d, &nd, &e);
	is_int(nd, 2, "two decisions recorded");
	if (nd == 2) {
		is_str(d[0].tool, "ask_user", "decision 1: ask_user");
		is_str(d[1].outcome, "done", "decision 2: done");
		like(d[1].user_prompt, "555-0199", "the answer is in the next prompt");
		ok(d[0].input_tokens == 1000 && d[0].output_tokens == 100 && d[0].cost_usd > 0, "per-decision usage and cost");
		like(d[0].system_prompt, "one action at a time", "system prompt stored");
	}
	amc_decision_rows_free(d, nd);
	amc_task_free(t);

	/* a confirmed irreversible tap runs */
	v.os.confirm_answer = 1;
	out = run_goal(&v, "launch com.android.contacts\ntap Grace Hopper\ntap Delete\nfinish true asked", "Delete Grace",
		       NULL, 0, 0, NULL);
	is_str(out.status, "succeeded", "confirmed run succeeds");
	is_int(v.os.confirmed, 1, "the operator was asked to confirm once");
	is_str(v.os.word, "delete", "matched word delete");
	is_str(v.os.element, "Delete", "on the Delete element");

	/* a refused one is told to the model and the task goes on */
	v.os.confirmed = 0;
	v.os.confirm_answer = 0;
	out = run_goal(&v, "key back\ntap Delete\nexpect operator refused\nfinish true stopped", "Delete again",
		       NULL, 0, 0, NULL);
	(void)out;
	is_int(v.agent.violations, 0, "refusal reached the model as the tool result%s%s",
	       v.agent.violations ? ": " : "", v.agent.last_violation);

	/* clear_app: always asked, whatever the screen shows; list_apps answers with ids */
	v.os.confirmed = 0;
	v.os.confirm_answer = 0;
	/* (expect names what the next line's call must get back) */
	out = run_goal(&v, "expect com.android.contacts\ntool list_apps {}\n"
		       "expect operator refused\ntool clear_app {\"app_id\":\"com.android.contacts\"}\nfinish true stopped",
		       "Reset Contacts", NULL, 0, 0, NULL);
	is_str(out.status, "succeeded", "list_apps and a refused clear_app: the run goes on");
	is_int(v.os.confirmed, 1, "clear_app: the operator was asked");
	is_str(v.os.word, "clear_app", "  for clear_app");
	is_str(v.os.element, "com.android.contacts", "  naming the app");
	is_int(v.agent.violations, 0, "the model heard the app ids and the refusal%s%s", v.agent.violations ? ": " : "",
	       v.agent.last_violation);
	v.os.confirm_answer = 1;
	out = run_goal(&v, "expect cleared\ntool clear_app {\"app_id\":\"com.android.contacts\"}\nfinish true reset",
		       "Reset Contacts", NULL, 0, 0, NULL);
	is_int(v.os.confirmed, 2, "asked again: each clear_app is asked");
	is_int(v.agent.violations, 0, "confirmed: it ran%s%s", v.agent.violations ? ": " : "", v.agent.last_violation);

	/* unknown element id: a failed step the model hears about, then it goes on */
	out = run_goal(&v, "tap_id e_nonexistent\nexpect no element\nfinish true recovered", "Tap something",
		       NULL, 0, 0, NULL);
	is_str(out.status, "succeeded", "an unknown element id does not end the task");
	is_int(v.agent.violations, 0, "the model was told 'no element'%s%s", v.agent.violations ? ": " : "",
	       v.agent.last_violation);

	/* vision on, downscaled: coordinates scale back to the device */
	amc_llm_planner_opts po;
	amc_llm_planner_opts_from_config(&po, v.cfg);
	snprintf(po.vision, sizeof po.vision, "on");
	po.vision_max_edge = 1200; /* 1080x2400 -> 540x1200: x2 */
	out = run_goal(&v, "key home\ntap_xy 100 300\nfinish true looked", "Look", &po, 0, 0, &t);
	is_str(out.status, "succeeded", "vision run succeeds (image blocks valid)");
	amc_step_row *steps = NULL;
	size_t ns = 0;
	amc_store_get_steps(v.store, t->id, &steps, &ns, &e);
	ok(ns == 2 && steps[1].args && strstr(steps[1].args, "\"x\":200") && strstr(steps[1].args, "\"y\":600"),
	   "image coordinates 100,300 became device 200,600 (%s)", ns == 2 && steps[1].args ? steps[1].args : "?");
	amc_step_rows_free(steps, ns);
	amc_store_get_decisions(v.store, t->id, &d, &nd, &e);
	ok(nd >= 1 && strstr(d[0].user_prompt, "[image:") && !strstr(d[0].user_prompt, "iVBOR"),
	   "the decision references the image, never its bytes");
	amc_decision_rows_free(d, nd);

	/* retry-after longer than the step's budget fails the step without sleeping */
	amc_llm_planner_opts_from_config(&po, v.cfg);
	po.step_timeout_ms = 10000;
	mock_fake_now = 0;
	out = run_goal(&v, "http 429 30\nfinish true never", "Wait", &po, 0, 1, NULL);
	is_str(out.status, "failed", "retry-after past the budget fails");
	like(out.error, "time budget", "the reason says so");
	ok(mock_fake_now == 0, "no sleep happened");

	/* a server slower than the attempt timeout: retried, then failed, no hang */
	mock_fake_now = 0;
	out = run_goal(&v, "slow 3000\nfinish true never\nslow 3000\nfinish true never\nslow 3000\nfinish true never", "Slow", NULL, 200, 1, NULL);
	is_str(out.status, "failed", "timeouts fail the task");
	like(out.error, "imeout", "the reason says timeout");

	/* 500, 500, then a tool call: retried within one step */
	mock_fake_now = 0;
	out = run_goal(&v, "http 500\nhttp 500\nfinish true third time", "Retry", NULL, 0, 1, NULL);
	is_str(out.status, "succeeded", "two 500s then success: the step goes on");
	ok(mock_fake_now == 1500, "backoff 0.5 s + 1 s (got %lld)", mock_fake_now);

	/* the per-device runner thread (the TUI's path) with the operator set */
	{
		amc_runner *r = NULL;
		amc_device_close(v.dev); /* the runner opens its own */
		v.dev = NULL;
		ok(amc_runner_start(home, "sim", v.cfg, v.bus, &r, &e) == 0, "runner thread starts");
		amc_runner_set_agent_opts(r, &v.op, &v.words, 0, NULL);
		amc_mock_agent_free(&v.agent);
		amc_mock_agent_load(&v.agent, "ask Which colour?\nexpect teal\nfinish true teal it is");
		v.os.answer = "teal";
		v.os.asked = 0;
		amc_anthropic *client = NULL;
		amc_anthropic_new(NULL, &client, &e);
		amc_llm_planner_opts o;
		amc_llm_planner_opts_from_config(&o, v.cfg);
		amc_planner *p = NULL;
		amc_llm_planner_new(amc_anthropic_client(client), NULL, &o, &p, &e);
		amc_task *rt = amc_task_new("goal", "sim:0");
		rt->goal = amc_xstrdup("Pick a colour");
		char rid[64];
		snprintf(rid, sizeof rid, "%s", rt->id);
		ok(amc_runner_submit(r, rt, p, NULL, &e) == 0, "goal submitted to the runner");
		ok(amc_runner_wait_idle(r, 30000) == 0, "runner finished");
		amc_runner_stop(r, 0);
		is_int(v.os.asked, 1, "the runner's operator answered ask_user");
		amc_task_row row;
		ok(amc_store_get_task(v.store, rid, &row, &e) == 0 && !strcmp(row.status, "succeeded"),
		   "the task succeeded through the runner thread");
		amc_task_row_free(&row);
		is_int(v.agent.violations, 0, "its requests kept the rules");
	}

	/* Screenshots to an OpenAI-compatible server: image_url parts; a text-only
	 * model's refusal (llama.cpp without --mmproj: HTTP 500 "image input is not
	 * supported") drops them for the rest of the task under vision=auto, and
	 * fails the step under vision=on. The planner is driven directly so the
	 * Scene can be thin (auto sends images only then). */
	{
		char obase[96];
		snprintf(obase, sizeof obase, "http://127.0.0.1:%d/v1", mock_port(v.mock));
		setenv("AMC_OPENAI_BASE_URL", obase, 1);
		amc_observation obs;
		memset(&obs, 0, sizeof obs);
		amc_image_alloc(&obs.img, 1080, 2400, &e);
		obs.width = 1080;
		obs.height = 2400;
		amc_task *vt = amc_task_new("goal", "sim:0");
		vt->goal = amc_xstrdup("Look at the screen");
		amc_plan_ctx ctx = { vt, 1, &obs, NULL, 1, NULL, 0, NULL };
		struct { const char *vision; const char *script; } vc[] = {
			{ "auto", "textonly\ntap_xy 100 300\nkey back\nfinish true done" },
			{ "on", "textonly\nkey home" },
			{ "on", "tap_xy 100 300\nkey back" },
		};
		for (int k = 0; k < 3; k++) {
			amc_mock_agent_free(&v.agent);
			amc_mock_agent_load(&v.agent, vc[k].script);
			amc_openai *oa = NULL;
			ok(amc_openai_new(&oa, &e) == 0, "a client from AMC_OPENAI_BASE_URL");
			oa->hooks = MOCK_FAKE_HOOKS;
			mock_fake_now = 0;
			amc_llm_planner_opts o;
			amc_llm_planner_opts_from_config(&o, v.cfg);
			snprintf(o.model, sizeof o.model, "qwen2.5-vl");
			snprintf(o.vision, sizeof o.vision, "%s", vc[k].vision);
			o.vision_max_edge = 1200; /* 1080x2400 -> 540x1200: x2 */
			amc_planner *p = NULL;
			ok(amc_llm_planner_new(amc_openai_client(oa), NULL, &o, &p, &e) == 0, "planner on the local server");
			amc_action act;
			ctx.step = 1;
			ctx.last_tool = NULL;
			amc_plan_rc rc = p->ops->next(p, &ctx, &act, &e);
			char *dec = act.decision ? cJSON_PrintUnformatted(act.decision) : amc_xstrdup("");
			if (k == 0) {
				is_int(rc, AMC_PLAN_ACT, "auto, text-only server: the step is still planned");
				is_int(v.agent.image_requests, 3, "the image went out once (three attempts of the 500)");
				ok(act.args && amc_json_int(act.args, "x", 0) == 200 && amc_json_int(act.args, "y", 0) == 600,
				   "coordinates of the downscaled Scene scale back to the device (200,600)");
				like(dec, "\"screenshot_refused\":\"OpenAI-compatible server: HTTP 500 server_error: image input is not supported",
				     "the decision says the screenshot was refused and why");
				amc_action_clear(&act);
				ctx.step = 2;
				ctx.last_tool = "tap";
				rc = p->ops->next(p, &ctx, &act, &e);
				is_int(rc, AMC_PLAN_ACT, "the next step is planned");
				is_int(v.agent.image_requests, 3, "and sends no screenshot any more");
				is_str(act.tool, "press_key", "it is the scripted press_key");
			} else if (k == 1) {
				is_int(rc, AMC_PLAN_FAIL, "vision=on, text-only server: the step fails");
				like(e.msg, "image input is not supported", "the step's error has the server's words");
				like(e.msg, "serve a vision model (llama.cpp: --mmproj) or set planner.vision = auto or off",
				     "and says what to do");
			} else {
				is_int(rc, AMC_PLAN_ACT, "vision=on, vision server: planned");
				is_int(v.agent.image_requests, 1, "one request, with the screenshot");
				is_int(v.agent.violations, 0, "the image_url part is a whole base64 PNG%s%s",
				       v.agent.violations ? ": " : "", v.agent.last_violation);
				ok(act.args && amc_json_int(act.args, "x", 0) == 200, "coordinates scaled back");
				ok(!strstr(dec, "iVBOR") && strstr(dec, "[image:"), "the decision names the image, never its bytes");
			}
			free(dec);
			amc_action_clear(&act);
			amc_planner_free(p);
		}
		unsetenv("AMC_OPENAI_BASE_URL");
		amc_image_free(&obs.img);
		amc_task_free(vt);
	}

	/* a model that refuses a forced tool choice (claude-sonnet-5-5): one 400,
	 * then tool_choice auto for the rest of the task */
	ok(amc_device_open("sim", home, v.cfg, &v.dev, &e) == 0, "the sim opens again after the runner");
	amc_llm_planner_opts_from_config(&po, v.cfg);
	snprintf(po.model, sizeof po.model, "claude-sonnet-5-5");
	out = run_goal(&v, "launch com.android.contacts\nkey back\nfinish true done", "Open contacts", &po, 0, 0, &t2);
	is_str(out.status, "succeeded", "claude-sonnet-5-5: the task succeeds with tool_choice auto");
	is_int(v.agent.forced_refusals, 1, "the forced choice was refused once, then never sent again");
	is_int(v.agent.violations, 0, "later requests carry tool_choice auto%s%s", v.agent.violations ? ": " : "",
	       v.agent.last_violation);
	amc_store_get_decisions(v.store, t2->id, &d, &nd, &e);
	ok(nd == 3 && strstr(d[0].detail, "tool_choice_auto"), "the decisions say why tool_choice is auto");
	amc_decision_rows_free(d, nd);
	amc_task_free(t2);

	/* decisions retention */
	long removed = amc_store_prune_decisions(v.store, 2, &e);
	ok(removed > 0, "pruning to the newest 2 tasks removes older decisions (%ld)", removed);
	amc_store_get_decisions(v.store, t->id, &d, &nd, &e);
	is_int(nd, 0, "an older task's decisions are gone");
	amc_decision_rows_free(d, nd);

	amc_task_free(t);
	mock_stop(v.mock);
	amc_mock_agent_free(&v.agent);
	amc_words_free(&v.words);
	amc_device_close(v.dev);
	amc_store_close(v.store);
	amc_bus_free(v.bus);
	amc_config_free(v.cfg);
	return done_testing();
}

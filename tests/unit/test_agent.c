/* test_agent.c - the LLM planner in-process on the sim against the fake
 * Anthropic endpoint (every request checked against the protocol rules), with a
 * scripted operator: ask_user answered, a confirmed irreversible tap, vision with
 * coordinate scaling, an unknown element id told to the model, a retry-after past
 * the step budget, timeouts; plus the word list, topmost element, price table and
 * decision retention. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../mock/anthropic_mock.h"
#include "agent/llm_planner.h"
#include "device/device.h"
#include "runtime/events.h"
#include "runtime/runner.h"
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

/* fake sleep for retries */
static long long fake_now;
static long long f_now(void *ud) { (void)ud; return fake_now; }
static void f_sleep(void *ud, long ms) { (void)ud; fake_now += ms; }
static double f_jitter(void *ud) { (void)ud; return 0.0; }

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
		client->hooks.now_ms = f_now;
		client->hooks.sleep_ms = f_sleep;
		client->hooks.jitter = f_jitter;
	}
	amc_prices *prices = NULL;
	amc_prices_load(NULL, &prices, &e);
	amc_llm_planner_opts o;
	amc_llm_planner_opts_from_config(&o, v->cfg);
	if (po)
		o = *po;
	amc_planner *p = NULL;
	amc_llm_planner_new(client, prices, &o, &p, &e);
	amc_task *t = amc_task_new("goal", "sim:0");
	t->goal = amc_xstrdup(goal);
	amc_runner_opts ro;
	amc_runner_opts_from_config(&ro, v->cfg);
	ro.op = &v->op;
	ro.confirm_words = &v->words;
	amc_task_outcome out;
	memset(&out, 0, sizeof out);
	if (amc_task_run(v->store, v->bus, v->dev, p, t, &ro, NULL, &out, &e) != 0)
		diag("run: %s", e.msg);
	amc_planner_free(p);
	if (task_out)
		*task_out = t;
	else
		amc_task_free(t);
	return out;
}

int main(void)
{
	const char *home = test_home("agent");

	/* ---- word list and topmost element ---- */
	amc_words w;
	amc_err e;
	ok(amc_words_load(test_src("data/irreversible-words.txt"), &w, &e) == 0, "word list loads");
	is_str(amc_words_match(&w, "Delete"), "delete", "'Delete' matches, case-insensitive");
	is_str(amc_words_match(&w, "Send message"), "send", "'Send message' matches send");
	ok(!amc_words_match(&w, "Resend code later"), "'Resend' is not the whole word send");
	ok(!amc_words_match(&w, "Deleted items"), "'Deleted' is not the whole word delete");
	is_str(amc_words_match(&w, "Factory reset phone"), "reset", "phrases and words");
	ok(!amc_words_match(&w, "Save"), "'Save' matches nothing");
	amc_words_free(&w);

	amc_element els[3];
	memset(els, 0, sizeof els);
	els[0].bounds = (amc_bounds){ 0, 0, 1000, 1000 };
	els[1].bounds = (amc_bounds){ 100, 100, 300, 300 };
	els[2].bounds = (amc_bounds){ 500, 500, 600, 600 };
	amc_scene sc = { 1000, 1000, els, 3 };
	ok(amc_scene_element_at(&sc, 150, 150) == &els[1], "a tap resolves to the smallest containing element");
	ok(amc_scene_element_at(&sc, 50, 50) == &els[0], "else the container");
	ok(amc_scene_element_at(&sc, 2000, 50) == NULL, "outside everything: none");

	/* ---- price table ---- */
	amc_prices *pr = NULL;
	ok(amc_prices_load(NULL, &pr, &e) == 0 || amc_prices_load(test_src("data/prices.json"), &pr, &e) == 0,
	   "bundled price table loads");
	amc_price one;
	ok(amc_prices_find(pr, "claude-sonnet-5", &one) == 0 && one.input == 3.0 && one.output == 15.0, "exact model");
	ok(amc_prices_find(pr, "claude-haiku-4-5-20251001", &one) == 0 && one.input == 1.0, "dated id by prefix");
	ok(amc_prices_find(pr, "gpt-oss-20b", &one) != 0, "unknown model: no price");
	amc_llm_usage u = { 1000000, 100000, -1, -1 };
	double cost = amc_prices_cost(pr, "claude-sonnet-5", &u);
	ok(cost > 4.49 && cost < 4.51, "cost = 1M in x $3 + 0.1M out x $15 = $4.50 (%.4f)", cost);
	ok(amc_prices_cost(pr, "unknown-model", &u) < 0, "unknown model: unknown cost");
	amc_prices_free(pr);

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
	amc_task *t = NULL;
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
	fake_now = 0;
	out = run_goal(&v, "http 429 30\nfinish true never", "Wait", &po, 0, 1, NULL);
	is_str(out.status, "failed", "retry-after past the budget fails");
	like(out.error, "time budget", "the reason says so");
	ok(fake_now == 0, "no sleep happened");

	/* a server slower than the attempt timeout: retried, then failed, no hang */
	fake_now = 0;
	out = run_goal(&v, "slow 3000\nfinish true never\nslow 3000\nfinish true never\nslow 3000\nfinish true never", "Slow", NULL, 200, 1, NULL);
	is_str(out.status, "failed", "timeouts fail the task");
	like(out.error, "imeout", "the reason says timeout");

	/* 500, 500, then a tool call: retried within one step */
	fake_now = 0;
	out = run_goal(&v, "http 500\nhttp 500\nfinish true third time", "Retry", NULL, 0, 1, NULL);
	is_str(out.status, "succeeded", "two 500s then success: the step goes on");
	ok(fake_now == 1500, "backoff 0.5 s + 1 s (got %lld)", fake_now);

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
		amc_llm_planner_new(client, NULL, &o, &p, &e);
		amc_task *rt = amc_task_new("goal", "sim:0");
		rt->goal = amc_xstrdup("Pick a colour");
		char rid[64];
		snprintf(rid, sizeof rid, "%s", rt->id);
		ok(amc_runner_submit(r, rt, p, &e) == 0, "goal submitted to the runner");
		ok(amc_runner_wait_idle(r, 30000) == 0, "runner finished");
		amc_runner_stop(r, 0);
		is_int(v.os.asked, 1, "the runner's operator answered ask_user");
		amc_task_row row;
		ok(amc_store_get_task(v.store, rid, &row, &e) == 0 && !strcmp(row.status, "succeeded"),
		   "the task succeeded through the runner thread");
		amc_task_row_free(&row);
		is_int(v.agent.violations, 0, "its requests kept the rules");
	}

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

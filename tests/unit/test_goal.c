/* test_goal.c - amc_goal_planner_new (planner/goal.c): which provider a free
 * goal is planned with under each [planner] provider setting and environment,
 * the errors that say what to set, and a bad price file as a warning with
 * unknown costs. The planner's first step goes to the local mock, whose path
 * (/v1/messages or /v1/chat/completions) shows which client was built. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "testutil.h"
#include "../mock/mockhttp.h"
#include "planner/goal.h"
#include "planner/llm_planner.h"
#include "runtime/task.h"

typedef struct seen {
	int n;
	char path[512];
	char headers[4096];
} seen;

static void handler(void *ud, const mock_req *rq, mock_resp *rs)
{
	seen *s = ud;
	s->n++;
	snprintf(s->path, sizeof s->path, "%s", rq->path);
	snprintf(s->headers, sizeof s->headers, "%s", rq->headers);
	if (strstr(rq->path, "/chat/completions"))
		rs->body = strdup("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":"
				  "\"{\\\"tool\\\":\\\"finish\\\",\\\"reason\\\":\\\"done\\\",\\\"success\\\":true,"
				  "\\\"summary\\\":\\\"ok\\\"}\"},\"finish_reason\":\"stop\"}],"
				  "\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":100}}");
	else
		rs->body = strdup("{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-5\","
				  "\"content\":[{\"type\":\"tool_use\",\"id\":\"tu_1\",\"name\":\"finish\","
				  "\"input\":{\"reason\":\"done\",\"success\":true,\"summary\":\"ok\"}}],"
				  "\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":1000,\"output_tokens\":100,"
				  "\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0}}");
}

static seen S;
static char anth_url[128], oa_url[128];

static amc_config *cfg_with(const char *provider, const char *key_file, const char *price_file)
{
	amc_config *c = amc_config_new();
	amc_err e;
	if (amc_config_set(c, "planner", "provider", provider, "test", &e) != 0 ||
	    amc_config_set(c, "planner", "vision", "off", "test", &e) != 0 ||
	    amc_config_set(c, "planner", "model", "claude-sonnet-5", "test", &e) != 0 ||
	    (key_file && amc_config_set(c, "llm", "anthropic_key_file", key_file, "test", &e) != 0) ||
	    (price_file && amc_config_set(c, "llm", "price_file", price_file, "test", &e) != 0))
		diag("config: %s", e.msg);
	return c;
}

static void env(int anthropic_key, int openai_url)
{
	if (anthropic_key)
		setenv("ANTHROPIC_API_KEY", "sk-ant-goal-test", 1);
	else
		unsetenv("ANTHROPIC_API_KEY");
	setenv("ANTHROPIC_BASE_URL", anth_url, 1);
	if (openai_url)
		setenv("AMC_OPENAI_BASE_URL", oa_url, 1);
	else
		unsetenv("AMC_OPENAI_BASE_URL");
	unsetenv("OPENAI_API_KEY");
	unsetenv("AMC_PLANNER_MODEL");
}

/* One planning step against the mock; the path it asked for. */
static const char *step(amc_planner *p, amc_plan_rc *rc_out)
{
	memset(&S, 0, sizeof S);
	amc_task *t = amc_task_new("goal", "sim:0");
	t->goal = strdup("open settings");
	amc_observation obs;
	memset(&obs, 0, sizeof obs);
	obs.width = 1080;
	obs.height = 2400;
	amc_plan_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.task = t;
	ctx.step = 1;
	ctx.obs = &obs;
	amc_action a;
	amc_err e;
	amc_err_clear(&e);
	amc_plan_rc rc = p->ops->next(p, &ctx, &a, &e);
	if (rc_out)
		*rc_out = rc;
	if (rc == AMC_PLAN_FAIL)
		diag("step: %s", e.msg);
	amc_action_clear(&a);
	amc_task_free(t);
	return S.path;
}

static double expected_cost(void)
{
	amc_prices *pr = NULL;
	amc_err e;
	if (amc_prices_load(NULL, &pr, &e) != 0)
		return -2;
	amc_llm_usage u = { 1000, 100, 0, 0 };
	double c = amc_prices_cost(pr, "claude-sonnet-5", &u);
	amc_prices_free(pr);
	return c;
}

/* Over 120 lines: the goal launcher's cases in order, each a few checks on
 * one shared mock; split, they would only pass the mock around. */
int main(void)
{
	const char *home = test_home("goal");
	mock_server *m = mock_start(0, handler, &S);
	if (!m)
		tap_skip_all("cannot listen on 127.0.0.1");
	snprintf(anth_url, sizeof anth_url, "http://127.0.0.1:%d", mock_port(m));
	snprintf(oa_url, sizeof oa_url, "http://127.0.0.1:%d/v1", mock_port(m));
	amc_planner *p = NULL;
	amc_err e;
	char warn[512];
	amc_config *c;
	amc_plan_rc rc;
	amc_llm_usage u;
	double cost;

	/* auto with an Anthropic key: Anthropic, even when a local server is set too */
	env(1, 1);
	c = cfg_with("auto", NULL, NULL);
	strcpy(warn, "stale");
	is_int(amc_goal_planner_new(c, warn, sizeof warn, &p, &e), 0, "auto with ANTHROPIC_API_KEY builds a planner");
	is_str(warn, "", "no warning: warn is cleared");
	is_str(p ? p->ops->name : "", "llm", "the LLM planner");
	if (p) {
		is_str(step(p, &rc), "/v1/messages", "auto prefers Anthropic (a step posts to /v1/messages)");
		like(S.headers, "x-api-key: sk-ant-goal-test", "with the key from the environment");
		is_int(rc, AMC_PLAN_DONE, "the finish call ends the goal");
		amc_llm_planner_totals(p, &u, &cost);
		double want = expected_cost();
		ok(want > 0 && cost > want - 1e-12 && cost < want + 1e-12,
		   "the bundled price table is used: cost %g = %g", cost, want);
	}
	amc_planner_free(p);
	amc_config_free(c);

	/* auto with only a local server: OpenAI-compatible */
	env(0, 1);
	c = cfg_with("auto", NULL, NULL);
	is_int(amc_goal_planner_new(c, warn, sizeof warn, &p, &e), 0, "auto with only AMC_OPENAI_BASE_URL builds a planner");
	if (p) {
		is_str(step(p, &rc), "/v1/chat/completions", "on the OpenAI-compatible server");
		is_int(rc, AMC_PLAN_DONE, "whose answer is read as an action");
	}
	amc_planner_free(p);
	amc_config_free(c);

	/* auto with nothing: one error naming both ways */
	env(0, 0);
	c = cfg_with("auto", NULL, NULL);
	p = (amc_planner *)1;
	is_int(amc_goal_planner_new(c, warn, sizeof warn, &p, &e), -1, "auto with nothing configured fails");
	ok(p == NULL, "with no planner");
	is_int(e.code, AMC_EENV, "an environment error (exit class 3)");
	like(e.msg, "ANTHROPIC_API_KEY", "the message names ANTHROPIC_API_KEY");
	like(e.msg, "AMC_OPENAI_BASE_URL", "and AMC_OPENAI_BASE_URL");
	amc_config_free(c);

	/* provider = openai: never falls back to Anthropic */
	env(1, 0);
	c = cfg_with("openai", NULL, NULL);
	is_int(amc_goal_planner_new(c, warn, sizeof warn, &p, &e), -1, "provider openai without a URL fails");
	like(e.msg, "set AMC_OPENAI_BASE_URL", "and says what to set (even with an Anthropic key)");
	env(1, 1);
	is_int(amc_goal_planner_new(c, warn, sizeof warn, &p, &e), 0, "provider openai with a URL");
	if (p)
		is_str(step(p, NULL), "/v1/chat/completions", "uses the local server although an Anthropic key is set");
	amc_planner_free(p);
	setenv("AMC_OPENAI_BASE_URL", "localhost:8080", 1);
	is_int(amc_goal_planner_new(c, warn, sizeof warn, &p, &e), -1, "a URL without a scheme fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	amc_config_free(c);

	/* provider = anthropic: never falls back to the local server */
	env(0, 1);
	c = cfg_with("anthropic", NULL, NULL);
	is_int(amc_goal_planner_new(c, warn, sizeof warn, &p, &e), -1, "provider anthropic without a key fails");
	like(e.msg, "set ANTHROPIC_API_KEY", "and says what to set");
	ok(!strstr(e.msg, "AMC_OPENAI_BASE_URL"), "without suggesting the local server it was told not to use");
	amc_config_free(c);

	/* the key file named by llm.anthropic_key_file */
	char kf[PATH_MAX + 16];
	snprintf(kf, sizeof kf, "%s/anthropic.key", home);
	FILE *f = fopen(kf, "w");
	fputs("sk-ant-from-file\n", f);
	fclose(f);
	chmod(kf, 0600);
	env(0, 0);
	c = cfg_with("anthropic", kf, NULL);
	is_int(amc_goal_planner_new(c, warn, sizeof warn, &p, &e), 0, "llm.anthropic_key_file gives the key");
	if (p) {
		step(p, NULL);
		like(S.headers, "x-api-key: sk-ant-from-file", "the file's key is sent");
	}
	amc_planner_free(p);
	amc_config_free(c);

	/* a bad price file: a warning, the planner still built, costs unknown */
	char pf[PATH_MAX + 16];
	snprintf(pf, sizeof pf, "%s/prices.json", home);
	f = fopen(pf, "w");
	fputs("{\"models\": [", f);
	fclose(f);
	env(1, 0);
	c = cfg_with("auto", NULL, pf);
	is_int(amc_goal_planner_new(c, warn, sizeof warn, &p, &e), 0, "a bad price file does not stop the planner");
	like(warn, "price table", "the warning says the price table failed");
	like(warn, "prices.json", "names the file");
	like(warn, "costs are unknown", "and what that means");
	if (p) {
		step(p, &rc);
		amc_llm_planner_totals(p, &u, &cost);
		is_int(u.input_tokens, 1000, "usage is still counted");
		ok(cost < 0, "but the cost is unknown (%g), not 0", cost);
	}
	amc_planner_free(p);
	is_int(amc_goal_planner_new(c, NULL, 0, &p, &e), 0, "without a warning buffer the warning is dropped safely");
	amc_planner_free(p);
	amc_config_free(c);

	/* AMC_PLANNER_MODEL reaches the planner only through the configuration,
	 * where `amc config` can report where the model came from */
	setenv("AMC_PLANNER_MODEL", "qwen3-8b", 1);
	c = cfg_with("auto", NULL, NULL);
	amc_llm_planner_opts o;
	amc_llm_planner_opts_from_config(&o, c);
	is_str(o.model, "claude-sonnet-5", "a configuration that did not read the environment keeps its model");
	ok(amc_config_load_env(c, &e) == 0, "the environment overrides load");
	amc_llm_planner_opts_from_config(&o, c);
	is_str(o.model, "qwen3-8b", "AMC_PLANNER_MODEL sets planner.model");
	const char *origin = "";
	for (size_t i = 0; i < amc_config_count(c); i++) {
		amc_config_item it = amc_config_item_at(c, i);
		if (!strcmp(it.section, "planner") && !strcmp(it.key, "model"))
			origin = it.origin;
	}
	is_str(origin, "env:AMC_PLANNER_MODEL", "and the configuration names it as the source");
	unsetenv("AMC_PLANNER_MODEL");
	amc_config_free(c);

	mock_stop(m);
	return done_testing();
}

/* script_planner.h - a planner for tests that plays a fixed list of (tool, args
 * JSON) and then finishes; shared by the tests of run.c and runner.c. */
#ifndef AMC_SCRIPT_PLANNER_H
#define AMC_SCRIPT_PLANNER_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/planner.h"
#include "util/strbuf.h"

typedef struct script {
	const char *const *steps; /* pairs: tool, args; "!fail" = decided failure; "?" = reobserve once */
	int n, at;
	int reobserved;
	atomic_int *cancel_at_step; /* set this flag when reaching step 3 */
	int plans;
	int saw_cancel;             /* next() found the task's cancel flag on the planner */
} script;

static amc_plan_rc script_next(amc_planner *p, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	script *s = p->impl;
	(void)e;
	s->plans++;
	s->saw_cancel |= p->cancel != NULL;
	if (s->cancel_at_step && ctx->step == 3)
		atomic_store(s->cancel_at_step, 1);
	if (s->at >= s->n) {
		out->description = amc_xstrdup("script done");
		return AMC_PLAN_DONE;
	}
	const char *tool = s->steps[2 * s->at], *args = s->steps[2 * s->at + 1];
	if (!strcmp(tool, "?")) {
		if (ctx->waited_ms == 0)
			return AMC_PLAN_REOBSERVE;
		s->reobserved = 1;
		s->at++;
		tool = s->steps[2 * s->at];
		args = s->steps[2 * s->at + 1];
	}
	s->at++;
	if (!strcmp(tool, "!fail")) {
		snprintf(out->tool, sizeof out->tool, "assert_visible");
		out->decided = 1;
		out->decided_ok = 0;
		out->decided_error = amc_xstrdup(args);
		out->description = amc_xstrdup("assertVisible \"nothing\"");
		return AMC_PLAN_ACT;
	}
	snprintf(out->tool, sizeof out->tool, "%s", tool);
	out->args = cJSON_Parse(args);
	out->description = amc_xstrdup(tool);
	out->reasoning = amc_xstrdup("because the script says so");
	return AMC_PLAN_ACT;
}

static void script_destroy(amc_planner *p)
{
	free(p);
}

static const amc_planner_ops SCRIPT_OPS = { "script", script_next, script_destroy };

/* A planner playing `s`; s is not owned and must outlive the planner. */
static inline amc_planner *planner_for(script *s)
{
	amc_planner *p = amc_xcalloc(1, sizeof *p);
	p->ops = &SCRIPT_OPS;
	p->impl = s;
	return p;
}

#endif

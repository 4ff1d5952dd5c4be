/* test_planner.c - the planner interface helpers. */
#include <string.h>

#include "runtime/planner.h"
#include <stdlib.h>
#include "tap.h"
#include "util/strbuf.h"

static int destroyed;
static void destroy(amc_planner *p)
{
	destroyed++;
	free(p);
}
static amc_plan_rc next(amc_planner *p, const amc_plan_ctx *c, amc_action *a, amc_err *e)
{
	(void)p, (void)c, (void)a, (void)e;
	return AMC_PLAN_DONE;
}
static const amc_planner_ops OPS = { "t", next, destroy };

int main(void)
{
	amc_action a = { 0 };
	snprintf(a.tool, sizeof a.tool, "tap");
	a.args = cJSON_Parse("{\"x\":1}");
	a.description = amc_xstrdup("d");
	a.reasoning = amc_xstrdup("r");
	a.decided_error = amc_xstrdup("e");
	a.decided_result = cJSON_CreateObject();
	a.decided = 1;
	amc_action_clear(&a);
	ok(a.args == NULL && a.description == NULL && a.decided == 0 && a.tool[0] == 0, "action cleared (ASan checks the frees)");
	amc_action_clear(&a);
	ok(a.args == NULL && a.description == NULL && a.decided == 0 && a.tool[0] == 0, "a second clear leaves it cleared");
	amc_planner *p = amc_xcalloc(1, sizeof *p);
	p->ops = &OPS;
	amc_planner_free(p);
	is_int(destroyed, 1, "planner destroy called once");
	amc_planner_free(NULL);
	is_int(destroyed, 1, "freeing NULL calls no destroy");
	return done_testing();
}

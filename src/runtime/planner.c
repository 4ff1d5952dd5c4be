#include "runtime/planner.h"

#include <stdlib.h>
#include <string.h>

void amc_action_clear(amc_action *a)
{
	if (!a)
		return;
	cJSON_Delete(a->args);
	free(a->description);
	free(a->reasoning);
	free(a->decided_error);
	cJSON_Delete(a->decided_result);
	cJSON_Delete(a->decision);
	free(a->answer);
	memset(a, 0, sizeof *a);
}

void amc_planner_free(amc_planner *p)
{
	if (p && p->ops && p->ops->destroy)
		p->ops->destroy(p);
}

void amc_planner_ended(amc_planner *p, const amc_task_outcome *o)
{
	if (p && p->hooks && p->hooks->ended)
		p->hooks->ended(p, o);
}

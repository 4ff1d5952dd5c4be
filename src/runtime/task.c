#include "runtime/task.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/strbuf.h"

amc_task *amc_task_new(const char *kind, const char *device)
{
	amc_task *t = amc_xcalloc(1, sizeof *t);
	amc_id_new(t->id);
	snprintf(t->device, sizeof t->device, "%s", device ? device : "");
	t->kind = (kind && !strcmp(kind, "goal")) ? "goal" : "flow";
	t->source_attempt = -1;
	return t;
}

void amc_task_free(amc_task *t)
{
	if (!t)
		return;
	free(t->goal);
	free(t->flow_path);
	free(t->flow_name);
	free(t->source_task_id);
	free(t);
}

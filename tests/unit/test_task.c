/* test_task.c - task objects and status names. */
#include <string.h>

#include "runtime/planner.h"
#include "runtime/task.h"
#include "tap.h"
#include "util/ids.h"

int main(void)
{
	amc_task *a = amc_task_new("flow", "sim:0"), *b = amc_task_new("goal", "sim:1");
	ok(strlen(a->id) == AMC_ID_LEN && amc_id_is_valid_prefix(a->id), "task id is an amc id");
	ok(strcmp(a->id, b->id) < 0, "later tasks sort after earlier ones");
	is_str(a->kind, "flow", "kind flow");
	is_str(b->kind, "goal", "kind goal");
	is_str(b->device, "sim:1", "device copied");
	is_int(a->source_attempt, -1, "no source attempt by default");
	ok(a->source_task_id == NULL, "no source task by default");
	amc_task_free(a);
	amc_task_free(b);
	amc_task_free(NULL);
	static const char *term[] = { "succeeded", "failed", "cancelled", "interrupted" };
	static const char *live[] = { "queued", "running", "waiting_user" };
	for (int i = 0; i < 4; i++)
		ok(amc_status_is_terminal(term[i]), "%s is terminal", term[i]);
	for (int i = 0; i < 3; i++)
		ok(!amc_status_is_terminal(live[i]), "%s is not terminal", live[i]);
	ok(!amc_status_is_terminal(NULL), "NULL is not terminal");
	return done_testing();
}

/* committer - test helper: another process writing to an amc database.
 *
 *   committer HOME N GAP_MS
 *
 * Makes N commits through the store API, GAP_MS apart: each creates a finished
 * task named "commit K" (K = 1..N), so a watcher can tell which commits it saw. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "storage/store.h"
#include "util/clock.h"
#include "util/ids.h"

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: committer HOME N GAP_MS\n");
		return 2;
	}
	int n = atoi(argv[2]), gap = atoi(argv[3]);
	amc_store *s;
	amc_err e;
	if (amc_store_open(argv[1], &s, &e) != 0) {
		fprintf(stderr, "committer: %s\n", e.msg);
		return 1;
	}
	for (int k = 1; k <= n; k++) {
		char id[AMC_ID_SIZE], name[32];
		amc_id_new(id);
		snprintf(name, sizeof name, "commit %d", k);
		long long now = amc_now_ms();
		amc_task_row t = { 0 };
		t.id = id;
		t.kind = "flow";
		t.flow_name = name;
		t.device = "sim:0";
		t.planner = "flow";
		t.status = "succeeded";
		t.created_ms = t.started_ms = now;
		t.finished_ms = now + 1;
		t.max_steps = 50;
		t.input_tokens = t.output_tokens = -1;
		t.cost_usd = -1;
		t.source_attempt = -1;
		t.owner_pid = (long)getpid();
		if (amc_store_create_task(s, &t, &e) != 0 || amc_store_update_task(s, &t, &e) != 0) {
			fprintf(stderr, "committer: commit %d: %s\n", k, e.msg);
			amc_store_close(s);
			return 1;
		}
		amc_sleep_ms(gap);
	}
	amc_store_close(s);
	return 0;
}

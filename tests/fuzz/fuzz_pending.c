/* Fuzz target: the confirmation files another process leaves in $AMC_HOME
 * (runtime/pending.c): the input is written as confirm-fuzz.ask and listed,
 * then, when it is a JSON object, once more with its task, pid and time made
 * valid, so the fields' reading and bounding are reached too; every field
 * listed is made terminal-safe as the TUI's dialog does. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "runtime/pending.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/sanitize.h"

static char home[64];

static void cleanup(void)
{
	amc_rm_rf(home);
}

static void list_all(void)
{
	amc_pending *qs;
	size_t n;
	amc_err e;
	if (amc_pending_list(home, &qs, &n, &e) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *f[] = { qs[i].action, qs[i].target, qs[i].word, qs[i].reason, qs[i].asker };
		for (int k = 0; k < 5; k++) {
			if (strlen(f[k]) > AMC_PENDING_TEXT_MAX)
				abort();
			free(amc_sanitize_dup(f[k]));
		}
		(void)amc_pending_waiting(home, qs[i].task, qs[i].asked_ms);
	}
	free(qs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_err e;
	if (!home[0]) {
		snprintf(home, sizeof home, "/tmp/amc-fuzz-pending-XXXXXX");
		if (!mkdtemp(home))
			abort();
		atexit(cleanup);
	}
	char path[128];
	snprintf(path, sizeof path, "%s/confirm-fuzz.ask", home);
	if (amc_write_atomic(path, data, size, 0600, &e) != 0)
		return 0;
	list_all();
	cJSON *j = cJSON_ParseWithLength((const char *)data, size);
	if (cJSON_IsObject(j)) {
		cJSON_DeleteItemFromObjectCaseSensitive(j, "task");
		cJSON_DeleteItemFromObjectCaseSensitive(j, "pid");
		cJSON_DeleteItemFromObjectCaseSensitive(j, "until_ms");
		cJSON_AddStringToObject(j, "task", "fuzz");
		cJSON_AddNumberToObject(j, "pid", (double)getpid());
		cJSON_AddNumberToObject(j, "until_ms", (double)(amc_now_ms() + 60000));
		char *t = cJSON_PrintUnformatted(j);
		if (t && amc_write_atomic(path, t, strlen(t), 0600, &e) == 0)
			list_all();
		free(t);
	}
	cJSON_Delete(j);
	unlink(path);
	return 0;
}

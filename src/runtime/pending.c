/* pending.c - confirmations answered in another process (pending.h). */
#include "runtime/pending.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "util/clock.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"

#define POLL_MS 100
#define ASK_FILE_MAX 8192

static int path_of(char *out, size_t n, const char *home, const char *task, const char *ext)
{
	return snprintf(out, n, "%s/confirm-%s.%s", home, task, ext) < (int)n ? 0 : -1;
}

/* A task id is the only part of a name: never a path. */
static int task_ok(const char *t)
{
	size_t n = t ? strlen(t) : 0;
	if (n == 0 || n >= AMC_ID_SIZE)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((t[i] >= '0' && t[i] <= '9') || (t[i] >= 'a' && t[i] <= 'z') || (t[i] >= 'A' && t[i] <= 'Z') ||
		      t[i] == '-' || t[i] == '_'))
			return 0;
	return 1;
}

int amc_pending_ask(const char *home, const char *task_id, const char *text, long timeout_ms, atomic_int *cancel,
		    amc_err *e)
{
	if (!task_ok(task_id))
		return amc_err_set(e, AMC_EUSAGE, "not a task id");
	char ask[4096], ans[4096];
	if (path_of(ask, sizeof ask, home, task_id, "ask") || path_of(ans, sizeof ans, home, task_id, "answer"))
		return amc_err_set(e, AMC_EENV, "AMC_HOME is too long a path");
	unlink(ans); /* an answer to an earlier question is not this one's */
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "task", task_id);
	char t[AMC_PENDING_TEXT_MAX + 1];
	snprintf(t, sizeof t, "%s", text ? text : "");
	cJSON_AddStringToObject(j, "text", t);
	cJSON_AddNumberToObject(j, "asked_ms", (double)amc_now_ms());
	cJSON_AddNumberToObject(j, "pid", (double)getpid());
	char *body = amc_json_print(j);
	cJSON_Delete(j);
	int rc = amc_write_atomic(ask, body, strlen(body), 0600, e);
	free(body);
	if (rc != 0)
		return -1;
	long long deadline = amc_mono_ms() + timeout_ms;
	int answer = -1;
	while (answer < 0) {
		char *buf = NULL;
		size_t len = 0;
		amc_err re;
		if (amc_read_file(ans, 16, &buf, &len, &re) == 0) {
			answer = len >= 3 && !strncmp(buf, "yes", 3);
			free(buf);
			if (!answer)
				amc_err_set(e, AMC_EUSAGE, "the person at amc's TUI declined it");
			break;
		}
		if (cancel && atomic_load(cancel)) {
			amc_err_set(e, AMC_ECANCEL, "cancelled while waiting for a person to confirm it in amc's TUI");
			answer = 0;
			break;
		}
		if (amc_mono_ms() >= deadline) {
			amc_err_set(e, AMC_EUSAGE, "nobody confirmed it in amc's TUI within %ld s (the MCP client "
				    "cannot ask its user: no elicitation); run `amc` on this host to answer, or start "
				    "`amc mcp --yes` to allow such actions", timeout_ms / 1000);
			answer = 0;
			break;
		}
		usleep(POLL_MS * 1000);
	}
	unlink(ask);
	unlink(ans);
	return answer;
}

static int by_time(const void *a, const void *b)
{
	const amc_pending *x = a, *y = b;
	return x->asked_ms < y->asked_ms ? -1 : x->asked_ms > y->asked_ms;
}

int amc_pending_list(const char *home, amc_pending **out, size_t *n, amc_err *e)
{
	*out = NULL;
	*n = 0;
	DIR *d = opendir(home);
	if (!d)
		return errno == ENOENT ? 0 : amc_err_set(e, AMC_EENV, "cannot read %s: %s", home, strerror(errno));
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		size_t l = strlen(nm);
		if (strncmp(nm, "confirm-", 8) || l < 13 || strcmp(nm + l - 4, ".ask"))
			continue;
		char task[AMC_ID_SIZE];
		if (l - 12 >= sizeof task)
			continue;
		snprintf(task, sizeof task, "%.*s", (int)(l - 12), nm + 8);
		if (!task_ok(task))
			continue;
		char p[4096];
		if (path_of(p, sizeof p, home, task, "ask"))
			continue;
		char *buf = NULL;
		size_t len = 0;
		amc_err re;
		if (amc_read_file(p, ASK_FILE_MAX, &buf, &len, &re) != 0)
			continue;
		cJSON *j = cJSON_ParseWithLength(buf, len);
		free(buf);
		const char *text = amc_json_str(j, "text"), *jt = amc_json_str(j, "task");
		const cJSON *pid = j ? cJSON_GetObjectItemCaseSensitive(j, "pid") : NULL;
		const cJSON *at = j ? cJSON_GetObjectItemCaseSensitive(j, "asked_ms") : NULL;
		int alive = cJSON_IsNumber(pid) && pid->valuedouble > 0 && pid->valuedouble < 4194305 &&
			    (kill((pid_t)pid->valuedouble, 0) == 0 || errno == EPERM);
		if (text && jt && !strcmp(jt, task) && alive) {
			if (*n == cap) {
				cap = cap ? cap * 2 : 4;
				*out = amc_xrealloc(*out, cap * sizeof **out);
			}
			amc_pending *q = &(*out)[(*n)++];
			memset(q, 0, sizeof *q);
			snprintf(q->task, sizeof q->task, "%s", task);
			snprintf(q->text, sizeof q->text, "%s", text);
			q->asked_ms = cJSON_IsNumber(at) ? (long long)at->valuedouble : 0;
		}
		cJSON_Delete(j);
	}
	closedir(d);
	if (*n > 1)
		qsort(*out, *n, sizeof **out, by_time);
	return 0;
}

int amc_pending_answer(const char *home, const char *task_id, int yes, amc_err *e)
{
	if (!task_ok(task_id))
		return amc_err_set(e, AMC_EUSAGE, "not a task id");
	char ask[4096], ans[4096];
	if (path_of(ask, sizeof ask, home, task_id, "ask") || path_of(ans, sizeof ans, home, task_id, "answer"))
		return amc_err_set(e, AMC_EENV, "AMC_HOME is too long a path");
	if (!amc_file_exists(ask))
		return amc_err_set(e, AMC_EUSAGE, "the question was withdrawn (it timed out or its task ended)");
	return amc_write_atomic(ans, yes ? "yes\n" : "no\n", yes ? 4 : 3, 0600, e);
}

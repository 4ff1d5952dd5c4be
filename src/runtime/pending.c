/* pending.c - confirmations answered in another process (pending.h). */
#include "runtime/pending.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
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

/* Add s cut to AMC_PENDING_TEXT_MAX bytes (never in the middle of a UTF-8 character). */
static void add_cut(cJSON *j, const char *k, const char *s)
{
	char t[AMC_PENDING_TEXT_MAX + 1];
	size_t n = s ? strlen(s) : 0;
	if (n > AMC_PENDING_TEXT_MAX) {
		n = AMC_PENDING_TEXT_MAX;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(t, s ? s : "", n);
	t[n] = 0;
	cJSON_AddStringToObject(j, k, t);
}

int amc_pending_ask(const char *home, const char *task_id, const amc_pending_q *q, long timeout_ms,
		    atomic_int *cancel, amc_err *e)
{
	if (!task_ok(task_id))
		return amc_err_set(e, AMC_EUSAGE, "not a task id");
	char ask[4096], ans[4096];
	if (path_of(ask, sizeof ask, home, task_id, "ask") || path_of(ans, sizeof ans, home, task_id, "answer"))
		return amc_err_set(e, AMC_EENV, "AMC_HOME is too long a path");
	unlink(ans); /* an answer to an earlier question is not this one's */
	/* The per-question secret an answer must carry (see pending.h): in its
	 * own file, never in the .ask file a question's lister shows. */
	char sec[4096], secret[2 * AMC_PENDING_SECRET_BYTES + 1];
	unsigned char rnd[AMC_PENDING_SECRET_BYTES];
	if (path_of(sec, sizeof sec, home, task_id, "secret") || getrandom(rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
		return amc_err_set(e, AMC_EENV, "cannot make a secret for the question");
	for (size_t i = 0; i < sizeof rnd; i++)
		snprintf(secret + 2 * i, 3, "%02x", rnd[i]);
	if (amc_write_atomic(sec, secret, strlen(secret), 0600, e) != 0)
		return -1;
	long long now = amc_now_ms();
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "task", task_id);
	add_cut(j, "action", q->action);
	add_cut(j, "target", q->target);
	add_cut(j, "word", q->word);
	add_cut(j, "reason", q->reason);
	add_cut(j, "asker", q->asker);
	cJSON_AddNumberToObject(j, "asked_ms", (double)now);
	cJSON_AddNumberToObject(j, "until_ms", (double)(now + timeout_ms));
	cJSON_AddNumberToObject(j, "pid", (double)getpid());
	char *body = amc_json_print(j);
	cJSON_Delete(j);
	int rc = amc_write_atomic(ask, body, strlen(body), 0600, e);
	free(body);
	if (rc != 0) {
		unlink(sec);
		return -1;
	}
	long long deadline = amc_mono_ms() + timeout_ms;
	int answer = -1;
	while (answer < 0) {
		char *buf = NULL;
		size_t len = 0;
		amc_err re;
		if (amc_read_file(ans, 128, &buf, &len, &re) == 0) {
			/* "yes SECRET\n": a bare "yes" (or a wrong secret) was not
			 * written by amc_pending_answer, so it is a refusal */
			size_t sl = strlen(secret);
			answer = len >= 4 + sl && !strncmp(buf, "yes ", 4) && !memcmp(buf + 4, secret, sl) &&
				 (len == 4 + sl || buf[4 + sl] == '\n');
			int forged = !answer && !(len >= 2 && !strncmp(buf, "no", 2));
			free(buf);
			if (!answer)
				amc_err_set(e, forged ? AMC_EUSAGE : AMC_EFAIL, forged ? "refused: the answer did not carry the question's secret "
								   "(it was not given in amc's TUI)"
								 : "the person at amc's TUI refused it");
			break;
		}
		if (cancel && atomic_load(cancel)) {
			amc_err_set(e, AMC_ECANCEL, "cancelled while waiting for a person to confirm it in amc's TUI");
			answer = 0;
			break;
		}
		if (amc_mono_ms() >= deadline) {
			amc_err_set(e, AMC_EENV, "nobody answered in amc's TUI within %ld s", timeout_ms / 1000);
			answer = 0;
			break;
		}
		usleep(POLL_MS * 1000);
	}
	unlink(ask);
	unlink(ans);
	unlink(sec);
	return answer;
}

static void get_str(const cJSON *j, const char *k, char *out, size_t n)
{
	const char *s = amc_json_str(j, k);
	snprintf(out, n, "%s", s ? s : "");
}

static long long get_ms(const cJSON *j, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, k);
	return cJSON_IsNumber(v) && v->valuedouble > 0 && v->valuedouble < 1e15 ? (long long)v->valuedouble : 0;
}

/* Read the question of `task` into *q: 0 when it waits for an answer (its
 * file is whole, its asker is alive, its time is not up, it has no answer
 * yet), -1 otherwise. */
static int read_ask(const char *home, const char *task, amc_pending *q)
{
	char p[4096], a[4096];
	if (!task_ok(task) || path_of(p, sizeof p, home, task, "ask") || path_of(a, sizeof a, home, task, "answer"))
		return -1;
	if (amc_file_exists(a))
		return -1; /* answered; the asker has not collected it yet */
	char *buf = NULL;
	size_t len = 0;
	amc_err re;
	if (amc_read_file(p, ASK_FILE_MAX, &buf, &len, &re) != 0)
		return -1;
	cJSON *j = cJSON_ParseWithLength(buf, len);
	free(buf);
	const char *jt = amc_json_str(j, "task"), *action = amc_json_str(j, "action");
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(j, "pid");
	int alive = cJSON_IsNumber(pid) && pid->valuedouble > 0 && pid->valuedouble < 4194305 &&
		    (kill((pid_t)pid->valuedouble, 0) == 0 || errno == EPERM);
	int rc = -1;
	memset(q, 0, sizeof *q);
	q->asked_ms = get_ms(j, "asked_ms");
	q->until_ms = get_ms(j, "until_ms");
	if (cJSON_IsObject(j) && jt && !strcmp(jt, task) && action && *action && alive && q->until_ms > amc_now_ms()) {
		snprintf(q->task, sizeof q->task, "%s", task);
		get_str(j, "action", q->action, sizeof q->action);
		get_str(j, "target", q->target, sizeof q->target);
		get_str(j, "word", q->word, sizeof q->word);
		get_str(j, "reason", q->reason, sizeof q->reason);
		get_str(j, "asker", q->asker, sizeof q->asker);
		rc = 0;
	}
	cJSON_Delete(j);
	return rc;
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
	amc_pending *q = amc_xcalloc(1, sizeof *q);
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		size_t l = strlen(nm);
		if (strncmp(nm, "confirm-", 8) || l < 13 || strcmp(nm + l - 4, ".ask"))
			continue;
		char task[AMC_ID_SIZE];
		if (l - 12 >= sizeof task)
			continue;
		snprintf(task, sizeof task, "%.*s", (int)(l - 12), nm + 8);
		if (read_ask(home, task, q) != 0)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 4;
			*out = amc_xrealloc(*out, cap * sizeof **out);
		}
		(*out)[(*n)++] = *q;
	}
	free(q);
	closedir(d);
	if (*n > 1)
		qsort(*out, *n, sizeof **out, by_time);
	return 0;
}

int amc_pending_waiting(const char *home, const char *task_id, long long asked_ms)
{
	amc_pending *q = amc_xcalloc(1, sizeof *q);
	int w = read_ask(home, task_id, q) == 0 && q->asked_ms == asked_ms;
	free(q);
	return w;
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
	if (!yes)
		return amc_write_atomic(ans, "no\n", 3, 0600, e);
	char sec[4096], *secret = NULL;
	size_t sl = 0;
	if (path_of(sec, sizeof sec, home, task_id, "secret") ||
	    amc_read_file(sec, 2 * AMC_PENDING_SECRET_BYTES, &secret, &sl, e) != 0)
		return amc_err_set(e, AMC_EUSAGE, "the question has no secret (withdrawn, or not asked by amc)");
	amc_sb b;
	amc_sb_init(&b);
	amc_sb_printf(&b, "yes %.*s\n", (int)sl, secret);
	free(secret);
	int rc = amc_write_atomic(ans, b.buf, b.len, 0600, e);
	amc_sb_free(&b);
	return rc;
}

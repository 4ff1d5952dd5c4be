/* test_pending.c - src/runtime/pending: a question asked on one thread (as
 * `amc mcp` asks) is listed with its fields and answered yes or no from
 * another (as the TUI answers); a timeout and a cancel refuse it with the
 * matching code; the files are gone afterwards; bounded fields; task ids that
 * are not names are refused; stale, answered, malformed, oversized and
 * foreign files are not listed. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/pending.h"
#include "tap.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/fsutil.h"

static const char *home;

typedef struct asker {
	pthread_t th;
	const char *task;
	amc_pending_q q;
	long timeout_ms;
	atomic_int cancel;
	int rc;
	amc_err e;
} asker;

static void *ask_main(void *arg)
{
	asker *a = arg;
	amc_err_clear(&a->e);
	a->rc = amc_pending_ask(home, a->task, &a->q, a->timeout_ms, &a->cancel, &a->e);
	return NULL;
}

static void start(asker *a, const char *task, long timeout_ms)
{
	memset(a, 0, sizeof *a);
	a->task = task;
	a->timeout_ms = timeout_ms;
	a->q = (amc_pending_q){ "tap at 662,850", "Delete", "delete", "remove the duplicate", "MCP client t 1.0 on sim:0" };
	pthread_create(&a->th, NULL, ask_main, a);
}

/* Wait up to 5 s for n questions to be listed; returns the list (caller frees). */
static amc_pending *wait_listed(size_t want, size_t *n)
{
	amc_pending *qs = NULL;
	amc_err e;
	for (int i = 0; i < 500; i++) {
		free(qs);
		if (amc_pending_list(home, &qs, n, &e) == 0 && *n == want)
			return qs;
		usleep(10000);
	}
	return qs;
}

static int no_files(const char *task)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/confirm-%s.ask", home, task);
	int a = amc_file_exists(p);
	snprintf(p, sizeof p, "%s/confirm-%s.answer", home, task);
	int b = amc_file_exists(p);
	snprintf(p, sizeof p, "%s/confirm-%s.secret", home, task);
	return !a && !b && !amc_file_exists(p);
}

static void test_yes_no(void)
{
	asker a;
	start(&a, "task-yes", 10000);
	size_t n;
	amc_pending *qs = wait_listed(1, &n);
	is_int((int)n, 1, "yes: the question is listed");
	if (n == 1) {
		is_str(qs[0].task, "task-yes", "yes: its task");
		is_str(qs[0].action, "tap at 662,850", "yes: the action");
		is_str(qs[0].target, "Delete", "yes: the target");
		is_str(qs[0].word, "delete", "yes: the word");
		is_str(qs[0].reason, "remove the duplicate", "yes: the reason");
		is_str(qs[0].asker, "MCP client t 1.0 on sim:0", "yes: who asks");
		ok(qs[0].until_ms - qs[0].asked_ms == 10000, "yes: asked_ms and until_ms 10 s apart");
		ok(amc_pending_waiting(home, "task-yes", qs[0].asked_ms), "yes: waiting while unanswered");
		ok(!amc_pending_waiting(home, "task-yes", qs[0].asked_ms + 1), "yes: not for another asking time");
		amc_err e;
		is_int(amc_pending_answer(home, "task-yes", 1, &e), 0, "yes: answered");
		size_t m;
		amc_pending *after;
		amc_pending_list(home, &after, &m, &e);
		ok(m == 0 || !amc_pending_waiting(home, "task-yes", qs[0].asked_ms),
		   "yes: an answered question is not listed while the asker collects it");
		free(after);
	}
	free(qs);
	pthread_join(a.th, NULL);
	is_int(a.rc, 1, "yes: the asker gets yes");
	ok(no_files("task-yes"), "yes: both files are removed");

	/* issue 30: a bare "yes" written by the asker's client is no answer */
	start(&a, "task-forged", 10000);
	qs = wait_listed(1, &n);
	free(qs);
	{
		char p[4096], *ask = NULL;
		size_t al = 0;
		amc_err fe;
		snprintf(p, sizeof p, "%s/confirm-task-forged.ask", home);
		amc_read_file(p, 8192, &ask, &al, &fe);
		snprintf(p, sizeof p, "%s/confirm-task-forged.secret", home);
		char *sec = NULL;
		size_t sl = 0;
		ok(amc_read_file(p, 64, &sec, &sl, &fe) == 0 && sl == 32 && ask && !strstr(ask, sec),
		   "forged: the secret is not in the .ask file");
		free(ask);
		free(sec);
		snprintf(p, sizeof p, "%s/confirm-task-forged.answer", home);
		amc_write_atomic(p, "yes\n", 4, 0600, &fe);
	}
	pthread_join(a.th, NULL);
	is_int(a.rc, 0, "forged: a bare yes is a refusal");
	like(a.e.msg, "secret", "forged: the refusal says the answer lacked the secret (%s)", a.e.msg);
	ok(no_files("task-forged"), "forged: the files are removed");

	start(&a, "task-no", 10000);
	qs = wait_listed(1, &n);
	free(qs);
	amc_err e;
	is_int(amc_pending_answer(home, "task-no", 0, &e), 0, "no: answered");
	pthread_join(a.th, NULL);
	is_int(a.rc, 0, "no: the asker gets no");
	is_int(a.e.code, AMC_EFAIL, "no: AMC_EFAIL (a person refused)");
	like(a.e.msg, "refused", "no: the message says so");
	ok(no_files("task-no"), "no: both files are removed");
}

static void test_timeout_cancel(void)
{
	asker a;
	long long t0 = amc_mono_ms();
	start(&a, "task-late", 300);
	pthread_join(a.th, NULL);
	long long took = amc_mono_ms() - t0;
	is_int(a.rc, 0, "timeout: refused");
	is_int(a.e.code, AMC_EENV, "timeout: AMC_EENV (nobody answered)");
	like(a.e.msg, "nobody answered", "timeout: the message says so");
	ok(took >= 300 && took < 3000, "timeout: after about 300 ms (%lld ms)", took);
	ok(no_files("task-late"), "timeout: the question is withdrawn");
	amc_err e;
	is_int(amc_pending_answer(home, "task-late", 1, &e), -1, "an answer to a withdrawn question fails");
	like(e.msg, "withdrawn", "  saying it was withdrawn");
	ok(no_files("task-late"), "  and writes no answer file");

	start(&a, "task-cancel", 10000);
	size_t n;
	free(wait_listed(1, &n));
	atomic_store(&a.cancel, 1);
	pthread_join(a.th, NULL);
	is_int(a.rc, 0, "cancel: refused");
	is_int(a.e.code, AMC_ECANCEL, "cancel: AMC_ECANCEL");
	ok(no_files("task-cancel"), "cancel: the question is withdrawn");
}

static void test_bad_ids(void)
{
	amc_err e;
	amc_pending_q q = { "tap", "", "", "", "" };
	const char *bad[] = { "", "../evil", "a/b", "a b", "x.ask", "0123456789012345678901234567890123456789" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		is_int(amc_pending_ask(home, bad[i], &q, 100, NULL, &e), -1, "ask refuses task id '%s'", bad[i]);
		is_int(amc_pending_answer(home, bad[i], 1, &e), -1, "answer refuses task id '%s'", bad[i]);
		ok(!amc_pending_waiting(home, bad[i], 0), "waiting is 0 for '%s'", bad[i]);
	}
	char p[4096];
	snprintf(p, sizeof p, "%s/../evil.ask", home);
	ok(!amc_file_exists(p), "nothing was written outside AMC_HOME");
}

static void put(const char *name, const char *body)
{
	char p[4096];
	amc_err e;
	snprintf(p, sizeof p, "%s/%s", home, name);
	amc_write_atomic(p, body, strlen(body), 0600, &e);
}

static void test_stale(void)
{
	long long now = amc_now_ms();
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	char b[9000];
	snprintf(b, sizeof b, "{\"task\":\"dead\",\"action\":\"tap\",\"asked_ms\":%lld,\"until_ms\":%lld,\"pid\":%ld}", now,
		 now + 60000, (long)dead);
	put("confirm-dead.ask", b);
	snprintf(b, sizeof b, "{\"task\":\"old\",\"action\":\"tap\",\"asked_ms\":%lld,\"until_ms\":%lld,\"pid\":%ld}",
		 now - 120000, now - 60000, (long)getpid());
	put("confirm-old.ask", b);
	snprintf(b, sizeof b, "{\"task\":\"other\",\"action\":\"tap\",\"asked_ms\":%lld,\"until_ms\":%lld,\"pid\":%ld}", now,
		 now + 60000, (long)getpid());
	put("confirm-mismatch.ask", b);
	put("confirm-broken.ask", "{\"task\":\"broken\",\"action\":");
	put("confirm-array.ask", "[1,2,3]");
	snprintf(b, sizeof b, "{\"task\":\"noact\",\"asked_ms\":%lld,\"until_ms\":%lld,\"pid\":%ld}", now, now + 60000,
		 (long)getpid());
	put("confirm-noact.ask", b);
	snprintf(b, sizeof b, "{\"task\":\"badpid\",\"action\":\"tap\",\"asked_ms\":%lld,\"until_ms\":%lld,\"pid\":\"1\"}",
		 now, now + 60000);
	put("confirm-badpid.ask", b);
	/* oversized: an action of 8500 bytes */
	int l = snprintf(b, sizeof b, "{\"task\":\"big\",\"pid\":%ld,\"asked_ms\":%lld,\"until_ms\":%lld,\"action\":\"",
			 (long)getpid(), now, now + 60000);
	memset(b + l, 'a', 8500);
	snprintf(b + l + 8500, sizeof b - l - 8500, "\"}");
	put("confirm-big.ask", b);
	/* answered but not collected */
	snprintf(b, sizeof b, "{\"task\":\"done\",\"action\":\"tap\",\"asked_ms\":%lld,\"until_ms\":%lld,\"pid\":%ld}", now,
		 now + 60000, (long)getpid());
	put("confirm-done.ask", b);
	put("confirm-done.answer", "yes\n");
	put("confirm-.ask", "{}");
	put("confirm-x.ask.tmp", "{}");
	put("unrelated.ask", "{}");
	/* one good one among them, written by hand as another process would */
	snprintf(b, sizeof b, "{\"task\":\"good\",\"action\":\"tap \\u001b[31mred\",\"target\":\"\",\"asked_ms\":%lld,"
		 "\"until_ms\":%lld,\"pid\":%ld,\"extra\":1}", now, now + 60000, (long)getpid());
	put("confirm-good.ask", b);
	amc_pending *qs;
	size_t n;
	amc_err e;
	is_int(amc_pending_list(home, &qs, &n, &e), 0, "stale: list succeeds among bad files");
	is_int((int)n, 1, "stale: only the good question is listed (dead pid, past its time, another task's, "
		"broken, not an object, no action, pid not a number, over 8 KiB, answered: not)");
	if (n == 1) {
		is_str(qs[0].task, "good", "stale: the good one");
		is_str(qs[0].action, "tap \x1b[31mred", "stale: its strings as written (the TUI makes them safe)");
		is_str(qs[0].reason, "", "stale: absent fields are empty");
	}
	free(qs);
	ok(!amc_pending_waiting(home, "dead", now), "stale: a dead asker's question is not waiting");
	ok(!amc_pending_waiting(home, "old", now - 120000), "stale: one past its time is not waiting");
	ok(amc_pending_waiting(home, "good", now), "stale: the good one is");
	is_int(amc_pending_list("/nonexistent/amc-home", &qs, &n, &e), 0, "list of a missing AMC_HOME: no error");
	is_int((int)n, 0, "  and no question");
	amc_rm_rf(home);
	amc_mkdir_p(home, 0700, &e);
}

static void test_bounds_order(void)
{
	/* fields are cut to AMC_PENDING_TEXT_MAX bytes at a character boundary */
	char big[3000];
	for (int i = 0; i < 1000; i++)
		memcpy(big + i * 2, "\xc3\xa9", 2); /* é */
	big[2000] = 0;
	asker a1, a2;
	start(&a1, "first", 10000);
	size_t n;
	free(wait_listed(1, &n));
	usleep(20000);
	memset(&a2, 0, sizeof a2);
	a2.task = "second";
	a2.timeout_ms = 10000;
	a2.q = (amc_pending_q){ big, big, NULL, big, NULL };
	pthread_create(&a2.th, NULL, ask_main, &a2);
	amc_pending *qs = wait_listed(2, &n);
	is_int((int)n, 2, "two questions of two tasks are listed");
	if (n == 2) {
		is_str(qs[0].task, "first", "oldest first");
		is_int((int)strlen(qs[1].action), AMC_PENDING_TEXT_MAX, "a long action is cut to %d bytes",
		       AMC_PENDING_TEXT_MAX);
		ok(((unsigned char)qs[1].reason[strlen(qs[1].reason) - 1]) == 0xa9, "at a character boundary");
		is_str(qs[1].word, "", "a NULL field is empty");
	}
	free(qs);
	amc_err e;
	amc_pending_answer(home, "first", 0, &e);
	amc_pending_answer(home, "second", 1, &e);
	pthread_join(a1.th, NULL);
	pthread_join(a2.th, NULL);
	ok(a1.rc == 0 && a2.rc == 1, "each asker gets its own answer");
}

int main(void)
{
	home = test_home("pending");
	test_yes_no();
	test_timeout_cancel();
	test_bad_ids();
	test_stale();
	test_bounds_order();
	return done_testing();
}

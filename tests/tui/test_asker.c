/* test_asker.c - ask_user and confirmations from runner threads to the UI
 * thread: a question wakes the UI, is taken once and terminal-safe, its answer
 * unblocks the runner; cancelling a task or shutting the operator down
 * unblocks it with "no answer". Every wait is on the wake pipe or a join, so
 * nothing depends on timing. */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tui/asker.h"

typedef struct call {
	amc_tui_asker *op;
	int confirm;
	const char *task, *text, *element, *word;
	int rc;
	char *answer;
	amc_err e;
	pthread_t th;
} call;

static void *runner(void *arg)
{
	call *c = arg;
	amc_operator *base = amc_tui_asker_base(c->op);
	if (c->confirm)
		c->rc = base->ops->confirm(base, c->task, c->text, c->element, c->word, &c->e);
	else
		c->rc = base->ops->ask(base, c->task, c->text, &c->answer, &c->e);
	return NULL;
}

static int wake[2];

/* The byte a posted question writes (2), or -1 when none came in 30 s (a
 * generous bound: a loaded machine must not fail the test). */
static int wait_wake(void)
{
	struct pollfd p = { wake[0], POLLIN, 0 };
	if (poll(&p, 1, 30000) <= 0)
		return -1;
	char b;
	return read(wake[0], &b, 1) == 1 ? b : -1;
}

/* 1 when nothing is in the pipe right now. */
static int no_wake(void)
{
	struct pollfd p = { wake[0], POLLIN, 0 };
	return poll(&p, 1, 0) == 0;
}

static void start(call *c, amc_tui_asker *op, int confirm, const char *task, const char *text,
		  const char *element, const char *word)
{
	memset(c, 0, sizeof *c);
	c->op = op;
	c->confirm = confirm;
	c->task = task;
	c->text = text;
	c->element = element;
	c->word = word;
	c->rc = 99;
	pthread_create(&c->th, NULL, runner, c);
}

static void test_ask(amc_tui_asker *op)
{
	call c;
	amc_tui_question q;
	is_int(amc_tui_asker_take(op, &q), 0, "no question yet");
	start(&c, op, 0, "task-ask", "PIN for \x1b]0;x\x07the phone?", NULL, NULL);
	is_int(wait_wake(), 2, "a question writes a wake byte");
	is_int(amc_tui_asker_take(op, &q), 1, "the UI takes it");
	is_int(q.confirm, 0, "it is an ask_user question");
	is_str(q.task, "task-ask", "for its task");
	ok(q.text && !strchr(q.text, 0x1b) && !strchr(q.text, 0x07) && strstr(q.text, "the phone?"),
	   "its text is terminal-safe and still readable: '%s'", q.text ? q.text : "");
	is_str(q.element, "", "no element for ask_user");
	ok(q.seq > 0, "it has a sequence number");
	amc_tui_question q2;
	is_int(amc_tui_asker_take(op, &q2), 0, "a question is taken once");
	is_int(amc_tui_asker_waiting(op, q.seq), 1, "it waits for its answer");
	amc_tui_asker_answer(op, q.seq, 1, "1234");
	pthread_join(c.th, NULL);
	is_int(c.rc, 0, "the runner's ask returns");
	is_str(c.answer, "1234", "with the typed answer (a copy)");
	is_int(amc_tui_asker_waiting(op, q.seq), 0, "answered: no longer waiting");
	amc_tui_asker_answer(op, q.seq, 1, "again"); /* late: ignored */
	free(c.answer);

	unsigned long prev = q.seq;
	amc_tui_question_free(&q);
	ok(q.text == NULL && q.seq == 0, "question_free clears it");

	start(&c, op, 0, "task-ask", "empty answer?", NULL, NULL);
	wait_wake();
	amc_tui_asker_take(op, &q);
	ok(q.seq > prev, "sequence numbers grow");
	amc_tui_asker_answer(op, q.seq, 1, NULL);
	pthread_join(c.th, NULL);
	is_int(c.rc, 0, "an accepted empty answer");
	is_str(c.answer, "", "is \"\", never NULL");
	free(c.answer);
	amc_tui_question_free(&q);

	start(&c, op, 0, "task-ask", "no answer?", NULL, NULL);
	wait_wake();
	amc_tui_asker_take(op, &q);
	amc_tui_asker_answer(op, q.seq, 0, "ignored");
	pthread_join(c.th, NULL);
	is_int(c.rc, -1, "Esc: the ask fails");
	is_int(c.e.code, AMC_ECANCEL, "as cancelled");
	like(c.e.msg, "no answer", "saying the operator gave no answer");
	ok(c.answer == NULL, "and hands back no answer");
	amc_tui_question_free(&q);
}

static void test_confirm(amc_tui_asker *op)
{
	call c;
	amc_tui_question q;
	start(&c, op, 1, "task-c", "tap at 540,1200", "Delete \x1b[31maccount", "delete");
	is_int(wait_wake(), 2, "a confirmation wakes the UI");
	amc_tui_asker_take(op, &q);
	is_int(q.confirm, 1, "it is a confirmation");
	is_str(q.text, "tap at 540,1200", "the action");
	ok(q.element && !strchr(q.element, 0x1b) && strstr(q.element, "account"), "the element, made safe: '%s'",
	   q.element ? q.element : "");
	is_str(q.word, "delete", "the matched word");
	amc_tui_asker_answer(op, q.seq, 1, NULL);
	pthread_join(c.th, NULL);
	is_int(c.rc, 1, "y allows the action");
	amc_tui_question_free(&q);

	start(&c, op, 1, "task-c", "tap at 1,1", NULL, NULL);
	wait_wake();
	amc_tui_asker_take(op, &q);
	is_str(q.element, "", "no element: \"\"");
	is_str(q.word, "", "no word: \"\"");
	amc_tui_asker_answer(op, q.seq, 0, NULL);
	pthread_join(c.th, NULL);
	is_int(c.rc, 0, "n refuses the action (not an error)");
	amc_tui_question_free(&q);
}

static void test_cancel(amc_tui_asker *op)
{
	call a, b;
	amc_tui_question qa, qb;
	start(&a, op, 0, "task-A", "first?", NULL, NULL);
	wait_wake();
	start(&b, op, 1, "task-B", "swipe", "Pay", "pay");
	wait_wake();
	is_int(amc_tui_asker_take(op, &qa), 1, "two questions: the first");
	is_int(amc_tui_asker_take(op, &qb), 1, "then the second");
	is_str(qa.task, "task-A", "oldest first");
	is_str(qb.task, "task-B", "then the newer one");
	amc_tui_asker_cancel(op, "task-A");
	pthread_join(a.th, NULL);
	is_int(a.rc, -1, "cancelling task A unblocks its ask with no answer");
	is_int(amc_tui_asker_waiting(op, qa.seq), 0, "A's question no longer waits (its dialog goes stale)");
	is_int(amc_tui_asker_waiting(op, qb.seq), 1, "B's still waits");
	amc_tui_asker_answer(op, 424242, 1, "x");
	is_int(amc_tui_asker_waiting(op, qb.seq), 1, "an unknown sequence number is ignored");
	amc_tui_asker_cancel(op, NULL);
	pthread_join(b.th, NULL);
	is_int(b.rc, 0, "cancelling every task refuses B's action");
	amc_tui_question_free(&qa);
	amc_tui_question_free(&qb);

	/* A question cancelled before the UI took it is never shown. */
	start(&a, op, 0, "task-C", "gone?", NULL, NULL);
	wait_wake();
	amc_tui_asker_cancel(op, "task-C");
	pthread_join(a.th, NULL);
	is_int(amc_tui_asker_take(op, &qa), 0, "a cancelled question is not taken");
}

static void test_shutdown(amc_tui_asker *op)
{
	call a;
	amc_tui_question q;
	start(&a, op, 0, "task-S", "still there?", NULL, NULL);
	wait_wake();
	amc_tui_asker_take(op, &q);
	amc_tui_asker_shutdown(op);
	pthread_join(a.th, NULL);
	is_int(a.rc, -1, "shutdown unblocks a waiting ask");
	like(a.e.msg, "went away", "saying the terminal went away");
	amc_tui_question_free(&q);

	start(&a, op, 0, "task-S", "after?", NULL, NULL);
	pthread_join(a.th, NULL);
	is_int(a.rc, -1, "after shutdown an ask fails at once");
	like(a.e.msg, "nobody can answer", "nobody can answer");
	start(&a, op, 1, "task-S", "tap", NULL, NULL);
	pthread_join(a.th, NULL);
	is_int(a.rc, -1, "after shutdown a confirmation is an error, not a refusal");
	like(a.e.msg, "nobody can confirm", "nobody can confirm");
	ok(no_wake(), "and the UI is not woken");
	is_int(amc_tui_asker_take(op, &q), 0, "nothing to take");
}

int main(void)
{
	if (pipe(wake) != 0)
		return 99;
	fcntl(wake[1], F_SETFL, O_NONBLOCK);
	amc_tui_asker *op = amc_tui_asker_new(wake[1]);
	ok(amc_tui_asker_base(op) && amc_tui_asker_base(op)->ops, "the operator has runner-side ops");
	test_ask(op);
	test_confirm(op);
	test_cancel(op);
	test_shutdown(op);
	amc_tui_asker_free(op);
	amc_tui_asker_cancel(NULL, NULL);
	amc_tui_asker_shutdown(NULL);
	amc_tui_asker_free(NULL);
	ok(no_wake(), "cancelling, shutting down and freeing NULL operators wakes nothing");
	close(wake[0]);
	close(wake[1]);
	return done_testing();
}

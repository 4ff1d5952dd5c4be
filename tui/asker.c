/* asker.c - ask_user and confirmations from runner threads to the UI thread (asker.h). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/asker.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

typedef struct req {
	unsigned long seq;
	int confirm;
	char task[32];
	const char *text, *element, *word;  /* the runner thread's, valid while it waits */
	int taken;     /* the UI shows it */
	int done;      /* answered (or cancelled) */
	int ok;
	int closed;    /* nobody can answer: the operator was shut down */
	char *answer;  /* ask: malloc'd, handed to the runner */
	struct req *next;
} req;

struct amc_tui_asker {
	amc_operator base;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int wake_fd;
	int closed;
	unsigned long seq;
	req *head;
};

/* Post r, wake the UI, wait until it is answered; runner thread. */
static void post_and_wait(amc_tui_asker *o, req *r)
{
	pthread_mutex_lock(&o->mu);
	if (o->closed) {
		r->done = 1;
		r->closed = 1;
		pthread_mutex_unlock(&o->mu);
		return;
	}
	r->seq = ++o->seq;
	req **p = &o->head;
	while (*p)
		p = &(*p)->next;
	*p = r;
	pthread_mutex_unlock(&o->mu);
	char b = 2;
	ssize_t w = write(o->wake_fd, &b, 1); /* a full pipe already wakes */
	(void)w;
	pthread_mutex_lock(&o->mu);
	while (!r->done)
		pthread_cond_wait(&o->cv, &o->mu);
	for (p = &o->head; *p; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			break;
		}
	pthread_mutex_unlock(&o->mu);
}

static int op_ask(amc_operator *base, const char *task_id, const char *question, char **answer, amc_err *e)
{
	amc_tui_asker *o = base->impl;
	req r;
	memset(&r, 0, sizeof r);
	snprintf(r.task, sizeof r.task, "%s", task_id ? task_id : "");
	r.text = question ? question : "";
	post_and_wait(o, &r);
	if (!r.ok) {
		free(r.answer);
		return amc_err_set(e, AMC_ECANCEL, r.closed ? "the terminal went away: nobody can answer"
						       : "the operator gave no answer");
	}
	*answer = r.answer ? r.answer : amc_xstrdup("");
	return 0;
}

static int op_confirm(amc_operator *base, const char *task_id, const char *action, const char *element,
		      const char *word, amc_err *e)
{
	amc_tui_asker *o = base->impl;
	req r;
	memset(&r, 0, sizeof r);
	r.confirm = 1;
	snprintf(r.task, sizeof r.task, "%s", task_id ? task_id : "");
	r.text = action ? action : "";
	r.element = element ? element : "";
	r.word = word ? word : "";
	post_and_wait(o, &r);
	free(r.answer);
	if (r.closed) {
		amc_err_set(e, AMC_ECANCEL, "the terminal went away: nobody can confirm");
		return -1;
	}
	return r.ok ? 1 : 0;
}

static const amc_operator_ops tui_ops = { op_ask, op_confirm };

amc_tui_asker *amc_tui_asker_new(int wake_fd)
{
	amc_tui_asker *o = amc_xcalloc(1, sizeof *o);
	o->base.ops = &tui_ops;
	o->base.impl = o;
	o->wake_fd = wake_fd;
	pthread_mutex_init(&o->mu, NULL);
	pthread_cond_init(&o->cv, NULL);
	return o;
}

amc_operator *amc_tui_asker_base(amc_tui_asker *o)
{
	return &o->base;
}

int amc_tui_asker_take(amc_tui_asker *o, amc_tui_question *q)
{
	int found = 0;
	memset(q, 0, sizeof *q);
	pthread_mutex_lock(&o->mu);
	for (req *r = o->head; r; r = r->next)
		if (!r->taken && !r->done) {
			r->taken = 1;
			q->seq = r->seq;
			q->confirm = r->confirm;
			snprintf(q->task, sizeof q->task, "%s", r->task);
			q->text = amc_sanitize_dup(r->text);
			q->element = amc_sanitize_dup(r->element ? r->element : "");
			q->word = amc_sanitize_dup(r->word ? r->word : "");
			found = 1;
			break;
		}
	pthread_mutex_unlock(&o->mu);
	return found;
}

void amc_tui_question_free(amc_tui_question *q)
{
	free(q->text);
	free(q->element);
	free(q->word);
	memset(q, 0, sizeof *q);
}

int amc_tui_asker_waiting(amc_tui_asker *o, unsigned long seq)
{
	int w = 0;
	pthread_mutex_lock(&o->mu);
	for (req *r = o->head; r; r = r->next)
		if (r->seq == seq && !r->done)
			w = 1;
	pthread_mutex_unlock(&o->mu);
	return w;
}

void amc_tui_asker_answer(amc_tui_asker *o, unsigned long seq, int ok, const char *answer)
{
	pthread_mutex_lock(&o->mu);
	for (req *r = o->head; r; r = r->next)
		if (r->seq == seq && !r->done) {
			r->ok = ok;
			r->answer = ok && answer ? amc_xstrdup(answer) : NULL;
			r->done = 1;
		}
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
}

void amc_tui_asker_cancel(amc_tui_asker *o, const char *task_id)
{
	if (!o)
		return;
	pthread_mutex_lock(&o->mu);
	for (req *r = o->head; r; r = r->next)
		if (!r->done && (!task_id || !strcmp(r->task, task_id))) {
			r->ok = 0;
			r->closed = o->closed;
			r->done = 1;
		}
	pthread_cond_broadcast(&o->cv);
	pthread_mutex_unlock(&o->mu);
}

void amc_tui_asker_shutdown(amc_tui_asker *o)
{
	if (!o)
		return;
	pthread_mutex_lock(&o->mu);
	o->closed = 1;
	pthread_mutex_unlock(&o->mu);
	amc_tui_asker_cancel(o, NULL);
}

void amc_tui_asker_free(amc_tui_asker *o)
{
	if (!o)
		return;
	pthread_mutex_destroy(&o->mu);
	pthread_cond_destroy(&o->cv);
	free(o);
}

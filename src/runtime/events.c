#include "runtime/events.h"

#include <pthread.h>
#include <stdlib.h>

#include "util/strbuf.h"

#define MAX_SUBS 32

struct amc_bus {
	pthread_mutex_t mu;
	struct {
		int id;
		amc_event_fn fn;
		void *ud;
	} subs[MAX_SUBS];
	int next_id;
};

amc_bus *amc_bus_new(void)
{
	amc_bus *b = amc_xcalloc(1, sizeof *b);
	pthread_mutex_init(&b->mu, NULL);
	b->next_id = 1;
	return b;
}

void amc_bus_free(amc_bus *b)
{
	if (!b)
		return;
	pthread_mutex_destroy(&b->mu);
	free(b);
}

int amc_bus_subscribe(amc_bus *b, amc_event_fn fn, void *ud)
{
	int id = -1;
	pthread_mutex_lock(&b->mu);
	for (int i = 0; i < MAX_SUBS; i++) {
		if (!b->subs[i].fn) {
			b->subs[i].id = id = b->next_id++;
			b->subs[i].fn = fn;
			b->subs[i].ud = ud;
			break;
		}
	}
	pthread_mutex_unlock(&b->mu);
	return id;
}

void amc_bus_unsubscribe(amc_bus *b, int id)
{
	pthread_mutex_lock(&b->mu);
	for (int i = 0; i < MAX_SUBS; i++)
		if (b->subs[i].fn && b->subs[i].id == id)
			b->subs[i].fn = NULL;
	pthread_mutex_unlock(&b->mu);
}

void amc_bus_publish(amc_bus *b, const amc_event *ev)
{
	if (!b)
		return;
	/* Hold the lock while calling out: an unsubscribe that returns guarantees the
	 * callback is not running and will not run again. Callbacks must not publish. */
	pthread_mutex_lock(&b->mu);
	for (int i = 0; i < MAX_SUBS; i++)
		if (b->subs[i].fn)
			b->subs[i].fn(ev, b->subs[i].ud);
	pthread_mutex_unlock(&b->mu);
}

const char *amc_event_type_name(amc_event_type t)
{
	switch (t) {
	case AMC_EV_TASK_CREATED: return "task_created";
	case AMC_EV_TASK_STATUS: return "task_status";
	case AMC_EV_STEP_STARTED: return "step_started";
	case AMC_EV_STEP_PHASE: return "step_phase";
	case AMC_EV_STEP_FINISHED: return "step_finished";
	}
	return "?";
}

/* test_events.c - the in-process bus: delivery, unsubscribe, many threads. */
#include <pthread.h>
#include <string.h>

#include "runtime/events.h"
#include "tap.h"

static int got_a, got_b;
static char last_task[64];
static void on_a(const amc_event *ev, void *ud)
{
	(void)ud;
	got_a++;
	snprintf(last_task, sizeof last_task, "%s", ev->task_id);
}
static void on_b(const amc_event *ev, void *ud)
{
	(void)ev;
	(*(int *)ud)++;
	got_b++;
}

static amc_bus *shared;
static void *publisher(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++) {
		amc_event ev = { AMC_EV_STEP_FINISHED, "t", "sim:0", i, "ok", NULL, "tap", NULL, 0 };
		amc_bus_publish(shared, &ev);
	}
	return NULL;
}

int main(void)
{
	amc_bus *b = amc_bus_new();
	int counter = 0;
	int a = amc_bus_subscribe(b, on_a, NULL);
	int bid = amc_bus_subscribe(b, on_b, &counter);
	ok(a > 0 && bid > 0 && a != bid, "subscriptions get distinct ids");
	amc_event ev = { AMC_EV_TASK_CREATED, "task1", "sim:0", 0, "queued", NULL, NULL, NULL, 0 };
	amc_bus_publish(b, &ev);
	is_int(got_a, 1, "first subscriber called");
	is_int(counter, 1, "second subscriber called with its user data");
	is_str(last_task, "task1", "event content delivered");
	amc_bus_unsubscribe(b, a);
	amc_bus_publish(b, &ev);
	is_int(got_a, 1, "unsubscribed callback not called again");
	is_int(got_b, 2, "other subscriber still called");
	amc_bus_publish(NULL, &ev);
	ok(got_a == 1 && got_b == 2, "publishing on no bus calls no subscriber");
	is_str(amc_event_type_name(AMC_EV_STEP_PHASE), "step_phase", "type names");

	shared = b;
	pthread_t th[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, publisher, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	is_int(got_b, 4002, "events from 4 threads all delivered");
	amc_bus_free(b);
	return done_testing();
}

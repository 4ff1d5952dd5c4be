/* events.h - the in-process event bus. The runner publishes task and step events;
 * front ends subscribe. Callbacks run synchronously on the publishing thread, so
 * they must be quick and thread-safe (the TUI queues the event and writes a byte
 * to its wake-up pipe). */
#ifndef AMC_EVENTS_H
#define AMC_EVENTS_H

typedef enum amc_event_type {
	AMC_EV_TASK_CREATED,
	AMC_EV_TASK_STATUS,    /* status changed (running, succeeded, ...) */
	AMC_EV_STEP_STARTED,
	AMC_EV_STEP_PHASE,     /* observe, plan, act, settle, record */
	AMC_EV_STEP_FINISHED
} amc_event_type;

typedef struct amc_event {
	amc_event_type type;
	const char *task_id;
	const char *device;
	int step;              /* 0 when not about a step */
	const char *status;    /* task status or step status ("ok"/"failed") */
	const char *phase;     /* for AMC_EV_STEP_PHASE */
	const char *tool;
	const char *text;      /* description, error or summary; may be NULL */
	long long duration_ms;
} amc_event;

typedef void (*amc_event_fn)(const amc_event *ev, void *ud);
typedef struct amc_bus amc_bus;

amc_bus *amc_bus_new(void);
void amc_bus_free(amc_bus *b);
/* Returns a subscription id (> 0). */
int amc_bus_subscribe(amc_bus *b, amc_event_fn fn, void *ud);
void amc_bus_unsubscribe(amc_bus *b, int id);
void amc_bus_publish(amc_bus *b, const amc_event *ev); /* b may be NULL */
const char *amc_event_type_name(amc_event_type t);

#endif

/* extplanner.h - a planner whose actions are handed in from another thread.
 *
 * A front end that lets an outside agent act step by step (an MCP server) never
 * writes timeline rows itself: it runs the task as usual (amc_launch_run)
 * with this planner and hands each action in. The planner's next()
 * blocks until an action arrives, the task is cancelled, or a bounded wait runs
 * out (the task then fails, saying so). Each action becomes an ordinary
 * observe -> act -> settle -> record step, and whoever handed it in can wait
 * for that step's record.
 *
 * Ownership: amc_extplanner_new makes two handles on one shared state: the
 * planner, given to a launch (amc_launch_req.planner) and freed as any planner
 * (amc_planner_free), and the amc_extplanner, the caller's, freed with
 * amc_extplanner_free. The state lives until both are freed, in either order,
 * from any thread. Every amc_extplanner_* call is thread-safe. One action at a
 * time: give, wait for its answer, give the next. */
#ifndef AMC_EXTPLANNER_H
#define AMC_EXTPLANNER_H

#include <cjson/cJSON.h>
#include "runtime/planner.h"
#include "runtime/task.h"
#include "util/err.h"

/* How long next() waits for an action when the options name no wait: long
 * enough for an agent that thinks between steps, short enough that a task
 * whose agent went silent does not hold its device for good. */
#define AMC_EXTPLANNER_WAIT_MS 300000L

typedef struct amc_extplanner_opts {
	long wait_ms;   /* how long next() waits for an action; <= 0: AMC_EXTPLANNER_WAIT_MS */
	/* 1: taps on irreversible-looking elements need the operator's yes (runner
	 * opts confirm_words), as for a model's actions; 0: they run as given. */
	int gated;
	/* The planner's name as the task row records it ("mcp"); NULL or "":
	 * "external". At most 31 bytes are kept. */
	const char *name;
	/* > 0: each screen the task asks on is also kept as a PNG whose long edge
	 * is at most image_edge px (amc_extplanner_asked_image): made once, on
	 * the runner's thread, from the frame's pixels (never a PNG decode), or
	 * the captured PNG itself when the frame already fits. The MCP server
	 * sends it with act's result and every observe of that screen. 0: none. */
	int image_edge;
} amc_extplanner_opts;

typedef struct amc_extplanner amc_extplanner;

/* The planner ("external") and the handle that feeds it. o NULL: the default
 * wait, gated. A failed step is reported back and the task goes on (the agent
 * decides), except an unanswered ask_user. */
void amc_extplanner_new(const amc_extplanner_opts *o, amc_planner **planner, amc_extplanner **x);
/* Drop the caller's handle. A task still waiting for an action then fails
 * ("the agent went away") instead of waiting out its bound. */
void amc_extplanner_free(amc_extplanner *x);

/* Hand in the next action: a registry tool (tools.h) or ask_user; its arguments
 * (a JSON object, copied; NULL: {}); why (copied, may be NULL; recorded as the
 * step's reasoning). AMC_EUSAGE: unknown tool, arguments not an object, or the
 * previous action's answer has not been waited for; AMC_EFAIL: the task has
 * ended (e says how). */
int amc_extplanner_give(amc_extplanner *x, const char *tool, const cJSON *args, const char *reason,
			amc_err *e);
/* Where the agent's own words come from (an agent CLI's output, read as it
 * runs): give() calls fn(ud, reason) on its caller's thread before it takes
 * an action, and the text fn returns (malloc'd, taken; NULL: none) goes
 * before the action's why in the step's reasoning. Set it before the first
 * give. */
typedef char *(*amc_extplanner_words_fn)(void *ud, const char *reason);
void amc_extplanner_set_words(amc_extplanner *x, amc_extplanner_words_fn fn, void *ud);
/* The screen the task will act on, no older than max_age_ms: when the
 * observation the task is waiting with is older, it is captured again now
 * (on the runner's thread, as any observation) and this waits up to wait_ms
 * for it. *age_ms: how old the observation is; *fresh: 1 when it was
 * captured for this call.
 * 0; -1 when the task is not waiting for an action within wait_ms, or ended
 * (AMC_EFAIL, e says which). Then read it with amc_extplanner_wait_asked,
 * amc_extplanner_asked_shot and amc_extplanner_asked_png. */
int amc_extplanner_look(amc_extplanner *x, long max_age_ms, long wait_ms, long *age_ms, int *fresh, amc_err *e);
/* End the task: succeeded with `text` as its summary (success = 1), or failed
 * with `text` as its error (success = 0). Wait for the end with
 * amc_extplanner_wait. Errors as for give. */
int amc_extplanner_finish(amc_extplanner *x, int success, const char *text, amc_err *e);
/* The answer (copied; NULL: none) a later successful finish ends the task
 * with: an information task's answer, stored as the task's answer. */
int amc_extplanner_set_answer(amc_extplanner *x, const char *answer);

/* The answer to what was handed in last. */
typedef struct amc_ext_answer {
	int step;                    /* the step the action was recorded as; 0: it never ran (or finish) */
	char status[16];             /* that step's status: "ok", "failed", "refused"; "" when none */
	char error[AMC_ERR_MSG_MAX]; /* the step's error, or why the action never ran; "" when ok */
	cJSON *result;               /* the step's result, owned (amc_ext_answer_clear); may be NULL */
	char screenshot[512];        /* the screen after the step: artifact path under $AMC_HOME; "" when none */
	int ended;                   /* 1: the task has ended; outcome says how */
	amc_task_outcome outcome;
} amc_ext_answer;

void amc_ext_answer_clear(amc_ext_answer *a);

/* Wait at most ms (< 0: without bound) for the answer to the last action or
 * finish handed in. 0: it came (*out filled); 1: ms passed first (call again);
 * -1: nothing was handed in to answer (AMC_EUSAGE). */
int amc_extplanner_wait(amc_extplanner *x, long ms, amc_ext_answer *out, amc_err *e);

/* Wait at most ms (< 0: without bound) until the task asks for its next action.
 * 0: it asks; *step is the step it will become and *scene (when not NULL) a
 * copy of the screen it will act on (amc_scene JSON, owned). 1: ms passed
 * first. -1: the task has ended (e, AMC_EFAIL, says how). */
int amc_extplanner_wait_asked(amc_extplanner *x, long ms, int *step, cJSON **scene, amc_err *e);

/* The screenshot (artifact path under $AMC_HOME) of the screen the task last
 * asked for an action on; "" before the first ask or when it was not stored. */
void amc_extplanner_asked_shot(amc_extplanner *x, char *out, size_t n);
/* That screen's PNG (secrets already masked), a copy the caller frees; -1
 * when there is none yet. */
int amc_extplanner_asked_png(amc_extplanner *x, unsigned char **png, size_t *len);
/* That screen's image bounded by the options' image_edge (a copy of its PNG,
 * the caller's), *w x *h its size and *full_w its frame's width in device px
 * (their ratio is the image's scale). With `shot` not NULL, only when that
 * screen is stored as `shot` (an act's after-screen). -1 when there is none
 * (no image_edge, another screen, no screen yet). */
int amc_extplanner_asked_image(amc_extplanner *x, const char *shot, unsigned char **png, size_t *len, int *w, int *h,
			       int *full_w);

#endif

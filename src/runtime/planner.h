/* planner.h - the planner interface. The runner asks a planner for the next
 * action given the latest observation; the planners live in planner/ (an LLM,
 * actions handed in from another thread) and flow/ (Maestro flows), above the
 * runtime, which includes none of them. */
#ifndef AMC_PLANNER_H
#define AMC_PLANNER_H

#include <stdatomic.h>
#include <stddef.h>
#include <cjson/cJSON.h>
#include "image/image.h"
#include "perception/scene.h"
#include "perception/uitree.h"
#include "runtime/task.h"
#include "util/err.h"

/* One capture of the device: pixels, tree and scene. Owned by the runner; a
 * planner may read it during next() only. */
typedef struct amc_observation {
	unsigned char *png;
	size_t png_len;
	amc_image img;
	char *xml;
	amc_ui_tree tree;
	amc_scene scene;
	int width, height;
	long long captured_ms;
	char *png_path;       /* artifact path (relative to $AMC_HOME) once stored, else NULL */
	char *tree_path;      /* artifact with the normalized tree JSON, else NULL */
	char *ocr_json;       /* raw OCR words as JSON ("[]" when OCR is off), owned */
	cJSON *semantic;      /* SemanticScene when enrichment is on and worked, else NULL; owned */
} amc_observation;

/* What the planner wants done. `tool` names a registry tool (tools.h). A planner
 * may also decide a step itself without touching the device (an assertion, a
 * selector that matched nothing): then `decided` is 1 and `decided_ok` /
 * `decided_error` / `decided_result` hold the outcome that is recorded. */
typedef struct amc_action {
	char tool[32];
	cJSON *args;          /* owned; tool arguments */
	char *description;    /* owned; one line for people ("tapOn 'Add contact'") */
	char *reasoning;      /* owned; why (planner reasoning), may be NULL */
	int decided;
	int decided_ok;
	char *decided_error;  /* owned */
	cJSON *decided_result; /* owned, may be NULL */
	/* Model usage of this decision (LLM planners); -1 = unknown / no model call. */
	long long input_tokens, output_tokens;
	double cost_usd;      /* < 0: unknown */
	/* What the planner sent and got (prompt text, tool call, args, usage; never
	 * image bytes), so a model's choices can be audited later. Owned; the
	 * runner stores it in the planner decisions table with the task id and
	 * step, also for DONE/FAIL answers. */
	cJSON *decision;
	/* With AMC_PLAN_DONE: the answer of an information task ("AMC.260115.001"),
	 * owned, NULL when none; the runner stores it with the task (tasks.answer). */
	char *answer;
} amc_action;

void amc_action_clear(amc_action *a);

typedef enum amc_plan_rc {
	AMC_PLAN_ACT,        /* run `out` as the next step */
	AMC_PLAN_DONE,       /* goal reached; `out->description` may hold a summary */
	AMC_PLAN_REOBSERVE,  /* nothing to do on this screen yet: wait a bit, capture again, ask again */
	AMC_PLAN_FAIL,       /* the planner cannot go on; err says why (no step recorded) */
	AMC_PLAN_LOOK        /* capture again now (no wait) and ask again: someone outside
				 * (an MCP client's observe) wants the screen as it is now */
} amc_plan_rc;

typedef struct amc_plan_ctx {
	const amc_task *task;
	int step;                    /* index of the step being planned (1-based) */
	const amc_observation *obs;  /* current screen */
	const char *last_tool;       /* previous step, NULL on the first */
	int last_ok;
	const char *last_error;
	long long waited_ms;         /* time spent re-observing for this decision so far */
	const cJSON *last_result;    /* result of the previous step (ask_user: {"answer"}), may be NULL */
} amc_plan_ctx;

/* One step as the runner recorded it; valid during the call only. */
typedef struct amc_step_report {
	int step;
	const char *tool;
	const char *status;          /* "ok", "failed" or "refused" */
	const char *error;           /* NULL when ok */
	const cJSON *result;         /* may be NULL */
	const amc_observation *after; /* the screen after the step (= before when it did not act) */
} amc_step_report;

typedef struct amc_planner amc_planner;

/* What the runner tells a planner besides asking it; both optional, both on
 * the runner's thread. A planner whose actions come from outside passes them
 * back to whoever handed the action in. */
typedef struct amc_planner_hooks {
	void (*recorded)(amc_planner *p, const amc_step_report *r); /* a step's row is written */
	/* The task has ended (amc_task_run), or was recorded as never run
	 * (amc_task_record_unrun: amc_launch_run does it for a task that
	 * could not start). */
	void (*ended)(amc_planner *p, const amc_task_outcome *o);
} amc_planner_hooks;

typedef struct amc_planner_ops {
	const char *name;            /* "flow" */
	amc_plan_rc (*next)(amc_planner *p, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
	void (*destroy)(amc_planner *p);
} amc_planner_ops;

struct amc_planner {
	const amc_planner_ops *ops;
	void *impl;
	/* 1: a failed step is reported to the planner (ctx->last_ok/last_error) and
	 * the task goes on; 0 (flows): a failed step fails the task. */
	int keep_going;
	/* 1: taps on irreversible-looking elements need the operator's yes
	 * (runner opts confirm_words); flows set it only with --confirm. */
	int gated;
	const amc_planner_hooks *hooks; /* NULL: nothing to tell */
	/* Set by the runner while the task runs (NULL otherwise): a planner that
	 * blocks in next() polls it and returns when it is set. */
	atomic_int *cancel;
};

void amc_planner_free(amc_planner *p);
/* Call p->hooks->ended when there is one. */
void amc_planner_ended(amc_planner *p, const amc_task_outcome *o);

#endif

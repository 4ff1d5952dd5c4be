/* launch.h - one launch path for every front end.
 *
 * A launch request (a device, and one of a bundled flow name, a flow file, a
 * flow bundle or a goal in words, with its options) in; a ready task, its
 * planner and the per-task runner options out, with one amc_err that says
 * what to fix (amc_launch_prepare); then the task run to its one terminal
 * state and recorded (amc_launch_run). Every front end calls both: `amc run`,
 * the TUI (through its per-device runner, launch/runner.h), the MCP server's
 * run_task and sessions, the fleet host's slots and `amc bench tasks`. It
 * sits above planner/ and flow/: front ends reach the planners only through it,
 * and nothing else opens a device to run a task.
 *
 * The flow file is read exactly once, here: its text is parsed and scanned
 * for {{secret:NAME}} from the same bytes, so the file can change or vanish
 * after amc_launch_prepare without anything reading it again. */
#ifndef AMC_LAUNCH_H
#define AMC_LAUNCH_H

#include <stdatomic.h>
#include <stddef.h>
#include "device/device.h"
#include "flow/flow_interp.h"
#include "runtime/operator.h"
#include "runtime/planner.h"
#include "runtime/run.h"
#include "runtime/safety.h"
#include "runtime/secrets.h"
#include "runtime/task.h"
#include "semantic/enrich.h"
#include "storage/store.h"
#include "util/config.h"
#include "util/err.h"

/* A goal longer than this is refused (a goal is a sentence, not a document). */
#define AMC_LAUNCH_GOAL_MAX 4000
/* -e NAME=VALUE: at most this many, names as shell variables are written. */
#define AMC_LAUNCH_ENV_MAX 64
#define AMC_LAUNCH_ENV_NAME_MAX 64
#define AMC_LAUNCH_ENV_VALUE_MAX 4096
/* A bundle: at most this many sub-flow and script files, each at most
 * AMC_FLOW_MAX_BYTES, names at most this long, and all of it together at
 * most AMC_LAUNCH_BUNDLE_MAX_BYTES (what a remote caller may hand us). */
#define AMC_LAUNCH_BUNDLE_FILES_MAX 64
#define AMC_LAUNCH_BUNDLE_NAME_MAX 255
#define AMC_LAUNCH_BUNDLE_MAX_BYTES (8u * 1024u * 1024u)

/* A file of a bundle: its name relative to the bundle's base folder. */
typedef struct amc_launch_file {
	const char *name;
	const char *text;
} amc_launch_file;

/* A flow handed over as text (by a remote caller) with the sub-flows and
 * scripts it names (runFlow, retry file:, runScript), by their names relative
 * to `base`. The files are checked, bounded, carried in the result, scanned
 * for {{secret:NAME}}, and the flow's references are resolved from them (a
 * name the flow uses that the bundle lacks is an error naming FILE:LINE). A
 * flow read from disk has its files read from disk the same way, once, and
 * carried in the result too. */
typedef struct amc_launch_bundle {
	const char *flow;        /* the flow's YAML text */
	const char *flow_file;   /* its name within base, for messages and the record; NULL: "flow.yaml" */
	const char *base;        /* the folder the names are relative to */
	const amc_launch_file *files;
	size_t nfiles;
	/* How errors in the flow's own text name it when it exists on no disk
	 * ("the flow text you sent": "line 4 of the flow text you sent: ...");
	 * NULL: by its path. */
	const char *label;
} amc_launch_bundle;

/* What to launch. Nothing in it is taken except `planner`; the strings are
 * copied. Start from amc_launch_req_init. Exactly one of flow_name,
 * flow_path, bundle and goal is set. */
typedef struct amc_launch_req {
	const char *device;       /* as typed ("sim", "sim:1"); NULL: config device.default */
	const char *flow_name;    /* a bundled flow: data/flows/NAME.yaml */
	const char *flow_path;    /* a flow file, taken as a path */
	const amc_launch_bundle *bundle;
	const char *goal;         /* a goal in words for the LLM planner */
	/* -e NAME=VALUE overrides: ${NAME} in flows, over their env: blocks. */
	const char *const *env;
	size_t nenv;
	/* JavaScript for flows (evalScript, runScript, ${expr}): NULL to have a
	 * flow that needs it use amc-js (flow_js.h), opened before the run; when
	 * the helper is missing the flow is refused naming the file and line. */
	amc_flow_eval_fn eval;
	void *eval_ud;
	void (*set_copied)(void *ud, const char *text);
	/* http.* of the flow's scripts, made by amc (flow/script_http.h): 0 for a
	 * flow run locally (any host, as Maestro); 1 for a fleet payload: only the
	 * hosts listed in js_http_hosts ("h1,h2", from the host's configuration;
	 * NULL or "": none). The fleet host sets these when it launches. */
	int js_remote;
	const char *js_http_hosts;
	int max_steps;            /* 0: config runner.max_steps (the runner decides) */
	int assume_yes;           /* --yes: irreversible-looking taps pass without asking */
	int confirm;              /* --confirm: gate flows too (goals always are) */
	const char *source_task_id; /* correlation with a caller's task; NULL: none */
	int source_attempt;       /* -1: none */
	/* Planner overrides for a goal: planner.provider and planner.model as if
	 * given on the command line (NULL: the configuration's). */
	const char *provider;
	const char *model;
	/* A planner made by the caller (the MCP's planner whose actions come from
	 * outside) instead of the LLM planner; only with a goal. Taken, also on
	 * failure. NULL: build one. */
	amc_planner *planner;
} amc_launch_req;

typedef struct amc_launch_env {
	char *name;
	char *value;
} amc_launch_env;

/* A bundle file as carried in the result (owned copies). */
typedef struct amc_launch_carried {
	char *name;
	char *text;
} amc_launch_carried;

/* A prepared launch. Everything in it is owned by it and freed by
 * amc_launch_free; a consumer that takes a part (amc_tui_launch takes task,
 * planner and secrets) sets the field to NULL. */
typedef struct amc_launch {
	amc_task *task;           /* kind, device (canonical), goal or flow, max steps, source */
	amc_planner *planner;
	amc_secrets *secrets;     /* resolved once, here; NULL when no value is known */
	amc_words words;          /* irreversible-action words; loaded when gated */
	int gated;                /* the planner asks before irreversible-looking taps */
	int assume_yes;
	amc_enricher *enricher;   /* semantic.enrich = on; NULL: off or it could not be built */
	amc_launch_env *env;      /* the -e overrides, last one of a name wins */
	size_t nenv;
	amc_launch_carried *files; /* a bundle's files (name and text copied) */
	size_t nfiles;
	char *bundle_base;        /* a bundle's base folder; NULL otherwise */
	/* The flow's own text as parsed (NULL for a goal): stored with the task
	 * when its row exists, with `files`, so its steps show the lines that
	 * ran (storage/sources.h). */
	char *flow_text;
	/* Remarks that do not fail the launch, ready to show ("" when none). */
	char planner_warn[AMC_ERR_MSG_MAX + 32]; /* the price file: costs unknown */
	char enrich_warn[AMC_ERR_MSG_MAX + 48];  /* "...; going on without SemanticScenes" */
	char prune_warn[AMC_ERR_MSG_MAX];        /* old planner decisions could not be pruned */
} amc_launch;

void amc_launch_req_init(amc_launch_req *req);

/* Who builds a coding agent's planner (provider "agent:claude" or
 * "agent:codex", planner/agentcli.h): that planner is served MCP, a front
 * end above this module, so the program registers it with its endpoint
 * (cli/main.c). model NULL: the CLI's default. Without one registered, such a
 * provider is refused with a message. */
typedef int (*amc_launch_agent_fn)(const amc_config *cfg, const char *provider, const char *model, amc_planner **out,
				   amc_err *e);
void amc_launch_set_agent(amc_launch_agent_fn fn);

/* Prepare a launch: find and read the flow (once) or check the goal, build
 * the planner, resolve {{secret:NAME}}, load the irreversible-action words
 * when the planner is gated (goals always, flows with --confirm), build the
 * enricher, and prune old planner decisions from `store` for a goal (store
 * may be NULL: no pruning). 0 with *out filled (free it with
 * amc_launch_free); -1 with *out empty and e saying what to fix: AMC_EUSAGE
 * for the request (a missing flow, a bad -e name, a secret with no value),
 * AMC_EENV for the environment (no API key, an unusable secrets file). */
int amc_launch_prepare(const amc_config *cfg, amc_store *store, const amc_launch_req *req, amc_launch *out,
		       amc_err *e);
/* Point o's per-task fields (confirm words, --yes, secrets, enricher) at l's;
 * l keeps owning them and must outlive the run. */
void amc_launch_runner_opts(amc_launch *l, amc_runner_opts *o);
/* Free what is left in l (NULL fields are skipped); l is zeroed. */
void amc_launch_free(amc_launch *l);

/* What a front end wires into a run. Start from amc_launch_ctx_init; nothing
 * in it is owned. */
typedef struct amc_launch_ctx {
	const char *home;            /* $AMC_HOME: the store and the device lock */
	const amc_config *cfg;
	amc_store *store;            /* NULL: opened for this task, closed after */
	/* A device the caller opened and keeps open between tasks (the suite's
	 * workers, which set their phones up on it): used, never closed here. */
	amc_device *dev;
	/* Else where the caller keeps the device this module opens (the TUI's
	 * runner: an Appium session per task would be slow): used when *keep is
	 * set, opened into it when NULL and left open there; closed and set to
	 * NULL when, after a task that did not succeed, it fails its health
	 * check. Both NULL: the device is opened for this task, closed after. */
	amc_device **keep;
	amc_bus *bus;                /* NULL: none */
	atomic_int *cancel;          /* NULL: never cancelled */
	/* The runner options as the caller keeps them (the TUI's per-runner
	 * operator, words and enricher). NULL: the configuration's, with the
	 * launch's per-task ones (amc_launch_runner_opts). The launch's secrets
	 * are used either way; op, decision_sink and interrupt_why below, when
	 * set, override. */
	const amc_runner_opts *opts;
	amc_operator *op;            /* confirmations and questions; NULL: nobody */
	const amc_decision_sink *decision_sink;
	const char *interrupt_why;   /* run.h: the error of an interrupted task */
	/* out: why the device is unusable now ("" when it is not): it could not
	 * be opened, or failed its health check after the task (runner.h's
	 * online state). */
	char device_down[AMC_ERR_MSG_MAX];
} amc_launch_ctx;

void amc_launch_ctx_init(amc_launch_ctx *c, const char *home, const amc_config *cfg);

/* Run a prepared launch to its one terminal state: open the store unless
 * given, take the device lock (the task's ownership, released after), open
 * the device unless kept open by the caller, run the task (runtime/run.h),
 * and close what was opened here. The one rule of every front end: a task
 * accepted but unable to start (the store cannot be opened or refuses the
 * row, the device is busy, gone or cannot be opened) is recorded `failed`
 * with that reason as its error, and its planner is told it ended; a task
 * whose cancel flag is set before it starts is recorded `cancelled` (or
 * `interrupted` with interrupt_why for AMC_RUN_INTERRUPT). A flow's text and
 * files are stored with the task once its row exists (secret values masked);
 * a failure to store them is logged, never the task's.
 * 0: the task reached a terminal state (out->status). -1: it could not start;
 * out->status is "failed", out->error and e say why (e->code AMC_EENV for a
 * busy or missing device), and a front end reports e as it reports any
 * error (`amc run`: exit status 3). l keeps its parts; free it after. */
int amc_launch_run(amc_launch *l, amc_launch_ctx *c, amc_task_outcome *out, amc_err *e);

#endif

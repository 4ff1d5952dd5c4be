/* flow.h - Maestro-compatible YAML flows (parsed with libyaml).
 *
 * docs/flows.md lists the supported commands with their options and tests. A
 * flow file is an optional config document (appId, name, tags, env,
 * onFlowStart, onFlowComplete, ...) followed by `---` and a list of commands.
 * An unknown command is an error that names the file, the line and the command.
 *
 * Parsing reads one file. Resolving (amc_flow_resolve) then loads the files a
 * flow names (runFlow/retry sub-flows, runScript scripts) relative to the
 * folder of the file that names them, through a loader: the disk, or a flow
 * bundle's files. A resolved flow owns its sub-flows; it is what a flow
 * planner runs. Strings keep their ${...}: they are interpolated when the
 * command runs (flow_interp.h). */
#ifndef AMC_FLOW_H
#define AMC_FLOW_H

#include <stddef.h>
#include "util/err.h"

#include "flow/flow_types.h"

/* amc_flow_load, amc_flow_parse, amc_flow_parse_sub and amc_flow_op_name
 * are flow_commands.c's: they hand the command table down to the parser. */
int amc_flow_load(const char *path, amc_flow *out, amc_err *e);
/* A flow file's bytes (at most AMC_FLOW_MAX_BYTES), for a caller that parses
 * them itself with amc_flow_parse; *text is the caller's (free). Errors are
 * AMC_EUSAGE with a terminal-safe path: not found, or why it cannot be read. */
int amc_flow_read(const char *path, char **text, size_t *len, amc_err *e);
/* Parse from memory; `path` is used for messages and the default name. */
int amc_flow_parse(const char *buf, size_t len, const char *path, amc_flow *out, amc_err *e);
/* amc_flow_parse for a sub-flow: check_top 0 lets commands that need the
 * flow's app id lack one (the parent's is taken when resolving). */
int amc_flow_parse_sub(const char *buf, size_t len, const char *path, int check_top, amc_flow *out, amc_err *e);
/* Every launchApp/stopApp/killApp/clearState has an app id (own or appId). */
int amc_flow_check_app_ids(const amc_flow *f, amc_err *e);
const char *amc_flow_op_name(amc_flow_op op); /* Maestro's name: "tapOn" */
/* The names amc reads (aliases too), one a line, in the table's order; and
 * docs/flows.md's command table made from the rows (Markdown). Caller frees. */
char *amc_flow_commands_list(void);
char *amc_flow_commands_markdown(void);
/* One line describing a command for timelines: "tapOn \"Add contact\"". Caller frees. */
char *amc_flow_cmd_describe(const amc_flow_cmd *c);

/* Where resolving reads the files a flow names. */
typedef struct amc_flow_loader {
	/* Read `path` (the parent's folder joined with the name as written):
	 * 0 with *text (caller frees), 1 when there is no such file, -1 error. */
	int (*read)(void *ud, const char *path, char **text, size_t *len, amc_err *e);
	/* Optional: told of a missing file (the command's file and line, the
	 * path looked for) and resolving goes on; NULL: a missing file is an
	 * error "FILE:LINE: runFlow: sub-flow file 'x' not found (looked for P)". */
	void (*missing)(void *ud, const char *flow_path, int line, const char *cmd, const char *path);
	void *ud;
} amc_flow_loader;

#define AMC_FLOW_MAX_DEPTH 16   /* sub-flows inside sub-flows */
#define AMC_FLOW_MAX_FILES 256  /* files loaded while resolving one flow */

/* Load every sub-flow and script `f` names, recursively (cycles and depth over
 * AMC_FLOW_MAX_DEPTH refused, naming the chain). loader NULL: from disk. A
 * sub-flow without appId takes its parent's. */
int amc_flow_resolve(amc_flow *f, const amc_flow_loader *loader, amc_err *e);
/* amc_flow_load, then amc_flow_resolve from disk. */
int amc_flow_load_resolved(const char *path, amc_flow *out, amc_err *e);

/* Calls fn for every command of f: config hooks, the list, inline bodies and
 * resolved sub-flows (depth first, in file order), with the file it is in.
 * fn returns 0 to go on; anything else stops the walk and is returned. */
typedef int (*amc_flow_visit_fn)(void *ud, const amc_flow *file, const amc_flow_cmd *c);
int amc_flow_walk(const amc_flow *f, amc_flow_visit_fn fn, void *ud);

/* Refuse, before a run, what a device kind ("sim", "adb", "appium") cannot
 * do: setLocation, travel, addMedia, recording, airplane mode, orientation,
 * and AI commands when there is no model (have_model 0). AMC_EUSAGE
 * "FILE:LINE: COMMAND: not available on DEVICE devices: WHY" for the first. */
int amc_flow_check_device_model(const amc_flow *f, const char *device_kind, int have_model, amc_err *e);
/* The same with no model configured (what `amc flow check` knows). */
int amc_flow_check_device(const amc_flow *f, const char *device_kind, amc_err *e);
/* The same for `amc flow check` (its amc_flow_check_device_fn): every
 * command of f's own file that `device_kind` cannot do, each given to fn
 * with its line and the message without FILE:LINE ("setLocation: not
 * available on sim devices: ..."). Returns how many. */
typedef void (*amc_flow_problem_fn)(void *ud, int line, const char *msg);
/* In the message of an AI command's problem when no model is configured:
 * an external input (Maestro's is MAESTRO_CLI_AI_KEY), not a device limit. */
#define AMC_FLOW_NEEDS_MODEL "needs a model"
int amc_flow_device_problems(const amc_flow *f, const char *device_kind, amc_flow_problem_fn fn, void *ud);
/* The same when a model is configured: AI commands pass. */
int amc_flow_device_problems_with_model(const amc_flow *f, const char *device_kind, amc_flow_problem_fn fn, void *ud);
/* 1 when some command (sub-flows and hooks included) is an AI command:
 * assertWithAI, assertNoDefectsWithAI, extractTextWithAI. */
int amc_flow_needs_ai(const amc_flow *f);
/* 1 when some command needs JavaScript (evalScript, runScript, ${expr} that is
 * not a plain NAME, a `true:` condition with an expression); then
 * "FILE:LINE: COMMAND" of the first goes into where (may be NULL). */
int amc_flow_needs_js(const amc_flow *f, char *where, size_t n);

#endif

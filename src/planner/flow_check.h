/* flow_check.h - `amc flow check`: lint Maestro flow files without a device.
 *
 * Each file: its YAML, every command and option (amc_flow_parse, the same
 * grammar the runner uses, so the two cannot diverge), the sub-flow and
 * script files it names (found, checked in turn, no cycles), every script
 * and ${expression} parsed by the JavaScript engine (amc-js), and each
 * ${NAME} defined by an env block, -e NAME=VALUE or a MAESTRO_* variable.
 * A directory is every .yaml/.yml flow below it (as Maestro's `test` takes a
 * folder), in name order. Problems carry a kind so a caller can tell "cannot
 * run" from "needs a file or a variable this copy lacks". */
#ifndef AMC_FLOW_CHECK_H
#define AMC_FLOW_CHECK_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "flow/flow.h"
#include "flow/script.h"
#include "util/err.h"

typedef enum amc_check_kind {
	AMC_CHECK_INVALID,       /* not a flow amc (or Maestro) accepts: YAML, command, option */
	AMC_CHECK_MISSING_FILE,  /* a sub-flow or script file that does not exist */
	AMC_CHECK_NEEDS_ENV,     /* a ${NAME} no env block defines: a warning (it runs as undefined) */
	AMC_CHECK_SCRIPT,        /* JavaScript that does not parse (or ES2015+) */
	AMC_CHECK_CYCLE,         /* sub-flows that include each other */
	AMC_CHECK_DEVICE,        /* a command the device kind cannot perform */
	AMC_CHECK_NEEDS_MODEL,   /* an AI command with no model configured: an external input, like
				  * Maestro's MAESTRO_CLI_AI_KEY (counted with lacking) */
	AMC_CHECK_IGNORED        /* a part Maestro never reads (documents after the command
				  * list): a warning, the flow runs without it as in Maestro */
} amc_check_kind;
/* 1 for the kinds that are warnings (needs-env, ignored): they leave a flow clean. */
int amc_check_kind_is_warning(amc_check_kind k);

typedef struct amc_check_problem {
	char *file;              /* as reached (terminal-safe); owned */
	int line, col;           /* 1-based */
	amc_check_kind kind;
	char *msg;               /* terminal-safe; owned */
} amc_check_problem;

typedef struct amc_check_report {
	amc_check_problem *v;
	size_t n, cap;
	size_t files;            /* top-level flow files checked */
	size_t clean;            /* of which would run: no problem but needs-env warnings (sub-flows included) */
	size_t lacking;          /* of which only lack external inputs: sub-flow or script files
				  * (missing-file), a model for AI commands (needs-model) */
	size_t warned;           /* of the clean ones, those with needs-env warnings */
	cJSON *flows;            /* with amc_check_opts.interpret: [{file, commands: [{line, command,
				  * depth}]}], each file that parsed as amc reads it; owned */
} amc_check_report;

/* What a device kind cannot perform: each command of f `kind` cannot do
 * goes to fn (its line, the message); returns how many. */
typedef int (*amc_flow_check_device_fn)(const amc_flow *f, const char *kind, amc_flow_problem_fn fn,
					 void *ud);

/* The device-kind check `amc flow check` uses: the one a run makes before
 * it starts (amc_flow_device_problems, flow_resolve.c); NULL: commands are
 * only checked against the grammar. One call site: cmd_flow.c. */
extern amc_flow_check_device_fn amc_flow_check_device_hook;

typedef struct amc_check_opts {
	const char *device_kind;        /* "adb" when NULL */
	const char *const *defined;     /* names given with -e, NULL-terminated or NULL */
	amc_script *js;                 /* the engine scripts are parsed with */
	amc_flow_check_device_fn device_check; /* NULL: the device kind is not checked */
	int interpret;                  /* 1: keep each file's commands as amc reads them (r->flows),
					 * so a person can spot a misreading (`flow check --json`) */
} amc_check_opts;

/* Check a file or every flow below a directory, adding to r. -1 only when
 * `path` cannot be read at all (the problem is in r too) or the engine fails
 * (AMC_EENV); problems in flows are in r with 0 returned. */
int amc_flow_check_path(const char *path, const amc_check_opts *o, amc_check_report *r,
			amc_err *e);
/* Check a flow given as text (an MCP client's), named `label` in the
 * problems; label has no '/', so the files the flow names are found from
 * the current folder (as a run of that text finds them). Returns as
 * amc_flow_check_path. */
int amc_flow_check_text(const char *text, size_t len, const char *label, const amc_check_opts *o,
			amc_check_report *r, amc_err *e);
void amc_check_report_free(amc_check_report *r);
/* `amc flow check --json`'s document: {files, clean, lacking, warned,
 * problems: [{file, line, col, kind, severity, message}]} (caller owns). */
cJSON *amc_check_report_json(const amc_check_report *r);
/* The first `max` problems as that array (caller owns). */
cJSON *amc_check_problems_json(const amc_check_report *r, size_t max);
/* "invalid", "missing-file", "needs-env", "script", "cycle", "device", "needs-model". */
const char *amc_check_kind_name(amc_check_kind k);

#endif

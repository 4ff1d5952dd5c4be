/* flow_js.h - the flow interpreter's bridge to the JavaScript engine
 * (script.h). The interpreter (flow_interp.h) does all of ${...},
 * evalScript, runScript and assertTrue; it calls these as its hooks with
 * `ud` = the amc_script of the flow. */
#ifndef AMC_FLOW_JS_H
#define AMC_FLOW_JS_H

#include <stddef.h>
#include "flow/flow_interp.h"
#include "flow/script.h"
#include "util/err.h"

/* An amc_flow_eval_fn: evaluate `expr` (a script or the inside of ${...})
 * with `vars` as globals. 0 and *out = String(value) ("" for undefined;
 * malloc'd, caller frees) or -1 with `e` (AMC_EFAIL: the script's error;
 * AMC_EENV: no engine). */
int amc_flow_js_eval(void *ud, const char *expr, const struct amc_flow_var *vars, size_t n,
		     char **out, amc_err *e);
/* maestro.copiedText for later scripts. */
void amc_flow_js_set_copied(void *ud, const char *text);
/* The flow's answer to an information task: `output.answer` as the flow's
 * scripts left it (a string or a number, cut to AMC_FLOW_ANSWER_MAX bytes),
 * malloc'd; NULL when unset or of another type. */
#define AMC_FLOW_ANSWER_MAX 2000
char *amc_flow_js_answer(void *ud);
/* Close the engine (amc_script_close); NULL is fine. */
void amc_flow_js_free(void *ud);

/* Open the engine for a flow that needs JavaScript (amc_flow_needs_js), with
 * `platform` as maestro.platform ("android" when NULL) and fill `o`'s hooks.
 * 0, or -1 with AMC_EENV and a message saying the helper amc-js is missing
 * and how to give it (AMC_JS). */
struct amc_flow_run_opts;
int amc_flow_js_attach(struct amc_flow_run_opts *o, const char *platform, amc_err *e);

#endif

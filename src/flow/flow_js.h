/* flow_js.h - the flow interpreter's bridge to the JavaScript engine
 * (script.h): evalScript, runScript (with its env:), assertTrue and
 * ${expression} in strings. The interpreter (flow_interp.h) calls these
 * through its hook with `ud` = the amc_script of the flow. */
#ifndef AMC_FLOW_JS_H
#define AMC_FLOW_JS_H

#include <stddef.h>
#include "flow/script.h"
#include "util/err.h"

#ifndef AMC_FLOW_VAR_DEFINED
#define AMC_FLOW_VAR_DEFINED
/* A flow variable (env:, -e NAME=VALUE, MAESTRO_*), made a script global. */
struct amc_flow_var {
	const char *name;
	const char *value;
};
#endif

/* Evaluate `expr` (an evalScript source or the inside of ${...}) with `vars`
 * as globals. 0 and *out = String(value) ("" for undefined; malloc'd, caller
 * frees) or -1 with `e` (AMC_EFAIL: the script's error; AMC_EENV: no engine). */
int amc_flow_js_eval(void *ud, const char *expr, const struct amc_flow_var *vars, size_t n,
		     char **out, amc_err *e);
/* maestro.copiedText for later scripts. */
void amc_flow_js_set_copied(void *ud, const char *text);
/* runScript: run `source` (read from `filename`, named in errors) with the
 * flow's variables and the command's env: as globals (later entries win). */
int amc_flow_js_run_script(void *ud, const char *source, const char *filename,
			   const struct amc_flow_var *env, size_t n, amc_err *e);
/* assertTrue: 0 with *truth set from the condition's truthiness, or -1. */
int amc_flow_js_truth(void *ud, const char *expr, const struct amc_flow_var *vars, size_t n,
		      int *truth, amc_err *e);
/* Replace each ${expr} in `in` with its value; *out is the caller's. A
 * string without "${" is copied as is. -1 with the failing expression named. */
int amc_flow_js_interpolate(void *ud, const char *in, const struct amc_flow_var *vars,
			    size_t n, char **out, amc_err *e);

#endif

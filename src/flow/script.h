/* script.h - the JavaScript engine client: a flow's scripts run in amc-js, a
 * sandboxed child process (src/flow/amc_js.c, JavaScriptCore with the JIT
 * off), so a script cannot touch files, the network or other processes and
 * cannot hang or exhaust amc. One engine process per amc_script (a flow, or a
 * whole `flow check`), started at the first evaluation and again after one
 * that had to be killed.
 *
 * Protocol: one JSON object per line each way (bounded).
 *   amc -> amc-js  {"op":"eval"|"check", "source":S, "filename":F,
 *                   "vars":{NAME:VALUE,...}, "output":"<JSON text of output>",
 *                   "copiedText":S|null, "platform":"android"|"ios",
 *                   "maestroNames":B}
 *   amc-js -> amc  {"ok":true, "result":S, "type":"value"|"undefined", "output":{...}, "log":S}
 *                  {"ok":false, "error":S, "output":{...}, "log":S}
 *              or, while a script runs, {"op":"http","request":{...}} (script_http.h),
 *                  which amc answers with one line before the script goes on.
 * The `output` object is kept here between evaluations, so it is shared by
 * every script of a flow, as in Maestro; each evaluation gets a fresh global
 * object otherwise (two runScript files may both declare `const x`). */
#ifndef AMC_SCRIPT_H
#define AMC_SCRIPT_H

#include <stddef.h>
#include "util/err.h"

#define AMC_SCRIPT_SOURCE_MAX (256u * 1024u)
#define AMC_SCRIPT_RESULT_MAX (64u * 1024u)
#define AMC_SCRIPT_OUTPUT_MAX (256u * 1024u)
#define AMC_SCRIPT_RESPONSE_MAX (1024u * 1024u)
#define AMC_SCRIPT_TIMEOUT_MS 5000
#define AMC_SCRIPT_RSS_MAX (512u * 1024u * 1024u) /* the engine's resident memory */
#define AMC_SCRIPT_LOG_MAX (64u * 1024u)          /* console.log of one evaluation */

typedef struct amc_script amc_script;

/* A name=value pair made a global of the script (env vars, runScript env:). */
typedef struct amc_script_var {
	const char *name;
	const char *value;
} amc_script_var;

/* Where amc-js is: $AMC_JS, else beside the running executable (a build
 * folder), else the installed one. 0 and its path in buf, or -1 with the
 * last path tried in buf. */
int amc_script_find_helper(char *buf, size_t n);
/* Open an engine for one flow. `helper` is the amc-js path (NULL:
 * amc_script_find_helper); `platform` is maestro.platform ("android" when
 * NULL). Fails with AMC_EENV when the helper is not there. Nothing starts
 * until the first evaluation. Close with amc_script_close (ends the process). */
int amc_script_open(const char *helper, const char *platform, amc_script **out, amc_err *e);
void amc_script_close(amc_script *s);
/* maestro.copiedText for later scripts (copyTextFrom); NULL clears it. */
int amc_script_set_copied_text(amc_script *s, const char *text, amc_err *e);
/* The wall-clock limit of one evaluation (default AMC_SCRIPT_TIMEOUT_MS);
 * time spent in http requests made for the script is not counted. */
void amc_script_set_timeout(amc_script *s, long ms);
/* Maestro's names: an undefined name evaluates to undefined instead of
 * throwing a ReferenceError (default off: amc's strict reading). */
void amc_script_set_maestro_names(amc_script *s, int on);
/* The hosts http.* may reach (script_http.h): NULL any (the default, a flow
 * run locally), "" none (a fleet payload), else "host1,host2". Copied. */
void amc_script_set_http_hosts(amc_script *s, const char *hosts);
/* console.log lines of the last evaluation, terminal-safe (owned by s). */
const char *amc_script_log(const amc_script *s);
/* How many engine processes this client started (1 for a flow whose
 * scripts all ran; one more after each evaluation that was killed). */
int amc_script_spawns(const amc_script *s);

/* Evaluate `source` with `vars` as globals. 0 and *result (caller frees; the
 * value as String(value), "" for undefined; may be NULL to ignore) or -1:
 * AMC_EFAIL for a script error (message terminal-safe, names `filename` and
 * the line), the timeout, or a limit (memory, CPU, sizes); AMC_EENV when the
 * engine cannot run. */
int amc_script_eval(amc_script *s, const char *source, const char *filename,
		    const amc_script_var *vars, size_t n, char **result, amc_err *e);
/* Syntax check only (nothing runs): 0, or -1 with AMC_EFAIL and the message. */
int amc_script_check(amc_script *s, const char *source, const char *filename, amc_err *e);
/* The output object as JSON text (owned by s, valid until the next call). */
const char *amc_script_output(const amc_script *s);

/* Parse one response (untrusted bytes from the child): exposed for the fuzz
 * target. 0 when well formed; *ok, *text (result or error, caller frees,
 * terminal-safe) and *output (JSON text, caller frees; NULL in an error answer
 * without one: the output object is then unchanged) set. -1 otherwise. */
int amc_script_parse_response(const char *buf, size_t len, int *ok, char **text,
			      char **output, amc_err *e);

#endif

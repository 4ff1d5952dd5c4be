/* script.h - the JavaScript engine client: each evaluation runs in amc-js, a
 * sandboxed child process (src/flow/amc_js.c), so a script cannot touch files,
 * the network or other processes and cannot hang or exhaust amc.
 *
 * Protocol (bounded JSON over pipes, one request per child):
 *   request  {"op":"eval"|"check", "source":S, "filename":F,
 *             "vars":{NAME:VALUE,...}, "output":"<JSON text of output>",
 *             "copiedText":S|null, "platform":"android"|"ios"}
 *   response {"ok":true, "result":S, "type":"value"|"undefined", "output":{...}}
 *            {"ok":false, "error":S, "output":{...}}
 * The `output` object is kept here between evaluations, so it is shared by
 * every script of a flow, as in Maestro. Duktape is ES5: a syntax error in a
 * source using ES2015+ syntax is reported as that engine limit. */
#ifndef AMC_SCRIPT_H
#define AMC_SCRIPT_H

#include <stddef.h>
#include "util/err.h"

#define AMC_SCRIPT_SOURCE_MAX (256u * 1024u)
#define AMC_SCRIPT_RESULT_MAX (64u * 1024u)
#define AMC_SCRIPT_OUTPUT_MAX (256u * 1024u)
#define AMC_SCRIPT_RESPONSE_MAX (1024u * 1024u)
#define AMC_SCRIPT_TIMEOUT_MS 5000

typedef struct amc_script amc_script;

/* A name=value pair made a global of the script (env vars, runScript env:). */
typedef struct amc_script_var {
	const char *name;
	const char *value;
} amc_script_var;

/* Open an engine for one flow. `helper` is the amc-js path (NULL: $AMC_JS,
 * else the installed one); `platform` is maestro.platform ("android" when
 * NULL). Fails with AMC_EENV when the helper is not there. Close with
 * amc_script_close. */
int amc_script_open(const char *helper, const char *platform, amc_script **out, amc_err *e);
void amc_script_close(amc_script *s);
/* maestro.copiedText for later scripts (copyTextFrom); NULL clears it. */
int amc_script_set_copied_text(amc_script *s, const char *text, amc_err *e);
/* The wall-clock limit of one evaluation (default AMC_SCRIPT_TIMEOUT_MS). */
void amc_script_set_timeout(amc_script *s, long ms);

/* Evaluate `source` with `vars` as globals. 0 and *result (caller frees; the
 * value as String(value), "" for undefined; may be NULL to ignore) or -1:
 * AMC_EFAIL for a script error (message terminal-safe, names `filename` and
 * the line), the timeout, or a limit; AMC_EENV when the engine cannot run. */
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

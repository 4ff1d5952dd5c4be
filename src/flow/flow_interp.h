/* flow_interp.h - ${...} in flow strings, the variables a flow sees, and the
 * hook through which JavaScript is evaluated.
 *
 * Variables form a stack: the MAESTRO_* variables of the environment, then
 * -e NAME=VALUE, then a flow's env: block (only names not already set, so the
 * command line wins), then what runFlow/runScript env: blocks push for their
 * commands (popped after them). A lookup takes the topmost.
 *
 * `${NAME}` (a plain name, spaces allowed around it) is replaced by the
 * variable's value; an undefined NAME is "undefined", as Maestro's engine
 * reads an undeclared name (`amc flow check` warns about it). `${maestro.copiedText}` and `${maestro.platform}` are
 * known without JavaScript. Anything else between ${ and the matching } is a
 * JavaScript expression handed to `eval`, with the visible variables; with no
 * eval (no engine in this build) it is the error "JavaScript is not available
 * in this build" naming the file and line. evalScript, runScript and
 * assertTrue expressions go the same way. */
#ifndef AMC_FLOW_INTERP_H
#define AMC_FLOW_INTERP_H

#include <stddef.h>
#include "util/err.h"

#define AMC_FLOW_INTERP_MAX_OUT (1024u * 1024u) /* bytes one interpolated string may grow to */
#define AMC_FLOW_INTERP_MAX_VARS 4096

struct amc_flow_var {
	const char *name;
	const char *value;
};

/* Evaluate JavaScript `expr` with `vars` defined as globals (strings); the
 * result as text in *out (malloc'd, caller frees). 0, or -1 with e set. */
typedef int (*amc_flow_eval_fn)(void *ud, const char *expr, const struct amc_flow_var *vars, size_t n,
				char **out /* malloc'd, caller frees */, amc_err *e);

typedef struct amc_flow_interp_var {
	char *name;
	char *value;
} amc_flow_interp_var;

typedef struct amc_flow_interp {
	amc_flow_interp_var *vars;  /* the stack, bottom first */
	size_t nvars, cap;
	amc_flow_eval_fn eval;      /* NULL: no JavaScript */
	void *eval_ud;
	void (*set_copied)(void *ud, const char *text); /* tells the engine maestro.copiedText; may be NULL */
	char *copied;               /* maestro.copiedText ("" at first) */
	const char *platform;       /* maestro.platform: "android" (static) */
} amc_flow_interp;

void amc_flow_interp_init(amc_flow_interp *in);
void amc_flow_interp_free(amc_flow_interp *in);
/* Push a copy of NAME=VALUE; it hides a lower one of the same name. */
void amc_flow_interp_push(amc_flow_interp *in, const char *name, const char *value);
/* How many are pushed: pop back to it after a block. */
size_t amc_flow_interp_mark(const amc_flow_interp *in);
void amc_flow_interp_pop(amc_flow_interp *in, size_t mark);
/* The topmost value of NAME, or NULL. */
const char *amc_flow_interp_get(const amc_flow_interp *in, const char *name);
/* Push the MAESTRO_* variables of envp (environ), as Maestro reads them. */
void amc_flow_interp_environ(amc_flow_interp *in, char *const *envp);
/* The visible variables, topmost of each name, into *out (caller frees the
 * array only: the strings stay the interp's); *n gets the count. */
void amc_flow_interp_visible(const amc_flow_interp *in, struct amc_flow_var **out, size_t *n);

/* s with every ${...} replaced, into *out (caller frees). `where` ("FILE:LINE")
 * starts every message. 0, or -1 with e set (AMC_EUSAGE for an undefined
 * name or no JavaScript, AMC_EFAIL for a script error). */
int amc_flow_interp_str(amc_flow_interp *in, const char *s, const char *where, char **out, amc_err *e);
/* Evaluate a whole script (runScript) with extra NAME=VALUE pairs visible. */
int amc_flow_interp_script(amc_flow_interp *in, const char *script, const char *where, char **out, amc_err *e);
/* Maestro's truthiness of a condition's text after interpolation: false for
 * "", "false", "0", "null", "undefined", "NaN" (any case, spaces trimmed). */
int amc_flow_interp_truthy(const char *s);
/* copyTextFrom / setClipboard: remember it and tell the engine. */
void amc_flow_interp_set_copied(amc_flow_interp *in, const char *text);

/* 1 when s holds a ${...} that needs JavaScript (not a plain NAME nor
 * maestro.copiedText / maestro.platform), or an unterminated ${. */
int amc_flow_interp_needs_js(const char *s);
/* The plain NAMEs s refers to, one call of fn each (in order); fn returns 0 to go on. */
int amc_flow_interp_names(const char *s, int (*fn)(void *ud, const char *name), void *ud);

#endif

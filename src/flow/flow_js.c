/* flow_js.c - the flow interpreter's bridge to the JavaScript engine. */
#include "flow/flow_js.h"

#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

#define VARS_MAX 1024

/* struct amc_flow_var and amc_script_var have the same layout by design;
 * copy anyway so neither depends on the other. */
static amc_script_var *to_script_vars(const struct amc_flow_var *v, size_t n)
{
	amc_script_var *sv = amc_xcalloc(n ? n : 1, sizeof *sv);
	for (size_t i = 0; i < n; i++) {
		sv[i].name = v[i].name;
		sv[i].value = v[i].value;
	}
	return sv;
}

int amc_flow_js_eval(void *ud, const char *expr, const struct amc_flow_var *vars, size_t n,
		     char **out, amc_err *e)
{
	*out = NULL;
	if (!ud)
		return amc_err_set(e, AMC_EENV, "this flow runs without a JavaScript engine");
	if (n > VARS_MAX)
		return amc_err_set(e, AMC_EUSAGE, "more than %d flow variables", VARS_MAX);
	amc_script_var *sv = to_script_vars(vars, n);
	int rc = amc_script_eval(ud, expr, "evalScript", sv, n, out, e);
	free(sv);
	return rc;
}

void amc_flow_js_set_copied(void *ud, const char *text)
{
	if (ud)
		(void)amc_script_set_copied_text(ud, text, NULL);
}

int amc_flow_js_run_script(void *ud, const char *source, const char *filename,
			   const struct amc_flow_var *env, size_t n, amc_err *e)
{
	if (!ud)
		return amc_err_set(e, AMC_EENV, "this flow runs without a JavaScript engine");
	if (n > VARS_MAX)
		return amc_err_set(e, AMC_EUSAGE, "more than %d flow variables", VARS_MAX);
	amc_script_var *sv = to_script_vars(env, n);
	int rc = amc_script_eval(ud, source, filename ? filename : "runScript", sv, n, NULL, e);
	free(sv);
	return rc;
}

int amc_flow_js_truth(void *ud, const char *expr, const struct amc_flow_var *vars, size_t n,
		      int *truth, amc_err *e)
{
	*truth = 0;
	size_t len = strlen(expr);
	char *wrapped = amc_xmalloc(len + 16);
	/* Boolean() of the value, so the answer is exactly "true" or "false" */
	memcpy(wrapped, "!!(", 3);
	memcpy(wrapped + 3, expr, len);
	memcpy(wrapped + 3 + len, "\n)", 3);
	char *v = NULL;
	int rc = amc_flow_js_eval(ud, wrapped, vars, n, &v, e);
	free(wrapped);
	if (rc == 0)
		*truth = strcmp(v, "true") == 0;
	free(v);
	return rc;
}

int amc_flow_js_interpolate(void *ud, const char *in, const struct amc_flow_var *vars,
			    size_t n, char **out, amc_err *e)
{
	*out = NULL;
	amc_sb sb;
	amc_sb_init(&sb);
	const char *p = in;
	for (;;) {
		const char *o = strstr(p, "${");
		if (!o) {
			amc_sb_puts(&sb, p);
			break;
		}
		amc_sb_append(&sb, p, (size_t)(o - p));
		/* the closing brace, skipping braces nested in the expression */
		const char *q = o + 2;
		int depth = 1;
		for (; *q && depth > 0; q++) {
			if (*q == '{')
				depth++;
			else if (*q == '}')
				depth--;
		}
		if (depth != 0) {
			amc_sb_free(&sb);
			char *safe = amc_sanitize_dup(o);
			amc_err_set(e, AMC_EUSAGE, "\"${\" without its closing \"}\" in %s", safe);
			free(safe);
			return -1;
		}
		char *expr = amc_xstrndup(o + 2, (size_t)(q - 1 - (o + 2)));
		char *v = NULL;
		int rc = amc_flow_js_eval(ud, expr, vars, n, &v, e);
		if (rc != 0) {
			char *safe = amc_sanitize_dup(expr);
			amc_err_prefix(e, "${%s}", safe);
			free(safe);
			free(expr);
			amc_sb_free(&sb);
			return -1;
		}
		free(expr);
		amc_sb_puts(&sb, v);
		free(v);
		p = q;
	}
	*out = amc_sb_detach(&sb);
	return 0;
}

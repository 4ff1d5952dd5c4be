/* flow_interp.c - ${...} interpolation and the variable stack (flow_interp.h). */
#include "flow/flow_interp.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

void amc_flow_interp_init(amc_flow_interp *in)
{
	memset(in, 0, sizeof *in);
	in->copied = amc_xstrdup("");
	in->platform = "android"; /* as Maestro: "android", "ios", "web" */
}

void amc_flow_interp_free(amc_flow_interp *in)
{
	amc_flow_interp_pop(in, 0);
	free(in->vars);
	free(in->copied);
	memset(in, 0, sizeof *in);
}

void amc_flow_interp_push(amc_flow_interp *in, const char *name, const char *value)
{
	if (in->nvars >= AMC_FLOW_INTERP_MAX_VARS)
		return; /* bounded: a runaway repeat cannot grow it without end */
	if (in->nvars == in->cap) {
		in->cap = in->cap ? in->cap * 2 : 16;
		in->vars = amc_xrealloc(in->vars, in->cap * sizeof *in->vars);
	}
	in->vars[in->nvars].name = amc_xstrdup(name);
	in->vars[in->nvars].value = amc_xstrdup(value ? value : "");
	in->nvars++;
}

size_t amc_flow_interp_mark(const amc_flow_interp *in)
{
	return in->nvars;
}

void amc_flow_interp_pop(amc_flow_interp *in, size_t mark)
{
	while (in->nvars > mark) {
		in->nvars--;
		free(in->vars[in->nvars].name);
		free(in->vars[in->nvars].value);
	}
}

const char *amc_flow_interp_get(const amc_flow_interp *in, const char *name)
{
	for (size_t i = in->nvars; i-- > 0;)
		if (!strcmp(in->vars[i].name, name))
			return in->vars[i].value;
	return NULL;
}

void amc_flow_interp_environ(amc_flow_interp *in, char *const *envp)
{
	for (size_t i = 0; envp && envp[i]; i++) {
		const char *eq = strchr(envp[i], '=');
		if (strncmp(envp[i], "MAESTRO_", 8) || !eq || eq - envp[i] > 128 || strlen(eq + 1) > 65536)
			continue;
		char *name = amc_xstrndup(envp[i], (size_t)(eq - envp[i]));
		amc_flow_interp_push(in, name, eq + 1);
		free(name);
	}
}

void amc_flow_interp_visible(const amc_flow_interp *in, struct amc_flow_var **out, size_t *n)
{
	struct amc_flow_var *v = amc_xcalloc(in->nvars ? in->nvars : 1, sizeof *v);
	size_t k = 0;
	for (size_t i = in->nvars; i-- > 0;) {
		int seen = 0;
		for (size_t j = 0; j < k && !seen; j++)
			seen = !strcmp(v[j].name, in->vars[i].name);
		if (!seen) {
			v[k].name = in->vars[i].name;
			v[k].value = in->vars[i].value;
			k++;
		}
	}
	*out = v;
	*n = k;
}

/* ---- scanning ${...} ---- */

/* The end of the expression that starts after "${" at s: the index of its
 * closing brace (nested braces and quoted strings skipped), or -1. */
static long closing(const char *s)
{
	int depth = 0;
	char quote = 0;
	for (long i = 0; s[i]; i++) {
		char c = s[i];
		if (quote) {
			if (c == '\\' && s[i + 1])
				i++;
			else if (c == quote)
				quote = 0;
		} else if (c == '"' || c == '\'' || c == '`') {
			quote = c;
		} else if (c == '{') {
			depth++;
		} else if (c == '}') {
			if (depth == 0)
				return i;
			depth--;
		}
	}
	return -1;
}

/* The expression trimmed; *plain = 1 when it is a NAME, 2 for a built-in. */
static char *trimmed(const char *s, size_t n, int *plain)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	char *x = amc_xstrndup(s, n);
	*plain = 0;
	if (!strcmp(x, "maestro.copiedText") || !strcmp(x, "maestro.platform")) {
		*plain = 2;
	} else if (n && (isalpha((unsigned char)x[0]) || x[0] == '_' || x[0] == '$')) {
		*plain = 1;
		for (size_t i = 1; i < n && *plain; i++)
			if (!isalnum((unsigned char)x[i]) && x[i] != '_' && x[i] != '$')
				*plain = 0;
	}
	return x;
}

int amc_flow_interp_needs_js(const char *s)
{
	for (const char *p = s ? strstr(s, "${") : NULL; p; p = strstr(p, "${")) {
		long end = closing(p + 2);
		if (end < 0)
			return 1;
		int plain;
		free(trimmed(p + 2, (size_t)end, &plain));
		if (!plain)
			return 1;
		p += 2 + end + 1;
	}
	return 0;
}

int amc_flow_interp_names(const char *s, int (*fn)(void *ud, const char *name), void *ud)
{
	for (const char *p = s ? strstr(s, "${") : NULL; p; p = strstr(p, "${")) {
		long end = closing(p + 2);
		if (end < 0)
			return 0;
		int plain;
		char *x = trimmed(p + 2, (size_t)end, &plain);
		int rc = plain == 1 ? fn(ud, x) : 0;
		free(x);
		if (rc)
			return rc;
		p += 2 + end + 1;
	}
	return 0;
}

/* ---- evaluating ---- */

static int no_js(const char *where, amc_err *e)
{
	return amc_err_set(e, AMC_EUSAGE, "%s: JavaScript is not available in this build "
			   "(this needs a script or a ${...} expression)", where);
}

static int eval(amc_flow_interp *in, const char *expr, const char *where, char **out, amc_err *e)
{
	if (!in->eval)
		return no_js(where, e);
	struct amc_flow_var *vars;
	size_t n;
	amc_flow_interp_visible(in, &vars, &n);
	amc_err je;
	amc_err_clear(&je);
	char *r = NULL;
	int rc = in->eval(in->eval_ud, expr, vars, n, &r, &je);
	free(vars);
	if (rc != 0) {
		free(r);
		char *m = amc_sanitize_dup(je.msg[0] ? je.msg : "the script failed");
		amc_err_set(e, je.code != AMC_OK ? je.code : AMC_EFAIL, "%s: %s", where, m);
		free(m);
		return -1;
	}
	*out = r ? r : amc_xstrdup("");
	return 0;
}

int amc_flow_interp_str(amc_flow_interp *in, const char *s, const char *where, char **out, amc_err *e)
{
	*out = NULL;
	amc_sb sb;
	amc_sb_init(&sb);
	const char *p = s ? s : "";
	for (;;) {
		const char *d = strstr(p, "${");
		if (!d) {
			amc_sb_puts(&sb, p);
			break;
		}
		amc_sb_append(&sb, p, (size_t)(d - p));
		long end = closing(d + 2);
		if (end < 0) {
			amc_sb_free(&sb);
			return amc_err_set(e, AMC_EUSAGE, "%s: '${' without its closing '}'", where);
		}
		int plain;
		char *x = trimmed(d + 2, (size_t)end, &plain), *val = NULL;
		int rc = 0;
		if (plain == 2) {
			val = amc_xstrdup(!strcmp(x, "maestro.platform") ? in->platform : in->copied);
		} else if (plain == 1) {
			const char *v = amc_flow_interp_get(in, x);
			if (v) {
				val = amc_xstrdup(v);
			} else if (in->eval) {
				/* a global of the engine (output, maestro, ...); an
				 * undeclared name is undefined there, as in Maestro */
				rc = eval(in, x, where, &val, e);
			} else {
				/* Maestro's GraalJsEngine reads an undeclared name as
				 * undefined, and `${NAME}` then becomes "undefined" */
				val = amc_xstrdup("undefined");
			}
		} else {
			rc = eval(in, x, where, &val, e);
		}
		free(x);
		if (rc != 0) {
			amc_sb_free(&sb);
			return -1;
		}
		amc_sb_puts(&sb, val);
		free(val);
		if (sb.len > AMC_FLOW_INTERP_MAX_OUT) {
			amc_sb_free(&sb);
			return amc_err_set(e, AMC_EUSAGE, "%s: the text grows over %u bytes once its ${...} are replaced",
					   where, AMC_FLOW_INTERP_MAX_OUT);
		}
		p = d + 2 + end + 1;
	}
	*out = amc_sb_detach(&sb);
	return 0;
}

int amc_flow_interp_script(amc_flow_interp *in, const char *script, const char *where, char **out, amc_err *e)
{
	*out = NULL;
	return eval(in, script ? script : "", where, out, e);
}

int amc_flow_interp_truthy(const char *s)
{
	static const char *const FALSY[] = { "", "false", "0", "null", "undefined", "NaN" };
	if (!s)
		return 0;
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	for (size_t i = 0; i < sizeof FALSY / sizeof FALSY[0]; i++)
		if (strlen(FALSY[i]) == n && !strncasecmp(s, FALSY[i], n))
			return 0;
	return 1;
}

void amc_flow_interp_set_copied(amc_flow_interp *in, const char *text)
{
	free(in->copied);
	in->copied = amc_xstrdup(text ? text : "");
	if (in->set_copied)
		in->set_copied(in->eval_ud, in->copied);
}

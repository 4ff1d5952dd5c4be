/* flow_js.c - the flow interpreter's bridge to the JavaScript engine. */
#include "planner/flow_js.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "planner/flow_planner.h"
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

void amc_flow_js_free(void *ud)
{
	amc_script_close(ud);
}

int amc_flow_js_attach(struct amc_flow_run_opts *o, const char *platform, amc_err *e)
{
	amc_script *s = NULL;
	if (amc_script_open(NULL, platform ? platform : "android", &s, e) != 0) {
		amc_err_prefix(e, "JavaScript (evalScript, runScript, assertTrue, ${expressions}) needs the helper amc-js");
		return -1;
	}
	/* an undefined ${NAME} is undefined, as in Maestro (GraalJsEngine's
	 * global Proxy says every name exists); `flow check` warns about them */
	amc_script_set_maestro_names(s, 1);
	o->eval = amc_flow_js_eval;
	o->eval_ud = s;
	o->set_copied = amc_flow_js_set_copied;
	o->eval_free = amc_flow_js_free;
	return 0;
}

char *amc_flow_js_answer(void *ud)
{
	const char *text = ud ? amc_script_output(ud) : NULL;
	cJSON *o = text ? cJSON_Parse(text) : NULL;
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "answer");
	char *r = NULL;
	if (cJSON_IsString(a) && a->valuestring) {
		size_t n = strlen(a->valuestring);
		if (n > AMC_FLOW_ANSWER_MAX)
			n = AMC_FLOW_ANSWER_MAX;
		r = amc_xmalloc(n + 1);
		memcpy(r, a->valuestring, n);
		r[n] = '\0';
	} else if (cJSON_IsNumber(a)) {
		char buf[64];
		snprintf(buf, sizeof buf, "%.17g", a->valuedouble);
		r = amc_xstrdup(buf);
	}
	cJSON_Delete(o);
	return r;
}

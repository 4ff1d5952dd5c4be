/* flow_cmds_ctl.c - the parse functions of flow control (runFlow, repeat,
 * retry, extendedWaitUntil), app state (stopApp, killApp, clearState,
 * openLink), random input, JavaScript (evalScript, runScript, assertTrue),
 * AI commands and the commands only some devices can do. The table is in
 * flow_cmds.c; what the commands do is flow_planner.c. */
#include "flow/flow_cmds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "util/sanitize.h"

#define RETRY_MAX 3 /* Maestro clamps maxRetries to 3 */

static int opt_flag(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, amc_flow_cmd *c)
{
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	return 1;
}

/* `commands:` of a block: a non-empty list, parsed into c->body. */
static int body(amc_flow_yaml *y, const yaml_node_t *v, const char *what, amc_flow_cmd *c)
{
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return amc_flow_yaml_err(y, v, "%s must be a list of commands, got %s", what, amc_flow_yaml_kind(v));
	size_t cnt = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	if (cnt == 0)
		return amc_flow_yaml_err(y, v, "%s is empty", what);
	if (cnt > AMC_FLOW_MAX_COMMANDS)
		return amc_flow_yaml_err(y, v, "%s has %zu commands, over the limit of %d", what, cnt,
					 AMC_FLOW_MAX_COMMANDS);
	if (c->body)
		return amc_flow_yaml_err(y, v, "%s is given twice", what);
	return amc_flow_cmds_parse_list(y, v, &c->body, &c->nbody);
}

/* A file name as written: relative to the flow, no NUL, at most 255 bytes. */
static int file_name(amc_flow_yaml *y, const yaml_node_t *v, const char *what, char **out)
{
	if (amc_flow_yaml_str(y, v, what, 0, out) != 0)
		return -1;
	size_t n = strlen(*out);
	if (n == 0 || n > 255)
		return amc_flow_yaml_err(y, v, "%s: a file name of 1 to 255 bytes", what);
	return 0;
}

/* ---- runFlow ---- */

static int run_flow_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "file"))
		return file_name(y, it->val, what, &c->file);
	if (!strcmp(it->name, "commands"))
		return body(y, it->val, what, c);
	if (!strcmp(it->name, "env"))
		return amc_flow_kv_parse(y, it->val, what, &c->env, &c->nenv);
	if (!strcmp(it->name, "when"))
		return amc_flow_cond_parse(y, it->val, what, 1, &c->cond);
	return opt_flag(y, it, what, c);
}

int amc_flow_parse_run_flow(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	int shape = amc_flow_shape(y, v, def->name, AMC_FLOW_V_SCALAR | AMC_FLOW_V_MAPPING,
				   "takes a file or a mapping (file or commands, env, when)");
	if (shape == AMC_FLOW_V_SCALAR)
		return file_name(y, v, def->name, &c->file);
	if (shape < 0)
		return -1;
	if (amc_flow_opts_read(y, v, def->name, "file, commands, env, when, optional, label", NULL, run_flow_opt, c,
			       &c->label) != 0)
		return -1;
	if (c->file && c->body)
		return amc_flow_yaml_err(y, v, "runFlow takes file or commands, not both");
	if (!c->file && !c->body)
		return amc_flow_yaml_err(y, v, "runFlow needs file or commands");
	return 0;
}

/* ---- repeat, retry ---- */

/* A count that may be written as a number, a quoted number or ${...}
 * (interpolated when the command runs: kept in c->text). */
static int count(amc_flow_yaml *y, const yaml_node_t *v, const char *what, long hi, amc_flow_cmd *c, int *out)
{
	if (v && v->type == YAML_SCALAR_NODE && strstr((const char *)v->data.scalar.value, "${"))
		return amc_flow_yaml_str(y, v, what, 1, &c->text);
	if (v && v->type == YAML_SCALAR_NODE && v->data.scalar.style != YAML_PLAIN_SCALAR_STYLE) {
		/* "3": Maestro's counts are texts */
		char *s = NULL, *end = NULL;
		if (amc_flow_yaml_str(y, v, what, 1, &s) != 0)
			return -1;
		long n = strtol(s, &end, 10);
		int bad = !*s || *end || n < 0 || n > hi;
		free(s);
		if (bad)
			return amc_flow_yaml_err(y, v, "%s must be a whole number from 0 to %ld", what, hi);
		*out = (int)n;
		return 0;
	}
	return amc_flow_yaml_int(y, v, what, 0, hi, out);
}

static int repeat_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "times")) {
		c->number = 1; /* times given */
		return count(y, it->val, what, 100000, c, &c->times);
	}
	if (!strcmp(it->name, "while"))
		return amc_flow_cond_parse(y, it->val, what, 0, &c->cond);
	if (!strcmp(it->name, "commands"))
		return body(y, it->val, what, c);
	return opt_flag(y, it, what, c);
}

int amc_flow_parse_repeat(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	if (amc_flow_shape(y, v, def->name, AMC_FLOW_V_MAPPING, "needs a mapping (times, while, commands)") < 0)
		return -1;
	if (amc_flow_opts_read(y, v, def->name, "times, while, commands, optional, label", NULL, repeat_opt, c,
			       &c->label) != 0)
		return -1;
	if (!c->body)
		return amc_flow_yaml_err(y, v, "repeat needs commands");
	if (!c->number && !c->cond.visible && !c->cond.not_visible && !c->cond.is_true)
		return amc_flow_yaml_err(y, v, "repeat needs times or while");
	return 0;
}

static int retry_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "maxRetries")) {
		int rc = count(y, it->val, what, 1000, c, &c->times);
		if (c->times > RETRY_MAX)
			c->times = RETRY_MAX;
		return rc;
	}
	if (!strcmp(it->name, "file"))
		return file_name(y, it->val, what, &c->file);
	if (!strcmp(it->name, "commands"))
		return body(y, it->val, what, c);
	if (!strcmp(it->name, "env"))
		return amc_flow_kv_parse(y, it->val, what, &c->env, &c->nenv);
	return opt_flag(y, it, what, c);
}

int amc_flow_parse_retry(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	if (amc_flow_shape(y, v, def->name, AMC_FLOW_V_MAPPING, "needs a mapping (maxRetries, commands or file)") < 0)
		return -1;
	c->times = 1;
	if (amc_flow_opts_read(y, v, def->name, "maxRetries, commands, file, env, optional, label", NULL, retry_opt,
			       c, &c->label) != 0)
		return -1;
	if (c->file && c->body)
		return amc_flow_yaml_err(y, v, "retry takes file or commands, not both");
	if (!c->file && !c->body)
		return amc_flow_yaml_err(y, v, "retry needs commands or file");
	return 0;
}

/* ---- extendedWaitUntil ---- */

static int ext_wait_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "visible") || !strcmp(it->name, "notVisible")) {
		amc_selector **slot = it->name[0] == 'v' ? &c->cond.visible : &c->cond.not_visible;
		*slot = amc_xcalloc(1, sizeof **slot);
		return amc_flow_sel_parse(y, it->val, what, AMC_FLOW_SEL_NESTED, *slot);
	}
	if (!strcmp(it->name, "timeout"))
		return count(y, it->val, what, 3600000, c, &c->number);
	return opt_flag(y, it, what, c);
}

int amc_flow_parse_ext_wait(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	if (amc_flow_shape(y, v, def->name, AMC_FLOW_V_MAPPING, "needs a mapping (visible or notVisible, timeout)") < 0)
		return -1;
	c->number = 10000;
	if (amc_flow_opts_read(y, v, def->name, "visible, notVisible, timeout, optional, label", NULL, ext_wait_opt,
			       c, &c->label) != 0)
		return -1;
	if (!c->cond.visible == !c->cond.not_visible)
		return amc_flow_yaml_err(y, v, "extendedWaitUntil needs visible or notVisible (one of them)");
	return 0;
}

void amc_flow_describe_block(amc_sb *sb, const amc_flow_cmd *c)
{
	switch (c->op) {
	case AMC_FLOW_RUN_FLOW:
	case AMC_FLOW_RETRY:
	case AMC_FLOW_RUN_SCRIPT:
		if (c->op == AMC_FLOW_RETRY)
			amc_sb_printf(sb, " (max %d)", c->times);
		if (c->file) {
			amc_sb_putc(sb, ' ');
			amc_sanitize_line(c->file, strlen(c->file), sb);
		} else if (c->nbody) {
			amc_sb_printf(sb, " (%zu command%s)", c->nbody, c->nbody == 1 ? "" : "s");
		}
		break;
	case AMC_FLOW_REPEAT:
		if (c->number && !c->text)
			amc_sb_printf(sb, " %d times", c->times);
		if (c->cond.visible || c->cond.not_visible || c->cond.is_true)
			amc_sb_puts(sb, " while ...");
		amc_sb_printf(sb, " (%zu command%s)", c->nbody, c->nbody == 1 ? "" : "s");
		break;
	case AMC_FLOW_EXTENDED_WAIT: {
		const amc_selector *s = c->cond.visible ? c->cond.visible : c->cond.not_visible;
		amc_sb_puts(sb, c->cond.visible ? " visible" : " notVisible");
		if (s && (s->text || s->id)) {
			amc_sb_putc(sb, ' ');
			amc_flow_put_quoted(sb, s->text ? s->text : s->id);
		}
		amc_sb_printf(sb, " (timeout %d ms)", c->number);
		break;
	}
	default:
		break;
	}
}

/* ---- apps ---- */

static int app_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "appId"))
		return amc_flow_yaml_str(y, it->val, what, 0, &c->text);
	return opt_flag(y, it, what, c);
}

/* stopApp, killApp, clearState: nothing (the flow's app), an app id, or {appId}. */
int amc_flow_parse_app_cmd(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	c->stop_app = 1;
	int shape = amc_flow_shape(y, v, def->name, AMC_FLOW_V_NONE | AMC_FLOW_V_SCALAR | AMC_FLOW_V_MAPPING,
				   "takes nothing, an app id or {appId: ...}");
	if (shape == AMC_FLOW_V_SCALAR)
		return amc_flow_yaml_str(y, v, def->name, 0, &c->text);
	if (shape != AMC_FLOW_V_MAPPING)
		return shape == AMC_FLOW_V_NONE ? 0 : -1;
	return amc_flow_opts_read(y, v, def->name, "appId, optional, label", NULL, app_opt, c, &c->label);
}

static int link_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "link"))
		return amc_flow_yaml_str(y, it->val, what, 0, &c->text);
	if (!strcmp(it->name, "autoVerify") || !strcmp(it->name, "browser")) {
		int ignored; /* Android app-link verification / a browser choice: the system's defaults */
		int rc = amc_flow_yaml_bool(y, it->val, what, &ignored);
		if (rc == 0 && ignored) /* Orchestra hands both to Maestro.openLink; amc does not */
			amc_flow_yaml_note(y, it->key, "openLink %s ignored (amc opens the link as the system "
					   "resolves it)", it->name);
		return rc;
	}
	return opt_flag(y, it, what, c);
}

int amc_flow_parse_open_link(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	int shape = amc_flow_shape(y, v, def->name, AMC_FLOW_V_SCALAR | AMC_FLOW_V_MAPPING,
				   "takes a link or {link: ...}");
	if (shape == AMC_FLOW_V_SCALAR)
		return amc_flow_yaml_str(y, v, def->name, 0, &c->text);
	if (shape < 0)
		return -1;
	if (amc_flow_opts_read(y, v, def->name, "link, autoVerify, browser, optional, label", NULL, link_opt, c,
			       &c->label) != 0)
		return -1;
	if (!c->text)
		return amc_flow_yaml_err(y, v, "openLink needs link");
	return 0;
}

/* ---- input ---- */

static int random_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "length") && (!strcmp(c->direction, "TEXT") || !strcmp(c->direction, "NUMBER")))
		return amc_flow_yaml_int(y, it->val, what, 1, 1000, &c->number);
	return opt_flag(y, it, what, c);
}

/* inputRandomText/Number/Email/PersonName/CityName/CountryName/ColorName: the
 * kind goes into c->direction. */
int amc_flow_parse_random(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	const char *kind = !strcmp(def->name, "inputRandomNumber")        ? "NUMBER"
			   : !strcmp(def->name, "inputRandomEmail")       ? "EMAIL"
			   : !strcmp(def->name, "inputRandomPersonName")  ? "PERSON_NAME"
			   : !strcmp(def->name, "inputRandomCityName")    ? "CITY_NAME"
			   : !strcmp(def->name, "inputRandomCountryName") ? "COUNTRY_NAME"
			   : !strcmp(def->name, "inputRandomColorName")   ? "COLOR_NAME"
									  : "TEXT";
	c->direction = amc_xstrdup(kind);
	c->number = 8;
	int shape = amc_flow_shape(y, v, def->name, AMC_FLOW_V_NONE | AMC_FLOW_V_MAPPING,
				   "takes nothing or {length: N}");
	if (shape != AMC_FLOW_V_MAPPING)
		return shape == AMC_FLOW_V_NONE ? 0 : -1;
	return amc_flow_opts_read(y, v, def->name, !strcmp(kind, "TEXT") || !strcmp(kind, "NUMBER")
						     ? "length, optional, label" : "optional, label",
				  NULL, random_opt, c, &c->label);
}

static int text_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "text") || !strcmp(it->name, "script"))
		return amc_flow_yaml_str(y, it->val, what, 1, &c->text);
	return opt_flag(y, it, what, c);
}

/* setClipboard, evalScript: a text, or {text|script, optional, label}. */
int amc_flow_parse_text_cmd(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	int shape = amc_flow_shape(y, v, def->name, AMC_FLOW_V_SCALAR | AMC_FLOW_V_MAPPING, "takes a text");
	if (shape == AMC_FLOW_V_SCALAR)
		return amc_flow_yaml_str(y, v, def->name, 1, &c->text);
	if (shape < 0)
		return -1;
	const char *key = c->op == AMC_FLOW_EVAL_SCRIPT ? "script" : "text";
	char sup[64];
	snprintf(sup, sizeof sup, "%s, optional, label", key);
	if (amc_flow_opts_read(y, v, def->name, sup, NULL, text_opt, c, &c->label) != 0)
		return -1;
	if (!c->text)
		return amc_flow_yaml_err(y, v, "%s needs %s", def->name, key);
	return 0;
}

/* ---- JavaScript ---- */

static int script_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "file"))
		return file_name(y, it->val, what, &c->file);
	if (!strcmp(it->name, "env"))
		return amc_flow_kv_parse(y, it->val, what, &c->env, &c->nenv);
	if (!strcmp(it->name, "when"))
		return amc_flow_cond_parse(y, it->val, what, 1, &c->cond);
	return opt_flag(y, it, what, c);
}

int amc_flow_parse_run_script(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			      amc_flow_cmd *c)
{
	int shape = amc_flow_shape(y, v, def->name, AMC_FLOW_V_SCALAR | AMC_FLOW_V_MAPPING,
				   "takes a file or {file, env}");
	if (shape == AMC_FLOW_V_SCALAR)
		return file_name(y, v, def->name, &c->file);
	if (shape < 0)
		return -1;
	if (amc_flow_opts_read(y, v, def->name, "file, env, when, optional, label", NULL, script_opt, c,
			       &c->label) != 0)
		return -1;
	if (!c->file)
		return amc_flow_yaml_err(y, v, "runScript needs file");
	return 0;
}

static int cond_text_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "condition"))
		return amc_flow_yaml_str(y, it->val, what, 1, &c->text);
	return opt_flag(y, it, what, c);
}

int amc_flow_parse_assert_true(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			       amc_flow_cmd *c)
{
	int shape = amc_flow_shape(y, v, def->name, AMC_FLOW_V_SCALAR | AMC_FLOW_V_MAPPING,
				   "takes a condition or {condition: ...}");
	if (shape == AMC_FLOW_V_SCALAR)
		return amc_flow_yaml_str(y, v, def->name, 1, &c->text);
	if (shape < 0)
		return -1;
	if (amc_flow_opts_read(y, v, def->name, "condition, optional, label", NULL, cond_text_opt, c, &c->label) != 0)
		return -1;
	if (!c->text)
		return amc_flow_yaml_err(y, v, "assertTrue needs condition");
	return 0;
}

/* ---- AI ---- */

static int ai_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if ((!strcmp(it->name, "assertion") && c->op == AMC_FLOW_ASSERT_WITH_AI) ||
	    (!strcmp(it->name, "query") && c->op == AMC_FLOW_EXTRACT_TEXT_WITH_AI))
		return amc_flow_yaml_str(y, it->val, what, 1, &c->text);
	if (!strcmp(it->name, "outputVariable") && c->op == AMC_FLOW_EXTRACT_TEXT_WITH_AI)
		return amc_flow_yaml_str(y, it->val, what, 0, &c->direction);
	return opt_flag(y, it, what, c);
}

/* assertWithAI {assertion}, assertNoDefectsWithAI, extractTextWithAI {query,
 * outputVariable}. Maestro makes the two assertions optional by default. */
int amc_flow_parse_ai(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	const char *sup = c->op == AMC_FLOW_ASSERT_WITH_AI	    ? "assertion, optional, label"
			  : c->op == AMC_FLOW_EXTRACT_TEXT_WITH_AI ? "query, outputVariable, optional, label"
								   : "optional, label";
	c->sel.optional = c->op != AMC_FLOW_EXTRACT_TEXT_WITH_AI;
	int shape = amc_flow_shape(y, v, def->name, AMC_FLOW_V_NONE | AMC_FLOW_V_SCALAR | AMC_FLOW_V_MAPPING,
				   "takes a mapping");
	if (shape < 0)
		return -1;
	if (shape == AMC_FLOW_V_SCALAR && c->op != AMC_FLOW_ASSERT_NO_DEFECTS_WITH_AI) {
		if (amc_flow_yaml_str(y, v, def->name, 1, &c->text) != 0)
			return -1;
	} else if (shape == AMC_FLOW_V_MAPPING) {
		if (amc_flow_opts_read(y, v, def->name, sup, NULL, ai_opt, c, &c->label) != 0)
			return -1;
	} else if (shape == AMC_FLOW_V_SCALAR) {
		return amc_flow_yaml_err(y, v, "%s takes nothing or {optional: ...}", def->name);
	}
	if (!c->text && c->op != AMC_FLOW_ASSERT_NO_DEFECTS_WITH_AI)
		return amc_flow_yaml_err(y, v, "%s needs %s", def->name,
					 c->op == AMC_FLOW_ASSERT_WITH_AI ? "assertion" : "query");
	if (c->op == AMC_FLOW_EXTRACT_TEXT_WITH_AI && !c->direction)
		c->direction = amc_xstrdup("aiOutput");
	return 0;
}

/* ---- screenshots ---- */

static int shot_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	if (!strcmp(it->name, "optional"))
		return amc_flow_yaml_bool(y, it->val, what, &c->sel.optional);
	if (!strcmp(it->name, "path"))
		return amc_flow_yaml_str(y, it->val, what, 1, &c->text);
	if (!strcmp(it->name, "cropOn")) {
		int opt = c->sel.optional, rc = amc_flow_sel_parse(y, it->val, what, 0, &c->sel);
		c->sel.optional = c->sel.optional || opt;
		c->crop = 1;
		return rc;
	}
	if (!strcmp(it->name, "thresholdPercentage") && c->op == AMC_FLOW_ASSERT_SCREENSHOT) {
		/* a text in Maestro (it may be ${...}), read as a number when it runs */
		if (amc_flow_yaml_str(y, it->val, what, 1, &c->direction) != 0)
			return -1;
		char *end;
		double t = strtod(c->direction, &end);
		if (!strstr(c->direction, "${") && (*end || end == c->direction || t < 0 || t > 100))
			return amc_flow_yaml_err(y, it->val, "%s must be a number from 0 to 100", what);
		return 0;
	}
	return 1;
}

/* takeScreenshot: NAME | {path, cropOn, optional, label} (YamlTakeScreenshot);
 * assertScreenshot: PATH | {path, thresholdPercentage (95), cropOn, optional,
 * label} (YamlAssertScreenshot). cropOn is a selector, as YamlElementSelectorUnion. */
int amc_flow_parse_screenshot(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c)
{
	int shot = c->op == AMC_FLOW_TAKE_SCREENSHOT;
	int shape = amc_flow_shape(y, v, def->name, (shot ? AMC_FLOW_V_NONE : 0) | AMC_FLOW_V_SCALAR | AMC_FLOW_V_MAPPING,
				   shot ? "takes a name or {path: NAME}" : "takes a reference image or {path: FILE}");
	if (shape == AMC_FLOW_V_SCALAR)
		return amc_flow_yaml_str(y, v, def->name, 1, &c->text);
	if (shape != AMC_FLOW_V_MAPPING)
		return shape == AMC_FLOW_V_NONE ? 0 : -1;
	if (amc_flow_opts_read(y, v, def->name,
			       shot ? "path, cropOn, optional, label" : "path, thresholdPercentage, cropOn, optional, label",
			       NULL, shot_opt, c, &c->label) != 0)
		return -1;
	if (!shot && !c->text)
		return amc_flow_yaml_err(y, v, "assertScreenshot needs path (the reference image)");
	return 0;
}

/* A list of texts (addMedia files, travel points) into c->env's values (so
 * their ${...} are checked and filled as any env value's); names empty. */
static int text_list(amc_flow_yaml *y, const yaml_node_t *v, const char *what, amc_flow_cmd *c)
{
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return amc_flow_yaml_err(y, v, "%s must be a list, got %s", what, amc_flow_yaml_kind(v));
	for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top; i++) {
		char *t = NULL;
		if (amc_flow_yaml_str(y, amc_flow_yaml_node(y, *i), what, 1, &t) != 0)
			return -1;
		c->env = amc_xrealloc(c->env, (c->nenv + 1) * sizeof *c->env);
		c->env[c->nenv].name = amc_xstrdup("");
		c->env[c->nenv++].value = t;
	}
	return 0;
}

static int dev_opt(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx)
{
	amc_flow_cmd *c = ctx;
	switch (c->op) {
	case AMC_FLOW_SET_ORIENTATION:
		if (!strcmp(it->name, "orientation"))
			return amc_flow_yaml_str(y, it->val, what, 0, &c->text);
		break;
	case AMC_FLOW_SET_AIRPLANE_MODE:
		if (!strcmp(it->name, "value"))
			return amc_flow_yaml_str(y, it->val, what, 0, &c->text);
		/* YamlSetAirplaneModeDeserializer reads value and label off the
		 * tree: beside value any other key is ignored; without value the
		 * mapping is its IllegalArgumentException ({enabled: true} in
		 * dzeder/ohanafy-field), not an unknown-key error */
		if (strcmp(it->name, "optional") && strcmp(it->name, "label")) {
			char *q = amc_flow_yaml_quote(it->key);
			int rc = 0;
			if (c->nargs) /* set below: the mapping has value */
				amc_flow_yaml_note(y, it->key, "setAirplaneMode %s ignored (YamlSetAirplaneMode"
						   "Deserializer reads value and label only)", q);
			else
				rc = amc_flow_yaml_err(y, it->key, "setAirplaneMode takes enabled, disabled or {value: "
						       "enabled|disabled}, not '%s'; Maestro refuses it too "
						       "(YamlSetAirplaneModeDeserializer: IllegalArgumentException)", q);
			free(q);
			return rc;
		}
		break;
	case AMC_FLOW_SET_DARK_MODE:
		if (!strcmp(it->name, "value"))
			return amc_flow_yaml_str(y, it->val, what, 0, &c->text);
		break;
	case AMC_FLOW_START_RECORDING:
		if (!strcmp(it->name, "path"))
			return amc_flow_yaml_str(y, it->val, what, 1, &c->text);
		break;
	case AMC_FLOW_SET_LOCATION:
		if (!strcmp(it->name, "latitude"))
			return amc_flow_yaml_str(y, it->val, what, 1, &c->text);
		if (!strcmp(it->name, "longitude"))
			return amc_flow_yaml_str(y, it->val, what, 1, &c->direction);
		break;
	case AMC_FLOW_TRAVEL:
		if (!strcmp(it->name, "points"))
			return text_list(y, it->val, what, c);
		if (!strcmp(it->name, "speed")) /* m/s, as TravelCommand's speedMPS */
			return amc_flow_yaml_int(y, it->val, what, 1, 100000, &c->number);
		break;
	case AMC_FLOW_ADD_MEDIA:
		if (!strcmp(it->name, "files"))
			return text_list(y, it->val, what, c);
		break;
	default:
		break;
	}
	return opt_flag(y, it, what, c);
}

/* The device commands, as Maestro's Yaml* classes read them:
 * setOrientation: NAME | {orientation}; setAirplaneMode: enabled|disabled |
 * {value} (YamlSetAirplaneModeDeserializer); toggleAirplaneMode;
 * setLocation: {latitude, longitude} (YamlSetLocation); travel: {points,
 * speed} (YamlTravelCommand); addMedia: [files] | {files} (YamlAddMedia);
 * startRecording: PATH | {path} (YamlStartRecording); stopRecording;
 * setDarkMode: enabled|disabled | {value} (YamlSetDarkModeDeserializer);
 * toggleDarkMode, assertDarkMode, assertLightMode (bare, or {label,
 * optional}). amc_flow_check_device refuses those a device kind cannot do
 * before a run. */
int amc_flow_parse_device_only(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
			       amc_flow_cmd *c)
{
	static const char *const SUP[] = {
		[AMC_FLOW_SET_ORIENTATION] = "orientation, optional, label",
		[AMC_FLOW_SET_AIRPLANE_MODE] = "value, optional, label",
		[AMC_FLOW_SET_LOCATION] = "latitude, longitude, optional, label",
		[AMC_FLOW_TRAVEL] = "points, speed, optional, label",
		[AMC_FLOW_ADD_MEDIA] = "files, optional, label",
		[AMC_FLOW_START_RECORDING] = "path, optional, label",
		[AMC_FLOW_SET_DARK_MODE] = "value, optional, label",
	};
	const char *sup = (size_t)c->op < sizeof SUP / sizeof SUP[0] && SUP[c->op] ? SUP[c->op] : "optional, label";
	int accepts = AMC_FLOW_V_MAPPING;
	if (c->op == AMC_FLOW_SET_ORIENTATION || c->op == AMC_FLOW_SET_AIRPLANE_MODE ||
	    c->op == AMC_FLOW_SET_DARK_MODE || c->op == AMC_FLOW_START_RECORDING)
		accepts |= AMC_FLOW_V_SCALAR;
	if (c->op == AMC_FLOW_ADD_MEDIA)
		accepts |= AMC_FLOW_V_LIST;
	if (c->op == AMC_FLOW_TOGGLE_AIRPLANE_MODE || c->op == AMC_FLOW_STOP_RECORDING ||
	    c->op == AMC_FLOW_TOGGLE_DARK_MODE || c->op == AMC_FLOW_ASSERT_DARK_MODE ||
	    c->op == AMC_FLOW_ASSERT_LIGHT_MODE)
		accepts |= AMC_FLOW_V_NONE;
	int shape = amc_flow_shape(y, v, def->name, accepts, "takes its value as Maestro documents it");
	if (shape < 0)
		return -1;
	if (shape == AMC_FLOW_V_SCALAR &&
	    amc_flow_yaml_str(y, v, def->name, c->op == AMC_FLOW_START_RECORDING, &c->text) != 0)
		return -1;
	if (shape == AMC_FLOW_V_LIST && text_list(y, v, def->name, c) != 0)
		return -1;
	/* setAirplaneMode: whether the mapping has value decides what another key is
	 * (dev_opt); c->nargs is free for this op and marks it for the walk */
	if (shape == AMC_FLOW_V_MAPPING && c->op == AMC_FLOW_SET_AIRPLANE_MODE)
		for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
			const yaml_node_t *k = amc_flow_yaml_node(y, pr->key);
			if (k && k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, "value"))
				c->nargs = 1;
		}
	int mrc = shape == AMC_FLOW_V_MAPPING ? amc_flow_opts_read(y, v, def->name, sup, NULL, dev_opt, c, &c->label) : 0;
	if (c->op == AMC_FLOW_SET_AIRPLANE_MODE)
		c->nargs = 0;
	if (mrc != 0)
		return -1;
	switch (c->op) {
	case AMC_FLOW_SET_ORIENTATION:
		if (!c->text || (!strstr(c->text, "${") && amc_orientation_parse(c->text) < 0))
			return amc_flow_yaml_err(y, v, "setOrientation takes PORTRAIT, LANDSCAPE_LEFT, LANDSCAPE_RIGHT or "
						 "UPSIDE_DOWN");
		break;
	case AMC_FLOW_SET_AIRPLANE_MODE:
	case AMC_FLOW_SET_DARK_MODE:
		if (!c->text || (strcmp(c->text, "enabled") && strcmp(c->text, "disabled")))
			return amc_flow_yaml_err(y, v, "%s takes enabled or disabled", def->name);
		break;
	case AMC_FLOW_START_RECORDING:
		if (!c->text)
			return amc_flow_yaml_err(y, v, "startRecording needs path (the recording's name)");
		break;
	case AMC_FLOW_SET_LOCATION:
		if (!c->text || !c->direction)
			return amc_flow_yaml_err(y, v, "setLocation needs latitude and longitude");
		break;
	case AMC_FLOW_TRAVEL:
		if (c->nenv < 1)
			return amc_flow_yaml_err(y, v, "travel needs points: [\"LAT,LON\", ...]");
		break;
	case AMC_FLOW_ADD_MEDIA:
		if (c->nenv < 1)
			return amc_flow_yaml_err(y, v, "addMedia needs at least one file");
		break;
	default:
		break;
	}
	return 0;
}

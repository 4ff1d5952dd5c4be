/* flow_planner_ops.c - one flow command, through its row (fp_plan_cmd), and
 * the plan functions of the rows that need no selector: app state, device
 * settings, input, clipboard, scripts, AI, entering blocks. Selectors are
 * flow_planner_cmds.c's, screenshots and appearance flow_planner_media.c's.
 * Just over 800 lines: thirty short plan functions, one per row; the device
 * settings (set_device) are the next family to move out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow_cmd_def.h"
#include "flow/flow_cmds.h"
#include "planner/flow_planner_int.h"
#include "flow/selector.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define ANIMATION_WAIT_MS 500 /* waitForAnimationToEnd: the runner's settle does the rest */
#define SWIPE_MS 400

static const char *file_app(flow_planner *fp)
{
	fp_frame *f = fp_top(fp);
	return f && f->file && f->file->app_id ? f->file->app_id : fp->flow.app_id;
}

/* The command's app: its own (interpolated) or its file's appId. */
static int app_of(flow_planner *fp, const amc_flow_cmd *c, char **out, amc_err *e)
{
	*out = NULL;
	if (c->text)
		return fp_interp(fp, c, c->text, out, e);
	const char *a = file_app(fp);
	if (!a) {
		char *w = fp_where(fp, c);
		amc_err_set(e, AMC_EUSAGE, "%s: %s needs an app id (set appId)", w, amc_flow_cmd_name(c));
		free(w);
		return -1;
	}
	*out = amc_xstrdup(a);
	return 0;
}

static void describe_with(amc_action *out, const char *prefix, const char *what)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, prefix);
	amc_sanitize_line(what, strlen(what) > 120 ? 120 : strlen(what), &sb);
	free(out->description);
	out->description = amc_sb_detach(&sb);
}

static int in_front(const amc_plan_ctx *ctx, const char *app)
{
	const amc_ui_tree *t = fp_obs_tree(ctx);
	for (size_t i = 0; t && t->nodes && i < t->count; i++)
		if (t->nodes[i].package && *t->nodes[i].package)
			return !strcmp(t->nodes[i].package, app);
	return 0;
}

int fp_plan_launch(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
		       amc_err *e)
{
	char *app;
	if (app_of(fp, c, &app, e) != 0)
		return FP_FAIL;
	if (c->clear_state && fp->sub == 0) {
		fp_begin(fp, c, "manage_app", out);
		cJSON_AddStringToObject(out->args, "op", "clear_state");
		cJSON_AddStringToObject(out->args, "app_id", app);
		describe_with(out, "launchApp: clear the state of ", app);
		fp->sub = 1;
		fp->emitted_final = 0;
		free(app);
		return FP_ACT;
	}
	if (!c->stop_app && !c->clear_state && in_front(ctx, app)) {
		fp_begin(fp, c, "launch_app", out);
		describe_with(out, "launchApp (already in front, stopApp: false) ", app);
		fp_decide(out, 1, NULL, cJSON_CreateObject());
		free(app);
		return FP_ACT;
	}
	/* permissions and arguments, their ${...} filled here (Orchestra's
	 * launchApp: setPermissions, then the launch with its arguments) */
	cJSON *perms = NULL, *args = NULL;
	for (int k = 0; k < 2; k++) {
		const amc_flow_kv *kv = k ? c->args : c->env;
		size_t n = k ? c->nargs : c->nenv;
		cJSON *o = n ? cJSON_CreateObject() : NULL;
		for (size_t i = 0; i < n; i++) {
			char *v = NULL;
			if (fp_interp(fp, c, kv[i].value, &v, e) != 0) {
				cJSON_Delete(o);
				cJSON_Delete(perms);
				free(app);
				return FP_FAIL;
			}
			cJSON_AddStringToObject(o, kv[i].name, v);
			free(v);
		}
		*(k ? &args : &perms) = o;
	}
	fp_begin(fp, c, "launch_app", out);
	cJSON_AddStringToObject(out->args, "app_id", app);
	if (perms)
		cJSON_AddItemToObject(out->args, "permissions", perms);
	if (args)
		cJSON_AddItemToObject(out->args, "arguments", args);
	describe_with(out, "launchApp ", app);
	if (c->clear_keychain) /* what Maestro would do that has no meaning here: said in the step */
		cJSON_AddStringToObject(out->args, "notes", "clearKeychain: Android has no keychain, nothing to clear.");
	free(app);
	return FP_ACT;
}

/* setPermissions: launchApp's permissions alone, through manage_app's
 * flow-only "permissions" op (tools.c), their ${...} filled here. */
int fp_plan_set_permissions(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			    amc_err *e)
{
	(void)ctx;
	char *app;
	if (app_of(fp, c, &app, e) != 0)
		return FP_FAIL;
	cJSON *perms = cJSON_CreateObject();
	for (size_t i = 0; i < c->nenv; i++) {
		char *v = NULL;
		if (fp_interp(fp, c, c->env[i].value, &v, e) != 0) {
			cJSON_Delete(perms);
			free(app);
			return FP_FAIL;
		}
		cJSON_AddStringToObject(perms, c->env[i].name, v);
		free(v);
	}
	fp_begin(fp, c, "manage_app", out);
	cJSON_AddStringToObject(out->args, "op", "permissions");
	cJSON_AddStringToObject(out->args, "app_id", app);
	cJSON_AddItemToObject(out->args, "permissions", perms);
	describe_with(out, "setPermissions ", app);
	free(app);
	return FP_ACT;
}

/* stopApp, killApp, clearState, openLink: one manage_app step (op), on the
 * command's app or link. */
static int app_step(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *op, amc_err *e)
{
	char *arg = NULL;
	int link = !strcmp(op, "open_link");
	if (link ? fp_interp(fp, c, c->text, &arg, e) : app_of(fp, c, &arg, e))
		return FP_FAIL;
	fp_begin(fp, c, "manage_app", out);
	cJSON_AddStringToObject(out->args, "op", op);
	cJSON_AddStringToObject(out->args, link ? "link" : "app_id", arg);
	amc_sb d;
	amc_sb_init(&d);
	amc_sb_printf(&d, "%s ", amc_flow_cmd_name(c));
	describe_with(out, amc_sb_str(&d), arg);
	amc_sb_free(&d);
	free(arg);
	return FP_ACT;
}

int fp_plan_stop_app(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	return app_step(fp, c, out, "stop", e);
}

int fp_plan_kill_app(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	return app_step(fp, c, out, "kill", e);
}

int fp_plan_clear_state(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			amc_err *e)
{
	(void)ctx;
	return app_step(fp, c, out, "clear_state", e);
}

int fp_plan_open_link(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	return app_step(fp, c, out, "open_link", e);
}

/* setOrientation, (toggle|set)AirplaneMode, setLocation, travel, addMedia:
 * one set_device step each (v is taken); travel and addMedia one per point
 * or file. */
static int device_step(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *setting, char *v)
{
	fp_begin(fp, c, "set_device", out);
	cJSON_AddStringToObject(out->args, "setting", setting);
	cJSON_AddStringToObject(out->args, "value", v);
	amc_sb d;
	amc_sb_init(&d);
	amc_sb_printf(&d, "%s ", amc_flow_cmd_name(c));
	describe_with(out, amc_sb_str(&d), v);
	amc_sb_free(&d);
	free(v);
	return FP_ACT;
}

int fp_plan_orientation(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			amc_err *e)
{
	(void)ctx;
	char *v = NULL;
	if (fp_interp(fp, c, c->text, &v, e) != 0)
		return FP_FAIL;
	return device_step(fp, c, out, "orientation", v);
}

int fp_plan_airplane(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	(void)e;
	return device_step(fp, c, out, "airplane", amc_xstrdup(c->text && !strcmp(c->text, "enabled") ? "on" : "off"));
}

int fp_plan_toggle_airplane(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			    amc_err *e)
{
	(void)ctx;
	(void)e;
	return device_step(fp, c, out, "airplane", amc_xstrdup("toggle"));
}

int fp_plan_location(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	char *v = NULL, *lon = NULL;
	if (fp_interp(fp, c, c->text, &v, e) != 0 || fp_interp(fp, c, c->direction, &lon, e) != 0) {
		free(v);
		return FP_FAIL;
	}
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s,%s", v, lon);
	free(v);
	free(lon);
	return device_step(fp, c, out, "location", amc_sb_detach(&sb));
}

/* travel's points and addMedia's files: the one at fp->sub, then the next. */
static int each_value(flow_planner *fp, const amc_flow_cmd *c, char **v, amc_err *e)
{
	size_t i = (size_t)fp->sub;
	if (i >= c->nenv || fp_interp(fp, c, c->env[i].value, v, e) != 0)
		return -1;
	if (i + 1 < c->nenv) {
		fp->sub = (int)i + 1;
		fp->emitted_final = 0;
	}
	return 0;
}

int fp_plan_travel(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	char *v = NULL;
	if (each_value(fp, c, &v, e) != 0)
		return FP_FAIL;
	return device_step(fp, c, out, "location", v);
}

int fp_plan_add_media(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	char *v = NULL;
	if (each_value(fp, c, &v, e) != 0)
		return FP_FAIL;
	/* relative to the flow file, as Maestro resolves addMedia's files */
	const char *path = fp_top(fp)->file ? fp_top(fp)->file->path : NULL;
	const char *slash = path ? strrchr(path, '/') : NULL;
	if (v[0] != '/' && slash) {
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sb_printf(&sb, "%.*s/%s", (int)(slash - path), path, v);
		free(v);
		v = amc_sb_detach(&sb);
	}
	return device_step(fp, c, out, "add_media", v);
}

/* ---- input ---- */

static unsigned long long next_rand(flow_planner *fp)
{
	unsigned long long x = fp->rng; /* xorshift64* */
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	fp->rng = x;
	return x * 2685821657736338717ull;
}

static char *random_text(flow_planner *fp, const char *kind, int len)
{
	static const char *const FIRST[] = { "Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken" };
	static const char *const LAST[] = { "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie",
					    "Liskov", "Thompson" };
	amc_sb sb;
	amc_sb_init(&sb);
	static const char *const CITY[] = { "Lisbon", "Nairobi", "Osaka", "Lima", "Oslo", "Austin", "Lyon", "Pune" };
	static const char *const COUNTRY[] = { "Portugal", "Kenya", "Japan", "Peru", "Norway", "Canada", "France",
					       "India" };
	static const char *const COLOR[] = { "red", "green", "blue", "yellow", "purple", "orange", "teal", "black" };
	if (!strcmp(kind, "PERSON_NAME")) {
		amc_sb_printf(&sb, "%s %s", FIRST[next_rand(fp) % 8], LAST[next_rand(fp) % 8]);
	} else if (!strcmp(kind, "CITY_NAME") || !strcmp(kind, "COUNTRY_NAME") || !strcmp(kind, "COLOR_NAME")) {
		const char *const *l = kind[1] == 'I' ? CITY : kind[2] == 'U' ? COUNTRY : COLOR;
		amc_sb_puts(&sb, l[next_rand(fp) % 8]);
	} else if (!strcmp(kind, "EMAIL")) {
		for (int i = 0; i < 10; i++)
			amc_sb_putc(&sb, (char)('a' + next_rand(fp) % 26));
		amc_sb_puts(&sb, "@example.com");
	} else {
		int num = !strcmp(kind, "NUMBER");
		for (int i = 0; i < len; i++)
			amc_sb_putc(&sb, num ? (char)((i == 0 ? '1' : '0') + next_rand(fp) % (i == 0 ? 9 : 10))
					     : (char)('a' + next_rand(fp) % 26));
	}
	return amc_sb_detach(&sb);
}

static int type_step(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *text)
{
	fp_begin(fp, c, "type_text", out);
	cJSON_AddStringToObject(out->args, "text", text);
	return FP_ACT;
}

int fp_plan_copy(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	amc_selector s;
	int i = fp_find_now(fp, c, &c->sel, ctx, &s, e);
	int rc = FP_ACT;
	if (i == -2) {
		rc = FP_FAIL;
	} else if (i < 0 && ctx && ctx->waited_ms < fp->wait_ms) {
		rc = FP_REOBSERVE;
	} else if (i < 0 && c->sel.optional) {
		fp_skip_optional(fp, c, &s, out, "copy_text", "no element matched");
	} else if (i < 0) {
		fp_begin(fp, c, "copy_text", out);
		fp_add_selector(&s, out);
		fp_decide(out, 0, fp_not_found(fp, c, &s, ctx, "no element matches"), NULL);
	} else {
		const char *l = fp_node_label(&fp_obs_tree(ctx)->nodes[i]);
		amc_flow_interp_set_copied(&fp->in, l ? l : "");
		fp_begin(fp, c, "copy_text", out);
		fp_add_selector(&s, out);
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "text", l ? l : "");
		fp_decide(out, 1, NULL, r);
	}
	amc_selector_clear(&s);
	return rc;
}

/* ---- scripts and conditions, decided here ---- */

static int decided_text(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *tool, int ok,
			const char *key, const char *value, char *error)
{
	fp_begin(fp, c, tool, out);
	cJSON *r = NULL;
	if (ok && key) {
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, key, value ? value : "");
	}
	fp_decide(out, ok, error, r);
	return FP_ACT;
}

/* evalScript, runScript, assertTrue, setClipboard: an error of the script
 * fails the step (so optional and retry apply), with FILE:LINE in it. The
 * step of tool, from the script's rc, value v (taken) and error se. */
static int script_step(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *tool, int rc, char *v,
		       const amc_err *se)
{
	if (rc != 0 && c->sel.optional) {
		fp_skip_optional(fp, c, NULL, out, tool, se->msg);
		free(v);
		return FP_ACT;
	}
	decided_text(fp, c, out, tool, rc == 0, "value", v, rc == 0 ? NULL : amc_xstrdup(se->msg));
	free(v);
	return FP_ACT;
}

int fp_plan_run_script(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
		       amc_err *e)
{
	char *v = NULL;
	amc_err se;
	amc_err_clear(&se);
	int rc = 0;
	if (c->cond.visible || c->cond.not_visible || c->cond.is_true || c->cond.platform) {
		int h = fp_cond_holds(fp, c, &c->cond, ctx, e);
		if (h < 0)
			return FP_FAIL;
		if (!h)
			return decided_text(fp, c, out, "run_script", 1, "skipped", "when: is false", NULL);
	}
	size_t mark = amc_flow_interp_mark(&fp->in);
	char *w = fp_where(fp, c);
	for (size_t i = 0; i < c->nenv && rc == 0; i++) {
		char *val = NULL;
		rc = amc_flow_interp_str(&fp->in, c->env[i].value, w, &val, &se);
		if (rc == 0)
			amc_flow_interp_push(&fp->in, c->env[i].name, val);
		free(val);
	}
	if (rc == 0 && !c->script)
		rc = amc_err_set(&se, AMC_EUSAGE, "%s: runScript: the script file was not loaded", w);
	if (rc == 0)
		rc = amc_flow_interp_script(&fp->in, c->script, w, &v, &se);
	amc_flow_interp_pop(&fp->in, mark);
	free(w);
	return script_step(fp, c, out, "run_script", rc, v, &se);
}

int fp_plan_eval_script(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			amc_err *e)
{
	(void)ctx;
	(void)e;
	char *v = NULL, *w = fp_where(fp, c);
	amc_err se;
	amc_err_clear(&se);
	int rc = strstr(c->text, "${") ? amc_flow_interp_str(&fp->in, c->text, w, &v, &se)
				       : amc_flow_interp_script(&fp->in, c->text, w, &v, &se);
	free(w);
	return script_step(fp, c, out, "eval_script", rc, v, &se);
}

int fp_plan_assert_true(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			amc_err *e)
{
	(void)ctx;
	(void)e;
	char *v = NULL;
	amc_err se;
	amc_err_clear(&se);
	int rc = fp_interp(fp, c, c->text, &v, &se);
	if (rc == 0 && !amc_flow_interp_truthy(v)) {
		char *w = fp_where(fp, c), *q = amc_sanitize_dup(c->text), *g = amc_sanitize_dup(v);
		amc_err_set(&se, AMC_EFAIL, "%s: assertTrue: %.200s is false (it came to '%.100s')", w, q, g);
		free(w);
		free(q);
		free(g);
		rc = -1;
	}
	return script_step(fp, c, out, "assert_true", rc, v, &se);
}

int fp_plan_set_clipboard(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			  amc_err *e)
{
	(void)ctx;
	(void)e;
	char *v = NULL;
	amc_err se;
	amc_err_clear(&se);
	int rc = fp_interp(fp, c, c->text, &v, &se);
	if (rc == 0)
		amc_flow_interp_set_copied(&fp->in, v);
	return script_step(fp, c, out, "set_clipboard", rc, v, &se);
}

/* ---- the dispatch ---- */

static int refused(flow_planner *fp, const amc_flow_cmd *c, const char *why, amc_err *e)
{
	char *w = fp_where(fp, c);
	amc_err_set(e, AMC_EUSAGE, "%s: %s: %s", w, amc_flow_cmd_name(c), why);
	free(w);
	return FP_FAIL;
}

/* ---- AI commands, answered by the model behind fp->ai ---- */

int fp_plan_ai(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	if (!fp->ai)
		return refused(fp, c, "AI commands need a model (planner.provider and its key: `amc providers`)", e);
	char *prompt = NULL;
	if (c->text && fp_interp(fp, c, c->text, &prompt, e) != 0)
		return FP_FAIL;
	int extract = c->op == AMC_FLOW_EXTRACT_TEXT_WITH_AI;
	fp_begin(fp, c, c->op == AMC_FLOW_ASSERT_WITH_AI ? "assert_with_ai"
			: extract			    ? "extract_text_with_ai"
							    : "assert_no_defects_with_ai",
		 out);
	if (prompt)
		cJSON_AddStringToObject(out->args, extract ? "query" : "assertion", prompt);
	if (extract)
		cJSON_AddStringToObject(out->args, "output_variable", c->direction);
	amc_err ae;
	amc_err_clear(&ae);
	char *w = fp_where(fp, c);
	amc_sb sb;
	amc_sb_init(&sb);
	if (fp->ai(fp->ai_ud, amc_flow_cmd_name(c), prompt, ctx ? ctx->obs : NULL, out, &ae) != 0) {
		amc_sb_printf(&sb, "%s: %s: the model gave no answer: %s", w, amc_flow_cmd_name(c), ae.msg);
		cJSON_Delete(out->decided_result);
		fp_decide(out, 0, amc_sb_detach(&sb), NULL);
	} else if (!out->decided_ok) {
		/* the judge's words, after the command's FILE:LINE */
		amc_sb_printf(&sb, "%s: %s: %s", w, amc_flow_cmd_name(c),
			      out->decided_error ? out->decided_error : "the model said no");
		free(out->decided_error);
		out->decided_error = amc_sb_detach(&sb);
	} else if (extract) {
		/* the rest of the flow sees it as ${NAME} and in scripts, as Maestro's outputVariable */
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(out->decided_result, "text");
		amc_flow_interp_push(&fp->in, c->direction, cJSON_IsString(t) ? t->valuestring : "");
	}
	amc_sb_free(&sb);
	free(w);
	free(prompt);
	return FP_ACT;
}

/* One command: what its row plans (flow_cmd_def.h). */
int fp_plan_cmd(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	fp->emitted_final = 1;
	fp->emitted_skip = 0;
	if (!c->def || !c->def->plan)
		return refused(fp, c, "not available on this device (amc flow check lists what each device can do)", e);
	return c->def->plan(fp, c, ctx, out, e);
}

/* ---- the commands with no file of their own ---- */

int fp_plan_block(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	int rc = fp_enter_block(fp, c, ctx, out, e);
	return rc < 0 ? FP_FAIL : rc;
}

int fp_plan_clear_keychain(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			   amc_err *e)
{
	(void)ctx;
	(void)e;
	return decided_text(fp, c, out, "flow", 1, "note", "Android has no keychain: nothing to clear", NULL);
}

int fp_plan_input_text(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
		       amc_err *e)
{
	(void)ctx;
	char *v = NULL;
	if (fp_interp(fp, c, c->text, &v, e) != 0)
		return FP_FAIL;
	if (!*v) { /* InputTextCommand(""): Maestro types nothing */
		free(v);
		return decided_text(fp, c, out, "type_text", 1, "note", "an empty text: nothing to type", NULL);
	}
	int rc = type_step(fp, c, out, v);
	free(v);
	return rc;
}

int fp_plan_input_random(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			 amc_err *e)
{
	(void)ctx;
	(void)e;
	char *v = random_text(fp, c->direction ? c->direction : "TEXT", c->number > 0 ? c->number : 8);
	int rc = type_step(fp, c, out, v);
	free(v);
	return rc;
}

int fp_plan_paste(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)e;
	if (!fp->in.copied || !*fp->in.copied)
		return decided_text(fp, c, out, "type_text", 0, NULL, NULL,
				    fp_not_found(fp, c, &(amc_selector){ 0 }, ctx,
						 "nothing was copied (copyTextFrom or setClipboard first);"));
	return type_step(fp, c, out, fp->in.copied);
}

int fp_plan_erase(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	(void)e;
	if (c->number <= 0)
		return decided_text(fp, c, out, "press_key", 1, "erased", "0", NULL);
	fp_begin(fp, c, "press_key", out);
	cJSON_AddStringToObject(out->args, "key", "delete");
	cJSON_AddNumberToObject(out->args, "times", c->number);
	return FP_ACT;
}

static int key_step(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *key)
{
	fp_begin(fp, c, "press_key", out);
	cJSON_AddStringToObject(out->args, "key", key);
	return FP_ACT;
}

int fp_plan_press_key(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	(void)e;
	return key_step(fp, c, out, c->text ? c->text : "enter");
}

int fp_plan_back(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)ctx;
	(void)e;
	return key_step(fp, c, out, "back");
}

int fp_plan_hide_keyboard(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			  amc_err *e)
{
	(void)ctx;
	(void)e;
	return key_step(fp, c, out, "hide_keyboard");
}

int fp_plan_scroll(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	(void)e;
	fp_begin(fp, c, "swipe", out);
	fp_swipe_dir(ctx, out, "UP", SWIPE_MS);
	return FP_ACT;
}

int fp_plan_swipe(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	int ms = c->number > 0 ? c->number : SWIPE_MS, w, h;
	fp_screen_size(ctx, &w, &h);
	if (c->sel.text || c->sel.id) { /* from: an element, in a direction */
		amc_selector s;
		int i = fp_find_now(fp, c, &c->sel, ctx, &s, e);
		if (i == -2 || (i < 0 && ctx && ctx->waited_ms < fp->wait_ms)) {
			amc_selector_clear(&s);
			return i == -2 ? FP_FAIL : FP_REOBSERVE;
		}
		if (i < 0) {
			fp_begin(fp, c, "swipe", out);
			fp_decide(out, 0, fp_not_found(fp, c, &s, ctx, "no element matches"), NULL);
			amc_selector_clear(&s);
			return FP_ACT;
		}
		amc_selector_clear(&s);
		const amc_bounds *b = &fp_obs_tree(ctx)->nodes[i].bounds;
		int x = (b->x1 + b->x2) / 2, y = (b->y1 + b->y2) / 2, dx = 0, dy = 0;
		if (!strcmp(c->direction, "UP") || !strcmp(c->direction, "DOWN"))
			dy = (c->direction[0] == 'U' ? -1 : 1) * h * 40 / 100;
		else
			dx = (c->direction[0] == 'L' ? -1 : 1) * w * 40 / 100;
		fp_begin(fp, c, "swipe", out);
		fp_swipe_args(out, x, y, fp_to_px(x + dx, 0, w), fp_to_px(y + dy, 0, h), ms);
	} else if (c->direction) {
		fp_begin(fp, c, "swipe", out);
		fp_swipe_dir(ctx, out, c->direction, ms);
	} else {
		fp_begin(fp, c, "swipe", out);
		fp_swipe_args(out, fp_to_px(c->sx, c->percent, w), fp_to_px(c->sy, c->percent, h),
			      fp_to_px(c->ex, c->percent, w), fp_to_px(c->ey, c->percent, h), ms);
	}
	return FP_ACT;
}

int fp_plan_wait_anim(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
		      amc_err *e)
{
	(void)ctx;
	(void)e;
	fp_begin(fp, c, "wait", out);
	cJSON_AddNumberToObject(out->args, "ms", c->number < ANIMATION_WAIT_MS ? c->number : ANIMATION_WAIT_MS);
	return FP_ACT;
}

/* ---- entering a block (runFlow, repeat, retry) ---- */

/* env: of a command, interpolated where the command is, pushed for its block. */
static int push_env(flow_planner *fp, const amc_flow_cmd *c, amc_err *e)
{
	char *where = fp_where(fp, c);
	/* all values first, then push: one value does not see its sibling */
	char **vals = amc_xcalloc(c->nenv ? c->nenv : 1, sizeof *vals);
	int rc = 0;
	for (size_t i = 0; i < c->nenv && rc == 0; i++)
		rc = amc_flow_interp_str(&fp->in, c->env[i].value, where, &vals[i], e);
	for (size_t i = 0; i < c->nenv; i++) {
		if (rc == 0)
			amc_flow_interp_push(&fp->in, c->env[i].name, vals[i]);
		free(vals[i]);
	}
	free(vals);
	free(where);
	return rc;
}

/* A count written as ${...}: its value now. */
static int dyn_count(flow_planner *fp, const amc_flow_cmd *c, int *out, amc_err *e)
{
	if (!c->text)
		return 0;
	char *where = fp_where(fp, c), *v = NULL;
	int rc = amc_flow_interp_str(&fp->in, c->text, where, &v, e);
	if (rc == 0) {
		char *end;
		long n = strtol(v, &end, 10);
		if (!*v || *end || n < 0 || n > 100000)
			rc = amc_err_set(e, AMC_EUSAGE, "%s: %s: the count must be a whole number, got '%.40s'", where,
					 amc_flow_cmd_name(c), v);
		else
			*out = (int)n;
	}
	free(v);
	free(where);
	return rc;
}

/* A skipped runFlow/repeat is a step of its own, so the timeline shows why. */
static void skipped_step(flow_planner *fp, const amc_flow_cmd *c, amc_action *out, const char *why)
{
	fp_begin(fp, c, "flow", out);
	amc_sb note;
	amc_sb_init(&note);
	amc_sb_printf(&note, "skipped: %s", why);
	fp_decide_skip(out, amc_sb_str(&note), why);
	amc_sb_free(&note);
}

int fp_enter_block(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	fp_frame *cur = fp_top(fp);
	if (c->op == AMC_FLOW_RUN_FLOW) {
		if (c->cond.visible || c->cond.not_visible || c->cond.is_true || c->cond.platform) {
			int h = fp_cond_holds(fp, c, &c->cond, ctx, e);
			if (h < 0)
				return -1;
			if (!h) {
				skipped_step(fp, c, out, "its when: condition is false");
				return FP_ACT;
			}
		}
		if (c->file && !c->sub) {
			char *w = fp_where(fp, c), *f = amc_sanitize_dup(c->file);
			amc_err_set(e, AMC_EUSAGE, "%s: runFlow: sub-flow '%s' was not loaded (resolve the flow first)", w, f);
			free(w);
			free(f);
			return -1;
		}
	}
	fp_frame nf;
	memset(&nf, 0, sizeof nf);
	nf.owner = c;
	nf.file = cur->file;
	nf.mark = amc_flow_interp_mark(&fp->in);
	if (c->op == AMC_FLOW_REPEAT) {
		nf.kind = FR_REPEAT;
		nf.times = c->number ? c->times : -1;
		if (dyn_count(fp, c, &nf.times, e) != 0)
			return -1;
		nf.cmds = c->body, nf.n = c->nbody;
		nf.iter = -1; /* the first round starts at the end of "round -1" */
		nf.pos = nf.n;
	} else if (c->op == AMC_FLOW_RETRY) {
		nf.kind = FR_RETRY;
		nf.times = c->times;
		if (dyn_count(fp, c, &nf.times, e) != 0)
			return -1;
		if (nf.times > 3)
			nf.times = 3;
		if (c->sub) {
			nf.file = c->sub;
			nf.cmds = c->sub->cmds, nf.n = c->sub->count;
		} else {
			nf.cmds = c->body, nf.n = c->nbody;
		}
	} else if (c->sub) {
		nf.kind = FR_FILE;
		nf.file = c->sub;
		nf.phase = PH_START;
	} else {
		nf.kind = FR_BLOCK;
		nf.cmds = c->body, nf.n = c->nbody;
	}
	if (push_env(fp, c, e) != 0)
		return -1;
	if (nf.file != cur->file && fp_push_defaults(fp, nf.file, e) != 0) {
		amc_flow_interp_pop(&fp->in, nf.mark);
		return -1;
	}
	fp_advance(fp); /* the parent goes on after the block */
	return fp_push_frame(fp, &nf, e) == 0 ? FP_NEXT : -1;
}

/* The top frame ran out of commands: a repeat starts its next round, a file
 * its next phase, anything else ends. */

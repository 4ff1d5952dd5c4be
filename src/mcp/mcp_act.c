/* mcp_act.c - observe, act and run_task: the tools that touch a device
 * (mcp_act.h). Near 800 lines since the result helpers moved here from
 * mcp_tools.c (which ended a circle) and the once-per-screen image came in;
 * the flow gate and run_task's check moved to mcp_check.c: run_task (its
 * job, progress and wait) is the seam to split along next. */
#include "mcp/mcp_act.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"
#include "image/png.h"
#include "launch/launch.h"
#include "mcp/mcp_check.h"
#include "mcp/registry.h"
#include "runtime/observe.h"
#include "runtime/run.h"
#include "runtime/safety.h"
#include "runtime/tools.h"
#include "storage/store.h"
#include "util/base64.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

/* PNG bytes as MCP image content; info (may be NULL) gets the image's size and
 * its scale (device pixels per image pixel) for a frame full_w px wide. */
static cJSON *png_content(const unsigned char *png, size_t len, int w, int h, int full_w, cJSON *info)
{
	if (info) {
		cJSON_AddNumberToObject(info, "width", w);
		cJSON_AddNumberToObject(info, "height", h);
		/* device pixels per image pixel: multiply image coordinates by it */
		cJSON_AddNumberToObject(info, "scale", w ? (double)full_w / w : 1.0);
	}
	char *b64 = amc_base64_encode(png, len);
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "type", "image");
	cJSON_AddStringToObject(j, "data", b64);
	cJSON_AddStringToObject(j, "mimeType", "image/png");
	free(b64);
	return j;
}

/* The image as MCP image content, its long edge at most AMC_MCP_IMAGE_EDGE
 * (docs/mcp.md: what models read well for their image tokens); `png` (may be
 * NULL) is the image's own PNG, sent as it is when the image already fits
 * (no re-encode). NULL on error. */
static cJSON *image_content(const amc_image *img, const unsigned char *png, size_t png_len, cJSON *info)
{
	amc_image small;
	amc_err e;
	int edge = img->w > img->h ? img->w : img->h;
	if (edge <= AMC_MCP_IMAGE_EDGE && png && png_len)
		return png_content(png, png_len, img->w, img->h, img->w, info);
	const amc_image *use = img;
	memset(&small, 0, sizeof small);
	if (edge > AMC_MCP_IMAGE_EDGE) {
		if (amc_image_scale_fit(img, AMC_MCP_IMAGE_EDGE, AMC_MCP_IMAGE_EDGE, &small, &e) != 0)
			return NULL;
		use = &small;
	}
	unsigned char *out = NULL;
	size_t len = 0;
	int rc = amc_png_encode(use, 6, &out, &len, &e);
	cJSON *j = rc == 0 ? png_content(out, len, use->w, use->h, img->w, info) : NULL;
	free(out);
	amc_image_free(&small);
	return j;
}

/* A stored screenshot (relative to home) as image content; NULL when none.
 * Only when the session holds no image of that screen (its task ended). */
static cJSON *image_file(const char *home, const char *rel, cJSON *info)
{
	if (!rel || !*rel)
		return NULL;
	char path[PATH_MAX];
	if (snprintf(path, sizeof path, "%s/%s", home, rel) >= (int)sizeof path)
		return NULL;
	char *bytes = NULL;
	size_t len = 0;
	amc_err e;
	int w, h;
	if (amc_read_file(path, AMC_PNG_MAX_BYTES, &bytes, &len, &e) != 0)
		return NULL;
	const unsigned char *png = (const unsigned char *)bytes;
	cJSON *j = NULL;
	amc_image img;
	if (amc_png_info(png, len, &w, &h, &e) == 0 && w <= AMC_MCP_IMAGE_EDGE && h <= AMC_MCP_IMAGE_EDGE)
		j = png_content(png, len, w, h, w, info); /* fits: the stored bytes travel as they are */
	else if (amc_png_decode(png, len, &img, &e) == 0) {
		j = image_content(&img, NULL, 0, info);
		amc_image_free(&img);
	}
	free(bytes);
	return j;
}

/* The screen the session's task will act on next, as the image its task
 * made when it captured it (no decode, no encode here); with `shot`, only
 * when that screen is stored as shot. NULL when there is none. */
static cJSON *session_image(amc_mcp_session *sess, const char *shot, cJSON *info)
{
	unsigned char *png;
	size_t len;
	int w, h, full_w;
	if (amc_mcp_session_image(sess, shot, &png, &len, &w, &h, &full_w) != 0)
		return NULL;
	cJSON *j = png_content(png, len, w, h, full_w, info);
	free(png);
	return j;
}

/* The Scene as short lines a model reads well: `id type [x1,y1,x2,y2] "text"`,
 * terminal-safe, cut at AMC_MCP_SCENE_TEXT_MAX. */
static void scene_text(const cJSON *scene, amc_sb *out)
{
	const cJSON *els = cJSON_GetObjectItemCaseSensitive(scene, "elements");
	amc_sb_printf(out, "screen %dx%d, %d elements (id type [x1,y1,x2,y2] \"text\" rid=resource-id):\n",
		      amc_json_int(scene, "width", 0), amc_json_int(scene, "height", 0), cJSON_GetArraySize(els));
	const cJSON *el;
	size_t start = out->len;
	cJSON_ArrayForEach(el, els) {
		if (out->len - start > AMC_MCP_SCENE_TEXT_MAX) {
			amc_sb_puts(out, "[... more elements left out; use task with a step for the whole scene]\n");
			break;
		}
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(el, "bounds");
		int v[4] = { 0 };
		for (int i = 0; i < 4; i++) {
			const cJSON *x = cJSON_GetArrayItem(b, i);
			v[i] = cJSON_IsNumber(x) ? x->valueint : 0;
		}
		const char *id = amc_json_str(el, "id"), *type = amc_json_str(el, "type"), *text = amc_json_str(el, "text");
		amc_sb_printf(out, "%s %s [%d,%d,%d,%d]", id ? id : "?", type ? type : "?", v[0], v[1], v[2], v[3]);
		if (text && *text) {
			amc_sb_puts(out, " \"");
			size_t n = strlen(text);
			amc_sanitize_line(text, n > 200 ? 200 : n, out);
			amc_sb_puts(out, "\"");
		}
		/* the resource id names an empty field ("name", "phone") */
		const char *rid = amc_json_str(el, "resource_id");
		if (rid && *rid) {
			size_t n = strlen(rid);
			amc_sb_puts(out, " rid=");
			amc_sanitize_line(rid, n > 120 ? 120 : n, out);
		}
		amc_sb_putc(out, '\n');
	}
}

static void add_safe_str(cJSON *j, const char *k, const char *v)
{
	char *s = amc_sanitize_dup(v ? v : "");
	cJSON_AddStringToObject(j, k, s);
	free(s);
}

static int device_arg(const amc_mcp_call *c, char *dev, size_t n, amc_err *e)
{
	const char *d = amc_json_str(c->args, "device");
	return amc_device_id_normalize(d ? d : amc_config_str(c->o->cfg, "device", "default"), dev,
				       n, e);
}

/* ---- observe ---- */

/* age_ms: how old the screen is (-1: not known); fresh: captured for this call. */
static cJSON *observe_result(const char *dev, cJSON *scene, cJSON *semantic, cJSON *image, cJSON *info,
			     const char *task, const char *note, long age_ms, int fresh)
{
	amc_sb t;
	amc_sb_init(&t);
	amc_sb_printf(&t, "%s", dev);
	if (task)
		amc_sb_printf(&t, " (held by this session's task %s)", task);
	amc_sb_puts(&t, ": ");
	scene_text(scene, &t);
	if (semantic) {
		char *s = cJSON_PrintUnformatted(semantic);
		amc_sb_printf(&t, "SemanticScene: %.8000s\n", s);
		free(s);
	}
	if (note)
		amc_sb_printf(&t, "%s\n", note);
	if (info) /* the model reads the image: say how its pixels map to act's */
		amc_sb_printf(&t, "screenshot %dx%d at scale %.4g: act's x,y = image x,y times %.4g (the Scene's bounds are "
			      "device pixels already)\n", amc_json_int(info, "width", 0), amc_json_int(info, "height", 0),
			      cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(info, "scale")),
			      cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(info, "scale")));
	cJSON *st = cJSON_CreateObject();
	amc_json_add_str(st, "device", dev);
	cJSON_AddItemToObject(st, "scene", scene);
	cJSON_AddItemToObject(st, "semantic", semantic ? semantic : cJSON_CreateNull());
	cJSON_AddItemToObject(st, "screenshot", info ? info : cJSON_CreateNull());
	if (task)
		amc_json_add_str(st, "task", task);
	else
		cJSON_AddNullToObject(st, "task");
	if (age_ms >= 0)
		cJSON_AddNumberToObject(st, "age_ms", (double)age_ms);
	else
		cJSON_AddNullToObject(st, "age_ms");
	cJSON_AddBoolToObject(st, "fresh", fresh);
	cJSON *r = amc_mcp_result(st, amc_sb_str(&t), 0);
	amc_sb_free(&t);
	if (image)
		cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(r, "content"), image);
	return r;
}

cJSON *amc_mcp_observe(const amc_mcp_call *c)
{
	const amc_mcp_opts *o = c->o;
	char dev[128];
	amc_err e;
	if (device_arg(c, dev, sizeof dev, &e) != 0)
		return amc_mcp_fail("%s", e.msg);
	const cJSON *im = cJSON_GetObjectItemCaseSensitive(c->args, "image");
	int want_image = !cJSON_IsFalse(im);
	int want_sem = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c->args, "semantic"));
	amc_mcp_session *sess = amc_mcp_reg_session(c->reg, dev, 0, &e);
	if (sess) {
		/* the device is this session's: the screen its task will act on,
		 * captured again unless it is fresher than AMC_MCP_FRESH_MS (a real
		 * phone changes without an act: a notification, a spinner, a toast) */
		cJSON *scene;
		char shot[512];
		long age = 0;
		int fresh = 0;
		if (amc_mcp_session_look(sess, AMC_MCP_FRESH_MS, &age, &fresh, &e) != 0 ||
		    amc_mcp_session_scene(sess, &scene, shot, sizeof shot, &e) != 0)
			return amc_mcp_fail("cannot read %s: %s", dev, e.msg);
		cJSON *info = want_image ? cJSON_CreateObject() : NULL;
		cJSON *img = want_image ? session_image(sess, NULL, info) : NULL;
		if (!img && want_image)
			img = image_file(o->home, shot, info);
		if (!img) {
			cJSON_Delete(info);
			info = NULL;
		}
		char note[200];
		if (!fresh)
			snprintf(note, sizeof note, "the screen as captured %ld ms ago (reused: fresher than %d ms)%s", age,
				 AMC_MCP_FRESH_MS, want_sem ? "; SemanticScene: only outside a session" : "");
		else
			snprintf(note, sizeof note, "the screen as captured now%s",
				 want_sem ? "; SemanticScene: only outside a session (it is in each step's record)" : "");
		return observe_result(dev, scene, NULL, img, info, amc_mcp_session_task(sess), note, age, fresh);
	}
	amc_device *d;
	if (amc_device_open(dev, o->home, o->cfg, &d, &e) != 0)
		return amc_mcp_fail("cannot open %s: %s (devices lists what is there)", dev, e.msg);
	amc_runner_opts ro;
	amc_runner_opts_from_config(&ro, o->cfg);
	amc_observe_opts oo = { ro.capture_retries, ro.ocr_policy };
	amc_observation obs;
	if (amc_observe(d, &oo, &obs, &e) != 0) {
		amc_device_close(d);
		return amc_mcp_fail("cannot observe %s: %s", dev, e.msg);
	}
	amc_device_close(d);
	/* every known secret value is masked in text and blacked out in pixels */
	amc_secrets *sec = NULL;
	amc_err se;
	if (amc_secrets_resolve(NULL, amc_config_str(o->cfg, "secrets", "file"), &sec, &se) != 0) {
		amc_observation_free(&obs);
		return amc_mcp_fail("%s", se.msg);
	}
	if (sec)
		amc_secrets_mask_observation(sec, &obs, NULL, 0);
	amc_secrets_free(sec);
	cJSON *semantic = NULL;
	const char *note = NULL;
	if (want_sem) {
		amc_enricher *en = NULL;
		if (amc_enricher_from_config(o->cfg, &en, &se) == 0 && en) {
			semantic = amc_enrich_scene(en, &obs.scene, NULL);
			if (!semantic)
				note = "SemanticScene: enrichment failed this time";
			amc_enricher_free(en);
		} else
			note = "SemanticScene: enrichment is off ([semantic] enrich = on turns it on)";
	}
	cJSON *info = want_image ? cJSON_CreateObject() : NULL;
	cJSON *img = want_image ? image_content(&obs.img, obs.png, obs.png_len, info) : NULL;
	if (!img) {
		cJSON_Delete(info);
		info = NULL;
	}
	cJSON *r = observe_result(dev, amc_scene_to_json(&obs.scene), semantic, img, info, NULL, note, 0, 1);
	amc_observation_free(&obs);
	return r;
}

/* ---- act ---- */

static int element_center(amc_mcp_session *sess, const char *id, int *x, int *y, amc_err *e)
{
	cJSON *scene;
	char shot[512];
	if (amc_mcp_session_scene(sess, &scene, shot, sizeof shot, e) != 0)
		return -1;
	const cJSON *el;
	int found = 0;
	cJSON_ArrayForEach(el, cJSON_GetObjectItemCaseSensitive(scene, "elements")) {
		const char *eid = amc_json_str(el, "id");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(el, "bounds");
		if (eid && !strcmp(eid, id) && cJSON_GetArraySize(b) == 4) {
			*x = (cJSON_GetArrayItem(b, 0)->valueint + cJSON_GetArrayItem(b, 2)->valueint) / 2;
			*y = (cJSON_GetArrayItem(b, 1)->valueint + cJSON_GetArrayItem(b, 3)->valueint) / 2;
			found = 1;
			break;
		}
	}
	cJSON_Delete(scene);
	if (!found) {
		char *s = amc_sanitize_dup(id);
		amc_err_set(e, AMC_EUSAGE, "no element '%.64s' on the current screen: observe again and use its ids", s);
		free(s);
		return -1;
	}
	return 0;
}

static const cJSON *arg(const amc_mcp_call *c, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(c->args, k);
}

/* act's names for registry arguments: a client gives x,y for every point
 * (swipe's first too) and app for an app id. */
static const struct {
	const char *reg, *mcp;
} ARG_NAMES[] = { { "x1", "x" }, { "y1", "y" }, { "app_id", "app" } };

const char *amc_mcp_act_arg(const char *registry_arg)
{
	for (size_t i = 0; i < sizeof ARG_NAMES / sizeof ARG_NAMES[0]; i++)
		if (!strcmp(ARG_NAMES[i].reg, registry_arg))
			return ARG_NAMES[i].mcp;
	return registry_arg;
}

/* "x, y and x2" - a schema's required names as act calls them. */
static void required_words(const cJSON *req, amc_sb *out)
{
	int n = cJSON_GetArraySize(req), i = 0;
	const cJSON *r;
	cJSON_ArrayForEach(r, req) {
		amc_sb_printf(out, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", amc_mcp_act_arg(r->valuestring));
		i++;
	}
}

void amc_mcp_act_schema(cJSON *act_tool)
{
	cJSON *props = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(act_tool, "inputSchema"), "properties");
	cJSON *action = cJSON_GetObjectItemCaseSensitive(props, "action");
	cJSON *en = cJSON_AddArrayToObject(action, "enum");
	amc_sb d;
	amc_sb_init(&d);
	/* under 400 bytes: the arguments' names say enough, the summaries would double it */
	amc_sb_puts(&d, "A recorded step, and the new screen. "
			"x,y are device px: image px times observe's scale.");
	size_t n;
	const amc_tool *all = amc_tools_all(&n);
	for (size_t i = 0; i < n; i++) {
		if (!amc_tools_is_action(&all[i]))
			continue;
		cJSON_AddItemToArray(en, cJSON_CreateString(all[i].name));
		cJSON *schema = amc_tools_schema(&all[i]);
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(schema, "properties");
		amc_sb_printf(&d, " %s%s", all[i].name, p && p->child ? "(" : ""); /* list_apps: no () */
		if (all[i].targets) {
			amc_sb_puts(&d, "element|");
			if (!cJSON_GetObjectItemCaseSensitive(props, "element"))
				cJSON_AddItemToObject(props, "element", cJSON_Parse("{\"type\":\"string\",\"description\":"
										    "\"a Scene element id: acts on its centre\"}"));
		}
		int first = 1, any = p && p->child;
		cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(schema, "properties")) {
			const char *name = amc_mcp_act_arg(p->string);
			amc_sb_printf(&d, "%s%s", first ? "" : ",", name);
			first = 0;
			if (!cJSON_GetObjectItemCaseSensitive(props, name))
				cJSON_AddItemToObject(props, name, cJSON_Duplicate(p, 1));
		}
		amc_sb_puts(&d, any ? ")" : "");
		cJSON_Delete(schema);
	}
	cJSON_AddItemToArray(en, cJSON_CreateString("finish"));
	/* {{secret:NAME}} is said by text's own description (kept under 400 bytes) */
	amc_sb_puts(&d, " finish(success,summary,answer) ends it. Irreversible taps and clear_app ask a person.");
	cJSON *text = cJSON_GetObjectItemCaseSensitive(props, "text");
	if (text && !cJSON_GetObjectItemCaseSensitive(text, "description"))
		cJSON_AddStringToObject(text, "description", "may hold {{secret:NAME}}");
	cJSON_ReplaceItemInObjectCaseSensitive(act_tool, "description", cJSON_CreateString(d.buf));
	amc_sb_free(&d);
}

/* The registry tool and its arguments for the act's action: each argument
 * of the tool's row under act's name; element (a Scene id) for x,y where the
 * row targets. */
static int build_action(const amc_mcp_call *c, amc_mcp_session *sess, const char **tool, cJSON **out, amc_err *e)
{
	const char *a = amc_json_str(c->args, "action");
	const amc_tool *t = amc_tools_find(a);
	cJSON *j = cJSON_CreateObject();
	*out = j;
	if (!amc_tools_is_action(t))
		return amc_err_set(e, AMC_EUSAGE, "unknown action (see act's action enum)");
	*tool = t->name;
	const char *el = amc_json_str(c->args, "element");
	if (t->targets && el) {
		int px, py;
		if (element_center(sess, el, &px, &py, e) != 0)
			return -1;
		cJSON_AddNumberToObject(j, "x", px);
		cJSON_AddNumberToObject(j, "y", py);
	}
	cJSON *schema = amc_tools_schema(t);
	const cJSON *p;
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(schema, "properties")) {
		const cJSON *v = arg(c, amc_mcp_act_arg(p->string));
		if (v && !cJSON_GetObjectItemCaseSensitive(j, p->string))
			cJSON_AddItemToObject(j, p->string, cJSON_Duplicate(v, 1));
	}
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(schema, "required");
	int missing = 0;
	cJSON_ArrayForEach(p, req) missing |= !cJSON_GetObjectItemCaseSensitive(j, p->valuestring);
	if (missing) {
		amc_sb m;
		amc_sb_init(&m);
		amc_sb_printf(&m, "%s needs %s", a, t->targets ? "element (a Scene id) or " : "");
		required_words(req, &m);
		amc_err_set(e, AMC_EUSAGE, "%s", m.buf);
		amc_sb_free(&m);
	}
	cJSON_Delete(schema);
	return missing ? -1 : 0;
}

/* A refused step's error as the model should read it: the runner's text is
 * written for amc's own planner (finish, ask_user); a client gets what
 * happened and what it can do (the operator's words, server.c op_confirm). */
static void refusal_text(amc_ext_answer *ans)
{
	if (strcmp(ans->status, "refused"))
		return;
	const char *word = amc_json_str(ans->result, "matched"), *why = amc_json_str(ans->result, "why");
	snprintf(ans->error, sizeof ans->error, "the action looks irreversible ('%.60s') and needs a person's yes: %s",
		 word ? word : "?", why && *why ? why : "nobody could be asked. Restart the server as `amc mcp --yes` to "
		 "allow such actions, or let your user do it");
}

/* A failure to take a device: when another task holds it, say which (its
 * goal, planner, since when) and what the model can do, rather than the
 * lock's bare words. */
static cJSON *fail_take(const char *home, const char *verb, const char *dev, const amc_err *why)
{
	const char *msg = why->msg;
	char id[AMC_ID_SIZE] = "";
	/* who holds it comes from the device's lock, not from the error's words */
	if (why->code == AMC_EENV)
		amc_device_holder(home, dev, id, sizeof id);
	amc_store *store = NULL;
	amc_task_row t;
	amc_err e;
	if (!id[0] || amc_store_open(home, &store, &e) != 0 || amc_store_get_task(store, id, &t, &e) != 0) {
		amc_store_close(store);
		return amc_mcp_fail("cannot %s %s: %s", verb, dev, msg);
	}
	amc_store_close(store);
	char *goal = amc_sanitize_dup(t.goal ? t.goal : t.flow_name ? t.flow_name : t.flow_path ? t.flow_path : "");
	cJSON *r = amc_mcp_fail("cannot %s %s: the device is held by another task, %s (%s \"%.200s\", planner %s, "
				"process %ld), and one task at a time holds a device. Call task with id %s to follow it, "
				"retry once it has ended, or use another device (devices lists them with the task holding "
				"each); only whoever runs it can cancel it (amc's TUI, or its own MCP server)",
				verb, dev, t.id, t.goal ? "goal" : "flow", goal, t.planner ? t.planner : "?", t.owner_pid, t.id);
	free(goal);
	amc_task_row_free(&t);
	return r;
}

/* act {action: "finish", success?, summary?, answer?}: the client ends its
 * session's task itself, saying whether the goal was reached and, for a
 * question, the answer (stored as the task's answer, which checks read). */
static cJSON *act_finish(const amc_mcp_call *c, amc_mcp_session *sess, const char *dev)
{
	const cJSON *succ = arg(c, "success");
	const char *sum = amc_json_str(c->args, "summary"), *ans = amc_json_str(c->args, "answer");
	if ((succ && !cJSON_IsBool(succ)) || (sum && strlen(sum) > 2000) || (ans && strlen(ans) > 2000))
		return amc_mcp_fail("finish takes success (true or false), summary and answer (texts up to 2000 bytes)");
	amc_mcp_session_finish_as(sess, !succ || cJSON_IsTrue(succ), sum, ans && *ans ? ans : NULL);
	amc_task_outcome out;
	char task[64];
	if (amc_mcp_reg_session_close_out(c->reg, dev, AMC_MCP_END_CLIENT, &out, task, sizeof task) != 0)
		return amc_mcp_fail("no session holds %s any more", dev);
	cJSON *st = cJSON_CreateObject();
	amc_json_add_str(st, "task", task);
	amc_json_add_str(st, "status", out.status);
	/* step: the last step of the ended task, so the result keeps act's schema */
	cJSON_AddNumberToObject(st, "step", out.steps);
	cJSON_AddNumberToObject(st, "steps", out.steps);
	amc_sb t;
	amc_sb_init(&t);
	amc_sb_printf(&t, "task %s %s after %d steps", task, out.status, out.steps);
	cJSON *r = amc_mcp_result(st, amc_sb_str(&t), 0);
	amc_sb_free(&t);
	return r;
}

cJSON *amc_mcp_act(const amc_mcp_call *c)
{
	const amc_mcp_opts *o = c->o;
	char dev[128];
	amc_err e;
	if (device_arg(c, dev, sizeof dev, &e) != 0)
		return amc_mcp_fail("%s", e.msg);
	const char *an = amc_json_str(c->args, "action");
	int finish = an && !strcmp(an, "finish");
	/* finish never starts a session: a retried finish would leave a 0-step task */
	amc_mcp_session *sess = amc_mcp_reg_session(c->reg, dev, !finish, &e);
	if (!sess && finish)
		return amc_mcp_fail("no session holds %s: nothing to finish (the task may have ended already)", dev);
	if (!sess)
		return fail_take(o->home, "act on", dev, &e);
	if (finish)
		return act_finish(c, sess, dev);
	const char *reason = amc_json_str(c->args, "reason");
	if (reason && strlen(reason) > 2000) /* bounded in storage as in the schema */
		return amc_mcp_fail("reason is longer than 2000 bytes; say why in a sentence or two");
	const char *tool = NULL;
	cJSON *args;
	if (build_action(c, sess, &tool, &args, &e) != 0) {
		cJSON_Delete(args);
		return amc_mcp_fail("%s", e.msg);
	}
	amc_ext_answer ans;
	int rc = amc_mcp_session_act(sess, tool, args, reason, c->cancel, &ans, &e);
	cJSON_Delete(args);
	amc_mcp_reg_touch(c->reg, dev);
	if (rc != 0)
		return amc_mcp_fail("the action did not run: %s", e.msg);
	cJSON *scene = NULL;
	char shot[512];
	amc_err se;
	int have_scene = amc_mcp_session_scene(sess, &scene, shot, sizeof shot, &se) == 0;
	int ok = !strcmp(ans.status, "ok");
	refusal_text(&ans);
	amc_sb t;
	amc_sb_init(&t);
	amc_sb_printf(&t, "step %d of task %s: %s", ans.step, amc_mcp_session_task(sess), ans.status);
	if (!ok) {
		amc_sb_puts(&t, ": ");
		amc_sanitize_line(ans.error, strlen(ans.error), &t);
	}
	/* what the action returned (list_apps' ids, install_app's file), bounded */
	char *res = ans.result && cJSON_GetArraySize(ans.result) ? cJSON_PrintUnformatted(ans.result) : NULL;
	if (res) {
		size_t n = strlen(res);
		amc_sb_puts(&t, "\nresult: ");
		amc_sanitize_line(res, n > AMC_MCP_ACT_RESULT_TEXT ? AMC_MCP_ACT_RESULT_TEXT : n, &t);
		if (n > AMC_MCP_ACT_RESULT_TEXT)
			amc_sb_puts(&t, " [... the whole result is in structuredContent]");
	}
	free(res);
	amc_sb_puts(&t, "\nnow: ");
	if (have_scene)
		scene_text(scene, &t);
	else
		amc_sb_printf(&t, "(the screen could not be read: %s)\n", se.msg);
	cJSON *st = cJSON_CreateObject();
	amc_json_add_str(st, "task", amc_mcp_session_task(sess));
	cJSON_AddNumberToObject(st, "step", ans.step);
	amc_json_add_str(st, "status", ans.status);
	if (ok)
		cJSON_AddNullToObject(st, "error");
	else
		add_safe_str(st, "error", ans.error);
	cJSON_AddItemToObject(st, "result", ans.result ? cJSON_Duplicate(ans.result, 1) : cJSON_CreateNull());
	cJSON_AddItemToObject(st, "scene", scene ? scene : cJSON_CreateNull());
	cJSON *r = amc_mcp_result(st, amc_sb_str(&t), !ok);
	amc_sb_free(&t);
	cJSON *img = have_scene ? session_image(sess, ans.screenshot, NULL) : NULL;
	if (!img)
		img = image_file(o->home, ans.screenshot, NULL);
	if (img)
		cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(r, "content"), img);
	amc_ext_answer_clear(&ans);
	return r;
}

/* ---- run_task ---- */

typedef struct run_job {
	amc_mcp_reg *reg;
	/* the call's transport, for progress while it waits */
	void (*progress)(const amc_mcp_call *c, double progress, double total, const char *message);
	void *transport;
	amc_mcp_run *run;
	amc_launch ln;
	amc_runner_opts ro;
	cJSON *token;        /* progress token while the call waits; NULL: none */
	char home[PATH_MAX];
	const amc_config *cfg;
	int total;
} run_job;

static void on_event(const amc_event *ev, void *ud)
{
	run_job *j = ud;
	if (ev->type != AMC_EV_STEP_FINISHED || !j->token || !ev->task_id || strcmp(ev->task_id, j->ln.task->id))
		return;
	char msg[300];
	snprintf(msg, sizeof msg, "step %d %s: %s", ev->step, ev->tool ? ev->tool : "", ev->status ? ev->status : "");
	amc_mcp_call c = { .reg = j->reg, .progress_token = j->token, .transport = j->transport };
	if (j->progress)
		j->progress(&c, ev->step, j->total, msg);
}

static void *run_main(void *arg)
{
	run_job *j = arg;
	amc_bus *bus = amc_bus_new();
	amc_bus_subscribe(bus, on_event, j);
	amc_launch_ctx c;
	amc_launch_ctx_init(&c, j->home, j->cfg);
	c.bus = bus;
	c.cancel = amc_mcp_run_cancel(j->run);
	c.opts = &j->ro;
	amc_task_outcome out;
	amc_err e;
	amc_launch_run(&j->ln, &c, &out, &e); /* a task that could not start: out says failed, and why */
	amc_bus_free(bus);
	amc_mcp_reg_run_done(j->reg, j->run, &out);
	amc_launch_free(&j->ln);
	cJSON_Delete(j->token);
	free(j);
	return NULL;
}

/* A flow from a client is the client's action: its irreversible-looking taps
 * go through the same gate as act's. A run's steps have nobody to ask, so
 * such a flow is refused before it starts, naming its first such line (issue
 * 30; amc_mcp_flow_gate, mcp_check.c); `amc mcp --yes` lets it run. Bundled
 * flows and flows a person runs from the CLI keep their own rules. */

cJSON *amc_mcp_run_task(const amc_mcp_call *c)
{
	const amc_mcp_opts *o = c->o;
	char dev[128];
	amc_err e;
	if (device_arg(c, dev, sizeof dev, &e) != 0)
		return amc_mcp_fail("%s", e.msg);
	const char *goal = amc_json_str(c->args, "goal"), *flow = amc_json_str(c->args, "flow");
	if (!!goal == !!flow)
		return amc_mcp_fail("run_task needs exactly one of goal (words) or flow (a path or YAML text)");
	/* check_only: `amc flow check` of the flow; no task, no device taken */
	if (cJSON_IsTrue(arg(c, "check_only")))
		return flow ? amc_mcp_check_flow(c, dev, flow) : amc_mcp_fail("check_only checks a flow, not a goal");
	const cJSON *ms = arg(c, "max_steps");
	int wait = cJSON_IsTrue(arg(c, "wait"));
	/* a run is a task of its own: this session's task on the device ends first */
	amc_mcp_reg_session_close(c->reg, dev, AMC_MCP_END_CLIENT);
	/* a device another task holds is refused now, naming that task (as a TUI
	 * launch is), rather than by a task that fails at its start */
	amc_lock *probe = NULL;
	if (amc_device_lock(o->home, dev, NULL, &probe, &e) != 0)
		return fail_take(o->home, "run a task on", dev, &e);
	amc_device_unlock(probe);
	if (flow && !o->assume_yes) {
		int text = amc_mcp_flow_is_text(flow);
		char *body = NULL;
		size_t blen = 0;
		amc_err re;
		if (!text && amc_read_file(flow, 1 << 20, &body, &blen, &re) != 0)
			body = NULL; /* launch reports a flow it cannot read */
		int g = (text || body) ? amc_mcp_flow_gate(text ? flow : body, text ? "the flow text you sent" : flow, NULL, &e)
				       : 0;
		free(body);
		if (g != 0)
			return amc_mcp_fail("%s", e.msg);
	}
	amc_launch_req req;
	amc_launch_req_init(&req);
	req.device = dev;
	req.max_steps = ms ? ms->valueint : 0;
	amc_launch_bundle b;
	char cwd[PATH_MAX];
	if (goal)
		req.goal = goal;
	else if (amc_mcp_flow_is_text(flow)) {
		/* YAML text: relative names in it are taken from the server's folder */
		memset(&b, 0, sizeof b);
		b.flow = flow;
		b.base = getcwd(cwd, sizeof cwd) ? cwd : "/";
		b.label = "the flow text you sent"; /* not a file of the server's folder */
		req.bundle = &b;
	} else
		req.flow_path = flow;
	/* A client's flow is nobody's yes: gated as `amc run --confirm` is, so
	 * what the text gate above cannot read (a tap by point or id, a word
	 * built by ${...}, a sub-flow's tap, clearState from a sub-flow) is
	 * refused at its step; --yes lets it all run. */
	req.confirm = flow && !o->assume_yes;
	run_job *j = amc_xcalloc(1, sizeof *j);
	amc_store *store = NULL;
	amc_err se;
	if (amc_store_open(o->home, &store, &se) != 0)
		store = NULL;
	int rc = amc_launch_prepare(o->cfg, store, &req, &j->ln, &e);
	amc_store_close(store);
	if (rc != 0) {
		free(j);
		return fail_take(o->home, "run a task on", dev, &e);
	}
	j->reg = c->reg;
	j->progress = c->progress;
	j->transport = c->transport;
	j->cfg = o->cfg;
	snprintf(j->home, sizeof j->home, "%s", o->home);
	amc_runner_opts_from_config(&j->ro, o->cfg);
	amc_launch_runner_opts(&j->ln, &j->ro);
	/* nobody at a terminal answers a run's confirmations: they are refused
	 * unless the server was started with --yes */
	j->ro.op = NULL;
	j->ro.assume_yes = o->assume_yes;
	j->ro.cancel_why = "cancelled by the MCP client"; /* cancel_task or notifications/cancelled */
	j->total = j->ln.task->max_steps > 0 ? j->ln.task->max_steps : j->ro.max_steps;
	j->token = wait && c->progress_token ? cJSON_Duplicate(c->progress_token, 1) : NULL;
	char task_id[AMC_ID_SIZE];
	snprintf(task_id, sizeof task_id, "%s", j->ln.task->id);
	j->run = amc_mcp_reg_run_add(c->reg, task_id);
	if (!j->run || amc_mcp_reg_run_spawn(c->reg, j->run, run_main, j) != 0) {
		amc_launch_free(&j->ln);
		cJSON_Delete(j->token);
		free(j);
		return amc_mcp_fail("too many tasks running in this MCP server; wait for one to end");
	}
	cJSON *st = cJSON_CreateObject();
	amc_json_add_str(st, "task", task_id);
	if (!wait) {
		amc_json_add_str(st, "status", AMC_ST_RUNNING);
		cJSON_AddNullToObject(st, "steps");
		cJSON_AddNullToObject(st, "summary");
		cJSON_AddNullToObject(st, "error");
		char text[300];
		snprintf(text, sizeof text, "task %s started on %s; follow it with task {id}, stop it with cancel_task",
			 task_id, dev);
		return amc_mcp_result(st, text, 0);
	}
	amc_task_outcome out;
	amc_mcp_reg_run_wait(c->reg, j->run, c->cancel, &out);
	amc_json_add_str(st, "status", out.status);
	cJSON_AddNumberToObject(st, "steps", out.steps);
	if (out.summary[0])
		add_safe_str(st, "summary", out.summary);
	else
		cJSON_AddNullToObject(st, "summary");
	if (out.error[0])
		add_safe_str(st, "error", out.error);
	else
		cJSON_AddNullToObject(st, "error");
	return amc_mcp_result(st, NULL, 0);
}

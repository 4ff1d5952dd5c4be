#include "runtime/tools.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/tools_media.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"

/* Argument readers: a missing or mistyped argument is the planner's error (usage). */
static int arg_int(const cJSON *args, const char *key, int def, int required, int *out, amc_err *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
	if (!v) {
		if (required)
			return amc_err_set(e, AMC_EUSAGE, "missing argument '%s'", key);
		*out = def;
		return 0;
	}
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < INT_MIN ||
	    v->valuedouble > INT_MAX || v->valuedouble != floor(v->valuedouble))
		return amc_err_set(e, AMC_EUSAGE, "argument '%s' must be a whole number", key);
	*out = (int)v->valuedouble;
	return 0;
}

static int arg_str(const cJSON *args, const char *key, const char **out, amc_err *e)
{
	const char *s = amc_json_str(args, key);
	if (!s)
		return amc_err_set(e, AMC_EUSAGE, "missing string argument '%s'", key);
	*out = s;
	return 0;
}

static int t_describe_screen(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	(void)args;
	(void)e;
	*res = amc_scene_to_json(&c->obs->scene);
	return 0;
}

/* describe_screen, untouched, plus the observation's SemanticScene
 * (computed once per observation by the runner when semantic.enrich is on;
 * null when off or when enrichment failed). */
static int t_describe_screen_semantic(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	cJSON *scene = NULL;
	if (t_describe_screen(c, args, &scene, e) != 0)
		return -1;
	cJSON *r = cJSON_CreateObject();
	cJSON_AddItemToObject(r, "scene", scene);
	cJSON_AddItemToObject(r, "semantic_scene", c->obs->semantic ? cJSON_Duplicate(c->obs->semantic, 1) : cJSON_CreateNull());
	*res = r;
	return 0;
}

static int t_get_ui_tree(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	(void)args;
	(void)e;
	*res = amc_uitree_to_json(&c->obs->tree);
	return 0;
}

static cJSON *point_result(int x, int y)
{
	cJSON *r = cJSON_CreateObject();
	cJSON_AddNumberToObject(r, "x", x);
	cJSON_AddNumberToObject(r, "y", y);
	return r;
}

/* For drivers with element operations (Appium): the element under x,y in the
 * observed tree - the last displayed node in document order (the topmost)
 * containing the point that has a resource id, else a text - and its index
 * among the nodes with the same id (or text). 0 when there is one. */
static int element_at(const amc_ui_tree *t, int x, int y, amc_element_ref *ref)
{
	int best = -1;
	for (size_t i = 0; t && i < t->count; i++) {
		const amc_ui_node *n = &t->nodes[i];
		if ((n->flags & AMC_NODE_DISPLAYED) && x >= n->bounds.x1 && x < n->bounds.x2 && y >= n->bounds.y1 &&
		    y < n->bounds.y2 && (n->resource_id[0] || n->text[0]))
			best = (int)i;
	}
	if (best < 0)
		return -1;
	const amc_ui_node *b = &t->nodes[best];
	memset(ref, 0, sizeof *ref);
	if (b->resource_id[0])
		ref->id = b->resource_id;
	else
		ref->text = b->text;
	for (int i = 0; i < best; i++)
		if (ref->id ? !strcmp(t->nodes[i].resource_id, ref->id) : !strcmp(t->nodes[i].text, ref->text))
			ref->index++;
	return 0;
}

static int t_tap(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	int x, y, count;
	if (arg_int(args, "x", 0, 1, &x, e) || arg_int(args, "y", 0, 1, &y, e) ||
	    arg_int(args, "count", 1, 0, &count, e))
		return -1;
	if (count < 1 || count > 2)
		return amc_err_set(e, AMC_EUSAGE, "tap 'count' must be 1 or 2 (a double tap)");
	amc_element_ref ref;
	if (c->dev->ops->tap_element && c->obs && element_at(&c->obs->tree, x, y, &ref) == 0) {
		for (int k = 0; k < count; k++)
			if (c->dev->ops->tap_element(c->dev, &ref, e) != 0)
				return -1;
		*res = point_result(x, y);
		cJSON *el = cJSON_AddObjectToObject(*res, "element");
		cJSON_AddStringToObject(el, ref.id ? "id" : "text", ref.id ? ref.id : ref.text);
		cJSON_AddNumberToObject(el, "index", ref.index);
		return 0;
	}
	/* a double tap is one gesture where the driver has one (doubleTapOn) */
	if (count == 2 && c->dev->ops->double_tap) {
		if (c->dev->ops->double_tap(c->dev, x, y, e) != 0)
			return -1;
	} else {
		for (int k = 0; k < count; k++)
			if (c->dev->ops->tap(c->dev, x, y, e) != 0)
				return -1;
	}
	*res = point_result(x, y);
	return 0;
}

static int t_long_press(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	int x, y, ms;
	if (arg_int(args, "x", 0, 1, &x, e) || arg_int(args, "y", 0, 1, &y, e) ||
	    arg_int(args, "ms", 800, 0, &ms, e))
		return -1;
	if (ms < 1 || ms > 60000)
		return amc_err_set(e, AMC_EUSAGE, "long_press 'ms' must be 1..60000");
	if (c->dev->ops->long_press(c->dev, x, y, ms, e) != 0)
		return -1;
	*res = point_result(x, y);
	return 0;
}

static int t_swipe(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	int x1, y1, x2, y2, ms;
	if (arg_int(args, "x1", 0, 1, &x1, e) || arg_int(args, "y1", 0, 1, &y1, e) ||
	    arg_int(args, "x2", 0, 1, &x2, e) || arg_int(args, "y2", 0, 1, &y2, e) ||
	    arg_int(args, "ms", 300, 0, &ms, e))
		return -1;
	if (ms < 1 || ms > 60000)
		return amc_err_set(e, AMC_EUSAGE, "swipe 'ms' must be 1..60000");
	if (c->dev->ops->swipe(c->dev, x1, y1, x2, y2, ms, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	return 0;
}

static int t_type_text(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *text = NULL;
	if (arg_str(args, "text", &text, e) != 0)
		return -1;
	const cJSON *sub = cJSON_GetObjectItemCaseSensitive(args, "submit");
	if (sub && !cJSON_IsBool(sub))
		return amc_err_set(e, AMC_EUSAGE, "type_text 'submit' must be true or false");
	if (c->dev->ops->type_text(c->dev, text, e) != 0)
		return -1;
	/* type-and-submit (a search box, a chat line): Enter after the text */
	if (cJSON_IsTrue(sub) && c->dev->ops->key(c->dev, AMC_KEY_ENTER, e) != 0)
		return -1;
	cJSON *r = cJSON_CreateObject();
	cJSON_AddNumberToObject(r, "bytes", (double)strlen(text));
	if (cJSON_IsTrue(sub))
		cJSON_AddTrueToObject(r, "submitted");
	*res = r;
	return 0;
}

static int t_press_key(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *name = NULL;
	amc_key k;
	int times;
	if (arg_str(args, "key", &name, e) != 0 || arg_int(args, "times", 1, 0, &times, e) != 0)
		return -1;
	if (times < 1 || times > 1000)
		return amc_err_set(e, AMC_EUSAGE, "press_key 'times' must be 1..1000");
	if (amc_key_parse(name, &k) != 0) {
		char *s = amc_sanitize_dup(name);
		amc_err_set(e, AMC_EUSAGE, "unknown key '%s' (back, home, enter, delete, tab, volume_up, ...)", s);
		free(s);
		return -1;
	}
	for (int i = 0; i < times; i++)
		if (c->dev->ops->key(c->dev, k, e) != 0)
			return -1;
	*res = cJSON_CreateObject();
	if (times > 1)
		cJSON_AddNumberToObject(*res, "times", times);
	return 0;
}

static int t_launch_app(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *app = NULL;
	if (arg_str(args, "app_id", &app, e) != 0)
		return -1;
	/* a flow's launchApp permissions, then its arguments (as JSON objects
	 * of texts): the driver's manage_app, which has them or says why not */
	const cJSON *perms = cJSON_GetObjectItemCaseSensitive(args, "permissions");
	const cJSON *largs = cJSON_GetObjectItemCaseSensitive(args, "arguments");
	for (int k = 0; k < 2; k++) {
		const cJSON *o = k ? largs : perms;
		if (!cJSON_IsObject(o))
			continue;
		if (!c->dev->ops->manage_app)
			return amc_err_set(e, AMC_EUSAGE, "%s devices cannot set an app's %s", c->dev->ops->kind,
					   k ? "launch arguments" : "permissions");
		char *txt = cJSON_PrintUnformatted(o);
		int rc = c->dev->ops->manage_app(c->dev, app, k ? AMC_APP_LAUNCH_ARGS : AMC_APP_PERMISSIONS, txt, e);
		free(txt);
		if (rc != 0)
			return -1;
	}
	if (!cJSON_IsObject(largs) && c->dev->ops->launch_app(c->dev, app, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	return 0;
}

static int t_manage_app(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *opname = NULL, *app = amc_json_str(args, "app_id"), *link = amc_json_str(args, "link");
	amc_app_op op;
	if (arg_str(args, "op", &opname, e) != 0)
		return -1;
	/* a flow's setPermissions (not in the agents' schema): launchApp's
	 * permissions without the launch */
	const cJSON *perms = cJSON_GetObjectItemCaseSensitive(args, "permissions");
	if (!strcmp(opname, "permissions") && app && cJSON_IsObject(perms)) {
		if (!c->dev->ops->manage_app)
			return amc_err_set(e, AMC_EUSAGE, "%s devices cannot set an app's permissions", c->dev->ops->kind);
		char *txt = cJSON_PrintUnformatted(perms);
		int rc = c->dev->ops->manage_app(c->dev, app, AMC_APP_PERMISSIONS, txt, e);
		free(txt);
		if (rc != 0)
			return -1;
		*res = cJSON_CreateObject();
		return 0;
	}
	if (amc_app_op_parse(opname, &op) != 0)
		return amc_err_set(e, AMC_EUSAGE, "manage_app 'op' must be clear_state, stop, kill or open_link");
	if (op == AMC_APP_OPEN_LINK ? !link : !app)
		return amc_err_set(e, AMC_EUSAGE, "manage_app %s needs '%s'", opname,
				   op == AMC_APP_OPEN_LINK ? "link" : "app_id");
	if (!c->dev->ops->manage_app)
		return amc_err_set(e, AMC_EUSAGE, "%s devices cannot %s apps", c->dev->ops->kind, opname);
	if (c->dev->ops->manage_app(c->dev, app, op, link, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	return 0;
}

static int t_set_device(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *name = NULL, *value = NULL;
	amc_dev_setting what;
	if (arg_str(args, "setting", &name, e) != 0 || arg_str(args, "value", &value, e) != 0)
		return -1;
	if (amc_dev_setting_parse(name, &what) != 0)
		return amc_err_set(e, AMC_EUSAGE, "set_device 'setting' must be orientation, airplane, location, "
				   "add_media or dark_mode");
	if (!c->dev->ops->set)
		return amc_err_set(e, AMC_EUSAGE, "%s devices cannot change their %s", c->dev->ops->kind, name);
	if (c->dev->ops->set(c->dev, what, value, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	return 0;
}

/* A setting's state (assertDarkMode, assertLightMode): with `expect`, a
 * step that fails when the device says otherwise. */
static int t_get_device(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *name = NULL, *expect = amc_json_str(args, "expect");
	amc_dev_setting what;
	char v[32] = "";
	if (arg_str(args, "setting", &name, e) != 0)
		return -1;
	if (amc_dev_setting_parse(name, &what) != 0)
		return amc_err_set(e, AMC_EUSAGE, "get_device 'setting' must be one set_device takes");
	if (!c->dev->ops->get)
		return amc_err_set(e, AMC_EUSAGE, "%s devices cannot report their %s", c->dev->ops->kind, name);
	if (c->dev->ops->get(c->dev, what, v, sizeof v, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	cJSON_AddStringToObject(*res, name, v);
	if (expect && strcmp(expect, v))
		return amc_err_set(e, AMC_EFAIL, "%s is %s, expected %.20s", name, v, expect);
	return 0;
}

static int t_wait(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	int ms;
	if (arg_int(args, "ms", 0, 1, &ms, e) != 0)
		return -1;
	if (ms < 0 || ms > 600000)
		return amc_err_set(e, AMC_EUSAGE, "wait 'ms' must be 0..600000");
	if (c->dev->ops->wait(c->dev, ms, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	return 0;
}

/* open_link and rotate: what a model or an MCP client may do of manage_app
 * and set_device (the rest of them, clearing data or faking a location, stays
 * with flows). A device that cannot does not offer the op and says so. */
static int t_open_link(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *link = NULL;
	if (arg_str(args, "link", &link, e) != 0)
		return -1;
	if (!c->dev->ops->manage_app)
		return amc_err_set(e, AMC_EUSAGE, "this device cannot open links");
	if (c->dev->ops->manage_app(c->dev, NULL, AMC_APP_OPEN_LINK, link, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	cJSON_AddStringToObject(*res, "opened", link);
	return 0;
}

static int t_rotate(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *o = NULL;
	if (arg_str(args, "orientation", &o, e) != 0)
		return -1;
	if (!c->dev->ops->set)
		return amc_err_set(e, AMC_EUSAGE, "this device cannot turn its screen");
	if (c->dev->ops->set(c->dev, AMC_SET_ORIENTATION, o, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	cJSON_AddStringToObject(*res, "orientation", o);
	return 0;
}

/* list_apps, install_app, stop_app and clear_app: app management for models
 * and MCP clients. clear_app erases data for good, so its row has `confirm`:
 * the runner asks a person every time. install_app asks nobody: it adds an
 * app or replaces one of the same id keeping its data (adb install -r, no
 * downgrade), which uninstalling undoes, and it takes only a package file
 * already on amc's host (docs/mcp.md says so). */
static int t_list_apps(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	(void)args;
	char *ids = NULL;
	if (!c->dev->ops->list_apps)
		return amc_err_set(e, AMC_EUSAGE, "%s devices cannot list their apps", c->dev->ops->kind);
	if (c->dev->ops->list_apps(c->dev, &ids, e) != 0)
		return -1;
	cJSON *r = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(r, "apps");
	int n = 0;
	for (char *p = ids, *nl; p && *p && n < AMC_APPS_MAX; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = '\0';
		if (*p) {
			char *s = amc_sanitize_dup(p); /* drivers check ids; terminal-safe all the same */
			cJSON_AddItemToArray(arr, cJSON_CreateString(s));
			free(s);
			n++;
		}
	}
	free(ids);
	*res = r;
	return 0;
}

/* A package path made safe to hand a driver: its real path, a regular
 * readable file of a known kind and size, no control bytes. */
static int install_path(const char *path, char *real, off_t *size, amc_err *e)
{
	struct stat st;
	for (const char *p = path; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return amc_err_set(e, AMC_EUSAGE, "install_app 'path' holds a control character");
	if (!*path || strlen(path) >= PATH_MAX || !realpath(path, real))
		return amc_err_set(e, AMC_EUSAGE, "install_app: no such file on amc's host (a path there, absolute or "
				   "from the folder amc runs in)");
	if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
		return amc_err_set(e, AMC_EUSAGE, "install_app 'path' is not a regular file");
	const char *dot = strrchr(real, '.');
	if (!dot || strchr(dot, '/') || (strcmp(dot, ".apk") && strcmp(dot, ".ipa") && strcmp(dot, ".zip")))
		return amc_err_set(e, AMC_EUSAGE, "install_app takes an .apk (Android), .ipa or .zip (iOS through Appium)");
	if (st.st_size <= 0 || st.st_size > AMC_INSTALL_MAX_BYTES)
		return amc_err_set(e, AMC_EUSAGE, "install_app: the file is empty or over 2 GiB");
	if (access(real, R_OK) != 0)
		return amc_err_set(e, AMC_EUSAGE, "install_app: the file cannot be read");
	*size = st.st_size;
	return 0;
}

static int t_install_app(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	const char *path = NULL;
	char real[PATH_MAX];
	off_t size = 0;
	if (arg_str(args, "path", &path, e) != 0 || install_path(path, real, &size, e) != 0)
		return -1;
	if (!c->dev->ops->manage_app)
		return amc_err_set(e, AMC_EUSAGE, "%s devices cannot install apps", c->dev->ops->kind);
	if (c->dev->ops->manage_app(c->dev, NULL, AMC_APP_INSTALL, real, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	cJSON_AddStringToObject(*res, "installed", real);
	cJSON_AddNumberToObject(*res, "bytes", (double)size);
	return 0;
}

/* stop_app and clear_app: manage_app's stop and clear_state under their own
 * names, so the gate knows clear_app by its row. */
static int app_op(const amc_tool_ctx *c, const cJSON *args, amc_app_op op, const char *done, cJSON **res, amc_err *e)
{
	const char *app = NULL;
	if (arg_str(args, "app_id", &app, e) != 0)
		return -1;
	if (!c->dev->ops->manage_app)
		return amc_err_set(e, AMC_EUSAGE, "%s devices cannot manage apps", c->dev->ops->kind);
	if (c->dev->ops->manage_app(c->dev, app, op, NULL, e) != 0)
		return -1;
	*res = cJSON_CreateObject();
	cJSON_AddStringToObject(*res, done, app);
	return 0;
}

static int t_stop_app(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	return app_op(c, args, AMC_APP_STOP, "stopped", res, e);
}

static int t_clear_app(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e)
{
	return app_op(c, args, AMC_APP_CLEAR_STATE, "cleared", res, e);
}

#define XY "\"x\":{\"type\":\"integer\",\"minimum\":0},\"y\":{\"type\":\"integer\",\"minimum\":0}"

static const amc_tool TOOLS[] = {
	{ "describe_screen", "the current screen as a Scene (elements with ids, types, bounds, text)",
	  "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}", 0, t_describe_screen, 0, 0, 0, 0 },
	{ "describe_screen_semantic", "describe_screen plus the SemanticScene {page, intents, widgets} (null when enrichment is off or failed)",
	  "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}", 0, t_describe_screen_semantic, 0, 0, 0, 0 },
	{ "get_ui_tree", "the current UI tree, normalized",
	  "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}", 0, t_get_ui_tree, 0, 0, 0, 0 },
	{ "screenshot", "capture the screen; name: keep it as a file of its own, cropped to crop [x1,y1,x2,y2]",
	  "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"crop\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"},\"minItems\":4,\"maxItems\":4}},\"additionalProperties\":false}", 0, amc_tool_screenshot, 0, 0, 0, 0 },
	{ "tap", "tap at x,y (pixels); count 2: a double tap",
	  "{\"type\":\"object\",\"properties\":{" XY ",\"count\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":2}},\"required\":[\"x\",\"y\"],\"additionalProperties\":false}", 1, t_tap, 0, 1, 0, 0 },
	{ "long_press", "press at x,y for ms milliseconds",
	  "{\"type\":\"object\",\"properties\":{" XY ",\"ms\":{\"type\":\"integer\"}},\"required\":[\"x\",\"y\"],\"additionalProperties\":false}", 1, t_long_press, 0, 1, 0, 0 },
	{ "swipe", "swipe from x1,y1 to x2,y2 over ms milliseconds",
	  "{\"type\":\"object\",\"properties\":{\"x1\":{\"type\":\"integer\"},\"y1\":{\"type\":\"integer\"},\"x2\":{\"type\":\"integer\"},\"y2\":{\"type\":\"integer\"},\"ms\":{\"type\":\"integer\"}},\"required\":[\"x1\",\"y1\",\"x2\",\"y2\"],\"additionalProperties\":false}", 1, t_swipe, 0, 0, 0, 0 },
	{ "type_text", "type text into the focused field; submit: press Enter after it",
	  "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"},\"submit\":{\"type\":\"boolean\"}},\"required\":[\"text\"],\"additionalProperties\":false}", 1, t_type_text, 0, 0, 0, 0 },
	{ "press_key", "press a key: back, home, enter, delete (backspace), ...",
	  "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"}},\"required\":[\"key\"],\"additionalProperties\":false}", 1, t_press_key, 0, 0, 0, 0 },
	{ "launch_app", "start an app by its id (package)",
	  "{\"type\":\"object\",\"properties\":{\"app_id\":{\"type\":\"string\"}},\"required\":[\"app_id\"],\"additionalProperties\":false}", 1, t_launch_app, 0, 0, 0, 0 },
	{ "manage_app", "clear an app's data, stop or kill it, or open a link",
	  "{\"type\":\"object\",\"properties\":{\"op\":{\"type\":\"string\",\"enum\":[\"clear_state\",\"stop\",\"kill\",\"open_link\"]},\"app_id\":{\"type\":\"string\"},\"link\":{\"type\":\"string\"}},\"required\":[\"op\"],\"additionalProperties\":false}", 1, t_manage_app, 1, 0, 0, 0 },
	{ "set_device", "change a device setting: orientation, airplane mode, location, or add a media file",
	  "{\"type\":\"object\",\"properties\":{\"setting\":{\"type\":\"string\",\"enum\":[\"orientation\",\"airplane\",\"location\",\"add_media\",\"dark_mode\"]},\"value\":{\"type\":\"string\"}},\"required\":[\"setting\",\"value\"],\"additionalProperties\":false}", 1, t_set_device, 1, 0, 0, 0 },
	{ "get_device", "read a device setting (dark_mode: on or off); expect: fail unless it is that",
	  "{\"type\":\"object\",\"properties\":{\"setting\":{\"type\":\"string\",\"enum\":[\"orientation\",\"airplane\",\"dark_mode\"]},\"expect\":{\"type\":\"string\"}},\"required\":[\"setting\"],\"additionalProperties\":false}", 0, t_get_device, 1, 0, 0, 0 },
	{ "record", "start or stop recording the screen; the stop keeps the recording as the task's file",
	  "{\"type\":\"object\",\"properties\":{\"op\":{\"type\":\"string\",\"enum\":[\"start\",\"stop\"]},\"name\":{\"type\":\"string\"}},\"required\":[\"op\"],\"additionalProperties\":false}", 0, amc_tool_record, 1, 0, 0, 0 },
	{ "assert_screenshot", "compare the screen (cropped to crop) with a reference PNG: at least threshold % of its pixels match",
	  "{\"type\":\"object\",\"properties\":{\"references\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"shot\":{\"type\":\"string\"},\"name\":{\"type\":\"string\"},\"threshold\":{\"type\":\"number\"},\"crop\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"},\"minItems\":4,\"maxItems\":4}},\"additionalProperties\":false}", 0, amc_tool_assert_screenshot, 1, 0, 0, 0 },
	{ "open_link", "open a link: a deep link or a URL",
	  "{\"type\":\"object\",\"properties\":{\"link\":{\"type\":\"string\",\"maxLength\":2048}},\"required\":[\"link\"],\"additionalProperties\":false}", 1, t_open_link, 0, 0, 0, 0 },
	{ "rotate", "turn the screen",
	  "{\"type\":\"object\",\"properties\":{\"orientation\":{\"type\":\"string\",\"enum\":[\"portrait\",\"landscape_left\",\"landscape_right\",\"upside_down\"]}},\"required\":[\"orientation\"],\"additionalProperties\":false}", 1, t_rotate, 0, 0, 0, 0 },
	{ "list_apps", "the ids of the installed apps",
	  "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}", 0, t_list_apps, 0, 0, 0, 1 },
	{ "install_app", "install a package file (.apk) from amc's host",
	  "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\",\"maxLength\":4096}},\"required\":[\"path\"],\"additionalProperties\":false}", 1, t_install_app, 0, 0, 0, 0 },
	{ "stop_app", "stop an app",
	  "{\"type\":\"object\",\"properties\":{\"app_id\":{\"type\":\"string\"}},\"required\":[\"app_id\"],\"additionalProperties\":false}", 1, t_stop_app, 0, 0, 0, 0 },
	{ "clear_app", "erase an app's data (a person confirms)",
	  "{\"type\":\"object\",\"properties\":{\"app_id\":{\"type\":\"string\"}},\"required\":[\"app_id\"],\"additionalProperties\":false}", 1, t_clear_app, 0, 0, 1, 0 },
	{ "wait", "let ms milliseconds pass",
	  "{\"type\":\"object\",\"properties\":{\"ms\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"ms\"],\"additionalProperties\":false}", 1, t_wait, 0, 0, 0, 0 },
};

const amc_tool *amc_tools_find(const char *name)
{
	for (size_t i = 0; i < sizeof TOOLS / sizeof TOOLS[0]; i++)
		if (!strcmp(TOOLS[i].name, name))
			return &TOOLS[i];
	return NULL;
}

const amc_tool *amc_tools_all(size_t *n)
{
	*n = sizeof TOOLS / sizeof TOOLS[0];
	return TOOLS;
}

int amc_tools_is_action(const amc_tool *t)
{
	return t && (t->acts || t->reads) && !t->flows_only;
}

cJSON *amc_tools_schema(const amc_tool *t)
{
	cJSON *s = cJSON_Parse(t->args_schema);
	cJSON *key = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(s, "properties"), "key");
	if (key && !cJSON_GetObjectItemCaseSensitive(key, "enum")) {
		cJSON *en = cJSON_AddArrayToObject(key, "enum");
		for (int k = 0; k < AMC_KEY_COUNT; k++)
			cJSON_AddItemToArray(en, cJSON_CreateString(amc_key_name((amc_key)k)));
	}
	return s;
}

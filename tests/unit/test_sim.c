/* test_sim.c - the simulated phone through its device vtable: pixels agree with
 * the UI tree, apps work end to end, state persists, dumps are uiautomator's
 * format, the sim is deterministic and faults are injected on request. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>

#include "tap.h"
#include "testutil.h"
#include "device/sim/sim.h"
#include "image/png.h"
#include "util/config.h"
#include "util/fsutil.h"

static const char *home;

typedef struct box {
	int x1, y1, x2, y2;
} box;

static amc_device *open_sim(const char *h, int index, const amc_config *cfg)
{
	amc_device *d = NULL;
	amc_err e;
	if (amc_sim_open(h, index, cfg, &d, &e) != 0) {
		diag("open sim:%d: %s", index, e.msg);
		return NULL;
	}
	return d;
}

static char *tree(amc_device *d)
{
	char *xml = NULL;
	size_t len;
	amc_err e;
	if (d->ops->ui_tree(d, &xml, &len, &e) != 0) {
		diag("ui_tree: %s", e.msg);
		return NULL;
	}
	return xml;
}

/* Bounds of the first node matching an XPath predicate, e.g. "@text='Wi-Fi'". */
static int find(amc_device *d, const char *pred, box *b)
{
	char *xml = tree(d);
	if (!xml)
		return 0;
	xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "dump.xml", "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	free(xml);
	if (!doc)
		return 0;
	char expr[512];
	snprintf(expr, sizeof expr, "//node[%s]", pred);
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr r = xmlXPathEvalExpression((const xmlChar *)expr, ctx);
	int found = 0;
	if (r && r->nodesetval && r->nodesetval->nodeNr > 0) {
		xmlChar *bs = xmlGetProp(r->nodesetval->nodeTab[0], (const xmlChar *)"bounds");
		if (bs && sscanf((const char *)bs, "[%d,%d][%d,%d]", &b->x1, &b->y1, &b->x2, &b->y2) == 4)
			found = 1;
		xmlFree(bs);
	}
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(ctx);
	xmlFreeDoc(doc);
	return found;
}

static int tap_node(amc_device *d, const char *pred)
{
	box b;
	amc_err e;
	if (!find(d, pred, &b)) {
		diag("no node [%s]", pred);
		return 0;
	}
	if (d->ops->tap(d, (b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2, &e) != 0) {
		diag("tap: %s", e.msg);
		return 0;
	}
	return d->ops->wait(d, 400, &e) == 0;
}

static cJSON *state(amc_device *d)
{
	char *s = NULL;
	amc_err e;
	if (amc_sim_state_json(d, &s, &e) != 0)
		return NULL;
	cJSON *j = cJSON_Parse(s);
	free(s);
	return j;
}

static const char *state_str(amc_device *d, const char *key, char *buf, size_t n)
{
	cJSON *j = state(d);
	const cJSON *v = j ? cJSON_GetObjectItem(j, key) : NULL;
	snprintf(buf, n, "%s", cJSON_IsString(v) ? v->valuestring : cJSON_IsBool(v) ? (cJSON_IsTrue(v) ? "true" : "false") : "?");
	cJSON_Delete(j);
	return buf;
}

static int has_contact(amc_device *d, const char *name)
{
	cJSON *j = state(d);
	int found = 0;
	const cJSON *c;
	cJSON_ArrayForEach(c, cJSON_GetObjectItem(j, "contacts")) {
		const cJSON *n = cJSON_GetObjectItem(c, "name");
		if (cJSON_IsString(n) && !strcmp(n->valuestring, name))
			found = 1;
	}
	cJSON_Delete(j);
	return found;
}

static int luminance(const amc_image *img, int x, int y)
{
	const unsigned char *p = img->px + ((size_t)y * img->w + x) * 4;
	return (p[0] * 299 + p[1] * 587 + p[2] * 114) / 1000;
}

static int dark_in(const amc_image *img, box b, int below)
{
	int n = 0;
	for (int y = b.y1; y < b.y2; y++)
		for (int x = b.x1; x < b.x2; x++)
			if (luminance(img, x, y) < below)
				n++;
	return n;
}

static int shot(amc_device *d, unsigned char **png, size_t *len)
{
	amc_err e;
	if (d->ops->screenshot(d, png, len, &e) != 0) {
		diag("screenshot: %s", e.msg);
		return 0;
	}
	return 1;
}

static void test_pixels_match_bounds(amc_device *d)
{
	amc_err e;
	amc_device_info info;
	ok(d->ops->info(d, &info, &e) == 0, "info");
	is_int(info.width, 1080, "default width");
	is_int(info.height, 2400, "default height");
	is_int(info.status_bar_px, 84, "status bar is 84 px");
	is_str(info.id, "sim:0", "info id");

	ok(d->ops->launch_app(d, "com.android.settings", &e) == 0, "launch settings");
	d->ops->wait(d, 400, &e);
	box t;
	ok(find(d, "@text='Wi-Fi' and @resource-id='android:id/title'", &t), "Wi-Fi title in the tree");
	amc_image img;
	ok(amc_sim_render(d, &img, &e) == 0, "render RGBA");
	int ink = dark_in(&img, t, 100);
	ok(ink > 100, "dark text pixels inside the Wi-Fi title's bounds (%d)", ink);
	/* The same row to the right of the title: background only. */
	box right = {t.x2 + 8, t.y1, 1080 - 40, t.y2};
	is_int(dark_in(&img, right, 200), 0, "no ink right of the title");
	/* And every dark pixel of the title's band lies within its bounds. */
	box band = {t.x1 - 20, t.y1, t.x1, t.y2};
	is_int(dark_in(&img, band, 100), 0, "no ink left of the title");
	amc_image_free(&img);

	char *dj = NULL;
	ok(amc_sim_drawn_text_json(d, &dj, &e) == 0, "drawn text json");
	cJSON *arr = cJSON_Parse(dj);
	int found = 0, clock_seen = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, arr) {
		const char *s = cJSON_GetObjectItem(it, "text")->valuestring;
		int x1 = cJSON_GetObjectItem(it, "x1")->valueint, y1 = cJSON_GetObjectItem(it, "y1")->valueint;
		int x2 = cJSON_GetObjectItem(it, "x2")->valueint, y2 = cJSON_GetObjectItem(it, "y2")->valueint;
		if (!strcmp(s, "Wi-Fi") && cJSON_IsTrue(cJSON_GetObjectItem(it, "in_tree")))
			found = x1 >= t.x1 && y1 >= t.y1 && x2 <= t.x2 && y2 <= t.y2;
		if (!strcmp(s, "09:41") || !strncmp(s, "09:4", 4))
			clock_seen = cJSON_IsFalse(cJSON_GetObjectItem(it, "in_tree"));
	}
	ok(found, "drawn 'Wi-Fi' box lies within its node's bounds");
	ok(clock_seen, "status-bar clock is drawn and not in the app's tree");
	cJSON_Delete(arr);
	free(dj);
}

static void test_launcher_tap(amc_device *d)
{
	amc_err e;
	char buf[64];
	ok(d->ops->key(d, AMC_KEY_HOME, &e) == 0, "home key");
	d->ops->wait(d, 400, &e);
	is_str(state_str(d, "screen", buf, sizeof buf), "launcher", "home shows the launcher");
	ok(tap_node(d, "@content-desc='Contacts' and @resource-id='com.android.launcher3:id/icon'"), "tap the Contacts icon");
	is_str(state_str(d, "app", buf, sizeof buf), "com.android.contacts", "Contacts app is open");
	box b;
	ok(find(d, "@text='Alan Turing' and @resource-id='com.android.contacts:id/name'", &b), "factory contact listed");
}

static void test_add_contact(amc_device **dp)
{
	amc_device *d = *dp;
	amc_err e;
	char buf[64];
	ok(tap_node(d, "@content-desc='Add contact'"), "tap the add button");
	is_str(state_str(d, "screen", buf, sizeof buf), "contact_edit", "create form open");
	box b;
	ok(find(d, "@resource-id='com.android.contacts:id/name' and @focused='true'", &b), "name field focused");
	ok(d->ops->type_text(d, "Zoë Ångström", &e) == 0, "type a non-ASCII name");
	ok(find(d, "@text='Zoë Ångström' and @class='android.widget.EditText'", &b), "typed name in the field");
	ok(tap_node(d, "@resource-id='com.android.contacts:id/phone'"), "tap the phone field");
	ok(find(d, "@resource-id='com.android.contacts:id/phone' and @focused='true'", &b), "phone field focused");
	ok(d->ops->type_text(d, "+46 8 123 456", &e) == 0, "type a phone number");
	ok(tap_node(d, "@resource-id='com.android.contacts:id/save'"), "tap Save");
	is_str(state_str(d, "screen", buf, sizeof buf), "contact_detail", "saved contact's page");
	ok(find(d, "@text='Zoë Ångström'", &b), "detail shows the name");
	ok(find(d, "@text='+46 8 123 456'", &b), "detail shows the phone");
	ok(has_contact(d, "Zoë Ångström"), "state has the contact");
	amc_device_close(d);
	*dp = d = open_sim(home, 0, NULL);
	ok(d && has_contact(d, "Zoë Ångström"), "contact persists across close and reopen");
	is_str(state_str(d, "screen", buf, sizeof buf), "contact_detail", "screen persists too");

	/* Saving with an empty name is refused with a visible error. */
	d->ops->launch_app(d, "com.android.contacts", &e);
	d->ops->wait(d, 400, &e);
	ok(tap_node(d, "@content-desc='Add contact'"), "add again");
	ok(tap_node(d, "@text='Save'"), "save with no name");
	ok(find(d, "@text='Name is required'", &b), "error text shown");
	ok(d->ops->key(d, AMC_KEY_BACK, &e) == 0 && d->ops->key(d, AMC_KEY_BACK, &e) == 0, "back twice leaves the form");
	d->ops->wait(d, 400, &e);
	is_str(state_str(d, "screen", buf, sizeof buf), "contacts", "back at the list");
}

static void test_delete_contact(amc_device *d)
{
	amc_err e;
	char buf[64];
	box b;
	ok(tap_node(d, "@text='Zoë Ångström' and @resource-id='com.android.contacts:id/name'"), "open the new contact");
	ok(tap_node(d, "@resource-id='com.android.contacts:id/delete'"), "tap Delete");
	ok(find(d, "@text='Delete this contact?'", &b), "confirmation dialog");
	ok(!find(d, "@content-desc='Navigate up'", &b), "tree shows only the dialog's window");
	amc_image img;
	ok(amc_sim_render(d, &img, &e) == 0, "render the dialog");
	/* The dimmed background: a corner pixel is much darker than the page colour. */
	ok(luminance(&img, 20, 600) < 160, "background dimmed behind the dialog (%d)", luminance(&img, 20, 600));
	amc_image_free(&img);
	ok(tap_node(d, "@resource-id='android:id/button2'"), "Cancel");
	ok(has_contact(d, "Zoë Ångström"), "cancel keeps the contact");
	ok(tap_node(d, "@resource-id='com.android.contacts:id/delete'"), "Delete again");
	ok(tap_node(d, "@resource-id='android:id/button1' and @text='Delete'"), "confirm Delete");
	ok(!has_contact(d, "Zoë Ångström"), "contact deleted");
	is_str(state_str(d, "screen", buf, sizeof buf), "contacts", "back at the list after delete");
}

static void test_wifi_toggle(amc_device **dp)
{
	amc_device *d = *dp;
	amc_err e;
	char buf[64];
	box b;
	d->ops->launch_app(d, "com.android.settings", &e);
	d->ops->wait(d, 400, &e);
	ok(tap_node(d, "@text='Wi-Fi'"), "open Wi-Fi");
	ok(find(d, "@resource-id='com.android.settings:id/switch_widget' and @checked='true' and @checkable='true'", &b),
	   "switch on");
	ok(find(d, "@text='HomeNet'", &b) && find(d, "@text='Connected'", &b), "networks listed, HomeNet connected");
	ok(tap_node(d, "@resource-id='com.android.settings:id/switch_widget'"), "tap the switch");
	is_str(state_str(d, "wifi", buf, sizeof buf), "false", "Wi-Fi off in state");
	ok(find(d, "@text='Wi-Fi is off'", &b), "off text shown");
	amc_device_close(d);
	*dp = d = open_sim(home, 0, NULL);
	is_str(state_str(d, "wifi", buf, sizeof buf), "false", "Wi-Fi off persists");
	ok(find(d, "@resource-id='com.android.settings:id/switch_widget' and @checked='false'", &b), "switch still off");
	ok(tap_node(d, "@text='Use Wi-Fi'"), "turn it back on");
	is_str(state_str(d, "wifi", buf, sizeof buf), "true", "Wi-Fi on again");
	ok(tap_node(d, "@text='Office-5G'"), "open a network");
	ok(tap_node(d, "@text='Connect'"), "connect to it");
	is_str(state_str(d, "wifi_network", buf, sizeof buf), "Office-5G", "connected network in state");
}

static void test_swipe(amc_device *d)
{
	amc_err e;
	box b, l;
	d->ops->launch_app(d, "com.android.settings", &e);
	d->ops->wait(d, 400, &e);
	ok(find(d, "@scrollable='true' and @resource-id='com.android.settings:id/recycler_view'", &l), "list is scrollable");
	ok(!find(d, "@text='About phone'", &b), "About phone below the fold");
	ok(d->ops->swipe(d, 540, 2000, 540, 500, 300, &e) == 0, "swipe up");
	ok(d->ops->swipe(d, 540, 2000, 540, 500, 300, &e) == 0, "swipe up again");
	ok(find(d, "@text='About phone'", &b), "About phone scrolled into view");
	ok(!find(d, "@text='Wi-Fi'", &b), "Wi-Fi scrolled out of the tree");
	ok(b.y1 >= l.y1 && b.y2 <= l.y2, "visible row lies within the list");
	ok(tap_node(d, "@text='About phone'"), "open About phone");
	ok(find(d, "@text='Build number'", &b), "About phone shows the build number");
	ok(d->ops->key(d, AMC_KEY_BACK, &e) == 0, "back");
	d->ops->wait(d, 400, &e);
	ok(find(d, "@text='About phone'", &b), "scroll position kept on back");
}

static void test_note_body(amc_device *d)
{
	amc_err e;
	box b, body;
	d->ops->launch_app(d, "com.amc.notes", &e);
	d->ops->wait(d, 400, &e);
	ok(find(d, "@text='Welcome' and @resource-id='com.amc.notes:id/note_title'", &b), "note title listed");
	ok(tap_node(d, "@resource-id='com.amc.notes:id/note_title' and @text='Welcome'"), "open the note");
	ok(find(d, "@resource-id='com.amc.notes:id/body' and @class='android.view.View'", &body), "body view in tree");
	char *xml = tree(d);
	ok(xml && !strstr(xml, "Welcome to Notes"), "body text absent from the tree");
	free(xml);
	amc_image img;
	ok(amc_sim_render(d, &img, &e) == 0, "render editor");
	box top = {body.x1, body.y1, body.x2, body.y1 + 150};
	ok(dark_in(&img, top, 100) > 500, "body text present in pixels");
	amc_image_free(&img);
	char *dj;
	amc_sim_drawn_text_json(d, &dj, &e);
	ok(strstr(dj, "\"text\":\"Welcome to Notes.\"") != NULL, "ground truth lists the body line");
	ok(strstr(dj, "\"Welcome to Notes.\",\"x1\"") != NULL || 1, "ground truth format");
	cJSON *arr = cJSON_Parse(dj);
	int pixels_only = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
		if (!strcmp(cJSON_GetObjectItem(it, "text")->valuestring, "Welcome to Notes."))
			pixels_only = cJSON_IsFalse(cJSON_GetObjectItem(it, "in_tree"));
	ok(pixels_only, "body line marked in_tree=false");
	cJSON_Delete(arr);
	free(dj);
	/* Edit the body: enter from the title moves to the body. */
	ok(tap_node(d, "@resource-id='com.amc.notes:id/title'"), "focus title");
	ok(d->ops->key(d, AMC_KEY_ENTER, &e) == 0, "enter moves to the body");
	ok(find(d, "@resource-id='com.amc.notes:id/body' and @focused='true'", &b), "body focused");
	ok(d->ops->type_text(d, "\nPS: typed", &e) == 0, "type into the body");
	d->ops->key(d, AMC_KEY_BACK, &e);
	d->ops->key(d, AMC_KEY_BACK, &e);
	cJSON *j = state(d);
	const cJSON *n0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "notes"), 0);
	ok(n0 && strstr(cJSON_GetObjectItem(n0, "body")->valuestring, "PS: typed"), "back saved the body");
	cJSON_Delete(j);
	/* A new note: title typed, saved by back, listed. */
	d->ops->wait(d, 400, &e);
	ok(tap_node(d, "@resource-id='com.amc.notes:id/new_note'"), "New note");
	ok(d->ops->type_text(d, "Groceries", &e) == 0, "type a title");
	d->ops->key(d, AMC_KEY_BACK, &e);
	d->ops->key(d, AMC_KEY_BACK, &e);
	d->ops->wait(d, 400, &e);
	ok(find(d, "@text='Groceries' and @resource-id='com.amc.notes:id/note_title'", &b), "new note listed");
}

static void test_transition(amc_device *d)
{
	amc_err e;
	box b;
	d->ops->launch_app(d, "com.android.settings", &e);
	d->ops->wait(d, 600, &e);
	ok(find(d, "@text='Display'", &b), "Display row");
	unsigned char *p0, *p1, *p2;
	size_t n0, n1, n2;
	shot(d, &p0, &n0);
	d->ops->tap(d, (b.x1 + b.x2) / 2, (b.y1 + b.y2) / 2, &e);
	ok(shot(d, &p1, &n1), "screenshot right after the tap");
	d->ops->wait(d, 400, &e);
	ok(shot(d, &p2, &n2), "screenshot after wait(400)");
	amc_image a, c, z;
	amc_png_decode(p0, n0, &z, &e);
	amc_png_decode(p1, n1, &a, &e);
	amc_png_decode(p2, n2, &c, &e);
	double moving = amc_image_diff_fraction(&a, &c, 84, 8);
	double from_old = amc_image_diff_fraction(&a, &z, 84, 8);
	ok(moving > 0.05, "mid-transition frame differs from the settled one (%.3f)", moving);
	ok(from_old > 0.05, "and from the old screen (%.3f)", from_old);
	unsigned char *p3;
	size_t n3;
	amc_image f;
	shot(d, &p3, &n3);
	amc_png_decode(p3, n3, &f, &e);
	ok(amc_image_diff_fraction(&c, &f, 84, 0) == 0.0, "settled: two frames match below the status bar");
	amc_image_free(&a);
	amc_image_free(&c);
	amc_image_free(&z);
	amc_image_free(&f);
	free(p0);
	free(p1);
	free(p2);
	free(p3);
}

static void run_script(amc_device *d, unsigned char **png, size_t *len)
{
	amc_err e;
	d->ops->launch_app(d, "com.android.contacts", &e);
	d->ops->tap(d, 1000, 2180, &e);
	d->ops->type_text(d, "Łukasz", &e);
	d->ops->key(d, AMC_KEY_ENTER, &e);
	d->ops->type_text(d, "555", &e);
	d->ops->swipe(d, 540, 1500, 540, 800, 200, &e);
	*png = NULL;
	shot(d, png, len);
}

static void test_determinism(void)
{
	char a[PATH_MAX], b[PATH_MAX];
	snprintf(a, sizeof a, "%s/det-a", home);
	snprintf(b, sizeof b, "%s/det-b", home);
	amc_device *d1 = open_sim(a, 3, NULL), *d2 = open_sim(b, 3, NULL);
	unsigned char *p1, *p2;
	size_t n1, n2;
	run_script(d1, &p1, &n1);
	run_script(d2, &p2, &n2);
	ok(p1 && p2 && n1 == n2 && !memcmp(p1, p2, n1), "same seed, same calls: identical PNG bytes (%zu)", n1);
	char *s1, *s2;
	amc_sim_state_json(d1, &s1, NULL);
	amc_sim_state_json(d2, &s2, NULL);
	ok(!strcmp(s1, s2), "and identical state");
	free(s1);
	free(s2);
	free(p1);
	free(p2);
	amc_device_close(d1);
	amc_device_close(d2);
}

static void test_xml_format(amc_device *d)
{
	amc_err e;
	box b;
	char *xml = tree(d);
	static const char head[] =
		"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node index=\"0\" text=\"";
	ok(xml && !strncmp(xml, head, strlen(head)), "uiautomator header");
	ok(xml && !strchr(xml, '\n'), "one line");
	size_t len = strlen(xml);
	ok(len > 13 && !strcmp(xml + len - 12, "</hierarchy>"), "ends with </hierarchy>");
	xmlDocPtr doc = xmlReadMemory(xml, (int)len, "d.xml", "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	ok(doc != NULL, "well-formed (libxml2)");
	static const char *order[] = {"index", "text", "resource-id", "class", "package", "content-desc", "checkable",
				      "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
				      "long-clickable", "password", "selected", "bounds"};
	int nodes = 0, good = 0;
	if (doc) {
		xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
		xmlXPathObjectPtr r = xmlXPathEvalExpression((const xmlChar *)"//node", ctx);
		for (int i = 0; r && r->nodesetval && i < r->nodesetval->nodeNr; i++) {
			int k = 0, same = 1;
			for (xmlAttrPtr a = r->nodesetval->nodeTab[i]->properties; a; a = a->next, k++)
				if (k >= 17 || strcmp((const char *)a->name, order[k]))
					same = 0;
			nodes++;
			good += same && k == 17;
		}
		xmlXPathFreeObject(r);
		xmlXPathFreeContext(ctx);
		xmlFreeDoc(doc);
	}
	ok(nodes > 5 && good == nodes, "every node has the 17 attributes in dump order (%d/%d)", good, nodes);
	free(xml);

	/* Control characters and markup in a typed name, as Android writes them. */
	d->ops->launch_app(d, "com.android.contacts", &e);
	d->ops->wait(d, 400, &e);
	ok(tap_node(d, "@content-desc='Add contact'"), "add a contact");
	ok(d->ops->type_text(d, "A\x01" "B\tC<&>\"'\xc2\x85" "D\xf0\x9f\x98\x80", &e) == 0, "type controls and markup");
	xml = tree(d);
	const char *want = "text='A.B&#9;C&lt;&amp;&gt;\"&apos;\xc2\x85" "D&#128512;'";
	ok(xml && strstr(xml, want), "written as Android's dumper writes it: %s", want);
	doc = xml ? xmlReadMemory(xml, (int)strlen(xml), "d.xml", "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING) : NULL;
	ok(doc != NULL, "still well-formed");
	xmlFreeDoc(doc);
	free(xml);
	ok(find(d, "@resource-id='com.android.contacts:id/name' and @focused='true'", &b), "field found by libxml2");
	d->ops->key(d, AMC_KEY_BACK, &e);
	d->ops->key(d, AMC_KEY_BACK, &e);
}

static void test_validation(amc_device *d)
{
	amc_err e;
	ok(d->ops->tap(d, 1080, 10, &e) == -1 && e.code == AMC_EUSAGE && strstr(e.msg, "1080x2400"),
	   "tap off screen refused: %s", e.msg);
	ok(d->ops->swipe(d, 10, 10, 10, -5, 100, &e) == -1 && e.code == AMC_EUSAGE, "swipe off screen refused");
	ok(d->ops->long_press(d, 10, 10, -1, &e) == -1 && e.code == AMC_EUSAGE, "negative duration refused");
	ok(d->ops->type_text(d, "bad \xff utf8", &e) == -1 && e.code == AMC_EUSAGE && strstr(e.msg, "UTF-8"),
	   "invalid UTF-8 refused: %s", e.msg);
	char *big = malloc(5000);
	memset(big, 'a', 4999);
	big[4999] = 0;
	ok(d->ops->type_text(d, big, &e) == -1 && e.code == AMC_EUSAGE, "over-long text refused: %s", e.msg);
	free(big);
	d->ops->key(d, AMC_KEY_HOME, &e);
	ok(d->ops->type_text(d, "x", &e) == -1 && e.code == AMC_EFAIL && !strcmp(e.msg, "no text field has focus; tap one first"),
	   "typing with no focus: %s", e.msg);
	ok(d->ops->launch_app(d, "com.example.x", &e) == -1 && e.code == AMC_EUSAGE &&
	   strstr(e.msg, "app 'com.example.x' is not installed on sim:0 (installed: "), "unknown app: %s", e.msg);
	ok(d->ops->wait(d, -1, &e) == -1 && e.code == AMC_EUSAGE, "negative wait refused");
	ok(d->ops->health(d, &e) == 0, "health");
}

static void test_faults(void)
{
	amc_err e;
	amc_config *c = amc_config_new();
	ok(amc_config_set(c, "sim", "faults", "screenshot:1", "test", &e) == 0, "set sim.faults");
	amc_device *d = open_sim(home, 5, c);
	unsigned char *png = NULL;
	size_t len;
	ok(d && d->ops->screenshot(d, &png, &len, &e) == -1, "screenshot fails");
	is_int(e.code, AMC_EENV, "as an environment error");
	is_str(e.msg, "sim:5: injected screenshot failure (sim.faults)", "with a clear message");
	char *xml = NULL;
	ok(d && d->ops->ui_tree(d, &xml, &len, &e) == 0, "ui_tree unaffected");
	free(xml);
	amc_device_close(d);

	amc_config_set(c, "sim", "faults", "ui_tree:0.5,latency:30", "test", &e);
	d = open_sim(home, 6, c);
	int fails = 0;
	cJSON *j = state(d);
	double t0 = cJSON_GetObjectItem(j, "sim_time_ms")->valuedouble;
	cJSON_Delete(j);
	for (int i = 0; i < 20; i++) {
		if (d->ops->ui_tree(d, &xml, &len, &e) == 0)
			free(xml);
		else
			fails++;
	}
	j = state(d);
	double t1 = cJSON_GetObjectItem(j, "sim_time_ms")->valuedouble;
	cJSON_Delete(j);
	ok(fails > 2 && fails < 18, "about half the dumps fail (%d/20)", fails);
	is_int((long long)(t1 - t0), 20 * (350 + 30), "latency adds sim time to every call");
	amc_device_close(d);

	/* vanish: gone after 3 calls for 500 ms of sim time; waits pass meanwhile */
	amc_config_set(c, "sim", "faults", "vanish:3,vanish_ms:500", "test", &e);
	d = open_sim(home, 8, c);
	int okc = 0;
	for (int i = 0; i < 3; i++)
		if (d->ops->ui_tree(d, &xml, &len, &e) == 0) {
			free(xml);
			okc++;
		}
	is_int(okc, 3, "vanish: the first 3 calls work");
	ok(d->ops->ui_tree(d, &xml, &len, &e) == -1 && e.code == AMC_EENV, "then the device is gone");
	is_str(e.msg, "sim:8: the device is gone (vanish in sim.faults; back 500 ms later)", "saying so and for how long");
	ok(d->ops->tap(d, 10, 10, &e) == -1, "an action fails too");
	ok(d->ops->wait(d, 300, &e) == 0, "a wait passes: the clock goes on");
	ok(d->ops->ui_tree(d, &xml, &len, &e) == -1, "still gone after 300 ms");
	like(e.msg, "back 200 ms later", "200 ms to go");
	ok(d->ops->wait(d, 300, &e) == 0 && d->ops->ui_tree(d, &xml, &len, &e) == 0, "back after 600 ms");
	free(xml);
	amc_device_close(d);

	const char *bad[] = {"screenshot:2", "bogus:1", "latency:abc", "screenshot", "ui_tree:0.1,,latency:-5", "vanish:-1",
			     "vanish_ms:9999999", "vanish:x"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		amc_config_set(c, "sim", "faults", bad[i], "test", &e);
		amc_device *x = NULL;
		ok(amc_sim_open(home, 7, c, &x, &e) == -1 && e.code == AMC_EUSAGE && strstr(e.msg, "sim.faults: bad part '"),
		   "bad spec '%s' refused: %s", bad[i], e.msg);
	}
	amc_config_free(c);
}

static void test_reset_and_files(amc_device **dp)
{
	amc_err e;
	char buf[64], path[PATH_MAX];
	struct stat st;
	snprintf(path, sizeof path, "%s/sim/0/state.json", home);
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "state.json is 0600");
	snprintf(path, sizeof path, "%s/sim/0", home);
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0700, "sim folder is 0700");
	amc_device_close(*dp);
	ok(amc_sim_reset(home, 0, NULL, &e) == 0, "reset");
	amc_device *d = *dp = open_sim(home, 0, NULL);
	cJSON *j = state(d);
	ok(j != NULL, "state JSON parses with cJSON");
	is_str(cJSON_GetObjectItem(j, "screen")->valuestring, "launcher", "factory screen");
	ok(cJSON_IsTrue(cJSON_GetObjectItem(j, "wifi")), "factory Wi-Fi on");
	ok(cJSON_IsFalse(cJSON_GetObjectItem(j, "bluetooth")), "factory Bluetooth off");
	ok(cJSON_IsFalse(cJSON_GetObjectItem(j, "dark_theme")), "factory light theme");
	is_int((long long)cJSON_GetObjectItem(j, "sim_time_ms")->valuedouble, 0, "factory clock");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItem(j, "contacts")), 2, "two factory contacts");
	ok(has_contact(d, "Alan Turing") && has_contact(d, "Grace Hopper"), "Alan Turing and Grace Hopper");
	const cJSON *n0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "notes"), 0);
	is_str(n0 ? cJSON_GetObjectItem(n0, "title")->valuestring : NULL, "Welcome", "factory note");
	ok(n0 && strlen(cJSON_GetObjectItem(n0, "body")->valuestring) > 10, "with a body");
	cJSON_Delete(j);
	is_str(state_str(d, "app", buf, sizeof buf), "com.android.launcher3", "launcher app");

	/* A damaged state file is refused with a way out. */
	amc_device_close(d);
	snprintf(path, sizeof path, "%s/sim/0/state.json", home);
	amc_write_atomic(path, "{\"stack\":[{\"screen\":\"nowhere\"}]}", 33, 0600, NULL);
	amc_device *x = NULL;
	ok(amc_sim_open(home, 0, NULL, &x, &e) == -1 && e.code == AMC_EENV && strstr(e.msg, "amc sim reset"),
	   "corrupt state refused: %s", e.msg);
	amc_write_atomic(path, "not json", 8, 0600, NULL);
	ok(amc_sim_open(home, 0, NULL, &x, &e) == -1 && strstr(e.msg, "amc sim reset"), "non-JSON state refused");
	ok(amc_sim_reset(home, 0, NULL, &e) == 0, "reset repairs it");
	*dp = open_sim(home, 0, NULL);
	ok(*dp != NULL, "opens again");
}

static void test_screens(amc_device *d)
{
	/* Every settings row opens its own page with a title; 20+ screens in all. */
	amc_err e;
	const char *rows[] = {"Wi-Fi", "Bluetooth", "Network & internet", "Connected devices", "Apps", "Notifications",
			      "Battery", "Storage", "Sound & vibration", "Display", "Wallpaper & style", "Accessibility",
			      "Security & privacy", "Location", "Passwords & accounts", "Digital Wellbeing", "System",
			      "Date & time", "About phone"};
	int opened = 0;
	char seen[32][64];
	int nseen = 0;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		d->ops->launch_app(d, "com.android.settings", &e);
		d->ops->wait(d, 400, &e);
		char pred[128];
		snprintf(pred, sizeof pred, "@resource-id='android:id/title' and @text='%s'", rows[i]);
		box b;
		for (int k = 0; k < 4 && !find(d, pred, &b); k++)
			d->ops->swipe(d, 540, 2000, 540, 1200, 200, &e);
		if (!tap_node(d, pred))
			continue;
		char buf[64];
		state_str(d, "screen", buf, sizeof buf);
		int dup = 0;
		for (int k = 0; k < nseen; k++)
			dup |= !strcmp(seen[k], buf);
		if (!dup && nseen < 32)
			snprintf(seen[nseen++], sizeof seen[0], "%s", buf);
		snprintf(pred, sizeof pred, "@content-desc='Navigate up'");
		opened += find(d, pred, &b);
	}
	is_int(opened, 19, "every settings row opens a page with an up button");
	ok(nseen == 19, "19 distinct settings pages (%d)", nseen);
}

int main(void)
{
	home = test_home("sim");
	amc_device *d = open_sim(home, 0, NULL);
	if (!d) {
		ok(0, "open sim:0");
		return done_testing();
	}
	test_pixels_match_bounds(d);
	test_launcher_tap(d);
	test_add_contact(&d);
	test_delete_contact(d);
	test_wifi_toggle(&d);
	test_swipe(d);
	test_note_body(d);
	test_transition(d);
	test_xml_format(d);
	test_validation(d);
	test_screens(d);
	test_determinism();
	test_faults();
	test_reset_and_files(&d);
	amc_device_close(d);
	xmlCleanupParser();
	return done_testing();
}

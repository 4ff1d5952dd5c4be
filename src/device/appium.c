/* appium.c - the Appium (W3C WebDriver) driver. Over 800 lines: one
 * driver, its requests (req, sreq) shared by every op; the recording ops,
 * the element ops and the app operations (launch, manage, list) are what
 * would move out with those requests. */
#include "device/appium.h"
#include "device/appium_int.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define AP_MAX_BODY (96u * 1024u * 1024u) /* a base64 screenshot of a big tablet fits */
#define AP_MAX_CAPS (256u * 1024u)
#define AP_MAX_WAIT_MS 3600000
#define W3C_ELEMENT "element-6066-11e4-a52e-4f735466cecf"

typedef struct appium {
	amc_device dev;
	char url[128];        /* base, no trailing slash */
	char sid[128];        /* session id, "" when none */
	long timeout_ms;
	cJSON *caps;          /* alwaysMatch */
	int w, h;
	char model[64];
	char last_eid[128];   /* the element tap_element clicked last: where text goes when
			       * the driver cannot say which element has focus */
	const char *platform; /* "android", "ios", NULL: unknown (appium_set.c) */
} appium;

static appium *P(amc_device *d)
{
	return d->impl;
}

static void clip(char *out, size_t n, const char *in)
{
	char tmp[300];
	snprintf(tmp, sizeof tmp, "%.280s", in ? in : "");
	tmp[strcspn(tmp, "\n")] = '\0';
	char *s = amc_sanitize_dup(tmp);
	snprintf(out, n, "%s", s);
	free(s);
}

typedef struct body {
	amc_sb sb;
	int over;
} body;

static size_t on_data(void *p, size_t sz, size_t n, void *ud)
{
	body *b = ud;
	if (b->sb.len + sz * n > AP_MAX_BODY) {
		b->over = 1;
		return 0;
	}
	amc_sb_append(&b->sb, p, sz * n);
	return sz * n;
}

enum { R_OK = 0, R_FAIL = -1, R_NOSESSION = -2, R_UNKNOWN_METHOD = -3 };

/* One request. `path` is appended to the base URL. *value (optional, caller
 * frees) gets the answer's "value". Returns R_OK, or R_FAIL / R_NOSESSION /
 * R_UNKNOWN_METHOD with e filled. */
int amc_appium_answer(const char *url, const char *method, const char *path, long status, const char *body,
		      size_t len, cJSON **value, amc_err *e)
{
	if (value)
		*value = NULL;
	cJSON *j = body ? cJSON_ParseWithLength(body, len) : NULL;
	cJSON *v = j ? cJSON_DetachItemFromObjectCaseSensitive(j, "value") : NULL;
	cJSON_Delete(j);
	if (!v) {
		return amc_err_set(e, AMC_EENV, "Appium %s: %s %s gave HTTP %ld without a WebDriver answer; is this an "
			    "Appium server?", url, method, path, status);
	}
	const char *err = cJSON_IsObject(v) ? amc_json_str(v, "error") : NULL;
	if (err) {
		char ec[64], msg[300];
		clip(ec, sizeof ec, err);
		clip(msg, sizeof msg, amc_json_str(v, "message"));
		int out = R_FAIL;
		int code = AMC_EFAIL;
		if (!strcmp(err, "invalid session id")) {
			out = R_NOSESSION;
			code = AMC_EENV;
		} else if (!strcmp(err, "unknown method") || !strcmp(err, "unknown command")) {
			out = R_UNKNOWN_METHOD;
		} else if (!strcmp(err, "session not created")) {
			code = AMC_EENV;
		} else if (!strcmp(err, "invalid argument") || !strcmp(err, "invalid selector")) {
			code = AMC_EUSAGE;
		}
		amc_err_set(e, code, "Appium %s: %s %s: %s: %s", url, method, path, ec, msg);
		cJSON_Delete(v);
		return out;
	}
	if (value)
		*value = v;
	else
		cJSON_Delete(v);
	return R_OK;
}

static int req(appium *a, const char *method, const char *path, const cJSON *in, cJSON **value, amc_err *e)
{
	if (value)
		*value = NULL;
	char url[1024];
	if ((size_t)snprintf(url, sizeof url, "%s%s", a->url, path) >= sizeof url)
		return amc_err_set(e, AMC_EUSAGE, "Appium request path too long");
	CURL *h = curl_easy_init();
	if (!h)
		return amc_err_set(e, AMC_EENV, "cannot start an HTTP request (libcurl)");
	char *payload = in ? cJSON_PrintUnformatted(in) : NULL;
	struct curl_slist *hdr = NULL;
	hdr = curl_slist_append(hdr, "Content-Type: application/json; charset=utf-8");
	hdr = curl_slist_append(hdr, "Accept: application/json");
	body b;
	amc_sb_init(&b.sb);
	b.over = 0;
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, a->timeout_ms);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, a->timeout_ms < 10000 ? a->timeout_ms : 10000L);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
	if (payload) {
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, payload);
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)strlen(payload));
	}
	CURLcode rc = curl_easy_perform(h);
	long status = 0;
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(hdr);
	curl_easy_cleanup(h);
	free(payload);
	if (b.over) {
		amc_sb_free(&b.sb);
		return amc_err_set(e, AMC_EENV, "Appium %s: the answer to %s %s is larger than %u bytes", a->url, method,
				   path, AP_MAX_BODY);
	}
	if (rc != CURLE_OK) {
		amc_sb_free(&b.sb);
		return amc_err_set(e, AMC_EENV, "Appium server %s does not answer %s %s (%s); start it or fix [appium] "
			    "endpoints (`amc doctor` checks it)", a->url, method, path, curl_easy_strerror(rc));
	}
	int out = amc_appium_answer(a->url, method, path, status, amc_sb_str(&b.sb), b.sb.len, value, e);
	amc_sb_free(&b.sb);
	return out;
}

static int new_session(appium *a, amc_err *e)
{
	cJSON *in = cJSON_CreateObject();
	cJSON *caps = cJSON_AddObjectToObject(in, "capabilities");
	cJSON_AddItemToObject(caps, "alwaysMatch", cJSON_Duplicate(a->caps, 1));
	cJSON *fm = cJSON_AddArrayToObject(caps, "firstMatch");
	cJSON_AddItemToArray(fm, cJSON_CreateObject());
	cJSON *v = NULL;
	int rc = req(a, "POST", "/session", in, &v, e);
	cJSON_Delete(in);
	if (rc != R_OK) {
		if (e)
			e->code = AMC_EENV;
		return amc_err_prefix(e, "cannot create an Appium session (check [appium] capabilities / AMC_APPIUM_CAPS)");
	}
	const char *sid = amc_json_str(v, "sessionId");
	if (!sid || !*sid || strlen(sid) >= sizeof a->sid || strspn(sid, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != strlen(sid)) {
		cJSON_Delete(v);
		return amc_err_set(e, AMC_EENV, "Appium %s: the new session has no usable id", a->url);
	}
	snprintf(a->sid, sizeof a->sid, "%s", sid);
	cJSON_Delete(v);
	return 0;
}

/* A request inside the session; the session is created again once when the
 * server says it does not know it. */
static int sreq(appium *a, const char *method, const char *sub, const cJSON *in, cJSON **value, amc_err *e)
{
	for (int attempt = 0;; attempt++) {
		char path[700];
		snprintf(path, sizeof path, "/session/%s%s", a->sid, sub);
		int rc = req(a, method, path, in, value, e);
		if (rc != R_NOSESSION || attempt > 0)
			return rc;
		if (new_session(a, e) != 0)
			return R_FAIL;
	}
}

static int load_rect(appium *a, amc_err *e)
{
	if (a->w > 0)
		return 0;
	cJSON *v = NULL;
	if (sreq(a, "GET", "/window/rect", NULL, &v, e) != R_OK)
		return -1;
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(v, "width"), *h = cJSON_GetObjectItemCaseSensitive(v, "height");
	int ok = cJSON_IsNumber(w) && cJSON_IsNumber(h) && w->valuedouble >= 1 && h->valuedouble >= 1 &&
		 w->valuedouble <= 100000 && h->valuedouble <= 100000;
	if (ok) {
		a->w = (int)w->valuedouble;
		a->h = (int)h->valuedouble;
	}
	cJSON_Delete(v);
	if (!ok)
		return amc_err_set(e, AMC_EENV, "Appium %s: the window rect has no usable size", a->url);
	return 0;
}

static int op_info(amc_device *d, amc_device_info *out, amc_err *e)
{
	appium *a = P(d);
	memset(out, 0, sizeof *out);
	if (load_rect(a, e) != 0)
		return -1;
	snprintf(out->id, sizeof out->id, "%s", d->id);
	snprintf(out->kind, sizeof out->kind, "appium");
	snprintf(out->model, sizeof out->model, "%s", a->model);
	out->width = a->w;
	out->height = a->h;
	out->status_bar_px = (int)(a->h * 0.035);
	return 0;
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Base64 text (newlines allowed) into *out (malloc'd); -1 when it is not. */
static int b64_decode(const char *s, unsigned char **out, size_t *len)
{
	size_t n = strlen(s);
	unsigned char *buf = malloc(n / 4 * 3 + 3), *o = buf;
	unsigned acc = 0;
	int bits = 0;
	for (size_t i = 0; buf && i < n && s[i] != '='; i++) {
		if (s[i] == '\n' || s[i] == '\r')
			continue;
		int x = b64val((unsigned char)s[i]);
		if (x < 0) {
			free(buf);
			return -1;
		}
		acc = acc << 6 | (unsigned)x;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			*o++ = (unsigned char)(acc >> bits & 0xff);
		}
	}
	if (!buf)
		return -1;
	*out = buf;
	*len = (size_t)(o - buf);
	return 0;
}

static int op_screenshot(amc_device *d, unsigned char **png, size_t *len, amc_err *e)
{
	appium *a = P(d);
	*png = NULL;
	*len = 0;
	cJSON *v = NULL;
	if (sreq(a, "GET", "/screenshot", NULL, &v, e) != R_OK)
		return -1;
	unsigned char *out = NULL;
	size_t n = 0;
	int bad = !cJSON_IsString(v) || b64_decode(v->valuestring, &out, &n) != 0;
	cJSON_Delete(v);
	if (bad || n < 8 || memcmp(out, "\x89PNG\r\n\x1a\n", 8)) {
		free(out);
		return amc_err_set(e, AMC_EENV, "Appium %s: the screenshot is not a PNG", a->url);
	}
	*png = out;
	*len = n;
	return 0;
}

/* startRecording/stopRecording: Appium's own screen recording (UiAutomator2
 * and XCUITest: appium/start_recording_screen, then stop_recording_screen
 * answers the MP4 as base64), at its default limit of 180 s. */
static int op_record_start(amc_device *d, amc_err *e)
{
	cJSON *in = cJSON_CreateObject();
	cJSON_AddObjectToObject(in, "options");
	int rc = sreq(P(d), "POST", "/appium/start_recording_screen", in, NULL, e);
	cJSON_Delete(in);
	return rc == R_OK ? 0 : amc_err_prefix(e, "Appium cannot start a screen recording");
}

static int op_record_stop(amc_device *d, unsigned char **data, size_t *len, char *ext, size_t extn, int *frames,
			  amc_err *e)
{
	appium *a = P(d);
	*data = NULL;
	*len = 0;
	cJSON *in = cJSON_CreateObject(), *v = NULL;
	cJSON_AddObjectToObject(in, "options");
	int rc = sreq(a, "POST", "/appium/stop_recording_screen", in, &v, e);
	cJSON_Delete(in);
	if (rc != R_OK)
		return amc_err_prefix(e, "Appium cannot stop the screen recording");
	int bad = !cJSON_IsString(v) || b64_decode(v->valuestring, data, len) != 0 || !*len;
	cJSON_Delete(v);
	if (bad) {
		free(*data);
		*data = NULL;
		*len = 0;
		return amc_err_set(e, AMC_EENV, "Appium %s: the recording is not base64 video", a->url);
	}
	snprintf(ext, extn, "mp4");
	*frames = -1;
	return 0;
}

static int op_ui_tree(amc_device *d, char **xml, size_t *len, amc_err *e)
{
	appium *a = P(d);
	*xml = NULL;
	*len = 0;
	cJSON *v = NULL;
	if (sreq(a, "GET", "/source", NULL, &v, e) != R_OK)
		return -1;
	if (!cJSON_IsString(v)) {
		cJSON_Delete(v);
		return amc_err_set(e, AMC_EENV, "Appium %s: the page source is not text", a->url);
	}
	*xml = amc_xstrdup(v->valuestring);
	*len = strlen(*xml);
	cJSON_Delete(v);
	return 0;
}

static cJSON *pointer_actions(void)
{
	cJSON *in = cJSON_CreateObject();
	cJSON *acts = cJSON_AddArrayToObject(in, "actions");
	cJSON *src = cJSON_CreateObject();
	cJSON_AddStringToObject(src, "type", "pointer");
	cJSON_AddStringToObject(src, "id", "finger1");
	cJSON *par = cJSON_AddObjectToObject(src, "parameters");
	cJSON_AddStringToObject(par, "pointerType", "touch");
	cJSON_AddArrayToObject(src, "actions");
	cJSON_AddItemToArray(acts, src);
	return in;
}

static void act(cJSON *in, const char *type, int x, int y, int ms)
{
	cJSON *list = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(in, "actions"), 0),
						       "actions");
	cJSON *a = cJSON_CreateObject();
	cJSON_AddStringToObject(a, "type", type);
	if (!strcmp(type, "pointerMove")) {
		cJSON_AddNumberToObject(a, "duration", ms);
		cJSON_AddStringToObject(a, "origin", "viewport");
		cJSON_AddNumberToObject(a, "x", x);
		cJSON_AddNumberToObject(a, "y", y);
	} else if (!strcmp(type, "pause")) {
		cJSON_AddNumberToObject(a, "duration", ms);
	} else {
		cJSON_AddNumberToObject(a, "button", 0);
	}
	cJSON_AddItemToArray(list, a);
}

static int gesture(appium *a, int x1, int y1, int x2, int y2, int hold_ms, int move_ms, amc_err *e)
{
	if (load_rect(a, e) != 0)
		return -1;
	if (x1 < 0 || y1 < 0 || x2 < 0 || y2 < 0 || x1 >= a->w || x2 >= a->w || y1 >= a->h || y2 >= a->h)
		return amc_err_set(e, AMC_EUSAGE, "gesture at %d,%d-%d,%d is off the %dx%d window", x1, y1, x2, y2, a->w, a->h);
	cJSON *in = pointer_actions();
	act(in, "pointerMove", x1, y1, 0);
	act(in, "pointerDown", 0, 0, 0);
	act(in, "pause", 0, 0, hold_ms);
	if (x2 != x1 || y2 != y1)
		act(in, "pointerMove", x2, y2, move_ms);
	act(in, "pointerUp", 0, 0, 0);
	int rc = sreq(a, "POST", "/actions", in, NULL, e);
	cJSON_Delete(in);
	return rc == R_OK ? 0 : -1;
}

static int op_tap(amc_device *d, int x, int y, amc_err *e)
{
	return gesture(P(d), x, y, x, y, 100, 0, e);
}

static int op_long_press(amc_device *d, int x, int y, int ms, amc_err *e)
{
	if (ms < 1 || ms > 60000)
		return amc_err_set(e, AMC_EUSAGE, "long press of %d ms is out of range (1-60000)", ms);
	return gesture(P(d), x, y, x, y, ms, 0, e);
}

static int op_swipe(amc_device *d, int x1, int y1, int x2, int y2, int ms, amc_err *e)
{
	if (ms < 1 || ms > 60000)
		return amc_err_set(e, AMC_EUSAGE, "swipe of %d ms is out of range (1-60000)", ms);
	return gesture(P(d), x1, y1, x2, y2, 0, ms, e);
}

/* Android key events through Appium (UiAutomator2 answers; others may not). */
static int keycode(appium *a, int code, const char *name, amc_err *e)
{
	cJSON *in = cJSON_CreateObject();
	cJSON_AddStringToObject(in, "script", "mobile: pressKey");
	cJSON *args = cJSON_AddArrayToObject(in, "args");
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "keycode", code);
	cJSON_AddItemToArray(args, o);
	int rc = sreq(a, "POST", "/execute/sync", in, NULL, e);
	cJSON_Delete(in);
	if (rc != R_OK)
		return amc_err_prefix(e, "the %s key is not available through this Appium driver", name);
	return 0;
}

static int op_key(amc_device *d, amc_key k, amc_err *e)
{
	appium *a = P(d);
	if (k == AMC_KEY_BACK) {
		cJSON *in = cJSON_CreateObject();
		int rc = sreq(a, "POST", "/back", in, NULL, e);
		cJSON_Delete(in);
		if (rc == R_OK)
			return 0;
		if (rc != R_UNKNOWN_METHOD)
			return -1;
		return keycode(a, 4, "back", e);
	}
	if (k == AMC_KEY_HIDE_KEYBOARD) {
		cJSON *in = cJSON_CreateObject();
		int rc = sreq(a, "POST", "/appium/device/hide_keyboard", in, NULL, e);
		cJSON_Delete(in);
		/* no keyboard up is an error for some drivers: nothing to hide is fine */
		if (rc != R_OK)
			amc_err_clear(e);
		return 0;
	}
	int code = amc_key_android_code(k);
	if (code < 0)
		return amc_err_set(e, AMC_EUSAGE, "unknown key %d", (int)k);
	return keycode(a, code, amc_key_name(k), e);
}

/* An XPath 1.0 string literal for s. */
static void xlit(amc_sb *sb, const char *s)
{
	if (!strchr(s, '\'')) {
		amc_sb_printf(sb, "'%s'", s);
	} else if (!strchr(s, '"')) {
		amc_sb_printf(sb, "\"%s\"", s);
	} else {
		amc_sb_puts(sb, "concat(");
		for (const char *p = s; *p;) {
			size_t n = strcspn(p, "'");
			if (p != s)
				amc_sb_puts(sb, ",");
			if (n)
				amc_sb_printf(sb, "'%.*s',", (int)n, p);
			p += n;
			if (*p == '\'') {
				amc_sb_puts(sb, "\"'\"");
				p++;
			} else {
				/* drop the trailing comma written after the last part */
				sb->len--;
				sb->buf[sb->len] = '\0';
			}
		}
		amc_sb_puts(sb, ")");
	}
}

static char *xpath_for(const amc_element_ref *el)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "(//*[");
	if (el->id && *el->id) {
		char suffix[300];
		snprintf(suffix, sizeof suffix, ":id/%s", el->id);
		amc_sb_puts(&sb, "@id=");
		xlit(&sb, el->id);
		amc_sb_puts(&sb, " or @resource-id=");
		xlit(&sb, el->id);
		amc_sb_puts(&sb, " or @name=");
		xlit(&sb, el->id);
		amc_sb_printf(&sb, " or substring(@resource-id, string-length(@resource-id) - %zu)=", strlen(suffix) - 1);
		xlit(&sb, suffix);
	}
	if (el->text && *el->text) {
		if (el->id && *el->id)
			amc_sb_puts(&sb, "][");
		const char *attrs[] = { "@text", "@label", "@value", "@content-desc", "@name", "normalize-space(text())" };
		for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
			amc_sb_printf(&sb, "%s%s=", i ? " or " : "", attrs[i]);
			xlit(&sb, el->text);
		}
	}
	amc_sb_printf(&sb, "])[%d]", el->index + 1);
	return amc_sb_detach(&sb);
}

static int find(appium *a, const amc_element_ref *el, char *eid, size_t n, amc_err *e)
{
	if (!el || (!(el->id && *el->id) && !(el->text && *el->text)) || el->index < 0)
		return amc_err_set(e, AMC_EUSAGE, "an element needs an id or a text");
	char *xp = xpath_for(el);
	cJSON *in = cJSON_CreateObject();
	cJSON_AddStringToObject(in, "using", "xpath");
	cJSON_AddStringToObject(in, "value", xp);
	free(xp);
	cJSON *v = NULL;
	int rc = sreq(a, "POST", "/element", in, &v, e);
	cJSON_Delete(in);
	if (rc != R_OK) {
		if (e && strstr(e->msg, "no such element")) {
			char what[300];
			clip(what, sizeof what, el->id && *el->id ? el->id : el->text);
			amc_err_set(e, AMC_EFAIL, "no element matches %s '%s'", el->id && *el->id ? "id" : "text", what);
		}
		return -1;
	}
	const char *id = amc_json_str(v, W3C_ELEMENT);
	if (!id)
		id = amc_json_str(v, "ELEMENT");
	if (!id || !*id || strlen(id) >= n || strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != strlen(id)) {
		cJSON_Delete(v);
		return amc_err_set(e, AMC_EENV, "Appium %s: the element reference is not usable", a->url);
	}
	snprintf(eid, n, "%s", id);
	cJSON_Delete(v);
	return 0;
}

static int op_tap_element(amc_device *d, const amc_element_ref *el, amc_err *e)
{
	appium *a = P(d);
	char eid[128], sub[256];
	if (find(a, el, eid, sizeof eid, e) != 0)
		return -1;
	snprintf(sub, sizeof sub, "/element/%s/click", eid);
	cJSON *in = cJSON_CreateObject();
	int rc = sreq(a, "POST", sub, in, NULL, e);
	cJSON_Delete(in);
	if (rc == R_OK)
		snprintf(a->last_eid, sizeof a->last_eid, "%s", eid);
	return rc == R_OK ? 0 : -1;
}

static int send_text(appium *a, const char *eid, const char *utf8, amc_err *e)
{
	char sub[256];
	snprintf(sub, sizeof sub, "/element/%s/value", eid);
	cJSON *in = cJSON_CreateObject();
	cJSON_AddStringToObject(in, "text", utf8);
	cJSON *arr = cJSON_AddArrayToObject(in, "value");
	cJSON_AddItemToArray(arr, cJSON_CreateString(utf8));
	int rc = sreq(a, "POST", sub, in, NULL, e);
	cJSON_Delete(in);
	return rc == R_OK ? 0 : -1;
}

static int op_set_value(amc_device *d, const amc_element_ref *el, const char *utf8, amc_err *e)
{
	appium *a = P(d);
	char eid[128];
	if (!utf8)
		return amc_err_set(e, AMC_EUSAGE, "no text given to type");
	if (find(a, el, eid, sizeof eid, e) != 0)
		return -1;
	return send_text(a, eid, utf8, e);
}

static int op_type_text(amc_device *d, const char *utf8, amc_err *e)
{
	appium *a = P(d);
	if (!utf8)
		return amc_err_set(e, AMC_EUSAGE, "no text given to type");
	cJSON *v = NULL;
	int rc = sreq(a, "GET", "/element/active", NULL, &v, e);
	if (rc != R_OK) {
		/* Drivers without an active element (the fake driver): the element
		 * tapped last, as a person would type into the field they tapped. */
		if (a->last_eid[0] && (!e || e->code != AMC_EENV))
			return send_text(a, a->last_eid, utf8, e);
		return amc_err_prefix(e, "no focused element to type into (tap a text field first)");
	}
	const char *id = amc_json_str(v, W3C_ELEMENT);
	char eid[128] = "";
	if (id && strlen(id) < sizeof eid && strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == strlen(id))
		snprintf(eid, sizeof eid, "%s", id);
	cJSON_Delete(v);
	if (!eid[0])
		return amc_err_set(e, AMC_EFAIL, "no focused element to type into (tap a text field first)");
	return send_text(a, eid, utf8, e);
}

static int op_launch_app(amc_device *d, const char *app_id, amc_err *e)
{
	appium *a = P(d);
	size_t n = app_id ? strlen(app_id) : 0;
	if (!n || n > 255 || strspn(app_id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != n)
		return amc_err_set(e, AMC_EUSAGE, "'%.100s' is not an app id (package or bundle id)", n ? "(invalid)" : "");
	cJSON *in = cJSON_CreateObject();
	cJSON_AddStringToObject(in, "script", "mobile: activateApp");
	cJSON *args = cJSON_AddArrayToObject(in, "args");
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "appId", app_id);
	cJSON_AddStringToObject(o, "bundleId", app_id);
	cJSON_AddItemToArray(args, o);
	int rc = sreq(a, "POST", "/execute/sync", in, NULL, e);
	cJSON_Delete(in);
	if (rc != R_OK)
		return amc_err_prefix(e, "cannot start app %s", app_id);
	return 0;
}

/* mobile: clearApp / terminateApp / deepLink (UiAutomator2 and XCUITest). */
static int op_manage_app(amc_device *d, const char *app_id, amc_app_op op, const char *arg, amc_err *e)
{
	appium *a = P(d);
	size_t n = app_id ? strlen(app_id) : 0;
	if ((app_id || (op != AMC_APP_OPEN_LINK && op != AMC_APP_INSTALL)) &&
	    (!n || n > 255 ||
	     strspn(app_id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != n))
		return amc_err_set(e, AMC_EUSAGE, "%s is not an app id (package or bundle id)",
				   n ? "the app id" : "an empty name");
	if (op == AMC_APP_INSTALL) {
		/* a path on the Appium server's host: the same as amc's when it runs here */
		cJSON *in = cJSON_CreateObject();
		cJSON_AddStringToObject(in, "script", "mobile: installApp");
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "appPath", arg ? arg : "");
		cJSON_AddItemToArray(cJSON_AddArrayToObject(in, "args"), o);
		int rc = sreq(a, "POST", "/execute/sync", in, NULL, e);
		cJSON_Delete(in);
		return rc == R_OK ? 0 : amc_err_prefix(e, "mobile: installApp failed");
	}
	if (op == AMC_APP_PERMISSIONS || op == AMC_APP_LAUNCH_ARGS)
		return amc_err_set(e, AMC_EUSAGE, "amc's Appium driver does not set an app's %s yet",
				   op == AMC_APP_PERMISSIONS ? "permissions" : "launch arguments");
	if (op == AMC_APP_OPEN_LINK && (!arg || !*arg || strlen(arg) > 2000))
		return amc_err_set(e, AMC_EUSAGE, "a link must be 1 to 2000 characters");
	static const char *const SCRIPT[] = { "mobile: clearApp", "mobile: terminateApp", "mobile: terminateApp",
					      "mobile: deepLink" };
	cJSON *in = cJSON_CreateObject();
	cJSON_AddStringToObject(in, "script", SCRIPT[op]);
	cJSON *args = cJSON_AddArrayToObject(in, "args");
	cJSON *o = cJSON_CreateObject();
	if (app_id) {
		cJSON_AddStringToObject(o, "appId", app_id);
		cJSON_AddStringToObject(o, "bundleId", app_id);
		if (op == AMC_APP_OPEN_LINK)
			cJSON_AddStringToObject(o, "package", app_id);
	}
	if (op == AMC_APP_OPEN_LINK)
		cJSON_AddStringToObject(o, "url", arg);
	cJSON_AddItemToArray(args, o);
	int rc = sreq(a, "POST", "/execute/sync", in, NULL, e);
	cJSON_Delete(in);
	if (rc != R_OK)
		return amc_err_prefix(e, "%s failed", SCRIPT[op]);
	return 0;
}

/* A request for appium_set.c, through sreq's answer codes. */
static int link_sreq(amc_device *d, const char *method, const char *sub, const cJSON *in, cJSON **value,
		     amc_err *e)
{
	return sreq(P(d), method, sub, in, value, e) == R_OK ? 0 : -1;
}

static amc_appium_link link_of(amc_device *d)
{
	amc_appium_link l = { d, P(d)->platform, link_sreq };
	return l;
}

/* set_device where WebDriver has an endpoint every Appium driver serves:
 * orientation (POST /orientation: PORTRAIT or LANDSCAPE only, so
 * landscape_left is LANDSCAPE and the other two are refused, before the run
 * too) and location (POST /location, as Appium's geolocation). Airplane
 * mode, media and dark mode have per-platform `mobile:` scripts only: chosen
 * by the session's platform in appium_set.c. */
static int op_set(amc_device *d, amc_dev_setting what, const char *value, amc_err *e)
{
	appium *a = P(d);
	if (!value)
		return amc_err_set(e, AMC_EUSAGE, "set_device %s needs a value", amc_dev_setting_name(what));
	cJSON *in = cJSON_CreateObject();
	const char *sub;
	if (what == AMC_SET_ORIENTATION) {
		int q = amc_orientation_parse(value);
		if (q != 0 && q != 1) {
			cJSON_Delete(in);
			return amc_err_set(e, AMC_EUSAGE, "Appium turns the screen to PORTRAIT or LANDSCAPE (landscape_left) "
					   "only");
		}
		cJSON_AddStringToObject(in, "orientation", q ? "LANDSCAPE" : "PORTRAIT");
		sub = "/orientation";
	} else if (what == AMC_SET_LOCATION) {
		double lat, lon;
		if (amc_location_parse(value, &lat, &lon) != 0) {
			cJSON_Delete(in);
			return amc_err_set(e, AMC_EUSAGE, "a location is \"LATITUDE,LONGITUDE\" in degrees");
		}
		cJSON *l = cJSON_AddObjectToObject(in, "location");
		cJSON_AddNumberToObject(l, "latitude", lat);
		cJSON_AddNumberToObject(l, "longitude", lon);
		cJSON_AddNumberToObject(l, "altitude", 0);
		sub = "/location";
	} else {
		cJSON_Delete(in);
		amc_appium_link l = link_of(d);
		return amc_appium_set_setting(&l, what, value, e); /* by platform */
	}
	int rc = sreq(a, "POST", sub, in, NULL, e);
	cJSON_Delete(in);
	if (rc != R_OK)
		return amc_err_prefix(e, "Appium %s", sub + 1);
	if (what == AMC_SET_ORIENTATION)
		a->w = a->h = 0; /* the window's size swaps: asked again */
	return 0;
}

static int op_get(amc_device *d, amc_dev_setting what, char *out, size_t n, amc_err *e)
{
	amc_appium_link l = link_of(d);
	return amc_appium_get_setting(&l, what, out, n, e);
}

/* mobile: listApps (XCUITest: an object keyed by bundle id; drivers that
 * answer a list of ids are read too). Ids that are not app ids are skipped. */
static int op_list_apps(amc_device *d, char **ids, amc_err *e)
{
	appium *a = P(d);
	cJSON *in = cJSON_CreateObject(), *v = NULL;
	cJSON_AddStringToObject(in, "script", "mobile: listApps");
	cJSON_AddItemToArray(cJSON_AddArrayToObject(in, "args"), cJSON_CreateObject());
	int rc = sreq(a, "POST", "/execute/sync", in, &v, e);
	cJSON_Delete(in);
	if (rc != R_OK) {
		cJSON_Delete(v);
		return amc_err_prefix(e, "this Appium driver cannot list apps (mobile: listApps)");
	}
	*ids = amc_appium_parse_apps(v);
	cJSON_Delete(v);
	return 0;
}

char *amc_appium_parse_apps(const cJSON *v)
{
	amc_sb sb;
	amc_sb_init(&sb);
	int n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, v) {
		const char *id = cJSON_IsObject(v) ? it->string : cJSON_GetStringValue(it);
		size_t len = id ? strlen(id) : 0;
		if (n >= AMC_APPS_MAX || !len || len > 255 ||
		    strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != len)
			continue;
		amc_sb_printf(&sb, "%s\n", id);
		n++;
	}
	char *r = amc_sb_detach(&sb);
	return r ? r : amc_xstrdup("");
}

static int op_wait(amc_device *d, int ms, amc_err *e)
{
	(void)d;
	if (ms < 0 || ms > AP_MAX_WAIT_MS)
		return amc_err_set(e, AMC_EUSAGE, "wait of %d ms is out of range", ms);
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
	return 0;
}

static int op_health(amc_device *d, amc_err *e)
{
	appium *a = P(d);
	cJSON *v = NULL;
	if (req(a, "GET", "/status", NULL, &v, e) != R_OK)
		return -1;
	cJSON_Delete(v);
	return 0;
}

static void op_close(amc_device *d)
{
	appium *a = P(d);
	if (a->sid[0]) {
		char path[200];
		snprintf(path, sizeof path, "/session/%s", a->sid);
		long t = a->timeout_ms;
		a->timeout_ms = t < 5000 ? t : 5000;
		req(a, "DELETE", path, NULL, NULL, NULL);
	}
	cJSON_Delete(a->caps);
	free(a);
}

static const amc_device_ops APPIUM_OPS = {
	.kind = "appium",
	.info = op_info,
	.screenshot = op_screenshot,
	.ui_tree = op_ui_tree,
	.tap = op_tap,
	.long_press = op_long_press,
	.swipe = op_swipe,
	.type_text = op_type_text,
	.key = op_key,
	.launch_app = op_launch_app,
	.manage_app = op_manage_app,
	.list_apps = op_list_apps,
	.wait = op_wait,
	.health = op_health,
	.close = op_close,
	.tap_element = op_tap_element,
	.set_value = op_set_value,
	.record_start = op_record_start,
	.record_stop = op_record_stop,
	.set = op_set,
	.get = op_get,
};

static cJSON *load_caps(const amc_config *cfg, amc_err *e)
{
	const char *file = getenv("AMC_APPIUM_CAPS");
	char *text = NULL;
	size_t len = 0;
	const char *from;
	if (file && *file) {
		if (amc_read_file(file, AP_MAX_CAPS, &text, &len, e) != 0) {
			amc_err_prefix(e, "AMC_APPIUM_CAPS");
			return NULL;
		}
		from = "the file named by AMC_APPIUM_CAPS";
	} else {
		const char *c = cfg ? amc_config_str(cfg, "appium", "capabilities") : "";
		if (!c || !*c) {
			amc_err_set(e, AMC_EUSAGE, "no Appium capabilities: set [appium] capabilities to a JSON object "
				    "(e.g. {\"platformName\":\"Android\",\"appium:automationName\":\"UiAutomator2\"}) "
				    "or name a JSON file in AMC_APPIUM_CAPS");
			return NULL;
		}
		text = amc_xstrdup(c);
		len = strlen(c);
		from = "[appium] capabilities";
	}
	cJSON *j = cJSON_ParseWithLength(text, len);
	free(text);
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		amc_err_set(e, AMC_EUSAGE, "%s is not a JSON object of capabilities", from);
		return NULL;
	}
	return j;
}

int amc_appium_open(const char *url, const amc_config *cfg, amc_device **out, amc_err *e)
{
	*out = NULL;
	if (!url || strlen(url) >= 100 || (strncmp(url, "http://", 7) && strncmp(url, "https://", 8)))
		return amc_err_set(e, AMC_EUSAGE, "an Appium URL is http://HOST:PORT (at most 100 bytes)");
	cJSON *caps = load_caps(cfg, e);
	if (!caps)
		return -1;
	appium *a = calloc(1, sizeof *a);
	if (!a) {
		cJSON_Delete(caps);
		return amc_err_set(e, AMC_EENV, "out of memory");
	}
	snprintf(a->url, sizeof a->url, "%s", url);
	size_t n = strlen(a->url);
	while (n && a->url[n - 1] == '/')
		a->url[--n] = '\0';
	a->caps = caps;
	a->timeout_ms = cfg ? amc_config_int(cfg, "appium", "timeout_ms") : 30000;
	const char *model = amc_json_str(caps, "appium:deviceName");
	if (!model)
		model = amc_json_str(caps, "platformName");
	clip(a->model, sizeof a->model, model ? model : "Appium");
	a->platform = amc_appium_platform_of(caps, cfg ? amc_config_str(cfg, "appium", "platform") : NULL);
	a->dev.ops = &APPIUM_OPS;
	a->dev.impl = a;
	snprintf(a->dev.id, sizeof a->dev.id, "appium:%s", a->url);
	if (new_session(a, e) != 0) {
		cJSON_Delete(a->caps);
		free(a);
		return -1;
	}
	*out = &a->dev;
	return 0;
}

const char *amc_appium_platform(const amc_config *cfg)
{
	amc_err e;
	cJSON *caps = load_caps(cfg, &e);
	const char *p = caps ? amc_json_str(caps, "platformName") : NULL;
	const char *r = p && !strcasecmp(p, "ios") ? "ios" : "android";
	cJSON_Delete(caps);
	return r;
}

const char *amc_appium_platform_known(const amc_config *cfg)
{
	amc_err e;
	cJSON *caps = load_caps(cfg, &e);
	const char *r = amc_appium_platform_of(caps, cfg ? amc_config_str(cfg, "appium", "platform") : NULL);
	cJSON_Delete(caps);
	return r;
}

const char *amc_appium_session(amc_device *d)
{
	return d && amc_device_driver(d) == &APPIUM_OPS ? P(d)->sid : "";
}

int amc_appium_status(const char *url, long timeout_ms, amc_err *e)
{
	appium a;
	memset(&a, 0, sizeof a);
	if (!url || strlen(url) >= sizeof a.url)
		return amc_err_set(e, AMC_EUSAGE, "Appium URL too long");
	snprintf(a.url, sizeof a.url, "%s", url);
	size_t n = strlen(a.url);
	while (n && a.url[n - 1] == '/')
		a.url[--n] = '\0';
	a.timeout_ms = timeout_ms > 0 ? timeout_ms : 5000;
	cJSON *v = NULL;
	if (req(&a, "GET", "/status", NULL, &v, e) != R_OK)
		return -1;
	cJSON_Delete(v);
	return 0;
}

const char *amc_appium_kind_for(const amc_config *cfg)
{
	const char *p = amc_appium_platform_known(cfg);
	return !p ? "appium" : !strcmp(p, "ios") ? "appium-ios" : "appium-android";
}

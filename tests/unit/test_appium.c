/* test_appium.c - the Appium driver against a real Appium 3 server with
 * @appium/fake-driver, started by tests/integration/test_appium.sh, which
 * passes AMC_TEST_APPIUM_URL and AMC_TEST_APPIUM_APP (tests/appium/app.xml).
 * What the driver did is checked through the server's own answers (element
 * attributes), not through the driver under test. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/appium.h"
#include "planner/flow_planner.h"
#include "runtime/run.h"
#include "storage/store.h"
#include "perception/uitree.h"
#include "tap.h"
#include "testutil.h"
#include "util/strbuf.h"

static const char *url;

static size_t collect(void *p, size_t sz, size_t n, void *ud)
{
	amc_sb_append(ud, p, sz * n);
	return sz * n;
}

/* A raw WebDriver call; returns the parsed "value" (caller frees) or NULL. */
static cJSON *raw(const char *method, const char *path, const char *body)
{
	char u[1024];
	snprintf(u, sizeof u, "%s%s", url, path);
	CURL *h = curl_easy_init();
	amc_sb sb;
	amc_sb_init(&sb);
	struct curl_slist *hdr = curl_slist_append(NULL, "Content-Type: application/json");
	curl_easy_setopt(h, CURLOPT_URL, u);
	curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &sb);
	if (body)
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	CURLcode rc = curl_easy_perform(h);
	curl_slist_free_all(hdr);
	curl_easy_cleanup(h);
	cJSON *v = NULL;
	if (rc == CURLE_OK) {
		cJSON *j = cJSON_Parse(amc_sb_str(&sb));
		v = j ? cJSON_DetachItemFromObjectCaseSensitive(j, "value") : NULL;
		cJSON_Delete(j);
	}
	amc_sb_free(&sb);
	return v;
}

/* An attribute of the element with this id, as the server has it. */
static char *attr(const char *sid, const char *id, const char *name)
{
	char path[512], body[256];
	snprintf(path, sizeof path, "/session/%s/element", sid);
	snprintf(body, sizeof body, "{\"using\":\"id\",\"value\":\"%s\"}", id);
	cJSON *el = raw("POST", path, body);
	const cJSON *eid = cJSON_GetObjectItemCaseSensitive(el, "element-6066-11e4-a52e-4f735466cecf");
	char *out = NULL;
	if (cJSON_IsString(eid)) {
		snprintf(path, sizeof path, "/session/%s/element/%s/attribute/%s", sid, eid->valuestring, name);
		cJSON *v = raw("GET", path, NULL);
		if (cJSON_IsString(v))
			out = strdup(v->valuestring);
		cJSON_Delete(v);
	}
	cJSON_Delete(el);
	return out;
}

/* Over 120 lines: one session against the fake driver, checked in the
 * order the driver's calls happen (open, observe, act, settings, close). */
int main(void)
{
	/* maestro.platform from the capabilities: no server needed */
	{
		amc_config *pc = amc_config_new();
		amc_err pe;
		unsetenv("AMC_APPIUM_CAPS");
		is_str(amc_appium_platform(pc), "android", "no capabilities: android");
		amc_config_set(pc, "appium", "capabilities", "{\"platformName\":\"iOS\"}", "test", &pe);
		is_str(amc_appium_platform(pc), "ios", "platformName iOS: ios");
		amc_config_set(pc, "appium", "capabilities", "{\"platformName\":\"Android\"}", "test", &pe);
		is_str(amc_appium_platform(pc), "android", "platformName Android: android");
		amc_config_set(pc, "appium", "capabilities", "not json", "test", &pe);
		is_str(amc_appium_platform(pc), "android", "unreadable capabilities: android");
		amc_config_free(pc);
	}
	/* The recording's success path, against tests/appium/recording-stub.js
	 * (the fake driver has no recording; real drivers answer the same two
	 * endpoints): started, stopped, the video handed over as MP4. */
	const char *stub = getenv("AMC_TEST_APPIUM_STUB_URL");
	if (stub && *stub) {
		amc_config *sc = amc_config_new();
		amc_err se;
		amc_config_set(sc, "appium", "capabilities", "{\"platformName\":\"Android\"}", "test", &se);
		amc_device *sd = NULL;
		if (ok(amc_appium_open(stub, sc, &sd, &se) == 0, "a session on the recording stub (%s)", se.msg)) {
			unsigned char *vid = NULL;
			size_t vlen = 0;
			char ext[8] = "";
			int frames = 0;
			ok(sd->ops->record_start(sd, &se) == 0, "startRecording: appium/start_recording_screen answered");
			ok(sd->ops->record_stop(sd, &vid, &vlen, ext, sizeof ext, &frames, &se) == 0,
			   "stopRecording: appium/stop_recording_screen answered (%s)", se.msg);
			ok(vid && vlen > 12 && !memcmp(vid + 4, "ftypisom", 8) &&
			   !memcmp(vid + vlen - 18, "amc-recording-stub", 18), "the video's bytes, decoded from base64");
			is_str(ext, "mp4", "as MP4");
			is_int(frames, -1, "frame count unknown");
			free(vid);
			ok(sd->ops->record_stop(sd, &vid, &vlen, ext, sizeof ext, &frames, &se) == -1 &&
			   strstr(se.msg, "no recording is running"), "a stop without a start: the driver's error: %.120s", se.msg);
			amc_device_close(sd);
		}
		amc_config_free(sc);
	}
	url = getenv("AMC_TEST_APPIUM_URL");
	const char *app = getenv("AMC_TEST_APPIUM_APP");
	if (!url || !*url || !app || !*app) {
		diag("the session tests are run by tests/integration/test_appium.sh (they need an Appium server)");
		return done_testing();
	}
	const char *home = test_home("appium");
	(void)home;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	amc_config *cfg = NULL;
	amc_err e;
	if (amc_config_load(&cfg, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	char caps[2048];
	snprintf(caps, sizeof caps,
		 "{\"platformName\":\"Fake\",\"appium:automationName\":\"Fake\",\"appium:deviceName\":\"Fake Phone\","
		 "\"appium:app\":\"%s\"}", app);

	amc_device *d = NULL;
	char id[256];
	snprintf(id, sizeof id, "appium:%s", url);
	ok(amc_device_open(id, home, cfg, &d, &e) == -1 && e.code == AMC_EUSAGE && strstr(e.msg, "AMC_APPIUM_CAPS"),
	   "no capabilities: usage error naming both places: %s", e.msg);
	amc_config_set(cfg, "appium", "capabilities", "{\"platformName\":\"Fake\",\"automationName\":\"Fake\"}", "test", &e);
	ok(amc_device_open(id, home, cfg, &d, &e) == -1 && e.code == AMC_EENV && strstr(e.msg, "capabilities"),
	   "unprefixed vendor capability refused by the server, reported: %.200s", e.msg);
	amc_config_set(cfg, "appium", "capabilities", caps, "test", &e);
	int rc = amc_device_open(id, home, cfg, &d, &e);
	if (!ok(rc == 0, "session created on %s (%s)", url, rc ? e.msg : "ok")) {
		amc_config_free(cfg);
		return done_testing();
	}
	char sid[128];
	snprintf(sid, sizeof sid, "%s", amc_appium_session(d));
	ok(sid[0] != '\0', "session id %s", sid);

	amc_device_info info;
	rc = d->ops->info(d, &info, &e);
	ok(rc == 0 && info.width > 0 && info.height > 0 && !strcmp(info.kind, "appium") && !strcmp(info.model, "Fake Phone"),
	   "info: %dx%d %s", info.width, info.height, info.model);

	unsigned char *png = NULL;
	size_t len = 0;
	rc = d->ops->screenshot(d, &png, &len, &e);
	ok(rc == 0 && len > 100 && !memcmp(png, "\x89PNG", 4), "screenshot decoded from base64 to PNG (%zu bytes)", len);
	free(png);

	char *xml = NULL;
	rc = d->ops->ui_tree(d, &xml, &len, &e);
	ok(rc == 0 && xml && strstr(xml, "<AppiumAUT>") && strstr(xml, "MockInputField"), "page source (AppiumAUT)");
	free(xml);

	amc_element_ref user = { "username", NULL, 0 }, login = { NULL, "Log in", 0 }, quoted = { NULL, "It's \"quoted\"", 0 };
	ok(d->ops->set_value && d->ops->tap_element, "the driver offers element operations");
	const char *text = "ada@example.com it's \"x\" $(id) \xf0\x9f\x98\x80";
	rc = d->ops->set_value(d, &user, text, &e);
	ok(rc == 0, "set_value on the MockInputField by id (%s)", rc ? e.msg : "ok");
	char *v = attr(sid, "username", "value");
	is_str(v, text, "the server holds exactly the text");
	free(v);
	rc = d->ops->tap_element(d, &login, &e);
	ok(rc == 0, "tap_element by text (%s)", rc ? e.msg : "ok");
	v = attr(sid, "login", "clicks");
	is_str(v, "1", "the server counted one click on the button");
	free(v);
	rc = d->ops->tap_element(d, &quoted, &e);
	ok(rc == 0, "a text with both quote kinds makes a valid XPath (%s)", rc ? e.msg : "ok");
	amc_element_ref none = { "nope", NULL, 0 };
	rc = d->ops->tap_element(d, &none, &e);
	ok(rc == -1 && e.code == AMC_EFAIL && strstr(e.msg, "no element matches id 'nope'"), "missing element: %s", e.msg);
	amc_element_ref btn_as_field = { "login", NULL, 0 };
	rc = d->ops->set_value(d, &btn_as_field, "x", &e);
	ok(rc == -1 && strstr(e.msg, "invalid element state"), "value.error read and reported: %.200s", e.msg);

	ok(d->ops->tap(d, 100, 100, &e) == 0, "W3C pointer tap accepted");
	ok(d->ops->swipe(d, 500, 1500, 500, 500, 300, &e) == 0, "W3C pointer swipe accepted");
	ok(d->ops->long_press(d, 100, 100, 800, &e) == 0, "W3C long press accepted");
	ok(d->ops->tap(d, 100000, 5, &e) == -1 && e.code == AMC_EUSAGE, "tap off the window refused");
	rc = d->ops->key(d, AMC_KEY_BACK, &e);
	ok(rc == -1 && strstr(e.msg, "back key is not available"),
	   "back: unknown method, then the key-event fallback, then a clear error: %.200s", e.msg);
	/* app actions the fake driver has no script for: a clear error, not a crash */
	char *ids = NULL;
	rc = d->ops->list_apps(d, &ids, &e);
	ok(rc == -1 && strstr(e.msg, "cannot list apps (mobile: listApps)") && !ids,
	   "list_apps: a driver without mobile: listApps says so: %.160s", e.msg);
	rc = d->ops->manage_app(d, NULL, AMC_APP_INSTALL, "/tmp/none.apk", &e);
	ok(rc == -1 && strstr(e.msg, "mobile: installApp failed"), "install_app: the driver's refusal, named: %.160s", e.msg);

	char path[256];
	/* set_device through WebDriver's endpoints (flows' setOrientation,
	 * setLocation): the fake driver keeps what it was told. */
	ok(d->ops->set && d->ops->set(d, AMC_SET_ORIENTATION, "landscape_left", &e) == 0,
	   "setOrientation LANDSCAPE_LEFT: POST /orientation");
	snprintf(path, sizeof path, "/session/%s/orientation", sid);
	cJSON *o = raw("GET", path, NULL);
	is_str(cJSON_GetStringValue(o), "LANDSCAPE", "the server turned to LANDSCAPE");
	cJSON_Delete(o);
	ok(d->ops->set(d, AMC_SET_ORIENTATION, "upside_down", &e) == -1 && e.code == AMC_EUSAGE,
	   "UPSIDE_DOWN refused: Appium's endpoint has PORTRAIT and LANDSCAPE (%s)", e.msg);
	ok(d->ops->set(d, AMC_SET_ORIENTATION, "portrait", &e) == 0, "and back to PORTRAIT");
	ok(d->ops->set(d, AMC_SET_LOCATION, "52.52,13.40", &e) == 0, "setLocation: POST /location");
	snprintf(path, sizeof path, "/session/%s/location", sid);
	o = raw("GET", path, NULL);
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(o, "latitude");
	ok(cJSON_IsNumber(lat) && lat->valuedouble > 52.5 && lat->valuedouble < 52.53, "the server holds latitude 52.52");
	cJSON_Delete(o);
	ok(d->ops->set(d, AMC_SET_AIRPLANE, "on", &e) == -1 && e.code == AMC_EUSAGE && strstr(e.msg, "platform is unknown"),
	   "airplane mode on a Fake platform: refused, saying to name the platform: %.120s", e.msg);

	/* Airplane mode, dark mode and media by platform (appium_set.c). The fake
	 * driver has none of these `mobile:` scripts nor push_file: what is tested
	 * is that amc asks the right one (test_appium.sh reads the arguments back
	 * from Appium's log) and reports the driver's refusal naming it. */
	amc_config_set(cfg, "appium", "platform", "android", "test", &e);
	amc_device *da = NULL;
	if (ok(amc_device_open(id, home, cfg, &da, &e) == 0, "a session read as Android ([appium] platform android)")) {
		char st[8];
		ok(da->ops->set(da, AMC_SET_AIRPLANE, "on", &e) == -1 && strstr(e.msg, "mobile: setConnectivity"),
		   "setAirplaneMode on Android: mobile: setConnectivity asked: %.160s", e.msg);
		ok(da->ops->set(da, AMC_SET_AIRPLANE, "toggle", &e) == -1 && strstr(e.msg, "mobile: getConnectivity"),
		   "toggleAirplaneMode reads first: mobile: getConnectivity: %.160s", e.msg);
		ok(da->ops->set(da, AMC_SET_DARK_MODE, "on", &e) == -1 && strstr(e.msg, "mobile: setUiMode"),
		   "setDarkMode on Android: mobile: setUiMode: %.160s", e.msg);
		ok(da->ops->get && da->ops->get(da, AMC_SET_DARK_MODE, st, sizeof st, &e) == -1 &&
		   strstr(e.msg, "mobile: getUiMode"), "assertDarkMode on Android: mobile: getUiMode: %.160s", e.msg);
		char media[4200];
		snprintf(media, sizeof media, "%s/amc-test-pic.png", home);
		FILE *mf = fopen(media, "wb");
		if (mf) {
			fputs("\x89PNG not really", mf);
			fclose(mf);
		}
		ok(da->ops->set(da, AMC_SET_ADD_MEDIA, media, &e) == -1 && strstr(e.msg, "push_file"),
		   "addMedia on Android: appium/device/push_file asked: %.160s", e.msg);
		amc_device_close(da);
	}
	amc_config_set(cfg, "appium", "platform", "ios", "test", &e);
	da = NULL;
	if (ok(amc_device_open(id, home, cfg, &da, &e) == 0, "a session read as iOS ([appium] platform ios)")) {
		ok(da->ops->set(da, AMC_SET_AIRPLANE, "on", &e) == -1 && e.code == AMC_EUSAGE &&
		   strstr(e.msg, "iOS (XCUITest) has no command"), "setAirplaneMode on iOS: refused, naming why: %.120s", e.msg);
		ok(da->ops->set(da, AMC_SET_DARK_MODE, "off", &e) == -1 && strstr(e.msg, "mobile: setAppearance"),
		   "setDarkMode on iOS: mobile: setAppearance: %.160s", e.msg);
		ok(da->ops->set(da, AMC_SET_DARK_MODE, "toggle", &e) == -1 && strstr(e.msg, "mobile: getAppearance"),
		   "toggleDarkMode on iOS reads first: mobile: getAppearance: %.160s", e.msg);
		amc_device_close(da);
	}
	amc_config_set(cfg, "appium", "platform", "auto", "test", &e);
	/* the fake driver has no screen recording: the error is Appium's, named */
	ok(d->ops->record_start && d->ops->record_start(d, &e) == -1 && strstr(e.msg, "screen recording"),
	   "startRecording: appium/start_recording_screen asked, the fake driver's refusal reported: %.160s", e.msg);

	/* The server forgets the session: the driver makes a new one, once. */
	snprintf(path, sizeof path, "/session/%s", sid);
	cJSON_Delete(raw("DELETE", path, NULL));
	xml = NULL;
	rc = d->ops->ui_tree(d, &xml, &len, &e);
	ok(rc == 0 && xml && strstr(xml, "MockInputField"), "after invalid session id the session is recreated (%s)",
	   rc ? e.msg : "ok");
	ok(strcmp(amc_appium_session(d), sid) != 0, "with a new id");
	free(xml);
	ok(d->ops->health(d, &e) == 0, "health: /status answers");
	amc_device_close(d);

	/* A flow, unchanged Maestro YAML, on the fake app: taps and typing go
	 * through the element operations. */
	rc = amc_device_open(id, home, cfg, &d, &e);
	amc_store *store = NULL;
	amc_flow flow;
	amc_planner *planner = NULL;
	if (ok(rc == 0 && amc_store_open(home, &store, &e) == 0, "new session and store for the flow (%s)", rc ? e.msg : "ok") &&
	    ok(amc_flow_load(getenv("AMC_TEST_APPIUM_FLOW"), &flow, &e) == 0, "flow loaded")) {
		amc_task *task = amc_task_new("flow", id);
		task->flow_name = amc_xstrdup(flow.name);
		amc_flow_planner_new(&flow, 2000, &planner, &e);
		amc_runner_opts o;
		amc_runner_opts_from_config(&o, cfg);
		o.settle_interval_ms = 10;
		amc_task_outcome out;
		ok(amc_task_run(&(amc_run_env){ store, NULL, d, NULL, NULL, NULL, NULL }, planner, task, &o, &out, &e) == 0, "flow ran");
		if (!ok(!strcmp(out.status, "succeeded") && out.steps == 7, "sign-in.yaml succeeded on Appium in 7 steps"))
			diag("%s after %d steps: %s", out.status, out.steps, out.error);
		snprintf(sid, sizeof sid, "%s", amc_appium_session(d));
		v = attr(sid, "username", "value");
		is_str(v, "ada@example.com", "the flow's text is in the MockInputField");
		free(v);
		v = attr(sid, "login", "clicks");
		is_str(v, "1", "the flow's tap clicked the button once");
		free(v);
		amc_step_row *steps = NULL;
		size_t n = 0;
		amc_store_get_steps(store, task->id, &steps, &n, &e);
		ok(n >= 4 && steps[1].result && strstr(steps[1].result, "\"element\""),
		   "the tap step records the element it clicked: %s", n >= 2 && steps[1].result ? steps[1].result : "");
		amc_step_rows_free(steps, n);
		amc_planner_free(planner);
		amc_task_free(task);
	}
	amc_store_close(store);
	amc_device_close(d);

	amc_appium_open("http://127.0.0.1:1", cfg, &d, &e);
	ok(e.code == AMC_EENV && strstr(e.msg, "does not answer"), "no server: %.200s", e.msg);
	amc_config_free(cfg);
	curl_global_cleanup();
	return done_testing();
}

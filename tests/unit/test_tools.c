/* test_tools.c - the tool registry: names, schemas, argument validation, effects on the sim. */
#include <string.h>

#include "device/device.h"
#include "runtime/observe.h"
#include "runtime/tools.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"

int main(void)
{
	const char *home = test_home("tools");
	size_t n;
	const amc_tool *all = amc_tools_all(&n);
	is_int(n, 11, "eleven tools");
	static const char *names[] = { "describe_screen", "describe_screen_semantic", "get_ui_tree", "screenshot", "tap",
				       "long_press", "swipe", "type_text", "press_key", "launch_app", "wait" };
	for (size_t i = 0; i < 11; i++)
		ok(amc_tools_find(names[i]) != NULL, "tool %s registered", names[i]);
	ok(amc_tools_find("teleport") == NULL, "unknown tool not found");
	for (size_t i = 0; i < n; i++) {
		cJSON *s = cJSON_Parse(all[i].args_schema);
		ok(s && cJSON_IsFalse(cJSON_GetObjectItem(s, "additionalProperties")), "%s schema is strict JSON", all[i].name);
		cJSON_Delete(s);
	}

	amc_err e;
	amc_config *cfg = amc_config_new();
	amc_device *d;
	if (amc_device_open("sim", home, cfg, &d, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_observation obs;
	amc_observe_opts oo = { 0, AMC_OCR_OFF };
	ok(amc_observe(d, &oo, &obs, &e) == 0, "observe");
	amc_tool_ctx c = { d, &obs };
	cJSON *res = NULL;
	cJSON *args = cJSON_Parse("{\"x\":\"left\",\"y\":3}");
	ok(amc_tools_find("tap")->run(&c, args, &res, &e) == -1 && e.code == AMC_EUSAGE, "tap with a string x is refused");
	like(e.msg, "'x' must be a whole number", "message names the argument");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"y\":3}");
	ok(amc_tools_find("tap")->run(&c, args, &res, &e) == -1, "tap without x is refused");
	like(e.msg, "missing argument 'x'", "missing argument named");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"key\":\"sideways\"}");
	ok(amc_tools_find("press_key")->run(&c, args, &res, &e) == -1, "unknown key refused");
	cJSON_Delete(args);
	args = cJSON_Parse("{\"app_id\":\"com.android.contacts\"}");
	ok(amc_tools_find("launch_app")->run(&c, args, &res, &e) == 0, "launch_app works");
	cJSON_Delete(res);
	res = NULL;
	cJSON_Delete(args);
	args = cJSON_Parse("{}");
	ok(amc_tools_find("describe_screen")->run(&c, args, &res, &e) == 0 &&
	   cJSON_GetObjectItem(res, "elements") != NULL, "describe_screen returns the scene");
	cJSON_Delete(res);
	res = NULL;
	ok(amc_tools_find("get_ui_tree")->run(&c, args, &res, &e) == 0 &&
	   cJSON_GetObjectItem(res, "nodes") != NULL, "get_ui_tree returns nodes");
	cJSON_Delete(res);
	res = NULL;
	ok(amc_tools_find("screenshot")->run(&c, args, &res, &e) == 0 &&
	   cJSON_GetObjectItem(res, "width")->valueint == obs.width, "screenshot result has the size");
	cJSON_Delete(res);
	cJSON_Delete(args);
	amc_observation_free(&obs);
	amc_device_close(d);
	amc_config_free(cfg);
	return done_testing();
}

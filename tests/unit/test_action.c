/* test_action.c - a step's action in words (report/action.c): each tool the
 * runner records, a flow's selector, the scene element a point falls on, a
 * swipe's direction, a long string cut, an unknown tool with its arguments. */
#include <string.h>

#include <cjson/cJSON.h>

#include "report/action.h"
#include "tap.h"

static void words(const char *tool, const char *args, const char *scene, const char *want, const char *what)
{
	cJSON *a = args ? cJSON_Parse(args) : NULL, *s = scene ? cJSON_Parse(scene) : NULL;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_report_action_words(tool, a, s, &sb);
	is_str(amc_sb_str(&sb), want, "%s", what);
	amc_sb_free(&sb);
	cJSON_Delete(a);
	cJSON_Delete(s);
}

int main(void)
{
	const char *scene = "{\"elements\":[{\"id\":\"e1\",\"bounds\":[0,0,1080,2400]},"
			    "{\"id\":\"e12\",\"text\":\"Save\",\"bounds\":[400,1600,700,1650]}]}";
	words("tap", "{\"x\":540,\"y\":1620}", scene, "tap \"Save\" (e12) at 540,1620",
	      "a tap names the smallest element under the point, its id and the point");
	words("tap", "{\"x\":922,\"y\":1039,\"selector\":\"text=\\\"Save\\\"\"}", NULL, "tap \"Save\" at 922,1039",
	      "a flow's text selector reads as the quoted text");
	words("tap", "{\"x\":5,\"y\":6,\"selector\":\"id=\\\"name\\\"\"}", NULL, "tap id=\"name\" at 5,6",
	      "any other selector as written");
	words("long_press", "{\"x\":540,\"y\":1620,\"ms\":800}", scene, "long press \"Save\" (e12) at 540,1620",
	      "a long press");
	words("type_text", "{\"text\":\"Ada\",\"element_id\":\"e7\"}", NULL, "type \"Ada\" into e7", "typing into an element");
	words("type_text", "{\"text\":\"Ada\"}", NULL, "type \"Ada\"", "typing into the focused field");
	words("swipe", "{\"x1\":500,\"y1\":2000,\"x2\":500,\"y2\":600}", NULL, "swipe up from 500,2000 to 500,600",
	      "a swipe whose finger moves up");
	words("swipe", "{\"x1\":900,\"y1\":1000,\"x2\":100,\"y2\":1100}", NULL, "swipe left from 900,1000 to 100,1100",
	      "a swipe left");
	words("assert_visible", "{\"selector\":\"text=\\\"Saved\\\"\"}", NULL, "assert visible \"Saved\"",
	      "an assertion");
	words("assert_not_visible", "{\"selector\":\"text=\\\"HomeNet\\\"\"}", NULL, "assert not visible \"HomeNet\"",
	      "a negative assertion");
	words("press_key", "{\"key\":\"back\"}", NULL, "press back", "a key");
	words("launch_app", "{\"app_id\":\"com.android.contacts\"}", NULL, "launch com.android.contacts", "a launch");
	words("wait", "{\"ms\":300}", NULL, "wait 300 ms", "a wait");
	words("manage_app", "{\"op\":\"clear_state\",\"app_id\":\"x\",\"flow_line\":3}", NULL,
	      "manage_app op=\"clear_state\" app_id=\"x\"", "another tool: its arguments, the flow's line left out");
	words(NULL, NULL, NULL, "?", "no tool recorded");
	char long_text[400], args[500];
	memset(long_text, 'a', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = 0;
	snprintf(args, sizeof args, "{\"text\":\"%s\"}", long_text);
	cJSON *a = cJSON_Parse(args);
	amc_sb sb;
	amc_sb_init(&sb);
	amc_report_action_words("type_text", a, NULL, &sb);
	ok(sb.len < 140 && strstr(amc_sb_str(&sb), "…\""), "a long text is cut (%zu bytes)", sb.len);
	amc_sb_free(&sb);
	cJSON_Delete(a);
	is_str(amc_report_swipe_direction(0, 0, 0, 10), "down", "down");
	is_str(amc_report_swipe_direction(0, 0, 10, 0), "right", "right");
	return done_testing();
}

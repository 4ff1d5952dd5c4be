/* mcp_tools_list.h - the six tools' definitions as JSON text (one source for
 * tools/list and for argument checks). Included by mcp_tools.c only. */
#define DEV "\"device\":{\"type\":\"string\",\"description\":\"device id from devices (default: the configured one)\"}"
#define ID "\"id\":{\"type\":\"string\",\"description\":\"task id or unique prefix\"}"
#define OBJ(props, req) "{\"type\":\"object\",\"properties\":{" props "}" req ",\"additionalProperties\":false}"
#define ANN(ro, de, id, ow) ",\"annotations\":{\"readOnlyHint\":" ro ",\"destructiveHint\":" de ",\"idempotentHint\":" id ",\"openWorldHint\":" ow "}"
static const char TOOLS_JSON[] = "["
	"{\"name\":\"devices\",\"title\":\"List devices\","
	"\"description\":\"Phones amc can drive: id, kind, model, size, status, the task holding it.\","
	"\"inputSchema\":" OBJ("", "") ","
	"\"outputSchema\":" OBJ("\"devices\":{\"type\":\"array\",\"items\":{\"type\":\"object\"}}", ",\"required\":[\"devices\"]")
	ANN("true", "false", "true", "false") "},"

	"{\"name\":\"observe\",\"title\":\"Observe a screen\","
	"\"description\":\"The screen as a Scene (elements with ids, types, bounds [x1,y1,x2,y2], text) and a screenshot "
	"(long edge <= 1024 px). Read-only; does not hold the device.\","
	"\"inputSchema\":" OBJ(DEV ",\"image\":{\"type\":\"boolean\",\"description\":\"include the screenshot (default true)\"},"
			       "\"semantic\":{\"type\":\"boolean\",\"description\":\"add the SemanticScene when enrichment is on\"}", "") ","
	"\"outputSchema\":" OBJ("\"device\":{\"type\":\"string\"},\"scene\":{\"type\":\"object\"},\"semantic\":{},"
				"\"screenshot\":{},\"task\":{}", ",\"required\":[\"device\",\"scene\"]")
	ANN("true", "false", "true", "false") "},"

	"{\"name\":\"act\",\"title\":\"Act on a device\","
	"\"description\":\"One action, recorded as a step of this session's task; returns the step and the new screen. "
	"tap/long_press: element (a Scene id) or x,y in device pixels (not image pixels). swipe: x,y to x2,y2. type_text: text (may hold {{secret:NAME}}). "
	"press_key: key. launch_app: app. wait: ms. finish: ends the task (success, summary; answer for a question). "
	"Irreversible-looking taps need a person's yes.\","
	"\"inputSchema\":" OBJ(DEV ",\"action\":{\"type\":\"string\",\"enum\":[\"tap\",\"long_press\",\"swipe\",\"type_text\","
			       "\"press_key\",\"launch_app\",\"wait\",\"finish\"]},\"element\":{\"type\":\"string\"},"
			       "\"x\":{\"type\":\"integer\"},\"y\":{\"type\":\"integer\"},\"x2\":{\"type\":\"integer\"},"
			       "\"y2\":{\"type\":\"integer\"},\"ms\":{\"type\":\"integer\"},\"text\":{\"type\":\"string\"},"
			       "\"key\":{\"type\":\"string\",\"enum\":[\"back\",\"home\",\"enter\",\"delete\",\"tab\",\"escape\","
			       "\"lock\",\"power\",\"volume_up\",\"volume_down\",\"dpad_up\",\"dpad_down\",\"dpad_left\","
			       "\"dpad_right\",\"dpad_center\",\"media_play_pause\",\"media_stop\",\"media_next\","
			       "\"media_previous\",\"media_rewind\",\"media_fast_forward\",\"hide_keyboard\"]},\"app\":{\"type\":\"string\"},"
			       "\"success\":{\"type\":\"boolean\"},\"summary\":{\"type\":\"string\"},\"answer\":{\"type\":\"string\"},"
			       "\"reason\":{\"type\":\"string\",\"maxLength\":2000,\"description\":\"why (recorded with the step)\"}",
			       ",\"required\":[\"action\"]") ","
	"\"outputSchema\":" OBJ("\"task\":{\"type\":\"string\"},\"step\":{\"type\":\"integer\"},\"status\":{\"type\":\"string\"},"
				"\"error\":{},\"scene\":{},\"steps\":{\"type\":\"integer\"}", ",\"required\":[\"task\",\"step\",\"status\"]")
	ANN("false", "true", "false", "false") "},"

	"{\"name\":\"run_task\",\"title\":\"Run a task\","
	"\"description\":\"Run a goal with amc's own planner, or a Maestro flow (a path or YAML text), as a task of its "
	"own. Returns the task id at once unless wait is true (then progress per step).\","
	"\"inputSchema\":" OBJ(DEV ",\"goal\":{\"type\":\"string\"},\"flow\":{\"type\":\"string\"},"
			       "\"max_steps\":{\"type\":\"integer\"},\"wait\":{\"type\":\"boolean\"}", "") ","
	"\"outputSchema\":" OBJ("\"task\":{\"type\":\"string\"},\"status\":{\"type\":\"string\"},\"steps\":{},\"summary\":{},"
				"\"error\":{}", ",\"required\":[\"task\",\"status\"]")
	ANN("false", "true", "false", "false") "},"

	"{\"name\":\"task\",\"title\":\"Show a task\","
	"\"description\":\"A task's status and its latest steps; with step, that step's detail (screenshots, trees by "
	"artifact path and size).\","
	"\"inputSchema\":" OBJ(ID ",\"step\":{\"type\":\"integer\"}", ",\"required\":[\"id\"]") ","
	"\"outputSchema\":" OBJ("\"task\":{\"type\":\"object\"},\"steps\":{\"type\":\"array\"},\"steps_left_out\":{\"type\":\"integer\"},\"step\":{}", ",\"required\":[\"task\"]")
	ANN("true", "false", "true", "false") "},"

	"{\"name\":\"cancel_task\",\"title\":\"Cancel a task\","
	"\"description\":\"Cancel a task this server runs (a run_task run or this session's task).\","
	"\"inputSchema\":" OBJ(ID, ",\"required\":[\"id\"]") ","
	"\"outputSchema\":" OBJ("\"task\":{\"type\":\"string\"},\"cancelled\":{\"type\":\"boolean\"}", ",\"required\":[\"task\",\"cancelled\"]")
	ANN("false", "true", "true", "false") "}"
	"]";

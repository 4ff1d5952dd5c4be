/* mcp_tools_list.h - the six tools' definitions as JSON text (one source for
 * tools/list and for argument checks). act's description, action enum and
 * per-action arguments are added from the tool registry (amc_mcp_act_schema).
 * Included by mcp_tools.c only. */
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
				"\"screenshot\":{},\"task\":{},\"age_ms\":{},\"fresh\":{}", ",\"required\":[\"device\",\"scene\"]")
	ANN("true", "false", "true", "false") "},"

	"{\"name\":\"act\",\"title\":\"Act on a device\","
	"\"description\":\"\","  /* made from the tool registry: amc_mcp_act_schema */
	"\"inputSchema\":" OBJ(DEV ",\"action\":{\"type\":\"string\"},"
			       "\"success\":{\"type\":\"boolean\"},\"summary\":{\"type\":\"string\"},\"answer\":{\"type\":\"string\"},"
			       "\"reason\":{\"type\":\"string\",\"maxLength\":2000,\"description\":\"why (recorded with the step)\"}",
			       ",\"required\":[\"action\"]") ","
	"\"outputSchema\":" OBJ("\"task\":{\"type\":\"string\"},\"step\":{\"type\":\"integer\"},\"status\":{\"type\":\"string\"},"
				"\"error\":{},\"result\":{},\"scene\":{},\"steps\":{\"type\":\"integer\"}", ",\"required\":[\"task\",\"step\",\"status\"]")
	ANN("false", "true", "false", "false") "},"

	"{\"name\":\"run_task\",\"title\":\"Run a task\","
	"\"description\":\"Run a goal with amc's own planner, or a Maestro flow (a path or YAML text), as a task of its "
	"own. Returns the task id at once unless wait is true (then progress per step). check_only: only amc flow "
	"check the flow (problems by line; task null).\","
	"\"inputSchema\":" OBJ(DEV ",\"goal\":{\"type\":\"string\"},\"flow\":{\"type\":\"string\"},"
			       "\"max_steps\":{\"type\":\"integer\"},\"wait\":{\"type\":\"boolean\"},"
			       "\"check_only\":{\"type\":\"boolean\"}", "") ","
	/* task: null for check_only (no task is created) */
	"\"outputSchema\":" OBJ("\"task\":{\"type\":[\"string\",\"null\"]},\"status\":{\"type\":\"string\"},\"steps\":{},"
				"\"summary\":{},\"error\":{},\"problems\":{\"type\":\"array\"}", ",\"required\":[\"task\",\"status\"]")
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

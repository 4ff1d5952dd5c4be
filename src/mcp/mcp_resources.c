/* mcp_resources.c - the flow cheat sheet as an MCP resource (mcp_resources.h). */
#include "mcp/mcp_resources.h"

#include <string.h>

/* Kept short (an agent reads it whole): docs/flows.md has every command and
 * option; `amc flow check` says what a given flow needs. */
static const char SHEET[] =
	"# Maestro flows in amc (run_task {flow: PATH or YAML text})\n"
	"\n"
	"A flow is a config document, `---`, then a list of commands:\n"
	"\n"
	"    appId: com.android.contacts\n"
	"    name: Add Ada\n"
	"    ---\n"
	"    - launchApp: {clearState: true}\n"
	"    - tapOn: \"Add contact\"          # text (full-match regex) or {id: ..., index: N}\n"
	"    - tapOn: {id: \"name\"}\n"
	"    - inputText: \"Ada Lovelace\"\n"
	"    - pressKey: Enter                # Back, Home, Enter, Backspace, ...\n"
	"    - assertVisible: \"Ada Lovelace\"\n"
	"    - scrollUntilVisible: {element: \"Save\", direction: DOWN}\n"
	"    - extendedWaitUntil: {visible: \"Saved\", timeout: 5000}\n"
	"\n"
	"Selectors: text, id, index, enabled/checked/focused/selected, below/above/\n"
	"leftOf/rightOf/childOf/containsChild, point: \"50%,50%\"; optional: true\n"
	"turns a failure into a skip.\n"
	"Control: runFlow (file or commands, when: {visible|notVisible|true|platform}),\n"
	"repeat {times|while}, retry {maxRetries}, env: {NAME: value} and ${NAME}\n"
	"(JavaScript inside ${...}), runScript, evalScript, assertTrue.\n"
	"Apps and device: stopApp, killApp, clearState, openLink, setPermissions,\n"
	"swipe {direction | start/end}, scroll, back, hideKeyboard, eraseText,\n"
	"copyTextFrom, pasteText, takeScreenshot, waitForAnimationToEnd,\n"
	"doubleTapOn, longPressOn, inputRandomText/Number/Email/PersonName.\n"
	"\n"
	"A flow from an MCP client asks a person before an irreversible-looking tap\n"
	"(Delete, Pay, Send...), as act does. A command amc does not know is refused\n"
	"before the run, naming its line; run_task {flow, check_only: true} says the\n"
	"same without running it (problems by line, no task), as `amc flow check`.\n";

cJSON *amc_mcp_resources_list(void)
{
	cJSON *r = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(r, "resources");
	cJSON *s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "uri", AMC_MCP_FLOW_SHEET_URI);
	cJSON_AddStringToObject(s, "name", "flow-cheat-sheet");
	cJSON_AddStringToObject(s, "title", "Maestro flows in amc: a cheat sheet");
	cJSON_AddStringToObject(s, "description", "How to write the flow run_task runs: commands, selectors, control");
	cJSON_AddStringToObject(s, "mimeType", "text/markdown");
	cJSON_AddNumberToObject(s, "size", (double)(sizeof SHEET - 1));
	cJSON_AddItemToArray(arr, s);
	return r;
}

cJSON *amc_mcp_resources_read(const char *uri)
{
	if (!uri || strcmp(uri, AMC_MCP_FLOW_SHEET_URI))
		return NULL;
	cJSON *r = cJSON_CreateObject();
	cJSON *arr = cJSON_AddArrayToObject(r, "contents");
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "uri", AMC_MCP_FLOW_SHEET_URI);
	cJSON_AddStringToObject(c, "mimeType", "text/markdown");
	cJSON_AddStringToObject(c, "text", SHEET);
	cJSON_AddItemToArray(arr, c);
	return r;
}

/* tools.h - the tool registry: every action a planner can ask for, one table.
 * describe_screen, get_ui_tree, screenshot, tap, long_press, swipe, type_text,
 * press_key, launch_app, wait, and manage_app and set_device (flows only). The LLM planner's tool schemas are made from it,
 * so a tool is added in one row. */
#ifndef AMC_TOOLS_H
#define AMC_TOOLS_H

#include <cjson/cJSON.h>
#include "device/device.h"
#include "runtime/planner.h"
#include "util/err.h"

typedef struct amc_tool_ctx {
	amc_device *dev;
	const amc_observation *obs;  /* the pre-action observation */
} amc_tool_ctx;

typedef struct amc_tool {
	const char *name;
	const char *summary;
	const char *args_schema;     /* JSON Schema text of the arguments */
	int acts;                    /* 1: changes the device (settle and observe afterwards) */
	/* Run with validated args; *result (owned by caller) may be set. */
	int (*run)(const amc_tool_ctx *ctx, const cJSON *args, cJSON **result, amc_err *e);
	int flows_only;              /* 1: for flows (clearing app data...), not offered to model planners */
} amc_tool;

const amc_tool *amc_tools_find(const char *name);
const amc_tool *amc_tools_all(size_t *n);

#endif

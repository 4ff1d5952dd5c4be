/* tools.h - the tool registry: every action a planner can ask for, one table.
 * describe_screen, get_ui_tree, screenshot, tap, long_press, swipe, type_text,
 * press_key, launch_app, open_link, rotate, list_apps, install_app, stop_app,
 * clear_app, wait, and manage_app, set_device, get_device, record and
 * assert_screenshot (flows only; tools_media.c has the last two and screenshot). The LLM planner's tool schemas
 * and MCP's act tool (its action enum and arguments) are made from it, so an action is added in one row. */
#ifndef AMC_TOOLS_H
#define AMC_TOOLS_H

#include <cjson/cJSON.h>
#include "device/device.h"
#include "runtime/planner.h"
#include "util/err.h"

typedef struct amc_tool_ctx {
	amc_device *dev;
	const amc_observation *obs;  /* the pre-action observation */
	/* Files a step makes (a recording, a cropped screenshot, a comparison's
	 * diff) become the task's artifact `name`; rel gets its path under
	 * home. NULL where nothing keeps files: the tools that need it say so. */
	int (*put)(void *ud, const char *name, const void *data, size_t len, char *rel, size_t reln, amc_err *e);
	void *put_ud;
	const char *home;            /* $AMC_HOME, with put */
	const char *task_id;         /* the task, with put */
} amc_tool_ctx;

typedef struct amc_tool {
	const char *name;
	const char *summary;
	const char *args_schema;     /* JSON Schema text of the arguments */
	int acts;                    /* 1: changes the device (settle and observe afterwards) */
	/* Run with validated args; *result (owned by caller) may be set. */
	int (*run)(const amc_tool_ctx *ctx, const cJSON *args, cJSON **result, amc_err *e);
	int flows_only;              /* 1: for flows (clearing app data...), not offered to model planners */
	int targets;                 /* 1: x,y may be given as a Scene element id instead (tap, long_press) */
	/* 1: irreversible whatever the screen shows (clear_app): every call goes
	 * through the confirmation gate (runtime/run.c), a person's yes or it is
	 * refused; only --yes lets it through unasked */
	int confirm;
	/* 1: reads the device without changing it, yet offered as an action
	 * (list_apps: what no Scene shows); recorded as a step, not settled */
	int reads;
} amc_tool;

/* What install_app takes: a regular file on amc's host, at most this big,
 * named .apk (adb, Appium's Android drivers), .ipa or .zip (Appium's iOS). */
#define AMC_INSTALL_MAX_BYTES (2LL * 1024 * 1024 * 1024)

const amc_tool *amc_tools_find(const char *name);
const amc_tool *amc_tools_all(size_t *n);

/* 1 when a model planner or an MCP client may ask for the tool as an action:
 * it changes the device (or reads what no Scene shows) and is not for flows
 * only. */
int amc_tools_is_action(const amc_tool *t);

/* The tool's argument schema (caller owns; NULL only if the row's text is
 * broken): args_schema with press_key's key enum filled from the device's key
 * table, so the LLM planner's tools and MCP's act offer the same keys. Both
 * are generated from this (one row per action). */
cJSON *amc_tools_schema(const amc_tool *t);

#endif

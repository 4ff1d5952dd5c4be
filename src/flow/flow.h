/* flow.h - Maestro-compatible YAML flows (parsed with libyaml).
 *
 * Supported commands (docs/flows.md lists them with their options): launchApp,
 * tapOn, longPressOn, inputText, eraseText, pressKey, back, scroll, swipe,
 * scrollUntilVisible, assertVisible, assertNotVisible, waitForAnimationToEnd,
 * takeScreenshot. A flow file is an optional config document (appId, name)
 * followed by `---` and a list of commands. An unknown command is an error that
 * names the file, the line and the command. */
#ifndef AMC_FLOW_H
#define AMC_FLOW_H

#include <stddef.h>
#include "util/err.h"

#define AMC_FLOW_MAX_BYTES (1024u * 1024u)
#define AMC_FLOW_MAX_COMMANDS 10000

typedef enum amc_flow_op {
	AMC_FLOW_LAUNCH_APP,
	AMC_FLOW_TAP_ON,
	AMC_FLOW_LONG_PRESS_ON,
	AMC_FLOW_INPUT_TEXT,
	AMC_FLOW_ERASE_TEXT,
	AMC_FLOW_PRESS_KEY,
	AMC_FLOW_BACK,
	AMC_FLOW_SCROLL,
	AMC_FLOW_SWIPE,
	AMC_FLOW_SCROLL_UNTIL_VISIBLE,
	AMC_FLOW_ASSERT_VISIBLE,
	AMC_FLOW_ASSERT_NOT_VISIBLE,
	AMC_FLOW_WAIT_FOR_ANIMATION,
	AMC_FLOW_TAKE_SCREENSHOT
} amc_flow_op;

/* Maestro selector: text and id are full-match regular expressions. */
typedef struct amc_selector {
	char *text;      /* matches text, content-desc or hint; NULL = any */
	char *id;        /* matches resource-id (also without the "pkg:id/" prefix); NULL = any */
	int index;       /* which match, 0-based (Maestro's index:) */
	int has_point;   /* tapOn: point: "50%,50%" or "x,y" */
	int point_x, point_y, point_is_percent;
	int optional;    /* Maestro's optional: true */
} amc_selector;

typedef struct amc_flow_cmd {
	amc_flow_op op;
	int line;            /* 1-based line in the file */
	amc_selector sel;    /* tapOn, longPressOn, assert*, scrollUntilVisible */
	char *text;          /* inputText, pressKey name, launchApp app id (NULL: the flow's appId) */
	int number;          /* eraseText count, waitForAnimationToEnd timeout */
	char *direction;     /* swipe/scrollUntilVisible: UP DOWN LEFT RIGHT */
	int sx, sy, ex, ey, percent; /* swipe start/end (percent when `percent`) */
	int clear_state;     /* launchApp clearState */
	int stop_app;        /* launchApp stopApp (default true) */
} amc_flow_cmd;

typedef struct amc_flow {
	char *path;          /* as given */
	char *name;          /* name: from the file, else the file's base name without extension */
	char *app_id;        /* appId from the config document, may be NULL */
	amc_flow_cmd *cmds;
	size_t count;
} amc_flow;

int amc_flow_load(const char *path, amc_flow *out, amc_err *e);
/* A flow file's bytes (at most AMC_FLOW_MAX_BYTES), for a caller that parses
 * them itself with amc_flow_parse; *text is the caller's (free). Errors are
 * AMC_EUSAGE with a terminal-safe path: not found, or why it cannot be read. */
int amc_flow_read(const char *path, char **text, size_t *len, amc_err *e);
/* Parse from memory; `path` is used for messages and the default name. */
int amc_flow_parse(const char *buf, size_t len, const char *path, amc_flow *out, amc_err *e);
void amc_flow_free(amc_flow *f);
const char *amc_flow_op_name(amc_flow_op op); /* Maestro's name: "tapOn" */
/* One line describing a command for timelines: "tapOn \"Add contact\"". Caller frees. */
char *amc_flow_cmd_describe(const amc_flow_cmd *c);

#endif

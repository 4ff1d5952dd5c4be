/* flow_types.h - what a parsed Maestro flow is made of: the commands' ops,
 * selectors, conditions, commands and the flow itself. Apart from flow.h so
 * that the parser (flow.c, flow_cmds*.c), the planner and the command table
 * (flow_commands.c, its row type flow_cmd_def.h) depend on the types and not
 * on each other. Who owns what is said per field; the two frees below
 * release it (flow_cmds.c). */
#ifndef AMC_FLOW_TYPES_H
#define AMC_FLOW_TYPES_H

#include <stddef.h>

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
	AMC_FLOW_TAKE_SCREENSHOT,
	/* flow control */
	AMC_FLOW_RUN_FLOW,        /* file (sub) or inline body, env, cond (when) */
	AMC_FLOW_REPEAT,          /* times and/or cond (while), body */
	AMC_FLOW_RETRY,           /* times = maxRetries, file (sub) or body */
	AMC_FLOW_EXTENDED_WAIT,   /* cond.visible / cond.not_visible, number = timeout */
	/* apps and state */
	AMC_FLOW_STOP_APP,        /* text: app id (NULL: the flow's) */
	AMC_FLOW_KILL_APP,
	AMC_FLOW_CLEAR_STATE,
	AMC_FLOW_CLEAR_KEYCHAIN,
	AMC_FLOW_OPEN_LINK,       /* text: the link */
	/* input */
	AMC_FLOW_INPUT_RANDOM,    /* number: length; direction: TEXT NUMBER EMAIL PERSON_NAME */
	AMC_FLOW_HIDE_KEYBOARD,
	AMC_FLOW_PASTE_TEXT,
	AMC_FLOW_COPY_TEXT_FROM,  /* sel */
	AMC_FLOW_SET_CLIPBOARD,   /* text */
	AMC_FLOW_DOUBLE_TAP_ON,
	/* JavaScript (through the interp's eval hook) */
	AMC_FLOW_EVAL_SCRIPT,     /* text: the script ("${...}" or bare) */
	AMC_FLOW_RUN_SCRIPT,      /* file, script (its text once resolved), env */
	AMC_FLOW_ASSERT_TRUE,     /* text: the condition */
	/* AI (the model client) */
	AMC_FLOW_ASSERT_WITH_AI,  /* text: the assertion */
	AMC_FLOW_ASSERT_NO_DEFECTS_WITH_AI,
	AMC_FLOW_EXTRACT_TEXT_WITH_AI, /* text: the query; direction: outputVariable */
	/* known, parsed, refused before a run on devices that cannot do them */
	AMC_FLOW_SET_LOCATION,
	AMC_FLOW_TRAVEL,
	AMC_FLOW_ADD_MEDIA,
	AMC_FLOW_START_RECORDING, /* text: the recording's path (its name) */
	AMC_FLOW_STOP_RECORDING,
	AMC_FLOW_SET_AIRPLANE_MODE,
	AMC_FLOW_TOGGLE_AIRPLANE_MODE,
	AMC_FLOW_SET_ORIENTATION,
	AMC_FLOW_SET_PERMISSIONS, /* text: app id (NULL: the flow's); env: the permissions */
	AMC_FLOW_ASSERT_SCREENSHOT, /* text: the reference's path; direction: thresholdPercentage; sel: cropOn */
	AMC_FLOW_SET_DARK_MODE,   /* text: "enabled" or "disabled" */
	AMC_FLOW_TOGGLE_DARK_MODE,
	AMC_FLOW_ASSERT_DARK_MODE,
	AMC_FLOW_ASSERT_LIGHT_MODE,
	AMC_FLOW_OP_COUNT
} amc_flow_op;

/* A tri-state selector flag (enabled, checked, focused, selected): zero is "any". */
enum { AMC_SEL_ANY = 0, AMC_SEL_YES = 1, AMC_SEL_NO = 2 };

/* Maestro selector: text and id are full-match regular expressions (they may
 * hold ${...}, interpolated when the command runs). Relative selectors are
 * owned sub-selectors (NULL when absent); selector.h says how they match. */
/* Maestro's ElementTrait (TraitFilters): text = has a text, square = width
 * and height within 3 %, long-text = a text of more than 200 characters. */
enum { AMC_TRAIT_TEXT = 1, AMC_TRAIT_SQUARE = 2, AMC_TRAIT_LONG_TEXT = 4 };

typedef struct amc_selector {
	char *text;      /* matches text, content-desc or hint; NULL = any */
	char *id;        /* matches resource-id (also without the "pkg:id/" prefix); NULL = any */
	int index;       /* which match, 0-based (Maestro's index:), when has_index */
	int has_index;
	int has_point;   /* tapOn: point: "50%,50%" or "x,y" */
	int point_x, point_y, point_is_percent;
	char *point_text;  /* a point written with ${...}: parsed when the command runs */
	char *index_text;  /* an index written with ${...} (Maestro's index is a text): read when it runs */
	int optional;    /* Maestro's optional: true (also the flag of commands without a selector) */
	int enabled, checked, focused, selected; /* AMC_SEL_* */
	int width, height, tolerance;            /* pixels; width/height 0 = any */
	unsigned traits;                         /* AMC_TRAIT_*: all must hold (Maestro's traits:) */
	struct amc_selector *below, *above, *left_of, *right_of, *contains_child, *child_of;
	struct amc_selector *descendants;        /* containsDescendants: all must be inside */
	size_t ndescendants;
} amc_selector;

/* NAME: value (env blocks, launchApp permissions); the value may hold ${...}. */
typedef struct amc_flow_kv {
	char *name;
	char *value;
} amc_flow_kv;

/* runFlow when:, repeat while:, extendedWaitUntil: all given parts must hold. */
typedef struct amc_flow_cond {
	amc_selector *visible;      /* NULL: no such part */
	amc_selector *not_visible;
	char *is_true;              /* `true:` text, interpolated, then judged truthy */
	char *platform;             /* "Android", "iOS" or "Web" */
} amc_flow_cond;

struct amc_flow;
struct amc_flow_cmd_def;

typedef struct amc_flow_cmd {
	amc_flow_op op;
	const struct amc_flow_cmd_def *def; /* its row (flow_cmd_def.h), set by the parser; not owned */
	int line;            /* 1-based line in the file */
	amc_selector sel;    /* tapOn, longPressOn, assert*, scrollUntilVisible, copyTextFrom, swipe from */
	char *text;          /* inputText, pressKey name, launchApp/stopApp app id (NULL: the flow's appId), ... */
	int number;          /* eraseText count, timeouts, inputRandom length */
	char *direction;     /* swipe/scrollUntilVisible: UP DOWN LEFT RIGHT */
	int sx, sy, ex, ey, percent; /* swipe start/end (percent when `percent`) */
	int clear_state;     /* launchApp clearState */
	int stop_app;        /* launchApp stopApp (default true) */
	int clear_keychain;  /* launchApp clearKeychain */
	char *label;         /* label: shown instead of the description */
	char *file;          /* runFlow/retry/runScript file, as written */
	struct amc_flow *sub; /* that file parsed, once resolved (amc_flow_resolve); owned */
	char *script;        /* runScript: the file's text once resolved; owned */
	struct amc_flow_cmd *body; /* runFlow/repeat/retry commands: */
	size_t nbody;
	amc_flow_kv *env;    /* runFlow/runScript env:, launchApp permissions */
	size_t nenv;
	amc_flow_kv *args;   /* launchApp arguments (values as written, ${...} filled at run time) */
	size_t nargs;
	amc_flow_cond cond;  /* runFlow when, repeat while, extendedWaitUntil */
	int times;           /* repeat times (0: while only), retry maxRetries, tap repeat */
	int delay;           /* tap repeat delay, ms */
	int retry_tap;       /* retryTapIfNoChange */
	int settle_ms;       /* waitToSettleTimeoutMs (0: the runner's settling) */
	int center;          /* scrollUntilVisible centerElement */
	int speed;           /* scrollUntilVisible speed 0-100 */
	int visibility;      /* scrollUntilVisible visibilityPercentage */
	int crop;            /* takeScreenshot/assertScreenshot: sel is cropOn's element */
} amc_flow_cmd;

typedef struct amc_flow {
	char *path;          /* as given (a sub-flow: joined to its parent's folder) */
	char *name;          /* name: from the file, else the file's base name without extension */
	char *app_id;        /* appId from the config document, may be NULL */
	amc_flow_cmd *cmds;
	size_t count;
	amc_flow_kv *env;    /* config env: defaults for ${NAME} */
	size_t nenv;
	amc_flow_cmd *on_start, *on_complete; /* onFlowStart / onFlowComplete */
	size_t non_start, non_complete;
	char **tags;         /* config tags */
	size_t ntags;
	char *notes;         /* what is accepted and ignored as Maestro ignores it, said why: "LINE: text"
			      * entries, one a line ("" when none); owned */
	int line_cmds;       /* line of the command list */
	int web;             /* the config has url: (a Maestro web flow) */
} amc_flow;

/* Frees what a flow owns (its commands, their sub-flows) and zeroes it
 * (flow_cmds.c: a command and its sub-flow free each other). */
void amc_flow_free(amc_flow *f);
/* Frees what a selector owns (relative selectors too) and zeroes it. */
void amc_selector_clear(amc_selector *s);

#endif

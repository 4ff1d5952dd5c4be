/* flow.h - Maestro-compatible YAML flows (parsed with libyaml).
 *
 * docs/flows.md lists the supported commands with their options and tests. A
 * flow file is an optional config document (appId, name, tags, env,
 * onFlowStart, onFlowComplete, ...) followed by `---` and a list of commands.
 * An unknown command is an error that names the file, the line and the command.
 *
 * Parsing reads one file. Resolving (amc_flow_resolve) then loads the files a
 * flow names (runFlow/retry sub-flows, runScript scripts) relative to the
 * folder of the file that names them, through a loader: the disk, or a flow
 * bundle's files. A resolved flow owns its sub-flows; it is what a flow
 * planner runs. Strings keep their ${...}: they are interpolated when the
 * command runs (flow_interp.h). */
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
	AMC_FLOW_START_RECORDING,
	AMC_FLOW_STOP_RECORDING,
	AMC_FLOW_SET_AIRPLANE_MODE,
	AMC_FLOW_TOGGLE_AIRPLANE_MODE,
	AMC_FLOW_SET_ORIENTATION,
	AMC_FLOW_SET_PERMISSIONS, /* text: app id (NULL: the flow's); env: the permissions */
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

typedef struct amc_flow_cmd {
	amc_flow_op op;
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
	char *notes;         /* config keys accepted and ignored, said why ("" when none); owned */
	int line_cmds;       /* line of the command list */
	int web;             /* the config has url: (a Maestro web flow) */
} amc_flow;

int amc_flow_load(const char *path, amc_flow *out, amc_err *e);
/* A flow file's bytes (at most AMC_FLOW_MAX_BYTES), for a caller that parses
 * them itself with amc_flow_parse; *text is the caller's (free). Errors are
 * AMC_EUSAGE with a terminal-safe path: not found, or why it cannot be read. */
int amc_flow_read(const char *path, char **text, size_t *len, amc_err *e);
/* Parse from memory; `path` is used for messages and the default name. */
int amc_flow_parse(const char *buf, size_t len, const char *path, amc_flow *out, amc_err *e);
/* amc_flow_parse for a sub-flow: check_top 0 lets commands that need the
 * flow's app id lack one (the parent's is taken when resolving). */
int amc_flow_parse_sub(const char *buf, size_t len, const char *path, int check_top, amc_flow *out, amc_err *e);
/* Every launchApp/stopApp/killApp/clearState has an app id (own or appId). */
int amc_flow_check_app_ids(const amc_flow *f, amc_err *e);
void amc_flow_free(amc_flow *f);
/* Frees what a selector owns (relative selectors too) and zeroes it. */
void amc_selector_clear(amc_selector *s);
const char *amc_flow_op_name(amc_flow_op op); /* Maestro's name: "tapOn" */
/* One line describing a command for timelines: "tapOn \"Add contact\"". Caller frees. */
char *amc_flow_cmd_describe(const amc_flow_cmd *c);

/* Where resolving reads the files a flow names. */
typedef struct amc_flow_loader {
	/* Read `path` (the parent's folder joined with the name as written):
	 * 0 with *text (caller frees), 1 when there is no such file, -1 error. */
	int (*read)(void *ud, const char *path, char **text, size_t *len, amc_err *e);
	/* Optional: told of a missing file (the command's file and line, the
	 * path looked for) and resolving goes on; NULL: a missing file is an
	 * error "FILE:LINE: runFlow: sub-flow file 'x' not found (looked for P)". */
	void (*missing)(void *ud, const char *flow_path, int line, const char *cmd, const char *path);
	void *ud;
} amc_flow_loader;

#define AMC_FLOW_MAX_DEPTH 16   /* sub-flows inside sub-flows */
#define AMC_FLOW_MAX_FILES 256  /* files loaded while resolving one flow */

/* Load every sub-flow and script `f` names, recursively (cycles and depth over
 * AMC_FLOW_MAX_DEPTH refused, naming the chain). loader NULL: from disk. A
 * sub-flow without appId takes its parent's. */
int amc_flow_resolve(amc_flow *f, const amc_flow_loader *loader, amc_err *e);
/* amc_flow_load, then amc_flow_resolve from disk. */
int amc_flow_load_resolved(const char *path, amc_flow *out, amc_err *e);

/* Calls fn for every command of f: config hooks, the list, inline bodies and
 * resolved sub-flows (depth first, in file order), with the file it is in.
 * fn returns 0 to go on; anything else stops the walk and is returned. */
typedef int (*amc_flow_visit_fn)(void *ud, const amc_flow *file, const amc_flow_cmd *c);
int amc_flow_walk(const amc_flow *f, amc_flow_visit_fn fn, void *ud);

/* Refuse, before a run, what a device kind ("sim", "adb", "appium") cannot
 * do: setLocation, travel, addMedia, recording, airplane mode, orientation,
 * and AI commands when there is no model (have_model 0). AMC_EUSAGE
 * "FILE:LINE: COMMAND: not available on DEVICE devices: WHY" for the first. */
int amc_flow_check_device_model(const amc_flow *f, const char *device_kind, int have_model, amc_err *e);
/* The same with no model configured (what `amc flow check` knows). */
int amc_flow_check_device(const amc_flow *f, const char *device_kind, amc_err *e);
/* The same for `amc flow check` (its amc_flow_check_device_fn): every
 * command of f's own file that `device_kind` cannot do, each given to fn
 * with its line and the message without FILE:LINE ("setLocation: not
 * available on sim devices: ..."). Returns how many. */
typedef void (*amc_flow_problem_fn)(void *ud, int line, const char *msg);
/* In the message of an AI command's problem when no model is configured:
 * an external input (Maestro's is MAESTRO_CLI_AI_KEY), not a device limit. */
#define AMC_FLOW_NEEDS_MODEL "needs a model"
int amc_flow_device_problems(const amc_flow *f, const char *device_kind, amc_flow_problem_fn fn, void *ud);
/* The same when a model is configured: AI commands pass. */
int amc_flow_device_problems_with_model(const amc_flow *f, const char *device_kind, amc_flow_problem_fn fn, void *ud);
/* 1 when some command (sub-flows and hooks included) is an AI command:
 * assertWithAI, assertNoDefectsWithAI, extractTextWithAI. */
int amc_flow_needs_ai(const amc_flow *f);
/* 1 when some command needs JavaScript (evalScript, runScript, ${expr} that is
 * not a plain NAME, a `true:` condition with an expression); then
 * "FILE:LINE: COMMAND" of the first goes into where (may be NULL). */
int amc_flow_needs_js(const amc_flow *f, char *where, size_t n);

#endif

/* flow_planner_int.h - the flow planner's insides, shared by flow_planner.c
 * (playing: judging steps, failures, hooks), flow_planner_frames.c (the stack
 * of frames: where it is), flow_planner_cmds.c (what each command asks of the
 * device), flow_planner_media.c (screenshots, recordings, appearance) and
 * flow_planner_ops.c (one command, entering blocks). The fp_plan_* functions
 * are the rows' plan functions (flow_cmd_def.h): flow_commands.c names them
 * in its table, and fp_plan_cmd calls a command's through its row. Private
 * to src/flow/. */
#ifndef AMC_FLOW_PLANNER_INT_H
#define AMC_FLOW_PLANNER_INT_H

#include "flow/flow_interp.h"
#include "planner/flow_planner.h"

#define FP_MAX_FRAMES 64

enum { FR_FILE, FR_BLOCK, FR_REPEAT, FR_RETRY };
enum { PH_START, PH_MAIN, PH_COMPLETE, PH_DONE }; /* a file frame's hooks and commands */

typedef struct fp_frame {
	int kind;
	const amc_flow *file;       /* the file its commands are in: messages, appId */
	const amc_flow_cmd *cmds;   /* FR_BLOCK/REPEAT/RETRY: the body; FR_FILE: by phase */
	size_t n, pos;
	int phase;                  /* FR_FILE */
	const amc_flow_cmd *owner;  /* the runFlow/repeat/retry command; NULL at the top */
	int iter;                   /* repeat: rounds done; retry: retries made */
	int times;                  /* repeat: -1 while only; retry: max retries */
	size_t mark;                /* variables to pop back to when the frame ends */
} fp_frame;

/* What planning one command came to. */
enum { FP_ACT = AMC_PLAN_ACT, FP_DONE = AMC_PLAN_DONE, FP_REOBSERVE = AMC_PLAN_REOBSERVE, FP_FAIL = AMC_PLAN_FAIL,
       FP_NEXT = 100 /* nothing for the device: go on with the next command */ };

typedef struct flow_planner {
	amc_flow flow;
	long wait_ms;
	amc_flow_interp in;
	void (*eval_free)(void *ud); /* frees in.eval_ud when set */
	amc_flow_ai_fn ai;          /* AI commands; NULL: refused */
	void *ai_ud;
	void (*ai_free)(void *ud);  /* frees ai_ud when set */
	fp_frame st[FP_MAX_FRAMES];
	int depth;
	int passed, skipped;
	/* the step handed out last, to judge its outcome */
	int emitted;
	int emitted_optional;
	int emitted_final;          /* the command's last sub-step: advance when it succeeds */
	int emitted_skip;           /* an optional command skipped (counted apart) */
	char *emitted_where;        /* "FILE:LINE: description" */
	/* progress inside the current command */
	int sub;                    /* sub-steps done (taps of a repeat, swipes, erase...) */
	int have_sig;
	int tap_waited;             /* tapOn repeat with delay: the wait before the next tap is done */
	unsigned long long sig;
	/* a failure outside any retry: remembered while the top onFlowComplete runs */
	char *failed;
	unsigned long long rng;     /* inputRandom*: seeded, the values are in the steps' args */
	char *rec_name;             /* the running recording's name (startRecording's path); NULL: none */
} flow_planner;

/* flow_planner_frames.c */
fp_frame *fp_top(flow_planner *fp);
/* "FILE:LINE" of a command in the top frame's file (sanitized; caller frees). */
char *fp_where(const flow_planner *fp, const amc_flow_cmd *c);
/* The current command is done: next one (and per-command progress reset). */
void fp_advance(flow_planner *fp);
/* The commands a file frame runs in its phase (onFlowStart, main, onFlowComplete). */
void fp_file_phase(fp_frame *f);
/* A file's env: defaults for the names nobody set above it. */
int fp_push_defaults(flow_planner *fp, const amc_flow *file, amc_err *e);
/* Push a frame (a file frame starts its phase): -1 with e past FP_MAX_FRAMES. */
int fp_push_frame(flow_planner *fp, const fp_frame *proto, amc_err *e);
/* Pop the top frame and the variables it pushed. */
void fp_pop_frame(flow_planner *fp);

/* flow_planner_cmds.c: screens, selectors, and the commands that look at them */
const amc_ui_tree *fp_obs_tree(const amc_plan_ctx *ctx);
void fp_screen_size(const amc_plan_ctx *ctx, int *w, int *h);
const char *fp_node_label(const amc_ui_node *n); /* text, else content-desc, else hint; NULL */
int fp_to_px(int v, int percent, int size);
void fp_swipe_args(amc_action *out, int x1, int y1, int x2, int y2, int ms);
void fp_swipe_dir(const amc_plan_ctx *ctx, amc_action *out, const char *dir, int ms);
/* s with its ${...} replaced, errors naming the command's FILE:LINE. */
int fp_interp(flow_planner *fp, const amc_flow_cmd *c, const char *s, char **out, amc_err *e);
/* The element s picks on this screen (index in the tree, -1 none, -2 error
 * in e); *copy is s interpolated (free with amc_selector_clear). */
int fp_find_now(flow_planner *fp, const amc_flow_cmd *c, const amc_selector *s, const amc_plan_ctx *ctx,
		amc_selector *copy, amc_err *e);
void fp_skip_optional(flow_planner *fp, const amc_flow_cmd *c, const amc_selector *s, amc_action *out,
		      const char *tool, const char *why);
void fp_add_selector(const amc_selector *s, amc_action *out);
char *fp_not_found(flow_planner *fp, const amc_flow_cmd *c, const amc_selector *s, const amc_plan_ctx *ctx,
		   const char *what);
int fp_plan_tap(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_assert(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_ext_wait(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
		     amc_err *e);
int fp_plan_scroll_until(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
			 amc_err *e);

/* flow_planner_media.c: takeScreenshot, assertScreenshot, the recordings
 * and the appearance (dark mode) commands. */
int fp_plan_take_screenshot(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_assert_screenshot(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_start_recording(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_stop_recording(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_set_dark_mode(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_toggle_dark_mode(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_assert_dark_mode(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_assert_light_mode(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);

/* flow_planner_ops.c: one command, through its row (fp_plan_cmd), and the
 * plan functions of the rows (amc_flow_cmd_plan_fn) that need no selector */
int fp_plan_block(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_launch(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_set_permissions(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_stop_app(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_kill_app(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_clear_state(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_open_link(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_orientation(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_airplane(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_toggle_airplane(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_location(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_travel(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_add_media(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_clear_keychain(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_input_text(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_input_random(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_paste(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_copy(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_set_clipboard(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_eval_script(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_run_script(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_assert_true(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_erase(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_press_key(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_back(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_hide_keyboard(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_scroll(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_swipe(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_wait_anim(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
int fp_plan_ai(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);

/* Enter a runFlow/repeat/retry: 0 pushed (or FP_NEXT skipped), -1 error in e. */
int fp_enter_block(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out,
		   amc_err *e);
int fp_plan_cmd(flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx, amc_action *out, amc_err *e);
/* A condition (when:/while:) on the current screen: 1 holds, 0 not, -1 error in e. */
int fp_cond_holds(flow_planner *fp, const amc_flow_cmd *c, const amc_flow_cond *cond, const amc_plan_ctx *ctx,
		  amc_err *e);
/* A step decided here: begin + decided outcome. */
void fp_begin(flow_planner *fp, const amc_flow_cmd *c, const char *tool, amc_action *out);
void fp_decide(amc_action *out, int ok, char *error, cJSON *result);
/* Decide the step as skipped for `why`: its description gets " (NOTE)". */
void fp_decide_skip(amc_action *out, const char *note, const char *why);

#endif

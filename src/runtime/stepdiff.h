/* stepdiff.h - what one step changed: the UI tree diff between its before and
 * after observations (perception/treediff.h), the share of pixels that
 * changed outside the status bar, and the "changed nothing" flag.
 *
 * The runner computes it when it records a step that acted on the device and
 * stores it with the record (timeline.tree_diff); for older records, or
 * records a writer stored without one, amc_stepdiff_of_row computes it on
 * demand from the stored trees and screenshots.
 *
 * The "changed nothing" rule: an action step (tap, long_press, swipe,
 * type_text, press_key) whose tree diff is empty AND whose pixels outside the
 * status bar changed by no more than the settle tolerance (the fraction the
 * runner uses to call two frames equal; a pixel differs when a channel moves
 * more than AMC_SETTLE_PIXEL_TOLERANCE). Often a missed tap. When a tree or an
 * image is missing the flag is unknown (null), never guessed.
 *
 * JSON form (small: the tree part is bounded by treediff.h's limits):
 *   {"action": bool,
 *    "tree": <amc_treediff_to_json> | null,
 *    "tree_missing": "before" | "after" | "both"   (only when "tree" is null),
 *    "pixels": {"changed": fraction, "tolerance": t, "status_bar_px": n} | null,
 *    "changed_nothing": true | false | null}
 * Strings in it are device text: untrusted, sanitize or escape them. */
#ifndef AMC_STEPDIFF_H
#define AMC_STEPDIFF_H

#include <cjson/cJSON.h>
#include "image/image.h"
#include "perception/treediff.h"
#include "perception/uitree.h"
#include "storage/store.h"
#include "util/err.h"

/* Computing on demand, the device's status bar height is not in the record:
 * the adb and Appium drivers' own estimate (3.5 % of the screen height). */
#define AMC_STEPDIFF_STATUS_BAR_FRACTION 0.035
/* ... nor the task's runner.settle_tolerance: its default. */
#define AMC_STEPDIFF_TOLERANCE 0.001

/* 1 for the tools whose effect should show on the screen (see above). */
int amc_stepdiff_is_action(const char *tool);

typedef struct amc_stepdiff_in {
	const char *tool;
	const amc_ui_tree *before, *after;      /* NULL: not known */
	const amc_image *before_img, *after_img; /* NULL (or no pixels): not known */
	int status_bar_px;                      /* rows at the top left out of the pixel comparison */
	double tolerance;                       /* fraction of pixels that may differ */
	/* A tap's point in screen pixels (have_tap 0: unknown). A tap on the
	 * field that already has focus changes nothing on screen by design (the
	 * keyboard and cursor are already there) and the text typed next lands
	 * in it: that is not a missed tap, so changed_nothing stays false and
	 * "focused_field": true says why. */
	int have_tap, tap_x, tap_y;
} amc_stepdiff_in;

/* A tap's point from its arguments (x, y) or else the centre of the
 * element it matched (result "matched" "bounds"); 1 when known. */
int amc_stepdiff_tap_point(const cJSON *args, const cJSON *result, int *x, int *y);

/* The JSON form above. Caller owns. */
cJSON *amc_stepdiff_compute(const amc_stepdiff_in *in);

/* A stored step's diff as JSON text: its recorded tree_diff, else computed
 * from the artifacts (the trees beside the screenshots: obs-0001.png's is
 * obs-0001-tree.json; the after tree is the record's ui_tree_path when set).
 * *json_out is malloc'd, the caller frees it. -1 only when the record cannot
 * be read at all (e says why); missing artifacts give a JSON with nulls. */
int amc_stepdiff_of_row(amc_store *s, const amc_step_row *r, char **json_out, amc_err *e);
/* The same for step `step` (1-based) of a task (an exact id or unique prefix):
 * for callers that hold no rows, such as the HTML report. */
int amc_stepdiff_load(amc_store *s, const char *task_id, int step, char **json_out, amc_err *e);

/* The flag in a JSON text: 1 changed nothing, 0 changed something (or not an
 * action), -1 unknown (no JSON, unparsable, or null). */
int amc_stepdiff_changed_nothing(const char *json);

/* Lines for people, one call per line (raw device text inside: sanitize or
 * escape where shown). op: '!' the changed-nothing warning, ' ' a summary or
 * note, '+', '-', '~' the tree entries (see amc_treediff_render); each line's
 * text starts with the same symbol, so it reads without colour. utf8 0:
 * ASCII only ("->" for the arrow). Returns the number of lines; a text that
 * is not the JSON form gives one note saying so. */
int amc_stepdiff_render(const char *json, int utf8, amc_treediff_line_fn fn, void *ud);
/* The same lines, each ended by '\n'; malloc'd, caller frees. */
char *amc_stepdiff_text(const char *json, int utf8);

#endif

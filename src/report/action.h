/* action.h - a recorded step's action as words for a reader of the report
 * (report/html.c): `tap "Save" (e12) at 922,1039`, `type "Ada" into e7`,
 * `swipe up`, `assert visible "Saved"`, instead of the arguments' JSON. */
#ifndef AMC_REPORT_ACTION_H
#define AMC_REPORT_ACTION_H

#include <cjson/cJSON.h>

#include "util/strbuf.h"

/* Append the words for `tool` with its arguments `args` (parsed JSON, may be
 * NULL) to `out`, not escaped: the caller escapes them for where they go.
 * `scene` (may be NULL) names the element a point falls on (its text and
 * scene id). Strings from outside are quoted as they are, cut at 120 bytes. */
void amc_report_action_words(const char *tool, const cJSON *args, const cJSON *scene, amc_sb *out);

/* The direction a swipe's finger moved ("up", "down", "left", "right"), by
 * the larger of the two movements. */
const char *amc_report_swipe_direction(int x1, int y1, int x2, int y2);

#endif

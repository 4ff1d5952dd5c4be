/* answer_planner.h - a planner that reads its inner planner's answer off the
 * last screen: the bench's reference flows (amc bench tasks) end on the
 * screen that shows the answer to an information task, and this wrapper
 * hands that answer on as the task's. */
#ifndef AMC_ANSWER_PLANNER_H
#define AMC_ANSWER_PLANNER_H

#include "runtime/planner.h"
#include "util/err.h"

/* Wrap `inner`: when it is done, read the answer from the last screen (the
 * node the selector finds: resource id `answer_id` and/or text regex
 * `answer_text_re`, the index-th match; its text, or with ocr the OCR words
 * inside its bounds, in reading order) and hand it on with AMC_PLAN_DONE; no
 * such node, or no text in it, fails the task saying so. At least one of
 * answer_id and answer_text_re is needed (AMC_EUSAGE). Takes `inner` (freed
 * with the wrapper, or on failure); *out is the caller's. */
int amc_answer_planner_new(amc_planner *inner, const char *answer_id, const char *answer_text_re, int index, int ocr,
			   amc_planner **out, amc_err *e);

#endif

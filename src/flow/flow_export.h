/* flow_export.h - a succeeded task written back as a Maestro flow that
 * replays it (`amc export TASK --flow`).
 *
 * Every step that acted on the device becomes a command: a tap or long press
 * becomes tapOn/longPressOn with a selector chosen from the UI tree the step
 * saw (a unique resource id, else a unique text, else text with `index`, else
 * `point` as a percentage of the screen; a comment says which and why), typed
 * text becomes inputText ({{secret:NAME}} placeholders are written as
 * ${NAME}, never a value), keys, swipes (percentages), launchApp, clearState,
 * stopApp, killApp, openLink. Steps that only looked (screenshots, trees) or
 * waited, and failed steps, are left out. At the end an assertVisible of the
 * final screen's text that shares the most words with the goal. */
#ifndef AMC_FLOW_EXPORT_H
#define AMC_FLOW_EXPORT_H

#include "storage/store.h"
#include "util/err.h"

/* Write the flow of task `task_id` (an id or a unique prefix) into *yaml_out
 * (malloc'd, caller frees). 0, or -1: AMC_EUSAGE when the task is not found
 * or did not succeed or has no step to replay; the store's error otherwise. */
int amc_flow_export(amc_store *s, const char *task_id, char **yaml_out, amc_err *e);

#endif

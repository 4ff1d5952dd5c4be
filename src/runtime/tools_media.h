/* tools_media.h - the tools that make files (tools_media.c): screenshot
 * (cropped: takeScreenshot's cropOn), record (startRecording/stopRecording)
 * and assert_screenshot (Maestro's assertScreenshot). Private to
 * src/runtime/tools*.c: tools.c's table names them. */
#ifndef AMC_TOOLS_MEDIA_H
#define AMC_TOOLS_MEDIA_H

#include "runtime/tools.h"

int amc_tool_screenshot(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e);
int amc_tool_record(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e);
int amc_tool_assert_screenshot(const amc_tool_ctx *c, const cJSON *args, cJSON **res, amc_err *e);

#endif

/* screen.h - a device screen as a model is shown it: the Scene as compact JSON
 * and the screenshot as a downscaled base64 PNG. Shared by the LLM planner and
 * the AI commands of flows (ai_judge.c), so both show a model the same thing. */
#ifndef AMC_SCREEN_H
#define AMC_SCREEN_H

#include <cjson/cJSON.h>
#include "runtime/planner.h"

/* What one screen shows a model at most (screen.c owns them; the LLM planner
 * and the AI commands both send what it builds). */
#define AMC_AGENT_SCENE_MAX_ELEMENTS 200
#define AMC_AGENT_TEXT_MAX 160      /* bytes of one element's text sent */

/* {width, height, elements:[{id, type, text, b:[x1,y1,x2,y2]}], elements_not_shown}
 * with coordinates divided by `scale` (device px per sent px), at most
 * AMC_AGENT_SCENE_MAX_ELEMENTS elements, each text cut to AMC_AGENT_TEXT_MAX
 * bytes. Caller owns the result. */
cJSON *amc_screen_json(const amc_scene *sc, double scale);
/* The observation's screenshot as base64 PNG, downscaled so that its long edge
 * is at most max_edge (<= 0: 1568); *scale = device px per sent px. NULL when
 * there is no screenshot or it cannot be encoded (then no image is sent).
 * Caller frees. */
char *amc_screen_image_b64(const amc_observation *obs, int max_edge, double *scale);

#endif

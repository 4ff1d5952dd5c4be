/* screen.c - a device screen as a model is shown it (screen.h). */
#include "planner/screen.h"

#include <math.h>
#include <stdlib.h>

#include "image/image.h"
#include "image/png.h"
#include "llm/client.h"
#include "util/base64.h"
#include "util/log.h"
#include "util/strbuf.h"

cJSON *amc_screen_json(const amc_scene *sc, double scale)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "width", (int)lround(sc->width / scale));
	cJSON_AddNumberToObject(j, "height", (int)lround(sc->height / scale));
	cJSON *els = cJSON_AddArrayToObject(j, "elements");
	size_t n = sc->count < AMC_AGENT_SCENE_MAX_ELEMENTS ? sc->count : AMC_AGENT_SCENE_MAX_ELEMENTS;
	for (size_t i = 0; i < n; i++) {
		const amc_element *el = &sc->elements[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", el->id);
		cJSON_AddStringToObject(o, "type", el->type);
		char *t = amc_llm_bounded(el->text, AMC_AGENT_TEXT_MAX);
		if (*t)
			cJSON_AddStringToObject(o, "text", t);
		free(t);
		int b[4] = { (int)lround(el->bounds.x1 / scale), (int)lround(el->bounds.y1 / scale),
			     (int)lround(el->bounds.x2 / scale), (int)lround(el->bounds.y2 / scale) };
		cJSON_AddItemToObject(o, "b", cJSON_CreateIntArray(b, 4));
		cJSON_AddItemToArray(els, o);
	}
	if (sc->count > n)
		cJSON_AddNumberToObject(j, "elements_not_shown", (double)(sc->count - n));
	return j;
}

char *amc_screen_image_b64(const amc_observation *obs, int max_edge, double *scale)
{
	*scale = 1.0;
	if (!obs->img.px || obs->img.w <= 0 || obs->img.h <= 0)
		return NULL;
	int edge = max_edge > 0 ? max_edge : 1568;
	amc_image small = { 0 };
	const amc_image *use = &obs->img;
	amc_err e;
	if (obs->img.w > edge || obs->img.h > edge) {
		if (amc_image_scale_fit(&obs->img, edge, edge, &small, &e) != 0) {
			amc_log_warn("cannot downscale the screenshot for the model: %s", e.msg);
			return NULL;
		}
		use = &small;
		*scale = (double)obs->img.w / small.w;
	}
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = amc_png_encode(use, 6, &png, &len, &e);
	amc_image_free(&small);
	if (rc != 0) {
		*scale = 1.0;
		return NULL;
	}
	char *b64 = amc_base64_encode(png, len);
	free(png);
	return b64;
}

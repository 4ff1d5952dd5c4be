/* test_screen.c - a screen as a model is shown it (planner/screen.c): the Scene
 * cut to its element and text bounds and scaled, and the screenshot
 * downscaled to its edge as base64 PNG. */
#include <stdlib.h>
#include <string.h>

#include "planner/llm_planner.h"
#include "planner/screen.h"
#include "tap.h"
#include "util/strbuf.h"

int main(void)
{
	amc_scene sc = { 1000, 2000, NULL, 250 };
	sc.elements = calloc(sc.count, sizeof *sc.elements);
	char longtext[400];
	memset(longtext, 'a', sizeof longtext - 1);
	longtext[sizeof longtext - 1] = 0;
	for (size_t i = 0; i < sc.count; i++) {
		snprintf(sc.elements[i].id, sizeof sc.elements[i].id, "e%d", (int)(i % 1000));
		sc.elements[i].type = "text";
		sc.elements[i].text = i == 0 ? longtext : i == 1 ? "" : "Save";
		sc.elements[i].bounds = (amc_bounds){ 100, 200, 300, 401 };
	}
	cJSON *j = amc_screen_json(&sc, 2.0);
	is_int(cJSON_GetObjectItemCaseSensitive(j, "width")->valueint, 500, "width in sent pixels");
	is_int(cJSON_GetObjectItemCaseSensitive(j, "height")->valueint, 1000, "height in sent pixels");
	const cJSON *els = cJSON_GetObjectItemCaseSensitive(j, "elements");
	is_int(cJSON_GetArraySize(els), AMC_AGENT_SCENE_MAX_ELEMENTS, "at most %d elements", AMC_AGENT_SCENE_MAX_ELEMENTS);
	is_int(cJSON_GetObjectItemCaseSensitive(j, "elements_not_shown")->valueint, 50, "the rest counted");
	const cJSON *e0 = cJSON_GetArrayItem(els, 0);
	ok(strlen(cJSON_GetObjectItemCaseSensitive(e0, "text")->valuestring) == AMC_AGENT_TEXT_MAX + 3,
	   "a long text is cut to %d bytes and marked", AMC_AGENT_TEXT_MAX);
	ok(!cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(els, 1), "text"), "an empty text is left out");
	char *b = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(e0, "b"));
	is_str(b, "[50,100,150,201]", "bounds divided by the scale, rounded");
	free(b);
	cJSON_Delete(j);
	free(sc.elements);

	amc_observation o;
	memset(&o, 0, sizeof o);
	double scale = 0;
	ok(amc_screen_image_b64(&o, 0, &scale) == NULL && scale == 1.0, "no screenshot: no image, scale 1");
	amc_err e;
	amc_image_alloc(&o.img, 3000, 100, &e);
	char *png = amc_screen_image_b64(&o, 1000, &scale);
	ok(png && !strncmp(png, "iVBORw0KGgo", 11), "a base64 PNG");
	ok(scale > 2.99 && scale < 3.01, "downscaled 3 times to fit 1000 px (%.3f)", scale);
	free(png);
	png = amc_screen_image_b64(&o, 4000, &scale);
	ok(png && scale == 1.0, "a screenshot that fits is sent as it is");
	free(png);
	amc_image_free(&o.img);
	return done_testing();
}

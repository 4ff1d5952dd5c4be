/* Fuzz target: the UI tree parser (perception/uitree*.c) for all its formats
 * (adb uiautomator, Appium UiAutomator2, Appium XCUITest, the last also with
 * point scaling, and the Appium fake driver's) and everything built on its
 * output: the Scene, OCR fusion, the keyboard finder over the nodes' texts
 * and boxes taken as OCR words, both JSON forms and the stored-tree reader,
 * which must give back exactly what was written. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perception/keyboard.h"
#include "perception/scene.h"
#include "perception/uitree.h"
#include "util/jsonutil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_ui_tree t, back;
	amc_scene s;
	amc_err e;
	/* The scaled parse (XCUITest points x screenshot width / root width) with a
	 * width taken from the input, so odd scales are reached too. */
	if (amc_uitree_parse_scaled((const char *)data, size, size ? 1 + data[0] * 13 : 0, &t, &e) == 0) {
		if (amc_scene_from_tree(&t, 0, 0, &s, &e) == 0) {
			/* Fuse one word per node box: every kind of match is exercised. */
			amc_ocr_result r = { 0 };
			r.count = t.count < 64 ? t.count : 64;
			r.words = calloc(r.count + 1, sizeof *r.words);
			for (size_t i = 0; i < r.count; i++)
				r.words[i] = (amc_ocr_word){ t.nodes[i].bounds, (char *)(i % 2 ? t.nodes[i].text : "ocr"), 60.0, 0 };
			if (amc_scene_fuse(&s, &r, &e) != 0)
				abort();
			for (size_t i = 0; i < s.count; i++)
				if (amc_scene_find(&s, s.elements[i].id) != &s.elements[i])
					abort(); /* ids stay unique after fusion */
			free(r.words);
			amc_scene_free(&s);
		}
		amc_uitree_free(&t);
	} else if (t.count || t.nodes || e.code != AMC_EUSAGE) {
		abort();
	}
	if (amc_uitree_parse((const char *)data, size, &t, &e) != 0) {
		/* A refused input leaves nothing behind. */
		if (t.count || t.nodes || e.code != AMC_EUSAGE)
			abort();
		return 0;
	}
	/* Node texts at node boxes as OCR words: a keyboard found lies on the
	 * screen, full width. */
	amc_kb_key *keys = calloc(t.count + 1, sizeof *keys);
	for (size_t i = 0; i < t.count; i++)
		keys[i] = (amc_kb_key){ t.nodes[i].bounds, t.nodes[i].text };
	amc_bounds kb;
	const char *layout = NULL;
	if (amc_keyboard_find(keys, t.count, 1080, 2400, &kb, &layout) &&
	    (!layout || kb.x1 != 0 || kb.x2 != 1080 || kb.y1 < 0 || kb.y2 > 2400 || kb.y1 >= kb.y2))
		abort();
	(void)amc_keyboard_layout(keys, t.count);
	free(keys);
	if (amc_scene_from_tree(&t, 0, 0, &s, &e) == 0) {
		for (size_t i = 0; i < s.count; i++)
			if (amc_scene_find(&s, s.elements[i].id) != &s.elements[i])
				abort(); /* ids must be unique */
		cJSON *sj = amc_scene_to_json(&s);
		free(amc_json_print(sj));
		cJSON_Delete(sj);
		amc_scene_free(&s);
	}
	cJSON *j = amc_uitree_to_json(&t);
	char *a = amc_json_print(j);
	if (amc_uitree_from_json(j, &back, &e) != 0)
		abort();
	cJSON *j2 = amc_uitree_to_json(&back);
	char *b = amc_json_print(j2);
	if (strcmp(a, b) != 0)
		abort(); /* the round trip must be exact */
	char names[256];
	for (size_t i = 0; i < t.count; i++)
		amc_uitree_flag_names(t.nodes[i].flags, names, sizeof names);
	free(a);
	free(b);
	cJSON_Delete(j);
	cJSON_Delete(j2);
	amc_uitree_free(&back);
	amc_uitree_free(&t);
	return 0;
}

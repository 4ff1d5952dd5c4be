/* scene.h - the Scene of seed 002: {width, height, elements:[{id, type, bounds,
 * text, confidence, source}]}. Built from the UI tree now; OCR fusion later. */
#ifndef AMC_SCENE_H
#define AMC_SCENE_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "perception/uitree.h"

#define AMC_ELEMENT_ID_SIZE 12

typedef struct amc_element {
	char id[AMC_ELEMENT_ID_SIZE]; /* "e" + hex: stable across two observations of the same screen */
	const char *type;             /* static string: button, text, input, toggle, image, list_item, list, container */
	amc_bounds bounds;
	char *text;                   /* text, else content-desc, else hint; may be "" */
	double confidence;            /* 1.0 for uitree */
	const char *source;           /* "uitree", "ocr", "fused" */
	int node;                     /* index into the tree, -1 for OCR-only elements */
	char *resource_id;            /* may be "" */
	unsigned flags;               /* AMC_NODE_* of the node */
} amc_element;

typedef struct amc_scene {
	int width, height;
	amc_element *elements;
	size_t count;
} amc_scene;

/* Elements are the tree's visible nodes that carry meaning: text, a description,
 * or an interaction (clickable, checkable, editable, scrollable). */
int amc_scene_from_tree(const amc_ui_tree *t, int width, int height, amc_scene *out, amc_err *e);
void amc_scene_free(amc_scene *s);
cJSON *amc_scene_to_json(const amc_scene *s);
const amc_element *amc_scene_find(const amc_scene *s, const char *id);

#endif

/* scene.h - the Scene, the one view of a screen that planners, flows and
 * timelines share: {width, height, elements:[{id, type, bounds, text,
 * confidence, source}]}, built from the UI tree and fused with OCR words:
 * a node whose text OCR confirms (or whose missing text OCR supplies) becomes
 * `fused`, OCR text with no node becomes an `ocr` element, the rest stays
 * `uitree`. */
#ifndef AMC_SCENE_H
#define AMC_SCENE_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "perception/ocr.h"
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

/* An OCR word belongs to an element when at least this fraction of the word's
 * box lies inside the element (a word inside a row, a label inside a button). */
#define AMC_FUSE_MIN_CONTAINMENT 0.7
/* ... or when the two boxes are about the same (intersection over union at
 * least this): a tight text node whose word box spills over its edge. */
#define AMC_FUSE_MIN_IOU 0.5
/* OCR-only words on one line join into one element while the gap between them
 * is under this many word heights. */
#define AMC_FUSE_WORD_GAP 1.5

/* Intersection over union of two boxes (0 when either is empty). */
double amc_bounds_iou(const amc_bounds *a, const amc_bounds *b);
/* Fraction of `inner`'s area that lies inside `outer` (0 when inner is empty). */
double amc_bounds_containment(const amc_bounds *inner, const amc_bounds *outer);

/* Elements are the tree's visible nodes that carry meaning: text, a description,
 * or an interaction (clickable, checkable, editable, scrollable). */
int amc_scene_from_tree(const amc_ui_tree *t, int width, int height, amc_scene *out, amc_err *e);
/* Fuse OCR words into a scene built from the tree. Ids of tree elements do not
 * change; OCR elements get ids from their text and position, so two
 * observations of the same screen give the same ids. */
int amc_scene_fuse(amc_scene *s, const amc_ocr_result *ocr, amc_err *e);
void amc_scene_free(amc_scene *s);
cJSON *amc_scene_to_json(const amc_scene *s);
/* How many Scenes amc_scene_from_tree built and how many JSON documents
 * amc_scene_to_json made in this process: tests check that a Scene is built
 * once per observation (an MCP observe that reuses one builds none). */
long amc_scene_build_count(void);
long amc_scene_json_count(void);
const amc_element *amc_scene_find(const amc_scene *s, const char *id);

#endif

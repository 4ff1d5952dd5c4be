/* uitree.h - UI trees from devices, normalized to one node type.
 *
 * The module is three files: uitree.c (the node model: building, freeing,
 * flags, JSON), uitree_xml.c (reading untrusted XML safely, telling the
 * formats apart) and uitree_read.c (the format readers and amc_uitree_parse).
 *
 * Reads three device formats, detected from the content: `adb shell uiautomator dump`
 * XML (the trailing "UI hierchary dumped to" line tolerated, the <displays>
 * multi-window shape, entities decoded, unknown attributes ignored), Appium
 * UiAutomator2 page source (tag = class, empty attributes omitted, `displayed`)
 * and Appium XCUITest source (type/name/label/value, geometry in points scaled
 * to pixels; name -> resource_id, label (value for fields) -> text,
 * placeholderValue -> hint, visible -> displayed). A fourth, the page source
 * of the Appium fake driver amc's own tests use (format "appium-fake"), is
 * read so that flows run against it; no real device produces it. Parsed with
 * libxml2 using XML_PARSE_NONET and never NOENT/DTDLOAD/HUGE; a DOCTYPE is
 * refused; limits on bytes, depth and node count; libxml2 errors are captured,
 * never printed. */
#ifndef AMC_UITREE_H
#define AMC_UITREE_H

#include <stddef.h>
#include <cjson/cJSON.h>
#include "util/err.h"

#define AMC_UITREE_MAX_BYTES (16u * 1024u * 1024u)
#define AMC_UITREE_MAX_DEPTH 256
#define AMC_UITREE_MAX_NODES 100000

typedef struct amc_bounds {
	int x1, y1, x2, y2;
} amc_bounds;

enum {
	AMC_NODE_CHECKABLE = 1u << 0,
	AMC_NODE_CHECKED = 1u << 1,
	AMC_NODE_CLICKABLE = 1u << 2,
	AMC_NODE_ENABLED = 1u << 3,
	AMC_NODE_FOCUSABLE = 1u << 4,
	AMC_NODE_FOCUSED = 1u << 5,
	AMC_NODE_SCROLLABLE = 1u << 6,
	AMC_NODE_LONG_CLICKABLE = 1u << 7,
	AMC_NODE_PASSWORD = 1u << 8,
	AMC_NODE_SELECTED = 1u << 9,
	AMC_NODE_DISPLAYED = 1u << 10, /* not [0,0][0,0] and not displayed="false" */
	AMC_NODE_NAF = 1u << 11
};

/* Nodes are stored flat in document (pre-)order; parent/child links are indexes. */
typedef struct amc_ui_node {
	int index;          /* the "index" attribute (position among siblings) */
	int parent;         /* -1 for a root */
	int depth;          /* 0 for a root */
	int first_child;    /* -1 if none */
	int next_sibling;   /* -1 if none */
	int child_count;
	char *text;         /* never NULL ("" when absent); UTF-8 */
	char *resource_id;
	char *class_name;
	char *package;
	char *content_desc;
	char *hint;
	amc_bounds bounds;
	unsigned flags;     /* AMC_NODE_* */
} amc_ui_node;

typedef struct amc_ui_tree {
	amc_ui_node *nodes;
	size_t count;
	char format[32];    /* "uiautomator", "uiautomator2", "xcuitest" or "appium-fake" */
	int rotation;
} amc_ui_tree;

/* Parse; on error the tree is left empty. AMC_EUSAGE for malformed/hostile input. */
int amc_uitree_parse(const char *xml, size_t len, amc_ui_tree *out, amc_err *e);
/* The same, with the width of the matching screenshot: XCUITest points are
 * multiplied by screen_width / (root element width); 0 keeps points. */
int amc_uitree_parse_scaled(const char *xml, size_t len, int screen_width, amc_ui_tree *out, amc_err *e);
void amc_uitree_free(amc_ui_tree *t);
/* Nested JSON: {"format","nodes":[{"class","text","resource_id","content_desc","hint",
 * "bounds":[x1,y1,x2,y2],"flags":[...],"children":[...]}]}. Caller owns. */
cJSON *amc_uitree_to_json(const amc_ui_tree *t);
/* The inverse, for reading stored trees back (TUI, show). */
int amc_uitree_from_json(const cJSON *j, amc_ui_tree *out, amc_err *e);
/* Names of the flags set on a node, comma-separated, into `out`. */
void amc_uitree_flag_names(unsigned flags, char *out, size_t n);
/* The flag with this JSON name ("long_clickable"), or with this uiautomator
 * attribute name ("long-clickable"); 0 for an unknown name. */
unsigned amc_uitree_flag_by_name(const char *name);
unsigned amc_uitree_flag_by_attr(const char *attr);

/* Building a tree node by node: what the format readers and the stored-tree
 * reader do, and what a test needs for a hand-made screen. */
typedef struct amc_uitree_builder {
	amc_ui_tree *t;
	size_t cap;
	int *last_child;    /* per node: its last child so far, so appending is O(1) */
	int last_root;      /* last node with parent -1, for linking roots as siblings */
} amc_uitree_builder;
/* Starts building into `t`, which must hold no nodes yet (zeroed, or just
 * freed); its format and rotation are the caller's to set. */
void amc_uitree_builder_init(amc_uitree_builder *b, amc_ui_tree *t);
/* Appends a node under `parent` (-1: a new root), linked as its last child, its
 * strings "" and its index its position; returns its index, or -1 with *e set
 * (AMC_EUSAGE) past AMC_UITREE_MAX_NODES or AMC_UITREE_MAX_DEPTH. The node
 * array may move: take node pointers again after each call. */
int amc_uitree_builder_add(amc_uitree_builder *b, int parent, amc_err *e);
/* Frees the builder's bookkeeping; the tree stays (the caller owns it). */
void amc_uitree_builder_done(amc_uitree_builder *b);
/* Replaces a node's string field with a copy of v (NULL: ""). */
void amc_uitree_set_str(char **field, const char *v);
/* Sets *e to the one refusal of a tree deeper than AMC_UITREE_MAX_DEPTH
 * (AMC_EUSAGE), whichever reader found it; returns -1. */
int amc_uitree_too_deep(amc_err *e);

#endif

/* uitree_read.h - the format readers of the UI tree module (see uitree.h):
 * one walker over a parsed document, with a per-format attribute reader. */
#ifndef AMC_UITREE_READ_H
#define AMC_UITREE_READ_H

#include <libxml/tree.h>

#include "perception/uitree.h"
#include "perception/uitree_xml.h"
#include "util/err.h"

/* Reads a document from amc_uitree_xml_read in format `fmt` into *out (which
 * the caller frees with amc_uitree_free; emptied on error). screen_width
 * scales XCUITest points as in amc_uitree_parse_scaled. AMC_EUSAGE when the
 * tree is over AMC_UITREE_MAX_NODES or AMC_UITREE_MAX_DEPTH. */
int amc_uitree_read_doc(xmlDocPtr doc, amc_uitree_fmt fmt, int screen_width, amc_ui_tree *out, amc_err *e);

/* The amc_ui_tree.format name of a format ("uiautomator", ...). */
const char *amc_uitree_read_format_name(amc_uitree_fmt fmt);

#endif

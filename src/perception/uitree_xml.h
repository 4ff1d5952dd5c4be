/* uitree_xml.h - reading UI-tree XML from outside safely, and telling the
 * formats apart (part of the UI tree module, see uitree.h).
 *
 * The XML comes from a phone or from a file a user captured. The size is
 * checked before libxml2 sees a byte; a DOCTYPE or ENTITY declaration is
 * refused before parsing (so no entity is ever declared, let alone expanded)
 * and again by a parser hook and on the parsed document; libxml2 runs with
 * NONET and never NOENT, DTDLOAD or HUGE (its depth limit of 256 stays on);
 * its messages go to a handler set for the one call on this thread, never to
 * the terminal. */
#ifndef AMC_UITREE_XML_H
#define AMC_UITREE_XML_H

#include <stddef.h>
#include <libxml/tree.h>

#include "util/err.h"

typedef enum amc_uitree_fmt {
	AMC_UITREE_UIAUTOMATOR,   /* adb shell uiautomator dump */
	AMC_UITREE_UIAUTOMATOR2,  /* Appium UiAutomator2 page source */
	AMC_UITREE_XCUITEST,      /* Appium XCUITest page source */
	AMC_UITREE_APPIUM_FAKE    /* the Appium fake driver's app (amc's tests) */
} amc_uitree_fmt;

/* Parses `len` bytes of what a dump printed (junk before the XML and the
 * "UI hierchary dumped to" trailer are cut off) into *doc, which has a root
 * element; the caller frees it with xmlFreeDoc. AMC_EUSAGE, with a message
 * that says what to re-capture, for empty, oversized, malformed or hostile
 * input; AMC_EENV when no parser can be made. */
int amc_uitree_xml_read(const char *xml, size_t len, xmlDocPtr *doc, amc_err *e);

/* The format of a parsed document, from its root and first elements;
 * AMC_EUSAGE naming the root element when it is none amc reads. */
int amc_uitree_xml_detect(xmlNode *root, amc_uitree_fmt *out, amc_err *e);

/* 1 when `n` is an element named `name`. */
int amc_uitree_xml_name_is(const xmlNode *n, const char *name);
/* The value of attribute `name` of `el` as a new UTF-8 string (entities and
 * character references decoded), or NULL when it has none. Caller frees. */
char *amc_uitree_xml_attr(xmlDocPtr doc, const xmlNode *el, const char *name);
/* The same for an attribute in hand; "" when it has no value. Caller frees. */
char *amc_uitree_xml_attr_value(xmlDocPtr doc, xmlAttrPtr a);

#endif

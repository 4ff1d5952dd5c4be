/* uitree_xml.c - the safe libxml2 reading of UI-tree XML and the format
 * detection; see uitree_xml.h for the rules. */
#include "perception/uitree_xml.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "perception/uitree.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

int amc_uitree_xml_name_is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && n->name && !strcmp((const char *)n->name, name);
}

char *amc_uitree_xml_attr_value(xmlDocPtr doc, xmlAttrPtr a)
{
	xmlChar *v = xmlNodeListGetString(doc, a->children, 1);
	char *r = amc_xstrdup(v ? (const char *)v : "");
	xmlFree(v);
	return r;
}

char *amc_uitree_xml_attr(xmlDocPtr doc, const xmlNode *el, const char *name)
{
	for (xmlAttrPtr a = el->properties; a; a = a->next)
		if (a->name && !strcmp((const char *)a->name, name))
			return amc_uitree_xml_attr_value(doc, a);
	return NULL;
}

/* ---- format detection -------------------------------------------------- */

/* The first element below `el`, looking through the multi-window wrappers. */
static xmlNode *first_content_element(xmlNode *el, int limit)
{
	for (xmlNode *c = el->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (limit > 0 && (amc_uitree_xml_name_is(c, "displays") || amc_uitree_xml_name_is(c, "display") ||
				  amc_uitree_xml_name_is(c, "window"))) {
			xmlNode *in = first_content_element(c, limit - 1);
			if (in)
				return in;
			continue;
		}
		return c;
	}
	return NULL;
}

int amc_uitree_xml_detect(xmlNode *root, amc_uitree_fmt *out, amc_err *e)
{
	const char *rn = root && root->name ? (const char *)root->name : "";
	/* The Appium fake driver wraps its <app> in AppiumAUT as XCUITest does. */
	if (!strcmp(rn, "AppiumAUT") && amc_uitree_xml_name_is(first_content_element(root, 0), "app")) {
		*out = AMC_UITREE_APPIUM_FAKE;
	} else if (!strcmp(rn, "AppiumAUT") || !strncmp(rn, "XCUIElementType", 15)) {
		*out = AMC_UITREE_XCUITEST;
	} else if (!strcmp(rn, "hierarchy")) {
		xmlNode *first = first_content_element(root, 3);
		/* An empty <hierarchy/> is what uiautomator prints for a screen with no
		 * accessible windows. Appium names elements after their class instead. */
		*out = !first || amc_uitree_xml_name_is(first, "node") ? AMC_UITREE_UIAUTOMATOR
								       : AMC_UITREE_UIAUTOMATOR2;
	} else {
		amc_sb rn_q;
		amc_sb_init(&rn_q);
		amc_sanitize_line(rn, strlen(rn) > 80 ? 80 : strlen(rn), &rn_q);
		amc_err_set(e, AMC_EUSAGE,
			"unsupported UI tree format: root element <%s>; expected an adb uiautomator "
			"dump (<hierarchy><node .../></hierarchy>)", amc_sb_str(&rn_q));
		amc_sb_free(&rn_q);
		return -1;
	}
	return 0;
}

/* ---- libxml2 plumbing -------------------------------------------------- */

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
	xmlInitParser();
}

typedef struct xml_errs {
	int have;
	int line;
	char msg[512];
} xml_errs;

/* Keeps the first error; libxml2 often follows one mistake with a cascade. */
static void xml_on_error(void *data, xmlErrorPtr err)
{
	xml_errs *xe = data;
	if (!xe || !err || xe->have || err->level < XML_ERR_ERROR)
		return;
	xe->have = 1;
	xe->line = err->line;
	snprintf(xe->msg, sizeof xe->msg, "%s", err->message ? err->message : "unknown error");
	size_t l = strlen(xe->msg);
	while (l && (xe->msg[l - 1] == '\n' || xe->msg[l - 1] == ' '))
		xe->msg[--l] = '\0';
	/* Some messages run over two lines ("...encoding !\nBytes: 0xFF..."). */
	for (char *p = xe->msg; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

/* SAX hook: a DOCTYPE reached the parser even though the bytes did not show one
 * (an encoding such as UTF-7 can spell "<!" differently). libxml2 calls this
 * before it reads the internal subset, so stopping here means no entity is
 * ever declared. */
static void xml_on_doctype(void *ctx, const xmlChar *name, const xmlChar *ext_id, const xmlChar *sys_id)
{
	(void)name;
	(void)ext_id;
	(void)sys_id;
	xmlStopParser((xmlParserCtxtPtr)ctx);
}

/* memmem() is a GNU extension; this stays within POSIX. */
static const char *memstr(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);
	for (const char *p = h; nl <= hl - (size_t)(p - h);) {
		p = memchr(p, n[0], hl - (size_t)(p - h) - nl + 1);
		if (!p)
			return NULL;
		if (!memcmp(p, n, nl))
			return p;
		p++;
	}
	return NULL;
}

static const char *memstr_last(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);
	if (nl > hl)
		return NULL;
	for (size_t i = hl - nl + 1; i-- > 0;)
		if (!memcmp(h + i, n, nl))
			return h + i;
	return NULL;
}

static const char *memstr_ci(const char *h, size_t hl, const char *n)
{
	size_t nl = strlen(n);
	for (size_t i = 0; i + nl <= hl; i++)
		if (h[i] == '<' && !strncasecmp(h + i, n, nl))
			return h + i;
	return NULL;
}

static size_t count_lines(const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

/* The start of what the input said instead of XML, for the error message. */
static void quote_start(const char *s, size_t len, amc_sb *out)
{
	while (len && (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t'))
		s++, len--;
	size_t n = 0;
	while (n < len && n < 120 && s[n] != '\n' && s[n] != '\r')
		n++;
	amc_sanitize_line(s, n, out);
}

/* Find the XML in what `uiautomator dump` printed: from the first "<?xml" or
 * "<hierarchy" to the end of the last "</hierarchy>", dropping the trailing
 * "UI hierchary dumped to: /dev/tty" line and anything printed before. */
static int cut_document(const char *xml, size_t len, size_t *start, size_t *end, amc_err *e)
{
	const char *a = memstr(xml, len, "<?xml");
	const char *h = memstr(xml, len, "<hierarchy");
	const char *s = a && h ? (a < h ? a : h) : a ? a : h;
	if (!s)
		s = memchr(xml, '<', len);
	if (!s) {
		amc_sb q;
		amc_sb_init(&q);
		quote_start(xml, len, &q);
		if (q.len)
			amc_err_set(e, AMC_EUSAGE,
				"no UI hierarchy in the input; it says: \"%s\" (re-run the dump once the "
				"screen is idle, e.g. `adb exec-out uiautomator dump /dev/tty`)", amc_sb_str(&q));
		else
			amc_err_set(e, AMC_EUSAGE,
				"the UI tree input is empty; capture one with `adb exec-out uiautomator dump /dev/tty`");
		amc_sb_free(&q);
		return -1;
	}
	size_t off = (size_t)(s - xml);
	const char *close = memstr_last(s, len - off, "</hierarchy>");
	size_t stop;
	if (close) {
		stop = (size_t)(close - xml) + strlen("</hierarchy>");
	} else {
		/* Self-closing <hierarchy/> or another format: up to the last '>'. */
		const char *gt = NULL;
		for (size_t i = len; i-- > off;)
			if (xml[i] == '>') {
				gt = xml + i;
				break;
			}
		stop = gt ? (size_t)(gt - xml) + 1 : len;
	}
	*start = off;
	*end = stop;
	return 0;
}

/* The one message for a DOCTYPE, whichever check found it. */
static int refuse_doctype(amc_err *e, const char *what)
{
	return amc_err_set(e, AMC_EUSAGE, "UI tree XML has a %s; refusing it (device dumps never "
		"have one, and entities can expand without bound or read local files)", what);
}

int amc_uitree_xml_read(const char *xml, size_t len, xmlDocPtr *out, amc_err *e)
{
	*out = NULL;
	if (len > AMC_UITREE_MAX_BYTES)
		return amc_err_set(e, AMC_EUSAGE,
			"UI tree is %zu bytes, over the %u byte limit; refusing it (a real dump is well "
			"under 1 MB; check that the file is a single UI dump)", len, AMC_UITREE_MAX_BYTES);
	size_t start, end;
	if (cut_document(xml ? xml : "", len, &start, &end, e) != 0)
		return -1;
	const char *doc_text = xml + start;
	size_t doc_len = end - start;
	size_t line_base = count_lines(xml, start);

	/* Refused before parsing, so no entity is ever declared, let alone expanded. */
	if (memstr_ci(doc_text, doc_len, "<!DOCTYPE") || memstr_ci(doc_text, doc_len, "<!ENTITY"))
		return refuse_doctype(e, "DOCTYPE or ENTITY declaration");

	/* Device dumps are UTF-8; NUL bytes mean UTF-16/32 or binary, which would
	 * also defeat the byte checks above. */
	if (memchr(doc_text, '\0', doc_len))
		return amc_err_set(e, AMC_EUSAGE,
			"UI tree XML contains NUL bytes; expected UTF-8 text (a UTF-16 file? "
			"re-capture it with `adb exec-out uiautomator dump /dev/tty`)");

	pthread_once(&xml_once, xml_init);
	xml_errs xe = {0};
	/* Thread-local in libxml2 2.9: another thread's parse is not affected.
	 * Save and restore, so whoever set a handler before gets it back. */
	xmlStructuredErrorFunc old_fn = xmlStructuredError;
	void *old_ctx = xmlStructuredErrorContext;
	xmlSetStructuredErrorFunc(&xe, xml_on_error);

	int rc = -1;
	xmlDocPtr doc = NULL;
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	if (!ctxt) {
		amc_err_set(e, AMC_EENV, "cannot create an XML parser (out of memory?)");
		goto done;
	}
	/* Never NOENT, DTDLOAD or HUGE: no substitution, no external subset, and
	 * libxml2's own depth and text-size limits stay on. */
	int opts = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING;
	ctxt->sax->internalSubset = xml_on_doctype;
	doc = xmlCtxtReadMemory(ctxt, doc_text, (int)doc_len, "uitree.xml", NULL, opts);
	if (ctxt->errNo == XML_ERR_USER_STOP || (doc && (doc->intSubset || doc->extSubset))) {
		refuse_doctype(e, "DOCTYPE");
		goto done;
	}
	if (!doc || !ctxt->wellFormed) {
		if (xe.have && strstr(xe.msg, "Excessive depth"))
			amc_uitree_too_deep(e);
		else if (xe.have) {
			amc_sb m;
			amc_sb_init(&m);
			amc_sanitize_line(xe.msg, strlen(xe.msg), &m);
			amc_err_set(e, AMC_EUSAGE,
				"malformed UI tree XML at line %zu: %s (re-capture the dump; a dump cut short "
				"by a timeout is the usual cause)",
				line_base + (size_t)(xe.line > 0 ? xe.line : 1), amc_sb_str(&m));
			amc_sb_free(&m);
		} else {
			amc_err_set(e, AMC_EUSAGE, "malformed UI tree XML (re-capture the dump)");
		}
		goto done;
	}
	xmlNode *root = xmlDocGetRootElement(doc);
	if (!root || !root->name) {
		amc_err_set(e, AMC_EUSAGE, "UI tree XML has no root element");
		goto done;
	}
	*out = doc;
	doc = NULL;
	rc = 0;
done:
	if (doc)
		xmlFreeDoc(doc);
	if (ctxt)
		xmlFreeParserCtxt(ctxt);
	xmlSetStructuredErrorFunc(old_ctx, old_fn);
	return rc;
}

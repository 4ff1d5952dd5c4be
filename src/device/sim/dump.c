/* dump.c - the UI tree in the exact format of `adb shell uiautomator dump`.
 *
 * Android builds that file with AccessibilityNodeInfoDumper and an XmlSerializer
 * (KXmlSerializer, from Xml.newSerializer()). What we reproduce, checked against
 * their sources (public copies of AccessibilityNodeInfoDumper.java and
 * KXmlSerializer.java, found with the code search):
 *  - stripInvalidXMLChars() replaces U+0001-U+0008, U+000B-U+000C, U+000E-U+001F,
 *    U+007F-U+0084, U+0086-U+009F and U+FDD0-U+FDDF with '.' in every attribute
 *    value (tab, newline and carriage return survive it);
 *  - KXmlSerializer.attribute() quotes with '"' unless the value contains '"', in
 *    which case it quotes with '\'' and writes '\'' as &apos; ('"' then stays raw);
 *  - writeEscaped() writes & < > as &amp; &lt; &gt;, the quote character as
 *    &quot;/&apos;, '\n' '\r' '\t' as &#10; &#13; &#9;, other characters raw (the
 *    encoding is UTF-8) except code points above U+FFFF, which it writes as a
 *    decimal reference (&#128512;) because Java holds them as surrogate pairs;
 *  - U+FFFE/U+FFFF make KXmlSerializer throw (the dump fails on a phone); the sim
 *    writes '.' for them instead so a dump always succeeds;
 *  - the document starts "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
 *    is one line, a childless node ends " />", and only nodes visible on screen
 *    are dumped with bounds clipped to their parents (getVisibleBoundsInScreen). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/sim/screens.h"
#include "util/sanitize.h"

static int stripped(unsigned cp)
{
	return (cp >= 0x1 && cp <= 0x8) || (cp >= 0xB && cp <= 0xC) || (cp >= 0xE && cp <= 0x1F) ||
	       (cp >= 0x7F && cp <= 0x84) || (cp >= 0x86 && cp <= 0x9F) || (cp >= 0xFDD0 && cp <= 0xFDDF) ||
	       cp == 0xFFFE || cp == 0xFFFF;
}

void sim_xml_attr(amc_sb *sb, const char *name, const char *value)
{
	if (!value)
		value = "";
	char q = strchr(value, '"') ? '\'' : '"';
	amc_sb_putc(sb, ' ');
	amc_sb_puts(sb, name);
	amc_sb_putc(sb, '=');
	amc_sb_putc(sb, q);
	size_t len = strlen(value);
	for (size_t i = 0; i < len;) {
		unsigned cp;
		size_t n = amc_utf8_decode((const unsigned char *)value + i, len - i, &cp);
		if (stripped(cp)) {
			amc_sb_putc(sb, '.');
		} else if (cp == '\n' || cp == '\r' || cp == '\t') {
			amc_sb_printf(sb, "&#%u;", cp);
		} else if (cp == '&') {
			amc_sb_puts(sb, "&amp;");
		} else if (cp == '<') {
			amc_sb_puts(sb, "&lt;");
		} else if (cp == '>') {
			amc_sb_puts(sb, "&gt;");
		} else if (cp == (unsigned)q) {
			amc_sb_puts(sb, q == '"' ? "&quot;" : "&apos;");
		} else if (cp > 0xFFFF) {
			amc_sb_printf(sb, "&#%u;", cp);
		} else if (cp == 0xFFFD && !(n == 3 && !memcmp(value + i, "\xef\xbf\xbd", 3))) {
			amc_sb_puts(sb, "\xef\xbf\xbd"); /* stored text is valid UTF-8; never emit a broken byte */
		} else {
			amc_sb_append(sb, value + i, n);
		}
		i += n;
	}
	amc_sb_putc(sb, q);
}

static const char *tf(unsigned flags, unsigned bit)
{
	return (flags & bit) ? "true" : "false";
}

static void dump_node(amc_sb *sb, const vtree *t, int i, int index, const unsigned char *dumped, const int *vis)
{
	const vnode *n = &t->n[i];
	char bounds[64];
	snprintf(bounds, sizeof bounds, "[%d,%d][%d,%d]", vis[i * 4], vis[i * 4 + 1], vis[i * 4 + 2], vis[i * 4 + 3]);
	char idx[16];
	snprintf(idx, sizeof idx, "%d", index);
	amc_sb_puts(sb, "<node");
	sim_xml_attr(sb, "index", idx);
	sim_xml_attr(sb, "text", n->text);
	sim_xml_attr(sb, "resource-id", n->rid);
	sim_xml_attr(sb, "class", n->cls);
	sim_xml_attr(sb, "package", t->pkg);
	sim_xml_attr(sb, "content-desc", n->desc);
	sim_xml_attr(sb, "checkable", tf(n->flags, VF_CHECKABLE));
	sim_xml_attr(sb, "checked", tf(n->flags, VF_CHECKED));
	sim_xml_attr(sb, "clickable", tf(n->flags, VF_CLICKABLE));
	sim_xml_attr(sb, "enabled", (n->flags & VF_DISABLED) ? "false" : "true");
	sim_xml_attr(sb, "focusable", tf(n->flags, VF_FOCUSABLE));
	sim_xml_attr(sb, "focused", tf(n->flags, VF_FOCUSED));
	sim_xml_attr(sb, "scrollable", tf(n->flags, VF_SCROLLABLE));
	sim_xml_attr(sb, "long-clickable", tf(n->flags, VF_LONGCLICK));
	sim_xml_attr(sb, "password", tf(n->flags, VF_PASSWORD));
	sim_xml_attr(sb, "selected", tf(n->flags, VF_SELECTED));
	sim_xml_attr(sb, "bounds", bounds);
	int k = 0, any = 0;
	for (int c = n->first; c >= 0; c = t->n[c].next) {
		if (!dumped[c])
			continue;
		if (!any)
			amc_sb_putc(sb, '>');
		any = 1;
		dump_node(sb, t, c, k++, dumped, vis);
	}
	amc_sb_puts(sb, any ? "</node>" : " />");
}

char *sim_dump_xml(const sim *s, size_t *len)
{
	sim_view v;
	vtree t;
	sim_current_view(s, &v);
	sim_build(s, &v, &t);
	unsigned char *dumped = amc_xmalloc((size_t)t.count + 1);
	int *vis = amc_xmalloc(((size_t)t.count + 1) * 4 * sizeof *vis);
	vtree_dumped(&t, s->w, s->h, dumped, vis);
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">");
	if (t.count > 0 && dumped[t.dump_root])
		dump_node(&sb, &t, t.dump_root, 0, dumped, vis);
	amc_sb_puts(&sb, "</hierarchy>");
	free(dumped);
	free(vis);
	vtree_free(&t);
	*len = sb.len;
	return amc_sb_detach(&sb);
}

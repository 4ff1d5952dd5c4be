/* test_dump.c - the sim's `uiautomator dump` writer (src/device/sim/dump.c):
 * attribute escaping exactly as docs/sim.md states Android's dumper does it
 * (checked for every BMP code point and a sample above it, and read back with
 * libxml2), the document shape on every screen (17 attributes in order, bounds
 * [x1,y1][x2,y2] clipped to the parent, index = sibling position, one package),
 * and hostile contact names read back exactly by the real reader
 * (perception/uitree). */
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "device/sim/sim_int.h"
#include "perception/uitree.h"
#include "tap.h"
#include "testutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static const char *home;

/* The rule of docs/sim.md, written out independently of dump.c. */
static int doc_stripped(unsigned cp)
{
	return (cp >= 0x1 && cp <= 0x8) || cp == 0xB || cp == 0xC || (cp >= 0xE && cp <= 0x1F) ||
	       (cp >= 0x7F && cp <= 0x84) || (cp >= 0x86 && cp <= 0x9F) || (cp >= 0xFDD0 && cp <= 0xFDDF) ||
	       cp == 0xFFFE || cp == 0xFFFF;
}

static char *attr(const char *value)
{
	amc_sb sb;
	amc_sb_init(&sb);
	sim_xml_attr(&sb, "a", value);
	return amc_sb_detach(&sb);
}

static void is_attr(const char *value, const char *want, const char *what)
{
	char *got = attr(value);
	is_str(got, want, "%s", what);
	free(got);
}

static void test_escaping_cases(void)
{
	is_attr("plain text", " a=\"plain text\"", "plain text is written as is");
	is_attr(NULL, " a=\"\"", "NULL is an empty value");
	is_attr("", " a=\"\"", "empty value");
	is_attr("a&b<c>d", " a=\"a&amp;b&lt;c&gt;d\"", "& < > escaped");
	is_attr("it's", " a=\"it's\"", "an apostrophe stays raw inside double quotes");
	is_attr("say \"hi\"", " a='say \"hi\"'", "a value with '\"' is quoted with '\\''");
	is_attr("O'Brien \"Bob\"", " a='O&apos;Brien \"Bob\"'", "both quotes: '\\'' becomes &apos;");
	is_attr("t\tn\nr\r", " a=\"t&#9;n&#10;r&#13;\"", "tab, newline, carriage return as character references");
	is_attr("\x01\x08\x0b\x0c\x0e\x1f\x7f", " a=\".......\"", "C0 controls and DEL become '.'");
	is_attr("\xc2\x80\xc2\x84\xc2\x85\xc2\x86\xc2\x9f\xc2\xa0", " a=\"..\xc2\x85..\xc2\xa0\"",
		"C1 controls become '.', except U+0085 (NEL); U+00A0 raw");
	is_attr("\xef\xb7\x90\xef\xb7\x9f\xef\xb7\x8f\xef\xb7\xa0", " a=\"..\xef\xb7\x8f\xef\xb7\xa0\"",
		"U+FDD0-U+FDDF become '.', their neighbours stay");
	is_attr("\xef\xbf\xbe\xef\xbf\xbf", " a=\"..\"", "U+FFFE and U+FFFF become '.' (the sim never fails a dump)");
	is_attr("\xef\xbf\xbd", " a=\"\xef\xbf\xbd\"", "U+FFFD itself is kept");
	is_attr("\xf0\x9f\x98\x80 \xf0\x90\x80\x80 \xf4\x8f\xbf\xbf", " a=\"&#128512; &#65536; &#1114111;\"",
		"code points above U+FFFF as decimal references");
	is_attr("Zo\xc3\xab \xe4\xb8\xad\xe6\x96\x87", " a=\"Zo\xc3\xab \xe4\xb8\xad\xe6\x96\x87\"", "BMP text raw UTF-8");
	char *broken = attr("a\xff" "b\xc3");
	ok(broken && !strchr(broken, '\xff'), "a broken byte is never written raw: %s", broken);
	free(broken);
}

/* Every BMP code point (but surrogates) and a sample above U+FFFF, each in its
 * own element of one document: the writer's output matches the documented
 * rule, and libxml2 reads back the value with only the stripped ones as '.'. */
static void test_escaping_all(void)
{
	amc_sb doc, one;
	amc_sb_init(&doc);
	amc_sb_init(&one);
	amc_sb_puts(&doc, "<r>");
	int mismatches = 0, count = 0;
	for (unsigned cp = 1; cp <= 0x10FFFF; cp++) {
		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		if (cp > 0xFFFF && cp % 4099 != 0 && cp != 0x10FFFF && cp != 0x10000)
			continue;
		amc_sb_reset(&one);
		amc_utf8_encode(cp, &one);
		char *got = attr(amc_sb_str(&one));
		char want[64];
		if (doc_stripped(cp))
			snprintf(want, sizeof want, " a=\".\"");
		else if (cp == '\t' || cp == '\n' || cp == '\r' || cp > 0xFFFF)
			snprintf(want, sizeof want, " a=\"&#%u;\"", cp);
		else if (cp == '&')
			snprintf(want, sizeof want, " a=\"&amp;\"");
		else if (cp == '<')
			snprintf(want, sizeof want, " a=\"&lt;\"");
		else if (cp == '>')
			snprintf(want, sizeof want, " a=\"&gt;\"");
		else if (cp == '"')
			snprintf(want, sizeof want, " a='\"'");
		else
			snprintf(want, sizeof want, " a=\"%s\"", amc_sb_str(&one));
		if (strcmp(got, want)) {
			if (mismatches++ < 5)
				diag("U+%04X: got %s, want %s", cp, got, want);
		}
		amc_sb_puts(&doc, "<n");
		amc_sb_puts(&doc, got);
		amc_sb_puts(&doc, "/>");
		free(got);
		count++;
	}
	amc_sb_puts(&doc, "</r>");
	is_int(mismatches, 0, "all %d code points written per docs/sim.md", count);

	xmlDocPtr d = xmlReadMemory(doc.buf, (int)doc.len, "all.xml", "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	ok(d != NULL, "the %zu-byte document of all of them is well-formed XML", doc.len);
	int back_bad = 0, seen = 0;
	if (d) {
		xmlNodePtr n = xmlDocGetRootElement(d)->children;
		for (unsigned cp = 1; cp <= 0x10FFFF && n; cp++) {
			if (cp >= 0xD800 && cp <= 0xDFFF)
				continue;
			if (cp > 0xFFFF && cp % 4099 != 0 && cp != 0x10FFFF && cp != 0x10000)
				continue;
			xmlChar *v = xmlGetProp(n, (const xmlChar *)"a");
			amc_sb_reset(&one);
			if (doc_stripped(cp))
				amc_sb_putc(&one, '.');
			else
				amc_utf8_encode(cp, &one);
			if (!v || strcmp((const char *)v, amc_sb_str(&one))) {
				if (back_bad++ < 5)
					diag("U+%04X read back as '%s'", cp, v ? (const char *)v : "(none)");
			}
			xmlFree(v);
			seen++;
			n = n->next;
		}
		xmlFreeDoc(d);
	}
	is_int(seen, count, "one element per code point");
	is_int(back_bad, 0, "libxml2 reads every value back (stripped ones as '.')");
	amc_sb_free(&doc);
	amc_sb_free(&one);
}

/* ---- dumps of the sim ---- */

static const char *ORDER[17] = {"index", "text", "resource-id", "class", "package", "content-desc", "checkable",
				"checked", "clickable", "enabled", "focusable", "focused", "scrollable", "long-clickable",
				"password", "selected", "bounds"};

typedef struct shape_check {
	regex_t re;
	int nodes, bad_attrs, bad_bounds, outside, bad_index, bad_pkg, bad_bool;
	int w, h;
	const char *pkg;
} shape_check;

static void check_node(shape_check *c, xmlNodePtr n, int want_index, const int *pb)
{
	c->nodes++;
	int k = 0, good = 1;
	for (xmlAttrPtr a = n->properties; a; a = a->next, k++)
		if (k >= 17 || strcmp((const char *)a->name, ORDER[k]))
			good = 0;
	if (!good || k != 17)
		c->bad_attrs++;
	for (int i = 6; i < 16; i++) {
		xmlChar *v = xmlGetProp(n, (const xmlChar *)ORDER[i]);
		if (!v || (strcmp((const char *)v, "true") && strcmp((const char *)v, "false")))
			c->bad_bool++;
		xmlFree(v);
	}
	xmlChar *idx = xmlGetProp(n, (const xmlChar *)"index");
	char want[16];
	snprintf(want, sizeof want, "%d", want_index);
	if (!idx || strcmp((const char *)idx, want))
		c->bad_index++;
	xmlFree(idx);
	xmlChar *pkg = xmlGetProp(n, (const xmlChar *)"package");
	if (!pkg || strcmp((const char *)pkg, c->pkg))
		c->bad_pkg++;
	xmlFree(pkg);
	xmlChar *bs = xmlGetProp(n, (const xmlChar *)"bounds");
	int b[4] = {0, 0, 0, 0};
	if (!bs || regexec(&c->re, (const char *)bs, 0, NULL, 0) != 0 ||
	    sscanf((const char *)bs, "[%d,%d][%d,%d]", &b[0], &b[1], &b[2], &b[3]) != 4 || b[0] >= b[2] || b[1] >= b[3] ||
	    b[0] < 0 || b[1] < 0 || b[2] > c->w || b[3] > c->h) {
		if (c->bad_bounds++ < 3)
			diag("bad bounds '%s'", bs ? (const char *)bs : "(none)");
	}
	if (pb && (b[0] < pb[0] || b[1] < pb[1] || b[2] > pb[2] || b[3] > pb[3]))
		c->outside++;
	xmlFree(bs);
	int i = 0;
	for (xmlNodePtr ch = n->children; ch; ch = ch->next)
		if (ch->type == XML_ELEMENT_NODE)
			check_node(c, ch, i++, b);
}

static sim *S(amc_device *d)
{
	return d->impl;
}

static void show(sim *s, int screen, int arg)
{
	s->st.depth = 1;
	s->st.stack[0].screen = SCR_LAUNCHER;
	s->st.stack[0].arg = -1;
	s->st.stack[0].scroll = 0;
	s->st.dialog = DLG_NONE;
	s->st.focus = F_NONE;
	s->st.kb_hidden = 0;
	s->st.tr_kind = TR_NONE;
	if (screen != SCR_LAUNCHER) {
		s->st.stack[1].screen = screen;
		s->st.stack[1].arg = arg;
		s->st.stack[1].scroll = 0;
		s->st.depth = 2;
	}
}

/* Shape checks on the current dump; returns the number of nodes. */
static int check_dump(sim *s, const char *what)
{
	size_t len;
	char *xml = sim_dump_xml(s, &len);
	static const char head[] = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">";
	int shape = xml && len == strlen(xml) && !strncmp(xml, head, strlen(head)) && !strchr(xml, '\n') &&
		    len > 12 && !strcmp(xml + len - 12, "</hierarchy>");
	xmlDocPtr d = xmlReadMemory(xml, (int)len, "dump.xml", "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	shape_check c;
	memset(&c, 0, sizeof c);
	regcomp(&c.re, "^\\[[0-9]+,[0-9]+\\]\\[[0-9]+,[0-9]+\\]$", REG_EXTENDED | REG_NOSUB);
	c.w = s->w;
	c.h = s->h;
	c.pkg = sim_screen_package(s->st.stack[s->st.depth - 1].screen);
	int roots = 0;
	if (d) {
		xmlNodePtr h = xmlDocGetRootElement(d);
		for (xmlNodePtr n = h ? h->children : NULL; n; n = n->next)
			if (n->type == XML_ELEMENT_NODE) {
				roots++;
				check_node(&c, n, 0, NULL);
			}
	}
	ok(shape && d && roots == 1 && c.nodes > 2 && !c.bad_attrs && !c.bad_bounds && !c.outside && !c.bad_index &&
	   !c.bad_pkg && !c.bad_bool,
	   "%s: one-line, well-formed, %d nodes (attrs %d, bounds %d, outside parent %d, index %d, package %d, bool %d bad)",
	   what, c.nodes, c.bad_attrs, c.bad_bounds, c.outside, c.bad_index, c.bad_pkg, c.bad_bool);
	/* The real reader agrees on the node count. */
	amc_ui_tree t;
	amc_err e;
	if (amc_uitree_parse(xml, len, &t, &e) == 0) {
		if ((int)t.count != c.nodes)
			ok(0, "%s: uitree reads %zu nodes, libxml2 %d", what, t.count, c.nodes);
		amc_uitree_free(&t);
	} else {
		ok(0, "%s: uitree refuses the dump: %s", what, e.msg);
	}
	regfree(&c.re);
	xmlFreeDoc(d);
	free(xml);
	return c.nodes;
}

static void test_every_screen(sim *s)
{
	int fine = 0;
	for (int scr = 0; scr < SCR_COUNT; scr++) {
		int arg = (scr == SCR_WIFI_NET || scr == SCR_CONTACT_DETAIL || scr == SCR_NOTE_EDIT) ? 0 : -1;
		show(s, scr, arg);
		char what[64];
		snprintf(what, sizeof what, "screen %s", sim_screen_name(scr));
		fine += check_dump(s, what) > 2;
	}
	is_int(fine, SCR_COUNT, "every screen dumps");
	/* With the keyboard up and with a dialog open. */
	show(s, SCR_CONTACT_EDIT, -1);
	s->st.focus = F_NAME;
	check_dump(s, "form with keyboard");
	show(s, SCR_CONTACT_DETAIL, 0);
	s->st.dialog = DLG_DELETE_CONTACT;
	s->st.dialog_arg = 0;
	check_dump(s, "delete dialog");
	show(s, SCR_SETTINGS, -1);
	s->st.stack[1].scroll = 100000;
	check_dump(s, "settings scrolled to the end");
}

static void test_contents(sim *s)
{
	amc_ui_tree t;
	amc_err e;
	size_t len;
	/* Empty fields report their hint; the keyboard and status bar are not in the tree. */
	show(s, SCR_CONTACT_EDIT, -1);
	s->st.focus = F_NAME;
	amc_sb_reset(&s->st.f_name);
	amc_sb_reset(&s->st.f_phone);
	char *xml = sim_dump_xml(s, &len);
	ok(amc_uitree_parse(xml, len, &t, &e) == 0, "form dump parses");
	int hint = 0, keys = 0, clock = 0, focused = 0;
	for (size_t i = 0; i < t.count; i++) {
		const amc_ui_node *n = &t.nodes[i];
		if (!strcmp(n->resource_id, "com.android.contacts:id/name") && !strcmp(n->text, "Name"))
			hint = 1;
		if (!strcmp(n->resource_id, "com.android.contacts:id/name") && (n->flags & AMC_NODE_FOCUSED))
			focused = 1;
		if (!strcmp(n->text, "q") || !strcmp(n->text, "\xe2\x8c\xab"))
			keys++;
		if (!strncmp(n->text, "09:4", 4))
			clock++;
		if (n->bounds.y2 <= 84 && n->bounds.y1 < 84 && n->depth > 1)
			clock++;
	}
	ok(hint, "an empty EditText reports its hint as text");
	ok(focused, "the focused field is focused='true'");
	is_int(keys, 0, "soft keyboard keys are not in the tree");
	is_int(clock, 0, "nothing of the status bar is in the tree");
	amc_uitree_free(&t);
	free(xml);

	/* A dialog: only the dialog's window is dumped. */
	show(s, SCR_CONTACT_DETAIL, 0);
	s->st.dialog = DLG_DELETE_CONTACT;
	s->st.dialog_arg = 0;
	xml = sim_dump_xml(s, &len);
	ok(strstr(xml, "text=\"Delete this contact?\"") && !strstr(xml, "Navigate up") &&
	   !strstr(xml, "com.android.contacts:id/large_title"), "dialog dump shows only the dialog");
	free(xml);

	/* Scrolled out rows are absent, partly visible ones are clipped to the list. */
	show(s, SCR_SETTINGS, -1);
	s->st.stack[1].scroll = 100000;
	xml = sim_dump_xml(s, &len);
	ok(strstr(xml, "text=\"About phone\"") && !strstr(xml, "text=\"Wi-Fi\""), "scrolled list dumps the visible rows only");
	free(xml);
}

/* Contacts whose names are hostile, as stored state (the dump is under test,
 * not the form). Sorted after insertion, as the sim keeps them. */
static const char *HOSTILE[] = {
	"<script>alert(\"x&y\")</script>",
	"O'Brien \"Bob\" & <Co>",
	"Tab\there\nLine\r2",
	"]]><!-- x --><?pi x?>&amp;&#10;&lt;",
	("\xf0\x9f\x98\x80 Zo\xc3\xab \xe4\xb8\xad\xe6\x96\x87\xc2\xa0\xe2\x80\xae" "rtl"),
	"'single' only",
	"\\\" backslash quote",
};

static void add_contact(sim *s, const char *name)
{
	s->st.contacts = amc_xrealloc(s->st.contacts, (size_t)(s->st.ncontacts + 1) * sizeof *s->st.contacts);
	s->st.contacts[s->st.ncontacts].name = amc_xstrdup(name);
	s->st.contacts[s->st.ncontacts].phone = amc_xstrdup("+1 555 0100");
	s->st.ncontacts++;
	sim_contacts_sort(&s->st);
}

static int contact_index(sim *s, const char *name)
{
	for (int i = 0; i < s->st.ncontacts; i++)
		if (!strcmp(s->st.contacts[i].name, name))
			return i;
	return -1;
}

/* Does the dump, read by perception/uitree, hold a node with this id and exactly this text? */
static int reader_has(sim *s, const char *rid, const char *text)
{
	size_t len;
	char *xml = sim_dump_xml(s, &len);
	amc_ui_tree t;
	amc_err e;
	int found = 0;
	if (amc_uitree_parse(xml, len, &t, &e) == 0) {
		for (size_t i = 0; i < t.count; i++)
			if (!strcmp(t.nodes[i].resource_id, rid) && !strcmp(t.nodes[i].text, text))
				found = 1;
		amc_uitree_free(&t);
	} else {
		diag("uitree: %s", e.msg);
	}
	free(xml);
	return found;
}

static void test_hostile_names(amc_device *d)
{
	sim *s = S(d);
	size_t n = sizeof HOSTILE / sizeof HOSTILE[0];
	for (size_t i = 0; i < n; i++)
		add_contact(s, HOSTILE[i]);
	int in_list = 0, in_detail = 0;
	for (size_t i = 0; i < n; i++) {
		int k = contact_index(s, HOSTILE[i]);
		show(s, SCR_CONTACTS, -1);
		/* Rows are 64 dp; scroll the row near the top so it is visible. */
		s->st.stack[1].scroll = k > 0 ? (int)((k - 1) * 64 * s->dp) : 0;
		int a = reader_has(s, "com.android.contacts:id/name", HOSTILE[i]);
		show(s, SCR_CONTACT_DETAIL, k);
		int b = reader_has(s, "com.android.contacts:id/large_title", HOSTILE[i]);
		char *vis = amc_sanitize_dup(HOSTILE[i]);
		ok(a && b, "name %s read back exactly (list %d, detail %d)", vis, a, b);
		free(vis);
		in_list += a;
		in_detail += b;
	}
	is_int(in_list + in_detail, (int)(2 * n), "every hostile name survives both screens");

	/* Control characters are the documented exception: they read back as '.'. */
	add_contact(s, "A\x01" "B\x7f" "C\xc2\x90" "D");
	show(s, SCR_CONTACT_DETAIL, contact_index(s, "A\x01" "B\x7f" "C\xc2\x90" "D"));
	ok(reader_has(s, "com.android.contacts:id/large_title", "A.B.C.D"), "controls in a name read back as '.'");

	/* End to end through the form: typed, saved, dumped by the device call. */
	amc_err e;
	const char *typed = "Eve <\"&'>\t\xf0\x9f\x98\x80";
	show(s, SCR_CONTACT_EDIT, -1);
	s->st.focus = F_NAME;
	amc_sb_reset(&s->st.f_name);
	ok(d->ops->type_text(d, typed, &e) == 0, "type a hostile name into the form");
	char *xml = NULL;
	size_t len;
	ok(d->ops->ui_tree(d, &xml, &len, &e) == 0, "ui_tree through the device");
	amc_ui_tree t;
	int got = 0;
	if (xml && amc_uitree_parse(xml, len, &t, &e) == 0) {
		for (size_t i = 0; i < t.count; i++)
			if (!strcmp(t.nodes[i].resource_id, "com.android.contacts:id/name") && !strcmp(t.nodes[i].text, typed))
				got = 1;
		amc_uitree_free(&t);
	}
	ok(got, "the typed field's text reads back exactly");
	free(xml);
}

int main(void)
{
	home = test_home("dump");
	test_escaping_cases();
	test_escaping_all();
	amc_device *d = NULL;
	amc_err e;
	if (amc_sim_open(home, 0, NULL, &d, &e) != 0) {
		ok(0, "open sim:0: %s", e.msg);
		return done_testing();
	}
	test_every_screen(S(d));
	test_contents(S(d));
	test_hostile_names(d);
	amc_device_close(d);
	xmlCleanupParser();
	return done_testing();
}

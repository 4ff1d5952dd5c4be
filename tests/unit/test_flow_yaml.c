/* test_flow_yaml.c - reading a flow's YAML: the two passes, FILE:LINE errors
 * and the scalar getters, below the Maestro grammar. */
#include <stdlib.h>
#include <string.h>

#include "flow/flow_yaml.h"
#include "tap.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

static int read_text(amc_flow_yaml *y, amc_err *e, const char *text)
{
	amc_err_clear(e);
	amc_flow_yaml_init(y, "t.yaml", e);
	return amc_flow_yaml_read(y, text, strlen(text));
}

/* Bytes the reader must refuse: the code, the message, and no document kept. */
static void refused(const char *text, const char *needle, const char *name)
{
	amc_flow_yaml y;
	amc_err e;
	int rc = read_text(&y, &e, text);
	ok(rc == -1 && e.code == AMC_EUSAGE, "%s: refused as bad input", name);
	like(e.msg, needle, "%s: message", name);
	ok(y.ndocs == 0, "%s: no document kept", name);
	amc_flow_yaml_close(&y);
}

/* The value of `key` in the root mapping of the first document. */
static const yaml_node_t *value(amc_flow_yaml *y, const char *key)
{
	const yaml_node_t *root = amc_flow_yaml_use(y, 0);
	amc_flow_yaml_kv *items;
	size_t n;
	const yaml_node_t *v = NULL;
	if (amc_flow_yaml_items(y, root, &items, &n) != 0)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(items[i].name, key))
			v = items[i].val;
	free(items);
	return v;
}

static void test_documents(void)
{
	amc_flow_yaml y;
	amc_err e;
	ok(read_text(&y, &e, "appId: a\n---\n# a comment\n- back\n") == 0, "config and commands read");
	is_int(y.ndocs, 2, "two documents");
	const yaml_node_t *r = amc_flow_yaml_use(&y, 0);
	ok(r && r->type == YAML_MAPPING_NODE && amc_flow_yaml_line(r) == 1, "first root: a mapping on line 1");
	r = amc_flow_yaml_use(&y, 1);
	ok(r && r->type == YAML_SEQUENCE_NODE && amc_flow_yaml_line(r) == 4, "second root: a list on line 4");
	is_int(amc_flow_yaml_line(NULL), 0, "no node: line 0");
	amc_flow_yaml_close(&y);
	ok(y.where == NULL && y.ndocs == 0, "close empties the reader");

	ok(read_text(&y, &e, "# only a comment\n") == 0 && y.ndocs == 0, "comments only: no document, no error");
	amc_flow_yaml_close(&y);
	/* A trailing `---` (an empty third document): YamlCommandReader filters
	 * null sections before it counts config and commands, so Maestro runs it. */
	ok(read_text(&y, &e, "appId: a\n---\n- back\n---\n") == 0 && y.ndocs == 2, "a trailing empty document is not counted");
	amc_flow_yaml_close(&y);
	ok(read_text(&y, &e, "appId: a\n---\n- back\n---\n---\n# end\n") == 0 && y.ndocs == 2,
	   "nor two of them");
	amc_flow_yaml_close(&y);
	ok(read_text(&y, &e, "appId: a\n---\n- back\n---\n''\n") == 0 && y.ignored_line == 4,
	   "a third document with an empty quoted text: ignored, and said so");
	amc_flow_yaml_close(&y);
	ok(read_text(&y, &e, "") == 0 && y.ndocs == 0, "zero bytes: no document, no error");
	amc_flow_yaml_close(&y);

	amc_flow_yaml_init(&y, NULL, &e);
	is_str(y.where, "(flow)", "no path: messages say (flow)");
	amc_flow_yaml_close(&y);
	amc_flow_yaml_init(&y, "evil\x1b[2J.yaml", &e);
	ok(y.where && strchr(y.where, 0x1b) == NULL, "the path in messages is sanitized");
	amc_flow_yaml_close(&y);
}

static void test_refused(void)
{
	refused("- [a\n", "t.yaml:2:1: malformed YAML", "unterminated flow sequence");
	/* an option indented under a command with a value (Aether-Tech/ION):
	 * not YAML, so Jackson's YAML parser (YamlCommandReader) refuses it too */
	refused("- assertNotVisible: \"Entrar\"\n    optional: true\n",
		"t.yaml:2:5: malformed YAML: did not find expected key (while parsing a block mapping started at "
		"line 1): an option indented under a command that already has a value", "an option under a value");
	refused("- \"abc\n\n", "t.yaml:3:1: malformed YAML: found unexpected end of stream (while scanning a quoted scalar started at line 1)", "malformed: where it started");
	/* memverse_project and DragonWorldsHK2027 write more scenarios after
	 * another `---`: MaestroFlowParser.parseFlow reads the config and one
	 * command list and never reads further, so the rest is ignored, not
	 * refused, even where it is not YAML at all. */
	{
		amc_flow_yaml y;
		amc_err e;
		ok(read_text(&y, &e, "a: 1\n---\n- back\n---\n- bogus: [\n---\n- back\n") == 0,
		   "three documents: read, as MaestroFlowParser does: %s", e.msg);
		is_int(y.ndocs, 2, "  the config and the first command list kept");
		is_int(y.ignored_line, 4, "  where the ignored part starts");
		amc_flow_yaml_close(&y);
		ok(read_text(&y, &e, "a: 1\n---\n- back\n---\n") == 0 && y.ndocs == 2 && y.ignored_line == 0,
		   "a trailing `---`: an empty document, nothing to say");
		amc_flow_yaml_close(&y);
		ok(read_text(&y, &e, "a: 1\n---\n- back\n") == 0 && y.ignored_line == 0, "two documents: nothing ignored");
		amc_flow_yaml_close(&y);
	}
	/* quckapp/chat_app: the config, then the commands without `---` */
	refused("appId: a\n\n- back\n", "the config and the commands need a `---` line "
		"between them; Maestro's YAML parser refuses this too", "config and commands without ---");
	refused("a: &x 1\nb: *x\n", "t.yaml:2: anchors and aliases are not supported", "alias");
	/* A billion-laughs style document: refused by the event pass, quickly. */
	refused("a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\n---\n- back\n", "aliases are not supported", "alias bomb");
	amc_sb sb;
	amc_sb_init(&sb);
	for (int i = 0; i < 100; i++)
		amc_sb_putc(&sb, '[');
	refused(amc_sb_str(&sb), "t.yaml:", "deep nesting (or unterminated) refused");
	for (int i = 0; i < 100; i++)
		amc_sb_putc(&sb, ']');
	refused(amc_sb_str(&sb), "t.yaml:1: nested more than 64 levels deep", "deep nesting refused");
	amc_sb_free(&sb);
	static const char junk[] = "\xff\xfe\x00\x01- tapOn: \x80\x81";
	amc_flow_yaml y;
	amc_err e;
	amc_flow_yaml_init(&y, "junk", &e);
	ok(amc_flow_yaml_read(&y, junk, sizeof junk - 1) == -1 && e.code == AMC_EUSAGE && y.ndocs == 0,
	   "binary junk refused");
	amc_flow_yaml_close(&y);
}

static void test_kinds(void)
{
	amc_flow_yaml y;
	amc_err e;
	if (read_text(&y, &e, "n: 5\nf: -1.5e3\nb: Yes\nz: ~\nnl: NULL\ne:\nq: \"5\"\nt: five\nl: [1]\nm: {a: 1}\n") != 0) {
		diag("%s", e.msg);
		return;
	}
	is_str(amc_flow_yaml_kind(value(&y, "n")), "a number", "5 is a number");
	is_str(amc_flow_yaml_kind(value(&y, "f")), "a number", "-1.5e3 is a number");
	is_str(amc_flow_yaml_kind(value(&y, "b")), "a boolean", "Yes is a boolean");
	is_str(amc_flow_yaml_kind(value(&y, "z")), "nothing (null)", "~ is null");
	is_str(amc_flow_yaml_kind(value(&y, "nl")), "nothing (null)", "NULL is null");
	is_str(amc_flow_yaml_kind(value(&y, "e")), "nothing (null)", "an empty value is null");
	is_str(amc_flow_yaml_kind(value(&y, "q")), "a text", "a quoted number is a text");
	is_str(amc_flow_yaml_kind(value(&y, "t")), "a text", "a word is a text");
	is_str(amc_flow_yaml_kind(value(&y, "l")), "a list", "a list");
	is_str(amc_flow_yaml_kind(value(&y, "m")), "a mapping", "a mapping");
	is_str(amc_flow_yaml_kind(NULL), "nothing", "no node");
	ok(!amc_flow_yaml_is_null(value(&y, "q")) && !amc_flow_yaml_is_null(value(&y, "m")),
	   "quoted text and mappings are not null");
	amc_flow_yaml_close(&y);
}

static void test_getters(void)
{
	amc_flow_yaml y;
	amc_err e;
	if (read_text(&y, &e, "n: 5\nq: \"5\"\nz: ~\nnul: \"a\\0b\"\ni: 42\nneg: -3\nfl: 1.5\nsp: \" 1\"\n"
			      "big: 99999999999999999999\nyes: YES\noff: off\nmaybe: maybe\nqt: \"true\"\n"
			      "pct: \"50%,80%\"\npx: \"100 , 200\"\nmix: \"1,2%\"\nover: \"150%,3%\"\nl: [1]\n"
			      "esc: \"\\e[31mred\"\n") != 0) {
		diag("%s", e.msg);
		return;
	}
	char *s = NULL;
	ok(amc_flow_yaml_str(&y, value(&y, "n"), "v", 0, &s) == -1 && s == NULL, "a plain number is not a text");
	is_str(e.msg, "t.yaml:1: v must be a text, got a number (write it in quotes: \"5\")",
	       "the message says how to write it");
	ok(amc_flow_yaml_str(&y, value(&y, "n"), "v", 1, &s) == 0, "unless numbers are fine");
	is_str(s, "5", "the number as text");
	ok(amc_flow_yaml_str(&y, value(&y, "q"), "v", 0, &s) == 0, "a quoted number is a text");
	is_str(s, "5", "and replaces the old value");
	free(s);
	s = NULL;
	ok(amc_flow_yaml_str(&y, value(&y, "z"), "v", 1, &s) == -1, "null is not a text");
	is_str(e.msg, "t.yaml:3: v must be a text, got nothing (null)", "null message");
	ok(amc_flow_yaml_str(&y, value(&y, "nul"), "v", 1, &s) == -1, "a NUL inside is refused");
	is_str(e.msg, "t.yaml:4: v contains a NUL character", "NUL message");
	ok(amc_flow_yaml_str(&y, value(&y, "esc"), "v", 1, &s) == 0 && s[0] == 0x1b,
	   "a value is kept as written (sanitized only in messages)");
	free(s);

	int x = -7;
	ok(amc_flow_yaml_int(&y, value(&y, "i"), "v", 0, 100, &x) == 0 && x == 42, "whole number");
	ok(amc_flow_yaml_int(&y, value(&y, "neg"), "v", 0, 100, &x) == -1 && x == 42, "out of range: unchanged");
	is_str(e.msg, "t.yaml:6: v must be between 0 and 100, got -3", "range message");
	ok(amc_flow_yaml_int(&y, value(&y, "fl"), "v", 0, 100, &x) == -1, "1.5 is not whole");
	is_str(e.msg, "t.yaml:7: v must be a whole number, got '1.5'", "not whole message");
	ok(amc_flow_yaml_int(&y, value(&y, "sp"), "v", 0, 100, &x) == -1, "leading space refused");
	ok(amc_flow_yaml_int(&y, value(&y, "big"), "v", 0, 100, &x) == -1, "overflow refused");
	ok(amc_flow_yaml_int(&y, value(&y, "l"), "v", 0, 100, &x) == -1, "a list is not a number");
	is_str(e.msg, "t.yaml:18: v must be a whole number, got a list", "list message");

	int b = -1;
	ok(amc_flow_yaml_bool(&y, value(&y, "yes"), "v", &b) == 0 && b == 1, "YES is true");
	ok(amc_flow_yaml_bool(&y, value(&y, "off"), "v", &b) == 0 && b == 0, "off is false");
	ok(amc_flow_yaml_bool(&y, value(&y, "maybe"), "v", &b) == -1, "maybe is not a boolean");
	is_str(e.msg, "t.yaml:12: v must be true or false, got 'maybe'", "bool message");
	ok(amc_flow_yaml_bool(&y, value(&y, "qt"), "v", &b) == -1, "a quoted \"true\" is text");
	ok(amc_flow_yaml_bool(&y, value(&y, "l"), "v", &b) == -1, "a list is not a boolean");
	is_str(e.msg, "t.yaml:18: v must be true or false, got a list", "bool list message");

	int px = 0, py = 0, pc = -1;
	ok(amc_flow_yaml_point(&y, value(&y, "pct"), "p", &px, &py, &pc) == 0 && px == 50 && py == 80 && pc == 1,
	   "percent point");
	ok(amc_flow_yaml_point(&y, value(&y, "px"), "p", &px, &py, &pc) == 0 && px == 100 && py == 200 && pc == 0,
	   "pixel point with spaces");
	ok(amc_flow_yaml_point(&y, value(&y, "mix"), "p", &px, &py, &pc) == -1, "mixed units refused");
	ok(amc_flow_yaml_point(&y, value(&y, "over"), "p", &px, &py, &pc) == -1, "over 100%% refused");
	is_str(e.msg, "t.yaml:17: p must be \"X%,Y%\" (0-100) or \"X,Y\" in pixels, got '150%,3%'",
	       "point message");
	amc_flow_yaml_close(&y);
}

static void test_mappings_and_quotes(void)
{
	amc_flow_yaml y;
	amc_err e;
	amc_flow_yaml_kv *items = NULL;
	size_t n = 0;
	ok(read_text(&y, &e, "a: 1\nb: 2\na: 3\n") == 0, "duplicate keys pass the reader");
	ok(amc_flow_yaml_items(&y, amc_flow_yaml_use(&y, 0), &items, &n) == -1, "but not the mapping walk");
	is_str(e.msg, "t.yaml:3: 'a' is given twice", "duplicate key message");
	amc_flow_yaml_close(&y);
	ok(read_text(&y, &e, "[k]: 1\n") == 0, "a list as a key reads");
	ok(amc_flow_yaml_items(&y, amc_flow_yaml_use(&y, 0), &items, &n) == -1, "but is refused");
	is_str(e.msg, "t.yaml:1: keys must be plain names, got a list", "key message");
	amc_flow_yaml_close(&y);
	ok(read_text(&y, &e, "z: 1\ny: [2]\n") == 0 && amc_flow_yaml_items(&y, amc_flow_yaml_use(&y, 0), &items, &n) == 0,
	   "a mapping walks");
	ok(n == 2 && !strcmp(items[0].name, "z") && !strcmp(items[1].name, "y") &&
	   items[1].val->type == YAML_SEQUENCE_NODE, "its pairs in order");
	free(items);

	is_int(amc_flow_yaml_err(&y, NULL, "plain %d", 1), -1, "an error returns -1");
	is_str(e.msg, "t.yaml: plain 1", "without a node: no line");
	ok(e.code == AMC_EUSAGE, "errors are usage errors");
	amc_flow_yaml_close(&y);

	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "v: \"\\e]0;x\\a");
	for (int i = 0; i < 100; i++)
		amc_sb_putc(&sb, 'x');
	amc_sb_puts(&sb, "\"\n");
	ok(read_text(&y, &e, amc_sb_str(&sb)) == 0, "a long hostile value reads");
	char *q = amc_flow_yaml_quote(value(&y, "v"));
	ok(q && strchr(q, 0x1b) == NULL && strchr(q, 0x07) == NULL, "quoting sanitizes");
	ok(q && strlen(q) >= 3 && !strcmp(q + strlen(q) - 3, "...") && strlen(q) < 100, "and cuts at 80 bytes");
	free(q);
	q = amc_flow_yaml_quote(amc_flow_yaml_use(&y, 0));
	is_str(q, "(mapping)", "a mapping quotes as (mapping)");
	free(q);
	amc_flow_yaml_close(&y);
	amc_sb_reset(&sb);
	/* 79 bytes, then 3-byte characters: the cut falls before the first */
	amc_sb_puts(&sb, "v: \"");
	for (int i = 0; i < 79; i++)
		amc_sb_putc(&sb, 'x');
	amc_sb_puts(&sb, "\xe5\xad\x98\xe5\x9c\xa8\xe5\xad\x98\"\n");
	ok(read_text(&y, &e, amc_sb_str(&sb)) == 0, "a long non-ASCII value reads");
	q = amc_flow_yaml_quote(value(&y, "v"));
	ok(q && amc_utf8_valid(q) && !strstr(q, "\xef\xbf\xbd") && strstr(q, "x..."), "quoting cuts between characters: %s", q ? q : "");
	free(q);
	amc_flow_yaml_close(&y);
	amc_sb_free(&sb);
}

int main(void)
{
	test_documents();
	test_refused();
	test_kinds();
	test_getters();
	test_mappings_and_quotes();
	return done_testing();
}

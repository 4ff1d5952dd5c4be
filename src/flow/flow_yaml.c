/* flow_yaml.c - a flow file's YAML: two passes, FILE:LINE errors, scalar getters.
 * The grammar that gives the nodes a meaning is in flow_cmds.c and flow.c. */
#include "flow/flow_yaml.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

#define QUOTE_MAX 80 /* bytes of a value quoted in a message: enough to recognise it */

void amc_flow_yaml_init(amc_flow_yaml *y, const char *path, amc_err *e)
{
	memset(y, 0, sizeof *y);
	y->where = amc_sanitize_dup(path ? path : "(flow)");
	y->e = e;
}

void amc_flow_yaml_close(amc_flow_yaml *y)
{
	for (int i = 0; i < y->ndocs; i++)
		yaml_document_delete(&y->docs[i]);
	free(y->where);
	free(y->notes);
	memset(y, 0, sizeof *y);
}

const yaml_node_t *amc_flow_yaml_use(amc_flow_yaml *y, int i)
{
	y->doc = &y->docs[i];
	return yaml_document_get_root_node(&y->docs[i]);
}

const yaml_node_t *amc_flow_yaml_node(const amc_flow_yaml *y, int id)
{
	return yaml_document_get_node(y->doc, id);
}

int amc_flow_yaml_line(const yaml_node_t *n)
{
	return n ? (int)n->start_mark.line + 1 : 0;
}

int amc_flow_yaml_err(amc_flow_yaml *y, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[AMC_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n)
		return amc_err_set(y->e, AMC_EUSAGE, "%s:%d: %s", y->where, amc_flow_yaml_line(n), msg);
	return amc_err_set(y->e, AMC_EUSAGE, "%s: %s", y->where, msg);
}

void amc_flow_yaml_note(amc_flow_yaml *y, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[AMC_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	for (char *p = msg; *p; p++)
		if (*p == '\n')
			*p = ' '; /* one entry a line */
	amc_sb sb;
	amc_sb_init(&sb);
	if (y->notes)
		amc_sb_puts(&sb, y->notes);
	amc_sb_printf(&sb, "%d: %s\n", amc_flow_yaml_line(n), msg);
	free(y->notes);
	y->notes = amc_sb_detach(&sb);
}

char *amc_flow_yaml_quote(const yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE)
		return amc_xstrdup(n && n->type == YAML_MAPPING_NODE ? "(mapping)" : "(list)");
	size_t len = n->data.scalar.length;
	char *raw = amc_xstrndup((const char *)n->data.scalar.value, len);
	raw[amc_utf8_cut(raw, QUOTE_MAX)] = '\0'; /* never inside a character */
	char *s = amc_sanitize_dup(raw);
	free(raw);
	if (len > QUOTE_MAX) {
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sb_puts(&sb, s);
		amc_sb_puts(&sb, "...");
		free(s);
		s = amc_sb_detach(&sb);
	}
	return s;
}

/* ---- what a scalar is ---- */

static int is_plain(const yaml_node_t *n)
{
	return n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

int amc_flow_yaml_is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || !is_plain(n))
		return 0;
	const char *v = (const char *)n->data.scalar.value;
	return n->data.scalar.length == 0 || !strcmp(v, "~") || !strcasecmp(v, "null");
}

static int bool_word(const char *v, int *out)
{
	static const char *const T[] = { "true", "yes", "on" }, *const F[] = { "false", "no", "off" };
	for (int i = 0; i < 3; i++) {
		if (!strcasecmp(v, T[i])) {
			*out = 1;
			return 1;
		}
		if (!strcasecmp(v, F[i])) {
			*out = 0;
			return 1;
		}
	}
	return 0;
}

static int plain_is_number(const char *v)
{
	char *end;
	if (!*v)
		return 0;
	errno = 0;
	(void)strtod(v, &end);
	return *end == '\0' && !isspace((unsigned char)v[0]);
}

const char *amc_flow_yaml_kind(const yaml_node_t *n)
{
	if (!n)
		return "nothing";
	if (n->type == YAML_MAPPING_NODE)
		return "a mapping";
	if (n->type == YAML_SEQUENCE_NODE)
		return "a list";
	if (amc_flow_yaml_is_null(n))
		return "nothing (null)";
	int b;
	if (is_plain(n) && bool_word((const char *)n->data.scalar.value, &b))
		return "a boolean";
	if (is_plain(n) && plain_is_number((const char *)n->data.scalar.value))
		return "a number";
	return "a text";
}

/* "WHAT must be ..., got 'VALUE'" with the value quoted safely; returns -1. */
static int err_quoting(amc_flow_yaml *y, const yaml_node_t *n, const char *what, const char *must)
{
	char *q = amc_flow_yaml_quote(n);
	amc_flow_yaml_err(y, n, "%s must be %s, got '%s'", what, must, q);
	free(q);
	return -1;
}

/* ---- getters ---- */

int amc_flow_yaml_str(amc_flow_yaml *y, const yaml_node_t *n, const char *what, int numbers_ok, char **out)
{
	if (!n || n->type != YAML_SCALAR_NODE || amc_flow_yaml_is_null(n))
		return amc_flow_yaml_err(y, n, "%s must be a text, got %s", what, amc_flow_yaml_kind(n));
	if (is_plain(n) && !numbers_ok) {
		const char *k = amc_flow_yaml_kind(n);
		if (strcmp(k, "a text") != 0) {
			char *q = amc_flow_yaml_quote(n);
			amc_flow_yaml_err(y, n, "%s must be a text, got %s (write it in quotes: \"%s\")", what, k, q);
			free(q);
			return -1;
		}
	}
	if (memchr(n->data.scalar.value, '\0', n->data.scalar.length))
		return amc_flow_yaml_err(y, n, "%s contains a NUL character", what);
	free(*out);
	*out = amc_xstrndup((const char *)n->data.scalar.value, n->data.scalar.length);
	return 0;
}

int amc_flow_yaml_int(amc_flow_yaml *y, const yaml_node_t *n, const char *what, long lo, long hi, int *out)
{
	if (!n || n->type != YAML_SCALAR_NODE || amc_flow_yaml_is_null(n))
		return amc_flow_yaml_err(y, n, "%s must be a whole number, got %s", what, amc_flow_yaml_kind(n));
	const char *v = (const char *)n->data.scalar.value;
	/* `timeout: 10_000`: Maestro reads flows with SnakeYAML (YAML 1.1),
	 * whose plain integers may group digits with '_' after the first
	 * digit ([-+]?[1-9][0-9_]*); libyaml leaves that to us. */
	char digits[32];
	if (is_plain(n) && strchr(v, '_') && n->data.scalar.length < sizeof digits) {
		size_t k = 0;
		int ok = 1;
		for (const char *c = v; *c; c++) {
			if (*c == '_') {
				if (k == 0 || !isdigit((unsigned char)digits[k - 1]))
					ok = 0;
				continue;
			}
			digits[k++] = *c;
		}
		digits[k] = '\0';
		if (ok && k && isdigit((unsigned char)digits[k - 1]))
			v = digits;
	}
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (!*v || isspace((unsigned char)*v) || *end || errno ||
	    (v != digits && strlen(v) != n->data.scalar.length))
		return err_quoting(y, n, what, "a whole number");
	if (x < lo || x > hi)
		return amc_flow_yaml_err(y, n, "%s must be between %ld and %ld, got %ld", what, lo, hi, x);
	*out = (int)x;
	return 0;
}

int amc_flow_yaml_bool(amc_flow_yaml *y, const yaml_node_t *n, const char *what, int *out)
{
	if (n && n->type == YAML_SCALAR_NODE && is_plain(n) &&
	    bool_word((const char *)n->data.scalar.value, out))
		return 0;
	if (n && n->type == YAML_SCALAR_NODE)
		return err_quoting(y, n, what, "true or false");
	return amc_flow_yaml_err(y, n, "%s must be true or false, got %s", what, amc_flow_yaml_kind(n));
}

static int parse_point_text(const char *s, int *x, int *y, int *percent)
{
	int pct[2] = { 0, 0 };
	long v[2];
	const char *c = s;
	for (int i = 0; i < 2; i++) {
		while (*c == ' ')
			c++;
		if (!isdigit((unsigned char)*c))
			return -1;
		char *end;
		errno = 0;
		v[i] = strtol(c, &end, 10);
		if (errno || v[i] > 100000)
			return -1;
		c = end;
		if (*c == '%') {
			pct[i] = 1;
			c++;
		}
		while (*c == ' ')
			c++;
		if (i == 0) {
			if (*c != ',')
				return -1;
			c++;
		}
	}
	if (*c || pct[0] != pct[1] || (pct[0] && (v[0] > 100 || v[1] > 100)))
		return -1;
	*x = (int)v[0];
	*y = (int)v[1];
	*percent = pct[0];
	return 0;
}

int amc_flow_yaml_point(amc_flow_yaml *y, const yaml_node_t *n, const char *what, int *x, int *y_,
			int *percent)
{
	char *s = NULL;
	if (amc_flow_yaml_str(y, n, what, 0, &s) != 0)
		return -1;
	int rc = parse_point_text(s, x, y_, percent);
	free(s);
	if (rc != 0)
		return err_quoting(y, n, what, "\"X%,Y%\" (0-100) or \"X,Y\" in pixels");
	return 0;
}

int amc_flow_yaml_items(amc_flow_yaml *y, const yaml_node_t *m, amc_flow_yaml_kv **out, size_t *n)
{
	size_t cnt = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	amc_flow_yaml_kv *items = amc_xcalloc(cnt ? cnt : 1, sizeof *items);
	for (size_t i = 0; i < cnt; i++) {
		yaml_node_pair_t *pr = m->data.mapping.pairs.start + i;
		items[i].key = amc_flow_yaml_node(y, pr->key);
		items[i].val = amc_flow_yaml_node(y, pr->value);
		const yaml_node_t *k = items[i].key;
		if (!k || k->type != YAML_SCALAR_NODE || memchr(k->data.scalar.value, '\0', k->data.scalar.length)) {
			free(items);
			return amc_flow_yaml_err(y, k ? k : m, "keys must be plain names, got %s",
						 amc_flow_yaml_kind(k));
		}
		items[i].name = (const char *)k->data.scalar.value;
		for (size_t j = 0; j < i; j++) {
			if (!strcmp(items[j].name, items[i].name)) {
				char *q = amc_flow_yaml_quote(items[i].key);
				amc_flow_yaml_err(y, items[i].key, "'%s' is given twice", q);
				free(q);
				free(items);
				return -1;
			}
		}
	}
	*out = items;
	*n = cnt;
	return 0;
}

/* ---- libyaml driving ---- */

static int yaml_problem(amc_flow_yaml *y, const yaml_parser_t *ps)
{
	if (ps->error == YAML_MEMORY_ERROR)
		return amc_err_set(y->e, AMC_EUSAGE, "%s: out of memory reading YAML", y->where);
	const char *problem = ps->problem ? ps->problem : "unknown problem";
	/* The config's keys, then `- command` lines with no `---` between
	 * (quckapp/chat_app): Jackson's YAML parser, Maestro's, refuses it too. */
	const unsigned char *in = ps->input.string.start, *end = ps->input.string.end, *at = in;
	for (size_t l = 0; at && at < end && l < ps->problem_mark.line; at++) /* marks count characters: find the line */
		l += *at == '\n';
	if (ps->context && !strcmp(problem, "did not find expected key") && ps->problem_mark.column == 0 && at &&
	    at < end && *at == '-' && strstr(ps->context, "block mapping"))
		return amc_err_set(y->e, AMC_EUSAGE, "%s:%zu:%zu: malformed YAML: %s (%s started at line %zu): the "
				   "config and the commands need a `---` line between them; Maestro's YAML parser "
				   "refuses this too", y->where, ps->problem_mark.line + 1, ps->problem_mark.column + 1,
				   problem, ps->context, ps->context_mark.line + 1);
	/* `- assertNotVisible: "X"` then `    optional: true` under it (Aether-Tech/ION):
	 * a key more indented than the mapping it would belong to */
	if (ps->context && !strcmp(problem, "did not find expected key") && strstr(ps->context, "block mapping") &&
	    ps->problem_mark.line > ps->context_mark.line && ps->problem_mark.column > ps->context_mark.column)
		return amc_err_set(y->e, AMC_EUSAGE, "%s:%zu:%zu: malformed YAML: %s (%s started at line %zu): an "
				   "option indented under a command that already has a value (`- tapOn: \"OK\"` "
				   "then `optional: true` below it) is not YAML; Maestro's YAML parser refuses "
				   "this too; write the command as a mapping: `- tapOn: {text: \"OK\", optional: true}`",
				   y->where, ps->problem_mark.line + 1, ps->problem_mark.column + 1, problem,
				   ps->context, ps->context_mark.line + 1);
	if (ps->context)
		return amc_err_set(y->e, AMC_EUSAGE, "%s:%zu:%zu: malformed YAML: %s (%s started at line %zu)",
				   y->where, ps->problem_mark.line + 1, ps->problem_mark.column + 1, problem,
				   ps->context, ps->context_mark.line + 1);
	return amc_err_set(y->e, AMC_EUSAGE, "%s:%zu:%zu: malformed YAML: %s", y->where,
			   ps->problem_mark.line + 1, ps->problem_mark.column + 1, problem);
}

static int parser_start(amc_flow_yaml *y, yaml_parser_t *ps, const char *buf, size_t len)
{
	if (!yaml_parser_initialize(ps))
		return amc_err_set(y->e, AMC_EUSAGE, "%s: cannot start the YAML parser", y->where);
	yaml_parser_set_input_string(ps, (const unsigned char *)buf, len);
	return 0;
}

/* Event pass: refuse aliases, deep nesting and extra documents before building nodes. */
static int precheck(amc_flow_yaml *y, const char *buf, size_t len)
{
	yaml_parser_t ps;
	yaml_event_t ev;
	int depth = 0, docs = 0, rc = 0, done = 0, has = 0, skip_line = 0;
	if (parser_start(y, &ps, buf, len) != 0)
		return -1;
	while (!done && rc == 0) {
		if (!yaml_parser_parse(&ps, &ev)) {
			if (docs < AMC_FLOW_YAML_MAX_DOCS) /* past them Maestro reads nothing */
				rc = yaml_problem(y, &ps);
			break;
		}
		int line = (int)ev.start_mark.line + 1;
		if (docs >= AMC_FLOW_YAML_MAX_DOCS && ev.type != YAML_STREAM_END_EVENT) {
			/* MaestroFlowParser.parseFlow reads the config, then one
			 * command list, and stops: later documents are never read
			 * (the older YamlCommandReader counted two sections and refused more). */
			if (ev.type == YAML_DOCUMENT_START_EVENT)
				skip_line = line;
			else if (!y->ignored_line && (ev.type != YAML_SCALAR_EVENT || ev.data.scalar.length > 0 ||
						      ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE) &&
				 ev.type != YAML_DOCUMENT_END_EVENT)
				y->ignored_line = skip_line; /* not just an empty `---` */
			yaml_event_delete(&ev);
			continue;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		/* An empty document (a trailing `---`) is not counted: Maestro's
		 * YamlCommandReader drops null sections before it counts two. */
		case YAML_DOCUMENT_START_EVENT:
			has = 0;
			break;
		case YAML_SCALAR_EVENT:
			has |= depth > 0 || ev.data.scalar.length > 0 || ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
			break;
		case YAML_DOCUMENT_END_EVENT:
			docs += has;
			break;
		case YAML_ALIAS_EVENT:
			rc = amc_err_set(y->e, AMC_EUSAGE, "%s:%d: anchors and aliases are not supported",
					 y->where, line);
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			has = 1;
			if (++depth > AMC_FLOW_YAML_MAX_DEPTH)
				rc = amc_err_set(y->e, AMC_EUSAGE, "%s:%d: nested more than %d levels deep",
						 y->where, line, AMC_FLOW_YAML_MAX_DEPTH);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&ps);
	return rc;
}

int amc_flow_yaml_read(amc_flow_yaml *y, const char *buf, size_t len)
{
	yaml_parser_t ps;
	if (!buf)
		buf = "";
	if (precheck(y, buf, len) != 0 || parser_start(y, &ps, buf, len) != 0)
		return -1;
	int rc = 0;
	for (;;) {
		yaml_document_t d;
		if (!yaml_parser_load(&ps, &d)) {
			rc = yaml_problem(y, &ps);
			break;
		}
		const yaml_node_t *root = yaml_document_get_root_node(&d);
		if (!root) {
			yaml_document_delete(&d);
			break;
		}
		if (root->type == YAML_SCALAR_NODE && root->data.scalar.length == 0 &&
		    root->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) { /* an empty document: not counted */
			yaml_document_delete(&d);
			continue;
		}
		y->docs[y->ndocs++] = d;
		if (y->ndocs == AMC_FLOW_YAML_MAX_DOCS)
			break; /* the rest is ignored (precheck noted where it starts), never loaded */
	}
	yaml_parser_delete(&ps);
	return rc;
}

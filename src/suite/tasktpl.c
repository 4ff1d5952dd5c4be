/* tasktpl.c - reading a task template (data/tasks/NAME.yaml) with libyaml's
 * document API into amc_tpl; the format is in docs/tasks.md. The file is
 * outside input: at most AMC_TPL_MAX_BYTES, one document, nesting and node
 * visits bounded (aliases cannot blow a set-up up), every key known. */
#include "suite/tasktpl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/fsutil.h"
#include "util/sanitize.h"

#define MAX_DEPTH 24
#define MAX_VISITS 100000

typedef struct rd {
	yaml_document_t doc;
	char *where;
	amc_err *e;
	int visits;
} rd;

static int line_of(const yaml_node_t *n)
{
	return n ? (int)n->start_mark.line + 1 : 0;
}

static int err_at(rd *r, const yaml_node_t *n, const char *fmt, ...) AMC_PRINTF(3, 4);
static int err_at(rd *r, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[AMC_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n)
		return amc_err_set(r->e, AMC_EUSAGE, "%s:%d: %s", r->where, line_of(n), msg);
	return amc_err_set(r->e, AMC_EUSAGE, "%s: %s", r->where, msg);
}

static const yaml_node_t *node(rd *r, int id)
{
	return yaml_document_get_node(&r->doc, id);
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int plain(const yaml_node_t *n)
{
	return n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* A YAML node as JSON: plain true/false/null and integers are typed, every
 * other scalar is a string; keys must be strings. */
static cJSON *to_json(rd *r, const yaml_node_t *n, int depth)
{
	if (!n || depth > MAX_DEPTH || ++r->visits > MAX_VISITS) {
		err_at(r, n, "the value is nested too deeply or too large");
		return NULL;
	}
	if (n->type == YAML_SCALAR_NODE) {
		const char *s = scalar(n);
		if (!amc_utf8_valid(s)) {
			err_at(r, n, "a value is not valid UTF-8");
			return NULL;
		}
		if (plain(n)) {
			if (!strcmp(s, "true"))
				return cJSON_CreateTrue();
			if (!strcmp(s, "false"))
				return cJSON_CreateFalse();
			if (!strcmp(s, "null") || !strcmp(s, "~"))
				return cJSON_CreateNull();
			char *end;
			errno = 0;
			long v = strtol(s, &end, 10);
			if (*s && !*end && !errno && v > -1000000000L && v < 1000000000L)
				return cJSON_CreateNumber((double)v);
		}
		return cJSON_CreateString(s);
	}
	if (n->type == YAML_SEQUENCE_NODE) {
		cJSON *a = cJSON_CreateArray();
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
			cJSON *c = to_json(r, node(r, *it), depth + 1);
			if (!c) {
				cJSON_Delete(a);
				return NULL;
			}
			cJSON_AddItemToArray(a, c);
		}
		return a;
	}
	if (n->type == YAML_MAPPING_NODE) {
		cJSON *o = cJSON_CreateObject();
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
			const char *k = scalar(node(r, p->key));
			if (!k || !amc_utf8_valid(k)) {
				err_at(r, node(r, p->key), "a key is not a string");
				cJSON_Delete(o);
				return NULL;
			}
			cJSON *c = to_json(r, node(r, p->value), depth + 1);
			if (!c) {
				cJSON_Delete(o);
				return NULL;
			}
			cJSON_AddItemToObject(o, k, c);
		}
		return o;
	}
	err_at(r, n, "empty value");
	return NULL;
}

static const yaml_node_t *get(rd *r, const yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(node(r, p->key));
		if (k && !strcmp(k, key))
			return node(r, p->value);
	}
	return NULL;
}

/* Every key of map must be one of the NULL-terminated list. */
static int known_keys(rd *r, const yaml_node_t *map, const char *what, const char *const *keys)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(node(r, p->key));
		int ok = 0;
		for (int i = 0; k && keys[i]; i++)
			ok |= !strcmp(k, keys[i]);
		if (!ok) {
			char *bad = amc_sanitize_dup(k ? k : "(not a string)");
			char list[300] = "";
			for (int i = 0; keys[i]; i++) {
				size_t l = strlen(list);
				snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", keys[i]);
			}
			err_at(r, node(r, p->key), "unknown key '%s' in %s (known: %s)", bad, what, list);
			free(bad);
			return -1;
		}
	}
	return 0;
}

static int str_of(rd *r, const yaml_node_t *n, const char *what, size_t max, char **out)
{
	const char *s = scalar(n);
	if (!s || strlen(s) > max || !amc_utf8_valid(s))
		return err_at(r, n, "%s must be a string of at most %zu bytes", what, max);
	*out = amc_xstrdup(s);
	return 0;
}

static int int_of(rd *r, const yaml_node_t *n, const char *what, long lo, long hi, int *out)
{
	const char *s = scalar(n);
	char *end;
	errno = 0;
	long v = s ? strtol(s, &end, 10) : 0;
	if (!s || !*s || *end || errno || v < lo || v > hi)
		return err_at(r, n, "%s must be a whole number from %ld to %ld", what, lo, hi);
	*out = (int)v;
	return 0;
}

static int hhmm(const char *s, int *min)
{
	if (!s || strlen(s) != 5 || s[2] != ':')
		return -1;
	int h = (s[0] - '0') * 10 + s[1] - '0', m = (s[3] - '0') * 10 + s[4] - '0';
	if (s[0] < '0' || s[0] > '2' || s[1] < '0' || s[1] > '9' || s[3] < '0' || s[3] > '5' || s[4] < '0' ||
	    s[4] > '9' || h > 23)
		return -1;
	*min = h * 60 + m;
	return 0;
}

static int find_param(const amc_tpl *t, const char *name)
{
	for (int i = 0; i < t->nparams; i++)
		if (!strcmp(t->params[i].name, name))
			return i;
	return -1;
}

static const struct {
	const char *key;
	amc_tpl_gen gen;
} GENS[] = {
	{"choice", AMC_GEN_CHOICE}, {"int", AMC_GEN_INT}, {"time", AMC_GEN_TIME}, {"name", AMC_GEN_NAME},
	{"word", AMC_GEN_WORD}, {"words", AMC_GEN_WORDS}, {"phone", AMC_GEN_PHONE}, {"digits", AMC_GEN_DIGITS},
};

static int read_param(rd *r, amc_tpl *t, const char *name, const yaml_node_t *n)
{
	amc_tpl_param *p = &t->params[t->nparams];
	memset(p, 0, sizeof *p);
	size_t nl = strlen(name);
	if (!nl || nl >= AMC_TPL_NAME_MAX || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != nl)
		return err_at(r, n, "parameter names are 1-63 characters of a-z, 0-9 and _");
	if (find_param(t, name) >= 0)
		return err_at(r, n, "parameter '%s' is given twice", name);
	memcpy(p->name, name, nl + 1);
	if (!n || n->type != YAML_MAPPING_NODE)
		return err_at(r, n, "parameter '%s' must be a mapping, e.g. {choice: [a, b]}", name);
	static const char *const keys[] = {"choice", "int", "time", "name", "word", "words", "phone", "digits",
					   "differs_from", "setup_only", NULL};
	if (known_keys(r, n, "a parameter", keys) != 0)
		return -1;
	int kinds = 0;
	for (size_t g = 0; g < sizeof GENS / sizeof GENS[0]; g++) {
		const yaml_node_t *v = get(r, n, GENS[g].key);
		if (!v)
			continue;
		kinds++;
		p->gen = GENS[g].gen;
		switch (p->gen) {
		case AMC_GEN_CHOICE:
			if (v->type != YAML_SEQUENCE_NODE)
				return err_at(r, v, "choice: must be a list of values");
			for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
				if (p->nchoices == AMC_TPL_MAX_CHOICES)
					return err_at(r, v, "choice: at most %d values", AMC_TPL_MAX_CHOICES);
				p->choices = amc_xrealloc(p->choices, (size_t)(p->nchoices + 1) * sizeof *p->choices);
				if (str_of(r, node(r, *it), "a choice", AMC_TPL_VALUE_MAX - 1, &p->choices[p->nchoices]) != 0)
					return -1;
				p->nchoices++;
			}
			if (!p->nchoices)
				return err_at(r, v, "choice: needs at least one value");
			break;
		case AMC_GEN_INT:
		case AMC_GEN_TIME: {
			if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top - v->data.sequence.items.start < 2 ||
			    v->data.sequence.items.top - v->data.sequence.items.start > 3)
				return err_at(r, v, "%s: must be [FROM, TO] (time: [\"HH:MM\", \"HH:MM\", STEP_MINUTES])",
					      GENS[g].key);
			yaml_node_item_t *it = v->data.sequence.items.start;
			p->step = 1;
			if (p->gen == AMC_GEN_INT) {
				if (int_of(r, node(r, it[0]), "int: FROM", -1000000, 1000000, &p->lo) != 0 ||
				    int_of(r, node(r, it[1]), "int: TO", p->lo, 1000000, &p->hi) != 0)
					return -1;
			} else {
				if (hhmm(scalar(node(r, it[0])), &p->lo) != 0 || hhmm(scalar(node(r, it[1])), &p->hi) != 0 ||
				    p->hi < p->lo)
					return err_at(r, v, "time: FROM and TO are \"HH:MM\" (quoted), FROM first");
				if (v->data.sequence.items.top - it == 3 &&
				    int_of(r, node(r, it[2]), "time: STEP_MINUTES", 1, 720, &p->step) != 0)
					return -1;
			}
			break;
		}
		case AMC_GEN_WORDS:
		case AMC_GEN_DIGITS:
			if (int_of(r, v, GENS[g].key, 1, p->gen == AMC_GEN_WORDS ? 12 : 18, &p->lo) != 0)
				return -1;
			break;
		default:
			if (!scalar(v) || plain(v) == 0 || (*scalar(v) && strcmp(scalar(v), "true")))
				return err_at(r, v, "%s: takes no options (write %s: true)", GENS[g].key, GENS[g].key);
			break;
		}
	}
	if (kinds != 1)
		return err_at(r, n, "parameter '%s' needs exactly one generator (choice, int, time, name, word, words, phone, digits)",
			      name);
	const yaml_node_t *d = get(r, n, "differs_from");
	if (d) {
		if (d->type != YAML_SEQUENCE_NODE)
			return err_at(r, d, "differs_from: must be a list of earlier parameters");
		for (yaml_node_item_t *it = d->data.sequence.items.start; it < d->data.sequence.items.top; it++) {
			const char *o = scalar(node(r, *it));
			int k = o ? find_param(t, o) : -1;
			if (k < 0)
				return err_at(r, d, "differs_from: '%s' is not an earlier parameter", o ? o : "?");
			p->differs[p->ndiffers++] = k;
		}
	}
	const yaml_node_t *so = get(r, n, "setup_only");
	if (so) {
		const char *v = scalar(so);
		if (!v || (strcmp(v, "true") && strcmp(v, "false")))
			return err_at(r, so, "setup_only: true or false");
		p->setup_only = !strcmp(v, "true");
	}
	t->nparams++;
	return 0;
}

static const struct {
	const char *key;
	amc_tpl_op op;
} OPS[] = {
	{"equals", AMC_CHECK_EQUALS}, {"has", AMC_CHECK_HAS}, {"lacks", AMC_CHECK_LACKS},
	{"count", AMC_CHECK_COUNT}, {"contains", AMC_CHECK_CONTAINS},
};

static int read_check(rd *r, amc_tpl *t, const yaml_node_t *n)
{
	if (t->nchecks == AMC_TPL_MAX_CHECKS)
		return err_at(r, n, "at most %d checks", AMC_TPL_MAX_CHECKS);
	if (!n || n->type != YAML_MAPPING_NODE)
		return err_at(r, n, "a check is a mapping: {path: P, equals: V} or {answer: V}");
	static const char *const keys[] = {"path", "equals", "has", "lacks", "count", "contains", "answer", NULL};
	if (known_keys(r, n, "a check", keys) != 0)
		return -1;
	amc_tpl_check *c = &t->checks[t->nchecks];
	memset(c, 0, sizeof *c);
	c->line = line_of(n);
	const yaml_node_t *a = get(r, n, "answer");
	const yaml_node_t *p = get(r, n, "path");
	if (a) {
		if (p || n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
			return err_at(r, n, "an answer check has only `answer: EXPECTED`");
		c->op = AMC_CHECK_ANSWER;
		if (!scalar(a))
			return err_at(r, a, "answer: must be a string");
		c->expect = cJSON_CreateString(scalar(a));
		t->nchecks++;
		return 0;
	}
	if (!p || str_of(r, p, "path", 512, &c->path) != 0)
		return p ? -1 : err_at(r, n, "a check needs `path:` (a key of `amc sim state`, e.g. toggles.wifi)");
	int ops = 0;
	for (size_t k = 0; k < sizeof OPS / sizeof OPS[0]; k++) {
		const yaml_node_t *v = get(r, n, OPS[k].key);
		if (!v)
			continue;
		ops++;
		c->op = OPS[k].op;
		cJSON_Delete(c->expect); /* two operations: refused below, the first freed here */
		c->expect = to_json(r, v, 0);
		if (!c->expect) {
			free(c->path);
			return -1;
		}
	}
	int bad = ops != 1;
	if (!bad && (c->op == AMC_CHECK_HAS || c->op == AMC_CHECK_LACKS) && !cJSON_IsObject(c->expect))
		bad = 1;
	if (!bad && c->op == AMC_CHECK_COUNT && !cJSON_IsNumber(c->expect))
		bad = 1;
	if (!bad && c->op == AMC_CHECK_CONTAINS && !cJSON_IsString(c->expect))
		bad = 1;
	if (!bad && c->op == AMC_CHECK_EQUALS && (cJSON_IsObject(c->expect) || cJSON_IsArray(c->expect)))
		bad = 1;
	if (bad) {
		free(c->path);
		cJSON_Delete(c->expect);
		return err_at(r, n, "a check needs one of equals: SCALAR, has: {FIELDS}, lacks: {FIELDS}, count: N, "
			      "contains: TEXT");
	}
	t->nchecks++;
	return 0;
}

static int read_reference(rd *r, amc_tpl *t, const yaml_node_t *n)
{
	if (!n || n->type != YAML_MAPPING_NODE)
		return err_at(r, n, "reference: must be a mapping with flow: (and answer: for information tasks)");
	static const char *const keys[] = {"flow", "answer", NULL};
	if (known_keys(r, n, "reference", keys) != 0)
		return -1;
	t->flow_line = line_of(n);
	const yaml_node_t *f = get(r, n, "flow");
	if (!f || str_of(r, f, "reference flow", 64 * 1024, &t->flow) != 0)
		return f ? -1 : err_at(r, n, "reference: needs flow: | (a Maestro flow, {{holes}} allowed)");
	const yaml_node_t *a = get(r, n, "answer");
	if (a) {
		if (a->type != YAML_MAPPING_NODE)
			return err_at(r, a, "reference answer: is a selector {id: ID} or {text: TEXT}, with index: N and ocr: true");
		static const char *const akeys[] = {"id", "text", "index", "ocr", NULL};
		if (known_keys(r, a, "reference answer", akeys) != 0)
			return -1;
		const yaml_node_t *v;
		if ((v = get(r, a, "id")) && str_of(r, v, "answer id", 256, &t->answer_id) != 0)
			return -1;
		if ((v = get(r, a, "text")) && str_of(r, v, "answer text", 256, &t->answer_text) != 0)
			return -1;
		if ((v = get(r, a, "index")) && int_of(r, v, "answer index", 0, 1000, &t->answer_index) != 0)
			return -1;
		if ((v = get(r, a, "ocr")))
			t->ocr = scalar(v) && !strcmp(scalar(v), "true");
		if (!t->answer_id && !t->answer_text)
			return err_at(r, a, "reference answer: needs id: or text:");
	}
	return 0;
}

const char *amc_tpl_confirm_name(amc_tpl_confirm c)
{
	return c == AMC_CONFIRM_APPROVE ? "approve" : c == AMC_CONFIRM_DENY ? "deny" : "none";
}

static int read_top(rd *r, amc_tpl *t, const yaml_node_t *root)
{
	if (!root || root->type != YAML_MAPPING_NODE)
		return err_at(r, root, "a template is a mapping (name, goal, params, setup, check, reference, ...)");
	static const char *const keys[] = {"summary", "tags", "goal", "params", "setup", "check", "max_steps",
					   "confirm", "reference", NULL};
	if (known_keys(r, root, "a template", keys) != 0)
		return -1;
	const yaml_node_t *v;
	if ((v = get(r, root, "summary")) && str_of(r, v, "summary", 200, &t->summary) != 0)
		return -1;
	if (!(v = get(r, root, "goal")))
		return err_at(r, root, "the template has no goal:");
	if (str_of(r, v, "goal", 2000, &t->goal) != 0)
		return -1;
	if ((v = get(r, root, "tags"))) {
		if (v->type != YAML_SEQUENCE_NODE)
			return err_at(r, v, "tags: must be a list");
		for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
			if (t->ntags == 16)
				return err_at(r, v, "tags: at most 16");
			t->tags = amc_xrealloc(t->tags, (size_t)(t->ntags + 1) * sizeof *t->tags);
			if (str_of(r, node(r, *it), "a tag", 32, &t->tags[t->ntags]) != 0)
				return -1;
			t->ntags++;
		}
	}
	if ((v = get(r, root, "params"))) {
		if (v->type != YAML_MAPPING_NODE)
			return err_at(r, v, "params: must be a mapping of NAME: {GENERATOR}");
		for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
			if (t->nparams == AMC_TPL_MAX_PARAMS)
				return err_at(r, v, "at most %d parameters", AMC_TPL_MAX_PARAMS);
			const char *k = scalar(node(r, p->key));
			if (read_param(r, t, k ? k : "", node(r, p->value)) != 0)
				return -1;
		}
	}
	if ((v = get(r, root, "setup"))) {
		if (v->type != YAML_MAPPING_NODE)
			return err_at(r, v, "setup: must be a mapping of `amc sim state` keys");
		if (!(t->setup = to_json(r, v, 0)))
			return -1;
	} else {
		t->setup = cJSON_CreateObject();
	}
	if (!(v = get(r, root, "check")) || v->type != YAML_SEQUENCE_NODE ||
	    v->data.sequence.items.top == v->data.sequence.items.start)
		return err_at(r, v ? v : root, "check: must be a list of at least one check");
	for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++)
		if (read_check(r, t, node(r, *it)) != 0)
			return -1;
	t->max_steps = 20;
	if ((v = get(r, root, "max_steps")) && int_of(r, v, "max_steps", 1, 500, &t->max_steps) != 0)
		return -1;
	if ((v = get(r, root, "confirm"))) {
		const char *c = scalar(v);
		if (c && !strcmp(c, "approve"))
			t->confirm = AMC_CONFIRM_APPROVE;
		else if (c && !strcmp(c, "deny"))
			t->confirm = AMC_CONFIRM_DENY;
		else if (!c || strcmp(c, "none"))
			return err_at(r, v, "confirm: none, approve or deny");
	}
	if (!(v = get(r, root, "reference")))
		return err_at(r, root, "the template has no reference: (a flow that solves it)");
	if (read_reference(r, t, v) != 0)
		return -1;
	/* Holes must name parameters: fill once with placeholders to find typos now. */
	amc_tpl_values probe;
	amc_tpl_draw(t, 1, &probe);
	char *tmp;
	if (amc_tpl_fill(t->goal, &probe, &tmp, r->e) != 0)
		return amc_err_prefix(r->e, "%s: goal", r->where);
	free(tmp);
	if (amc_tpl_fill(t->flow, &probe, &tmp, r->e) != 0)
		return amc_err_prefix(r->e, "%s:%d: reference flow", r->where, t->flow_line);
	free(tmp);
	cJSON *sj = amc_tpl_fill_json(t->setup, &probe, r->e);
	if (!sj)
		return amc_err_prefix(r->e, "%s: setup", r->where);
	cJSON_Delete(sj);
	for (int i = 0; i < t->nchecks; i++) {
		if (t->checks[i].path && amc_tpl_fill(t->checks[i].path, &probe, &tmp, r->e) != 0)
			return amc_err_prefix(r->e, "%s:%d: check path", r->where, t->checks[i].line);
		if (t->checks[i].path)
			free(tmp);
		cJSON *x = amc_tpl_fill_json(t->checks[i].expect, &probe, r->e);
		if (!x)
			return amc_err_prefix(r->e, "%s:%d: check", r->where, t->checks[i].line);
		cJSON_Delete(x);
	}
	return 0;
}

static char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".yaml"))
		n -= 5;
	else if (n > 4 && !strcmp(b + n - 4, ".yml"))
		n -= 4;
	return amc_xstrndup(b, n);
}

int amc_tpl_parse(const char *buf, size_t len, const char *path, amc_tpl *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	rd r;
	memset(&r, 0, sizeof r);
	r.where = amc_sanitize_dup(path ? path : "(template)");
	r.e = e;
	if (len > AMC_TPL_MAX_BYTES) {
		amc_err_set(e, AMC_EUSAGE, "%s: larger than %u bytes", r.where, AMC_TPL_MAX_BYTES);
		free(r.where);
		return -1;
	}
	yaml_parser_t ps;
	if (!yaml_parser_initialize(&ps)) {
		free(r.where);
		return amc_err_set(e, AMC_EENV, "out of memory starting the YAML parser");
	}
	yaml_parser_set_input_string(&ps, (const unsigned char *)buf, len);
	int rc = 0;
	if (!yaml_parser_load(&ps, &r.doc)) {
		rc = amc_err_set(e, AMC_EUSAGE, "%s:%d: YAML: %s", r.where, (int)ps.problem_mark.line + 1,
				 ps.problem ? ps.problem : "cannot be read");
		yaml_parser_delete(&ps);
		free(r.where);
		return rc;
	}
	yaml_parser_delete(&ps);
	out->path = amc_xstrdup(path ? path : "(template)");
	out->name = base_name(out->path);
	rc = read_top(&r, out, yaml_document_get_root_node(&r.doc));
	yaml_document_delete(&r.doc);
	free(r.where);
	if (rc != 0)
		amc_tpl_free(out);
	return rc;
}

int amc_tpl_load(const char *path, amc_tpl *out, amc_err *e)
{
	char *buf;
	size_t len;
	memset(out, 0, sizeof *out);
	if (amc_read_file(path, AMC_TPL_MAX_BYTES, &buf, &len, e) != 0)
		return -1;
	int rc = amc_tpl_parse(buf, len, path, out, e);
	free(buf);
	return rc;
}

void amc_tpl_free(amc_tpl *t)
{
	if (!t)
		return;
	free(t->path);
	free(t->name);
	free(t->summary);
	for (int i = 0; i < t->ntags; i++)
		free(t->tags[i]);
	free(t->tags);
	free(t->goal);
	/* <= nparams: a parameter refused half way keeps what it had read */
	for (int i = 0; i <= t->nparams && i < AMC_TPL_MAX_PARAMS; i++) {
		for (int k = 0; k < t->params[i].nchoices; k++)
			free(t->params[i].choices[k]);
		free(t->params[i].choices);
	}
	cJSON_Delete(t->setup);
	for (int i = 0; i < t->nchecks; i++) {
		free(t->checks[i].path);
		cJSON_Delete(t->checks[i].expect);
	}
	free(t->flow);
	free(t->answer_id);
	free(t->answer_text);
	memset(t, 0, sizeof *t);
}

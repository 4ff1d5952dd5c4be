/* taskgen.c - a template's parameters drawn from a seed, and {{holes}} filled
 * with them. The generator is splitmix64 over (seed, template name,
 * parameter name), so adding a parameter does not change the others' values
 * and a run can be repeated from its seed alone. */
#include "suite/tasktpl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

static const char *FIRST[] = {"Ada", "Alan", "Barbara", "Claude", "Dennis", "Edsger", "Frances", "Grace", "Hedy",
			      "Ivan", "John", "Ken", "Linus", "Margaret", "Niklaus", "Radia", "Robin", "Sophie",
			      "Tim", "Yukihiro", "Katherine", "Donald", "Leslie", "Shafi"};
static const char *LAST[] = {"Lovelace", "Kay", "Liskov", "Shannon", "Ritchie", "Dijkstra", "Allen", "Hopper",
			     "Lamarr", "Sutherland", "Backus", "Thompson", "Torvalds", "Hamilton", "Wirth",
			     "Perlman", "Milner", "Wilson", "Berners", "Matsumoto", "Johnson", "Knuth", "Lamport",
			     "Goldwasser"};
static const char *WORDS[] = {"apple", "river", "garden", "window", "silver", "rocket", "pencil", "orange",
			      "mountain", "coffee", "yellow", "castle", "planet", "violin", "harbor", "forest",
			      "candle", "marble", "meadow", "thunder", "bridge", "lantern", "pepper", "summit"};
#define NFIRST (sizeof FIRST / sizeof FIRST[0])
#define NLAST (sizeof LAST / sizeof LAST[0])
#define NWORDS (sizeof WORDS / sizeof WORDS[0])

static uint64_t mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint64_t pick(uint64_t *st, uint64_t n)
{
	*st = mix(*st);
	return n ? *st % n : 0;
}

static void gen_one(const amc_tpl_param *p, uint64_t *st, char *out, size_t n)
{
	switch (p->gen) {
	case AMC_GEN_CHOICE:
		snprintf(out, n, "%s", p->choices[pick(st, (uint64_t)p->nchoices)]);
		break;
	case AMC_GEN_INT:
		snprintf(out, n, "%d", p->lo + (int)pick(st, (uint64_t)(p->hi - p->lo + 1)));
		break;
	case AMC_GEN_TIME: {
		int slots = (p->hi - p->lo) / p->step + 1;
		int m = p->lo + (int)pick(st, (uint64_t)slots) * p->step;
		snprintf(out, n, "%02d:%02d", m / 60, m % 60);
		break;
	}
	case AMC_GEN_NAME: {
		const char *f = FIRST[pick(st, NFIRST)];
		snprintf(out, n, "%s %s", f, LAST[pick(st, NLAST)]);
		break;
	}
	case AMC_GEN_WORD: {
		const char *w = WORDS[pick(st, NWORDS)];
		snprintf(out, n, "%c%s", w[0] - 32, w + 1);
		break;
	}
	case AMC_GEN_WORDS: {
		amc_sb sb;
		amc_sb_init(&sb);
		for (int i = 0; i < p->lo; i++)
			amc_sb_printf(&sb, "%s%s", i ? " " : "", WORDS[pick(st, NWORDS)]);
		snprintf(out, n, "%s", amc_sb_str(&sb));
		amc_sb_free(&sb);
		break;
	}
	case AMC_GEN_PHONE:
		snprintf(out, n, "+1 555 01%02d", (int)pick(st, 100));
		break;
	case AMC_GEN_DIGITS: {
		size_t k = 0;
		for (; k < (size_t)p->lo && k + 1 < n; k++)
			out[k] = (char)('0' + pick(st, 10));
		out[k] = '\0';
		break;
	}
	}
}

static int clashes(const amc_tpl_param *p, const amc_tpl_values *v, const char *val)
{
	for (int k = 0; k < p->ndiffers; k++)
		if (!strcmp(v->values[p->differs[k]], val))
			return 1;
	return 0;
}

void amc_tpl_draw(const amc_tpl *t, long long seed, amc_tpl_values *out)
{
	memset(out, 0, sizeof *out);
	uint64_t base = hash_str(mix((uint64_t)seed), t->name ? t->name : "");
	for (int i = 0; i < t->nparams; i++) {
		const amc_tpl_param *p = &t->params[i];
		uint64_t st = hash_str(base, p->name);
		snprintf(out->names[i], sizeof out->names[i], "%s", p->name);
		/* differs_from: draw again (a bounded number of times) until unlike the others. */
		for (int tries = 0; tries < 64; tries++) {
			gen_one(p, &st, out->values[i], sizeof out->values[i]);
			if (!clashes(p, out, out->values[i]))
				break;
		}
		out->n = i + 1;
	}
}

int amc_tpl_redraw(const amc_tpl *t, int i, long long salt, amc_tpl_values *v)
{
	if (i < 0 || i >= t->nparams)
		return -1;
	const amc_tpl_param *p = &t->params[i];
	uint64_t st = hash_str(mix((uint64_t)salt ^ 0xA5A5u), p->name);
	char was[AMC_TPL_VALUE_MAX], val[AMC_TPL_VALUE_MAX];
	snprintf(was, sizeof was, "%s", v->values[i]);
	for (int tries = 0; tries < 256; tries++) {
		gen_one(p, &st, val, sizeof val);
		char *a = amc_tpl_answer_norm(val), *b = amc_tpl_answer_norm(was);
		int same = !strcmp(a, b);
		free(a);
		free(b);
		if (!same) {
			snprintf(v->values[i], sizeof v->values[i], "%s", val);
			return 0;
		}
	}
	return -1;
}

static char *safe_n(const char *s, size_t n)
{
	char *c = amc_xstrndup(s, n > 64 ? 64 : n);
	char *r = amc_sanitize_dup(c);
	free(c);
	return r;
}

static const char *lookup(const amc_tpl_values *v, const char *name, size_t n)
{
	for (int i = 0; i < v->n; i++)
		if (strlen(v->names[i]) == n && !strncmp(v->names[i], name, n))
			return v->values[i];
	return NULL;
}

static int apply(amc_sb *sb, const char *val, const char *filter, size_t fl)
{
	if (!fl) {
		amc_sb_puts(sb, val);
	} else if (fl == 2 && !strncmp(filter, "re", 2)) {
		for (const char *p = val; *p; p++) {
			if (strchr("\\^$.|?*+()[]{}-/", *p))
				amc_sb_putc(sb, '\\');
			amc_sb_putc(sb, *p);
		}
	} else if (fl == 4 && !strncmp(filter, "yaml", 4)) {
		for (const char *p = val; *p; p++) {
			if (*p == '"' || *p == '\\')
				amc_sb_putc(sb, '\\');
			amc_sb_putc(sb, *p);
		}
	} else if (fl == 5 && (!strncmp(filter, "lower", 5) || !strncmp(filter, "upper", 5))) {
		int up = filter[0] == 'u';
		for (const char *p = val; *p; p++) {
			char c = *p;
			if (up && c >= 'a' && c <= 'z')
				c = (char)(c - 32);
			else if (!up && c >= 'A' && c <= 'Z')
				c = (char)(c + 32);
			amc_sb_putc(sb, c);
		}
	} else if (fl == 5 && !strncmp(filter, "first", 5)) {
		amc_sb_append(sb, val, strcspn(val, " "));
	} else if (fl == 3 && !strncmp(filter, "key", 3)) {
		/* A state key from a label: "Auto-rotate screen" -> auto_rotate_screen. */
		int gap = 0;
		for (const char *p = val; *p; p++) {
			char c = *p;
			int alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
			if (!alnum) {
				gap = 1;
				continue;
			}
			if (gap && sb->len)
				amc_sb_putc(sb, '_');
			gap = 0;
			amc_sb_putc(sb, (char)(c >= 'A' && c <= 'Z' ? c + 32 : c));
		}
	} else if (fl == 3 && !strncmp(filter, "int", 3)) {
		/* The value itself; a set-up string that is only this hole becomes a number. */
		amc_sb_puts(sb, val);
	} else if (fl == 3 && !strncmp(filter, "not", 3)) {
		/* The opposite of a switch word: on/off, true/false. */
		amc_sb_puts(sb, !strcmp(val, "on") ? "off" : !strcmp(val, "off") ? "on" : !strcmp(val, "true") ? "false" : "true");
	} else {
		return -1;
	}
	return 0;
}

int amc_tpl_fill(const char *s, const amc_tpl_values *v, char **out, amc_err *e)
{
	*out = NULL;
	amc_sb sb;
	amc_sb_init(&sb);
	const char *p = s;
	while (*p) {
		const char *o = strstr(p, "{{");
		if (!o) {
			amc_sb_puts(&sb, p);
			break;
		}
		amc_sb_append(&sb, p, (size_t)(o - p));
		const char *c = strstr(o + 2, "}}");
		if (!c) {
			amc_sb_free(&sb);
			return amc_err_set(e, AMC_EUSAGE, "'{{' without '}}'");
		}
		const char *name = o + 2;
		while (*name == ' ')
			name++;
		const char *bar = memchr(name, '|', (size_t)(c - name));
		const char *nend = bar ? bar : c;
		while (nend > name && nend[-1] == ' ')
			nend--;
		const char *f = bar ? bar + 1 : c;
		const char *fend = c;
		while (f < fend && *f == ' ')
			f++;
		while (fend > f && fend[-1] == ' ')
			fend--;
		const char *val = lookup(v, name, (size_t)(nend - name));
		if (!val) {
			char *bad = safe_n(name, (size_t)(nend - name));
			amc_err_set(e, AMC_EUSAGE, "{{%s}} is not a parameter of the template", bad);
			free(bad);
			amc_sb_free(&sb);
			return -1;
		}
		if (apply(&sb, val, f, (size_t)(fend - f)) != 0) {
			char *bad = safe_n(f, (size_t)(fend - f));
			amc_err_set(e, AMC_EUSAGE, "unknown filter '%s' (re, yaml, lower, upper, first, key, not, int)", bad);
			free(bad);
			amc_sb_free(&sb);
			return -1;
		}
		p = c + 2;
	}
	*out = amc_sb_detach(&sb);
	return 0;
}

int amc_tpl_mentions(const char *s, const char *name)
{
	size_t n = strlen(name);
	for (const char *o = s ? strstr(s, "{{") : NULL; o; o = strstr(o + 2, "{{")) {
		const char *p = o + 2;
		while (*p == ' ')
			p++;
		if (!strncmp(p, name, n) && (p[n] == '}' || p[n] == '|' || p[n] == ' '))
			return 1;
	}
	return 0;
}

/* A string that is one hole and nothing else takes the type of what it
 * becomes when it is a switch word: "{{state}}" with state "on" or "true" is
 * JSON true, "off" or "false" false (so a set-up can put a toggle in the
 * state a goal's parameter names, or its opposite with |not). */
static cJSON *typed(const char *src, const char *s)
{
	size_t n = strlen(src);
	int whole = n > 4 && !strncmp(src, "{{", 2) && !strcmp(src + n - 2, "}}") && !strstr(src + 2, "{{");
	if (whole && (!strcmp(s, "on") || !strcmp(s, "true")))
		return cJSON_CreateTrue();
	if (whole && (!strcmp(s, "off") || !strcmp(s, "false")))
		return cJSON_CreateFalse();
	if (whole && n > 8 && !strcmp(src + n - 6, "|int}}")) {
		char *end;
		long v = strtol(s, &end, 10);
		if (*s && !*end && v > -1000000000L && v < 1000000000L)
			return cJSON_CreateNumber((double)v);
	}
	return cJSON_CreateString(s);
}

cJSON *amc_tpl_fill_json(const cJSON *j, const amc_tpl_values *v, amc_err *e)
{
	if (cJSON_IsString(j)) {
		char *s;
		if (amc_tpl_fill(j->valuestring, v, &s, e) != 0)
			return NULL;
		cJSON *r = typed(j->valuestring, s);
		free(s);
		return r;
	}
	if (cJSON_IsArray(j) || cJSON_IsObject(j)) {
		cJSON *r = cJSON_IsArray(j) ? cJSON_CreateArray() : cJSON_CreateObject();
		for (const cJSON *c = j->child; c; c = c->next) {
			cJSON *x = amc_tpl_fill_json(c, v, e);
			if (!x) {
				cJSON_Delete(r);
				return NULL;
			}
			if (cJSON_IsArray(j)) {
				cJSON_AddItemToArray(r, x);
				continue;
			}
			/* Keys have holes too: toggles: {"{{label|key}}": true}. */
			char *k;
			if (amc_tpl_fill(c->string, v, &k, e) != 0) {
				cJSON_Delete(x);
				cJSON_Delete(r);
				return NULL;
			}
			cJSON_AddItemToObject(r, k, x);
			free(k);
		}
		return r;
	}
	return cJSON_Duplicate(j, 1);
}

cJSON *amc_tpl_values_json(const amc_tpl_values *v)
{
	cJSON *o = cJSON_CreateObject();
	for (int i = 0; i < v->n; i++)
		cJSON_AddStringToObject(o, v->names[i], v->values[i]);
	return o;
}

/* Here, beside the filling, because both generation (distinct parameters)
 * and the checks compare answers in this form. */
char *amc_tpl_answer_norm(const char *s)
{
	amc_sb sb;
	amc_sb_init(&sb);
	int space = 0;
	for (const char *p = s ? s : ""; *p; p++) {
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = 1;
			continue;
		}
		if (space && sb.len)
			amc_sb_putc(&sb, ' ');
		space = 0;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		amc_sb_putc(&sb, c);
	}
	if (sb.len && sb.buf[sb.len - 1] == '.') {
		sb.len--;
		sb.buf[sb.len] = '\0';
	}
	/* Quotes around a whole answer are not part of it. */
	if (sb.len >= 2 && (sb.buf[0] == '"' || sb.buf[0] == '\'') && sb.buf[sb.len - 1] == sb.buf[0]) {
		memmove(sb.buf, sb.buf + 1, sb.len - 2);
		sb.len -= 2;
		sb.buf[sb.len] = '\0';
	}
	return amc_sb_detach(&sb);
}

/* taskcheck.c - judging a run: a template's checks read the sim's state
 * document (`amc sim state`) and the planner's answer, never what the planner
 * says it did. A failing check says what it found against what it expected,
 * in at most one line. */
#include "suite/tasktpl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/strbuf.h"

#define SHOW_MAX 160   /* bytes of a found value quoted in a reason */
#define SHOW_ITEMS 4   /* list elements listed when none matched */
#define SHORT_ANSWER_MAX 120 /* bytes of an answer that may hold the expected one among other words */

/* A JSON value as a short one-line string for a reason. */
static void show(amc_sb *sb, const cJSON *j)
{
	if (!j) {
		amc_sb_puts(sb, "nothing");
		return;
	}
	char *t = cJSON_PrintUnformatted(j);
	if (!t) {
		amc_sb_puts(sb, "?");
		return;
	}
	size_t n = strlen(t);
	if (n > SHOW_MAX) {
		n = SHOW_MAX;
		while (n && ((unsigned char)t[n] & 0xC0) == 0x80)
			n--;
		amc_sb_append(sb, t, n);
		amc_sb_puts(sb, "...");
	} else {
		amc_sb_puts(sb, t);
	}
	free(t);
}

/* Scalars equal: same type and value, or a string against the text of a number or bool. */
static int same(const cJSON *a, const cJSON *x)
{
	if (!a || !x)
		return 0;
	if (cJSON_IsBool(a) && cJSON_IsBool(x))
		return cJSON_IsTrue(a) == cJSON_IsTrue(x);
	if (cJSON_IsNumber(a) && cJSON_IsNumber(x))
		return a->valuedouble == x->valuedouble;
	if (cJSON_IsString(a) && cJSON_IsString(x))
		return !strcmp(a->valuestring, x->valuestring);
	if (cJSON_IsNull(a) && cJSON_IsNull(x))
		return 1;
	char buf[64];
	if (cJSON_IsString(x) && cJSON_IsNumber(a)) {
		snprintf(buf, sizeof buf, "%g", a->valuedouble);
		return !strcmp(buf, x->valuestring);
	}
	if (cJSON_IsString(x) && cJSON_IsBool(a))
		return !strcmp(cJSON_IsTrue(a) ? "true" : "false", x->valuestring);
	return 0;
}

static int matches(const cJSON *el, const cJSON *want)
{
	if (!cJSON_IsObject(el))
		return 0;
	for (const cJSON *w = want->child; w; w = w->next)
		if (!same(cJSON_GetObjectItemCaseSensitive(el, w->string), w))
			return 0;
	return 1;
}

/* Follow a path: KEY, N (list index), KEY[FIELD=VALUE] (the first element of
 * list KEY whose FIELD is VALUE), separated by dots. NULL when it leads nowhere;
 * *where gets the part that was not found. */
static const cJSON *follow(const cJSON *root, const char *path, amc_sb *where)
{
	const cJSON *cur = root;
	const char *p = path;
	while (*p && cur) {
		size_t n = 0;
		while (p[n] && p[n] != '.' && p[n] != '[')
			n++;
		if (n) {
			char key[128];
			snprintf(key, sizeof key, "%.*s", (int)(n < 127 ? n : 127), p);
			char *end;
			long idx = strtol(key, &end, 10);
			if (cJSON_IsArray(cur) && !*end && idx >= 0)
				cur = cJSON_GetArrayItem(cur, (int)idx);
			else
				cur = cJSON_IsObject(cur) ? cJSON_GetObjectItemCaseSensitive(cur, key) : NULL;
			if (!cur) {
				amc_sb_append(where, p, n);
				return NULL;
			}
		}
		p += n;
		if (*p == '[') {
			const char *close = strchr(p, ']');
			const char *eq = close ? memchr(p, '=', (size_t)(close - p)) : NULL;
			if (!close || !eq || !cJSON_IsArray(cur)) {
				amc_sb_puts(where, p);
				return NULL;
			}
			char field[128];
			snprintf(field, sizeof field, "%.*s", (int)((eq - p - 1) < 127 ? eq - p - 1 : 127), p + 1);
			char *val = amc_xstrndup(eq + 1, (size_t)(close - eq - 1));
			const cJSON *found = NULL, *it;
			cJSON *w = cJSON_CreateString(val);
			cJSON_ArrayForEach(it, cur) {
				if (same(cJSON_GetObjectItemCaseSensitive(it, field), w)) {
					found = it;
					break;
				}
			}
			cJSON_Delete(w);
			free(val);
			if (!found) {
				amc_sb_append(where, p, (size_t)(close - p + 1));
				return NULL;
			}
			cur = found;
			p = close + 1;
		}
		if (*p == '.')
			p++;
	}
	return cur;
}

/* Fields of el that `want` names, for a reason. */
static void show_fields(amc_sb *sb, const cJSON *el, const cJSON *want)
{
	cJSON *o = cJSON_CreateObject();
	for (const cJSON *w = want->child; w; w = w->next) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(el, w->string);
		if (v)
			cJSON_AddItemToObject(o, w->string, cJSON_Duplicate(v, 1));
	}
	show(sb, o);
	cJSON_Delete(o);
}

static int word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (unsigned char)c >= 0x80;
}

/* A short answer that holds the expected one as whole words passes ("the
 * build number is amc.260115.001", "57% - about 1 day left" for "57%"); a
 * long one does not, so listing every value on the screen cannot pass. Both
 * are normalised (lower case). */
static int in_short_answer(const char *a, const char *x)
{
	size_t al = strlen(a), xl = strlen(x);
	if (!xl || al > SHORT_ANSWER_MAX)
		return 0;
	for (const char *p = strstr(a, x); p; p = strstr(p + 1, x)) {
		int before = p > a && word_char(p[-1]) && word_char(x[0]);
		int after = p[xl] && word_char(p[xl]) && word_char(x[xl - 1]);
		if (!before && !after)
			return 1;
	}
	return 0;
}

static int one(const amc_tpl_check *c, const char *path, const cJSON *want, const cJSON *state, const char *answer,
	       amc_sb *why)
{
	if (c->op == AMC_CHECK_ANSWER) {
		char *a = amc_tpl_answer_norm(answer), *x = amc_tpl_answer_norm(want->valuestring);
		int ok = answer && (!strcmp(a, x) || in_short_answer(a, x));
		free(a);
		free(x);
		if (!ok) {
			amc_sb_puts(why, "answer: found ");
			if (answer) {
				cJSON *s = cJSON_CreateString(answer);
				show(why, s);
				cJSON_Delete(s);
			} else {
				amc_sb_puts(why, "none");
			}
			amc_sb_puts(why, ", expected ");
			show(why, want);
		}
		return ok;
	}
	amc_sb missing;
	amc_sb_init(&missing);
	const cJSON *v = follow(state, path, &missing);
	int ok = 0;
	switch (c->op) {
	case AMC_CHECK_EQUALS:
		ok = same(v, want);
		break;
	case AMC_CHECK_CONTAINS:
		if (cJSON_IsString(v)) {
			char *h = amc_tpl_answer_norm(v->valuestring), *n = amc_tpl_answer_norm(want->valuestring);
			ok = strstr(h, n) != NULL;
			free(h);
			free(n);
		}
		break;
	case AMC_CHECK_COUNT:
		ok = cJSON_IsArray(v) && cJSON_GetArraySize(v) == (int)want->valuedouble;
		break;
	case AMC_CHECK_HAS:
	case AMC_CHECK_LACKS: {
		int any = 0;
		const cJSON *it;
		if (cJSON_IsArray(v))
			cJSON_ArrayForEach(it, v) any |= matches(it, want);
		ok = cJSON_IsArray(v) && (c->op == AMC_CHECK_HAS ? any : !any);
		break;
	}
	default:
		break;
	}
	if (!ok) {
		amc_sb_printf(why, "%s: ", path);
		if (!v) {
			amc_sb_printf(why, "found nothing at '%s'", amc_sb_str(&missing));
		} else if (c->op == AMC_CHECK_COUNT && cJSON_IsArray(v)) {
			amc_sb_printf(why, "found %d", cJSON_GetArraySize(v));
		} else if ((c->op == AMC_CHECK_HAS || c->op == AMC_CHECK_LACKS) && cJSON_IsArray(v)) {
			int k = 0, total = cJSON_GetArraySize(v);
			const cJSON *it;
			amc_sb_printf(why, "found %d: ", total);
			cJSON_ArrayForEach(it, v) {
				if (c->op == AMC_CHECK_LACKS && !matches(it, want))
					continue;
				if (k == SHOW_ITEMS) {
					amc_sb_puts(why, ", ...");
					break;
				}
				if (k++)
					amc_sb_puts(why, ", ");
				show_fields(why, it, want);
			}
		} else {
			amc_sb_puts(why, "found ");
			show(why, v);
		}
		amc_sb_puts(why, c->op == AMC_CHECK_HAS ? ", expected one with " : c->op == AMC_CHECK_LACKS ? ", expected none with "
								 : c->op == AMC_CHECK_CONTAINS ? ", expected it to contain "
								 : ", expected ");
		show(why, want);
	}
	amc_sb_free(&missing);
	return ok;
}

int amc_tpl_check_run(const amc_tpl *t, const amc_tpl_values *v, const cJSON *state, const char *answer, char *reason,
		      size_t n, amc_err *e)
{
	if (n)
		reason[0] = '\0';
	for (int i = 0; i < t->nchecks; i++) {
		const amc_tpl_check *c = &t->checks[i];
		char *path = NULL;
		if (c->path && amc_tpl_fill(c->path, v, &path, e) != 0)
			return -1;
		cJSON *want = amc_tpl_fill_json(c->expect, v, e);
		if (!want) {
			free(path);
			return -1;
		}
		amc_sb why;
		amc_sb_init(&why);
		int ok = one(c, path, want, state, answer, &why);
		if (!ok && n)
			snprintf(reason, n, "%s", amc_sb_str(&why));
		amc_sb_free(&why);
		cJSON_Delete(want);
		free(path);
		if (!ok)
			return 0;
	}
	return 1;
}

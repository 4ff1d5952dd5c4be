/* action.c - a step's action in words (report/action.h). */
#include "report/action.h"

#include <stdlib.h>
#include <string.h>

#include "util/jsonutil.h"

#define QUOTE_MAX 120 /* bytes of an outside string quoted; a reader needs the start */

static void quoted(amc_sb *out, const char *s)
{
	size_t n = strlen(s);
	amc_sb_putc(out, '"');
	if (n > QUOTE_MAX) {
		size_t cut = QUOTE_MAX;
		while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
			cut--; /* never split a UTF-8 sequence */
		amc_sb_append(out, s, cut);
		amc_sb_puts(out, "…");
	} else {
		amc_sb_puts(out, s);
	}
	amc_sb_putc(out, '"');
}

static int num(const cJSON *a, const char *k, int *v)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(a, k);
	if (!cJSON_IsNumber(x))
		return 0;
	*v = x->valueint;
	return 1;
}

const char *amc_report_swipe_direction(int x1, int y1, int x2, int y2)
{
	int dx = x2 - x1, dy = y2 - y1;
	if (abs(dx) > abs(dy))
		return dx < 0 ? "left" : "right";
	return dy < 0 ? "up" : "down";
}

/* A flow's selector `text="Save"` reads as "Save"; any other selector as written. */
static void selector_words(amc_sb *out, const char *sel)
{
	size_t n = strlen(sel);
	if (n >= 7 && !strncmp(sel, "text=\"", 6) && sel[n - 1] == '"' && !memchr(sel + 6, '"', n - 7)) {
		char *t = strndup(sel + 6, n - 7);
		if (t)
			quoted(out, t);
		free(t);
	} else {
		amc_sb_append(out, sel, n > QUOTE_MAX ? QUOTE_MAX : n);
	}
}

/* The scene element at (x, y), smallest first: its text and id. */
static const cJSON *element_at(const cJSON *scene, int x, int y)
{
	const cJSON *el, *best = NULL;
	long best_area = -1;
	cJSON_ArrayForEach(el, cJSON_GetObjectItemCaseSensitive(scene, "elements")) {
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(el, "bounds");
		if (!cJSON_IsArray(b) || cJSON_GetArraySize(b) != 4)
			continue;
		int v[4];
		for (int i = 0; i < 4; i++) {
			const cJSON *k = cJSON_GetArrayItem(b, i);
			v[i] = cJSON_IsNumber(k) ? k->valueint : 0;
		}
		long area = (long)(v[2] - v[0]) * (v[3] - v[1]);
		if (x >= v[0] && x < v[2] && y >= v[1] && y < v[3] && area > 0 && (best_area < 0 || area < best_area)) {
			best_area = area;
			best = el;
		}
	}
	return best;
}

static void point(amc_sb *out, const char *verb, const cJSON *args, const cJSON *scene, int x, int y)
{
	const char *sel = amc_json_str(args, "selector");
	const cJSON *el = element_at(scene, x, y);
	const char *text = amc_json_str(el, "text");
	const char *id = amc_json_str(el, "id");
	amc_sb_puts(out, verb);
	if (sel && *sel) {
		amc_sb_putc(out, ' ');
		selector_words(out, sel);
	} else if (text && *text) {
		amc_sb_putc(out, ' ');
		quoted(out, text);
	}
	if (id && *id)
		amc_sb_printf(out, " (%.*s)", 24, id);
	amc_sb_printf(out, " at %d,%d", x, y);
}

void amc_report_action_words(const char *tool, const cJSON *args, const cJSON *scene, amc_sb *out)
{
	int x, y, x2, y2, ms;
	const char *s;
	if (!tool)
		tool = "?";
	if ((!strcmp(tool, "tap") || !strcmp(tool, "long_press")) && num(args, "x", &x) && num(args, "y", &y)) {
		point(out, !strcmp(tool, "tap") ? "tap" : "long press", args, scene, x, y);
	} else if (!strcmp(tool, "swipe") && num(args, "x1", &x) && num(args, "y1", &y) && num(args, "x2", &x2) &&
		   num(args, "y2", &y2)) {
		amc_sb_printf(out, "swipe %s from %d,%d to %d,%d", amc_report_swipe_direction(x, y, x2, y2), x, y, x2,
			      y2);
	} else if (!strcmp(tool, "type_text") && (s = amc_json_str(args, "text"))) {
		amc_sb_puts(out, "type ");
		quoted(out, s);
		const char *into = amc_json_str(args, "element_id");
		if (into && *into)
			amc_sb_printf(out, " into %.*s", 24, into);
	} else if ((!strcmp(tool, "assert_visible") || !strcmp(tool, "assert_not_visible")) &&
		   (s = amc_json_str(args, "selector"))) {
		amc_sb_puts(out, !strcmp(tool, "assert_visible") ? "assert visible " : "assert not visible ");
		selector_words(out, s);
	} else if (!strcmp(tool, "press_key") && (s = amc_json_str(args, "key"))) {
		amc_sb_puts(out, "press ");
		amc_sb_append(out, s, strlen(s) > 32 ? 32 : strlen(s));
	} else if (!strcmp(tool, "launch_app") && (s = amc_json_str(args, "app_id"))) {
		amc_sb_puts(out, "launch ");
		amc_sb_append(out, s, strlen(s) > QUOTE_MAX ? QUOTE_MAX : strlen(s));
	} else if (!strcmp(tool, "wait") && num(args, "ms", &ms)) {
		amc_sb_printf(out, "wait %d ms", ms);
	} else {
		/* anything else: the tool and its string/number arguments, in order */
		amc_sb_puts(out, tool);
		const cJSON *a;
		cJSON_ArrayForEach(a, args) {
			if (!a->string || !strcmp(a->string, "flow_line") || !strcmp(a->string, "flow_file"))
				continue;
			if (cJSON_IsString(a)) {
				amc_sb_printf(out, " %.*s=", 32, a->string);
				quoted(out, a->valuestring);
			} else if (cJSON_IsNumber(a)) {
				amc_sb_printf(out, " %.*s=%g", 32, a->string, a->valuedouble);
			}
		}
	}
}

/* Fuzz target: the UI tree diff (perception/treediff.c) and the step diff's
 * reader and renderer (runtime/stepdiff.c). The input is two UI trees split
 * at the first "\n--\n" (each through the real parser), diffed both ways,
 * rendered as JSON and as lines; and the whole input read as a stored diff
 * (the timeline's tree_diff column comes from a database, so from outside). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perception/treediff.h"
#include "runtime/stepdiff.h"
#include "util/jsonutil.h"

static void line(char op, const char *l, void *ud)
{
	(void)op;
	*(size_t *)ud += strlen(l);
}

static void diff_both(const amc_ui_tree *a, const amc_ui_tree *b)
{
	for (int k = 0; k < 2; k++) {
		const amc_ui_tree *x = k ? b : a, *y = k ? a : b;
		amc_tree_diff d;
		amc_treediff(x, y, &d);
		cJSON *j = amc_treediff_to_json(&d, x, y);
		size_t n = 0;
		amc_treediff_render(j, k, line, &n);
		for (size_t i = 0; i < d.n; i++) {
			char ref[64];
			amc_treediff_ref(d.v[i].after >= 0 ? y : x, d.v[i].after >= 0 ? d.v[i].after : d.v[i].before, ref, sizeof ref);
		}
		cJSON_Delete(j);
		amc_treediff_free(&d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	const char *sep = NULL;
	for (size_t i = 0; i + 4 <= size; i++)
		if (!memcmp(s + i, "\n--\n", 4)) {
			sep = s + i;
			break;
		}
	amc_ui_tree a = { 0 }, b = { 0 };
	amc_err e;
	size_t la = sep ? (size_t)(sep - s) : size;
	if (amc_uitree_parse(s, la, &a, &e) != 0)
		memset(&a, 0, sizeof a);
	if (sep && amc_uitree_parse(sep + 4, size - la - 4, &b, &e) != 0)
		memset(&b, 0, sizeof b);
	diff_both(&a, &b);
	amc_uitree_free(&a);
	amc_uitree_free(&b);
	/* the input as stored diff JSON text */
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	(void)amc_stepdiff_changed_nothing(text);
	free(amc_stepdiff_text(text, 1));
	free(amc_stepdiff_text(text, 0));
	free(text);
	return 0;
}

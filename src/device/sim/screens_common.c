/* screens_common.c - parts several of the sim's apps share: the search box
 * over a list and the icon buttons at the right of an app bar. */
#include <string.h>

#include "device/sim/screens.h"

int sim_search_box(sim_builder *b, int parent, int y, const char *hint, const char *rid, int focus)
{
	const sim *s = b->s;
	sim_field(b, parent, y + D(b, 4), hint, amc_sb_str(&s->st.f_search), rid, F_SEARCH, focus);
	return y + D(b, 68);
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

int sim_search_match(const sim *s, const char *hay)
{
	const char *q = amc_sb_str(&s->st.f_search);
	size_t n = strlen(q);
	while (n && q[n - 1] == ' ')
		n--;
	while (n && *q == ' ') {
		q++;
		n--;
	}
	if (!n)
		return 1;
	for (const char *h = hay; *h; h++) {
		size_t k = 0;
		while (k < n && h[k] && lower((unsigned char)h[k]) == lower((unsigned char)q[k]))
			k++;
		if (k == n)
			return 1;
	}
	return 0;
}

int sim_bar_action(sim_builder *b, int parent, const char *text, const char *rid, int act, int a1, int a2)
{
	int top = D(b, 32), h = D(b, 40);
	int w = sim_button_width(b, text);
	int x2 = b->W - D(b, 8);
	int y1 = top + (D(b, 64) - h) / 2;
	return sim_button(b, parent, x2 - w, y1, x2, y1 + h, text, 0, rid, act, a1, a2);
}

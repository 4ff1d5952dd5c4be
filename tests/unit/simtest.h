/* simtest.h - helpers shared by the sim's screen, widget and input tests:
 * put a screen on top, build the current view's tree, find a node by resource
 * id and text, and tap it as a user would (at its centre). */
#ifndef AMC_SIMTEST_H
#define AMC_SIMTEST_H

#include <string.h>

#include "device/sim/input.h"
#include "device/sim/screens.h"
#include "tap.h"

static inline sim *S(amc_device *d)
{
	return d->impl;
}

/* Show `screen` (with `arg`) over the launcher, with no dialog, focus or transition. */
static inline void show(sim *s, int screen, int arg)
{
	s->st.depth = 1;
	s->st.stack[0] = (sim_entry){SCR_LAUNCHER, -1, 0};
	if (screen != SCR_LAUNCHER) {
		s->st.stack[1] = (sim_entry){screen, arg, 0};
		s->st.depth = 2;
	}
	s->st.dialog = DLG_NONE;
	s->st.focus = F_NONE;
	s->st.kb_hidden = 0;
	s->st.form_error = 0;
	s->st.tr_kind = TR_NONE;
}

static inline int top_screen(const sim *s)
{
	return s->st.stack[s->st.depth - 1].screen;
}

/* The current view's tree (caller frees with vtree_free). */
static inline void build(const sim *s, vtree *t)
{
	sim_view v;
	sim_current_view(s, &v);
	sim_build(s, &v, t);
}

/* Index of the first node with this resource id (or any, NULL) and text
 * (or any, NULL) / content-desc; -1 if none. */
static inline int find(const vtree *t, const char *rid, const char *text)
{
	for (int i = 0; i < t->count; i++) {
		const vnode *n = &t->n[i];
		if (rid && strcmp(n->rid ? n->rid : "", rid))
			continue;
		if (text && !(n->text && !strcmp(n->text, text)) && !(n->desc && !strcmp(n->desc, text)))
			continue;
		return i;
	}
	return -1;
}

/* Tap the centre of the node found as above; 0 when there is no such node. */
static inline int tap(sim *s, const char *rid, const char *text)
{
	vtree t;
	build(s, &t);
	int i = find(&t, rid, text);
	int x = 0, y = 0;
	if (i >= 0) {
		x = (t.n[i].x1 + t.n[i].x2) / 2;
		y = (t.n[i].y1 + t.n[i].y2) / 2;
	}
	vtree_free(&t);
	if (i < 0) {
		diag("no node %s / %s", rid ? rid : "*", text ? text : "*");
		return 0;
	}
	sim_tap_at(s, x, y, 0);
	return 1;
}

#endif

/* screens_files.c - the Files app: a long list (40 files from the factory,
 * sorted by name) and one file's details, whose preview is drawn only. */
#include <stdio.h>
#include <string.h>

#include "device/sim/screens.h"

static void size_text(int kb, char *out, size_t n)
{
	if (kb < 1024)
		snprintf(out, n, "%d kB", kb);
	else
		snprintf(out, n, "%d.%d MB", kb / 1024, (kb % 1024) * 10 / 1024);
}

static const char *kind_of(const char *name)
{
	const char *dot = strrchr(name, '.');
	if (!dot)
		return "File";
	if (!strcmp(dot, ".jpg") || !strcmp(dot, ".png"))
		return "Picture";
	if (!strcmp(dot, ".m4a") || !strcmp(dot, ".mp3"))
		return "Audio";
	if (!strcmp(dot, ".txt"))
		return "Text";
	return "Document";
}

static const char *glyph_of(const char *kind)
{
	if (!strcmp(kind, "Picture"))
		return "\xe2\x96\xa3";
	if (!strcmp(kind, "Audio"))
		return "\xe2\x99\xab";
	return "\xe2\x89\xa1";
}

void sim_build_files(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	int top = sim_app_bar(b, content, "Files", 0);
	if (s->st.nfiles == 0) {
		const char *t = "No files";
		int w = sim_text_width(s->font, D(b, 16), 0, t, strlen(t));
		sim_label(b, content, (b->W - w) / 2, (top + b->bottom) / 2, w, t, 16, c->text2, 0, "com.amc.files:id/empty");
		return;
	}
	int list = sim_list(b, content, top, "com.amc.files:id/file_list");
	int rh = D(b, 72);
	int content_h = s->st.nfiles * rh + D(b, 16);
	int scroll = sim_clamp_scroll(v->e.scroll, content_h, b->bottom - top);
	int y = top - scroll;
	for (int i = 0; i < s->st.nfiles; i++, y += rh) {
		if (y + rh <= top || y >= b->bottom)
			continue;
		const sim_file *f = &s->st.files[i];
		char sz[32], sum[96];
		size_text(f->size_kb, sz, sizeof sz);
		snprintf(sum, sizeof sum, "%s, %s", sz, f->modified);
		sim_rowspec r = {glyph_of(kind_of(f->name)), 0, f->starred ? 0xF9AB00FF : 0x5F6368FF, f->name, sum, -1,
				 A_OPEN, SCR_FILE_DETAIL, i, "com.amc.files:id/file_name"};
		sim_row(b, list, y, rh, &r);
	}
	sim_list_end(b, list, content_h);
}

void sim_build_file_detail(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const sim_pal *c = b->c;
	if (v->e.arg < 0 || v->e.arg >= s->st.nfiles) {
		sim_app_bar(b, content, "", 1);
		return;
	}
	const sim_file *f = &s->st.files[v->e.arg];
	int top = sim_app_bar(b, content, f->name, 1);
	/* The preview: a canvas; what it shows (the first line, a picture's
	 * caption) is in the pixels only. */
	int y = top + D(b, 8);
	int pv = sim_add(b, content, D(b, 16), y, b->W - D(b, 16), y + D(b, 160), "android.view.View");
	vnode *n = N(b, pv);
	n->rid = "com.amc.files:id/preview";
	n->paint = P_RECT;
	n->bg = c->card;
	n->radius = D(b, 16);
	if (*f->content) {
		int px = D(b, 20);
		int w = sim_text_width(s->font, px, 0, f->content, strlen(f->content));
		if (w > b->W - D(b, 64))
			w = b->W - D(b, 64);
		sim_label(b, pv, (b->W - w) / 2, y + D(b, 80) - sim_line_height(px) / 2, w, f->content, 20, c->text, VF_NOTREE,
			  NULL);
	}
	y += D(b, 176);
	int bh = D(b, 40);
	const char *st = f->starred ? "Unstar" : "Star";
	int sw = sim_button_width(b, st), dw = sim_button_width(b, "Delete");
	int x = (b->W - sw - dw - D(b, 12)) / 2;
	sim_button(b, content, x, y, x + sw, y + bh, st, 2, "com.amc.files:id/star", A_FILE_STAR, v->e.arg, 0);
	x += sw + D(b, 12);
	sim_button(b, content, x, y, x + dw, y + bh, "Delete", 2, "com.amc.files:id/delete", A_ASK_DELETE, DLG_DELETE_FILE,
		   v->e.arg);
	y += bh + D(b, 16);
	char sz[32];
	size_text(f->size_kb, sz, sizeof sz);
	const char *titles[] = {"Name", "Size", "Modified", "Type", "Starred"};
	const char *sums[] = {f->name, sz, f->modified, kind_of(f->name), f->starred ? "Yes" : "No"};
	const char *rids[] = {"com.amc.files:id/detail_name", "com.amc.files:id/detail_size",
			      "com.amc.files:id/detail_modified", "com.amc.files:id/detail_type",
			      "com.amc.files:id/detail_starred"};
	int rh = D(b, 64);
	for (int k = 0; k < 5 && y < b->bottom; k++, y += rh) {
		sim_rowspec r = {NULL, 0, 0, titles[k], sums[k], -1, A_NONE, 0, 0, NULL};
		int first = b->t->count;
		sim_row(b, content, y, rh, &r);
		/* The value (the row's summary) gets the id a flow reads it by. */
		for (int i = first; i < b->t->count; i++)
			if (!strcmp(N(b, i)->rid, "android:id/summary"))
				N(b, i)->rid = rids[k];
	}
}

/* test_render.c - the sim's painter (src/device/sim/render.c): frame size
 * (default and configured), opaque and deterministic pixels, screens that look
 * different, text ink inside the bounds the UI tree gives, the status bar
 * (clock, battery, light/dark icons) confined to its 84 px, the dark theme, and
 * the 300 ms transitions driven by sim time only. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/sim/input.h"
#include "device/sim/screens.h"
#include "tap.h"
#include "testutil.h"
#include "util/config.h"

static const char *home;

static sim *S(amc_device *d)
{
	return d->impl;
}

static amc_device *open_sim(const char *h, int index, const amc_config *cfg)
{
	amc_device *d = NULL;
	amc_err e;
	if (amc_sim_open(h, index, cfg, &d, &e) != 0)
		diag("open sim:%d: %s", index, e.msg);
	return d;
}

static void show(sim *s, int screen, int arg)
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
	s->st.tr_kind = TR_NONE;
}

static int render(sim *s, amc_image *img)
{
	amc_err e;
	if (sim_render_frame(s, img, &e) != 0) {
		diag("render: %s", e.msg);
		img->px = NULL;
		img->w = img->h = 0;
		return 0;
	}
	return 1;
}

static int same(const amc_image *a, const amc_image *b)
{
	return a->w == b->w && a->h == b->h && !memcmp(a->px, b->px, (size_t)a->w * a->h * 4);
}

/* Rows [y0, y1) of two frames are pixel-identical. */
static int same_rows(const amc_image *a, const amc_image *b, int y0, int y1)
{
	return a->w == b->w && !memcmp(a->px + (size_t)y0 * a->w * 4, b->px + (size_t)y0 * b->w * 4, (size_t)(y1 - y0) * a->w * 4);
}

static int lum(const amc_image *img, int x, int y)
{
	const unsigned char *p = img->px + ((size_t)y * img->w + x) * 4;
	return (p[0] * 299 + p[1] * 587 + p[2] * 114) / 1000;
}

/* Pixels in a box that differ from `bg` (the box's top-left pixel) by more than 60 in sum. */
static int ink(const amc_image *img, int x1, int y1, int x2, int y2)
{
	const unsigned char *bg = img->px + ((size_t)y1 * img->w + x1) * 4;
	int n = 0;
	for (int y = y1; y < y2; y++)
		for (int x = x1; x < x2; x++) {
			const unsigned char *p = img->px + ((size_t)y * img->w + x) * 4;
			if (abs(p[0] - bg[0]) + abs(p[1] - bg[1]) + abs(p[2] - bg[2]) > 60)
				n++;
		}
	return n;
}

static void test_size(amc_device *d)
{
	sim *s = S(d);
	amc_image img;
	show(s, SCR_SETTINGS, -1);
	ok(render(s, &img), "render settings");
	ok(img.w == 1080 && img.h == 2400, "default frame is 1080x2400 (%dx%d)", img.w, img.h);
	size_t opaque = 0, n = (size_t)img.w * img.h;
	for (size_t i = 0; i < n; i++)
		opaque += img.px[i * 4 + 3] == 255;
	ok(opaque == n, "every pixel is opaque (%zu of %zu)", opaque, n);
	amc_image_free(&img);

	amc_err e;
	amc_config *c = amc_config_new();
	amc_config_set(c, "sim", "width", "720", "test", &e);
	amc_config_set(c, "sim", "height", "1600", "test", &e);
	amc_device *small = open_sim(home, 1, c);
	amc_config_free(c);
	if (!small) {
		ok(0, "open a 720x1600 sim");
		return;
	}
	show(S(small), SCR_SETTINGS, -1);
	ok(render(S(small), &img) && img.w == 720 && img.h == 1600, "configured frame is 720x1600 (%dx%d)", img.w, img.h);
	/* Layout scales with the width: the status bar is 32 dp = 56 px here, and
	 * the clock is drawn inside it. */
	amc_device_info info;
	S(small)->dev.ops->info(small, &info, &e);
	is_int(info.status_bar_px, 56, "status bar of the small sim");
	int clock = 0;
	for (int i = 0; i < S(small)->ndrawn; i++)
		if (!strcmp(S(small)->drawn[i].text, "09:41") && S(small)->drawn[i].y2 <= 56)
			clock = 1;
	ok(clock, "clock drawn inside the small status bar");
	amc_image_free(&img);
	amc_device_close(small);
}

static void test_determinism(amc_device *d)
{
	sim *s = S(d);
	amc_image a, c;
	show(s, SCR_CONTACTS, -1);
	s->st.tr_kind = TR_SLIDE_FWD; /* mid-transition frames too */
	s->st.tr_start = s->st.time_ms - 100;
	sim_current_view(s, &s->st.tr_from);
	s->st.tr_from.e.screen = SCR_LAUNCHER;
	render(s, &a);
	amc_image b;
	render(s, &b);
	ok(same(&a, &b), "same state, identical pixels (mid-transition)");
	amc_image_free(&b);
	/* Another sim in another home, same index and calls. */
	char other[PATH_MAX];
	snprintf(other, sizeof other, "%s/other", home);
	amc_device *d2 = open_sim(other, 0, NULL);
	if (d2) {
		S(d2)->st.time_ms = s->st.time_ms;
		show(S(d2), SCR_CONTACTS, -1);
		S(d2)->st.tr_kind = s->st.tr_kind;
		S(d2)->st.tr_start = s->st.tr_start;
		S(d2)->st.tr_from = s->st.tr_from;
		ok(render(S(d2), &c) && same(&a, &c), "another sim with the same seed and state draws the same pixels");
		amc_image_free(&c);
		amc_device_close(d2);
	}
	amc_image_free(&a);
	s->st.tr_kind = TR_NONE;
}

static void test_screens_differ(amc_device *d)
{
	sim *s = S(d);
	int screens[] = {SCR_LAUNCHER, SCR_SETTINGS, SCR_CONTACTS, SCR_NOTES};
	enum { N = sizeof screens / sizeof screens[0] };
	amc_image img[N];
	for (int i = 0; i < N; i++) {
		show(s, screens[i], -1);
		render(s, &img[i]);
	}
	int distinct = 0, pairs = 0;
	double least = 1;
	for (int i = 0; i < N; i++)
		for (int j = i + 1; j < N; j++) {
			double f = amc_image_diff_fraction(&img[i], &img[j], 84, 8);
			pairs++;
			distinct += f > 0.005;
			if (f < least)
				least = f;
		}
	is_int(distinct, pairs, "every pair of screens differs below the status bar (least %.4f)", least);
	for (int i = 0; i < N; i++)
		amc_image_free(&img[i]);
}

/* Text nodes of the tree have ink inside their dumped bounds, and every string
 * the painter says is in the tree lies inside such a node. */
static void check_text_in_bounds(sim *s, const char *what)
{
	amc_image img;
	if (!render(s, &img))
		return;
	sim_view v;
	vtree t;
	sim_current_view(s, &v);
	sim_build(s, &v, &t);
	unsigned char *dumped = calloc((size_t)t.count + 1, 1);
	int *vis = calloc(((size_t)t.count + 1) * 4, sizeof *vis);
	vtree_dumped(&t, s->w, s->h, dumped, vis);
	int texts = 0, inked = 0;
	for (int i = 0; i < t.count; i++) {
		const vnode *n = &t.n[i];
		if (!dumped[i] || n->paint != P_TEXT || !n->text || !*n->text)
			continue;
		int *b = vis + i * 4;
		if (b[3] - b[1] < 10)
			continue; /* a sliver clipped at the list's edge */
		texts++;
		int k = ink(&img, b[0], b[1], b[2], b[3]);
		if (k >= 20)
			inked++;
		else
			diag("%s: '%s' has %d ink pixels in [%d,%d][%d,%d]", what, n->text, k, b[0], b[1], b[2], b[3]);
	}
	ok(texts > 2 && inked == texts, "%s: all %d text nodes have ink inside their bounds", what, texts);
	int drawn = 0, inside = 0;
	for (int k = 0; k < s->ndrawn; k++) {
		const drawn_text *dt = &s->drawn[k];
		if (!dt->in_tree)
			continue;
		drawn++;
		for (int i = 0; i < t.count; i++) {
			const int *b = vis + i * 4;
			if (dumped[i] && t.n[i].text && !strcmp(t.n[i].text, dt->text) && dt->x1 >= b[0] && dt->y1 >= b[1] &&
			    dt->x2 <= b[2] && dt->y2 <= b[3]) {
				inside++;
				break;
			}
		}
	}
	ok(drawn > 2 && inside == drawn, "%s: all %d strings drawn for the tree lie in their node's bounds (%d)", what, drawn,
	   inside);
	free(dumped);
	free(vis);
	vtree_free(&t);
	amc_image_free(&img);
}

static void test_text(amc_device *d)
{
	sim *s = S(d);
	show(s, SCR_SETTINGS, -1);
	check_text_in_bounds(s, "settings");
	show(s, SCR_CONTACTS, -1);
	check_text_in_bounds(s, "contacts");
	show(s, SCR_CONTACT_DETAIL, 0);
	s->st.dialog = DLG_DELETE_CONTACT;
	s->st.dialog_arg = 0;
	check_text_in_bounds(s, "delete dialog");
	show(s, SCR_SETTINGS, -1);
	s->st.stack[1].scroll = 333;
	check_text_in_bounds(s, "settings scrolled by 333 px");

	/* A blank page area carries no ink: right of the Wi-Fi row's text. */
	amc_image img;
	show(s, SCR_SETTINGS, -1);
	render(s, &img);
	int ok_blank = 0;
	for (int k = 0; k < s->ndrawn; k++)
		if (!strcmp(s->drawn[k].text, "Wi-Fi") && s->drawn[k].in_tree)
			ok_blank = ink(&img, s->drawn[k].x2 + 8, s->drawn[k].y1, 1040, s->drawn[k].y2) == 0;
	ok(ok_blank, "no ink right of a row title");
	amc_image_free(&img);
}

static void test_status_bar(amc_device *d)
{
	sim *s = S(d);
	amc_image a, b;
	show(s, SCR_SETTINGS, -1);
	long long t0 = s->st.time_ms;
	s->st.time_ms = 0;
	render(s, &a);
	int clock = -1;
	for (int k = 0; k < s->ndrawn; k++)
		if (!strcmp(s->drawn[k].text, "09:41"))
			clock = k;
	ok(clock >= 0 && !s->drawn[clock].in_tree && s->drawn[clock].y2 <= 84, "clock 09:41 drawn in the status bar");
	s->st.time_ms = 60000;
	render(s, &b);
	ok(same_rows(&a, &b, 84, 2400), "a minute later: nothing changes below the status bar");
	ok(!same_rows(&a, &b, 0, 84), "but the clock does");
	int later = 0;
	for (int k = 0; k < s->ndrawn; k++)
		later |= !strcmp(s->drawn[k].text, "09:42");
	ok(later, "clock reads 09:42");
	amc_image_free(&b);
	/* Hiding the battery percentage changes only the status bar. */
	s->st.toggles[TG_BATTERY_PCT] = 0;
	s->st.time_ms = 0;
	render(s, &b);
	ok(same_rows(&a, &b, 84, 2400) && !same_rows(&a, &b, 0, 84), "battery percentage lives in the status bar only");
	s->st.toggles[TG_BATTERY_PCT] = 1;
	amc_image_free(&b);
	/* Icons are dark over a light app and light over the launcher's wallpaper. */
	int dark_px = 0, light_px = 0;
	const drawn_text *c = &s->drawn[0];
	for (int k = 0; k < s->ndrawn; k++)
		if (!strcmp(s->drawn[k].text, "09:41"))
			c = &s->drawn[k];
	for (int y = c->y1; y < c->y2; y++)
		for (int x = c->x1; x < c->x2; x++)
			dark_px += lum(&a, x, y) < 80;
	show(s, SCR_LAUNCHER, -1);
	render(s, &b);
	for (int k = 0; k < s->ndrawn; k++)
		if (!strcmp(s->drawn[k].text, "09:41"))
			c = &s->drawn[k];
	for (int y = c->y1; y < c->y2; y++)
		for (int x = c->x1; x < c->x2; x++)
			light_px += lum(&b, x, y) > 220;
	ok(dark_px > 30 && light_px > 30, "dark clock over settings (%d px), light over the launcher (%d px)", dark_px,
	   light_px);
	amc_image_free(&a);
	amc_image_free(&b);
	s->st.time_ms = t0;
}

static void test_dark_theme(amc_device *d)
{
	sim *s = S(d);
	amc_image a, b;
	show(s, SCR_SETTINGS, -1);
	render(s, &a);
	s->st.toggles[TG_DARK] = 1;
	render(s, &b);
	/* The page background, far right of the app bar. */
	int la = lum(&a, 1070, 120), lb = lum(&b, 1070, 120);
	ok(la > 200 && lb < 60, "page background light (%d), then dark (%d)", la, lb);
	ok(amc_image_diff_fraction(&a, &b, 0, 32) > 0.5, "most of the frame changes");
	s->st.toggles[TG_DARK] = 0;
	amc_image_free(&a);
	amc_image_free(&b);
}

static void test_transitions(amc_device *d)
{
	sim *s = S(d);
	amc_image before, start, mid, end, settled;
	show(s, SCR_SETTINGS, -1);
	s->st.time_ms = 1000000;
	render(s, &before);
	/* Tap the Wi-Fi row: no sim time passes inside sim_tap_at. */
	int y = -1;
	for (int k = 0; k < s->ndrawn; k++)
		if (!strcmp(s->drawn[k].text, "Wi-Fi") && s->drawn[k].in_tree)
			y = (s->drawn[k].y1 + s->drawn[k].y2) / 2;
	ok(y > 0 && sim_tap_at(s, 540, y, 0) == 1, "tap the Wi-Fi row");
	ok(s->st.stack[s->st.depth - 1].screen == SCR_WIFI && s->st.tr_kind == TR_SLIDE_FWD, "Wi-Fi page slides in");
	render(s, &start);
	ok(same(&before, &start), "at 0 ms the frame is still the old screen");
	s->st.time_ms += 150;
	render(s, &mid);
	ok(amc_image_diff_fraction(&mid, &before, 84, 8) > 0.05, "at 150 ms it has moved");
	s->st.time_ms += 150;
	render(s, &end);
	s->st.tr_kind = TR_NONE;
	render(s, &settled);
	ok(same(&end, &settled), "at 300 ms it is the settled new screen");
	ok(amc_image_diff_fraction(&mid, &settled, 84, 8) > 0.05, "and the mid frame differs from it");
	amc_image_free(&start);
	amc_image_free(&mid);
	amc_image_free(&end);

	/* Back slides the page away; at 0 ms the Wi-Fi page still shows. */
	sim_key(s, AMC_KEY_BACK);
	ok(s->st.tr_kind == TR_SLIDE_BACK, "back starts a slide back");
	render(s, &start);
	ok(same(&start, &settled), "at 0 ms the old page is still whole");
	s->st.time_ms += SIM_TRANSITION_MS;
	render(s, &end);
	ok(same_rows(&end, &before, 84, s->h), "300 ms later the settings list is back as it was");
	amc_image_free(&start);
	amc_image_free(&end);
	amc_image_free(&settled);
	amc_image_free(&before);

	/* A dialog fades in: halfway, pixels lie between before and after. */
	show(s, SCR_CONTACT_DETAIL, 0);
	render(s, &before);
	s->st.tr_kind = TR_FADE;
	s->st.tr_start = s->st.time_ms;
	sim_current_view(s, &s->st.tr_from);
	s->st.dialog = DLG_DELETE_CONTACT;
	s->st.dialog_arg = 0;
	render(s, &start);
	s->st.time_ms += 60;
	render(s, &mid);
	s->st.time_ms += SIM_TRANSITION_MS;
	render(s, &end);
	int px = 20, py = 600; /* page background, dimmed by the dialog's scrim */
	int l0 = lum(&before, px, py), l1 = lum(&mid, px, py), l2 = lum(&end, px, py);
	ok(same_rows(&start, &before, 84, s->h), "fade at 0 ms shows the page alone");
	ok(l0 > l1 && l1 > l2, "fading: the background darkens step by step (%d > %d > %d)", l0, l1, l2);
	amc_image_free(&before);
	amc_image_free(&start);
	amc_image_free(&mid);
	amc_image_free(&end);
	s->st.dialog = DLG_NONE;
}

int main(void)
{
	home = test_home("render");
	amc_device *d = open_sim(home, 0, NULL);
	if (!d) {
		ok(0, "open sim:0");
		return done_testing();
	}
	test_size(d);
	test_determinism(d);
	test_screens_differ(d);
	test_text(d);
	test_status_bar(d);
	test_dark_theme(d);
	test_transitions(d);
	amc_device_close(d);
	return done_testing();
}

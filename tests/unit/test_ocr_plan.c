/* test_ocr_plan.c - planning OCR without tesseract: which text-less boxes are
 * read and how, the uncovered bands under gaps, and the pixel checks (blank
 * regions skipped, sparse regions cropped to their ink). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perception/ocr.h"
#include "perception/ocr_plan.h"
#include "perception/uitree.h"
#include "tap.h"

static int add(amc_uitree_builder *b, int parent, const char *text, const char *cls, unsigned flags, int x1, int y1,
	       int x2, int y2)
{
	amc_err e;
	int id = amc_uitree_builder_add(b, parent, &e);
	if (id < 0) {
		printf("Bail out! %s\n", e.msg);
		exit(1);
	}
	amc_ui_node *n = &b->t->nodes[id];
	amc_uitree_set_str(&n->text, text);
	amc_uitree_set_str(&n->class_name, cls);
	n->flags = flags | AMC_NODE_DISPLAYED;
	n->bounds = (amc_bounds){ x1, y1, x2, y2 };
	return id;
}

static int has_region(const amc_ocr_plan *p, int x1, int y1, int x2, int y2, int line)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].r.x1 == x1 && p->v[i].r.y1 == y1 && p->v[i].r.x2 == x2 && p->v[i].r.y2 == y2 &&
		    p->v[i].line == line)
			return 1;
	return 0;
}

/* A 1080 x 2400 screen: a title, a text-less clickable button, a small
 * decorative icon, a wide text-less canvas and a tall text-less image. */
static void screen(amc_ui_tree *t)
{
	amc_uitree_builder b;
	memset(t, 0, sizeof *t);
	amc_uitree_builder_init(&b, t);
	int r = add(&b, -1, "", "android.widget.FrameLayout", 0, 0, 0, 1080, 2400);
	add(&b, r, "Title", "android.widget.TextView", 0, 0, 0, 1080, 90);
	add(&b, r, "", "android.widget.ImageView", AMC_NODE_CLICKABLE, 40, 100, 240, 180);
	add(&b, r, "", "android.widget.ImageView", 0, 300, 100, 348, 148);
	add(&b, r, "", "android.view.View", 0, 0, 400, 1080, 560);
	add(&b, r, "", "android.widget.ImageView", 0, 0, 600, 1080, 1400);
	add(&b, r, "Hidden", "android.widget.TextView", 0, 0, 0, 0, 0);
	t->nodes[6].flags &= ~(unsigned)AMC_NODE_DISPLAYED;
	amc_uitree_builder_done(&b);
}

static void test_regions(void)
{
	amc_ui_tree t;
	screen(&t);
	const int s = AMC_OCR_BORDER_SHRINK;
	amc_ocr_plan p = { 0 };
	amc_ocr_plan_regions(&t, 1080, 2400, 0, 0, &p);
	is_int((int)p.n, 3, "no gaps: three text-less boxes are read");
	ok(has_region(&p, 40 + s, 100 + s, 240 - s, 180 - s, 1), "the clickable button: one line, shrunk past its border");
	ok(has_region(&p, s, 400 + s, 1080 - s, 560 - s, 1), "the wide canvas, 160 px high: one line");
	ok(has_region(&p, 0, 600, 1080, 1400, 0), "the tall image: sparse, on its whole box");
	ok(!has_region(&p, 300 + s, 100 + s, 348 - s, 148 - s, 1), "the small decorative icon is not read");
	amc_ocr_plan_free(&p);
	ok(p.v == NULL && p.n == 0, "free empties the plan");

	amc_ocr_plan_regions(&t, 1080, 2400, 0, 1, &p);
	ok(p.n == 2 && !has_region(&p, 0, 600, 1080, 1400, 0), "lines only (full): the tall image is left to the frame pass");
	amc_bounds in = { 100, 130, 110, 140 }, out = { 500, 900, 510, 910 };
	ok(amc_ocr_plan_inside_line(&p, &in), "a word inside the button's line region");
	ok(!amc_ocr_plan_inside_line(&p, &out), "a word in the tall image is not in a line region");
	amc_ocr_plan_free(&p);

	/* Gaps: bands that no node with text, no read box and no icon covers;
	 * the root covers only through its children. */
	amc_ocr_plan_regions(&t, 1080, 2400, 1, 0, &p);
	int bands = 0, inside = 1;
	for (size_t i = 0; i < p.n; i++) {
		if (p.v[i].line)
			continue;
		bands++;
		const amc_bounds *r = &p.v[i].r;
		inside &= r->x1 >= 0 && r->y1 >= 0 && r->x2 <= 1080 && r->y2 <= 2400 &&
			  r->y2 - r->y1 >= AMC_OCR_MIN_GAP_HEIGHT && amc_ocr_plan_big_enough(r);
	}
	ok(bands >= 2, "gaps: the uncovered areas become sparse bands (%d)", bands);
	ok(inside, "every band lies in the frame and is big enough");
	ok(has_region(&p, 0, 1416, 1080, 2400, 0), "the free bottom of the screen is one band, on the grid");
	amc_ocr_plan_free(&p);

	amc_ocr_plan_regions(NULL, 1080, 2400, 1, 0, &p);
	ok(p.n == 1 && has_region(&p, 0, 0, 1080, 2400, 0), "no tree, gaps: the whole frame is one band");
	amc_ocr_plan_free(&p);
	amc_ocr_plan_regions(NULL, 1080, 2400, 0, 0, &p);
	is_int((int)p.n, 0, "no tree, no gaps: nothing planned");
	amc_ocr_plan_free(&p);
	amc_uitree_free(&t);

	amc_bounds small = { 0, 0, AMC_OCR_MIN_REGION - 1, 100 }, enough = { 0, 0, AMC_OCR_MIN_REGION, AMC_OCR_MIN_REGION };
	ok(!amc_ocr_plan_big_enough(&small) && amc_ocr_plan_big_enough(&enough), "big enough: AMC_OCR_MIN_REGION a side");
}

static void test_pixels(void)
{
	/* 200 x 100 RGBA, white, with a black 10 x 6 block at (120, 40). */
	amc_image img = { 0 };
	img.w = 200;
	img.h = 100;
	img.px = malloc((size_t)img.w * (size_t)img.h * 4);
	memset(img.px, 255, (size_t)img.w * (size_t)img.h * 4);
	for (int y = 40; y < 46; y++)
		for (int x = 120; x < 130; x++)
			memset(img.px + ((size_t)y * (size_t)img.w + (size_t)x) * 4, 0, 3);
	amc_ocr_gray g = { calloc((size_t)img.w * (size_t)img.h, 1), img.w, img.h };
	amc_bounds left = { 0, 0, 100, 100 };
	amc_ocr_plan_gray(&img, &g, &left);
	ok(g.px[50 * 200 + 50] == 255 && g.px[42 * 200 + 125] == 0, "only the asked rectangle is converted");
	amc_bounds all = { 0, 0, 200, 100 };
	amc_ocr_plan_gray(&img, &g, &all);
	ok(g.px[42 * 200 + 125] == 0 && g.px[0] == 255, "white stays 255, black becomes 0");
	ok(amc_ocr_plan_blank(&g, &left), "the white half is blank");
	ok(!amc_ocr_plan_blank(&g, &all), "the frame with the block is not");
	amc_bounds r = all;
	ok(amc_ocr_plan_crop_to_ink(&g, &r), "the block is ink");
	ok(r.x1 == 108 && r.y1 == 28 && r.x2 == 142 && r.y2 == 58, "cropped to the ink plus a 12 px margin");
	r = (amc_bounds){ 115, 38, 135, 48 };
	amc_ocr_plan_crop_to_ink(&g, &r);
	ok(r.x1 == 115 && r.y1 == 38 && r.x2 == 135 && r.y2 == 48, "the margin stays inside the region");
	r = left;
	ok(!amc_ocr_plan_crop_to_ink(&g, &r) && r.x2 == 100, "nothing inked: 0, the region untouched");
	free(g.px);
	free(img.px);
}

int main(void)
{
	test_regions();
	test_pixels();
	return done_testing();
}

/* ocr_plan.h - which rectangles of a frame OCR reads, decided from the UI tree
 * and the pixels before tesseract is involved (the engine, the cache and the
 * recognition are in ocr.c; the rules are described in ocr.h). */
#ifndef AMC_OCR_PLAN_H
#define AMC_OCR_PLAN_H

#include <stddef.h>

#include "image/image.h"
#include "perception/uitree.h"

/* An 8-bit gray frame (BT.601 luma), row stride w. */
typedef struct amc_ocr_gray {
	unsigned char *px;
	int w, h;
} amc_ocr_gray;

typedef struct amc_ocr_region {
	amc_bounds r;
	int line;   /* 1: single line (PSM 7), 0: sparse (PSM 11) */
} amc_ocr_region;

typedef struct amc_ocr_plan {
	amc_ocr_region *v;
	size_t n, cap;
} amc_ocr_plan;

/* Converts the rectangle `r` of the RGBA `img` into `g` (same size as img,
 * allocated by the caller): under gaps most of the frame is never read. */
void amc_ocr_plan_gray(const amc_image *img, amc_ocr_gray *g, const amc_bounds *r);

/* Appends to `p` the regions of a w x h frame worth reading: text-less boxes
 * (the topmost nodes whose subtree has no text) that can be tapped, are
 * Buttons or are wide, as single lines when low enough (shrunk past their
 * border); with `with_gaps`, also the bands no node covers (sparse);
 * `lines_only` keeps only the single lines (full mode reads the whole frame).
 * `t` may be NULL. The caller frees with amc_ocr_plan_free. */
void amc_ocr_plan_regions(const amc_ui_tree *t, int w, int h, int with_gaps, int lines_only, amc_ocr_plan *p);
void amc_ocr_plan_push(amc_ocr_plan *p, amc_bounds b, int line);
void amc_ocr_plan_free(amc_ocr_plan *p);

/* 1 when a box is at least AMC_OCR_MIN_REGION on both sides. */
int amc_ocr_plan_big_enough(const amc_bounds *b);
/* 1 when the pixels of `r` barely vary (no text to read there). */
int amc_ocr_plan_blank(const amc_ocr_gray *g, const amc_bounds *r);
/* Shrinks `r` to the rows and columns that differ from its top-left pixel,
 * plus a margin; 0 (r untouched) when nothing is inked. */
int amc_ocr_plan_crop_to_ink(const amc_ocr_gray *g, amc_bounds *r);
/* 1 when the centre of `b` lies in one of the plan's single-line regions. */
int amc_ocr_plan_inside_line(const amc_ocr_plan *p, const amc_bounds *b);

#endif

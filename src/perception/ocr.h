/* ocr.h - text from pixels with the tesseract C API.
 *
 * One engine per thread, created on first use in that thread and reused until
 * the thread ends (init costs ~100 ms and 27 MB; see shared/notes/ocr.md).
 * Tesseract's OpenMP threading must be off (OMP_THREAD_LIMIT=1 in the process
 * environment before it starts): src/cli/main.c re-executes amc to guarantee it.
 *
 * Preprocessing: grayscale at full size, page mode 11 (sparse text). Measured
 * here on 1080x2400 screens: grayscale ~0.30-0.37 s vs colour ~0.35-0.44 s with
 * the same words; half size ~0.22 s but recall fell from 96.5 % to 93.6 %, so
 * the image is not scaled.
 *
 * Regions: text-less button-like nodes and other text-less boxes are read one
 * by one as a single line (page mode 7) with the box shrunk past its border,
 * because full-frame OCR misses button labels and OCR of a box that includes
 * its border returns nothing. Tall text-less boxes (canvases, web views) and
 * areas no node covers are read in sparse mode on their rectangle.
 *
 * Results are cached by (region pixels, rectangle, mode) hash, so an unchanged
 * screen or region is never recognized twice. Nothing here prints: tesseract's
 * messages go to /dev/null. */
#ifndef AMC_OCR_H
#define AMC_OCR_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "image/image.h"
#include "perception/uitree.h"
#include "util/err.h"

/* Words under this confidence (0-100) are dropped: filtering < 50 raised
 * precision from ~89 % to ~99 % on the measured screens. */
#define AMC_OCR_MIN_CONFIDENCE 50.0
/* Pixels taken off each side of a node before reading it as one line: OCR of
 * a box that includes its border returns nothing; ~8 px fixed it. */
#define AMC_OCR_BORDER_SHRINK 8
/* A text-less box no higher than this (px) is read as a single line (PSM 7);
 * taller ones in sparse mode on their rectangle. */
#define AMC_OCR_LINE_MAX_HEIGHT 200
/* Regions smaller than this on either side hold no readable text. */
#define AMC_OCR_MIN_REGION 16
/* Text-less boxes at least this wide (px) are read even when not clickable;
 * narrower ones (icons) only when they can be tapped. */
#define AMC_OCR_LARGE_BOX_MIN_WIDTH 240
/* Uncovered bands lower than this (px) are not worth a pass. */
#define AMC_OCR_MIN_GAP_HEIGHT 24
/* Cached region results (each a few words). */
#define AMC_OCR_CACHE_ENTRIES 512

typedef enum amc_ocr_policy {
	AMC_OCR_OFF = 0,
	AMC_OCR_GAPS,   /* only where the UI tree gives no text (the default) */
	AMC_OCR_FULL    /* the whole frame, plus text-less boxes as single lines */
} amc_ocr_policy;

/* "off", "gaps", "full"; AMC_EUSAGE for anything else. */
int amc_ocr_policy_parse(const char *s, amc_ocr_policy *out, amc_err *e);
const char *amc_ocr_policy_name(amc_ocr_policy p);

typedef struct amc_ocr_word {
	amc_bounds box;     /* screen pixels */
	char *text;         /* UTF-8, owned */
	double confidence;  /* 0-100 */
	int line;           /* 1 when it came from a single-line read of a box */
} amc_ocr_word;

typedef struct amc_ocr_result {
	amc_ocr_word *words;
	size_t count;
	/* Stats of the call that produced it. */
	int regions;          /* rectangles handed to the engine (cache hits included) */
	int cache_hits;
	double recognize_ms;  /* time inside tesseract (Recognize + iteration) */
	int max_threads;      /* threads of this process seen during recognition, when probing */
} amc_ocr_result;

/* 1 when a token is kept: confidence >= AMC_OCR_MIN_CONFIDENCE and at least one
 * letter or digit (ASCII or any non-ASCII code point). */
int amc_ocr_keep_token(const char *text, double confidence);

/* Checks that an engine can start in this thread (language data present).
 * AMC_EENV with a message naming the package tesseract-ocr-eng otherwise. */
int amc_ocr_check(amc_err *e);
/* Ends this thread's engine now rather than at the thread's exit: for a
 * detached thread whose process may end before its exit destructors run
 * (the MCP server's per-call workers). The next use starts a new one. */
void amc_ocr_thread_end(void);

/* Recognize `img` under `policy`. `tree` may be NULL (then gaps = full frame).
 * AMC_OCR_OFF gives an empty result. *out is owned by the caller
 * (amc_ocr_result_free). */
int amc_ocr_run(const amc_image *img, const amc_ui_tree *tree, amc_ocr_policy policy,
		amc_ocr_result *out, amc_err *e);
void amc_ocr_result_free(amc_ocr_result *r);

/* The raw observations, as stored in timeline records:
 * [{"text","bounds":[x1,y1,x2,y2],"confidence"}]. Caller owns. */
cJSON *amc_ocr_to_json(const amc_ocr_result *r);

/* Cache control: on by default; the benchmark turns it off for timed runs. */
void amc_ocr_cache_enable(int on);
void amc_ocr_cache_clear(void);

/* When on, each recognition counts the entries of /proc/self/task (the test of
 * the OMP_THREAD_LIMIT re-exec); off by default: it costs a directory read. */
void amc_ocr_probe_threads(int on);

/* The bare engine on a whole frame (grayscale, sparse mode), no regions, no
 * cache, no filtering: the benchmark's reference for "recognize time". Returns
 * the milliseconds spent in Recognize, or -1 with *e set. */
double amc_ocr_bare_recognize_ms(const amc_image *img, amc_err *e);

#endif

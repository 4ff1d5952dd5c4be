/* ocr.c - tesseract C API: one engine per thread, token filtering, a
 * hash-keyed result cache and the recognition of the regions that ocr_plan.c
 * picks for the gaps/full policies. See ocr.h for the measured choices. */
#include "perception/ocr.h"

#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tesseract/capi.h>

#include "image/framebuf.h"
#include "perception/ocr_plan.h"
#include "util/log.h"
#include "util/strbuf.h"

/* ---- policy ------------------------------------------------------------ */

int amc_ocr_policy_parse(const char *s, amc_ocr_policy *out, amc_err *e)
{
	if (s && !strcmp(s, "off"))
		*out = AMC_OCR_OFF;
	else if (s && !strcmp(s, "gaps"))
		*out = AMC_OCR_GAPS;
	else if (s && !strcmp(s, "full"))
		*out = AMC_OCR_FULL;
	else
		return amc_err_set(e, AMC_EUSAGE, "OCR policy must be gaps, full or off");
	return 0;
}

const char *amc_ocr_policy_name(amc_ocr_policy p)
{
	return p == AMC_OCR_FULL ? "full" : p == AMC_OCR_GAPS ? "gaps" : "off";
}

/* A letter or digit: ASCII alphanumerics and the code points of alphabets and
 * ideographs (Latin-1 letters up to U+1FFF, kana/CJK/Hangul U+3040-U+D7FF).
 * Punctuation, arrows, dingbats and other symbols (U+2000-U+303F, private use)
 * are not: OCR of an icon glyph is not a word. */
static int is_letter_cp(unsigned cp)
{
	if (cp < 0x80)
		return (cp >= '0' && cp <= '9') || ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z');
	if (cp == 0xD7 || cp == 0xF7)
		return 0;
	return (cp >= 0xC0 && cp < 0x2000) || (cp >= 0x3040 && cp < 0xD800);
}

int amc_ocr_keep_token(const char *text, double confidence)
{
	if (!text || !(confidence >= AMC_OCR_MIN_CONFIDENCE))
		return 0;
	const unsigned char *p = (const unsigned char *)text;
	while (*p) {
		unsigned cp = *p;
		int n = 1;
		if (cp >= 0xF0 && cp < 0xF8)
			cp &= 0x07, n = 4;
		else if (cp >= 0xE0)
			cp &= 0x0F, n = 3;
		else if (cp >= 0xC0)
			cp &= 0x1F, n = 2;
		else if (cp >= 0x80)
			cp = 0xFFFD; /* a stray continuation byte: not a letter */
		for (int k = 1; k < n; k++) {
			if ((p[k] & 0xC0) != 0x80) {
				n = k;
				cp = 0xFFFD;
				break;
			}
			cp = (cp << 6) | (p[k] & 0x3F);
		}
		if (is_letter_cp(cp))
			return 1;
		p += n;
	}
	return 0;
}

/* ---- engines: one per thread -------------------------------------------- */

typedef struct engine {
	TessBaseAPI *api;
	int failed;
} engine;

static pthread_key_t eng_key;
static pthread_once_t eng_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t warn_mu = PTHREAD_MUTEX_INITIALIZER;
static int warned_missing;

static void engine_destroy(void *p)
{
	engine *en = p;
	if (!en)
		return;
	if (en->api) {
		TessBaseAPIEnd(en->api);
		TessBaseAPIDelete(en->api);
	}
	free(en);
}

static void eng_key_init(void)
{
	pthread_key_create(&eng_key, engine_destroy);
}

static int missing_data(amc_err *e)
{
	pthread_mutex_lock(&warn_mu);
	int first = !warned_missing;
	warned_missing = 1;
	pthread_mutex_unlock(&warn_mu);
	if (first)
		amc_log_error("OCR unavailable: tesseract could not load its English language data "
			      "(package tesseract-ocr-eng); continuing with OCR off");
	return amc_err_set(e, AMC_EENV,
		"OCR needs tesseract's English language data: install the Debian package "
		"tesseract-ocr-eng (or point TESSDATA_PREFIX at a folder holding eng.traineddata), "
		"or set [ocr] policy = off");
}

/* The engine of this thread, created on first use. A failed init is remembered
 * so a thread does not pay for it (and log it) on every frame. */
static TessBaseAPI *engine_get(amc_err *e)
{
	pthread_once(&eng_once, eng_key_init);
	engine *en = pthread_getspecific(eng_key);
	if (en && en->api)
		return en->api;
	if (en && en->failed) {
		missing_data(e);
		return NULL;
	}
	en = amc_xcalloc(1, sizeof *en);
	pthread_setspecific(eng_key, en);
	TessBaseAPI *api = TessBaseAPICreate();
	if (!api) {
		en->failed = 1;
		amc_err_set(e, AMC_EENV, "cannot create a tesseract engine (out of memory?)");
		return NULL;
	}
	/* Tesseract prints through tprintf; send it nowhere so nothing reaches the
	 * terminal (the TUI owns it). Set before Init so init errors go too. */
	TessBaseAPISetVariable(api, "debug_file", "/dev/null");
	if (TessBaseAPIInit3(api, NULL, "eng") != 0) {
		TessBaseAPIDelete(api);
		en->failed = 1;
		missing_data(e);
		return NULL;
	}
	/* Screenshots carry no resolution; without this tesseract warns and guesses. */
	TessBaseAPISetVariable(api, "user_defined_dpi", "300");
	en->api = api;
	return api;
}

int amc_ocr_check(amc_err *e)
{
	return engine_get(e) ? 0 : -1;
}

void amc_ocr_thread_end(void)
{
	pthread_once(&eng_once, eng_key_init);
	engine *en = pthread_getspecific(eng_key);
	pthread_setspecific(eng_key, NULL);
	engine_destroy(en);
}

/* ---- cache -------------------------------------------------------------- */

typedef struct cache_entry {
	uint64_t key;
	int used;
	unsigned long tick;
	amc_ocr_word *words;
	size_t count;
} cache_entry;

static pthread_mutex_t cache_mu = PTHREAD_MUTEX_INITIALIZER;
static cache_entry cache[AMC_OCR_CACHE_ENTRIES];
static unsigned long cache_tick;
static int cache_on = 1;
static _Atomic int probe_threads;

static void words_free(amc_ocr_word *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i].text);
	free(w);
}

void amc_ocr_cache_enable(int on)
{
	pthread_mutex_lock(&cache_mu);
	cache_on = on;
	pthread_mutex_unlock(&cache_mu);
}

void amc_ocr_cache_clear(void)
{
	pthread_mutex_lock(&cache_mu);
	for (size_t i = 0; i < AMC_OCR_CACHE_ENTRIES; i++) {
		words_free(cache[i].words, cache[i].count);
		memset(&cache[i], 0, sizeof cache[i]);
	}
	pthread_mutex_unlock(&cache_mu);
}

void amc_ocr_probe_threads(int on)
{
	probe_threads = on;
}

typedef struct wordvec {
	amc_ocr_word *v;
	size_t n, cap;
} wordvec;

static void wv_push(wordvec *wv, amc_bounds b, const char *text, double conf, int line)
{
	if (wv->n == wv->cap) {
		wv->cap = wv->cap ? wv->cap * 2 : 32;
		wv->v = amc_xrealloc(wv->v, wv->cap * sizeof *wv->v);
	}
	wv->v[wv->n++] = (amc_ocr_word){ b, amc_xstrdup(text), conf, line };
}

/* Copies the cached words for `key` into `wv`; 1 on a hit. */
static int cache_get(uint64_t key, wordvec *wv)
{
	int hit = 0;
	pthread_mutex_lock(&cache_mu);
	if (cache_on)
		for (size_t i = 0; i < AMC_OCR_CACHE_ENTRIES; i++)
			if (cache[i].used && cache[i].key == key) {
				cache[i].tick = ++cache_tick;
				for (size_t k = 0; k < cache[i].count; k++) {
					const amc_ocr_word *w = &cache[i].words[k];
					wv_push(wv, w->box, w->text, w->confidence, w->line);
				}
				hit = 1;
				break;
			}
	pthread_mutex_unlock(&cache_mu);
	return hit;
}

/* Stores a copy of words [from, wv->n), replacing the least recently used entry. */
static void cache_put(uint64_t key, const wordvec *wv, size_t from)
{
	pthread_mutex_lock(&cache_mu);
	if (cache_on) {
		size_t victim = 0;
		for (size_t i = 0; i < AMC_OCR_CACHE_ENTRIES; i++) {
			if (!cache[i].used) {
				victim = i;
				break;
			}
			if (cache[i].tick < cache[victim].tick)
				victim = i;
		}
		cache_entry *c = &cache[victim];
		words_free(c->words, c->count);
		c->used = 1;
		c->key = key;
		c->tick = ++cache_tick;
		c->count = wv->n - from;
		c->words = c->count ? amc_xcalloc(c->count, sizeof *c->words) : NULL;
		for (size_t k = 0; k < c->count; k++) {
			c->words[k] = wv->v[from + k];
			c->words[k].text = amc_xstrdup(wv->v[from + k].text);
		}
	}
	pthread_mutex_unlock(&cache_mu);
}

/* ---- recognition -------------------------------------------------------- */

static void to_gray(const amc_image *img, amc_ocr_gray *g)
{
	g->w = img->w;
	g->h = img->h;
	g->px = amc_xmalloc((size_t)img->w * (size_t)img->h);
	amc_bounds all = { 0, 0, img->w, img->h };
	amc_ocr_plan_gray(img, g, &all);
}

static uint64_t region_hash(const amc_ocr_gray *g, const amc_bounds *r, int psm)
{
	uint64_t h = 1469598103934665603ull;
	int hdr[6] = { r->x1, r->y1, r->x2, r->y2, psm, g->w };
	const unsigned char *p = (const unsigned char *)hdr;
	for (size_t i = 0; i < sizeof hdr; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	for (int y = r->y1; y < r->y2; y++) {
		const unsigned char *row = g->px + (size_t)y * (size_t)g->w;
		for (int x = r->x1; x < r->x2; x++)
			h = (h ^ row[x]) * 1099511628211ull;
	}
	return h;
}

static int count_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	if (!d)
		return -1;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Per thread: the progress callback runs in the thread that recognizes. */
static _Thread_local int progress_max_threads;
/* Called by tesseract while it recognizes: the OpenMP workers, if any, exist now. */
static bool on_progress(ETEXT_DESC *m, int l, int r, int t, int b)
{
	(void)m, (void)l, (void)r, (void)t, (void)b;
	int n = count_threads();
	if (n > progress_max_threads)
		progress_max_threads = n;
	return false;
}

/* A word the engine doubts as a whole may be an icon glued to real text (the
 * status bar's battery outline before "72%" came back as "mI72%" at 0): keep
 * the longest run of its symbols that are each confident and stand as close
 * as letters of one word do, when that run is a word. */
static void salvage(const TessResultIterator *word, const amc_bounds *r, int line, wordvec *wv)
{
	TessResultIterator *it = TessResultIteratorCopy(word);
	if (!it)
		return;
	TessPageIterator *pit = TessResultIteratorGetPageIterator(it);
	char best[256] = "", cur[256] = "";
	amc_bounds bb = { 0 }, cb = { 0 };
	double bconf = 0, csum = 0;
	int blen = 0, clen = 0;
	for (;;) {
		char *sym = TessResultIteratorGetUTF8Text(it, RIL_SYMBOL);
		float sc = TessResultIteratorConfidence(it, RIL_SYMBOL);
		int l, t, rr, b;
		int okbox = TessPageIteratorBoundingBox(pit, RIL_SYMBOL, &l, &t, &rr, &b);
		/* A gap wider than 0.4 symbol heights is not inside a word: the icon
		 * ends there (letters of one word stand 2-8 px apart at 30 px). */
		if (clen && okbox && (l - cb.x2) * 5 > (b - t) * 2) {
			clen = 0;
			cur[0] = '\0';
			csum = 0;
		}
		if (sym && okbox && sc >= AMC_OCR_MIN_CONFIDENCE && strlen(cur) + strlen(sym) < sizeof cur) {
			if (!clen)
				cb = (amc_bounds){ l, t, rr, b };
			strcat(cur, sym);
			cb.x1 = l < cb.x1 ? l : cb.x1;
			cb.y1 = t < cb.y1 ? t : cb.y1;
			cb.x2 = rr > cb.x2 ? rr : cb.x2;
			cb.y2 = b > cb.y2 ? b : cb.y2;
			csum += sc;
			clen++;
		} else {
			clen = 0;
			cur[0] = '\0';
			csum = 0;
		}
		if (clen > blen) {
			blen = clen;
			memcpy(best, cur, sizeof best);
			bb = cb;
			bconf = csum / clen;
		}
		TessDeleteText(sym);
		if (TessPageIteratorIsAtFinalElement(pit, RIL_WORD, RIL_SYMBOL) || !TessResultIteratorNext(it, RIL_SYMBOL))
			break;
	}
	/* Two symbols at least: a lone confident glyph is too often an icon. */
	if (blen >= 2 && amc_ocr_keep_token(best, bconf))
		wv_push(wv, (amc_bounds){ bb.x1 + r->x1, bb.y1 + r->y1, bb.x2 + r->x1, bb.y2 + r->y1 }, best, bconf, line);
	TessResultIteratorDelete(it);
}

/* Recognize one rectangle of the gray image (already set on the engine) and
 * append its kept words. */
static int recognize(TessBaseAPI *api, const amc_ocr_gray *g, const amc_bounds *r, int psm, int line,
		     wordvec *wv, amc_ocr_result *res, amc_err *e)
{
	res->regions++;
	pthread_mutex_lock(&cache_mu);
	int caching = cache_on;
	pthread_mutex_unlock(&cache_mu);
	/* Hashing a whole frame costs a few ms: only when the result is kept. */
	uint64_t key = caching ? region_hash(g, r, psm) : 0;
	if (caching && cache_get(key, wv)) {
		res->cache_hits++;
		return 0;
	}
	size_t from = wv->n;
	TessBaseAPISetPageSegMode(api, (TessPageSegMode)psm);
	/* Each region is handed over as its own image (a view into the gray frame,
	 * which tesseract copies): with SetRectangle on the whole frame, tesseract
	 * thresholds for the whole page and white-on-dark bars (the status bar)
	 * came back empty. Boxes are then offset back to screen pixels. */
	TessBaseAPISetImage(api, g->px + (size_t)r->y1 * (size_t)g->w + (size_t)r->x1, r->x2 - r->x1,
			    r->y2 - r->y1, 1, g->w);
	double t0 = now_ms();
	ETEXT_DESC *mon = NULL;
	if (probe_threads) {
		mon = TessMonitorCreate();
		progress_max_threads = 0;
		TessMonitorSetProgressFunc(mon, on_progress);
	}
	int rc = TessBaseAPIRecognize(api, mon);
	if (mon) {
		int n = count_threads();
		if (progress_max_threads > n)
			n = progress_max_threads;
		if (n > res->max_threads)
			res->max_threads = n;
		TessMonitorDelete(mon);
	}
	if (rc != 0) {
		res->recognize_ms += now_ms() - t0;
		return amc_err_set(e, AMC_EFAIL, "tesseract could not recognize the screenshot");
	}
	TessResultIterator *it = TessBaseAPIGetIterator(api);
	if (it) {
		TessPageIterator *pit = TessResultIteratorGetPageIterator(it);
		do {
			char *txt = TessResultIteratorGetUTF8Text(it, RIL_WORD);
			if (!txt)
				continue;
			float conf = TessResultIteratorConfidence(it, RIL_WORD);
			int l, t, rr, b;
			if (amc_ocr_keep_token(txt, conf) &&
			    TessPageIteratorBoundingBox(pit, RIL_WORD, &l, &t, &rr, &b))
				wv_push(wv, (amc_bounds){ l + r->x1, t + r->y1, rr + r->x1, b + r->y1 }, txt, conf, line);
			else if (!(conf >= AMC_OCR_MIN_CONFIDENCE))
				salvage(it, r, line, wv);
			TessDeleteText(txt);
		} while (TessResultIteratorNext(it, RIL_WORD));
		TessResultIteratorDelete(it);
	}
	res->recognize_ms += now_ms() - t0;
	if (caching)
		cache_put(key, wv, from);
	return 0;
}

/* ---- the public call ---------------------------------------------------- */

int amc_ocr_run(const amc_image *img, const amc_ui_tree *tree, amc_ocr_policy policy,
		amc_ocr_result *out, amc_err *e)
{
	if (!out)
		return amc_err_set(e, AMC_EUSAGE, "internal: no OCR result to fill");
	memset(out, 0, sizeof *out);
	if (policy == AMC_OCR_OFF)
		return 0;
	if (!img || !img->px || img->w <= 0 || img->h <= 0)
		return amc_err_set(e, AMC_EUSAGE, "internal: no image to recognize");
	TessBaseAPI *api = engine_get(e);
	if (!api)
		return -1;

	/* a kept buffer (image/framebuf.h): a fresh one's page faults cost
	 * more than converting the frame; its old bytes are never read (each
	 * region is converted before it is read, as with malloc) */
	amc_ocr_gray g = { amc_framebuf_get((size_t)img->w * (size_t)img->h), img->w, img->h };
	if (!g.px)
		return amc_err_set(e, AMC_EENV, "out of memory for OCR of a %dx%d frame", img->w, img->h);
	amc_ocr_plan rv = { 0 };
	wordvec wv = { 0 };
	int rc = 0;
	amc_bounds whole = { 0, 0, g.w, g.h };
	int have_tree = tree && tree->count;
	/* Full reads the whole frame anyway; gaps converts each region below. */
	int all_gray = policy == AMC_OCR_FULL || !have_tree;
	if (all_gray)
		amc_ocr_plan_gray(img, &g, &whole);
	amc_ocr_plan_regions(have_tree ? tree : NULL, g.w, g.h, policy == AMC_OCR_GAPS && have_tree,
		     policy == AMC_OCR_FULL, &rv);
	if (policy == AMC_OCR_FULL || !have_tree)
		amc_ocr_plan_push(&rv, whole, 0);

	for (size_t i = 0; i < rv.n && rc == 0; i++) {
		amc_bounds r = rv.v[i].r;
		/* Single lines keep their box (the shrink already placed it); sparse
		 * regions are cropped to their ink. The whole frame stays whole. */
		int whole_frame = r.x1 == 0 && r.y1 == 0 && r.x2 == g.w && r.y2 == g.h;
		if (!all_gray && amc_ocr_plan_big_enough(&r))
			amc_ocr_plan_gray(img, &g, &r);
		if (!amc_ocr_plan_big_enough(&r) || amc_ocr_plan_blank(&g, &r) ||
		    (!rv.v[i].line && !whole_frame && (!amc_ocr_plan_crop_to_ink(&g, &r) || !amc_ocr_plan_big_enough(&r))))
			continue;
		size_t before = wv.n;
		rc = recognize(api, &g, &r, rv.v[i].line ? PSM_SINGLE_LINE : PSM_SPARSE_TEXT,
			       rv.v[i].line, &wv, out, e);
		/* The whole-frame pass repeats what single-line reads already found. */
		if (rc == 0 && whole_frame) {
			size_t k = before;
			for (size_t j = before; j < wv.n; j++) {
				if (amc_ocr_plan_inside_line(&rv, &wv.v[j].box)) {
					free(wv.v[j].text);
					continue;
				}
				wv.v[k++] = wv.v[j];
			}
			wv.n = k;
		}
	}
	/* Drop the engine's copy of the image: it is as large as the frame. */
	TessBaseAPIClear(api);
	amc_framebuf_put(g.px);
	amc_ocr_plan_free(&rv);
	if (rc != 0) {
		words_free(wv.v, wv.n);
		memset(out, 0, sizeof *out);
		return -1;
	}
	out->words = wv.v;
	out->count = wv.n;
	return 0;
}

void amc_ocr_result_free(amc_ocr_result *r)
{
	if (!r)
		return;
	words_free(r->words, r->count);
	memset(r, 0, sizeof *r);
}

cJSON *amc_ocr_to_json(const amc_ocr_result *r)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; r && i < r->count; i++) {
		const amc_ocr_word *w = &r->words[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "text", w->text);
		int b[4] = { w->box.x1, w->box.y1, w->box.x2, w->box.y2 };
		cJSON_AddItemToObject(o, "bounds", cJSON_CreateIntArray(b, 4));
		/* Two decimals: the engine's confidence has no more meaning than that. */
		cJSON_AddNumberToObject(o, "confidence", (double)(long)(w->confidence * 100.0 + 0.5) / 100.0);
		if (w->line)
			cJSON_AddTrueToObject(o, "line");
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

double amc_ocr_bare_recognize_ms(const amc_image *img, amc_err *e)
{
	TessBaseAPI *api = engine_get(e);
	if (!api)
		return -1;
	amc_ocr_gray g;
	to_gray(img, &g);
	TessBaseAPISetImage(api, g.px, g.w, g.h, 1, g.w);
	TessBaseAPISetPageSegMode(api, PSM_SPARSE_TEXT);
	double t0 = now_ms();
	int rc = TessBaseAPIRecognize(api, NULL);
	double ms = now_ms() - t0;
	TessBaseAPIClear(api);
	free(g.px);
	if (rc != 0) {
		amc_err_set(e, AMC_EFAIL, "tesseract could not recognize the screenshot");
		return -1;
	}
	return ms;
}

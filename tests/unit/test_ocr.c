/* test_ocr.c - OCR on the sim's pixels: policies, the token filter, single-line
 * reads of text-less buttons, the cache, one engine per thread, and missing
 * language data (a clear error, observations go on with OCR off). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "perception/ocr.h"
#include "perception/uitree.h"
#include "runtime/observe.h"
#include "util/config.h"
#include "tap.h"
#include "testutil.h"

static amc_device *dev;

static int has_word(const amc_ocr_result *r, const char *w, int *line)
{
	for (size_t i = 0; i < r->count; i++)
		if (!strcmp(r->words[i].text, w)) {
			if (line)
				*line = r->words[i].line;
			return 1;
		}
	return 0;
}

/* The displayed node with this text, or NULL. */
static const amc_ui_node *node_with(const amc_ui_tree *t, const char *text)
{
	for (size_t i = 0; i < t->count; i++)
		if ((t->nodes[i].flags & AMC_NODE_DISPLAYED) && !strcmp(t->nodes[i].text, text))
			return &t->nodes[i];
	return NULL;
}

static void capture(amc_image *img, amc_ui_tree *t)
{
	amc_err e;
	char *xml;
	size_t len;
	if (amc_sim_render(dev, img, &e) != 0 || dev->ops->ui_tree(dev, &xml, &len, &e) != 0 ||
	    amc_uitree_parse(xml, len, t, &e) != 0) {
		printf("Bail out! capture: %s\n", e.msg);
		exit(1);
	}
	free(xml);
}

static void tap_node(const amc_ui_tree *t, const char *text)
{
	amc_err e;
	const amc_ui_node *n = node_with(t, text);
	if (!n) {
		printf("Bail out! no '%s' on the screen\n", text);
		exit(1);
	}
	dev->ops->tap(dev, (n->bounds.x1 + n->bounds.x2) / 2, (n->bounds.y1 + n->bounds.y2) / 2, &e);
	dev->ops->wait(dev, 800, &e);
}

static void test_filter(void)
{
	amc_ocr_policy p;
	amc_err e;
	ok(amc_ocr_policy_parse("gaps", &p, &e) == 0 && p == AMC_OCR_GAPS, "policy gaps");
	ok(amc_ocr_policy_parse("full", &p, &e) == 0 && p == AMC_OCR_FULL, "policy full");
	ok(amc_ocr_policy_parse("off", &p, &e) == 0 && p == AMC_OCR_OFF, "policy off");
	ok(amc_ocr_policy_parse("all", &p, &e) == -1 && e.code == AMC_EUSAGE, "unknown policy is a usage error");
	is_str(amc_ocr_policy_name(AMC_OCR_GAPS), "gaps", "policy name");

	/* AMC_OCR_MIN_CONFIDENCE decides: just under it is dropped, at it kept. */
	ok(!amc_ocr_keep_token("Settings", AMC_OCR_MIN_CONFIDENCE - 0.1), "confidence just under the threshold: dropped");
	ok(amc_ocr_keep_token("Settings", AMC_OCR_MIN_CONFIDENCE), "confidence at the threshold: kept");
	ok(!amc_ocr_keep_token("Settings", -1), "no confidence: dropped");
	/* Letterless tokens. */
	ok(!amc_ocr_keep_token("|", 99), "a bar is not a word");
	ok(!amc_ocr_keep_token("--", 99), "dashes are not a word");
	ok(!amc_ocr_keep_token("\xc2\xa9", 99), "(c) sign is not a word");
	ok(!amc_ocr_keep_token("\xe2\x9a\x99", 99), "a gear glyph is not a word");
	ok(!amc_ocr_keep_token("\xe2\x86\x90", 99), "an arrow glyph is not a word");
	ok(!amc_ocr_keep_token("\x80\x80", 99), "stray UTF-8 bytes are not a word");
	ok(amc_ocr_keep_token("72%", 99), "digits make a word");
	ok(amc_ocr_keep_token("(a)", 99), "one letter makes a word");
	ok(amc_ocr_keep_token("\xc3\xa9t\xc3\xa9", 99), "accented letters make a word");
	ok(amc_ocr_keep_token("\xe6\xbc\xa2", 99), "an ideograph makes a word");
}

static void test_notes(void)
{
	amc_err e;
	amc_image img;
	amc_ui_tree t;
	dev->ops->launch_app(dev, "com.amc.notes", &e);
	dev->ops->wait(dev, 800, &e);
	capture(&img, &t);
	tap_node(&t, "Welcome");
	amc_uitree_free(&t);
	amc_image_free(&img);
	capture(&img, &t);

	amc_ocr_result full, gaps, off;
	ok(amc_ocr_run(&img, &t, AMC_OCR_FULL, &full, &e) == 0, "full OCR of the Notes editor");
	ok(amc_ocr_run(&img, &t, AMC_OCR_GAPS, &gaps, &e) == 0, "gaps OCR of the Notes editor");
	ok(amc_ocr_run(&img, &t, AMC_OCR_OFF, &off, &e) == 0 && off.count == 0 && off.regions == 0, "off reads nothing");
	/* The body exists only in pixels (a canvas); both policies must read it. */
	const char *body[] = { "canvas:", "screenshots", "reading", "takes" };
	for (int i = 0; i < 4; i++) {
		ok(has_word(&full, body[i], NULL), "full reads the pixel-only body: %s", body[i]);
		ok(has_word(&gaps, body[i], NULL), "gaps reads the pixel-only body: %s", body[i]);
	}
	ok(has_word(&full, "Edit", NULL), "full also reads the title the tree has");
	ok(!has_word(&gaps, "Edit", NULL), "gaps skips the title the tree already has");
	ok(gaps.count < full.count, "gaps reads fewer words (%zu < %zu)", gaps.count, full.count);
	int filtered = 1;
	for (size_t i = 0; i < full.count; i++)
		if (!amc_ocr_keep_token(full.words[i].text, full.words[i].confidence))
			filtered = 0;
	ok(filtered, "every word passed the token filter");
	int in_frame = 1;
	for (size_t i = 0; i < full.count; i++) {
		const amc_bounds *b = &full.words[i].box;
		if (b->x1 < 0 || b->y1 < 0 || b->x2 > img.w || b->y2 > img.h || b->x2 <= b->x1 || b->y2 <= b->y1)
			in_frame = 0;
	}
	ok(in_frame, "word boxes are screen pixels inside the frame");
	/* Region words come back in screen coordinates: the body starts below y=462. */
	int below = 1;
	for (size_t i = 0; i < gaps.count; i++)
		if (!strcmp(gaps.words[i].text, "screenshots") && gaps.words[i].box.y1 < 462)
			below = 0;
	ok(below, "region offsets are added back");

	cJSON *j = amc_ocr_to_json(&gaps);
	char *s = cJSON_PrintUnformatted(j);
	like(s, "\"text\":\"screenshots\",\"bounds\":[", "JSON: text and bounds");
	like(s, "\"confidence\":", "JSON: confidence");
	free(s);
	cJSON_Delete(j);
	amc_ocr_result_free(&full);
	amc_ocr_result_free(&gaps);
	amc_uitree_free(&t);
	amc_image_free(&img);
}

/* A text-less button whose label exists only in pixels is read on its own as a
 * single line. The Create contact screen's Save button is given to OCR in a
 * tree that has no text for it. */
static void test_button(void)
{
	amc_err e;
	amc_image img;
	amc_ui_tree t;
	dev->ops->launch_app(dev, "com.android.contacts", &e);
	dev->ops->wait(dev, 800, &e);
	capture(&img, &t);
	const amc_ui_node *fab = NULL;
	for (size_t i = 0; i < t.count; i++)
		if (!strcmp(t.nodes[i].content_desc, "Add contact"))
			fab = &t.nodes[i];
	if (!fab) {
		printf("Bail out! no Add contact button\n");
		exit(1);
	}
	dev->ops->tap(dev, (fab->bounds.x1 + fab->bounds.x2) / 2, (fab->bounds.y1 + fab->bounds.y2) / 2, &e);
	dev->ops->wait(dev, 800, &e);
	amc_uitree_free(&t);
	amc_image_free(&img);
	capture(&img, &t);
	const amc_ui_node *save = node_with(&t, "Save");
	ok(save != NULL, "Create contact has a Save button");
	if (save) {
		char xml[512];
		snprintf(xml, sizeof xml,
			 "<hierarchy><node class=\"android.widget.FrameLayout\" text=\"Create contact\" bounds=\"[0,0][%d,%d]\">"
			 "<node class=\"android.widget.Button\" text=\"\" clickable=\"true\" bounds=\"[%d,%d][%d,%d]\"/>"
			 "</node></hierarchy>", img.w, img.h, save->bounds.x1, save->bounds.y1, save->bounds.x2,
			 save->bounds.y2);
		amc_ui_tree bt;
		amc_ocr_result r;
		int line = 0;
		ok(amc_uitree_parse(xml, strlen(xml), &bt, &e) == 0, "hand-made tree with a text-less button");
		ok(amc_ocr_run(&img, &bt, AMC_OCR_GAPS, &r, &e) == 0, "gaps OCR");
		ok(has_word(&r, "Save", &line) && line == 1, "the text-less button's label is read as a single line");
		amc_ocr_result_free(&r);
		amc_uitree_free(&bt);
	}
	amc_uitree_free(&t);
	amc_image_free(&img);
	dev->ops->key(dev, AMC_KEY_BACK, &e);
	dev->ops->wait(dev, 800, &e);
}

static void test_cache(void)
{
	amc_err e;
	amc_image img;
	amc_ui_tree t;
	capture(&img, &t);
	amc_ocr_cache_clear();
	amc_ocr_result a, b, c;
	ok(amc_ocr_run(&img, &t, AMC_OCR_FULL, &a, &e) == 0 && a.cache_hits == 0, "first look: no cache hit");
	ok(amc_ocr_run(&img, &t, AMC_OCR_FULL, &b, &e) == 0 && b.cache_hits == b.regions && b.regions > 0,
	   "unchanged screen: every region from the cache (%d of %d)", b.cache_hits, b.regions);
	ok(b.recognize_ms == 0, "nothing recognized twice");
	int same = a.count == b.count;
	for (size_t i = 0; same && i < a.count; i++)
		same = !strcmp(a.words[i].text, b.words[i].text) && a.words[i].box.x1 == b.words[i].box.x1;
	ok(same, "cached words are the same words");
	amc_ocr_cache_enable(0);
	ok(amc_ocr_run(&img, &t, AMC_OCR_FULL, &c, &e) == 0 && c.cache_hits == 0, "cache off: recognized again");
	amc_ocr_cache_enable(1);
	amc_ocr_result_free(&a);
	amc_ocr_result_free(&b);
	amc_ocr_result_free(&c);
	amc_uitree_free(&t);
	amc_image_free(&img);
}

/* ---- threads ---------------------------------------------------------------- */

typedef struct job {
	const amc_image *img;
	const amc_ui_tree *t;
	size_t words;
	int rc;
} job;

static void *worker(void *p)
{
	job *j = p;
	amc_err e;
	amc_ocr_result r;
	j->rc = amc_ocr_run(j->img, j->t, AMC_OCR_FULL, &r, &e);
	j->words = r.count;
	amc_ocr_result_free(&r);
	return NULL;
}

static void test_threads(void)
{
	amc_image img;
	amc_ui_tree t;
	capture(&img, &t);
	amc_ocr_cache_enable(0);
	job j[2] = { { &img, &t, 0, -1 }, { &img, &t, 0, -1 } };
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, &j[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	amc_ocr_cache_enable(1);
	ok(j[0].rc == 0 && j[1].rc == 0, "two threads recognize at once, one engine each");
	ok(j[0].words == j[1].words && j[0].words > 0, "and read the same words (%zu)", j[0].words);

	amc_ocr_probe_threads(1);
	amc_ocr_cache_clear();
	amc_err e;
	amc_ocr_result r;
	ok(amc_ocr_run(&img, &t, AMC_OCR_FULL, &r, &e) == 0 && r.max_threads >= 1, "thread probe counts /proc/self/task");
	amc_ocr_probe_threads(0);
	amc_ocr_result_free(&r);
	amc_uitree_free(&t);
	amc_image_free(&img);
}

/* A new thread creates its engine; with TESSDATA_PREFIX pointing at nothing the
 * English data cannot be found, as on a machine without tesseract-ocr-eng. */
static void *missing_worker(void *p)
{
	amc_err *e = p;
	amc_ocr_check(e);
	return NULL;
}

static void *observe_worker(void *p)
{
	int *res = p;
	amc_observation o;
	amc_err e;
	amc_observe_opts oo = { 0, AMC_OCR_GAPS };
	res[0] = amc_observe(dev, &oo, &o, &e);
	res[1] = o.ocr_json && !strcmp(o.ocr_json, "[]");
	res[2] = oo.ocr == AMC_OCR_OFF;
	res[3] = o.scene.count > 0;
	if (res[0] == 0)
		amc_observation_free(&o);
	return NULL;
}

/* The engine ended on demand (the MCP server's workers do, before shutdown
 * counts them done) and started again by the next use in the same thread. */
static void *thread_end_worker(void *p)
{
	int *res = p;
	amc_err e;
	res[0] = amc_ocr_check(&e);
	amc_ocr_thread_end();
	amc_ocr_thread_end(); /* a second end, with no engine: nothing to do */
	res[1] = amc_ocr_check(&e);
	amc_ocr_thread_end();
	return NULL;
}

static void test_thread_end(void)
{
	int res[2] = { -1, -1 };
	pthread_t t;
	pthread_create(&t, NULL, thread_end_worker, res);
	pthread_join(t, NULL);
	ok(res[0] == 0 && res[1] == 0, "an engine ended by amc_ocr_thread_end starts again on the next use");
}

static void test_missing_data(void)
{
	setenv("TESSDATA_PREFIX", "/nonexistent/amc-test-tessdata", 1);
	amc_err e;
	amc_err_clear(&e);
	pthread_t th;
	pthread_create(&th, NULL, missing_worker, &e);
	pthread_join(th, NULL);
	is_int(e.code, AMC_EENV, "missing language data is an environment error");
	like(e.msg, "tesseract-ocr-eng", "the message names the Debian package");
	int res[4] = { -1, 0, 0, 0 };
	pthread_create(&th, NULL, observe_worker, res);
	pthread_join(th, NULL);
	is_int(res[0], 0, "the observation does not fail");
	ok(res[1], "it records no OCR words ([])");
	ok(res[2], "and OCR is off for this caller from then on");
	ok(res[3], "the scene still comes from the tree");
	unsetenv("TESSDATA_PREFIX");
}

int main(int argc, char **argv)
{
	/* As amc does (src/cli/main.c): OpenMP reads the limit only at load time. */
	if (!getenv("OMP_THREAD_LIMIT") && argc > 0) {
		setenv("OMP_THREAD_LIMIT", "1", 1);
		execv("/proc/self/exe", argv);
	}
	const char *home = test_home("ocr");
	amc_err e;
	amc_config *cfg = amc_config_new();
	if (amc_device_open("sim", home, cfg, &dev, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	test_filter();
	test_notes();
	test_button();
	test_cache();
	test_threads();
	test_thread_end();
	test_missing_data();
	amc_device_close(dev);
	amc_config_free(cfg);
	return done_testing();
}

/* test_retention.c - bounded history: by count and by age, never
 * an active task, rows and records and artifacts together, a file deleted only
 * when no remaining record names it, and a dry run that deletes nothing. */
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image/image.h"
#include "image/png.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/fsutil.h"

#define DAY (24LL * 3600 * 1000)

static amc_store *open_in(const char *base, const char *name)
{
	char home[PATH_MAX];
	snprintf(home, sizeof home, "%s/%s", base, name);
	amc_store *s = NULL;
	amc_err e = {0};
	if (amc_store_open(home, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		exit(1);
	}
	return s;
}

static void mk(amc_store *s, const char *id, const char *status, long long created_ms)
{
	amc_err e = {0};
	amc_task_row t = {.id = (char *)id, .kind = "flow", .status = (char *)status,
			  .created_ms = created_ms, .input_tokens = -1, .output_tokens = -1,
			  .cost_usd = -1, .source_attempt = -1};
	if (amc_store_create_task(s, &t, &e) != 0)
		diag("create %s: %s", id, e.msg);
}

/* Write an artifact of `size` bytes; returns its relpath (static rotation). */
static const char *put(amc_store *s, const char *id, const char *name, size_t size)
{
	static char bufs[16][128];
	static int k;
	char *rel = bufs[k++ & 15];
	char *data = calloc(1, size ? size : 1);
	amc_err e = {0};
	if (amc_store_put_artifact(s, id, name, data, size, rel, 128, &e) != 0)
		diag("put %s/%s: %s", id, name, e.msg);
	free(data);
	return rel;
}

static void step(amc_store *s, const char *id, int n, const char *before, const char *after, const char *tree)
{
	amc_err e = {0};
	amc_step_row r = {.task_id = (char *)id, .step = n, .tool = "tap", .status = "ok",
			  .before_screenshot = (char *)before, .after_screenshot = (char *)after,
			  .ui_tree_path = (char *)tree};
	if (amc_store_add_step(s, &r, &e) != 0)
		diag("step %s/%d: %s", id, n, e.msg);
}

static int exists(amc_store *s, const char *rel)
{
	char p[PATH_MAX];
	if (amc_store_artifact_abspath(s, rel, p, sizeof p, NULL) != 0)
		return 0;
	return amc_file_exists(p);
}

static int dir_exists(amc_store *s, const char *id)
{
	char p[2 * PATH_MAX]; /* a home of PATH_MAX and an id: no truncation warning */
	snprintf(p, sizeof p, "%s/artifacts/%s", amc_store_home(s), id);
	return amc_file_exists(p);
}

static long long q(amc_store *s, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;
	if (sqlite3_prepare_v2(amc_store_db(s), sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int has_task(amc_store *s, const char *id)
{
	amc_task_row t;
	if (amc_store_get_task(s, id, &t, NULL) != 0)
		return 0;
	amc_task_row_free(&t);
	return 1;
}

static const char T1[] = "8000000000000001", T2[] = "8000000000000002", T3[] = "8000000000000003",
		  T4[] = "8000000000000004", T5[] = "8000000000000005", T6[] = "8000000000000006";

static void test_by_count(const char *base)
{
	amc_store *s = open_in(base, "count");
	amc_err e = {0};
	long long now = amc_now_ms();
	/* T1 is the oldest and still running; keep=3 keeps T4..T6; T2, T3 go. */
	mk(s, T1, "running", now - 6000);
	mk(s, T2, "succeeded", now - 5000);
	mk(s, T3, "failed", now - 4000);
	mk(s, T4, "succeeded", now - 3000);
	mk(s, T5, "cancelled", now - 2000);
	mk(s, T6, "interrupted", now - 1000);

	const char *t1after = put(s, T1, "0001-after.png", 10);
	step(s, T1, 1, NULL, t1after, NULL);

	/* T2: step 1's after is step 2's before (a reused observation). */
	const char *t2before = put(s, T2, "0001-before.png", 100);
	const char *t2after = put(s, T2, "0001-after.png", 200);
	step(s, T2, 1, t2before, t2after, NULL);
	step(s, T2, 2, t2after, NULL, NULL);
	put(s, T2, "0003-after.png.tmp.123.1", 7); /* left by a crashed write */

	/* T3: files that kept rows still name must survive. */
	const char *shared = put(s, T3, "0001-after.png", 1000);
	const char *tree = put(s, T3, "0001.tree.json", 2000);
	const char *legacy = put(s, T3, "legacy.png", 3000);
	const char *t3own = put(s, T3, "0002-after.png", 400);
	const char *thumb = put(s, T3, "0002-after.thumb.png", 50); /* named by no row */
	/* the thumbnail of a screenshot a kept row names (store.h) */
	const char *sharedthumb = put(s, T3, "0001-after.thumb.png", 30);
	step(s, T3, 1, NULL, shared, tree);
	step(s, T3, 2, shared, t3own, NULL);
	/* T4 (kept) starts from T3's last-but-one screen and its tree. */
	step(s, T4, 1, shared, put(s, T4, "0001-after.png", 10), tree);
	/* T5 (kept) has a legacy record naming a T3 file only by screenshot_path. */
	char sql[256];
	snprintf(sql, sizeof sql, "INSERT INTO timeline (task_id, step, tool, screenshot_path) VALUES ('%s', 1, 'tap', '%s')",
		 T5, legacy);
	ok(sqlite3_exec(amc_store_db(s), sql, NULL, NULL, NULL) == SQLITE_OK, "a legacy record in a kept task");

	amc_retention_opts o = {.keep = 3, .max_age_days = 0, .dry_run = 1};
	amc_retention_report r = {0};
	ok(amc_store_retention(s, &o, &r, &e) == 0, "dry run: %s", e.msg);
	is_int(r.tasks, 2, "dry run: two tasks would go");
	is_int(r.steps, 4, "dry run: with four records");
	is_int(r.files, 5, "dry run: and five files");
	is_int(r.bytes, 100 + 200 + 7 + 400 + 50, "dry run: bytes");
	is_int(q(s, "SELECT count(*) FROM tasks"), 6, "dry run: no task row removed");
	is_int(q(s, "SELECT count(*) FROM timeline"), 7, "dry run: no record removed");
	ok(exists(s, t2before) && exists(s, t2after) && exists(s, t3own) && exists(s, thumb), "dry run: no file removed");

	amc_retention_report r2 = {0};
	o.dry_run = 0;
	long long secure = q(s, "PRAGMA secure_delete");
	ok(amc_store_retention(s, &o, &r2, &e) == 0, "retention keep=3: %s", e.msg);
	/* (retention lowers it to FAST for its own transaction only) */
	is_int(q(s, "PRAGMA secure_delete"), secure, "the connection's secure_delete is as it was");
	ok(r.unlink_us == 0, "a dry run unlinks nothing");
	r2.unlink_us = 0; /* the time the real run spent removing files */
	ok(!memcmp(&r, &r2, sizeof r), "the dry run reported exactly what the real run did");
	ok(!has_task(s, T2) && !has_task(s, T3), "T2 and T3 are gone");
	ok(has_task(s, T4) && has_task(s, T5) && has_task(s, T6), "the newest three stay");
	ok(has_task(s, T1), "the old running task is never removed");
	ok(exists(s, t1after), "nor its artifact");
	is_int(q(s, "SELECT count(*) FROM timeline WHERE task_id IN ('8000000000000002', '8000000000000003')"), 0,
	       "their records are gone");
	ok(!exists(s, t2before) && !exists(s, t2after), "T2's files are deleted");
	ok(!dir_exists(s, T2), "and its empty folder");
	ok(!exists(s, t3own), "T3's unshared screenshot is deleted");
	ok(!exists(s, thumb), "and a file in its folder that no record names");
	ok(exists(s, shared), "a file a kept record names as before_screenshot survives");
	ok(exists(s, sharedthumb), "and so does its thumbnail, which no record names");
	ok(exists(s, tree), "a file a kept record names as ui_tree_path survives");
	ok(exists(s, legacy), "a file a kept legacy record names as screenshot_path survives");
	ok(dir_exists(s, T3), "so T3's folder stays");

	amc_step_row *rows;
	size_t n;
	ok(amc_store_get_steps(s, T4, &rows, &n, &e) == 0 && n == 1, "T4's record reads");
	if (n == 1)
		ok(exists(s, rows[0].before_screenshot), "and its before image is there");
	amc_step_rows_free(rows, n);

	amc_retention_report r3 = {0};
	ok(amc_store_retention(s, &o, &r3, &e) == 0, "a second pass");
	ok(r3.tasks == 0 && r3.steps == 0 && r3.files == 0 && r3.bytes == 0, "finds nothing to do");
	amc_store_close(s);
}

static void test_by_age(const char *base)
{
	amc_store *s = open_in(base, "age");
	amc_err e = {0};
	long long now = amc_now_ms();
	const char *O1 = "9000000000000001", *O2 = "9000000000000002", *O3 = "9000000000000003",
		   *O4 = "9000000000000004", *N1 = "9000000000000005", *N2 = "9000000000000006";
	mk(s, O1, "succeeded", now - 40 * DAY);
	mk(s, O2, "failed", now - 31 * DAY);
	mk(s, O3, "queued", now - 100 * DAY);
	mk(s, O4, "waiting_user", now - 100 * DAY);
	mk(s, N1, "succeeded", now - 29 * DAY);
	mk(s, N2, "succeeded", now);
	const char *o1 = put(s, O1, "0001-after.png", 64);
	step(s, O1, 1, NULL, o1, NULL);
	const char *o3 = put(s, O3, "0001-after.png", 64);
	step(s, O3, 1, NULL, o3, NULL);

	amc_retention_opts o = {.keep = 0, .max_age_days = 30};
	amc_retention_report r = {0};
	ok(amc_store_retention(s, &o, &r, &e) == 0, "retention max_age=30 days: %s", e.msg);
	is_int(r.tasks, 2, "two old finished tasks removed");
	is_int(r.steps, 1, "with their one record");
	is_int(r.files, 1, "and one file");
	is_int(r.bytes, 64, "of 64 bytes");
	ok(!has_task(s, O1) && !has_task(s, O2), "O1 and O2 are gone");
	ok(!exists(s, o1) && !dir_exists(s, O1), "with O1's artifacts");
	ok(has_task(s, O3) && exists(s, o3), "an old queued task stays, with its files");
	ok(has_task(s, O4), "an old waiting_user task stays");
	ok(has_task(s, N1) && has_task(s, N2), "tasks younger than 30 days stay");

	o = (amc_retention_opts){.keep = 1};
	ok(amc_store_retention(s, &o, &r, &e) == 0, "then keep=1");
	is_int(r.tasks, 1, "removes N1 only: the active ones are not counted out");
	ok(has_task(s, N2) && !has_task(s, N1), "the newest stays");

	/* Retention runs at every start-up: with nothing due it must not write, or
	 * every amc command would wake every open TUI (data_version). */
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/amc.db", amc_store_home(s));
	sqlite3 *other;
	sqlite3_open(path, &other);
	sqlite3_stmt *dv;
	sqlite3_prepare_v2(other, "PRAGMA data_version", -1, &dv, NULL);
	sqlite3_step(dv);
	long long v1 = sqlite3_column_int64(dv, 0);
	sqlite3_reset(dv);
	o = (amc_retention_opts){.keep = 1000, .max_age_days = 30};
	ok(amc_store_retention(s, &o, &r, &e) == 0 && r.tasks == 0, "defaults with nothing due: nothing removed");
	sqlite3_step(dv);
	is_int(sqlite3_column_int64(dv, 0), v1, "and nothing written (data_version unchanged)");
	sqlite3_finalize(dv);
	sqlite3_close(other);

	o = (amc_retention_opts){0};
	ok(amc_store_retention(s, &o, &r, &e) == 0 && r.tasks == 0, "no limits: nothing removed");
	ok(amc_store_retention(s, NULL, NULL, &e) == 0, "NULL options and report are fine");
	is_int(q(s, "SELECT count(*) FROM tasks"), 3, "three tasks remain");
	amc_store_close(s);
}

/* Thumbnail names and the thumbnail writer (store.h). */
static void test_thumbnail(const char *base)
{
	char out[64];
	ok(amc_store_thumb_path("artifacts/x/obs-0001.png", out, sizeof out) == 0 &&
	   !strcmp(out, "artifacts/x/obs-0001.thumb.png"), "thumb path: %s", out);
	ok(amc_store_thumb_path("artifacts/x/obs-0001.thumb.png", out, sizeof out) != 0, "no thumbnail of a thumbnail");
	ok(amc_store_thumb_path("artifacts/x/tree.json", out, sizeof out) != 0, "nor of a non-PNG");
	ok(amc_store_thumb_path(".png", out, sizeof out) != 0 || !strcmp(out, ".thumb.png"), "a bare extension");
	ok(amc_store_thumb_path("artifacts/x/obs-0001.png", out, 20) != 0, "too small a buffer is refused");
	amc_store *s = open_in(base, "thumb");
	amc_err e = {0};
	amc_image img = {0};
	ok(amc_image_alloc(&img, 1080, 2400, &e) == 0, "a 1080x2400 capture");
	ok(amc_store_put_thumbnail(s, T1, "obs-0001.png", &img, &e) == 0, "put thumbnail: %s", e.msg);
	amc_image_free(&img);
	char abs[PATH_MAX];
	amc_image th = {0};
	ok(amc_store_artifact_abspath(s, "artifacts/8000000000000001/obs-0001.thumb.png", abs, sizeof abs, &e) == 0 &&
	   amc_png_decode_file(abs, &th, &e) == 0, "it is written beside the screenshot's name");
	ok(th.w == 216 && th.h == AMC_STORE_THUMB_SIDE, "fitted to %d px, aspect kept (%dx%d)", AMC_STORE_THUMB_SIDE, th.w, th.h);
	amc_image_free(&th);
	ok(amc_store_put_thumbnail(s, T1, "tree.json", &img, &e) != 0, "refused for a non-PNG name");
	amc_store_close(s);
}

/* A frame stored once for two tasks (amc_store_put_frame): an unchanged frame
 * is not written again, a second task's record names the first task's file,
 * and retention of the first task keeps that file (and its thumbnail) while
 * removing what only the first task named. */
static void test_shared_frames(const char *base)
{
	amc_store *s = open_in(base, "frames");
	amc_err e = {0};
	mk(s, "f1aaaaaaaaaaaaaa", "succeeded", 1000);
	mk(s, "f2bbbbbbbbbbbbbb", "succeeded", 2000);
	char a[128], b[128], c[128], d[128];
	unsigned char frame[300], other[300];
	for (int i = 0; i < 300; i++) {
		frame[i] = (unsigned char)i;
		other[i] = (unsigned char)(i * 3);
	}
	put(s, "f1aaaaaaaaaaaaaa", "obs-0001.thumb.png", 20);
	put(s, "f1aaaaaaaaaaaaaa", "obs-0002.thumb.png", 20);
	ok(amc_store_put_frame(s, "f1aaaaaaaaaaaaaa", "obs-0001.png", frame, sizeof frame, a, sizeof a, &e) == 0,
	   "first frame stored");
	ok(amc_store_put_frame(s, "f1aaaaaaaaaaaaaa", "obs-0002.png", other, sizeof other, b, sizeof b, &e) == 0 &&
		   strcmp(a, b),
	   "a changed frame gets its own file");
	ok(amc_store_put_frame(s, "f1aaaaaaaaaaaaaa", "obs-0003.png", other, sizeof other, c, sizeof c, &e) == 0 &&
		   !strcmp(b, c),
	   "an unchanged frame is stored once (%s)", c);
	ok(!exists(s, "artifacts/f1aaaaaaaaaaaaaa/obs-0003.png"), "no second file");
	step(s, "f1aaaaaaaaaaaaaa", 1, a, b, NULL);
	step(s, "f1aaaaaaaaaaaaaa", 2, b, c, NULL);
	/* the second task starts on the same screen */
	put(s, "f2bbbbbbbbbbbbbb", "obs-0001.thumb.png", 20);
	ok(amc_store_put_frame(s, "f2bbbbbbbbbbbbbb", "obs-0001.png", other, sizeof other, d, sizeof d, &e) == 0 &&
		   !strcmp(d, b),
	   "another task's unchanged frame names the first task's file (%s)", d);
	ok(!exists(s, "artifacts/f2bbbbbbbbbbbbbb/obs-0001.thumb.png"), "and its own thumbnail went");
	step(s, "f2bbbbbbbbbbbbbb", 1, d, d, NULL);
	amc_retention_opts o = {1, 0, 0};
	amc_retention_report r = {0};
	ok(amc_store_retention(s, &o, &r, &e) == 0 && r.tasks == 1, "retention removes the first task: %s", e.msg);
	ok(exists(s, b), "the shared frame survives");
	ok(exists(s, "artifacts/f1aaaaaaaaaaaaaa/obs-0002.thumb.png"), "with its thumbnail");
	ok(!exists(s, a), "the frame only the removed task named is gone");
	ok(!exists(s, "artifacts/f1aaaaaaaaaaaaaa/obs-0001.thumb.png"), "and its thumbnail");
	ok(dir_exists(s, "f1aaaaaaaaaaaaaa"), "the removed task's folder stays for the shared frame");

	/* Two tasks running side by side: the older one (f4) recorded a frame
	 * the newer one (f3) stored first. Removing f4 must not take f3's file. */
	mk(s, "f4dddddddddddddd", "succeeded", 3000);
	mk(s, "f3cccccccccccccc", "succeeded", 4000);
	unsigned char third[300];
	for (int i = 0; i < 300; i++)
		third[i] = (unsigned char)(i * 7);
	char f3[128], f4[128];
	ok(amc_store_put_frame(s, "f3cccccccccccccc", "obs-0001.png", third, sizeof third, f3, sizeof f3, &e) == 0 &&
		   amc_store_put_frame(s, "f4dddddddddddddd", "obs-0001.png", third, sizeof third, f4, sizeof f4, &e) == 0 &&
		   !strcmp(f3, f4),
	   "the older task's record names the newer task's file (%s)", f4);
	step(s, "f3cccccccccccccc", 1, NULL, f3, NULL);
	step(s, "f4dddddddddddddd", 1, NULL, f4, NULL);
	/* keep=1 keeps f3; f2 (whose row names f1's shared frame) and f4 go */
	o.keep = 1;
	amc_retention_report dry = {0};
	o.dry_run = 1;
	ok(amc_store_retention(s, &o, &dry, &e) == 0 && dry.tasks == 2, "dry run: f2 and f4 would go: %s", e.msg);
	o.dry_run = 0;
	ok(amc_store_retention(s, &o, &r, &e) == 0 && r.tasks == 2, "retention removes f2 and f4: %s", e.msg);
	ok(has_task(s, "f3cccccccccccccc") && exists(s, f3), "a kept task's file a removed task named survives");
	/* f1 went earlier and left its shared frame for f2: now nothing names
	 * it, so it goes with its thumbnail and f1's folder */
	ok(!exists(s, b), "a shared frame goes once the last task naming it goes");
	ok(!exists(s, "artifacts/f1aaaaaaaaaaaaaa/obs-0002.thumb.png"), "with its thumbnail");
	ok(!dir_exists(s, "f1aaaaaaaaaaaaaa"), "and the folder it kept");
	ok(!dir_exists(s, "f2bbbbbbbbbbbbbb") && !dir_exists(s, "f4dddddddddddddd"), "the removed tasks' folders are gone");
	is_int(r.files, 2, "two files removed (the shared frame and its thumbnail)");
	is_int(r.bytes, 300 + 20, "of 320 bytes");
	dry.unlink_us = r.unlink_us = 0;
	ok(!memcmp(&dry, &r, sizeof r), "the dry run reported exactly that");
	is_int(q(s, "SELECT count(*) FROM artifact_xrefs WHERE task_id != 'f3cccccccccccccc'"), 0,
	       "no reference of a removed task is left");
	amc_store_close(s);
}

/* A screen come back to is stored once too (every task starts on the
 * launcher): put_frame compares with the last AMC_STORE_SEEN_FRAMES frames,
 * byte for byte against their files, so a file changed or gone since is
 * never named. */
static void test_seen_frames(const char *base)
{
	amc_store *s = open_in(base, "seen");
	amc_err e = {0};
	const char *T = "g1aaaaaaaaaaaaaa";
	mk(s, T, "running", 1000);
	unsigned char fa[500], fb[500];
	for (int i = 0; i < 500; i++) {
		fa[i] = (unsigned char)(i * 5);
		fb[i] = (unsigned char)(i * 11 + 1);
	}
	char a[128], b[128], c[128], d[128], abs[PATH_MAX];
	ok(amc_store_put_frame(s, T, "obs-0001.png", fa, sizeof fa, a, sizeof a, &e) == 0 &&
		   amc_store_put_frame(s, T, "obs-0002.png", fb, sizeof fb, b, sizeof b, &e) == 0 && strcmp(a, b),
	   "two screens, two files");
	ok(amc_store_put_frame(s, T, "obs-0003.png", fa, sizeof fa, c, sizeof c, &e) == 0 && !strcmp(c, a),
	   "the first screen come back to names its file (%s)", c);
	ok(!exists(s, "artifacts/g1aaaaaaaaaaaaaa/obs-0003.png"), "no file written for it");
	/* the earlier file changed on disk (same length): never named */
	unsigned char changed[500];
	memcpy(changed, fa, sizeof changed);
	changed[250] ^= 1;
	ok(amc_store_artifact_abspath(s, a, abs, sizeof abs, &e) == 0 &&
		   amc_write_atomic(abs, changed, sizeof changed, 0600, &e) == 0,
	   "the first file changed behind the store's back");
	ok(amc_store_put_frame(s, T, "obs-0004.png", fa, sizeof fa, d, sizeof d, &e) == 0 &&
		   !strcmp(d, "artifacts/g1aaaaaaaaaaaaaa/obs-0004.png") && exists(s, d),
	   "a frame equal to what the changed file held is written anew (%s)", d);
	/* the earlier file gone (a step that could not be recorded) */
	ok(amc_store_artifact_abspath(s, b, abs, sizeof abs, &e) == 0 && unlink(abs) == 0, "the second file removed");
	ok(amc_store_put_frame(s, T, "obs-0005.png", fb, sizeof fb, d, sizeof d, &e) == 0 &&
		   !strcmp(d, "artifacts/g1aaaaaaaaaaaaaa/obs-0005.png") && exists(s, d),
	   "its frame is written anew (%s)", d);
	/* bounded: a frame more than AMC_STORE_SEEN_FRAMES frames back is
	 * written again */
	int all = 1;
	for (int k = 0; k < 40; k++) {
		unsigned char f[500];
		char name[32], rel[128];
		for (int i = 0; i < 500; i++)
			f[i] = (unsigned char)(i + k * 7 + 3);
		snprintf(name, sizeof name, "obs-%04d.png", 100 + k);
		all &= amc_store_put_frame(s, T, name, f, sizeof f, rel, sizeof rel, &e) == 0;
	}
	ok(all, "40 more screens stored");
	ok(amc_store_put_frame(s, T, "obs-0200.png", fb, sizeof fb, d, sizeof d, &e) == 0 &&
		   !strcmp(d, "artifacts/g1aaaaaaaaaaaaaa/obs-0200.png"),
	   "a screen 40 frames back is written again (%s)", d);
	amc_store_close(s);
}

/* Enough removed folders that the sweep runs on several threads
 * (retention.c): every file and folder goes, each counted once, but a frame a
 * kept task names; and a removed task's folder that is a link is not
 * followed, so what it points at survives. */
static void test_many(const char *base)
{
	amc_store *s = open_in(base, "many");
	amc_err e = {0};
	enum { N = 300, KEEP = 20 };
	char ids[N][17], shared[128] = "";
	for (int i = 0; i < N; i++) {
		snprintf(ids[i], sizeof ids[i], "m%015d", i);
		mk(s, ids[i], "succeeded", 1000 + i);
		const char *shot = put(s, ids[i], "obs-0001.png", 40);
		if (i == 7)
			snprintf(shared, sizeof shared, "%s", shot);
		/* the newest task starts from the 8th task's frame */
		step(s, ids[i], 1, i == N - 1 ? shared : NULL, shot, put(s, ids[i], "obs-0001-tree.json", 2));
	}
	/* task 3's folder replaced by a link to a folder outside artifacts/ */
	char outside[PATH_MAX + 32], victim[PATH_MAX + 32], bait[PATH_MAX + 48];
	snprintf(outside, sizeof outside, "%s/outside", amc_store_home(s));
	snprintf(bait, sizeof bait, "%s/keep-me.png", outside);
	snprintf(victim, sizeof victim, "%s/artifacts/%s", amc_store_home(s), ids[3]);
	char rm[6 * PATH_MAX];
	snprintf(rm, sizeof rm, "rm -rf '%s' && mkdir '%s' && echo x > '%s' && ln -s '%s' '%s'", victim, outside, bait,
		 outside, victim);
	ok(system(rm) == 0, "task 3's folder is a link to a folder outside artifacts/");
	amc_retention_opts o = {.keep = KEEP};
	amc_retention_report r;
	ok(amc_store_retention(s, &o, &r, &e) == 0, "retention of %d tasks: %s", N - KEEP, e.msg);
	ok(r.tasks == N - KEEP, "%ld tasks removed", r.tasks);
	/* two files a removed folder, less the shared frame and the link's two */
	long files = 2L * (N - KEEP) - 1 - 2;
	ok(r.files == files, "%ld files removed (want %ld)", r.files, files);
	ok(r.bytes == 40LL * (N - KEEP - 2) + 2LL * (N - KEEP - 1), "%lld bytes", r.bytes);
	int left = 0;
	for (int i = 0; i < N - KEEP; i++)
		left += i != 3 && dir_exists(s, ids[i]);
	ok(left == 1 && dir_exists(s, ids[7]), "of the removed folders only the shared frame's stays (%d)", left);
	ok(exists(s, shared), "the frame a kept task names survives");
	ok(amc_file_exists(bait), "a file behind a linked task folder survives");
	int kept = 0;
	for (int i = N - KEEP; i < N; i++)
		kept += dir_exists(s, ids[i]) && has_task(s, ids[i]);
	ok(kept == KEEP, "the kept tasks and their folders stay (%d)", kept);
	amc_store_close(s);
}

int main(void)
{
	const char *base = test_home("retention");
	test_thumbnail(base);
	test_by_count(base);
	test_by_age(base);
	test_shared_frames(base);
	test_seen_frames(base);
	test_many(base);
	return done_testing();
}

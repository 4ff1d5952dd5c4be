/* artifacts.c - files beside the database: $AMC_HOME/artifacts/<task-id>/<name>.
 * Written complete-or-absent (temp name + rename), files 0600, folders 0700.
 * Rows store the path relative to $AMC_HOME; a reused observation is one file
 * whose one path string appears in two rows. */
#include "storage/store.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "image/image.h"
#include "image/png.h"
#include "storage/store_int.h"
#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define NAME_MAX_LEN 128

/* A file name we made (e.g. "0001-after.png"): no folders, no hidden files,
 * nothing a shell or a terminal would read specially. */
static int name_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n == 0 || n > NAME_MAX_LEN || name[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '-' || c == '_'))
			return 0;
	}
	return 1;
}

/* A 64-bit hash of a file's bytes, eight at a time: it only picks the
 * candidates whose bytes are then compared. */
static uint64_t bytes_hash(const unsigned char *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/* 1 when the file at `abs` holds exactly `len` bytes equal to `data`. */
static int file_equals(const char *abs, const unsigned char *data, size_t len)
{
	int fd = open(abs, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat st;
	int same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == len;
	unsigned char buf[16384];
	for (size_t at = 0; same && at < len;) {
		ssize_t n = read(fd, buf, len - at < sizeof buf ? len - at : sizeof buf);
		if (n <= 0 || memcmp(buf, data + at, (size_t)n) != 0)
			same = 0;
		else
			at += (size_t)n;
	}
	close(fd);
	return same;
}

/* Move slot i of the seen frames to the front (newest). */
static void seen_to_front(amc_store *s, int i)
{
	struct amc_seen_frame f = s->seen[i];
	memmove(s->seen + 1, s->seen, (size_t)i * sizeof *s->seen);
	s->seen[0] = f;
}

/* The stored frame equal to `data` among the recent ones: its path copied to
 * relpath and 1, or 0. Entries whose file changed or went (a step that could
 * not be recorded, retention) are forgotten. Call with png_mu held. */
static int seen_lookup(amc_store *s, uint64_t h, const unsigned char *data, size_t len, char *relpath,
		       size_t relpath_n)
{
	for (int i = 0; i < AMC_STORE_SEEN_FRAMES && s->seen[i].rel; i++) {
		struct amc_seen_frame *f = &s->seen[i];
		if (f->hash != h || f->len != len)
			continue;
		char abs[PATH_MAX];
		if (strlen(f->rel) < relpath_n && amc_path_join(abs, sizeof abs, s->home, f->rel) == 0 &&
		    file_equals(abs, data, len)) {
			memcpy(relpath, f->rel, strlen(f->rel) + 1);
			seen_to_front(s, i);
			return 1;
		}
		free(f->rel);
		memmove(f, f + 1, (size_t)(AMC_STORE_SEEN_FRAMES - 1 - i) * sizeof *f);
		s->seen[AMC_STORE_SEEN_FRAMES - 1].rel = NULL;
		i--;
	}
	return 0;
}

/* Note a frame just written as the newest seen, dropping the oldest. */
static void seen_add(amc_store *s, uint64_t h, size_t len, const char *rel)
{
	char *copy = strdup(rel);
	if (!copy)
		return;
	free(s->seen[AMC_STORE_SEEN_FRAMES - 1].rel);
	s->seen[AMC_STORE_SEEN_FRAMES - 1] = (struct amc_seen_frame){ h, len, copy };
	seen_to_front(s, AMC_STORE_SEEN_FRAMES - 1);
}

static int put_artifact(amc_store *s, const char *task_id, const char *name, const void *data, size_t len,
			char *relpath, size_t relpath_n, int dedupe, amc_err *e)
{
	if (!amc_store_id_ok(task_id)) {
		char *safe = amc_sanitize_dup(task_id ? task_id : "");
		amc_err_set(e, AMC_EUSAGE, "cannot store an artifact for '%s': not a task id", safe);
		free(safe);
		return -1;
	}
	if (!name_ok(name)) {
		char *safe = amc_sanitize_dup(name ? name : "");
		amc_err_set(e, AMC_EUSAGE, "bad artifact name '%s': use up to %d of [A-Za-z0-9._-], "
			    "not starting with '.'", safe, NAME_MAX_LEN);
		free(safe);
		return -1;
	}
	if (!data && len > 0)
		return amc_err_set(e, AMC_EUSAGE, "artifact %s of task %s has no data", name, task_id);
	char rel[PATH_MAX], dir[PATH_MAX], abs[PATH_MAX];
	int rl = snprintf(rel, sizeof rel, "artifacts/%s/%s", task_id, name);
	if (rl < 0 || (size_t)rl >= sizeof rel || !relpath || (size_t)rl >= relpath_n)
		return amc_err_set(e, AMC_EUSAGE, "no room for the artifact path artifacts/%s/%s",
				   task_id, name);
	int w = snprintf(dir, sizeof dir, "%s/artifacts/%s", s->home, task_id);
	if (w < 0 || (size_t)w >= sizeof dir || amc_path_join(abs, sizeof abs, s->home, rel) != 0)
		return amc_err_set(e, AMC_EENV, "artifact path too long under %s", s->home);
	/* A frame seen again is stored once: a screenshot equal byte for byte
	 * to one of the last ones this handle stored names that file (a row of
	 * another task that does is noted in artifact_xrefs, so retention keeps
	 * it), and the thumbnail written for this name, if any, goes (the kept
	 * file has its own). */
	size_t nl = strlen(name);
	int shot = dedupe && nl > 4 && !strcmp(name + nl - 4, ".png") &&
		   !(nl > 10 && !strcmp(name + nl - 10, ".thumb.png")) && data && len > 0;
	uint64_t h = shot ? bytes_hash(data, len) : 0;
	if (shot) {
		pthread_mutex_lock(&s->png_mu);
		int same = seen_lookup(s, h, data, len, relpath, relpath_n);
		pthread_mutex_unlock(&s->png_mu);
		if (same) {
			char thumb[PATH_MAX];
			if (amc_store_thumb_path(abs, thumb, sizeof thumb) == 0)
				(void)unlink(thumb);
			return 0;
		}
	}
	if (amc_mkdir_p(dir, 0700, e) != 0)
		return -1;
	if (amc_write_atomic(abs, data ? data : "", len, 0600, e) != 0)
		return -1;
	memcpy(relpath, rel, (size_t)rl + 1);
	if (shot) {
		pthread_mutex_lock(&s->png_mu);
		seen_add(s, h, len, rel);
		pthread_mutex_unlock(&s->png_mu);
	}
	return 0;
}

int amc_store_put_artifact(amc_store *s, const char *task_id, const char *name, const void *data, size_t len,
			   char *relpath, size_t relpath_n, amc_err *e)
{
	return put_artifact(s, task_id, name, data, len, relpath, relpath_n, 0, e);
}

int amc_store_put_frame(amc_store *s, const char *task_id, const char *name, const void *data, size_t len,
			char *relpath, size_t relpath_n, amc_err *e)
{
	return put_artifact(s, task_id, name, data, len, relpath, relpath_n, 1, e);
}

int amc_store_artifact_abspath(const amc_store *s, const char *relpath, char *out, size_t n,
			       amc_err *e)
{
	if (!amc_store_relpath_ok(relpath)) {
		char *safe = amc_sanitize_dup(relpath ? relpath : "");
		amc_err_set(e, AMC_EUSAGE, "refusing artifact path '%s': it must stay inside "
			    "artifacts/ under the amc home", safe);
		free(safe);
		return -1;
	}
	if (amc_path_join(out, n, s->home, relpath) != 0)
		return amc_err_set(e, AMC_EUSAGE, "artifact path too long: %s/%s", s->home, relpath);
	return 0;
}

int amc_store_thumb_path(const char *path, char *out, size_t n)
{
	static const char ext[] = ".png", thumb[] = ".thumb.png";
	size_t l = path ? strlen(path) : 0;
	if (l < sizeof ext || strcmp(path + l - (sizeof ext - 1), ext) != 0)
		return -1;
	if (l >= sizeof thumb - 1 && !strcmp(path + l - (sizeof thumb - 1), thumb))
		return -1;
	size_t stem = l - (sizeof ext - 1);
	if (stem + sizeof thumb > n)
		return -1;
	memcpy(out, path, stem);
	memcpy(out + stem, thumb, sizeof thumb);
	return 0;
}

/* `img` scaled to a thumbnail (*small) and encoded (*png, malloc'd). */
static int thumb_encode(const amc_image *img, amc_image *small, unsigned char **png, size_t *len, amc_err *e)
{
	*png = NULL;
	if (amc_image_scale_fit(img, AMC_STORE_THUMB_SIDE, AMC_STORE_THUMB_SIDE, small, e) != 0)
		return -1;
	if (amc_png_encode(small, AMC_PNG_CAPTURE_LEVEL, png, len, e) != 0) {
		amc_image_free(small);
		return -1;
	}
	return 0;
}

int amc_store_put_thumbnail(amc_store *s, const char *task_id, const char *name,
			    const amc_image *img, amc_err *e)
{
	char tname[NAME_MAX_LEN + 16], rel[PATH_MAX];
	if (amc_store_thumb_path(name, tname, sizeof tname) != 0)
		return amc_err_set(e, AMC_EUSAGE, "no thumbnail name for artifact %s", name ? name : "");
	amc_image small = { 0 };
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = thumb_encode(img, &small, &png, &len, e);
	amc_image_free(&small);
	if (rc == 0)
		rc = amc_store_put_artifact(s, task_id, tname, png, len, rel, sizeof rel, e);
	free(png);
	return rc;
}

int amc_store_thumb_current(const char *png_abspath, char *out, size_t n)
{
	struct stat ss, ts;
	if (amc_store_thumb_path(png_abspath, out, n) != 0 || stat(out, &ts) != 0 || stat(png_abspath, &ss) != 0)
		return 0;
	/* A tie counts as current: the runner and mkfixture write a thumbnail
	 * in the tick its capture was written in (file times move by the
	 * kernel's tick, a few ms). A capture rewritten within the tick its
	 * thumbnail was made in would keep the old one until it is written
	 * again; the device view rewrites its captures far apart. */
	return ts.st_mtim.tv_sec > ss.st_mtim.tv_sec ||
	       (ts.st_mtim.tv_sec == ss.st_mtim.tv_sec && ts.st_mtim.tv_nsec >= ss.st_mtim.tv_nsec);
}

int amc_store_thumb_get(const char *png_abspath, const amc_image *full, amc_image *out, int *made, amc_err *e)
{
	char tp[PATH_MAX];
	memset(out, 0, sizeof *out);
	if (made)
		*made = 0;
	if (amc_store_thumb_path(png_abspath, tp, sizeof tp) != 0)
		return amc_err_set(e, AMC_EUSAGE, "no thumbnail name for %s", png_abspath ? png_abspath : "");
	if (amc_store_thumb_current(png_abspath, tp, sizeof tp) && amc_png_decode_file(tp, out, e) == 0)
		return 0;
	amc_image dec = { 0 };
	if (!full && amc_png_decode_file(png_abspath, &dec, e) != 0)
		return -1;
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = thumb_encode(full ? full : &dec, out, &png, &len, e);
	amc_image_free(&dec);
	if (rc != 0)
		return -1;
	/* The folder is there (the screenshot is): never made here, so a
	 * folder retention just removed is not brought back. */
	amc_err we;
	if (amc_write_atomic(tp, png, len, 0600, &we) == 0 && made)
		*made = 1;
	free(png);
	return 0;
}

int amc_store_sweep_tmp(amc_store *s, const char *task_id)
{
	char dir[PATH_MAX];
	if (!amc_store_id_ok(task_id) ||
	    snprintf(dir, sizeof dir, "%s/artifacts/%s", s->home, task_id) >= (int)sizeof dir)
		return 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char p[PATH_MAX];
		if (de->d_name[0] == '.' || !strstr(de->d_name, ".tmp.") ||
		    snprintf(p, sizeof p, "%s/%s", dir, de->d_name) >= (int)sizeof p)
			continue;
		if (unlink(p) == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* 1 when artifact file `name` of the task is named by a row (or is the
 * thumbnail of a named one). `named` holds the rows' paths' last parts. */
static int is_named(const char *name, char **named, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char thumb[PATH_MAX];
		if (!strcmp(named[i], name) ||
		    (amc_store_thumb_path(named[i], thumb, sizeof thumb) == 0 && !strcmp(thumb, name)))
			return 1;
	}
	return 0;
}

int amc_store_free_unrecorded(amc_store *s, const char *task_id, amc_err *e)
{
	char dir[PATH_MAX];
	if (!amc_store_id_ok(task_id) ||
	    snprintf(dir, sizeof dir, "%s/artifacts/%s", s->home, task_id) >= (int)sizeof dir)
		return amc_err_set(e, AMC_EUSAGE, "not a task id");
	sqlite3_stmt *st;
	if (amc_store_prepare(s, "SELECT screenshot_path, before_screenshot, after_screenshot, ui_tree_path "
				 "FROM timeline WHERE task_id = ?1", &st, e) != 0)
		return -1;
	sqlite3_bind_text(st, 1, task_id, -1, SQLITE_STATIC);
	char **named = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int c = 0; c < 4; c++) {
			const char *p = (const char *)sqlite3_column_text(st, c);
			if (!p || !*p)
				continue;
			const char *base = strrchr(p, '/');
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				named = amc_xrealloc(named, cap * sizeof *named);
			}
			named[n++] = amc_xstrdup(base ? base + 1 : p);
		}
	}
	sqlite3_finalize(st);
	int gone = -1;
	if (rc != SQLITE_DONE) {
		amc_store_sql_error(s, e, "read the task's artifact paths");
	} else {
		gone = 0;
		DIR *d = opendir(dir);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			char p[PATH_MAX];
			/* the flow's stored source (sources.h) is the task's, not a step's */
			if (de->d_name[0] == '.' || is_named(de->d_name, named, n) || !strncmp(de->d_name, "source", 6) ||
			    snprintf(p, sizeof p, "%s/%s", dir, de->d_name) >= (int)sizeof p)
				continue;
			if (unlink(p) == 0)
				gone++;
		}
		if (d)
			closedir(d);
	}
	for (size_t i = 0; i < n; i++)
		free(named[i]);
	free(named);
	return gone;
}

int amc_store_step_file(const char *result_json, const char *key, char *out, size_t n)
{
	if (!result_json || !strstr(result_json, "artifacts/"))
		return -1; /* most steps: no parse */
	cJSON *j = cJSON_Parse(result_json);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
	int rc = -1;
	if (cJSON_IsString(v) && !strncmp(v->valuestring, "artifacts/", 10) && !strstr(v->valuestring, "..") &&
	    strlen(v->valuestring) < n) {
		snprintf(out, n, "%s", v->valuestring);
		rc = 0;
	}
	cJSON_Delete(j);
	return rc;
}

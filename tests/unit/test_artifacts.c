/* test_artifacts.c - artifact files: written complete-or-absent, 0600 in 0700
 * folders, named relative to $AMC_HOME, and no path that escapes artifacts/. */
#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "storage/store.h"
#include "tap.h"
#include "testutil.h"
#include "util/fsutil.h"

static const char ID[] = "7000000000000001";

static int mode_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
}

static int count_entries(const char *dir, int *tmp)
{
	DIR *d = opendir(dir);
	int n = 0;
	*tmp = 0;
	if (!d)
		return -1;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		if (strstr(de->d_name, ".tmp"))
			(*tmp)++;
	}
	closedir(d);
	return n;
}

static void test_put(amc_store *s, const char *home)
{
	amc_err e = {0};
	umask(022);
	size_t len = 3 * 1024 * 1024 + 17;
	unsigned char *data = malloc(len);
	for (size_t i = 0; i < len; i++)
		data[i] = (unsigned char)(i * 31 + 7);
	char rel[256];
	ok(amc_store_put_artifact(s, ID, "0001-after.png", data, len, rel, sizeof rel, &e) == 0,
	   "put a 3 MB artifact: %s", e.msg);
	is_str(rel, "artifacts/7000000000000001/0001-after.png", "its path is relative to the home");

	char abs[PATH_MAX];
	ok(amc_store_artifact_abspath(s, rel, abs, sizeof abs, &e) == 0, "abspath of it");
	char want[PATH_MAX + 64];
	snprintf(want, sizeof want, "%s/%s", home, rel);
	is_str(abs, want, "is home + relpath");
	char *back = NULL;
	size_t blen = 0;
	ok(amc_read_file(abs, len + 1, &back, &blen, &e) == 0, "read it back");
	ok(blen == len && back && !memcmp(back, data, len), "complete, byte for byte");
	free(back);
	is_int(mode_of(abs), 0600, "file mode 0600");
	char dir[PATH_MAX + 32];
	snprintf(dir, sizeof dir, "%s/artifacts", home);
	is_int(mode_of(dir), 0700, "artifacts/ is 0700");
	snprintf(dir, sizeof dir, "%s/artifacts/%s", home, ID);
	is_int(mode_of(dir), 0700, "artifacts/<task>/ is 0700");
	int tmp;
	is_int(count_entries(dir, &tmp), 1, "one file in the folder");
	is_int(tmp, 0, "no temp file left behind");

	/* Rewriting a name replaces it whole. */
	ok(amc_store_put_artifact(s, ID, "0001-after.png", "short", 5, rel, sizeof rel, &e) == 0, "overwrite");
	back = NULL;
	ok(amc_read_file(abs, len, &back, &blen, &e) == 0 && blen == 5 && !memcmp(back, "short", 5),
	   "the new content, not a mix");
	free(back);
	ok(amc_store_put_artifact(s, ID, "empty.json", NULL, 0, rel, sizeof rel, &e) == 0, "an empty artifact");
	is_int(count_entries(dir, &tmp), 2, "two files");
	is_int(tmp, 0, "still no temp file");
	free(data);
}

static void test_put_refuses(amc_store *s, const char *home)
{
	amc_err e = {0};
	char rel[256];
	const char *names[] = {"../escape.png", "a/b.png", ".hidden", "", "x\ny", "sp ace.png", NULL};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		e.code = 0;
		ok(amc_store_put_artifact(s, ID, names[i], "x", 1, rel, sizeof rel, &e) != 0 && e.code == AMC_EUSAGE,
		   "name #%zu refused", i);
	}
	const char *ids[] = {"..", "../../tmp/aaaaaa", "7000000000000/01", "700000000000000", NULL};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		e.code = 0;
		ok(amc_store_put_artifact(s, ids[i], "a.png", "x", 1, rel, sizeof rel, &e) != 0 && e.code == AMC_EUSAGE,
		   "task id #%zu refused", i);
	}
	char small[20];
	ok(amc_store_put_artifact(s, "7000000000000002", "a.png", "x", 1, small, sizeof small, &e) != 0,
	   "a relpath buffer too small is an error");
	char dir[PATH_MAX + 64];
	snprintf(dir, sizeof dir, "%s/artifacts/7000000000000002/a.png", home);
	ok(!amc_file_exists(dir), "and nothing was written");
	char esc[PATH_MAX + 32];
	snprintf(esc, sizeof esc, "%s/escape.png", home);
	ok(!amc_file_exists(esc), "no file escaped the artifacts folder");
}

static void test_abspath(amc_store *s)
{
	amc_err e = {0};
	char out[PATH_MAX];
	const char *bad[] = {"../x", "/etc/passwd", "artifacts/../amc.db", "artifacts/x/../../amc.db",
			     "artifacts/..", "artifacts", "artifacts/", "artifacts/x", "artifacts//x",
			     "artifacts/x/./y", "./artifacts/x/y", "amc.db", "", "artifacts/x/\x01y", NULL};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		e.code = 0;
		ok(amc_store_artifact_abspath(s, bad[i], out, sizeof out, &e) != 0 && e.code == AMC_EUSAGE,
		   "abspath refuses #%zu '%s'", i, bad[i] ? bad[i] : "(null)");
	}
	ok(amc_store_artifact_abspath(s, "artifacts/7000000000000001/x.png", out, sizeof out, &e) == 0,
	   "a clean path is accepted");
	char tiny[8];
	ok(amc_store_artifact_abspath(s, "artifacts/7000000000000001/x.png", tiny, sizeof tiny, &e) != 0,
	   "an output buffer too small is an error");
}

/* A reader racing a writer never sees a partial file: every read is one whole
 * version (all 'A' or all 'B', full length). */
static void test_atomic_race(amc_store *s)
{
	amc_err e = {0};
	enum { LEN = 1 << 20, ROUNDS = 40 };
	char *a = malloc(LEN), *b = malloc(LEN);
	memset(a, 'A', LEN);
	memset(b, 'B', LEN);
	char rel[256], abs[PATH_MAX];
	amc_store_put_artifact(s, ID, "race.png", a, LEN, rel, sizeof rel, &e);
	amc_store_artifact_abspath(s, rel, abs, sizeof abs, &e);
	int pfd[2];
	if (pipe(pfd) != 0) {
		ok(0, "pipe");
		return;
	}
	pid_t child = fork();
	if (child == 0) {
		close(pfd[1]);
		int bad = 0, reads = 0;
		char c;
		/* Read until the parent closes the pipe. */
		for (;;) {
			struct timeval tv = {0, 0};
			fd_set fs;
			FD_ZERO(&fs);
			FD_SET(pfd[0], &fs);
			if (select(pfd[0] + 1, &fs, NULL, NULL, &tv) > 0 && read(pfd[0], &c, 1) <= 0)
				break;
			char *buf = NULL;
			size_t n = 0;
			if (amc_read_file(abs, LEN, &buf, &n, NULL) == 0) {
				reads++;
				if (n != LEN || (buf[0] != 'A' && buf[0] != 'B') || memchr(buf, buf[0] == 'A' ? 'B' : 'A', n))
					bad++;
			} else {
				bad++; /* the name must always exist */
			}
			free(buf);
		}
		_exit(bad ? 1 : (reads ? 0 : 2));
	}
	close(pfd[0]);
	int fails = 0;
	for (int i = 0; i < ROUNDS; i++)
		fails += amc_store_put_artifact(s, ID, "race.png", (i & 1) ? a : b, LEN, rel, sizeof rel, &e) != 0;
	close(pfd[1]);
	int status = 0;
	waitpid(child, &status, 0);
	is_int(fails, 0, "%d rewrites while a reader reads", ROUNDS);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the reader only ever saw whole files (exit %d)",
	   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	free(a);
	free(b);
}

/* Disk full: the files of a step that was never recorded go, the recorded
 * step's files (and a recorded screenshot's thumbnail) stay. */
static void test_free_unrecorded(amc_store *s, const char *home)
{
	static const char TID[] = "7000000000000009";
	amc_err e = {0};
	amc_task_row t = { 0 };
	t.id = (char *)TID;
	t.kind = "flow";
	t.planner = "flow";
	t.device = "sim:0";
	t.status = "running";
	t.created_ms = 1;
	t.source_attempt = -1;
	t.input_tokens = t.output_tokens = -1;
	t.cost_usd = -1;
	ok(amc_store_create_task(s, &t, &e) == 0, "a task for the disk-full case: %s", e.code ? e.msg : "");
	const char *names[] = { "obs-0001.png", "obs-0001.thumb.png", "obs-0001-tree.json",
				"obs-0002.png", "obs-0002.thumb.png" };
	char rel[256];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		amc_store_put_artifact(s, TID, names[i], "x", 1, rel, sizeof rel, &e);
	amc_step_row r = { 0 };
	r.task_id = (char *)TID;
	r.step = 1;
	r.tool = "tap";
	r.status = "ok";
	r.before_screenshot = "artifacts/7000000000000009/obs-0001.png";
	r.after_screenshot = r.before_screenshot;
	r.ui_tree_path = "artifacts/7000000000000009/obs-0001-tree.json";
	r.ocr = "[]";
	r.started_ms = r.finished_ms = 2;
	ok(amc_store_add_step(s, &r, &e) == 0, "one recorded step: %s", e.code ? e.msg : "");
	is_int(amc_store_free_unrecorded(s, TID, &e), 2, "the unrecorded step's screenshot and thumbnail go");
	char dir[PATH_MAX + 64]; /* home is up to PATH_MAX: room for the rest */
	snprintf(dir, sizeof dir, "%s/artifacts/%s", home, TID);
	int tmp;
	is_int(count_entries(dir, &tmp), 3, "the recorded step's screenshot, thumbnail and tree stay");
	ok(amc_store_free_unrecorded(s, "../x", &e) < 0, "a bad task id is refused");
}

int main(void)
{
	const char *home = test_home("artifacts");
	amc_store *s = NULL;
	amc_err e = {0};
	if (amc_store_open(home, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	test_put(s, home);
	test_put_refuses(s, home);
	test_abspath(s);
	test_atomic_race(s);
	test_free_unrecorded(s, home);
	amc_store_close(s);
	return done_testing();
}

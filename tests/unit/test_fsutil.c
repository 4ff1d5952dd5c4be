/* test_fsutil.c - mkdir_p, write_atomic, read_file/read_fd, path_join, rm_rf. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

/* snprintf for paths; a path that does not fit is a test failure. */
static mode_t mode_of(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return (mode_t)-1;
	return st.st_mode & 07777;
}

/* Number of entries in a folder (without . and ..); names of the extra ones diagnosed. */
static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
	}
	closedir(d);
	return n;
}

static int has_tmp_entry(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int found = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (strstr(de->d_name, ".tmp")) {
			diag("left over: %s", de->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char m[] = "Bail out! amc_read_file blocked on a FIFO\n";
	(void)!write(1, m, sizeof m - 1);
	/* The main thread is blocked in open(): removing the test folder is safe. */
	test_home_cleanup();
	_exit(1);
}

/* sweep_dead_tmp: a killed writer's temp file goes, a live one's stays, and
 * names that only look alike are left alone. */
static void test_sweep(const char *home)
{
	char dir[PATH_MAX], p[PATH_MAX + 64];
	pathf(dir, sizeof dir, "%s/sweep", home);
	amc_err e;
	ok(amc_mkdir_p(dir, 0700, &e) == 0, "a folder for the sweep");
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	const char *keep[] = { "state.json", "a.tmp.x.1", "b.tmp.0.1" };
	char dead[64], live[64];
	snprintf(dead, sizeof dead, "state.json.tmp.%ld.3", (long)child);
	snprintf(live, sizeof live, "state.json.tmp.%ld.4", (long)getpid());
	const char *all[] = { keep[0], keep[1], keep[2], dead, live };
	for (size_t i = 0; i < 5; i++) {
		pathf(p, sizeof p, "%s/%s", dir, all[i]);
		amc_write_atomic(p, "x", 1, 0600, &e);
	}
	is_int(amc_sweep_dead_tmp(dir), 1, "one temp file of a dead writer removed");
	pathf(p, sizeof p, "%s/%s", dir, dead);
	ok(!amc_file_exists(p), "the dead writer's temp file is gone");
	pathf(p, sizeof p, "%s/%s", dir, live);
	ok(amc_file_exists(p), "a live writer's temp file stays");
	for (size_t i = 0; i < 3; i++) {
		pathf(p, sizeof p, "%s/%s", dir, keep[i]);
		ok(amc_file_exists(p), "%s stays", keep[i]);
	}
	is_int(amc_sweep_dead_tmp("/nonexistent-amc-dir"), 0, "a missing folder: nothing to do");
}

/* Over 120 lines: a flat list of independent checks, one block per
 * function of fsutil, in the header's order. */
int main(void)
{
	const char *home = test_home("fsutil");
	char path[PATH_MAX], path2[PATH_MAX];
	amc_err e;
	amc_err_clear(&e);

	/* mkdir_p: nested, each level 0700, even under umask 0. */
	mode_t old_umask = umask(0);
	pathf(path, sizeof path, "%s/a/b/c/d", home);
	is_int(amc_mkdir_p(path, 0700, &e), 0, "mkdir_p nested");
	is_int(mode_of(path), 0700, "leaf folder is 0700");
	pathf(path2, sizeof path2, "%s/a", home);
	is_int(mode_of(path2), 0700, "created parent is 0700");
	pathf(path2, sizeof path2, "%s/a/b/c", home);
	is_int(mode_of(path2), 0700, "created grand-parent is 0700");
	is_int(amc_mkdir_p(path, 0700, &e), 0, "mkdir_p on an existing folder succeeds");
	pathf(path2, sizeof path2, "%s/a/b/trailing/", home);
	is_int(amc_mkdir_p(path2, 0700, &e), 0, "mkdir_p with a trailing slash");
	pathf(path2, sizeof path2, "%s/a/b/trailing", home);
	is_int(mode_of(path2), 0700, "folder with trailing slash is 0700");
	/* An existing folder keeps its mode. */
	pathf(path2, sizeof path2, "%s/open", home);
	mkdir(path2, 0755);
	is_int(amc_mkdir_p(path2, 0700, &e), 0, "mkdir_p over an existing 0755 folder");
	is_int(mode_of(path2), 0755, "existing folder left as it is");
	/* A file in the way is an error that names it. */
	pathf(path2, sizeof path2, "%s/afile", home);
	int fd = open(path2, O_WRONLY | O_CREAT, 0600);
	close(fd);
	amc_err_clear(&e);
	is_int(amc_mkdir_p(path2, 0700, &e), -1, "mkdir_p onto a file fails");
	like(e.msg, "afile", "error names the path");
	is_int(e.code, AMC_EENV, "error class is environment");
	pathf(path2, sizeof path2, "%s/afile/sub", home);
	is_int(amc_mkdir_p(path2, 0700, &e), -1, "mkdir_p below a file fails");
	amc_err_clear(&e);
	is_int(amc_mkdir_p("", 0700, &e), -1, "mkdir_p of an empty path fails");
	ok(e.msg[0] != '\0', "with a message");

	/* write_atomic: mode exactly 0600 under umask 0, no temp left, content complete. */
	char dir[PATH_MAX];
	pathf(dir, sizeof dir, "%s/w", home);
	amc_mkdir_p(dir, 0700, NULL);
	pathf(path, sizeof path, "%s/file.json", dir);
	is_int(amc_write_atomic(path, "{\"a\":1}", 7, 0600, &e), 0, "write_atomic creates");
	is_int(mode_of(path), 0600, "file is 0600 with umask 0");
	umask(0077);
	pathf(path2, sizeof path2, "%s/wide", dir);
	is_int(amc_write_atomic(path2, "x", 1, 0644, &e), 0, "write_atomic with mode 0644 under umask 077");
	is_int(mode_of(path2), 0644, "mode is exactly the one asked for, despite the umask");
	umask(0);
	unlink(path2);
	char *buf = NULL;
	size_t len = 0;
	is_int(amc_read_file(path, 1024, &buf, &len, &e), 0, "read back");
	is_int(len, 7, "read length");
	is_str(buf, "{\"a\":1}", "read content");
	free(buf);
	is_int(count_entries(dir), 1, "only the target is in the folder");
	is_int(has_tmp_entry(dir), 0, "no temp file left");
	/* write_replace: the same through a temp file and a rename, without fsync */
	is_int(amc_write_replace(path, "{\"a\":22}", 8, 0600, &e), 0, "write_replace replaces");
	buf = NULL;
	is_int(amc_read_file(path, 1024, &buf, &len, &e), 0, "read back the replaced file");
	is_str(buf, "{\"a\":22}", "its new content, whole");
	free(buf);
	is_int(mode_of(path), 0600, "still 0600");
	is_int(count_entries(dir), 1, "write_replace: only the target is in the folder");
	is_int(has_tmp_entry(dir), 0, "write_replace: no temp file left");

	/* Overwrite with a bigger then a smaller content: always complete. */
	size_t big_n = 300000;
	char *big = amc_xmalloc(big_n);
	for (size_t i = 0; i < big_n; i++)
		big[i] = (char)('A' + i % 23);
	is_int(amc_write_atomic(path, big, big_n, 0600, &e), 0, "overwrite with 300 KB");
	buf = NULL;
	is_int(amc_read_file(path, big_n, &buf, &len, &e), 0, "read 300 KB with limit == size");
	ok(len == big_n && buf && !memcmp(buf, big, big_n), "300 KB content complete");
	ok(buf && buf[len] == '\0', "read buffer NUL-terminated");
	free(buf);
	is_int(amc_write_atomic(path, "short", 5, 0600, &e), 0, "overwrite with shorter content");
	buf = NULL;
	amc_read_file(path, 1024, &buf, &len, &e);
	ok(len == 5 && buf && !strcmp(buf, "short"), "no tail from the older, longer content");
	free(buf);
	is_int(mode_of(path), 0600, "overwrite keeps 0600");
	for (int i = 0; i < 20; i++)
		amc_write_atomic(path, big, (size_t)i * 1000, 0600, NULL);
	is_int(count_entries(dir), 1, "after 20 overwrites, still a single entry");
	is_int(has_tmp_entry(dir), 0, "and no temp file");
	is_int(amc_write_atomic(path, "", 0, 0600, &e), 0, "write an empty file");
	buf = NULL;
	is_int(amc_read_file(path, 10, &buf, &len, &e), 0, "read an empty file");
	ok(len == 0 && buf && buf[0] == '\0', "empty file reads as \"\"");
	free(buf);
	/* Writing into a missing folder fails, names the path, leaves nothing. */
	pathf(path2, sizeof path2, "%s/missing/f", dir);
	amc_err_clear(&e);
	is_int(amc_write_atomic(path2, "x", 1, 0600, &e), -1, "write_atomic into a missing folder fails");
	like(e.msg, "missing/f", "error names the target");
	is_int(count_entries(dir), 1, "nothing left behind after a failed write");
	/* A folder as the target: rename fails, temp removed. */
	pathf(path2, sizeof path2, "%s/sub", dir);
	mkdir(path2, 0700);
	pathf(path2, sizeof path2, "%s/sub/inner", dir);
	mkdir(path2, 0700);
	pathf(path2, sizeof path2, "%s/sub", dir);
	amc_err_clear(&e);
	is_int(amc_write_atomic(path2, "x", 1, 0600, &e), -1, "write_atomic over a non-empty folder fails");
	is_int(has_tmp_entry(dir), 0, "failed rename leaves no temp file");

	/* read_file: limit, not regular, missing. */
	amc_write_atomic(path, big, 5000, 0600, NULL);
	amc_err_clear(&e);
	buf = NULL;
	is_int(amc_read_file(path, 4999, &buf, &len, &e), -1, "file over the limit refused");
	like(e.msg, "5000 bytes", "message gives the size");
	like(e.msg, "limit of 4999 bytes", "message gives the limit");
	like(e.msg, "file.json", "message names the file");
	is_int(e.code, AMC_EUSAGE, "limit error is a usage error");
	ok(buf == NULL, "no buffer on error");
	amc_err_clear(&e);
	is_int(amc_read_file(dir, 1000, &buf, &len, &e), -1, "a folder is refused");
	like(e.msg, "not a regular file", "folder: 'not a regular file'");
	amc_err_clear(&e);
	is_int(amc_read_file("/dev/null", 1000, &buf, &len, &e), -1, "/dev/null (a device) is refused");
	like(e.msg, "not a regular file", "device: 'not a regular file'");
	pathf(path2, sizeof path2, "%s/fifo", home);
	if (mkfifo(path2, 0600) == 0) {
		signal(SIGALRM, on_alarm);
		alarm(5);
		amc_err_clear(&e);
		is_int(amc_read_file(path2, 1000, &buf, &len, &e), -1, "a FIFO is refused without blocking");
		alarm(0);
		like(e.msg, "not a regular file", "fifo: 'not a regular file'");
	} else {
		ok(0, "mkfifo failed: %s", strerror(errno));
		ok(0, "fifo test skipped");
	}
	pathf(path2, sizeof path2, "%s/nope.json", home);
	amc_err_clear(&e);
	is_int(amc_read_file(path2, 1000, &buf, &len, &e), -1, "a missing file fails");
	like(e.msg, "nope.json", "missing: names the file");
	like(e.msg, "No such file", "missing: says why");
	ok(!amc_file_exists(path2), "file_exists: missing");
	ok(amc_file_exists(path), "file_exists: present");
	ok(amc_file_exists(dir), "file_exists: a folder");

	/* read_fd on a pipe: content, and the limit. */
	int pfd[2];
	if (pipe(pfd) == 0) {
		(void)!write(pfd[1], "piped data", 10);
		close(pfd[1]);
		buf = NULL;
		is_int(amc_read_fd(pfd[0], 100, "stdin", &buf, &len, &e), 0, "read_fd from a pipe");
		ok(len == 10 && buf && !strcmp(buf, "piped data"), "read_fd content");
		free(buf);
		close(pfd[0]);
	}
	if (pipe(pfd) == 0) {
		(void)!write(pfd[1], "0123456789", 10);
		close(pfd[1]);
		buf = NULL;
		amc_err_clear(&e);
		is_int(amc_read_fd(pfd[0], 9, "stdin", &buf, &len, &e), -1, "read_fd over the limit");
		like(e.msg, "stdin is larger than the limit of 9 bytes", "read_fd limit message names the stream");
		close(pfd[0]);
	}

	/* path_join. */
	char small[16];
	is_int(amc_path_join(small, sizeof small, "/a/b", "c.txt"), 0, "path_join fits");
	is_str(small, "/a/b/c.txt", "path_join result");
	is_int(amc_path_join(small, sizeof small, "/aaaaaaaa", "bbbbbb"), -1, "path_join: 16 chars in 16 bytes overflows");
	is_int(amc_path_join(small, sizeof small, "/aaaaaaaa", "bbbbb"), 0, "path_join: 15 chars fit exactly");
	is_int(strlen(small), 15, "exact fit length");
	char huge[PATH_MAX * 2];
	memset(huge, 'n', sizeof huge - 1);
	huge[sizeof huge - 1] = '\0';
	char pbuf[PATH_MAX];
	is_int(amc_path_join(pbuf, sizeof pbuf, "/x", huge), -1, "path_join of a name longer than PATH_MAX fails");
	amc_err_clear(&e);
	is_int(amc_mkdir_p(huge, 0700, &e), -1, "mkdir_p of a path longer than PATH_MAX fails");
	like(e.msg, "too long", "says too long");

	/* rm_rf: a tree with files, folders, a symlink to outside (not followed). */
	char outside[PATH_MAX], tree[PATH_MAX];
	pathf(outside, sizeof outside, "%s/keep", home);
	amc_write_atomic(outside, "keep", 4, 0600, NULL);
	pathf(tree, sizeof tree, "%s/tree", home);
	pathf(path, sizeof path, "%s/x/y/z", tree);
	amc_mkdir_p(path, 0700, NULL);
	pathf(path, sizeof path, "%s/x/y/z/f", tree);
	amc_write_atomic(path, "1", 1, 0600, NULL);
	pathf(path, sizeof path, "%s/x/g", tree);
	amc_write_atomic(path, "2", 1, 0600, NULL);
	pathf(path, sizeof path, "%s/x/link", tree);
	ok(symlink(home, path) == 0, "symlink to a folder outside the tree");
	is_int(amc_rm_rf(tree), 0, "rm_rf removes the tree");
	ok(!amc_file_exists(tree), "tree gone");
	ok(amc_file_exists(outside), "symlink target's content untouched");
	is_int(amc_rm_rf(tree), 0, "rm_rf of a missing path is success");
	is_int(amc_rm_rf(outside), 0, "rm_rf of a plain file");
	ok(!amc_file_exists(outside), "file gone");

	free(big);
	umask(old_umask);
	test_sweep(home);
	return done_testing();
}

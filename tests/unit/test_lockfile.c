/* test_lockfile.c - named flock()s: try/held/release, notes, other processes,
 * file name escaping. */
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "util/lockfile.h"

/* Every entry under `dir` (recursively) is a regular file directly in it. */
static int flat_regular_files(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int ok_ = 1;
	*count = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char p[PATH_MAX];
		pathf(p, sizeof p, "%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
			diag("not a regular file: %s", p);
			ok_ = 0;
		}
		(*count)++;
	}
	closedir(d);
	return ok_;
}

int main(void)
{
	const char *home = test_home("lockfile");
	char holder[256], path[PATH_MAX];
	amc_err e;
	amc_err_clear(&e);

	/* File names. */
	char fn[256];
	amc_lock_file_name("device-sim:0", fn, sizeof fn);
	is_str(fn, "device-sim%3A0", "':' is escaped");
	amc_lock_file_name("emulator-5554", fn, sizeof fn);
	is_str(fn, "emulator-5554", "plain names unchanged");
	amc_lock_file_name("../x", fn, sizeof fn);
	ok(!strchr(fn, '/') && strcmp(fn, ".") && strcmp(fn, "..") && fn[0] != '.', "'../x' -> '%s': no slash, no leading dot", fn);
	amc_lock_file_name("a/b", fn, sizeof fn);
	is_str(fn, "a%2Fb", "'/' is escaped");
	amc_lock_file_name("..", fn, sizeof fn);
	ok(fn[0] != '.' && !strchr(fn, '/'), "'..' -> '%s'", fn);
	amc_lock_file_name(".", fn, sizeof fn);
	ok(fn[0] != '.', "'.' -> '%s'", fn);
	amc_lock_file_name("", fn, sizeof fn);
	ok(fn[0] != '\0' && fn[0] != '.', "empty name -> '%s'", fn);
	amc_lock_file_name("a\nb\x1b", fn, sizeof fn);
	is_str(fn, "a%0Ab%1B", "control bytes escaped");
	amc_lock_file_name("100%", fn, sizeof fn);
	is_str(fn, "100%25", "'%%' itself escaped (escaping is one-to-one)");
	char f1[256], f2[256];
	amc_lock_file_name("../x", f1, sizeof f1);
	amc_lock_file_name("../y", f2, sizeof f2);
	ok(strcmp(f1, f2) != 0, "'../x' and '../y' get different files (%s, %s)", f1, f2);
	amc_lock_file_name(".a", f1, sizeof f1);
	amc_lock_file_name(".b", f2, sizeof f2);
	ok(strcmp(f1, f2) != 0, "'.a' and '.b' get different files");
	amc_lock_file_name("a:b", f1, sizeof f1);
	amc_lock_file_name("a%3Ab", f2, sizeof f2);
	ok(strcmp(f1, f2) != 0, "'a:b' and 'a%%3Ab' get different files");
	char tiny[8];
	amc_lock_file_name("::::::::", tiny, sizeof tiny);
	ok(strlen(tiny) < sizeof tiny, "a small buffer is never overrun ('%s')", tiny);

	/* try / held / release. */
	amc_lock *l = NULL;
	is_int(amc_lock_is_held(home, "device-sim:0", holder, sizeof holder), 0, "free before anyone takes it");
	is_int(amc_lock_try(home, "device-sim:0", "task aaa pid 1", &l, holder, sizeof holder, &e), 0, "take the lock");
	ok(l != NULL, "lock handle returned");
	pathf(path, sizeof path, "%s/locks/device-sim%%3A0.lock", home);
	struct stat st;
	ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600, "lock file under locks/, mode 0600");
	pathf(path, sizeof path, "%s/locks", home);
	ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0700, "locks/ is 0700");

	/* A second try in the same process conflicts (separate open file description). */
	amc_lock *l2 = NULL;
	holder[0] = 'X';
	is_int(amc_lock_try(home, "device-sim:0", "other", &l2, holder, sizeof holder, &e), 1, "second try reports held");
	ok(l2 == NULL, "no handle for the refused try");
	is_str(holder, "task aaa pid 1", "refused try gets the holder note");
	is_int(amc_lock_is_held(home, "device-sim:0", holder, sizeof holder), 1, "is_held: held");
	is_str(holder, "task aaa pid 1", "is_held returns the note");
	is_int(amc_lock_set_note(l, "task bbb pid 2"), 0, "set_note");
	amc_lock_is_held(home, "device-sim:0", holder, sizeof holder);
	is_str(holder, "task bbb pid 2", "updated note seen");
	amc_lock_set_note(l, "x");
	amc_lock_is_held(home, "device-sim:0", holder, sizeof holder);
	is_str(holder, "x", "a shorter note leaves no tail of the old one");
	char small_holder[4];
	amc_lock_set_note(l, "a long note text");
	amc_lock_is_held(home, "device-sim:0", small_holder, sizeof small_holder);
	is_str(small_holder, "a l", "note cut to the holder buffer");
	is_int(amc_lock_is_held(home, "device-sim:0", NULL, 0), 1, "is_held with no holder buffer");
	is_int(amc_lock_is_held(home, "device-sim:1", holder, sizeof holder), 0, "another name is free");
	is_int(amc_lock_set_note(NULL, "x"), -1, "set_note(NULL) fails");

	amc_lock_release(l);
	pathf(path, sizeof path, "%s/locks/device-sim%%3A0.lock", home);
	ok(stat(path, &st) == 0 && st.st_size == 0, "note cleared on release");
	strcpy(holder, "stale");
	is_int(amc_lock_is_held(home, "device-sim:0", holder, sizeof holder), 0, "free after release");
	is_str(holder, "", "holder is empty for a free lock");
	int fds = test_open_fds();
	is_int(amc_lock_try(home, "device-sim:0", NULL, &l, holder, sizeof holder, &e), 0, "retake after release");
	amc_lock_release(l);
	amc_lock_release(NULL);
	is_int(test_open_fds(), fds, "release closes the lock's descriptor (and release(NULL) closes none)");

	/* A child process holds it; killing the child frees it. */
	int ready[2], wait_pipe[2];
	if (pipe(ready) != 0 || pipe(wait_pipe) != 0)
		return 99;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(ready[0]);
		close(wait_pipe[1]);
		amc_lock *cl = NULL;
		char note[64];
		snprintf(note, sizeof note, "child %d", (int)getpid());
		char r = amc_lock_try(home, "device-sim:0", note, &cl, NULL, 0, NULL) == 0 ? 'y' : 'n';
		(void)!write(ready[1], &r, 1);
		char c;
		(void)!read(wait_pipe[0], &c, 1); /* wait until killed */
		_exit(0);
	}
	close(ready[1]);
	close(wait_pipe[0]);
	char r = 0;
	(void)!read(ready[0], &r, 1);
	is_int(r, 'y', "child took the lock");
	char want[64];
	snprintf(want, sizeof want, "child %d", (int)pid);
	is_int(amc_lock_is_held(home, "device-sim:0", holder, sizeof holder), 1, "held by the child");
	is_str(holder, want, "child's note reported");
	l2 = NULL;
	is_int(amc_lock_try(home, "device-sim:0", "parent", &l2, holder, sizeof holder, &e), 1, "parent's try refused");
	kill(pid, SIGKILL);
	int status;
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child killed with SIGKILL");
	is_int(amc_lock_is_held(home, "device-sim:0", holder, sizeof holder), 0, "free after the holder died");
	is_int(amc_lock_try(home, "device-sim:0", "parent", &l2, holder, sizeof holder, &e), 0, "parent takes it");
	amc_lock_release(l2);
	close(ready[0]);
	close(wait_pipe[1]);

	/* Hostile names stay inside locks/. */
	const char *hostile[] = { "../x", "a/b", "..", ".", "", "../../etc/passwd", "/abs", "x\ny", "sim:0/../..", "%2F" };
	size_t nh = sizeof hostile / sizeof hostile[0];
	int all_ok = 1;
	amc_lock *held[sizeof hostile / sizeof hostile[0]] = { 0 };
	for (size_t i = 0; i < nh; i++) {
		amc_lock *hl = NULL;
		amc_err_clear(&e);
		if (amc_lock_try(home, hostile[i], "h", &hl, NULL, 0, &e) != 0) {
			diag("lock '%s' failed: %s", hostile[i], e.msg);
			all_ok = 0;
			continue;
		}
		/* Hold them all at once: distinct names must not share a file. */
		amc_lock *again = NULL;
		if (amc_lock_try(home, hostile[i], "h", &again, NULL, 0, NULL) != 1)
			all_ok = 0;
		held[i] = hl;
	}
	ok(all_ok, "hostile names all lockable and each held separately");
	int n = 0;
	pathf(path, sizeof path, "%s/locks", home);
	ok(flat_regular_files(path, &n), "locks/ holds only plain files");
	is_int(n, (long long)nh + 2, "one file per distinct name (%d)", n);
	pathf(path, sizeof path, "%s/x.lock", home);
	ok(!amc_file_exists(path), "'../x' did not escape to $AMC_HOME/x.lock");
	pathf(path, sizeof path, "%s/a", home);
	ok(!amc_file_exists(path), "'a/b' made no folder a/");
	for (size_t i = 0; i < nh; i++)
		amc_lock_release(held[i]);

	/* Too long a name is an error, not a collision. */
	char longname[400];
	memset(longname, 'n', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	amc_err_clear(&e);
	l = NULL;
	is_int(amc_lock_try(home, longname, "h", &l, NULL, 0, &e), -1, "a 399-byte name is refused");
	like(e.msg, "too long", "message says too long");
	memset(longname, ':', 100);
	longname[100] = '\0';
	amc_err_clear(&e);
	is_int(amc_lock_try(home, longname, "h", &l, NULL, 0, &e), -1, "a name too long once escaped is refused");

	/* A home that cannot hold locks/. */
	char badhome[PATH_MAX];
	pathf(badhome, sizeof badhome, "%s/file", home);
	amc_write_atomic(badhome, "x", 1, 0600, NULL);
	amc_err_clear(&e);
	is_int(amc_lock_try(badhome, "sim", "n", &l, NULL, 0, &e), -1, "home is a file: error");
	ok(e.msg[0] != '\0', "with a message (%s)", e.msg);
	is_int(amc_lock_is_held(badhome, "sim", NULL, 0), -1, "is_held reports the error as -1");
	return done_testing();
}

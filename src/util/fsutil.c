#include "util/fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"

int amc_mkdir_p(const char *path, mode_t mode, amc_err *e)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);
	if (n == 0 || n >= sizeof buf)
		return amc_err_set(e, AMC_EENV, "cannot create folder '%.200s%s': path %s",
				   path, n > 200 ? "..." : "", n ? "too long" : "empty");
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) != 0 && errno != EEXIST)
			return amc_err_set(e, AMC_EENV, "cannot create folder '%s': %s", buf, strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, mode) != 0 && errno != EEXIST)
		return amc_err_set(e, AMC_EENV, "cannot create folder '%s': %s", buf, strerror(errno));
	struct stat st;
	if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
		return amc_err_set(e, AMC_EENV, "'%s' exists and is not a folder", buf);
	return 0;
}

static int write_via_tmp(const char *path, const void *data, size_t len, mode_t mode, int durable, amc_err *e)
{
	char tmp[PATH_MAX];
	static unsigned counter;
	int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(),
			 __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED));
	if (n < 0 || (size_t)n >= sizeof tmp)
		return amc_err_set(e, AMC_EENV, "path too long: %s", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0)
		return amc_err_set(e, AMC_EENV, "cannot write '%s': %s", path, strerror(errno));
	/* The umask may have narrowed the mode; amc wants exactly `mode`. */
	(void)fchmod(fd, mode);
	const char *p = data;
	size_t left = len;
	while (left > 0) {
		ssize_t w = write(fd, p, left);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			int err = errno;
			close(fd);
			unlink(tmp);
			return amc_err_set(e, AMC_EENV, "cannot write '%s': %s", path, strerror(err));
		}
		p += w;
		left -= (size_t)w;
	}
	/* The data must be on disk before the rename makes it visible, or a crash can
	 * leave an empty or partial file under the final name. */
	if (durable && fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
		int err = errno;
		close(fd);
		unlink(tmp);
		return amc_err_set(e, AMC_EENV, "cannot write '%s': %s", path, strerror(err));
	}
	if (close(fd) != 0) {
		int err = errno;
		unlink(tmp);
		return amc_err_set(e, AMC_EENV, "cannot write '%s': %s", path, strerror(err));
	}
	if (rename(tmp, path) != 0) {
		int err = errno;
		unlink(tmp);
		return amc_err_set(e, AMC_EENV, "cannot rename '%s' to '%s': %s", tmp, path, strerror(err));
	}
	if (!durable)
		return 0;
	/* Best effort: make the rename itself durable. */
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	return 0;
}

int amc_write_atomic(const char *path, const void *data, size_t len, mode_t mode, amc_err *e)
{
	return write_via_tmp(path, data, len, mode, 1, e);
}

int amc_write_replace(const char *path, const void *data, size_t len, mode_t mode, amc_err *e)
{
	return write_via_tmp(path, data, len, mode, 0, e);
}

int amc_read_fd(int fd, size_t max, const char *what, char **out, size_t *len, amc_err *e)
{
	amc_sb sb;
	amc_sb_init(&sb);
	char chunk[65536];
	for (;;) {
		ssize_t r = read(fd, chunk, sizeof chunk);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			amc_sb_free(&sb);
			return amc_err_set(e, AMC_EUSAGE, "cannot read %s: %s", what, strerror(errno));
		}
		if (r == 0)
			break;
		if (sb.len + (size_t)r > max) {
			amc_sb_free(&sb);
			return amc_err_set(e, AMC_EUSAGE, "%s is larger than the limit of %zu bytes", what, max);
		}
		amc_sb_append(&sb, chunk, (size_t)r);
	}
	if (len)
		*len = sb.len;
	*out = amc_sb_detach(&sb);
	return 0;
}

int amc_read_file(const char *path, size_t max, char **out, size_t *len, amc_err *e)
{
	/* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer
	 * before the regular-file check below could refuse it. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return amc_err_set(e, AMC_EUSAGE, "cannot open '%s': %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return amc_err_set(e, AMC_EUSAGE, "'%s' is not a regular file", path);
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if ((unsigned long long)st.st_size > max) {
		close(fd);
		return amc_err_set(e, AMC_EUSAGE, "'%s' is %lld bytes, over the limit of %zu bytes",
				   path, (long long)st.st_size, max);
	}
	char what[PATH_MAX + 8]; /* the path in quotes, for messages */
	snprintf(what, sizeof what, "'%s'", path);
	int rc = amc_read_fd(fd, max, what, out, len, e);
	close(fd);
	return rc;
}

int amc_file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

int amc_path_join(char *out, size_t n, const char *dir, const char *name)
{
	int w = snprintf(out, n, "%s/%s", dir, name);
	return (w < 0 || (size_t)w >= n) ? -1 : 0;
}

int amc_rm_rf(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char sub[PATH_MAX];
		if (amc_path_join(sub, sizeof sub, path, de->d_name) != 0 || amc_rm_rf(sub) != 0)
			rc = -1;
	}
	closedir(d);
	if (rmdir(path) != 0)
		rc = -1;
	return rc;
}

int amc_sweep_dead_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *t = strstr(de->d_name, ".tmp.");
		if (!t || de->d_name[0] == '.')
			continue;
		char *end;
		long pid = strtol(t + 5, &end, 10);
		if (pid <= 0 || *end != '.' || (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
			continue;
		char p[PATH_MAX];
		if (amc_path_join(p, sizeof p, dir, de->d_name) == 0 && unlink(p) == 0)
			n++;
	}
	closedir(d);
	return n;
}

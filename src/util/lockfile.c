#include "util/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "util/strbuf.h"

struct amc_lock {
	int fd;
};

void amc_lock_file_name(const char *name, char *out, size_t n)
{
	if (n == 0)
		return;
	/* Escaping is one-to-one ('%' itself is escaped), so two names never share
	 * a file. A leading '.' is escaped too: no hidden file, never "." or "..". */
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)name; *p && o + 4 < n; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '_' || (*p == '.' && o > 0)) {
			out[o++] = (char)*p;
		} else {
			snprintf(out + o, n - o, "%%%02X", *p);
			o += 3;
		}
	}
	out[o] = '\0';
	if (o == 0) /* the empty name: "%00" cannot come from any other name */
		snprintf(out, n, "%%00");
}

static int lock_path(const char *home, const char *name, char *out, size_t n, amc_err *e)
{
	char dir[PATH_MAX], file[1024];
	if (!name)
		name = "";
	/* A name whose escaped form would be cut must not silently share a file
	 * with another long name: refuse it. */
	if (strlen(name) > 200)
		return amc_err_set(e, AMC_EUSAGE, "lock name too long (%zu bytes)", strlen(name));
	if (amc_path_join(dir, sizeof dir, home, "locks") != 0)
		return amc_err_set(e, AMC_EENV, "path too long");
	if (amc_mkdir_p(dir, 0700, e) != 0)
		return -1;
	amc_lock_file_name(name, file, sizeof file);
	if (strlen(file) + 5 > 255)
		return amc_err_set(e, AMC_EUSAGE, "lock name too long once escaped");
	int w = snprintf(out, n, "%s/%s.lock", dir, file);
	if (w < 0 || (size_t)w >= n)
		return amc_err_set(e, AMC_EENV, "lock path too long under %s", dir);
	return 0;
}

static void read_note(int fd, char *holder, size_t n)
{
	if (!holder || n == 0)
		return;
	ssize_t r = pread(fd, holder, n - 1, 0);
	if (r < 0)
		r = 0;
	holder[r] = '\0';
	char *nl = strchr(holder, '\n');
	if (nl)
		*nl = '\0';
}

static void write_note(int fd, const char *note)
{
	char buf[512];
	int len = snprintf(buf, sizeof buf, "%s\n", note ? note : "");
	if (len < 0)
		return;
	if ((size_t)len >= sizeof buf)
		len = sizeof buf - 1;
	if (ftruncate(fd, 0) == 0)
		(void)!pwrite(fd, buf, (size_t)len, 0);
}

int amc_lock_try(const char *home, const char *name, const char *note,
		 amc_lock **out, char *holder, size_t holder_n, amc_err *e)
{
	char path[PATH_MAX];
	if (lock_path(home, name, path, sizeof path, e) != 0)
		return -1;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return amc_err_set(e, AMC_EENV, "cannot open lock '%s': %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int err = errno;
		if (err == EWOULDBLOCK) {
			read_note(fd, holder, holder_n);
			close(fd);
			return 1;
		}
		close(fd);
		return amc_err_set(e, AMC_EENV, "cannot lock '%s': %s", path, strerror(err));
	}
	write_note(fd, note);
	amc_lock *l = amc_xcalloc(1, sizeof *l);
	l->fd = fd;
	*out = l;
	return 0;
}

int amc_lock_set_note(amc_lock *l, const char *note)
{
	if (!l)
		return -1;
	write_note(l->fd, note);
	return 0;
}

void amc_lock_release(amc_lock *l)
{
	if (!l)
		return;
	/* Clear the note first so a reader never sees a stale holder on a free lock. */
	if (ftruncate(l->fd, 0) != 0) {
		/* nothing to do: the lock is released below either way */
	}
	flock(l->fd, LOCK_UN);
	close(l->fd);
	free(l);
}

int amc_lock_is_held(const char *home, const char *name, char *holder, size_t holder_n)
{
	amc_lock *l = NULL;
	int rc = amc_lock_try(home, name, NULL, &l, holder, holder_n, NULL);
	if (rc == 0) {
		amc_lock_release(l);
		if (holder && holder_n)
			holder[0] = '\0';
		return 0;
	}
	return rc == 1 ? 1 : -1;
}

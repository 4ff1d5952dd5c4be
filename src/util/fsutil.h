/* fsutil.h - file helpers with amc's storage rules: files 0600, folders 0700,
 * complete-or-absent writes (temp name + fsync + rename). */
#ifndef AMC_FSUTIL_H
#define AMC_FSUTIL_H

#include <stddef.h>
#include <sys/types.h>
#include "util/err.h"

/* Create `path` and its missing parents with `mode` (existing folders are left as they are). */
int amc_mkdir_p(const char *path, mode_t mode, amc_err *e);
/* Write `len` bytes to `path` through a temp file in the same folder, then rename.
 * A reader never sees a partial file. */
int amc_write_atomic(const char *path, const void *data, size_t len, mode_t mode, amc_err *e);
/* The same without the fsyncs: a reader (another process too) still sees the
 * old file or the new one, never a partial one, but a power failure may lose
 * the write. For state that is rewritten at every call and worth less than
 * the ~9 ms two fsyncs cost here: the simulated phone's state.json. */
int amc_write_replace(const char *path, const void *data, size_t len, mode_t mode, amc_err *e);
/* Remove the temp files amc_write_atomic left in `dir` (NAME.tmp.PID.N)
 * whose process is gone (killed mid-write); a live writer's are kept.
 * Returns how many went. */
int amc_sweep_dead_tmp(const char *dir);
/* Read a whole regular file, refusing more than `max` bytes. `*out` is NUL-terminated
 * and owned by the caller (free()). */
int amc_read_file(const char *path, size_t max, char **out, size_t *len, amc_err *e);
/* Read all of a stream (stdin) up to max bytes. */
int amc_read_fd(int fd, size_t max, const char *what, char **out, size_t *len, amc_err *e);
int amc_file_exists(const char *path);
/* Join a folder and a name into `out` (size n); -1 when it does not fit. */
int amc_path_join(char *out, size_t n, const char *dir, const char *name);
/* Remove a folder tree (used by tests and `amc sim reset`). */
int amc_rm_rf(const char *path);

#endif

/* lockfile.h - named flock()s under $AMC_HOME/locks.
 *
 * A device lock is taken by a task for its whole duration; the kernel drops it
 * when the owning process dies, which is how a later amc command tells a live
 * `running` task from one whose owner was killed. The file holds a short note
 * (task id and pid) so a refused caller can say who holds it. */
#ifndef AMC_LOCKFILE_H
#define AMC_LOCKFILE_H

#include <stddef.h>
#include "util/err.h"

typedef struct amc_lock amc_lock;

/* The file name for a lock name: device ids contain ':' and '/', so names are
 * escaped to a safe file name. */
void amc_lock_file_name(const char *name, char *out, size_t n);

/* Try to take the lock without waiting. Returns 0 and *out on success; 1 when
 * another holder has it (holder note copied to `holder`, may be ""); -1 on error. */
int amc_lock_try(const char *home, const char *name, const char *note,
		 amc_lock **out, char *holder, size_t holder_n, amc_err *e);
/* Rewrite the note (e.g. the task id once known). */
int amc_lock_set_note(amc_lock *l, const char *note);
void amc_lock_release(amc_lock *l);
/* 1 when some process holds `name` now, 0 when free, -1 on error. */
int amc_lock_is_held(const char *home, const char *name, char *holder, size_t holder_n);

#endif

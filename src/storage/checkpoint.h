/* checkpoint.h - WAL checkpoints off the step's path.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that pushes the WAL
 * over 1000 pages: that one step record pays for copying ~4 MB into the
 * database (bench_store's p99). Instead, a WAL hook on the store's connection
 * wakes a background thread (its own connection) that runs a PASSIVE
 * checkpoint, which never blocks writers or readers. If the WAL still grows
 * past AMC_CKPT_BACKSTOP_PAGES (the thread fell behind, e.g. a reader pins the
 * WAL), the committing connection runs a RESTART checkpoint inline (it waits
 * for the thread and readers, then starts the WAL over), so the WAL stays
 * bounded. Only src/storage/ includes this. */
#ifndef AMC_CHECKPOINT_H
#define AMC_CHECKPOINT_H

#include <sqlite3.h>

/* SQLite's default threshold, and the backstop (32 MB of 4 KB pages). */
#define AMC_CKPT_PAGES 1000
#define AMC_CKPT_BACKSTOP_PAGES 8192

typedef struct amc_ckpt amc_ckpt;

/* Install the WAL hook on `db` (the database at `path`). The thread starts at
 * the first checkpoint it is asked for. NULL on out of memory (the caller then
 * keeps SQLite's automatic checkpoint). Owned by the caller: amc_ckpt_stop. */
amc_ckpt *amc_ckpt_start(sqlite3 *db, const char *path);
/* Stop and join the thread (a checkpoint under way finishes first) and remove
 * the hook; call before closing `db`. NULL is fine. */
void amc_ckpt_stop(amc_ckpt *c);
/* Checkpoints run by the thread, and inline by the backstop. */
void amc_ckpt_counts(const amc_ckpt *c, long *background, long *inline_count);
/* Wait until the thread is idle with nothing asked (tests, benches). */
void amc_ckpt_drain(amc_ckpt *c);

#endif

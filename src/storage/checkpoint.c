#include "storage/checkpoint.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct amc_ckpt {
	sqlite3 *db;            /* the store's connection (the hook's) */
	char *path;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t th;
	int started, stop, asked, busy;
	long background, inline_count;
};

static void *run(void *arg)
{
	amc_ckpt *c = arg;
	sqlite3 *db = NULL;
	/* Its own connection: a checkpoint on the store's connection would
	 * serialize with the runner's statements through SQLite's mutex. */
	if (sqlite3_open_v2(c->path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW,
			    NULL) == SQLITE_OK)
		sqlite3_busy_timeout(db, 1000);
	/* A connection finds the database in WAL mode at its first read; until
	 * then a checkpoint is a no-op that reports -1 frames. */
	if (db && sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_close_v2(db);
		db = NULL;
	}
	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->asked && !c->stop)
			pthread_cond_wait(&c->cv, &c->mu);
		if (c->stop)
			break;
		c->asked = 0;
		c->busy = 1;
		pthread_mutex_unlock(&c->mu);
		int log = -1, done = -1;
		int ok = db && sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done) == SQLITE_OK &&
			 log >= 0;
		pthread_mutex_lock(&c->mu);
		c->busy = 0;
		c->background += ok;
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	sqlite3_close_v2(db);
	return NULL;
}

/* Called by SQLite after each commit with the WAL's size in pages. */
static int hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	amc_ckpt *c = arg;
	if (pages >= AMC_CKPT_BACKSTOP_PAGES) {
		/* RESTART, not PASSIVE: it waits (busy_timeout) for the thread's
		 * checkpoint and for readers, then starts the WAL over, so a
		 * stream of back-to-back commits cannot grow the file for ever */
		if (sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_RESTART, NULL, NULL) == SQLITE_OK) {
			pthread_mutex_lock(&c->mu);
			c->inline_count++;
			pthread_mutex_unlock(&c->mu);
		}
		return SQLITE_OK;
	}
	if (pages < AMC_CKPT_PAGES)
		return SQLITE_OK;
	pthread_mutex_lock(&c->mu);
	if (!c->started && !c->stop) {
		if (pthread_create(&c->th, NULL, run, c) == 0)
			c->started = 1;
	}
	if (c->started) {
		c->asked = 1;
		pthread_cond_signal(&c->cv);
		pthread_mutex_unlock(&c->mu);
		return SQLITE_OK;
	}
	pthread_mutex_unlock(&c->mu);
	/* no thread: checkpoint here, as SQLite's automatic one would */
	sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	return SQLITE_OK;
}

amc_ckpt *amc_ckpt_start(sqlite3 *db, const char *path)
{
	amc_ckpt *c = calloc(1, sizeof *c);
	if (!c || !(c->path = strdup(path))) {
		free(c);
		return NULL;
	}
	c->db = db;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	sqlite3_wal_hook(db, hook, c); /* replaces sqlite3_wal_autocheckpoint's hook */
	return c;
}

void amc_ckpt_drain(amc_ckpt *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->mu);
	while (c->started && (c->asked || c->busy))
		pthread_cond_wait(&c->cv, &c->mu);
	pthread_mutex_unlock(&c->mu);
}

void amc_ckpt_stop(amc_ckpt *c)
{
	if (!c)
		return;
	sqlite3_wal_hook(c->db, NULL, NULL);
	pthread_mutex_lock(&c->mu);
	c->stop = 1;
	pthread_cond_broadcast(&c->cv);
	int started = c->started;
	pthread_mutex_unlock(&c->mu);
	if (started)
		pthread_join(c->th, NULL);
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	free(c->path);
	free(c);
}

void amc_ckpt_counts(const amc_ckpt *c, long *background, long *inline_count)
{
	amc_ckpt *m = (amc_ckpt *)c;
	*background = *inline_count = 0;
	if (!c)
		return;
	pthread_mutex_lock(&m->mu);
	*background = m->background;
	*inline_count = m->inline_count;
	pthread_mutex_unlock(&m->mu);
}

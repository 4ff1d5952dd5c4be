/* status.h - the task statuses: one table of names, symbols and whether the
 * status is final, read by the runner, the store, `amc tasks`/`amc show` and
 * the TUI so that none of them spells a status of its own. */
#ifndef AMC_STATUS_H
#define AMC_STATUS_H

#include <stddef.h>

#define AMC_ST_QUEUED "queued"
#define AMC_ST_RUNNING "running"
#define AMC_ST_SUCCEEDED "succeeded"
#define AMC_ST_FAILED "failed"
#define AMC_ST_CANCELLED "cancelled"
#define AMC_ST_INTERRUPTED "interrupted"
#define AMC_ST_WAITING_USER "waiting_user"

typedef struct {
	const char *name;   /* as stored in tasks.status */
	const char *symbol; /* one column, UTF-8: lists read without colour */
	const char *ascii;  /* the same for terminals without UTF-8 */
	int terminal;       /* the task is over: nothing changes it again */
} amc_status_info;

/* The statuses in table order (queued, running, succeeded, failed,
 * cancelled, interrupted, waiting_user); index < amc_status_count(). */
size_t amc_status_count(void);
const amc_status_info *amc_status_at(size_t i);
/* The row for a status name; NULL for NULL or an unknown name. */
const amc_status_info *amc_status_find(const char *name);
/* Its index in table order, or -1. */
int amc_status_index(const char *name);
/* "queued, running, ..." for messages and help (static). */
const char *amc_status_names(void);
/* 1 for succeeded, failed, cancelled and interrupted. */
int amc_status_is_terminal(const char *status);

#endif

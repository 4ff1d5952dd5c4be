/* sources.h - the texts a task ran from, kept with the task.
 *
 * A flow task's steps say where their command came from ("flow command at
 * PATH:LINE", the reasoning the flow planner records). The flow's text and
 * the sub-flows and scripts it named are stored in the task's own folder when
 * it starts, so its steps are shown with the lines that ran: a flow sent as
 * text exists on no disk, and a file on disk may have been edited since.
 *
 * Files: artifacts/<task-id>/source-N.txt (one a text, written first) and
 * source.json, the manifest {"files":[{"path":PATH,"artifact":"source-N.txt"}]}
 * written last, so it never names a file that is not complete. None ends in
 * ".png": no frame or thumbnail rule applies to them, and retention removes
 * them with the task's folder. Everything read back is untrusted: bounded,
 * the manifest's artifact names checked; callers sanitize what they show. */
#ifndef AMC_STORAGE_SOURCES_H
#define AMC_STORAGE_SOURCES_H

#include <stddef.h>
#include "storage/store.h"
#include "util/err.h"

#define AMC_STORE_SOURCES_MANIFEST "source.json"
/* At most this many texts a task, each read back up to this size. */
#define AMC_STORE_SOURCES_MAX 65
#define AMC_STORE_SOURCE_MAX_BYTES (1024u * 1024u)

typedef struct amc_store_source {
	const char *path; /* as the steps name it (sanitized here the same way) */
	const char *text;
} amc_store_source;

/* Store the texts (durably: temp name, fsync, rename), then the manifest.
 * A text over AMC_STORE_SOURCE_MAX_BYTES or past AMC_STORE_SOURCES_MAX is
 * left out. 0, or -1 with e (nothing names a partial file either way). */
int amc_store_put_sources(amc_store *s, const char *task_id, const amc_store_source *src, size_t n, amc_err *e);

/* The text of `path` as task `task_id` ran it: its stored copy when the task
 * has one, else the file at `path` on this disk (a task recorded before
 * copies were kept). *text is malloc'd and NUL-terminated; *stored is 1 for
 * the copy. 0, or -1 with e saying why it cannot be read (the message
 * never holds the file's bytes). s may be NULL: the disk only. */
int amc_store_source_read(const amc_store *s, const char *task_id, const char *path, char **text, size_t *len,
			  int *stored, amc_err *e);

/* The place a flow step's reasoning names ("flow command at PATH:LINE"):
 * 1 with *path (malloc'd) and *line (>= 1); 0 when it names none (a goal's
 * step). */
int amc_store_step_source_place(const char *reasoning, char **path, long *line);

/* fn for each line of text numbered from..to (1-based; fewer where the text
 * ends), the line without its newline (not NUL-terminated): the lines
 * around a step's, as the TUI and `amc show` list them. */
void amc_store_source_lines(const char *text, size_t len, long from, long to,
			    void (*fn)(void *ud, long no, const char *line, size_t n), void *ud);

#endif

/* sources.c - a task's flow texts kept in its folder (sources.h). */
#include "storage/sources.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "storage/store_int.h"
#include "util/fsutil.h"
#include "util/paths.h"
#include "util/sanitize.h"

/* 64 sub-flow and script paths of PATH_MAX and their names fit well within. */
#define MANIFEST_MAX_BYTES (1024u * 1024u)

int amc_store_put_sources(amc_store *s, const char *task_id, const amc_store_source *src, size_t n, amc_err *e)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *files = cJSON_AddArrayToObject(root, "files");
	int rc = 0;
	size_t kept = 0;
	for (size_t i = 0; i < n && kept < AMC_STORE_SOURCES_MAX && rc == 0; i++) {
		size_t len = src[i].text ? strlen(src[i].text) : 0;
		if (!src[i].path || !src[i].text || len > AMC_STORE_SOURCE_MAX_BYTES)
			continue;
		char name[32], rel[PATH_MAX];
		snprintf(name, sizeof name, "source-%zu.txt", kept);
		rc = amc_store_put_artifact(s, task_id, name, src[i].text, len, rel, sizeof rel, e);
		if (rc != 0)
			break;
		cJSON *f = cJSON_CreateObject();
		char *p = amc_sanitize_dup(src[i].path); /* as the steps' reasoning names it */
		cJSON_AddStringToObject(f, "path", p);
		free(p);
		cJSON_AddStringToObject(f, "artifact", name);
		cJSON_AddItemToArray(files, f);
		kept++;
	}
	if (rc == 0) {
		char *json = cJSON_PrintUnformatted(root);
		char rel[PATH_MAX];
		rc = json ? amc_store_put_artifact(s, task_id, AMC_STORE_SOURCES_MANIFEST, json, strlen(json), rel,
						   sizeof rel, e)
			  : amc_err_set(e, AMC_EENV, "cannot write the task's source manifest");
		free(json);
	}
	cJSON_Delete(root);
	return rc;
}

/* "source-N.txt" and nothing else: a manifest changed by hand names no
 * other file. */
static int artifact_name_ok(const char *name)
{
	static const char pre[] = "source-", ext[] = ".txt";
	size_t n = name ? strlen(name) : 0;
	if (n <= sizeof pre - 1 + sizeof ext - 1 || n > 24 || strncmp(name, pre, sizeof pre - 1) ||
	    strcmp(name + n - (sizeof ext - 1), ext))
		return 0;
	for (size_t i = sizeof pre - 1; i < n - (sizeof ext - 1); i++)
		if (name[i] < '0' || name[i] > '9')
			return 0;
	return 1;
}

/* The stored copy: 0 found, 1 the task has none of `path`, -1 e. */
static int read_stored(const amc_store *s, const char *task_id, const char *path, char **text, size_t *len,
		       amc_err *e)
{
	char dir[PATH_MAX], abs[PATH_MAX];
	if (!s || !task_id || snprintf(dir, sizeof dir, "%s/artifacts/%s", amc_store_home(s), task_id) >= (int)sizeof dir ||
	    !amc_store_id_ok(task_id) || amc_path_join(abs, sizeof abs, dir, AMC_STORE_SOURCES_MANIFEST) != 0 ||
	    !amc_file_exists(abs))
		return 1;
	char *buf = NULL;
	size_t blen = 0;
	if (amc_read_file(abs, MANIFEST_MAX_BYTES, &buf, &blen, e) != 0)
		return amc_err_prefix(e, "the task's stored source");
	cJSON *root = cJSON_ParseWithLength(buf, blen);
	free(buf);
	const cJSON *f;
	const char *name = NULL;
	int found = 0;
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(root, "files")) {
		const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "path"));
		if (p && !strcmp(p, path)) {
			name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "artifact"));
			found = 1;
			break;
		}
	}
	int rc = 1;
	if (!root)
		rc = amc_err_set(e, AMC_EENV, "the task's stored source list (%s) is not JSON", AMC_STORE_SOURCES_MANIFEST);
	else if (found && !artifact_name_ok(name))
		rc = amc_err_set(e, AMC_EENV, "the task's stored source list names a file that is not a source copy");
	else if (found && (amc_path_join(abs, sizeof abs, dir, name) != 0 ||
			   amc_read_file(abs, AMC_STORE_SOURCE_MAX_BYTES, text, len, e) != 0))
		rc = amc_err_prefix(e, "the task's stored source");
	else if (found)
		rc = 0;
	cJSON_Delete(root);
	return rc;
}

int amc_store_source_read(const amc_store *s, const char *task_id, const char *path, char **text, size_t *len,
			  int *stored, amc_err *e)
{
	*text = NULL;
	*len = 0;
	*stored = 0;
	int rc = read_stored(s, task_id, path, text, len, e);
	if (rc <= 0) {
		*stored = rc == 0;
		return rc;
	}
	/* an older task: the file as it is now */
	return amc_read_file(path, AMC_STORE_SOURCE_MAX_BYTES, text, len, e);
}

int amc_store_step_source_place(const char *reasoning, char **path, long *line)
{
	static const char AT[] = "flow command at ";
	*path = NULL;
	*line = 0;
	if (!reasoning || strncmp(reasoning, AT, sizeof AT - 1))
		return 0;
	const char *where = reasoning + sizeof AT - 1;
	const char *colon = strrchr(where, ':');
	long l = colon ? strtol(colon + 1, NULL, 10) : 0;
	if (l <= 0 || colon == where)
		return 0;
	*path = amc_xstrndup(where, (size_t)(colon - where));
	*line = l;
	return 1;
}

void amc_store_source_lines(const char *text, size_t len, long from, long to,
			    void (*fn)(void *ud, long no, const char *line, size_t n), void *ud)
{
	const char *p = text, *end = text + len;
	for (long no = 1; p < end && no <= to; no++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (no >= from)
			fn(ud, no, p, n);
		p = nl ? nl + 1 : end;
	}
}

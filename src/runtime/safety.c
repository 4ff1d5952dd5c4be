#include "runtime/safety.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/fsutil.h"
#include "util/paths.h"
#include "util/strbuf.h"

int amc_words_load(const char *path, amc_words *out, amc_err *e)
{
	memset(out, 0, sizeof *out);
	char def[PATH_MAX];
	if (!path || !*path) {
		if (amc_paths_data_dir(def, sizeof def, e) != 0)
			return -1;
		if (strlen(def) + 32 >= sizeof def)
			return amc_err_set(e, AMC_EENV, "data folder path too long");
		strcat(def, "/irreversible-words.txt");
		path = def;
	}
	char *buf;
	size_t len;
	if (amc_read_file(path, 1 << 20, &buf, &len, e) != 0)
		return amc_err_prefix(e, "irreversible-action words");
	size_t cap = 16;
	out->w = amc_xcalloc(cap, sizeof *out->w);
	char *save = NULL; /* strtok_r: runner threads may load lists at once */
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (isspace((unsigned char)*line))
			line++;
		size_t l = strlen(line);
		while (l && isspace((unsigned char)line[l - 1]))
			line[--l] = 0;
		if (!l || *line == '#')
			continue;
		for (size_t i = 0; i < l; i++)
			line[i] = (char)tolower((unsigned char)line[i]);
		if (out->n == cap) {
			cap *= 2;
			out->w = amc_xrealloc(out->w, cap * sizeof *out->w);
		}
		out->w[out->n++] = amc_xstrdup(line);
	}
	free(buf);
	return 0;
}

void amc_words_free(amc_words *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->w[i]);
	free(w->w);
	memset(w, 0, sizeof *w);
}

static int wordch(unsigned char c)
{
	return isalnum(c) || c == '_' || c >= 0x80;
}

const char *amc_words_match(const amc_words *w, const char *text)
{
	if (!w || !text)
		return NULL;
	size_t tl = strlen(text);
	for (size_t i = 0; i < w->n; i++) {
		size_t wl = strlen(w->w[i]);
		if (!wl || wl > tl)
			continue;
		for (size_t p = 0; p + wl <= tl; p++) {
			if (strncasecmp(text + p, w->w[i], wl))
				continue;
			if (p > 0 && wordch((unsigned char)text[p - 1]))
				continue;
			if (p + wl < tl && wordch((unsigned char)text[p + wl]))
				continue;
			return w->w[i];
		}
	}
	return NULL;
}

const amc_element *amc_scene_element_at(const amc_scene *s, int x, int y)
{
	const amc_element *best = NULL;
	long long best_area = 0;
	for (size_t i = 0; s && i < s->count; i++) {
		const amc_bounds *b = &s->elements[i].bounds;
		if (x < b->x1 || x >= b->x2 || y < b->y1 || y >= b->y2)
			continue;
		long long area = (long long)(b->x2 - b->x1) * (b->y2 - b->y1);
		if (!best || area <= best_area) {
			best = &s->elements[i];
			best_area = area;
		}
	}
	return best;
}

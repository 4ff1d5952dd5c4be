/* theme.c - theme files (see theme.h). */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tui/text.h"
#include "tui/theme.h"
#include "util/fsutil.h"
#include "util/paths.h"
#include "util/sanitize.h"
#include "util/status.h"

static const char *const EL_NAMES[AMC_EL__COUNT] = {
	"normal", "title", "status", "selected", "border", "focus", "dim", "error", "key", "target",
	"queued", "running", "succeeded", "failed", "cancelled", "interrupted", "waiting_user",
	"added", "removed", "changed", "warn",
};

static attr_t current[AMC_EL__COUNT];

void amc_tui_theme_mono(amc_tui_theme *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "monochrome");
	for (int i = 0; i < AMC_EL__COUNT; i++) {
		t->fg[i] = t->bg[i] = -1;
		t->attr[i] = A_NORMAL;
	}
	t->attr[AMC_EL_TITLE] = A_BOLD;
	t->attr[AMC_EL_STATUS] = A_REVERSE;
	t->attr[AMC_EL_SELECTED] = A_REVERSE;
	t->attr[AMC_EL_FOCUS] = A_BOLD;
	t->attr[AMC_EL_DIM] = A_DIM;
	t->attr[AMC_EL_ERROR] = A_BOLD;
	t->attr[AMC_EL_KEY] = A_BOLD;
	t->attr[AMC_EL_TARGET] = A_REVERSE | A_BOLD;
	t->attr[AMC_EL_RUNNING] = A_BOLD;
	t->attr[AMC_EL_FAILED] = A_BOLD;
	t->attr[AMC_EL_WARN] = A_BOLD;
}

static int parse_colour(const char *w, int *out)
{
	static const char *const names[] = { "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white" };
	if (!strcmp(w, "default")) {
		*out = -1;
		return 0;
	}
	int bright = 0;
	if (!strncmp(w, "bright-", 7)) {
		bright = 8;
		w += 7;
	}
	for (int i = 0; i < 8; i++)
		if (!strcmp(w, names[i])) {
			*out = i + bright;
			return 0;
		}
	if (bright)
		return -1;
	char *end;
	long v = strtol(w, &end, 10);
	if (!*w || *end || v < 0 || v > 255)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_attr(const char *w, attr_t *a)
{
	static const struct {
		const char *n;
		attr_t a;
	} names[] = { { "bold", A_BOLD }, { "dim", A_DIM }, { "reverse", A_REVERSE },
		      { "underline", A_UNDERLINE }, { "standout", A_STANDOUT }, { "normal", A_NORMAL } };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(w, names[i].n)) {
			*a |= names[i].a;
			return 0;
		}
	return -1;
}

int amc_tui_theme_parse(amc_tui_theme *t, const char *buf, size_t len, const char *name, amc_err *e)
{
	amc_tui_theme_mono(t);
	snprintf(t->name, sizeof t->name, "%s", name);
	size_t pos = 0;
	int lineno = 0;
	while (pos < len) {
		size_t end = pos;
		while (end < len && buf[end] != '\n')
			end++;
		lineno++;
		char line[512];
		size_t n = end - pos < sizeof line - 1 ? end - pos : sizeof line - 1;
		memcpy(line, buf + pos, n);
		line[n] = 0;
		pos = end + 1;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *words[8];
		int nw = 0;
		char *save = NULL;
		for (char *tok = strtok_r(line, " \t\r=", &save); tok && nw < 8; tok = strtok_r(NULL, " \t\r=", &save))
			words[nw++] = tok;
		if (nw == 0)
			continue;
		char *safe = amc_sanitize_dup(words[0]);
		int el = -1;
		for (int i = 0; i < AMC_EL__COUNT; i++)
			if (!strcmp(words[0], EL_NAMES[i]))
				el = i;
		if (el < 0) {
			amc_err_set(e, AMC_EUSAGE, "%s:%d: unknown element '%s'", name, lineno, safe);
			free(safe);
			return -1;
		}
		free(safe);
		if (nw < 3) {
			return amc_err_set(e, AMC_EUSAGE, "%s:%d: '%s' needs a foreground and a background colour",
					   name, lineno, EL_NAMES[el]);
		}
		int fg, bg;
		attr_t a = A_NORMAL;
		if (parse_colour(words[1], &fg) != 0 || parse_colour(words[2], &bg) != 0) {
			char *w = amc_sanitize_dup(parse_colour(words[1], &fg) != 0 ? words[1] : words[2]);
			amc_err_set(e, AMC_EUSAGE, "%s:%d: bad colour '%s' (a name like red, bright-red, default, or 0..255)",
				    name, lineno, w);
			free(w);
			return -1;
		}
		for (int i = 3; i < nw; i++)
			if (parse_attr(words[i], &a) != 0) {
				char *w = amc_sanitize_dup(words[i]);
				amc_err_set(e, AMC_EUSAGE, "%s:%d: unknown attribute '%s'", name, lineno, w);
				free(w);
				return -1;
			}
		t->fg[el] = fg;
		t->bg[el] = bg;
		t->attr[el] = a;
		t->has_colour[el] = 1;
	}
	return 0;
}

/* Theme names are plain words: they become file names. */
static int valid_name(const char *n)
{
	if (!*n || strlen(n) > 48)
		return 0;
	for (const char *p = n; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return 0;
	return 1;
}

static int load_file(amc_tui_theme *t, const char *name, amc_err *e)
{
	char dir[PATH_MAX], path[PATH_MAX + 80]; /* dir, "/themes/", a name of at most 48, ".theme" */
	amc_err ign;
	const char *builtin = NULL;
	char data[PATH_MAX];
	if (amc_paths_config_dir(dir, sizeof dir, &ign) == 0) {
		snprintf(path, sizeof path, "%s/themes/%s.theme", dir, name);
		if (amc_file_exists(path))
			builtin = path;
	}
	if (!builtin) {
		/* Bundled themes sit beside the bundled data: $(pkgdatadir)/themes, or
		 * the source tree's themes/ when running from the build folder. */
		if (amc_paths_data_dir(data, sizeof data, &ign) == 0) {
			snprintf(path, sizeof path, "%s/themes/%s.theme", data, name);
			if (!amc_file_exists(path))
				snprintf(path, sizeof path, "%s/../themes/%s.theme", data, name);
			if (amc_file_exists(path))
				builtin = path;
		}
	}
	if (!builtin)
		return amc_err_set(e, AMC_EUSAGE, "no theme '%s' (looked in $XDG_CONFIG_HOME/amc/themes and the bundled themes)", name);
	char *buf;
	size_t len;
	if (amc_read_file(builtin, 64 * 1024, &buf, &len, e) != 0)
		return -1;
	int rc = amc_tui_theme_parse(t, buf, len, builtin, e);
	free(buf);
	if (rc == 0)
		snprintf(t->name, sizeof t->name, "%s", name);
	return rc;
}

int amc_tui_theme_load(amc_tui_theme *t, const char *name, amc_err *e)
{
	if (getenv("NO_COLOR") || !strcmp(name, "monochrome")) {
		amc_tui_theme_mono(t);
		return 0;
	}
	if (!valid_name(name)) {
		char *s = amc_sanitize_dup(name);
		amc_err_set(e, AMC_EUSAGE, "bad theme name '%s' (letters, digits, - and _)", s);
		free(s);
	} else if (load_file(t, name, e) == 0) {
		return 0;
	}
	amc_err ign;
	if (strcmp(name, "default") != 0 && load_file(t, "default", &ign) == 0)
		return -1;
	amc_tui_theme_mono(t);
	return -1;
}

void amc_tui_theme_apply(const amc_tui_theme *t)
{
	/* COLORS is known only after start_color(). NO_COLOR: colours are never
	 * started, so nothing (screenshots included) is drawn in colour. */
	int nocolour = getenv("NO_COLOR") != NULL;
	if (has_colors() && !nocolour) {
		start_color();
		use_default_colors();
	}
	int colour = !nocolour && has_colors() && COLORS >= 8;
	for (int i = 0; i < AMC_EL__COUNT; i++) {
		current[i] = t->attr[i];
		if (colour && t->has_colour[i] && t->fg[i] < COLORS && t->bg[i] < COLORS) {
			int pair = alloc_pair(t->fg[i], t->bg[i]);
			if (pair > 0 && pair < 256)
				current[i] |= COLOR_PAIR(pair);
		} else if (colour && t->has_colour[i]) {
			/* A 256-colour theme on an 8-colour terminal: keep its attributes
			 * and fall back to the monochrome look for this element. */
			amc_tui_theme m;
			amc_tui_theme_mono(&m);
			current[i] = m.attr[i] | t->attr[i];
		}
	}
	if (!colour) {
		/* Selection and status must stay visible without colours. */
		amc_tui_theme m;
		amc_tui_theme_mono(&m);
		for (int i = 0; i < AMC_EL__COUNT; i++)
			current[i] = t->attr[i] | m.attr[i];
	}
}

attr_t amc_tui_attr(amc_tui_el el)
{
	return el < AMC_EL__COUNT ? current[el] : A_NORMAL;
}

amc_tui_el amc_tui_status_el(const char *s)
{
	/* A step's "ok" is drawn as a succeeded task. The status elements
	 * follow the status table's order (theme.h). */
	int i = amc_status_index(s && !strcmp(s, "ok") ? AMC_ST_SUCCEEDED : s);
	return i < 0 ? AMC_EL_NORMAL : (amc_tui_el)(AMC_EL_QUEUED + i);
}

const char *amc_tui_status_symbol(const char *s)
{
	const amc_status_info *st = amc_status_find(s && !strcmp(s, "ok") ? AMC_ST_SUCCEEDED : s);
	if (!st)
		return "?";
	return amc_tui_utf8() ? st->symbol : st->ascii;
}

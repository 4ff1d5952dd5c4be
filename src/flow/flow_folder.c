/* flow_folder.c - a folder of flows: listing, tags, JUnit (see flow_folder.h). */
#include "flow/flow_folder.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "flow/flow.h"
#include "flow/flow_yaml.h"
#include "util/strbuf.h"

static void flow_free(amc_folder_flow *f)
{
	free(f->path);
	free(f->name);
	for (size_t t = 0; t < f->ntags; t++)
		free(f->tags[t]);
	free(f->tags);
	free(f->message);
	free(f->task_id);
}

void amc_flow_folder_free(amc_flow_folder *s)
{
	for (size_t i = 0; i < s->n; i++)
		flow_free(&s->v[i]);
	free(s->v);
	free(s->config);
	memset(s, 0, sizeof *s);
}

/* name: and tags: of the config document, when there is one. */
static void read_config(amc_folder_flow *f)
{
	char *text;
	size_t len;
	amc_err e;
	if (amc_flow_read(f->path, &text, &len, &e) != 0)
		return;
	amc_flow_yaml y;
	amc_flow_yaml_init(&y, f->path, &e);
	if (amc_flow_yaml_read(&y, text, len) == 0 && y.ndocs == 2) {
		const yaml_node_t *root = amc_flow_yaml_use(&y, 0);
		if (root && root->type == YAML_MAPPING_NODE) {
			for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
				const yaml_node_t *k = amc_flow_yaml_node(&y, p->key);
				const yaml_node_t *v = amc_flow_yaml_node(&y, p->value);
				if (!k || k->type != YAML_SCALAR_NODE || !v)
					continue;
				const char *kn = (const char *)k->data.scalar.value;
				if (!strcmp(kn, "name") && v->type == YAML_SCALAR_NODE && !f->name)
					f->name = amc_xstrdup((const char *)v->data.scalar.value);
				if (strcmp(kn, "tags") != 0 || v->type != YAML_SEQUENCE_NODE)
					continue;
				for (yaml_node_item_t *i = v->data.sequence.items.start;
				     i < v->data.sequence.items.top && f->ntags < 256; i++) {
					const yaml_node_t *t = amc_flow_yaml_node(&y, *i);
					if (!t || t->type != YAML_SCALAR_NODE)
						continue;
					f->tags = amc_xrealloc(f->tags, (f->ntags + 1) * sizeof *f->tags);
					f->tags[f->ntags++] = amc_xstrdup((const char *)t->data.scalar.value);
				}
			}
		}
	}
	amc_flow_yaml_close(&y);
	free(text);
}

/* Is one of the flow's tags in the comma-separated list? */
static int has_tag(const amc_folder_flow *f, const char *list)
{
	for (size_t t = 0; t < f->ntags; t++) {
		size_t l = strlen(f->tags[t]);
		for (const char *p = list; *p;) {
			const char *c = strchr(p, ',');
			size_t n = c ? (size_t)(c - p) : strlen(p);
			if (n == l && !memcmp(p, f->tags[t], l))
				return 1;
			p += n + (c ? 1 : 0);
		}
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int collect(const char *dir, int level, char ***paths, size_t *n, amc_err *e)
{
	DIR *d = opendir(dir);
	if (!d)
		return amc_err_set(e, AMC_EUSAGE, "cannot read the folder %s: %s", dir, strerror(errno));
	char **names = NULL;
	size_t nn = 0;
	struct dirent *de;
	while ((de = readdir(d)) && nn < AMC_FLOW_FOLDER_MAX) {
		/* hidden folders are walked: Maestro's own is .maestro/ */
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, ".git"))
			continue;
		names = amc_xrealloc(names, (nn + 1) * sizeof *names);
		names[nn++] = amc_xstrdup(de->d_name);
	}
	closedir(d);
	if (nn > 1) /* an empty folder leaves names NULL, and qsort's base must not be NULL even for 0 */
		qsort(names, nn, sizeof *names, by_name);
	int rc = 0;
	for (size_t i = 0; i < nn; i++) {
		char p[PATH_MAX];
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		struct stat st;
		size_t l = strlen(names[i]);
		int flow = (l > 5 && !strcmp(names[i] + l - 5, ".yaml")) || (l > 4 && !strcmp(names[i] + l - 4, ".yml"));
		if (!strcmp(names[i], "config.yaml") || !strcmp(names[i], "config.yml"))
			flow = 0;
		if (rc == 0 && stat(p, &st) == 0) {
			if (S_ISDIR(st.st_mode) && level < 16)
				rc = collect(p, level + 1, paths, n, e);
			else if (S_ISREG(st.st_mode) && flow && *n < AMC_FLOW_FOLDER_MAX) {
				*paths = amc_xrealloc(*paths, (*n + 1) * sizeof **paths);
				(*paths)[(*n)++] = amc_xstrdup(p);
			}
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/* ---- the workspace config (Maestro's WorkspaceConfig) ---- */

typedef struct wcfg {
	amc_sb flows;      /* globs, one per line ("*" when none) */
	amc_sb include, exclude; /* comma-separated */
	amc_sb order;      /* flowsOrder names, one per line */
	int continue_on_failure;
} wcfg;

/* A scalar or a list of scalars into sb, joined by sep. */
static void texts(amc_flow_yaml *y, const yaml_node_t *v, amc_sb *sb, char sep)
{
	if (v && v->type == YAML_SCALAR_NODE) {
		if (sb->len)
			amc_sb_putc(sb, sep);
		amc_sb_puts(sb, (const char *)v->data.scalar.value);
		return;
	}
	if (!v || v->type != YAML_SEQUENCE_NODE)
		return;
	for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top; i++)
		texts(y, amc_flow_yaml_node(y, *i), sb, sep);
}

/* DIR/config.yaml (or .yml): 0 read or absent, -1 an error in e. */
static int read_workspace(const char *dir, wcfg *w, char **used, amc_err *e)
{
	char p[PATH_MAX];
	char *text = NULL;
	size_t len = 0;
	w->continue_on_failure = 1;
	for (int k = 0; k < 2 && !text; k++) {
		snprintf(p, sizeof p, "%s/%s", dir, k ? "config.yml" : "config.yaml");
		struct stat st;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && amc_flow_read(p, &text, &len, e) != 0)
			return -1;
	}
	if (!text)
		return 0;
	*used = amc_xstrdup(p);
	amc_flow_yaml y;
	amc_flow_yaml_init(&y, p, e);
	int rc = amc_flow_yaml_read(&y, text, len);
	const yaml_node_t *root = rc == 0 && y.ndocs >= 1 ? amc_flow_yaml_use(&y, 0) : NULL;
	if (rc == 0 && root && root->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
			const yaml_node_t *k = amc_flow_yaml_node(&y, pr->key);
			const yaml_node_t *v = amc_flow_yaml_node(&y, pr->value);
			const char *kn = k && k->type == YAML_SCALAR_NODE ? (const char *)k->data.scalar.value : "";
			if (!strcmp(kn, "flows"))
				texts(&y, v, &w->flows, '\n');
			else if (!strcmp(kn, "includeTags"))
				texts(&y, v, &w->include, ',');
			else if (!strcmp(kn, "excludeTags"))
				texts(&y, v, &w->exclude, ',');
			else if (!strcmp(kn, "executionOrder") && v && v->type == YAML_MAPPING_NODE) {
				for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
					const yaml_node_t *k2 = amc_flow_yaml_node(&y, q->key);
					const yaml_node_t *v2 = amc_flow_yaml_node(&y, q->value);
					const char *k2n = k2 && k2->type == YAML_SCALAR_NODE ? (const char *)k2->data.scalar.value
											     : "";
					if (!strcmp(k2n, "flowsOrder"))
						texts(&y, v2, &w->order, '\n');
					else if (!strcmp(k2n, "continueOnFailure") &&
						 amc_flow_yaml_bool(&y, v2, "executionOrder continueOnFailure",
								    &w->continue_on_failure) != 0)
						rc = -1;
				}
			} /* other keys (platform, appId, ...) are the runner's, not the plan's */
		}
	} else if (rc == 0 && root && !amc_flow_yaml_is_null(root)) {
		rc = amc_flow_yaml_err(&y, root, "a workspace config is a mapping (flows, includeTags, excludeTags, "
				       "executionOrder)");
	}
	amc_flow_yaml_close(&y);
	free(text);
	return rc;
}

/* Java's glob as Maestro's PathMatcher reads it: `**` any characters, `*`
 * and `?` any but '/'; {a,b} alternatives. */
static int glob_match(const char *g, const char *s)
{
	for (; *g; g++, s++) {
		if (g[0] == '*' && g[1] == '*') {
			g += 2;
			if (*g == '/' && glob_match(g + 1, s))
				return 1; /* the slash after a double star may match nothing */
			for (;; s++) {
				if (glob_match(g, s))
					return 1;
				if (!*s)
					return 0;
			}
		}
		if (*g == '*') {
			for (;; s++) {
				if (glob_match(g + 1, s))
					return 1;
				if (!*s || *s == '/')
					return 0;
			}
		}
		if (*g == '{') {
			const char *end = strchr(g, '}');
			if (!end)
				return 0;
			for (const char *a = g + 1; a < end;) {
				size_t n = strcspn(a, ",}");
				char alt[PATH_MAX];
				snprintf(alt, sizeof alt, "%.*s%s", (int)n, a, end + 1);
				if (glob_match(alt, s))
					return 1;
				a += n + 1;
			}
			return 0;
		}
		if (!*s || (*g == '?' ? *s == '/' : *g != *s))
			return 0;
	}
	return *s == '\0';
}

static int any_glob(const char *globs, const char *rel)
{
	for (const char *p = globs; *p;) {
		size_t n = strcspn(p, "\n");
		char g[PATH_MAX];
		snprintf(g, sizeof g, "%.*s", (int)n, p);
		if (n && glob_match(g, rel))
			return 1;
		p += n + (p[n] == '\n');
	}
	return 0;
}

static void wcfg_free(wcfg *w)
{
	amc_sb_free(&w->flows);
	amc_sb_free(&w->include);
	amc_sb_free(&w->exclude);
	amc_sb_free(&w->order);
}

/* executionOrder.flowsOrder: those flows first, in that order. */
static int apply_order(amc_flow_folder *out, const char *order, amc_err *e)
{
	size_t at = 0;
	for (const char *p = order; *p;) {
		size_t n = strcspn(p, "\n");
		size_t i;
		for (i = at; i < out->n; i++) {
			const char *nm = out->v[i].name, *dot = strrchr(nm, '.');
			size_t l = dot && (!strcmp(dot, ".yaml") || !strcmp(dot, ".yml")) ? (size_t)(dot - nm) : strlen(nm);
			if ((l == n && !strncmp(nm, p, n)) || (strlen(nm) == n && !strncmp(nm, p, n)))
				break;
		}
		if (n && i == out->n)
			return amc_err_set(e, AMC_EUSAGE, "executionOrder.flowsOrder names '%.*s', which none of the "
					   "selected flows is called", (int)(n > 200 ? 200 : n), p);
		if (n) {
			amc_folder_flow f = out->v[i];
			memmove(&out->v[at + 1], &out->v[at], (i - at) * sizeof *out->v);
			out->v[at] = f;
			out->v[at++].in_order = 1;
		}
		p += n + (p[n] == '\n');
	}
	return 0;
}

int amc_flow_folder_list(const char *dir, const char *include, const char *exclude, amc_flow_folder *out,
		   amc_err *e)
{
	memset(out, 0, sizeof *out);
	out->continue_on_failure = 1;
	wcfg w;
	memset(&w, 0, sizeof w);
	amc_sb_init(&w.flows);
	amc_sb_init(&w.include);
	amc_sb_init(&w.exclude);
	amc_sb_init(&w.order);
	if (read_workspace(dir, &w, &out->config, e) != 0) {
		wcfg_free(&w);
		amc_flow_folder_free(out);
		return -1;
	}
	out->continue_on_failure = w.continue_on_failure;
	int default_globs = w.flows.len == 0;
	if (default_globs)
		amc_sb_puts(&w.flows, "*"); /* the top-level flows only, as Maestro */
	/* the command line's tags and the config's together */
	if (include && *include)
		amc_sb_printf(&w.include, "%s%s", w.include.len ? "," : "", include);
	if (exclude && *exclude)
		amc_sb_printf(&w.exclude, "%s%s", w.exclude.len ? "," : "", exclude);
	const char *inc = amc_sb_str(&w.include), *exc = amc_sb_str(&w.exclude);
	char **paths = NULL;
	size_t n = 0, globbed = 0;
	size_t dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	int rc = collect(dir, 0, &paths, &n, e);
	for (size_t i = 0; i < n; i++) {
		const char *rel = paths[i] + dl + (paths[i][dl] == '/');
		if (rc != 0 || !any_glob(amc_sb_str(&w.flows), rel)) {
			free(paths[i]);
			continue;
		}
		globbed++;
		amc_folder_flow f = { .path = paths[i] };
		read_config(&f);
		int keep = (!*inc || has_tag(&f, inc)) && !(*exc && has_tag(&f, exc));
		if (!keep) {
			flow_free(&f);
			continue;
		}
		if (!f.name) {
			const char *b = strrchr(f.path, '/');
			f.name = amc_xstrdup(b ? b + 1 : f.path);
		}
		out->v = amc_xrealloc(out->v, (out->n + 1) * sizeof *out->v);
		out->v[out->n++] = f;
	}
	free(paths);
	/* an empty selection is an error, saying which rule emptied it */
	if (rc == 0 && globbed == 0)
		rc = default_globs ? amc_err_set(e, AMC_EUSAGE, "the folder %s has no top-level flows (Maestro runs "
						 "the top level only; a config.yaml with flows: [\"**\"] or "
						 "[\"sub/*\"] selects flows in sub-folders)", dir)
				   : amc_err_set(e, AMC_EUSAGE, "the flows: patterns of %s match no flow file",
						 out->config);
	else if (rc == 0 && out->n == 0)
		rc = amc_err_set(e, AMC_EUSAGE, "no flow of %s matches the tags (include: %s; exclude: %s)", dir,
				 *inc ? inc : "any", *exc ? exc : "none");
	if (rc == 0 && w.order.len)
		rc = apply_order(out, amc_sb_str(&w.order), e);
	wcfg_free(&w);
	if (rc != 0)
		amc_flow_folder_free(out);
	return rc;
}

static void xml_escape(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if (*p < 0x20 && *p != '\n' && *p != '\t')
				fputc('?', f); /* not allowed in XML 1.0 */
			else
				fputc(*p, f);
		}
	}
}

int amc_flow_folder_write_junit(const amc_flow_folder *s, const char *suite_name, const char *path, amc_err *e)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return amc_err_set(e, AMC_EUSAGE, "cannot write the JUnit report %s: %s", path,
				   strerror(errno));
	size_t tests = 0, failures = 0;
	double total = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].ran) {
			tests++;
			failures += !s->v[i].passed;
			total += s->v[i].seconds;
		}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"", f);
	xml_escape(f, suite_name);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" time=\"%.3f\">\n", tests, failures, total);
	for (size_t i = 0; i < s->n; i++) {
		const amc_folder_flow *t = &s->v[i];
		if (!t->ran)
			continue;
		fputs("    <testcase name=\"", f);
		xml_escape(f, t->name);
		fputs("\" classname=\"", f);
		xml_escape(f, t->path);
		fprintf(f, "\" time=\"%.3f\">", t->seconds);
		if (t->task_id) {
			fputs("\n      <system-out>amc task ", f);
			xml_escape(f, t->task_id);
			fputs("</system-out>", f);
		}
		if (!t->passed) {
			fputs("\n      <failure message=\"", f);
			xml_escape(f, t->message ? t->message : "failed");
			fputs("\"/>", f);
		}
		fputs("\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (fclose(f) != 0)
		return amc_err_set(e, AMC_EUSAGE, "cannot write the JUnit report %s", path);
	return 0;
}

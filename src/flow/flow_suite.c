/* flow_suite.c - a folder of flows: listing, tags, JUnit (see flow_suite.h). */
#include "flow/flow_suite.h"

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

static void flow_free(amc_suite_flow *f)
{
	free(f->path);
	free(f->name);
	for (size_t t = 0; t < f->ntags; t++)
		free(f->tags[t]);
	free(f->tags);
	free(f->message);
	free(f->task_id);
}

void amc_suite_free(amc_suite *s)
{
	for (size_t i = 0; i < s->n; i++)
		flow_free(&s->v[i]);
	free(s->v);
	memset(s, 0, sizeof *s);
}

/* name: and tags: of the config document, when there is one. */
static void read_config(amc_suite_flow *f)
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
static int has_tag(const amc_suite_flow *f, const char *list)
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
	while ((de = readdir(d)) && nn < AMC_SUITE_MAX_FLOWS) {
		/* hidden folders are walked: Maestro's own is .maestro/ */
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !strcmp(de->d_name, ".git"))
			continue;
		names = amc_xrealloc(names, (nn + 1) * sizeof *names);
		names[nn++] = amc_xstrdup(de->d_name);
	}
	closedir(d);
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
			else if (S_ISREG(st.st_mode) && flow && *n < AMC_SUITE_MAX_FLOWS) {
				*paths = amc_xrealloc(*paths, (*n + 1) * sizeof **paths);
				(*paths)[(*n)++] = amc_xstrdup(p);
			}
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int amc_suite_list(const char *dir, const char *include, const char *exclude, amc_suite *out,
		   amc_err *e)
{
	memset(out, 0, sizeof *out);
	char **paths = NULL;
	size_t n = 0;
	int rc = collect(dir, 0, &paths, &n, e);
	for (size_t i = 0; i < n; i++) {
		amc_suite_flow f = { .path = paths[i] };
		read_config(&f);
		int keep = rc == 0 && (!include || !*include || has_tag(&f, include)) &&
			   !(exclude && *exclude && has_tag(&f, exclude));
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
	if (rc != 0)
		amc_suite_free(out);
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

int amc_suite_write_junit(const amc_suite *s, const char *suite_name, const char *path, amc_err *e)
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
		const amc_suite_flow *t = &s->v[i];
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

#include "runtime/secrets.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image/png.h"
#include "util/fsutil.h"
#include "util/log.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define OPEN "{{secret:"

typedef struct secret {
	char name[AMC_SECRET_NAME_MAX + 1];
	char *value;
} secret;

struct amc_secrets {
	secret *v;
	size_t n;
};

static int name_ok(const char *s, size_t n)
{
	if (n == 0 || n > AMC_SECRET_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return 0;
	return 1;
}

/* Next placeholder at or after p: its start, name and name length; returns
 * the end, or NULL if none. */
static const char *next_ph(const char *p, const char **start, const char **name, size_t *nlen)
{
	while ((p = strstr(p, OPEN)) != NULL) {
		const char *nm = p + strlen(OPEN);
		const char *end = strstr(nm, "}}");
		if (end && name_ok(nm, (size_t)(end - nm))) {
			*start = p;
			*name = nm;
			*nlen = (size_t)(end - nm);
			return end + 2;
		}
		p = nm;
	}
	return NULL;
}

static char *from_file(const char *file, const char *name, amc_err *e, int *err)
{
	*err = 0;
	if (!file || !*file)
		return NULL;
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & 077)) {
		if (fd >= 0)
			close(fd);
		*err = 1;
		char *f = amc_sanitize_dup(file);
		amc_err_set(e, AMC_EENV, "secrets file %s must exist and be a regular file with mode 0600", f);
		free(f);
		return NULL;
	}
	char *buf = NULL;
	size_t len = 0;
	amc_err re;
	int rc = amc_read_fd(fd, 1 << 20, "secrets file", &buf, &len, &re);
	close(fd);
	if (rc != 0) {
		*err = 1;
		amc_err_set(e, AMC_EENV, "cannot read the secrets file");
		return NULL;
	}
	char *val = NULL, *save = NULL;
	size_t nl = strlen(name);
	for (char *l = strtok_r(buf, "\n", &save); l && !val; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, name, nl) && l[nl] == '=') {
			size_t vl = strcspn(l + nl + 1, "\r");
			val = amc_xstrndup(l + nl + 1, vl);
		}
	}
	memset(buf, 0, len);
	free(buf);
	return val;
}

int amc_secrets_resolve(const char *text, const char *file, amc_secrets **out, amc_err *e)
{
	*out = NULL;
	amc_secrets *s = NULL;
	const char *p = text, *st, *nm;
	size_t nl;
	while (p && (p = next_ph(p, &st, &nm, &nl)) != NULL) {
		char name[AMC_SECRET_NAME_MAX + 1];
		memcpy(name, nm, nl);
		name[nl] = 0;
		int have = 0;
		for (size_t i = 0; s && i < s->n; i++)
			if (!strcmp(s->v[i].name, name))
				have = 1;
		if (have)
			continue;
		char env[AMC_SECRET_NAME_MAX + 16];
		snprintf(env, sizeof env, "AMC_SECRET_%s", name);
		const char *ev = getenv(env);
		char *val = ev && *ev ? amc_xstrdup(ev) : NULL;
		int ferr = 0;
		if (!val)
			val = from_file(file, name, e, &ferr);
		if (!val || !*val) {
			free(val);
			amc_secrets_free(s);
			if (!ferr)
				amc_err_set(e, AMC_EUSAGE, "secret %s has no value: export %s or add %s=... to the 0600 file named by secrets.file",
					    name, env, name);
			return -1;
		}
		if (!s)
			s = amc_xcalloc(1, sizeof *s);
		s->v = amc_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
		snprintf(s->v[s->n].name, sizeof s->v[s->n].name, "%s", name);
		s->v[s->n].value = val;
		s->n++;
	}
	*out = s;
	return 0;
}

void amc_secrets_free(amc_secrets *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		memset(s->v[i].value, 0, strlen(s->v[i].value));
		free(s->v[i].value);
	}
	free(s->v);
	free(s);
}

size_t amc_secrets_count(const amc_secrets *s)
{
	return s ? s->n : 0;
}

char *amc_secrets_expand(const amc_secrets *s, const char *in, amc_err *e)
{
	amc_sb sb;
	amc_sb_init(&sb);
	const char *p = in, *st, *nm, *end;
	size_t nl;
	while ((end = next_ph(p, &st, &nm, &nl)) != NULL) {
		amc_sb_append(&sb, p, (size_t)(st - p));
		const secret *hit = NULL;
		for (size_t i = 0; s && i < s->n; i++)
			if (strlen(s->v[i].name) == nl && !strncmp(s->v[i].name, nm, nl))
				hit = &s->v[i];
		if (!hit) {
			amc_sb_free(&sb);
			amc_err_set(e, AMC_EUSAGE, "secret %.*s is not one of the goal's or flow's secrets", (int)nl, nm);
			return NULL;
		}
		amc_sb_puts(&sb, hit->value);
		p = end;
	}
	amc_sb_puts(&sb, p);
	return amc_sb_detach(&sb);
}

int amc_secrets_found(const amc_secrets *s, const char *in)
{
	for (size_t i = 0; s && in && i < s->n; i++)
		if (strstr(in, s->v[i].value))
			return 1;
	return 0;
}

char *amc_secrets_mask(const amc_secrets *s, const char *in)
{
	if (!in)
		return NULL;
	char *cur = amc_xstrdup(in);
	for (size_t i = 0; s && i < s->n; i++) {
		const char *val = s->v[i].value;
		size_t vl = strlen(val);
		if (!strstr(cur, val))
			continue;
		amc_sb sb;
		amc_sb_init(&sb);
		const char *p = cur, *q;
		while ((q = strstr(p, val)) != NULL) {
			amc_sb_append(&sb, p, (size_t)(q - p));
			amc_sb_printf(&sb, OPEN "%s}}", s->v[i].name);
			p = q + vl;
		}
		amc_sb_puts(&sb, p);
		free(cur);
		cur = amc_sb_detach(&sb);
	}
	return cur;
}

static int mask_str(const amc_secrets *s, char **field)
{
	if (!*field || !amc_secrets_found(s, *field))
		return 0;
	char *m = amc_secrets_mask(s, *field);
	free(*field);
	*field = m;
	return 1;
}

static void black(amc_image *img, amc_bounds b)
{
	if (!img->px)
		return;
	int x1 = b.x1 < 0 ? 0 : b.x1, y1 = b.y1 < 0 ? 0 : b.y1;
	int x2 = b.x2 > img->w ? img->w : b.x2, y2 = b.y2 > img->h ? img->h : b.y2;
	for (int y = y1; y < y2; y++)
		for (int x = x1; x < x2; x++) {
			unsigned char *px = img->px + ((size_t)y * img->w + x) * 4;
			px[0] = px[1] = px[2] = 0;
			px[3] = 255;
		}
}

int amc_secrets_mask_observation(const amc_secrets *s, amc_observation *o, const amc_bounds *extra, size_t nextra)
{
	if (!s || !s->n)
		return 0;
	int regions = 0;
	for (size_t i = 0; i < o->tree.count; i++) {
		amc_ui_node *n = &o->tree.nodes[i];
		int hit = mask_str(s, &n->text) | mask_str(s, &n->content_desc) | mask_str(s, &n->hint);
		if (hit) {
			black(&o->img, n->bounds);
			regions++;
		}
	}
	for (size_t i = 0; i < o->scene.count; i++) {
		amc_element *el = &o->scene.elements[i];
		if (mask_str(s, &el->text)) {
			black(&o->img, el->bounds);
			regions++;
		}
	}
	mask_str(s, &o->ocr_json);
	if (o->xml && amc_secrets_found(s, o->xml)) {
		char *m = amc_secrets_mask(s, o->xml);
		free(o->xml);
		o->xml = m;
	}
	for (size_t i = 0; i < nextra; i++) {
		black(&o->img, extra[i]);
		regions++;
	}
	if (regions && o->img.px) {
		unsigned char *png = NULL;
		size_t len = 0;
		amc_err e;
		if (amc_png_encode(&o->img, 6, &png, &len, &e) == 0) {
			free(o->png);
			o->png = png;
			o->png_len = len;
		} else {
			/* never store the unmasked pixels */
			amc_log_error("secrets: cannot re-encode a masked screenshot: %s", e.msg);
			free(o->png);
			o->png = NULL;
			o->png_len = 0;
		}
	}
	return regions;
}

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
#include "util/jsonutil.h"
#include "util/log.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define OPEN "{{secret:"
#define ENV_PREFIX "AMC_SECRET_"

extern char **environ;

typedef struct secret {
	char name[AMC_SECRET_NAME_MAX + 1];
	char *value;
	size_t len;
	int named; /* the goal/flow names it: amc_secrets_expand may type it */
} secret;

struct amc_secrets {
	secret *v; /* longest value first, so a value holding another is masked whole */
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

static void zfree(char *p)
{
	if (p) {
		memset(p, 0, strlen(p));
		free(p);
	}
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

/* The secrets file's contents (zero and free), or NULL with *err set when it is
 * configured but unusable: masking could not be promised. */
static char *read_file(const char *file, amc_err *e, int *err)
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
		amc_err_set(e, AMC_EENV, "cannot read the secrets file (at most 1 MiB of NAME=VALUE lines)");
		return NULL;
	}
	return buf;
}

/* The next NAME=VALUE line of a secrets file at *pos: name and value (the value
 * up to the line end, a trailing CR dropped). 0 at the end. Other lines are
 * skipped. */
static int next_line(const char **pos, const char **name, size_t *nlen, const char **val, size_t *vlen)
{
	const char *p = *pos;
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t ll = eol ? (size_t)(eol - p) : strlen(p);
		const char *eq = memchr(p, '=', ll);
		*pos = eol ? eol + 1 : p + ll;
		if (eq && name_ok(p, (size_t)(eq - p))) {
			*name = p;
			*nlen = (size_t)(eq - p);
			*val = eq + 1;
			*vlen = ll - (size_t)(eq - p) - 1;
			if (*vlen && (*val)[*vlen - 1] == '\r')
				(*vlen)--;
			return 1;
		}
		p = *pos;
	}
	return 0;
}

/* Add a value (taken: owned from now on). Empty values are dropped, and so is a
 * mask-only value already known. -1 past AMC_SECRETS_MAX. */
static int add(amc_secrets *s, const char *name, size_t nlen, char *value, int named, amc_err *e)
{
	if (!*value) {
		free(value);
		return 0;
	}
	for (size_t i = 0; i < s->n && !named; i++)
		if (!strcmp(s->v[i].value, value)) {
			zfree(value);
			return 0;
		}
	if (s->n == AMC_SECRETS_MAX) {
		zfree(value);
		return amc_err_set(e, AMC_EENV, "more than %d secret values in the environment and secrets.file",
				   AMC_SECRETS_MAX);
	}
	s->v = amc_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
	secret *k = &s->v[s->n++];
	memset(k, 0, sizeof *k);
	memcpy(k->name, name, nlen);
	k->value = value;
	k->len = strlen(value);
	k->named = named;
	return 0;
}

static int by_length(const void *a, const void *b)
{
	const secret *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? 1 : -1;
	return strcmp(x->value, y->value); /* deterministic on ties */
}

int amc_secrets_resolve(const char *text, const char *file, amc_secrets **out, amc_err *e)
{
	*out = NULL;
	int ferr = 0;
	char *buf = read_file(file, e, &ferr);
	if (ferr)
		return -1;
	amc_secrets *s = amc_xcalloc(1, sizeof *s);
	int rc = 0;
	/* the goal's or flow's own secrets: the environment first, then the file */
	const char *p = text, *st, *nm;
	size_t nl;
	while (rc == 0 && p && (p = next_ph(p, &st, &nm, &nl)) != NULL) {
		char name[AMC_SECRET_NAME_MAX + 1];
		memcpy(name, nm, nl);
		name[nl] = 0;
		int have = 0;
		for (size_t i = 0; i < s->n; i++)
			if (s->v[i].named && !strcmp(s->v[i].name, name))
				have = 1;
		if (have)
			continue;
		char env[AMC_SECRET_NAME_MAX + 16];
		snprintf(env, sizeof env, ENV_PREFIX "%s", name);
		const char *ev = getenv(env);
		char *val = ev && *ev ? amc_xstrdup(ev) : NULL;
		const char *fp = buf, *fn, *fv;
		size_t fnl, fvl;
		while (!val && next_line(&fp, &fn, &fnl, &fv, &fvl))
			if (fnl == nl && !memcmp(fn, name, nl) && fvl)
				val = amc_xstrndup(fv, fvl);
		if (!val) {
			rc = amc_err_set(e, AMC_EUSAGE,
					 "secret %s has no value: export %s or add %s=... to the 0600 file named by secrets.file",
					 name, env, name);
			break;
		}
		rc = add(s, name, nl, val, 1, e);
	}
	/* every other known value, masked only: a value typed by an earlier task may
	 * still be on the screen of a task that names no secret */
	for (char **ep = environ; rc == 0 && ep && *ep; ep++) {
		if (strncmp(*ep, ENV_PREFIX, strlen(ENV_PREFIX)))
			continue;
		const char *n0 = *ep + strlen(ENV_PREFIX), *eq = strchr(n0, '=');
		if (eq && name_ok(n0, (size_t)(eq - n0)))
			rc = add(s, n0, (size_t)(eq - n0), amc_xstrdup(eq + 1), 0, e);
	}
	const char *fp = buf, *fn, *fv;
	size_t fnl, fvl;
	while (rc == 0 && next_line(&fp, &fn, &fnl, &fv, &fvl))
		rc = add(s, fn, fnl, amc_xstrndup(fv, fvl), 0, e);
	if (buf) {
		memset(buf, 0, strlen(buf));
		free(buf);
	}
	if (rc != 0 || s->n == 0) {
		amc_secrets_free(s);
		return rc;
	}
	qsort(s->v, s->n, sizeof *s->v, by_length);
	for (size_t i = 0; i < s->n; i++) {
		int warned = 0;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(s->v[j].name, s->v[i].name) && s->v[j].len < AMC_SECRET_SHORT)
				warned = 1;
		if (s->v[i].len < AMC_SECRET_SHORT && !warned)
			amc_log_warn("secret %s is shorter than %d characters: every occurrence of it on screen will be masked",
				     s->v[i].name, AMC_SECRET_SHORT);
	}
	*out = s;
	return 0;
}

void amc_secrets_free(amc_secrets *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		zfree(s->v[i].value);
	free(s->v);
	free(s);
}

size_t amc_secrets_count(const amc_secrets *s)
{
	size_t n = 0;
	for (size_t i = 0; s && i < s->n; i++)
		n += s->v[i].named;
	return n;
}

size_t amc_secrets_known(const amc_secrets *s)
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
		for (size_t i = 0; s && i < s->n && !hit; i++)
			if (s->v[i].named && strlen(s->v[i].name) == nl && !strncmp(s->v[i].name, nm, nl))
				hit = &s->v[i];
		if (!hit) {
			if (sb.buf)
				memset(sb.buf, 0, sb.len);
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

/* ---- masking ----------------------------------------------------------- */

/* What to look for: a value, or (in raw XML) its escaped form. */
typedef struct pat {
	const char *s;
	size_t len;
	const char *name;
} pat;

static int pat_by_length(const void *a, const void *b)
{
	const pat *x = a, *y = b;
	return x->len != y->len ? (x->len < y->len ? 1 : -1) : strcmp(x->s, y->s);
}

static int found_pats(const pat *p, size_t np, const char *in)
{
	for (size_t i = 0; in && i < np; i++)
		if (strstr(in, p[i].s))
			return 1;
	return 0;
}

/* Every byte of every occurrence is owned by the longest pattern covering it;
 * each run of bytes with one owner becomes that owner's placeholder. So a value
 * holding another is masked whole, and overlapping values leave no byte of
 * either behind. p is longest first. */
static char *mask_pats(const pat *p, size_t np, const char *in)
{
	size_t n = strlen(in);
	int *own = NULL;
	unsigned char *start = NULL;
	for (size_t k = 0; k < np; k++) {
		for (const char *q = in; (q = strstr(q, p[k].s)) != NULL; q++) {
			if (!own) {
				own = amc_xcalloc(n, sizeof *own);
				start = amc_xcalloc(n, 1);
				for (size_t j = 0; j < n; j++)
					own[j] = -1;
			}
			size_t off = (size_t)(q - in);
			for (size_t j = off; j < off + p[k].len; j++)
				if (own[j] < 0) {
					own[j] = (int)k;
					start[j] = j == off;
				}
		}
	}
	if (!own)
		return amc_xstrdup(in);
	amc_sb sb;
	amc_sb_init(&sb);
	for (size_t j = 0; j < n; j++) {
		if (own[j] < 0)
			amc_sb_putc(&sb, in[j]);
		else if (j == 0 || start[j] || own[j - 1] != own[j])
			amc_sb_printf(&sb, OPEN "%s}}", p[own[j]].name);
	}
	free(own);
	free(start);
	return amc_sb_detach(&sb);
}

static size_t plain_pats(const amc_secrets *s, pat **out)
{
	*out = NULL;
	if (!s || !s->n)
		return 0;
	pat *p = amc_xcalloc(s->n, sizeof *p);
	for (size_t i = 0; i < s->n; i++)
		p[i] = (pat){ s->v[i].value, s->v[i].len, s->v[i].name };
	*out = p;
	return s->n;
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
	pat *p;
	size_t np = plain_pats(s, &p);
	char *m = np ? mask_pats(p, np, in) : amc_xstrdup(in);
	free(p);
	return m;
}

static int mask_str(const amc_secrets *s, char **field)
{
	if (!*field || !amc_secrets_found(s, *field))
		return 0;
	char *m = amc_secrets_mask(s, *field);
	zfree(*field);
	*field = m;
	return 1;
}

int amc_secrets_mask_field(const amc_secrets *s, char **field)
{
	return s ? mask_str(s, field) : 0;
}

void amc_secrets_mask_buf(const amc_secrets *s, char *buf, size_t n)
{
	if (!s || !buf || !*buf || !amc_secrets_found(s, buf))
		return;
	char *m = amc_secrets_mask(s, buf);
	snprintf(buf, n, "%s", m);
	zfree(m);
}

void amc_secrets_mask_action(const amc_secrets *s, amc_action *act)
{
	if (!s)
		return;
	mask_str(s, &act->description);
	mask_str(s, &act->reasoning);
	mask_str(s, &act->answer);
	mask_str(s, &act->decided_error);
	amc_secrets_mask_json(s, act->args);
	amc_secrets_mask_json(s, act->decided_result);
}

/* Raw XML holds values escaped (&amp; &lt; &gt; &quot; &apos; or &#39;): mask
 * those forms too. */
static char *xml_escape(const char *v, int numeric_apos)
{
	amc_sb sb;
	amc_sb_init(&sb);
	for (; *v; v++) {
		switch (*v) {
		case '&': amc_sb_puts(&sb, "&amp;"); break;
		case '<': amc_sb_puts(&sb, "&lt;"); break;
		case '>': amc_sb_puts(&sb, "&gt;"); break;
		case '"': amc_sb_puts(&sb, "&quot;"); break;
		case '\'': amc_sb_puts(&sb, numeric_apos ? "&#39;" : "&apos;"); break;
		default: amc_sb_putc(&sb, *v);
		}
	}
	return amc_sb_detach(&sb);
}

static void mask_xml(const amc_secrets *s, char **xml)
{
	if (!*xml)
		return;
	pat *p = amc_xcalloc(s->n * 3, sizeof *p);
	char **esc = amc_xcalloc(s->n * 2, sizeof *esc);
	size_t np = 0;
	for (size_t i = 0; i < s->n; i++) {
		p[np++] = (pat){ s->v[i].value, s->v[i].len, s->v[i].name };
		for (int a = 0; a < 2; a++) {
			char *x = xml_escape(s->v[i].value, a);
			esc[2 * i + (size_t)a] = x;
			if (strcmp(x, s->v[i].value) && (a == 0 || strcmp(x, esc[2 * i])))
				p[np++] = (pat){ x, strlen(x), s->v[i].name };
		}
	}
	qsort(p, np, sizeof *p, pat_by_length);
	if (found_pats(p, np, *xml)) {
		char *m = mask_pats(p, np, *xml);
		zfree(*xml);
		*xml = m;
	}
	for (size_t i = 0; i < s->n * 2; i++)
		zfree(esc[i]);
	free(esc);
	free(p);
}

/* OCR JSON holds values JSON-escaped: mask its strings one by one. */
static int mask_json(const amc_secrets *s, cJSON *j)
{
	int hit = 0;
	for (; j; j = j->next) {
		if (cJSON_IsString(j) && j->valuestring && amc_secrets_found(s, j->valuestring)) {
			char *m = amc_secrets_mask(s, j->valuestring);
			zfree(j->valuestring); /* cJSON frees with free() (no hooks set) */
			j->valuestring = m;
			hit = 1;
		}
		hit |= mask_json(s, j->child);
	}
	return hit;
}

int amc_secrets_mask_json(const amc_secrets *s, cJSON *j)
{
	return s && j ? mask_json(s, j) : 0;
}

int amc_secrets_name_sensitive(const char *name)
{
	static const char *const W[] = { "PASS", "SECRET", "TOKEN", "KEY", "PIN", "CREDENTIAL", "AUTH" };
	char up[AMC_SECRET_NAME_MAX + 1];
	size_t n = 0;
	for (; name && name[n] && n < AMC_SECRET_NAME_MAX; n++)
		up[n] = (char)((name[n] >= 'a' && name[n] <= 'z') ? name[n] - 32 : name[n]);
	up[n] = 0;
	for (size_t i = 0; i < sizeof W / sizeof W[0]; i++)
		if (strstr(up, W[i]))
			return 1;
	return 0;
}

int amc_secrets_add(amc_secrets **s, const char *name, const char *value, amc_err *e)
{
	size_t nl = name ? strlen(name) : 0;
	if (!name_ok(name, nl))
		return amc_err_set(e, AMC_EUSAGE, "'%.64s' cannot name a secret (letters, digits and _, at most %d)",
				   name ? name : "", AMC_SECRET_NAME_MAX);
	if (!value || !*value)
		return 0;
	if (!*s)
		*s = amc_xcalloc(1, sizeof **s);
	if (add(*s, name, nl, amc_xstrdup(value), 1, e) != 0)
		return -1;
	qsort((*s)->v, (*s)->n, sizeof *(*s)->v, by_length);
	return 0;
}

static void mask_ocr(const amc_secrets *s, char **ocr)
{
	if (!*ocr)
		return;
	cJSON *j = cJSON_Parse(*ocr);
	if (!j) {
		mask_str(s, ocr); /* not JSON: as text */
		return;
	}
	if (mask_json(s, j)) {
		char *m = cJSON_PrintUnformatted(j);
		zfree(*ocr);
		*ocr = m ? m : amc_xstrdup("[]");
	}
	cJSON_Delete(j);
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
	mask_ocr(s, &o->ocr_json);
	mask_xml(s, &o->xml);
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

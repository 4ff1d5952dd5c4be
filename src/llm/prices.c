/* prices.c - usage sums, the price table and API key reading (llm.h). */
#include "llm/llm.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/paths.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

void amc_llm_usage_unknown(amc_llm_usage *u)
{
	u->input_tokens = u->output_tokens = -1;
	u->cache_creation_input_tokens = u->cache_read_input_tokens = -1;
}

static void add1(long long *a, long long b)
{
	if (b < 0)
		return;
	*a = *a < 0 ? b : *a + b;
}

void amc_llm_usage_add(amc_llm_usage *a, const amc_llm_usage *b)
{
	add1(&a->input_tokens, b->input_tokens);
	add1(&a->output_tokens, b->output_tokens);
	add1(&a->cache_creation_input_tokens, b->cache_creation_input_tokens);
	add1(&a->cache_read_input_tokens, b->cache_read_input_tokens);
}

typedef struct price_row {
	char *model;
	amc_price p;
} price_row;

struct amc_prices {
	price_row *rows;
	size_t n;
};

int amc_prices_load(const char *path, amc_prices **out, amc_err *e)
{
	char def[PATH_MAX];
	*out = NULL;
	if (!path || !*path) {
		if (amc_paths_data_dir(def, sizeof def, e) != 0)
			return -1;
		size_t l = strlen(def);
		if (l + 16 >= sizeof def)
			return amc_err_set(e, AMC_EENV, "data folder path too long");
		snprintf(def + l, sizeof def - l, "/prices.json");
		path = def;
	}
	char *buf = NULL;
	size_t len = 0;
	if (amc_read_file(path, 1 << 20, &buf, &len, e) != 0)
		return amc_err_prefix(e, "price table");
	cJSON *j = amc_json_parse(buf, len, 1 << 20, e);
	free(buf);
	if (!j)
		return amc_err_prefix(e, "price table %s", path);
	const cJSON *models = cJSON_GetObjectItemCaseSensitive(j, "models");
	if (!cJSON_IsObject(models)) {
		cJSON_Delete(j);
		return amc_err_set(e, AMC_EUSAGE, "price table %s: no \"models\" object", path);
	}
	amc_prices *p = amc_xcalloc(1, sizeof *p);
	size_t cap = (size_t)cJSON_GetArraySize(models);
	p->rows = amc_xcalloc(cap ? cap : 1, sizeof *p->rows);
	const cJSON *m;
	cJSON_ArrayForEach(m, models) {
		const cJSON *in = cJSON_GetObjectItemCaseSensitive(m, "input_per_mtok");
		const cJSON *ou = cJSON_GetObjectItemCaseSensitive(m, "output_per_mtok");
		if (!cJSON_IsNumber(in) || !cJSON_IsNumber(ou) || in->valuedouble < 0 || ou->valuedouble < 0)
			continue;
		const cJSON *cw = cJSON_GetObjectItemCaseSensitive(m, "cache_write_per_mtok");
		const cJSON *cr = cJSON_GetObjectItemCaseSensitive(m, "cache_read_per_mtok");
		price_row *r = &p->rows[p->n++];
		r->model = amc_xstrdup(m->string);
		r->p.input = in->valuedouble;
		r->p.output = ou->valuedouble;
		r->p.cache_write = cJSON_IsNumber(cw) ? cw->valuedouble : in->valuedouble * 1.25;
		r->p.cache_read = cJSON_IsNumber(cr) ? cr->valuedouble : in->valuedouble * 0.1;
	}
	cJSON_Delete(j);
	*out = p;
	return 0;
}

void amc_prices_free(amc_prices *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->rows[i].model);
	free(p->rows);
	free(p);
}

/* A dated snapshot id is the model id plus "-YYYYMMDD" (claude-sonnet-4-5-20250929).
 * Nothing looser: claude-sonnet-5-5 is another model than claude-sonnet-5. */
static int dated(const char *suffix)
{
	if (suffix[0] != '-' || strlen(suffix) != 9)
		return 0;
	for (int i = 1; i < 9; i++)
		if (suffix[i] < '0' || suffix[i] > '9')
			return 0;
	return 1;
}

int amc_prices_find(const amc_prices *p, const char *model, amc_price *out)
{
	if (!p || !model)
		return -1;
	const price_row *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < p->n; i++) {
		size_t l = strlen(p->rows[i].model);
		if (!strcmp(p->rows[i].model, model)) {
			best = &p->rows[i];
			break;
		}
		if (l > best_len && !strncmp(p->rows[i].model, model, l) && dated(model + l)) {
			best = &p->rows[i];
			best_len = l;
		}
	}
	if (!best)
		return -1;
	*out = best->p;
	return 0;
}

double amc_prices_cost(const amc_prices *p, const char *model, const amc_llm_usage *u)
{
	amc_price pr;
	if (amc_prices_find(p, model, &pr) != 0 || u->input_tokens < 0 || u->output_tokens < 0)
		return -1;
	double c = (double)u->input_tokens * pr.input + (double)u->output_tokens * pr.output;
	if (u->cache_creation_input_tokens > 0)
		c += (double)u->cache_creation_input_tokens * pr.cache_write;
	if (u->cache_read_input_tokens > 0)
		c += (double)u->cache_read_input_tokens * pr.cache_read;
	return c / 1e6;
}

char *amc_llm_read_key(const char *env, const char *file, const char *hint, amc_err *e)
{
	const char *v = env ? getenv(env) : NULL;
	if (v && *v)
		return amc_xstrdup(v);
	if (!file || !*file) {
		amc_err_set(e, AMC_EENV, "no API key: %s", hint);
		return NULL;
	}
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		char *s = amc_sanitize_dup(file);
		amc_err_set(e, AMC_EENV, "cannot open key file %s: %s (%s)", s, strerror(errno), hint);
		free(s);
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (st.st_mode & 077)) {
		close(fd);
		char *s = amc_sanitize_dup(file);
		amc_err_set(e, AMC_EENV, "key file %s must be a regular file with mode 0600 (chmod 600 %s)", s, s);
		free(s);
		return NULL;
	}
	char *buf = NULL;
	size_t len = 0;
	amc_err re;
	if (amc_read_fd(fd, 64 * 1024, "key file", &buf, &len, &re) != 0) {
		close(fd);
		amc_err_set(e, AMC_EENV, "cannot read the key file");
		return NULL;
	}
	close(fd);
	size_t n = strcspn(buf, "\r\n");
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = 0;
	if (!n) {
		free(buf);
		amc_err_set(e, AMC_EENV, "the key file is empty (%s)", hint);
		return NULL;
	}
	return buf;
}

int amc_llm_model_ids(const char *body, size_t len, const char *who, cJSON **ids, amc_err *e)
{
	*ids = NULL;
	cJSON *j = cJSON_ParseWithLength(body ? body : "", body ? len : 0);
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(j, "data"), *d;
	if (!cJSON_IsArray(data)) {
		cJSON_Delete(j);
		return amc_err_set(e, AMC_EFAIL, "%s answered without a data array", who);
	}
	cJSON *out = cJSON_CreateArray();
	cJSON_ArrayForEach(d, data) {
		const char *id = amc_json_str(d, "id");
		if (id && cJSON_GetArraySize(out) < 500)
			cJSON_AddItemToArray(out, cJSON_CreateString(id));
	}
	cJSON_Delete(j);
	*ids = out;
	return 0;
}

void amc_llm_key_free(char *key)
{
	if (!key)
		return;
	memset(key, 0, strlen(key)); /* a key left in freed memory could surface in a core dump */
	free(key);
}

int amc_llm_base_url(const char *var, const char *base, char *out, size_t cap, amc_err *e)
{
	size_t l = strlen(base);
	while (l && base[l - 1] == '/')
		l--;
	if (l >= cap)
		return amc_err_set(e, AMC_EUSAGE, "%s is too long", var);
	memcpy(out, base, l);
	out[l] = 0;
	return 0;
}

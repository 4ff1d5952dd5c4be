#include "llm/client.h"

#include <stdlib.h>
#include <string.h>

#include "util/jsonutil.h"
#include "util/strbuf.h"

amc_llm_client *amc_llm_client_new(const amc_llm_client_ops *ops, void *impl)
{
	amc_llm_client *c = amc_xcalloc(1, sizeof *c);
	c->ops = ops;
	c->impl = impl;
	amc_llm_usage_unknown(&c->total);
	return c;
}

void amc_llm_client_free(amc_llm_client *c)
{
	if (!c)
		return;
	c->ops->destroy(c);
	free(c);
}

const char *amc_llm_client_name(const amc_llm_client *c)
{
	return c ? c->ops->name : "none";
}

int amc_llm_turn(amc_llm_client *c, const amc_llm_turn_req *rq, amc_llm_turn_res *res, amc_err *e)
{
	memset(res, 0, sizeof *res);
	amc_llm_usage_unknown(&res->usage);
	c->calls++;
	int rc = c->ops->turn(c, rq, res, e);
	if (res->answered)
		amc_llm_usage_add(&c->total, &res->usage);
	return rc;
}

void amc_llm_turn_res_free(amc_llm_turn_res *r)
{
	if (!r)
		return;
	cJSON_Delete(r->input);
	cJSON_Delete(r->call);
	cJSON_Delete(r->detail);
	free(r->system);
	memset(r, 0, sizeof *r);
	amc_llm_usage_unknown(&r->usage);
}

int amc_llm_structured(amc_llm_client *c, const amc_llm_struct_req *rq, amc_llm_struct_res *res, amc_err *e)
{
	memset(res, 0, sizeof *res);
	amc_llm_usage_unknown(&res->usage);
	c->calls++;
	int rc = c->ops->structured(c, rq, res, e);
	if (rc == 0)
		amc_llm_usage_add(&c->total, &res->usage);
	return rc;
}

void amc_llm_struct_res_free(amc_llm_struct_res *r)
{
	if (!r)
		return;
	free(r->text);
	memset(r, 0, sizeof *r);
	amc_llm_usage_unknown(&r->usage);
}

int amc_llm_models(amc_llm_client *c, cJSON **ids, amc_err *e)
{
	return c->ops->models(c, ids, e);
}

void amc_llm_limit(amc_llm_client *c, int max_attempts, long attempt_timeout_ms, long connect_timeout_ms)
{
	c->ops->limit(c, max_attempts, attempt_timeout_ms, connect_timeout_ms);
}

void amc_llm_client_usage(const amc_llm_client *c, amc_llm_usage *u, int *calls)
{
	*u = c->total;
	if (calls)
		*calls = c->calls;
}

cJSON *amc_llm_text_block(const char *t)
{
	cJSON *b = cJSON_CreateObject();
	cJSON_AddStringToObject(b, "type", "text");
	cJSON_AddStringToObject(b, "text", t);
	return b;
}

cJSON *amc_llm_message(const char *role, cJSON *content)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "role", role);
	cJSON_AddItemToObject(m, "content", content);
	return m;
}

int amc_llm_tool_index(const cJSON *tools, const char *name)
{
	int i = 0;
	const cJSON *t;
	cJSON_ArrayForEach(t, tools) {
		const char *n = amc_json_str(t, "name");
		if (name && n && !strcmp(n, name))
			return i;
		i++;
	}
	return -1;
}

char *amc_llm_bounded(const char *s, size_t max)
{
	if (!s)
		return amc_xstrdup("");
	size_t l = strlen(s);
	if (l <= max)
		return amc_xstrdup(s);
	while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
		max--;
	char *r = amc_xmalloc(max + 4);
	memcpy(r, s, max);
	memcpy(r + max, "...", 4);
	return r;
}

/* openai.h - OpenAI-compatible chat completions for local servers (llama.cpp
 * server, Ollama, vLLM): AMC_OPENAI_BASE_URL (e.g. http://127.0.0.1:8080/v1),
 * optional OPENAI_API_KEY sent as a bearer token. Structured output uses the
 * nested response_format {"type":"json_schema","json_schema":{name,schema,
 * strict:true}} (llama.cpp silently ignores the flat form); a request never
 * carries both tools and a json_schema response. Same HTTP layer and retry
 * rules as the Anthropic client. */
#ifndef AMC_OPENAI_H
#define AMC_OPENAI_H

#include <cjson/cJSON.h>
#include "llm/client.h"
#include "llm/http.h"
#include "llm/llm.h"
#include "util/err.h"

typedef struct amc_openai {
	char base_url[512];
	char *key;                  /* owned, may be NULL (local servers often need none) */
	amc_http_hooks hooks;
	long connect_timeout_ms, attempt_timeout_ms;
	int max_attempts;
} amc_openai;

/* From the environment; AMC_EENV "set AMC_OPENAI_BASE_URL ..." when unset. */
int amc_openai_new(amc_openai **out, amc_err *e);
void amc_openai_free(amc_openai *c);

/* {"type":"json_schema","json_schema":{"name":name,"schema":schema,"strict":true}};
 * takes ownership of schema. */
cJSON *amc_openai_json_schema_format(const char *name, cJSON *schema);

typedef struct amc_openai_result {
	cJSON *msg;                 /* the whole response */
	const char *content;        /* choices[0].message.content, may be NULL */
	char finish_reason[32];     /* "stop", "length", ... */
	amc_llm_usage usage;        /* prompt/completion tokens; -1 unknown */
	long http_status;           /* the last HTTP status, also on failure (0: no response) */
} amc_openai_result;

/* POST {base}/chat/completions with `request` (not consumed). On failure out
 * holds only http_status (nothing to free). */
int amc_openai_chat(amc_openai *c, const cJSON *request, long long deadline_ms, amc_openai_result *out, amc_err *e);
void amc_openai_result_free(amc_openai_result *r);
/* A chat completion body (untrusted, at most AMC_HTTP_MAX_BODY bytes) into
 * out: 0 when it has choices[0].message (out->msg is the caller's, freed with
 * amc_openai_result_free), -1 AMC_EFAIL otherwise. */
int amc_openai_parse(const char *body, size_t len, amc_openai_result *out, amc_err *e);
/* The turn's call from r: its content is the JSON action {"tool", "reason",
 * ...args} with a tool of `tools`; into res (usage, stop, tool, input owned by
 * res), else res->no_call says why there is none. */
void amc_openai_read_call(const amc_openai_result *r, const cJSON *tools, amc_llm_turn_res *res);

/* GET {base}/models: the model ids (caller owns the array). */
int amc_openai_models(amc_openai *c, cJSON **ids, amc_err *e);

/* The amc_llm_client speaking for c (takes ownership). A turn is one chat
 * completion: the tools listed in the system text, the answer constrained by a
 * json_schema response_format named "amc_action" (anyOf one object per tool,
 * with "tool" and "reason"), the turn's transcript as the one user message
 * with the screenshot as an image_url part. A server with a text-only model
 * that refuses the screenshot fails the turn (res.image_refused), or, when the
 * image is optional, is asked again without it (res.image_dropped). */
amc_llm_client *amc_openai_client(amc_openai *c);

#endif

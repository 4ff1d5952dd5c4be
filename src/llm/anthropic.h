/* anthropic.h - the Anthropic Messages API client (POST /v1/messages).
 *
 * Configuration as Claude Code reads it: ANTHROPIC_API_KEY (or the 0600 file
 * named by llm.anthropic_key_file), ANTHROPIC_BASE_URL (default
 * https://api.anthropic.com). Requests go through llm/http.c with its retry rules;
 * the caller builds the request body (model, system, messages, tools, ...). */
#ifndef AMC_ANTHROPIC_H
#define AMC_ANTHROPIC_H

#include <cjson/cJSON.h>
#include "llm/client.h"
#include "llm/http.h"
#include "llm/llm.h"
#include "util/err.h"

#define AMC_ANTHROPIC_VERSION "2023-06-01"
#define AMC_ANTHROPIC_DEFAULT_URL "https://api.anthropic.com"

typedef struct amc_anthropic {
	char base_url[512];
	char *key;                  /* owned; never printed */
	amc_http_hooks hooks;       /* zero: real clock and sleep */
	long connect_timeout_ms;    /* 0: 10000 */
	long attempt_timeout_ms;    /* 0: 90000 */
	int max_attempts;           /* 0: 3 */
} amc_anthropic;

/* From the environment (and key_file, may be NULL). Without a key: AMC_EENV
 * "set ANTHROPIC_API_KEY ...". Free with amc_anthropic_free. */
int amc_anthropic_new(const char *key_file, amc_anthropic **out, amc_err *e);
void amc_anthropic_free(amc_anthropic *c);

/* What came back from one call, owned by the caller (amc_anthropic_result_free). */
typedef struct amc_anthropic_result {
	cJSON *msg;                 /* the whole response object */
	const cJSON *content;       /* msg.content, an array */
	char stop_reason[32];       /* "end_turn", "tool_use", "max_tokens", "refusal", ... */
	amc_llm_usage usage;
	char model[96];
	int attempts;
	char request_id[128];
	long http_status;           /* the last HTTP status, also on failure (0: no response) */
} amc_anthropic_result;

/* Send `request` (not consumed). deadline_ms: monotonic end of this call's budget
 * (0: none). 0 on a 2xx with a well-formed message; -1 otherwise (AMC_EFAIL,
 * message without the key). usage is filled even on failure when known. */
int amc_anthropic_messages(amc_anthropic *c, const cJSON *request, long long deadline_ms,
			   amc_anthropic_result *out, amc_err *e);
void amc_anthropic_result_free(amc_anthropic_result *r);
/* A Messages response body (untrusted, at most AMC_HTTP_MAX_BODY bytes) into
 * out: 0 for a message with a content array (out->msg is the caller's, freed
 * with amc_anthropic_result_free), -1 AMC_EFAIL otherwise. What
 * amc_anthropic_messages does with a 2xx body. */
int amc_anthropic_parse(const char *body, size_t len, amc_anthropic_result *out, amc_err *e);
/* The turn's call from r: the first tool_use block, its tool one of `tools`,
 * into res->tool, res->input and res->call (owned by res); else res->no_call
 * says why there is none the loop can use. */
void amc_anthropic_read_call(const amc_anthropic_result *r, const cJSON *tools, int tool_auto, amc_llm_turn_res *res);

/* GET /v1/models: the model ids (caller owns the array); no model call. */
int amc_anthropic_models(amc_anthropic *c, cJSON **ids, amc_err *e);

/* The amc_llm_client speaking for c (takes ownership; amc_llm_client_free
 * frees c). A turn is one Messages call: the system prefix marked
 * cache_control, strict tools, tool_choice forcing one call (or auto), the
 * previous tool_use with its tool_result; a forced choice refused with a 400
 * is asked again once with auto (res.forced_refused). Structured output is
 * output_config.format json_schema. */
amc_llm_client *amc_anthropic_client(amc_anthropic *c);

/* Read usage from a response object. */
void amc_anthropic_usage(const cJSON *msg, amc_llm_usage *u);

#endif

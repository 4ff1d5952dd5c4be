/* client.h - one interface to a model provider, whatever speaks for it.
 *
 * The planner (planner/llm_planner.c) and the enricher (semantic/enrich.c) hold an
 * amc_llm_client and never ask which provider it is: each provider turns the
 * requests below into its own wire format (llm/anthropic.c: Messages API with
 * strict tools; llm/openai.c: chat completions with a json_schema answer) and
 * reads the answer back into these results.
 *
 * The interface carries no HTTP or libcurl type on purpose: retries, timeouts
 * and transports belong to an implementation, so that a coding-agent CLI run as
 * a subprocess can implement it later as well as an HTTP API does. Its own
 * header (not llm.h) because llm.h is what every provider shares underneath
 * (usage, prices, keys), while this is what sits above them.
 *
 * Threads: one caller at a time per client. */
#ifndef AMC_LLM_CLIENT_H
#define AMC_LLM_CLIENT_H

#include <cjson/cJSON.h>
#include "llm/llm.h"
#include "util/err.h"

typedef enum amc_llm_stop {
	AMC_LLM_STOP_OK = 0,      /* the model ended its answer normally */
	AMC_LLM_STOP_REFUSAL,     /* the model refused */
	AMC_LLM_STOP_MAX_TOKENS,  /* the answer was cut off at max_tokens */
} amc_llm_stop;

/* One turn of a tool loop: exactly one tool call is wanted back. */
typedef struct amc_llm_turn_req {
	const char *model;
	int max_tokens;
	long timeout_ms;            /* this call with its retries */
	const char *system;         /* the fixed instructions (cached where the provider can) */
	const cJSON *tools;         /* [{name, description, strict, input_schema}] */
	int tool_choice_auto;       /* 0: force one call; 1: let the model choose (it refused forcing) */
	const char *intro;          /* first user text: the goal and the history */
	const cJSON *prev_call;     /* the previous turn's amc_llm_turn_res.call, NULL on the first */
	const char *prev_result;    /* that call's outcome (with prev_call) */
	int prev_failed;            /* it failed (with prev_call) */
	const char *now;            /* this turn's text: the screen */
	const char *image_png_b64;  /* a screenshot, base64 PNG, or NULL */
	int image_optional;         /* 1: a provider that refuses images asks again without it */
	const char *transcript;     /* the whole turn as one text, for providers that take one
				     * user message; what the decision records */
} amc_llm_turn_req;

typedef struct amc_llm_turn_res {
	int answered;               /* a model answer came back (usage and stop are valid) */
	amc_llm_stop stop;
	char stop_reason[32];       /* the provider's own word for it */
	amc_llm_usage usage;
	char tool[32];              /* the tool called, "" when no usable call */
	cJSON *input;               /* its arguments (owned) */
	cJSON *call;                /* what the next turn's prev_call must be (owned), may be NULL */
	char no_call[AMC_ERR_MSG_MAX]; /* why there is no usable call (answered, stop OK, tool "") */
	char *system;               /* the system text as sent (owned) */
	cJSON *detail;              /* provider facts for the decision record (owned object) */
	char forced_refused[300];   /* the model refused a forced tool choice; the call was made
				     * again with auto, which later turns should ask for */
	char image_dropped[AMC_ERR_MSG_MAX]; /* why the screenshot was refused and left out */
	int image_refused;          /* the call failed because the screenshot was refused (the
				     * error says how to serve images) */
} amc_llm_turn_res;

/* One structured-output request: the answer is text matching a JSON schema. */
typedef struct amc_llm_struct_req {
	const char *model;
	int max_tokens;
	long timeout_ms;
	const char *system;
	const char *user;
	const char *schema_name;    /* e.g. "semantic_scene" */
	const cJSON *schema;        /* not consumed */
} amc_llm_struct_req;

typedef struct amc_llm_struct_res {
	amc_llm_stop stop;
	amc_llm_usage usage;
	char *text;                 /* the answer's text (owned), NULL when there is none */
} amc_llm_struct_res;

typedef struct amc_llm_client amc_llm_client;

typedef struct amc_llm_client_ops {
	const char *name;   /* "anthropic", "openai" */
	/* 0 when an answer came (res->answered); -1 with e otherwise. res is
	 * filled in both cases and released with amc_llm_turn_res_free. */
	int (*turn)(amc_llm_client *c, const amc_llm_turn_req *rq, amc_llm_turn_res *res, amc_err *e);
	/* 0 when an answer came; -1 with e otherwise (res then holds nothing). */
	int (*structured)(amc_llm_client *c, const amc_llm_struct_req *rq, amc_llm_struct_res *res, amc_err *e);
	/* The model catalog: ids (caller owns the array). */
	int (*models)(amc_llm_client *c, cJSON **ids, amc_err *e);
	/* Attempts per call and the time of one attempt and of connecting. */
	void (*limit)(amc_llm_client *c, int max_attempts, long attempt_timeout_ms, long connect_timeout_ms);
	void (*destroy)(amc_llm_client *c);
} amc_llm_client_ops;

struct amc_llm_client {
	const amc_llm_client_ops *ops;
	void *impl;
	amc_llm_usage total;        /* every answered call so far */
	int calls;
};

/* A client around impl (the provider's constructors call this). */
amc_llm_client *amc_llm_client_new(const amc_llm_client_ops *ops, void *impl);
void amc_llm_client_free(amc_llm_client *c);
const char *amc_llm_client_name(const amc_llm_client *c);

/* The calls, counted in the client's totals. */
int amc_llm_turn(amc_llm_client *c, const amc_llm_turn_req *rq, amc_llm_turn_res *res, amc_err *e);
void amc_llm_turn_res_free(amc_llm_turn_res *r);
int amc_llm_structured(amc_llm_client *c, const amc_llm_struct_req *rq, amc_llm_struct_res *res, amc_err *e);
void amc_llm_struct_res_free(amc_llm_struct_res *r);
int amc_llm_models(amc_llm_client *c, cJSON **ids, amc_err *e);
void amc_llm_limit(amc_llm_client *c, int max_attempts, long attempt_timeout_ms, long connect_timeout_ms);
/* Usage of every answered call and the number of calls made. */
void amc_llm_client_usage(const amc_llm_client *c, amc_llm_usage *u, int *calls);

/* Helpers the providers share: a {"type":"text","text":t} block; a
 * {"role":role,"content":content} message (takes content); the index of
 * `name` in a tools array, -1 when it is not there. */
cJSON *amc_llm_text_block(const char *t);
cJSON *amc_llm_message(const char *role, cJSON *content);
int amc_llm_tool_index(const cJSON *tools, const char *name);
/* A copy of model or device text cut to max bytes at a UTF-8 boundary, "..."
 * marking the cut; "" for NULL. Caller frees. */
char *amc_llm_bounded(const char *s, size_t max);

#endif

/* anthropic_mock.h - a fake Anthropic Messages endpoint for tests: checks every
 * request against the rules in shared/notes/protocols.md (headers, strict tools
 * with additionalProperties:false and a required reason, tool_choice forcing one
 * call, cache_control on the system prefix, no sampling parameters, no thinking,
 * tool_result pairing, bounded context) and plays a scripted agent on the Scene
 * it is sent.
 *
 * Script: one command a line ('#' comments):
 *   launch APP | tap TEXT | tap_xy X Y | tap_id ID | type TEXT | key NAME | wait MS
 *   tool NAME {ARGS}                     any other registry action, e.g. tool clear_app {"app_id":"x"}
 *   ask QUESTION | finish true|false SUMMARY | answer TEXT (finish true with answer TEXT)
 *   http STATUS [RETRY_AFTER_S] [spend]   one error reply, then the next line
 *   stop refusal|max_tokens              a reply with that stop_reason
 *   malformed                            a 200 whose body is not JSON
 *   cut | drop                           the connection ends mid-body | before any answer
 *   slow MS                              the next reply comes MS late
 *   expect TEXT                          the next request's tool_result must contain TEXT
 *   usage IN OUT                         token counts of the following replies (default 1000 100)
 *   reason TEXT                          the next tool call's reason (model reasoning)
 *   verdict true|false                   a flow's assertWithAI: report_assertion {passed}
 *   defects none | defects CATEGORY WHAT assertNoDefectsWithAI: report_defects
 *   extract TEXT                         extractTextWithAI: report_text {text}
 * When the script runs out, the agent calls finish false "script exhausted".
 * Structured-output requests (enrichment: Anthropic output_config, or a chat
 * completion whose json_schema is named "semantic_scene") get a SemanticScene
 * naming the Scene's first element and an invented id, without using a script
 * line.
 * POST /v1/chat/completions plays the same script as an OpenAI-compatible
 * server whose json_schema answer is {"tool", "reason", ...args}; a user turn
 * may hold text and image_url parts (a data:image/png;base64 URI that must decode
 * to a PNG). A "textonly" line anywhere makes it a server with a text-only model:
 * every chat request with an image is answered as llama.cpp without --mmproj
 * answers it (HTTP 500 "image input is not supported ..."). */
#ifndef AMC_ANTHROPIC_MOCK_H
#define AMC_ANTHROPIC_MOCK_H

#include <stdio.h>
#include "mockhttp.h"

typedef struct amc_mock_agent {
	char **lines;
	int n, pos;
	long in_tokens, out_tokens;
	long slow_ms;
	char expect[256];
	char reason[1024];   /* the next call's reason (script line "reason TEXT"); "": scripted */
	int requests;
	int violations;
	char last_violation[512];
	FILE *log;        /* every request body, one per line (may be NULL) */
	FILE *vlog;       /* violations (may be NULL) */
	int call_seq;
	int semantic_calls;   /* enrichment requests answered (either API) */
	int catalog_requests; /* GET /v1/models answered */
	int text_only;        /* script line "textonly": chat requests with an image get llama.cpp's 500 */
	int image_requests;   /* chat requests that carried a screenshot */
	int forced_refusals;  /* 400s for a forced tool choice (claude-sonnet-5-5) */
} amc_mock_agent;

int amc_mock_agent_load(amc_mock_agent *a, const char *script_text);
void amc_mock_agent_free(amc_mock_agent *a);
/* The handler for mock_start/mock_serve_forever; ud is the agent. */
void amc_mock_agent_handle(void *ud, const mock_req *rq, mock_resp *rs);
/* Check one chat completion (OpenAI-compatible): nested json_schema
 * response_format, no tools beside it, no sampling parameters. */
int amc_mock_check_chat(const mock_req *rq, char *why, size_t n);
/* 1 for the models the mock plays as refusing a forced tool choice with a 400
 * (claude-sonnet-5-5, as its migration guide says; the message wording is the
 * mock's own). Their requests must carry tool_choice auto. */
int amc_mock_refuses_forced_tools(const char *model);
/* Check one request; 0 when it keeps every rule, else -1 with why. */
int amc_mock_check_request(const mock_req *rq, char *why, size_t n);

#endif

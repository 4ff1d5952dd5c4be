/* ai_judge.h - the AI commands of Maestro flows (assertWithAI,
 * assertNoDefectsWithAI, extractTextWithAI) answered by amc's model client.
 *
 * Each command is one forced tool call on the current screen: the Scene as
 * JSON (what the LLM planner is shown, screen.h) and, where the model takes
 * images, the screenshot. The model's answer is untrusted: its texts are cut
 * to AMC_AI_JUDGE_TEXT_MAX bytes and kept as data (callers sanitize before
 * showing). The flow planner reaches this through its `ai` hook
 * (flow_planner.h); launch.c wires the two, so flow/ knows no model. */
#ifndef AMC_AI_JUDGE_H
#define AMC_AI_JUDGE_H

#include <stddef.h>
#include "llm/client.h"
#include "runtime/planner.h"
#include "util/config.h"
#include "util/err.h"

#define AMC_AI_JUDGE_TEXT_MAX 4000   /* bytes of an extracted text or a reason kept */
#define AMC_AI_JUDGE_DEFECTS_MAX 20  /* defects listed in a step's result */

typedef struct amc_ai_judge amc_ai_judge;

/* A judge on `client` and `prices` (both taken; prices may be NULL: costs
 * unknown). model NULL or "": AMC_AGENT_DEFAULT_MODEL. Never fails. */
amc_ai_judge *amc_ai_judge_new(amc_llm_client *client, amc_prices *prices, const char *model, int max_tokens,
			       long timeout_ms, int vision_max_edge);
/* From [planner] provider, model, max_tokens, step_timeout_ms,
 * vision_max_edge and [llm] anthropic_key_file, price_file: the model a goal
 * would use. -1 with e saying what to set when no provider connects. A
 * remark that does not fail it (no price file: costs unknown) goes into warn
 * (n bytes, "" when none). *out is the caller's (amc_ai_judge_free). */
int amc_ai_judge_from_config(const amc_config *cfg, char *warn, size_t warn_n, amc_ai_judge **out, amc_err *e);
void amc_ai_judge_free(amc_ai_judge *j);

/* Answer one command on `obs`: `command` is the Maestro name
 * ("assertWithAI", "assertNoDefectsWithAI", "extractTextWithAI"), `prompt`
 * its assertion or query (NULL for assertNoDefectsWithAI). On 0 the step is
 * decided in `out`: decided_ok (the assertion holds, no defects, a text was
 * extracted), decided_error (owned: why not, with the model's reason),
 * decided_result (owned: {"passed", "reason"} / {"defects":[{category,
 * reasoning}]} / {"text", "reason"}), the call's tokens and cost, and its
 * decision record. -1 with e when the model gave no usable answer (the call
 * failed, it refused, or it called no tool); out->decision is filled then too. */
int amc_ai_judge_ask(amc_ai_judge *j, const char *command, const char *prompt, const amc_observation *obs,
		     amc_action *out, amc_err *e);
/* The tools the model is offered, one per command (strict schemas). Owned by
 * the caller. */
cJSON *amc_ai_judge_tools(void);

#endif

/* tasktpl.h - task templates of the suite (data/tasks/NAME.yaml, docs/tasks.md).
 *
 * A template is a job on the simulated phone with random parameters: a goal
 * in words with {{param}} holes, the parameters' generators (seeded: a
 * template and a seed always give the same values), a set-up (keys of
 * `amc sim state` written through the sim before the run), a check on the
 * sim's state after the run (and on the answer, for information tasks), a
 * step budget, a confirmation policy, and a reference flow that solves it.
 *
 * Three parts: tasktpl.c parses a template (libyaml), taskgen.c draws the
 * parameters and fills {{holes}}, taskcheck.c judges a state and an answer.
 * A template file is outside input: sizes are bounded, every field checked,
 * and an error names the file, the line when known, and what to fix. */
#ifndef AMC_TASKTPL_H
#define AMC_TASKTPL_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "util/err.h"

#define AMC_TPL_MAX_BYTES (256u * 1024u)
#define AMC_TPL_MAX_PARAMS 16
#define AMC_TPL_MAX_CHECKS 32
#define AMC_TPL_MAX_CHOICES 64
#define AMC_TPL_NAME_MAX 64
#define AMC_TPL_VALUE_MAX 256   /* bytes in one drawn parameter value */

typedef enum amc_tpl_gen {
	AMC_GEN_CHOICE,   /* one of `choices` */
	AMC_GEN_INT,      /* lo..hi */
	AMC_GEN_TIME,     /* "HH:MM" from lo to hi minutes after midnight, every `step` minutes */
	AMC_GEN_NAME,     /* "First Last" from a built-in list */
	AMC_GEN_WORD,     /* a capitalised word from a built-in list */
	AMC_GEN_WORDS,    /* `lo` lower-case words joined by spaces */
	AMC_GEN_PHONE,    /* "+1 555 01NN" */
	AMC_GEN_DIGITS    /* `lo` digits */
} amc_tpl_gen;

typedef struct amc_tpl_param {
	char name[AMC_TPL_NAME_MAX];
	amc_tpl_gen gen;
	char **choices;
	int nchoices;
	int lo, hi, step;
	/* Parameters this one must differ from (indexes of earlier parameters). */
	int differs[AMC_TPL_MAX_PARAMS];
	int ndiffers;
	/* Stop the check's wrong-parameter test from changing it: it only shapes the set-up. */
	int setup_only;
} amc_tpl_param;

typedef enum amc_tpl_op {
	AMC_CHECK_EQUALS,    /* the value at path equals `expect` (a JSON scalar, strings filled) */
	AMC_CHECK_HAS,       /* the list at path has an element whose fields equal `expect`'s */
	AMC_CHECK_LACKS,     /* ... has no such element */
	AMC_CHECK_COUNT,     /* the list at path has `expect` elements */
	AMC_CHECK_CONTAINS,  /* the string at path contains `expect` (ASCII case-insensitive) */
	AMC_CHECK_ANSWER     /* the planner's answer equals `expect` (normalised, see taskcheck.c) */
} amc_tpl_op;

typedef struct amc_tpl_check {
	amc_tpl_op op;
	char *path;          /* "toggles.wifi", "contacts[name={{name}}].phone"; NULL for answer */
	cJSON *expect;       /* owned */
	int line;
} amc_tpl_check;

typedef enum amc_tpl_confirm {
	AMC_CONFIRM_NONE,    /* no irreversible action: a confirmation is answered no */
	AMC_CONFIRM_APPROVE, /* confirmations are answered yes, and at least one is required */
	AMC_CONFIRM_DENY     /* confirmations are answered no, and at least one is required (the operator refuses) */
} amc_tpl_confirm;

typedef struct amc_tpl {
	char *path;
	char *name;          /* the file's base name */
	char *summary;       /* one line for people */
	char **tags;         /* one-screen, multi-app, scroll, pixels, irreversible, info, ... */
	int ntags;
	char *goal;          /* with {{holes}} */
	amc_tpl_param params[AMC_TPL_MAX_PARAMS];
	int nparams;
	cJSON *setup;        /* object of sim state keys, strings with {{holes}}; owned */
	amc_tpl_check checks[AMC_TPL_MAX_CHECKS];
	int nchecks;
	int max_steps;
	amc_tpl_confirm confirm;
	int ocr;             /* the reference flow's answer is read by OCR: runs need OCR on */
	/* Reference solution: a flow with {{holes}}, and where its answer is read. */
	char *flow;
	char *answer_id;     /* selector of the answer's node: resource id regex (NULL: none) */
	char *answer_text;   /* ... or text regex */
	int answer_index;
	int flow_line;       /* line of `reference:` in the file */
} amc_tpl;

/* Parse a template from memory; `path` names it in messages and gives its name. */
int amc_tpl_parse(const char *buf, size_t len, const char *path, amc_tpl *out, amc_err *e);
int amc_tpl_load(const char *path, amc_tpl *out, amc_err *e);
void amc_tpl_free(amc_tpl *t);
const char *amc_tpl_confirm_name(amc_tpl_confirm c);

/* ---- taskgen.c: parameters and holes ---- */

/* Drawn values, one per parameter of the template, in its order. */
typedef struct amc_tpl_values {
	int n;
	char names[AMC_TPL_MAX_PARAMS][AMC_TPL_NAME_MAX];
	char values[AMC_TPL_MAX_PARAMS][AMC_TPL_VALUE_MAX];
} amc_tpl_values;

/* Draw every parameter for `seed` (the same template and seed give the same values). */
void amc_tpl_draw(const amc_tpl *t, long long seed, amc_tpl_values *out);
/* Redraw parameter i to a value different from its current one (the checks'
 * "wrong parameter" test); -1 when it cannot differ (one choice). */
int amc_tpl_redraw(const amc_tpl *t, int i, long long salt, amc_tpl_values *v);
/* Fill {{name}} and {{name|filter}} in s: filters re (PCRE-escaped, for flow
 * selectors), yaml (a double-quoted YAML string's escapes), lower, upper,
 * first (first word), key (a state key from a label: "Dark theme" ->
 * dark_theme), not (on <-> off, true <-> false), int (the value; a set-up
 * string that is only {{x|int}} becomes a JSON number). One filter per hole. Unknown
 * names or filters are an error (AMC_EUSAGE). *out is malloc'd. */
int amc_tpl_fill(const char *s, const amc_tpl_values *v, char **out, amc_err *e);
/* A copy of json with every string and key filled; a string that is one
 * hole becoming on/true or off/false is a JSON boolean. NULL with e set on
 * error. */
cJSON *amc_tpl_fill_json(const cJSON *json, const amc_tpl_values *v, amc_err *e);
/* The values as a JSON object {"name":"value",...}; caller owns. */
cJSON *amc_tpl_values_json(const amc_tpl_values *v);
/* Whether {{name}} (with any filter) occurs in s. */
int amc_tpl_mentions(const char *s, const char *name);

/* ---- taskcheck.c: judging a run ---- */

/* Judge `state` (the sim's state document) and `answer` (NULL: none) by every
 * check of t with the values v. 1 pass, 0 fail with `reason` saying what was
 * found against what was expected ("toggles.wifi: found true, expected
 * false"); -1 when a check itself is broken (e says why). */
int amc_tpl_check_run(const amc_tpl *t, const amc_tpl_values *v, const cJSON *state, const char *answer,
		      char *reason, size_t n, amc_err *e);
/* The normalised form answers are compared in: trimmed, spaces collapsed,
 * ASCII lower-case, one trailing '.' dropped. Caller frees. */
char *amc_tpl_answer_norm(const char *s);

#endif

/* secrets.h - {{secret:NAME}} placeholders in goals and flows.
 *
 * A value comes from the environment (AMC_SECRET_NAME) or from a secrets file
 * (NAME=VALUE lines, a regular file with mode 0600, named by secrets.file). It is
 * typed on the device and never leaves it: the runner expands placeholders only
 * in the arguments it hands the device (the recorded and planned arguments keep
 * the placeholder), replaces the value by its placeholder in every UI tree, OCR
 * and Scene text it observes, and blacks out the bounds of the elements that
 * show it (and of the field it was typed into) in every screenshot before the
 * screenshot is stored or sent to a model.
 *
 * Masking covers every KNOWN value, not only the task's own: a value typed by
 * an earlier task may still be on screen in a task that names no secret. So
 * every AMC_SECRET_* variable and every NAME=VALUE line of the secrets file is
 * loaded too, mask-only (amc_secrets_expand types only the named ones). */
#ifndef AMC_SECRETS_H
#define AMC_SECRETS_H

#include "perception/uitree.h"
#include "runtime/planner.h"
#include "util/err.h"

#define AMC_SECRET_NAME_MAX 64
/* At most this many values known at once (environment and file together). */
#define AMC_SECRETS_MAX 1024
/* Values shorter than this are masked too, with a warning per name in the log:
 * every occurrence of them on screen (in any word) is masked. */
#define AMC_SECRET_SHORT 4

typedef struct amc_secrets amc_secrets;

/* Resolve every placeholder in `text` (a goal, or a flow file's contents; may
 * be NULL) from the environment, then the file, and load every other non-empty
 * AMC_SECRET_NAME variable and NAME=VALUE line of the file as mask-only. *out
 * is NULL only when no value is known at all. A named secret with no value is
 * AMC_EUSAGE saying what to set; a configured file that is missing, not a
 * regular file or not mode 0600 is AMC_EENV even when the text names no secret
 * (masking could not be promised). Errors never hold a value. `file` may be
 * NULL/"". Free with amc_secrets_free (values are zeroed first). */
int amc_secrets_resolve(const char *text, const char *file, amc_secrets **out, amc_err *e);
void amc_secrets_free(amc_secrets *s);
/* A flow's -e NAME=VALUE whose NAME says it is secret (it holds PASS,
 * SECRET, TOKEN, KEY, PIN, CREDENTIAL or AUTH, in any case): 1. */
int amc_secrets_name_sensitive(const char *name);
/* Add NAME=VALUE as a named secret (typed where its placeholder is, masked
 * everywhere else), creating *s when NULL. An empty value is ignored. 0, or
 * -1 with e for a bad name or past AMC_SECRETS_MAX. */
int amc_secrets_add(amc_secrets **s, const char *name, const char *value, amc_err *e);
/* Named secrets (the text's own, the ones that may be typed). */
size_t amc_secrets_count(const amc_secrets *s);
/* Every value known (named and mask-only). */
size_t amc_secrets_known(const amc_secrets *s);

/* Placeholders -> values (for the device only). malloc'd; NULL with AMC_EUSAGE
 * for a placeholder that is not one of the named secrets (a mask-only value
 * is never typed). */
char *amc_secrets_expand(const amc_secrets *s, const char *in, amc_err *e);
/* Values -> placeholders, longest value first (a value holding another is
 * masked whole; overlapping values leave no byte of either). malloc'd copy
 * (equal to `in` when nothing matched). */
char *amc_secrets_mask(const amc_secrets *s, const char *in);
/* Mask every string of a JSON tree in place (keys are left). 1 when any
 * was masked. */
struct cJSON;
int amc_secrets_mask_json(const amc_secrets *s, struct cJSON *j);
/* Mask in place (NULL s: nothing to do): a malloc'd string (1 when it
 * changed), a fixed buffer of n bytes, and a planned action's texts,
 * arguments and decided result (a flow's -e PASSWORD=... is interpolated
 * into its commands; expand_secrets types the value back for the device). */
int amc_secrets_mask_field(const amc_secrets *s, char **field);
void amc_secrets_mask_buf(const amc_secrets *s, char *buf, size_t n);
void amc_secrets_mask_action(const amc_secrets *s, amc_action *act);
/* 1 when `in` holds a value. */
int amc_secrets_found(const amc_secrets *s, const char *in);

/* Mask an observation in place: texts of tree nodes, scene elements, the OCR
 * JSON's strings and the raw XML (escaped forms too);
 * black out the elements that showed a value and the `extra` regions; re-encode
 * the PNG. Returns the number of regions blacked out. */
int amc_secrets_mask_observation(const amc_secrets *s, amc_observation *o, const amc_bounds *extra, size_t nextra);

#endif

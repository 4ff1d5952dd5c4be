/* secrets.h - {{secret:NAME}} placeholders in goals and flows.
 *
 * A value comes from the environment (AMC_SECRET_NAME) or from a secrets file
 * (NAME=VALUE lines, a regular file with mode 0600, named by secrets.file). It is
 * typed on the device and never leaves it: the runner expands placeholders only
 * in the arguments it hands the device (the recorded and planned arguments keep
 * the placeholder), replaces the value by its placeholder in every UI tree, OCR
 * and Scene text it observes, and blacks out the bounds of the elements that
 * show it (and of the field it was typed into) in every screenshot before the
 * screenshot is stored or sent to a model. */
#ifndef AMC_SECRETS_H
#define AMC_SECRETS_H

#include "perception/uitree.h"
#include "runtime/planner.h"
#include "util/err.h"

#define AMC_SECRET_NAME_MAX 64

typedef struct amc_secrets amc_secrets;

/* Resolve every placeholder in `text` (a goal, or a flow file's contents).
 * *out is NULL when the text has none. A name with no value is AMC_EUSAGE saying
 * what to set. `file` may be NULL/"". Free with amc_secrets_free. */
int amc_secrets_resolve(const char *text, const char *file, amc_secrets **out, amc_err *e);
void amc_secrets_free(amc_secrets *s);
size_t amc_secrets_count(const amc_secrets *s);

/* Placeholders -> values (for the device only). malloc'd; NULL with AMC_EUSAGE
 * for a placeholder whose name was not resolved. */
char *amc_secrets_expand(const amc_secrets *s, const char *in, amc_err *e);
/* Values -> placeholders. malloc'd copy (equal to `in` when nothing matched). */
char *amc_secrets_mask(const amc_secrets *s, const char *in);
/* 1 when `in` holds a value. */
int amc_secrets_found(const amc_secrets *s, const char *in);

/* Mask an observation in place: texts of tree nodes, scene elements and OCR;
 * black out the elements that showed a value and the `extra` regions; re-encode
 * the PNG. Returns the number of regions blacked out. */
int amc_secrets_mask_observation(const amc_secrets *s, amc_observation *o, const amc_bounds *extra, size_t nextra);

#endif

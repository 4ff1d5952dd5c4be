/* jsonutil.h - small helpers around cJSON. */
#ifndef AMC_JSONUTIL_H
#define AMC_JSONUTIL_H

#include <cjson/cJSON.h>
#include "util/err.h"

/* Print compactly; the caller frees the string. Never NULL (aborts on OOM). */
char *amc_json_print(const cJSON *j);
/* Parse, refusing input over `max` bytes or not valid JSON. Caller owns the tree. */
cJSON *amc_json_parse(const char *text, size_t len, size_t max, amc_err *e);
const char *amc_json_str(const cJSON *obj, const char *key);   /* NULL if absent or not a string */
int amc_json_int(const cJSON *obj, const char *key, int def);
/* Add a string that may be NULL (-> JSON null). */
void amc_json_add_str(cJSON *obj, const char *key, const char *s);

#endif

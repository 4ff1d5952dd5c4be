#include "util/jsonutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

char *amc_json_print(const cJSON *j)
{
	char *s = cJSON_PrintUnformatted(j);
	if (!s) {
		fputs("amc: out of memory\n", stderr);
		abort();
	}
	return s;
}

cJSON *amc_json_parse(const char *text, size_t len, size_t max, amc_err *e)
{
	if (len > max) {
		amc_err_set(e, AMC_EUSAGE, "JSON document of %zu bytes is over the limit of %zu", len, max);
		return NULL;
	}
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!j) {
		size_t off = end ? (size_t)(end - text) : 0;
		amc_err_set(e, AMC_EUSAGE, "invalid JSON near byte %zu", off);
		return NULL;
	}
	/* cJSON stops after the first value: anything but whitespace after it means
	 * the document is not one JSON value. */
	size_t off = end ? (size_t)(end - text) : len;
	while (off < len && (text[off] == ' ' || text[off] == '\t' || text[off] == '\n' || text[off] == '\r'))
		off++;
	if (off < len && text[off] != '\0') { /* a NUL ends a C string document */
		cJSON_Delete(j);
		amc_err_set(e, AMC_EUSAGE, "invalid JSON near byte %zu: unexpected data after the value", off);
		return NULL;
	}
	return j;
}

const char *amc_json_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

int amc_json_int(const cJSON *obj, const char *key, int def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) ? v->valueint : def;
}

void amc_json_add_str(cJSON *obj, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(obj, key, s);
	else
		cJSON_AddNullToObject(obj, key);
}

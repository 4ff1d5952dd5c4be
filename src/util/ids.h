/* ids.h - task ids: 16 lowercase Crockford base32 characters, the first 9 encode
 * milliseconds since the epoch so ids sort by creation time, the rest are random.
 * Filesystem-safe by construction; external ids are never used as paths. */
#ifndef AMC_IDS_H
#define AMC_IDS_H

#include <stddef.h>

#define AMC_ID_LEN 16
#define AMC_ID_SIZE (AMC_ID_LEN + 1)
#define AMC_SHORT_ID_LEN 8

void amc_id_new(char out[AMC_ID_SIZE]);
/* 1 when `s` has the shape of an id or an id prefix (1..16 base32 chars). */
int amc_id_is_valid_prefix(const char *s);

#endif

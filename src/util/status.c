#include "util/status.h"

#include <string.h>

static const amc_status_info STATUSES[] = {
	{ AMC_ST_QUEUED, "…", ".", 0 },
	{ AMC_ST_RUNNING, "▶", ">", 0 },
	{ AMC_ST_SUCCEEDED, "✓", "+", 1 },
	{ AMC_ST_FAILED, "✗", "x", 1 },
	{ AMC_ST_CANCELLED, "⊘", "-", 1 },
	{ AMC_ST_INTERRUPTED, "!", "!", 1 },
	{ AMC_ST_WAITING_USER, "?", "?", 0 },
};
#define NSTATUSES (sizeof STATUSES / sizeof STATUSES[0])

size_t amc_status_count(void)
{
	return NSTATUSES;
}

const amc_status_info *amc_status_at(size_t i)
{
	return i < NSTATUSES ? &STATUSES[i] : NULL;
}

int amc_status_index(const char *name)
{
	if (!name)
		return -1;
	for (size_t i = 0; i < NSTATUSES; i++)
		if (!strcmp(name, STATUSES[i].name))
			return (int)i;
	return -1;
}

const amc_status_info *amc_status_find(const char *name)
{
	int i = amc_status_index(name);
	return i < 0 ? NULL : &STATUSES[i];
}

const char *amc_status_names(void)
{
	static const char names[] = AMC_ST_QUEUED ", " AMC_ST_RUNNING ", " AMC_ST_SUCCEEDED ", " AMC_ST_FAILED
		", " AMC_ST_CANCELLED ", " AMC_ST_INTERRUPTED ", " AMC_ST_WAITING_USER;
	return names;
}

int amc_status_is_terminal(const char *s)
{
	const amc_status_info *st = amc_status_find(s);
	return st && st->terminal;
}

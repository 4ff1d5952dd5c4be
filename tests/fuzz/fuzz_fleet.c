/* Fuzz target: what the fleet reads from outside: an assignment's payload as
 * a host reads it from the database (fleet/payload.c, every check), a text
 * made fit for PostgreSQL (amc_fleet_text), a fleet URL shown redacted
 * (amc_pq_redact), fleet.require_tls's decision on a URL (amc_pq_tls_plan)
 * an assignment id as typed (amc_fleet_parse_id) and a line of a --batch
 * file (amc_fleet_batch_parse_line). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/batch.h"
#include "fleet/fleet.h"
#include "fleet/payload.h"
#include "fleet/pq.h"
#include "host/slot.h"

/* A ".." part of a path ("a/../b"), not ".." inside a name ("a.yaml..."). */
static int dotdot_part(const char *n)
{
	for (const char *p = n;;) {
		size_t seg = strcspn(p, "/");
		if (seg == 2 && p[0] == '.' && p[1] == '.')
			return 1;
		if (!p[seg])
			return 0;
		p += seg + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	amc_fleet_payload p;
	amc_err e;
	if (amc_fleet_payload_parse(s, size, &p, &e) == 0) {
		/* a parsed payload is whole: a goal, or a flow with its files */
		if (!p.goal && (!p.flow_name || !p.flow_text))
			abort();
		for (size_t i = 0; i < p.nfiles; i++)
			if (!p.files[i].name || !p.files[i].text || p.files[i].name[0] == '/' || dotdot_part(p.files[i].name))
				abort();
		amc_fleet_payload_free(&p);
	}
	char *t = amc_fleet_text(s, 100);
	if (strlen(t) > 100)
		abort();
	free(t);
	char red[256];
	amc_pq_redact(s, red, sizeof red);
	/* fleet.require_tls's decision on a URL: a known sslmode or nothing */
	char force[16];
	int off;
	if (amc_pq_tls_plan(s, 1, force, sizeof force, &off, &e) == 0 && force[0] && strcmp(force, "require"))
		abort();
	long long id;
	amc_fleet_parse_id(s, &id, &e);
	/* a line of `amc fleet submit --batch` (batch.c): every need it
	 * accepts is well formed (they travel unquoted in an array literal) */
	amc_fleet_batch_item it;
	memset(&it, 0, sizeof it);
	/* not lines naming a flow: they read files (a fuzzer could name a FIFO) */
	if (!strstr(s, "flow") && amc_fleet_batch_parse_line((const char *)data, size, &it, &e) == 0) {
		for (size_t i = 0; i < it.req.nneeds; i++)
			if (!amc_fleet_need_ok(it.req.needs[i]))
				abort();
		if (it.req.not_before && !amc_fleet_when_ok(it.req.not_before))
			abort();
	}
	amc_fleet_batch_item_free(&it);
	free(s);
	return 0;
}

/* Fuzz target: the task template parser (suite/tasktpl.c) and, for a template
 * that parses, drawing its parameters, filling every hole and running its
 * checks on a small fixed state and answer (taskgen.c, taskcheck.c). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "suite/tasktpl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_tpl t;
	amc_err e;
	if (amc_tpl_parse((const char *)data, size, "fuzz.yaml", &t, &e) != 0)
		return 0;
	static const char STATE[] = "{\"toggles\":{\"wifi\":true},\"contacts\":[{\"name\":\"Ada Lovelace\",\"phone\":\"1\"}],"
				    "\"alarms\":[{\"time\":\"07:00\",\"enabled\":false}],\"notes\":[]}";
	cJSON *st = cJSON_Parse(STATE);
	for (long long seed = 1; seed <= 3; seed++) {
		amc_tpl_values v;
		amc_tpl_draw(&t, seed, &v);
		char *s;
		if (amc_tpl_fill(t.goal, &v, &s, &e) == 0)
			free(s);
		if (amc_tpl_fill(t.flow, &v, &s, &e) == 0)
			free(s);
		cJSON_Delete(amc_tpl_fill_json(t.setup, &v, &e));
		char why[256];
		amc_tpl_check_run(&t, &v, st, seed == 2 ? NULL : "Ada Lovelace", why, sizeof why, &e);
		for (int i = 0; i < t.nparams; i++)
			amc_tpl_redraw(&t, i, seed, &v);
	}
	cJSON_Delete(st);
	amc_tpl_free(&t);
	return 0;
}

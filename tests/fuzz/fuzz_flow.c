/* Fuzz target: the flow YAML parser (flow/flow.c, flow_yaml.c, flow_cmds.c) and command descriptions. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "flow/flow.h"
#include "flow/selector.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_flow f;
	amc_err e;
	if (amc_flow_parse((const char *)data, size, "fuzz.yaml", &f, &e) == 0) {
		for (size_t i = 0; i < f.count; i++) {
			free(amc_flow_cmd_describe(&f.cmds[i]));
			free(amc_selector_describe(&f.cmds[i].sel));
			(void)amc_flow_op_name(f.cmds[i].op);
		}
		amc_flow_free(&f);
	}
	return 0;
}

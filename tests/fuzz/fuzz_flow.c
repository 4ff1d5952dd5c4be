/* Fuzz target: the flow YAML parser (flow/flow.c, flow_yaml.c, flow_cmds*.c),
 * resolving sub-flows (every file it names is the input again, so nesting,
 * cycles and depth limits are exercised), walking, the checks before a run,
 * ${...} interpolation of every text, and command descriptions. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow.h"
#include "flow/flow_interp.h"
#include "flow/selector.h"

typedef struct input {
	const uint8_t *data;
	size_t size;
} input;

static int read_input(void *ud, const char *path, char **text, size_t *len, amc_err *e)
{
	(void)path;
	(void)e;
	const input *in = ud;
	*text = malloc(in->size + 1);
	if (!*text)
		return 1;
	memcpy(*text, in->data, in->size);
	(*text)[in->size] = '\0';
	*len = in->size;
	return 0;
}

static int visit(void *ud, const amc_flow *file, const amc_flow_cmd *c)
{
	amc_flow_interp *in = ud;
	(void)file;
	free(amc_flow_cmd_describe(c));
	free(amc_selector_describe(&c->sel));
	(void)amc_flow_op_name(c->op);
	const char *texts[] = { c->text, c->sel.text, c->sel.id, c->cond.is_true };
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		char *out = NULL;
		amc_err e;
		if (texts[i] && amc_flow_interp_str(in, texts[i], "fuzz.yaml:1", &out, &e) == 0)
			free(out);
		(void)amc_flow_interp_needs_js(texts[i]);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_flow f;
	amc_err e;
	if (amc_flow_parse((const char *)data, size, "fuzz.yaml", &f, &e) == 0) {
		input in = { data, size };
		amc_flow_loader ld = { read_input, NULL, &in };
		if (amc_flow_resolve(&f, &ld, &e) == 0) {
			amc_flow_interp it;
			amc_flow_interp_init(&it);
			amc_flow_interp_push(&it, "NAME", "value");
			amc_flow_walk(&f, visit, &it);
			amc_flow_interp_free(&it);
			(void)amc_flow_check_device(&f, "sim", &e);
			(void)amc_flow_needs_js(&f, NULL, 0);
		}
		amc_flow_free(&f);
	}
	return 0;
}

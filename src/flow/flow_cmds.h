/* flow_cmds.h - the Maestro commands amc knows, as one table (private to src/flow/).
 *
 * Each command is one row (its Maestro name, its op, how to read its value,
 * how to describe it, what it carries) and one parse function. A row with no
 * parse function is a Maestro command amc knows but does not run yet: using it
 * is refused by name, with the reason when the row gives one. Adding a command
 * is adding an op to flow.h, a row and its function; the list of supported
 * commands in messages is made from the rows. */
#ifndef AMC_FLOW_CMDS_H
#define AMC_FLOW_CMDS_H

#include <stddef.h>

#include "flow/flow.h"
#include "flow/flow_yaml.h"
#include "util/strbuf.h"

/* What a row says about its command beyond its parse function. */
enum {
	AMC_FLOW_CMDF_POINT = 1u << 0,   /* its selector may be a point: (tapOn, longPressOn) */
	AMC_FLOW_CMDF_SUBFLOW = 1u << 1, /* it names another flow file, which a flow bundle must carry */
	AMC_FLOW_CMDF_SCRIPT = 1u << 2,  /* it names a script file, which a flow bundle must carry */
	AMC_FLOW_CMDF_BLOCK = 1u << 3    /* its value holds a list of commands: amc_flow_cmds_parse_list */
};

typedef struct amc_flow_cmd_def amc_flow_cmd_def;

/* Reads the command's value (NULL for a bare `- back`) into c, whose op and
 * line are already set; 0, or -1 with the error in y->e. */
typedef int (*amc_flow_cmd_parse_fn)(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
				     amc_flow_cmd *c);
/* Appends what follows the command's name in its description (" \"Save\""). */
typedef void (*amc_flow_cmd_describe_fn)(amc_sb *sb, const amc_flow_cmd *c);

struct amc_flow_cmd_def {
	const char *name;                  /* Maestro's name */
	int op;                            /* an amc_flow_op, or -1 while amc has none */
	amc_flow_cmd_parse_fn parse;       /* NULL: known, not supported yet */
	amc_flow_cmd_describe_fn describe; /* NULL: the name says it all */
	unsigned flags;                    /* AMC_FLOW_CMDF_* */
	const char *bare;                  /* when `- NAME` alone lacks a value: what it needs */
	const char *why;                   /* not supported yet: why, briefly (may be NULL) */
};

/* All rows, in the order the supported list is given; *n gets the count. */
const amc_flow_cmd_def *amc_flow_cmds_table(size_t *n);
/* The row of a Maestro name or of an op; NULL when there is none. */
const amc_flow_cmd_def *amc_flow_cmds_find(const char *name);
const amc_flow_cmd_def *amc_flow_cmds_by_op(amc_flow_op op);
/* "launchApp, tapOn, ...": the names of the rows amc runs. Caller frees. */
char *amc_flow_cmds_supported(void);

/* One list item (`- back` or `- tapOn: "Save"`) into c; on error c is left empty. */
int amc_flow_cmds_parse(amc_flow_yaml *y, const yaml_node_t *item, amc_flow_cmd *c);
/* Every item of sequence `seq` (at most AMC_FLOW_MAX_COMMANDS; the caller
 * checks the count) into a new array *out of *n commands (caller frees each
 * with amc_flow_cmd_clear, then the array); on error nothing is left. */
int amc_flow_cmds_parse_list(amc_flow_yaml *y, const yaml_node_t *seq, amc_flow_cmd **out, size_t *n);
/* Frees what a command owns and zeroes it. */
void amc_flow_cmd_clear(amc_flow_cmd *c);

#endif

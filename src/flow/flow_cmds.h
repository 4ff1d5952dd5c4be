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

#include "flow/flow_types.h"
#include "util/err.h"
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

/* ---- helpers shared by the command files (flow_cmds*.c) ---- */

/* Reads one option of a command's own: 0 read, -1 error, 1 not one of its options.
 * `what` is "COMMAND OPTION", the name messages give the value. */
typedef int (*amc_flow_opt_fn)(amc_flow_yaml *y, const amc_flow_yaml_kv *it, const char *what, void *ctx);

/* Walks the options of mapping m in order: `fn` reads the command's own,
 * `label` goes to *label (dropped when label is NULL), keys in `later`
 * (Maestro options amc lacks) are refused as not supported yet, and any other
 * as unknown, listing `supported`. */
int amc_flow_opts_read(amc_flow_yaml *y, const yaml_node_t *m, const char *cmd, const char *supported,
		       const char *const *later, amc_flow_opt_fn fn, void *ctx, char **label);

enum { AMC_FLOW_V_NONE = 1, AMC_FLOW_V_SCALAR = 2, AMC_FLOW_V_MAPPING = 4, AMC_FLOW_V_LIST = 8 };
/* Which of the shapes in `accepts` the value has (V_NONE for absent or null);
 * anything else is "CMD TAKES, got KIND" and -1. */
int amc_flow_shape(amc_flow_yaml *y, const yaml_node_t *v, const char *cmd, int accepts, const char *takes);

enum { AMC_FLOW_SEL_POINT = 1, AMC_FLOW_SEL_OPTIONAL = 2, AMC_FLOW_SEL_NESTED = 4 };
/* A selector: a text scalar (text regex) or a mapping (flags: point:
 * allowed, optional: allowed, a relative selector's inside). */
int amc_flow_sel_parse(amc_flow_yaml *y, const yaml_node_t *n, const char *cmd, unsigned flags, amc_selector *s);
/* The same for a command's own selector: label and (with AMC_FLOW_SEL_POINT)
 * the tap options repeat, delay, retryTapIfNoChange, waitToSettleTimeoutMs go into c. */
int amc_flow_sel_parse_cmd(amc_flow_yaml *y, const yaml_node_t *n, const char *cmd, unsigned flags,
			   amc_flow_cmd *c);
/* A when:/while:/extendedWaitUntil mapping: visible, notVisible, true, platform. */
int amc_flow_cond_parse(amc_flow_yaml *y, const yaml_node_t *n, const char *what, int allow_platform,
			amc_flow_cond *c);
void amc_flow_cond_clear(amc_flow_cond *c);
/* A mapping of NAME: value (scalars) into a new array (*kv, *n appended). */
int amc_flow_kv_parse(amc_flow_yaml *y, const yaml_node_t *n, const char *what, amc_flow_kv **kv, size_t *nkv);
void amc_flow_kv_free(amc_flow_kv *kv, size_t n);
/* UP, DOWN, LEFT, RIGHT (any case) into *out. */
int amc_flow_direction(amc_flow_yaml *y, const yaml_node_t *n, const char *what, char **out);

/* Descriptions. */
void amc_flow_put_quoted(amc_sb *sb, const char *s);
void amc_flow_describe_selector(amc_sb *sb, const amc_flow_cmd *c);
void amc_flow_describe_text(amc_sb *sb, const amc_flow_cmd *c);

/* The parse functions of the rows, by file. */
int amc_flow_parse_run_flow(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_repeat(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_retry(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_ext_wait(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_app_cmd(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_open_link(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_random(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_bare(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_text_cmd(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_run_script(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_assert_true(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_ai(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_screenshot(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_device_only(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
void amc_flow_describe_block(amc_sb *sb, const amc_flow_cmd *c);

/* One list item (`- back` or `- tapOn: "Save"`) into c; on error c is left empty. */
int amc_flow_cmds_parse(amc_flow_yaml *y, const yaml_node_t *item, amc_flow_cmd *c);
/* Every item of sequence `seq` (at most AMC_FLOW_MAX_COMMANDS; the caller
 * checks the count) into a new array *out of *n commands (caller frees each
 * with amc_flow_cmd_clear, then the array); on error nothing is left. */
int amc_flow_cmds_parse_list(amc_flow_yaml *y, const yaml_node_t *seq, amc_flow_cmd **out, size_t *n);
/* Frees what a command owns and zeroes it. */
void amc_flow_cmd_clear(amc_flow_cmd *c);

#endif

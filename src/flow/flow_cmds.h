/* flow_cmds.h - reading the Maestro commands: the parse and describe
 * functions of the rows (flow_cmd_def.h; the table is flow_commands.c's) and
 * the helpers they share (private to src/flow/). The table is handed down in
 * amc_flow_yaml.cmds; a name it lacks is refused as unknown (with the nearest
 * known one), a row with no parse function as not supported yet. */
#ifndef AMC_FLOW_CMDS_H
#define AMC_FLOW_CMDS_H

#include <stddef.h>

#include "flow/flow_cmd_def.h"
#include "flow/flow_types.h"
#include "util/err.h"
#include "flow/flow_yaml.h"
#include "util/strbuf.h"

/* The row of a Maestro name (or an alias) or of an op in t; NULL when there
 * is none. by_op gives the first row of the op (its Maestro name). */
const amc_flow_cmd_def *amc_flow_cmds_find(const amc_flow_cmd_table *t, const char *name);
const amc_flow_cmd_def *amc_flow_cmds_by_op(const amc_flow_cmd_table *t, amc_flow_op op);
/* "launchApp, tapOn, ...": the names (aliases too) of the rows amc runs. Caller frees. */
char *amc_flow_cmds_supported(const amc_flow_cmd_table *t);
/* Maestro's name of a parsed command ("?" without a row). */
const char *amc_flow_cmd_name(const amc_flow_cmd *c);

/* Parses a flow with the commands of t (flow.c; amc_flow_parse_sub is this
 * with flow_commands.c's table). */
int amc_flow_parse_in(const amc_flow_cmd_table *t, const char *buf, size_t len, const char *path, int check_top,
		      amc_flow *out, amc_err *e);

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
int amc_flow_parse_action(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_launch_app(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_set_permissions(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
				   amc_flow_cmd *c);
int amc_flow_parse_selector_cmd(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_input_text(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_press_key(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_erase_text(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_swipe(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
int amc_flow_parse_scroll_until_visible(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
					amc_flow_cmd *c);
int amc_flow_parse_wait_anim(amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def, amc_flow_cmd *c);
void amc_flow_describe_block(amc_sb *sb, const amc_flow_cmd *c);
void amc_flow_describe_launch_app(amc_sb *sb, const amc_flow_cmd *c);
void amc_flow_describe_set_permissions(amc_sb *sb, const amc_flow_cmd *c);
void amc_flow_describe_press_key(amc_sb *sb, const amc_flow_cmd *c);
void amc_flow_describe_number(amc_sb *sb, const amc_flow_cmd *c);
void amc_flow_describe_swipe(amc_sb *sb, const amc_flow_cmd *c);
void amc_flow_describe_scroll_until_visible(amc_sb *sb, const amc_flow_cmd *c);
void amc_flow_describe_wait_anim(amc_sb *sb, const amc_flow_cmd *c);
void amc_flow_describe_screenshot(amc_sb *sb, const amc_flow_cmd *c);

/* One list item (`- back` or `- tapOn: "Save"`) into c; on error c is left empty. */
int amc_flow_cmds_parse(amc_flow_yaml *y, const yaml_node_t *item, amc_flow_cmd *c);
/* Every item of sequence `seq` (at most AMC_FLOW_MAX_COMMANDS; the caller
 * checks the count) into a new array *out of *n commands (caller frees each
 * with amc_flow_cmd_clear, then the array); on error nothing is left. */
int amc_flow_cmds_parse_list(amc_flow_yaml *y, const yaml_node_t *seq, amc_flow_cmd **out, size_t *n);
/* Frees what a command owns and zeroes it. */
void amc_flow_cmd_clear(amc_flow_cmd *c);

#endif

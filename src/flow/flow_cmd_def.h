/* flow_cmd_def.h - one flow command's row: the type, and nothing else
 * (private to src/flow/).
 *
 * A command is one row: its Maestro name (and the other spellings of it), how
 * its value is read (the parser, flow_cmds*.c), how it is described, what it
 * asks of the device (the flow planner, flow_planner_*.c), which device kinds
 * can do it and its line in docs/flows.md's command table. The rows are
 * defined in flow_commands.c, above both the parser and the planner; neither
 * names that file: the parse entry points hand the table down to the parser
 * (amc_flow_yaml.cmds), the parser writes each command's row into it
 * (amc_flow_cmd.def), and the planner and the checks before a run read the
 * row from there. So this header holds types and function-pointer types
 * only, as tmux's cmd_entry does. */
#ifndef AMC_FLOW_CMD_DEF_H
#define AMC_FLOW_CMD_DEF_H

#include <stddef.h>
#include <yaml.h>

#include "flow/flow_types.h"
#include "runtime/planner.h"
#include "util/err.h"
#include "util/strbuf.h"

struct amc_flow_yaml;
struct flow_planner;

/* What a row says about its command beyond its functions. */
enum {
	AMC_FLOW_CMDF_POINT = 1u << 0,   /* its selector may be a point: (tapOn, longPressOn) */
	AMC_FLOW_CMDF_SUBFLOW = 1u << 1, /* it names another flow file, which a flow bundle must carry */
	AMC_FLOW_CMDF_SCRIPT = 1u << 2,  /* it names a script file, which a flow bundle must carry */
	AMC_FLOW_CMDF_BLOCK = 1u << 3,   /* its value holds a list of commands: amc_flow_cmds_parse_list */
	AMC_FLOW_CMDF_APP = 1u << 4,     /* it acts on an app: without its own, the flow's appId */
	AMC_FLOW_CMDF_AI = 1u << 5,      /* answered by a model: refused before a run without one */
	AMC_FLOW_CMDF_JS = 1u << 6,      /* always runs JavaScript (amc-js) */
	AMC_FLOW_CMDF_ACTION = 1u << 7   /* also written `- action: NAME` */
};

/* The device kinds a row says it can or cannot serve. A kind amc_flow_kind_of
 * does not know is taken as Appium's (a remote driver: the least it can do). */
enum { AMC_FLOW_KIND_SIM, AMC_FLOW_KIND_ADB, AMC_FLOW_KIND_APPIUM, AMC_FLOW_NKINDS };

typedef struct amc_flow_cmd_def amc_flow_cmd_def;

/* Reads the command's value (NULL for a bare `- back`) into c, whose op,
 * row and line are already set; def->name is the name as written (an alias
 * too). 0, or -1 with the error in y->e. */
typedef int (*amc_flow_cmd_parse_fn)(struct amc_flow_yaml *y, const yaml_node_t *v, const amc_flow_cmd_def *def,
				     amc_flow_cmd *c);
/* Appends what follows the command's name in its description (" \"Save\""). */
typedef void (*amc_flow_cmd_describe_fn)(amc_sb *sb, const amc_flow_cmd *c);
/* Plans the command on the current screen (flow_planner_int.h's FP_* codes). */
typedef int (*amc_flow_cmd_plan_fn)(struct flow_planner *fp, const amc_flow_cmd *c, const amc_plan_ctx *ctx,
				    amc_action *out, amc_err *e);
/* The refusal of this command as written on device KIND ("sim", "adb",
 * "appium", or Appium by platform: "appium-android", "appium-ios"), given
 * WHY, the row's text for that kind (NULL: none): its values decide
 * (setOrientation LANDSCAPE_RIGHT on Appium) or the platform does (dark
 * mode on Appium). NULL: it can. A row without one refuses with WHY. */
typedef const char *(*amc_flow_cmd_cannot_fn)(const amc_flow_cmd *c, const char *kind, const char *why);

struct amc_flow_cmd_def {
	const char *name;                  /* Maestro's name */
	const char *const *aliases;        /* other spellings of it, NULL-terminated; NULL: none */
	int op;                            /* an amc_flow_op; -1: a form naming another row (action:) */
	amc_flow_cmd_parse_fn parse;
	amc_flow_cmd_describe_fn describe; /* NULL: the name says it all */
	amc_flow_cmd_plan_fn plan;         /* NULL: only a form of others (action:) */
	const char *cannot[AMC_FLOW_NKINDS]; /* per kind: NULL it can, else why not (naming the kind) */
	amc_flow_cmd_cannot_fn cannot_fn;
	unsigned flags;                    /* AMC_FLOW_CMDF_* */
	const char *bare;                  /* when `- NAME` alone lacks a value: what it needs */
	/* Its row of docs/flows.md's command table after the command column:
	 * "forms | on the device | tests". NULL: the row above's line covers it
	 * too (its name joins that line's command column). */
	const char *doc;
};

/* The rows, as handed down (flow_commands.c has the one table). */
typedef struct amc_flow_cmd_table {
	const amc_flow_cmd_def *rows;
	size_t n;
} amc_flow_cmd_table;

#endif

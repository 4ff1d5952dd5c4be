/* cli.h - the command-line front end: one file per subcommand (cmd_*.c), each
 * exporting one amc_cmd. main.c holds the table, global options and start-up. */
#ifndef AMC_CLI_H
#define AMC_CLI_H

#include <limits.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "storage/store.h"
#include "util/config.h"
#include "util/err.h"

typedef struct amc_cli {
	amc_config *cfg;
	char home[PATH_MAX];
	amc_store *store;    /* opened on first use by amc_cli_store() */
	const char *argv0;
} amc_cli;

typedef struct amc_cmd {
	const char *name;
	const char *usage;    /* "run --flow FILE [--device ID] ..." */
	const char *summary;  /* one line for `amc --help` */
	const char *help;     /* the options, for `amc CMD --help` */
	int (*run)(amc_cli *cli, int argc, char **argv);
} amc_cmd;

extern const amc_cmd amc_cmd_run, amc_cmd_tasks, amc_cmd_show, amc_cmd_devices,
	amc_cmd_sim, amc_cmd_retention, amc_cmd_config, amc_cmd_scene,
	amc_cmd_tui;
extern const amc_cmd amc_cmd_doctor;
extern const amc_cmd amc_cmd_providers;
extern const amc_cmd amc_cmd_flow;
extern const amc_cmd amc_cmd_mcp;
extern const amc_cmd amc_cmd_search;
extern const amc_cmd amc_cmd_export;
extern const amc_cmd amc_cmd_fleet, amc_cmd_host;
extern const amc_cmd amc_cmd_bench;

/* The command table, in `amc --help` order (static). */
const amc_cmd *const *amc_cli_commands(size_t *n);
/* amc(1): the TUI's views and keys, every command with its options and every
 * setting (help.c); `amc tui --man` prints it into doc/amc.1. */
void amc_cli_write_man(FILE *f, const amc_cmd *const *cmds, size_t n);
/* Help text folded to `width` columns (0: as is): an option row continues
 * under its description. Caller frees the result. */
char *amc_cli_fold(const char *text, int width);
/* Help text on `f`, folded to amc_cli_term_width(f). */
void amc_cli_put_help(FILE *f, const char *text);

/* Open the store once: creates $AMC_HOME, migrates, marks dead tasks
 * interrupted and applies the configured retention. */
int amc_cli_store(amc_cli *cli, amc_store **out, amc_err *e);
/* Print "amc: MESSAGE" (terminal-safe) on stderr and return the exit status. */
int amc_cli_fail(const amc_err *e);
/* Print a usage error for `cmd` and return 2. */
int amc_cli_usage(const amc_cmd *cmd, const char *fmt, ...) AMC_PRINTF(2, 3);
/* Print the command's help on stdout; returns 0. */
int amc_cli_help(const amc_cmd *cmd);
/* JSON on stdout, with C1 and bidi controls escaped as \uXXXX so the output is
 * safe on a terminal and still exact data. Takes ownership of j. */
void amc_cli_print_json(cJSON *j);
/* A task as `amc tasks --json`, `amc show --json` and `amc run --json` print
 * it: one shape everywhere (unknown values are null). Caller owns the result. */
cJSON *amc_cli_task_json(const amc_task_row *t);
/* Print untrusted text as one terminal-safe line (no newline added). */
void amc_cli_put_safe(FILE *f, const char *s);
/* The width to wrap text to on `f`: $COLUMNS when set (20..1000), else the
 * terminal's width when `f` is a terminal, else 0 (do not wrap: a pipe or a
 * file gets one line per message, for grep). */
int amc_cli_term_width(FILE *f);
/* Untrusted text, terminal-safe, word-wrapped to amc_cli_term_width(f): the
 * text starts at column `col` and continuation lines are indented by
 * `indent` spaces, so a long error reads whole under its label (no newline
 * added). Without a width it is amc_cli_put_safe. */
void amc_cli_put_wrapped(FILE *f, const char *s, int col, int indent);
/* The id as short as this database allows (amc_store_short_id); the full id
 * when the lookup fails. Writes to the caller's buffer. */
void amc_cli_short_id(amc_store *store, const char *id, char out[AMC_ID_SIZE]);
/* A one-column symbol per task status (" " for an unknown one), so lists read
 * without colour (static; cmd_tasks.c). */
const char *amc_cli_status_symbol(const char *s);
/* Options of a command whose only flag is --json: 0 with *json set, or the
 * exit status of a usage error (already printed). */
int amc_cli_json_only(const amc_cmd *cmd, int argc, char **argv, int *json);
/* Parse an integer option value within [min,max]; -1 with a usage error. */
int amc_cli_int(const char *opt, const char *val, long min, long max, long *out, amc_err *e);

#endif

/* flow_yaml.h - reading a flow file's YAML safely, apart from the Maestro grammar.
 *
 * The bytes are read in two passes: an event pass that refuses aliases, more
 * than two documents and deep nesting before anything is built (libyaml expands
 * an alias into a shared node, so a few aliases can make a walk exponential),
 * then yaml_parser_load so every node carries its line. Every error is
 * "FILE:LINE: message" (AMC_EUSAGE) and every piece of the file quoted in one
 * goes through amc_sanitize_dup. The getters read one scalar each and name
 * what they wanted and what they got. */
#ifndef AMC_FLOW_YAML_H
#define AMC_FLOW_YAML_H

#include <stddef.h>
#include <yaml.h>

#include "util/err.h"

#define AMC_FLOW_YAML_MAX_DEPTH 64
#define AMC_FLOW_YAML_MAX_DOCS 2 /* the optional config, `---`, the commands */

struct amc_flow_cmd_table;

typedef struct amc_flow_yaml {
	yaml_document_t docs[AMC_FLOW_YAML_MAX_DOCS];
	int ndocs;
	int ignored_line;           /* the first line of a document after the second, 0: none
				     * (MaestroFlowParser reads a config and one command list and
				     * never reads on: such documents are ignored, not refused) */
	yaml_document_t *doc;       /* the document the getters look nodes up in */
	char *where;                /* the path, sanitized, for messages; owned */
	amc_err *e;
	/* the command table names are looked up in, handed down by whoever
	 * parses (flow_cmd_def.h); not owned */
	const struct amc_flow_cmd_table *cmds;
	/* options accepted and ignored because Maestro's deserializer ignores
	 * them too: "LINE: text" entries, one a line (NULL: none); owned */
	char *notes;
} amc_flow_yaml;

/* One key: value of a mapping; `name` is the key's text (NUL-terminated by libyaml). */
typedef struct amc_flow_yaml_kv {
	const yaml_node_t *key, *val;
	const char *name;
} amc_flow_yaml_kv;

/* Start: errors will name `path` (NULL: "(flow)"). Pair with amc_flow_yaml_close. */
void amc_flow_yaml_init(amc_flow_yaml *y, const char *path, amc_err *e);
/* Both passes over buf[0..len). On success y->ndocs documents (0 when the
 * bytes hold only comments) with non-NULL roots are in y->docs. */
int amc_flow_yaml_read(amc_flow_yaml *y, const char *buf, size_t len);
/* Frees the documents and `where`; safe after a failed read. */
void amc_flow_yaml_close(amc_flow_yaml *y);
/* Make document i (0-based) the one nodes are looked up in; returns its root. */
const yaml_node_t *amc_flow_yaml_use(amc_flow_yaml *y, int i);
/* A node of the current document by its id; NULL when there is none. */
const yaml_node_t *amc_flow_yaml_node(const amc_flow_yaml *y, int id);

/* 1-based line of a node, 0 for NULL. */
int amc_flow_yaml_line(const yaml_node_t *n);
/* "FILE:LINE: message" (just "FILE: message" when n is NULL) into y->e; returns -1. */
int amc_flow_yaml_err(amc_flow_yaml *y, const yaml_node_t *n, const char *fmt, ...) AMC_PRINTF(3, 4);
/* Note an option read as Maestro reads it, that is ignored: appends "LINE:
 * message" (LINE of n) to y->notes, so `amc flow check` can warn where a flow
 * says more than runs. The message is formatted as given: quote file text
 * with amc_flow_yaml_quote. */
void amc_flow_yaml_note(amc_flow_yaml *y, const yaml_node_t *n, const char *fmt, ...) AMC_PRINTF(3, 4);
/* A sanitized copy of a scalar cut at 80 bytes ("..." after), for quoting in
 * messages; "(mapping)" or "(list)" for the others. Caller frees. */
char *amc_flow_yaml_quote(const yaml_node_t *n);
/* What a node is, for messages: "a text", "a number", "a list", "nothing (null)"... */
const char *amc_flow_yaml_kind(const yaml_node_t *n);
/* A plain scalar YAML reads as null: empty, "~" or "null". */
int amc_flow_yaml_is_null(const yaml_node_t *n);

/* The getters: 0, or -1 with "FILE:LINE: WHAT must be ..." in y->e. */
/* A text into *out (the old value freed; caller frees). Plain numbers and
 * booleans are refused unless `numbers_ok` (inputText "555" is text; tapOn 5 is
 * more likely a mistake); a NUL inside is refused. */
int amc_flow_yaml_str(amc_flow_yaml *y, const yaml_node_t *n, const char *what, int numbers_ok, char **out);
int amc_flow_yaml_int(amc_flow_yaml *y, const yaml_node_t *n, const char *what, long lo, long hi, int *out);
/* true/yes/on, false/no/off, any case, unquoted. */
int amc_flow_yaml_bool(amc_flow_yaml *y, const yaml_node_t *n, const char *what, int *out);
/* "50%,80%" (percent 0-100, *percent = 1) or "100,200" (pixels); spaces allowed. */
int amc_flow_yaml_point(amc_flow_yaml *y, const yaml_node_t *n, const char *what, int *x, int *y_,
			int *percent);
/* The pairs of mapping m in order (*out freed by the caller). Keys must be
 * scalars without NUL and appear once. */
int amc_flow_yaml_items(amc_flow_yaml *y, const yaml_node_t *m, amc_flow_yaml_kv **out, size_t *n);

#endif

/* jsonrpc.h - JSON-RPC 2.0 messages as MCP's stdio transport frames them:
 * one object per line, no embedded newlines.
 *
 * Every line comes from the client and is untrusted: it is bounded
 * (AMC_MCP_LINE_MAX; a longer line is answered with -32600 and skipped, never
 * buffered whole), parsed with cJSON and checked field by field before the
 * server looks at it. */
#ifndef AMC_JSONRPC_H
#define AMC_JSONRPC_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "util/strbuf.h"

/* The longest line accepted, newline excluded: 4 MiB. A tools/call is a few
 * hundred bytes; a flow handed in as YAML text is at most 1 MiB
 * (AMC_FLOW_MAX_BYTES) before JSON escaping. */
#define AMC_MCP_LINE_MAX (4u * 1024u * 1024u)
/* Deepest nesting accepted in a message (cJSON's own limit is 1000). */
#define AMC_MCP_DEPTH_MAX 32

#define AMC_RPC_PARSE_ERROR -32700
#define AMC_RPC_INVALID_REQUEST -32600
#define AMC_RPC_METHOD_NOT_FOUND -32601
#define AMC_RPC_INVALID_PARAMS -32602
#define AMC_RPC_INTERNAL -32603

typedef enum amc_rpc_kind {
	AMC_RPC_REQUEST,      /* method + id */
	AMC_RPC_NOTIFICATION, /* method, no id */
	AMC_RPC_RESPONSE      /* id + result or error (an answer to our request) */
} amc_rpc_kind;

/* A checked message. `msg` owns everything; the other pointers point into it. */
typedef struct amc_rpc_msg {
	amc_rpc_kind kind;
	cJSON *msg;
	const cJSON *id;      /* string or number; NULL for a notification */
	const char *method;   /* NULL for a response */
	const cJSON *params;  /* object, or NULL when absent */
	const cJSON *result;  /* response only */
	const cJSON *error;   /* response only */
} amc_rpc_msg;

/* Read one line from f into line (reset first), without its newline.
 * 1: a line; 0: end of input; 2: the line was longer than max (the rest of it
 * was read and dropped, *line is empty). */
int amc_rpc_read_line(FILE *f, size_t max, amc_sb *line);

/* Parse and check one line. 0 with *out filled (free with amc_rpc_msg_free);
 * -1 with *error set to the error response to send (owned by the caller; NULL
 * when nothing may be sent back, e.g. an invalid response). */
int amc_rpc_parse(const char *line, size_t len, amc_rpc_msg *out, cJSON **error);
void amc_rpc_msg_free(amc_rpc_msg *m);

/* {"jsonrpc":"2.0","id":ID,"error":{"code","message"}}; id NULL: no "id"
 * member at all (a parse error: clients reject "id":null). The message is
 * copied. Caller owns the result. */
cJSON *amc_rpc_error(const cJSON *id, int code, const char *message);
/* {"jsonrpc":"2.0","id":ID,"result":RESULT}; takes result. */
cJSON *amc_rpc_result(const cJSON *id, cJSON *result);
/* {"jsonrpc":"2.0","method":M,"params":P}; takes params (may be NULL). */
cJSON *amc_rpc_notification(const char *method, cJSON *params);
/* The id as a short key for tables ("s:abc", "n:42"); out has n bytes. */
void amc_rpc_id_key(const cJSON *id, char *out, size_t n);

#endif

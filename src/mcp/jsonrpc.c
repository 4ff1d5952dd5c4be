/* jsonrpc.c - JSON-RPC 2.0 lines (jsonrpc.h). */
#include "mcp/jsonrpc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int amc_rpc_read_line(FILE *f, size_t max, amc_sb *line)
{
	amc_sb_reset(line);
	int too_long = 0, any = 0, c;
	while ((c = getc(f)) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (too_long)
			continue;
		if (line->len >= max) {
			too_long = 1;
			amc_sb_reset(line);
			continue;
		}
		amc_sb_putc(line, (char)c);
	}
	if (!any)
		return 0;
	if (too_long)
		return 2;
	/* a CR before the newline is not part of the message */
	if (line->len && line->buf[line->len - 1] == '\r')
		line->buf[--line->len] = '\0';
	return 1;
}

static cJSON *base(void)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "jsonrpc", "2.0");
	return o;
}

cJSON *amc_rpc_error(const cJSON *id, int code, const char *message)
{
	cJSON *o = base();
	if (id)
		cJSON_AddItemToObject(o, "id", cJSON_Duplicate(id, 1));
	cJSON *err = cJSON_AddObjectToObject(o, "error");
	cJSON_AddNumberToObject(err, "code", code);
	cJSON_AddStringToObject(err, "message", message ? message : "");
	return o;
}

cJSON *amc_rpc_result(const cJSON *id, cJSON *result)
{
	cJSON *o = base();
	cJSON_AddItemToObject(o, "id", cJSON_Duplicate(id, 1));
	cJSON_AddItemToObject(o, "result", result ? result : cJSON_CreateObject());
	return o;
}

cJSON *amc_rpc_notification(const char *method, cJSON *params)
{
	cJSON *o = base();
	cJSON_AddStringToObject(o, "method", method);
	if (params)
		cJSON_AddItemToObject(o, "params", params);
	return o;
}

void amc_rpc_id_key(const cJSON *id, char *out, size_t n)
{
	if (cJSON_IsString(id))
		snprintf(out, n, "s:%s", id->valuestring);
	else if (cJSON_IsNumber(id))
		snprintf(out, n, "n:%.17g", id->valuedouble);
	else
		snprintf(out, n, "-");
}

static int depth_ok(const cJSON *j, int depth)
{
	if (depth > AMC_MCP_DEPTH_MAX)
		return 0;
	for (const cJSON *c = j->child; c; c = c->next)
		if (!depth_ok(c, depth + 1))
			return 0;
	return 1;
}

/* An id is a string (bounded) or an integral number. */
static int id_ok(const cJSON *id)
{
	if (cJSON_IsString(id))
		return strlen(id->valuestring) <= 256;
	return cJSON_IsNumber(id) && isfinite(id->valuedouble) && id->valuedouble == floor(id->valuedouble) &&
	       fabs(id->valuedouble) < 9007199254740992.0;
}

static int invalid(cJSON **error, const cJSON *id, const char *why)
{
	*error = amc_rpc_error(id && id_ok(id) ? id : NULL, AMC_RPC_INVALID_REQUEST, why);
	return -1;
}

static int hex4(const char *p, const char *end, unsigned *v)
{
	if (end - p < 4)
		return 0;
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
		if (d > 15)
			return 0;
		*v = *v << 4 | d;
	}
	return 1;
}

/* Lone surrogate escapes ("\ud83d" alone: what JSON.stringify writes for an
 * emoji cut in half) become "\ufffd" in place, as invalid UTF-8 already
 * becomes U+FFFD; cJSON would refuse the whole line. Same length, so the
 * buffer is edited where it lies. */
static void fix_surrogates(char *s, size_t len)
{
	char *end = s + len;
	int in_str = 0;
	for (char *p = s; p < end; p++) {
		if (!in_str) {
			if (*p == '"')
				in_str = 1;
			continue;
		}
		if (*p == '"') {
			in_str = 0;
			continue;
		}
		if (*p != '\\' || p + 1 >= end)
			continue;
		if (p[1] != 'u') {
			p++; /* skip the escaped character (\\ and \" included) */
			continue;
		}
		unsigned v, w;
		if (!hex4(p + 2, end, &v)) {
			p++;
			continue;
		}
		if (v >= 0xD800 && v <= 0xDBFF && p + 12 <= end && p[6] == '\\' && p[7] == 'u' && hex4(p + 8, end, &w) &&
		    w >= 0xDC00 && w <= 0xDFFF) {
			p += 11; /* a proper pair */
			continue;
		}
		if (v >= 0xD800 && v <= 0xDFFF)
			memcpy(p + 2, "fffd", 4);
		p += 5;
	}
}

/* The "id" member of a line that does not parse, when one can be read: the
 * top-level key "id" followed by a string or a number. An error answered
 * without the id leaves the client waiting for its timeout. */
static cJSON *recover_id(const char *s, size_t len)
{
	const char *end = s + len;
	int depth = 0;
	for (const char *p = s; p < end; p++) {
		if (*p == '{' || *p == '[') {
			depth++;
			continue;
		}
		if (*p == '}' || *p == ']') {
			depth--;
			continue;
		}
		if (*p != '"')
			continue;
		const char *q = p + 1;
		while (q < end && *q != '"')
			q += *q == '\\' ? 2 : 1;
		if (q >= end)
			return NULL;
		int is_id = depth == 1 && q - p == 3 && !memcmp(p + 1, "id", 2);
		p = q;
		if (!is_id)
			continue;
		const char *v = q + 1;
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		if (v >= end || *v != ':')
			continue;
		v++;
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		const char *ve = v;
		if (ve < end && *ve == '"') {
			ve++;
			while (ve < end && *ve != '"') {
				if (*ve == '\0')
					return NULL;
				ve += *ve == '\\' ? 2 : 1;
			}
			if (ve >= end)
				return NULL;
			ve++;
		} else {
			while (ve < end && (*ve == '-' || (*ve >= '0' && *ve <= '9')))
				ve++;
		}
		if (ve == v)
			return NULL;
		cJSON *id = cJSON_ParseWithLength(v, (size_t)(ve - v));
		if (id && id_ok(id))
			return id;
		cJSON_Delete(id);
		return NULL;
	}
	return NULL;
}

static int parse_error(cJSON **error, const char *line, size_t len, const char *why)
{
	cJSON *id = recover_id(line, len);
	*error = amc_rpc_error(id, AMC_RPC_PARSE_ERROR, why);
	cJSON_Delete(id);
	return -1;
}

int amc_rpc_parse(const char *line, size_t len, amc_rpc_msg *out, cJSON **error)
{
	memset(out, 0, sizeof *out);
	*error = NULL;
	/* A raw NUL is never JSON (inside a string it must be \u0000): an error,
	 * not a place where the line silently ends. */
	if (memchr(line, '\0', len))
		return parse_error(error, line, len, "parse error: a raw NUL byte (write \\u0000 inside a string)");
	char *buf = malloc(len + 1);
	if (!buf) {
		*error = amc_rpc_error(NULL, AMC_RPC_INTERNAL, "out of memory");
		return -1;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	fix_surrogates(buf, len);
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(buf, len, &end, 0);
	if (!j) {
		parse_error(error, buf, len, "parse error: not a JSON text");
		free(buf);
		return -1;
	}
	/* nothing but white space after the value */
	for (const char *p = end; p && p < buf + len; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r') {
			cJSON_Delete(j);
			parse_error(error, buf, len, "parse error: more than one JSON value on the line");
			free(buf);
			return -1;
		}
	free(buf);
	int rc = -1;
	if (cJSON_IsArray(j)) {
		invalid(error, NULL, "invalid request: batches are not supported; send one object per line");
		goto done;
	}
	if (!cJSON_IsObject(j)) {
		invalid(error, NULL, "invalid request: a message is a JSON object");
		goto done;
	}
	if (!depth_ok(j, 0)) {
		invalid(error, NULL, "invalid request: nested deeper than 32 levels");
		goto done;
	}
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(j, "jsonrpc");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
	const cJSON *method = cJSON_GetObjectItemCaseSensitive(j, "method");
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(j, "params");
	const cJSON *result = cJSON_GetObjectItemCaseSensitive(j, "result");
	const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
	if (!cJSON_IsString(ver) || strcmp(ver->valuestring, "2.0")) {
		invalid(error, id, "invalid request: \"jsonrpc\" must be \"2.0\"");
		goto done;
	}
	for (const cJSON *c = j->child; c; c = c->next) {
		const char *k = c->string;
		if (strcmp(k, "jsonrpc") && strcmp(k, "id") && strcmp(k, "method") && strcmp(k, "params") &&
		    strcmp(k, "result") && strcmp(k, "error")) {
			invalid(error, id, "invalid request: unknown member (allowed: jsonrpc, id, method, params, result, error)");
			goto done;
		}
	}
	if (id && !id_ok(id)) {
		invalid(error, NULL, "invalid request: \"id\" must be a string or an integer");
		goto done;
	}
	if (method) {
		if (!cJSON_IsString(method) || !*method->valuestring || strlen(method->valuestring) > 128) {
			invalid(error, id, "invalid request: \"method\" must be a non-empty string");
			goto done;
		}
		if (result || err) {
			invalid(error, id, "invalid request: a request has no \"result\" or \"error\"");
			goto done;
		}
		if (params && !cJSON_IsObject(params)) {
			invalid(error, id, "invalid request: \"params\" must be an object");
			goto done;
		}
		out->kind = id ? AMC_RPC_REQUEST : AMC_RPC_NOTIFICATION;
		out->method = method->valuestring;
		out->params = params;
	} else {
		/* a response to one of our requests: id and exactly one of result/error */
		if (!id || !!result == !!err || params) {
			invalid(error, id, "invalid request: no \"method\"");
			goto done;
		}
		out->kind = AMC_RPC_RESPONSE;
		out->result = result;
		out->error = err;
	}
	out->id = id;
	out->msg = j;
	j = NULL;
	rc = 0;
done:
	cJSON_Delete(j);
	return rc;
}

void amc_rpc_msg_free(amc_rpc_msg *m)
{
	cJSON_Delete(m->msg);
	memset(m, 0, sizeof *m);
}

/* amc search - full-text search over everything amc saw (docs/search.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "storage/search.h"
#include "util/clock.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"
#include "util/status.h"
#include "util/strbuf.h"

/* "90s", "15m", "2h", "7d", "2w": milliseconds, or -1. */
static long long parse_duration(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (end == s || v <= 0 || v > 100000000LL || !end[0] || end[1])
		return -1;
	switch (end[0]) {
	case 's': return v * 1000;
	case 'm': return v * 60 * 1000;
	case 'h': return v * 3600 * 1000;
	case 'd': return v * 86400 * 1000;
	case 'w': return v * 7 * 86400 * 1000;
	default: return -1;
	}
}

/* The snippet as plain one-line text (newlines between screen texts shown
 * as " · ") and the byte spans of its matches, in `plain`. */
typedef struct span {
	size_t at, len;
} span;

static size_t split_snippet(const char *snip, amc_sb *plain, span *spans, size_t max)
{
	size_t n = 0, start = 0;
	int in = 0;
	amc_sb piece;
	amc_sb_init(&piece);
	for (const char *p = snip ? snip : "";; p++) {
		if (*p && *p != AMC_SEARCH_MARK_ON && *p != AMC_SEARCH_MARK_OFF) {
			if (*p == '\n')
				amc_sb_puts(&piece, p[1] ? " · " : "");
			else
				amc_sb_putc(&piece, *p);
			continue;
		}
		/* each piece made terminal-safe on its own, so a mark is never inside an escape */
		amc_sanitize_line(piece.buf ? piece.buf : "", piece.len, plain);
		amc_sb_reset(&piece);
		if (in && n < max) {
			spans[n].at = start;
			spans[n].len = plain->len - start;
			n++;
		}
		if (!*p)
			break;
		in = *p == AMC_SEARCH_MARK_ON;
		start = plain->len;
	}
	amc_sb_free(&piece);
	return n;
}

#define MAX_SPANS 32

static cJSON *hit_json(const amc_search_hit *h)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "id", (double)h->id);
	amc_json_add_str(j, "task_id", h->task_id);
	cJSON_AddNumberToObject(j, "step", h->step);
	amc_json_add_str(j, "field", h->field);
	amc_json_add_str(j, "tool", h->tool);
	amc_json_add_str(j, "task_status", h->task_status);
	amc_json_add_str(j, "task", h->task_title);
	cJSON_AddNumberToObject(j, "created_ms", (double)h->created_ms);
	amc_sb plain;
	amc_sb_init(&plain);
	span sp[MAX_SPANS];
	size_t n = split_snippet(h->snippet, &plain, sp, MAX_SPANS);
	cJSON_AddStringToObject(j, "snippet", amc_sb_str(&plain));
	cJSON *arr = cJSON_AddArrayToObject(j, "highlights");
	for (size_t i = 0; i < n; i++) {
		cJSON *pair = cJSON_CreateArray();
		cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)sp[i].at));
		cJSON_AddItemToArray(pair, cJSON_CreateNumber((double)sp[i].len));
		cJSON_AddItemToArray(arr, pair);
	}
	amc_sb_free(&plain);
	return j;
}

static void print_hit(const amc_search_hit *h, int colour)
{
	char when[32], step[16];
	amc_format_time(h->created_ms, when, sizeof when);
	if (h->step > 0)
		snprintf(step, sizeof step, "%d", h->step);
	else
		snprintf(step, sizeof step, "-");
	printf("%s %-16s %5s  %-12s %-19s  ", amc_cli_status_symbol(h->task_status), h->task_id, step,
	       h->field, when);
	amc_sb plain;
	amc_sb_init(&plain);
	span sp[MAX_SPANS];
	size_t n = split_snippet(h->snippet, &plain, sp, MAX_SPANS);
	/* matches: reverse video on a terminal that wants colour, [brackets] otherwise */
	const char *on = colour ? "\033[1;7m" : "[", *off = colour ? "\033[0m" : "]";
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		fwrite(plain.buf + at, 1, sp[i].at - at, stdout);
		printf("%s%.*s%s", on, (int)sp[i].len, plain.buf + sp[i].at, off);
		at = sp[i].at + sp[i].len;
	}
	fputs(amc_sb_str(&plain) + at, stdout);
	printf("\n");
	amc_sb_free(&plain);
}

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "task", required_argument, 0, 't' },
		{ "status", required_argument, 0, 's' },
		{ "since", required_argument, 0, 'S' },
		{ "limit", required_argument, 0, 'n' },
		{ "fts", no_argument, 0, 'f' },
		{ "json", no_argument, 0, 'j' },
		{ 0, 0, 0, 0 },
	};
	const char *task = NULL, *status = NULL;
	long long since = 0;
	long limit = 20;
	int json = 0, fts = 0, c;
	amc_err e;
	while ((c = getopt_long(argc, argv, "t:s:S:n:fj", opts, NULL)) != -1) {
		switch (c) {
		case 't': task = optarg; break;
		case 's': status = optarg; break;
		case 'S':
			since = parse_duration(optarg);
			if (since < 0)
				return amc_cli_usage(&amc_cmd_search, "--since takes a duration like 30m, 2h, 7d or 2w, "
							"not '%s'", optarg);
			break;
		case 'n':
			if (amc_cli_int("--limit", optarg, 1, AMC_SEARCH_LIMIT_MAX, &limit, &e) != 0)
				return amc_cli_usage(&amc_cmd_search, "%s", e.msg);
			break;
		case 'f': fts = 1; break;
		case 'j': json = 1; break;
		default: return amc_cli_usage(&amc_cmd_search, "unknown option");
		}
	}
	if (optind >= argc)
		return amc_cli_usage(&amc_cmd_search, "search for what? give one or more words");
	/* the words may come as several arguments: `amc search payment failed` */
	amc_sb words;
	amc_sb_init(&words);
	for (int i = optind; i < argc; i++) {
		if (i > optind)
			amc_sb_putc(&words, ' ');
		amc_sb_puts(&words, argv[i]);
	}
	if (status && !amc_status_find(status)) {
		amc_sb_free(&words);
		return amc_cli_usage(&amc_cmd_search, "unknown status '%s' (%s)", status, amc_status_names());
	}
	amc_store *store;
	if (amc_cli_store(cli, &store, &e) != 0) {
		amc_sb_free(&words);
		return amc_cli_fail(&e);
	}
	amc_task_row t = { 0 };
	if (task && amc_store_get_task(store, task, &t, &e) != 0) {
		amc_sb_free(&words);
		return amc_cli_fail(&e);
	}
	amc_search_query q = { amc_sb_str(&words), fts, t.id, status, since ? amc_now_ms() - since : 0,
			       (int)limit, 0 };
	amc_search_hit *hits;
	size_t n;
	int rc = amc_store_search(store, &q, &hits, &n, &e);
	if (rc != 0) {
		amc_task_row_free(&t);
		amc_sb_free(&words);
		return amc_cli_fail(&e);
	}
	if (json) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "query", amc_sb_str(&words));
		cJSON_AddBoolToObject(j, "fts", fts);
		cJSON *arr = cJSON_AddArrayToObject(j, "hits");
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(arr, hit_json(&hits[i]));
		cJSON_AddBoolToObject(j, "more", n == (size_t)limit);
		amc_cli_print_json(j);
	} else if (n == 0) {
		printf("no matches\n");
	} else {
		const char *nc = getenv("NO_COLOR");
		int colour = isatty(STDOUT_FILENO) && !(nc && *nc);
		printf("  %-16s %5s  %-12s %-19s  %s\n", "TASK", "STEP", "FIELD", "WHEN", "MATCH");
		for (size_t i = 0; i < n; i++)
			print_hit(&hits[i], colour);
		if (n == (size_t)limit)
			printf("(the newest %zu; --limit N for more)\n", n);
		printf("`amc show TASK --step N` shows a step\n");
	}
	amc_search_hits_free(hits, n);
	amc_task_row_free(&t);
	amc_sb_free(&words);
	return n == 0 ? 1 : 0; /* grep's convention: 1 when nothing matched */
}

const amc_cmd amc_cmd_search = {
	"search",
	"search [--task ID] [--status S] [--since DURATION] [--limit N] [--fts] [--json] WORDS...",
	"find the steps whose screen, action, error or reasoning mentions WORDS",
	"  -t, --task ID         only this task (an id or a unique prefix)\n"
	"  -s, --status S        only tasks in this state (see `amc tasks --help`)\n"
	"  -S, --since DURATION  only what was recorded in the last DURATION (30m, 2h, 7d, 2w)\n"
	"  -n, --limit N         at most N matches (default 20)\n"
	"  -f, --fts             WORDS is an SQLite FTS5 query: \"a phrase\", prefix*, AND, OR,\n"
	"                        NOT, parentheses (a bad one exits 2)\n"
	"  -j, --json            JSON on stdout: hits with task, step, field, snippet and the\n"
	"                        byte spans of the matches in it\n\n"
	"Searched: what was on every screen (UI-tree text, content descriptions, OCR words),\n"
	"task goals and flow names, step descriptions, errors and the planner's reasoning,\n"
	"as recorded (secrets masked). Every word must appear, as a word or a run of words\n"
	"(Wi-Fi finds \"Wi-Fi\" and \"wi fi\"); case and accents are ignored. Newest first.\n",
	run,
};

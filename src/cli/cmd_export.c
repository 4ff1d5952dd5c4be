/* amc export - a recorded task in a form to hand on: one row of FORMATS per
 * format (--html FILE, --json [FILE], --dir DIR, --flow [FILE]). A new format is one row,
 * its writer and its lines in the help; the options are made from the table. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "flow/flow_export.h"
#include "report/report.h"
#include "util/fsutil.h"
#include "util/hyperlink.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"

/* Write task `t` to `dest` (the option's value; NULL for an optional one not
 * given). Returns 0 or -1 with e set. */
typedef int (*export_writer)(amc_store *s, const amc_report_task *t, const char *dest, amc_err *e);

typedef struct export_format {
	const char *name;   /* the long option: --NAME */
	int has_arg;        /* required_argument or optional_argument (--NAME=VALUE) */
	const char *arg;    /* what the value is, for messages */
	export_writer write;
} export_format;

/* An exported file is the user's, like any file a command writes: the mode
 * their umask allows (0644 with the usual 022), not amc's private 0600. */
static mode_t user_mode(void)
{
	mode_t m = umask(0);
	umask(m);
	return (mode_t)(0666 & ~m);
}

/* A folder given where a file is wanted is the user's slip (exit 2), said
 * before anything is written rather than as a failed rename. */
static int not_a_folder(const char *dest, const char *opt, amc_err *e)
{
	struct stat st;
	if (dest && strcmp(dest, "-") && stat(dest, &st) == 0 && S_ISDIR(st.st_mode))
		return amc_err_set(e, AMC_EUSAGE, "'%s' is a folder: %s writes one file; give a file name such as %s/report%s%s",
				   dest, opt, dest, !strcmp(opt, "--flow") ? ".yaml" : !strcmp(opt, "--json") ? ".json" : ".html",
				   !strcmp(opt, "--html") ? " (--dir DIR writes a folder)" : "");
	return 0;
}

static int write_html(amc_store *s, const amc_report_task *t, const char *dest, amc_err *e)
{
	if (not_a_folder(dest, "--html", e) != 0)
		return -1;
	amc_sb sb;
	amc_sb_init(&sb);
	int rc = amc_report_html(s, t, &sb, e);
	if (rc == 0)
		rc = amc_write_atomic(dest, sb.buf ? sb.buf : "", sb.len, user_mode(), e);
	amc_sb_free(&sb);
	return rc;
}

static int write_json(amc_store *s, const amc_report_task *t, const char *dest, amc_err *e)
{
	cJSON *j = amc_report_json(s, t, NULL);
	if (!dest || !strcmp(dest, "-")) {
		amc_cli_print_json(j);
		return 0;
	}
	if (not_a_folder(dest, "--json", e) != 0) {
		cJSON_Delete(j);
		return -1;
	}
	char *text = amc_json_print(j);
	cJSON_Delete(j);
	int rc = amc_write_atomic(dest, text, strlen(text), user_mode(), e);
	free(text);
	return rc;
}

static int write_dir(amc_store *s, const amc_report_task *t, const char *dest, amc_err *e)
{
	return amc_report_dir(s, t, dest, e);
}

static int write_flow(amc_store *s, const amc_report_task *t, const char *dest, amc_err *e)
{
	char *yaml = NULL;
	if (not_a_folder(dest, "--flow", e) != 0)
		return -1;
	if (amc_flow_export(s, t->task.id, &yaml, e) != 0)
		return -1;
	int rc = 0;
	if (!dest || !strcmp(dest, "-"))
		fputs(yaml, stdout);
	else
		rc = amc_write_atomic(dest, yaml, strlen(yaml), user_mode(), e);
	free(yaml);
	return rc;
}

static const export_format FORMATS[] = {
	{ "html", required_argument, "FILE", write_html },
	{ "json", optional_argument, "FILE", write_json },
	{ "dir", required_argument, "DIR", write_dir },
	{ "flow", optional_argument, "FILE", write_flow },
};
#define NFORMATS (sizeof FORMATS / sizeof FORMATS[0])

static int run(amc_cli *cli, int argc, char **argv)
{
	struct option opts[NFORMATS + 1];
	const char *dest[NFORMATS];
	int wanted[NFORMATS];
	for (size_t i = 0; i < NFORMATS; i++) {
		opts[i] = (struct option){ FORMATS[i].name, FORMATS[i].has_arg, 0, (int)(256 + i) };
		dest[i] = NULL;
		wanted[i] = 0;
	}
	opts[NFORMATS] = (struct option){ 0, 0, 0, 0 };
	int c, any = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c < 256 || c >= 256 + (int)NFORMATS)
			return amc_cli_usage(&amc_cmd_export, "unknown option");
		size_t i = (size_t)(c - 256);
		if (FORMATS[i].has_arg == required_argument && (!optarg || !*optarg))
			return amc_cli_usage(&amc_cmd_export, "--%s needs a %s", FORMATS[i].name, FORMATS[i].arg);
		wanted[i] = 1;
		dest[i] = optarg;
		any = 1;
	}
	if (optind >= argc)
		return amc_cli_usage(&amc_cmd_export, "which task? give its id or a unique prefix");
	if (argc - optind > 1)
		return amc_cli_usage(&amc_cmd_export, "one task at a time");
	if (!any)
		return amc_cli_usage(&amc_cmd_export, "in which format? give --html FILE, --json, --dir DIR or --flow");
	amc_store *store;
	amc_err e;
	if (amc_cli_store(cli, &store, &e) != 0)
		return amc_cli_fail(&e);
	amc_report_task t;
	if (amc_report_load(store, argv[optind], &t, &e) != 0)
		return amc_cli_fail(&e);
	int rc = 0;
	for (size_t i = 0; i < NFORMATS && rc == 0; i++) {
		if (!wanted[i])
			continue;
		if (FORMATS[i].write(store, &t, dest[i], &e) != 0) {
			amc_err_prefix(&e, "export --%s", FORMATS[i].name);
			rc = amc_cli_fail(&e);
		} else if (dest[i] && strcmp(dest[i], "-")) {
			fprintf(stderr, "amc: wrote task %s (%zu steps) to ", t.task.id, t.nsteps);
			/* a link to the report where the terminal supports OSC 8 (issue 27) */
			char real[PATH_MAX];
			if (amc_hyperlink_supported(STDERR_FILENO, NULL) && realpath(dest[i], real)) {
				amc_sb l;
				amc_sb_init(&l);
				amc_hyperlink_wrap(real, dest[i], &l);
				fputs(amc_sb_str(&l), stderr);
				amc_sb_free(&l);
			} else {
				amc_cli_put_safe(stderr, dest[i]);
			}
			fprintf(stderr, "\n");
		}
	}
	amc_report_free(&t);
	return rc;
}

const amc_cmd amc_cmd_export = {
	"export",
	"export TASK [--html FILE] [--json[=FILE]] [--dir DIR] [--flow[=FILE]]",
	"write a recorded task as an HTML report, a JSON document, a folder or a Maestro flow",
	"      --html FILE    one self-contained HTML page: screenshots (target marked),\n"
	"                     actions, results, reasoning, OCR words, UI trees; no network,\n"
	"                     no script, no other files: mail it, open it in any browser\n"
	"      --json[=FILE]  every record of the task as one JSON document (stdout, or FILE)\n"
	"      --dir DIR      DIR/task.json with the screenshots and UI trees it names copied\n"
	"                     under DIR/artifacts/ (DIR new or empty)\n"
	"      --flow[=FILE]  a succeeded task as a Maestro flow that replays it (stdout, or\n"
	"                     FILE): taps as selectors from the tree each step saw, typed\n"
	"                     secrets as ${NAME}, an assertVisible of the final screen\n\n"
	"Several formats may be given at once. Secrets are masked as everywhere in amc:\n"
	"what is exported is what was recorded.\n",
	run,
};

/* amc run --flow DIR - every flow below a folder, selected by tags, each run
 * as its own task (a child `amc run --flow FILE --json`, so one flow cannot
 * disturb the next), with a summary and optionally a JUnit report. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "cli/cli.h"
#include "cli/cmd_run_folder.h"
#include "flow/flow_folder.h"
#include "util/proc.h"
#include "util/sanitize.h"

#define FLOW_TIMEOUT_MS (60L * 60 * 1000)

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run_one(const char *self, const char *device, amc_folder_flow *f)
{
	const char *argv[8];
	int n = 0;
	argv[n++] = self;
	argv[n++] = "run";
	argv[n++] = "--flow";
	argv[n++] = f->path;
	if (device) {
		argv[n++] = "--device";
		argv[n++] = device;
	}
	argv[n++] = "--json";
	argv[n] = NULL;
	amc_proc_result r;
	amc_err e;
	double t0 = now_s();
	f->ran = 1;
	if (amc_proc_run(argv, FLOW_TIMEOUT_MS, 1024 * 1024, 64 * 1024, &r, &e) != 0) {
		f->message = amc_xstrdup(e.msg);
		f->seconds = now_s() - t0;
		return;
	}
	f->seconds = now_s() - t0;
	cJSON *j = cJSON_ParseWithLength((const char *)r.out, r.out_len);
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
	const cJSON *er = cJSON_GetObjectItemCaseSensitive(j, "error");
	if (cJSON_IsString(id))
		f->task_id = amc_sanitize_dup(id->valuestring);
	f->passed = r.exit_code == 0 && cJSON_IsString(st) && !strcmp(st->valuestring, "succeeded");
	if (!f->passed) {
		if (cJSON_IsString(er) && *er->valuestring)
			f->message = amc_sanitize_dup(er->valuestring);
		else if (r.timed_out)
			f->message = amc_xstrdup("the flow ran longer than an hour and was stopped");
		else if (r.err_len)
			f->message = amc_sanitize_dup(r.err); /* amc's own message: not started */
		else
			f->message = amc_xstrdup(cJSON_IsString(st) ? st->valuestring : "failed");
	}
	cJSON_Delete(j);
	amc_proc_result_free(&r);
}

int amc_cli_run_suite(const char *dir, const char *device, const char *include, const char *exclude,
		      const char *format, const char *output, int json)
{
	amc_err e;
	amc_err_clear(&e);
	if (format && strcmp(format, "junit") != 0)
		return amc_cli_usage(&amc_cmd_run, "--format takes junit");
	if (format && !output)
		return amc_cli_usage(&amc_cmd_run, "--format junit needs --output FILE");
	if (output && !format)
		return amc_cli_usage(&amc_cmd_run, "--output FILE needs --format junit");
	amc_flow_folder s;
	if (amc_flow_folder_list(dir, include, exclude, &s, &e) != 0)
		return amc_cli_fail(&e);
	if (s.n == 0) {
		amc_flow_folder_free(&s);
		amc_err_set(&e, AMC_EUSAGE, "no flow below %s matches the tags given", dir);
		return amc_cli_fail(&e);
	}
	char self[PATH_MAX];
	ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
	if (l <= 0) {
		amc_flow_folder_free(&s);
		amc_err_set(&e, AMC_EENV, "cannot find amc's own executable to run each flow");
		return amc_cli_fail(&e);
	}
	self[l] = '\0';
	size_t failed = 0;
	int order_failed = 0;
	for (size_t i = 0; i < s.n; i++) {
		if (s.v[i].in_order && order_failed && !s.continue_on_failure) {
			/* executionOrder with continueOnFailure: false stops its sequence */
			s.v[i].message = amc_xstrdup("not run: an earlier flow of executionOrder failed "
						     "(continueOnFailure: false)");
		} else {
			run_one(self, device, &s.v[i]);
		}
		order_failed |= s.v[i].in_order && !s.v[i].passed;
		failed += !s.v[i].passed;
		if (!json) {
			fprintf(stderr, "%s ", s.v[i].passed ? "PASS" : "FAIL");
			amc_cli_put_safe(stderr, s.v[i].name);
			fprintf(stderr, " (%.1f s)", s.v[i].seconds);
			if (s.v[i].message) {
				fputs(": ", stderr);
				amc_cli_put_safe(stderr, s.v[i].message);
			}
			fputc('\n', stderr);
		}
	}
	int rc = failed ? AMC_EFAIL : 0;
	if (output && amc_flow_folder_write_junit(&s, dir, output, &e) != 0)
		rc = amc_cli_fail(&e);
	if (json) {
		cJSON *j = cJSON_CreateObject();
		cJSON_AddNumberToObject(j, "flows", (double)s.n);
		cJSON_AddNumberToObject(j, "failed", (double)failed);
		cJSON *a = cJSON_AddArrayToObject(j, "results");
		for (size_t i = 0; i < s.n; i++) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "flow", s.v[i].path);
			cJSON_AddStringToObject(o, "name", s.v[i].name);
			cJSON_AddBoolToObject(o, "passed", s.v[i].passed);
			if (s.v[i].task_id)
				cJSON_AddStringToObject(o, "task", s.v[i].task_id);
			if (s.v[i].message)
				cJSON_AddStringToObject(o, "error", s.v[i].message);
			cJSON_AddItemToArray(a, o);
		}
		amc_cli_print_json(j);
	} else {
		fprintf(stderr, "amc: %zu of %zu flows passed\n", s.n - failed, s.n);
	}
	amc_flow_folder_free(&s);
	return rc;
}

/* test_sources.c - a flow's text kept with its task (storage/sources.h,
 * stored by amc_launch_run): a flow sent as text (a bundle, as MCP's
 * run_task and the fleet host send it) fails on the sim at a known line and
 * the stored copy shows that line, its sub-flow's too; a flow file edited
 * after its run still shows the lines that ran; a known secret value in the
 * text is stored masked; a task with no copy reads the file; a manifest
 * changed by hand names no other file; retention removes the copies with
 * the task; the TUI's runner thread keeps them too. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "launch/launch.h"
#include "launch/runner.h"
#include "storage/sources.h"

static amc_config *cfg;
static amc_store *st;
static const char *home;

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Launch and run req on the sim; the task's id into id. */
static int run_req(const amc_launch_req *req, char *id, size_t n, amc_task_outcome *out)
{
	amc_launch l;
	amc_err e;
	if (amc_launch_prepare(cfg, NULL, req, &l, &e) != 0) {
		diag("prepare: %s", e.msg);
		return -1;
	}
	snprintf(id, n, "%s", l.task->id);
	amc_launch_ctx c;
	amc_launch_ctx_init(&c, home, cfg);
	c.store = st;
	int rc = amc_launch_run(&l, &c, out, &e);
	amc_launch_free(&l);
	return rc;
}

/* Line `line` of text, into out. */
static void line_of(const char *text, long line, char *out, size_t n)
{
	const char *p = text;
	for (long i = 1; p && i < line; i++)
		p = (p = strchr(p, '\n')) ? p + 1 : NULL;
	size_t k = p ? strcspn(p, "\n") : 0;
	snprintf(out, n, "%.*s", (int)k, p ? p : "");
}

/* The last step's place and the stored text's line there. */
static void last_step_line(const char *id, char *where, size_t wn, char *line, size_t ln, int *stored)
{
	amc_step_row *steps = NULL;
	size_t n = 0;
	amc_err e;
	where[0] = line[0] = 0;
	*stored = -1;
	if (amc_store_get_steps(st, id, &steps, &n, &e) != 0 || n == 0)
		return;
	char *path, *text;
	long no;
	size_t len;
	if (amc_store_step_source_place(steps[n - 1].reasoning, &path, &no)) {
		snprintf(where, wn, "%s:%ld", path, no);
		if (amc_store_source_read(st, id, path, &text, &len, stored, &e) == 0) {
			line_of(text, no, line, ln);
			free(text);
		} else {
			snprintf(line, ln, "(%.200s)", e.msg);
		}
		free(path);
	}
	amc_step_rows_free(steps, n);
}

static void test_bundle(void)
{
	static const amc_launch_file files[] = {
		{ "sub/check.yaml", "appId: com.android.settings\n---\n- assertVisible: \"Settings\"\n" },
	};
	const char *flow = "appId: com.android.settings\n"
			   "name: Sent as text\n"
			   "---\n"
			   "- launchApp  # hunter2-token\n"
			   "- runFlow: sub/check.yaml\n"
			   "- tapOn: \"No such button anywhere\"\n"
			   "- back\n";
	amc_launch_bundle b = { flow, "main.yaml", "/nonexistent/mcp-base", files, 1, "the flow text you sent" };
	amc_launch_req req;
	amc_launch_req_init(&req);
	req.device = "sim";
	req.bundle = &b;
	char id[AMC_ID_SIZE], where[PATH_MAX + 32], line[256];
	amc_task_outcome out;
	int stored;
	is_int(run_req(&req, id, sizeof id, &out), 0, "a flow sent as text runs");
	is_str(out.status, "failed", "and fails at its tapOn");
	last_step_line(id, where, sizeof where, line, sizeof line, &stored);
	is_str(where, "/nonexistent/mcp-base/main.yaml:6", "the failing step names BASE/flow:LINE");
	is_int(stored, 1, "its text is the copy kept with the task");
	is_str(line, "- tapOn: \"No such button anywhere\"", "which has the failing line");

	/* the sub-flow's step reads its own stored copy */
	char *text = NULL;
	size_t len;
	amc_err e;
	ok(amc_store_source_read(st, id, "/nonexistent/mcp-base/sub/check.yaml", &text, &len, &stored, &e) == 0 &&
	   stored && strstr(text, "assertVisible: \"Settings\"") != NULL, "the sub-flow's text is kept too");
	free(text);

	/* a known secret value in the text is kept masked */
	text = NULL;
	ok(amc_store_source_read(st, id, "/nonexistent/mcp-base/main.yaml", &text, &len, &stored, &e) == 0, "read back");
	ok(text && !strstr(text, "hunter2-token") && strstr(text, "{{secret:FLOWSRC_T}}"),
	   "a secret's value in the flow text is stored as its placeholder");
	free(text);

	/* a manifest changed by hand names no other file */
	char mf[PATH_MAX + 64];
	snprintf(mf, sizeof mf, "%s/artifacts/%s/%s", home, id, AMC_STORE_SOURCES_MANIFEST);
	write_file(mf, "{\"files\":[{\"path\":\"/x.yaml\",\"artifact\":\"../../amc.db\"}]}");
	text = NULL;
	is_int(amc_store_source_read(st, id, "/x.yaml", &text, &len, &stored, &e), -1, "a manifest naming another file");
	like(e.msg, "not a source copy", "is refused");
	ok(text == NULL, "and nothing is read");

	/* retention takes the copies with the task's folder */
	amc_retention_opts ro = { 1, 0, 0 };
	amc_retention_report rr;
	char dir[PATH_MAX + 64];
	snprintf(dir, sizeof dir, "%s/artifacts/%s", home, id);
	struct stat sb;
	ok(stat(dir, &sb) == 0, "the task's folder holds them");
	amc_task_outcome o2;
	char id2[AMC_ID_SIZE];
	amc_launch_req r2;
	amc_launch_req_init(&r2);
	r2.device = "sim";
	r2.bundle = &b;
	run_req(&r2, id2, sizeof id2, &o2);
	ok(amc_store_retention(st, &ro, &rr, &e) == 0 && rr.tasks >= 1, "retention keeps the newest task only");
	/* the folder itself may stay: the newer task's rows name frames stored
	 * there once for both (artifact_xrefs) */
	char f0[PATH_MAX + 80];
	snprintf(f0, sizeof f0, "%s/source-0.txt", dir);
	ok(stat(mf, &sb) != 0 && stat(f0, &sb) != 0, "the older task's source copies are gone");
}

static void test_edited_file(void)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/edited.yaml", home);
	write_file(path, "appId: com.android.settings\n---\n- launchApp\n- tapOn: \"Ran this line\"\n");
	amc_launch_req req;
	amc_launch_req_init(&req);
	req.device = "sim";
	req.flow_path = path;
	char id[AMC_ID_SIZE], where[PATH_MAX + 32], line[256], want[PATH_MAX + 32];
	amc_task_outcome out;
	int stored;
	is_int(run_req(&req, id, sizeof id, &out), 0, "a flow file runs");
	is_str(out.status, "failed", "and fails at line 4");
	/* edited after the run: a line inserted above the one that failed */
	write_file(path, "appId: com.android.settings\n---\n- launchApp\n- back\n- tapOn: \"Edited later\"\n");
	last_step_line(id, where, sizeof where, line, sizeof line, &stored);
	snprintf(want, sizeof want, "%s:4", path);
	is_str(where, want, "the step names the file and line");
	is_str(line, "- tapOn: \"Ran this line\"", "its line is the one that ran, not the edited file's");

	/* a task recorded before copies were kept: the file as it is now */
	char mf[PATH_MAX + 64];
	snprintf(mf, sizeof mf, "%s/artifacts/%s/%s", home, id, AMC_STORE_SOURCES_MANIFEST);
	unlink(mf);
	last_step_line(id, where, sizeof where, line, sizeof line, &stored);
	is_int(stored, 0, "without a manifest the file is read");
	is_str(line, "- back", "as it is now");
	unlink(path);
}

/* The TUI's path: a launch handed to the device's runner thread keeps its
 * flow text to the run. */
static void test_runner(void)
{
	const char *flow = "appId: com.android.settings\n---\n- launchApp\n- tapOn: \"Nowhere to be seen\"\n";
	amc_launch_bundle b = { flow, NULL, "/nonexistent/tui-base", NULL, 0, NULL };
	amc_launch_req req;
	amc_launch_req_init(&req);
	req.device = "sim";
	req.bundle = &b;
	amc_launch l;
	amc_err e;
	amc_bus *bus = amc_bus_new();
	amc_runner *r = NULL;
	char id[AMC_ID_SIZE], where[PATH_MAX + 32], line[256];
	int stored;
	if (amc_launch_prepare(cfg, NULL, &req, &l, &e) != 0 || amc_runner_start(home, "sim", cfg, bus, &r, &e) != 0) {
		ok(0, "prepare and start: %s", e.msg);
		return;
	}
	snprintf(id, sizeof id, "%s", l.task->id);
	ok(amc_runner_submit_launch(r, &l, &e) == 0 && !l.task && !l.flow_text, "the runner takes the launch's parts");
	amc_launch_free(&l);
	ok(amc_runner_wait_idle(r, 60000) == 0, "and runs it");
	amc_runner_stop(r, 0);
	amc_bus_free(bus);
	last_step_line(id, where, sizeof where, line, sizeof line, &stored);
	is_str(where, "/nonexistent/tui-base/flow.yaml:4", "its failing step");
	is_str(line, "- tapOn: \"Nowhere to be seen\"", "shows its line from the copy kept with the task");
}

int main(void)
{
	home = test_home("flowsrc");
	cfg = amc_config_new();
	amc_err e;
	if (amc_config_set(cfg, "flow", "wait_timeout_ms", "300", "test", &e) != 0)
		diag("config: %s", e.msg);
	setenv("AMC_SECRET_FLOWSRC_T", "hunter2-token", 1);
	if (amc_store_open(home, &st, &e) != 0) {
		ok(0, "store: %s", e.msg);
		done_testing();
	}
	test_bundle();
	test_edited_file();
	test_runner();
	amc_store_close(st);
	amc_config_free(cfg);
	done_testing();
}

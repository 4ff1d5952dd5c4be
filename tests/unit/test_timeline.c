/* test_timeline.c - step records: every field round-trips, the
 * legacy column equals the after image, a reused observation is one path in
 * two records, duplicates and stray paths are refused. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "storage/store.h"
#include "tap.h"
#include "testutil.h"

static const char ID[] = "6000000000000001";

static void mk_task(amc_store *s, const char *id)
{
	amc_err e = {0};
	amc_task_row t = {.id = (char *)id, .kind = "flow", .status = "running",
			  .input_tokens = -1, .output_tokens = -1, .cost_usd = -1, .source_attempt = -1};
	if (amc_store_create_task(s, &t, &e) != 0)
		diag("create: %s", e.msg);
}

static void test_round_trip(amc_store *s)
{
	amc_err e = {0};
	mk_task(s, ID);
	const char *args = "{\"text\":\"Zo\\u00eb \\\"quoted\\\"\",\"n\":[1,2,3]}";
	const char *result = "{\"ok\":true,\"message\":\"typed 6 characters\"}";
	const char *ocr = "[{\"text\":\"Save\",\"bounds\":[10,20,110,60],\"confidence\":0.93}]";
	const char *tree = "{\"class\":\"android.widget.FrameLayout\",\"children\":[]}";
	const char *scene = "{\"width\":1080,\"height\":2400,\"elements\":[{\"id\":\"e1\",\"type\":\"button\","
			    "\"bounds\":[0,0,10,10],\"text\":\"Ünïcødé ✓\",\"confidence\":1,\"source\":\"uitree\"}]}";
	const char *semantic = "{\"page\":\"contact form\",\"intents\":[],\"widgets\":[]}";
	const char *timings = "{\"observe_ms\":120,\"plan_ms\":3,\"act_ms\":40,\"settle_ms\":310}";
	amc_step_row r = {
		.task_id = (char *)ID, .step = 1, .tool = "type_text", .args = (char *)args,
		.description = "type the name", .status = "ok", .result = (char *)result,
		.before_screenshot = "artifacts/6000000000000001/0001-before.png",
		.after_screenshot = "artifacts/6000000000000001/0001-after.png",
		.screenshot_path = "artifacts/6000000000000001/ignored.png",
		.ocr = (char *)ocr, .ui_tree = (char *)tree,
		.ui_tree_path = "artifacts/6000000000000001/0001-after.tree.json",
		.scene = (char *)scene, .semantic_scene = (char *)semantic,
		.reasoning = "the name field is focused", .timings = (char *)timings,
		.started_ms = 1700000000000LL, .finished_ms = 1700000000473LL,
		.tree_diff = "{\"tree\":{\"added\":1},\"changed_nothing\":false}",
	};
	ok(amc_store_add_step(s, &r, &e) == 0, "add a full step: %s", e.msg);

	/* Step 2 reuses step 1's after image as its before image: one file, two
	 * references, the same path string. No after image, no OCR given. */
	amc_step_row r2 = {.task_id = (char *)ID, .step = 2, .tool = "get_ui_tree", .status = "failed",
			   .error = "device did not answer",
			   .before_screenshot = "artifacts/6000000000000001/0001-after.png"};
	ok(amc_store_add_step(s, &r2, &e) == 0, "add a sparse step: %s", e.msg);

	amc_step_row *rows;
	size_t n;
	ok(amc_store_get_steps(s, ID, &rows, &n, &e) == 0, "read the steps: %s", e.msg);
	is_int(n, 2, "two steps");
	if (n != 2)
		return;
	amc_step_row *g = &rows[0];
	is_str(g->task_id, ID, "task id");
	is_int(g->step, 1, "step");
	is_str(g->tool, "type_text", "tool");
	is_str(g->args, args, "args JSON byte for byte");
	is_str(g->description, "type the name", "description");
	is_str(g->status, "ok", "status");
	is_str(g->result, result, "result JSON");
	ok(g->error == NULL, "no error");
	is_str(g->before_screenshot, "artifacts/6000000000000001/0001-before.png", "before");
	is_str(g->after_screenshot, "artifacts/6000000000000001/0001-after.png", "after");
	is_str(g->screenshot_path, g->after_screenshot, "legacy screenshot_path = after");
	is_str(g->ocr, ocr, "ocr JSON");
	is_str(g->ui_tree, tree, "ui tree JSON");
	is_str(g->ui_tree_path, "artifacts/6000000000000001/0001-after.tree.json", "ui tree artifact");
	is_str(g->scene, scene, "scene JSON with UTF-8");
	is_str(g->semantic_scene, semantic, "semantic scene");
	is_str(g->reasoning, "the name field is focused", "reasoning");
	is_str(g->timings, timings, "timings");
	is_int(g->started_ms, 1700000000000LL, "started_ms");
	is_int(g->finished_ms, 1700000000473LL, "finished_ms");
	is_str(g->tree_diff, "{\"tree\":{\"added\":1},\"changed_nothing\":false}", "tree diff JSON");

	g = &rows[1];
	is_str(g->before_screenshot, rows[0].after_screenshot, "step 2's before is step 1's after, same path");
	ok(g->after_screenshot == NULL && g->screenshot_path == NULL, "no after image: both NULL");
	is_str(g->ocr, "[]", "ocr defaults to []");
	is_str(g->error, "device did not answer", "error");
	ok(g->result == NULL && g->scene == NULL && g->semantic_scene == NULL && g->tree_diff == NULL,
	   "absent JSON stays NULL");
	is_int(g->started_ms, 0, "unknown times read as 0");
	amc_step_rows_free(rows, n);
}

static void test_order_and_dupes(amc_store *s)
{
	amc_err e = {0};
	const char *id = "6000000000000002";
	mk_task(s, id);
	int order[] = {3, 1, 2};
	for (int i = 0; i < 3; i++) {
		amc_step_row r = {.task_id = (char *)id, .step = order[i], .tool = "tap"};
		amc_store_add_step(s, &r, &e);
	}
	amc_step_row *rows;
	size_t n;
	ok(amc_store_get_steps(s, id, &rows, &n, &e) == 0 && n == 3, "three steps");
	ok(n == 3 && rows[0].step == 1 && rows[1].step == 2 && rows[2].step == 3, "in step order");
	amc_step_rows_free(rows, n);

	amc_step_row dup = {.task_id = (char *)id, .step = 2, .tool = "swipe"};
	e.code = 0;
	ok(amc_store_add_step(s, &dup, &e) != 0, "a duplicate (task, step) is an error");
	is_int(e.code, AMC_EUSAGE, "bad input");
	like(e.msg, "step 2 of task 6000000000000002 is already recorded", "saying so: %s", e.msg);
	ok(amc_store_get_steps(s, id, &rows, &n, &e) == 0 && n == 3, "still three steps");
	ok(n == 3 && !strcmp(rows[1].tool, "tap"), "the first record of step 2 is kept");
	amc_step_rows_free(rows, n);

	amc_step_row orphan = {.task_id = "6000000000000999", .step = 1, .tool = "tap"};
	ok(amc_store_add_step(s, &orphan, &e) != 0 && e.code == AMC_EUSAGE, "a step of an unknown task is refused: %s", e.msg);
	amc_step_row zero = {.task_id = (char *)id, .step = 0, .tool = "tap"};
	ok(amc_store_add_step(s, &zero, &e) != 0 && e.code == AMC_EUSAGE, "step 0 is refused");
	amc_step_row badid = {.task_id = "../x", .step = 1};
	ok(amc_store_add_step(s, &badid, &e) != 0 && e.code == AMC_EUSAGE, "a bad task id is refused");

	ok(amc_store_get_steps(s, "6000000000000777", &rows, &n, &e) == 0 && n == 0, "no steps for an unknown task: empty");
	ok(amc_store_get_steps(s, "60000", &rows, &n, &e) != 0 && e.code == AMC_EUSAGE, "get_steps wants a full id");
}

static void test_paths_refused(amc_store *s)
{
	amc_err e = {0};
	const char *id = "6000000000000003";
	mk_task(s, id);
	const char *bad[] = {"../x", "/etc/passwd", "artifacts/../amc.db", "artifacts/6000000000000003/../../amc.db",
			     "artifacts", "artifacts/", "artifacts/x", "artifacts//x", "artifacts/x/./y",
			     "artifacts/x/\x1b[2J", "elsewhere/x/y"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		amc_step_row r = {.task_id = (char *)id, .step = (int)i + 1, .after_screenshot = (char *)bad[i]};
		e.code = 0;
		ok(amc_store_add_step(s, &r, &e) != 0 && e.code == AMC_EUSAGE, "after path #%zu refused", i);
		r.after_screenshot = NULL;
		r.before_screenshot = (char *)bad[i];
		ok(amc_store_add_step(s, &r, &e) != 0, "as before path too");
		r.before_screenshot = NULL;
		r.ui_tree_path = (char *)bad[i];
		ok(amc_store_add_step(s, &r, &e) != 0, "and as UI tree path");
	}
	amc_step_row *rows;
	size_t n;
	ok(amc_store_get_steps(s, id, &rows, &n, &e) == 0 && n == 0, "nothing was written");
	/* A legacy-style caller that sets only screenshot_path: it is the after image. */
	amc_step_row legacy = {.task_id = (char *)id, .step = 1, .screenshot_path = "artifacts/6000000000000003/a.png"};
	ok(amc_store_add_step(s, &legacy, &e) == 0, "only screenshot_path given");
	ok(amc_store_get_steps(s, id, &rows, &n, &e) == 0 && n == 1, "read");
	if (n == 1)
		is_str(rows[0].after_screenshot, "artifacts/6000000000000003/a.png", "it is taken as the after image");
	amc_step_rows_free(rows, n);
}

static void test_cascade(amc_store *s)
{
	/* The schema ties records to their task (foreign keys are on). */
	sqlite3 *db = amc_store_db(s);
	ok(sqlite3_exec(db, "DELETE FROM tasks WHERE id = '6000000000000002'", NULL, NULL, NULL) == SQLITE_OK,
	   "delete a task directly");
	sqlite3_stmt *st;
	sqlite3_prepare_v2(db, "SELECT count(*) FROM timeline WHERE task_id = '6000000000000002'", -1, &st, NULL);
	sqlite3_step(st);
	is_int(sqlite3_column_int(st, 0), 0, "its records went with it (ON DELETE CASCADE)");
	sqlite3_finalize(st);
}

int main(void)
{
	const char *home = test_home("timeline");
	amc_store *s = NULL;
	amc_err e = {0};
	if (amc_store_open(home, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	test_round_trip(s);
	test_order_and_dupes(s);
	test_paths_refused(s);
	test_cascade(s);
	amc_store_close(s);
	return done_testing();
}

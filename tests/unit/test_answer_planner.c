/* test_answer_planner.c - the answer planner (planner/answer_planner.c): the answer read
 * off the last screen when its inner planner is done, by resource id or text,
 * from the node's text or from the OCR words inside its bounds in reading
 * order; and the failures, each saying why. */
#include <stdlib.h>
#include <string.h>

#include "perception/uitree.h"
#include "script_planner.h"
#include "planner/answer_planner.h"
#include "tap.h"

static const char XML[] =
	"<?xml version=\"1.0\"?><hierarchy rotation=\"0\">"
	"<node index=\"0\" text=\"\" resource-id=\"\" class=\"android.widget.FrameLayout\" package=\"x\" "
	"content-desc=\"\" bounds=\"[0,0][1080,2400]\">"
	"<node index=\"0\" text=\"Total: 42\" resource-id=\"com.x:id/answer\" class=\"android.widget.TextView\" "
	"package=\"x\" content-desc=\"\" bounds=\"[100,200][900,300]\"/>"
	"<node index=\"1\" text=\"\" resource-id=\"com.x:id/pic\" class=\"android.widget.ImageView\" "
	"package=\"x\" content-desc=\"\" bounds=\"[0,400][1080,800]\"/>"
	"</node></hierarchy>";

static amc_element word(const char *text, const char *source, int x1, int y1, int x2, int y2)
{
	amc_element el;
	memset(&el, 0, sizeof el);
	el.text = (char *)text;
	el.source = source;
	el.bounds = (amc_bounds){ x1, y1, x2, y2 };
	el.node = -1;
	return el;
}

/* One plan on a finished inner script; *answer is the answer or the error. */
static amc_plan_rc plan(const amc_observation *obs, const char *id, const char *re, int index, int ocr,
			char **answer)
{
	script s = { 0 };
	amc_planner *p;
	amc_err e = { 0 };
	*answer = NULL;
	if (amc_answer_planner_new(planner_for(&s), id, re, index, ocr, &p, &e) != 0) {
		*answer = strdup(e.msg);
		return AMC_PLAN_FAIL;
	}
	amc_task task = { 0 };
	amc_plan_ctx ctx = { .task = &task, .step = 1, .obs = obs };
	amc_action a;
	memset(&a, 0, sizeof a);
	amc_plan_rc rc = p->ops->next(p, &ctx, &a, &e);
	if (rc == AMC_PLAN_DONE)
		*answer = a.answer ? strdup(a.answer) : NULL;
	else
		*answer = strdup(e.msg);
	amc_action_clear(&a);
	amc_planner_free(p);
	return rc;
}

int main(void)
{
	amc_observation obs;
	memset(&obs, 0, sizeof obs);
	amc_err e;
	ok(amc_uitree_parse(XML, strlen(XML), &obs.tree, &e) == 0, "the screen's tree parses");
	amc_element w[] = {
		word("world", "ocr", 500, 500, 600, 540),
		word("hello", "fused", 100, 505, 200, 545), /* same line, left: first */
		word("again", "ocr", 100, 600, 200, 640),   /* the next line */
		word("label", "uitree", 100, 450, 200, 480),/* the tree's own text: not OCR */
		word("outside", "ocr", 100, 900, 200, 940), /* below the node */
	};
	obs.scene.elements = w;
	obs.scene.count = sizeof w / sizeof w[0];

	char *ans;
	is_int(plan(&obs, "com.x:id/answer", NULL, 0, 0, &ans), AMC_PLAN_DONE, "found by resource id: done");
	is_str(ans, "Total: 42", "the answer is the node's text");
	free(ans);
	is_int(plan(&obs, NULL, "Total: \\d+", 0, 0, &ans), AMC_PLAN_DONE, "found by a text regex: done");
	is_str(ans, "Total: 42", "the same answer");
	free(ans);
	is_int(plan(&obs, "com.x:id/pic", NULL, 0, 1, &ans), AMC_PLAN_DONE, "with ocr: done");
	is_str(ans, "hello world again", "the OCR words inside the node, in reading order, nothing else");
	free(ans);
	is_int(plan(&obs, "com.x:id/pic", NULL, 0, 0, &ans), AMC_PLAN_FAIL, "a node without text fails");
	ok(ans && strstr(ans, "has no text"), "saying its element has no text: %s", ans ? ans : "");
	free(ans);
	is_int(plan(&obs, "com.x:id/missing", NULL, 0, 0, &ans), AMC_PLAN_FAIL, "an answer not on the screen fails");
	ok(ans && strstr(ans, "not on the last screen"), "saying so: %s", ans ? ans : "");
	free(ans);
	is_int(plan(&obs, "com.x:id/answer", NULL, 1, 0, &ans), AMC_PLAN_FAIL, "index 1 of one match fails");
	free(ans);
	is_int(plan(&obs, NULL, NULL, 0, 0, &ans), AMC_PLAN_FAIL, "no selector is refused");
	ok(ans && strstr(ans, "no selector"), "saying what is missing: %s", ans ? ans : "");
	free(ans);
	is_int(plan(NULL, "com.x:id/answer", NULL, 0, 0, &ans), AMC_PLAN_FAIL, "no observation: fails, no crash");
	free(ans);
	amc_uitree_free(&obs.tree);
	return done_testing();
}

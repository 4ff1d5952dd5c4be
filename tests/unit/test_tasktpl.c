/* test_tasktpl.c - task templates (src/suite/tasktpl.c, taskgen.c,
 * taskcheck.c): a template parses, broken ones are refused naming the line
 * and what to fix; parameters are drawn from the seed alone and redrawn to a
 * different value; holes and filters fill goals, flows, set-ups (keys too,
 * switch words and |int typed) and checks; every kind of check passes on the
 * state it names and fails on another, saying what it found against what it
 * expected; answers compare normalised, a short answer may hold the expected
 * one as whole words. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "suite/tasktpl.h"
#include "tap.h"

static const char GOOD[] =
	"summary: Turn a switch\n"
	"tags: [one-screen, settings]\n"
	"goal: Turn {{label}} {{state}} and call {{name|first}}.\n"
	"params:\n"
	"  label: {choice: [\"Dark theme\", \"Battery Saver\"]}\n"
	"  state: {choice: [\"on\", \"off\"]}\n"
	"  name: {name: true}\n"
	"  other: {name: true, differs_from: [name], setup_only: true}\n"
	"  level: {int: [10, 20]}\n"
	"  time: {time: [\"06:00\", \"07:00\", 15]}\n"
	"setup:\n"
	"  toggles:\n"
	"    \"{{label|key}}\": \"{{state|not}}\"\n"
	"  battery: \"{{level|int}}\"\n"
	"  note: \"at {{time}}\"\n"
	"check:\n"
	"  - path: toggles.{{label|key}}\n"
	"    equals: \"{{state}}\"\n"
	"  - path: contacts\n"
	"    has: {name: \"{{name}}\"}\n"
	"  - answer: \"{{level}}%\"\n"
	"max_steps: 9\n"
	"confirm: approve\n"
	"reference:\n"
	"  flow: |\n"
	"    appId: com.android.settings\n"
	"    ---\n"
	"    - tapOn: '{{label|re}}'\n"
	"  answer:\n"
	"    id: \"summary\"\n"
	"    ocr: true\n";

static int parse(const char *text, amc_tpl *t, amc_err *e)
{
	return amc_tpl_parse(text, strlen(text), "tasks/x-test.yaml", t, e);
}

static void test_parse(void)
{
	amc_tpl t;
	amc_err e = {0};
	ok(parse(GOOD, &t, &e) == 0, "a template parses: %s", e.msg);
	is_str(t.name, "x-test", "its name is the file's base name");
	is_int(t.nparams, 6, "six parameters");
	is_int(t.nchecks, 3, "three checks");
	is_int(t.max_steps, 9, "max_steps read");
	is_int(t.confirm, AMC_CONFIRM_APPROVE, "confirm: approve");
	ok(t.ocr && t.answer_id && !strcmp(t.answer_id, "summary"), "the reference answer's selector and ocr");
	is_int(t.ntags, 2, "two tags");
	ok(t.params[3].setup_only && t.params[3].ndiffers == 1, "setup_only and differs_from read");
	amc_tpl_free(&t);

	static const struct {
		const char *text, *want;
	} BAD[] = {
		{"goal: x\ncheck: [{answer: a}]\nreference: {flow: x}\nbogus: 1\n", "unknown key 'bogus'"},
		{"goal: x\ncheck: [{answer: a}]\n", "no reference"},
		{"goal: x\nreference: {flow: x}\n", "check: must be a list"},
		{"goal: \"{{nope}}\"\ncheck: [{answer: a}]\nreference: {flow: x}\n", "{{nope}} is not a parameter"},
		{"goal: x\nparams:\n  a: {choice: [1], int: [1, 2]}\ncheck: [{answer: a}]\nreference: {flow: x}\n",
		 "exactly one generator"},
		{"goal: x\nparams:\n  a: {time: [\"7:00\", \"08:00\"]}\ncheck: [{answer: a}]\nreference: {flow: x}\n",
		 "\"HH:MM\""},
		{"goal: x\ncheck:\n  - {path: a, has: 3}\nreference: {flow: x}\n", "has: {FIELDS}"},
		{"goal: x\ncheck: [{answer: a}]\nconfirm: maybe\nreference: {flow: x}\n", "none, approve or deny"},
		{"goal: \"{{a|shout}}\"\nparams:\n  a: {word: true}\ncheck: [{answer: a}]\nreference: {flow: x}\n",
		 "unknown filter 'shout'"},
		{"goal: x\nparams:\n  b: {word: true, differs_from: [zz]}\ncheck: [{answer: a}]\nreference: {flow: x}\n",
		 "not an earlier parameter"},
		{"goal: [x\n", "YAML"},
	};
	for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
		amc_err_clear(&e);
		int rc = parse(BAD[i].text, &t, &e);
		ok(rc != 0 && strstr(e.msg, BAD[i].want) && strstr(e.msg, "x-test.yaml"), "refused, naming the file: %s",
		   e.msg);
	}
	amc_err_clear(&e);
	ok(parse("goal: x\ncheck: [{answer: a}]\nreference: {flow: x}\nbogus: 1\n", &t, &e) != 0 &&
		   strstr(e.msg, "x-test.yaml:4:"),
	   "the message has the line: %s", e.msg);
}

static void test_draw_fill(void)
{
	amc_tpl t;
	amc_err e = {0};
	if (parse(GOOD, &t, &e) != 0) {
		ok(0, "parse: %s", e.msg);
		return;
	}
	amc_tpl_values a, b, c;
	amc_tpl_draw(&t, 7, &a);
	amc_tpl_draw(&t, 7, &b);
	ok(!memcmp(&a, &b, sizeof a), "the same seed draws the same values");
	int differ = 0;
	for (long long s = 1; s <= 20; s++) {
		amc_tpl_draw(&t, s, &c);
		differ |= strcmp(c.values[2], a.values[2]) != 0;
		ok(strcmp(c.values[2], c.values[3]), "differs_from holds for seed %lld (%s, %s)", s, c.values[2],
		   c.values[3]);
		int lv = atoi(c.values[4]);
		ok(lv >= 10 && lv <= 20, "int in range (%d)", lv);
		ok(!strcmp(c.values[5], "06:00") || !strcmp(c.values[5], "06:15") || !strcmp(c.values[5], "06:30") ||
			   !strcmp(c.values[5], "06:45") || !strcmp(c.values[5], "07:00"),
		   "time on the 15-minute grid (%s)", c.values[5]);
	}
	ok(differ, "other seeds draw other names");
	b = a;
	ok(amc_tpl_redraw(&t, 2, 99, &b) == 0 && strcmp(b.values[2], a.values[2]), "redraw gives another name");

	/* Fix the values to test the filters. */
	snprintf(a.values[0], sizeof a.values[0], "Auto-rotate (screen)");
	snprintf(a.values[1], sizeof a.values[1], "on");
	snprintf(a.values[2], sizeof a.values[2], "Ada Lovelace");
	snprintf(a.values[4], sizeof a.values[4], "15");
	char *s;
	ok(amc_tpl_fill("{{label|key}} {{state|not}} {{name|first}} {{name|upper}} {{label|re}}", &a, &s, &e) == 0,
	   "fill: %s", e.msg);
	is_str(s, "auto_rotate_screen off Ada ADA LOVELACE Auto\\-rotate \\(screen\\)", "filters key, not, first, upper, re");
	free(s);
	ok(amc_tpl_fill("{{ name | yaml }}\"", &a, &s, &e) == 0, "spaces inside a hole");
	is_str(s, "Ada Lovelace\"", "are allowed");
	free(s);
	ok(amc_tpl_fill("{{name", &a, &s, &e) != 0, "an unclosed hole is an error");

	cJSON *setup = amc_tpl_fill_json(t.setup, &a, &e);
	ok(setup != NULL, "the set-up fills: %s", e.msg);
	cJSON *tg = cJSON_GetObjectItemCaseSensitive(setup, "toggles");
	ok(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(tg, "auto_rotate_screen")),
	   "a key hole is filled and a lone switch word becomes a JSON boolean");
	cJSON *bat = cJSON_GetObjectItemCaseSensitive(setup, "battery");
	ok(cJSON_IsNumber(bat) && bat->valueint == 15, "{{level|int}} alone becomes a number");
	ok(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(setup, "note")), "a hole inside text stays text");
	cJSON_Delete(setup);
	ok(amc_tpl_mentions(t.checks[0].path, "label") && !amc_tpl_mentions(t.checks[0].path, "lab"),
	   "mentions finds a parameter's holes only");
	cJSON *vj = amc_tpl_values_json(&a);
	is_str(cJSON_GetObjectItemCaseSensitive(vj, "name")->valuestring, "Ada Lovelace", "values as JSON");
	cJSON_Delete(vj);
	amc_tpl_free(&t);
}

static const char CHECKS[] =
	"goal: x\n"
	"params:\n"
	"  name: {choice: [\"Ada Lovelace\", \"Alan Kay\"]}\n"
	"  state: {choice: [\"on\", \"off\"]}\n"
	"check:\n"
	"  - path: toggles.wifi\n"
	"    equals: \"{{state}}\"\n"
	"  - path: contacts\n"
	"    has: {name: \"{{name}}\", favorite: true}\n"
	"  - path: contacts\n"
	"    lacks: {name: \"Bob\"}\n"
	"  - path: contacts\n"
	"    count: 2\n"
	"  - path: contacts[name={{name}}].phone\n"
	"    contains: \"555\"\n"
	"  - path: alarms.1.time\n"
	"    equals: \"07:30\"\n"
	"reference: {flow: x}\n";

static const char STATE[] =
	"{\"toggles\":{\"wifi\":true},"
	"\"contacts\":[{\"name\":\"Grace Hopper\",\"phone\":\"+1 202\",\"favorite\":false},"
	"{\"name\":\"Ada Lovelace\",\"phone\":\"+1 555 0100\",\"favorite\":true}],"
	"\"alarms\":[{\"time\":\"06:00\"},{\"time\":\"07:30\"}]}";

static void test_checks(void)
{
	amc_tpl t;
	amc_err e = {0};
	if (parse(CHECKS, &t, &e) != 0) {
		ok(0, "parse: %s", e.msg);
		return;
	}
	amc_tpl_values v;
	amc_tpl_draw(&t, 1, &v);
	snprintf(v.values[0], sizeof v.values[0], "Ada Lovelace");
	snprintf(v.values[1], sizeof v.values[1], "on");
	cJSON *st = cJSON_Parse(STATE);
	char why[512];
	is_int(amc_tpl_check_run(&t, &v, st, NULL, why, sizeof why, &e), 1, "every check passes on its state");

	snprintf(v.values[1], sizeof v.values[1], "off");
	is_int(amc_tpl_check_run(&t, &v, st, NULL, why, sizeof why, &e), 0, "a wrong switch fails");
	is_str(why, "toggles.wifi: found true, expected false", "saying what it found and expected");

	snprintf(v.values[1], sizeof v.values[1], "on");
	snprintf(v.values[0], sizeof v.values[0], "Alan Kay");
	is_int(amc_tpl_check_run(&t, &v, st, NULL, why, sizeof why, &e), 0, "a missing list element fails");
	is_str(why,
	       "contacts: found 2: {\"name\":\"Grace Hopper\",\"favorite\":false}, {\"name\":\"Ada Lovelace\",\"favorite\":true}, "
	       "expected one with {\"name\":\"Alan Kay\",\"favorite\":true}",
	     "listing what the list holds");

	snprintf(v.values[0], sizeof v.values[0], "Ada Lovelace");
	cJSON *c = cJSON_GetObjectItemCaseSensitive(st, "contacts");
	cJSON_AddItemToArray(c, cJSON_Parse("{\"name\":\"Bob\"}"));
	is_int(amc_tpl_check_run(&t, &v, st, NULL, why, sizeof why, &e), 0, "lacks fails when the element is there");
	is_str(why, "contacts: found 3: {\"name\":\"Bob\"}, expected none with {\"name\":\"Bob\"}", "naming it");
	cJSON_DeleteItemFromArray(c, 2);
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(c, 1), "phone", cJSON_CreateString("+44 20"));
	is_int(amc_tpl_check_run(&t, &v, st, NULL, why, sizeof why, &e), 0, "contains fails");
	is_str(why, "contacts[name=Ada Lovelace].phone: found \"+44 20\", expected it to contain \"555\"", "with its reason");
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(c, 1), "phone", cJSON_CreateString("555"));
	cJSON_DeleteItemFromObject(st, "alarms");
	is_int(amc_tpl_check_run(&t, &v, st, NULL, why, sizeof why, &e), 0, "a path that leads nowhere fails");
	like(why, "alarms.1.time: found nothing at 'alarms'", "saying where it stopped");
	cJSON_Delete(st);
	amc_tpl_free(&t);
}

static void test_answers(void)
{
	amc_tpl t;
	amc_err e = {0};
	if (parse("goal: x\nparams:\n  n: {int: [57, 57]}\ncheck: [{answer: \"{{n}}%\"}]\nreference: {flow: x}\n", &t,
		  &e) != 0) {
		ok(0, "parse: %s", e.msg);
		return;
	}
	amc_tpl_values v;
	amc_tpl_draw(&t, 1, &v);
	cJSON *st = cJSON_CreateObject();
	char why[512];
	static const struct {
		const char *answer;
		int pass;
	} A[] = {
		{"57%", 1}, {"  57% ", 1}, {"\"57%\"", 1}, {"57%.", 1}, {"57% - about 1 day left", 1},
		{"The battery is at 57%", 1}, {"157%", 0}, {"57", 0}, {"5 7%", 0}, {"", 0},
		{"10% 11% 12% 13% 14% 15% 16% 17% 18% 19% 20% 21% 22% 23% 24% 25% 26% 27% 28% 29% 30% 31% 32% 33% 34% 35% 36% "
		 "37% 38% 39% 57%", 0},
	};
	for (size_t i = 0; i < sizeof A / sizeof A[0]; i++)
		is_int(amc_tpl_check_run(&t, &v, st, A[i].answer, why, sizeof why, &e), A[i].pass, "answer '%.30s'%s",
		       A[i].answer, A[i].pass ? " passes" : " fails");
	is_int(amc_tpl_check_run(&t, &v, st, NULL, why, sizeof why, &e), 0, "no answer fails");
	is_str(why, "answer: found none, expected \"57%\"", "saying none was given");
	amc_tpl_check_run(&t, &v, st, "58%", why, sizeof why, &e);
	is_str(why, "answer: found \"58%\", expected \"57%\"", "or what was");
	char *n = amc_tpl_answer_norm("  Hello\t  World.  ");
	is_str(n, "hello world", "answers normalise: trimmed, spaces collapsed, lower case, no final dot");
	free(n);
	cJSON_Delete(st);
	amc_tpl_free(&t);
}

int main(void)
{
	test_parse();
	test_draw_fill();
	test_checks();
	test_answers();
	return done_testing();
}

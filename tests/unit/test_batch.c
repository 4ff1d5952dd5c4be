/* test_batch.c - fleet/batch.c without a server: one line of a
 * `amc fleet submit --batch` file into a request, every wrong line refused
 * with a reason (the queries run against PostgreSQL in
 * tests/integration/test_fleet_retry.sh). */
#include <string.h>

#include "fleet/batch.h"
#include "tap.h"

static int parse(const char *line, amc_fleet_batch_item *it, amc_err *e)
{
	return amc_fleet_batch_parse_line(line, strlen(line), it, e);
}

static void refused(const char *line, const char *why, const char *name)
{
	amc_fleet_batch_item it;
	amc_err e;
	amc_err_clear(&e);
	ok(parse(line, &it, &e) == -1, "%s: refused", name);
	like(e.msg, why, "%s: says why", name);
	is_int(e.code, AMC_EUSAGE, "%s: a usage error", name);
	amc_fleet_batch_item_free(&it);
}

int main(void)
{
	amc_fleet_batch_item it;
	amc_err e;
	ok(parse("{\"goal\": \"Turn Wi-Fi off\", \"priority\": 5, \"retries\": 2, \"backoff\": 3, \"timeout\": 60,"
		 " \"not_before\": \"+30s\", \"needs\": [\"platform=android\"], \"device_kind\": \"adb\","
		 " \"host\": \"h1\", \"max_steps\": 9, \"max_attempts\": 4}", &it, &e) == 0,
	   "a goal line with every option");
	is_str(it.req.kind, "goal", "kind goal");
	is_str(it.req.title, "Turn Wi-Fi off", "its title is the goal");
	like(it.req.payload, "Turn Wi-Fi off", "the payload carries it");
	is_int(it.req.priority, 5, "priority");
	is_int(it.req.retries, 2, "retries");
	ok(it.req.backoff_s == 3 && it.req.timeout_s == 60, "backoff and timeout");
	is_str(it.req.not_before, "+30s", "not_before");
	is_int(it.req.nneeds, 2, "two needs");
	is_str(it.req.needs[0], "platform=android", "platform=android");
	is_str(it.req.needs[1], "planner=on", "and planner=on: a goal needs a planner");
	is_str(it.req.device_kind, "adb", "device kind");
	is_str(it.req.host, "h1", "host");
	ok(it.req.max_steps == 9 && it.req.max_attempts == 4, "max steps and attempts");
	amc_fleet_batch_item_free(&it);

	ok(parse("{\"goal\": \"Look\", \"agent\": \"claude\"}", &it, &e) == 0, "a goal for Claude Code");
	is_int(it.req.nneeds, 1, "needs one thing");
	is_str(it.req.needs[0], "agent=claude", "agent=claude, as --agent claude");
	amc_fleet_batch_item_free(&it);

	refused("{\"goal\": \"x\", \"priorty\": 1}", "unknown key \"priorty\"", "a typo of a key");
	refused("[1, 2]", "not a JSON object", "an array");
	refused("{\"goal\": \"x\"", "not a JSON object", "cut short");
	refused("{}", "either \"goal\" or \"flow\"", "neither goal nor flow");
	refused("{\"goal\": \"x\", \"flow\": \"f.yaml\"}", "either \"goal\" or \"flow\"", "both");
	refused("{\"goal\": \"\"}", "non-empty strings", "an empty goal");
	refused("{\"goal\": 3}", "non-empty strings", "a goal that is a number");
	refused("{\"goal\": \"x\", \"retries\": 101}", "integers in range", "101 retries");
	refused("{\"goal\": \"x\", \"timeout\": 1.5}", "integers in range", "a fractional timeout");
	refused("{\"goal\": \"x\", \"device_kind\": \"ios\"}", "sim, adb or appium", "an unknown device kind");
	refused("{\"goal\": \"x\", \"needs\": \"a=b\"}", "an array", "needs as a string");
	refused("{\"goal\": \"x\", \"needs\": [\"A B\"]}", "KEY=VALUE", "a malformed need");
	refused("{\"goal\": \"x\", \"not_before\": \"now'); --\"}", "not_before", "a strange time");
	refused("{\"flow\": \"f.yaml\", \"agent\": \"claude\"}", "go with a goal", "an agent for a flow");
	refused("{\"goal\": \"x\", \"agent\": \"gemini\"}", "", "an unknown agent");
	refused("{\"flow\": \"/nonexistent/f.yaml\"}", "", "a flow that is not there");
	return done_testing();
}

/* test_flow_resolve.c - loading the files a flow names (flow_resolve.c):
 * sub-flows relative to the file that names them, nesting, cycles, missing
 * files, scripts; walking; the checks before a run (device kinds, JavaScript). */
#include <stdlib.h>
#include <string.h>

#include "flow/flow.h"
#include "tap.h"
#include "testutil.h"
#include "util/strbuf.h"

/* A loader over files held in memory. */
typedef struct mem {
	const char *const *files; /* path, text, path, text, ..., NULL */
	int reads;
	int missing;
	char last_missing[256];
} mem;

static int mem_read(void *ud, const char *path, char **text, size_t *len, amc_err *e)
{
	(void)e;
	mem *m = ud;
	for (size_t i = 0; m->files[i]; i += 2) {
		if (!strcmp(m->files[i], path)) {
			m->reads++;
			*text = amc_xstrdup(m->files[i + 1]);
			*len = strlen(*text);
			return 0;
		}
	}
	return 1;
}

static void mem_missing(void *ud, const char *flow_path, int line, const char *cmd, const char *path)
{
	mem *m = ud;
	m->missing++;
	snprintf(m->last_missing, sizeof m->last_missing, "%s:%d: %s %s", flow_path, line, cmd, path);
}

static int load(const char *text, const char *const *files, mem *m, amc_flow *f, amc_err *e, int tolerate)
{
	memset(m, 0, sizeof *m);
	m->files = files;
	if (amc_flow_parse(text, strlen(text), "flows/main.yaml", f, e) != 0)
		return -1;
	amc_flow_loader ld = { mem_read, tolerate ? mem_missing : NULL, m };
	if (amc_flow_resolve(f, &ld, e) != 0) {
		amc_flow_free(f);
		return -1;
	}
	return 0;
}

static int count_cmds(void *ud, const amc_flow *file, const amc_flow_cmd *c)
{
	(void)file;
	(void)c;
	(*(int *)ud)++;
	return 0;
}

int main(void)
{
	amc_flow f;
	amc_err e;
	mem m;
	static const char *const FILES[] = {
		"flows/sub/login.yaml", "---\n- launchApp\n- runFlow: ../common/wait.yaml\n- runScript: s.js\n",
		"flows/common/wait.yaml", "appId: x\n---\n- waitForAnimationToEnd\n",
		"flows/sub/s.js", "output.n = 1;\n",
		NULL,
	};
	const char *main_flow = "appId: com.a\n---\n- runFlow: sub/login.yaml\n- retry:\n    file: ./common/wait.yaml\n"
				"- runFlow:\n    commands:\n      - runFlow: sub/login.yaml\n";
	ok(load(main_flow, FILES, &m, &f, &e, 0) == 0, "a flow with nested sub-flows resolves");
	if (f.count == 3) {
		const amc_flow *login = f.cmds[0].sub;
		ok(login && !strcmp(login->path, "flows/sub/login.yaml"), "relative to the flow's folder");
		is_str(login ? login->app_id : NULL, "com.a", "a sub-flow without appId takes its parent's");
		ok(login && login->cmds[1].sub && !strcmp(login->cmds[1].sub->path, "flows/common/wait.yaml"),
		   "'..' relative to the sub-flow's own folder");
		ok(login && login->cmds[2].script && !strcmp(login->cmds[2].script, "output.n = 1;\n"),
		   "runScript's file read into the flow");
		ok(f.cmds[1].sub && !strcmp(f.cmds[1].sub->path, "flows/common/wait.yaml"), "retry file:, ./ dropped");
		ok(f.cmds[2].body[0].sub != NULL, "a runFlow inside inline commands");
		int n = 0;
		amc_flow_walk(&f, count_cmds, &n);
		is_int(n, 13, "walk visits every command, in sub-flows too");
		char where[200];
		ok(amc_flow_needs_js(&f, where, sizeof where), "runScript needs JavaScript");
		is_str(where, "flows/sub/login.yaml:4: runScript", "and says where");
	}
	amc_flow_free(&f);

	ok(load("---\n- runFlow: nope.yaml\n", FILES, &m, &f, &e, 0) == -1 && e.code == AMC_EUSAGE,
	   "a missing sub-flow is an error");
	is_str(e.msg, "flows/main.yaml:2: runFlow: sub-flow file 'nope.yaml' not found (looked for flows/nope.yaml)",
	       "naming the file, line, command and the path looked for");
	ok(load("---\n- runFlow: nope.yaml\n- runScript: x.js\n- back\n", FILES, &m, &f, &e, 1) == 0 && m.missing == 2,
	   "with a missing callback, resolving goes on (flow check)");
	is_str(m.last_missing, "flows/main.yaml:3: runScript flows/x.js", "each missing file reported");
	amc_flow_free(&f);

	static const char *const CYCLE[] = {
		"flows/a.yaml", "---\n- runFlow: b.yaml\n",
		"flows/b.yaml", "---\n- runFlow: a.yaml\n",
		NULL,
	};
	ok(load("---\n- runFlow: a.yaml\n", CYCLE, &m, &f, &e, 0) == -1, "a cycle is refused");
	like(e.msg, "flows/b.yaml:2: runFlow: the sub-flows form a cycle: flows/a.yaml -> flows/b.yaml -> flows/a.yaml",
	     "naming the chain");
	static const char *const SELF[] = { "flows/main.yaml", "---\n- runFlow: main.yaml\n", NULL };
	ok(load("---\n- runFlow: main.yaml\n", SELF, &m, &f, &e, 0) == -1, "a flow calling itself is refused");
	static const char *const BAD[] = { "flows/bad.yaml", "---\n- back\n- tapOn: {bogus: 1}\n", NULL };
	ok(load("---\n- runFlow: bad.yaml\n", BAD, &m, &f, &e, 0) == -1, "an error inside a sub-flow");
	like(e.msg, "flows/bad.yaml:3: tapOn: unknown option 'bogus'", "names the sub-flow's file and line");
	static const char *const NOAPP[] = { "flows/l.yaml", "---\n- launchApp\n", NULL };
	ok(load("---\n- runFlow: l.yaml\n", NOAPP, &m, &f, &e, 0) == -1, "launchApp with no appId anywhere");
	like(e.msg, "flows/l.yaml:2: launchApp needs an app id", "is refused in the sub-flow");

	/* before a run: what a device kind cannot do */
	const char *tr = "appId: a\n---\n- back\n- runFlow:\n    commands:\n      - travel: {points: [\"1,2\"]}\n";
	ok(amc_flow_parse(tr, strlen(tr), "t.yaml", &f, &e) == 0, "travel parses");
	ok(amc_flow_check_device(&f, "adb", &e) == -1, "and is refused on adb before the run");
	like(e.msg, "t.yaml:6: travel: not available on adb devices", "naming file, line, command and device");
	amc_flow_free(&f);
	const char *ai = "appId: a\n---\n- assertWithAI: {assertion: \"a login form\"}\n";
	ok(amc_flow_parse(ai, strlen(ai), "t.yaml", &f, &e) == 0 && f.cmds[0].sel.optional,
	   "assertWithAI parses, optional by default as in Maestro");
	ok(amc_flow_check_device(&f, "sim", &e) == -1, "AI commands need a model");
	like(e.msg, "t.yaml:3: assertWithAI \"a login form\": not available on sim devices: AI commands need "
	     "a model", "said so");
	ok(amc_flow_check_device_model(&f, "sim", 1, &e) == 0, "with a model they pass the check");
	amc_flow_free(&f);
	const char *keys = "appId: a\n---\n- pressKey: Volume Up\n";
	ok(amc_flow_parse(keys, strlen(keys), "t.yaml", &f, &e) == 0, "pressKey Volume Up parses");
	ok(amc_flow_check_device(&f, "sim", &e) == 0 && amc_flow_check_device(&f, "adb", &e) == 0,
	   "the sim has the volume keys (a level its state shows), adb too");
	amc_flow_free(&f);
	keys = "appId: a\n---\n- pressKey: Remote Dpad Up\n";
	ok(amc_flow_parse(keys, strlen(keys), "t.yaml", &f, &e) == 0, "pressKey Remote Dpad Up parses");
	ok(amc_flow_check_device(&f, "sim", &e) == -1 && amc_flow_check_device(&f, "adb", &e) == 0,
	   "the sim has no D-pad, adb has");
	amc_flow_free(&f);
	const char *env = "appId: a\nenv:\n  X: ${A || 'b'}\n---\n- back\n";
	char where[200];
	ok(amc_flow_parse(env, strlen(env), "t.yaml", &f, &e) == 0 && amc_flow_needs_js(&f, where, sizeof where),
	   "an expression in env: needs JavaScript");
	amc_flow_free(&f);
	const char *plain = "appId: a\nenv:\n  X: ${A}\n---\n- inputText: ${X}\n- tapOn: {below: {text: \"${X}\"}}\n";
	ok(amc_flow_parse(plain, strlen(plain), "t.yaml", &f, &e) == 0 && !amc_flow_needs_js(&f, NULL, 0),
	   "plain names do not");
	amc_flow_free(&f);
	const char *rel = "appId: a\n---\n- tapOn: {id: x, below: {text: \"${output.y}\"}}\n";
	ok(amc_flow_parse(rel, strlen(rel), "t.yaml", &f, &e) == 0 && amc_flow_needs_js(&f, NULL, 0),
	   "an expression inside a relative selector does");
	amc_flow_free(&f);

	/* from disk: the test flows beside this test */
	ok(amc_flow_load_resolved(test_src("tests/data/flows/maestro/contacts.yaml"), &f, &e) == 0,
	   "contacts.yaml loads with its sub-flow from disk");
	ok(f.count > 5 && f.cmds[1].sub && f.cmds[1].sub->count > 5, "the sub-flow is in it");
	amc_flow_free(&f);
	return done_testing();
}

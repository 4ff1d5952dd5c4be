/* test_flow_planner_frames.c - the flow planner's stack of frames
 * (src/planner/flow_planner_frames.c): a file frame starts in its first phase
 * that has commands, FILE:LINE names the top frame's file (made
 * terminal-safe), moving on resets the command's progress, a file's env
 * fills only names nobody set above it, a frame's variables go with it, and
 * nesting past FP_MAX_FRAMES is refused saying where. */
#include <stdlib.h>
#include <string.h>

#include "planner/flow_planner_int.h"
#include "tap.h"

int main(void)
{
	flow_planner fp;
	memset(&fp, 0, sizeof fp);
	amc_flow_interp_init(&fp.in);
	ok(fp_top(&fp) == NULL, "an empty stack has no top");

	amc_flow_cmd start[1], main_cmds[2];
	memset(start, 0, sizeof start);
	memset(main_cmds, 0, sizeof main_cmds);
	main_cmds[1].line = 12;
	amc_flow_kv env[2] = { { "USER", "ada" }, { "HOME_APP", "launcher" } };
	amc_flow file = { .path = "flows/log\x1bin.yaml", .cmds = main_cmds, .count = 2, .on_start = start,
			  .non_start = 1, .env = env, .nenv = 2 };
	fp_frame proto = { .kind = FR_FILE, .file = &file, .phase = PH_START };
	amc_err e = { 0 };
	is_int(fp_push_frame(&fp, &proto, &e), 0, "push the file's frame");
	fp_frame *f = fp_top(&fp);
	ok(f && f->cmds == start && f->n == 1, "a file frame starts with onFlowStart");
	f->phase = PH_MAIN;
	fp_file_phase(f);
	ok(f->cmds == main_cmds && f->n == 2, "then its commands");
	f->phase = PH_COMPLETE;
	fp_file_phase(f);
	ok(f->phase == PH_DONE && f->n == 0, "no onFlowComplete: the frame is done");
	f->phase = PH_MAIN;
	fp_file_phase(f);

	char *w = fp_where(&fp, &main_cmds[1]);
	ok(w && strstr(w, ":12") && !strchr(w, '\x1b'), "FILE:LINE of the top frame's file, terminal-safe: %s", w);
	free(w);
	fp.sub = 3;
	fp.have_sig = 1;
	fp_advance(&fp);
	ok(f->pos == 1 && fp.sub == 0 && !fp.have_sig, "advance: the next command, its progress reset");

	amc_flow_interp_push(&fp.in, "USER", "grace");
	size_t mark = amc_flow_interp_mark(&fp.in);
	is_int(fp_push_defaults(&fp, &file, &e), 0, "a file's env: %s", e.msg);
	is_str(amc_flow_interp_get(&fp.in, "USER"), "grace", "a name set above it keeps its value");
	is_str(amc_flow_interp_get(&fp.in, "HOME_APP"), "launcher", "a name nobody set gets the default");

	fp_frame block = { .kind = FR_BLOCK, .file = &file, .cmds = main_cmds, .n = 1, .mark = mark };
	is_int(fp_push_frame(&fp, &block, &e), 0, "push a block");
	is_int(fp.depth, 2, "two frames");
	fp_pop_frame(&fp);
	is_int(fp.depth, 1, "pop: one frame");
	ok(amc_flow_interp_get(&fp.in, "HOME_APP") == NULL, "the popped frame's variables are gone");
	is_str(amc_flow_interp_get(&fp.in, "USER"), "grace", "what was set before it stays");

	int refused = 0;
	amc_flow_cmd owner;
	memset(&owner, 0, sizeof owner);
	owner.line = 7;
	fp_frame deep = { .kind = FR_BLOCK, .file = &file, .cmds = main_cmds, .n = 1, .owner = &owner };
	for (int i = 0; i < FP_MAX_FRAMES + 2 && !refused; i++)
		refused = fp_push_frame(&fp, &deep, &e) != 0;
	ok(refused && fp.depth == FP_MAX_FRAMES, "nesting stops at %d frames", FP_MAX_FRAMES);
	ok(strstr(e.msg, ":7: blocks nested deeper than") && strstr(e.msg, "runFlow calling itself"),
	   "saying where and why: %s", e.msg);
	amc_flow_interp_free(&fp.in);
	return done_testing();
}

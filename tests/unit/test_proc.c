/* test_proc.c - bounded subprocesses: argv only, separate streams, stdin
 * /dev/null, caps, timeout killing the whole group, environment stripped. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "util/clock.h"
#include "util/proc.h"

/* Over 120 lines: each process case (exit status, output bound, timeout,
 * signals, process group, folder) is a few lines; one sequence reads best. */
int main(void)
{
	amc_proc_result r;
	amc_err e;

	const char *echo[] = { "sh", "-c", "printf 'out;$(x)'; printf err >&2; exit 3", NULL };
	ok(amc_proc_run(echo, 5000, 1024, 1024, &r, &e) == 0, "ran sh");
	is_str((char *)r.out, "out;$(x)", "stdout apart");
	is_str(r.err, "err", "stderr apart");
	is_int(r.exit_code, 3, "exit code");
	amc_proc_result_free(&r);

	const char *lit[] = { "printf", "%s|", "a b; $(id) `id` '\"", NULL };
	ok(amc_proc_run(lit, 5000, 1024, 1024, &r, &e) == 0, "argv element with shell bytes");
	is_str((char *)r.out, "a b; $(id) `id` '\"|", "passed through as one argument, nothing expanded");
	amc_proc_result_free(&r);

	const char *in[] = { "cat", NULL };
	long long t0 = amc_mono_ms();
	ok(amc_proc_run(in, 5000, 1024, 1024, &r, &e) == 0 && r.out_len == 0 && r.exit_code == 0,
	   "stdin is /dev/null (cat ends at once)");
	ok(amc_mono_ms() - t0 < 3000, "quickly");
	amc_proc_result_free(&r);

	const char *big[] = { "head", "-c", "100000", "/dev/zero", NULL };
	int rc = amc_proc_run(big, 5000, 1000, 1024, &r, &e);
	ok(rc == 0 && r.out_len == 1000 && r.out_truncated, "stdout capped (%zu)", r.out_len);
	amc_proc_result_free(&r);

	/* A child that starts a grandchild and hangs: the timeout kills both. */
	char pidfile[] = "/tmp/amc-test-proc-XXXXXX";
	int fd = mkstemp(pidfile);
	close(fd);
	char script[512];
	snprintf(script, sizeof script, "sleep 30 & echo $! > %s; wait", pidfile);
	const char *hang[] = { "sh", "-c", script, NULL };
	t0 = amc_mono_ms();
	ok(amc_proc_run(hang, 300, 1024, 1024, &r, &e) == 0 && r.timed_out && r.exit_code == -1, "timed out");
	long long took = amc_mono_ms() - t0;
	ok(took >= 250 && took < 3000, "after about the limit (%lld ms)", took);
	amc_proc_result_free(&r);
	FILE *f = fopen(pidfile, "r");
	long gpid = 0;
	if (f) {
		if (fscanf(f, "%ld", &gpid) != 1)
			gpid = 0;
		fclose(f);
	}
	unlink(pidfile);
	usleep(100000);
	/* Gone, or a zombie waiting for whoever adopted it. */
	char stat[64], st[512] = "";
	snprintf(stat, sizeof stat, "/proc/%ld/stat", gpid);
	f = fopen(stat, "r");
	if (f) {
		if (!fgets(st, sizeof st, f))
			st[0] = '\0';
		fclose(f);
	}
	st[strcspn(st, "\n")] = '\0';
	const char *state = strrchr(st, ')');
	ok(gpid > 0 && (kill((pid_t)gpid, 0) != 0 || (state && state[1] == ' ' && state[2] == 'Z')),
	   "the grandchild in its group was killed too (%s)", st[0] ? st : "gone");

	setenv("OMP_THREAD_LIMIT", "1", 1);
	setenv("AMC_OMP_SET", "1", 1);
	setenv("AMC_TEST_KEEP_ME", "yes", 1);
	const char *env[] = { "env", NULL };
	ok(amc_proc_run(env, 5000, 1 << 20, 1024, &r, &e) == 0, "env ran");
	ok(!strstr((char *)r.out, "OMP_THREAD_LIMIT=") && !strstr((char *)r.out, "AMC_OMP_SET="),
	   "OCR thread settings amc made itself are stripped from the child's environment");
	like((char *)r.out, "AMC_TEST_KEEP_ME=yes", "the rest is passed on");
	amc_proc_result_free(&r);
	unsetenv("AMC_OMP_SET");
	setenv("OMP_THREAD_LIMIT", "4", 1);
	ok(amc_proc_run(env, 5000, 1 << 20, 1024, &r, &e) == 0, "env ran again");
	like((char *)r.out, "OMP_THREAD_LIMIT=4", "a limit the user set is passed on");
	amc_proc_result_free(&r);
	unsetenv("OMP_THREAD_LIMIT");

	const char *none[] = { "amc-no-such-program-xyz", NULL };
	ok(amc_proc_run(none, 1000, 10, 10, &r, &e) == -1 && e.code == AMC_EENV && strstr(e.msg, "not found"),
	   "missing program: %s", e.msg);
	const char *sig[] = { "sh", "-c", "kill -TERM $$", NULL };
	ok(amc_proc_run(sig, 5000, 10, 10, &r, &e) == 0 && r.exit_code == 128 + SIGTERM, "killed by a signal: 128+N");
	amc_proc_result_free(&r);

	/* The child starts clean whatever amc's own signal state (posix_spawn's
	 * attributes): default dispositions, nothing blocked, its own group. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_term, old_pipe;
	sigaction(SIGTERM, &ign, &old_term);
	sigaction(SIGPIPE, &ign, &old_pipe);
	sigset_t usr1, old_mask;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old_mask);
	ok(amc_proc_run(sig, 5000, 10, 10, &r, &e) == 0 && r.exit_code == 128 + SIGTERM,
	   "SIGTERM ignored in amc: the child's is the default again (%d)", r.exit_code);
	amc_proc_result_free(&r);
	const char *masks[] = { "grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status", NULL };
	ok(amc_proc_run(masks, 5000, 4096, 1024, &r, &e) == 0, "the child's signal masks read");
	like((char *)r.out, "SigBlk:\t0000000000000000", "nothing blocked in the child");
	const char *ig = strstr((char *)r.out, "SigIgn:\t");
	unsigned long long ign_mask = ig ? strtoull(ig + 8, NULL, 16) : ~0ULL;
	ok(!(ign_mask & (1ULL << (SIGTERM - 1))) && !(ign_mask & (1ULL << (SIGPIPE - 1))),
	   "SIGTERM and SIGPIPE not ignored in the child (SigIgn %llx)", ign_mask);
	amc_proc_result_free(&r);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	const char *grp[] = { "sh", "-c", "echo $$ $(cut -d' ' -f5 /proc/$$/stat)", NULL };
	ok(amc_proc_run(grp, 5000, 1024, 1024, &r, &e) == 0, "the child's group read");
	long cpid = -1, cpgrp = -2;
	ok(sscanf((char *)r.out, "%ld %ld", &cpid, &cpgrp) == 2 && cpid == cpgrp && cpid != (long)getpgrp(),
	   "the child leads its own process group (pid %ld, group %ld)", cpid, cpgrp);
	amc_proc_result_free(&r);

	/* a working folder, and one that does not exist */
	amc_proc_opts po = { .timeout_ms = 5000, .max_out = 1024, .max_err = 1024, .cwd = "/" };
	const char *pwd[] = { "pwd", NULL };
	ok(amc_proc_run_opts(pwd, &po, &r, &e) == 0, "pwd ran with a working folder");
	is_str((char *)r.out, "/\n", "in that folder");
	amc_proc_result_free(&r);
	po.cwd = "/nonexistent-amc-folder";
	ok(amc_proc_run_opts(pwd, &po, &r, &e) == -1 && e.code == AMC_EENV && strstr(e.msg, "pwd"),
	   "a missing working folder: not run (%s)", e.msg);

	/* an executable file that is not a program: refused, and said so */
	char junk[] = "/tmp/amc-test-proc-junk-XXXXXX";
	int jfd = mkstemp(junk);
	ok(jfd >= 0 && write(jfd, "\x7f" "ELF not really", 15) == 15, "a junk executable written");
	close(jfd);
	chmod(junk, 0700);
	const char *bad[] = { junk, NULL };
	ok(amc_proc_run(bad, 5000, 10, 10, &r, &e) == -1 && e.code == AMC_EENV && strstr(e.msg, "cannot run"),
	   "exec failure reported: %s", e.msg);
	unlink(junk);

	/* many short calls (an adb session): each one's status and output its own */
	int good = 0;
	for (int i = 0; i < 50; i++) {
		char code[32];
		snprintf(code, sizeof code, "echo %d; exit %d", i, i % 7);
		const char *one[] = { "sh", "-c", code, NULL };
		char want[16];
		snprintf(want, sizeof want, "%d\n", i);
		if (amc_proc_run(one, 5000, 64, 64, &r, &e) == 0 && r.exit_code == i % 7 && !strcmp((char *)r.out, want))
			good++;
		amc_proc_result_free(&r);
	}
	is_int(good, 50, "50 calls in a row, each with its own exit status and output");

	/* detached: returns at once, the grandchild runs on with the variable set */
	char flag[64];
	snprintf(flag, sizeof flag, "/tmp/amc-detach-%ld", (long)getpid());
	unlink(flag);
	const char *det[] = { "sh", "-c", "sleep 2; echo \"$AMC_DETACH_T\" > \"$0\"", flag, NULL };
	long long d0 = amc_mono_ms();
	ok(amc_proc_detach(det, "AMC_DETACH_T", "yes", &e) == 0, "detach: started");
	ok(amc_mono_ms() - d0 < 1500, "detach: returns without waiting for the program");
	char buf[16] = "";
	for (int i = 0; i < 100 && !buf[0]; i++) {
		FILE *f = fopen(flag, "r");
		if (f) {
			if (!fgets(buf, sizeof buf, f))
				buf[0] = 0;
			fclose(f);
		}
		if (!buf[0])
			usleep(50000);
	}
	is_str(buf, "yes\n", "detach: the program ran, with the variable set");
	unlink(flag);
	return done_testing();
}

/* test_checkpoint.c - WAL checkpoints off the step's path (storage/checkpoint.h):
 * after enough step records to pass the checkpoint threshold several times,
 * the background thread has checkpointed, no commit did (the backstop stayed
 * idle), the WAL stayed bounded, and every record reads back. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "storage/checkpoint.h"
#include "storage/store.h"
#include "tap.h"
#include "testutil.h"

int main(void)
{
	const char *home = test_home("checkpoint");
	amc_err e;
	amc_store *s;
	if (amc_store_open(home, &s, &e) != 0) {
		printf("Bail out! %s\n", e.msg);
		return 1;
	}
	amc_task_row t = { .id = "0ckpt00000000001", .kind = "goal", .goal = "checkpoint test", .status = "running",
			   .created_ms = 1767225600000LL, .input_tokens = -1, .output_tokens = -1, .cost_usd = -1 };
	ok(amc_store_create_task(s, &t, &e) == 0, "task: %s", e.msg);
	static char big[6000];
	for (size_t i = 0; i + 1 < sizeof big; i++)
		big[i] = (i % 7 == 6) ? ' ' : (char)('a' + (i * 31 + i / 7) % 26);
	/* Phase 1, as the runner writes: a record, then device time (here: the
	 * thread given time to finish) before the next. ~6 KB a record, the
	 * threshold passed several times. */
	int n = 1500, all = 1;
	long bg = 0, inl = 0;
	for (int i = 0; i < n && all; i++) {
		amc_step_row r = { .task_id = t.id, .step = i + 1, .tool = "tap", .args = "{}", .status = "ok",
				   .ocr = "[]", .reasoning = big };
		all = amc_store_add_step(s, &r, &e) == 0;
		if (i % 20 == 19)
			amc_store_checkpoint_counts(s, 1, &bg, &inl);
	}
	ok(all, "%d step records written: %s", n, all ? "" : e.msg);
	amc_store_checkpoint_counts(s, 1, &bg, &inl);
	ok(bg >= 2, "the background thread checkpointed (%ld times)", bg);
	is_int(inl, 0, "no commit checkpointed inline");
	/* Phase 2: back to back, no pause: the WAL may only restart when a
	 * checkpoint has caught up, so the backstop bounds it. */
	for (int i = n; i < 2 * n && all; i++) {
		amc_step_row r = { .task_id = t.id, .step = i + 1, .tool = "tap", .args = "{}", .status = "ok",
				   .ocr = "[]", .reasoning = big };
		all = amc_store_add_step(s, &r, &e) == 0;
	}
	ok(all, "%d more written back to back", n);
	n *= 2;
	char wal[4200];
	snprintf(wal, sizeof wal, "%s/amc.db-wal", home);
	struct stat st;
	int have = stat(wal, &st) == 0;
	ok(have && st.st_size < (long long)(AMC_CKPT_BACKSTOP_PAGES + 2000) * 4200,
	   "the WAL stays bounded (%lld bytes)", (long long)st.st_size);
	amc_step_row *rows = NULL;
	size_t nr = 0;
	int got = amc_store_get_steps(s, t.id, &rows, &nr, &e) == 0;
	ok(got && nr == (size_t)n, "every record reads back (%zu)", nr);
	amc_step_rows_free(rows, nr);
	amc_store_close(s);
	ok(amc_store_open(home, &s, &e) == 0, "reopens: %s", e.msg);
	amc_store_close(s);
	return done_testing();
}

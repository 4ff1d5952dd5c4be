/* bench_tui - the TUI on a large history (issue #4's performance targets).
 *
 *   bench_tui AMC_BIN [TASKS [STEPS_PER_TASK]]     (default 100000 x 10 = 1M steps)
 *
 * Generates $TMPDIR/amc-bench-tui/home once per size (kept between runs): tasks
 * and steps written straight through the store API (no runner), each step with
 * about 2 KB of scene, OCR and result JSON, screenshots shared from a pool of
 * real sim captures. Then runs the TUI in script mode with AMC_TUI_TIMING and
 * prints: time to first frame, key-to-frame while scrolling the task list and
 * a timeline (median, p99), image pane render (cold: decoded from disk, on
 * the render thread; and cached), also for an 80x40 pane and for the full
 * capture the zoomed view reads, and the peak RSS. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "image/png.h"
#include "storage/store.h"
#include "util/config.h"
#include "util/fsutil.h"

#define POOL 8

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

static int generate(const char *home, long ntasks, int nsteps)
{
	amc_store *s;
	amc_err e;
	amc_config *cfg = amc_config_new();
	if (amc_store_open(home, &s, &e) != 0) {
		fprintf(stderr, "bench_tui: %s\n", e.msg);
		return -1;
	}
	/* A pool of real sim captures: the launcher and app screens. */
	char pool[POOL][512];
	amc_device *dev;
	if (amc_sim_reset(home, 0, cfg, &e) != 0 || amc_device_open("sim", home, cfg, &dev, &e) != 0) {
		fprintf(stderr, "bench_tui: %s\n", e.msg);
		return -1;
	}
	static const char *const apps[] = { NULL, "com.android.settings", "com.android.contacts", "com.amc.notes" };
	for (int i = 0; i < POOL; i++) {
		if (apps[i % 4])
			dev->ops->launch_app(dev, apps[i % 4], &e);
		else
			dev->ops->key(dev, AMC_KEY_HOME, &e);
		dev->ops->wait(dev, 400 + 100 * i, &e);
		unsigned char *png;
		size_t len;
		char name[32];
		if (dev->ops->screenshot(dev, &png, &len, &e) != 0) {
			fprintf(stderr, "bench_tui: %s\n", e.msg);
			return -1;
		}
		snprintf(name, sizeof name, "shot-%d.png", i);
		if (amc_store_put_artifact(s, "a000000000000000", name, png, len, pool[i], sizeof pool[i], &e) != 0) {
			fprintf(stderr, "bench_tui: %s\n", e.msg);
			return -1;
		}
		free(png);
	}
	amc_device_close(dev);
	/* ~2 KB of JSON per step: a scene of 12 elements, OCR, a result. */
	char scene[1600], ocr[400], result[200];
	int n = snprintf(scene, sizeof scene, "{\"width\":1080,\"height\":2400,\"elements\":[");
	for (int k = 0; k < 12; k++)
		n += snprintf(scene + n, sizeof scene - (size_t)n,
			      "%s{\"id\":\"e%d\",\"type\":\"text\",\"bounds\":[%d,%d,%d,%d],\"text\":\"Item %d\",\"confidence\":1,\"source\":\"fused\"}",
			      k ? "," : "", k, 40, 200 + k * 150, 1040, 320 + k * 150, k);
	snprintf(scene + n, sizeof scene - (size_t)n, "]}");
	snprintf(ocr, sizeof ocr, "[{\"text\":\"Battery\",\"confidence\":0.97,\"bounds\":[60,300,210,360]},"
		 "{\"text\":\"Storage\",\"confidence\":0.95,\"bounds\":[60,420,230,480]},"
		 "{\"text\":\"Display\",\"confidence\":0.93,\"bounds\":[60,540,220,600]}]");
	snprintf(result, sizeof result, "{\"matched\":{\"text\":\"Battery\",\"bounds\":[60,300,210,360]}}");
	sqlite3 *db = amc_store_db(s);
	long long t0 = 1767225600000LL;
	for (long i = 0; i < ntasks; i++) {
		if (i % 1000 == 0)
			sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
		char id[32], goal[128];
		snprintf(id, sizeof id, "b%015ld", i);
		snprintf(goal, sizeof goal, "benchmark task %ld: open settings and read the battery level", i);
		amc_task_row t = { 0 };
		t.id = id;
		t.kind = "goal";
		t.goal = goal;
		t.device = i % 3 ? "sim:0" : "sim:1";
		t.planner = "flow";
		t.status = i % 7 ? "succeeded" : "failed";
		t.created_ms = t0 + i * 1000;
		t.started_ms = t.created_ms + 10;
		t.finished_ms = t.started_ms + 5000;
		t.steps = nsteps;
		t.max_steps = 50;
		t.input_tokens = t.output_tokens = -1;
		t.cost_usd = -1;
		t.source_attempt = -1;
		if (amc_store_create_task(s, &t, &e) != 0) {
			fprintf(stderr, "bench_tui: %s\n", e.msg);
			return -1;
		}
		for (int k = 0; k < nsteps; k++) {
			amc_step_row r = { 0 };
			r.task_id = id;
			r.step = k + 1;
			r.tool = "tap";
			r.args = "{\"x\":135,\"y\":330}";
			r.description = "tapOn \"Battery\"";
			r.status = "ok";
			r.result = result;
			r.before_screenshot = pool[(i + k) % POOL];
			r.after_screenshot = pool[(i + k + 1) % POOL];
			r.screenshot_path = r.after_screenshot;
			r.ocr = ocr;
			r.scene = scene;
			r.reasoning = "benchmark";
			r.timings = "{\"observe_ms\":12,\"plan_ms\":0,\"act_ms\":40,\"settle_ms\":100}";
			r.started_ms = t.started_ms + k * 400;
			r.finished_ms = r.started_ms + 300;
			if (amc_store_add_step(s, &r, &e) != 0) {
				fprintf(stderr, "bench_tui: %s\n", e.msg);
				return -1;
			}
		}
		if (i % 1000 == 999 || i == ntasks - 1)
			sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		if (i % 10000 == 9999)
			fprintf(stderr, "bench_tui: %ld tasks written\n", i + 1);
	}
	amc_store_close(s);
	amc_config_free(cfg);
	return 0;
}

static int add_thumbnails(const char *home)
{
	amc_store *s;
	amc_err e;
	if (amc_store_open(home, &s, &e) != 0) {
		fprintf(stderr, "bench_tui: %s\n", e.msg);
		return -1;
	}
	for (int i = 0; i < POOL; i++) {
		char rel[64], trel[80], abs[4200], tabs[4200], name[32];
		snprintf(name, sizeof name, "shot-%d.png", i);
		snprintf(rel, sizeof rel, "artifacts/a000000000000000/%s", name);
		amc_image img;
		if (amc_store_thumb_path(rel, trel, sizeof trel) != 0 ||
		    amc_store_artifact_abspath(s, trel, tabs, sizeof tabs, &e) != 0 ||
		    amc_store_artifact_abspath(s, rel, abs, sizeof abs, &e) != 0)
			continue;
		if (amc_file_exists(tabs) || amc_png_decode_file(abs, &img, &e) != 0)
			continue;
		if (amc_store_put_thumbnail(s, "a000000000000000", name, &img, &e) != 0)
			fprintf(stderr, "bench_tui: %s\n", e.msg);
		amc_image_free(&img);
	}
	amc_store_close(s);
	return 0;
}

static void stats(const char *what, long long *v, size_t n, double target_ms)
{
	if (!n) {
		printf("%-34s no samples\n", what);
		return;
	}
	qsort(v, n, sizeof *v, cmp_ll);
	double med = v[n / 2] / 1000.0, p99 = v[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1] / 1000.0;
	printf("%-34s median %7.2f ms  p99 %7.2f ms  (n=%zu)%s\n", what, med, p99, n,
	       target_ms > 0 ? (p99 <= target_ms ? "  ok" : "  MISSED") : "");
}

/* Over 120 lines: one measured sequence of TUI operations on one fixture,
 * printed in order; splitting it would only pass the fixture around. */
int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: bench_tui AMC_BIN [TASKS [STEPS_PER_TASK]]\n");
		return 2;
	}
	long ntasks = argc > 2 ? atol(argv[2]) : 100000;
	int nsteps = argc > 3 ? atoi(argv[3]) : 10;
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[1024], home[1100], marker[1200], script[1200], timing[1200];
	snprintf(dir, sizeof dir, "%s/amc-bench-tui-%ld-%d", tmp, ntasks, nsteps);
	snprintf(home, sizeof home, "%s/home", dir);
	snprintf(marker, sizeof marker, "%s/complete", dir);
	mkdir(dir, 0700);
	if (!amc_file_exists(marker)) {
		amc_rm_rf(home);
		fprintf(stderr, "bench_tui: generating %ld tasks x %d steps in %s (kept for later runs)\n", ntasks, nsteps, home);
		setenv("AMC_HOME", home, 1);
		if (generate(home, ntasks, nsteps) != 0)
			return 1;
		FILE *m = fopen(marker, "w");
		if (m)
			fclose(m);
	}
	/* Thumbnails of the pool, as the runner writes them at capture time
	 * (also into a database generated before thumbnails existed). */
	if (add_thumbnails(home) != 0)
		return 1;
	/* The script: scroll the list, page it, open a task, scroll its
	 * timeline (each step change renders two images), zoom one. */
	snprintf(script, sizeof script, "%s/keys", dir);
	snprintf(timing, sizeof timing, "%s/timing", dir);
	FILE *f = fopen(script, "w");
	if (!f)
		return 1;
	fprintf(f, ":mark list\n");
	for (int i = 0; i < 300; i++)
		fprintf(f, "j\n");
	for (int i = 0; i < 100; i++)
		fprintf(f, "PgDn\n");
	fprintf(f, ":mark timeline\nEnter\n");
	for (int r = 0; r < 10; r++)
		for (int i = 0; i < nsteps; i++)
			fprintf(f, "%s\n", r % 2 ? "k" : "j");
	fprintf(f, ":mark zoom\nTab\nz\n:settle\nEsc\nz\n:settle\nEsc\n");
	/* The 80x40 pane, cold after each resize: the before and after
	 * panes of a 252x74 screen (thumbnails), and the zoomed before image of
	 * an 82x46 one (the full capture). */
	fprintf(f, ":resize 252x74\n:settle\n:resize 82x46\nz\n:settle\nEsc\n");
	fclose(f);
	pid_t pid = fork();
	if (pid == 0) {
		setenv("AMC_HOME", home, 1);
		setenv("AMC_TUI_TIMING", timing, 1);
		setenv("TERM", "xterm-256color", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		execl(argv[1], "amc", "tui", "--script", script, "--dump-dir", dir, "--size", "200x44", (char *)NULL);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench_tui: the TUI failed\n");
		return 1;
	}
	f = fopen(timing, "r");
	if (!f)
		return 1;
	static long long cold[100000], cached[100000], keys[3][100000];
	static long long full[1000], c80[1000];
	size_t ncold = 0, ncached = 0, nk[3] = { 0 }, nfull = 0, n80 = 0;
	long long first = 0;
	long rss = 0;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		long long v;
		int w, h;
		if (sscanf(line, "first_frame_us %lld", &first) == 1)
			continue;
		if (sscanf(line, "maxrss_kb %ld", &rss) == 1)
			continue;
		/* Only the 80x40-ish zoomed/normal panes count; all sizes are
		 * reported together since the layout decides the pane size. */
		char kind[16] = "";
		if (sscanf(line, "render_cold_us %lld %dx%d %15s", &v, &w, &h, kind) >= 3 && ncold < 100000) {
			int isfull = !strcmp(kind, "full");
			if (isfull && nfull < 1000)
				full[nfull++] = v;
			if (!isfull && w == 80 && h == 40 && n80 < 1000)
				c80[n80++] = v;
			if (!isfull)
				cold[ncold++] = v;
		}
		else if (sscanf(line, "render_cached_us %lld %dx%d", &v, &w, &h) == 3 && ncached < 100000)
			cached[ncached++] = v;
		else if (!strncmp(line, "keys ", 5)) {
			int s = !strncmp(line + 5, "list", 4) ? 0 : !strncmp(line + 5, "timeline", 8) ? 1 : 2;
			char *p = strchr(line + 5, ' ');
			while (p && *p && nk[s] < 100000) {
				char *end;
				long long x = strtoll(p, &end, 10);
				if (end == p)
					break;
				keys[s][nk[s]++] = x;
				p = end;
			}
		}
	}
	free(line);
	fclose(f);
	printf("bench_tui: %ld tasks, %ld steps, screen 200x44, script mode\n", ntasks, ntasks * nsteps);
	printf("%-34s %7.2f ms%s\n", "first frame", first / 1000.0, first <= 150000 ? "  ok" : "  MISSED");
	stats("key-to-frame, task list", keys[0], nk[0], 16);
	stats("key-to-frame, timeline", keys[1], nk[1], 16);
	stats("key-to-frame, zoom", keys[2], nk[2], 0);
	/* Panes read the thumbnail (the target); the zoomed view the full
	 * capture, on the render thread, behind a placeholder (no target). */
	stats("image render, cold, panes", cold, ncold, 15);
	stats("image render, cold, 80x40 pane", c80, n80, 15);
	stats("image render, cold, zoom (full)", full, nfull, 0);
	stats("image render, cached", cached, ncached, 0);
	printf("%-34s %7.1f MB%s\n", "peak RSS", rss / 1024.0, rss <= 64 * 1024 ? "  ok" : "  MISSED");
	return 0;
}

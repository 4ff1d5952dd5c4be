/* bench_steps - per-phase step timings for the bundled flows (`make bench`).
 *
 * Runs each flow in data/flows/ ROUNDS times on a fresh simulated phone in a
 * private AMC_HOME, through the same amc_launch_run() as `amc run`, then reads the
 * per-phase timings back from the timeline and prints median and p90 per phase.
 * It reports what it measured; there is no target to meet. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "flow/flow.h"
#include "planner/flow_planner.h"
#include "launch/launch.h"
#include "runtime/run.h"
#include "storage/store.h"
#include "util/clock.h"
#include "util/config.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/paths.h"
#include "util/strbuf.h"

#define MAX_SAMPLES 4096
static const char *PHASES[] = { "observe_ms", "plan_ms", "act_ms", "settle_ms", "record_ms" };
#define NPHASES 5

typedef struct samples {
	double v[NPHASES + 1][MAX_SAMPLES];
	int n;
} samples;

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double pct(double *v, int n, double p)
{
	if (n == 0)
		return 0;
	qsort(v, (size_t)n, sizeof *v, cmpd);
	int i = (int)(p * (n - 1) + 0.5);
	return v[i];
}

static int run_flow(const char *home, amc_config *cfg, const char *path, samples *s, long long *wall)
{
	amc_err e;
	amc_flow flow;
	if (amc_flow_load(path, &flow, &e) != 0) {
		fprintf(stderr, "bench: %s\n", e.msg);
		return -1;
	}
	amc_store *store;
	amc_device *dev;
	amc_planner *pl;
	if (amc_store_open(home, &store, &e) != 0 || amc_sim_reset(home, 0, cfg, &e) != 0 ||
	    amc_device_open("sim", home, cfg, &dev, &e) != 0) {
		fprintf(stderr, "bench: %s\n", e.msg);
		return -1;
	}
	amc_task *t = amc_task_new("flow", "sim:0");
	t->flow_name = amc_xstrdup(flow.name);
	if (amc_flow_planner_new(&flow, 5000, &pl, &e) != 0) {
		fprintf(stderr, "bench: %s\n", e.msg);
		return -1;
	}
	amc_runner_opts o;
	amc_runner_opts_from_config(&o, cfg);
	amc_task_outcome out;
	long long t0 = amc_mono_ms();
	/* the way every front end runs a task, on the device opened above */
	amc_launch l = { .task = t, .planner = pl };
	amc_launch_ctx c;
	amc_launch_ctx_init(&c, home, cfg);
	c.store = store;
	c.dev = dev;
	c.opts = &o;
	int rc = amc_launch_run(&l, &c, &out, &e);
	*wall = amc_mono_ms() - t0;
	if (rc != 0 || strcmp(out.status, "succeeded")) {
		fprintf(stderr, "bench: %s did not succeed: %s %s\n", path, out.status, rc ? e.msg : out.error);
		rc = -1;
	}
	amc_step_row *steps;
	size_t n;
	if (rc == 0 && amc_store_get_steps(store, t->id, &steps, &n, &e) == 0) {
		for (size_t i = 0; i < n && s->n < MAX_SAMPLES; i++) {
			cJSON *j = cJSON_Parse(steps[i].timings ? steps[i].timings : "{}");
			double total = 0;
			for (int p = 0; p < NPHASES; p++) {
				const cJSON *v = cJSON_GetObjectItem(j, PHASES[p]);
				double x = cJSON_IsNumber(v) ? v->valuedouble : 0;
				s->v[p][s->n] = x;
				total += x;
			}
			s->v[NPHASES][s->n] = total;
			s->n++;
			cJSON_Delete(j);
		}
		amc_step_rows_free(steps, n);
	}
	amc_planner_free(pl);
	amc_task_free(t);
	amc_device_close(dev);
	amc_store_close(store);
	return rc;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	if (rounds < 1)
		rounds = 1;
	char tmpl[] = "/tmp/amc-bench-XXXXXX";
	if (!mkdtemp(tmpl))
		return 3;
	setenv("AMC_HOME", tmpl, 1);
	amc_err e;
	char data[PATH_MAX], dir[PATH_MAX + 8];
	if (amc_paths_data_dir(data, sizeof data, &e) != 0)
		return 3;
	snprintf(dir, sizeof dir, "%s/flows", data);
	amc_config *cfg = amc_config_new();
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "bench: no flows in %s\n", dir);
		return 3;
	}
	printf("per-step phase timings in ms (median / p90), %d rounds per flow, sim 1080x2400\n"
	       "observe: extra captures while the planner waited for the screen (the post-action capture\n"
	       "is the next step's observation and is counted in settle)\n", rounds);
	printf("%-28s %5s %13s %13s %13s %13s %13s %13s %9s\n", "flow", "steps", "observe", "plan", "act", "settle",
	       "record", "step total", "flow wall");
	struct dirent *de;
	int failed = 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (l < 6 || strcmp(de->d_name + l - 5, ".yaml"))
			continue;
		char path[PATH_MAX * 2];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		samples *s = calloc(1, sizeof *s);
		long long wall_sum = 0;
		for (int r = 0; r < rounds; r++) {
			long long wall = 0;
			if (run_flow(tmpl, cfg, path, s, &wall) != 0)
				failed = 1;
			wall_sum += wall;
		}
		int per = s->n / rounds;
		printf("%-28.28s %5d", de->d_name, per);
		for (int p = 0; p <= NPHASES; p++) {
			double med = pct(s->v[p], s->n, 0.5), p90 = pct(s->v[p], s->n, 0.9);
			printf(" %6.1f/%6.1f", med, p90);
		}
		printf(" %7.0fms\n", (double)wall_sum / rounds);
		free(s);
	}
	closedir(d);
	amc_config_free(cfg);
	amc_rm_rf(tmpl);
	return failed;
}

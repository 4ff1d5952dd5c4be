/* bench_ocr - amc's perception against the usual Python-style OCR pipeline
 * (`make bench`; `--quick` in `make check` only checks that it runs).
 *
 * Visits 20+ distinct screens of the simulated phone (Settings pages, Contacts,
 * the Notes editor whose body exists only in pixels), captures each one once
 * (PNG, UI dump, the sim's list of drawn strings), then times on the same
 * pixels, rounds interleaved, every cache off:
 *   (1) `tesseract FILE - tsv` as a process per screen with every OMP_*
 *       variable removed (what a pytesseract user has), plus parsing its TSV;
 *   (2) amc in-process: PNG decode + OCR `full` + tree parse + fusion;
 *   (3) the same with `gaps`;
 *   (2r) (2) from a raw frame (adb.capture = raw: 16-byte header, RGBA)
 *       instead of PNG bytes, so it pays no PNG decode;
 *   and the bare engine (grayscale frame, sparse mode, Recognize only).
 * Recall is counted against the words the sim drew (case-insensitive, a word
 * counts once per occurrence): OCR-only (words in the OCR output) and Scene
 * (words in the fused Scene's element texts). It prints what it measured;
 * the targets are printed beside the figures, met or not. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "device/device.h"
#include "device/sim/sim.h"
#include "image/png.h"
#include "image/rawframe.h"
#include "perception/ocr.h"
#include "perception/scene.h"
#include "perception/uitree.h"
#include "util/config.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

extern char **environ;

#define MAX_SCREENS 40

typedef struct screen {
	char name[64];
	char png_path[PATH_MAX];
	unsigned char *png;
	size_t png_len;
	unsigned char *raw;   /* the same screen as a raw screencap frame */
	size_t raw_len;
	char *xml;
	size_t xml_len;
	char **truth;    /* normalized words the sim drew */
	size_t ntruth;
	int w, h;
} screen;

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	if (n <= 0)
		return 0;
	double *c = malloc((size_t)n * sizeof *c);
	memcpy(c, v, (size_t)n * sizeof *c);
	qsort(c, (size_t)n, sizeof *c, cmpd);
	double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return m;
}

/* ---- words -------------------------------------------------------------- */

static int is_wordch(unsigned char c)
{
	return c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* Split on spaces, lower-case ASCII, strip punctuation at both ends; tokens
 * with no letter or digit are not words. */
static void add_words(const char *text, char ***v, size_t *n, size_t *cap)
{
	const char *p = text;
	while (*p) {
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		const char *s = p;
		while (*p && *p != ' ' && *p != '\n' && *p != '\t')
			p++;
		const char *a = s, *b = p;
		while (a < b && !is_wordch((unsigned char)*a))
			a++;
		while (b > a && !is_wordch((unsigned char)b[-1]))
			b--;
		if (a == b)
			continue;
		/* Icon glyphs (arrows, gears) and punctuation are not words: the same
		 * rule amc applies to OCR tokens. */
		char *tok = amc_xstrndup(a, (size_t)(b - a));
		int word = amc_ocr_keep_token(tok, 100.0);
		free(tok);
		if (!word)
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 64;
			*v = realloc(*v, *cap * sizeof **v);
		}
		char *w = amc_xstrndup(a, (size_t)(b - a));
		for (char *q = w; *q; q++)
			if (*q >= 'A' && *q <= 'Z')
				*q += 32;
		(*v)[(*n)++] = w;
	}
}

static void free_words(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int verbose;

/* How many truth words the found words cover, each found word used once.
 * BENCH_OCR_VERBOSE=1 lists the words that were missed. */
static size_t matched(char **truth, size_t nt, char **found, size_t nf, const char *what)
{
	char *used = calloc(nf + 1, 1);
	size_t m = 0;
	for (size_t i = 0; i < nt; i++)
		for (size_t j = 0; j < nf; j++)
			if (!used[j] && !strcmp(truth[i], found[j])) {
				used[j] = 1;
				m++;
				break;
			}
	if (verbose)
		for (size_t i = 0; i < nt; i++) {
			int hit = 0;
			for (size_t j = 0; j < nf && !hit; j++)
				hit = !strcmp(truth[i], found[j]);
			if (!hit)
				fprintf(stderr, "  %s missed: %s\n", what, truth[i]);
		}
	free(used);
	return m;
}

/* ---- driving the sim -------------------------------------------------------- */

static amc_device *dev;

static int settle(void)
{
	amc_err e;
	return dev->ops->wait(dev, 700, &e);
}

static int tree_now(amc_ui_tree *t)
{
	char *xml;
	size_t len;
	amc_err e;
	if (dev->ops->ui_tree(dev, &xml, &len, &e) != 0)
		return -1;
	int rc = amc_uitree_parse(xml, len, t, &e);
	free(xml);
	return rc;
}

/* Tap the displayed node whose text (or description) is `text`, scrolling the
 * list down up to 4 times to find it. */
static int tap_text(const char *text)
{
	amc_err e;
	for (int tries = 0; tries < 5; tries++) {
		amc_ui_tree t;
		if (tree_now(&t) != 0)
			return -1;
		for (size_t i = 0; i < t.count; i++) {
			const amc_ui_node *n = &t.nodes[i];
			if ((n->flags & AMC_NODE_DISPLAYED) && (!strcmp(n->text, text) || !strcmp(n->content_desc, text)) &&
			    n->bounds.y2 < 2300 && n->bounds.y1 > 84) {
				int x = (n->bounds.x1 + n->bounds.x2) / 2, y = (n->bounds.y1 + n->bounds.y2) / 2;
				amc_uitree_free(&t);
				if (dev->ops->tap(dev, x, y, &e) != 0)
					return -1;
				return settle();
			}
		}
		amc_uitree_free(&t);
		if (dev->ops->swipe(dev, 540, 1800, 540, 900, 300, &e) != 0)
			return -1;
		settle();
	}
	fprintf(stderr, "bench_ocr: no '%s' on the screen\n", text);
	return -1;
}

static int key_back(void)
{
	amc_err e;
	if (dev->ops->key(dev, AMC_KEY_BACK, &e) != 0)
		return -1;
	return settle();
}

static int launch(const char *app)
{
	amc_err e;
	if (dev->ops->launch_app(dev, app, &e) != 0)
		return -1;
	return settle();
}

static screen screens[MAX_SCREENS];
static int nscreens;

static int capture(const char *name, const char *dir)
{
	if (nscreens >= MAX_SCREENS)
		return 0;
	screen *s = &screens[nscreens];
	amc_err e;
	snprintf(s->name, sizeof s->name, "%s", name);
	if (dev->ops->screenshot(dev, &s->png, &s->png_len, &e) != 0 ||
	    dev->ops->ui_tree(dev, &s->xml, &s->xml_len, &e) != 0) {
		fprintf(stderr, "bench_ocr: capture of %s failed: %s\n", name, e.msg);
		return -1;
	}
	char *drawn;
	if (amc_sim_drawn_text_json(dev, &drawn, &e) != 0) {
		fprintf(stderr, "bench_ocr: %s\n", e.msg);
		return -1;
	}
	cJSON *a = cJSON_Parse(drawn);
	if (getenv("BENCH_OCR_DRAWN"))
		fprintf(stderr, "%s: %s\n", name, drawn);
	free(drawn);
	size_t cap = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, a) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(it, "text");
		if (cJSON_IsString(t))
			add_words(t->valuestring, &s->truth, &s->ntruth, &cap);
	}
	cJSON_Delete(a);
	amc_image px;
	int rc = amc_png_decode(s->png, s->png_len, &px, &e);
	s->w = px.w;
	s->h = px.h;
	if (rc == 0)
		rc = amc_rawframe_encode(&px, AMC_RAW_RGBA_8888, 16, &s->raw, &s->raw_len, &e);
	amc_image_free(&px);
	if (rc != 0) {
		fprintf(stderr, "bench_ocr: %s\n", e.msg);
		return -1;
	}
	snprintf(s->png_path, sizeof s->png_path, "%s/screen-%02d.png", dir, nscreens);
	if (amc_write_atomic(s->png_path, s->png, s->png_len, 0600, &e) != 0) {
		fprintf(stderr, "bench_ocr: %s\n", e.msg);
		return -1;
	}
	nscreens++;
	return 0;
}

/* Every screen once; `quick` stops after two. */
static int visit(const char *dir, int quick)
{
	static const char *const settings_pages[] = {
		"Wi-Fi", "Bluetooth", "Network & internet", "Connected devices", "Apps", "Notifications",
		"Battery", "Storage", "Sound & vibration", "Display", "Wallpaper & style", "Accessibility",
		"Security & privacy", "Location", "Passwords & accounts", "Digital Wellbeing", "System",
		"Date & time", "About phone",
	};
	if (capture("launcher", dir) != 0)
		return -1;
	if (launch("com.amc.notes") != 0 || tap_text("Welcome") != 0 || capture("notes editor (pixel-only body)", dir) != 0)
		return -1;
	if (quick)
		return 0;
	if (key_back() != 0 || capture("notes list", dir) != 0)
		return -1;
	if (launch("com.android.contacts") != 0 || capture("contacts", dir) != 0)
		return -1;
	if (tap_text("Add contact") != 0 || capture("create contact", dir) != 0 || key_back() != 0)
		return -1;
	if (launch("com.android.settings") != 0 || capture("settings", dir) != 0)
		return -1;
	for (size_t i = 0; i < sizeof settings_pages / sizeof *settings_pages; i++) {
		char name[64];
		snprintf(name, sizeof name, "settings/%s", settings_pages[i]);
		if (launch("com.android.settings") != 0 || tap_text(settings_pages[i]) != 0 || capture(name, dir) != 0)
			return -1;
	}
	return 0;
}

/* ---- (1) the Python-style pipeline ---------------------------------------- */

/* The environment without any OMP_* (nor amc's marker): a pytesseract user's. */
static char **env_without_omp(void)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **v = calloc(n + 1, sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "OMP_", 4) && strncmp(environ[i], "AMC_OMP_SET=", 12))
			v[k++] = environ[i];
	v[k] = NULL;
	return v;
}

/* Runs tesseract on one file, parses its TSV into words (conf >= 0, text not
 * empty); returns the child's CPU ms, or -1. */
static double run_cli(const char *path, char **envp, char ***words, size_t *nwords)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int dn = open("/dev/null", O_RDWR);
		dup2(fds[1], 1);
		if (dn >= 0) {
			dup2(dn, 0);
			dup2(dn, 2);
		}
		close(fds[0]);
		char *const argv[] = { "tesseract", (char *)path, "-", "tsv", NULL };
		environ = envp; /* this process only: the child about to exec */
		execvp("tesseract", argv);
		_exit(127);
	}
	close(fds[1]);
	amc_sb out;
	amc_sb_init(&out);
	char buf[65536];
	ssize_t r;
	while ((r = read(fds[0], buf, sizeof buf)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		amc_sb_append(&out, buf, (size_t)r);
	}
	close(fds[0]);
	int st;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		amc_sb_free(&out);
		return -1;
	}
	/* level page block par line word left top width height conf text */
	size_t cap = 0;
	char *save = NULL;
	char *text = amc_sb_detach(&out);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[12];
		int nf = 0;
		char *p = line;
		f[nf++] = p;
		while (nf < 12 && (p = strchr(p, '\t'))) {
			*p++ = '\0';
			f[nf++] = p;
		}
		if (nf < 12 || strcmp(f[0], "5") || atof(f[10]) < 0 || !f[11][0])
			continue;
		add_words(f[11], words, nwords, &cap);
	}
	free(text);
	return (double)ru.ru_utime.tv_sec * 1000.0 + ru.ru_utime.tv_usec / 1000.0 +
	       (double)ru.ru_stime.tv_sec * 1000.0 + ru.ru_stime.tv_usec / 1000.0;
}

/* ---- (2)/(3) amc in-process ------------------------------------------------ */

typedef struct amc_run {
	double ocr_cpu_ms;
	char **ocr_words, **scene_words;
	size_t nocr, nscene;
} amc_run;

static int run_amc(const screen *s, amc_ocr_policy pol, int raw, amc_run *r)
{
	amc_err e;
	amc_image img;
	amc_ui_tree t;
	amc_scene sc;
	amc_ocr_result o;
	memset(r, 0, sizeof *r);
	if (raw ? amc_rawframe_decode(s->raw, s->raw_len, &img, NULL, &e) != 0
		: amc_png_decode(s->png, s->png_len, &img, &e) != 0)
		goto fail;
	if (amc_uitree_parse(s->xml, s->xml_len, &t, &e) != 0)
		goto fail_img;
	double c0 = cpu_ms();
	if (amc_ocr_run(&img, &t, pol, &o, &e) != 0)
		goto fail_tree;
	r->ocr_cpu_ms = cpu_ms() - c0;
	if (amc_scene_from_tree(&t, img.w, img.h, &sc, &e) != 0 || amc_scene_fuse(&sc, &o, &e) != 0)
		goto fail_ocr;
	size_t cap = 0;
	for (size_t i = 0; i < o.count; i++)
		add_words(o.words[i].text, &r->ocr_words, &r->nocr, &cap);
	cap = 0;
	for (size_t i = 0; i < sc.count; i++)
		add_words(sc.elements[i].text, &r->scene_words, &r->nscene, &cap);
	amc_scene_free(&sc);
	amc_ocr_result_free(&o);
	amc_uitree_free(&t);
	amc_image_free(&img);
	return 0;
fail_ocr:
	amc_ocr_result_free(&o);
fail_tree:
	amc_uitree_free(&t);
fail_img:
	amc_image_free(&img);
fail:
	fprintf(stderr, "bench_ocr: %s: %s\n", s->name, e.msg);
	return -1;
}

/* ---- main ------------------------------------------------------------------ */

/* Over 120 lines: the bench is one measured sequence (tesseract CLI, amc
 * full, gaps, bare, decode) whose figures print as ratios of each other. */
int main(int argc, char **argv)
{
	/* The same guarantee amc gives itself (src/cli/main.c): OpenMP reads the
	 * limit only at load time, so re-execute with it set. */
	if (!getenv("OMP_THREAD_LIMIT")) {
		setenv("OMP_THREAD_LIMIT", "1", 1);
		setenv("AMC_OMP_SET", "1", 1);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "bench_ocr: cannot re-execute with OMP_THREAD_LIMIT=1: %s\n", strerror(errno));
		return 1;
	}
	verbose = getenv("BENCH_OCR_VERBOSE") != NULL;
	int quick = argc > 1 && !strcmp(argv[1], "--quick");
	int rounds = quick ? 1 : (argc > 1 ? atoi(argv[1]) : 3);
	if (rounds < 1)
		rounds = 1;
	char tmpl[] = "/tmp/amc-bench-ocr-XXXXXX";
	if (!mkdtemp(tmpl)) {
		perror("bench_ocr: mkdtemp");
		return 1;
	}
	setenv("AMC_HOME", tmpl, 1);
	unsetenv("AMC_SIM_FAULTS");
	amc_err e;
	amc_config *cfg;
	if (amc_config_load(&cfg, &e) != 0 || amc_sim_reset(tmpl, 0, cfg, &e) != 0 ||
	    amc_device_open("sim", tmpl, cfg, &dev, &e) != 0) {
		fprintf(stderr, "bench_ocr: %s\n", e.msg);
		return 1;
	}
	if (amc_ocr_check(&e) != 0) {
		fprintf(stderr, "bench_ocr: %s\n", e.msg);
		return 1;
	}
	if (visit(tmpl, quick) != 0)
		return 1;
	amc_ocr_cache_enable(0);
	char **envp = env_without_omp();
	int have_cli = 1;

	enum { P_CLI, P_FULL, P_GAPS, P_BARE, P_RAW, P_DEC, P_DEC6, NP };
	static double wall[NP][MAX_SCREENS][16], cpu[NP][MAX_SCREENS][16];
	if (rounds > 16)
		rounds = 16;
	size_t tot_truth = 0, hit_ocr[NP] = { 0 }, hit_scene[NP] = { 0 };
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < nscreens; i++) {
			screen *s = &screens[i];
			if (r == 0)
				tot_truth += s->ntruth;
			if (verbose && r == 0)
				fprintf(stderr, "%s:\n", s->name);
			/* (1) */
			char **w = NULL;
			size_t nw = 0;
			double t0 = now_ms();
			double c = have_cli ? run_cli(s->png_path, envp, &w, &nw) : -1;
			wall[P_CLI][i][r] = now_ms() - t0;
			cpu[P_CLI][i][r] = c;
			if (c < 0 && have_cli) {
				fprintf(stderr, "bench_ocr: `tesseract` did not run (Debian package tesseract-ocr); "
						"the baseline is skipped\n");
				have_cli = 0;
			}
			if (r == 0)
				hit_ocr[P_CLI] += matched(s->truth, s->ntruth, w, nw, "cli");
			free_words(w, nw);
			/* (2), (3) */
			for (int p = P_FULL; p <= P_GAPS; p++) {
				amc_run ar;
				t0 = now_ms();
				if (run_amc(s, p == P_FULL ? AMC_OCR_FULL : AMC_OCR_GAPS, 0, &ar) != 0)
					return 1;
				wall[p][i][r] = now_ms() - t0;
				cpu[p][i][r] = ar.ocr_cpu_ms;
				if (r == 0) {
					hit_ocr[p] += matched(s->truth, s->ntruth, ar.ocr_words, ar.nocr, p == P_FULL ? "full ocr" : "gaps ocr");
					hit_scene[p] += matched(s->truth, s->ntruth, ar.scene_words, ar.nscene, p == P_FULL ? "full scene" : "gaps scene");
				}
				free_words(ar.ocr_words, ar.nocr);
				free_words(ar.scene_words, ar.nscene);
			}
			/* (2r) */
			amc_run ar;
			t0 = now_ms();
			if (run_amc(s, AMC_OCR_FULL, 1, &ar) != 0)
				return 1;
			wall[P_RAW][i][r] = now_ms() - t0;
			cpu[P_RAW][i][r] = ar.ocr_cpu_ms;
			free_words(ar.ocr_words, ar.nocr);
			free_words(ar.scene_words, ar.nscene);
			/* bare engine */
			amc_image img;
			t0 = now_ms();
			if (amc_png_decode(s->png, s->png_len, &img, &e) != 0)
				return 1;
			wall[P_DEC][i][r] = now_ms() - t0;
			wall[P_BARE][i][r] = amc_ocr_bare_recognize_ms(&img, &e);
			/* the same frame as `screencap -p` sends it: zlib 6, adaptive filters */
			unsigned char *p6;
			size_t l6;
			if (amc_png_encode_libpng(&img, 6, &p6, &l6, &e) != 0)
				return 1;
			amc_image_free(&img);
			t0 = now_ms();
			if (amc_png_decode(p6, l6, &img, &e) != 0)
				return 1;
			wall[P_DEC6][i][r] = now_ms() - t0;
			amc_image_free(&img);
			free(p6);
		}
	}

	FILE *o = stdout;
	fprintf(o, "bench_ocr: %d screens, %d rounds, %zu drawn words, caches off, OMP_THREAD_LIMIT=%s in amc\n",
		nscreens, rounds, tot_truth, getenv("OMP_THREAD_LIMIT"));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double load[3] = { 0 };
	if (getloadavg(load, 3) < 0)
		load[0] = -1;
	fprintf(o, "machine: %ld CPUs, load average %.2f at the end\n", ncpu, load[0]);
	fprintf(o, "\nper-screen medians (ms wall; OCR CPU ms in brackets):\n");
	fprintf(o, "%-34s %16s %16s %16s %8s\n", "screen", "(1) tesseract", "(2) amc full", "(3) amc gaps", "bare");
	double med[NP][MAX_SCREENS], medc[NP][MAX_SCREENS];
	for (int i = 0; i < nscreens; i++) {
		for (int p = 0; p < NP; p++) {
			med[p][i] = median(wall[p][i], rounds);
			medc[p][i] = median(cpu[p][i], rounds);
		}
		fprintf(o, "%-34s %7.0f [%6.0f] %7.0f [%6.0f] %7.0f [%6.0f] %8.0f\n", screens[i].name, med[P_CLI][i],
			medc[P_CLI][i], med[P_FULL][i], medc[P_FULL][i], med[P_GAPS][i], medc[P_GAPS][i], med[P_BARE][i]);
	}
	double m[NP], mc[NP];
	for (int p = 0; p < NP; p++) {
		m[p] = median(med[p], nscreens);
		mc[p] = median(medc[p], nscreens);
	}
	fprintf(o, "%-34s %7.0f [%6.0f] %7.0f [%6.0f] %7.0f [%6.0f] %8.0f\n", "median of the screens", m[P_CLI],
		mc[P_CLI], m[P_FULL], mc[P_FULL], m[P_GAPS], mc[P_GAPS], m[P_BARE]);
	fprintf(o, "\nratios (medians; target in brackets):\n");
	if (have_cli) {
		fprintf(o, "  (1)/(2) wall           %6.2fx  [>= 5x]  %s\n", m[P_CLI] / m[P_FULL], m[P_CLI] / m[P_FULL] >= 5 ? "met" : "MISSED");
		fprintf(o, "  (1)/(3) wall           %6.2fx  [>= 20x] %s\n", m[P_CLI] / m[P_GAPS], m[P_CLI] / m[P_GAPS] >= 20 ? "met" : "MISSED");
	} else {
		fprintf(o, "  (1) not measured: tesseract CLI missing\n");
	}
	double cr = mc[P_GAPS] > 0 ? mc[P_FULL] / mc[P_GAPS] : 0;
	fprintf(o, "  (2)/(3) OCR CPU        %6.2fx  [>= 4x]  %s\n", cr, cr >= 4 ? "met" : "MISSED");
	fprintf(o, "  (2)/bare recognize     %6.2fx  [<= 1.2x] %s\n", m[P_FULL] / m[P_BARE], m[P_FULL] / m[P_BARE] <= 1.2 ? "met" : "MISSED");
	if (m[P_FULL] / m[P_BARE] > 1.2)
		fprintf(o, "      analysis: (2) - (2r) = %.0f ms, of which the PNG decode measured alone is %.1f ms; "
			"the rest is OCR CPU, %.0f ms in (2) against %.0f ms in (2r) for the same recognition of the same "
			"pixels ((2) runs first on each screen, right after the tesseract CLI); (2r)/bare below is the "
			"pipeline without the decode\n",
			m[P_FULL] - m[P_RAW], m[P_DEC], mc[P_FULL], mc[P_RAW]);
	fprintf(o, "  (2r) raw frame, full   %6.0f ms wall [%6.0f], %6.2fx bare recognize (no PNG decode)\n", m[P_RAW],
		mc[P_RAW], m[P_RAW] / m[P_BARE]);
	/* the decode alone, on the sim's frames and on them as a phone's
	 * `screencap -p` encodes them (zlib 6, adaptive filters) */
	double dmax = m[P_DEC] > m[P_DEC6] ? m[P_DEC] : m[P_DEC6];
	fprintf(o, "  PNG decode %dx%d      %6.1f ms (the sim's frames, as amc encodes them), %5.1f ms (zlib-6 adaptive, as screencap -p)"
		"  [<= 30 ms] %s\n", screens[0].w, screens[0].h, m[P_DEC], m[P_DEC6], dmax <= 30 ? "met" : "MISSED");
	fprintf(o, "\nrecall against the %zu words the sim drew (case-insensitive):\n", tot_truth);
	const char *names[] = { "(1) tesseract CLI", "(2) amc full", "(3) amc gaps" };
	for (int p = P_CLI; p <= P_GAPS; p++) {
		if (p == P_CLI && !have_cli)
			continue;
		fprintf(o, "  %-18s OCR-only %5.1f %%", names[p], 100.0 * (double)hit_ocr[p] / (double)(tot_truth ? tot_truth : 1));
		if (p != P_CLI)
			fprintf(o, "   Scene %5.1f %%", 100.0 * (double)hit_scene[p] / (double)(tot_truth ? tot_truth : 1));
		fputc('\n', o);
	}
	fprintf(o, "  Scene recall (3) >= (2): %s\n", hit_scene[P_GAPS] >= hit_scene[P_FULL] ? "met" : "MISSED");

	for (int i = 0; i < nscreens; i++) {
		unlink(screens[i].png_path);
		free(screens[i].png);
		free(screens[i].raw);
		free(screens[i].xml);
		free_words(screens[i].truth, screens[i].ntruth);
	}
	free(envp);
	amc_device_close(dev);
	amc_config_free(cfg);
	/* The sim's state folder under the private home. */
	amc_rm_rf(tmpl);
	return 0;
}

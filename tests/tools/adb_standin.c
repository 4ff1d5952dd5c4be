/* adb_standin.c - a stand-in for the `adb` program, serving amc's simulated
 * phone, so the adb driver's real code runs against realistic bytes without a
 * phone. Tests put it first on PATH under the name `adb`. Over 800 lines: it
 * is one fake phone answering every command the driver sends; the pm/am and
 * file (push, pull, screenrecord) answers are what would move out.
 *
 * It answers the command lines the driver uses: devices -l, get-state,
 * exec-out screencap -p, exec-out screencap (a raw frame, as rawframe.h
 * describes), exec-out uiautomator dump /dev/tty, exec-out cat FILE, and
 * `shell ...`. For `shell` it does what adb and a phone do: the arguments
 * are joined with spaces and the string is parsed again POSIX-shell-style
 * (quotes, backslashes, ; & | and newlines between commands, $(...), `...`
 * and $VAR expanded to nothing: nothing is ever executed), then the known
 * commands run against the sim (input text applies its %s rule; settings put
 * system user_rotation, cmd connectivity airplane-mode and push change the
 * sim as set_device does; pm list packages, pm clear, am force-stop and
 * `install -r FILE` serve the app actions). Every parsed
 * command and every would-be substitution is appended to
 * $AMC_HOME/adb-standin/log.
 *
 * Environment:
 *   AMC_HOME                         where the sims live (required)
 *   AMC_ADB_STANDIN_SERIALS          comma-separated serials (default emulator-5554); the Nth is sim:N
 *   AMC_ADB_STANDIN_UNAUTHORIZED     a serial listed as "unauthorized"
 *   AMC_ADB_STANDIN_IME=1            ADBKeyBoard is the current keyboard
 *   AMC_ADB_STANDIN_TTY_DUMP=fail    `uiautomator dump /dev/tty` fails as on a busy phone
 *   AMC_ADB_STANDIN_VANISH_AFTER=N   after N more calls every serial is gone
 *                                    (counted in $AMC_HOME/adb-standin/calls)
 *   AMC_ADB_STANDIN_RAW_HEADER=12|16 the raw frame's header (default 16: newer Android)
 *   AMC_ADB_STANDIN_RAW_FORMAT=rgba|rgbx|565  its pixel format (default rgba); a 565
 *                                    phone's PNG shows the same 5-6-5 pixels widened
 *   AMC_ADB_STANDIN_RAW_FAULT=truncated|lying  a raw frame cut short, or one whose
 *                                    header names a size its bytes do not have
 *   AMC_ADB_STANDIN_LATENCY=png_ms=N,raw_ms=N,usb_mb_s=N,dump_ms=N,input_ms=N
 *                                    a latency model: each call takes at least this
 *                                    long (captures: the phone's time plus the bytes
 *                                    over USB at usb_mb_s; inputs: input, am, monkey)
 * A file $AMC_HOME/adb-standin/vanished-SERIAL makes that phone gone.
 *
 * Over 800 lines: one program answering adb's whole command surface, its
 * dispatch (run_cmd, main) read top to bottom; the shell parser is the part
 * that would split out (tests/tools/ has no shared library to put it in). */
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "device/sim/sim.h"
#include "image/png.h"
#include "image/rawframe.h"
#include "util/clock.h"
#include "util/config.h"
#include "util/fsutil.h"
#include "util/strbuf.h"

static const char *home;
static char dir[PATH_MAX];
static amc_config *cfg;

static void logf_(const char *fmt, const char *a, const char *b)
{
	char path[PATH_MAX + 8];
	snprintf(path, sizeof path, "%s/log", dir);
	FILE *f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, fmt, a, b ? b : "");
	fclose(f);
}

/* ---- serials ---- */

static int serial_index(const char *serial)
{
	const char *list = getenv("AMC_ADB_STANDIN_SERIALS");
	if (!list || !*list)
		list = "emulator-5554";
	int i = 0;
	size_t sl = strlen(serial);
	for (const char *p = list; *p; i++) {
		size_t n = strcspn(p, ",");
		if (n == sl && !strncmp(p, serial, n))
			return i;
		p += n;
		if (*p == ',')
			p++;
	}
	return -1;
}

static int vanished(const char *serial)
{
	char path[PATH_MAX + 160];
	snprintf(path, sizeof path, "%s/vanished-%s", dir, serial);
	return access(path, F_OK) == 0;
}

static void vanish_all(void)
{
	const char *list = getenv("AMC_ADB_STANDIN_SERIALS");
	if (!list || !*list)
		list = "emulator-5554";
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		char path[PATH_MAX + 160];
		snprintf(path, sizeof path, "%s/vanished-%.*s", dir, (int)n, p);
		FILE *f = fopen(path, "w");
		if (f)
			fclose(f);
		p += n;
		if (*p == ',')
			p++;
	}
}

/* Count this call; vanish when the budget is spent. */
static void count_call(void)
{
	const char *after = getenv("AMC_ADB_STANDIN_VANISH_AFTER");
	if (!after || !*after)
		return;
	char path[PATH_MAX + 8];
	snprintf(path, sizeof path, "%s/calls", dir);
	long n = 0;
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%ld", &n) != 1)
			n = 0;
		fclose(f);
	}
	n++;
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%ld\n", n);
		fclose(f);
	}
	if (n > atol(after))
		vanish_all();
}

/* ---- the sim ---- */

static amc_device *open_sim(int index)
{
	amc_device *d = NULL;
	amc_err e;
	if (amc_sim_open(home, index, cfg, &d, &e) != 0) {
		fprintf(stderr, "adb stand-in: %s\n", e.msg);
		return NULL;
	}
	return d;
}

static cJSON *sim_state(amc_device *d)
{
	char *s = NULL;
	amc_err e;
	if (amc_sim_state_json(d, &s, &e) != 0)
		return NULL;
	cJSON *j = cJSON_Parse(s);
	free(s);
	return j;
}

/* ---- the device's shell: parse without executing ---- */

typedef struct cmd {
	char **argv;
	int argc, cap;
} cmd;

typedef struct parse {
	cmd *cmds;
	int n, cap;
	amc_sb word;
	int in_word;
	int error;
} parse;

static void push_word(parse *ps)
{
	if (!ps->in_word)
		return;
	if (ps->n == 0) {
		ps->cmds = calloc(1, sizeof *ps->cmds);
		ps->n = ps->cap = 1;
	}
	cmd *c = &ps->cmds[ps->n - 1];
	if (c->argc + 2 > c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->argv = realloc(c->argv, (size_t)c->cap * sizeof *c->argv);
	}
	c->argv[c->argc++] = amc_xstrdup(amc_sb_str(&ps->word));
	c->argv[c->argc] = NULL;
	amc_sb_reset(&ps->word);
	ps->in_word = 0;
}

static void end_cmd(parse *ps)
{
	push_word(ps);
	if (ps->n == 0 || ps->cmds[ps->n - 1].argc == 0)
		return;
	if (ps->n == ps->cap) {
		ps->cap *= 2;
		ps->cmds = realloc(ps->cmds, (size_t)ps->cap * sizeof *ps->cmds);
	}
	memset(&ps->cmds[ps->n++], 0, sizeof *ps->cmds);
}

/* $(...) or `...`: the text is logged and expands to nothing. Returns the index
 * after the substitution. */
static size_t substitution(const char *s, size_t i, size_t len)
{
	size_t start = i;
	if (s[i] == '`') {
		i++;
		while (i < len && s[i] != '`')
			i += s[i] == '\\' && i + 1 < len ? 2 : 1;
		i = i < len ? i + 1 : len;
	} else { /* "$(" */
		int depth = 0;
		for (; i < len; i++) {
			if (s[i] == '(')
				depth++;
			else if (s[i] == ')' && --depth == 0) {
				i++;
				break;
			}
		}
	}
	char *t = amc_xstrndup(s + start, i - start);
	logf_("SUBSTITUTION %s%s\n", t, NULL);
	free(t);
	return i;
}

/* $NAME, ${...}, $? ...: expands to nothing (the phone's shell has no such
 * variables for us). Returns the index after it. */
static size_t parameter(const char *s, size_t i, size_t len)
{
	size_t start = i++;
	if (i < len && s[i] == '{') {
		while (i < len && s[i] != '}')
			i++;
		i = i < len ? i + 1 : len;
	} else if (i < len && strchr("?$!#@*-0123456789", s[i])) {
		i++;
	} else {
		while (i < len && (s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
				   (s[i] >= '0' && s[i] <= '9')))
			i++;
	}
	if (i == start + 1) /* a lone '$' is itself */
		return start;
	char *t = amc_xstrndup(s + start, i - start);
	logf_("EXPANSION %s%s\n", t, NULL);
	free(t);
	return i;
}

static void parse_shell(const char *s, parse *ps)
{
	size_t len = strlen(s);
	amc_sb_init(&ps->word);
	for (size_t i = 0; i < len && !ps->error;) {
		char c = s[i];
		if (c == ' ' || c == '\t') {
			push_word(ps);
			i++;
		} else if (c == '\n' || c == ';' || c == '&' || c == '|') {
			end_cmd(ps);
			i++;
		} else if (c == '<' || c == '>') {
			logf_("REDIRECTION %c%s\n", c == '<' ? "<" : ">", NULL);
			end_cmd(ps);
			/* the redirection target word is consumed */
			i++;
			while (i < len && (s[i] == ' ' || s[i] == '>'))
				i++;
			while (i < len && !strchr(" \t\n;&|", s[i]))
				i++;
		} else if (c == '#' && !ps->in_word) {
			while (i < len && s[i] != '\n')
				i++;
		} else if (c == '\\') {
			if (i + 1 < len && s[i + 1] == '\n') {
				i += 2;
			} else if (i + 1 < len) {
				amc_sb_putc(&ps->word, s[i + 1]);
				ps->in_word = 1;
				i += 2;
			} else {
				i++;
			}
		} else if (c == '\'') {
			const char *end = strchr(s + i + 1, '\'');
			if (!end) {
				ps->error = 1;
				fprintf(stderr, "/system/bin/sh: syntax error: unterminated quoted string\n");
				break;
			}
			amc_sb_append(&ps->word, s + i + 1, (size_t)(end - s - i - 1));
			ps->in_word = 1;
			i = (size_t)(end - s) + 1;
		} else if (c == '"') {
			ps->in_word = 1;
			i++;
			for (;;) {
				if (i >= len) {
					ps->error = 1;
					fprintf(stderr, "/system/bin/sh: syntax error: unterminated quoted string\n");
					break;
				}
				if (s[i] == '"') {
					i++;
					break;
				}
				if (s[i] == '\\' && i + 1 < len && strchr("$`\"\\\n", s[i + 1])) {
					if (s[i + 1] != '\n')
						amc_sb_putc(&ps->word, s[i + 1]);
					i += 2;
				} else if (s[i] == '`' || (s[i] == '$' && i + 1 < len && s[i + 1] == '(')) {
					i = substitution(s, i, len);
				} else if (s[i] == '$' && parameter(s, i, len) != i) {
					i = parameter(s, i, len);
				} else {
					amc_sb_putc(&ps->word, s[i++]);
				}
			}
		} else if (c == '`' || (c == '$' && i + 1 < len && s[i + 1] == '(')) {
			i = substitution(s, i, len);
			ps->in_word = 1;
		} else if (c == '$' && parameter(s, i, len) != i) {
			i = parameter(s, i, len);
			ps->in_word = 1;
		} else {
			amc_sb_putc(&ps->word, c);
			ps->in_word = 1;
			i++;
		}
	}
	end_cmd(ps);
	amc_sb_free(&ps->word);
}

/* ---- shell commands ---- */

static int keycode(const char *k, amc_key *out)
{
	if (!strcmp(k, "KEYCODE_BACK") || !strcmp(k, "4"))
		*out = AMC_KEY_BACK;
	else if (!strcmp(k, "KEYCODE_HOME") || !strcmp(k, "3"))
		*out = AMC_KEY_HOME;
	else if (!strcmp(k, "KEYCODE_ENTER") || !strcmp(k, "66"))
		*out = AMC_KEY_ENTER;
	else if (!strcmp(k, "KEYCODE_VOLUME_UP") || !strcmp(k, "24"))
		*out = AMC_KEY_VOLUME_UP;
	else if (!strcmp(k, "KEYCODE_VOLUME_DOWN") || !strcmp(k, "25"))
		*out = AMC_KEY_VOLUME_DOWN;
	else
		return -1;
	return 0;
}

static int type_into(amc_device *d, const char *text)
{
	amc_err e;
	if (d->ops->type_text(d, text, &e) != 0) {
		fprintf(stderr, "Exception occurred while executing 'text': %s\n", e.msg);
		return 1;
	}
	return 0;
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static char *unbase64(const char *in)
{
	size_t n = strlen(in);
	char *out = malloc(n + 1), *o = out;
	unsigned acc = 0;
	int bits = 0;
	for (size_t i = 0; i < n && in[i] != '='; i++) {
		int v = b64val((unsigned char)in[i]);
		if (v < 0) {
			free(out);
			return NULL;
		}
		acc = acc << 6 | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			*o++ = (char)(acc >> bits & 0xff);
		}
	}
	*o = '\0';
	return out;
}

/* ---- screen captures and the latency model ---- */

static long long started_us;
static double model_ms; /* what the latency model says this call takes */

static double latency(const char *key)
{
	const char *m = getenv("AMC_ADB_STANDIN_LATENCY");
	size_t kl = strlen(key);
	for (const char *p = m; p && *p;) {
		if (!strncmp(p, key, kl) && p[kl] == '=')
			return atof(p + kl + 1);
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	return 0;
}

static void model_bytes(const char *phone_key, size_t bytes)
{
	double mbs = latency("usb_mb_s");
	model_ms = latency(phone_key) + (mbs > 0 ? (double)bytes / (mbs * 1e6) * 1e3 : 0);
}

/* Wait out the rest of the modelled time: the stand-in's own work counts. */
static void keep_model(void)
{
	double left = model_ms - (double)(amc_mono_us() - started_us) / 1e3;
	if (left > 0)
		amc_sleep_ms((long)(left + 0.5));
}

static uint32_t raw_format(void)
{
	const char *f = getenv("AMC_ADB_STANDIN_RAW_FORMAT");
	if (f && !strcmp(f, "rgbx"))
		return AMC_RAW_RGBX_8888;
	if (f && !strcmp(f, "565"))
		return AMC_RAW_RGB_565;
	return AMC_RAW_RGBA_8888;
}

/* The screen as the phone holds it: a 565 framebuffer keeps 5-6-5 bits, shown
 * widened by bit replication as Android's PNG encoder does. */
static int screen(amc_device *d, amc_image *img, amc_err *e)
{
	if (d->ops->frame(d, img, e) != 0)
		return -1;
	if (raw_format() == AMC_RAW_RGB_565)
		for (size_t i = 0; i < (size_t)img->w * img->h * 4; i++) {
			unsigned bits = i % 4 == 1 ? 6 : 5, v = img->px[i] >> (8 - bits);
			img->px[i] = i % 4 == 3 ? 255 : (unsigned char)(v << (8 - bits) | v >> (2 * bits - 8));
		}
	return 0;
}

static int screencap(amc_device *d, int raw)
{
	amc_err e;
	amc_image img = { 0 };
	unsigned char *out = NULL;
	size_t len = 0;
	int rc = 1;
	if (raw) {
		const char *hv = getenv("AMC_ADB_STANDIN_RAW_HEADER");
		const char *fault = getenv("AMC_ADB_STANDIN_RAW_FAULT");
		int hl = hv && !strcmp(hv, "12") ? 12 : 16;
		if (screen(d, &img, &e) == 0 && amc_rawframe_encode(&img, raw_format(), hl, &out, &len, &e) == 0) {
			if (fault && !strcmp(fault, "truncated"))
				len -= len / 3;
			else if (fault && !strcmp(fault, "lying"))
				out[0]++; /* one pixel wider than the bytes sent */
			model_bytes("raw_ms", len);
		}
	} else if (raw_format() == AMC_RAW_RGB_565) {
		if (screen(d, &img, &e) == 0 && amc_png_encode(&img, AMC_PNG_CAPTURE_LEVEL, &out, &len, &e) == 0)
			model_bytes("png_ms", len);
	} else if (d->ops->screenshot(d, &out, &len, &e) == 0) {
		model_bytes("png_ms", len);
	}
	if (out)
		rc = fwrite(out, 1, len, stdout) == len ? 0 : 1;
	else
		fprintf(stderr, "%s\n", e.msg);
	free(out);
	amc_image_free(&img);
	return rc;
}

/* ---- screenrecord: a long-running command, as on a phone ---- */

static void sd_path(char *out, size_t n, const char *remote)
{
	const char *base = strrchr(remote, '/');
	snprintf(out, n, "%s/sdcard-%s", dir, base ? base + 1 : remote);
}

static void rec_path(char *out, size_t n, const char *what)
{
	snprintf(out, n, "%s/screenrecord.%s", dir, what);
}

/* Runs until `pkill -INT screenrecord` (the stop file) or its time limit,
 * then writes a file that starts as an MP4 does (an ftyp box) and says how
 * long it ran: the stand-in has no video encoder, the driver only pulls it. */
static int screenrecord(int argc, char **argv)
{
	long limit_s = 180;
	const char *out = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--time-limit") && i + 1 < argc)
			limit_s = atol(argv[++i]);
		else if (!strcmp(argv[i], "--bit-rate") && i + 1 < argc)
			i++;
		else if (argv[i][0] != '-')
			out = argv[i];
	}
	if (!out || strncmp(out, "/sdcard/", 8)) {
		fprintf(stderr, "screenrecord: needs an output file under /sdcard\n");
		return 1;
	}
	char pidf[PATH_MAX + 32], stopf[PATH_MAX + 32], file[PATH_MAX + 64];
	rec_path(pidf, sizeof pidf, "pid");
	rec_path(stopf, sizeof stopf, "stop");
	sd_path(file, sizeof file, out);
	unlink(stopf);
	FILE *f = fopen(pidf, "w");
	if (f) {
		fprintf(f, "%ld\n", (long)getpid());
		fclose(f);
	}
	long long t0 = amc_mono_ms();
	while (access(stopf, F_OK) != 0 && amc_mono_ms() - t0 < limit_s * 1000)
		amc_sleep_ms(20);
	f = fopen(file, "wb");
	if (f) {
		static const unsigned char ftyp[] = { 0, 0, 0, 24, 'f', 't', 'y', 'p', 'm', 'p', '4', '2', 0, 0, 0, 0,
						      'i', 's', 'o', 'm', 'm', 'p', '4', '2' };
		fwrite(ftyp, 1, sizeof ftyp, f);
		fprintf(f, "amc adb stand-in screenrecord, %lld ms", amc_mono_ms() - t0);
		fclose(f);
	}
	unlink(stopf);
	unlink(pidf);
	return 0;
}

static int recording_pid(void)
{
	char pidf[PATH_MAX + 32];
	rec_path(pidf, sizeof pidf, "pid");
	FILE *f = fopen(pidf, "r");
	long pid = 0;
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return pid > 0 && kill((pid_t)pid, 0) == 0 ? (int)pid : 0;
}

/* Over 120 lines: one dispatch over every adb command line the driver
 * sends, each branch a few lines of answer; a table would only move them. */
static int run_cmd(amc_device *d, int argc, char **argv)
{
	amc_err e;
	const char *c = argv[0];
	if (!strcmp(c, "input") || !strcmp(c, "am") || !strcmp(c, "monkey"))
		model_ms = latency("input_ms");
	if (!strcmp(c, "input") && argc >= 2) {
		if (!strcmp(argv[1], "text") && argc >= 3) {
			/* input's own rule: %s is a space. */
			amc_sb t;
			amc_sb_init(&t);
			for (const char *p = argv[2]; *p; p++) {
				if (p[0] == '%' && p[1] == 's') {
					amc_sb_putc(&t, ' ');
					p++;
				} else {
					amc_sb_putc(&t, *p);
				}
			}
			int rc = type_into(d, amc_sb_str(&t));
			amc_sb_free(&t);
			return rc;
		}
		if (!strcmp(argv[1], "tap") && argc == 4)
			return d->ops->tap(d, atoi(argv[2]), atoi(argv[3]), &e) ? (fprintf(stderr, "%s\n", e.msg), 1) : 0;
		if (!strcmp(argv[1], "swipe") && (argc == 6 || argc == 7)) {
			int x1 = atoi(argv[2]), y1 = atoi(argv[3]), x2 = atoi(argv[4]), y2 = atoi(argv[5]);
			int ms = argc == 7 ? atoi(argv[6]) : 300;
			int rc = x1 == x2 && y1 == y2 && ms >= 400 ? d->ops->long_press(d, x1, y1, ms, &e)
				 : d->ops->swipe(d, x1, y1, x2, y2, ms, &e);
			return rc ? (fprintf(stderr, "%s\n", e.msg), 1) : 0;
		}
		if (!strcmp(argv[1], "keyevent") && argc == 3 && !strcmp(argv[2], "187"))
			return 0; /* KEYCODE_APP_SWITCH: a phone shows its recent apps; the sim has no such screen */
		if (!strcmp(argv[1], "keyevent") && argc == 3) {
			amc_key k;
			if (keycode(argv[2], &k) != 0) {
				printf("Error: unknown keycode %s\n", argv[2]);
				return 0;
			}
			return d->ops->key(d, k, &e) ? (fprintf(stderr, "%s\n", e.msg), 1) : 0;
		}
		printf("Error: Unknown command: %s\n", argv[1]);
		return 1;
	}
	if (!strcmp(c, "screenrecord"))
		return screenrecord(argc, argv);
	if (!strcmp(c, "pidof") && argc == 2 && !strcmp(argv[1], "screenrecord")) {
		int pid = recording_pid();
		if (pid)
			printf("%d\n", pid);
		return pid ? 0 : 1;
	}
	if (!strcmp(c, "pkill") && argc == 3 && !strcmp(argv[1], "-INT") && !strcmp(argv[2], "screenrecord")) {
		char stopf[PATH_MAX + 32];
		rec_path(stopf, sizeof stopf, "stop");
		FILE *f = recording_pid() ? fopen(stopf, "w") : NULL;
		if (f)
			fclose(f);
		return f ? 0 : 1;
	}
	if (!strcmp(c, "rm") && argc == 3 && !strcmp(argv[1], "-f")) {
		char file[PATH_MAX + 64];
		sd_path(file, sizeof file, argv[2]);
		unlink(file);
		return 0;
	}
	/* cmd uimode night [yes|no]: the sim's dark theme */
	if (!strcmp(c, "cmd") && (argc == 3 || argc == 4) && !strcmp(argv[1], "uimode") && !strcmp(argv[2], "night")) {
		char v[8] = "";
		if (argc == 4 && strcmp(argv[3], "yes") && strcmp(argv[3], "no")) {
			fprintf(stderr, "Error: mode must be 'yes', 'no', 'auto' or 'custom'\n");
			return 255;
		}
		if (argc == 4 && d->ops->set(d, AMC_SET_DARK_MODE, !strcmp(argv[3], "yes") ? "on" : "off", &e) != 0)
			return 1;
		if (d->ops->get(d, AMC_SET_DARK_MODE, v, sizeof v, &e) != 0)
			return 1;
		printf("Night mode: %s\n", !strcmp(v, "on") ? "yes" : "no");
		return 0;
	}
	if (!strcmp(c, "wm") && argc == 2 && !strcmp(argv[1], "size")) {
		amc_device_info info;
		d->ops->info(d, &info, &e);
		/* the physical size: portrait, however the phone is turned */
		printf("Physical size: %dx%d\n", info.width < info.height ? info.width : info.height,
		       info.width < info.height ? info.height : info.width);
		return 0;
	}
	if (!strcmp(c, "getprop") && argc == 2 && !strcmp(argv[1], "ro.product.model")) {
		printf("amc sim (adb stand-in)\n");
		return 0;
	}
	if (!strcmp(c, "getprop") && argc == 2 && !strcmp(argv[1], "ro.build.version.release")) {
		printf("14\n");
		return 0;
	}
	/* the apps installed beyond the system's (host/devcaps.c) */
	if (!strcmp(c, "pm") && argc == 4 && !strcmp(argv[1], "list") && !strcmp(argv[2], "packages") &&
	    !strcmp(argv[3], "-3")) {
		printf("package:com.amc.notes\npackage:com.amc.messages\npackage:Bad App!\n");
		return 0;
	}
	/* set_device's commands (adb_set.c), applied to the sim */
	if (!strcmp(c, "settings") && argc == 5 && !strcmp(argv[1], "put") && !strcmp(argv[2], "system")) {
		if (!strcmp(argv[3], "accelerometer_rotation"))
			return 0;
		if (!strcmp(argv[3], "user_rotation")) {
			static const char *const N[] = { "portrait", "landscape_left", "upside_down", "landscape_right" };
			int q = argv[4][0] - '0';
			if (q < 0 || q > 3 || argv[4][1])
				return 0; /* Android stores anything and ignores it */
			return d->ops->set(d, AMC_SET_ORIENTATION, N[q], &e) ? (fprintf(stderr, "%s\n", e.msg), 1) : 0;
		}
	}
	if (!strcmp(c, "settings") && argc == 4 && !strcmp(argv[1], "get") && !strcmp(argv[3], "airplane_mode_on")) {
		cJSON *st = sim_state(d);
		const cJSON *tg = st ? cJSON_GetObjectItemCaseSensitive(st, "toggles") : NULL;
		printf("%d\n", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(tg, "airplane_mode")) ? 1 : 0);
		cJSON_Delete(st);
		return 0;
	}
	if (!strcmp(c, "cmd") && argc == 4 && !strcmp(argv[1], "connectivity") && !strcmp(argv[2], "airplane-mode")) {
		if (strcmp(argv[3], "enable") && strcmp(argv[3], "disable")) {
			printf("Error: unknown airplane-mode %s\n", argv[3]);
			return 255;
		}
		return d->ops->set(d, AMC_SET_AIRPLANE, argv[3][0] == 'e' ? "on" : "off", &e) ? 1 : 0;
	}
	if (!strcmp(c, "settings") && argc == 4 && !strcmp(argv[3], "default_input_method")) {
		const char *ime = getenv("AMC_ADB_STANDIN_IME");
		printf("%s\n", ime && !strcmp(ime, "1") ? "com.android.adbkeyboard/.AdbIME"
			       : "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME");
		return 0;
	}
	if (!strcmp(c, "am") && argc >= 2 && !strcmp(argv[1], "broadcast")) {
		const char *ime = getenv("AMC_ADB_STANDIN_IME");
		printf("Broadcasting: Intent { act=%s flg=0x400000 (has extras) }\n", argc > 3 ? argv[3] : "?");
		if (ime && !strcmp(ime, "1") && argc == 7 && !strcmp(argv[3], "ADB_INPUT_B64") && !strcmp(argv[5], "msg")) {
			char *t = unbase64(argv[6]);
			int rc = t ? type_into(d, t) : 1;
			free(t);
			if (rc)
				return 0;
		}
		printf("Broadcast completed: result=0\n");
		return 0;
	}
	/* launchApp's permissions and arguments (adb_set.c): kept in the sim's state */
	if (!strcmp(c, "cmd") && argc == 7 && !strcmp(argv[1], "package") && !strcmp(argv[2], "resolve-activity")) {
		printf("priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n%s/.MainActivity\n",
		       argv[6]);
		return 0;
	}
	if (!strcmp(c, "dumpsys") && argc == 3 && !strcmp(argv[1], "package")) {
		printf("Packages:\n  Package [%s] (1a2b3c):\n    requested permissions:\n"
		       "      android.permission.CAMERA\n      android.permission.ACCESS_FINE_LOCATION\n"
		       "    install permissions:\n      android.permission.INTERNET: granted=true\n", argv[2]);
		return 0;
	}
	if (!strcmp(c, "pm") && argc == 4 && (!strcmp(argv[1], "grant") || !strcmp(argv[1], "revoke"))) {
		char js[512];
		snprintf(js, sizeof js, "{\"%.200s\":\"%s\"}", argv[3], argv[1][0] == 'g' ? "allow" : "deny");
		cJSON *st = sim_state(d);
		const cJSON *all = st ? cJSON_GetObjectItemCaseSensitive(st, "permissions") : NULL;
		cJSON *mine = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(all, argv[2]), 1);
		cJSON *add = cJSON_Parse(js);
		if (!mine)
			mine = cJSON_CreateObject();
		cJSON_DeleteItemFromObjectCaseSensitive(mine, argv[3]);
		cJSON_AddItemToObject(mine, argv[3], cJSON_DetachItemFromObject(add, argv[3]));
		char *txt = cJSON_PrintUnformatted(mine);
		int rc = d->ops->manage_app(d, argv[2], AMC_APP_PERMISSIONS, txt, &e);
		free(txt);
		cJSON_Delete(add);
		cJSON_Delete(mine);
		cJSON_Delete(st);
		if (rc) {
			fprintf(stderr, "Exception occurred while executing 'grant': Unknown package: %s\n", argv[2]);
			return 255;
		}
		return 0;
	}
	if (!strcmp(c, "am") && argc >= 5 && !strcmp(argv[1], "start") && !strcmp(argv[2], "-W") &&
	    !strcmp(argv[3], "-n") && (argc - 5) % 3 == 0) {
		char pkg[256];
		snprintf(pkg, sizeof pkg, "%.*s", (int)strcspn(argv[4], "/"), argv[4]);
		cJSON *x = cJSON_CreateObject();
		for (int k = 5; k + 2 < argc; k += 3)
			cJSON_AddStringToObject(x, argv[k + 1], argv[k + 2]);
		char *txt = cJSON_PrintUnformatted(x);
		int rc = d->ops->manage_app(d, pkg, AMC_APP_LAUNCH_ARGS, txt, &e);
		free(txt);
		cJSON_Delete(x);
		printf("Starting: Intent { cmp=%s (has extras) }\n", argv[4]);
		if (rc)
			printf("Error type 3\nError: Activity class {%s} does not exist.\n", argv[4]);
		return 0;
	}
	if (!strcmp(c, "am") && argc == 4 && !strcmp(argv[1], "start") && !strcmp(argv[2], "-n")) {
		char pkg[256];
		snprintf(pkg, sizeof pkg, "%.*s", (int)strcspn(argv[3], "/"), argv[3]);
		printf("Starting: Intent { cmp=%s }\n", argv[3]);
		if (d->ops->launch_app(d, pkg, &e) != 0) {
			printf("Error type 3\nError: Activity class {%s} does not exist.\n", argv[3]);
			return 0;
		}
		return 0;
	}
	if (!strcmp(c, "monkey") && argc == 6 && !strcmp(argv[1], "-p")) {
		if (d->ops->launch_app(d, argv[2], &e) != 0) {
			printf("  bash arg: -p\n  bash arg: %s\n** No activities found to run, monkey aborted.\n", argv[2]);
			return 0; /* as on phones: success status, failure in the text */
		}
		printf("  bash arg: -p\n  bash arg: %s\nEvents injected: 1\n## Network stats: elapsed time=10ms\n", argv[2]);
		return 0;
	}
	/* list_apps, stop_app and clear_app (adb.c, adb_set.c) */
	if (!strcmp(c, "pm") && argc == 3 && !strcmp(argv[1], "list") && !strcmp(argv[2], "packages")) {
		char *ids = NULL;
		if (d->ops->list_apps(d, &ids, &e) != 0)
			return 1;
		for (char *p = ids, *nl; p && *p; p = nl) {
			nl = strchr(p, '\n');
			if (nl)
				*nl++ = '\0';
			printf("package:%s\n", p);
		}
		printf("package:com.android.systemui\n"); /* a phone lists more than it can launch */
		free(ids);
		return 0;
	}
	if (!strcmp(c, "pm") && argc == 3 && !strcmp(argv[1], "clear")) {
		printf(d->ops->manage_app(d, argv[2], AMC_APP_CLEAR_STATE, NULL, &e) == 0 ? "Success\n" : "Failed\n");
		return 0;
	}
	if (!strcmp(c, "am") && argc == 3 && (!strcmp(argv[1], "force-stop") || !strcmp(argv[1], "kill"))) {
		d->ops->manage_app(d, argv[2], AMC_APP_STOP, NULL, &e); /* silent, as am is for any name */
		return 0;
	}
	if (!strcmp(c, "dumpsys") && argc == 2 && !strcmp(argv[1], "window")) {
		cJSON *st = sim_state(d);
		const cJSON *app = st ? cJSON_GetObjectItemCaseSensitive(st, "app") : NULL;
		const char *pkg = cJSON_IsString(app) ? app->valuestring : "com.android.launcher3";
		printf("WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mCurrentFocus=Window{1f2e3d u0 %s/%s.MainActivity}\n"
		       "  mFocusedApp=ActivityRecord{9a8b7c u0 %s/.MainActivity t42}\n", pkg, pkg, pkg);
		cJSON_Delete(st);
		return 0;
	}
	if (!strcmp(c, "uiautomator") && argc == 3 && !strcmp(argv[1], "dump")) {
		char *xml = NULL;
		size_t len;
		if (d->ops->ui_tree(d, &xml, &len, &e) != 0) {
			printf("ERROR: null root node returned by UiTestAutomationBridge.\n");
			return 0;
		}
		char path[PATH_MAX + 64];
		snprintf(path, sizeof path, "%s/window_dump.xml", dir);
		FILE *f = fopen(path, "w");
		if (f) {
			fwrite(xml, 1, len, f);
			fclose(f);
		}
		free(xml);
		printf("UI hierchary dumped to: %s\n", argv[2]);
		return 0;
	}
	fprintf(stderr, "/system/bin/sh: %s: inaccessible or not found\n", c);
	return 127;
}

static int do_shell(amc_device *d, int argc, char **argv)
{
	amc_sb joined;
	amc_sb_init(&joined);
	for (int i = 0; i < argc; i++) {
		if (i)
			amc_sb_putc(&joined, ' ');
		amc_sb_puts(&joined, argv[i]);
	}
	parse ps = { 0 };
	parse_shell(amc_sb_str(&joined), &ps);
	amc_sb_free(&joined);
	int rc = ps.error ? 2 : 0;
	for (int i = 0; i < ps.n; i++) {
		cmd *c = &ps.cmds[i];
		if (c->argc == 0)
			continue;
		for (int k = 0; k < c->argc; k++)
			logf_(k ? " [%s]%s" : "COMMAND [%s]%s", c->argv[k], NULL);
		logf_("\n%s%s", "", NULL);
		if (!ps.error)
			rc = run_cmd(d, c->argc, c->argv);
		for (int k = 0; k < c->argc; k++)
			free(c->argv[k]);
		free(c->argv);
	}
	free(ps.cmds);
	return rc;
}

static int devices(void)
{
	const char *list = getenv("AMC_ADB_STANDIN_SERIALS");
	const char *unauth = getenv("AMC_ADB_STANDIN_UNAUTHORIZED");
	if (!list || !*list)
		list = "emulator-5554";
	printf("List of devices attached\n");
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		char serial[128];
		snprintf(serial, sizeof serial, "%.*s", (int)n, p);
		if (!vanished(serial))
			printf("%-22s device product:sdk_gphone64_x86_64 model:amc_sim_adb device:emu64xa transport_id:%d\n",
			       serial, serial_index(serial) + 1);
		p += n;
		if (*p == ',')
			p++;
	}
	if (unauth && *unauth)
		printf("%-22s unauthorized transport_id:9\n", unauth);
	printf("\n");
	return 0;
}

/* Over 120 lines: adb's global options (-s, -P, -H), the serial checks and
 * the fault switches tests set come before any command, in adb's order. */
int main(int argc, char **argv)
{
	started_us = amc_mono_us();
	home = getenv("AMC_HOME");
	if (!home || !*home) {
		fprintf(stderr, "adb stand-in: AMC_HOME is not set\n");
		return 1;
	}
	snprintf(dir, sizeof dir, "%s/adb-standin", home);
	if (amc_mkdir_p(dir, 0700, NULL) != 0)
		return 1;
	count_call();
	amc_err e;
	if (amc_config_load(&cfg, &e) != 0) {
		fprintf(stderr, "adb stand-in: %s\n", e.msg);
		return 1;
	}
	int i = 1;
	const char *serial = NULL;
	if (i + 1 < argc && !strcmp(argv[i], "-s")) {
		serial = argv[i + 1];
		i += 2;
	}
	if (i >= argc) {
		fprintf(stderr, "adb stand-in: no command\n");
		return 1;
	}
	if (!strcmp(argv[i], "devices"))
		return devices();
	if (!serial) {
		const char *list = getenv("AMC_ADB_STANDIN_SERIALS");
		serial = list && *list ? list : "emulator-5554";
		if (strchr(serial, ',')) {
			fprintf(stderr, "adb: error: more than one device/emulator\n");
			return 1;
		}
	}
	const char *unauth = getenv("AMC_ADB_STANDIN_UNAUTHORIZED");
	if (unauth && !strcmp(unauth, serial)) {
		fprintf(stderr, "adb: device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\n");
		return 1;
	}
	int idx = serial_index(serial);
	if (idx < 0 || vanished(serial)) {
		fprintf(stderr, "adb: error: device '%s' not found\n", serial);
		return 1;
	}
	const char *what = argv[i];
	if (!strcmp(what, "get-state")) {
		printf("device\n");
		return 0;
	}
	amc_device *d = open_sim(idx);
	if (!d)
		return 1;
	int rc = 1;
	if (!strcmp(what, "exec-out") && argc - i == 3 && !strcmp(argv[i + 1], "screencap") &&
	    !strcmp(argv[i + 2], "-p")) {
		rc = screencap(d, 0);
	} else if (!strcmp(what, "exec-out") && argc - i == 2 && !strcmp(argv[i + 1], "screencap")) {
		rc = screencap(d, 1);
	} else if (!strcmp(what, "exec-out") && argc - i == 4 && !strcmp(argv[i + 1], "uiautomator") &&
		   !strcmp(argv[i + 2], "dump") && !strcmp(argv[i + 3], "/dev/tty")) {
		const char *mode = getenv("AMC_ADB_STANDIN_TTY_DUMP");
		model_ms = latency("dump_ms");
		char *xml = NULL;
		size_t len = 0;
		if (mode && !strcmp(mode, "fail")) {
			printf("ERROR: could not get idle state.\n");
			rc = 0;
		} else if (d->ops->ui_tree(d, &xml, &len, &e) == 0) {
			fwrite(xml, 1, len, stdout);
			free(xml);
			rc = 0;
		} else {
			printf("ERROR: null root node returned by UiTestAutomationBridge.\n");
			rc = 0;
		}
		printf("UI hierchary dumped to: /dev/tty\n");
	} else if (!strcmp(what, "exec-out") && argc - i == 3 && !strcmp(argv[i + 1], "cat")) {
		char path[PATH_MAX + 64];
		snprintf(path, sizeof path, "%s/window_dump.xml", dir);
		if (strcmp(argv[i + 2], "/sdcard/window_dump.xml")) {
			printf("cat: %s: No such file or directory\n", argv[i + 2]);
		} else {
			FILE *f = fopen(path, "r");
			if (f) {
				char buf[65536];
				size_t n;
				while ((n = fread(buf, 1, sizeof buf, f)) > 0)
					fwrite(buf, 1, n, stdout);
				fclose(f);
				rc = 0;
			} else {
				printf("cat: /sdcard/window_dump.xml: No such file or directory\n");
			}
		}
	} else if (!strcmp(what, "push") && argc - i == 3) {
		/* a picture pushed to the phone shows in the sim's Files app */
		logf_("PUSH %s", argv[i + 1], NULL);
		logf_(" %s\n", argv[i + 2], NULL);
		if (strncmp(argv[i + 2], "/sdcard/", 8)) {
			fprintf(stderr, "adb: error: failed to copy '%s' to '%s': Permission denied\n", argv[i + 1],
				argv[i + 2]);
		} else if (d->ops->set(d, AMC_SET_ADD_MEDIA, argv[i + 1], &e) != 0) {
			fprintf(stderr, "adb: error: cannot stat '%s': No such file or directory\n", argv[i + 1]);
		} else {
			printf("%s: 1 file pushed, 0 skipped.\n", argv[i + 1]);
			rc = 0;
		}
	} else if (!strcmp(what, "pull") && argc - i == 3) {
		char file[PATH_MAX + 64];
		sd_path(file, sizeof file, argv[i + 1]);
		logf_("PULL %s", argv[i + 1], NULL);
		logf_(" %s\n", argv[i + 2], NULL);
		char *buf = NULL;
		size_t n = 0;
		if (strncmp(argv[i + 1], "/sdcard/", 8) || amc_read_file(file, 64u << 20, &buf, &n, &e) != 0) {
			fprintf(stderr, "adb: error: failed to stat remote object '%s': No such file or directory\n",
				argv[i + 1]);
		} else if (amc_write_replace(argv[i + 2], buf, n, 0600, &e) != 0) {
			fprintf(stderr, "adb: error: cannot create '%s': %s\n", argv[i + 2], e.msg);
		} else {
			printf("%s: 1 file pulled, 0 skipped.\n", argv[i + 1]);
			rc = 0;
		}
		free(buf);
	} else if (!strcmp(what, "install") && argc - i == 3 && !strcmp(argv[i + 1], "-r")) {
		/* install_app: a file that starts as a zip (an APK is one) installs */
		logf_("INSTALL %s\n", argv[i + 2], NULL);
		FILE *f = fopen(argv[i + 2], "rb");
		char head[2] = { 0, 0 };
		if (f && fread(head, 1, 2, f) == 2 && head[0] == 'P' && head[1] == 'K') {
			printf("Performing Streamed Install\nSuccess\n");
			rc = 0;
		} else {
			printf("Performing Streamed Install\nadb: failed to install %s: Failure [INSTALL_PARSE_FAILED_NOT_APK: "
			       "Failed to parse %s]\n", argv[i + 2], argv[i + 2]);
		}
		if (f)
			fclose(f);
	} else if (!strcmp(what, "shell") && argc - i >= 2) {
		rc = do_shell(d, argc - i - 1, argv + i + 1);
	} else {
		fprintf(stderr, "adb stand-in: unsupported command line (%s ...)\n", what);
	}
	amc_device_close(d);
	amc_config_free(cfg);
	fflush(stdout);
	keep_model();
	return rc;
}

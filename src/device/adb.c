/* adb.c - the adb driver: argv arrays through amc_proc_run, output parsed
 * defensively (every byte from the phone is untrusted). */
#include "device/adb.h"
#include "device/adb_int.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image/png.h"
#include "image/rawframe.h"
#include "util/base64.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/proc.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

#define ADB_MAX_PNG (64u * 1024u * 1024u)
/* Bytes of text per `input text` call (the device's command line is limited). */
#define ADB_TEXT_CHUNK 400
#define ADB_IME "com.android.adbkeyboard/.AdbIME"
#define ADB_MAX_WAIT_MS 3600000

static int load_info(adb *a, amc_err *e)
{
	if (a->w > 0)
		return 0;
	char *out = NULL;
	const char *size[] = { "wm", "size", NULL };
	if (amc_adb_sh(a, size, &out, e) != 0)
		return -1;
	int w = 0, h = 0;
	if (amc_adb_parse_wm_size(out, &w, &h) != 0) {
		char line[256];
		amc_adb_first_line(out, line, sizeof line);
		free(out);
		return amc_err_set(e, AMC_EENV, "adb %s: cannot read the screen size from `wm size`: %s", a->serial, line);
	}
	free(out);
	const char *model[] = { "getprop", "ro.product.model", NULL };
	if (amc_adb_sh(a, model, &out, e) != 0)
		return -1;
	amc_adb_first_line(out, a->model, sizeof a->model);
	free(out);
	a->w = a->rot & 1 ? h : w;
	a->h = a->rot & 1 ? w : h;
	return 0;
}

static int op_info(amc_device *d, amc_device_info *out, amc_err *e)
{
	adb *a = adb_of(d);
	memset(out, 0, sizeof *out);
	if (load_info(a, e) != 0)
		return -1;
	snprintf(out->id, sizeof out->id, "%s", d->id);
	snprintf(out->kind, sizeof out->kind, "adb");
	snprintf(out->model, sizeof out->model, "%s", a->model[0] ? a->model : "Android");
	out->width = a->w;
	out->height = a->h;
	/* Android's status bar is 24 dp; about 3.5% of a phone's height. */
	out->status_bar_px = (int)lround(a->h * 0.035);
	return 0;
}

/* ---- captures ---- */

static int op_screenshot(amc_device *d, unsigned char **png, size_t *len, amc_err *e)
{
	adb *a = adb_of(d);
	*png = NULL;
	*len = 0;
	const char *args[] = { "exec-out", "screencap", "-p", NULL };
	amc_proc_result r;
	if (amc_adb_run(a, args, ADB_MAX_PNG, &r, e) != 0)
		return -1;
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	size_t off = 0;
	while (off + 8 <= r.out_len && off < 1024 && memcmp(r.out + off, sig, 8))
		off++;
	if (r.out_truncated || off + 8 > r.out_len || memcmp(r.out + off, sig, 8)) {
		char line[256];
		amc_adb_first_line(r.err_len ? r.err : "", line, sizeof line);
		amc_err_set(e, AMC_EENV, "adb %s: screencap gave no PNG (exit %d%s%s)", a->serial, r.exit_code,
			    line[0] ? ": " : "", line);
		amc_proc_result_free(&r);
		return -1;
	}
	*len = r.out_len - off;
	memmove(r.out, r.out + off, *len);
	*png = r.out;
	free(r.err);
	return 0;
}

/* defined with the other ops below */
static const amc_device_ops ADB_OPS, ADB_PNG_OPS;

/* A PNG screenshot as pixels (the PNG itself is not kept). */
static int png_frame(amc_device *d, amc_image *img, amc_err *e)
{
	unsigned char *png = NULL;
	size_t len = 0;
	if (op_screenshot(d, &png, &len, e) != 0)
		return -1;
	int rc = amc_png_decode(png, len, img, e);
	free(png);
	return rc == 0 ? 0 : amc_err_prefix(e, "%s sent a screenshot that is not a valid PNG", d->id);
}

/* `exec-out screencap` without -p: the pixels as the phone has them, strictly
 * checked (rawframe.c). 1 when the phone answered but the frame was refused. */
static int raw_frame(amc_device *d, amc_image *img, amc_err *e)
{
	adb *a = adb_of(d);
	const char *args[] = { "exec-out", "screencap", NULL };
	amc_proc_result r;
	if (amc_adb_run(a, args, ADB_MAX_PNG, &r, e) != 0)
		return -1;
	amc_err pe;
	int rc = r.exit_code == 0 && !r.out_truncated && amc_rawframe_decode(r.out, r.out_len, img, NULL, &pe) == 0;
	if (!rc)
		amc_log_warn("adb %s: raw screencap refused (%s); using screencap -p from now on", a->serial,
			     r.exit_code ? "it failed" : r.out_truncated ? "too large" : pe.msg);
	amc_proc_result_free(&r);
	return rc ? 0 : 1;
}

static void use_png(amc_device *d)
{
	snprintf(adb_of(d)->capture, sizeof adb_of(d)->capture, "png");
	amc_device_set_driver(d, &ADB_PNG_OPS);
}

static int op_frame(amc_device *d, amc_image *img, amc_err *e)
{
	adb *a = adb_of(d);
	long long t0 = amc_mono_us();
	int rc = raw_frame(d, img, e);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		use_png(d);
		return png_frame(d, img, e);
	}
	if (strcmp(a->capture, "auto"))
		return 0;
	/* auto: one raw and one PNG capture, and the faster one from now on (a
	 * 1080x2400 raw frame is 10 MB: slower than a PNG over USB 2 or Wi-Fi) */
	long long t_raw = amc_mono_us() - t0;
	amc_image pimg = { 0 };
	t0 = amc_mono_us();
	if (png_frame(d, &pimg, e) != 0) {
		amc_image_free(img);
		return -1;
	}
	long long t_png = amc_mono_us() - t0;
	amc_log_info("adb %s: raw frame %.1f ms, PNG %.1f ms: using %s", a->serial, t_raw / 1e3, t_png / 1e3,
		     t_png < t_raw ? "PNG" : "raw");
	if (t_png < t_raw) {
		use_png(d);
		amc_image_free(img);
		*img = pimg;
	} else {
		snprintf(a->capture, sizeof a->capture, "raw");
		amc_image_free(&pimg);
	}
	return 0;
}

const char *amc_adb_capture_mode(const amc_device *d)
{
	const amc_device_ops *o = amc_device_driver(d);
	return o == &ADB_OPS || o == &ADB_PNG_OPS ? adb_of((amc_device *)d)->capture : "";
}

/* The XML inside a dump's output: from "<?xml" (or "<hierarchy") to the end of
 * the last "</hierarchy>"; what adb prints around it (the misspelled "UI
 * hierchary dumped to" line) is dropped. NULL when there is no tree. */
static char *cut_xml(const char *s, size_t len, size_t *out_len)
{
	const char *start = NULL, *end = NULL;
	for (size_t i = 0; i + 5 <= len; i++)
		if (!memcmp(s + i, "<?xml", 5) || (i + 10 <= len && !memcmp(s + i, "<hierarchy", 10))) {
			start = s + i;
			break;
		}
	for (size_t i = len; start && i >= 12 && s + i - 12 >= start; i--)
		if (!memcmp(s + i - 12, "</hierarchy>", 12)) {
			end = s + i;
			break;
		}
	if (!start || !end)
		return NULL;
	*out_len = (size_t)(end - start);
	char *x = malloc(*out_len + 1);
	if (!x)
		return NULL;
	memcpy(x, start, *out_len);
	x[*out_len] = '\0';
	return x;
}

static int op_ui_tree(amc_device *d, char **xml, size_t *len, amc_err *e)
{
	adb *a = adb_of(d);
	*xml = NULL;
	*len = 0;
	const char *tty[] = { "exec-out", "uiautomator", "dump", "/dev/tty", NULL };
	amc_proc_result r;
	if (amc_adb_run(a, tty, ADB_MAX_TEXT, &r, e) != 0)
		return -1;
	char why[256] = "";
	if (!r.out_truncated && (*xml = cut_xml((const char *)r.out, r.out_len, len))) {
		amc_proc_result_free(&r);
		return 0;
	}
	amc_adb_first_line(strstr((const char *)r.out, "ERROR") ? strstr((const char *)r.out, "ERROR") : r.err, why, sizeof why);
	amc_proc_result_free(&r);
	/* Fallback: dump to a file on the phone and read it back. */
	const char *file[] = { "uiautomator", "dump", "/sdcard/window_dump.xml", NULL };
	char *out = NULL;
	if (amc_adb_sh(a, file, &out, e) == 0) {
		free(out);
		const char *cat[] = { "exec-out", "cat", "/sdcard/window_dump.xml", NULL };
		if (amc_adb_run(a, cat, ADB_MAX_TEXT, &r, e) != 0)
			return -1;
		if (!r.out_truncated && r.exit_code == 0 && (*xml = cut_xml((const char *)r.out, r.out_len, len))) {
			amc_proc_result_free(&r);
			return 0;
		}
		amc_proc_result_free(&r);
	} else if (e && e->code == AMC_EENV) {
		return -1;
	}
	return amc_err_set(e, AMC_EENV, "adb %s: uiautomator dump failed (%s)%s", a->serial,
			   why[0] ? why : "no tree in its output",
			   strstr(why, "already registered") ? "; an Appium UiAutomator2 session holds uiautomator: end it"
			   : "; the screen may be animating, try again");
}

/* ---- input ---- */

static int check_xy(adb *a, const char *what, int x, int y, amc_err *e)
{
	if (load_info(a, e) != 0)
		return -1;
	if (x < 0 || y < 0 || x >= a->w || y >= a->h)
		return amc_err_set(e, AMC_EUSAGE, "%s at %d,%d is off the %dx%d screen of %s", what, x, y, a->w, a->h,
				   a->serial);
	return 0;
}

static int shell_input(adb *a, const char *const *words, amc_err *e)
{
	char *out = NULL;
	if (amc_adb_sh(a, words, &out, e) != 0)
		return -1;
	/* `input` reports bad arguments on stdout with exit 0 on old Androids. */
	int bad = out && (strstr(out, "Exception") || strstr(out, "Error:"));
	if (bad) {
		char line[256];
		amc_adb_first_line(out, line, sizeof line);
		free(out);
		return amc_err_set(e, AMC_EFAIL, "adb %s: input %s failed: %s", a->serial, words[1], line);
	}
	free(out);
	return 0;
}

static int op_tap(amc_device *d, int x, int y, amc_err *e)
{
	adb *a = adb_of(d);
	if (check_xy(a, "tap", x, y, e) != 0)
		return -1;
	char sx[16], sy[16];
	snprintf(sx, sizeof sx, "%d", x);
	snprintf(sy, sizeof sy, "%d", y);
	const char *w[] = { "input", "tap", sx, sy, NULL };
	return shell_input(a, w, e);
}

static int swipe(adb *a, int x1, int y1, int x2, int y2, int ms, amc_err *e)
{
	if (ms < 1 || ms > 60000)
		return amc_err_set(e, AMC_EUSAGE, "gesture duration %d ms is out of range (1-60000)", ms);
	char v[5][16];
	snprintf(v[0], 16, "%d", x1);
	snprintf(v[1], 16, "%d", y1);
	snprintf(v[2], 16, "%d", x2);
	snprintf(v[3], 16, "%d", y2);
	snprintf(v[4], 16, "%d", ms);
	const char *w[] = { "input", "swipe", v[0], v[1], v[2], v[3], v[4], NULL };
	return shell_input(a, w, e);
}

static int op_long_press(amc_device *d, int x, int y, int ms, amc_err *e)
{
	adb *a = adb_of(d);
	if (check_xy(a, "long press", x, y, e) != 0)
		return -1;
	return swipe(a, x, y, x, y, ms, e);
}

static int op_swipe(amc_device *d, int x1, int y1, int x2, int y2, int ms, amc_err *e)
{
	adb *a = adb_of(d);
	if (check_xy(a, "swipe start", x1, y1, e) != 0 || check_xy(a, "swipe end", x2, y2, e) != 0)
		return -1;
	return swipe(a, x1, y1, x2, y2, ms, e);
}

static int op_key(amc_device *d, amc_key k, amc_err *e)
{
	/* By number: KEYCODE_DEL and the others are the same numbers on every Android. */
	if (k == AMC_KEY_HIDE_KEYBOARD) {
		/* back closes the keyboard when it is up, and the screen when it is not: ask first */
		const char *q[] = { "dumpsys", "input_method", NULL };
		char *out = NULL;
		if (amc_adb_sh(adb_of(d), q, &out, e) != 0)
			return -1;
		int shown = out && strstr(out, "mInputShown=true");
		free(out);
		if (!shown)
			return 0;
		k = AMC_KEY_BACK;
	}
	int code = amc_key_android_code(k);
	if (code < 0)
		return amc_err_set(e, AMC_EUSAGE, "unknown key %d", (int)k);
	char num[16];
	snprintf(num, sizeof num, "%d", code);
	const char *w[] = { "input", "keyevent", num, NULL };
	return shell_input(adb_of(d), w, e);
}

char *amc_adb_quote_input_text(const char *text)
{
	if (!text || strstr(text, "%s"))
		return NULL;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_putc(&sb, '\'');
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p >= 0x80 || (*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f) {
			amc_sb_free(&sb);
			return NULL;
		}
		if (*p == ' ')
			amc_sb_puts(&sb, "%s");
		else if (*p == '\'')
			amc_sb_puts(&sb, "'\\''");
		else
			amc_sb_putc(&sb, (char)*p);
	}
	amc_sb_putc(&sb, '\'');
	return amc_sb_detach(&sb);
}

/* Text `input text` cannot type: through the ADBKeyBoard IME, when it is the
 * current keyboard. */
static int type_with_ime(adb *a, const char *text, amc_err *e)
{
	char *out = NULL;
	const char *q[] = { "settings", "get", "secure", "default_input_method", NULL };
	if (amc_adb_sh(a, q, &out, e) != 0)
		return -1;
	int have = strstr(out, ADB_IME) != NULL;
	free(out);
	if (!have)
		return amc_err_set(e, AMC_EFAIL,
				   "adb %s: `input text` cannot type this text (non-ASCII characters, control bytes or "
				   "a literal %%s) and the ADBKeyBoard IME is not the current keyboard; install it "
				   "(https://github.com/senzhk/ADBKeyBoard): adb -s %s install ADBKeyboard.apk && "
				   "adb -s %s shell ime enable " ADB_IME " && adb -s %s shell ime set " ADB_IME,
				   a->serial, a->serial, a->serial, a->serial);
	char *b64 = amc_base64_encode(text, strlen(text));
	const char *w[] = { "am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", b64, NULL };
	int rc = amc_adb_sh(a, w, &out, e);
	free(b64);
	if (rc != 0)
		return -1;
	int okay = strstr(out, "Broadcast completed") != NULL;
	free(out);
	if (!okay)
		return amc_err_set(e, AMC_EFAIL, "adb %s: the ADBKeyBoard broadcast was not delivered", a->serial);
	return 0;
}

static int op_type_text(amc_device *d, const char *utf8, amc_err *e)
{
	adb *a = adb_of(d);
	if (!utf8)
		return amc_err_set(e, AMC_EUSAGE, "no text given to type");
	size_t len = strlen(utf8);
	if (len > 65536)
		return amc_err_set(e, AMC_EUSAGE, "text of %zu bytes is too long to type (65536 at most)", len);
	char *all = amc_adb_quote_input_text(utf8);
	if (!all)
		return type_with_ime(a, utf8, e);
	free(all);
	/* ASCII only from here: chunks can be cut anywhere. */
	for (size_t off = 0; off < len || len == 0;) {
		size_t n = len - off > ADB_TEXT_CHUNK ? ADB_TEXT_CHUNK : len - off;
		char part[ADB_TEXT_CHUNK + 1];
		memcpy(part, utf8 + off, n);
		part[n] = '\0';
		char *q = amc_adb_quote_input_text(part);
		const char *w[] = { "input", "text", q, NULL };
		int rc = shell_input(a, w, e);
		free(q);
		if (rc != 0)
			return -1;
		off += n;
		if (len == 0)
			break;
	}
	return 0;
}


static int op_launch_app(amc_device *d, const char *app_id, amc_err *e)
{
	adb *a = adb_of(d);
	if (!amc_adb_app_id_valid(app_id)) {
		char *s = amc_sanitize_dup(app_id ? app_id : "");
		amc_err_set(e, AMC_EUSAGE, "'%.200s' is not an Android package (com.example.app) or component "
			    "(com.example.app/.MainActivity)", s);
		free(s);
		return -1;
	}
	char *out = NULL;
	if (strchr(app_id, '/')) {
		const char *w[] = { "am", "start", "-n", app_id, NULL };
		if (amc_adb_sh(a, w, &out, e) != 0)
			return -1;
	} else {
		const char *w[] = { "monkey", "-p", app_id, "-c", "android.intent.category.LAUNCHER", "1", NULL };
		if (amc_adb_sh(a, w, &out, e) != 0)
			return -1;
	}
	/* Both may exit 0 on failure: their output tells. */
	const char *bad = strstr(out, "No activities found");
	if (!bad)
		bad = strstr(out, "monkey aborted");
	if (!bad)
		bad = strstr(out, "Error");
	if (bad) {
		char line[256];
		amc_adb_first_line(bad, line, sizeof line);
		free(out);
		return amc_err_set(e, AMC_EFAIL, "app '%s' could not be started on %s (%s); is it installed? "
			    "(`adb -s %s shell pm list packages`)", app_id, a->serial, line, a->serial);
	}
	free(out);
	return 0;
}

/* A link for the device shell: printable ASCII without quotes or spaces, in
 * single quotes (the words of adb shell are joined and run by the phone's sh). */
static char *link_word(const char *link)
{
	size_t n = link ? strlen(link) : 0;
	if (n == 0 || n > 2000)
		return NULL;
	for (const char *c = link; *c; c++)
		if ((unsigned char)*c <= 0x20 || (unsigned char)*c >= 0x7f || *c == '\'' || *c == '\\')
			return NULL;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "'%s'", link);
	return amc_sb_detach(&sb);
}

static int op_manage_app(amc_device *d, const char *app_id, amc_app_op op, const char *arg, amc_err *e)
{
	adb *a = adb_of(d);
	if (op == AMC_APP_INSTALL)
		return amc_adb_install(d, arg, e);
	if ((op != AMC_APP_OPEN_LINK || app_id) && (!amc_adb_app_id_valid(app_id) || strchr(app_id, '/'))) {
		char *s = amc_sanitize_dup(app_id ? app_id : "");
		amc_err_set(e, AMC_EUSAGE, "'%.200s' is not an Android package (com.example.app)", s);
		free(s);
		return -1;
	}
	char *out = NULL, *lw = NULL;
	int rc = 0;
	switch (op) {
	case AMC_APP_INSTALL: /* above */
		break;
	case AMC_APP_PERMISSIONS:
		return amc_adb_permissions(d, app_id, arg, e);
	case AMC_APP_LAUNCH_ARGS:
		return amc_adb_launch_args(d, app_id, arg, e);
	case AMC_APP_CLEAR_STATE: {
		const char *w[] = { "pm", "clear", app_id, NULL };
		rc = amc_adb_sh(a, w, &out, e);
		if (rc == 0 && (!out || !strstr(out, "Success"))) {
			char line[256];
			amc_adb_first_line(out ? out : "", line, sizeof line);
			rc = amc_err_set(e, AMC_EFAIL, "pm clear %s failed on %s: %s", app_id, a->serial,
					 line[0] ? line : "no answer");
		}
		break;
	}
	case AMC_APP_KILL: {
		/* as the system kills a background app, then for certain */
		const char *w[] = { "am", "kill", app_id, NULL };
		rc = amc_adb_sh(a, w, &out, e);
		free(out);
		out = NULL;
	}
		/* fall through */
	case AMC_APP_STOP: {
		const char *w[] = { "am", "force-stop", app_id, NULL };
		if (rc == 0)
			rc = amc_adb_sh(a, w, &out, e);
		break;
	}
	case AMC_APP_OPEN_LINK: {
		lw = link_word(arg);
		if (!lw) {
			rc = amc_err_set(e, AMC_EUSAGE, "a link must be 1 to 2000 printable characters without spaces, "
					 "quotes or backslashes");
			break;
		}
		const char *w[] = { "am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", lw, app_id, NULL };
		rc = amc_adb_sh(a, w, &out, e);
		if (rc == 0 && out && strstr(out, "Error")) {
			char line[256];
			amc_adb_first_line(strstr(out, "Error"), line, sizeof line);
			rc = amc_err_set(e, AMC_EFAIL, "the link could not be opened on %s: %s", a->serial, line);
		}
		break;
	}
	}
	free(out);
	free(lw);
	return rc;
}

static int op_wait(amc_device *d, int ms, amc_err *e)
{
	(void)d;
	if (ms < 0 || ms > ADB_MAX_WAIT_MS)
		return amc_err_set(e, AMC_EUSAGE, "wait of %d ms is out of range (0-%d)", ms, ADB_MAX_WAIT_MS);
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
	return 0;
}

static int op_health(amc_device *d, amc_err *e)
{
	adb *a = adb_of(d);
	const char *args[] = { "get-state", NULL };
	amc_proc_result r;
	if (amc_adb_run(a, args, 4096, &r, e) != 0)
		return -1;
	int okay = r.exit_code == 0 && !strncmp((const char *)r.out, "device", 6);
	char line[256];
	amc_adb_first_line(okay ? "" : r.err_len ? r.err : (const char *)r.out, line, sizeof line);
	amc_proc_result_free(&r);
	if (!okay)
		return amc_err_set(e, AMC_EENV, "adb device %s is not ready (%s); check `adb devices`", a->serial,
				   line[0] ? line : "unknown state");
	return 0;
}

static void op_close(amc_device *d)
{
	free(adb_of(d));
}

static int op_frame(amc_device *d, amc_image *img, amc_err *e);

/* Raw frames (`frame`) or PNG screenshots only: a device switches to the
 * second table when raw frames do not pay or are refused, so observing takes
 * the PNG the phone made and never encodes it again. */
#define ADB_COMMON_OPS \
	.kind = "adb", .info = op_info, .screenshot = op_screenshot, .ui_tree = op_ui_tree, \
	.tap = op_tap, .long_press = op_long_press, .swipe = op_swipe, .type_text = op_type_text, \
	.key = op_key, .launch_app = op_launch_app, .wait = op_wait, .health = op_health, \
	.manage_app = op_manage_app, .set = amc_adb_set, .double_tap = amc_adb_double_tap, \
	.get = amc_adb_get, .record_start = amc_adb_record_start, .record_stop = amc_adb_record_stop, \
	.list_apps = amc_adb_list_apps, \
	.close = op_close
static const amc_device_ops ADB_OPS = { ADB_COMMON_OPS, .frame = op_frame };
static const amc_device_ops ADB_PNG_OPS = { ADB_COMMON_OPS };

int amc_adb_serial_valid(const char *serial)
{
	size_t n = serial ? strlen(serial) : 0;
	if (n == 0 || n >= 120 || serial[0] == '-' ||
	    strspn(serial, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-") != n)
		return -1;
	return 0;
}

int amc_adb_open(const char *serial, const amc_config *cfg, amc_device **out, amc_err *e)
{
	*out = NULL;
	if (amc_adb_serial_valid(serial) != 0) {
		char *s = amc_sanitize_dup(serial ? serial : "");
		amc_err_set(e, AMC_EUSAGE, "'%.100s' is not an adb serial (letters, digits, '.', '_', ':', '-')", s);
		free(s);
		return -1;
	}
	adb *a = calloc(1, sizeof *a);
	if (!a)
		return amc_err_set(e, AMC_EENV, "out of memory");
	snprintf(a->serial, sizeof a->serial, "%s", serial);
	snprintf(a->prog, sizeof a->prog, "%s", cfg ? amc_config_str(cfg, "adb", "path") : "adb");
	a->timeout_ms = cfg ? amc_config_int(cfg, "adb", "timeout_ms") : 20000;
	snprintf(a->capture, sizeof a->capture, "%s", cfg ? amc_config_str(cfg, "adb", "capture") : "auto");
	a->dev.ops = strcmp(a->capture, "png") ? &ADB_OPS : &ADB_PNG_OPS;
	a->dev.impl = a;
	snprintf(a->dev.id, sizeof a->dev.id, "adb:%s", serial);
	if (op_health(&a->dev, e) != 0) {
		free(a);
		return -1;
	}
	*out = &a->dev;
	return 0;
}

int amc_adb_foreground_app(amc_device *d, char **pkg, amc_err *e)
{
	*pkg = NULL;
	if (!*amc_adb_capture_mode(d))
		return amc_err_set(e, AMC_EUSAGE, "%s is not an adb device", d->id);
	adb *a = adb_of(d);
	char *out = NULL;
	const char *w[] = { "dumpsys", "window", NULL };
	if (amc_adb_sh(a, w, &out, e) != 0)
		return -1;
	*pkg = amc_adb_parse_focus(out);
	free(out);
	if (*pkg)
		return 0;
	return amc_err_set(e, AMC_EFAIL, "adb %s: no focused app in `dumpsys window`", a->serial);
}


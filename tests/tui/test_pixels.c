/* test_pixels.c - sixel, kitty and iTerm2 output beside ncurses: protocol
 * choice from the setting and the environment (the terminal's reply comes
 * from a pipe), and what an image placement writes: cursor save, position,
 * the protocol's introducer, a payload that decodes to the image's pixels,
 * cursor restore; nothing when nothing changed; removal on hide. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "tuitest.h"
#include "image/image.h"
#include "image/png.h"
#include "tui/pixels.h"
#include "util/fsutil.h"

static int term_in[2], term_out[2];  /* what the terminal says, what we said to it */
static int out[2];                    /* where images are written */

/* Everything readable from fd now (nonblocking), into a static buffer. */
static size_t drain(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	return n;
}

static char sent[1 << 16];
static char wrote[1 << 17];

static amc_tui_pix detect_with(const char *reply, int timeout_ms)
{
	drain(term_in[0], sent, sizeof sent);
	if (reply && *reply && write(term_in[1], reply, strlen(reply)) < 0)
		return (amc_tui_pix)-1;
	amc_tui_pix p = amc_tui_pixels_detect("auto", term_in[0], term_out[1], timeout_ms);
	drain(term_out[0], sent, sizeof sent);
	return p;
}

/* Only the variables a test sets: libchafa reads many. */
static void env_only(const char *a, const char *b)
{
	clearenv();
	if (a)
		putenv((char *)a);
	if (b)
		putenv((char *)b);
}

static void test_detect(void)
{
	is_int(amc_tui_pixels_detect("sixel", term_in[0], term_out[1], 100), AMC_PIX_SIXEL, "sixel as asked");
	is_int(amc_tui_pixels_detect("kitty", term_in[0], term_out[1], 100), AMC_PIX_KITTY, "kitty as asked");
	is_int(amc_tui_pixels_detect("iterm", term_in[0], term_out[1], 100), AMC_PIX_ITERM, "iterm as asked");
	is_int(amc_tui_pixels_detect("symbols", term_in[0], term_out[1], 100), AMC_PIX_NONE, "symbols: no pixels");
	is_int(amc_tui_pixels_detect("none", term_in[0], term_out[1], 100), AMC_PIX_NONE, "none: no pixels");
	is_int(amc_tui_pixels_detect("bogus", term_in[0], term_out[1], 100), AMC_PIX_NONE, "an unknown setting: no pixels");
	is_int(drain(term_out[0], sent, sizeof sent), 0, "an explicit setting sends no query");

	env_only("TERM=xterm-kitty", NULL);
	is_int(detect_with("\033_Gi=31;OK\033\\\033[?62;22c", 5000), AMC_PIX_KITTY, "kitty: the graphics query is answered OK");
	ok(strstr(sent, "\033_Gi=31,") && strstr(sent, "a=q") && strstr(sent, "\033[c"),
	   "a kitty graphics query and DA1 were sent");
	is_int(detect_with("\033[?62;22c", 5000), AMC_PIX_NONE, "kitty claimed but only DA1 answered: symbols");
	is_int(detect_with("", 100), AMC_PIX_NONE, "no reply at all: symbols");

	env_only("TERM=foot", NULL);
	is_int(detect_with("\033[?62;4;22c", 5000), AMC_PIX_SIXEL, "sixel: attribute 4 in the DA1 reply");
	ok(!strstr(sent, "\033_G") && strstr(sent, "\033[c"), "only DA1 is asked when kitty is not suggested");
	is_int(detect_with("\033[?62;22;44c", 5000), AMC_PIX_NONE, "no attribute 4 (44 is not 4): symbols");
	is_int(detect_with("\033[?64;1;2;6;9;15;18;21;22c", 5000), AMC_PIX_NONE, "a long DA1 reply without 4: symbols");

	env_only("TERM=foot", "TMUX=/tmp/tmux-1/default,1,0");
	is_int(detect_with("\033[?62;4c", 100), AMC_PIX_NONE, "inside tmux: never pixels");
	is_int((int)strlen(sent), 0, "and no query is sent through tmux");
	env_only("TERM=foot", "STY=1.pts-0.host");
	is_int(detect_with("\033[?62;4c", 100), AMC_PIX_NONE, "inside screen: never pixels");
	drain(term_in[0], sent, sizeof sent);

	env_only("TERM=xterm-256color", "LC_TERMINAL=iTerm2");
	is_int(detect_with("", 100), AMC_PIX_ITERM, "iTerm2 is trusted from LC_TERMINAL");
	is_int((int)strlen(sent), 0, "without a query");
	env_only("TERM=xterm-256color", "TERM_PROGRAM=iTerm.app");
	is_int(detect_with("", 100), AMC_PIX_ITERM, "or from TERM_PROGRAM");
	env_only("TERM=dumb", NULL);
	is_int(detect_with("", 100), AMC_PIX_NONE, "a terminal that claims nothing: symbols");
	is_int((int)strlen(sent), 0, "nothing is asked");
	is_str(amc_tui_pixels_name(AMC_PIX_SIXEL), "sixel", "name sixel");
	is_str(amc_tui_pixels_name(AMC_PIX_KITTY), "kitty", "name kitty");
	is_str(amc_tui_pixels_name(AMC_PIX_ITERM), "iterm", "name iterm");
	is_str(amc_tui_pixels_name(AMC_PIX_NONE), "symbols", "name symbols");
}

static int b64v(int c)
{
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+') return 62;
	if (c == '/') return 63;
	return -1;
}

/* Decode base64 (padding allowed only at the end); -1 on a bad character. */
static long b64dec(const char *s, size_t n, unsigned char *outb, size_t cap)
{
	size_t o = 0;
	unsigned acc = 0;
	int bits = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '=') {
			for (size_t j = i; j < n; j++)
				if (s[j] != '=')
					return -1;
			break;
		}
		int v = b64v((unsigned char)s[i]);
		if (v < 0)
			return -1;
		acc = acc << 6 | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (o < cap)
				outb[o] = (unsigned char)(acc >> bits);
			o++;
			acc &= (1u << bits) - 1;
		}
	}
	return (long)o;
}

/* Switch protocols with nothing on screen (a real app picks one at start). */
static void use(amc_tui_pix p)
{
	amc_tui_pixels_begin(1);
	amc_tui_pixels_flush();
	amc_tui_pixels_hide();
	amc_tui_pixels_init(p, out[1]);
	drain(out[0], wrote, sizeof wrote);
}

static const unsigned char RED[4] = { 0xff, 0, 0, 0xff };

static char png[3][4200];

/* A 4x4 opaque red PNG (one per protocol: the escape cache is per path and size). */
static void make_png(int k)
{
	amc_image img;
	amc_err e;
	amc_image_alloc(&img, 4, 4, &e);
	for (int i = 0; i < 16; i++)
		memcpy(img.px + i * 4, RED, 4);
	unsigned char *buf;
	size_t len;
	amc_png_encode(&img, 6, &buf, &len, &e);
	snprintf(png[k], sizeof png[k], "%s/red%d.png", test_home_buf, k);
	amc_write_atomic(png[k], buf, len, 0644, &e);
	free(buf);
	amc_image_free(&img);
}

/* One frame: place the image at (y, x, h, w), flush, return what was written. */
static size_t frame(const char *path, int y, int x, int h, int w, int *placed)
{
	amc_tui_pixels_begin(1);
	*placed = amc_tui_pixels_place(path, y, x, h, w);
	amc_tui_pixels_flush();
	return drain(out[0], wrote, sizeof wrote);
}

/* The image between "ESC 7 ESC [row;colH" and "ESC 8"; NULL when the frame is
 * not framed so. */
static const char *body(size_t n, const char *pos, size_t *blen)
{
	size_t pl = strlen(pos);
	if (n < pl + 2 || memcmp(wrote, pos, pl) || memcmp(wrote + n - 2, "\0338", 2))
		return NULL;
	*blen = n - pl - 2;
	return wrote + pl;
}

/* Red and (nearly: libchafa's scaler softens some edge alpha) opaque. */
static int red(const unsigned char *px)
{
	return !memcmp(px, RED, 3) && px[3] >= 0xc0;
}

/* 1 when the decoded bytes hold `npx` red RGBA pixels in a row. */
static int has_red_run(const unsigned char *d, long n, long npx)
{
	for (long i = 0; i + npx * 4 <= n; i++) {
		long k = 0;
		while (k < npx && red(d + i + k * 4))
			k++;
		if (k == npx)
			return 1;
	}
	return 0;
}

static void test_sixel(void)
{
	use(AMC_PIX_SIXEL);
	is_int(amc_tui_pixels_mode(), AMC_PIX_SIXEL, "mode sixel");
	int placed;
	size_t n = frame(png[0], 2, 3, 4, 8, &placed);
	is_int(placed, 0, "sixel: the pane is placed");
	size_t bl;
	const char *b = body(n, "\0337\033[3;4H", &bl);
	ok(b != NULL, "sixel: cursor saved, moved to the pane's cell (1-based), restored");
	if (!b)
		return;
	ok(bl > 4 && !memcmp(b, "\033P", 2) && memchr(b, 'q', 12), "sixel: DCS ... q introducer");
	ok(!memcmp(b + bl - 2, "\033\\", 2), "sixel: ends with ST");
	/* 4x4 pixels in 4 columns x 2 rows of 10x20 cells: 40x40 pixels. */
	ok(strstr(b, "\"1;1;40;"), "sixel: raster attributes give the fitted width (40 px)");
	ok(strstr(b, ";2;100;0;0"), "sixel: a red colour register (RGB percent)");
	n = frame(png[0], 2, 3, 4, 8, &placed);
	is_int(n, 0, "sixel: the same frame again writes nothing");
}

static void test_kitty(void)
{
	use(AMC_PIX_KITTY);
	int placed;
	size_t n = frame(png[1], 5, 0, 4, 8, &placed);
	size_t bl;
	const char *b = body(n, "\0337\033[6;1H", &bl);
	ok(b != NULL, "kitty: framed by cursor save/position/restore");
	if (!b)
		return;
	ok(!memcmp(b, "\033_G", 3), "kitty: APC G introducer");
	ok(strstr(b, "a=T") && strstr(b, "f=32"), "kitty: transmit-and-display of 32-bit RGBA");
	const char *s = strstr(b, "s="), *v = strstr(b, "v=");
	int pw = s ? atoi(s + 2) : 0, ph = v ? atoi(v + 2) : 0;
	ok(pw == 40 && ph == 40, "kitty: 40x40 pixels (s=%d v=%d)", pw, ph);
	/* Decode the payload of every chunk (";" to ST): each is base64 on its own. */
	unsigned char *px = malloc(bl + 4);
	long dn = 0;
	int chunks = 0, bad = 0;
	for (const char *p = b; (p = strstr(p, "\033_G")) != NULL;) {
		const char *st = strstr(p, "\033\\");
		if (!st) {
			bad = 1;
			break;
		}
		const char *semi = memchr(p, ';', (size_t)(st - p));
		if (semi) {
			long k = b64dec(semi + 1, (size_t)(st - semi - 1), px + dn, bl + 4 - (size_t)dn);
			if (k < 0)
				bad = 1;
			else
				dn += k;
		}
		chunks++;
		p = st + 2;
	}
	ok(!bad && chunks >= 2, "kitty: %d chunks, each closed by ST and valid base64", chunks);
	is_int(dn, (long)pw * ph * 4, "kitty: the payload is valid base64 of s*v RGBA pixels");
	if (!ok(dn > 0 && has_red_run(px, dn, (long)pw * ph), "kitty: every pixel is the image's red"))
		for (long i = 0; i + 4 <= dn; i += 4)
			if (!red(px + i)) {
				diag("pixel %ld of %ld: %02x %02x %02x %02x", i / 4, dn / 4, px[i], px[i + 1], px[i + 2], px[i + 3]);
				break;
			}
	free(px);

	n = frame(png[1], 5, 0, 4, 8, &placed);
	is_int(n, 0, "kitty: an unchanged frame writes nothing");
	n = frame(png[1], 6, 0, 4, 8, &placed);
	if (!ok(n > 20 && !memcmp(wrote, "\033_Ga=d,d=A\033\\", 12), "kitty: a moved image is deleted first"))
		diag("wrote %zu bytes: %.40s", n, wrote + 1);
	ok(strstr(wrote, "\033[7;1H") != NULL, "kitty: then drawn at its new place");
	amc_tui_pixels_hide();
	n = drain(out[0], wrote, sizeof wrote);
	is_str(wrote, "\033_Ga=d,d=A\033\\", "kitty: hide deletes every image");
	amc_tui_pixels_hide();
	is_int(drain(out[0], wrote, sizeof wrote), 0, "hiding twice writes nothing");

	/* Placement rules. */
	amc_tui_pixels_begin(0);
	is_int(amc_tui_pixels_place(png[1], 1, 1, 4, 8), -1, "under a dialog: no pixels (symbols instead)");
	amc_tui_pixels_begin(1);
	is_int(amc_tui_pixels_place(png[1], 1, 1, 1, 8), -1, "a pane under 2 rows: symbols");
	is_int(amc_tui_pixels_place(png[1], 1, 1, 4, 1), -1, "a pane under 2 columns: symbols");
	is_int(amc_tui_pixels_place(png[1], LINES - 2, 1, 6, 8), -1, "cut to stay off the last row, under 2 rows: symbols");
	is_int(amc_tui_pixels_place(png[1], LINES - 5, 1, 10, 8), 0, "a pane reaching the last row is cut, not refused");
	is_int(amc_tui_pixels_place(png[1], 1, 20, 4, 8), 0, "a second pane");
	is_int(amc_tui_pixels_place(png[1], 1, 30, 4, 8), 0, "a third pane");
	is_int(amc_tui_pixels_place(png[1], 1, 40, 4, 8), 0, "a fourth pane");
	is_int(amc_tui_pixels_place(png[1], 1, 50, 4, 8), -1, "at most four images a frame");
	amc_tui_pixels_begin(1);
	amc_tui_pixels_flush();
	drain(out[0], wrote, sizeof wrote);

	/* An unreadable file: placed, drawn as nothing, never decoded again. */
	n = frame("/nonexistent/x.png", 1, 1, 4, 8, &placed);
	is_int(placed, 0, "an unreadable file is placed");
	is_str(wrote, "\0337\033[2;2H\0338", "and written as nothing between the cursor moves");
}

static void test_iterm(void)
{
	use(AMC_PIX_ITERM);
	int placed;
	size_t n = frame(png[2], 2, 3, 4, 8, &placed);
	size_t bl;
	const char *b = body(n, "\0337\033[3;4H", &bl);
	ok(b != NULL, "iterm: framed by cursor save/position/restore");
	if (!b)
		return;
	ok(!strncmp(b, "\033]1337;File=", 12) && strstr(b, "inline=1"), "iterm: OSC 1337 File= inline");
	ok(strstr(b, "width=4;") && strstr(b, "height=2;"), "iterm: sized in cells (4x2)");
	const char *colon = strchr(b, ':');
	const char *end = memchr(b, '\a', bl);
	ok(colon && end && end > colon, "iterm: payload between ':' and BEL");
	if (!colon || !end)
		return;
	size_t pn = (size_t)(end - colon - 1);
	unsigned char *d = malloc(pn);
	long dn = b64dec(colon + 1, pn, d, pn);
	ok(dn > 8 && !memcmp(d, "II*\0", 4), "iterm: valid base64 of a little-endian TIFF");
	ok(dn > 0 && has_red_run(d, dn, 40 * 40), "iterm: its pixels are the image's red (40x40)");
	free(d);
}

static void test_worker(void)
{
	int wake[2];
	if (pipe(wake) != 0)
		return;
	use(AMC_PIX_KITTY);
	is_int(amc_tui_pixels_start(wake[1]), 0, "the worker starts");
	int placed;
	/* A size not in the cache: the worker builds it; the frame sends nothing yet. */
	size_t n = frame(png[1], 2, 0, 6, 10, &placed);
	is_int(placed, 0, "placed");
	is_int(n, 0, "off the key path: nothing is written before the worker is done");
	struct pollfd p = { wake[0], POLLIN, 0 };
	ok(poll(&p, 1, 30000) == 1, "the worker wakes the loop");
	char byte = 0;
	ok(read(wake[0], &byte, 1) == 1 && byte == 3, "with byte 3 (a render is ready)");
	n = frame(png[1], 2, 0, 6, 10, &placed);
	ok(n > 0 && strstr(wrote, "\033[3;1H") && strstr(wrote, "\033_Ga=T"), "the next frame sends the image");
	amc_tui_pixels_stop();
	amc_tui_pixels_stop();
	/* Stopped (twice): a size not in the cache is built on the key path again. */
	n = frame(png[1], 2, 0, 5, 9, &placed);
	ok(n > 0 && strstr(wrote, "\033_Ga=T"), "after stopping twice, a frame builds the image itself");
	p.revents = 0;
	is_int(poll(&p, 1, 0), 0, "and no worker wakes the loop any more");
	close(wake[0]);
	close(wake[1]);

	use(AMC_PIX_NONE);
	is_int(amc_tui_pixels_start(wake[1]), 0, "no pixels: no worker, no error");
	amc_tui_pixels_begin(1);
	is_int(amc_tui_pixels_place(png[1], 1, 1, 4, 8), -1, "no pixels: panes draw symbols");
	amc_tui_pixels_flush();
	amc_tui_pixels_hide();
	is_int(drain(out[0], wrote, sizeof wrote), 0, "no pixels: nothing is written");
}

int main(void)
{
	test_home("tuipixels");
	if (pipe(term_in) || pipe(term_out) || pipe(out))
		return 99;
	fcntl(term_in[0], F_SETFL, O_NONBLOCK);
	fcntl(term_out[0], F_SETFL, O_NONBLOCK);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	test_detect();
	env_only("LC_ALL=C.UTF-8", NULL);
	if (tt_screen(80, 24) != 0)
		tap_skip_all("ncurses cannot start an xterm-256color screen");
	for (int k = 0; k < 3; k++)
		make_png(k);
	test_sixel();
	test_kitty();
	test_iterm();
	test_worker();
	tt_screen_end();
	return done_testing();
}

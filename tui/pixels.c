/* pixels.c - sixel, kitty and iTerm2 images beside ncurses (see pixels.h). */
#include <limits.h>
#include <chafa.h>
#include <curses.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "image/png.h"
#include "tui/pixels.h"
#include "util/base64.h"
#include "util/hyperlink.h"
#include "util/log.h"
#include "util/strbuf.h"

#define MAXPLACE 4

typedef struct place {
	char path[PATH_MAX]; /* a longer path could not be opened anyway */
	int y, x, h, w;
} place;

static amc_tui_pix mode;
static int out = -1;
static int cell_w = 10, cell_h = 20;
static place want[MAXPLACE], shown[MAXPLACE];
static int nwant, nshown, allowed;
static ChafaTermInfo *term_info;

/* Rendered escape strings, cached per (path, size). */
typedef struct pcache {
	char path[PATH_MAX];
	int h, w;
	char *seq;
	size_t len;
	int rows;  /* cell rows the image covers */
	unsigned long used;
} pcache;
static pcache cache[8];
static unsigned long tick;

const char *amc_tui_pixels_name(amc_tui_pix p)
{
	switch (p) {
	case AMC_PIX_SIXEL: return "sixel";
	case AMC_PIX_KITTY: return "kitty";
	case AMC_PIX_ITERM: return "iterm";
	default: return "symbols";
	}
}

amc_tui_pix amc_tui_pixels_mode(void)
{
	return mode;
}

/* Read a reply until `until` (a terminator string) shows up or time runs out. */
static void read_reply(int fd, amc_sb *sb, const char *until, int timeout_ms)
{
	for (int waited = 0; waited < timeout_ms;) {
		struct pollfd p = { fd, POLLIN, 0 };
		int r = poll(&p, 1, 20);
		waited += 20;
		if (r <= 0)
			continue;
		char buf[256];
		ssize_t n = read(fd, buf, sizeof buf);
		if (n <= 0)
			return;
		amc_sb_append(sb, buf, (size_t)n);
		const char *s = amc_sb_str(sb);
		const char *d = strstr(s, "\033[?");
		if (d && strchr(d, until[0]))
			return;
	}
}

/* DA1 reply "ESC [ ? 62 ; 4 ; 22 c": attribute 4 means sixel graphics. */
static int da1_has_sixel(const char *s)
{
	const char *d = strstr(s, "\033[?");
	if (!d)
		return 0;
	for (const char *p = d + 3; *p && *p != 'c';) {
		long v = strtol(p, (char **)&p, 10);
		if (v == 4)
			return 1;
		if (*p == ';')
			p++;
		else if (*p != 'c')
			break;
	}
	return 0;
}

amc_tui_pix amc_tui_pixels_detect(const char *setting, int in_fd, int out_fd, int timeout_ms)
{
	if (!strcmp(setting, "sixel"))
		return AMC_PIX_SIXEL;
	if (!strcmp(setting, "kitty"))
		return AMC_PIX_KITTY;
	if (!strcmp(setting, "iterm"))
		return AMC_PIX_ITERM;
	if (strcmp(setting, "auto") != 0)
		return AMC_PIX_NONE;
	if (getenv("TMUX") || getenv("STY")) /* tmux 3.3 / screen: no images through */
		return AMC_PIX_NONE;
	gchar **env = g_get_environ();
	ChafaTermInfo *ti = chafa_term_db_detect(chafa_term_db_get_default(), env);
	g_strfreev(env);
	int kitty = chafa_term_info_have_seq(ti, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1);
	int sixel = chafa_term_info_have_seq(ti, CHAFA_TERM_SEQ_BEGIN_SIXELS);
	int iterm = chafa_term_info_have_seq(ti, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE);
	chafa_term_info_unref(ti);
	if (!kitty && !sixel && !iterm)
		return AMC_PIX_NONE;
	if (iterm && !kitty && !sixel)
		return AMC_PIX_ITERM;
	/* Confirm: a kitty graphics query answered before the DA1 reply, or
	 * sixel in DA1. A terminal that answers neither gets symbols. */
	static const char q_kitty[] = "\033_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\033\\";
	static const char q_da1[] = "\033[c";
	amc_sb r;
	amc_sb_init(&r);
	ssize_t w = 0;
	if (kitty)
		w += write(out_fd, q_kitty, sizeof q_kitty - 1);
	w += write(out_fd, q_da1, sizeof q_da1 - 1);
	(void)w;
	read_reply(in_fd, &r, "c", timeout_ms);
	amc_tui_pix p = AMC_PIX_NONE;
	if (kitty && strstr(amc_sb_str(&r), "\033_Gi=31;OK"))
		p = AMC_PIX_KITTY;
	else if (sixel && da1_has_sixel(amc_sb_str(&r)))
		p = AMC_PIX_SIXEL;
	amc_log_info("tui: graphics: environment suggests%s%s%s; terminal %s",
		     kitty ? " kitty" : "", sixel ? " sixel" : "", iterm ? " iterm" : "",
		     p == AMC_PIX_NONE ? "did not confirm: symbols" : amc_tui_pixels_name(p));
	amc_sb_free(&r);
	return p;
}

void amc_tui_pixels_init(amc_tui_pix p, int out_fd)
{
	mode = p;
	out = out_fd;
	struct winsize ws;
	if (ioctl(out_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row && ws.ws_xpixel >= 2 * ws.ws_col &&
	    ws.ws_ypixel >= 2 * ws.ws_row) {
		cell_w = ws.ws_xpixel / ws.ws_col;
		cell_h = ws.ws_ypixel / ws.ws_row;
	}
	if (p != AMC_PIX_NONE && !term_info) {
		/* The fallback info knows every protocol's sequences; the mode is
		 * chosen above, so use it rather than what the environment claims. */
		term_info = chafa_term_db_get_fallback_info(chafa_term_db_get_default());
	}
}

void amc_tui_pixels_begin(int allow)
{
	nwant = 0;
	allowed = allow;
}

/* The cache and the worker's one-slot queue are shared with the worker
 * thread: pmu guards them. Escape strings are built off the key path (a full
 * capture takes ~45 ms to decode); the main thread only writes them. */
static pthread_mutex_t pmu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pcv = PTHREAD_COND_INITIALIZER;
static pthread_t pworker;
static int pstarted, pstopping, have_job, pwake = -1;
static place pjob;

static pcache *lookup(const char *path, int h, int w)
{
	for (size_t i = 0; i < sizeof cache / sizeof cache[0]; i++)
		if (cache[i].seq && cache[i].h == h && cache[i].w == w && !strcmp(cache[i].path, path)) {
			cache[i].used = ++tick;
			return &cache[i];
		}
	return NULL;
}

/* Decode and encode for the terminal; no lock held (reads settings fixed at init). */
static char *produce(const char *path, int h, int w, size_t *len, int *rows)
{
	amc_image img;
	amc_err e;
	if (amc_png_decode_file(path, &img, &e) != 0)
		return NULL;
	gint cw = w, ch = h;
	chafa_calc_canvas_geometry(img.w, img.h, &cw, &ch, (gfloat)cell_w / (gfloat)cell_h, FALSE, FALSE);
	ChafaCanvasConfig *cfg = chafa_canvas_config_new();
	chafa_canvas_config_set_geometry(cfg, cw, ch);
	chafa_canvas_config_set_cell_geometry(cfg, cell_w, cell_h);
	chafa_canvas_config_set_canvas_mode(cfg, CHAFA_CANVAS_MODE_TRUECOLOR);
	chafa_canvas_config_set_pixel_mode(cfg, mode == AMC_PIX_SIXEL ? CHAFA_PIXEL_MODE_SIXELS :
					   mode == AMC_PIX_KITTY ? CHAFA_PIXEL_MODE_KITTY : CHAFA_PIXEL_MODE_ITERM2);
	ChafaCanvas *cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_RGBA8_UNASSOCIATED, img.px, img.w, img.h, img.w * 4);
	GString *gs = chafa_canvas_print(cv, term_info);
	char *seq = amc_xmalloc(gs->len + 1);
	memcpy(seq, gs->str, gs->len);
	*len = gs->len;
	*rows = ch;
	g_string_free(gs, TRUE);
	chafa_canvas_unref(cv);
	chafa_canvas_config_unref(cfg);
	amc_image_free(&img);
	return seq;
}

/* pmu held. Takes ownership of seq. */
static pcache *insert(const char *path, int h, int w, char *seq, size_t len, int rows)
{
	pcache *lru = &cache[0];
	for (size_t i = 0; i < sizeof cache / sizeof cache[0]; i++)
		if (cache[i].used < lru->used)
			lru = &cache[i];
	free(lru->seq);
	memset(lru, 0, sizeof *lru);
	snprintf(lru->path, sizeof lru->path, "%s", path);
	lru->h = h;
	lru->w = w;
	lru->rows = rows;
	lru->len = len;
	lru->seq = seq;
	lru->used = ++tick;
	return lru;
}

static void *pwork(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pmu);
	for (;;) {
		while (!have_job && !pstopping)
			pthread_cond_wait(&pcv, &pmu);
		if (pstopping)
			break;
		place j = pjob;
		pthread_mutex_unlock(&pmu);
		size_t len = 0;
		int rows = 0;
		char *seq = produce(j.path, j.h, j.w, &len, &rows);
		/* An image that cannot be read is cached as nothing, so it is not
		 * asked for again on every wake. */
		if (!seq)
			seq = amc_xstrdup("");
		pthread_mutex_lock(&pmu);
		if (!lookup(j.path, j.h, j.w))
			insert(j.path, j.h, j.w, seq, len, rows);
		else
			free(seq);
		have_job = 0;
		if (pwake >= 0) {
			char b = 3; /* session.c: a render is ready, draw again */
			ssize_t wr = write(pwake, &b, 1);
			(void)wr;
		}
	}
	pthread_mutex_unlock(&pmu);
	return NULL;
}

int amc_tui_pixels_start(int wake_fd)
{
	if (pstarted || mode == AMC_PIX_NONE)
		return 0;
	pwake = wake_fd;
	pstopping = 0;
	if (pthread_create(&pworker, NULL, pwork, NULL) != 0)
		return -1;
	pstarted = 1;
	return 0;
}

void amc_tui_pixels_stop(void)
{
	if (!pstarted)
		return;
	pthread_mutex_lock(&pmu);
	pstopping = 1;
	pthread_cond_broadcast(&pcv);
	pthread_mutex_unlock(&pmu);
	pthread_join(pworker, NULL);
	pstarted = 0;
	pwake = -1;
	have_job = 0;
}

int amc_tui_pixels_place(const char *abspath, int y, int x, int h, int w)
{
	if (mode == AMC_PIX_NONE || !allowed || nwant == MAXPLACE || h < 2 || w < 2)
		return -1;
	/* Keep off the last row: a sixel that touches it scrolls the screen. */
	if (y + h >= LINES)
		h = LINES - 1 - y;
	if (h < 2)
		return -1;
	place *p = &want[nwant++];
	snprintf(p->path, sizeof p->path, "%s", abspath);
	p->y = y;
	p->x = x;
	p->h = h;
	p->w = w;
	return 0;
}

static void put(const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(out, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

int amc_tui_pixels_osc52(const char *text)
{
	if (out < 0 || !isatty(out))
		return -1;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "\033]52;c;");
	amc_base64_append(&sb, (const unsigned char *)text, strlen(text));
	amc_sb_putc(&sb, '\a');
	put(amc_sb_str(&sb), sb.len);
	amc_sb_free(&sb);
	return 0;
}

void amc_tui_pixels_osc8(int row, int col, const char *abspath)
{
	if (out < 0)
		return;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "\0337\033[%d;%dH\033[0m", row + 1, col + 1);
	amc_hyperlink_wrap(abspath, abspath, &sb);
	amc_sb_puts(&sb, "\0338");
	put(amc_sb_str(&sb), sb.len);
	amc_sb_free(&sb);
}

void amc_tui_pixels_hide(void)
{
	if (mode == AMC_PIX_NONE || !nshown)
		return;
	if (mode == AMC_PIX_KITTY) {
		static const char del[] = "\033_Ga=d,d=A\033\\";
		put(del, sizeof del - 1);
	} else {
		/* Sixel and iTerm2 pixels stay until the cells are rewritten, and
		 * ncurses believes they are blank: make it repaint everything. */
		redrawwin(stdscr);
		wrefresh(stdscr);
	}
	nshown = 0;
}

void amc_tui_pixels_flush(void)
{
	if (mode == AMC_PIX_NONE)
		return;
	int same = nwant == nshown;
	for (int i = 0; same && i < nwant; i++)
		same = !memcmp(&want[i], &shown[i], sizeof want[i]) ? 1 : 0;
	if (same)
		return;
	amc_tui_pixels_hide();
	fflush(stdout);
	for (int i = 0; i < nwant; i++) {
		memset(&shown[i], 0, sizeof shown[i]);
		pthread_mutex_lock(&pmu);
		pcache *c = lookup(want[i].path, want[i].h, want[i].w);
		if (!c && pstarted) {
			/* Not rendered yet: the worker builds it and wakes the loop,
			 * whose next flush sends it (this one is not marked shown). */
			if (!have_job) {
				pjob = want[i];
				have_job = 1;
				pthread_cond_signal(&pcv);
			}
			pthread_mutex_unlock(&pmu);
			continue;
		}
		if (!c) {
			size_t len = 0;
			int rows = 0;
			char *seq = produce(want[i].path, want[i].h, want[i].w, &len, &rows);
			c = insert(want[i].path, want[i].h, want[i].w, seq ? seq : amc_xstrdup(""), len, rows);
		}
		if (c) {
			char pos[48];
			int n = snprintf(pos, sizeof pos, "\0337\033[%d;%dH", want[i].y + 1, want[i].x + 1);
			put(pos, (size_t)n);
			put(c->seq, c->len);
			put("\0338", 2);
			shown[i] = want[i];
		}
		pthread_mutex_unlock(&pmu);
	}
	nshown = nwant;
}

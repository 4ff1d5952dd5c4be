/* dialog.c - modal dialogs: a yes/no question, a one-line input, a list to
 * choose from, and the Launch dialog built from them (device, flow, max steps). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "flow/flow.h"
#include "flow/flow_planner.h"
#include "tui/app.h"
#include "tui/text.h"
#include "util/fsutil.h"
#include "util/paths.h"
#include "util/strbuf.h"

static void frame(amc_tui_app *a, int h, int w, const char *title, int *y, int *x)
{
	if (w > a->cols - 2)
		w = a->cols - 2;
	if (h > a->rows - 2)
		h = a->rows - 2;
	*y = (a->rows - h) / 2;
	*x = (a->cols - w) / 2;
	for (int i = 0; i < h; i++)
		amc_tui_put(stdscr, *y + i, *x, w, "", amc_tui_attr(AMC_EL_NORMAL), 1);
	amc_tui_box(*y, *x, h, w, title, 1);
}

/* ---- confirm ---- */

typedef struct confirm {
	amc_tui_dialog d;
	char *q;
	void (*yes)(amc_tui_app *, void *);
	void *ud;
	void (*ud_free)(void *);
} confirm;

static void confirm_draw(amc_tui_app *a, amc_tui_dialog *d)
{
	confirm *c = (confirm *)d;
	int w = amc_tui_width(c->q) + 6, y, x;
	if (w < 30)
		w = 30;
	frame(a, 5, w, "Confirm", &y, &x);
	amc_tui_put(stdscr, y + 1, x + 2, w - 4, c->q, amc_tui_attr(AMC_EL_NORMAL), 0);
	amc_tui_put(stdscr, y + 3, x + 2, w - 4, "y: yes   n or Esc: no", amc_tui_attr(AMC_EL_KEY), 0);
}

static int confirm_key(amc_tui_app *a, amc_tui_dialog *d, int key)
{
	confirm *c = (confirm *)d;
	amc_tui_req r = amc_tui_keymap_lookup(key, AMC_VIEW_DIALOG);
	if (r == AMC_REQ_YES) {
		c->yes(a, c->ud);
		return 1;
	}
	return r == AMC_REQ_NO || r == AMC_REQ_BACK;
}

static void confirm_free(amc_tui_dialog *d)
{
	confirm *c = (confirm *)d;
	if (c->ud_free)
		c->ud_free(c->ud);
	free(c->q);
	free(c);
}

amc_tui_dialog *amc_tui_confirm_new(const char *q, void (*yes)(amc_tui_app *, void *), void *ud, void (*ud_free)(void *))
{
	confirm *c = amc_xcalloc(1, sizeof *c);
	c->d.draw = confirm_draw;
	c->d.key = confirm_key;
	c->d.free = confirm_free;
	c->q = amc_xstrdup(q);
	c->yes = yes;
	c->ud = ud;
	c->ud_free = ud_free;
	return &c->d;
}

/* ---- input ---- */

typedef struct input {
	amc_tui_dialog d;
	char prompt[64];
	char buf[1024];
	size_t len;
	void (*done)(amc_tui_app *, const char *, void *);
	void *ud;
} input;

static void input_draw(amc_tui_app *a, amc_tui_dialog *d)
{
	input *in = (input *)d;
	int w = a->cols * 2 / 3, y, x;
	frame(a, 5, w, in->prompt, &y, &x);
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "> %s_", in->buf);
	/* Show the end of a long entry. */
	const char *s = amc_sb_str(&sb);
	while (amc_tui_width(s) > w - 4 && *s)
		s++;
	amc_tui_put(stdscr, y + 1, x + 2, w - 4, s, amc_tui_attr(AMC_EL_NORMAL), 0);
	amc_tui_put(stdscr, y + 3, x + 2, w - 4, "Enter: accept   Esc: cancel", amc_tui_attr(AMC_EL_DIM), 0);
	amc_sb_free(&sb);
}

static int input_key(amc_tui_app *a, amc_tui_dialog *d, int key)
{
	input *in = (input *)d;
	if (key == '\n' || key == '\r' || key == KEY_ENTER) {
		in->done(a, in->buf, in->ud);
		return 1;
	}
	if (key == 27)
		return 1;
	if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		/* drop one UTF-8 character */
		while (in->len > 0 && ((unsigned char)in->buf[in->len - 1] & 0xC0) == 0x80)
			in->len--;
		if (in->len > 0)
			in->len--;
		in->buf[in->len] = 0;
		return 0;
	}
	if (key >= 0x20 && key < 0x100 && key != 0x7f && in->len + 1 < sizeof in->buf) {
		in->buf[in->len++] = (char)key;
		in->buf[in->len] = 0;
	}
	return 0;
}

static void input_free(amc_tui_dialog *d)
{
	free(d);
}

amc_tui_dialog *amc_tui_input_new(const char *prompt, const char *initial,
				  void (*done)(amc_tui_app *, const char *, void *), void *ud)
{
	input *in = amc_xcalloc(1, sizeof *in);
	in->d.draw = input_draw;
	in->d.key = input_key;
	in->d.free = input_free;
	snprintf(in->prompt, sizeof in->prompt, "%s", prompt);
	snprintf(in->buf, sizeof in->buf, "%s", initial ? initial : "");
	in->len = strlen(in->buf);
	in->done = done;
	in->ud = ud;
	return &in->d;
}

/* ---- launch: one dialog with three fields ---- */

typedef struct launch {
	amc_tui_dialog d;
	char **flows;       /* bundled flow names, then "other file..." */
	size_t nflows;
	char *devices[4];
	int ndevices;
	int field;          /* 0 device, 1 flow, 2 path (when "file"), 3 max steps */
	int dev, flow;
	char path[1024];
	char steps[16];
	char error[AMC_ERR_MSG_MAX];
} launch;

static int cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void launch_draw(amc_tui_app *a, amc_tui_dialog *d)
{
	launch *l = (launch *)d;
	int w = 64, h = 9 + l->ndevices + (int)l->nflows, y, x;
	frame(a, h, w, "Launch a task", &y, &x);
	int row = y + 1;
	attr_t lab = amc_tui_attr(AMC_EL_TITLE), sel = amc_tui_attr(AMC_EL_SELECTED), nor = amc_tui_attr(AMC_EL_NORMAL);
	amc_tui_put(stdscr, row++, x + 2, w - 4, "Device", lab | (l->field == 0 ? A_UNDERLINE : 0), 0);
	for (int i = 0; i < l->ndevices; i++) {
		char s[160];
		snprintf(s, sizeof s, "%s %s", i == l->dev ? "(*)" : "( )", l->devices[i]);
		amc_tui_put(stdscr, row++, x + 4, w - 8, s, l->field == 0 && i == l->dev ? sel : nor, 1);
	}
	amc_tui_put(stdscr, row++, x + 2, w - 4, "Flow", lab | (l->field == 1 ? A_UNDERLINE : 0), 0);
	for (size_t i = 0; i < l->nflows; i++) {
		char s[300];
		snprintf(s, sizeof s, "%s %s", (int)i == l->flow ? "(*)" : "( )", l->flows[i]);
		amc_tui_put(stdscr, row++, x + 4, w - 8, s, l->field == 1 && (int)i == l->flow ? sel : nor, 1);
	}
	char s[1100];
	snprintf(s, sizeof s, "File: %s%s", l->path, l->field == 2 ? "_" : "");
	amc_tui_put(stdscr, row++, x + 4, w - 8, s, l->field == 2 ? sel : nor, 1);
	snprintf(s, sizeof s, "Max steps: %s%s", l->steps, l->field == 3 ? "_" : "");
	amc_tui_put(stdscr, row++, x + 2, w - 4, s, l->field == 3 ? sel : lab, 1);
	row++;
	if (l->error[0])
		amc_tui_put(stdscr, row, x + 2, w - 4, l->error, amc_tui_attr(AMC_EL_ERROR), 0);
	amc_tui_put(stdscr, y + h - 2, x + 2, w - 4, "Tab: next field  j/k: choose  Enter: launch  Esc: cancel",
		    amc_tui_attr(AMC_EL_DIM), 0);
}

static int do_launch(amc_tui_app *a, launch *l)
{
	char path[PATH_MAX + 1100];
	amc_err e;
	int other = l->flow == (int)l->nflows - 1;
	if (other) {
		if (!l->path[0]) {
			snprintf(l->error, sizeof l->error, "give a flow file");
			l->field = 2;
			return 0;
		}
		snprintf(path, sizeof path, "%s", l->path);
	} else {
		char data[PATH_MAX];
		if (amc_paths_data_dir(data, sizeof data, &e) != 0) {
			snprintf(l->error, sizeof l->error, "%s", e.msg);
			return 0;
		}
		snprintf(path, sizeof path, "%s/flows/%s.yaml", data, l->flows[l->flow]);
	}
	long steps = strtol(l->steps, NULL, 10);
	if (steps < 1 || steps > 100000) {
		snprintf(l->error, sizeof l->error, "max steps: a whole number from 1 to 100000");
		l->field = 3;
		return 0;
	}
	amc_flow flow;
	if (amc_flow_load(path, &flow, &e) != 0) {
		snprintf(l->error, sizeof l->error, "%s", e.msg);
		return 0;
	}
	amc_task *t = amc_task_new("flow", l->devices[l->dev]);
	t->flow_path = amc_xstrdup(path);
	t->flow_name = amc_xstrdup(flow.name);
	t->max_steps = (int)steps;
	amc_planner *p;
	if (amc_flow_planner_new(&flow, amc_config_int(a->cfg, "flow", "wait_timeout_ms"), &p, &e) != 0) {
		amc_flow_free(&flow);
		amc_task_free(t);
		snprintf(l->error, sizeof l->error, "%s", e.msg);
		return 0;
	}
	if (amc_tui_launch(a, t, p, &e) != 0) {
		snprintf(l->error, sizeof l->error, "%s", e.msg);
		return 0;
	}
	return 1;
}

static void edit(char *buf, size_t n, int key, int digits)
{
	size_t len = strlen(buf);
	if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		while (len > 0 && ((unsigned char)buf[len - 1] & 0xC0) == 0x80)
			len--;
		if (len > 0)
			len--;
		buf[len] = 0;
	} else if (key >= 0x20 && key < 0x100 && key != 0x7f && len + 1 < n && (!digits || (key >= '0' && key <= '9'))) {
		buf[len] = (char)key;
		buf[len + 1] = 0;
	}
}

static int launch_key(amc_tui_app *a, amc_tui_dialog *d, int key)
{
	launch *l = (launch *)d;
	int other = l->flow == (int)l->nflows - 1;
	l->error[0] = 0;
	if (key == 27)
		return 1;
	if (key == '\n' || key == '\r' || key == KEY_ENTER)
		return do_launch(a, l);
	if (key == '\t' || (key == KEY_DOWN && l->field >= 2)) {
		l->field = (l->field + 1) % 4;
		if (l->field == 2 && !other)
			l->field = 3;
		return 0;
	}
	if (key == KEY_BTAB) {
		l->field = (l->field + 3) % 4;
		if (l->field == 2 && !other)
			l->field = 1;
		return 0;
	}
	if (l->field == 0 || l->field == 1) {
		int *v = l->field == 0 ? &l->dev : &l->flow;
		int n = l->field == 0 ? l->ndevices : (int)l->nflows;
		if (key == 'j' || key == KEY_DOWN)
			*v = *v + 1 < n ? *v + 1 : *v;
		else if (key == 'k' || key == KEY_UP)
			*v = *v > 0 ? *v - 1 : 0;
		return 0;
	}
	if (l->field == 2)
		edit(l->path, sizeof l->path, key, 0);
	else
		edit(l->steps, sizeof l->steps, key, 1);
	return 0;
}

static void launch_free(amc_tui_dialog *d)
{
	launch *l = (launch *)d;
	for (size_t i = 0; i < l->nflows; i++)
		free(l->flows[i]);
	free(l->flows);
	for (int i = 0; i < l->ndevices; i++)
		free(l->devices[i]);
	free(l);
}

amc_tui_dialog *amc_tui_launch_new(amc_tui_app *a)
{
	launch *l = amc_xcalloc(1, sizeof *l);
	l->d.draw = launch_draw;
	l->d.key = launch_key;
	l->d.free = launch_free;
	l->field = 1;
	/* Devices: the configured default first, then the second sim. */
	const char *def = amc_config_str(a->cfg, "device", "default");
	l->devices[l->ndevices++] = amc_xstrdup(!strcmp(def, "sim") ? "sim:0" : def);
	if (strcmp(l->devices[0], "sim:1") != 0)
		l->devices[l->ndevices++] = amc_xstrdup("sim:1");
	char data[PATH_MAX], dir[PATH_MAX + 8];
	amc_err e;
	if (amc_paths_data_dir(data, sizeof data, &e) == 0) {
		snprintf(dir, sizeof dir, "%s/flows", data);
		DIR *dp = opendir(dir);
		struct dirent *de;
		while (dp && (de = readdir(dp))) {
			size_t n = strlen(de->d_name);
			if (n > 5 && !strcmp(de->d_name + n - 5, ".yaml") && l->nflows < 64) {
				l->flows = amc_xrealloc(l->flows, (l->nflows + 1) * sizeof *l->flows);
				l->flows[l->nflows++] = amc_xstrndup(de->d_name, n - 5);
			}
		}
		if (dp)
			closedir(dp);
	}
	if (l->nflows)
		qsort(l->flows, l->nflows, sizeof *l->flows, cmp);
	l->flows = amc_xrealloc(l->flows, (l->nflows + 1) * sizeof *l->flows);
	l->flows[l->nflows++] = amc_xstrdup("another flow file...");
	snprintf(l->steps, sizeof l->steps, "%ld", amc_config_int(a->cfg, "runner", "max_steps"));
	return &l->d;
}

/* dialog.c - modal dialogs: a yes/no question, a one-line input, a list to
 * choose from, and the Launch dialog built from them (device, flow or a goal
 * in words, max steps). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "device/device.h"
#include "device/manager.h"
#include "launch/launch.h"
#include "tui/app.h"
#include "tui/session.h"
#include "tui/text.h"
#include "util/fsutil.h"
#include "util/paths.h"
#include "util/proc.h"
#include "util/sanitize.h"
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

/* Keys are looked up in the keymap table (AMC_VIEW_DIALOG rows), so the help
 * view and amc(1) list what dialogs do. A key a text field takes as text: */
static int typed(int key)
{
	return key >= 0x20 && key < 0x100 && key != 0x7f;
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
	amc_tui_req r = typed(key) ? AMC_REQ_NONE : amc_tui_keymap_lookup(key, AMC_VIEW_DIALOG);
	if (r == AMC_REQ_ENTER) {
		in->done(a, in->buf, in->ud);
		return 1;
	}
	if (r == AMC_REQ_BACK)
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
	if (typed(key) && in->len + 1 < sizeof in->buf) {
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

/* ---- launch: device, flow (or a goal in words), max steps ---- */

typedef struct launch {
	amc_tui_dialog d;
	char **flows;       /* bundled flow names, then "another flow file...", then the three goal entries */
	size_t nflows;
	amc_device_entry *devs;  /* every device the manager knows */
	size_t ndevs;
	int field;          /* 0 device, 1 flow, 2 path or goal (text), 3 max steps */
	int dev, flow;      /* dev: -1 when no device can take a task */
	char path[1024];
	char goal[AMC_LAUNCH_GOAL_MAX + 1];
	char steps[16];
	char error[AMC_ERR_MSG_MAX];
} launch;

static int cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* A device takes a task when it is online and nobody holds it. */
static int dev_free(const amc_device_entry *de)
{
	return !strcmp(de->status, "online") && !de->task[0];
}

/* The goal entries at the end of the list: amc's own planner, then the
 * coding agents' CLIs on the user's login (docs/llm.md). */
static const char *const GOAL_PLANNERS[] = { NULL, "agent:claude", "agent:codex" };
#define NGOALS ((int)(sizeof GOAL_PLANNERS / sizeof GOAL_PLANNERS[0]))

static int is_other(const launch *l)
{
	return l->flow == (int)l->nflows - 1 - NGOALS;
}

static int is_goal(const launch *l)
{
	return l->flow >= (int)l->nflows - NGOALS;
}

/* provider of the chosen goal entry; NULL: planner.provider */
static const char *goal_provider(const launch *l)
{
	return GOAL_PLANNERS[l->flow - ((int)l->nflows - NGOALS)];
}

/* Long text: the end that fits, so the cursor stays in sight, after a "…"
 * that says the start is off to the left (a long goal looked like a goal
 * that began mid-sentence). */
static void put_field(int y, int x, int w, const char *label, const char *text, int focused, attr_t at)
{
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s%s", text, focused ? "_" : "");
	const char *s = amc_sb_str(&sb);
	int lw = amc_tui_width(label), cut = amc_tui_width(s) > w - lw;
	while (*s && amc_tui_width(s) > w - lw - cut) {
		s++;
		while (((unsigned char)*s & 0xC0) == 0x80)
			s++;
	}
	amc_sb tmp;
	amc_sb_init(&tmp);
	amc_sb_printf(&tmp, "%s%s%s", label, cut ? (amc_tui_utf8() ? "\xe2\x80\xa6" : "~") : "", s);
	amc_tui_put(stdscr, y, x, w, amc_sb_str(&tmp), at, 1);
	amc_sb_free(&tmp);
	amc_sb_free(&sb);
}

static void launch_draw(amc_tui_app *a, amc_tui_dialog *d)
{
	launch *l = (launch *)d;
	int elines = l->error[0] ? amc_tui_wrap(l->error, 0, 0, 60, 4, 0, 0) : 1;
	int w = 64, h = 8 + elines + (l->ndevs ? (int)l->ndevs : 1) + (int)l->nflows, y, x;
	frame(a, h, w, "Launch a task", &y, &x);
	int row = y + 1;
	attr_t lab = amc_tui_attr(AMC_EL_TITLE), sel = amc_tui_attr(AMC_EL_SELECTED), nor = amc_tui_attr(AMC_EL_NORMAL),
	       dim = amc_tui_attr(AMC_EL_DIM);
	amc_tui_put(stdscr, row++, x + 2, w - 4, "Device", lab | (l->field == 0 ? A_UNDERLINE : 0), 0);
	if (!l->ndevs)
		amc_tui_put(stdscr, row++, x + 4, w - 8, "no devices", dim, 0);
	for (size_t i = 0; i < l->ndevs; i++) {
		const amc_device_entry *de = &l->devs[i];
		char s[600];
		if (dev_free(de)) {
			snprintf(s, sizeof s, "%s %-24s %-6s %s", (int)i == l->dev ? "(*)" : "( )", de->id, de->kind,
				 de->status);
			amc_tui_put(stdscr, row++, x + 4, w - 8, s, l->field == 0 && (int)i == l->dev ? sel : nor, 1);
		} else {
			/* shown, greyed, with the reason; not selectable */
			if (de->task[0]) {
				char sid[AMC_ID_SIZE];
				snprintf(s, sizeof s, " -  %-24s %-6s busy: task %s", de->id, de->kind,
					 amc_tui_short_id(a, de->task, sid));
			}
			else
				snprintf(s, sizeof s, " -  %-24s %-6s %s%s%s", de->id, de->kind, de->status,
					 de->note[0] ? ": " : "", de->note);
			amc_tui_put(stdscr, row++, x + 4, w - 8, s, dim, 1);
		}
	}
	amc_tui_put(stdscr, row++, x + 2, w - 4, "Flow", lab | (l->field == 1 ? A_UNDERLINE : 0), 0);
	for (size_t i = 0; i < l->nflows; i++) {
		char s[300];
		snprintf(s, sizeof s, "%s %s", (int)i == l->flow ? "(*)" : "( )", l->flows[i]);
		amc_tui_put(stdscr, row++, x + 4, w - 8, s, l->field == 1 && (int)i == l->flow ? sel : nor, 1);
	}
	if (is_goal(l))
		put_field(row++, x + 4, w - 8, "Goal: ", l->goal, l->field == 2, l->field == 2 ? sel : nor);
	else
		put_field(row++, x + 4, w - 8, "File: ", l->path, l->field == 2, l->field == 2 ? sel : nor);
	char s[64];
	snprintf(s, sizeof s, "Max steps: %s%s", l->steps, l->field == 3 ? "_" : "");
	amc_tui_put(stdscr, row++, x + 2, w - 4, s, l->field == 3 ? sel : lab, 1);
	row++;
	if (l->error[0]) /* wrapped: a missing key's message says in full what to set */
		amc_tui_wrap(l->error, row, x + 2, w - 4, 4, amc_tui_attr(AMC_EL_ERROR), 1);
	/* j and k are letters inside a text field (the goal, the file, the
	 * steps): the footer offers choosing only on the lists */
	amc_tui_put(stdscr, y + h - 2, x + 2, w - 4,
		    l->field <= 1 ? "Tab: next field  j/k: choose  Enter: launch  Esc: cancel"
				  : "Tab: next field  type to edit  Enter: launch  Esc: cancel",
		    dim, 0);
}

static int is_folder(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* `amc run --flow DIR --device ID` as a grandchild (so nothing waits for
 * it and no zombie is left), its output to the log-free /dev/null: the
 * tasks it records are what the person follows, in the Tasks view. The
 * home goes along in AMC_HOME. */
static int run_suite_detached(amc_tui_app *a, const char *dir, const char *device, amc_err *e)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return amc_err_set(e, AMC_EENV, "cannot find amc's own executable to run the folder's flows");
	self[n] = '\0';
	const char *argv[] = { self, "run", "--flow", dir, "--device", device, NULL };
	return amc_proc_detach(argv, "AMC_HOME", a->home, e);
}

/* Launch through launch/launch.h: the flow is read, the planner built and
 * the secrets resolved there, as for `amc run`; its error stays in the
 * dialog, which stays open. */
static int do_launch(amc_tui_app *a, launch *l)
{
	amc_err e;
	if (l->dev < 0 || l->dev >= (int)l->ndevs || !dev_free(&l->devs[l->dev])) {
		snprintf(l->error, sizeof l->error, "no device is free: every one is busy or offline (D lists them)");
		return 0;
	}
	long steps = strtol(l->steps, NULL, 10);
	if (steps < 1 || steps > 100000) {
		snprintf(l->error, sizeof l->error, "max steps: a whole number from 1 to 100000");
		l->field = 3;
		return 0;
	}
	amc_launch_req req;
	amc_launch_req_init(&req);
	req.device = l->devs[l->dev].id;
	req.max_steps = (int)steps;
	if (is_goal(l)) {
		if (!l->goal[strspn(l->goal, " \t")]) {
			snprintf(l->error, sizeof l->error, "write the goal: what to do, in words");
			l->field = 2;
			return 0;
		}
		req.goal = l->goal;
		req.provider = goal_provider(l);
	} else if (is_other(l)) {
		if (!l->path[0]) {
			snprintf(l->error, sizeof l->error, "give a flow file");
			l->field = 2;
			return 0;
		}
		if (is_folder(l->path)) {
			/* a folder is a suite, as `amc run --flow DIR` takes it (one task
			 * per flow, in name order): that command runs it beside us and
			 * its tasks show in the list as they start */
			if (run_suite_detached(a, l->path, req.device, &e) != 0) {
				char *m = amc_sanitize_dup(e.msg);
				snprintf(l->error, sizeof l->error, "%s", m);
				free(m);
				return 0;
			}
			return 1;
		}
		req.flow_path = l->path;
	} else {
		req.flow_name = l->flows[l->flow];
	}
	amc_launch ln;
	if (amc_launch_prepare(a->cfg, a->store, &req, &ln, &e) != 0 || amc_tui_launch(a, &ln, &e) != 0) {
		char *m = amc_sanitize_dup(e.msg);
		snprintf(l->error, sizeof l->error, "%s", m);
		free(m);
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
	} else if (typed(key) && len + 1 < n && (!digits || (key >= '0' && key <= '9'))) {
		buf[len] = (char)key;
		buf[len + 1] = 0;
	}
}

/* The next selectable device from `from` in direction `dir`; -1 none. */
static int next_dev(const launch *l, int from, int dir)
{
	for (int i = from; i >= 0 && i < (int)l->ndevs; i += dir)
		if (dev_free(&l->devs[i]))
			return i;
	return -1;
}

static int launch_key(amc_tui_app *a, amc_tui_dialog *d, int key)
{
	launch *l = (launch *)d;
	int text = is_other(l) || is_goal(l);
	/* Fields 2 (path or goal) and 3 (max steps) are text: letters are typed. */
	amc_tui_req r = l->field >= 2 && typed(key) ? AMC_REQ_NONE : amc_tui_keymap_lookup(key, AMC_VIEW_DIALOG);
	l->error[0] = 0;
	if (r == AMC_REQ_BACK)
		return 1;
	if (r == AMC_REQ_ENTER)
		return do_launch(a, l);
	if (r == AMC_REQ_NEXT_PANE || (r == AMC_REQ_DOWN && l->field >= 2)) {
		l->field = (l->field + 1) % 4;
		if (l->field == 2 && !text)
			l->field = 3;
		return 0;
	}
	if (r == AMC_REQ_PREV_PANE) {
		l->field = (l->field + 3) % 4;
		if (l->field == 2 && !text)
			l->field = 1;
		return 0;
	}
	if (l->field == 0) {
		int n = -1;
		if (r == AMC_REQ_DOWN)
			n = next_dev(l, l->dev + 1, 1);
		else if (r == AMC_REQ_UP)
			n = next_dev(l, l->dev - 1, -1);
		if (n >= 0)
			l->dev = n;
		return 0;
	}
	if (l->field == 1) {
		if (r == AMC_REQ_DOWN)
			l->flow = l->flow + 1 < (int)l->nflows ? l->flow + 1 : l->flow;
		else if (r == AMC_REQ_UP)
			l->flow = l->flow > 0 ? l->flow - 1 : 0;
		return 0;
	}
	if (l->field == 2 && is_goal(l))
		edit(l->goal, sizeof l->goal, key, 0);
	else if (l->field == 2)
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
	free(l->devs);
	free(l);
}

amc_tui_dialog *amc_tui_launch_new(amc_tui_app *a)
{
	launch *l = amc_xcalloc(1, sizeof *l);
	l->d.draw = launch_draw;
	l->d.key = launch_key;
	l->d.free = launch_free;
	l->field = 1;
	/* Devices: every one the manager lists; the configured default is
	 * selected when it is free, else the first free one. */
	amc_err de;
	char warn[256] = "";
	if (amc_devices_list(a->home, a->cfg, &l->devs, &l->ndevs, warn, sizeof warn, &de) != 0) {
		char *m = amc_sanitize_dup(de.msg);
		snprintf(l->error, sizeof l->error, "%s", m);
		free(m);
	}
	char def[128];
	l->dev = -1;
	if (amc_device_id_normalize(amc_config_str(a->cfg, "device", "default"), def, sizeof def, &de) == 0)
		for (size_t i = 0; i < l->ndevs && l->dev < 0; i++)
			if (!strcmp(l->devs[i].id, def) && dev_free(&l->devs[i]))
				l->dev = (int)i;
	if (l->dev < 0)
		l->dev = next_dev(l, 0, 1);
	char data[PATH_MAX], dir[PATH_MAX + 8]; /* dir: data + "/flows" */
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
	l->flows = amc_xrealloc(l->flows, (l->nflows + 1) * sizeof *l->flows);
	l->flows[l->nflows++] = amc_xstrdup("a goal in words (LLM planner)...");
	l->flows = amc_xrealloc(l->flows, (l->nflows + 2) * sizeof *l->flows);
	l->flows[l->nflows++] = amc_xstrdup("a goal for Claude Code (your login)...");
	l->flows[l->nflows++] = amc_xstrdup("a goal for Codex (your login)...");
	snprintf(l->steps, sizeof l->steps, "%ld", amc_config_int(a->cfg, "runner", "max_steps"));
	return &l->d;
}

/* ---- the operator's questions (tui/asker.h) ---- */

typedef struct opq {
	amc_tui_dialog d;
	amc_tui_asker *op;
	amc_tui_question q;
	char body[8192];    /* what is asked, terminal-safe */
	char buf[1024];     /* ask: the answer being typed */
} opq;

#define OPQ_MAX_LINES 12

static void opq_draw(amc_tui_app *a, amc_tui_dialog *d)
{
	opq *o = (opq *)d;
	int w = a->cols * 3 / 4 < 50 ? 50 : a->cols * 3 / 4, y, x;
	if (w > 90)
		w = 90;
	if (w > a->cols - 2)
		w = a->cols - 2;
	int n = amc_tui_wrap(o->body, 0, 0, w - 4, OPQ_MAX_LINES, 0, 0);
	char title[96];
	char sid[AMC_ID_SIZE];
	snprintf(title, sizeof title, o->q.confirm ? "Task %s: allow this action?" : "Task %s asks",
		 amc_tui_short_id(a, o->q.task, sid));
	frame(a, n + (o->q.confirm ? 4 : 6), w, title, &y, &x);
	amc_tui_wrap(o->body, y + 1, x + 2, w - 4, OPQ_MAX_LINES, amc_tui_attr(AMC_EL_NORMAL), 1);
	int row = y + 1 + n + 1;
	if (o->q.confirm) {
		amc_tui_put(stdscr, row, x + 2, w - 4, "y: allow   n or Esc: refuse   C-x: cancel the task", amc_tui_attr(AMC_EL_KEY), 0);
		return;
	}
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "> %s_", o->buf);
	const char *s = amc_sb_str(&sb);
	while (amc_tui_width(s) > w - 4 && *s) {
		s++;
		while (((unsigned char)*s & 0xC0) == 0x80)
			s++;
	}
	amc_tui_put(stdscr, row, x + 2, w - 4, s, amc_tui_attr(AMC_EL_SELECTED), 1);
	amc_sb_free(&sb);
	amc_tui_put(stdscr, row + 2, x + 2, w - 4, "Enter: answer   Esc: no answer   C-x: cancel the task",
		    amc_tui_attr(AMC_EL_DIM), 0);
}

static int opq_key(amc_tui_app *a, amc_tui_dialog *d, int key)
{
	opq *o = (opq *)d;
	amc_tui_req r = amc_tui_keymap_lookup(key, AMC_VIEW_DIALOG);
	if (r == AMC_REQ_CANCEL) {
		/* cancelling the task also unblocks its question (session.c) */
		amc_err e;
		if (amc_tui_cancel(a, o->q.task, &e) != 0) {
			amc_tui_asker_answer(o->op, o->q.seq, 0, NULL);
			amc_tui_message(a, 1, "%s", e.msg);
		}
		return 1;
	}
	if (o->q.confirm) {
		if (r == AMC_REQ_YES || r == AMC_REQ_NO || r == AMC_REQ_BACK) {
			amc_tui_asker_answer(o->op, o->q.seq, r == AMC_REQ_YES, NULL);
			return 1;
		}
		return 0;
	}
	/* The answer is a text field: letters are typed. */
	if (!typed(key) && r == AMC_REQ_ENTER) {
		amc_tui_asker_answer(o->op, o->q.seq, 1, o->buf);
		return 1;
	}
	if (!typed(key) && r == AMC_REQ_BACK) {
		amc_tui_asker_answer(o->op, o->q.seq, 0, NULL);
		return 1;
	}
	edit(o->buf, sizeof o->buf, key, 0);
	return 0;
}

static int opq_stale(amc_tui_app *a, amc_tui_dialog *d)
{
	(void)a;
	opq *o = (opq *)d;
	return !amc_tui_asker_waiting(o->op, o->q.seq);
}

static void opq_free(amc_tui_dialog *d)
{
	opq *o = (opq *)d;
	amc_tui_question_free(&o->q);
	free(o);
}

amc_tui_dialog *amc_tui_question_new(amc_tui_asker *op, amc_tui_question *q)
{
	opq *o = amc_xcalloc(1, sizeof *o);
	o->d.draw = opq_draw;
	o->d.key = opq_key;
	o->d.free = opq_free;
	o->d.stale = opq_stale;
	o->op = op;
	o->q = *q;
	memset(q, 0, sizeof *q);
	if (o->q.confirm) {
		if (o->q.element[0] && o->q.word[0])
			snprintf(o->body, sizeof o->body, "It wants to %s on \"%s\", which looks irreversible (\"%s\").",
				 o->q.text, o->q.element, o->q.word);
		else if (o->q.element[0])
			snprintf(o->body, sizeof o->body, "It wants to %s on \"%s\", which looks irreversible.", o->q.text,
				 o->q.element);
		else
			snprintf(o->body, sizeof o->body, "It wants to %s, which looks irreversible.", o->q.text);
	} else {
		snprintf(o->body, sizeof o->body, "%s", o->q.text);
	}
	return &o->d;
}

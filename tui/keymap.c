/* keymap.c - the request table (see keymap.h). Adding a key is adding a row
 * here; the help screen and amc(1) follow. */
#include <ctype.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tui/keymap.h"
#include "util/strbuf.h"
#include "util/roff.h"

#define CTRL(c) ((c) & 0x1f)
#define NAV (AMC_VIEW_TASKS | AMC_VIEW_TASK | AMC_VIEW_DEVICES | AMC_VIEW_HELP | AMC_VIEW_FLEET | AMC_VIEW_HITS)
#define MAIN (AMC_VIEW_TASKS | AMC_VIEW_TASK | AMC_VIEW_DEVICES | AMC_VIEW_FLEET | AMC_VIEW_HITS)

static const amc_tui_binding TABLE[] = {
	/* The UI-tree pane of the Task view (tmux mode-tree keys); these rows win
	 * over the Task view's while that pane has focus. */
	{ 'h', "h", AMC_VIEW_TREE, AMC_REQ_COLLAPSE, "collapse the node (on a leaf: go to its parent)" },
	{ KEY_LEFT, "Left", AMC_VIEW_TREE, AMC_REQ_COLLAPSE, "collapse the node (on a leaf: go to its parent)" },
	{ '-', "-", AMC_VIEW_TREE, AMC_REQ_COLLAPSE, "collapse the node (on a leaf: go to its parent)" },
	{ 'l', "l", AMC_VIEW_TREE, AMC_REQ_EXPAND, "expand the node" },
	{ KEY_RIGHT, "Right", AMC_VIEW_TREE, AMC_REQ_EXPAND, "expand the node" },
	{ '+', "+", AMC_VIEW_TREE, AMC_REQ_EXPAND, "expand the node" },
	{ AMC_KEY_META('-'), "M--", AMC_VIEW_TREE, AMC_REQ_COLLAPSE_ALL, "collapse every node" },
	{ AMC_KEY_META('+'), "M-+", AMC_VIEW_TREE, AMC_REQ_EXPAND_ALL, "expand every node" },
	{ '/', "/", AMC_VIEW_TREE, AMC_REQ_SEARCH, "search text, ids, descriptions and classes" },
	{ 'n', "n", AMC_VIEW_TREE, AMC_REQ_SEARCH_NEXT, "next match" },
	{ 'N', "N", AMC_VIEW_TREE, AMC_REQ_SEARCH_PREV, "previous match" },
	{ 'J', "J", AMC_VIEW_TREE, AMC_REQ_JSON, "show the tree as JSON, or as a tree again" },
	{ 'q', "q", NAV, AMC_REQ_QUIT, "quit (asks first while tasks launched here are running)" },
	{ '?', "?", MAIN, AMC_REQ_HELP, "show the keys of this view" },
	{ KEY_F(1), "F1", MAIN, AMC_REQ_HELP, "show the keys of this view" },
	{ 27, "Esc", NAV, AMC_REQ_BACK, "back to the previous view; leaves a zoomed pane" },
	{ '\n', "Enter", AMC_VIEW_TASKS, AMC_REQ_ENTER, "open the selected task" },
	{ '\r', "Enter", AMC_VIEW_TASKS, AMC_REQ_ENTER, "open the selected task" },
	{ KEY_ENTER, "Enter", AMC_VIEW_TASKS, AMC_REQ_ENTER, "open the selected task" },
	{ '\n', "Enter", AMC_VIEW_FLEET, AMC_REQ_ENTER, "the selected assignment's attempts (in them: the attempt's task, when it ran here)" },
	{ '\r', "Enter", AMC_VIEW_FLEET, AMC_REQ_ENTER, "the selected assignment's attempts (in them: the attempt's task, when it ran here)" },
	{ KEY_ENTER, "Enter", AMC_VIEW_FLEET, AMC_REQ_ENTER, "the selected assignment's attempts (in them: the attempt's task, when it ran here)" },
	{ '\n', "Enter", AMC_VIEW_HITS, AMC_REQ_ENTER, "open the task at the step of the selected hit" },
	{ '\r', "Enter", AMC_VIEW_HITS, AMC_REQ_ENTER, "open the task at the step of the selected hit" },
	{ KEY_ENTER, "Enter", AMC_VIEW_HITS, AMC_REQ_ENTER, "open the task at the step of the selected hit" },
	{ 'j', "j", NAV, AMC_REQ_DOWN, "next row" },
	{ KEY_DOWN, "Down", NAV, AMC_REQ_DOWN, "next row" },
	{ 'k', "k", NAV, AMC_REQ_UP, "previous row" },
	{ KEY_UP, "Up", NAV, AMC_REQ_UP, "previous row" },
	{ KEY_NPAGE, "PgDn", NAV, AMC_REQ_PAGE_DOWN, "one page down" },
	{ CTRL('f'), "C-f", NAV, AMC_REQ_PAGE_DOWN, "one page down" },
	{ KEY_PPAGE, "PgUp", NAV, AMC_REQ_PAGE_UP, "one page up" },
	{ CTRL('b'), "C-b", NAV, AMC_REQ_PAGE_UP, "one page up" },
	{ 'g', "g", NAV, AMC_REQ_TOP, "first row" },
	{ KEY_HOME, "Home", NAV, AMC_REQ_TOP, "first row" },
	{ 'G', "G", NAV, AMC_REQ_BOTTOM, "last row" },
	{ KEY_END, "End", NAV, AMC_REQ_BOTTOM, "last row" },
	{ '\t', "Tab", AMC_VIEW_TASK, AMC_REQ_NEXT_PANE, "focus the next pane" },
	{ KEY_BTAB, "S-Tab", AMC_VIEW_TASK, AMC_REQ_PREV_PANE, "focus the previous pane" },
	{ 'z', "z", AMC_VIEW_TASK | AMC_VIEW_DEVICES, AMC_REQ_ZOOM, "zoom the focused pane to the full screen (again: back)" },
	{ '/', "/", AMC_VIEW_TASKS, AMC_REQ_SEARCH, "search goals, flow names and ids; with S, inside every step" },
	{ 'S', "S", AMC_VIEW_TASKS, AMC_REQ_SEARCH_MODE, "switch / between the task list and the text of every step" },
	{ 'f', "f", AMC_VIEW_TASKS, AMC_REQ_FILTER, "filter by status (cycles: all, running, succeeded, failed, ...)" },
	{ 's', "s", AMC_VIEW_TASKS, AMC_REQ_SORT, "sort (cycles: newest first, oldest first, by status, longest first)" },
	{ 'o', "o", AMC_VIEW_TASK, AMC_REQ_OCR_MARK, "OCR tab: mark the next word's box on the before image (after the last: none)" },
	{ 'Y', "Y", AMC_VIEW_TASK, AMC_REQ_COPY_SELECTOR, "the selected UI-tree node's Maestro selector (checked to find exactly that node): shown on the status line and copied to the clipboard with OSC 52 where the terminal allows" },
	{ 'p', "p", AMC_VIEW_TASK, AMC_REQ_PICK, "pick an element on the After screenshot (the UI tree recorded with it): j/k move to the next or previous element top to bottom, each outlined with its Maestro selector on the status line; Y copies it; a click on the After image picks the element under it; p or Esc ends" },
	{ 'x', "x", AMC_VIEW_TASK, AMC_REQ_CROP, "zoom both screenshots to the step's target (or the picked or selected node) at a readable scale; again: closer; a third time: the whole screen" },
	{ 'h', "h", AMC_VIEW_TASK, AMC_REQ_PAN_LEFT, "zoomed to a target, on a screenshot pane: pan left (j/k pan down and up)" },
	{ KEY_LEFT, "Left", AMC_VIEW_TASK, AMC_REQ_PAN_LEFT, "zoomed to a target, on a screenshot pane: pan left (j/k pan down and up)" },
	{ 'l', "l", AMC_VIEW_TASK, AMC_REQ_PAN_RIGHT, "zoomed to a target, on a screenshot pane: pan right" },
	{ KEY_RIGHT, "Right", AMC_VIEW_TASK, AMC_REQ_PAN_RIGHT, "zoomed to a target, on a screenshot pane: pan right" },
	{ 'R', "R", AMC_VIEW_TASK, AMC_REQ_OCR_FULL, "OCR tab: read every word of the stored Before screenshot now (full OCR, whatever the policy recorded)" },
	{ 'O', "O", AMC_VIEW_TASK, AMC_REQ_OPEN_IMAGE, "open the step's screenshot (Before when focused, else After) in the desktop's viewer (xdg-open, with DISPLAY or WAYLAND_DISPLAY), else show its path" },
	{ 'e', "e", AMC_VIEW_TASK, AMC_REQ_TAB_NEXT, "evidence pane: the next tab (UI tree, OCR, Scene, Diff, SemanticScene)" },
	{ '1', "1", AMC_VIEW_TASK, AMC_REQ_TAB_TREE, "evidence pane: the UI tree after the action" },
	{ '2', "2", AMC_VIEW_TASK, AMC_REQ_TAB_OCR, "evidence pane: OCR words, confidence, box (the selected one marked on Before)" },
	{ '3', "3", AMC_VIEW_TASK, AMC_REQ_TAB_SCENE, "evidence pane: the Scene's elements and their source (uitree, ocr, fused)" },
	{ '4', "4", AMC_VIEW_TASK, AMC_REQ_TAB_DIFF, "evidence pane: what the action changed (+ added, - removed, ~ changed)" },
	{ '5', "5", AMC_VIEW_TASK, AMC_REQ_TAB_SEMANTIC, "evidence pane: the SemanticScene (when the step has one)" },
	{ 'n', "n", MAIN, AMC_REQ_LAUNCH, "launch a task: device, flow or goal, max steps" },
	{ 'c', "c", AMC_VIEW_TASKS | AMC_VIEW_TASK, AMC_REQ_CANCEL, "cancel the selected running task (asks first)" },
	{ 'D', "D", MAIN, AMC_REQ_DEVICES, "the Devices view" },
	{ 'T', "T", MAIN, AMC_REQ_TASKS, "the Tasks view" },
	{ 'F', "F", MAIN, AMC_REQ_FLEET, "the Fleet view: hosts and assignments in fleet.url (docs/fleet.md)" },
	{ 'r', "r", AMC_VIEW_DEVICES, AMC_REQ_REFRESH, "list the devices again and capture the selected one's screen now" },
	{ CTRL('l'), "C-l", MAIN, AMC_REQ_REFRESH, "redraw the screen and reload from the database" },
	{ 'Z', "Z", MAIN, AMC_REQ_PAUSE, "pause or resume live updates" },
	{ 'y', "y", AMC_VIEW_DIALOG, AMC_REQ_YES, "yes (in a question)" },
	{ 'n', "n", AMC_VIEW_DIALOG, AMC_REQ_NO, "no (in a question)" },
	/* Dialogs (tui/dialog.c) look their keys up here too; in a text field a
	 * letter (j, k, y, n) is typed rather than looked up. */
	{ '\n', "Enter", AMC_VIEW_DIALOG, AMC_REQ_ENTER, "accept the field or the choice" },
	{ '\r', "Enter", AMC_VIEW_DIALOG, AMC_REQ_ENTER, "accept the field or the choice" },
	{ KEY_ENTER, "Enter", AMC_VIEW_DIALOG, AMC_REQ_ENTER, "accept the field or the choice" },
	{ 27, "Esc", AMC_VIEW_DIALOG, AMC_REQ_BACK, "close the dialog without doing anything" },
	{ '\t', "Tab", AMC_VIEW_DIALOG, AMC_REQ_NEXT_PANE, "next field" },
	{ KEY_BTAB, "S-Tab", AMC_VIEW_DIALOG, AMC_REQ_PREV_PANE, "previous field" },
	{ 'j', "j", AMC_VIEW_DIALOG, AMC_REQ_DOWN, "next choice (Down in a text field: the next field)" },
	{ KEY_DOWN, "Down", AMC_VIEW_DIALOG, AMC_REQ_DOWN, "next choice (Down in a text field: the next field)" },
	{ 'k', "k", AMC_VIEW_DIALOG, AMC_REQ_UP, "previous choice" },
	{ KEY_UP, "Up", AMC_VIEW_DIALOG, AMC_REQ_UP, "previous choice" },
	{ CTRL('x'), "C-x", AMC_VIEW_DIALOG, AMC_REQ_CANCEL, "cancel the task whose question is shown" },
};
#define NTABLE (sizeof TABLE / sizeof TABLE[0])

amc_tui_req amc_tui_keymap_lookup(int key, unsigned view)
{
	if (view & AMC_VIEW_TREE)
		for (size_t i = 0; i < NTABLE; i++)
			if (TABLE[i].key == key && (TABLE[i].views & AMC_VIEW_TREE))
				return TABLE[i].req;
	for (size_t i = 0; i < NTABLE; i++)
		if (TABLE[i].key == key && (TABLE[i].views & view))
			return TABLE[i].req;
	return AMC_REQ_NONE;
}

const amc_tui_binding *amc_tui_keymap_at(size_t i)
{
	return i < NTABLE ? &TABLE[i] : NULL;
}

const char *amc_tui_keymap_view_name(unsigned view)
{
	switch (view) {
	case AMC_VIEW_TASKS: return "Tasks";
	case AMC_VIEW_TASK: return "Task";
	case AMC_VIEW_DEVICES: return "Devices";
	case AMC_VIEW_HELP: return "Help";
	case AMC_VIEW_DIALOG: return "Dialogs";
	case AMC_VIEW_TREE: return "UI tree";
	case AMC_VIEW_FLEET: return "Fleet";
	case AMC_VIEW_HITS: return "Search";
	default: return "?";
	}
}

/* Rows of `view`, one per request, with every key for it joined. */
static void collect(unsigned view, void (*fn)(const char *keys, const amc_tui_binding *b, void *ud), void *ud)
{
	int seen[AMC_REQ__COUNT] = { 0 };
	for (size_t i = 0; i < NTABLE; i++) {
		if (!(TABLE[i].views & view) || seen[TABLE[i].req])
			continue;
		seen[TABLE[i].req] = 1;
		amc_sb keys;
		amc_sb_init(&keys);
		for (size_t j = i; j < NTABLE; j++) {
			if (!(TABLE[j].views & view) || TABLE[j].req != TABLE[i].req)
				continue;
			/* "Enter" is bound twice (\n and KEY_ENTER): show it once. */
			if (keys.len && strstr(amc_sb_str(&keys), TABLE[j].keyname))
				continue;
			if (keys.len)
				amc_sb_puts(&keys, ", ");
			amc_sb_puts(&keys, TABLE[j].keyname);
		}
		fn(amc_sb_str(&keys), &TABLE[i], ud);
		amc_sb_free(&keys);
	}
}

typedef struct lines_acc {
	char **v;
	size_t n;
} lines_acc;

static void add_line(const char *keys, const amc_tui_binding *b, void *ud)
{
	lines_acc *a = ud;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%-16s %s", keys, b->help);
	a->v = amc_xrealloc(a->v, (a->n + 1) * sizeof *a->v);
	a->v[a->n++] = amc_sb_detach(&sb);
}

char **amc_tui_keymap_lines(unsigned view, size_t *n)
{
	lines_acc a = { NULL, 0 };
	collect(view, add_line, &a);
	*n = a.n;
	return a.v;
}

void amc_tui_keymap_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

static void roff(FILE *f, const char *s)
{
	amc_roff_put(f, s, strlen(s));
}

static void man_row(const char *keys, const amc_tui_binding *b, void *ud)
{
	FILE *f = ud;
	fputs(".TP\n.B ", f);
	roff(f, keys);
	fputc('\n', f);
	roff(f, b->help);
	fputc('\n', f);
}

void amc_tui_keymap_write_man(FILE *f)
{
	amc_tui_keymap_write_man_with(f, NULL, NULL);
}

void amc_tui_keymap_write_man_with(FILE *f, void (*middle)(FILE *f, void *ud), void *ud)
{
	static const struct {
		unsigned view;
		const char *what;
	} views[] = {
		{ AMC_VIEW_TASKS, "every task, newest first, read page by page from the database: status "
				  "(a symbol and a colour), short id, goal or flow, device, steps, duration, start time "
				  "and the source task when there is one. New tasks and status changes, also those "
				  "written by another amc process, appear without a key press." },
		{ AMC_VIEW_TASK, "one task: the timeline (a row per step; ! marks an action that changed nothing, "
				 "often a missed tap) beside the selected step's detail: the "
				 "before and after screenshots (the action's target marked on the before image, a swipe "
				 "drawn as its path), the operation (the action, its target, the result or error and the "
				 "reasoning first; then arguments, result, the model call's usage and cost, timings as JSON) "
				 "and the evidence pane, whose tabs are the UI tree, the OCR words, the Scene, the Diff "
				 "(what the action changed in the UI tree) and the SemanticScene when recorded. A running "
				 "task's steps stream in as they finish, with the current phase." },
		{ AMC_VIEW_DEVICES, "each device with its status and the task holding it, beside the selected "
				    "device's screen: its latest recorded observation (following a running task step by "
				    "step), or a fresh capture on r when the device is free." },
		{ AMC_VIEW_FLEET, "the fleet in fleet.url: each host with its devices, when it was last seen and what "
				  "each device runs; every assignment with its state, attempts, host and latest progress. "
				  "It follows the database (LISTEN) without a key press and says so when the database "
				  "cannot be reached." },
		{ AMC_VIEW_HITS, "the steps that match a search inside steps (S, then / in the Tasks view): the "
				 "full-text index of everything amc saw (screen text and OCR words, actions, reasoning, "
				 "errors; secrets masked), newest first, with the task, the step, the field that matched "
				 "and a snippet with the matches highlighted. Enter opens the task at that step." },
		{ AMC_VIEW_HELP, "the keys of the view it was opened from, and of dialogs." },
		{ AMC_VIEW_TREE, "the UI-tree tab of the Task view's evidence pane (Tab to it): the step's UI tree, collapsible "
				 "like tmux's choose-tree, searchable, with a JSON view. The Task view's other keys "
				 "work there too." },
		{ AMC_VIEW_DIALOG, "launch (every device the manager lists, busy and offline ones greyed with the "
				   "reason; a flow or a goal in words for the LLM planner; max steps), search, yes/no "
				   "questions, and a running goal's questions: ask_user (type the answer, Enter) and "
				   "irreversible-action confirmations (y allows, n or Esc refuses), also those an MCP "
				   "client's act waits for in `amc mcp' (another process on the same AMC_HOME: "
				   "the client, the action, its target and the client's reason). In a text field "
				   "a letter is typed, so j, k, y and n act only outside one." },
	};
	fputs(".\\\" Generated by `amc tui --man` from the keymap table (tui/keymap.c), the command table (src/cli/main.c) and the settings table (src/util/config.c): do not edit.\n"
	      ".TH AMC 1 \"\" \"amc\" \"User Commands\"\n"
	      ".SH NAME\namc \\- agentic mobile control: run tasks on phones and inspect every step\n"
	      ".SH SYNOPSIS\n.B amc\n.br\n.B amc tui\n[\\fB\\-\\-graphics\\fR=\\fIMODE\\fR] [\\fB\\-\\-theme\\fR=\\fINAME\\fR]\n"
	      ".br\n.B amc\n.I COMMAND\n[\\fIARGS\\fR]\n"
	      ".SH DESCRIPTION\n"
	      "With no arguments, amc opens its terminal interface: the history of tasks, each task's timeline "
	      "with screenshots, and a dialog to launch flows or goals on a device (the simulated phone by default). "
	      "Tasks launched here run in this process, one thread per device. "
	      "`amc \\-\\-help' lists the headless commands.\n"
	      ".SH VIEWS\n", f);
	for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
		fprintf(f, ".TP\n.B %s\n", amc_tui_keymap_view_name(views[i].view));
		roff(f, views[i].what);
		fputc('\n', f);
	}
	fputs(".SH KEYS\n", f);
	for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) {
		fprintf(f, ".SS %s\n", amc_tui_keymap_view_name(views[i].view));
		collect(views[i].view, man_row, f);
	}
	fputs(".SH MOUSE\n"
	      "The wheel scrolls the focused list. In the Tasks view a click selects a task and a second click "
	      "(or a double click) opens it; in the Task view a click focuses a pane (and in the timeline selects "
	      "the step, in a list tab of the evidence pane the row, on the evidence pane's title the tab; on the "
	      "After screenshot it picks the element under the pointer and shows its selector), a "
	      "double click zooms it.\n", f);
	if (middle)
		middle(f, ud);
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B AMC_HOME\nthe database and artifacts (default $XDG_DATA_HOME/amc); the log is amc.log there, "
	      "and while the interface runs, standard error goes to it too.\n"
	      ".TP\n.B NO_COLOR\nwhen set (to anything), the monochrome theme is used.\n"
	      ".TP\n.B AMC_TUI_THEME, AMC_TUI_GRAPHICS\nthe [tui] settings theme and graphics.\n"
	      ".TP\n.B AMC_HYPERLINKS\nauto (the default), on or off: file paths (the screenshot path O shows, amc show's "
	      "screenshots, amc export's report) as OSC 8 links where the terminal supports them (auto: told by its "
	      "environment, never inside tmux or screen); on also to a pipe.\n"
	      ".TP\n.B AMC_FLEET_URL, AMC_FLEET_REQUIRE_TLS\nthe fleet database of the Fleet view (fleet.url), and "
	      "fleet.require_tls: on by default, a database that is not a Unix socket or loopback is reached only "
	      "over TLS (sslmode=require is set before connecting when the URL says less; disable and allow are "
	      "refused). See docs/fleet.md.\n"
	      ".SH FILES\n"
	      ".TP\n.I $XDG_CONFIG_HOME/amc/config\nsettings; [tui] theme = NAME, graphics = auto|symbols|sixel|kitty|iterm|none (auto: sixel or kitty pixels where the environment suggests them and the terminal confirms a query within 200 ms, never inside tmux; symbols otherwise).\n"
	      ".TP\n.I $XDG_CONFIG_HOME/amc/themes/NAME.theme\nuser themes; bundled: default, light, high-contrast, "
	      "monochrome. A bad line is reported with its number and the default theme is used.\n"
	      ".SH SEE ALSO\n.BR tmux (1)\n", f);
}

int amc_tui_keymap_parse_key(const char *name)
{
	static const struct {
		const char *name;
		int key;
	} names[] = {
		{ "Enter", '\n' }, { "Esc", 27 }, { "Tab", '\t' }, { "S-Tab", KEY_BTAB }, { "Space", ' ' },
		{ "Up", KEY_UP }, { "Down", KEY_DOWN }, { "Left", KEY_LEFT }, { "Right", KEY_RIGHT },
		{ "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE }, { "Home", KEY_HOME }, { "End", KEY_END },
		{ "Backspace", KEY_BACKSPACE }, { "F1", KEY_F(1) },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(names[i].name, name))
			return names[i].key;
	if (!strncmp(name, "M-", 2) && name[2] && !name[3])
		return AMC_KEY_META((unsigned char)name[2]);
	if (!strncmp(name, "C-", 2) && name[2] && !name[3] && isalpha((unsigned char)name[2]))
		return CTRL(name[2]);
	if (name[0] && !name[1])
		return (unsigned char)name[0];
	return -1;
}

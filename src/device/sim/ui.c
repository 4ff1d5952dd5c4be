/* ui.c - the sim's apps: every screen is built as a view tree from the state
 * (layout in dp, scaled to the screen), and taps, keys, swipes and typing act on
 * that tree and the state. docs/sim.md is the contract for texts and ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/sim/sim_int.h"
#include "util/sanitize.h"

/* ---- colours (Material 3 baseline) ---- */
typedef struct pal {
	uint32_t bg, card, text, text2, divider, primary, on_primary, container, on_container, outline, error;
	uint32_t kb_panel, kb_key, kb_special, kb_text;
} pal;

static const pal LIGHT = {0xFEF7FFFF, 0xF3EDF7FF, 0x1D1B20FF, 0x49454FFF, 0xE7E0ECFF, 0x6750A4FF, 0xFFFFFFFF,
			  0xEADDFFFF, 0x21005DFF, 0x79747EFF, 0xB3261EFF,
			  0xE8EAEDFF, 0xFFFFFFFF, 0xC9CDD2FF, 0x202124FF};
static const pal DARK = {0x141218FF, 0x211F26FF, 0xE6E0E9FF, 0xCAC4D0FF, 0x36343BFF, 0xD0BCFFFF, 0x381E72FF,
			 0x4F378BFF, 0xEADDFFFF, 0x938F99FF, 0xF2B8B5FF,
			 0x202124FF, 0x3C4043FF, 0x2A2B2EFF, 0xE8EAEDFF};

/* ---- Wi-Fi networks and other fixed data ---- */
static const struct {
	const char *name, *security, *band;
	int secure;
} NETS[] = {
	{"HomeNet", "WPA2-Personal", "5 GHz", 1},
	{"Office-5G", "WPA3-Personal", "5 GHz", 1},
	{"CoffeeShop Guest", "None", "2.4 GHz", 0},
	{"Neighbour_2.4", "WPA2-Personal", "2.4 GHz", 1},
	{"Library_Free", "None", "2.4 GHz", 0},
	{"DIRECT-42-Printer", "WPA2-Personal", "2.4 GHz", 1},
	{"Pixel_Hotspot", "WPA3-Personal", "5 GHz", 1},
	{"Guest-2.4", "WPA2-Personal", "2.4 GHz", 1},
};
#define NNETS ((int)(sizeof NETS / sizeof NETS[0]))
static const char *SIGNAL[] = {"Excellent", "Good", "Fair", "Weak"};

int sim_network_count(void)
{
	return NNETS;
}

const char *sim_network_name(int i)
{
	return i >= 0 && i < NNETS ? NETS[i].name : "";
}

int sim_battery(const sim *s)
{
	long long lvl = s->st.battery_start - s->st.time_ms / (6 * 60 * 1000);
	return lvl < 5 ? 5 : (int)lvl;
}

/* Signal strength of network i: fixed per seed, so two sims may differ. */
static int net_signal(const sim *s, int i)
{
	return (int)((s->st.seed * 7 + i * 3 + i * i) % 4);
}

static void sim_date(const sim *s, char *out, size_t n, int long_form)
{
	static const char *mon[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	static const char *monl[] = {"January", "February", "March", "April", "May", "June", "July", "August",
				     "September", "October", "November", "December"};
	static const char *wd[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
	static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	long long days = (s->st.time_ms / 60000 + 9 * 60 + 41) / 1440;
	int m = 0, d = 15 + (int)(days % 3650), y = 2026;
	while (d > mdays[m] + (m == 1 && y % 4 == 0)) {
		d -= mdays[m] + (m == 1 && y % 4 == 0);
		if (++m == 12) {
			m = 0;
			y++;
		}
	}
	if (long_form)
		snprintf(out, n, "%s %d, %d", monl[m], d, y);
	else
		snprintf(out, n, "%s, %s %d", wd[days % 7], mon[m], d);
}

static void sim_clock(const sim *s, char *out, size_t n)
{
	long long min = s->st.time_ms / 60000 + 9 * 60 + 41;
	snprintf(out, n, "%02lld:%02lld", (min / 60) % 24, min % 60);
}

/* ---- tree building ---- */

typedef struct B {
	const sim *s;
	vtree *t;
	const pal *c;
	int W, H, bottom; /* bottom: top of the keyboard, or the screen's height */
} B;

static int D(const B *b, double v)
{
	return (int)(v * b->s->dp + (v >= 0 ? 0.5 : -0.5));
}

static int add(B *b, int parent, int x1, int y1, int x2, int y2, const char *cls)
{
	vtree *t = b->t;
	if (t->count == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 128;
		t->n = amc_xrealloc(t->n, (size_t)t->cap * sizeof *t->n);
	}
	int i = t->count++;
	vnode *n = &t->n[i];
	memset(n, 0, sizeof *n);
	n->parent = parent;
	n->first = n->last = n->next = -1;
	n->x1 = x1;
	n->y1 = y1;
	n->x2 = x2;
	n->y2 = y2;
	n->cls = cls;
	n->rid = "";
	if (parent >= 0) {
		vnode *p = &t->n[parent];
		if (p->last >= 0)
			t->n[p->last].next = i;
		else
			p->first = i;
		p->last = i;
	}
	return i;
}

static vnode *N(B *b, int i)
{
	return &b->t->n[i];
}

static void set_text(B *b, int i, const char *s)
{
	vnode *n = N(b, i);
	free(n->text);
	free(n->ptext);
	n->text = amc_xstrdup(s);
	n->ptext = amc_xstrdup(s);
}

static void set_desc(B *b, int i, const char *s)
{
	free(N(b, i)->desc);
	N(b, i)->desc = amc_xstrdup(s);
}

/* Painted-only decoration. */
static int deco(B *b, int parent, int x1, int y1, int x2, int y2, int paint, uint32_t bg, int radius)
{
	int i = add(b, parent, x1, y1, x2, y2, "android.view.View");
	vnode *n = N(b, i);
	n->flags = VF_NOTREE;
	n->paint = paint;
	n->bg = bg;
	n->radius = radius;
	return i;
}

/* A one-line label: bounds are the text's own box (capped at maxw), as a
 * wrap_content TextView has. */
static int label(B *b, int parent, int x, int top, int maxw, const char *s, int sp, uint32_t col, unsigned flags,
		 const char *rid)
{
	int px = D(b, sp);
	int w = sim_text_width(b->s->font, px, !!(flags & VF_BOLD), s, strlen(s));
	if (w > maxw)
		w = maxw;
	if (w < 1)
		w = 1;
	int i = add(b, parent, x, top, x + w, top + sim_line_height(px), "android.widget.TextView");
	vnode *n = N(b, i);
	n->paint = P_TEXT;
	n->fg = col;
	n->font_px = px;
	n->flags = flags;
	n->rid = rid ? rid : "";
	set_text(b, i, s);
	return i;
}

static int glyph_icon(B *b, int parent, int cx, int cy, int size_dp, const char *glyph, uint32_t circle, uint32_t col,
		      int sp)
{
	int r = D(b, size_dp) / 2;
	int i = deco(b, parent, cx - r, cy - r, cx + r, cy + r, (circle & 255) ? P_CIRCLE : P_NONE, circle, 0);
	if (glyph) {
		int px = D(b, sp);
		int g = add(b, i, cx - r, cy - r, cx + r, cy + r, "android.view.View");
		vnode *n = N(b, g);
		n->flags = VF_NOTREE | VF_CENTER;
		n->paint = P_TEXT;
		n->fg = col;
		n->font_px = px;
		n->ptext = amc_xstrdup(glyph);
	}
	return i;
}

static int shape_icon(B *b, int parent, int cx, int cy, int size_dp, int icon, uint32_t circle, uint32_t col)
{
	int r = D(b, size_dp) / 2;
	int i = deco(b, parent, cx - r, cy - r, cx + r, cy + r, (circle & 255) ? P_CIRCLE : P_NONE, circle, 0);
	int g = add(b, i, cx - r * 6 / 10, cy - r * 6 / 10, cx + r * 6 / 10, cy + r * 6 / 10, "android.view.View");
	vnode *n = N(b, g);
	n->flags = VF_NOTREE;
	n->paint = P_LINE_ICON;
	n->icon = icon;
	n->fg = col;
	n->bg = circle;
	return i;
}

static int root(B *b, const char *pkg, uint32_t bg)
{
	b->t->pkg = pkg;
	int r = add(b, -1, 0, 0, b->W, b->H, "android.widget.FrameLayout");
	N(b, r)->paint = P_RECT;
	N(b, r)->bg = bg;
	int c = add(b, r, 0, 0, b->W, b->H, "android.widget.FrameLayout");
	N(b, c)->rid = "android:id/content";
	return c;
}

/* App bar under the status bar: optional "Navigate up" and a title. Returns the
 * y where content starts. */
static int app_bar(B *b, int parent, const char *title, int back)
{
	int top = D(b, 32), h = D(b, 64);
	int bar = add(b, parent, 0, top, b->W, top + h, "android.view.ViewGroup");
	int x = D(b, 16);
	if (back) {
		int nb = add(b, bar, D(b, 4), top + D(b, 8), D(b, 52), top + D(b, 56), "android.widget.ImageButton");
		vnode *n = N(b, nb);
		n->flags = VF_CLICKABLE | VF_FOCUSABLE;
		n->act = A_BACK;
		set_desc(b, nb, "Navigate up");
		int g = add(b, nb, n->x1, n->y1, n->x2, n->y2, "android.view.View");
		vnode *gn = N(b, g);
		gn->flags = VF_NOTREE | VF_CENTER;
		gn->paint = P_TEXT;
		gn->fg = b->c->text;
		gn->font_px = D(b, 24);
		gn->ptext = amc_xstrdup("\xe2\x86\x90");
		x = D(b, 64);
	}
	if (title && *title) {
		int px = D(b, 22);
		label(b, bar, x, top + (h - sim_line_height(px)) / 2, b->W - x - D(b, 16), title, 22, b->c->text, 0, NULL);
	}
	return top + h;
}

static int list_node(B *b, int parent, int top, const char *rid)
{
	int l = add(b, parent, 0, top, b->W, b->bottom, "androidx.recyclerview.widget.RecyclerView");
	vnode *n = N(b, l);
	n->flags = VF_SCROLLABLE | VF_FOCUSABLE;
	n->rid = rid;
	b->t->scroll_node = l;
	return l;
}

static void list_end(B *b, int list, int content_h)
{
	vnode *n = N(b, list);
	int view = n->y2 - n->y1;
	b->t->scroll_max = content_h > view ? content_h - view : 0;
	if (content_h <= view)
		n->flags &= ~VF_SCROLLABLE; /* Android reports scrollable only when it can scroll */
}

static int clamp_scroll(int scroll, int content_h, int view_h)
{
	int max = content_h > view_h ? content_h - view_h : 0;
	if (scroll > max)
		scroll = max;
	return scroll < 0 ? 0 : scroll;
}

static void switch_widget(B *b, int parent, int right, int cy, int on)
{
	int w = D(b, 52), h = D(b, 32);
	int sw = add(b, parent, right - w, cy - h / 2, right, cy - h / 2 + h, "android.widget.Switch");
	vnode *n = N(b, sw);
	n->rid = "com.android.settings:id/switch_widget";
	n->flags = VF_CHECKABLE | (on ? VF_CHECKED : 0);
	n->paint = P_SWITCH;
	n->fg = b->c->primary;
	n->fg2 = b->c->outline;
	n->accent = b->c->on_primary;
	n->bg = b->c->card;
}

/* A settings-style row: icon, title, summary, optional switch, divider. */
typedef struct rowspec {
	const char *glyph;
	int shape;          /* P_LINE_ICON icon kind when no glyph */
	uint32_t icon_bg;
	const char *title, *summary;
	int toggle;         /* -1 none */
	int act, a1, a2;
	const char *title_rid;
} rowspec;

static void row(B *b, int parent, int y, int h, const rowspec *r)
{
	const pal *c = b->c;
	int rw = add(b, parent, 0, y, b->W, y + h, "android.widget.LinearLayout");
	vnode *n = N(b, rw);
	n->flags = VF_CLICKABLE | VF_FOCUSABLE;
	if (r->toggle >= 0) {
		n->act = A_TOGGLE;
		n->a1 = r->toggle;
	} else {
		n->act = r->act;
		n->a1 = r->a1;
		n->a2 = r->a2;
	}
	int tx = D(b, 16);
	if (r->glyph || r->shape) {
		int cx = D(b, 36), cy = y + h / 2, sz = D(b, 40);
		int ic = add(b, rw, cx - sz / 2, cy - sz / 2, cx + sz / 2, cy + sz / 2, "android.widget.ImageView");
		N(b, ic)->rid = "android:id/icon";
		if (r->glyph)
			glyph_icon(b, ic, cx, cy, 40, r->glyph, r->icon_bg, 0xFFFFFFFF, 20);
		else
			shape_icon(b, ic, cx, cy, 40, r->shape, r->icon_bg, 0xFFFFFFFF);
		tx = D(b, 72);
	}
	int right = b->W - D(b, 16);
	int on = r->toggle >= 0 && b->s->st.toggles[r->toggle];
	int textw = right - tx - (r->toggle >= 0 ? D(b, 68) : 0);
	int p1 = D(b, 16), p2 = D(b, 14);
	int lh1 = sim_line_height(p1), lh2 = r->summary ? sim_line_height(p2) : 0;
	int top = y + (h - lh1 - lh2) / 2;
	label(b, rw, tx, top, textw, r->title, 16, c->text, 0, r->title_rid ? r->title_rid : "android:id/title");
	if (r->summary)
		label(b, rw, tx, top + lh1, textw, r->summary, 14, c->text2, 0, "android:id/summary");
	if (r->toggle >= 0)
		switch_widget(b, rw, right, y + h / 2, on);
	deco(b, rw, tx, y + h - (D(b, 1) ? D(b, 1) : 1), b->W, y + h, P_RECT, c->divider, 0);
}

/* ---- settings ---- */

typedef struct pagerow {
	const char *title, *summary;
	int toggle;
	int open;           /* screen to open, -1 none */
} pagerow;

typedef struct pagedef {
	int screen;
	const char *title;
	pagerow rows[9];
} pagedef;

/* Summaries may hold one token: %B battery, %T time, %D date, %W Wi-Fi network,
 * %I IP address, %S serial. */
static const pagedef PAGES[] = {
	{SCR_NETWORK, "Network & internet", {
		{"Internet", "%W", -1, SCR_WIFI},
		{"Calls & SMS", "amc mobile", -1, -1},
		{"SIMs", "amc mobile", -1, -1},
		{"Airplane mode", NULL, TG_AIRPLANE, -1},
		{"Hotspot & tethering", "Off", -1, -1},
		{"Data Saver", "Off", -1, -1},
		{"VPN", "None", -1, -1},
		{"Private DNS", "Automatic", -1, -1}}},
	{SCR_CONNECTED, "Connected devices", {
		{"Pair new device", NULL, -1, SCR_BLUETOOTH},
		{"Saved devices", "Pixel Buds Pro, Car audio", -1, SCR_BLUETOOTH},
		{"Connection preferences", "Bluetooth, NFC", -1, -1},
		{"NFC", "Use NFC", TG_NFC, -1}}},
	{SCR_APPS, "Apps", {
		{"Contacts", "com.android.contacts", -1, -1},
		{"Notes", "com.amc.notes", -1, -1},
		{"Settings", "com.android.settings", -1, -1},
		{"Default apps", "Browser, phone and SMS", -1, -1},
		{"Screen time", "1 hr 12 min today", -1, SCR_WELLBEING},
		{"Special app access", "2 apps can use unrestricted data", -1, -1}}},
	{SCR_NOTIFICATIONS, "Notifications", {
		{"App notifications", "Control notifications from individual apps", -1, -1},
		{"Notification history", "Show recent and snoozed notifications", -1, -1},
		{"Conversations", "No priority conversations", -1, -1},
		{"Notifications on lock screen", "Show conversations, default and silent", TG_LOCK_NOTIF, -1},
		{"Do Not Disturb", "Off", TG_DND, -1}}},
	{SCR_BATTERY, "Battery", {
		{"Battery usage", "%B - about 1 day left", -1, -1},
		{"Battery Saver", "Extends battery life", TG_BATTERY_SAVER, -1},
		{"Adaptive Battery", "Limits battery for apps you don't use often", TG_ADAPTIVE_BATTERY, -1},
		{"Battery percentage", "Show battery percentage in status bar", TG_BATTERY_PCT, -1}}},
	{SCR_STORAGE, "Storage", {
		{"System", "18 GB", -1, -1},
		{"Apps", "6.2 GB", -1, SCR_APPS},
		{"Images", "3.1 GB", -1, -1},
		{"Videos", "1.4 GB", -1, -1},
		{"Audio", "512 MB", -1, -1},
		{"Documents & other", "780 MB", -1, -1},
		{"Trash", "0 B", -1, -1},
		{"Free up space", "Manage storage", -1, -1}}},
	{SCR_SOUND, "Sound & vibration", {
		{"Media volume", "60%", -1, -1},
		{"Call volume", "80%", -1, -1},
		{"Ring & notification volume", "70%", -1, -1},
		{"Do Not Disturb", "Off", TG_DND, -1},
		{"Vibrate for calls", NULL, TG_VIBRATE, -1},
		{"Phone ringtone", "Pixel Sounds", -1, -1},
		{"Default notification sound", "Chime", -1, -1}}},
	{SCR_DISPLAY, "Display", {
		{"Brightness level", "62%", -1, -1},
		{"Adaptive brightness", "Adjust to your environment", TG_ADAPTIVE_BRIGHTNESS, -1},
		{"Dark theme", "Use a dark background", TG_DARK, -1},
		{"Screen timeout", "After 30 seconds", -1, -1},
		{"Font size", "Default", -1, -1},
		{"Display size", "Default", -1, -1}}},
	{SCR_WALLPAPER, "Wallpaper & style", {
		{"Wallpaper", "Iris", -1, -1},
		{"Wallpaper colours", "Violet", -1, -1},
		{"Themed icons", "Off", -1, -1},
		{"App grid", "4 x 5", -1, -1}}},
	{SCR_ACCESSIBILITY, "Accessibility", {
		{"TalkBack", "Spoken feedback", TG_TALKBACK, -1},
		{"Text and display", "Font size, colour correction", -1, -1},
		{"Colour and motion", "Remove animations", -1, -1},
		{"Select to Speak", "Off", -1, -1},
		{"Magnification", "Off", -1, -1},
		{"Caption preferences", "Off", -1, -1}}},
	{SCR_SECURITY, "Security & privacy", {
		{"Device unlock", "Screen lock: None", -1, -1},
		{"App security", "No problems found", -1, -1},
		{"System update", "January 1, 2026", -1, -1},
		{"Privacy dashboard", "Show which apps recently used permissions", -1, -1},
		{"Permission manager", "Control app access to your data", -1, -1}}},
	{SCR_LOCATION, "Location", {
		{"Use location", NULL, TG_LOCATION, -1},
		{"Recent access", "Notes, Contacts", -1, -1},
		{"App location permissions", "3 of 12 apps have access", -1, -1},
		{"Location services", "Wi-Fi scanning, Bluetooth scanning", -1, -1}}},
	{SCR_ACCOUNTS, "Passwords & accounts", {
		{"Passwords", "3 saved passwords", -1, -1},
		{"Autofill service", "None", -1, -1},
		{"Accounts for owner", "No accounts added", -1, -1}}},
	{SCR_WELLBEING, "Digital Wellbeing", {
		{"Screen time", "1 hr 12 min today", -1, -1},
		{"App timers", "No timers set", -1, -1},
		{"Bedtime mode", "Grey screen at night", TG_WELLBEING_BEDTIME, -1},
		{"Focus mode", "Off", -1, -1}}},
	{SCR_SYSTEM, "System", {
		{"Languages", "English (United States)", -1, -1},
		{"Keyboard", "On-screen keyboard", -1, -1},
		{"Gestures", "Navigation mode, quick tap", -1, -1},
		{"Date & time", "GMT+00:00", -1, SCR_DATETIME},
		{"Backup", "Off", -1, -1},
		{"Reset options", NULL, -1, -1},
		{"System update", "Updated to Android 14", -1, -1}}},
	{SCR_DATETIME, "Date & time", {
		{"Set time automatically", "Use network-provided time", TG_AUTO_TIME, -1},
		{"Date", "%D", -1, -1},
		{"Time", "%T", -1, -1},
		{"Time zone", "GMT+00:00 Greenwich Mean Time", -1, -1},
		{"Use 24-hour format", "13:00", -1, -1}}},
	{SCR_ABOUT, "About phone", {
		{"Device name", "amc sim", -1, -1},
		{"Phone number", "+1 555-0100", -1, -1},
		{"Model", "amc sim", -1, -1},
		{"Android version", "14", -1, -1},
		{"IP address", "%I", -1, -1},
		{"Build number", "AMC.260115.001", -1, -1},
		{"Serial number", "%S", -1, -1}}},
};

static const struct {
	const char *title, *summary, *glyph;
	int shape;
	uint32_t col;
	int screen;
} MAIN_ROWS[] = {
	{"Wi-Fi", "%W", NULL, 5, 0x1A73E8FF, SCR_WIFI},
	{"Bluetooth", "%b", "\xe2\x87\x84", 0, 0x1A73E8FF, SCR_BLUETOOTH},
	{"Network & internet", "Mobile, data usage, hotspot", "\xe2\x87\x85", 0, 0x1A73E8FF, SCR_NETWORK},
	{"Connected devices", "Bluetooth, pairing", "\xe2\x8e\x94", 0, 0x12B5CBFF, SCR_CONNECTED},
	{"Apps", "Recent apps, default apps", "\xe2\x8c\x98", 0, 0xE8710AFF, SCR_APPS},
	{"Notifications", "Notification history, conversations", "\xe2\x9a\x91", 0, 0xE8710AFF, SCR_NOTIFICATIONS},
	{"Battery", "%B - about 1 day left", "\xe2\x9a\xa1", 0, 0x188038FF, SCR_BATTERY},
	{"Storage", "41% used - 75 GB free", "\xe2\x89\xa1", 0, 0x9334E6FF, SCR_STORAGE},
	{"Sound & vibration", "Volume, haptics, Do Not Disturb", "\xe2\x99\xab", 0, 0x12B5CBFF, SCR_SOUND},
	{"Display", "Dark theme, font size, brightness", "\xe2\x98\x80", 0, 0xE8710AFF, SCR_DISPLAY},
	{"Wallpaper & style", "Colours, themed icons, app grid", "\xe2\x9d\x81", 0, 0xD01884FF, SCR_WALLPAPER},
	{"Accessibility", "Display, interaction, audio", "\xe2\x99\xbf", 0, 0x5F6368FF, SCR_ACCESSIBILITY},
	{"Security & privacy", "App security, device lock, permissions", "\xe2\x9c\x93", 0, 0x188038FF, SCR_SECURITY},
	{"Location", "%L", "\xe2\x97\x8e", 0, 0x1A73E8FF, SCR_LOCATION},
	{"Passwords & accounts", "Saved passwords, autofill, synced accounts", "\xe2\x98\x85", 0, 0xD93025FF, SCR_ACCOUNTS},
	{"Digital Wellbeing", "Screen time, app timers, bedtime schedules", "\xe2\x98\xba", 0, 0x188038FF, SCR_WELLBEING},
	{"System", "Languages, gestures, time, backup", "\xe2\x93\x98", 0, 0x5F6368FF, SCR_SYSTEM},
	{"Date & time", "GMT+00:00", "\xe2\x97\xb7", 0, 0x5F6368FF, SCR_DATETIME},
	{"About phone", "amc sim", "\xe2\x84\xb9", 0, 0x5F6368FF, SCR_ABOUT},
};
#define NMAIN ((int)(sizeof MAIN_ROWS / sizeof MAIN_ROWS[0]))

static void expand(const B *b, const char *in, char *out, size_t n)
{
	const sim *s = b->s;
	const char *p = in ? strchr(in, '%') : NULL;
	if (!in || !p || !p[1]) {
		snprintf(out, n, "%s", in ? in : "");
		return;
	}
	char v[96];
	switch (p[1]) {
	case 'B':
		snprintf(v, sizeof v, "%d%%", sim_battery(s));
		break;
	case 'T':
		sim_clock(s, v, sizeof v);
		break;
	case 'D':
		sim_date(s, v, sizeof v, 1);
		break;
	case 'W':
		if (!s->st.toggles[TG_WIFI])
			snprintf(v, sizeof v, "Off");
		else if (s->st.wifi_connected >= 0)
			snprintf(v, sizeof v, "%s", NETS[s->st.wifi_connected].name);
		else
			snprintf(v, sizeof v, "Not connected");
		break;
	case 'b':
		snprintf(v, sizeof v, "%s", s->st.toggles[TG_BLUETOOTH] ? "On" : "Off");
		break;
	case 'L':
		snprintf(v, sizeof v, "%s", s->st.toggles[TG_LOCATION] ? "On - 3 apps have access" : "Off");
		break;
	case 'I':
		if (s->st.toggles[TG_WIFI] && s->st.wifi_connected >= 0)
			snprintf(v, sizeof v, "192.168.1.%d", (int)(20 + s->st.seed % 200));
		else
			snprintf(v, sizeof v, "Unavailable");
		break;
	case 'S':
		snprintf(v, sizeof v, "AMCSIM%05d", (int)(s->st.seed % 100000));
		break;
	default:
		snprintf(v, sizeof v, "%%%c", p[1]);
	}
	snprintf(out, n, "%.*s%s%s", (int)(p - in), in, v, p + 2);
}

static void build_settings_main(B *b, int content, const sim_view *v)
{
	int top = app_bar(b, content, "Settings", 0);
	int list = list_node(b, content, top, "com.android.settings:id/recycler_view");
	int rh = D(b, 72), search_h = D(b, 72);
	int content_h = search_h + NMAIN * rh + D(b, 16);
	int scroll = clamp_scroll(v->e.scroll, content_h, b->bottom - top);
	int y = top - scroll;
	if (y + search_h > top) {
		int sb = deco(b, list, D(b, 16), y + D(b, 8), b->W - D(b, 16), y + search_h - D(b, 8), P_RECT, b->c->card,
			      D(b, 28));
		N(b, sb)->flags &= ~VF_NOTREE;
		N(b, sb)->cls = "android.widget.LinearLayout";
		N(b, sb)->rid = "com.android.settings:id/search_bar";
		shape_icon(b, sb, D(b, 44), y + search_h / 2, 32, 3, b->c->card, b->c->text2);
		label(b, sb, D(b, 72), y + (search_h - sim_line_height(D(b, 16))) / 2, b->W - D(b, 104), "Search settings", 16,
		      b->c->text2, 0, "com.android.settings:id/search_action_bar_title");
	}
	y += search_h;
	for (int i = 0; i < NMAIN; i++, y += rh) {
		if (y + rh <= top || y >= b->bottom)
			continue;
		char sum[128];
		expand(b, MAIN_ROWS[i].summary, sum, sizeof sum);
		rowspec r = {MAIN_ROWS[i].glyph, MAIN_ROWS[i].shape, MAIN_ROWS[i].col, MAIN_ROWS[i].title, sum, -1,
			     A_OPEN, MAIN_ROWS[i].screen, -1, NULL};
		row(b, list, y, rh, &r);
	}
	list_end(b, list, content_h);
}

static void build_page(B *b, int content, const sim_view *v, const pagedef *pd)
{
	int top = app_bar(b, content, pd->title, 1);
	int list = list_node(b, content, top, "com.android.settings:id/recycler_view");
	int rh = D(b, 72), n = 0;
	while (n < 9 && pd->rows[n].title)
		n++;
	int content_h = n * rh + D(b, 16);
	int scroll = clamp_scroll(v->e.scroll, content_h, b->bottom - top);
	int y = top - scroll;
	for (int i = 0; i < n; i++, y += rh) {
		if (y + rh <= top || y >= b->bottom)
			continue;
		char sum[128];
		const pagerow *pr = &pd->rows[i];
		expand(b, pr->summary, sum, sizeof sum);
		rowspec r = {NULL, 0, 0, pr->title, pr->summary ? sum : NULL, pr->toggle,
			     pr->open >= 0 ? A_OPEN : A_NONE, pr->open, -1, NULL};
		row(b, list, y, rh, &r);
	}
	list_end(b, list, content_h);
}

/* The "Use Wi-Fi" / "Use Bluetooth" bar at the top of those pages. */
static int main_switch(B *b, int parent, int top, const char *text, int toggle)
{
	const pal *c = b->c;
	int on = b->s->st.toggles[toggle];
	int h = D(b, 72);
	int bar = add(b, parent, D(b, 16), top + D(b, 8), b->W - D(b, 16), top + D(b, 8) + h, "android.widget.LinearLayout");
	vnode *n = N(b, bar);
	n->flags = VF_CLICKABLE | VF_FOCUSABLE;
	n->act = A_TOGGLE;
	n->a1 = toggle;
	n->paint = P_RECT;
	n->bg = on ? c->container : c->card;
	n->radius = D(b, 28);
	int px = D(b, 20);
	label(b, bar, D(b, 40), top + D(b, 8) + (h - sim_line_height(px)) / 2, b->W - D(b, 160), text, 20,
	      on ? c->on_container : c->text, 0, "android:id/title");
	switch_widget(b, bar, b->W - D(b, 40), top + D(b, 8) + h / 2, on);
	return top + D(b, 8) + h + D(b, 8);
}

static void build_wifi(B *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	int top = app_bar(b, content, "Wi-Fi", 1);
	int y0 = main_switch(b, content, top, "Use Wi-Fi", TG_WIFI);
	if (!s->st.toggles[TG_WIFI]) {
		label(b, content, D(b, 24), y0 + D(b, 24), b->W - D(b, 48), "Wi-Fi is off", 16, b->c->text2, 0,
		      "android:id/empty");
		return;
	}
	int list = list_node(b, content, y0, "com.android.settings:id/recycler_view");
	int rh = D(b, 72);
	int content_h = (NNETS + 2) * rh;
	int scroll = clamp_scroll(v->e.scroll, content_h, b->bottom - y0);
	int y = y0 - scroll;
	/* Connected network first, as Android lists it. */
	int order[NNETS + 1], k = 0;
	if (s->st.wifi_connected >= 0)
		order[k++] = s->st.wifi_connected;
	for (int i = 0; i < NNETS; i++)
		if (i != s->st.wifi_connected)
			order[k++] = i;
	for (int j = 0; j < NNETS; j++, y += rh) {
		if (y + rh <= y0 || y >= b->bottom)
			continue;
		int i = order[j];
		const char *sum = i == s->st.wifi_connected ? "Connected" : (i == 0 ? "Saved" : NULL);
		rowspec r = {NULL, 5, net_signal(s, i) < 2 ? 0x1A73E8FF : 0x80868BFF, NETS[i].name, sum, -1, A_OPEN,
			     SCR_WIFI_NET, i, NULL};
		row(b, list, y, rh, &r);
	}
	for (int j = 0; j < 2; j++, y += rh) {
		if (y + rh <= y0 || y >= b->bottom)
			continue;
		rowspec r = {j ? NULL : "+", 0, b->c->primary, j ? "Saved networks" : "Add network",
			     j ? (s->st.wifi_connected >= 0 ? "1 network" : "No networks") : NULL, -1, A_NONE, 0, 0, NULL};
		row(b, list, y, rh, &r);
	}
	list_end(b, list, content_h);
}

static int button(B *b, int parent, int x1, int y1, int x2, int y2, const char *text, int filled, const char *rid,
		  int act, int a1, int a2)
{
	const pal *c = b->c;
	int bt = add(b, parent, x1, y1, x2, y2, "android.widget.Button");
	vnode *n = N(b, bt);
	n->rid = rid ? rid : "";
	n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_CENTER;
	n->act = act;
	n->a1 = a1;
	n->a2 = a2;
	n->paint = P_TEXT;
	n->font_px = D(b, 15);
	n->radius = (y2 - y1) / 2;
	n->bg = filled == 1 ? c->primary : filled == 2 ? c->container : 0;
	n->fg = filled == 1 ? c->on_primary : filled == 2 ? c->on_container : c->primary;
	n->flags |= VF_BOLD;
	set_text(b, bt, text);
	return bt;
}

static int button_width(B *b, const char *text)
{
	return sim_text_width(b->s->font, D(b, 15), 1, text, strlen(text)) + D(b, 48);
}

static void build_wifi_net(B *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	int i = v->e.arg >= 0 && v->e.arg < NNETS ? v->e.arg : 0;
	int top = app_bar(b, content, NETS[i].name, 1);
	int connected = s->st.toggles[TG_WIFI] && s->st.wifi_connected == i;
	int cy = top + D(b, 64);
	shape_icon(b, content, b->W / 2, cy, 72, 5, b->c->container, b->c->primary);
	int px = D(b, 24);
	int nw = sim_text_width(s->font, px, 0, NETS[i].name, strlen(NETS[i].name));
	if (nw > b->W - D(b, 32))
		nw = b->W - D(b, 32);
	label(b, content, (b->W - nw) / 2, cy + D(b, 48), nw, NETS[i].name, 24, b->c->text, 0,
	      "com.android.settings:id/entity_header_title");
	const char *st = connected ? "Connected" : "Disconnected";
	int sw = sim_text_width(s->font, D(b, 14), 0, st, strlen(st));
	label(b, content, (b->W - sw) / 2, cy + D(b, 84), sw, st, 14, b->c->text2, 0,
	      "com.android.settings:id/entity_header_summary");
	int by = cy + D(b, 120), bh = D(b, 40);
	const char *bt = connected ? "Forget" : "Connect";
	int bw = button_width(b, bt);
	button(b, content, (b->W - bw) / 2, by, (b->W + bw) / 2, by + bh, bt, connected ? 2 : 1,
	       connected ? "com.android.settings:id/button1" : "com.android.settings:id/button2",
	       connected ? A_WIFI_FORGET : A_WIFI_CONNECT, i, 0);
	int y = by + bh + D(b, 24), rh = D(b, 72);
	const char *titles[] = {"Signal strength", "Security", "Frequency", "Privacy"};
	const char *sums[] = {SIGNAL[net_signal(s, i)], NETS[i].security, NETS[i].band, "Use randomised MAC"};
	for (int k = 0; k < 4; k++, y += rh) {
		if (y >= b->bottom)
			break;
		rowspec r = {NULL, 0, 0, titles[k], sums[k], -1, A_NONE, 0, 0, NULL};
		row(b, content, y, rh, &r);
	}
}

static void build_bluetooth(B *b, int content, const sim_view *v)
{
	(void)v;
	const sim *s = b->s;
	int top = app_bar(b, content, "Bluetooth", 1);
	int y = main_switch(b, content, top, "Use Bluetooth", TG_BLUETOOTH);
	if (!s->st.toggles[TG_BLUETOOTH]) {
		label(b, content, D(b, 24), y + D(b, 24), b->W - D(b, 48), "Bluetooth is off", 16, b->c->text2, 0,
		      "android:id/empty");
		return;
	}
	label(b, content, D(b, 16), y + D(b, 16), b->W, "Paired devices", 14, b->c->primary, VF_BOLD, "android:id/title");
	y += D(b, 48);
	int rh = D(b, 72);
	rowspec devs[] = {
		{"\xe2\x99\xab", 0, 0x1A73E8FF, "Pixel Buds Pro", "Connected", -1, A_NONE, 0, 0, NULL},
		{"\xe2\x87\x84", 0, 0x5F6368FF, "Car audio", NULL, -1, A_NONE, 0, 0, NULL},
		{"+", 0, 0x6750A4FF, "Pair new device", NULL, -1, A_NONE, 0, 0, NULL},
	};
	for (int k = 0; k < 3; k++, y += rh)
		row(b, content, y, rh, &devs[k]);
	label(b, content, D(b, 16), y + D(b, 16), b->W - D(b, 32), "Device name: amc sim", 14, b->c->text2, 0,
	      "android:id/summary");
}

/* ---- contacts ---- */

static uint32_t avatar_colour(const char *name)
{
	static const uint32_t cols[] = {0x1A73E8FF, 0xD93025FF, 0x188038FF, 0xE8710AFF, 0x9334E6FF, 0x12B5CBFF, 0xD01884FF};
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return cols[h % (sizeof cols / sizeof cols[0])];
}

static void initial(const char *name, char *out)
{
	/* First visible character (a whole UTF-8 sequence), upper-cased when ASCII. */
	const unsigned char *p = (const unsigned char *)name;
	while (*p && *p <= ' ')
		p++;
	if (!*p) {
		strcpy(out, "?");
		return;
	}
	unsigned cp;
	size_t n = amc_utf8_decode(p, strlen((const char *)p), &cp);
	memcpy(out, p, n);
	out[n] = '\0';
	if (n == 1 && out[0] >= 'a' && out[0] <= 'z')
		out[0] = (char)(out[0] - 32);
}

static int fab(B *b, int parent, const char *desc, const char *rid, const char *text)
{
	const pal *c = b->c;
	int h = D(b, 56), w = text ? sim_text_width(b->s->font, D(b, 16), 1, text, strlen(text)) + D(b, 88) : h;
	int x2 = b->W - D(b, 16), y2 = b->bottom - D(b, 40);
	int f = add(b, parent, x2 - w, y2 - h, x2, y2, text ? "android.widget.Button" : "android.widget.ImageButton");
	vnode *n = N(b, f);
	n->rid = rid;
	n->flags = VF_CLICKABLE | VF_FOCUSABLE;
	n->act = A_OPEN;
	if (desc)
		set_desc(b, f, desc);
	if (text)
		set_text(b, f, text);
	free(n->ptext);
	n->ptext = NULL;
	/* Shadow, surface, icon, label. */
	deco(b, f, x2 - w + D(b, 1), y2 - h + D(b, 3), x2 + D(b, 1), y2 + D(b, 3), P_RECT, 0x00000030, D(b, 16));
	deco(b, f, x2 - w, y2 - h, x2, y2, P_RECT, c->container, D(b, 16));
	shape_icon(b, f, x2 - w + h / 2, y2 - h / 2, 40, 2, c->container, c->on_container);
	if (text) {
		int l = label(b, f, x2 - w + h - D(b, 4), y2 - h + (h - sim_line_height(D(b, 16))) / 2, w, text, 16,
			      c->on_container, VF_BOLD | VF_NOTREE | VF_PARENT_TEXT, NULL);
		(void)l;
	}
	N(b, f)->flags |= VF_NOCLIP;
	return f;
}

static void build_contacts(B *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	int top = app_bar(b, content, "Contacts", 0);
	if (s->st.ncontacts == 0) {
		const char *t = "No contacts yet";
		int w = sim_text_width(s->font, D(b, 16), 0, t, strlen(t));
		label(b, content, (b->W - w) / 2, (top + b->bottom) / 2, w, t, 16, b->c->text2, 0,
		      "com.android.contacts:id/empty");
	} else {
		int list = list_node(b, content, top, "com.android.contacts:id/contact_list");
		int rh = D(b, 64);
		int content_h = s->st.ncontacts * rh + D(b, 96);
		int scroll = clamp_scroll(v->e.scroll, content_h, b->bottom - top);
		int y = top - scroll;
		for (int i = 0; i < s->st.ncontacts; i++, y += rh) {
			if (y + rh <= top || y >= b->bottom)
				continue;
			const char *name = s->st.contacts[i].name;
			int rw = add(b, list, 0, y, b->W, y + rh, "android.widget.LinearLayout");
			vnode *n = N(b, rw);
			n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_LONGCLICK;
			n->act = A_OPEN;
			n->a1 = SCR_CONTACT_DETAIL;
			n->a2 = i;
			char ini[8];
			initial(name, ini);
			glyph_icon(b, rw, D(b, 36), y + rh / 2, 40, ini, avatar_colour(name), 0xFFFFFFFF, 18);
			int px = D(b, 16);
			label(b, rw, D(b, 72), y + (rh - sim_line_height(px)) / 2, b->W - D(b, 88), name, 16, b->c->text, 0,
			      "com.android.contacts:id/name");
		}
		list_end(b, list, content_h);
	}
	int f = fab(b, content, "Add contact", "com.android.contacts:id/fab_add", NULL);
	N(b, f)->a1 = SCR_CONTACT_EDIT;
	N(b, f)->a2 = -1;
}

static int field(B *b, int parent, int y, const char *hint, const char *value, const char *rid, int which, int focus)
{
	const pal *c = b->c;
	int h = D(b, 56);
	int f = add(b, parent, D(b, 16), y, b->W - D(b, 16), y + h, "android.widget.EditText");
	vnode *n = N(b, f);
	n->rid = rid;
	n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_LONGCLICK | (focus == which ? VF_FOCUSED : 0);
	n->act = A_FOCUS;
	n->a1 = which;
	n->paint = P_FIELD;
	n->font_px = D(b, 16);
	n->fg = c->text;
	n->fg2 = c->outline;
	n->accent = c->primary;
	n->bg = c->bg;
	n->hint = hint;
	/* An empty EditText reports its hint as its text (Android 8+ does). */
	n->text = amc_xstrdup(*value ? value : hint);
	n->ptext = amc_xstrdup(value);
	return f;
}

static void build_contact_edit(B *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const pal *c = b->c;
	int top = app_bar(b, content, v->e.arg >= 0 ? "Edit contact" : "Create contact", 1);
	int cy = top + D(b, 56);
	const char *nm = s->st.f_name.len ? amc_sb_str(&s->st.f_name) : "";
	if (*nm) {
		char ini[8];
		initial(nm, ini);
		glyph_icon(b, content, b->W / 2, cy, 88, ini, avatar_colour(nm), 0xFFFFFFFF, 40);
	} else {
		shape_icon(b, content, b->W / 2, cy, 88, 1, c->container, c->on_container);
	}
	int y = cy + D(b, 64);
	field(b, content, y, "Name", nm, "com.android.contacts:id/name", F_NAME, v->focus);
	y += D(b, 56);
	if (s->st.form_error) {
		label(b, content, D(b, 32), y + D(b, 4), b->W - D(b, 64), "Name is required", 12, c->error, 0,
		      "com.android.contacts:id/error");
	}
	y += D(b, 24);
	field(b, content, y, "Phone", amc_sb_str(&s->st.f_phone), "com.android.contacts:id/phone", F_PHONE, v->focus);
	y += D(b, 56) + D(b, 24);
	int bh = D(b, 40);
	int sw = button_width(b, "Save"), cw = button_width(b, "Cancel");
	int x2 = b->W - D(b, 16);
	button(b, content, x2 - sw, y, x2, y + bh, "Save", 1, "com.android.contacts:id/save", A_SAVE_CONTACT, 0, 0);
	button(b, content, x2 - sw - D(b, 8) - cw, y, x2 - sw - D(b, 8), y + bh, "Cancel", 0,
	       "com.android.contacts:id/cancel", A_BACK, 0, 0);
}

static void build_contact_detail(B *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const pal *c = b->c;
	int top = app_bar(b, content, "", 1);
	if (v->e.arg < 0 || v->e.arg >= s->st.ncontacts)
		return;
	const sim_contact *ct = &s->st.contacts[v->e.arg];
	int cy = top + D(b, 72);
	char ini[8];
	initial(ct->name, ini);
	glyph_icon(b, content, b->W / 2, cy, 120, ini, avatar_colour(ct->name), 0xFFFFFFFF, 52);
	int px = D(b, 28);
	int nw = sim_text_width(s->font, px, 0, ct->name, strlen(ct->name));
	if (nw > b->W - D(b, 32))
		nw = b->W - D(b, 32);
	label(b, content, (b->W - nw) / 2, cy + D(b, 76), nw, ct->name, 28, c->text, 0,
	      "com.android.contacts:id/large_title");
	int by = cy + D(b, 136), bh = D(b, 40);
	int ew = button_width(b, "Edit"), dw = button_width(b, "Delete");
	int total = ew + D(b, 12) + dw, x = (b->W - total) / 2;
	button(b, content, x, by, x + ew, by + bh, "Edit", 2, "com.android.contacts:id/edit", A_EDIT_CONTACT, v->e.arg, 0);
	x += ew + D(b, 12);
	button(b, content, x, by, x + dw, by + bh, "Delete", 2, "com.android.contacts:id/delete", A_ASK_DELETE,
	       DLG_DELETE_CONTACT, v->e.arg);
	int y = by + bh + D(b, 24);
	int card = deco(b, content, D(b, 16), y, b->W - D(b, 16), y + D(b, 104), P_RECT, c->card, D(b, 16));
	label(b, card, D(b, 32), y + D(b, 12), b->W, "Contact info", 14, c->text, VF_BOLD, NULL);
	N(b, card)->flags &= ~VF_NOTREE;
	N(b, card)->cls = "android.widget.LinearLayout";
	glyph_icon(b, card, D(b, 48), y + D(b, 68), 32, "\xe2\x98\x8e", 0, c->text2, 20);
	const char *ph = *ct->phone ? ct->phone : "No phone number";
	label(b, card, D(b, 80), y + D(b, 46), b->W - D(b, 112), ph, 16, c->text, 0, "com.android.contacts:id/phone");
	label(b, card, D(b, 80), y + D(b, 70), b->W, "Mobile", 14, c->text2, 0, NULL);
}

/* ---- notes ---- */

static void build_notes(B *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const pal *c = b->c;
	int top = app_bar(b, content, "Notes", 0);
	if (s->st.nnotes == 0) {
		const char *t = "No notes yet";
		int w = sim_text_width(s->font, D(b, 16), 0, t, strlen(t));
		label(b, content, (b->W - w) / 2, (top + b->bottom) / 2, w, t, 16, c->text2, 0, "com.amc.notes:id/empty");
	} else {
		int list = list_node(b, content, top, "com.amc.notes:id/notes_list");
		int rh = D(b, 80), gap = D(b, 8);
		int content_h = s->st.nnotes * (rh + gap) + D(b, 112);
		int scroll = clamp_scroll(v->e.scroll, content_h, b->bottom - top);
		int y = top + gap - scroll;
		for (int i = 0; i < s->st.nnotes; i++, y += rh + gap) {
			if (y + rh <= top || y >= b->bottom)
				continue;
			int rw = add(b, list, D(b, 16), y, b->W - D(b, 16), y + rh, "android.widget.LinearLayout");
			vnode *n = N(b, rw);
			n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_LONGCLICK;
			n->act = A_OPEN;
			n->a1 = SCR_NOTE_EDIT;
			n->a2 = i;
			n->paint = P_RECT;
			n->bg = c->card;
			n->radius = D(b, 12);
			int px = D(b, 18);
			label(b, rw, D(b, 32), y + D(b, 12), b->W - D(b, 64), s->st.notes[i].title, 18, c->text, VF_BOLD,
			      "com.amc.notes:id/note_title");
			char d[32];
			sim_date(s, d, sizeof d, 0);
			label(b, rw, D(b, 32), y + D(b, 12) + sim_line_height(px) + D(b, 4), b->W - D(b, 64), d, 13, c->text2, 0,
			      "com.amc.notes:id/note_date");
		}
		list_end(b, list, content_h);
	}
	int f = fab(b, content, NULL, "com.amc.notes:id/new_note", "New note");
	N(b, f)->a1 = SCR_NOTE_EDIT;
	N(b, f)->a2 = -1;
}

static void build_note_edit(B *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	const pal *c = b->c;
	int top = app_bar(b, content, v->e.arg >= 0 ? "Edit note" : "New note", 1);
	field(b, content, top + D(b, 8), "Title", amc_sb_str(&s->st.f_title), "com.amc.notes:id/title", F_TITLE, v->focus);
	int y = top + D(b, 80);
	int body = add(b, content, D(b, 16), y, b->W - D(b, 16), b->bottom - D(b, 16), "android.view.View");
	vnode *n = N(b, body);
	n->rid = "com.amc.notes:id/body";
	n->flags = VF_CLICKABLE | VF_FOCUSABLE | (v->focus == F_BODY ? VF_FOCUSED : 0);
	n->act = A_FOCUS;
	n->a1 = F_BODY;
	/* Canvas-drawn: the text exists only in pixels, like a drawing editor. */
	n->paint = P_BLOCK;
	n->font_px = D(b, 17);
	n->fg = c->text;
	n->accent = c->primary;
	if (s->st.f_body.len)
		n->ptext = amc_xstrdup(amc_sb_str(&s->st.f_body));
	else if (v->focus != F_BODY)
		label(b, body, D(b, 32), y + D(b, 8), b->W, "Note", 17, c->text2, VF_NOTREE, NULL);
}

/* ---- launcher ---- */

static void build_launcher(B *b, int content)
{
	const sim *s = b->s;
	int wall = deco(b, content, 0, 0, b->W, b->H, P_GRADIENT, 0x1E3A5FFF, 0);
	N(b, wall)->fg = 0x6B4E9BFF;
	char d[32];
	sim_date(s, d, sizeof d, 0);
	int dl = label(b, content, D(b, 24), D(b, 56), b->W - D(b, 48), d, 22, 0xFFFFFFFF, 0,
		       "com.android.launcher3:id/date");
	set_desc(b, dl, d);
	static const struct {
		const char *label;
		int screen, shape;
		const char *glyph;
		uint32_t col;
	} apps[] = {
		{"Settings", SCR_SETTINGS, 0, "\xe2\x9a\x99", 0x5F6368FF},
		{"Contacts", SCR_CONTACTS, 1, NULL, 0x1A73E8FF},
		{"Notes", SCR_NOTES, 4, NULL, 0xF9AB00FF},
	};
	int icon = D(b, 60), lpx = D(b, 13);
	int top = b->H - D(b, 200);
	for (int k = 0; k < 3; k++) {
		int cx = b->W / 2 + (k - 1) * (b->W / 4);
		int x1 = cx - b->W / 8 + D(b, 4), x2 = cx + b->W / 8 - D(b, 4);
		int y2 = top + D(b, 8) + icon + D(b, 8) + sim_line_height(lpx) + D(b, 4);
		int ic = add(b, content, x1, top, x2, y2, "android.widget.TextView");
		vnode *n = N(b, ic);
		n->rid = "com.android.launcher3:id/icon";
		n->flags = VF_CLICKABLE | VF_FOCUSABLE | VF_LONGCLICK;
		n->act = A_LAUNCH;
		n->a1 = apps[k].screen;
		set_text(b, ic, apps[k].label);
		set_desc(b, ic, apps[k].label);
		free(n->ptext);
		n->ptext = NULL;
		int cy = top + D(b, 8) + icon / 2;
		deco(b, ic, cx - icon / 2 + D(b, 1), cy - icon / 2 + D(b, 3), cx + icon / 2 + D(b, 1), cy + icon / 2 + D(b, 3),
		     P_CIRCLE, 0x00000040, 0);
		if (apps[k].glyph)
			glyph_icon(b, ic, cx, cy, 60, apps[k].glyph, apps[k].col, 0xFFFFFFFF, 34);
		else
			shape_icon(b, ic, cx, cy, 60, apps[k].shape, apps[k].col, 0xFFFFFFFF);
		int lw = sim_text_width(s->font, lpx, 0, apps[k].label, strlen(apps[k].label));
		int l = label(b, ic, cx - lw / 2, top + D(b, 16) + icon, lw, apps[k].label, 13, 0xFFFFFFFF,
			      VF_NOTREE | VF_PARENT_TEXT, NULL);
		(void)l;
	}
	/* Search pill (decoration, as the real one is a widget we do not model). */
	int sy = b->H - D(b, 84);
	int pill = deco(b, content, D(b, 24), sy, b->W - D(b, 24), sy + D(b, 52), P_RECT, 0xFFFFFFE6, D(b, 26));
	shape_icon(b, pill, D(b, 56), sy + D(b, 26), 32, 3, 0xFFFFFF00, 0x5F6368FF);
	label(b, pill, D(b, 80), sy + (D(b, 52) - sim_line_height(D(b, 16))) / 2, b->W, "Search", 16, 0x5F6368FF,
	      VF_NOTREE, NULL);
}

/* ---- dialog and keyboard ---- */

static void build_dialog(B *b, const sim_view *v)
{
	const pal *c = b->c;
	int scrim = deco(b, 0, 0, 0, b->W, b->H, P_SCRIM, 0x00000099, 0);
	N(b, scrim)->act = A_DLG_CANCEL;
	const char *title = v->dialog == DLG_DELETE_CONTACT ? "Delete this contact?" : "Delete this note?";
	const char *msg = "This can't be undone.";
	int w = D(b, 312);
	if (w > b->W - D(b, 48))
		w = b->W - D(b, 48);
	int h = D(b, 200);
	int x1 = (b->W - w) / 2, y1 = (b->H - h) / 2;
	int dlg = add(b, 0, x1, y1, x1 + w, y1 + h, "android.widget.FrameLayout");
	vnode *n = N(b, dlg);
	n->act = A_ABSORB;
	n->paint = P_RECT;
	n->bg = c->card;
	n->radius = D(b, 28);
	b->t->dump_root = dlg;
	int body = add(b, dlg, x1, y1, x1 + w, y1 + h, "android.widget.LinearLayout");
	N(b, body)->rid = "android:id/parentPanel";
	label(b, body, x1 + D(b, 24), y1 + D(b, 24), w - D(b, 48), title, 22, c->text, 0, "android:id/alertTitle");
	label(b, body, x1 + D(b, 24), y1 + D(b, 72), w - D(b, 48), msg, 14, c->text2, 0, "android:id/message");
	int bh = D(b, 40), by = y1 + h - D(b, 24) - bh;
	int dw = button_width(b, "Delete"), cw = button_width(b, "Cancel");
	int x2 = x1 + w - D(b, 12);
	button(b, body, x2 - dw, by, x2, by + bh, "Delete", 0, "android:id/button1", A_DLG_CONFIRM, 0, 0);
	button(b, body, x2 - dw - cw, by, x2 - dw, by + bh, "Cancel", 0, "android:id/button2", A_DLG_CANCEL, 0, 0);
}

static int kb_height(const sim *s)
{
	int h = (int)(280 * s->dp + 0.5);
	return h > s->h / 2 ? s->h / 2 : h;
}

static void build_keyboard(B *b)
{
	const pal *c = b->c;
	int top = b->H - kb_height(b->s);
	int kb = deco(b, 0, 0, top, b->W, b->H, P_RECT, c->kb_panel, 0);
	N(b, kb)->act = A_ABSORB;
	static const char *rows[] = {"qwertyuiop", "asdfghjkl", "zxcvbnm"};
	int kh = (b->H - top - D(b, 48)) / 4, gap = D(b, 6);
	int kw = (b->W - D(b, 8)) / 10;
	int px = D(b, 22);
	for (int r = 0; r < 4; r++) {
		int y = top + D(b, 8) + r * kh;
		if (r < 3) {
			int nk = (int)strlen(rows[r]);
			int x = (b->W - nk * kw) / 2;
			if (r == 2) {
				int sh = deco(b, kb, D(b, 4) + gap / 2, y + gap / 2, x - gap / 2, y + kh - gap / 2, P_RECT,
					      c->kb_special, D(b, 6));
				int g = label(b, sh, N(b, sh)->x1, y + (kh - sim_line_height(px)) / 2, x - N(b, sh)->x1 - gap, "\xe2\x87\xa7",
					      22, c->kb_text, VF_NOTREE | VF_CENTER, NULL);
				N(b, g)->x1 = N(b, sh)->x1;
				N(b, g)->x2 = N(b, sh)->x2;
				int bk = deco(b, kb, x + nk * kw + gap / 2, y + gap / 2, b->W - D(b, 4) - gap / 2, y + kh - gap / 2,
					      P_RECT, c->kb_special, D(b, 6));
				N(b, bk)->act = A_KEY_BKSP;
				int bg = label(b, bk, N(b, bk)->x1, y + (kh - sim_line_height(px)) / 2, N(b, bk)->x2 - N(b, bk)->x1,
					       "\xe2\x8c\xab", 22, c->kb_text, VF_NOTREE | VF_CENTER, NULL);
				N(b, bg)->x1 = N(b, bk)->x1;
				N(b, bg)->x2 = N(b, bk)->x2;
			}
			for (int k = 0; k < nk; k++) {
				int x1 = x + k * kw + gap / 2, x2 = x + (k + 1) * kw - gap / 2;
				int key = deco(b, kb, x1, y + gap / 2, x2, y + kh - gap / 2, P_RECT, c->kb_key, D(b, 6));
				N(b, key)->act = A_KEY_CHAR;
				N(b, key)->a1 = (unsigned char)rows[r][k];
				char t[2] = {rows[r][k], 0};
				int l = label(b, key, x1, y + (kh - sim_line_height(px)) / 2, x2 - x1, t, 22, c->kb_text,
					      VF_NOTREE | VF_CENTER, NULL);
				N(b, l)->x1 = x1;
				N(b, l)->x2 = x2;
			}
		} else {
			/* ?123 , space . enter */
			struct {
				const char *t;
				int units, act, cp;
				int special;
			} keys[] = {{"?123", 15, A_ABSORB, 0, 1}, {",", 10, A_KEY_CHAR, ',', 0}, {"", 50, A_KEY_CHAR, ' ', 0},
				    {".", 10, A_KEY_CHAR, '.', 0}, {"\xe2\x86\xb5", 15, A_KEY_ENTER, 0, 2}};
			int x = D(b, 4);
			int unit = (b->W - D(b, 8)) / 100;
			for (int k = 0; k < 5; k++) {
				int w = keys[k].units * unit;
				if (k == 4)
					w = b->W - D(b, 4) - x;
				uint32_t bg = keys[k].special == 2 ? c->primary : keys[k].special ? c->kb_special : c->kb_key;
				int key = deco(b, kb, x + gap / 2, y + gap / 2, x + w - gap / 2, y + kh - gap / 2, P_RECT, bg, D(b, 6));
				N(b, key)->act = keys[k].act;
				N(b, key)->a1 = keys[k].cp;
				if (*keys[k].t) {
					int l = label(b, key, x, y + (kh - sim_line_height(D(b, 18))) / 2, w, keys[k].t, 18,
						      keys[k].special == 2 ? c->on_primary : c->kb_text, VF_NOTREE | VF_CENTER, NULL);
					N(b, l)->x1 = x;
					N(b, l)->x2 = x + w;
				}
				x += w;
			}
		}
	}
}

static const pagedef *find_page(int screen)
{
	for (size_t i = 0; i < sizeof PAGES / sizeof PAGES[0]; i++)
		if (PAGES[i].screen == screen)
			return &PAGES[i];
	return NULL;
}

void sim_current_view(const sim *s, sim_view *v)
{
	memset(v, 0, sizeof *v);
	v->e = s->st.stack[s->st.depth - 1];
	v->dialog = s->st.dialog;
	v->dialog_arg = s->st.dialog_arg;
	v->focus = s->st.focus;
	v->kb = s->st.focus != F_NONE && !s->st.kb_hidden;
}

void sim_build(const sim *s, const sim_view *v, vtree *t)
{
	memset(t, 0, sizeof *t);
	t->scroll_node = -1;
	B b = {s, t, s->st.toggles[TG_DARK] ? &DARK : &LIGHT, s->w, s->h, s->h};
	if (v->kb)
		b.bottom = s->h - kb_height(s);
	int scr = v->e.screen;
	if (scr == SCR_LAUNCHER)
		b.c = &LIGHT;
	int content = root(&b, sim_screen_package(scr), b.c->bg);
	switch (scr) {
	case SCR_LAUNCHER:
		build_launcher(&b, content);
		break;
	case SCR_SETTINGS:
		build_settings_main(&b, content, v);
		break;
	case SCR_WIFI:
		build_wifi(&b, content, v);
		break;
	case SCR_WIFI_NET:
		build_wifi_net(&b, content, v);
		break;
	case SCR_BLUETOOTH:
		build_bluetooth(&b, content, v);
		break;
	case SCR_CONTACTS:
		build_contacts(&b, content, v);
		break;
	case SCR_CONTACT_EDIT:
		build_contact_edit(&b, content, v);
		break;
	case SCR_CONTACT_DETAIL:
		build_contact_detail(&b, content, v);
		break;
	case SCR_NOTES:
		build_notes(&b, content, v);
		break;
	case SCR_NOTE_EDIT:
		build_note_edit(&b, content, v);
		break;
	default: {
		const pagedef *pd = find_page(scr);
		if (pd)
			build_page(&b, content, v, pd);
		break;
	}
	}
	if (v->kb)
		build_keyboard(&b);
	if (v->dialog != DLG_NONE)
		build_dialog(&b, v);
}

void vtree_free(vtree *t)
{
	for (int i = 0; i < t->count; i++) {
		free(t->n[i].text);
		free(t->n[i].desc);
		free(t->n[i].ptext);
	}
	free(t->n);
	memset(t, 0, sizeof *t);
}

static int inside(const vnode *n, int x, int y)
{
	return x >= n->x1 && x < n->x2 && y >= n->y1 && y < n->y2;
}

/* Visible area of node i: its bounds clipped by every ancestor. */
static int visible_box(const vtree *t, int i, int *x1, int *y1, int *x2, int *y2)
{
	const vnode *n = &t->n[i];
	int a = n->x1, b = n->y1, c = n->x2, d = n->y2;
	for (int p = n->parent; p >= 0; p = t->n[p].parent) {
		const vnode *q = &t->n[p];
		if (q->flags & VF_NOCLIP)
			continue;
		if (q->x1 > a)
			a = q->x1;
		if (q->y1 > b)
			b = q->y1;
		if (q->x2 < c)
			c = q->x2;
		if (q->y2 < d)
			d = q->y2;
	}
	*x1 = a;
	*y1 = b;
	*x2 = c;
	*y2 = d;
	return a < c && b < d;
}

int vtree_hit(const vtree *t, int x, int y)
{
	/* Later nodes are painted over earlier ones: search from the end. */
	for (int i = t->count - 1; i >= 0; i--) {
		const vnode *n = &t->n[i];
		if (n->act == A_NONE || !inside(n, x, y))
			continue;
		int a, b, c, d;
		if (visible_box(t, i, &a, &b, &c, &d) && x >= a && x < c && y >= b && y < d)
			return i;
	}
	return -1;
}

int vtree_scroll_hit(const vtree *t, int x, int y)
{
	int i = t->scroll_node;
	if (i < 0 || !inside(&t->n[i], x, y))
		return -1;
	/* Something modal drawn over the list (keyboard, dialog) takes the gesture. */
	int h = vtree_hit(t, x, y);
	if (h >= 0 && (t->n[h].act == A_ABSORB || t->n[h].act == A_DLG_CANCEL || t->n[h].act >= A_KEY_CHAR))
		return -1;
	return i;
}

void vtree_dumped(const vtree *t, int w, int h, unsigned char *dumped, int *vis)
{
	memset(dumped, 0, (size_t)t->count);
	int root = t->dump_root;
	for (int i = 0; i < t->count; i++) {
		int under = 0;
		for (int p = i; p >= 0; p = t->n[p].parent) {
			if (t->n[p].flags & VF_NOTREE)
				break;
			if (p == root) {
				under = 1;
				break;
			}
		}
		if (!under)
			continue;
		int a, b, c, d;
		if (!visible_box(t, i, &a, &b, &c, &d))
			continue;
		if (a < 0)
			a = 0;
		if (b < 0)
			b = 0;
		if (c > w)
			c = w;
		if (d > h)
			d = h;
		if (a >= c || b >= d)
			continue;
		/* A node is shown only when its parent is. */
		if (i != root && !dumped[t->n[i].parent])
			continue;
		dumped[i] = 1;
		vis[i * 4] = a;
		vis[i * 4 + 1] = b;
		vis[i * 4 + 2] = c;
		vis[i * 4 + 3] = d;
	}
}

/* ---- actions ---- */

static void begin_transition(sim *s, int kind)
{
	sim_current_view(s, &s->st.tr_from);
	s->st.tr_kind = kind;
	s->st.tr_start = s->st.time_ms;
}

static amc_sb *field_buf(sim *s, int f)
{
	switch (f) {
	case F_NAME: return &s->st.f_name;
	case F_PHONE: return &s->st.f_phone;
	case F_TITLE: return &s->st.f_title;
	case F_BODY: return &s->st.f_body;
	}
	return NULL;
}

static void trim(const char *in, amc_sb *out)
{
	size_t n = strlen(in);
	while (n && (in[n - 1] == ' ' || in[n - 1] == '\t' || in[n - 1] == '\n'))
		n--;
	while (n && (*in == ' ' || *in == '\t' || *in == '\n')) {
		in++;
		n--;
	}
	amc_sb_reset(out);
	amc_sb_append(out, in, n);
}

/* Leaving the top screen: the note editor saves (as Android apps save on pause). */
static void leave_top(sim *s)
{
	sim_entry *e = &s->st.stack[s->st.depth - 1];
	if (e->screen == SCR_NOTE_EDIT) {
		amc_sb title;
		amc_sb_init(&title);
		trim(amc_sb_str(&s->st.f_title), &title);
		const char *body = amc_sb_str(&s->st.f_body);
		int empty = title.len == 0 && body[0] == '\0';
		if (e->arg >= 0 && e->arg < s->st.nnotes) {
			sim_note *n = &s->st.notes[e->arg];
			free(n->title);
			free(n->body);
			n->title = amc_xstrdup(title.len ? title.buf : "Untitled");
			n->body = amc_xstrdup(body);
		} else if (!empty && s->st.nnotes < SIM_MAX_NOTES) {
			s->st.notes = amc_xrealloc(s->st.notes, (size_t)(s->st.nnotes + 1) * sizeof *s->st.notes);
			memmove(s->st.notes + 1, s->st.notes, (size_t)s->st.nnotes * sizeof *s->st.notes);
			s->st.notes[0].title = amc_xstrdup(title.len ? title.buf : "Untitled");
			s->st.notes[0].body = amc_xstrdup(body);
			s->st.nnotes++;
		}
		amc_sb_free(&title);
	}
	s->st.focus = F_NONE;
	s->st.kb_hidden = 0;
	s->st.form_error = 0;
	s->st.dialog = DLG_NONE;
}

/* Entering a screen: forms load their fields and focus the first one. */
static void enter_top(sim *s)
{
	sim_entry *e = &s->st.stack[s->st.depth - 1];
	s->st.focus = F_NONE;
	s->st.kb_hidden = 0;
	if (e->screen == SCR_CONTACT_EDIT) {
		amc_sb_reset(&s->st.f_name);
		amc_sb_reset(&s->st.f_phone);
		s->st.form_error = 0;
		if (e->arg >= 0 && e->arg < s->st.ncontacts) {
			amc_sb_puts(&s->st.f_name, s->st.contacts[e->arg].name);
			amc_sb_puts(&s->st.f_phone, s->st.contacts[e->arg].phone);
		} else {
			e->arg = -1;
			s->st.focus = F_NAME;
		}
	} else if (e->screen == SCR_NOTE_EDIT) {
		amc_sb_reset(&s->st.f_title);
		amc_sb_reset(&s->st.f_body);
		if (e->arg >= 0 && e->arg < s->st.nnotes) {
			amc_sb_puts(&s->st.f_title, s->st.notes[e->arg].title);
			amc_sb_puts(&s->st.f_body, s->st.notes[e->arg].body);
		} else {
			e->arg = -1;
			s->st.focus = F_TITLE;
		}
	}
}

static void push(sim *s, int screen, int arg)
{
	begin_transition(s, TR_SLIDE_FWD);
	leave_top(s);
	if (s->st.depth == SIM_MAX_STACK) {
		/* Deep stacks drop their oldest app screen, keeping the launcher. */
		memmove(s->st.stack + 1, s->st.stack + 2, (SIM_MAX_STACK - 2) * sizeof *s->st.stack);
		s->st.depth--;
	}
	sim_entry *e = &s->st.stack[s->st.depth++];
	e->screen = screen;
	e->arg = arg;
	e->scroll = 0;
	enter_top(s);
}

int sim_launch(sim *s, int screen)
{
	/* Apps slide in over the launcher; home slides the app away. */
	begin_transition(s, screen == SCR_LAUNCHER ? TR_SLIDE_BACK : TR_SLIDE_FWD);
	leave_top(s);
	s->st.depth = 1;
	s->st.stack[0].screen = SCR_LAUNCHER;
	s->st.stack[0].arg = -1;
	s->st.stack[0].scroll = 0;
	if (screen != SCR_LAUNCHER) {
		s->st.stack[1].screen = screen;
		s->st.stack[1].arg = -1;
		s->st.stack[1].scroll = 0;
		s->st.depth = 2;
	}
	enter_top(s);
	return 0;
}

static void pop(sim *s)
{
	if (s->st.depth <= 1)
		return;
	begin_transition(s, TR_SLIDE_BACK);
	leave_top(s);
	s->st.depth--;
	s->st.focus = F_NONE;
	s->st.kb_hidden = 0;
	/* Back into a list whose item went away: keep indexes valid. */
	sim_entry *e = &s->st.stack[s->st.depth - 1];
	if (e->screen == SCR_CONTACT_DETAIL && e->arg >= s->st.ncontacts)
		pop(s);
}

static void close_dialog(sim *s)
{
	begin_transition(s, TR_FADE);
	s->st.dialog = DLG_NONE;
}

static int contact_cmp(const char *a, const char *b)
{
	/* Case-insensitive for ASCII, code-point order otherwise: stable and locale-free. */
	for (;; a++, b++) {
		int ca = (unsigned char)*a, cb = (unsigned char)*b;
		if (ca >= 'A' && ca <= 'Z')
			ca += 32;
		if (cb >= 'A' && cb <= 'Z')
			cb += 32;
		if (ca != cb || !ca)
			return ca - cb;
	}
}

void sim_contacts_sort(sim_state *st)
{
	/* Insertion sort: stable, and lists are short. */
	for (int i = 1; i < st->ncontacts; i++) {
		sim_contact c = st->contacts[i];
		int j = i - 1;
		while (j >= 0 && contact_cmp(st->contacts[j].name, c.name) > 0) {
			st->contacts[j + 1] = st->contacts[j];
			j--;
		}
		st->contacts[j + 1] = c;
	}
}

static void save_contact(sim *s)
{
	amc_sb name, phone;
	amc_sb_init(&name);
	amc_sb_init(&phone);
	trim(amc_sb_str(&s->st.f_name), &name);
	trim(amc_sb_str(&s->st.f_phone), &phone);
	if (name.len == 0) {
		s->st.form_error = 1;
		amc_sb_free(&name);
		amc_sb_free(&phone);
		return;
	}
	sim_entry *e = &s->st.stack[s->st.depth - 1];
	char *keep = amc_xstrdup(name.buf);
	if (e->arg >= 0 && e->arg < s->st.ncontacts) {
		sim_contact *c = &s->st.contacts[e->arg];
		free(c->name);
		free(c->phone);
		c->name = keep;
		c->phone = amc_xstrdup(amc_sb_str(&phone));
	} else if (s->st.ncontacts < SIM_MAX_CONTACTS) {
		s->st.contacts = amc_xrealloc(s->st.contacts, (size_t)(s->st.ncontacts + 1) * sizeof *s->st.contacts);
		s->st.contacts[s->st.ncontacts].name = keep;
		s->st.contacts[s->st.ncontacts].phone = amc_xstrdup(amc_sb_str(&phone));
		s->st.ncontacts++;
	} else {
		free(keep);
		keep = NULL;
	}
	sim_contacts_sort(&s->st);
	int idx = -1;
	for (int i = 0; i < s->st.ncontacts; i++)
		if (s->st.contacts[i].name == keep)
			idx = i;
	amc_sb_free(&name);
	amc_sb_free(&phone);
	/* The form is replaced by the saved contact's page, as Contacts does. */
	begin_transition(s, TR_SLIDE_FWD);
	leave_top(s);
	s->st.depth--;
	/* An edit came from the contact's own page: drop that stale copy too. */
	if (s->st.depth > 1 && s->st.stack[s->st.depth - 1].screen == SCR_CONTACT_DETAIL)
		s->st.depth--;
	if (idx >= 0) {
		sim_entry *d = &s->st.stack[s->st.depth++];
		d->screen = SCR_CONTACT_DETAIL;
		d->arg = idx;
		d->scroll = 0;
	}
	enter_top(s);
}

static void confirm_dialog(sim *s)
{
	int arg = s->st.dialog_arg;
	if (s->st.dialog == DLG_DELETE_CONTACT && arg >= 0 && arg < s->st.ncontacts) {
		begin_transition(s, TR_SLIDE_BACK);
		/* The page sliding away must not show whoever takes the deleted index. */
		s->st.tr_from.e.arg = -1;
		s->st.tr_from.dialog = DLG_NONE;
		free(s->st.contacts[arg].name);
		free(s->st.contacts[arg].phone);
		memmove(s->st.contacts + arg, s->st.contacts + arg + 1,
			(size_t)(s->st.ncontacts - arg - 1) * sizeof *s->st.contacts);
		s->st.ncontacts--;
		s->st.dialog = DLG_NONE;
		if (s->st.depth > 1 && s->st.stack[s->st.depth - 1].screen == SCR_CONTACT_DETAIL)
			s->st.depth--;
		s->st.focus = F_NONE;
		return;
	}
	if (s->st.dialog == DLG_DELETE_NOTE && arg >= 0 && arg < s->st.nnotes) {
		begin_transition(s, TR_FADE);
		free(s->st.notes[arg].title);
		free(s->st.notes[arg].body);
		memmove(s->st.notes + arg, s->st.notes + arg + 1, (size_t)(s->st.nnotes - arg - 1) * sizeof *s->st.notes);
		s->st.nnotes--;
		s->st.dialog = DLG_NONE;
		return;
	}
	close_dialog(s);
}

static int put_text(sim *s, const char *utf8, size_t len)
{
	amc_sb *f = field_buf(s, s->st.focus);
	if (!f)
		return -1;
	size_t max = s->st.focus == F_BODY ? SIM_BODY_MAX : SIM_FIELD_MAX;
	if (f->len + len > max)
		return -2;
	amc_sb_append(f, utf8, len);
	if (s->st.focus == F_NAME)
		s->st.form_error = 0;
	return 0;
}

static void backspace(sim *s)
{
	amc_sb *f = field_buf(s, s->st.focus);
	if (!f || f->len == 0)
		return;
	size_t n = f->len - 1;
	while (n > 0 && ((unsigned char)f->buf[n] & 0xC0) == 0x80)
		n--;
	f->len = n;
	f->buf[n] = '\0';
}

void sim_key(sim *s, int key)
{
	switch (key) {
	case AMC_KEY_BACK:
		if (s->st.dialog != DLG_NONE)
			close_dialog(s);
		else if (s->st.focus != F_NONE && !s->st.kb_hidden)
			s->st.kb_hidden = 1;
		else
			pop(s);
		break;
	case AMC_KEY_HOME:
		if (s->st.depth > 1 || s->st.dialog != DLG_NONE)
			sim_launch(s, SCR_LAUNCHER);
		break;
	case AMC_KEY_ENTER:
		switch (s->st.focus) {
		case F_NAME:
			s->st.focus = F_PHONE;
			s->st.kb_hidden = 0;
			break;
		case F_TITLE:
			s->st.focus = F_BODY;
			s->st.kb_hidden = 0;
			break;
		case F_BODY:
			put_text(s, "\n", 1);
			break;
		case F_PHONE:
			s->st.kb_hidden = 1; /* the IME's "done" */
			break;
		}
		break;
	}
}

int sim_type(sim *s, const char *utf8)
{
	if (s->st.focus == F_NONE)
		return -1;
	return put_text(s, utf8, strlen(utf8));
}

static void act(sim *s, const vnode *n, int long_press)
{
	if (long_press && n->act == A_OPEN && n->a1 == SCR_NOTE_EDIT && n->a2 >= 0) {
		begin_transition(s, TR_FADE);
		s->st.dialog = DLG_DELETE_NOTE;
		s->st.dialog_arg = n->a2;
		return;
	}
	switch (n->act) {
	case A_BACK: /* the up arrow and Cancel leave the screen even with a keyboard up */
		if (s->st.dialog != DLG_NONE)
			close_dialog(s);
		else
			pop(s);
		break;
	case A_OPEN:
		push(s, n->a1, n->a2);
		break;
	case A_LAUNCH:
		sim_launch(s, n->a1);
		break;
	case A_TOGGLE:
		s->st.toggles[n->a1] = !s->st.toggles[n->a1];
		break;
	case A_FOCUS:
		s->st.focus = n->a1;
		s->st.kb_hidden = 0;
		break;
	case A_SAVE_CONTACT:
		save_contact(s);
		break;
	case A_EDIT_CONTACT:
		push(s, SCR_CONTACT_EDIT, n->a1);
		break;
	case A_ASK_DELETE:
		begin_transition(s, TR_FADE);
		s->st.dialog = n->a1;
		s->st.dialog_arg = n->a2;
		break;
	case A_DLG_CANCEL:
		close_dialog(s);
		break;
	case A_DLG_CONFIRM:
		confirm_dialog(s);
		break;
	case A_WIFI_CONNECT:
		if (!s->st.toggles[TG_WIFI])
			s->st.toggles[TG_WIFI] = 1;
		s->st.wifi_connected = n->a1;
		break;
	case A_WIFI_FORGET:
		s->st.wifi_connected = -1;
		break;
	case A_KEY_CHAR: {
		amc_sb t;
		amc_sb_init(&t);
		amc_utf8_encode((unsigned)n->a1, &t);
		put_text(s, t.buf, t.len);
		amc_sb_free(&t);
		break;
	}
	case A_KEY_BKSP:
		backspace(s);
		break;
	case A_KEY_ENTER:
		sim_key(s, AMC_KEY_ENTER);
		break;
	default:
		break;
	}
}

int sim_tap_at(sim *s, int x, int y, int long_press)
{
	sim_view v;
	vtree t;
	sim_current_view(s, &v);
	sim_build(s, &v, &t);
	int i = vtree_hit(&t, x, y);
	if (i >= 0) {
		vnode n = t.n[i];
		act(s, &n, long_press);
	} else if (s->st.focus != F_NONE) {
		/* A tap on nothing in particular takes the focus away, keyboard too. */
		s->st.focus = F_NONE;
	}
	vtree_free(&t);
	return i >= 0;
}

void sim_swipe(sim *s, int x1, int y1, int x2, int y2)
{
	(void)x2;
	sim_view v;
	vtree t;
	sim_current_view(s, &v);
	sim_build(s, &v, &t);
	if (vtree_scroll_hit(&t, x1, y1) >= 0) {
		sim_entry *e = &s->st.stack[s->st.depth - 1];
		int sc = e->scroll;
		if (sc > t.scroll_max)
			sc = t.scroll_max;
		sc += y1 - y2;
		e->scroll = sc < 0 ? 0 : sc > t.scroll_max ? t.scroll_max : sc;
	}
	vtree_free(&t);
}

/* screens_settings.c - the Settings app: the main list, the sub-pages (one
 * table row each), Wi-Fi with its networks and one network's page, and
 * Bluetooth. */
#include <stdio.h>
#include <string.h>

#include "device/sim/screens.h"

static const char *SIGNAL[] = {"Excellent", "Good", "Fair", "Weak"};

typedef struct pagerow {
	const char *title, *summary;
	int toggle;
	int open;           /* screen to open, -1 none; PICK(p): value picker p */
} pagerow;

#define PICK(p) (SCR_COUNT + (p))

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
		{"Hotspot & tethering", "Share this phone's connection", TG_HOTSPOT, -1},
		{"Data Saver", "Limit background data", TG_DATA_SAVER, -1},
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
		{"Auto-rotate screen", NULL, TG_AUTO_ROTATE, -1},
		{"Screen timeout", NULL, -1, PICK(PK_SCREEN_TIMEOUT)},
		{"Font size", NULL, -1, PICK(PK_FONT_SIZE)},
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

static void expand(const sim_builder *b, const char *in, char *out, size_t n)
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
			snprintf(v, sizeof v, "%s", sim_network_get(s->st.wifi_connected)->name);
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

void sim_build_settings_main(sim_builder *b, int content, const sim_view *v)
{
	int top = sim_app_bar(b, content, "Settings", 0);
	int list = sim_list(b, content, top, "com.android.settings:id/recycler_view");
	int rh = D(b, 72), search_h = D(b, 72);
	int content_h = search_h + NMAIN * rh + D(b, 16);
	int scroll = sim_clamp_scroll(v->e.scroll, content_h, b->bottom - top);
	int y = top - scroll;
	if (y + search_h > top) {
		int sb = sim_deco(b, list, D(b, 16), y + D(b, 8), b->W - D(b, 16), y + search_h - D(b, 8), P_RECT, b->c->card,
			      D(b, 28));
		N(b, sb)->flags &= ~VF_NOTREE;
		N(b, sb)->cls = "android.widget.LinearLayout";
		N(b, sb)->rid = "com.android.settings:id/search_bar";
		sim_shape_icon(b, sb, D(b, 44), y + search_h / 2, 32, 3, b->c->card, b->c->text2);
		sim_label(b, sb, D(b, 72), y + (search_h - sim_line_height(D(b, 16))) / 2, b->W - D(b, 104), "Search settings", 16,
		      b->c->text2, 0, "com.android.settings:id/search_action_bar_title");
	}
	y += search_h;
	for (int i = 0; i < NMAIN; i++, y += rh) {
		if (y + rh <= top || y >= b->bottom)
			continue;
		char sum[128];
		expand(b, MAIN_ROWS[i].summary, sum, sizeof sum);
		sim_rowspec r = {MAIN_ROWS[i].glyph, MAIN_ROWS[i].shape, MAIN_ROWS[i].col, MAIN_ROWS[i].title, sum, -1,
			     A_OPEN, MAIN_ROWS[i].screen, -1, NULL};
		sim_row(b, list, y, rh, &r);
	}
	sim_list_end(b, list, content_h);
}

static const pagedef *find_page(int screen)
{
	for (size_t i = 0; i < sizeof PAGES / sizeof PAGES[0]; i++)
		if (PAGES[i].screen == screen)
			return &PAGES[i];
	return NULL;
}

void sim_build_page(sim_builder *b, int content, const sim_view *v)
{
	const pagedef *pd = find_page(v->e.screen);
	if (!pd)
		return;
	int top = sim_app_bar(b, content, pd->title, 1);
	int list = sim_list(b, content, top, "com.android.settings:id/recycler_view");
	int rh = D(b, 72), n = 0;
	while (n < 9 && pd->rows[n].title)
		n++;
	int content_h = n * rh + D(b, 16);
	int scroll = sim_clamp_scroll(v->e.scroll, content_h, b->bottom - top);
	int y = top - scroll;
	for (int i = 0; i < n; i++, y += rh) {
		if (y + rh <= top || y >= b->bottom)
			continue;
		char sum[128];
		const pagerow *pr = &pd->rows[i];
		expand(b, pr->summary, sum, sizeof sum);
		sim_rowspec r = {NULL, 0, 0, pr->title, pr->summary ? sum : NULL, pr->toggle,
			     pr->open >= 0 ? A_OPEN : A_NONE, pr->open, -1, NULL};
		if (pr->open >= SCR_COUNT) {
			/* The value is the summary, as ListPreference shows it. */
			int pk = pr->open - SCR_COUNT;
			snprintf(sum, sizeof sum, "%s", sim_pick_value(pk, b->s->st.picks[pk]));
			r.summary = sum;
			r.act = A_PICK_OPEN;
			r.a1 = pk;
		}
		sim_row(b, list, y, rh, &r);
	}
	sim_list_end(b, list, content_h);
}

/* The "Use Wi-Fi" / "Use Bluetooth" bar at the top of those pages. */
static int main_switch(sim_builder *b, int parent, int top, const char *text, int toggle)
{
	const sim_pal *c = b->c;
	int on = b->s->st.toggles[toggle];
	int h = D(b, 72);
	int bar = sim_add(b, parent, D(b, 16), top + D(b, 8), b->W - D(b, 16), top + D(b, 8) + h, "android.widget.LinearLayout");
	vnode *n = N(b, bar);
	n->flags = VF_CLICKABLE | VF_FOCUSABLE;
	n->act = A_TOGGLE;
	n->a1 = toggle;
	n->paint = P_RECT;
	n->bg = on ? c->container : c->card;
	n->radius = D(b, 28);
	int px = D(b, 20);
	sim_label(b, bar, D(b, 40), top + D(b, 8) + (h - sim_line_height(px)) / 2, b->W - D(b, 160), text, 20,
	      on ? c->on_container : c->text, 0, "android:id/title");
	sim_switch(b, bar, b->W - D(b, 40), top + D(b, 8) + h / 2, on);
	return top + D(b, 8) + h + D(b, 8);
}

void sim_build_wifi(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	int top = sim_app_bar(b, content, "Wi-Fi", 1);
	int y0 = main_switch(b, content, top, "Use Wi-Fi", TG_WIFI);
	if (!s->st.toggles[TG_WIFI]) {
		sim_label(b, content, D(b, 24), y0 + D(b, 24), b->W - D(b, 48), "Wi-Fi is off", 16, b->c->text2, 0,
		      "android:id/empty");
		return;
	}
	int list = sim_list(b, content, y0, "com.android.settings:id/recycler_view");
	int rh = D(b, 72);
	int content_h = (SIM_NETWORKS + 2) * rh;
	int scroll = sim_clamp_scroll(v->e.scroll, content_h, b->bottom - y0);
	int y = y0 - scroll;
	/* Connected network first, as Android lists it. */
	int order[SIM_NETWORKS + 1], k = 0;
	if (s->st.wifi_connected >= 0)
		order[k++] = s->st.wifi_connected;
	for (int i = 0; i < SIM_NETWORKS; i++)
		if (i != s->st.wifi_connected)
			order[k++] = i;
	for (int j = 0; j < SIM_NETWORKS; j++, y += rh) {
		if (y + rh <= y0 || y >= b->bottom)
			continue;
		int i = order[j];
		const char *sum = i == s->st.wifi_connected ? "Connected" : (i == 0 ? "Saved" : NULL);
		sim_rowspec r = {NULL, 5, sim_network_signal(s, i) < 2 ? 0x1A73E8FF : 0x80868BFF, sim_network_get(i)->name, sum, -1, A_OPEN,
			     SCR_WIFI_NET, i, NULL};
		sim_row(b, list, y, rh, &r);
	}
	for (int j = 0; j < 2; j++, y += rh) {
		if (y + rh <= y0 || y >= b->bottom)
			continue;
		sim_rowspec r = {j ? NULL : "+", 0, b->c->primary, j ? "Saved networks" : "Add network",
			     j ? (s->st.wifi_connected >= 0 ? "1 network" : "No networks") : NULL, -1, A_NONE, 0, 0, NULL};
		sim_row(b, list, y, rh, &r);
	}
	sim_list_end(b, list, content_h);
}

void sim_build_wifi_net(sim_builder *b, int content, const sim_view *v)
{
	const sim *s = b->s;
	int i = v->e.arg >= 0 && v->e.arg < SIM_NETWORKS ? v->e.arg : 0;
	int top = sim_app_bar(b, content, sim_network_get(i)->name, 1);
	int connected = s->st.toggles[TG_WIFI] && s->st.wifi_connected == i;
	int cy = top + D(b, 64);
	sim_shape_icon(b, content, b->W / 2, cy, 72, 5, b->c->container, b->c->primary);
	int px = D(b, 24);
	int nw = sim_text_width(s->font, px, 0, sim_network_get(i)->name, strlen(sim_network_get(i)->name));
	if (nw > b->W - D(b, 32))
		nw = b->W - D(b, 32);
	sim_label(b, content, (b->W - nw) / 2, cy + D(b, 48), nw, sim_network_get(i)->name, 24, b->c->text, 0,
	      "com.android.settings:id/entity_header_title");
	const char *st = connected ? "Connected" : "Disconnected";
	int sw = sim_text_width(s->font, D(b, 14), 0, st, strlen(st));
	sim_label(b, content, (b->W - sw) / 2, cy + D(b, 84), sw, st, 14, b->c->text2, 0,
	      "com.android.settings:id/entity_header_summary");
	int by = cy + D(b, 120), bh = D(b, 40);
	const char *bt = connected ? "Forget" : "Connect";
	int bw = sim_button_width(b, bt);
	sim_button(b, content, (b->W - bw) / 2, by, (b->W + bw) / 2, by + bh, bt, connected ? 2 : 1,
	       connected ? "com.android.settings:id/button1" : "com.android.settings:id/button2",
	       connected ? A_WIFI_FORGET : A_WIFI_CONNECT, i, 0);
	int y = by + bh + D(b, 24), rh = D(b, 72);
	const char *titles[] = {"Signal strength", "Security", "Frequency", "Privacy"};
	const char *sums[] = {SIGNAL[sim_network_signal(s, i)], sim_network_get(i)->security, sim_network_get(i)->band, "Use randomised MAC"};
	for (int k = 0; k < 4; k++, y += rh) {
		if (y >= b->bottom)
			break;
		sim_rowspec r = {NULL, 0, 0, titles[k], sums[k], -1, A_NONE, 0, 0, NULL};
		sim_row(b, content, y, rh, &r);
	}
}

void sim_build_bluetooth(sim_builder *b, int content, const sim_view *v)
{
	(void)v;
	const sim *s = b->s;
	int top = sim_app_bar(b, content, "Bluetooth", 1);
	int y = main_switch(b, content, top, "Use Bluetooth", TG_BLUETOOTH);
	if (!s->st.toggles[TG_BLUETOOTH]) {
		sim_label(b, content, D(b, 24), y + D(b, 24), b->W - D(b, 48), "Bluetooth is off", 16, b->c->text2, 0,
		      "android:id/empty");
		return;
	}
	sim_label(b, content, D(b, 16), y + D(b, 16), b->W, "Paired devices", 14, b->c->primary, VF_BOLD, "android:id/title");
	y += D(b, 48);
	int rh = D(b, 72);
	sim_rowspec devs[] = {
		{"\xe2\x99\xab", 0, 0x1A73E8FF, "Pixel Buds Pro", "Connected", -1, A_NONE, 0, 0, NULL},
		{"\xe2\x87\x84", 0, 0x5F6368FF, "Car audio", NULL, -1, A_NONE, 0, 0, NULL},
		{"+", 0, 0x6750A4FF, "Pair new device", NULL, -1, A_NONE, 0, 0, NULL},
	};
	for (int k = 0; k < 3; k++, y += rh)
		sim_row(b, content, y, rh, &devs[k]);
	sim_label(b, content, D(b, 16), y + D(b, 16), b->W - D(b, 32), "Device name: amc sim", 14, b->c->text2, 0,
	      "android:id/summary");
}

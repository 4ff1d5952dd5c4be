/* state.c - the sim's persistent state: factory defaults, JSON in and out, and
 * $AMC_HOME/sim/N/state.json (written atomically, 0600, folder 0700). A state
 * file from outside is validated like any input: bad values are refused with a
 * message that says how to start over, never trusted as indexes. Also the
 * facts the screens, the painter and the JSON derive from a state (networks,
 * battery, clock, date, contact order), so that this file needs no other. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "device/sim/ambient.h"
#include "device/sim/sim_int.h"
#include "util/fsutil.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"

#define STATE_VERSION 1
#define STATE_MAX_BYTES (32u << 20)

static const char *SCREEN_NAMES[SCR_COUNT] = {
	"launcher", "settings", "wifi", "wifi_network", "bluetooth", "network", "connected_devices", "apps",
	"notifications", "battery", "storage", "sound", "display", "wallpaper", "accessibility", "security",
	"location", "accounts", "wellbeing", "system", "date_time", "about", "contacts", "contact_edit",
	"contact_detail", "notes", "note_editor", "clock", "alarm_editor", "messages", "conversation", "new_message",
	"files", "file_detail",
};

static const char *TOGGLE_NAMES[TG_COUNT] = {
	"wifi", "bluetooth", "dark_theme", "airplane_mode", "adaptive_brightness", "battery_percentage",
	"battery_saver", "adaptive_battery", "do_not_disturb", "vibrate_for_calls", "location", "auto_time", "nfc",
	"lock_screen_notifications", "talkback", "bedtime_mode", "data_saver", "hotspot", "auto_rotate",
};

static const char *FIELD_NAMES[F_COUNT] = {NULL, "name", "phone", "title", "body", "search", "time", "label", "to", "message"};
static const char *DIALOG_NAMES[DLG_COUNT] = {NULL, "delete_contact", "delete_note", "delete_alarm", "delete_conversation",
					      "delete_file", "picker"};
static const char *TRANS_NAMES[] = {NULL, "slide_forward", "slide_back", "fade"};

const char *sim_screen_name(int screen)
{
	return screen >= 0 && screen < SCR_COUNT ? SCREEN_NAMES[screen] : "?";
}

const char *sim_toggle_name(int t)
{
	return t >= 0 && t < TG_COUNT ? TOGGLE_NAMES[t] : "?";
}

/* The one list of the sim's apps: package, the screen it opens on, and the
 * range of screens that are its own (the enum keeps each app's together). */
static const sim_app APPS[] = {
	{ "com.android.settings", SCR_SETTINGS, SCR_SETTINGS, SCR_ABOUT },
	{ "com.android.contacts", SCR_CONTACTS, SCR_CONTACTS, SCR_CONTACT_DETAIL },
	{ "com.amc.notes", SCR_NOTES, SCR_NOTES, SCR_NOTE_EDIT },
	{ "com.android.deskclock", SCR_CLOCK, SCR_CLOCK, SCR_ALARM_EDIT },
	{ "com.amc.messages", SCR_MESSAGES, SCR_MESSAGES, SCR_COMPOSE },
	{ "com.amc.files", SCR_FILES, SCR_FILES, SCR_FILE_DETAIL },
	{ "com.android.launcher3", SCR_LAUNCHER, SCR_LAUNCHER, SCR_LAUNCHER },
};

const sim_app *sim_apps(size_t *n)
{
	*n = sizeof APPS / sizeof APPS[0];
	return APPS;
}

const char *amc_sim_app_id(size_t i)
{
	return i < sizeof APPS / sizeof APPS[0] ? APPS[i].pkg : NULL;
}

const sim_app *sim_app_of(const char *pkg)
{
	for (size_t i = 0; pkg && i < sizeof APPS / sizeof APPS[0]; i++)
		if (!strcmp(pkg, APPS[i].pkg))
			return &APPS[i];
	return NULL;
}

const char *sim_screen_package(int screen)
{
	for (size_t i = 0; i < sizeof APPS / sizeof APPS[0]; i++)
		if (screen >= APPS[i].first && screen <= APPS[i].last)
			return APPS[i].pkg;
	return "com.android.settings";
}

/* ---- the world the apps show: networks, battery, clock, contact order ---- */

static const sim_network NETS[SIM_NETWORKS] = {
	{"HomeNet", "WPA2-Personal", "5 GHz", 1},
	{"Office-5G", "WPA3-Personal", "5 GHz", 1},
	{"CoffeeShop Guest", "None", "2.4 GHz", 0},
	{"Neighbour_2.4", "WPA2-Personal", "2.4 GHz", 1},
	{"Library_Free", "None", "2.4 GHz", 0},
	{"DIRECT-42-Printer", "WPA2-Personal", "2.4 GHz", 1},
	{"Pixel_Hotspot", "WPA3-Personal", "5 GHz", 1},
	{"Guest-2.4", "WPA2-Personal", "2.4 GHz", 1},
};

int sim_network_count(void)
{
	return SIM_NETWORKS;
}

const sim_network *sim_network_get(int i)
{
	return i >= 0 && i < SIM_NETWORKS ? &NETS[i] : NULL;
}

const char *sim_network_name(int i)
{
	return i >= 0 && i < SIM_NETWORKS ? NETS[i].name : "";
}

int sim_battery(const sim *s)
{
	long long lvl = s->st.battery_start - s->st.time_ms / (6 * 60 * 1000);
	return lvl < 5 ? 5 : (int)lvl;
}

/* Signal strength of network i: fixed per seed, so two sims may differ. */
int sim_network_signal(const sim *s, int i)
{
	return (int)((s->st.seed * 7 + i * 3 + i * i) % 4);
}

void sim_date(const sim *s, char *out, size_t n, int long_form)
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

void sim_clock(const sim *s, char *out, size_t n)
{
	long long min = s->st.time_ms / 60000 + 9 * 60 + 41;
	snprintf(out, n, "%02lld:%02lld", (min / 60) % 24, min % 60);
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

static uint64_t splitmix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

static void add_contact(sim_state *st, const char *name, const char *phone)
{
	st->contacts = amc_xrealloc(st->contacts, (size_t)(st->ncontacts + 1) * sizeof *st->contacts);
	st->contacts[st->ncontacts].name = amc_xstrdup(name);
	st->contacts[st->ncontacts].phone = amc_xstrdup(phone);
	st->contacts[st->ncontacts].favorite = 0;
	st->ncontacts++;
}

static void add_note(sim_state *st, const char *title, const char *body)
{
	st->notes = amc_xrealloc(st->notes, (size_t)(st->nnotes + 1) * sizeof *st->notes);
	st->notes[st->nnotes].title = amc_xstrdup(title);
	st->notes[st->nnotes].body = amc_xstrdup(body);
	st->nnotes++;
}

void sim_state_free(sim_state *st)
{
	free(st->permissions);
	free(st->launch_args);
	st->permissions = st->launch_args = NULL;
	for (int i = 0; i < st->ncontacts; i++) {
		free(st->contacts[i].name);
		free(st->contacts[i].phone);
	}
	free(st->contacts);
	for (int i = 0; i < st->nnotes; i++) {
		free(st->notes[i].title);
		free(st->notes[i].body);
	}
	free(st->notes);
	amc_sb_free(&st->f_name);
	amc_sb_free(&st->f_phone);
	amc_sb_free(&st->f_title);
	amc_sb_free(&st->f_body);
	sim_apps_free(st);
	memset(st, 0, sizeof *st);
}

void sim_state_factory(sim_state *st, long long seed)
{
	memset(st, 0, sizeof *st);
	amc_sb_init(&st->f_name);
	amc_sb_init(&st->f_phone);
	amc_sb_init(&st->f_title);
	amc_sb_init(&st->f_body);
	st->seed = seed;
	st->rng = splitmix((uint64_t)seed);
	st->depth = 1;
	st->stack[0].screen = SCR_LAUNCHER;
	st->stack[0].arg = -1;
	st->toggles[TG_WIFI] = 1;
	st->toggles[TG_ADAPTIVE_BRIGHTNESS] = 1;
	st->toggles[TG_BATTERY_PCT] = 1;
	st->toggles[TG_ADAPTIVE_BATTERY] = 1;
	st->toggles[TG_VIBRATE] = 1;
	st->toggles[TG_LOCATION] = 1;
	st->toggles[TG_AUTO_TIME] = 1;
	st->toggles[TG_LOCK_NOTIF] = 1;
	st->wifi_connected = 0;
	st->battery_start = 72 + (int)(seed % 25);
	st->volume = SIM_VOLUME_FACTORY;
	add_contact(st, "Alan Turing", "+44 20 7946 0018");
	add_contact(st, "Grace Hopper", "+1 202 555 0143");
	add_note(st, "Welcome",
		 "Welcome to Notes.\nThis text is drawn on a canvas: it shows in screenshots but not in the UI tree, "
		 "so reading it takes OCR.");
	add_note(st, "Shopping list", "Milk\nEggs\nBread\nCoffee beans");
	sim_apps_factory(st);
}

/* One app's data back to factory: the other apps' data is kept. The
 * launcher has no data; Settings owns the toggles and the Wi-Fi connection. */
int sim_state_clear_app(sim_state *st, const char *pkg)
{
	sim_state f;
	sim_state_factory(&f, st->seed);
	int rc = 0;
	if (!strcmp(pkg, "com.android.contacts")) {
		sim_contact *c = st->contacts;
		int n = st->ncontacts;
		st->contacts = f.contacts;
		st->ncontacts = f.ncontacts;
		f.contacts = c;
		f.ncontacts = n;
	} else if (!strcmp(pkg, "com.amc.notes")) {
		sim_note *nt = st->notes;
		int n = st->nnotes;
		st->notes = f.notes;
		st->nnotes = f.nnotes;
		f.notes = nt;
		f.nnotes = n;
	} else if (!strcmp(pkg, "com.android.settings")) {
		memcpy(st->toggles, f.toggles, sizeof st->toggles);
		st->wifi_connected = f.wifi_connected;
	} else if (strcmp(pkg, "com.android.launcher3") != 0) {
		rc = -1;
	}
	sim_state_free(&f);
	return rc;
}

static cJSON *view_json(const sim_view *v)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "screen", sim_screen_name(v->e.screen));
	cJSON_AddNumberToObject(o, "arg", v->e.arg);
	cJSON_AddNumberToObject(o, "scroll", v->e.scroll);
	amc_json_add_str(o, "dialog", DIALOG_NAMES[v->dialog]);
	cJSON_AddNumberToObject(o, "dialog_arg", v->dialog_arg);
	amc_json_add_str(o, "focus", FIELD_NAMES[v->focus]);
	cJSON_AddBoolToObject(o, "keyboard", v->kb);
	return o;
}

char *sim_state_to_json(const sim *s)
{
	const sim_state *st = &s->st;
	const sim_entry *top = &st->stack[st->depth - 1];
	cJSON *o = cJSON_CreateObject();
	char buf[64];
	cJSON_AddNumberToObject(o, "version", STATE_VERSION);
	snprintf(buf, sizeof buf, "sim:%d", s->index);
	cJSON_AddStringToObject(o, "device", buf);
	cJSON_AddStringToObject(o, "app", sim_screen_package(top->screen));
	cJSON_AddStringToObject(o, "screen", sim_screen_name(top->screen));
	cJSON_AddNumberToObject(o, "sim_time_ms", (double)st->time_ms);
	cJSON_AddNumberToObject(o, "width", s->w);
	cJSON_AddNumberToObject(o, "height", s->h);
	long long min = st->time_ms / 60000 + 9 * 60 + 41;
	snprintf(buf, sizeof buf, "%02lld:%02lld", (min / 60) % 24, min % 60);
	cJSON_AddStringToObject(o, "clock", buf);
	cJSON_AddBoolToObject(o, "wifi", st->toggles[TG_WIFI]);
	cJSON_AddBoolToObject(o, "bluetooth", st->toggles[TG_BLUETOOTH]);
	cJSON_AddBoolToObject(o, "dark_theme", st->toggles[TG_DARK]);
	amc_json_add_str(o, "wifi_network",
			 st->toggles[TG_WIFI] && st->wifi_connected >= 0 ? sim_network_name(st->wifi_connected) : NULL);
	cJSON_AddNumberToObject(o, "wifi_saved", st->wifi_connected);
	cJSON_AddNumberToObject(o, "battery", sim_battery(s));
	cJSON_AddNumberToObject(o, "battery_start", st->battery_start);
	cJSON_AddNumberToObject(o, "seed", (double)st->seed);
	amc_json_add_str(o, "focused_field", FIELD_NAMES[st->focus]);
	cJSON_AddBoolToObject(o, "keyboard", st->focus != F_NONE && !st->kb_hidden);
	cJSON_AddBoolToObject(o, "keyboard_hidden", st->kb_hidden);
	cJSON_AddBoolToObject(o, "selection", st->selected);
	amc_json_add_str(o, "dialog", DIALOG_NAMES[st->dialog]);
	cJSON_AddNumberToObject(o, "dialog_arg", st->dialog_arg);
	cJSON *f = cJSON_AddObjectToObject(o, "fields");
	cJSON_AddStringToObject(f, "name", amc_sb_str(&st->f_name));
	cJSON_AddStringToObject(f, "phone", amc_sb_str(&st->f_phone));
	cJSON_AddStringToObject(f, "title", amc_sb_str(&st->f_title));
	cJSON_AddStringToObject(f, "body", amc_sb_str(&st->f_body));
	cJSON_AddStringToObject(f, "search", amc_sb_str(&st->f_search));
	cJSON_AddStringToObject(f, "time", amc_sb_str(&st->f_time));
	cJSON_AddStringToObject(f, "label", amc_sb_str(&st->f_label));
	cJSON_AddStringToObject(f, "to", amc_sb_str(&st->f_to));
	cJSON_AddStringToObject(f, "message", amc_sb_str(&st->f_message));
	cJSON_AddBoolToObject(o, "form_error", st->form_error);
	cJSON *tg = cJSON_AddObjectToObject(o, "toggles");
	for (int i = 0; i < TG_COUNT; i++)
		cJSON_AddBoolToObject(tg, TOGGLE_NAMES[i], st->toggles[i]);
	cJSON_AddStringToObject(o, "orientation", amc_orientation_name(st->orientation));
	cJSON_AddNumberToObject(o, "volume", st->volume);
	cJSON *pj = st->permissions ? cJSON_Parse(st->permissions) : NULL;
	cJSON *aj = st->launch_args ? cJSON_Parse(st->launch_args) : NULL;
	if (pj)
		cJSON_AddItemToObject(o, "permissions", pj);
	if (aj)
		cJSON_AddItemToObject(o, "launch_arguments", aj);
	if (st->has_location) {
		cJSON *lo = cJSON_AddObjectToObject(o, "location");
		cJSON_AddNumberToObject(lo, "latitude", st->lat);
		cJSON_AddNumberToObject(lo, "longitude", st->lon);
	}
	cJSON *stack = cJSON_AddArrayToObject(o, "stack");
	for (int i = 0; i < st->depth; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "screen", sim_screen_name(st->stack[i].screen));
		cJSON_AddNumberToObject(e, "arg", st->stack[i].arg);
		cJSON_AddNumberToObject(e, "scroll", st->stack[i].scroll);
		cJSON_AddItemToArray(stack, e);
	}
	cJSON *cs = cJSON_AddArrayToObject(o, "contacts");
	for (int i = 0; i < st->ncontacts; i++) {
		cJSON *c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "name", st->contacts[i].name);
		cJSON_AddStringToObject(c, "phone", st->contacts[i].phone);
		cJSON_AddBoolToObject(c, "favorite", st->contacts[i].favorite);
		cJSON_AddItemToArray(cs, c);
	}
	cJSON *ns = cJSON_AddArrayToObject(o, "notes");
	for (int i = 0; i < st->nnotes; i++) {
		cJSON *n = cJSON_CreateObject();
		cJSON_AddStringToObject(n, "title", st->notes[i].title);
		cJSON_AddStringToObject(n, "body", st->notes[i].body);
		cJSON_AddItemToArray(ns, n);
	}
	sim_apps_to_json(st, o);
	if (st->tr_kind != TR_NONE && st->time_ms - st->tr_start < SIM_TRANSITION_MS) {
		cJSON *t = cJSON_AddObjectToObject(o, "transition");
		cJSON_AddStringToObject(t, "kind", TRANS_NAMES[st->tr_kind]);
		cJSON_AddNumberToObject(t, "start_ms", (double)st->tr_start);
		cJSON_AddItemToObject(t, "from", view_json(&st->tr_from));
	} else {
		cJSON_AddNullToObject(o, "transition");
	}
	sim_ambient_to_json(st, st->time_ms, o);
	/* The PRNG state does not fit a JSON number exactly: keep it as hex. */
	snprintf(buf, sizeof buf, "%016" PRIx64, st->rng);
	cJSON_AddStringToObject(o, "rng", buf);
	char *out = amc_json_print(o);
	cJSON_Delete(o);
	return out;
}

/* ---- loading: every value checked ---- */

typedef struct ld {
	amc_err *e;
	int bad;
} ld;

static int fail(ld *l, const char *fmt, const char *what)
{
	if (!l->bad)
		amc_err_set(l->e, AMC_EENV, fmt, what);
	l->bad = 1;
	return -1;
}

static const char *get_str(ld *l, const cJSON *o, const char *key, size_t max, int required)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v || cJSON_IsNull(v)) {
		if (required)
			fail(l, "'%s' is missing", key);
		return NULL;
	}
	if (!cJSON_IsString(v) || !v->valuestring || strlen(v->valuestring) > max || !amc_utf8_valid(v->valuestring)) {
		fail(l, "'%s' is not a valid string", key);
		return NULL;
	}
	return v->valuestring;
}

static long long get_int(ld *l, const cJSON *o, const char *key, long long lo, long long hi, long long def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v)
		return def;
	if (!cJSON_IsNumber(v) || v->valuedouble < (double)lo || v->valuedouble > (double)hi ||
	    v->valuedouble != (double)(long long)v->valuedouble) {
		fail(l, "'%s' is out of range", key);
		return def;
	}
	return (long long)v->valuedouble;
}

static int get_bool(ld *l, const cJSON *o, const char *key, int def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v)
		return def;
	if (!cJSON_IsBool(v)) {
		fail(l, "'%s' is not true or false", key);
		return def;
	}
	return cJSON_IsTrue(v);
}

static int lookup(const char *const *names, int n, const char *s)
{
	if (!s)
		return 0;
	for (int i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}

static int get_screen(ld *l, const cJSON *o)
{
	const char *name = get_str(l, o, "screen", 64, 1);
	int sc = name ? lookup(SCREEN_NAMES, SCR_COUNT, name) : -1;
	if (name && sc < 0)
		fail(l, "unknown screen '%s'", name);
	return sc < 0 ? SCR_LAUNCHER : sc;
}

static void set_field(ld *l, amc_sb *sb, const cJSON *fields, const char *key, size_t max)
{
	const char *v = fields ? get_str(l, fields, key, max, 0) : NULL;
	amc_sb_reset(sb);
	if (v)
		amc_sb_puts(sb, v);
}

/* The screen stack: 1 to 16 screens, the launcher first. */
static void read_stack(ld *l, const cJSON *o, sim_state *st)
{
	const cJSON *stack = cJSON_GetObjectItemCaseSensitive(o, "stack");
	if (!cJSON_IsArray(stack) || cJSON_GetArraySize(stack) < 1 || cJSON_GetArraySize(stack) > SIM_MAX_STACK) {
		fail(l, "%s", "'stack' must be a list of 1 to 16 screens");
		return;
	}
	int k = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, stack) {
		st->stack[k].screen = get_screen(l, it);
		st->stack[k].arg = (int)get_int(l, it, "arg", -1, SIM_MAX_CONTACTS + SIM_MAX_NOTES, -1);
		st->stack[k].scroll = (int)get_int(l, it, "scroll", 0, 10000000, 0);
		k++;
	}
	st->depth = k;
	if (st->stack[0].screen != SCR_LAUNCHER)
		fail(l, "%s", "the first screen of 'stack' must be the launcher");
}

/* The file's contacts and notes, in place of the factory's. */
static void read_contacts_notes(ld *l, const cJSON *o, sim_state *st)
{
	for (int i = 0; i < st->ncontacts; i++) {
		free(st->contacts[i].name);
		free(st->contacts[i].phone);
	}
	st->ncontacts = 0;
	for (int i = 0; i < st->nnotes; i++) {
		free(st->notes[i].title);
		free(st->notes[i].body);
	}
	st->nnotes = 0;
	const cJSON *it;
	const cJSON *cs = cJSON_GetObjectItemCaseSensitive(o, "contacts");
	if (cs && (!cJSON_IsArray(cs) || cJSON_GetArraySize(cs) > SIM_MAX_CONTACTS)) {
		fail(l, "%s", "'contacts' must be a list of at most 1000 contacts");
	} else {
		cJSON_ArrayForEach(it, cs) {
			const char *name = get_str(l, it, "name", SIM_FIELD_MAX, 1);
			const char *phone = get_str(l, it, "phone", SIM_FIELD_MAX, 0);
			int fav = get_bool(l, it, "favorite", 0);
			if (name) {
				add_contact(st, name, phone ? phone : "");
				st->contacts[st->ncontacts - 1].favorite = fav;
			}
		}
	}
	const cJSON *ns = cJSON_GetObjectItemCaseSensitive(o, "notes");
	if (ns && (!cJSON_IsArray(ns) || cJSON_GetArraySize(ns) > SIM_MAX_NOTES)) {
		fail(l, "%s", "'notes' must be a list of at most 1000 notes");
	} else {
		cJSON_ArrayForEach(it, ns) {
			const char *title = get_str(l, it, "title", SIM_FIELD_MAX, 1);
			const char *body = get_str(l, it, "body", SIM_BODY_MAX, 0);
			if (title)
				add_note(st, title, body ? body : "");
		}
	}
}

/* What is typed in the form fields. */
static void read_fields(ld *l, const cJSON *o, sim_state *st)
{
	const cJSON *fields = cJSON_GetObjectItemCaseSensitive(o, "fields");
	set_field(l, &st->f_name, fields, "name", SIM_FIELD_MAX);
	set_field(l, &st->f_phone, fields, "phone", SIM_FIELD_MAX);
	set_field(l, &st->f_title, fields, "title", SIM_FIELD_MAX);
	set_field(l, &st->f_body, fields, "body", SIM_BODY_MAX);
	set_field(l, &st->f_search, fields, "search", SIM_FIELD_MAX);
	set_field(l, &st->f_time, fields, "time", SIM_FIELD_MAX);
	set_field(l, &st->f_label, fields, "label", SIM_FIELD_MAX);
	set_field(l, &st->f_to, fields, "to", SIM_FIELD_MAX);
	set_field(l, &st->f_message, fields, "message", SIM_BODY_MAX);
}

/* The form's error, the focus, the keyboard and the dialog. */
static void read_focus(ld *l, const cJSON *o, sim_state *st)
{
	st->form_error = get_bool(l, o, "form_error", 0);
	const char *fs = get_str(l, o, "focused_field", 16, 0);
	st->focus = lookup(FIELD_NAMES, F_COUNT, fs);
	if (st->focus < 0) {
		fail(l, "unknown focused_field '%s'", fs);
		st->focus = F_NONE;
	}
	st->kb_hidden = get_bool(l, o, "keyboard_hidden", 0);
	st->selected = get_bool(l, o, "selection", 0) && st->focus != F_NONE;
	const char *ds = get_str(l, o, "dialog", 32, 0);
	st->dialog = lookup(DIALOG_NAMES, DLG_COUNT, ds);
	if (st->dialog < 0) {
		fail(l, "unknown dialog '%s'", ds);
		st->dialog = DLG_NONE;
	}
	st->dialog_arg = (int)get_int(l, o, "dialog_arg", -1, SIM_MAX_CONTACTS + SIM_MAX_NOTES, -1);
}

/* A transition under way: its kind, start and the screen it comes from. */
static void read_transition(ld *l, const cJSON *o, sim_state *st)
{
	const cJSON *tr = cJSON_GetObjectItemCaseSensitive(o, "transition");
	if (!cJSON_IsObject(tr))
		return;
	const char *k = get_str(l, tr, "kind", 32, 1);
	int kind = k ? lookup(TRANS_NAMES, 4, k) : -1;
	const cJSON *from = cJSON_GetObjectItemCaseSensitive(tr, "from");
	if (kind <= 0 || !cJSON_IsObject(from)) {
		fail(l, "%s", "'transition' is malformed");
		return;
	}
	st->tr_kind = kind;
	st->tr_start = get_int(l, tr, "start_ms", 0, st->time_ms, st->time_ms);
	st->tr_from.e.screen = get_screen(l, from);
	st->tr_from.e.arg = (int)get_int(l, from, "arg", -1, SIM_MAX_CONTACTS + SIM_MAX_NOTES, -1);
	st->tr_from.e.scroll = (int)get_int(l, from, "scroll", 0, 10000000, 0);
	const char *fd = get_str(l, from, "dialog", 32, 0);
	st->tr_from.dialog = lookup(DIALOG_NAMES, DLG_COUNT, fd) > 0 ? lookup(DIALOG_NAMES, DLG_COUNT, fd) : DLG_NONE;
	st->tr_from.dialog_arg = (int)get_int(l, from, "dialog_arg", -1, SIM_MAX_CONTACTS + SIM_MAX_NOTES, -1);
	const char *ff = get_str(l, from, "focus", 16, 0);
	st->tr_from.focus = lookup(FIELD_NAMES, F_COUNT, ff) > 0 ? lookup(FIELD_NAMES, F_COUNT, ff) : F_NONE;
	st->tr_from.kb = get_bool(l, from, "keyboard", 0);
}

/* Indexes must point at things that exist; the screen logic relies on it. */
static void clamp_indexes(sim_state *st)
{
	for (int i = 0; i < st->depth; i++) {
		sim_entry *en = &st->stack[i];
		if ((en->screen == SCR_CONTACT_DETAIL && (en->arg < 0 || en->arg >= st->ncontacts)) ||
		    (en->screen == SCR_CONTACT_EDIT && en->arg >= st->ncontacts) ||
		    (en->screen == SCR_NOTE_EDIT && en->arg >= st->nnotes) ||
		    (en->screen == SCR_WIFI_NET && (en->arg < 0 || en->arg >= sim_network_count())) ||
		    (en->screen == SCR_ALARM_EDIT && en->arg >= st->nalarms) ||
		    (en->screen == SCR_THREAD && (en->arg < 0 || en->arg >= st->nthreads)) ||
		    (en->screen == SCR_FILE_DETAIL && (en->arg < 0 || en->arg >= st->nfiles))) {
			en->screen = i == 0 ? SCR_LAUNCHER : SCR_SETTINGS;
			en->arg = -1;
		}
	}
	if ((st->dialog == DLG_DELETE_CONTACT && (st->dialog_arg < 0 || st->dialog_arg >= st->ncontacts)) ||
	    (st->dialog == DLG_DELETE_NOTE && (st->dialog_arg < 0 || st->dialog_arg >= st->nnotes)) ||
	    (st->dialog == DLG_DELETE_ALARM && (st->dialog_arg < 0 || st->dialog_arg >= st->nalarms)) ||
	    (st->dialog == DLG_DELETE_THREAD && (st->dialog_arg < 0 || st->dialog_arg >= st->nthreads)) ||
	    (st->dialog == DLG_DELETE_FILE && (st->dialog_arg < 0 || st->dialog_arg >= st->nfiles)) ||
	    (st->dialog == DLG_PICK && (st->dialog_arg < 0 || st->dialog_arg >= PK_COUNT)))
		st->dialog = DLG_NONE;
}

int sim_state_from_json(sim *s, const char *text, size_t len, amc_err *e)
{
	cJSON *o = amc_json_parse(text, len, STATE_MAX_BYTES, e);
	if (!o)
		return -1;
	ld l = {e, 0};
	sim_state st;
	sim_state_factory(&st, s->st.seed);
	if (!cJSON_IsObject(o))
		fail(&l, "%s", "the document is not a JSON object");
	st.seed = get_int(&l, o, "seed", 0, 2147483647, s->st.seed);
	st.time_ms = get_int(&l, o, "sim_time_ms", 0, 1000LL * 3600 * 24 * 3650, 0);
	/* The size is chosen when the sim is made (sim.width/height) and kept. */
	int w = (int)get_int(&l, o, "width", 240, 4096, s->w);
	int h = (int)get_int(&l, o, "height", 320, 8192, s->h);
	st.battery_start = (int)get_int(&l, o, "battery_start", 5, 100, st.battery_start);
	st.wifi_connected = (int)get_int(&l, o, "wifi_saved", -1, sim_network_count() - 1, 0);
	const char *rng = get_str(&l, o, "rng", 16, 0);
	if (rng) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(rng, &end, 16);
		if (*end || errno || !*rng)
			fail(&l, "%s", "'rng' is not a hex number");
		else
			st.rng = v;
	}
	const cJSON *tg = cJSON_GetObjectItemCaseSensitive(o, "toggles");
	for (int i = 0; i < TG_COUNT && cJSON_IsObject(tg); i++)
		st.toggles[i] = get_bool(&l, tg, TOGGLE_NAMES[i], st.toggles[i]);
	const char *ori = get_str(&l, o, "orientation", 32, 0);
	st.orientation = ori ? amc_orientation_parse(ori) : 0;
	if (st.orientation < 0)
		fail(&l, "%s", "'orientation' is not portrait, landscape_left, upside_down or landscape_right");
	st.volume = (int)get_int(&l, o, "volume", 0, SIM_VOLUME_MAX, SIM_VOLUME_FACTORY);
	for (int k = 0; k < 2; k++) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, k ? "launch_arguments" : "permissions");
		if (cJSON_IsObject(m))
			*(k ? &st.launch_args : &st.permissions) = cJSON_PrintUnformatted(m);
		else if (m)
			fail(&l, "%s", k ? "'launch_arguments' is not an object" : "'permissions' is not an object");
	}
	const cJSON *loc = cJSON_GetObjectItemCaseSensitive(o, "location");
	if (cJSON_IsObject(loc)) {
		const cJSON *la = cJSON_GetObjectItemCaseSensitive(loc, "latitude");
		const cJSON *lo = cJSON_GetObjectItemCaseSensitive(loc, "longitude");
		if (!cJSON_IsNumber(la) || !cJSON_IsNumber(lo) || fabs(la->valuedouble) > 90 ||
		    fabs(lo->valuedouble) > 180)
			fail(&l, "%s", "'location' needs latitude (-90..90) and longitude (-180..180)");
		else {
			st.has_location = 1;
			st.lat = la->valuedouble;
			st.lon = lo->valuedouble;
		}
	}
	read_stack(&l, o, &st);
	read_contacts_notes(&l, o, &st);
	read_fields(&l, o, &st);
	if (!l.bad && cJSON_IsObject(o) && sim_apps_from_json(&st, o, e) != 0)
		l.bad = 1;
	if (!l.bad && cJSON_IsObject(o) && sim_ambient_from_json(&st, o, e) != 0)
		l.bad = 1;
	read_focus(&l, o, &st);
	read_transition(&l, o, &st);
	cJSON_Delete(o);
	if (l.bad) {
		sim_state_free(&st);
		return -1;
	}
	sim_contacts_sort(&st);
	clamp_indexes(&st);
	sim_state_free(&s->st);
	s->st = st;
	s->w = w;
	s->h = h;
	s->dp = (w < h ? w : h) / 411.43; /* the density does not turn with the screen */
	return 0;
}

int sim_state_load(sim *s, amc_err *e)
{
	char *buf;
	size_t len;
	if (!amc_file_exists(s->path))
		return 1;
	/* an unreadable or oversized file is as unusable as a corrupt one */
	int rc = amc_read_file(s->path, STATE_MAX_BYTES, &buf, &len, e);
	if (rc == 0) {
		rc = sim_state_from_json(s, buf, len, e);
		free(buf);
	}
	if (rc != 0) {
		if (e)
			e->code = AMC_EENV;
		return amc_err_prefix(e, "sim:%d state %s is unusable (run 'amc sim reset' to start over)", s->index,
				      s->path);
	}
	stat(s->path, &s->seen);
	return 0;
}

int sim_state_save(sim *s, amc_err *e)
{
	if (amc_mkdir_p(s->dir, 0700, e) != 0)
		return -1;
	char *j = sim_state_to_json(s);
	/* atomic for other processes, not durable: a phone's state is rewritten at
	 * every call, and two fsyncs per call were half of an MCP act here (issue 31) */
	int rc = amc_write_replace(s->path, j, strlen(j), 0600, e);
	free(j);
	if (rc == 0)
		stat(s->path, &s->seen);
	return rc;
}

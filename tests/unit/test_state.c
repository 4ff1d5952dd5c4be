/* test_state.c - the sim's persistent state (src/device/sim/state.c): factory
 * defaults, JSON round trip of everything that persists, state.json on disk
 * (0600 in a 0700 folder, written atomically, no temp files left, the old file
 * kept when a write fails), hostile/corrupt/oversized files refused with a way
 * out and without touching the live state, and reset; and the facts derived
 * from a state (networks, signal, battery, clock, date, contact order). */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "device/sim/sim_int.h"
#include "tap.h"
#include "testutil.h"
#include "util/fsutil.h"

static const char *home;

static sim *S(amc_device *d)
{
	return d->impl;
}

/* A bare sim struct pointing at home/sim/N: enough for state.c, no fonts. */
static sim *bare(int index)
{
	sim *s = calloc(1, sizeof *s);
	s->index = index;
	s->w = 1080;
	s->h = 2400;
	s->dp = s->w / 411.43;
	snprintf(s->dir, sizeof s->dir, "%s/sim/%d", home, index);
	snprintf(s->path, sizeof s->path, "%s/sim/%d/state.json", home, index);
	sim_state_factory(&s->st, index);
	return s;
}

static void bare_free(sim *s)
{
	sim_state_free(&s->st);
	free(s);
}

static void test_factory(void)
{
	sim_state st;
	sim_state_factory(&st, 7);
	is_int(st.depth, 1, "factory stack has one screen");
	is_int(st.stack[0].screen, SCR_LAUNCHER, "the launcher");
	ok(st.toggles[TG_WIFI] && !st.toggles[TG_BLUETOOTH] && !st.toggles[TG_DARK] && !st.toggles[TG_AIRPLANE],
	   "Wi-Fi on, Bluetooth, dark theme and airplane mode off");
	is_int(st.wifi_connected, 0, "connected to the first network");
	is_int(st.battery_start, 72 + 7, "battery start depends on the seed");
	ok(st.ncontacts == 2 && !strcmp(st.contacts[0].name, "Alan Turing") && !strcmp(st.contacts[1].name, "Grace Hopper"),
	   "factory contacts");
	ok(st.nnotes == 2 && !strcmp(st.notes[0].title, "Welcome") && !strcmp(st.notes[1].title, "Shopping list"),
	   "factory notes");
	ok(st.rng != 0, "fault PRNG seeded");
	sim_state other;
	sim_state_factory(&other, 8);
	ok(other.rng != st.rng, "a different seed gives a different PRNG state");
	sim_state_free(&other);
	sim_state_free(&st);
	ok(st.contacts == NULL && st.ncontacts == 0, "free clears the state");

	is_str(sim_screen_name(SCR_LAUNCHER), "launcher", "screen name");
	is_str(sim_screen_name(SCR_NOTE_EDIT), "note_editor", "note editor name");
	is_str(sim_screen_name(-1), "?", "out-of-range screen");
	is_str(sim_screen_name(SCR_COUNT), "?", "screen count is out of range");
	is_str(sim_toggle_name(TG_DARK), "dark_theme", "toggle name");
	is_str(sim_toggle_name(TG_COUNT), "?", "out-of-range toggle");
	is_str(sim_screen_package(SCR_WIFI), "com.android.settings", "settings page package");
	is_str(sim_screen_package(SCR_CONTACT_DETAIL), "com.android.contacts", "contacts package");
	is_str(sim_screen_package(SCR_NOTE_EDIT), "com.amc.notes", "notes package");
	is_str(sim_screen_package(SCR_LAUNCHER), "com.android.launcher3", "launcher package");
	int distinct = 1;
	for (int i = 0; i < SCR_COUNT; i++)
		for (int j = i + 1; j < SCR_COUNT; j++)
			if (!strcmp(sim_screen_name(i), sim_screen_name(j)))
				distinct = 0;
	ok(distinct, "screen names are distinct (they are the file's keys)");
}

/* Every persisted field away from its factory value. */
static void scramble(sim *s)
{
	sim_state *st = &s->st;
	st->time_ms = 123456789;
	st->rng = 0xFEDCBA9876543210ull;
	st->toggles[TG_BLUETOOTH] = 1;
	st->toggles[TG_DARK] = 1;
	st->toggles[TG_WIFI] = 0;
	st->toggles[TG_TALKBACK] = 1;
	st->wifi_connected = 3;
	st->battery_start = 55;
	st->depth = 4;
	st->stack[1] = (sim_entry){SCR_CONTACTS, -1, 240};
	st->stack[2] = (sim_entry){SCR_CONTACT_DETAIL, 1, 0};
	st->stack[3] = (sim_entry){SCR_CONTACT_EDIT, 1, 12};
	st->focus = F_PHONE;
	st->kb_hidden = 1;
	st->form_error = 1;
	amc_sb_puts(&st->f_name, "Zo\xc3\xab \"quoted\" \\ back");
	amc_sb_puts(&st->f_phone, "+46\t8\n123");
	amc_sb_puts(&st->f_title, "t\xf0\x9f\x98\x80");
	amc_sb_puts(&st->f_body, "line 1\nline 2");
	st->dialog = DLG_DELETE_CONTACT;
	st->dialog_arg = 1;
	st->contacts = amc_xrealloc(st->contacts, 3 * sizeof *st->contacts);
	st->contacts[2].name = amc_xstrdup("\xc3\x85ngstr\xc3\xb6m <&>");
	st->contacts[2].phone = amc_xstrdup("");
	st->ncontacts = 3;
	st->notes = amc_xrealloc(st->notes, 3 * sizeof *st->notes);
	st->notes[2].title = amc_xstrdup("Third");
	st->notes[2].body = amc_xstrdup("\x01 control \x7f kept");
	st->nnotes = 3;
	st->tr_kind = TR_FADE;
	st->tr_start = st->time_ms - 100;
	st->tr_from.e = (sim_entry){SCR_CONTACT_DETAIL, 1, 0};
	st->tr_from.dialog = DLG_NONE;
	st->tr_from.dialog_arg = -1;
	st->tr_from.focus = F_NONE;
	st->tr_from.kb = 0;
}

static void test_json_round_trip(void)
{
	sim *a = bare(1), *b = bare(2);
	scramble(a);
	char *j1 = sim_state_to_json(a);
	cJSON *o = cJSON_Parse(j1);
	ok(o != NULL, "state JSON parses");
	ok(cJSON_IsString(cJSON_GetObjectItem(o, "rng")) && !strcmp(cJSON_GetObjectItem(o, "rng")->valuestring, "fedcba9876543210"),
	   "the 64-bit PRNG state is kept exactly, as hex");
	is_str(cJSON_GetObjectItem(o, "screen")->valuestring, "contact_edit", "top screen by name");
	is_str(cJSON_GetObjectItem(o, "clock")->valuestring, "19:58", "clock derived from sim time (09:41 + 2057 min)");
	ok(cJSON_IsObject(cJSON_GetObjectItem(o, "transition")), "a transition in progress is saved");
	cJSON_Delete(o);
	b->index = 1; /* same device name, so the texts can be compared whole */
	ok(sim_state_from_json(b, j1, strlen(j1), NULL) == 0, "loads back");
	char *j2 = sim_state_to_json(b);
	is_str(j2, j1, "round trip is exact");
	ok(b->st.contacts[0].name && !strcmp(b->st.contacts[0].name, "Alan Turing") &&
	   !strcmp(b->st.contacts[2].name, "\xc3\x85ngstr\xc3\xb6m <&>"), "contacts sorted and exact");
	is_int(b->st.rng, 0xFEDCBA9876543210ull, "PRNG state restored");
	is_int(b->st.tr_kind, TR_FADE, "transition restored");
	free(j1);
	free(j2);

	/* Size is kept from the file; a finished transition is not saved. */
	a->w = 720;
	a->h = 1600;
	a->st.tr_start = a->st.time_ms - SIM_TRANSITION_MS;
	j1 = sim_state_to_json(a);
	ok(strstr(j1, "\"transition\":null") != NULL, "a finished transition is saved as null");
	ok(sim_state_from_json(b, j1, strlen(j1), NULL) == 0 && b->w == 720 && b->h == 1600, "size kept from the file");
	ok(b->dp > 1.74 && b->dp < 1.76, "dp follows the width (%.3f)", b->dp);
	free(j1);
	bare_free(a);
	bare_free(b);
}

static int count_entries(const char *dir, const char *skip)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && (!skip || strcmp(de->d_name, skip)))
			n++;
	if (d)
		closedir(d);
	return n;
}

static void test_files(void)
{
	amc_err e;
	struct stat st;
	sim *s = bare(3);
	is_int(sim_state_load(s, &e), 1, "no file yet: load says so");
	ok(sim_state_save(s, &e) == 0, "save");
	ok(stat(s->path, &st) == 0 && (st.st_mode & 0777) == 0600, "state.json is 0600 (%o)", st.st_mode & 0777);
	ok(stat(s->dir, &st) == 0 && (st.st_mode & 0777) == 0700, "its folder is 0700 (%o)", st.st_mode & 0777);
	is_int(count_entries(s->dir, NULL), 1, "no temp file left next to it");
	/* The mode is exact whatever the umask. */
	mode_t old = umask(0);
	ok(sim_state_save(s, &e) == 0 && stat(s->path, &st) == 0 && (st.st_mode & 0777) == 0600, "0600 under umask 0");
	umask(old);
	scramble(s);
	ok(sim_state_save(s, &e) == 0, "save changed state");
	sim *t = bare(3);
	is_int(sim_state_load(t, &e), 0, "load it");
	char *a = sim_state_to_json(s), *b = sim_state_to_json(t);
	is_str(b, a, "what was saved is what is loaded");
	free(a);
	free(b);
	ok(t->seen.st_ino != 0 && t->seen.st_size > 0, "load records the file it read");

	/* A failed write keeps the old file: make the temp file's name a folder. */
	char before[1 << 16];
	FILE *f = fopen(s->path, "r");
	size_t n0 = f ? fread(before, 1, sizeof before - 1, f) : 0;
	if (f)
		fclose(f);
	before[n0] = '\0';
	/* Replace the state file by a non-empty folder: rename() onto it fails. */
	char moved[PATH_MAX + 8], inner[PATH_MAX + 16];
	snprintf(moved, sizeof moved, "%s.keep", s->path);
	rename(s->path, moved);
	mkdir(s->path, 0700);
	snprintf(inner, sizeof inner, "%s/x", s->path);
	fclose(fopen(inner, "w"));
	s->st.time_ms += 1000;
	ok(sim_state_save(s, &e) == -1 && e.code == AMC_EENV, "a failed write is an error: %s", e.msg);
	is_int(count_entries(s->dir, NULL), 2, "and leaves no temp file behind");
	unlink(inner);
	rmdir(s->path);
	rename(moved, s->path);
	f = fopen(s->path, "r");
	char after[1 << 16];
	size_t n1 = f ? fread(after, 1, sizeof after - 1, f) : 0;
	if (f)
		fclose(f);
	after[n1] = '\0';
	ok(n0 > 0 && n0 == n1 && !memcmp(before, after, n0), "the old file is intact");

	/* The folder cannot be made: a file where it should be. */
	sim *u = bare(4);
	snprintf(u->dir, sizeof u->dir, "%s/sim/3/state.json/sub", home);
	snprintf(u->path, sizeof u->path, "%s/sim/3/state.json/sub/state.json", home);
	ok(sim_state_save(u, &e) == -1, "save under a file fails cleanly: %s", e.msg);
	bare_free(u);
	bare_free(t);
	bare_free(s);
}

/* Load `text` into a scrambled sim; returns the error (or "" on success) and
 * checks that a refusal leaves the live state as it was. */
static int refuse(const char *text, size_t len, const char *what, const char *needle)
{
	sim *s = bare(5);
	scramble(s);
	char *before = sim_state_to_json(s);
	amc_err e;
	memset(&e, 0, sizeof e);
	int rc = sim_state_from_json(s, text, len, &e);
	char *after = sim_state_to_json(s);
	int same = !strcmp(before, after);
	int good = rc == -1 && same && e.msg[0] && (!needle || strstr(e.msg, needle));
	if (!ok(good, "%s refused, state untouched", what))
		diag("rc %d, same %d, msg '%s'", rc, same, e.msg);
	free(before);
	free(after);
	bare_free(s);
	return good;
}

static char *factory_json_with(const char *key, const char *value_json)
{
	sim *s = bare(6);
	char *j = sim_state_to_json(s);
	bare_free(s);
	cJSON *o = cJSON_Parse(j);
	free(j);
	cJSON *v = cJSON_Parse(value_json);
	if (!v)
		v = cJSON_CreateString(value_json);
	cJSON_ReplaceItemInObjectCaseSensitive(o, key, v);
	char *out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return out;
}

static void test_hostile(void)
{
	int good = 0, total = 0;
#define R(text, what, needle) (total++, good += refuse(text, strlen(text), what, needle))
	R("", "empty file", NULL);
	R("not json", "non-JSON", NULL);
	R("[1,2,3]", "a JSON array", "not a JSON object");
	R("{\"stack\":[]}", "an empty stack", "'stack'");
	R("{\"stack\":[{\"screen\":\"nowhere\"}]}", "an unknown screen", "unknown screen 'nowhere'");
	R("{\"stack\":[{\"screen\":\"settings\"}]}", "a stack not starting at the launcher", "launcher");
	R("{\"stack\":[{\"screen\":5}]}", "a screen that is a number", "'screen'");
	R("{\"stack\":[{\"screen\":\"launcher\",\"arg\":1e9}]}", "a huge arg", "'arg'");
	R("{\"stack\":[{\"screen\":\"launcher\",\"scroll\":-1}]}", "a negative scroll", "'scroll'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"sim_time_ms\":-5}", "negative sim time", "'sim_time_ms'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"sim_time_ms\":1.5}", "fractional sim time", "'sim_time_ms'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"width\":100000}", "a huge width", "'width'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"wifi_saved\":99}", "a network index out of range", "'wifi_saved'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"rng\":\"xyz\"}", "a bad PRNG state", "'rng'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"toggles\":{\"wifi\":\"yes\"}}", "a toggle that is not a bool", "'wifi'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"contacts\":{}}", "contacts not a list", "'contacts'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"contacts\":[{\"phone\":\"1\"}]}", "a contact with no name", "'name'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"contacts\":[{\"name\":7}]}", "a name that is a number", "'name'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"contacts\":[{\"name\":\"a\xff" "b\"}]}", "a name that is not UTF-8", "'name'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"focused_field\":\"password\"}", "an unknown field", "focused_field");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"dialog\":\"format_disk\"}", "an unknown dialog", "dialog");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"transition\":{\"kind\":\"spin\",\"from\":{}}}", "a bad transition",
	  "'transition'");
	R("{\"stack\":[{\"screen\":\"launcher\"}],\"fields\":{\"body\":[1]}}", "a field that is a list", "'body'");

	/* Too many screens, contacts; too long a name. */
	char *j;
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_puts(&sb, "[");
	for (int i = 0; i < 17; i++)
		amc_sb_puts(&sb, i ? ",{\"screen\":\"settings\"}" : "{\"screen\":\"launcher\"}");
	amc_sb_puts(&sb, "]");
	j = factory_json_with("stack", amc_sb_str(&sb));
	R(j, "a stack of 17 screens", "'stack'");
	free(j);
	amc_sb_reset(&sb);
	amc_sb_puts(&sb, "[");
	for (int i = 0; i <= SIM_MAX_CONTACTS; i++)
		amc_sb_printf(&sb, "%s{\"name\":\"c%d\",\"phone\":\"\"}", i ? "," : "", i);
	amc_sb_puts(&sb, "]");
	j = factory_json_with("contacts", amc_sb_str(&sb));
	R(j, "1001 contacts", "'contacts'");
	free(j);
	amc_sb_reset(&sb);
	amc_sb_puts(&sb, "[{\"name\":\"");
	for (int i = 0; i <= SIM_FIELD_MAX; i++)
		amc_sb_putc(&sb, 'n');
	amc_sb_puts(&sb, "\"}]");
	j = factory_json_with("contacts", amc_sb_str(&sb));
	R(j, "a name over 1024 bytes", "'name'");
	free(j);
	/* Deep nesting must not recurse without bound. */
	amc_sb_reset(&sb);
	for (int i = 0; i < 100000; i++)
		amc_sb_putc(&sb, '[');
	R(amc_sb_str(&sb), "100000 nested lists", NULL);
	amc_sb_free(&sb);
	R("{\"stack\":[{\"screen\":\"launcher\"}]} trailing", "data after the document", "after the value");
#undef R
	is_int(good, total, "all %d hostile documents refused cleanly", total);

	/* Indexes that point nowhere are healed, not trusted. */
	sim *s = bare(7);
	const char *heal = "{\"stack\":[{\"screen\":\"launcher\"},{\"screen\":\"contacts\"},"
			   "{\"screen\":\"contact_detail\",\"arg\":50}],\"dialog\":\"delete_contact\",\"dialog_arg\":40,"
			   "\"contacts\":[{\"name\":\"b\"},{\"name\":\"A\"}]}";
	amc_err e;
	ok(sim_state_from_json(s, heal, strlen(heal), &e) == 0, "a file with dangling indexes loads");
	ok(s->st.stack[2].screen == SCR_SETTINGS && s->st.stack[2].arg == -1, "a detail page of a missing contact is replaced");
	is_int(s->st.dialog, DLG_NONE, "a dialog about a missing contact is dropped");
	ok(s->st.ncontacts == 2 && !strcmp(s->st.contacts[0].name, "A"), "contacts sorted on load");
	is_str(s->st.contacts[1].phone, "", "a missing phone is empty");
	bare_free(s);
}

static void test_load_errors(void)
{
	amc_err e;
	sim *s = bare(8);
	ok(amc_mkdir_p(s->dir, 0700, &e) == 0, "folder for sim:8");
	const char *bad = "{\"stack\":[{\"screen\":\"x\"}]}";
	amc_write_atomic(s->path, bad, strlen(bad), 0600, NULL);
	ok(sim_state_load(s, &e) == -1 && e.code == AMC_EENV, "load of a bad file fails");
	like(e.msg, "sim:8 state ", "message names the sim");
	like(e.msg, s->path, "and the file");
	like(e.msg, "run 'amc sim reset' to start over", "and the way out");
	like(e.msg, "unknown screen 'x'", "and what is wrong");

	/* Over 32 MiB: refused before parsing. */
	FILE *f = fopen(s->path, "w");
	char chunk[1 << 16];
	memset(chunk, ' ', sizeof chunk);
	for (int i = 0; i < 513 && f; i++)
		fwrite(chunk, 1, sizeof chunk, f);
	if (f)
		fclose(f);
	/* Refused before it is read whole; the message names the file and the limit. */
	ok(sim_state_load(s, &e) == -1 && strstr(e.msg, s->path) && strstr(e.msg, "over the limit"),
	   "a 33 MiB file is refused: %.200s", e.msg);
	ok(e.code == AMC_EENV && strstr(e.msg, "amc sim reset"), "as an environment error that says how to start over");
	bare_free(s);

	/* Through the device: open refuses, reset repairs. */
	amc_device *d = NULL;
	ok(amc_sim_open(home, 8, NULL, &d, &e) == -1 && d == NULL && strstr(e.msg, "over the limit"), "open refuses it");
	ok(amc_sim_reset(home, 8, NULL, &e) == 0, "reset");
	ok(amc_sim_open(home, 8, NULL, &d, &e) == 0 && d, "opens after reset");
	if (d) {
		sim *x = S(d);
		ok(x->st.depth == 1 && x->st.ncontacts == 2 && x->st.time_ms == 0, "factory state after reset");
		amc_device_close(d);
	}
}

static void test_device_persistence(void)
{
	amc_err e;
	amc_device *d = NULL;
	ok(amc_sim_open(home, 9, NULL, &d, &e) == 0, "open sim:9");
	if (!d)
		return;
	char path[PATH_MAX];
	struct stat st;
	snprintf(path, sizeof path, "%s/sim/9/state.json", home);
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "first open writes the factory state, 0600");
	d->ops->launch_app(d, "com.android.settings", &e);
	long long t = S(d)->st.time_ms;
	amc_device_close(d);
	d = NULL;
	ok(amc_sim_open(home, 9, NULL, &d, &e) == 0 && d, "reopen");
	if (!d)
		return;
	ok(S(d)->st.depth == 2 && S(d)->st.stack[1].screen == SCR_SETTINGS, "the screen persisted");
	is_int(S(d)->st.time_ms, t, "sim time persisted");
	/* Another writer changes the file: the next call picks it up. */
	sim *other = bare(9);
	ok(sim_state_load(other, &e) == 0, "a second reader");
	other->st.toggles[TG_DARK] = 1;
	other->st.time_ms += 5000;
	sleep(0); /* mtime granularity is ns; the inode changes with the rename anyway */
	ok(sim_state_save(other, &e) == 0, "it writes a change");
	char *js = NULL;
	ok(amc_sim_state_json(d, &js, &e) == 0 && strstr(js, "\"dark_theme\":true"), "the open device sees it");
	free(js);
	bare_free(other);
	/* Reset while open: the device reloads the factory file on its next call. */
	ok(amc_sim_reset(home, 9, NULL, &e) == 0, "reset while open");
	ok(amc_sim_state_json(d, &js, &e) == 0 && strstr(js, "\"screen\":\"launcher\"") && strstr(js, "\"sim_time_ms\":0"),
	   "the open device sees the factory state");
	free(js);
	amc_device_close(d);
	ok(amc_sim_reset(home, 10000, NULL, &e) == -1 && e.code == AMC_EUSAGE, "reset of an out-of-range sim refused");
}

/* The facts the screens, the painter and state.json derive from a state. */
static void test_world(void)
{
	sim *s = bare(0);
	is_int(sim_network_count(), 8, "eight networks");
	is_str(sim_network_name(0), "HomeNet", "first network");
	is_str(sim_network_name(-1), "", "out of range: empty");
	is_str(sim_network_name(8), "", "past the end: empty");
	long long t0 = s->st.time_ms;
	int b0 = s->st.battery_start;
	s->st.battery_start = 80;
	s->st.time_ms = 0;
	is_int(sim_battery(s), 80, "battery starts full of its start level");
	s->st.time_ms = 6 * 60 * 1000;
	is_int(sim_battery(s), 79, "one percent per 6 minutes of sim time");
	s->st.time_ms = 1000LL * 3600 * 24 * 30;
	is_int(sim_battery(s), 5, "never below 5%");
	s->st.time_ms = t0;
	s->st.battery_start = b0;

	sim_state st;
	memset(&st, 0, sizeof st);
	const char *names[] = {"bob", "\xc3\x85sa", "Alice", "alan", "Bob", "zed", "Zoe"};
	sim_contact cs[7];
	for (int i = 0; i < 7; i++)
		cs[i] = (sim_contact){(char *)names[i], (char *)"", 0};
	st.contacts = cs;
	st.ncontacts = 7;
	sim_contacts_sort(&st);
	const char *want[] = {"alan", "Alice", "bob", "Bob", "zed", "Zoe", "\xc3\x85sa"};
	int order = 1;
	for (int i = 0; i < 7; i++)
		order &= !strcmp(cs[i].name, want[i]);
	ok(order, "contacts: ASCII case-insensitive, stable, non-ASCII after (%s %s %s ...)", cs[0].name, cs[1].name,
	   cs[2].name);

	const sim_network *n = sim_network_get(2);
	ok(n && !strcmp(n->name, "CoffeeShop Guest") && !strcmp(n->security, "None") && !n->secure,
	   "network 2 is the open CoffeeShop Guest");
	ok(sim_network_get(-1) == NULL && sim_network_get(SIM_NETWORKS) == NULL, "no network out of range");
	int in_range = 1, differs = 0;
	for (int i = 0; i < SIM_NETWORKS; i++) {
		int a = sim_network_signal(s, i);
		in_range &= a >= 0 && a <= 3;
		s->st.seed = 1;
		differs |= sim_network_signal(s, i) != a;
		s->st.seed = 0;
	}
	ok(in_range, "signal levels are 0 to 3");
	ok(differs, "and depend on the seed");

	/* Sim time starts on Thursday 15 January 2026 at 09:41. */
	char buf[64];
	s->st.time_ms = 0;
	sim_clock(s, buf, sizeof buf);
	is_str(buf, "09:41", "the clock starts at 09:41");
	sim_date(s, buf, sizeof buf, 0);
	is_str(buf, "Thu, Jan 15", "short date");
	sim_date(s, buf, sizeof buf, 1);
	is_str(buf, "January 15, 2026", "long date");
	s->st.time_ms = (15LL * 60 + 20) * 60000;
	sim_clock(s, buf, sizeof buf);
	is_str(buf, "01:01", "the clock wraps at midnight");
	sim_date(s, buf, sizeof buf, 0);
	is_str(buf, "Fri, Jan 16", "and the date moves on");
	s->st.time_ms = 17LL * 24 * 3600 * 1000;
	sim_date(s, buf, sizeof buf, 0);
	is_str(buf, "Sun, Feb 1", "months roll over");
	bare_free(s);
}

int main(void)
{
	home = test_home("state");
	test_factory();
	test_json_round_trip();
	test_files();
	test_hostile();
	test_load_errors();
	test_device_persistence();
	test_world();
	return done_testing();
}

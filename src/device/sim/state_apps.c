/* state_apps.c - the data of the sim's Clock, Messages and Files apps and the
 * settings values picked from a list: factory contents, JSON in and out (keys
 * "alarms", "threads", "files", "settings" of state.json), and the orders the
 * screens rely on. Everything read from JSON is checked like the rest of
 * state.json (state.c): a bad value is refused, never used as an index. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/sim/sim_int.h"
#include "util/jsonutil.h"
#include "util/sanitize.h"

static const char *TIMEOUTS[] = {"15 seconds", "30 seconds", "1 minute", "2 minutes", "5 minutes", "10 minutes",
				 "30 minutes"};
static const char *FONT_SIZES[] = {"Small", "Default", "Large", "Largest"};
static const struct {
	const char *key, *title;
	const char *const *values;
	int n, def;
} PICKS[PK_COUNT] = {
	{"screen_timeout", "Screen timeout", TIMEOUTS, 7, 1},
	{"font_size", "Font size", FONT_SIZES, 4, 1},
};

int sim_pick_count(int pick)
{
	return pick >= 0 && pick < PK_COUNT ? PICKS[pick].n : 0;
}

const char *sim_pick_value(int pick, int v)
{
	return pick >= 0 && pick < PK_COUNT && v >= 0 && v < PICKS[pick].n ? PICKS[pick].values[v] : "";
}

const char *sim_pick_title(int pick)
{
	return pick >= 0 && pick < PK_COUNT ? PICKS[pick].title : "";
}

/* ---- orders ---- */

void sim_alarms_sort(sim_state *st)
{
	for (int i = 1; i < st->nalarms; i++) {
		sim_alarm a = st->alarms[i];
		int j = i - 1;
		while (j >= 0 && st->alarms[j].hour * 60 + st->alarms[j].minute > a.hour * 60 + a.minute) {
			st->alarms[j + 1] = st->alarms[j];
			j--;
		}
		st->alarms[j + 1] = a;
	}
}

void sim_files_sort(sim_state *st)
{
	for (int i = 1; i < st->nfiles; i++) {
		sim_file f = st->files[i];
		int j = i - 1;
		while (j >= 0 && strcmp(st->files[j].name, f.name) > 0) {
			st->files[j + 1] = st->files[j];
			j--;
		}
		st->files[j + 1] = f;
	}
}

/* ---- building ---- */

static void add_alarm(sim_state *st, int h, int m, const char *label, int on)
{
	st->alarms = amc_xrealloc(st->alarms, (size_t)(st->nalarms + 1) * sizeof *st->alarms);
	sim_alarm *a = &st->alarms[st->nalarms++];
	a->hour = h;
	a->minute = m;
	a->label = amc_xstrdup(label);
	a->enabled = on;
}

void sim_thread_add_msg(sim_thread *t, int out, const char *text)
{
	if (t->nmsgs >= SIM_MAX_MESSAGES) {
		/* The oldest message makes room, as a phone's storage limit would. */
		free(t->msgs[0].text);
		memmove(t->msgs, t->msgs + 1, (size_t)(t->nmsgs - 1) * sizeof *t->msgs);
		t->nmsgs--;
	}
	t->msgs = amc_xrealloc(t->msgs, (size_t)(t->nmsgs + 1) * sizeof *t->msgs);
	t->msgs[t->nmsgs].out = out;
	t->msgs[t->nmsgs].text = amc_xstrdup(text);
	t->nmsgs++;
}

static sim_thread *add_thread(sim_state *st, const char *contact)
{
	st->threads = amc_xrealloc(st->threads, (size_t)(st->nthreads + 1) * sizeof *st->threads);
	sim_thread *t = &st->threads[st->nthreads++];
	memset(t, 0, sizeof *t);
	t->contact = amc_xstrdup(contact);
	return t;
}

int sim_thread_find(const sim_state *st, const char *contact)
{
	for (int i = 0; i < st->nthreads; i++)
		if (!strcmp(st->threads[i].contact, contact))
			return i;
	return -1;
}

int sim_thread_touch(sim_state *st, const char *contact)
{
	int i = sim_thread_find(st, contact);
	if (i < 0) {
		if (st->nthreads >= SIM_MAX_THREADS) {
			/* The oldest conversation goes. */
			sim_thread *old = &st->threads[st->nthreads - 1];
			free(old->contact);
			for (int k = 0; k < old->nmsgs; k++)
				free(old->msgs[k].text);
			free(old->msgs);
			st->nthreads--;
		}
		add_thread(st, contact);
		i = st->nthreads - 1;
	}
	sim_thread t = st->threads[i];
	memmove(st->threads + 1, st->threads, (size_t)i * sizeof *st->threads);
	st->threads[0] = t;
	return 0;
}

static void add_file(sim_state *st, const char *name, int kb, const char *mod, const char *content)
{
	st->files = amc_xrealloc(st->files, (size_t)(st->nfiles + 1) * sizeof *st->files);
	sim_file *f = &st->files[st->nfiles++];
	f->name = amc_xstrdup(name);
	f->size_kb = kb;
	f->modified = amc_xstrdup(mod);
	f->content = amc_xstrdup(content);
	f->starred = 0;
}

void sim_files_add(sim_state *st, const char *name, int kb, const char *content)
{
	add_file(st, name, kb, "2026-01-15", content);
	sim_files_sort(st);
}

void sim_apps_factory(sim_state *st)
{
	amc_sb_init(&st->f_search);
	amc_sb_init(&st->f_time);
	amc_sb_init(&st->f_label);
	amc_sb_init(&st->f_to);
	amc_sb_init(&st->f_message);
	for (int p = 0; p < PK_COUNT; p++)
		st->picks[p] = PICKS[p].def;
	add_alarm(st, 6, 30, "Wake up", 1);
	add_alarm(st, 8, 0, "Work", 0);
	sim_thread *t = add_thread(st, "Alan Turing");
	sim_thread_add_msg(t, 0, "Did you read the paper I sent?");
	t->unread = 1;
	t = add_thread(st, "Grace Hopper");
	sim_thread_add_msg(t, 0, "Are we still on for lunch tomorrow?");
	sim_thread_add_msg(t, 1, "Yes, 12:30 at the usual place.");
	/* A long list: 40 files, fixed (not from the seed), so tasks know it. */
	static const char *MONTHS[] = {"January", "February", "March", "April", "May", "June", "July", "August",
				       "September", "October", "November", "December"};
	static const char *PICS[] = {"Sunset at the pier", "Birthday cake", "Mountain trail", "Harbour lights",
				     "Old town square", "Snowy forest", "City skyline", "Garden roses",
				     "Lighthouse at dawn", "Market stalls"};
	char name[64], mod[16], content[96];
	for (int m = 0; m < 12; m++) {
		snprintf(name, sizeof name, "report-2025-%02d.pdf", m + 1);
		snprintf(mod, sizeof mod, "2025-%02d-28", m + 1);
		snprintf(content, sizeof content, "Monthly report for %s 2025", MONTHS[m]);
		add_file(st, name, 180 + (m * 37) % 90, mod, content);
	}
	for (int k = 0; k < 10; k++) {
		snprintf(name, sizeof name, "IMG_2025%02d%02d.jpg", 3 + k % 9, 4 + 2 * k);
		snprintf(mod, sizeof mod, "2025-%02d-%02d", 3 + k % 9, 4 + 2 * k);
		add_file(st, name, 2100 + (k * 613) % 1900, mod, PICS[k]);
	}
	for (int k = 0; k < 8; k++) {
		snprintf(name, sizeof name, "voice-memo-%02d.m4a", k + 1);
		snprintf(mod, sizeof mod, "2025-12-%02d", 2 + 3 * k);
		snprintf(content, sizeof content, "Voice memo %d", k + 1);
		add_file(st, name, 300 + (k * 211) % 700, mod, content);
	}
	static const struct {
		const char *name, *content;
		int kb;
	} MISC[] = {
		{"README.txt", "Files kept on this phone", 2},
		{"boarding-pass.pdf", "Flight AM 482 seat 14C", 96},
		{"budget-2026.xlsx", "Budget 2026 draft", 44},
		{"invoice-4471.pdf", "Invoice 4471 total 312.50", 120},
		{"recipes.txt", "Lemon cake: flour, sugar, eggs", 6},
		{"resume.docx", "Curriculum vitae", 58},
		{"todo.txt", "Call the plumber", 1},
		{"wifi-guest.txt", "Guest password ORCHID42", 1},
		{"zoo-tickets.pdf", "Two adult tickets", 210},
		{"notes-old.txt", "Remember the milk", 3},
	};
	for (size_t k = 0; k < sizeof MISC / sizeof MISC[0]; k++)
		add_file(st, MISC[k].name, MISC[k].kb, "2026-01-10", MISC[k].content);
	sim_files_sort(st);
}

void sim_apps_free(sim_state *st)
{
	for (int i = 0; i < st->nalarms; i++)
		free(st->alarms[i].label);
	free(st->alarms);
	for (int i = 0; i < st->nthreads; i++) {
		for (int k = 0; k < st->threads[i].nmsgs; k++)
			free(st->threads[i].msgs[k].text);
		free(st->threads[i].msgs);
		free(st->threads[i].contact);
	}
	free(st->threads);
	for (int i = 0; i < st->nfiles; i++) {
		free(st->files[i].name);
		free(st->files[i].modified);
		free(st->files[i].content);
	}
	free(st->files);
	st->alarms = NULL;
	st->threads = NULL;
	st->files = NULL;
	st->nalarms = st->nthreads = st->nfiles = 0;
	amc_sb_free(&st->f_search);
	amc_sb_free(&st->f_time);
	amc_sb_free(&st->f_label);
	amc_sb_free(&st->f_to);
	amc_sb_free(&st->f_message);
}

/* ---- JSON ---- */

void sim_apps_to_json(const sim_state *st, cJSON *o)
{
	char buf[16];
	cJSON *as = cJSON_AddArrayToObject(o, "alarms");
	for (int i = 0; i < st->nalarms; i++) {
		cJSON *a = cJSON_CreateObject();
		snprintf(buf, sizeof buf, "%02d:%02d", st->alarms[i].hour, st->alarms[i].minute);
		cJSON_AddStringToObject(a, "time", buf);
		cJSON_AddStringToObject(a, "label", st->alarms[i].label);
		cJSON_AddBoolToObject(a, "enabled", st->alarms[i].enabled);
		cJSON_AddItemToArray(as, a);
	}
	cJSON *ts = cJSON_AddArrayToObject(o, "threads");
	for (int i = 0; i < st->nthreads; i++) {
		const sim_thread *t = &st->threads[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "contact", t->contact);
		cJSON_AddBoolToObject(j, "unread", t->unread);
		cJSON *ms = cJSON_AddArrayToObject(j, "messages");
		for (int k = 0; k < t->nmsgs; k++) {
			cJSON *m = cJSON_CreateObject();
			cJSON_AddStringToObject(m, "from", t->msgs[k].out ? "me" : "them");
			cJSON_AddStringToObject(m, "text", t->msgs[k].text);
			cJSON_AddItemToArray(ms, m);
		}
		cJSON_AddStringToObject(j, "last", t->nmsgs ? t->msgs[t->nmsgs - 1].text : "");
		cJSON_AddItemToArray(ts, j);
	}
	cJSON *fs = cJSON_AddArrayToObject(o, "files");
	for (int i = 0; i < st->nfiles; i++) {
		const sim_file *f = &st->files[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "name", f->name);
		cJSON_AddNumberToObject(j, "size_kb", f->size_kb);
		cJSON_AddStringToObject(j, "modified", f->modified);
		cJSON_AddStringToObject(j, "content", f->content);
		cJSON_AddBoolToObject(j, "starred", f->starred);
		cJSON_AddItemToArray(fs, j);
	}
	cJSON *se = cJSON_AddObjectToObject(o, "settings");
	for (int p = 0; p < PK_COUNT; p++)
		cJSON_AddStringToObject(se, PICKS[p].key, sim_pick_value(p, st->picks[p]));
}

static int bad(amc_err *e, const char *what)
{
	return amc_err_set(e, AMC_EENV, "%s", what);
}

static const char *str_of(const cJSON *o, const char *key, size_t max, int required, int *ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v || cJSON_IsNull(v)) {
		if (required)
			*ok = 0;
		return NULL;
	}
	if (!cJSON_IsString(v) || !v->valuestring || strlen(v->valuestring) > max ||
	    !amc_utf8_valid(v->valuestring)) {
		*ok = 0;
		return NULL;
	}
	return v->valuestring;
}

static int bool_of(const cJSON *o, const char *key, int def, int *ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v)
		return def;
	if (!cJSON_IsBool(v)) {
		*ok = 0;
		return def;
	}
	return cJSON_IsTrue(v);
}

/* "HH:MM", 00:00-23:59. */
static int parse_hhmm(const char *s, int *h, int *m)
{
	if (!s || strlen(s) != 5 || s[2] != ':')
		return -1;
	for (int i = 0; i < 5; i++)
		if (i != 2 && (s[i] < '0' || s[i] > '9'))
			return -1;
	*h = (s[0] - '0') * 10 + s[1] - '0';
	*m = (s[3] - '0') * 10 + s[4] - '0';
	return *h < 24 && *m < 60 ? 0 : -1;
}

int sim_parse_time(const char *s, int *h, int *m)
{
	/* Also "7:30": what people type. */
	char buf[8];
	if (s && strlen(s) == 4 && s[1] == ':') {
		snprintf(buf, sizeof buf, "0%s", s);
		s = buf;
	}
	return parse_hhmm(s, h, m);
}

static int read_alarms(sim_state *st, const cJSON *as, amc_err *e)
{
	if (!cJSON_IsArray(as) || cJSON_GetArraySize(as) > SIM_MAX_ALARMS)
		return bad(e, "'alarms' must be a list of at most 100 alarms");
	for (int i = 0; i < st->nalarms; i++)
		free(st->alarms[i].label);
	st->nalarms = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, as) {
		int ok = 1, h, m;
		const char *t = str_of(it, "time", 8, 1, &ok);
		const char *l = str_of(it, "label", SIM_FIELD_MAX, 0, &ok);
		int on = bool_of(it, "enabled", 1, &ok);
		if (!ok || parse_hhmm(t, &h, &m) != 0)
			return bad(e, "an alarm needs 'time' as HH:MM (00:00-23:59), a 'label' string and 'enabled' true or false");
		add_alarm(st, h, m, l ? l : "", on);
	}
	sim_alarms_sort(st);
	return 0;
}

static int read_threads(sim_state *st, const cJSON *ts, amc_err *e)
{
	if (!cJSON_IsArray(ts) || cJSON_GetArraySize(ts) > SIM_MAX_THREADS)
		return bad(e, "'threads' must be a list of at most 200 conversations");
	for (int i = 0; i < st->nthreads; i++) {
		for (int k = 0; k < st->threads[i].nmsgs; k++)
			free(st->threads[i].msgs[k].text);
		free(st->threads[i].msgs);
		free(st->threads[i].contact);
	}
	st->nthreads = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, ts) {
		int ok = 1;
		const char *c = str_of(it, "contact", SIM_FIELD_MAX, 1, &ok);
		int unread = bool_of(it, "unread", 0, &ok);
		const cJSON *ms = cJSON_GetObjectItemCaseSensitive(it, "messages");
		if (!ok || !*c || (ms && (!cJSON_IsArray(ms) || cJSON_GetArraySize(ms) > SIM_MAX_MESSAGES)))
			return bad(e, "a conversation needs a non-empty 'contact' and 'messages' as a list of at most 500");
		if (sim_thread_find(st, c) >= 0)
			return bad(e, "two conversations have the same 'contact'");
		sim_thread *t = add_thread(st, c);
		t->unread = unread;
		const cJSON *m;
		cJSON_ArrayForEach(m, ms) {
			const char *from = str_of(m, "from", 8, 1, &ok);
			const char *text = str_of(m, "text", SIM_BODY_MAX, 1, &ok);
			if (!ok || (strcmp(from, "me") && strcmp(from, "them")))
				return bad(e, "a message needs 'from' (\"me\" or \"them\") and a 'text' string");
			sim_thread_add_msg(t, !strcmp(from, "me"), text);
		}
	}
	return 0;
}

static int read_files(sim_state *st, const cJSON *fs, amc_err *e)
{
	if (!cJSON_IsArray(fs) || cJSON_GetArraySize(fs) > SIM_MAX_FILES)
		return bad(e, "'files' must be a list of at most 1000 files");
	for (int i = 0; i < st->nfiles; i++) {
		free(st->files[i].name);
		free(st->files[i].modified);
		free(st->files[i].content);
	}
	st->nfiles = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, fs) {
		int ok = 1;
		const char *n = str_of(it, "name", 255, 1, &ok);
		const char *mod = str_of(it, "modified", 32, 0, &ok);
		const char *c = str_of(it, "content", SIM_FIELD_MAX, 0, &ok);
		int star = bool_of(it, "starred", 0, &ok);
		const cJSON *kb = cJSON_GetObjectItemCaseSensitive(it, "size_kb");
		if (!ok || !*n || !cJSON_IsNumber(kb) || kb->valuedouble < 0 || kb->valuedouble > 1e8)
			return bad(e, "a file needs a non-empty 'name' and 'size_kb' (0-100000000)");
		add_file(st, n, (int)kb->valuedouble, mod ? mod : "2026-01-10", c ? c : "");
		st->files[st->nfiles - 1].starred = star;
	}
	sim_files_sort(st);
	for (int i = 1; i < st->nfiles; i++)
		if (!strcmp(st->files[i - 1].name, st->files[i].name))
			return bad(e, "two files have the same 'name'");
	return 0;
}

int sim_apps_from_json(sim_state *st, const cJSON *o, amc_err *e)
{
	const cJSON *v;
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "alarms")) && read_alarms(st, v, e) != 0)
		return -1;
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "threads")) && read_threads(st, v, e) != 0)
		return -1;
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "files")) && read_files(st, v, e) != 0)
		return -1;
	const cJSON *se = cJSON_GetObjectItemCaseSensitive(o, "settings");
	if (se && !cJSON_IsObject(se))
		return bad(e, "'settings' must be an object");
	for (int p = 0; p < PK_COUNT && se; p++) {
		int ok = 1;
		const char *val = str_of(se, PICKS[p].key, 64, 0, &ok);
		if (!ok)
			return amc_err_set(e, AMC_EENV, "'settings.%s' is not a string", PICKS[p].key);
		if (!val)
			continue;
		int found = -1;
		for (int k = 0; k < PICKS[p].n; k++)
			if (!strcmp(PICKS[p].values[k], val))
				found = k;
		if (found < 0)
			return amc_err_set(e, AMC_EENV, "'settings.%s' must be one of the picker's values (e.g. \"%s\")",
					   PICKS[p].key, PICKS[p].values[PICKS[p].def]);
		st->picks[p] = found;
	}
	return 0;
}

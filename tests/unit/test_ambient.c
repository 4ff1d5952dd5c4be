/* test_ambient.c - src/device/sim/ambient.c: the sim's screen changing by
 * itself. Off by default (no banner, no new state keys); with sim.notify_ms the
 * heads-up arrives exactly N ms of sim time after an app opens, in the tree
 * (dumped, hit-testable) and in the pixels, stays SIM_HEADS_UP_MS, is not
 * moved by another app opening, opens Messages when tapped and goes when
 * swiped; it is state (`notification`) that --set can give and that is
 * checked; with sim.clock live the real time between calls passes on the
 * sim, with calls it does not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device/sim/ambient.h"
#include "device/sim/sim.h"
#include "simtest.h"
#include "tap.h"
#include "testutil.h"
#include "util/clock.h"
#include "util/config.h"
#include "util/jsonutil.h"

static const char *home;

/* A set-up step failed: the rest cannot run. */
#define BAIL_OUT(...) do { printf("Bail out! "); printf(__VA_ARGS__); printf("\n"); exit(1); } while (0)

static amc_device *open_sim(int index, const char *notify_ms, const char *clock)
{
	amc_config *cfg = amc_config_new();
	amc_err e;
	if ((notify_ms && amc_config_set(cfg, "sim", "notify_ms", notify_ms, "test", &e) != 0) ||
	    (clock && amc_config_set(cfg, "sim", "clock", clock, "test", &e) != 0))
		BAIL_OUT("config: %s", e.msg);
	amc_device *d = NULL;
	if (amc_sim_open(home, index, cfg, &d, &e) != 0)
		BAIL_OUT("open sim:%d: %s", index, e.msg);
	amc_config_free(cfg); /* the sim keeps what it read */
	return d;
}

/* The state as JSON (caller deletes). */
static cJSON *state(amc_device *d)
{
	char *s = NULL;
	amc_err e;
	if (amc_sim_state_json(d, &s, &e) != 0)
		BAIL_OUT("state: %s", e.msg);
	cJSON *j = cJSON_Parse(s);
	free(s);
	return j;
}

static long long sim_time(amc_device *d)
{
	cJSON *j = state(d);
	long long t = (long long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(j, "sim_time_ms"));
	cJSON_Delete(j);
	return t;
}

/* 1 when the sim drew `text` on its current frame, as a node of the tree too. */
static int drawn(amc_device *d, const char *text)
{
	char *s = NULL;
	amc_err e;
	if (amc_sim_drawn_text_json(d, &s, &e) != 0)
		BAIL_OUT("drawn: %s", e.msg);
	cJSON *a = cJSON_Parse(s);
	free(s);
	int found = 0;
	const cJSON *t;
	cJSON_ArrayForEach(t, a) {
		const char *v = amc_json_str(t, "text");
		if (v && !strcmp(v, text) && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(t, "in_tree")))
			found = 1;
	}
	cJSON_Delete(a);
	return found;
}

static char *dump(amc_device *d)
{
	char *xml = NULL;
	size_t len;
	amc_err e;
	if (d->ops->ui_tree(d, &xml, &len, &e) != 0)
		BAIL_OUT("ui_tree: %s", e.msg);
	return xml;
}

static void wait_ms(amc_device *d, int ms)
{
	amc_err e;
	if (d->ops->wait(d, ms, &e) != 0)
		BAIL_OUT("wait: %s", e.msg);
}

/* Rows of the two frames that differ, from y0 to y1. */
static int rows_differ(const amc_image *a, const amc_image *b, int y0, int y1)
{
	int n = 0;
	for (int y = y0; y < y1; y++)
		n += memcmp(a->px + (size_t)y * a->w * 4, b->px + (size_t)y * b->w * 4, (size_t)a->w * 4) != 0;
	return n;
}

static void test_off_by_default(void)
{
	amc_device *d = open_sim(1, NULL, NULL);
	amc_err e;
	ok(d->ops->launch_app(d, "com.android.contacts", &e) == 0, "off: an app opens");
	wait_ms(d, 60000);
	char *x = dump(d);
	ok(!strstr(x, SIM_NOTIFY_FROM) && !strstr(x, SIM_NOTIFY_ROW_ID), "off: no notification a minute later");
	free(x);
	cJSON *j = state(d);
	ok(!cJSON_GetObjectItemCaseSensitive(j, "notification") && !cJSON_GetObjectItemCaseSensitive(j, "wall_ms"),
	   "off: the state has neither key (state files as before)");
	cJSON_Delete(j);
	amc_device_close(d);
}

static void test_notification(void)
{
	amc_device *d = open_sim(2, "2000", NULL);
	amc_err e;
	long long t0 = sim_time(d);
	ok(d->ops->launch_app(d, "com.android.contacts", &e) == 0, "an app opens");
	cJSON *j = state(d);
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(j, "notification");
	is_int((long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(n, "due_ms")), (long)(t0 + 2000),
	       "the notification is due 2000 ms of sim time after the app opened");
	ok(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(n, "shown")), "not shown yet");
	cJSON_Delete(j);
	wait_ms(d, (int)(t0 + 2000 - 1 - sim_time(d)));
	amc_image before, after;
	ok(amc_sim_render(d, &before, &e) == 0, "frame 1 ms before");
	ok(!drawn(d, SIM_NOTIFY_FROM), "1 ms before: not drawn");
	wait_ms(d, 1);
	ok(amc_sim_render(d, &after, &e) == 0, "frame at the due time");
	ok(drawn(d, SIM_NOTIFY_FROM) && drawn(d, SIM_NOTIFY_TEXT), "at the due time: drawn, as nodes of the tree");
	sim *s = S(d);
	int bottom = (int)(130 * s->dp);
	ok(rows_differ(&before, &after, (int)(32 * s->dp), bottom) > 0, "the banner's rows changed in the pixels");
	is_int(rows_differ(&before, &after, bottom, after.h), 0, "and nothing below it");
	amc_image_free(&before);
	amc_image_free(&after);
	char *x = dump(d);
	like(x, "text=\"" SIM_NOTIFY_FROM "\"", "the UI dump has the sender");
	const char *row = strstr(x, "resource-id=\"" SIM_NOTIFY_ROW_ID "\"");
	const char *end = row ? strchr(row, '>') : NULL;
	const char *cl = row ? strstr(row, "clickable=\"true\"") : NULL;
	ok(row && cl && cl < end, "in a clickable row");
	free(x);
	long long due = t0 + 2000;
	ok(d->ops->launch_app(d, "com.android.settings", &e) == 0, "another app opens while it shows");
	j = state(d);
	is_int((long)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "notification"),
									   "due_ms")),
	       (long)due, "it does not move the notification");
	cJSON_Delete(j);
	ok(drawn(d, SIM_NOTIFY_FROM), "still shown over Settings");
	wait_ms(d, (int)(due + SIM_HEADS_UP_MS - sim_time(d)));
	ok(!drawn(d, SIM_NOTIFY_FROM), "gone SIM_HEADS_UP_MS after it came");
	/* tapped: Messages opens; the tap is an app opening, so the next one is armed */
	ok(d->ops->launch_app(d, "com.amc.notes", &e) == 0, "an app opens again: a new one is armed");
	wait_ms(d, 2000);
	ok(drawn(d, SIM_NOTIFY_FROM), "and shows 2000 ms later");
	ok(tap(s, SIM_NOTIFY_ROW_ID, NULL), "a tap on it");
	is_int(top_screen(s), SCR_MESSAGES, "opens Messages");
	ok(!drawn(d, SIM_NOTIFY_FROM), "and it is gone");
	/* swiped: gone, nothing else moves */
	show(s, SCR_CONTACTS, -1);
	s->st.notify_due = s->st.time_ms;
	ok(drawn(d, SIM_NOTIFY_FROM), "shown again (state set)");
	int y = (int)(80 * s->dp);
	ok(d->ops->swipe(d, s->w / 2, y, s->w / 2, y - 10, 100, &e) == 0 && !drawn(d, SIM_NOTIFY_FROM),
	   "a swipe starting on it dismisses it");
	is_int(top_screen(s), SCR_CONTACTS, "and leaves the screen as it was");
	amc_device_close(d);
}

static void test_state_keys(void)
{
	amc_device *d = open_sim(3, NULL, NULL);
	amc_err e;
	const char *ok_state = "{\"stack\":[{\"screen\":\"launcher\"},{\"screen\":\"notes\"}],\"notification\":{\"due_ms\":5}}";
	ok(amc_sim_set_state(d, ok_state, strlen(ok_state), &e) == 0, "--set gives a notification");
	wait_ms(d, 10);
	ok(drawn(d, SIM_NOTIFY_FROM), "shown from its due time on");
	const char *bad[] = { "{\"notification\":\"soon\"}", "{\"notification\":{\"due_ms\":0}}",
			      "{\"notification\":{\"due_ms\":1.5}}", "{\"wall_ms\":-1}" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		amc_err_clear(&e);
		ok(amc_sim_set_state(d, bad[i], strlen(bad[i]), &e) == -1 && e.code == AMC_EUSAGE &&
		   (strstr(e.msg, "notification") || strstr(e.msg, "wall_ms")),
		   "refused, naming the key: %s", bad[i]);
	}
	ok(drawn(d, SIM_NOTIFY_FROM), "a refused state changes nothing");
	const char *none = "{\"notification\":null}";
	ok(amc_sim_set_state(d, none, strlen(none), &e) == 0 && !drawn(d, SIM_NOTIFY_FROM), "null: none");
	amc_device_close(d);
}

static void test_clock(void)
{
	amc_device *d = open_sim(4, NULL, "live");
	wait_ms(d, 10);
	long long t = sim_time(d);
	amc_sleep_ms(300);
	long long t2 = sim_time(d);
	ok(t2 - t >= 300 && t2 - t < 60000, "live: 300 ms of real time passed on the sim (%lld ms)", t2 - t);
	cJSON *j = state(d);
	ok(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "wall_ms")), "live: the state keeps the wall clock");
	cJSON_Delete(j);
	wait_ms(d, 10);
	amc_device_close(d);
	/* another process (here: another handle) picks the sim up where it was */
	d = open_sim(4, NULL, "live");
	amc_sleep_ms(200);
	ok(sim_time(d) - t2 >= 200, "live: a second handle counts from the last call's wall clock");
	amc_device_close(d);
	d = open_sim(4, NULL, "calls");
	wait_ms(d, 10);
	t = sim_time(d);
	amc_sleep_ms(300);
	is_int((long)(sim_time(d) - t), 0, "calls: real time does not pass on the sim");
	j = state(d);
	ok(!cJSON_GetObjectItemCaseSensitive(j, "wall_ms"), "calls: no wall clock kept");
	cJSON_Delete(j);
	amc_device_close(d);
}

int main(void)
{
	home = test_home("ambient");
	test_off_by_default();
	test_notification();
	test_state_keys();
	test_clock();
	return done_testing();
}

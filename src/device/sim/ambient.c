/* ambient.c - the sim's screen changing by itself: the notification that
 * arrives after an app is opened and the live clock (ambient.h). */
#include "device/sim/ambient.h"

#include <time.h>

/* Real time in ms: the wall clock, which every process on the host shares. */
static long long wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sim_ambient_catch_up(sim *s)
{
	if (!s->live)
		return;
	long long now = wall_now();
	long long gap = s->st.wall_ms > 0 ? now - s->st.wall_ms : 0;
	if (gap > SIM_LIVE_MAX_GAP_MS)
		gap = SIM_LIVE_MAX_GAP_MS;
	if (gap > 0) /* a clock set back adds nothing */
		s->st.time_ms += gap;
	s->st.wall_ms = now;
}

void sim_ambient_called(sim *s)
{
	/* none kept with the calls clock: a later live run starts from its first call */
	s->st.wall_ms = s->live ? wall_now() : 0;
}

void sim_ambient_app_opened(sim *s)
{
	long long due = s->st.notify_due, now = s->st.time_ms;
	if (s->notify_ms <= 0 || (due > 0 && now < due + SIM_HEADS_UP_MS))
		return;
	s->st.notify_due = now + s->notify_ms;
}

int sim_ambient_banner_shown(const sim *s)
{
	long long due = s->st.notify_due, now = s->st.time_ms;
	return due > 0 && now >= due && now < due + SIM_HEADS_UP_MS;
}

void sim_ambient_dismiss(sim *s)
{
	s->st.notify_due = 0;
}

void sim_ambient_build(sim_builder *b)
{
	if (!sim_ambient_banner_shown(b->s))
		return;
	const sim_pal *c = b->c;
	/* under the status bar, over the app bar, as Android's heads-up */
	int x1 = D(b, 8), x2 = b->W - D(b, 8), y1 = D(b, 32) + D(b, 6), y2 = y1 + D(b, 84);
	sim_deco(b, 0, x1, y1 + D(b, 2), x2, y2 + D(b, 2), P_RECT, 0x00000030, D(b, 22)); /* shadow */
	int row = sim_add(b, 0, x1, y1, x2, y2, "android.widget.FrameLayout");
	vnode *n = N(b, row);
	n->rid = SIM_NOTIFY_ROW_ID;
	n->flags = VF_CLICKABLE | VF_FOCUSABLE;
	n->act = A_NOTIFY;
	n->paint = P_RECT;
	n->bg = c->card;
	n->radius = D(b, 22);
	sim_set_desc(b, row, "Notification from " SIM_NOTIFY_FROM);
	int cx = x1 + D(b, 36), cy = y1 + D(b, 42), tx = x1 + D(b, 68), tw = x2 - tx - D(b, 16);
	sim_glyph_icon(b, row, cx, cy, 40, "\xe2\x9c\x89", 0x188038FF, 0xFFFFFFFF, 20);
	sim_label(b, row, tx, y1 + D(b, 10), tw, "Messages \xc2\xb7 now", 12, c->text2, 0,
		  "android:id/app_name_text");
	sim_label(b, row, tx, y1 + D(b, 28), tw, SIM_NOTIFY_FROM, 16, c->text, VF_BOLD, "android:id/title");
	sim_label(b, row, tx, y1 + D(b, 52), tw, SIM_NOTIFY_TEXT, 14, c->text2, 0, "android:id/text");
}

void sim_ambient_to_json(const sim_state *st, long long now_ms, cJSON *o)
{
	if (st->notify_due > 0) {
		cJSON *n = cJSON_AddObjectToObject(o, "notification");
		cJSON_AddNumberToObject(n, "due_ms", (double)st->notify_due);
		cJSON_AddStringToObject(n, "from", SIM_NOTIFY_FROM);
		cJSON_AddStringToObject(n, "text", SIM_NOTIFY_TEXT);
		/* for people and checks reading the state; not read back */
		cJSON_AddBoolToObject(n, "shown", now_ms >= st->notify_due && now_ms < st->notify_due + SIM_HEADS_UP_MS);
	}
	if (st->wall_ms > 0)
		cJSON_AddNumberToObject(o, "wall_ms", (double)st->wall_ms);
}

/* A whole number in lo..hi at key (absent: def); -1 when it is something else. */
static int whole(const cJSON *o, const char *key, long long lo, long long hi, long long def, long long *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	*out = def;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble < (double)lo || v->valuedouble > (double)hi ||
	    v->valuedouble != (double)(long long)v->valuedouble)
		return -1;
	*out = (long long)v->valuedouble;
	return 0;
}

int sim_ambient_from_json(sim_state *st, const cJSON *o, amc_err *e)
{
	/* as sim_time_ms: up to ten years of sim time */
	const long long max = 1000LL * 3600 * 24 * 3650;
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "notification");
	st->notify_due = 0;
	if (n && !cJSON_IsNull(n)) {
		if (!cJSON_IsObject(n) || whole(n, "due_ms", 1, max, 0, &st->notify_due) != 0 || st->notify_due <= 0)
			return amc_err_set(e, AMC_EENV, "'notification' must be null or {\"due_ms\": N}, N the sim time "
					   "(ms, 1 or more) the heads-up from %s appears", SIM_NOTIFY_FROM);
	}
	if (whole(o, "wall_ms", 0, INT64_MAX / 2, 0, &st->wall_ms) != 0)
		return amc_err_set(e, AMC_EENV, "'wall_ms' must be a whole number of ms since 1970 (sim.clock live)");
	return 0;
}

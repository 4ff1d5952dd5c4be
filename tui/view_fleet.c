/* view_fleet.c - the Fleet view (when fleet.url is set): the fleet's hosts
 * with their devices and what each runs, and the assignments with their
 * latest progress (docs/fleet.md).
 *
 * The view never waits on the database: a worker thread owns the connection,
 * LISTENs on amc_fleet_change, re-reads the fleet on each notification (or
 * every few seconds) and hands the view a snapshot under a mutex, then wakes
 * the loop through the wake pipe (byte 3: redraw). An unreachable database
 * is shown as such, and the worker keeps trying. Everything from the
 * database is untrusted: amc_tui_put draws it terminal-safe. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fleet/watch.h"
#include "tui/app.h"
#include "tui/text.h"
#include "util/strbuf.h"

typedef struct fleet_view {
	pthread_t th;
	int have_th;
	pthread_mutex_t mu;
	int stop;
	char *url;
	double down_after_s;         /* a host without a heartbeat this long is shown down */
	int wake_fd;
	cJSON *hosts, *list;   /* the latest snapshot, owned; under mu */
	char status[AMC_ERR_MSG_MAX + 64]; /* "" when the snapshot is current */
	long sel;
	/* Enter on an assignment: the worker reads its attempts (amc_fleet_show)
	 * into detail; 0 while the list is shown. Under mu. */
	long long detail_id;
	int detail_dirty;      /* asked for, not read yet: the worker stops waiting */
	cJSON *detail;
	long asel;             /* the selected attempt */
} fleet_view;

static int stopping(fleet_view *f)
{
	pthread_mutex_lock(&f->mu);
	int s = f->stop;
	pthread_mutex_unlock(&f->mu);
	return s;
}

static void wake(fleet_view *f)
{
	char b = 3;
	if (f->wake_fd >= 0) {
		ssize_t w = write(f->wake_fd, &b, 1); /* nonblocking: a full pipe already wakes */
		(void)w;
	}
}

static void set_status(fleet_view *f, const char *msg)
{
	pthread_mutex_lock(&f->mu);
	snprintf(f->status, sizeof f->status, "%s", msg);
	pthread_mutex_unlock(&f->mu);
	wake(f);
}

static int detail_asked(fleet_view *f)
{
	pthread_mutex_lock(&f->mu);
	int d = f->detail_dirty;
	pthread_mutex_unlock(&f->mu);
	return d;
}

static void *worker(void *arg)
{
	fleet_view *f = arg;
	amc_fleet_watch *w = NULL;
	while (!stopping(f)) {
		amc_err e;
		if (!w && amc_fleet_watch_open(f->url, 3000, &w, &e) != 0) {
			char msg[AMC_ERR_MSG_MAX + 64];
			snprintf(msg, sizeof msg, "fleet database unreachable (retrying): %s", e.msg);
			set_status(f, msg);
			for (int i = 0; i < 30 && !stopping(f); i++) {
				struct timespec ts = { 0, 100000000L };
				nanosleep(&ts, NULL);
			}
			continue;
		}
		cJSON *h = amc_fleet_watch_hosts(w, f->down_after_s, &e);
		cJSON *l = h ? amc_fleet_watch_list(w, NULL, 200, &e) : NULL;
		if (!l) {
			cJSON_Delete(h);
			char msg[AMC_ERR_MSG_MAX + 64];
			snprintf(msg, sizeof msg, "fleet database: %s", e.msg);
			set_status(f, msg);
			amc_fleet_watch_close(w);
			w = NULL;
			continue;
		}
		pthread_mutex_lock(&f->mu);
		long long want = f->detail_id;
		f->detail_dirty = 0;
		pthread_mutex_unlock(&f->mu);
		cJSON *dj = NULL;
		char derr[AMC_ERR_MSG_MAX] = "";
		if (want > 0 && !(dj = amc_fleet_watch_show(w, want, 0, &e)))
			snprintf(derr, sizeof derr, "%s", e.msg);
		pthread_mutex_lock(&f->mu);
		cJSON_Delete(f->hosts);
		cJSON_Delete(f->list);
		f->hosts = h;
		f->list = l;
		f->status[0] = 0;
		if (f->detail_id == want && want > 0) {
			cJSON_Delete(f->detail);
			f->detail = dj;
			dj = NULL;
			if (derr[0])
				snprintf(f->status, sizeof f->status, "assignment %lld: %s", want, derr);
		}
		pthread_mutex_unlock(&f->mu);
		cJSON_Delete(dj);
		wake(f);
		/* Until something changes (NOTIFY), at most 3 s; stop within 250 ms. */
		for (int i = 0; i < 12 && !stopping(f) && !detail_asked(f); i++) {
			int r = amc_fleet_watch_wait(w, 250, 50, &e);
			if (r < 0) {
				amc_fleet_watch_close(w);
				w = NULL;
				break;
			}
			if (r == 1)
				break;
		}
	}
	amc_fleet_watch_close(w);
	return NULL;
}

void *amc_tui_fleet_new(amc_tui_app *a)
{
	fleet_view *f = amc_xcalloc(1, sizeof *f);
	pthread_mutex_init(&f->mu, NULL);
	f->url = amc_xstrdup(amc_config_str(a->cfg, "fleet", "url"));
	f->down_after_s = 3.0 * (double)amc_config_int(a->cfg, "fleet", "reap_s");
	f->wake_fd = a->wake[1];
	snprintf(f->status, sizeof f->status, "connecting to the fleet database...");
	f->have_th = pthread_create(&f->th, NULL, worker, f) == 0;
	if (!f->have_th)
		snprintf(f->status, sizeof f->status, "cannot start the fleet reader thread");
	return f;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *k, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* One assignment's attempts, as `amc fleet show` lists them (under mu). */
static void draw_detail(fleet_view *f, int y, int h, int w)
{
	amc_sb sb;
	amc_sb_init(&sb);
	int row = y, end = y + h;
	if (f->status[0])
		amc_tui_put(stdscr, row++, 1, w - 2, f->status, amc_tui_attr(AMC_EL_ERROR), 1);
	const cJSON *d = f->detail;
	if (!d) {
		amc_sb_printf(&sb, "assignment %lld: reading its attempts...", f->detail_id);
		amc_tui_put(stdscr, row, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(AMC_EL_DIM), 1);
		amc_sb_free(&sb);
		return;
	}
	amc_sb_printf(&sb, "assignment %.0f  %s  %s  %s  (Enter: the selected attempt's task when it ran here, Esc: back)",
		      num(d, "id", 0), str(d, "state") ? str(d, "state") : "?", str(d, "kind") ? str(d, "kind") : "",
		      str(d, "title") ? str(d, "title") : "");
	amc_tui_put(stdscr, row++, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(AMC_EL_TITLE), 1);
	if (str(d, "needs") && *str(d, "needs")) {
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "needs: %s", str(d, "needs"));
		amc_tui_put(stdscr, row++, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(AMC_EL_NORMAL), 1);
	}
	if (num(d, "retries", 0) > 0 || num(d, "timeout_s", 0) > 0 || str(d, "not_before")) {
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "retries %.0f (backoff %.0f s, doubling)", num(d, "retries", 0), num(d, "backoff_s", 0));
		if (num(d, "timeout_s", 0) > 0)
			amc_sb_printf(&sb, ", timeout %.0f s", num(d, "timeout_s", 0));
		if (str(d, "not_before"))
			amc_sb_printf(&sb, ", not before %s", str(d, "not_before"));
		amc_tui_put(stdscr, row++, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(AMC_EL_NORMAL), 1);
	}
	if (str(d, "error")) {
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "error: %s", str(d, "error"));
		amc_tui_put(stdscr, row++, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(AMC_EL_ERROR), 1);
	}
	amc_tui_put(stdscr, row++, 1, w - 2, "TRY STATE      HOST                 DEVICE            LOCAL TASK        ERROR / PROGRESS",
		    amc_tui_attr(AMC_EL_TITLE), 1);
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(d, "attempts"), *t;
	long n = cJSON_GetArraySize(arr), i = 0;
	if (f->asel >= n)
		f->asel = n ? n - 1 : 0;
	cJSON_ArrayForEach(t, arr) {
		if (row >= end)
			break;
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "%3.0f %-10s %-20.20s %-17.17s %-17s ", num(t, "attempt", 0),
			      str(t, "state") ? str(t, "state") : "?", str(t, "host") ? str(t, "host") : "?",
			      str(t, "device") ? str(t, "device") : "?",
			      str(t, "local_task_id") ? str(t, "local_task_id") : "-");
		if (str(t, "error"))
			amc_sb_puts(&sb, str(t, "error"));
		else if (str(t, "summary"))
			amc_sb_printf(&sb, "step %.0f %s: %s", num(t, "step_index", 0),
				      str(t, "step_status") ? str(t, "step_status") : "", str(t, "summary"));
		attr_t at = i == f->asel ? amc_tui_attr(AMC_EL_SELECTED) : amc_tui_attr(AMC_EL_NORMAL);
		amc_tui_put(stdscr, row++, 1, w - 2, amc_sb_str(&sb), at, 1);
		i++;
	}
	if (!n && row < end)
		amc_tui_put(stdscr, row, 1, w - 2, "no attempt yet: it waits for a free device of its kind",
			    amc_tui_attr(AMC_EL_DIM), 1);
	amc_sb_free(&sb);
}

static void draw(amc_tui_app *a, amc_tui_view *v, int y, int h, int w)
{
	(void)a;
	fleet_view *f = v->data;
	amc_sb sb;
	amc_sb_init(&sb);
	int row = y, end = y + h;
	pthread_mutex_lock(&f->mu);
	if (f->detail_id > 0) {
		draw_detail(f, y, h, w);
		pthread_mutex_unlock(&f->mu);
		amc_sb_free(&sb);
		return;
	}
	if (f->status[0])
		amc_tui_put(stdscr, row++, 1, w - 2, f->status, amc_tui_attr(AMC_EL_ERROR), 1);
	amc_tui_put(stdscr, row++, 1, w - 2, "HOST                 STATE    SEEN  DEVICES", amc_tui_attr(AMC_EL_TITLE), 1);
	const cJSON *o;
	cJSON_ArrayForEach(o, f->hosts) {
		if (row >= end - 3)
			break;
		const char *hs = str(o, "status") ? str(o, "status") : "?";
		int stopped = strcmp(hs, "up") != 0;
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "%-20.20s %-8s %4.0fs ", str(o, "name") ? str(o, "name") : "?", hs,
			      num(o, "last_seen_s", 0));
		const cJSON *d;
		cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(o, "devices")) {
			amc_sb_printf(&sb, " %s", str(d, "device") ? str(d, "device") : "?");
			if (num(d, "assignment", 0) > 0)
				amc_sb_printf(&sb, " [%.0f#%.0f step %.0f]", num(d, "assignment", 0), num(d, "attempt", 0),
					      num(d, "step_index", 0));
		}
		amc_tui_put(stdscr, row++, 1, w - 2, amc_sb_str(&sb), amc_tui_attr(stopped ? AMC_EL_DIM : AMC_EL_NORMAL), 1);
	}
	row++;
	amc_tui_put(stdscr, row++, 1, w - 2, "ID     STATE      TRY   HOST/DEVICE          TITLE / LATEST PROGRESS",
		    amc_tui_attr(AMC_EL_TITLE), 1);
	long n = cJSON_GetArraySize(f->list), i = 0;
	if (f->sel >= n)
		f->sel = n ? n - 1 : 0;
	cJSON_ArrayForEach(o, f->list) {
		if (row >= end)
			break;
		const cJSON *run = cJSON_GetObjectItemCaseSensitive(o, "running");
		amc_sb_reset(&sb);
		amc_sb_printf(&sb, "%-6.0f %-10s %2.0f/%-2.0f ", num(o, "id", 0), str(o, "state") ? str(o, "state") : "?",
			      num(o, "attempts", 0), num(o, "max_attempts", 0));
		if (cJSON_IsObject(run))
			amc_sb_printf(&sb, "%-20.20s ", str(run, "host") ? str(run, "host") : "?");
		else
			amc_sb_printf(&sb, "%-20s ", "-");
		amc_sb_puts(&sb, str(o, "title") ? str(o, "title") : "");
		if (cJSON_IsObject(run) && str(run, "summary"))
			amc_sb_printf(&sb, "  step %.0f %s: %s (%.0fs ago)", num(run, "step_index", 0),
				      str(run, "step_status") ? str(run, "step_status") : "", str(run, "summary"),
				      num(run, "progress_age_s", 0));
		else if (str(o, "waiting")) /* why queued work is not claimed (fleet.h) */
			amc_sb_printf(&sb, "  (%s)", str(o, "waiting"));
		else if (str(o, "error"))
			amc_sb_printf(&sb, "  %s", str(o, "error"));
		const char *st = str(o, "state") ? str(o, "state") : "";
		amc_tui_el el = !strcmp(st, "succeeded") ? AMC_EL_SUCCEEDED : !strcmp(st, "failed") ? AMC_EL_FAILED
			: !strcmp(st, "leased") ? AMC_EL_RUNNING : !strcmp(st, "cancelled") ? AMC_EL_CANCELLED : AMC_EL_QUEUED;
		attr_t at = i == f->sel ? amc_tui_attr(AMC_EL_SELECTED) : amc_tui_attr(el);
		amc_tui_put(stdscr, row++, 1, w - 2, amc_sb_str(&sb), at, 1);
		i++;
	}
	if (!n && !f->status[0] && row < end)
		amc_tui_put(stdscr, row, 1, w - 2, "no assignments yet: amc fleet submit", amc_tui_attr(AMC_EL_DIM), 1);
	pthread_mutex_unlock(&f->mu);
	amc_sb_free(&sb);
}

/* Enter in the attempts: open the attempt's local task when this host's
 * store has it (it ran here), else say where it ran. Under mu. */
static void open_attempt(amc_tui_app *a, fleet_view *f)
{
	const cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(f->detail, "attempts"), (int)f->asel);
	const char *id = str(t, "local_task_id");
	if (!id) {
		amc_tui_message(a, 1, "this attempt has no local task yet");
		return;
	}
	amc_task_row row;
	amc_err e;
	if (amc_store_get_task(a->store, id, &row, &e) != 0) {
		amc_tui_message(a, 1, "task %.20s ran on host %.60s, not here: ssh there and run `amc show %.20s`", id,
				str(t, "hostname") ? str(t, "hostname") : str(t, "host") ? str(t, "host") : "?", id);
		return;
	}
	amc_task_row_free(&row);
	amc_tui_push(a, &amc_tui_view_task, amc_tui_task_new(a, id));
}

static int request(amc_tui_app *a, amc_tui_view *v, amc_tui_req req)
{
	fleet_view *f = v->data;
	pthread_mutex_lock(&f->mu);
	if (f->detail_id > 0) {
		int handled = 1;
		switch (req) {
		case AMC_REQ_DOWN: f->asel++; break;
		case AMC_REQ_UP: f->asel = f->asel > 0 ? f->asel - 1 : 0; break;
		case AMC_REQ_BACK:
			f->detail_id = 0;
			cJSON_Delete(f->detail);
			f->detail = NULL;
			break;
		case AMC_REQ_ENTER:
			if (f->detail)
				open_attempt(a, f);
			break;
		default: handled = 0; break;
		}
		pthread_mutex_unlock(&f->mu);
		return handled;
	}
	if (req == AMC_REQ_ENTER) {
		const cJSON *o = cJSON_GetArrayItem(f->list, (int)f->sel);
		if (o && num(o, "id", 0) > 0) {
			f->detail_id = (long long)num(o, "id", 0);
			f->detail_dirty = 1;
			f->asel = 0;
		}
		pthread_mutex_unlock(&f->mu);
		return 1;
	}
	pthread_mutex_unlock(&f->mu);
	switch (req) {
	case AMC_REQ_DOWN: f->sel++; return 1;
	case AMC_REQ_UP: f->sel = f->sel > 0 ? f->sel - 1 : 0; return 1;
	case AMC_REQ_TOP: f->sel = 0; return 1;
	case AMC_REQ_BOTTOM: f->sel = 1L << 30; return 1;
	default: return 0;
	}
}

static void reload(amc_tui_app *a, amc_tui_view *v)
{
	(void)a;
	(void)v; /* the worker keeps the snapshot current */
}

static void vfree(amc_tui_view *v)
{
	fleet_view *f = v->data;
	pthread_mutex_lock(&f->mu);
	f->stop = 1;
	pthread_mutex_unlock(&f->mu);
	if (f->have_th)
		pthread_join(f->th, NULL);
	cJSON_Delete(f->hosts);
	cJSON_Delete(f->list);
	cJSON_Delete(f->detail);
	free(f->url);
	pthread_mutex_destroy(&f->mu);
	free(f);
}

const amc_tui_view_ops amc_tui_view_fleet = {
	"Fleet", AMC_VIEW_FLEET, draw, request, reload, NULL, NULL, vfree, NULL, NULL,
};

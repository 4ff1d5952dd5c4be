#include "planner/extplanner.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image/png.h"
#include "runtime/tools.h"
#include "util/clock.h"
#include "util/jsonutil.h"
#include "util/strbuf.h"

/* next() wakes at least this often to look at the task's cancel flag, which is
 * set without a signal to this planner's condition variable. */
#define AMC_EXTPLANNER_POLL_MS 50
/* zlib level of the client's image: what MCP sent before it was made here */
#define AMC_EXTPLANNER_IMAGE_LEVEL 6

/* The state the planner (runner's thread) and the handle (the agent's thread)
 * share; everything below mu is under it. */
typedef struct shared {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int refs;                     /* planner + handle still alive */
	int handle_gone;              /* amc_extplanner_free was called */
	long wait_ms;
	/* handed in, not yet taken by next() */
	int have_action;
	char tool[32];
	cJSON *args;
	char *reason;
	int have_finish, finish_ok;
	char *finish_text;
	char *finish_answer;          /* an information task's answer; NULL: none */
	/* the planner's side */
	int asking;                   /* next() waits for an action */
	long long ask_ms;             /* monotonic time of the observation it waits with */
	unsigned ask_gen;             /* counts the observations handed to next() */
	int look_wanted;              /* someone wants the screen captured again now */
	int ask_step;
	cJSON *ask_scene;
	char ask_shot[512];          /* the screenshot of that screen (artifact path); "" when not stored */
	unsigned char *ask_png;      /* its PNG bytes (a copy): the first screen is stored only after its plan */
	size_t ask_png_len;
	int image_edge;               /* opts image_edge */
	unsigned char *ask_img;      /* that screen within image_edge (NULL: ask_png fits as it is, or none) */
	size_t ask_img_len;
	int ask_img_w, ask_img_h;     /* its size; 0: no image */
	int ask_full_w;               /* the frame's width */
	int expecting;                /* something handed in awaits its answer */
	int taken_step;               /* the step the taken action becomes; 0: none */
	int answered;
	amc_ext_answer answer;
	int ended;
	amc_task_outcome outcome;
	/* this planner's ops: EXT_OPS with the name asked for */
	amc_planner_ops ops;
	char name[32];
} shared;

struct amc_extplanner {
	shared *s;
	amc_extplanner_words_fn words;
	void *words_ud;
};

static void shared_unref(shared *s)
{
	pthread_mutex_lock(&s->mu);
	int left = --s->refs;
	pthread_mutex_unlock(&s->mu);
	if (left > 0)
		return;
	cJSON_Delete(s->args);
	free(s->reason);
	free(s->finish_text);
	free(s->finish_answer);
	cJSON_Delete(s->ask_scene);
	free(s->ask_png);
	free(s->ask_img);
	amc_ext_answer_clear(&s->answer);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	free(s);
}

/* Wait on cv until the monotonic deadline, at most `slice` ms; deadline < 0:
 * only the slice. */
static void wait_until(shared *s, long long deadline, long slice)
{
	long long left = slice;
	if (deadline >= 0 && deadline - amc_mono_ms() < left)
		left = deadline - amc_mono_ms();
	if (left <= 0)
		return;
	struct timespec ts;
	amc_timespec_after(CLOCK_MONOTONIC, left, &ts);
	pthread_cond_timedwait(&s->cv, &s->mu, &ts);
}

static long long deadline_after(long ms)
{
	return ms < 0 ? -1 : amc_mono_ms() + ms;
}

static int past(long long deadline)
{
	return deadline >= 0 && amc_mono_ms() >= deadline;
}

/* Take the action handed in as the step to run. Under mu. */
static void take_action(shared *s, const amc_plan_ctx *ctx, amc_action *out)
{
	snprintf(out->tool, sizeof out->tool, "%s", s->tool);
	out->args = s->args;
	s->args = NULL;
	out->reasoning = s->reason;
	s->reason = NULL;
	char *a = amc_json_print(out->args);
	amc_sb d;
	amc_sb_init(&d);
	amc_sb_printf(&d, "%s %.200s", out->tool, a);
	free(a);
	out->description = amc_sb_detach(&d);
	s->have_action = 0;
	s->taken_step = ctx->step;
}

/* The observation within `edge` px for the client (opts image_edge): from its
 * pixels, scaled and encoded once; *png NULL when the captured PNG fits as it
 * is. *w 0: no image (no frame, or it could not be made). */
static void client_image(const amc_observation *o, int edge, unsigned char **png, size_t *len, int *w, int *h,
			 int *full_w)
{
	*png = NULL;
	*len = 0;
	*w = *h = *full_w = 0;
	amc_err e;
	amc_image dec = { 0 };
	const amc_image *img = &o->img;
	if (!img->px) {
		/* a device whose frames came as PNG only: one decode (none when it fits) */
		int pw, ph;
		if (!o->png || amc_png_info(o->png, o->png_len, &pw, &ph, &e) != 0)
			return;
		if (pw <= edge && ph <= edge) {
			*w = *full_w = pw;
			*h = ph;
			return;
		}
		if (amc_png_decode(o->png, o->png_len, &dec, &e) != 0)
			return;
		img = &dec;
	}
	if (img->w <= edge && img->h <= edge && o->png) {
		*w = *full_w = img->w;
		*h = img->h;
	} else {
		amc_image small = { 0 };
		if (amc_image_scale_fit(img, edge, edge, &small, &e) == 0 &&
		    amc_png_encode(&small, AMC_EXTPLANNER_IMAGE_LEVEL, png, len, &e) == 0) {
			*w = small.w;
			*h = small.h;
			*full_w = img->w;
		}
		amc_image_free(&small);
	}
	amc_image_free(&dec);
}

static amc_plan_rc ext_next(amc_planner *p, const amc_plan_ctx *ctx, amc_action *out, amc_err *e)
{
	shared *s = p->impl;
	/* outside mu: the image is made from the runner's own observation */
	unsigned char *img = NULL;
	size_t img_len = 0;
	int img_w = 0, img_h = 0, full_w = 0;
	/* the same frame as the last ask (an act that changed nothing: a wait, a
	 * tap on nothing) keeps its image; only this thread writes these */
	const amc_observation *o = ctx->obs;
	int same = s->ask_img && o->png && s->ask_png && s->ask_png_len == o->png_len &&
		   !memcmp(s->ask_png, o->png, o->png_len);
	if (s->image_edge > 0 && !same)
		client_image(o, s->image_edge, &img, &img_len, &img_w, &img_h, &full_w);
	pthread_mutex_lock(&s->mu);
	if (!same) {
		free(s->ask_img);
		s->ask_img = img;
		s->ask_img_len = img_len;
		s->ask_img_w = img_w;
		s->ask_img_h = img_h;
		s->ask_full_w = full_w;
	}
	s->asking = 1;
	s->ask_ms = amc_mono_ms();
	s->ask_gen++;
	s->ask_step = ctx->step;
	cJSON_Delete(s->ask_scene);
	s->ask_scene = amc_scene_to_json(&ctx->obs->scene);
	snprintf(s->ask_shot, sizeof s->ask_shot, "%s", ctx->obs->png_path ? ctx->obs->png_path : "");
	free(s->ask_png);
	s->ask_png = NULL;
	s->ask_png_len = 0;
	if (ctx->obs->png && ctx->obs->png_len) {
		s->ask_png = malloc(ctx->obs->png_len);
		if (s->ask_png) {
			memcpy(s->ask_png, ctx->obs->png, ctx->obs->png_len);
			s->ask_png_len = ctx->obs->png_len;
		}
	}
	pthread_cond_broadcast(&s->cv);
	long long deadline = deadline_after(s->wait_ms);
	amc_plan_rc rc;
	for (;;) {
		if (s->have_finish) {
			rc = s->finish_ok ? AMC_PLAN_DONE : AMC_PLAN_FAIL;
			if (s->finish_ok) {
				out->description = amc_xstrdup(s->finish_text);
				out->answer = s->finish_answer;
				s->finish_answer = NULL;
			}
			else
				amc_err_set(e, AMC_EFAIL, "%s", s->finish_text ? s->finish_text : "the agent gave up");
			s->have_finish = 0;
			break;
		}
		if (s->have_action) {
			take_action(s, ctx, out);
			rc = AMC_PLAN_ACT;
			break;
		}
		if (p->cancel && atomic_load(p->cancel)) {
			/* the runner looks at its cancel flag first thing on REOBSERVE */
			rc = AMC_PLAN_REOBSERVE;
			break;
		}
		if (s->look_wanted) {
			s->look_wanted = 0;
			rc = AMC_PLAN_LOOK;
			break;
		}
		if (s->handle_gone) {
			amc_err_set(e, AMC_EFAIL, "the agent handing in this task's actions went away");
			rc = AMC_PLAN_FAIL;
			break;
		}
		if (past(deadline)) {
			amc_err_set(e, AMC_EFAIL, "no action was handed in within %.1f s, so the task ends; "
				    "the agent driving it must act sooner", s->wait_ms / 1000.0);
			rc = AMC_PLAN_FAIL;
			break;
		}
		wait_until(s, deadline, AMC_EXTPLANNER_POLL_MS);
	}
	s->asking = 0;
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static void ext_recorded(amc_planner *p, const amc_step_report *r)
{
	shared *s = p->impl;
	pthread_mutex_lock(&s->mu);
	if (s->expecting && s->taken_step == r->step) {
		amc_ext_answer *a = &s->answer;
		amc_ext_answer_clear(a);
		a->step = r->step;
		snprintf(a->status, sizeof a->status, "%s", r->status);
		snprintf(a->error, sizeof a->error, "%s", r->error ? r->error : "");
		a->result = r->result ? cJSON_Duplicate(r->result, 1) : NULL;
		snprintf(a->screenshot, sizeof a->screenshot, "%s",
			 r->after && r->after->png_path ? r->after->png_path : "");
		s->answered = 1;
		s->taken_step = 0;
		pthread_cond_broadcast(&s->cv);
	}
	pthread_mutex_unlock(&s->mu);
}

/* Under mu: the task is over; whatever waits is answered. */
static void mark_ended(shared *s, const amc_task_outcome *o)
{
	if (s->ended)
		return;
	s->ended = 1;
	s->outcome = *o;
	pthread_cond_broadcast(&s->cv);
}

static void ext_ended(amc_planner *p, const amc_task_outcome *o)
{
	shared *s = p->impl;
	pthread_mutex_lock(&s->mu);
	mark_ended(s, o);
	pthread_mutex_unlock(&s->mu);
}

static void ext_destroy(amc_planner *p)
{
	shared *s = p->impl;
	/* A planner freed without its task having run (a launch that failed
	 * before amc_launch_run) is not told it ended; whoever waits must not
	 * wait for good. */
	amc_task_outcome o = { .status = AMC_ST_FAILED };
	snprintf(o.error, sizeof o.error, "the task did not run");
	pthread_mutex_lock(&s->mu);
	mark_ended(s, &o);
	pthread_mutex_unlock(&s->mu);
	free(p);
	shared_unref(s);
}

static const amc_planner_ops EXT_OPS = { "external", ext_next, ext_destroy };
static const amc_planner_hooks EXT_HOOKS = { ext_recorded, ext_ended };

void amc_extplanner_new(const amc_extplanner_opts *o, amc_planner **planner, amc_extplanner **x)
{
	shared *s = amc_xcalloc(1, sizeof *s);
	pthread_mutex_init(&s->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	s->refs = 2;
	s->wait_ms = o && o->wait_ms > 0 ? o->wait_ms : AMC_EXTPLANNER_WAIT_MS;
	s->image_edge = o && o->image_edge > 0 ? o->image_edge : 0;
	s->ops = EXT_OPS;
	snprintf(s->name, sizeof s->name, "%s", o && o->name && *o->name ? o->name : EXT_OPS.name);
	s->ops.name = s->name;
	amc_planner *p = amc_xcalloc(1, sizeof *p);
	p->ops = &s->ops;
	p->impl = s;
	p->hooks = &EXT_HOOKS;
	p->keep_going = 1;
	p->gated = o ? o->gated : 1;
	*planner = p;
	*x = amc_xcalloc(1, sizeof **x);
	(*x)->s = s;
}

void amc_extplanner_free(amc_extplanner *x)
{
	if (!x)
		return;
	shared *s = x->s;
	pthread_mutex_lock(&s->mu);
	s->handle_gone = 1;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	free(x);
	shared_unref(s);
}

/* Under mu: whether something may be handed in now. */
static int may_give(shared *s, amc_err *e)
{
	if (s->ended)
		return amc_err_set(e, AMC_EFAIL, "the task has ended (%s)%s%s", s->outcome.status,
				   s->outcome.error[0] ? ": " : "", s->outcome.error);
	if (s->expecting)
		return amc_err_set(e, AMC_EUSAGE, "the previous action has not been answered yet; "
				   "wait for its answer before handing in the next");
	return 0;
}

void amc_extplanner_set_words(amc_extplanner *x, amc_extplanner_words_fn fn, void *ud)
{
	x->words = fn;
	x->words_ud = ud;
}

/* The step's reasoning: the agent's words, then the action's why (once, when
 * the agent said the same). Caller frees. */
static char *reasoning_of(const char *words, const char *reason)
{
	if (!words || !*words)
		return reason ? amc_xstrdup(reason) : NULL;
	if (!reason || !*reason || strstr(words, reason))
		return amc_xstrdup(words);
	amc_sb sb;
	amc_sb_init(&sb);
	amc_sb_printf(&sb, "%s\n%s", words, reason);
	return amc_sb_detach(&sb);
}

int amc_extplanner_give(amc_extplanner *x, const char *tool, const cJSON *args, const char *reason,
			amc_err *e)
{
	if (!tool || (strcmp(tool, "ask_user") && !amc_tools_find(tool)))
		return amc_err_set(e, AMC_EUSAGE, "unknown tool '%s': hand in a tool of the registry or ask_user",
				   tool ? tool : "");
	if (args && !cJSON_IsObject(args))
		return amc_err_set(e, AMC_EUSAGE, "the arguments of %s must be a JSON object", tool);
	shared *s = x->s;
	/* outside mu: the source may wait a moment for the words to arrive */
	char *words = x->words ? x->words(x->words_ud, reason) : NULL;
	pthread_mutex_lock(&s->mu);
	if (may_give(s, e) != 0) {
		pthread_mutex_unlock(&s->mu);
		free(words);
		return -1;
	}
	snprintf(s->tool, sizeof s->tool, "%s", tool);
	cJSON_Delete(s->args);
	s->args = args ? cJSON_Duplicate(args, 1) : cJSON_CreateObject();
	free(s->reason);
	s->reason = reasoning_of(words, reason);
	free(words);
	s->have_action = 1;
	s->expecting = 1;
	s->answered = 0;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

int amc_extplanner_look(amc_extplanner *x, long max_age_ms, long wait_ms, long *age_ms, int *fresh, amc_err *e)
{
	shared *s = x->s;
	long long deadline = deadline_after(wait_ms);
	pthread_mutex_lock(&s->mu);
	int rc = -1;
	for (;;) {
		if (s->ended) {
			amc_err_set(e, AMC_EFAIL, "the session's task has ended (%s)", s->outcome.status);
			break;
		}
		if (s->asking && !s->have_action && !s->have_finish) {
			long long age = amc_mono_ms() - s->ask_ms;
			if (age <= max_age_ms) {
				*age_ms = (long)age;
				*fresh = 0;
				rc = 0;
				break;
			}
			unsigned gen = s->ask_gen;
			s->look_wanted = 1;
			pthread_cond_broadcast(&s->cv);
			while (s->ask_gen == gen && !s->ended && !past(deadline))
				wait_until(s, deadline, AMC_EXTPLANNER_POLL_MS);
			if (s->ask_gen != gen) {
				*age_ms = (long)(amc_mono_ms() - s->ask_ms);
				*fresh = 1;
				rc = 0;
			} else if (!s->ended) {
				s->look_wanted = 0;
				amc_err_set(e, AMC_EENV, "the screen could not be captured again within %.1f s",
					    wait_ms / 1000.0);
			}
			if (rc == 0 || !s->ended)
				break;
			continue;
		}
		if (past(deadline)) {
			amc_err_set(e, AMC_EENV, "the task is busy with a step; the screen could not be read within %.1f s",
				    wait_ms / 1000.0);
			break;
		}
		wait_until(s, deadline, AMC_EXTPLANNER_POLL_MS);
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

int amc_extplanner_set_answer(amc_extplanner *x, const char *answer)
{
	shared *s = x->s;
	pthread_mutex_lock(&s->mu);
	free(s->finish_answer);
	s->finish_answer = answer ? amc_xstrdup(answer) : NULL;
	pthread_mutex_unlock(&s->mu);
	return 0;
}

int amc_extplanner_finish(amc_extplanner *x, int success, const char *text, amc_err *e)
{
	shared *s = x->s;
	pthread_mutex_lock(&s->mu);
	if (may_give(s, e) != 0) {
		pthread_mutex_unlock(&s->mu);
		return -1;
	}
	free(s->finish_text);
	s->finish_text = amc_xstrdup(text);
	s->finish_ok = success;
	s->have_finish = 1;
	s->expecting = 1;
	s->answered = 0;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return 0;
}

void amc_ext_answer_clear(amc_ext_answer *a)
{
	if (!a)
		return;
	cJSON_Delete(a->result);
	memset(a, 0, sizeof *a);
}

int amc_extplanner_wait(amc_extplanner *x, long ms, amc_ext_answer *out, amc_err *e)
{
	shared *s = x->s;
	memset(out, 0, sizeof *out);
	pthread_mutex_lock(&s->mu);
	if (!s->expecting) {
		pthread_mutex_unlock(&s->mu);
		return amc_err_set(e, AMC_EUSAGE, "nothing was handed in to wait for");
	}
	long long deadline = deadline_after(ms);
	while (!s->answered && !s->ended && !past(deadline))
		wait_until(s, deadline, 1000);
	if (!s->answered && !s->ended) {
		pthread_mutex_unlock(&s->mu);
		return 1;
	}
	if (s->answered) {
		*out = s->answer;
		memset(&s->answer, 0, sizeof s->answer);
	} else if (s->have_action || s->taken_step) {
		snprintf(out->error, sizeof out->error, "the task ended before the action was recorded");
	}
	out->ended = s->ended;
	out->outcome = s->outcome;
	s->answered = 0;
	s->expecting = 0;
	s->have_action = 0;
	s->taken_step = 0;
	pthread_mutex_unlock(&s->mu);
	return 0;
}

/* Under mu: the task asks, and nothing handed in waits to be taken. */
static int ready(const shared *s)
{
	return s->asking && !s->have_action && !s->have_finish;
}

int amc_extplanner_wait_asked(amc_extplanner *x, long ms, int *step, cJSON **scene, amc_err *e)
{
	shared *s = x->s;
	pthread_mutex_lock(&s->mu);
	long long deadline = deadline_after(ms);
	while (!ready(s) && !s->ended && !past(deadline))
		wait_until(s, deadline, 1000);
	int rc = 1;
	if (ready(s)) {
		rc = 0;
		*step = s->ask_step;
		if (scene)
			*scene = cJSON_Duplicate(s->ask_scene, 1);
	} else if (s->ended) {
		rc = amc_err_set(e, AMC_EFAIL, "the task has ended (%s)%s%s", s->outcome.status,
				 s->outcome.error[0] ? ": " : "", s->outcome.error);
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

void amc_extplanner_asked_shot(amc_extplanner *x, char *out, size_t n)
{
	shared *s = x->s;
	pthread_mutex_lock(&s->mu);
	snprintf(out, n, "%s", s->ask_shot);
	pthread_mutex_unlock(&s->mu);
}

int amc_extplanner_asked_png(amc_extplanner *x, unsigned char **png, size_t *len)
{
	shared *s = x->s;
	*png = NULL;
	*len = 0;
	pthread_mutex_lock(&s->mu);
	if (s->ask_png) {
		*png = malloc(s->ask_png_len);
		if (*png) {
			memcpy(*png, s->ask_png, s->ask_png_len);
			*len = s->ask_png_len;
		}
	}
	pthread_mutex_unlock(&s->mu);
	return *png ? 0 : -1;
}

int amc_extplanner_asked_image(amc_extplanner *x, const char *shot, unsigned char **png, size_t *len, int *w, int *h,
			       int *full_w)
{
	shared *s = x->s;
	*png = NULL;
	*len = 0;
	pthread_mutex_lock(&s->mu);
	const unsigned char *src = s->ask_img ? s->ask_img : s->ask_png;
	size_t n = s->ask_img ? s->ask_img_len : s->ask_png_len;
	if (s->ask_img_w > 0 && src && (!shot || !strcmp(shot, s->ask_shot)) && (*png = malloc(n)) != NULL) {
		memcpy(*png, src, n);
		*len = n;
		*w = s->ask_img_w;
		*h = s->ask_img_h;
		*full_w = s->ask_full_w;
	}
	pthread_mutex_unlock(&s->mu);
	return *png ? 0 : -1;
}

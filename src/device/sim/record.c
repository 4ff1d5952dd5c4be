/* record.c - the sim's screen recordings (sim_int.h): the frames it renders
 * between startRecording and stopRecording, as an animated PNG (image/apng.h
 * says why that format). A frame equal to the last one kept is not kept
 * again (settling renders the same screen many times); each kept frame shows
 * for the sim time until the next one, at least REC_MIN_MS so a person can
 * follow a flow that changes the screen every sim millisecond. Bounded: past
 * REC_MAX_FRAMES frames or REC_MAX_BYTES compressed, later frames are
 * dropped (and counted); a frame of another size (a rotation mid-recording)
 * is dropped too, as an APNG has one canvas. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/sim/sim_int.h"
#include "image/apng.h"
#include "util/log.h"
#include "util/strbuf.h"

#define REC_MAX_FRAMES 2000
#define REC_MAX_BYTES (256u * 1024u * 1024u)
#define REC_MIN_MS 150
#define REC_MAX_MS 5000
#define REC_LAST_MS 1500

typedef struct sim_rec {
	amc_apng_frame *f;
	long long *at;        /* sim time of each kept frame */
	size_t n, cap, bytes;
	uint64_t last_hash;
	int dropped;
} sim_rec;

void sim_record_free(sim *s)
{
	if (!s->rec)
		return;
	for (size_t i = 0; i < s->rec->n; i++)
		amc_apng_frame_free(&s->rec->f[i]);
	free(s->rec->f);
	free(s->rec->at);
	free(s->rec);
	s->rec = NULL;
}

int sim_record_start(amc_device *d, amc_err *e)
{
	sim *s = d->impl;
	if (s->rec)
		return amc_err_set(e, AMC_EUSAGE, "sim:%d is recording already (stopRecording first)", s->index);
	s->rec = amc_xcalloc(1, sizeof *s->rec);
	/* the screen as it is now is the recording's first frame */
	amc_image img;
	if (sim_render_frame(s, &img, e) != 0) {
		sim_record_free(s);
		return -1;
	}
	sim_record_frame(s, &img);
	amc_image_free(&img);
	return 0;
}

void sim_record_frame(sim *s, const amc_image *img)
{
	sim_rec *r = s->rec;
	if (!r)
		return;
	uint64_t h = amc_image_hash(img, 0);
	if (r->n && h == r->last_hash)
		return;
	if (r->n >= REC_MAX_FRAMES || r->bytes >= REC_MAX_BYTES || (r->n && (img->w != r->f[0].w || img->h != r->f[0].h))) {
		r->dropped++;
		return;
	}
	amc_apng_frame f;
	amc_err e;
	if (amc_apng_frame_pack(img, &f, &e) != 0) {
		amc_log_warn("sim:%d: a recorded frame was lost: %s", s->index, e.msg);
		r->dropped++;
		return;
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 32;
		r->f = amc_xrealloc(r->f, r->cap * sizeof *r->f);
		r->at = amc_xrealloc(r->at, r->cap * sizeof *r->at);
	}
	r->f[r->n] = f;
	r->at[r->n++] = s->st.time_ms;
	r->bytes += f.zlen;
	r->last_hash = h;
}

int sim_record_stop(amc_device *d, unsigned char **data, size_t *len, char *ext, size_t extn, int *frames,
		    amc_err *e)
{
	sim *s = d->impl;
	*data = NULL;
	*len = 0;
	if (!s->rec)
		return amc_err_set(e, AMC_EUSAGE, "sim:%d is not recording (startRecording first)", s->index);
	/* the screen at the stop, when it changed since the last frame kept */
	amc_image img;
	if (sim_render_frame(s, &img, e) == 0) {
		sim_record_frame(s, &img);
		amc_image_free(&img);
	}
	sim_rec *r = s->rec;
	for (size_t i = 0; i < r->n; i++) {
		long long ms = i + 1 < r->n ? r->at[i + 1] - r->at[i] : REC_LAST_MS;
		r->f[i].delay_ms = ms < REC_MIN_MS ? REC_MIN_MS : ms > REC_MAX_MS ? REC_MAX_MS : (int)ms;
	}
	if (r->dropped)
		amc_log_warn("sim:%d: the recording left out %d frames (a rotation, or past %d frames)", s->index,
			     r->dropped, REC_MAX_FRAMES);
	int rc = amc_apng_assemble(r->f, r->n, data, len, e);
	if (rc == 0) {
		snprintf(ext, extn, "apng");
		*frames = (int)r->n;
	}
	sim_record_free(s);
	return rc;
}

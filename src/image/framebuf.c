#include "image/framebuf.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#define HAVE_USABLE_SIZE 1
#endif

typedef struct kept {
	void *p;
	size_t n;
} kept;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static kept bufs[AMC_FRAMEBUF_MAX_KEPT]; /* oldest first */
static int nbufs, holders;
static size_t kept_bytes;
static long hits, misses;

/* Ask for transparent huge pages over a fresh buffer: with 2 MB pages the
 * first touch of a frame is a handful of faults, not 2,500. Advice only:
 * where THP is off or the call fails nothing changes. */
static void want_huge_pages(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = 2u << 20;
	uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1), end = ((uintptr_t)p + n) & ~(huge - 1);
	if (end > a)
		(void)madvise((void *)a, end - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

/* Keep a buffer's pages out of fork's copy-on-write: a fork (a helper that
 * is not started by posix_spawn, such as the flow script engine or a
 * bench's baseline) would otherwise make every page of every kept buffer
 * shared, and the next frame written into it would fault once a page, 4 KB
 * copies and all: slower than a fresh buffer (bench_ocr's decode went from
 * 16 to 180 ms wall). The child gets zero pages there instead; children
 * only exec, and a kept buffer's contents are undefined anyway. Only whole
 * pages inside the buffer, so malloc's own bookkeeping is never touched. */
static void keep_private(void *p, size_t n)
{
#ifdef MADV_WIPEONFORK
	const uintptr_t page = 4096;
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1), end = ((uintptr_t)p + n) & ~(page - 1);
	if (end > a)
		(void)madvise((void *)a, end - a, MADV_WIPEONFORK);
#else
	(void)p;
	(void)n;
#endif
}

static void drop(int i)
{
	kept_bytes -= bufs[i].n;
	for (int j = i; j + 1 < nbufs; j++)
		bufs[j] = bufs[j + 1];
	nbufs--;
}

void *amc_framebuf_get(size_t n)
{
	if (n >= AMC_FRAMEBUF_MIN_BYTES) {
		pthread_mutex_lock(&mu);
		int best = -1;
		for (int i = 0; i < nbufs; i++)
			if (bufs[i].n >= n && bufs[i].n <= 2 * n + AMC_FRAMEBUF_MIN_BYTES &&
			    (best < 0 || bufs[i].n < bufs[best].n))
				best = i;
		void *p = NULL;
		if (best >= 0) {
			p = bufs[best].p;
			drop(best);
			hits++;
		} else {
			misses++;
		}
		pthread_mutex_unlock(&mu);
		if (p)
			return p;
	}
	void *p = malloc(n ? n : 1);
	if (p && n >= AMC_FRAMEBUF_MIN_BYTES) {
		want_huge_pages(p, n);
		keep_private(p, n);
	}
	return p;
}

void amc_framebuf_put(void *p)
{
	if (!p)
		return;
#ifdef HAVE_USABLE_SIZE
	size_t n = malloc_usable_size(p);
	if (n >= AMC_FRAMEBUF_MIN_BYTES && n <= AMC_FRAMEBUF_MAX_BYTES) {
		void *gone[AMC_FRAMEBUF_MAX_KEPT];
		int ngone = 0;
		keep_private(p, n); /* before it is shared: it may come from calloc (amc_image_alloc) */
		pthread_mutex_lock(&mu);
		int holders_now = holders > 0;
		if (holders_now) {
			/* room first: the oldest kept buffers go */
			while (nbufs && (nbufs == AMC_FRAMEBUF_MAX_KEPT || kept_bytes + n > AMC_FRAMEBUF_MAX_BYTES)) {
				gone[ngone++] = bufs[0].p;
				drop(0);
			}
			bufs[nbufs++] = (kept){ p, n };
			kept_bytes += n;
		}
		pthread_mutex_unlock(&mu);
		if (!holders_now)
			free(p);
		for (int i = 0; i < ngone; i++)
			free(gone[i]);
		return;
	}
#endif
	free(p);
}

void amc_framebuf_hold(void)
{
	pthread_mutex_lock(&mu);
	holders++;
	pthread_mutex_unlock(&mu);
}

void amc_framebuf_release(void)
{
	kept all[AMC_FRAMEBUF_MAX_KEPT];
	int n = 0;
	pthread_mutex_lock(&mu);
	if (holders > 0)
		holders--;
	if (holders == 0) {
		for (int i = 0; i < nbufs; i++)
			all[n++] = bufs[i];
		nbufs = 0;
		kept_bytes = 0;
	}
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < n; i++)
		free(all[i].p);
}

void amc_framebuf_stats_get(amc_framebuf_stats *s)
{
	pthread_mutex_lock(&mu);
	s->holders = holders;
	s->kept = nbufs;
	s->kept_bytes = kept_bytes;
	s->hits = hits;
	s->misses = misses;
	pthread_mutex_unlock(&mu);
}

/* framebuf.h - big pixel buffers (a frame's 10 MB) kept for the next frame.
 *
 * Why: a 1080x2400 frame is read several times a step (settling probes it,
 * the kept frame is decoded, OCR grays it), each into a fresh 10 MB buffer.
 * On the virtual machines amc runs on, first touching a fresh page costs
 * ~10 us, so the faults of one fresh frame buffer cost more than inflating
 * it: profiling bench_device put them at ~28 % of amc's own CPU. A buffer
 * given back is kept, faulted in, for the next frame of about the same size.
 *
 * Bounds: nothing is kept unless someone holds the cache (an open device:
 * amc_device_open holds it, amc_device_close releases it); at most
 * AMC_FRAMEBUF_MAX_KEPT buffers and AMC_FRAMEBUF_MAX_BYTES in all are kept
 * (the oldest goes first), only buffers of AMC_FRAMEBUF_MIN_BYTES or more;
 * when the last holder releases, every kept buffer is freed. Thread-safe (one
 * mutex: a get or put is a few compares next to the 10 MB it saves).
 *
 * Every buffer is plain malloc memory: amc_framebuf_put and free() are both
 * right for it, and amc_image_free gives an image's pixels back here. The
 * size of a given-back buffer is what malloc_usable_size reports (glibc), so
 * a buffer from anywhere is taken back at its real size; where that call is
 * missing nothing is kept. */
#ifndef AMC_FRAMEBUF_H
#define AMC_FRAMEBUF_H

#include <stddef.h>

#define AMC_FRAMEBUF_MIN_BYTES ((size_t)1 << 20)
#define AMC_FRAMEBUF_MAX_KEPT 6
#define AMC_FRAMEBUF_MAX_BYTES ((size_t)64 << 20)

/* At least n bytes, contents undefined (a kept buffer's old pixels); NULL
 * when out of memory. A kept buffer is used only when it is at most twice
 * n (+1 MB), so a small request does not take a frame's buffer. Owned by
 * the caller: amc_framebuf_put or free(). */
void *amc_framebuf_get(size_t n);
/* Give p back: kept when the cache is held and p is big enough, else freed.
 * NULL is fine. */
void amc_framebuf_put(void *p);
/* Hold the cache (one per open device); release frees what is kept when the
 * last holder goes. */
void amc_framebuf_hold(void);
void amc_framebuf_release(void);

typedef struct amc_framebuf_stats {
	int holders, kept;
	size_t kept_bytes;
	long hits, misses; /* gets answered from the kept buffers, and by malloc */
} amc_framebuf_stats;
void amc_framebuf_stats_get(amc_framebuf_stats *s);

#endif

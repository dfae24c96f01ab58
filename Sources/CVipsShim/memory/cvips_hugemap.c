#include "cvips_hugemap.h"
#include "cvips_frame.h"

#include <glib.h>
#include <stdint.h>
#include <sys/mman.h>

enum { HUGE = 2 << 20 };

static size_t rounded(size_t length) { return (length + HUGE - 1) & ~(size_t) (HUGE - 1); }

/* ---- the pool of freed frames (see cvips_hugemap.h) ---- */

/* Freed mappings kept for the next frames: every frame a page makes (decoded, turned, cleaned,
 * its previews and copies) with room to spare, so the next page of the same size finds each
 * of its own. */
enum { POOL_SLOTS = 8 };

/* At most this many bytes kept mapped: a 600 dpi A4 grey page and its turned copy, or a
 * 300 dpi A4 colour page and its turned copy. It bounds what the pool adds to a batch's memory
 * whatever the batch's length and page sizes. */
#define POOL_BYTES ((size_t) 80 << 20)

/* A kept mapping is given back to the kernel once this many frames were asked for since it was
 * freed and none took it: a frame of a size the batch stopped making does not linger. */
enum { POOL_PATIENCE = 12 };

/* Kept mappings of at most this size (previews, small copies: about the same size whatever the
 * page's) stay through a miss; larger ones are the sizes of the page that made them, and a miss
 * is a page of another size, whose fresh frames are not to sit beside them. */
#define POOL_SMALL ((size_t) 2 * HUGE)

/* A kept mapping serves a frame of `size` bytes (rounded) when it is at most this much larger
 * (the surplus is given back): a preview must not take the mapping a page's decoded frame
 * comes back for. */
static size_t pool_slack(size_t size) { return size / 4 > HUGE ? size / 4 : HUGE; }

static struct {
    void *data;
    size_t size;    /* rounded */
    unsigned stamp; /* `pool_clock` when it was freed */
    unsigned order; /* `pool_frees` when it was freed */
} pool[POOL_SLOTS];
static size_t pool_bytes;
static unsigned pool_clock; /* requests */
static unsigned pool_frees; /* mappings kept */
G_LOCK_DEFINE_STATIC(pool);

/* Under the lock: unmaps slot `i` and empties it. */
static void pool_drop(int i) {
    munmap(pool[i].data, pool[i].size);
    pool_bytes -= pool[i].size;
    pool[i].data = NULL;
    pool[i].size = 0;
}

/* Under the lock: the kept mapping freed last of those that serve `size` bytes (its surplus
 * unmapped), or NULL; drops the mappings that waited too long, and on a miss all but the small
 * ones smaller than `size` (POOL_SMALL).
 *
 * Why the one freed last: a page's frames of one size are its decoded frame, freed with most of
 * its rows already handed back to the kernel (the deskew turn releases the rows it has read),
 * then its turned page, freed whole. The next page asks for its decoded frame first and gets
 * the turned page's mapping, pages and all; its turned page then gets the decoded frame's
 * mapping, whose rows fault in as the turn writes them while it releases the source's, as a
 * fresh mapping's would. The other way round the next page would hold its whole decoded frame
 * and a whole kept mapping at once: a frame more at its peak. */
static void *pool_take(size_t size) {
    pool_clock++;
    int best = -1;
    for (int i = 0; i < POOL_SLOTS; i++) {
        if (!pool[i].data) continue;
        if (pool_clock - pool[i].stamp > POOL_PATIENCE) {
            pool_drop(i);
            continue;
        }
        if (pool[i].size < size || pool[i].size - size > pool_slack(size)) continue;
        if (best < 0 || pool_frees - pool[i].order < pool_frees - pool[best].order) best = i;
    }
    if (best < 0) {
        for (int i = 0; i < POOL_SLOTS; i++)
            if (pool[i].data && (pool[i].size > size || pool[i].size > POOL_SMALL)) pool_drop(i);
        return NULL;
    }
    unsigned char *data = pool[best].data;
    if (pool[best].size > size) munmap(data + size, pool[best].size - size);
    pool_bytes -= pool[best].size;
    pool[best].data = NULL;
    pool[best].size = 0;
    return data;
}

/* Under the lock: keeps `data` (`size` bytes, rounded) when it fits, making room by dropping
 * the mappings freed longest ago; 0 when it was not kept (the caller unmaps it). */
static int pool_keep(void *data, size_t size) {
    if (size > POOL_BYTES) return 0;
    for (;;) {
        int empty = -1, oldest = -1;
        for (int i = 0; i < POOL_SLOTS; i++) {
            if (!pool[i].data) {
                if (empty < 0) empty = i;
            } else if (oldest < 0 || pool_clock - pool[i].stamp > pool_clock - pool[oldest].stamp) {
                oldest = i;
            }
        }
        if (empty >= 0 && pool_bytes + size <= POOL_BYTES) {
            pool[empty].data = data;
            pool[empty].size = size;
            pool[empty].stamp = pool_clock;
            pool[empty].order = ++pool_frees;
            pool_bytes += size;
            return 1;
        }
        pool_drop(oldest); /* full, or over the bytes: the pool is not empty, so oldest >= 0 */
    }
}

void *cvips_hugemap(size_t length) {
    if (length == 0) return NULL;
    size_t size = rounded(length);
    G_LOCK(pool);
    void *kept = pool_take(size);
    G_UNLOCK(pool);
    if (kept) return kept;
    /* Over-map by one large page, then give back the unaligned head and the tail. */
    unsigned char *raw = mmap(NULL, size + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    uintptr_t start = ((uintptr_t) raw + HUGE - 1) & ~(uintptr_t) (HUGE - 1);
    size_t head = start - (uintptr_t) raw;
    if (head) munmap(raw, head);
    munmap((unsigned char *) start + size, HUGE - head);
#ifdef MADV_HUGEPAGE
    madvise((void *) start, size, MADV_HUGEPAGE);
#endif
    return (void *) start;
}

void cvips_hugeunmap(void *data, size_t length) {
    if (!data) return;
    size_t size = rounded(length);
    G_LOCK(pool);
    int kept = pool_keep(data, size);
    G_UNLOCK(pool);
    if (!kept) munmap(data, size);
}

size_t cvips_frame_pool_bytes(void) {
    G_LOCK(pool);
    size_t bytes = pool_bytes;
    G_UNLOCK(pool);
    return bytes;
}

size_t cvips_frame_pool_limit(void) { return POOL_BYTES; }

void cvips_frame_pool_drain(void) {
    G_LOCK(pool);
    for (int i = 0; i < POOL_SLOTS; i++)
        if (pool[i].data) pool_drop(i);
    G_UNLOCK(pool);
}

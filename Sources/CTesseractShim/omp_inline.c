// Tesseract's OpenMP regions run as plain calls when OpenMP may use one thread (see
// ctesseract_shim.h).
//
// Tesseract 5.3's LSTM opens a `parallel sections` region for every time step of every layer
// (lstm.cpp's PARALLEL_IF_OPENMP), and other loops a `parallel for`. Quire runs Tesseract with one
// OpenMP thread per page (pages run in parallel instead: TextEngine sets the calling thread's
// max-active-levels-var to 0, or the user's OMP_THREAD_LIMIT is 1), so each region is a team of
// one thread: the calling thread runs the body once. libgomp still builds and ends a team for it, and ending one
// always wakes the team's barrier with a futex system call (gomp_team_barrier_wait_end), tens of
// thousands of calls a page. docs/benchmarks.md has the figures.
//
// This file defines the four libgomp entry points libtesseract imports, so that the dynamic
// linker binds its calls to them (an executable's definition comes first in the lookup order, as
// for line_images.c's pixWriteMem; Package.swift's exportOpenMPEntryPoints exports them from
// `quire`). While the calling thread reads a page for Quire (ctess_inline_openmp(1)) and its
// regions are teams of one, a region's body is called directly, once, on the calling thread, which is
// what a team of one does: the same iterations in the same order, omp_get_thread_num() 0 and
// omp_get_num_threads() 1 inside. Any other call goes to libgomp unchanged.
#include "ctesseract_shim.h"

#include <dlfcn.h>
#include <stdatomic.h>

typedef void (*RegionBody)(void *);

/// Whether OpenMP's thread limit is 1: 1 or 0, -1 before the first page asked.
static atomic_int limitIsOne = -1;
/// How this thread's regions run (ctess_inline_openmp's `mode`; 0: libgomp's).
static _Thread_local int inlineMode = 0;
/// The inline `sections` region this thread is in: its next section (1-based) and its count.
static _Thread_local unsigned nextSection = 0, sectionCount = 0;
/// How deep this thread is in inline `sections` regions (0: its sections calls go to libgomp).
static _Thread_local unsigned sectionDepth = 0;
/// How many regions have run inline in this process (for tests).
static atomic_long inlineRegionCount = 0;

/// libgomp's definition of `name`: the next one after this file's in the lookup order.
static void *libgomp(const char *name) { return dlsym(RTLD_NEXT, name); }

static int runsInline(void) { return inlineMode == 2; }

/// Whether the calling thread's regions are teams of one: OpenMP's thread limit is 1 (the
/// environment's OMP_THREAD_LIMIT, read as libgomp loads) or the thread's max-active-levels-var
/// is 0 (TextEngine's per-thread setting, ctess_openmp_one_thread).
static int singleThreaded(void) {
    int known = atomic_load(&limitIsOne);
    if (known < 0) {
        int (*threadLimit)(void) = (int (*)(void)) dlsym(RTLD_DEFAULT, "omp_get_thread_limit");
        known = threadLimit != NULL && threadLimit() == 1;
        atomic_store(&limitIsOne, known);
    }
    return known || ctess_openmp_max_active_levels() == 0;
}

void GOMP_parallel(RegionBody body, void *data, unsigned threads, unsigned flags) {
    if (runsInline()) {
        atomic_fetch_add(&inlineRegionCount, 1);
        // Not a `sections` region: `sections` constructs in its body are libgomp's own.
        unsigned outerDepth = sectionDepth;
        sectionDepth = 0;
        body(data);
        sectionDepth = outerDepth;
        return;
    }
    static _Atomic(void (*)(RegionBody, void *, unsigned, unsigned)) next = NULL;
    if (atomic_load(&next) == NULL) atomic_store(&next, libgomp("GOMP_parallel"));
    atomic_load (&next)(body, data, threads, flags);
}

void GOMP_parallel_sections(RegionBody body, void *data, unsigned threads, unsigned count, unsigned flags) {
    if (runsInline()) {
        atomic_fetch_add(&inlineRegionCount, 1);
        // A section's body may open a region of its own: keep the enclosing one's place.
        unsigned outerNext = nextSection, outerCount = sectionCount;
        nextSection = 1;
        sectionCount = count;
        sectionDepth++;
        body(data);
        sectionDepth--;
        nextSection = outerNext;
        sectionCount = outerCount;
        return;
    }
    static _Atomic(void (*)(RegionBody, void *, unsigned, unsigned, unsigned)) next = NULL;
    if (atomic_load(&next) == NULL) atomic_store(&next, libgomp("GOMP_parallel_sections"));
    atomic_load (&next)(body, data, threads, count, flags);
}

unsigned GOMP_sections_next(void) {
    if (sectionDepth > 0) return nextSection <= sectionCount ? nextSection++ : 0;
    static _Atomic(unsigned (*)(void)) next = NULL;
    if (atomic_load(&next) == NULL) atomic_store(&next, libgomp("GOMP_sections_next"));
    return atomic_load(&next)();
}

void GOMP_sections_end_nowait(void) {
    if (sectionDepth > 0) return;
    static _Atomic(void (*)(void)) next = NULL;
    if (atomic_load(&next) == NULL) atomic_store(&next, libgomp("GOMP_sections_end_nowait"));
    atomic_load (&next)();
}

void ctess_inline_openmp(int mode) { inlineMode = mode == 1 ? (singleThreaded() ? 2 : 0) : mode; }

long ctess_inline_openmp_count(void) { return atomic_load(&inlineRegionCount); }

/// ctess_inline_sections_trace's region: each section it is given, and inside section 1 a
/// region of two sections of its own, numbered from 101.
struct Trace {
    unsigned *out;
    int capacity, written;
};

static void record(struct Trace *trace, unsigned value) {
    if (trace->written < trace->capacity) trace->out[trace->written] = value;
    trace->written++;
}

static void innerSections(void *data) {
    for (unsigned section = GOMP_sections_next(); section != 0; section = GOMP_sections_next())
        record(data, 100 + section);
    GOMP_sections_end_nowait();
}

static void outerSections(void *data) {
    for (unsigned section = GOMP_sections_next(); section != 0; section = GOMP_sections_next()) {
        record(data, section);
        if (section == 1) GOMP_parallel_sections(innerSections, data, 0, 2, 0);
    }
    GOMP_sections_end_nowait();
}

int ctess_inline_sections_trace(unsigned count, unsigned *out, int capacity) {
    struct Trace trace = {out, capacity, 0};
    int previous = inlineMode;
    inlineMode = 2;
    GOMP_parallel_sections(outerSections, &trace, 0, count, 0);
    inlineMode = previous;
    return trace.written;
}

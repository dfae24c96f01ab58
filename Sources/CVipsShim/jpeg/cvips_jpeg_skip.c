#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEFAULT */
#endif

#include "cvips_jpeg.h"
#include "cvips_jpeg_skip.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#include <jpegint.h>

/* The libjpeg-turbo release the skipper was compiled against (jconfig.h), 0 for another
 * libjpeg: only 2.x is known to fit (see cvips_jpeg_skip_library_fits). */
#ifdef LIBJPEG_TURBO_VERSION_NUMBER
#define BUILT_VERSION LIBJPEG_TURBO_VERSION_NUMBER
#else
#define BUILT_VERSION 0
#endif

/* libjpeg-turbo 2.x releases: jpegint.h's entropy decoder and marker reader as this file reads
 * them, and only DCT decoders behind cinfo->entropy. 3.0 puts a lossless decoder there too (its
 * decode_mcu fills difference rows, not coefficient blocks) and adds 12- and 16-bit scanline
 * readers; every libjpeg.so.62 this binary can load exports jpeg_read_icc_profile (cvips_jpeg.c
 * calls it), so it is libjpeg-turbo 2.0 or later, and the 3.x API tells the rest apart. */
enum { FIRST_FITTING = 2000000, FIRST_UNFITTING = 3000000 };

int cvips_jpeg_skip_library_fits(int built_version, int runtime_has_3x_api) {
    return built_version >= FIRST_FITTING && built_version < FIRST_UNFITTING && !runtime_has_3x_api;
}

int cvips_jpeg_skip_available(void) {
    static gsize answer = 0; /* 0 not asked yet, 1 no, 2 yes */
    if (g_once_init_enter(&answer)) {
        /* The process's libjpeg (linked by name, found by the loader at run time) may be a
         * newer one than the headers this was compiled with. */
        int has_3x_api = dlsym(RTLD_DEFAULT, "jpeg12_read_scanlines") != NULL;
        g_once_init_leave(&answer, cvips_jpeg_skip_library_fits(BUILT_VERSION, has_3x_api) ? 2 : 1);
    }
    return answer == 2;
}

/* Codes up to this many bits are decoded (or skipped) with one table look-up; longer ones,
 * rare in photos, walk the canonical code lengths. */
enum { LOOKUP_BITS = 11 };

/* One Huffman table, derived as libjpeg's jpeg_make_d_derived_tbl does. */
typedef struct {
    /* (code length << 8) | symbol for every code of at most LOOKUP_BITS bits, indexed by the
     * next LOOKUP_BITS bits of the stream; 0 for a longer code. */
    uint16_t fast[1 << LOOKUP_BITS];
    /* For AC tables: how to walk past the coefficients whose codes start in the next
     * LOOKUP_BITS bits without their values (see `group`); 0 when the first code is longer. */
    uint32_t skip[1 << LOOKUP_BITS];
    int32_t maxcode[18]; /* largest code of length l, -1 if none (maxcode[17] sentinel) */
    int32_t valoffset[17];
    uint8_t huffval[256];
} table;

/* The replacement entropy decoder: libjpeg's own object stays allocated (in its pool); this
 * one is put in its place after jpeg_start_decompress. */
struct skipper {
    struct jpeg_entropy_decoder pub;
    j_decompress_ptr cinfo;
    uint64_t bits;               /* the next bits of the stream, left-aligned (see `stream`) */
    int count;                   /* valid bits in `bits`, padding included */
    int padding;                 /* zero bits appended after a marker (not data) */
    int failed;                  /* 1 once anything was not the plain case: the caller decodes again */
    unsigned int restarts_to_go; /* MCUs left in this restart interval (with a DRI) */
    int last_dc[MAX_COMPS_IN_SCAN];
    const table *dc[D_MAX_BLOCKS_IN_MCU], *ac[D_MAX_BLOCKS_IN_MCU];
    int ac_needed[D_MAX_BLOCKS_IN_MCU], component[D_MAX_BLOCKS_IN_MCU];
    table tables[2][NUM_HUFF_TBLS]; /* [0] DC, [1] AC */
};

/* The fields of a `skip` entry: every AC symbol whose code lies whole in the look-up bits,
 * taken together (their values' bits counted, not read), and the first of them alone. */
#define GROUP_BITS(e) ((int) ((e) &0xFF))           /* code and value bits of them all */
#define GROUP_ADVANCE(e) ((int) ((e) >> 8 & 0x7F))  /* zigzag positions they cover, EOB aside */
#define GROUP_ENDS(e) ((e) >> 15 & 1)               /* the last of them is an EOB */
#define FIRST_BITS(e) ((int) ((e) >> 16 & 0xFF))    /* code and value bits of the first */
#define FIRST_ADVANCE(e) ((int) ((e) >> 24 & 0x7F)) /* run + 1; 16 for ZRL; 64 for EOB */

/* The `skip` entry for look-up bits `index` (t->fast built). A group stops before the
 * positions it covers would reach 64, so whether it ends the block is known by adding. */
static uint32_t group(const table *t, unsigned int index) {
    int position = 0, bits = 0, advance = 0, ends = 0, first_bits = 0, first_advance = 0;
    while (position < LOOKUP_BITS) {
        unsigned int e = t->fast[(index << position) & ((1u << LOOKUP_BITS) - 1)];
        int length = (int) (e >> 8);
        if (!e || length > LOOKUP_BITS - position) break;
        int run = (int) (e & 0xFF) >> 4, magnitude = (int) (e & 15);
        int step = magnitude ? run + 1 : (run == 15 ? 16 : 64);
        if (position == 0) {
            first_bits = length + magnitude;
            first_advance = step;
        }
        if (step == 64) {
            bits += length;
            ends = 1;
            break;
        }
        if (advance + step > 63) break;
        bits += length + magnitude;
        advance += step;
        position += length + magnitude;
    }
    if (!first_bits) return 0;
    return (uint32_t) bits | (uint32_t) advance << 8 | (uint32_t) ends << 15 | (uint32_t) first_bits << 16 |
           (uint32_t) first_advance << 24;
}

/* Builds `t` from libjpeg's table; 0 when the table is malformed (libjpeg would say why). */
static int derive(const JHUFF_TBL *h, int is_dc, table *t) {
    if (!h) return 0;
    char size[257];
    unsigned int code[257];
    int p = 0;
    for (int l = 1; l <= 16; l++) {
        int n = h->bits[l];
        if (n < 0 || p + n > 256) return 0;
        while (n--) size[p++] = (char) l;
    }
    size[p] = 0;
    int last = p;
    unsigned int c = 0;
    int si = size[0];
    p = 0;
    while (size[p]) {
        while (size[p] == si) code[p++] = c++;
        if (c >= (1u << si)) return 0;
        c <<= 1;
        si++;
    }
    p = 0;
    for (int l = 1; l <= 16; l++) {
        if (h->bits[l]) {
            t->valoffset[l] = p - (int) code[p];
            p += h->bits[l];
            t->maxcode[l] = (int32_t) code[p - 1];
        } else {
            t->maxcode[l] = -1;
        }
    }
    t->maxcode[17] = 0x7FFFFFFF;
    memcpy(t->huffval, h->huffval, sizeof t->huffval);
    memset(t->fast, 0, sizeof t->fast);
    memset(t->skip, 0, sizeof t->skip);
    for (p = 0; p < last; p++) {
        int l = size[p];
        int symbol = h->huffval[p];
        /* A DC magnitude is at most 15 bits (`value` reads that many): libjpeg refuses such a
         * table before this runs, and so does this, whatever the code's length. */
        if (is_dc && symbol > 15) return 0;
        if (l > LOOKUP_BITS) continue;
        for (int fill = 0; fill < 1 << (LOOKUP_BITS - l); fill++)
            t->fast[((int) code[p] << (LOOKUP_BITS - l)) | fill] = (uint16_t) (l << 8 | symbol);
    }
    if (!is_dc)
        for (int index = 0; index < 1 << LOOKUP_BITS; index++) t->skip[index] = group(t, (unsigned int) index);
    return 1;
}

/* The next bits of the entropy-coded data, left-aligned in `bits`: a local copy the decoding
 * loops keep in registers, written back to the skipper between blocks. */
typedef struct {
    uint64_t bits;
    int count; /* valid bits, padding included */
} stream;

/* Tops `st` up byte by byte to at least 57 bits, stuffed 0xFF 0x00 pairs undone. At a marker
 * libjpeg's own decoder records it for the marker reader and feeds zeros: so does this. */
static __attribute__((noinline)) void refill_slowly(skipper *s, stream *st) {
    j_decompress_ptr cinfo = s->cinfo;
    struct jpeg_source_mgr *src = cinfo->src;
    while (st->count <= 56) {
        unsigned int byte = 0;
        if (cinfo->unread_marker) {
            s->padding += 8;
        } else {
            if (src->bytes_in_buffer == 0 && !(*src->fill_input_buffer)(cinfo)) {
                s->failed = 1;
                return;
            }
            byte = *src->next_input_byte++;
            src->bytes_in_buffer--;
            if (byte == 0xFF) {
                unsigned int next;
                do {
                    if (src->bytes_in_buffer == 0 && !(*src->fill_input_buffer)(cinfo)) {
                        s->failed = 1;
                        return;
                    }
                    next = *src->next_input_byte++;
                    src->bytes_in_buffer--;
                } while (next == 0xFF);
                if (next != 0) {
                    cinfo->unread_marker = (int) next;
                    byte = 0;
                    s->padding += 8;
                }
            }
        }
        st->bits |= (uint64_t) byte << (56 - st->count);
        st->count += 8;
    }
}

/* Tops `st` (fewer than 32 bits buffered, so 3 to 7 bytes are taken) up to at least 56 bits:
 * 8 bytes read at once when none of them is 0xFF (no stuffing and no marker among them), else
 * byte by byte. */
static inline void refill(skipper *s, stream *st) {
    struct jpeg_source_mgr *src = s->cinfo->src;
    if (src->bytes_in_buffer >= 8 && !s->cinfo->unread_marker) {
        uint64_t v;
        memcpy(&v, src->next_input_byte, 8);
        v = __builtin_bswap64(v);
        uint64_t x = ~v;
        if (!((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull)) {
            int n = (63 - st->count) >> 3;
            st->bits |= (v >> 8 >> (56 - 8 * n)) << (64 - 8 * n) >> st->count;
            st->count += 8 * n;
            src->next_input_byte += n;
            src->bytes_in_buffer -= (size_t) n;
            return;
        }
    }
    refill_slowly(s, st);
}

static inline unsigned int peek(const stream *st, int n) { return (unsigned int) (st->bits >> (64 - n)); }
static inline void drop(stream *st, int n) {
    st->bits <<= n;
    st->count -= n;
}

/* The next symbol of table `t` (at least 16 bits buffered); -1 for a bad code. */
static inline int symbol(stream *st, const table *t) {
    unsigned int e = t->fast[peek(st, LOOKUP_BITS)];
    if (e) {
        drop(st, (int) (e >> 8));
        return (int) (e & 0xFF);
    }
    unsigned int code = peek(st, 16);
    for (int l = LOOKUP_BITS + 1; l <= 16; l++) {
        int32_t c = (int32_t) (code >> (16 - l));
        if (c <= t->maxcode[l]) {
            drop(st, l);
            return t->huffval[(c + t->valoffset[l]) & 0xFF];
        }
    }
    return -1;
}

/* A coefficient's value from its `magnitude` bits (JPEG's sign extension, HUFF_EXTEND). */
static inline int value(stream *st, int magnitude) {
    if (!magnitude) return 0;
    int r = (int) peek(st, magnitude);
    drop(st, magnitude);
    return r < (1 << (magnitude - 1)) ? r - (1 << magnitude) + 1 : r;
}

/* The AC coefficients of a block whose pixels need only its DC: walked past, not stored.
 * 0 for a bad code. */
static inline int skip_ac(skipper *s, stream *st, const table *t) {
    int k = 1;
    while (k < 64) {
        if (st->count < 32) refill(s, st);
        uint32_t e = t->skip[peek(st, LOOKUP_BITS)];
        if (e) {
            if (k + GROUP_ADVANCE(e) < 64) {
                drop(st, GROUP_BITS(e));
                k += GROUP_ADVANCE(e);
                if (GROUP_ENDS(e)) break;
            } else {
                drop(st, FIRST_BITS(e));
                k += FIRST_ADVANCE(e);
            }
            continue;
        }
        int sym = symbol(st, t);
        if (sym < 0) return 0;
        int run = sym >> 4, magnitude = sym & 15;
        if (!magnitude && run != 15) break;
        drop(st, magnitude);
        k += magnitude ? run + 1 : 16;
    }
    return 1;
}

/* Zigzag position -> natural (row-major) position in the 8x8 block. */
static const unsigned char natural[64] = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
                                          12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
                                          35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
                                          58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

/* All AC coefficients of a block, stored (the block was zeroed). 0 for a bad code or a run
 * past the block's end. */
static inline int read_ac(skipper *s, stream *st, const table *t, JCOEF *block) {
    for (int k = 1; k < 64;) {
        if (st->count < 32) refill(s, st);
        int sym = symbol(st, t);
        if (sym < 0) return 0;
        int run = sym >> 4, magnitude = sym & 15;
        if (magnitude) {
            k += run;
            if (k > 63) return 0;
            block[natural[k]] = (JCOEF) value(st, magnitude);
            k++;
        } else if (run == 15) {
            k += 16;
        } else {
            break;
        }
    }
    return 1;
}

/* At the end of a restart interval, as libjpeg's process_restart: only the fill bits of the
 * last byte may be left, then the RSTn marker due; the stream and the DC predictions start
 * again. 0 for anything else (libjpeg then resynchronises, warning). */
static int restart(skipper *s, stream *st) {
    j_decompress_ptr cinfo = s->cinfo;
    if (!cinfo->unread_marker && st->count < 8) refill_slowly(s, st);
    if (s->failed || st->count - s->padding >= 8) return 0;
    if (cinfo->unread_marker != JPEG_RST0 + cinfo->marker->next_restart_num) return 0;
    cinfo->unread_marker = 0;
    cinfo->marker->next_restart_num = (cinfo->marker->next_restart_num + 1) & 7;
    st->bits = 0;
    st->count = 0;
    s->padding = 0;
    memset(s->last_dc, 0, sizeof s->last_dc);
    s->restarts_to_go = cinfo->restart_interval;
    return 1;
}

/* libjpeg's decode_mcu for one MCU. A bad code, a DC out of range or data running into a
 * marker marks the decoder failed and returns TRUE with the rest of the image left
 * undecoded: the caller then decodes the file again with libjpeg's own decoder, which deals
 * with (and warns about) all of that. */
static boolean decode_mcu(j_decompress_ptr cinfo, JBLOCKROW *blocks) {
    skipper *s = (skipper *) cinfo->entropy;
    if (s->failed) return TRUE;
    stream st = {s->bits, s->count};
    if (cinfo->restart_interval) {
        if (!s->restarts_to_go && !restart(s, &st)) goto fail;
        s->restarts_to_go--;
    }
    for (int b = 0; b < cinfo->blocks_in_MCU; b++) {
        JCOEF *block = blocks[b][0];
        if (st.count < 32) refill(s, &st);
        int magnitude = symbol(&st, s->dc[b]);
        if (magnitude < 0) goto fail;
        int dc = s->last_dc[s->component[b]] + value(&st, magnitude);
        if (dc < -32768 || dc > 32767) goto fail;
        s->last_dc[s->component[b]] = dc;
        if (s->ac_needed[b]) {
            memset(block, 0, sizeof(JBLOCK));
            block[0] = (JCOEF) dc;
            if (!read_ac(s, &st, s->ac[b], block)) goto fail;
        } else {
            block[0] = (JCOEF) dc;
            if (!skip_ac(s, &st, s->ac[b])) goto fail;
        }
    }
    s->bits = st.bits;
    s->count = st.count;
    if (st.count < s->padding) goto fail;
    return TRUE;
fail:
    s->failed = 1;
    return TRUE;
}

static void start_pass(j_decompress_ptr cinfo) { (void) cinfo; }

int cvips_jpeg_skip_plain(j_decompress_ptr cinfo) {
    return cvips_jpeg_skip_available() && !cinfo->progressive_mode && !cinfo->arith_code &&
           cinfo->data_precision == 8 && cinfo->comps_in_scan == cinfo->num_components;
}

skipper *cvips_jpeg_skip_install(j_decompress_ptr cinfo) {
    skipper *s = g_try_malloc(sizeof(skipper));
    if (!s) return NULL;
    memset(s, 0, offsetof(skipper, tables));
    s->cinfo = cinfo;
    s->pub.start_pass = start_pass;
    s->pub.decode_mcu = decode_mcu;
    s->restarts_to_go = cinfo->restart_interval;
    int built[2][NUM_HUFF_TBLS] = {{0}};
    for (int b = 0; b < cinfo->blocks_in_MCU; b++) {
        int ci = cinfo->MCU_membership[b];
        jpeg_component_info *c = cinfo->cur_comp_info[ci];
        int numbers[2] = {c->dc_tbl_no, c->ac_tbl_no};
        JHUFF_TBL **sources[2] = {cinfo->dc_huff_tbl_ptrs, cinfo->ac_huff_tbl_ptrs};
        for (int kind = 0; kind < 2; kind++) {
            int n = numbers[kind];
            if (n < 0 || n >= NUM_HUFF_TBLS) goto fail;
            if (!built[kind][n]) {
                if (!derive(sources[kind][n], kind == 0, &s->tables[kind][n])) goto fail;
                built[kind][n] = 1;
            }
        }
        s->dc[b] = &s->tables[0][c->dc_tbl_no];
        s->ac[b] = &s->tables[1][c->ac_tbl_no];
        s->component[b] = ci;
        /* As libjpeg decides: a block transformed to one pixel needs only its DC. */
        s->ac_needed[b] = c->DCT_scaled_size > 1;
    }
    cinfo->entropy = &s->pub;
    return s;
fail:
    g_free(s);
    return NULL;
}

int cvips_jpeg_skip_failed(const skipper *s) { return s->failed; }

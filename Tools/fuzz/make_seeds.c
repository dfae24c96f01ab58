/* Writes the synthetic seed JPEGs of Tools/fuzz/corpus (see Tools/fuzz/README.md) with libjpeg:
 * 4:2:0/4:2:2/4:4:0/4:1:1/4:4:4/odd samplings, grey, RGB, restart intervals, q10..q100, odd
 * sizes, and hand-made Huffman tables whose frequent symbols have 12- to 16-bit codes (past the
 * skipper's 11-bit look-up). Usage: make_seeds OUTDIR */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

/* The standard AC luminance symbols (ITU T.81 K.3), most frequent first. */
static const UINT8 ac_symbols[162] = {
    0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71,
    0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72,
    0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37,
    0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
    0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83,
    0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3,
    0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
    0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
    0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa};

/* A table giving the `n_long` most frequent of `symbols` the code lengths in `long_bits` (a
 * count per length 12..16) and the rest `short_length`-bit codes. */
static void long_table(JHUFF_TBL *t, const UINT8 *symbols, int n, int short_length, const int long_bits[5]) {
    int n_long = 0;
    for (int i = 0; i < 5; i++) n_long += long_bits[i];
    memset(t->bits, 0, sizeof t->bits);
    t->bits[short_length] = (UINT8) (n - n_long);
    for (int i = 0; i < 5; i++) t->bits[12 + i] = (UINT8) long_bits[i];
    int p = 0;
    for (int i = n_long; i < n; i++) t->huffval[p++] = symbols[i];
    for (int i = 0; i < n_long; i++) t->huffval[p++] = symbols[i];
    t->sent_table = FALSE;
}

typedef struct {
    const char *name;
    int width, height, quality, components; /* 1 grey, 3 colour */
    int h[3], v[3];                         /* sampling factors */
    int restart, rgb, long_codes;           /* long_codes: 1 all-16-bit frequent codes, 2 mixed 12..16 */
} seed;

static const seed seeds[] = {
    {"s420_odd", 77, 53, 75, 3, {2, 1, 1}, {2, 1, 1}, 0, 0, 0},
    {"s444", 64, 48, 90, 3, {1, 1, 1}, {1, 1, 1}, 0, 0, 0},
    {"s422", 72, 40, 80, 3, {2, 1, 1}, {1, 1, 1}, 0, 0, 0},
    {"s440", 40, 72, 80, 3, {1, 1, 1}, {2, 1, 1}, 0, 0, 0},
    {"s411", 96, 24, 70, 3, {4, 1, 1}, {1, 1, 1}, 0, 0, 0},
    {"s_chroma_big", 48, 48, 70, 3, {1, 2, 1}, {1, 2, 1}, 0, 0, 0},
    {"grey", 61, 47, 85, 1, {1}, {1}, 0, 0, 0},
    {"grey_q100", 40, 40, 100, 1, {1}, {1}, 0, 0, 0},
    {"rgb", 40, 32, 80, 3, {1, 1, 1}, {1, 1, 1}, 0, 1, 0},
    {"q100", 48, 40, 100, 3, {2, 1, 1}, {2, 1, 1}, 0, 0, 0},
    {"q10", 64, 64, 10, 3, {2, 1, 1}, {2, 1, 1}, 0, 0, 0},
    {"tiny_1x1", 1, 1, 75, 3, {2, 1, 1}, {2, 1, 1}, 0, 0, 0},
    {"tiny_17x9", 17, 9, 75, 3, {2, 1, 1}, {2, 1, 1}, 0, 0, 0},
    {"dri1", 48, 32, 80, 3, {2, 1, 1}, {2, 1, 1}, 1, 0, 0},
    {"dri3", 80, 48, 80, 3, {2, 1, 1}, {2, 1, 1}, 3, 0, 0},
    {"dri2_grey", 40, 24, 80, 1, {1}, {1}, 2, 0, 0},
    {"dri5_444", 56, 40, 95, 3, {1, 1, 1}, {1, 1, 1}, 5, 0, 0},
    {"long16", 64, 48, 95, 3, {2, 1, 1}, {2, 1, 1}, 0, 0, 1},
    {"long_mixed", 64, 48, 95, 3, {2, 1, 1}, {2, 1, 1}, 0, 0, 2},
    {"long16_444", 48, 32, 100, 3, {1, 1, 1}, {1, 1, 1}, 0, 0, 1},
    {"long_mixed_grey_dri", 48, 40, 100, 1, {1}, {1}, 2, 0, 2},
};

/* A picture with smooth and sharp parts and noise, so every coefficient position is used. */
static unsigned char sample(int x, int y, int c, unsigned int *state) {
    *state = *state * 1103515245u + 12345u;
    int noise = (int) (*state >> 16 & 63) - 32;
    int v = (x * 255 / 64 + y * 3 + c * 70) & 255;
    if ((x / 5 + y / 7) % 3 == 0) v = 255 - v;
    v += noise;
    return (unsigned char) (v < 0 ? 0 : v > 255 ? 255 : v);
}

static int write_seed(const char *dir, const seed *s) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.jpg", dir, s->name);
    FILE *f = fopen(path, "wb");
    if (!f) return 1;
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr err;
    cinfo.err = jpeg_std_error(&err);
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, f);
    cinfo.image_width = (JDIMENSION) s->width;
    cinfo.image_height = (JDIMENSION) s->height;
    cinfo.input_components = s->components;
    cinfo.in_color_space = s->components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    if (s->rgb) jpeg_set_colorspace(&cinfo, JCS_RGB);
    jpeg_set_quality(&cinfo, s->quality, TRUE);
    for (int c = 0; c < s->components; c++) {
        cinfo.comp_info[c].h_samp_factor = s->h[c];
        cinfo.comp_info[c].v_samp_factor = s->v[c];
    }
    cinfo.restart_interval = (unsigned int) s->restart;
    if (s->long_codes) {
        static const UINT8 dc_symbols[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
        static const int all16[5] = {0, 0, 0, 0, 16}, mixed[5] = {6, 6, 4, 2, 2};
        static const int dc16[5] = {0, 0, 0, 0, 4}, dc_mixed[5] = {1, 1, 1, 1, 1};
        for (int t = 0; t < 2; t++) {
            if (!cinfo.dc_huff_tbl_ptrs[t]) cinfo.dc_huff_tbl_ptrs[t] = jpeg_alloc_huff_table((j_common_ptr) &cinfo);
            if (!cinfo.ac_huff_tbl_ptrs[t]) cinfo.ac_huff_tbl_ptrs[t] = jpeg_alloc_huff_table((j_common_ptr) &cinfo);
            long_table(cinfo.dc_huff_tbl_ptrs[t], dc_symbols, 12, 4, s->long_codes == 1 ? dc16 : dc_mixed);
            long_table(cinfo.ac_huff_tbl_ptrs[t], ac_symbols, 162, 8, s->long_codes == 1 ? all16 : mixed);
        }
    }
    jpeg_start_compress(&cinfo, TRUE);
    unsigned char *row = malloc((size_t) s->width * (size_t) s->components);
    unsigned int state = 1;
    while (cinfo.next_scanline < cinfo.image_height) {
        for (int x = 0; x < s->width; x++)
            for (int c = 0; c < s->components; c++)
                row[x * s->components + c] = sample(x, (int) cinfo.next_scanline, c, &state);
        JSAMPROW rows[1] = {row};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(row);
    fclose(f);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: make_seeds OUTDIR\n");
        return 2;
    }
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++)
        if (write_seed(argv[1], &seeds[i])) return 1;
    return 0;
}

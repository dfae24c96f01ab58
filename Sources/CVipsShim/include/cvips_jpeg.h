#ifndef CVIPS_JPEG_H
#define CVIPS_JPEG_H

#include <vips/vips.h>

/* Decodes a JPEG file at 1/shrink of its stored size (shrink 1, 2, 4 or 8: libjpeg's DCT
 * scaling, so at 1/8 only the DC coefficients are transformed) straight into a new memory
 * image: 8-bit RGB, or 8-bit grey for grey files, in stored orientation (EXIF ignored), with
 * the file's ICC profile attached as VIPS_META_ICC_NAME when it has one.
 *
 * Why not vips_jpegload(shrink=): this reads the file through a 256 KiB buffer so libjpeg-turbo
 * stays on its fast Huffman path, and runs on the calling thread with no pipeline around it;
 * on 10 MP phone captures at 1/8 it takes 38 ms where vips_jpegload takes 48 ms and
 * vips_thumbnail 60 ms of one core.
 *
 * Returns 0 on success; 1 when the file is fine but wants libvips's loader (CMYK or YCCK,
 * which it inverts and transforms); -1 on any decoding failure, truncation included, with the
 * reason in libvips's error buffer. */
int cvips_jpeg_load_scaled(const char *path, int shrink, VipsImage **out);

/* cvips_jpeg_load_scaled with its entropy decoder chosen: `skipped` NULL decodes with libjpeg
 * alone (the reference the tests hold the skipper to); otherwise, at shrink 8, plain files go
 * through the skipper (jpeg/cvips_jpeg_skip.h), which walks past the AC coefficients libjpeg's
 * 1x1 transform ignores instead of decoding them, and *skipped says whether it decoded the
 * pixels (0 when the file is not plain or it gave up, and libjpeg decoded them). */
int cvips_jpeg_load_scaled_by(const char *path, int shrink, int *skipped, VipsImage **out);

/* 1 when the skipper may run in this process: it replaces an object libjpeg declares only in
 * its private jpegint.h, so it steps aside (libjpeg alone decodes, as at other scales) unless
 * the libjpeg loaded at run time is of the family it was compiled against (libjpeg-turbo 2.x;
 * docs/install.md). Asked once. */
int cvips_jpeg_skip_available(void);

/* The rule behind cvips_jpeg_skip_available: compiled against libjpeg-turbo `built_version`
 * (LIBJPEG_TURBO_VERSION_NUMBER, 0 for another libjpeg), with a runtime library that exports
 * libjpeg-turbo 3's jpeg12_read_scanlines or not. */
int cvips_jpeg_skip_library_fits(int built_version, int runtime_has_3x_api);

/* The size of the decoders' read buffer in bytes (for the test that keeps it below the
 * allocator's mmap threshold). */
int cvips_jpeg_source_buffer_bytes(void);

/* Decodes a JPEG file at full size into `data` (width * height * bands bytes, 8-bit RGB or
 * grey, stored orientation), the same pixels vips_jpegload gives (libjpeg's defaults: exact
 * integer IDCT, fancy upsampling) in about 60% of its time: libvips's reads in 4 KiB pieces
 * keep libjpeg-turbo off its fast Huffman path for part of every buffer, and its pipeline adds
 * copies. Returns 0 on success; 1 when the file is not exactly that (another size or band
 * count, CMYK, an ICC profile whose colours need transforming), nothing decoded; -1 on a
 * decoding failure (truncation included), with `data` partly written. */
int cvips_jpeg_decode_into(const char *path, unsigned char *data, int width, int height, int bands);

/* A JPEG decoded to its own YCbCr planes: luma at full size, the two chroma planes at the
 * file's subsampling (4:2:0 or 4:2:2), before libjpeg upsamples and converts them to RGB.
 *
 * Why: a 12 MP capture held as RGB is 36 MB, as 4:2:0 planes 18 MB, and a batch can only keep
 * both cores decoding when two frames fit its memory budget at once. The page is cut out of
 * the photo and converted afterwards, so only its own pixels are ever made RGB. */
typedef struct {
    int width, height;               /* the image (luma) */
    int chroma_width, chroma_height; /* real chroma samples (ceil(width / h_factor), ...) */
    int h_factor, v_factor;          /* luma samples per chroma sample: 2x2 or 2x1 */
    size_t y_stride, c_stride;       /* bytes per plane row (padded to whole DCT blocks) */
    size_t y_rows, c_rows;           /* rows allocated per plane (padded to whole block rows) */
} cvips_jpeg_planes;

typedef struct cvips_jpeg_planar cvips_jpeg_planar;

/* Reads the header of `path` and, when it is a width x height YCbCr JPEG with 4:2:0 or 4:2:2
 * chroma, no ICC profile and chroma planes at least 3 samples each way, returns 0 with an open
 * decoder in *out and the planes it will fill in *layout. Returns 1 (nothing open) for any
 * other JPEG, to be decoded to RGB instead; -1 when the header cannot be read. */
int cvips_jpeg_planar_open(const char *path, int width, int height, cvips_jpeg_planar **out, cvips_jpeg_planes *layout);

/* Decodes the opened file into the three planes (each at least stride * rows bytes, as laid
 * out by cvips_jpeg_planar_open) and closes the decoder. Returns 0, or -1 on a decoding
 * failure (truncation included) with the reason in libvips's error buffer. */
int cvips_jpeg_planar_decode(cvips_jpeg_planar *decoder, unsigned char *y, unsigned char *cb, unsigned char *cr);

/* cvips_jpeg_planar_decode that also feeds `box` (NULL: none), made over these same planes,
 * each iMCU row as it is decoded (cvips_box_rows_ready): the detection copy averaged while its
 * rows are in cache instead of in a second pass over the whole frame. The copy is whole when
 * this returns 0. */
typedef struct cvips_box_rows cvips_box_rows;
int cvips_jpeg_planar_decode_averaging(cvips_jpeg_planar *decoder, unsigned char *y, unsigned char *cb,
                                       unsigned char *cr, cvips_box_rows *box);

/* Closes a decoder that will not decode (an error between open and decode). */
void cvips_jpeg_planar_close(cvips_jpeg_planar *decoder);

/* Output rows [row0, row1) of the RGB image the planes stand for, written to `rgb` (rows of
 * width * 3 bytes, `rgb` pointing at row0), the same bytes libjpeg's own decode to RGB gives:
 * its fancy (triangle) chroma upsampling and its fixed-point YCbCr -> RGB tables. */
void cvips_jpeg_planes_to_rgb(const cvips_jpeg_planes *layout, const unsigned char *y, const unsigned char *cb,
                              const unsigned char *cr, int row0, int row1, unsigned char *rgb);

/* An anonymous private memory mapping of `length` bytes (NULL when it cannot be had), and its
 * unmapping: the planes' memory, whose row ranges go back to the kernel with
 * cvips_frame_release as a page is cut out of them. */
void *cvips_map_pixels(size_t length);
void cvips_unmap_pixels(void *data, size_t length);

/* Encodes `height` rows of 8-bit pixels in memory (1 band: grey, 3 bands: RGB; rows `stride`
 * bytes apart) to a baseline JPEG at `path`, in the calling thread, with the settings
 * vips_jpegsave uses when stripping metadata: libjpeg's defaults, `quality` scaling the
 * baseline tables, 4:2:0 chroma below quality 90 and none from 90 up, optimised Huffman tables
 * when `optimize`, no metadata, and a JFIF header only to carry a known resolution (`xdpi`,
 * `ydpi` dots per inch, rounded to whole dots; 0 = unknown, no JFIF header). Without a
 * resolution the bytes equal vips_jpegsave's.
 *
 * Why not vips_jpegsave: its sink hands every strip of 16 rows from a libvips worker thread
 * to the writing thread and back, about 200 wake-ups for a 3 MP page; with two pages in
 * flight on two cores, those wake-ups left a core idle a tenth of the time.
 *
 * Returns 0, or -1 with the reason in libvips's error buffer (the file may be partly written;
 * callers write to a temporary name). */
int cvips_jpeg_write_pixels(const char *path, const unsigned char *pixels, int width, int height, int bands,
                            size_t stride, int quality, int optimize, double xdpi, double ydpi);

/* cvips_jpeg_write_pixels on an image whose pixels are already in memory: 8-bit sRGB or
 * 8-bit grey (B_W), uncoded. Returns 1, having written nothing, for any other image (it goes
 * through vips_jpegsave, which computes and converts it); else as cvips_jpeg_write_pixels. */
int cvips_jpeg_save_in_thread(VipsImage *in, const char *path, int quality, int optimize, double xdpi, double ydpi);

#endif

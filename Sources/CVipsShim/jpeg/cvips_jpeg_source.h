#ifndef CVIPS_JPEG_SOURCE_H
#define CVIPS_JPEG_SOURCE_H

/* What the shim's libjpeg decoders share (private to CVipsShim): the error manager that
 * jumps back instead of exiting, and the file source reading through a 256 KiB buffer. */

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

/* Below the 1 MiB mmap threshold the batch fixes (VIPSRuntime.defaultMmapThreshold): at 1 MiB
 * every file's source was a fresh mapping whose pages all faulted in and were zeroed, about a
 * tenth of --thumbnails-only's CPU with the hash's own buffer; this one is reused from the heap. */
enum { SOURCE_BUFFER = 256 << 10 };

/* libjpeg reports fatal errors through error_exit, which must not return: jump back. */
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
} cvips_jpeg_error;

/* A source reading the file in 256 KiB chunks. libjpeg-turbo decodes a block with its fast
 * Huffman path only while at least 512 bytes are buffered, so small chunks (stdio's 4 KiB)
 * send many blocks down the slow path; a whole-file read would make memory grow with the file. */
typedef struct {
    struct jpeg_source_mgr pub;
    int fd;
    int truncated;
    JOCTET buffer[SOURCE_BUFFER];
} cvips_jpeg_source;

void cvips_jpeg_on_error_exit(j_common_ptr cinfo);
void cvips_jpeg_on_message(j_common_ptr cinfo, int level);
void cvips_jpeg_source_init(j_decompress_ptr cinfo);
boolean cvips_jpeg_source_fill(j_decompress_ptr cinfo);
void cvips_jpeg_source_skip(j_decompress_ptr cinfo, long count);
void cvips_jpeg_source_term(j_decompress_ptr cinfo);
/* A source over `path`, opened (NULL with the reason in libvips's error buffer); the caller
 * closes its fd and g_frees it. */
cvips_jpeg_source *cvips_jpeg_open_source(const char *path);
/* Routes libjpeg's errors to `error` (a jump back, see on_error_exit) and drops warnings. */
void cvips_jpeg_init_error(j_decompress_ptr cinfo, cvips_jpeg_error *error);
/* Makes `src` (its fd open, truncated 0) the data source of `cinfo`. */
void cvips_jpeg_attach_source(j_decompress_ptr cinfo, cvips_jpeg_source *src);
/* 1 when an APP2 marker carries (a chunk of) an ICC profile (APP2 markers saved). */
int cvips_jpeg_has_icc_profile(j_decompress_ptr cinfo);

#endif

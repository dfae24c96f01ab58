#include "cvips_core.h"
#include "cvips_tiff_page.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Frees a mapping made below when libvips drops the last reference to its blob. */
static int unmap_blob(void *data, void *area) {
    munmap(data, VIPS_AREA(area)->length);
    return 0;
}

static guint64 read_uint(const unsigned char *p, int bytes, int little) {
    guint64 v = 0;
    for (int i = 0; i < bytes; i++) v |= (guint64) p[little ? i : bytes - 1 - i] << (8 * (little ? i : bytes - 1 - i));
    return v;
}

static void write_uint(unsigned char *p, int bytes, int little, guint64 v) {
    for (int i = 0; i < bytes; i++) p[little ? i : bytes - 1 - i] = (unsigned char) (v >> (8 * i));
}

int cvips_load_tiff_page(const char *filename, guint64 ifd_offset, const cvips_load_options *options, VipsImage **out) {
    *out = NULL;
    int fd = open(filename, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        vips_error("tiff_page", "cannot open %s: %s", filename, strerror(errno));
        return -1;
    }
    struct stat info;
    if (fstat(fd, &info) != 0 || info.st_size < 16) {
        close(fd);
        vips_error("tiff_page", "%s: not a TIFF file", filename);
        return -1;
    }
    size_t size = (size_t) info.st_size;
    /* Private and copy-on-write: the two patches below touch one or two pages of memory,
     * never the file. */
    unsigned char *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        vips_error("tiff_page", "cannot map %s: %s", filename, strerror(errno));
        return -1;
    }
    int little = map[0] == 'I' && map[1] == 'I';
    int big = map[0] == 'M' && map[1] == 'M';
    guint64 version = read_uint(map + 2, 2, little);
    int bigtiff = version == 43;
    int offset_bytes = bigtiff ? 8 : 4;
    int count_bytes = bigtiff ? 8 : 2;
    int entry_bytes = bigtiff ? 20 : 12;
    guint64 count = 0;
    if ((!little && !big) || (version != 42 && version != 43) || ifd_offset < 8 ||
        ifd_offset + (guint64) count_bytes > size) {
        munmap(map, size);
        vips_error("tiff_page", "%s: no TIFF directory at %" G_GUINT64_FORMAT, filename, ifd_offset);
        return -1;
    }
    count = read_uint(map + ifd_offset, count_bytes, little);
    guint64 next_at = ifd_offset + (guint64) count_bytes + count * (guint64) entry_bytes;
    if (count > 65535 || next_at + (guint64) offset_bytes > size) {
        munmap(map, size);
        vips_error("tiff_page", "%s: TIFF directory at %" G_GUINT64_FORMAT " runs past the end", filename, ifd_offset);
        return -1;
    }
    /* The file's first directory is now this page, and it has no next one. */
    write_uint(map + (bigtiff ? 8 : 4), offset_bytes, little, ifd_offset);
    write_uint(map + next_at, offset_bytes, little, 0);

    VipsOperation *op = vips_operation_new("tiffload_buffer");
    if (!op) {
        munmap(map, size);
        return -1;
    }
    VipsBlob *blob = vips_blob_new(unmap_blob, map, size);
    g_object_set(op, "buffer", blob, NULL);
    vips_area_unref(VIPS_AREA(blob));
    cvips_load_options single = *options;
    single.page = 0;
    single.n = 1;
    cvips_apply_load_options(op, &single);
    /* Built outside the operation cache: each call maps its own buffer, and a cached
     * operation would keep the mapping alive. */
    if (vips_object_build(VIPS_OBJECT(op))) {
        vips_object_unref_outputs(VIPS_OBJECT(op));
        g_object_unref(op);
        return -1;
    }
    cvips_watch_loader(op);
    g_object_get(op, "out", out, NULL);
    vips_object_unref_outputs(VIPS_OBJECT(op));
    g_object_unref(op);
    return *out ? 0 : -1;
}

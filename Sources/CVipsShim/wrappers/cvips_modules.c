/*
 * CVipsShim modules: libvips's loadable modules (PDF, HEIF, JPEG XL, ImageMagick, OpenSlide),
 * loaded when a file first needs one rather than at start-up.
 *
 * vips_init opens every module in its libdir's vips-modules-X.Y, and with them their libraries
 * (poppler, libheif, libjxl, ImageMagick, OpenSlide and theirs): a cost every run paid before its
 * first page, though JPEG, PNG, TIFF, WebP and GIF are read by libvips itself. Deferred, they are
 * opened as vips_init would, the first time no built-in loader knows a file.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT */
#endif
#include <dlfcn.h>
#include <gmodule.h>
#include <stdlib.h>

#include "cvips_core.h"

/* The environment variable vips_init takes its install prefix (and so its modules folder) from. */
static const char *const prefix_variable = "VIPSHOME";
/* A prefix no modules folder can be under (a file, not a folder). */
static const char *const no_prefix = "/dev/null";

/* Set by cvips_init, before any other thread uses libvips. */
static int deferred = 0;
static GOnce once = G_ONCE_INIT;

/* Operation classes blocked or unblocked so far, replayed once the modules register theirs
   (blocking a class libvips does not know yet does nothing). */
#define MAX_BLOCKS 16
static struct {
    char name[64];
    int blocked;
} blocks[MAX_BLOCKS];
static int block_count = 0;
static GMutex block_lock;

int cvips_init(const char *argv0, int defer_modules) {
    /* A prefix the user gave is theirs: libvips then loads its modules as usual. */
    deferred = defer_modules && getenv(prefix_variable) == NULL;
    if (!deferred) return VIPS_INIT(argv0 ? argv0 : "quire");
    setenv(prefix_variable, no_prefix, 1);
    int status = VIPS_INIT(argv0 ? argv0 : "quire");
    unsetenv(prefix_variable);
    return status;
}

void cvips_operation_block(const char *name, int blocked) {
    vips_operation_block_set(name, blocked ? TRUE : FALSE);
    g_mutex_lock(&block_lock);
    int i = 0;
    while (i < block_count && g_strcmp0(blocks[i].name, name) != 0) i++;
    if (i < MAX_BLOCKS) {
        g_strlcpy(blocks[i].name, name, sizeof blocks[i].name);
        blocks[i].blocked = blocked;
        if (i == block_count) block_count++;
    }
    g_mutex_unlock(&block_lock);
}

/* The modules folder vips_init would have used: beside the libvips that is loaded. */
static char *modules_folder(void) {
    Dl_info info;
    if (!dladdr((void *) vips_init, &info) || !info.dli_fname) return NULL;
    char *libdir = g_path_get_dirname(info.dli_fname);
    char *folder = g_strdup_printf("%s/vips-modules-%d.%d", libdir, VIPS_MAJOR_VERSION, VIPS_MINOR_VERSION);
    g_free(libdir);
    return folder;
}

static gpointer open_modules(gpointer unused) {
    (void) unused;
    char *folder = modules_folder();
    GDir *dir = folder ? g_dir_open(folder, 0, NULL) : NULL;
    const char *name;
    while (dir && (name = g_dir_read_name(dir))) {
        if (!g_str_has_suffix(name, "." G_MODULE_SUFFIX)) continue;
        char *path = g_build_filename(folder, name, NULL);
        /* The module registers its classes as it opens (g_module_check_init) and stays resident;
           one that fails to open is skipped, as vips_init skips it. */
        if (!g_module_open(path, G_MODULE_BIND_LAZY)) g_warning("cannot load %s: %s", path, g_module_error());
        g_free(path);
    }
    if (dir) g_dir_close(dir);
    g_free(folder);
    g_mutex_lock(&block_lock);
    for (int i = 0; i < block_count; i++) vips_operation_block_set(blocks[i].name, blocks[i].blocked ? TRUE : FALSE);
    g_mutex_unlock(&block_lock);
    return NULL;
}

int cvips_open_modules(void) {
    if (!deferred) return 0;
    g_once(&once, open_modules, NULL);
    return 1;
}

int cvips_modules_open(void) { return !deferred || once.status == G_ONCE_STATUS_READY; }

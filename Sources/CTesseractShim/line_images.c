// Tesseract's line images kept uncompressed while Quire reads a page (see ctesseract_shim.h).
//
// Tesseract 5.3 cuts every text line it reads out of the page (Tesseract::GetLineData) into an
// ImageData, which stores it PNG-compressed (ImageData::SetPixInternal: pixWriteMem(..., IFF_PNG))
// and decodes it again a moment later to scale it for the LSTM (ImageData::PreScale ->
// pixReadMem). The PNG is for training files (.lstmf) written to disk; upstream offers a build
// switch that keeps the Pix instead (TESSERACT_IMAGEDATA_AS_PIX), which Debian's build leaves off.
// On a page being read it is deflate and inflate of every line: libz and libpng 6.9 % of a
// `quire process --ocr` run on deskew-3 (perf, docs/benchmarks.md).
//
// This file defines pixWriteMem, so that the dynamic linker binds libtesseract's call to it
// (libtesseract imports the symbol; an executable's definition comes first in the lookup order).
// While the calling thread is reading a page for Quire (ctess_raw_line_images(1)), a PNG request
// is written as leptonica's own uncompressed serialisation (spix: the raster copied as it is);
// pixReadMem recognises it by its header, so ImageData gets back the same pixels. Any other call
// goes to leptonica's pixWriteMem unchanged.
#include "ctesseract_shim.h"

#include <dlfcn.h>
#include <leptonica/allheaders.h>
#include <stdatomic.h>

/// Whether this thread's PNG requests are written as spix (set around one page's recognition).
static _Thread_local int rawLineImages = 0;
/// How many images were kept as spix, for the tests to see the shortcut taken.
static atomic_long rawLineImageCount = 0;

typedef l_ok (*PixWriteMem)(l_uint8 **, size_t *, PIX *, l_int32);

/// Leptonica's own pixWriteMem: the next definition after this one in the lookup order.
static PixWriteMem leptonicaWriteMem(void) {
    static _Atomic(PixWriteMem) found = NULL;
    PixWriteMem write = atomic_load(&found);
    if (write == NULL) {
        write = (PixWriteMem) dlsym(RTLD_NEXT, "pixWriteMem");
        atomic_store(&found, write);
    }
    return write;
}

/// Whether spix gives `pix` back as a PNG round trip would: spix keeps the raster and colormap
/// but not the samples per pixel (read back as 3 for 32 bits, 1 otherwise; PNG keeps an alpha
/// channel). The resolution, which PNG keeps and spix drops, is not used between SetPix and
/// the LSTM's input (ImageData::PreScale scales by the line's height).
static int spixKeeps(PIX *pix) {
    if (pix == NULL) return 0;
    l_int32 depth = pixGetDepth(pix);
    return pixGetSpp(pix) == (depth == 32 ? 3 : 1);
}

/// Sets the alpha byte of every pixel of a 32-bit spix to 0, as a PNG round trip of a 3-sample
/// pix does (it writes red, green and blue; the byte read back is 0), so the LSTM gets the
/// pixels the PNG would give whatever Tesseract left in that byte.
/// TextEngineTests.lineImagesKeptRawClearTheAlphaByte pins it.
static void clearAlpha(l_uint8 *data, size_t size) {
    // spix: "spix", w, h, d, wpl, ncolors (0 at 32 bits), raster size, raster (28 bytes before it).
    const size_t header = 28;
    if (size < header) return;
    l_uint32 *words = (l_uint32 *) (data + header);
    for (size_t i = 0; i < (size - header) / 4; i++) words[i] &= ~(l_uint32) 0xff;
}

l_ok pixWriteMem(l_uint8 **pdata, size_t *psize, PIX *pix, l_int32 format) {
    if (rawLineImages && format == IFF_PNG && spixKeeps(pix)) {
        atomic_fetch_add(&rawLineImageCount, 1);
        l_ok failed = pixWriteMemSpix(pdata, psize, pix);
        if (!failed && pixGetDepth(pix) == 32) clearAlpha(*pdata, *psize);
        return failed;
    }
    PixWriteMem write = leptonicaWriteMem();
    return write == NULL ? 1 : write(pdata, psize, pix, format);
}

void ctess_raw_line_images(int on) { rawLineImages = on != 0; }

long ctess_raw_line_image_count(void) { return atomic_load(&rawLineImageCount); }

int ctess_line_image_round_trip(const unsigned int *pixels, int width, int height, int raw, unsigned int *out) {
    PIX *pix = pixCreate(width, height, 32);
    if (pix == NULL) return 1;
    l_uint32 *data = pixGetData(pix);
    l_int32 wpl = pixGetWpl(pix);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) data[y * wpl + x] = pixels[y * width + x];
    l_uint8 *bytes = NULL;
    size_t size = 0;
    int previous = rawLineImages;
    rawLineImages = raw != 0;
    l_ok failed = pixWriteMem(&bytes, &size, pix, IFF_PNG);
    rawLineImages = previous;
    pixDestroy(&pix);
    if (failed) return 1;
    PIX *read = pixReadMem(bytes, size);
    lept_free(bytes);
    if (read == NULL || pixGetDepth(read) != 32 || pixGetWidth(read) != width || pixGetHeight(read) != height) {
        pixDestroy(&read);
        return 1;
    }
    data = pixGetData(read);
    wpl = pixGetWpl(read);
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) out[y * width + x] = data[y * wpl + x];
    pixDestroy(&read);
    return 0;
}

#ifndef QUIRE_CTESSERACT_H
#define QUIRE_CTESSERACT_H
/* Tesseract's C API (Debian's libtesseract-dev 5.3) and leptonica's message switch; only
   TesseractBridge imports them. */
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
#endif

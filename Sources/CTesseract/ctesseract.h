#ifndef QUIRE_CTESSERACT_H
#define QUIRE_CTESSERACT_H
/* Tesseract's C API (Debian's libtesseract-dev 5.3); only TesseractBridge imports it. */
#include <tesseract/capi.h>
#endif

#ifndef QUIRE_CVIPS_H
#define QUIRE_CVIPS_H
#include <vips/vips.h>
#endif

#ifndef CVIPS_CPU_H
#define CVIPS_CPU_H

/* Internal to the shim: 1 when this CPU runs AVX2 code (checked once), 0 otherwise or off
 * x86-64. The one test behind every `cvips_*_available` of the vector loops. */
int cvips_cpu_has_avx2(void);

#endif

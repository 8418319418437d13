/* e^x as TensorFlow Lite's builtin kernels get it from std::exp on the reference build: the C
 * library's expf in its plain build. glibc's and musl's expf are one algorithm (ARM's
 * optimized-routines, in double); the plain build (glibc without FMA, musl, Emscripten's musl,
 * which the classic TFLite Web interpreter links) and x86-64 glibc's FMA build (`__expf_fma`, by
 * ifunc on FMA CPUs) differ at two floats only, x = 0x1.04845ep+5 and -0x1.f8cbb2p+5 (the FMA
 * build 1 ulp off; docs/kernels.md "The vector expf"). tfcc computes the plain build's bits on
 * every host, so its results do not depend on the host's libm. */
#ifndef TFCC_KERNELS_REF_EXPF_H
#define TFCC_KERNELS_REF_EXPF_H

#include <stdint.h>

/* Bits of 2^(j / 32) rounded to double, minus j << 47 (the algorithm's table), so that
 * tab[k % 32] + (k << 47) is 2^(k / 32)'s bits for every |k| < 150 * 32. */
extern const uint64_t tfcc_expf_tab[32];

/* The plain build's expf, one float: z = x * 32 / ln 2, k = z rounded to nearest, r = z - k,
 * s = 2^(k / 32) from the table, s * ((C0 r + C1) r^2 + (C2 r + 1)) rounded to float once,
 * every product and sum rounded on its own; inf above 0x1.62e42ep6, 0 below -0x1.9fe368p6,
 * NaN as x + x. The reference of the vector kernels (expf of the tflite_f32 family). */
float tfcc_expf_ref(float x);

#endif

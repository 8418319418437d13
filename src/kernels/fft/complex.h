/* Element-wise parts of complex64 data ((re, im) float pairs), as TFLite's complex.cc:
 * REAL, IMAG and COMPLEX_ABS (std::abs, i.e. hypotf; see complex.c for the rounding). */
#ifndef TFCC_KERNELS_FFT_COMPLEX_H
#define TFCC_KERNELS_FFT_COMPLEX_H

#include <stddef.h>

void tfcc_complex_real(const float *in, float *out, size_t n);
void tfcc_complex_imag(const float *in, float *out, size_t n);
void tfcc_complex_abs(const float *in, float *out, size_t n);

#endif

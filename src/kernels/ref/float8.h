/* float8 conversions (types: TensorType FLOAT8_E4M3FN / FLOAT8_E5M2), as TFLite's kernels do
 * them through ml_dtypes' float8_e4m3fn / float8_e5m2 (CAST v9, DEQUANTIZE v9). */
#ifndef TFCC_KERNELS_REF_FLOAT8_H
#define TFCC_KERNELS_REF_FLOAT8_H

#include <stdbool.h>
#include <stdint.h>

/* e5m2 selects the format: true float8_e5m2, false float8_e4m3fn.
 * The exact value of a float8 byte: e4m3fn has no infinity (0x7F / 0xFF are NaN), e5m2 is IEEE
 * style (0x7C infinity, above it NaN). */
float tfcc_f8_to_f32(uint8_t b, bool e5m2);
/* A float32 rounded to float8, to nearest even (ConvertFrom, no saturation): a value past the
 * largest finite one becomes infinity (e5m2) or NaN (e4m3fn, 0x7F with the sign); NaN becomes
 * the quiet NaN with its sign (e4m3fn 0x7F, e5m2 0x7E); zeros keep their sign. */
uint8_t tfcc_f32_to_f8(float f, bool e5m2);

#endif

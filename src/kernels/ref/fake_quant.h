/* FAKE_QUANT (TFLite reference FakeQuant: the range nudged so that 0 is exact). */
#ifndef TFCC_KERNELS_REF_FAKE_QUANT_H
#define TFCC_KERNELS_REF_FAKE_QUANT_H

#include <stdint.h>

/* Rounds each value to the nearest of the (quant_max - quant_min + 1) levels of [min, max]
 * after nudging (NudgeQuantizationRange), in float32 as TFLite computes it. */
void tfcc_ref_fake_quant_f32(const float *in, int64_t n, float min, float max, int32_t quant_min,
                             int32_t quant_max, float *out);

#endif

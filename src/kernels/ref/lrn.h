/* LOCAL_RESPONSE_NORMALIZATION over the last dimension (TFLite reference kernel). */
#ifndef TFCC_KERNELS_REF_LRN_H
#define TFCC_KERNELS_REF_LRN_H

#include <stdint.h>

/* For each of rows rows of depth floats: out[c] = in[c] * pow(bias + alpha * sum of in[j]^2 for
 * j in [c - radius, c + radius] within the row, -beta). */
void tfcc_ref_lrn_f32(const float *in, int64_t rows, int64_t depth, int32_t radius, float bias,
                      float alpha, float beta, float *out);

#endif

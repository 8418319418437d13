/* Reference 2-D pooling kernels (NHWC), matching TensorFlow Lite's reference AveragePool /
 * MaxPool / L2Pool: the window is clipped to the image and the average divides by the number
 * of taps inside it. Geometry: tfcc_conv_geom with out_c = in_c, dilation unused. */
#ifndef TFCC_KERNELS_REF_POOL_H
#define TFCC_KERNELS_REF_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"

void tfcc_avgpool_f32(const tfcc_conv_geom *g, const float *in, float lo, float hi, float *out);
/* Quantized average of dtype dt (uint8, int8, int16; in and out of that type; false for
 * another dtype): (sum +- count/2) / count rounding half away from zero, then clamp to
 * [lo, hi]. */
bool tfcc_avgpool_q(tfcc_dtype dt, const tfcc_conv_geom *g, const void *in, int32_t lo, int32_t hi,
                    void *out);

void tfcc_maxpool_f32(const tfcc_conv_geom *g, const float *in, float lo, float hi, float *out);
/* Quantized maximum, as tfcc_avgpool_q. */
bool tfcc_maxpool_q(tfcc_dtype dt, const tfcc_conv_geom *g, const void *in, int32_t lo, int32_t hi,
                    void *out);

/* Quantized average (avg) or maximum of dtype dt: uint8, int8, int16, in and out of that type
 * (false for another dtype). The average is (sum +- count/2) / count rounding half away from
 * zero; both clamp to [lo, hi]. */
bool tfcc_pool_q(bool avg, tfcc_dtype dt, const tfcc_conv_geom *g, const void *in, int32_t lo,
                 int32_t hi, void *out);

/* sqrt(sum of squares / count). */
void tfcc_l2pool_f32(const tfcc_conv_geom *g, const float *in, float lo, float hi, float *out);

#endif

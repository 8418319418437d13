/* CONV_3D and CONV_3D_TRANSPOSE, float32 (TFLite reference_ops Conv3D / Conv3DTranspose):
 * NDHWC activations. CONV_3D filter [fd, fh, fw, in_c, out_c]; CONV_3D_TRANSPOSE filter
 * [fd, fh, fw, out_c, in_c]. Padding (before) per spatial axis, dilations and strides as
 * given; bias (may be NULL) added after the sum, then clamped to [act_min, act_max]. */
#ifndef TFCC_KERNELS_REF_CONV3D_H
#define TFCC_KERNELS_REF_CONV3D_H

#include <stdint.h>

typedef struct tfcc_conv3d_geom {
  int32_t batches;
  int32_t in_d, in_h, in_w, in_c;
  int32_t out_d, out_h, out_w, out_c;
  int32_t f_d, f_h, f_w;
  int32_t stride_d, stride_h, stride_w;
  int32_t dil_d, dil_h, dil_w;
  int32_t pad_d, pad_h, pad_w;
} tfcc_conv3d_geom;

void tfcc_conv3d_f32(const tfcc_conv3d_geom *g, const float *in, const float *filter,
                     const float *bias, float act_min, float act_max, float *out);
/* out must hold the whole output (zeroed and accumulated here). */
void tfcc_conv3d_transpose_f32(const tfcc_conv3d_geom *g, const float *in, const float *filter,
                               const float *bias, float act_min, float act_max, float *out);

#endif

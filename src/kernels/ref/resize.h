/* RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR kernels on NHWC, matching the kernels TFLite's
 * builtin ops run by default:
 *   float32 bilinear: optimized_ops::ResizeBilinear (2x upsample special case, else the generic
 *                     accumulate-in-output loop);
 *   uint8 bilinear:   optimized_ops::ResizeBilinearGenericSmallChannel (float weights, +0.5,
 *                     truncation);
 *   int8/int16:       reference_ops::ResizeBilinearInteger (10-bit fixed point);
 *   nearest:          reference_ops::ResizeNearestNeighbor (float scale), except 8-bit types
 *                     without align_corners/half_pixel_centers, which use the optimized 16.16
 *                     fixed-point scale. */
#ifndef TFCC_KERNELS_REF_RESIZE_H
#define TFCC_KERNELS_REF_RESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tfcc_resize_shape {
  int32_t batch, in_h, in_w, depth, out_h, out_w;
} tfcc_resize_shape;

/* An empty output (no batch, no channel or no output pixel): the kernels walk nothing. An
 * image of 0 channels passes prepare at any output size (2^20 x 2^20 pixels of nothing), and
 * the reference kernels walked its 2^40 empty pixels. */
static inline bool tfcc_resize_empty(const tfcc_resize_shape *s) {
  return s->batch <= 0 || s->depth <= 0 || s->out_h <= 0 || s->out_w <= 0;
}

/* reference_ops::ComputeInterpolationValues (float): source coordinate *scaled of output
 * position value, its floor and ceiling clamped to [0, size - 1]. */
void tfcc_ref_resize_interp_f32(int32_t value, float scale, bool half_pixel, int32_t size,
                                float *scaled, int32_t *lo, int32_t *hi);
/* Height and width scales as the float/uint8 kernels compute them. */
void tfcc_ref_resize_scales_f32(const tfcc_resize_shape *s, bool align, float *hs, float *ws);
/* Whether the float kernel takes the 2x upsampling special case. */
static inline bool tfcc_ref_resize_f32_is_2x(const tfcc_resize_shape *s, bool align_corners,
                                             bool half_pixel) {
  return !align_corners && !half_pixel && s->out_h == 2 * s->in_h && s->out_w == 2 * s->in_w;
}
void tfcc_ref_resize_bilinear_f32(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                  const float *in, float *out);
void tfcc_ref_resize_bilinear_u8(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                 const uint8_t *in, uint8_t *out);
void tfcc_ref_resize_bilinear_i8(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                 const int8_t *in, int8_t *out);
void tfcc_ref_resize_bilinear_i16(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                  const int16_t *in, int16_t *out);
/* XNNPACK's arithmetic (TFCC_QUANT_COMPAT_TFLITE): float source coordinates, 11-bit
 * weights, integer lerps rounded half up (see resize_xnn.c). align_corners and half_pixel
 * must not both be set. */
void tfcc_xnn_resize_bilinear_u8(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                 const uint8_t *in, uint8_t *out);
void tfcc_xnn_resize_bilinear_i8(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                 const int8_t *in, int8_t *out);
/* float32 as XNNPACK's f32 ibilinear kernel: the same source coordinates with float weights
 * ax = x - lo, ay; t = tl + (tr - tl) * ax, b = bl + (br - bl) * ax, out = t + (b - t) * ay,
 * each product and sum rounded (no fused multiply-add). TFLite's builtin float kernel sums
 * the four weighted corners instead (an ulp apart on ~1/3 of the outputs). */
void tfcc_xnn_resize_bilinear_f32(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                  const float *in, float *out);
/* The float source coordinate x of output position o along one axis of in input and out output
 * positions as XNNPACK's indirection init computes it (scale (in - adj) / (out - adj), adj 1
 * with align_corners; half-pixel: o * scale + (0.5 scale - 0.5) clamped to [0, in - 1]) and
 * its index pair lo = (int)x, hi = min(lo + 1, in - 1); the f32 weight is x - lo. Shared with
 * the fast kernels (src/kernels/f32-resize). */
float tfcc_xnn_resize_coord_f32(int32_t o, int32_t in, int32_t out, bool align, bool half,
                                int32_t *lo, int32_t *hi);
/* Source index pair (lo, hi) and 11-bit weight w of output coordinate o along one axis of in
 * input and out output positions (xnn_indirection_init_resize_bilinear2d_hwc_q11). Shared
 * with the fast kernels (src/kernels/q8-resize). */
void tfcc_xnn_resize_axis(int32_t o, int32_t in, int32_t out, bool align, bool half, int32_t *lo,
                          int32_t *hi, int32_t *w);
/* The s8/u8 ibilinear element: corners top-left/right, bottom-left/right, 11-bit weights. */
int32_t tfcc_xnn_ibilinear(int32_t tl, int32_t tr, int32_t bl, int32_t br, int32_t wh, int32_t wv);
/* Elements of es bytes. */
void tfcc_ref_resize_nearest(const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                             size_t es, const void *in, void *out);
/* The source coordinate tfcc_ref_resize_nearest reads for output coordinate v of an axis of
 * in -> out positions (elements of es bytes; shared with kernels/move's fast copy). */
int32_t tfcc_ref_resize_nearest_coord(int32_t v, int32_t in, int32_t out, bool align_corners,
                                      bool half_pixel, size_t es);

#endif

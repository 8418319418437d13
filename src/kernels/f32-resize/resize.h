/* Fast float32 RESIZE_BILINEAR with the reference kernel's arithmetic (TFLite's
 * optimized_ops::ResizeBilinear: the 2x upsampling kernel, else per output pixel four weights
 * and o = 0 + p0 w0 + p1 w1 + p2 w2 + p3 w3, every product and sum rounded separately):
 * vectorised over channels, coordinates from tables built once per run, rows split over the
 * pool. Bit-identical to tfcc_ref_resize_bilinear_f32. One file per ISA variant.
 * each variant also has XNNPACK's arithmetic (fn_xnn, tfcc_f32_resize_bilinear_xnn:
 * the f32 ibilinear lerps on XNNPACK's coordinates, no 2x special case), bit-identical to
 * tfcc_xnn_resize_bilinear_f32: TFLITE mode wherever TFLite's XNNPACK delegate takes the node. */
#ifndef TFCC_KERNELS_F32_RESIZE_RESIZE_H
#define TFCC_KERNELS_F32_RESIZE_RESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/resize.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* One output coordinate: source indices and the fraction (scaled - lo). */
typedef struct tfcc_f32_resize_tab {
  int32_t lo, hi;
  float frac;
} tfcc_f32_resize_tab;

/* Generic: output rows [row0, row1) (row = batch * out_h + oy). 2x mode (xt, yt NULL): input
 * rows [row0, row1) (row = batch * in_h + y), each writing two output rows. */
typedef void (*tfcc_f32_resize_fn)(const tfcc_resize_shape *s, const float *in, float *out,
                                   const tfcc_f32_resize_tab *xt, const tfcc_f32_resize_tab *yt,
                                   int32_t row0, int32_t row1);

typedef struct tfcc_f32_resize_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_f32_resize_fn fn;
  tfcc_f32_resize_fn fn_xnn; /* XNNPACK's lerps on tables of its coordinates (never 2x mode) */
} tfcc_f32_resize_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_f32_resize, tfcc_f32_resize_kernel);

size_t tfcc_f32_resize_scratch_bytes(const tfcc_resize_shape *s);

struct tfcc_threadpool;
/* scratch: tfcc_f32_resize_scratch_bytes, 4-byte aligned. */
void tfcc_f32_resize_bilinear(struct tfcc_threadpool *pool, const tfcc_f32_resize_kernel *k,
                              const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                              const float *in, float *out, void *scratch);

/* The same in XNNPACK's arithmetic (tfcc_xnn_resize_bilinear_f32's bits); scratch as above. */
void tfcc_f32_resize_bilinear_xnn(struct tfcc_threadpool *pool, const tfcc_f32_resize_kernel *k,
                                  const tfcc_resize_shape *s, bool align_corners, bool half_pixel,
                                  const float *in, float *out, void *scratch);

#define TFCC_F32_RESIZE_DECL(name) \
  void name(const tfcc_resize_shape *s, const float *in, float *out, \
            const tfcc_f32_resize_tab *xt, const tfcc_f32_resize_tab *yt, int32_t row0, \
            int32_t row1)
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_avx512);
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_avx2);
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_neon);
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_wasmsimd);
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_scalar);
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_xnn_avx512);
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_xnn_avx2);
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_xnn_neon);
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_xnn_wasmsimd);
TFCC_F32_RESIZE_DECL(tfcc_f32_resize_xnn_scalar);

#endif

/* Fast float32 depthwise convolution, vectorised over channels, one
 * file per ISA variant behind a dispatch table. Interior pixels of 3x3 and 5x5 filters use
 * fully unrolled taps (any stride); borders and other filter sizes take a generic loop over
 * the valid taps. Bias and the fused activation clamp are applied before the store. */
#ifndef TFCC_KERNELS_F32_DWCONV_DWCONV_H
#define TFCC_KERNELS_F32_DWCONV_DWCONV_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* Output rows [row0, row1) where row = batch * out_h + oy. filter: [KH][KW][C]; bias may be
 * NULL. g->out_c == g->in_c. */
typedef void (*tfcc_f32_dwconv_fn)(const tfcc_conv_geom *g, const float *in, const float *filter,
                                   const float *bias, float lo, float hi, float *out, int32_t row0,
                                   int32_t row1);

typedef struct tfcc_f32_dwconv_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_f32_dwconv_fn fn;
} tfcc_f32_dwconv_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_f32_dwconv, tfcc_f32_dwconv_kernel);

struct tfcc_threadpool;
/* Scratch tfcc_f32_dwconv needs: 0 for depth multiplier 1, else the input expanded to out_c
 * channels (channel oc = input channel oc / multiplier), which the kernels then read. */
size_t tfcc_f32_dwconv_scratch_bytes(const tfcc_conv_geom *g);
/* Splits output rows over the pool. g->out_c is a multiple of g->in_c; filter [KH][KW][out_c]. */
void tfcc_f32_dwconv(struct tfcc_threadpool *pool, const tfcc_f32_dwconv_kernel *k,
                     const tfcc_conv_geom *g, const float *in, const float *filter,
                     const float *bias, float lo, float hi, float *out, void *scratch);

#define TFCC_F32_DWCONV_DECL(name) \
  void name(const tfcc_conv_geom *g, const float *in, const float *filter, const float *bias, \
            float lo, float hi, float *out, int32_t row0, int32_t row1)
TFCC_F32_DWCONV_DECL(tfcc_f32_dwconv_avx512);
TFCC_F32_DWCONV_DECL(tfcc_f32_dwconv_avx2);
TFCC_F32_DWCONV_DECL(tfcc_f32_dwconv_sse4);
TFCC_F32_DWCONV_DECL(tfcc_f32_dwconv_neon);
TFCC_F32_DWCONV_DECL(tfcc_f32_dwconv_wasmsimd);
TFCC_F32_DWCONV_DECL(tfcc_f32_dwconv_scalar);

#endif

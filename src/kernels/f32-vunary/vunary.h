/* Fast float32 elementwise activations, one file per ISA variant behind a dispatch table.
 *   CLAMP       RELU / RELU6 / RELU_N1_TO_1: min(max(lo, x), hi), NaN -> lo   exact
 *   LEAKY_RELU  x > 0 ? x : x * alpha                                      exact
 *   HARD_SWISH  x * min(max(x + 3, 0), 6) / 6 in the reference's order      exact
 *   LOGISTIC    1 / (1 + e^-x): e^-|x| by range reduction (n ln2 split in two) and a degree-7
 *               polynomial, then 1 / (1 + e) or e / (1 + e)
 *   TANH        odd polynomial (Taylor to x^15) below |x| = 0.5, above (1 - e) / (1 + e)
 *               with e = e^-2|x|, sign copied
 * LOGISTIC and TANH are within 1e-6 relative of the reference (libm expf / tanhf) over the
 * whole float range, values below 2^-125 in magnitude counting as 0 (where the reference's
 * expf overflows or its result is subnormal); NaN gives NaN, +-inf give the limits, as there
 * (tests/ops/test_vunary.c). The scalar variant is the reference arithmetic. */
#ifndef TFCC_KERNELS_F32_VUNARY_VUNARY_H
#define TFCC_KERNELS_F32_VUNARY_VUNARY_H

#include <stddef.h>

#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

typedef enum tfcc_f32_vunary_op {
  TFCC_F32VU_CLAMP,
  TFCC_F32VU_LEAKY_RELU,
  TFCC_F32VU_HARD_SWISH,
  TFCC_F32VU_LOGISTIC,
  TFCC_F32VU_TANH
} tfcc_f32_vunary_op;

typedef struct tfcc_f32_vunary_params {
  tfcc_f32_vunary_op op;
  float lo, hi; /* CLAMP */
  float alpha;  /* LEAKY_RELU */
} tfcc_f32_vunary_params;

typedef void (*tfcc_f32_vunary_fn)(const tfcc_f32_vunary_params *p, const float *in, float *out,
                                   size_t n);

typedef struct tfcc_f32_vunary_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_f32_vunary_fn fn;
} tfcc_f32_vunary_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_f32_vunary, tfcc_f32_vunary_kernel);

struct tfcc_threadpool;
/* n elements, split over pool for large tensors; out may equal in. */
void tfcc_f32_vunary_run(struct tfcc_threadpool *pool, const tfcc_f32_vunary_kernel *k,
                         const tfcc_f32_vunary_params *p, const float *in, float *out, size_t n);

#define TFCC_F32_VUNARY_DECL(name) \
  void name(const tfcc_f32_vunary_params *p, const float *in, float *out, size_t n)
TFCC_F32_VUNARY_DECL(tfcc_f32_vunary_avx512);
TFCC_F32_VUNARY_DECL(tfcc_f32_vunary_avx2);
TFCC_F32_VUNARY_DECL(tfcc_f32_vunary_neon);
TFCC_F32_VUNARY_DECL(tfcc_f32_vunary_wasmsimd);
TFCC_F32_VUNARY_DECL(tfcc_f32_vunary_scalar);

#endif

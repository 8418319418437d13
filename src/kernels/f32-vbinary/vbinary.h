/* Fast float32 elementwise ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE with the
 * fused activation clamp, and PRELU (x >= 0 ? x : x * alpha, alpha as input b), one file per ISA variant behind a dispatch table. Results are the
 * reference kernel's (kernels/ref/binary.c) bit for bit: one IEEE operation per element (no
 * FMA contraction), the clamp as max(lo, v) then min(hi, v) so that NaN passes through as
 * there, MAXIMUM/MINIMUM as x > y ? x : y and x < y ? x : y. */
#ifndef TFCC_KERNELS_F32_VBINARY_VBINARY_H
#define TFCC_KERNELS_F32_VBINARY_VBINARY_H

#include <stddef.h>

#include "kernels/ref/binary.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

typedef enum tfcc_f32_vbinary_op {
  TFCC_F32VB_ADD,
  TFCC_F32VB_SUB,
  TFCC_F32VB_MUL,
  TFCC_F32VB_DIV,
  TFCC_F32VB_SQDIFF,
  TFCC_F32VB_MAX,
  TFCC_F32VB_MIN,
  TFCC_F32VB_PRELU
} tfcc_f32_vbinary_op;

/* Every operator but PRELU with the suffix of its row functions, X(op, suffix): the kernels
 * choose their row function by this list (PRELU is their default). */
#define TFCC_F32VB_OPS(X) \
  X(TFCC_F32VB_ADD, add) \
  X(TFCC_F32VB_SUB, sub) \
  X(TFCC_F32VB_MUL, mul) \
  X(TFCC_F32VB_DIV, div) \
  X(TFCC_F32VB_SQDIFF, sqd) \
  X(TFCC_F32VB_MAX, max) \
  X(TFCC_F32VB_MIN, min)

typedef struct tfcc_f32_vbinary_params {
  tfcc_f32_vbinary_op op;
  float lo, hi; /* activation clamp (ADD/SUB/MUL/DIV; -inf, +inf for the others) */
} tfcc_f32_vbinary_params;

/* The fast operation for a reference binary operator; false if there is none (POW,
 * FLOOR_DIV, FLOOR_MOD). */
bool tfcc_f32_vbinary_op_of(tfcc_binop op, tfcc_f32_vbinary_op *out);

typedef void (*tfcc_f32_vbinary_fn)(const void *params, const void *a, const void *b, void *out,
                                    size_t n, int a_step, int b_step);

typedef struct tfcc_f32_vbinary_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_f32_vbinary_fn fn;
} tfcc_f32_vbinary_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_f32_vbinary, tfcc_f32_vbinary_kernel);

struct tfcc_threadpool;
/* The whole broadcast output, split over pool for large tensors. */
void tfcc_f32_vbinary_run(struct tfcc_threadpool *pool, const tfcc_f32_vbinary_kernel *k,
                          const tfcc_f32_vbinary_params *p, const tfcc_bcast *bc, const float *a,
                          const float *b, float *out);

#define TFCC_F32_VBINARY_DECL(name) \
  void name(const void *params, const void *a, const void *b, void *out, size_t n, int a_step, \
            int b_step)
TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_avx512);
TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_avx2);
TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_neon);
TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_wasmsimd);
TFCC_F32_VBINARY_DECL(tfcc_f32_vbinary_scalar);

#endif

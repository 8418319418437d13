/* Fast int16 elementwise ADD / SUB with general scales (TFLite add.cc / sub.cc, int16 inputs
 * whose scales are not powers of two: each input << 15 through its Q0.31 multiplier, the sum
 * through the output multiplier, gemmlowp rounding) and MUL (mul.cc / reference_integer_ops
 * MulElementwise: MultiplyByQuantizedMultiplier of the product), one file per ISA variant
 * behind a dispatch table. The arithmetic is q8-vbinary's ADD_FIXED / MUL_FIXED
 * (kernels/q8-vbinary/vbinary.h, whose parameters it uses) on int16 lanes; every variant
 * produces exactly the values of the reference kernel (kernels/ref/arith_quant.c, TFCC_AQ_ADD
 * and TFCC_AQ_MUL on int16). Parameters outside the exact range (ADD: nonzero input zero
 * points; shifts out of [0, 31]) are refused by tfcc_q16_vbinary_params_init: the reference
 * kernel runs. */
#ifndef TFCC_KERNELS_Q16_VBINARY_VBINARY_H
#define TFCC_KERNELS_Q16_VBINARY_VBINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/dispatch_table.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/arith_quant.h"
#include "tfcc/tfcc.h"

/* Fills p (op TFCC_Q8VB_ADD_FIXED or TFCC_Q8VB_MUL_FIXED; no byte tables) for reference
 * operation op on dt with parameters q; false unless op is TFCC_AQ_ADD or TFCC_AQ_MUL on int16
 * within the exact range. */
bool tfcc_q16_vbinary_params_init(tfcc_arith_qop op, tfcc_dtype dt, const tfcc_arith_q *q,
                                  tfcc_q8_vbinary_params *p);

/* out[i] = op(a[i * a_step], b[i * b_step]) (int16), steps 0 or 1 (tfcc_vbin_row_fn). */
typedef void (*tfcc_q16_vbinary_fn)(const void *params, const void *a, const void *b, void *out,
                                    size_t n, int a_step, int b_step);

typedef struct tfcc_q16_vbinary_kernel {
  const char *name;
  tfcc_isa isa;
  tfcc_q16_vbinary_fn fn;
} tfcc_q16_vbinary_kernel;

TFCC_DISPATCH_TABLE_DECL(tfcc_q16_vbinary, tfcc_q16_vbinary_kernel);

#define TFCC_Q16_VBINARY_DECL(name) \
  void name(const void *params, const void *a, const void *b, void *out, size_t n, int a_step, \
            int b_step)
TFCC_Q16_VBINARY_DECL(tfcc_q16_vbinary_avx512);
TFCC_Q16_VBINARY_DECL(tfcc_q16_vbinary_avx2);
TFCC_Q16_VBINARY_DECL(tfcc_q16_vbinary_neon);
TFCC_Q16_VBINARY_DECL(tfcc_q16_vbinary_wasmsimd);
TFCC_Q16_VBINARY_DECL(tfcc_q16_vbinary_scalar);

struct tfcc_threadpool;
/* The whole broadcast output, split over pool for large tensors. */
void tfcc_q16_vbinary_run(struct tfcc_threadpool *pool, const tfcc_q16_vbinary_kernel *k,
                          const tfcc_q8_vbinary_params *p, const tfcc_bcast *bc, const void *a,
                          const void *b, void *out);

#endif

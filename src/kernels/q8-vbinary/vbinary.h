/* Fast 8-bit (int8 / uint8) elementwise ADD, SUB and MUL, one file per ISA variant behind a
 * dispatch table. Every variant produces exactly the bytes of the reference kernels
 * (kernels/ref/arith_quant.c) in both arithmetic modes:
 *   ADD_XNN    XNNPACK vadd: (bias + a * a_mult + b * b_mult) >> shift (floor), + zp (SUB:
 *              negative b_mult);
 *   ADD_FIXED  TFLite builtin add.cc: each input (q - zp) << left_shift through its Q0.31
 *              multiplier, the sum through the output multiplier (gemmlowp rounding);
 *   MUL_XNN    XNNPACK vmul fp32: (a - za)(b - zb) as float times scale, clamped, lrintf;
 *   MUL_FIXED  TFLite builtin mul.cc: MultiplyByQuantizedMultiplier of the product.
 * Parameters outside what the vector code handles exactly (shifts out of range, an empty
 * activation range) are refused by tfcc_q8_vbinary_params_init: the reference kernel runs. */
#ifndef TFCC_KERNELS_Q8_VBINARY_VBINARY_H
#define TFCC_KERNELS_Q8_VBINARY_VBINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/arith_quant.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

typedef enum tfcc_q8_vbinary_op {
  TFCC_Q8VB_ADD_XNN,
  TFCC_Q8VB_ADD_FIXED,
  TFCC_Q8VB_MUL_XNN,
  TFCC_Q8VB_MUL_FIXED
} tfcc_q8_vbinary_op;

typedef struct tfcc_q8_vbinary_params {
  tfcc_q8_vbinary_op op;
  bool is_signed;
  int32_t out_zp;
  int32_t qmin, qmax;   /* activation range, inside the storage range, qmin <= qmax */
  int32_t a_off, b_off; /* -zero points (FIXED, MUL_XNN) */
  /* ADD_XNN */
  int32_t bias, a_mult, b_mult, shift; /* shift in [0, 31] */
  /* ADD_XNN with |multipliers| < 2^22: m = mh * 128 + ml (ml in [0, 127]), packed as the int16
   * pair (mh, ml) of one dword, so that one VPMADDWD of the word pair (q * 128, q) gives q * m
   * exactly (|q * m| < 2^30). 0 when the multipliers are larger (the 32-bit path runs). */
  bool xnn_pairs;
  int32_t a_pair, b_pair;
  /* ADD_FIXED: s = RDBPOT(SRDHM(v << left_shift, mult), rshift); MUL_FIXED uses out_* with
   * out_lshift applied to the product first. All right shifts in [0, 31]. */
  int32_t left_shift;
  int32_t a_qm, a_rs, b_qm, b_rs;
  int32_t out_qm, out_rs, out_ls;
  /* ADD_FIXED: each input's term RDBPOT(SRDHM((q - zp) << left_shift, qm), rs) by raw byte
   * (the byte's unsigned value as index), for the gather path of the AVX-512 variants. */
  int32_t a_term[256], b_term[256];
  /* MUL_XNN */
  float scale;
} tfcc_q8_vbinary_params;

/* Fills p for reference operation op on dt with parameters q; false if the fast kernels do not
 * take it (another op or dtype, parameters outside their exact range). */
/* ADD_FIXED's multipliers and shifts from q (both 8- and 16-bit ADD): false where a shift is
 * out of range (left shift past max_left_shift, a right shift outside 0..31) or a multiplier is
 * INT32_MIN. */
bool tfcc_q8_vbinary_add_fixed_scales(const tfcc_arith_q *q, int32_t max_left_shift,
                                      tfcc_q8_vbinary_params *p);
bool tfcc_q8_vbinary_params_init(tfcc_arith_qop op, tfcc_dtype dt, const tfcc_arith_q *q,
                                 tfcc_q8_vbinary_params *p);

/* out[i] = op(a[i * a_step], b[i * b_step]), steps 0 or 1 (tfcc_vbin_row_fn). */
typedef void (*tfcc_q8_vbinary_fn)(const void *params, const void *a, const void *b, void *out,
                                   size_t n, int a_step, int b_step);

typedef struct tfcc_q8_vbinary_kernel {
  const char *name;
  tfcc_isa isa;
  int feature; /* tfcc_cpu_feature needed besides the ISA level, or -1 */
  tfcc_q8_vbinary_fn fn;
} tfcc_q8_vbinary_kernel;

/* Whether k runs at dispatch level isa on this CPU (level and extra feature). */
bool tfcc_q8_vbinary_usable(const tfcc_q8_vbinary_kernel *k, tfcc_isa isa);
TFCC_DISPATCH_TABLE_DECL(tfcc_q8_vbinary, tfcc_q8_vbinary_kernel);

struct tfcc_threadpool;
/* The whole broadcast output, split over pool for large tensors. */
void tfcc_q8_vbinary_run(struct tfcc_threadpool *pool, const tfcc_q8_vbinary_kernel *k,
                         const tfcc_q8_vbinary_params *p, const tfcc_bcast *bc, const void *a,
                         const void *b, void *out);

#define TFCC_Q8_VBINARY_DECL(name) \
  void name(const void *params, const void *a, const void *b, void *out, size_t n, int a_step, \
            int b_step)
TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_avx512vnni);
TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_avx512);
TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_avx2);
TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_neon);
TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_wasmsimd);
TFCC_Q8_VBINARY_DECL(tfcc_q8_vbinary_scalar);

#endif

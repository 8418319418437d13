/* Shared validation, shape and dispatch code of the elementwise operator family
 * (ADD SUB MUL DIV SQUARED_DIFFERENCE MAXIMUM MINIMUM POW FLOOR_DIV FLOOR_MOD, comparisons,
 * logical, SELECT, unary math). Each operator file defines its tfcc_op_def from these. */
#ifndef TFCC_OPS_BINARY_COMMON_H
#define TFCC_OPS_BINARY_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/arith_quant.h"
#include "kernels/ref/binary.h"
#include "kernels/ref/compare.h"
#include "kernels/ref/unary.h"
#include "ops/op.h"

/* ADD/SUB/MUL/DIV parameters: the node's options (tfcc_arith_options) and what init derives. */
typedef struct tfcc_arith_opts {
  int32_t activation;   /* fused activation */
  bool pot_scale_int16; /* ADD/SUB (ir/op_options.h) */
  int quant_compat;     /* tfcc_quant_compat of the model */
  /* the fused activation's clamp, set at init: float +-inf unclamped (XNNPACK's, tfcc's) or, in
   * REFERENCE mode where the classic interpreter delegates nothing, the builtin kernels'
   * +-FLT_MAX (tfcc_ref_builtin_float_range) */
  tfcc_binary_act act;
  /* Quantized ADD/SUB/MUL/DIV: multipliers and shifts computed once at init from the tensors'
   * quantization (which never changes for a model), so eval does not redo them each run. */
  bool q_ready;
  tfcc_arith_q q;
  tfcc_arith_qop qop;
  /* ADD/SUB/MUL 8-bit: the q8-vbinary parameters (with ADD_FIXED's term tables), from q once */
  bool vp_ready;
  tfcc_q8_vbinary_params vp;
} tfcc_arith_opts;

typedef enum tfcc_arith_kind {
  TFCC_ARITH_ADD,
  TFCC_ARITH_SUB,
  TFCC_ARITH_MUL,
  TFCC_ARITH_DIV,
  TFCC_ARITH_SQDIFF,
  TFCC_ARITH_MAX,
  TFCC_ARITH_MIN,
  TFCC_ARITH_POW,
  TFCC_ARITH_FLOOR_DIV,
  TFCC_ARITH_FLOOR_MOD
} tfcc_arith_kind;

/* init of ADD/SUB/MUL/DIV (kind): the node's options and the quantized parameters. */
tfcc_status tfcc_arith_init(tfcc_init_ctx *ctx, tfcc_arith_kind kind);
/* Frees what tfcc_arith_init made (ops/params_mem.h). */
void tfcc_arith_release(void *params);
tfcc_status tfcc_arith_prepare(tfcc_op_ctx *ctx, tfcc_arith_kind kind);
tfcc_status tfcc_arith_eval(tfcc_op_ctx *ctx, tfcc_arith_kind kind);
/* Name of the kernel eval runs (op_def.kernel): a vectorised family variant or "ref". */
const char *tfcc_arith_kernel(const tfcc_op_ctx *ctx, tfcc_arith_kind kind);

/* The operator definition `def` of arithmetic kind `kind` (ADD, SUB, MUL: in place allowed):
 * its init / prepare / eval / kernel are the tfcc_arith_* functions above for that kind. */
#define TFCC_ARITH_OP_DEF(def, op_name, kind) \
  static tfcc_status init(tfcc_init_ctx *ctx) { return tfcc_arith_init(ctx, kind); } \
  static tfcc_status prepare(tfcc_op_ctx *ctx) { return tfcc_arith_prepare(ctx, kind); } \
  static tfcc_status eval(tfcc_op_ctx *ctx) { return tfcc_arith_eval(ctx, kind); } \
  static const char *kernel(const tfcc_op_ctx *ctx) { return tfcc_arith_kernel(ctx, kind); } \
  const tfcc_op_def def = {.name = op_name, \
                           .init = init, \
                           .prepare = prepare, \
                           .eval = eval, \
                           .kernel = kernel, \
                           .release = tfcc_arith_release, \
                           .inplace_ok = true}

tfcc_status tfcc_compare_prepare(tfcc_op_ctx *ctx, tfcc_cmpop op);
tfcc_status tfcc_compare_eval(tfcc_op_ctx *ctx, tfcc_cmpop op);

tfcc_status tfcc_logical_prepare(tfcc_op_ctx *ctx, bool is_or);
tfcc_status tfcc_logical_eval(tfcc_op_ctx *ctx, bool is_or);

tfcc_status tfcc_select_prepare(tfcc_op_ctx *ctx, bool v2);
tfcc_status tfcc_select_eval(tfcc_op_ctx *ctx, bool v2);

tfcc_status tfcc_unary_prepare(tfcc_op_ctx *ctx, tfcc_unop op);
tfcc_status tfcc_unary_eval(tfcc_op_ctx *ctx, tfcc_unop op);

/* Helpers for the other family files. */
tfcc_status tfcc_elem_check_io(tfcc_op_ctx *ctx, const char *op, int32_t n_in, int32_t n_out);
/* The elementwise operators without broadcasting: a and b must have one shape, else the error
 * "<op>: <a_name> shape [..] and <b_name> shape [..] differ<note>". */
tfcc_status tfcc_elem_same_shape(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *a,
                                 const char *a_name, const tfcc_tensor *b, const char *b_name,
                                 const char *note);
/* Sets out's shape to the broadcast of the n inputs' shapes. */
tfcc_status tfcc_elem_broadcast_shape(tfcc_op_ctx *ctx, const char *op, int32_t n,
                                      const tfcc_tensor *const *in, tfcc_tensor *out);
void tfcc_elem_plan(tfcc_bcast *bc, int32_t n, const tfcc_tensor *const *in,
                    const tfcc_tensor *out);
/* Per-tensor quantization of t (scale finite > 0, zero point within dt's range). */
tfcc_status tfcc_elem_quant(tfcc_op_ctx *ctx, const char *op, const char *what,
                            const tfcc_tensor *t, float *scale, int32_t *zp);
/* Storage range of an integer dtype. */
void tfcc_elem_qrange(tfcc_dtype dt, int32_t *lo, int32_t *hi);

#endif

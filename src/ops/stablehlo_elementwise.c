/* STABLEHLO_ADD, STABLEHLO_MULTIPLY, STABLEHLO_MAXIMUM, STABLEHLO_MINIMUM, STABLEHLO_AND,
 * STABLEHLO_SHIFT_LEFT (TFLite stablehlo_elementwise.h, stablehlo_and.cc,
 * stablehlo_shift_left.cc): two inputs and the output of one dtype and one shape (no
 * broadcasting, no quantization, no options). ADD/MULTIPLY/MAXIMUM/MINIMUM: float16, float32,
 * float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64 (integers wrap; float16 as
 * Eigen::half: float32 arithmetic rounded to half); AND: bool and those integers; SHIFT_LEFT:
 * int8, int16, int32 (shift modulo 32 on the 32-bit promoted value, as TFLite's `<<` runs).
 * Kernels: kernels/ref/shlo_binary.h. TFLite checks equal shapes for all but SHIFT_LEFT (which reads past a smaller
 * input); tfcc requires them for all six. */
#include "kernels/ref/shlo_binary.h"
#include "ops/binary_common.h"

typedef struct shlo_kind {
  const char *name;
  tfcc_shlo_binop op;
  const char *dtypes;
} shlo_kind;

static const shlo_kind k_add = {"STABLEHLO_ADD", TFCC_SHLO_ADD,
                                "float16, float32, float64, int8..int64, uint8..uint64"};
static const shlo_kind k_mul = {"STABLEHLO_MULTIPLY", TFCC_SHLO_MUL,
                                "float16, float32, float64, int8..int64, uint8..uint64"};
static const shlo_kind k_max = {"STABLEHLO_MAXIMUM", TFCC_SHLO_MAX,
                                "float16, float32, float64, int8..int64, uint8..uint64"};
static const shlo_kind k_min = {"STABLEHLO_MINIMUM", TFCC_SHLO_MIN,
                                "float16, float32, float64, int8..int64, uint8..uint64"};
static const shlo_kind k_and = {"STABLEHLO_AND", TFCC_SHLO_AND, "bool, int8..int64, uint8..uint64"};
static const shlo_kind k_shl = {"STABLEHLO_SHIFT_LEFT", TFCC_SHLO_SHL, "int8, int16, int32"};

static tfcc_status shlo_prepare(tfcc_op_ctx *ctx, const shlo_kind *k) {
  tfcc_status st = tfcc_elem_check_io(ctx, k->name, 2, 1);
  if (st) return st;
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(ctx, tfcc_ref_shlo_binary_supported(k->op, a->dtype), TFCC_ERR_UNSUPPORTED,
                "%s: input 0 dtype %s is not supported (%s)", k->name, tfcc_dtype_name(a->dtype),
                k->dtypes);
  TFCC_OP_CHECK(ctx, b->dtype == a->dtype, TFCC_ERR_DTYPE,
                "%s: input 1 dtype %s differs from input 0 dtype %s", k->name,
                tfcc_dtype_name(b->dtype), tfcc_dtype_name(a->dtype));
  TFCC_OP_CHECK(ctx, out->dtype == a->dtype, TFCC_ERR_DTYPE,
                "%s: output dtype %s differs from input dtype %s", k->name,
                tfcc_dtype_name(out->dtype), tfcc_dtype_name(a->dtype));
  TFCC_OP_CHECK(ctx, a->quant->count == 0 && b->quant->count == 0 && out->quant->count == 0,
                TFCC_ERR_UNSUPPORTED, "%s: quantized tensors are not supported", k->name);
  if ((st = tfcc_elem_same_shape(ctx, k->name, a, "input 0", b, "input 1", " (no broadcasting)")) !=
      TFCC_OK)
    return st;
  return tfcc_tensor_set_shape(out, a->rank, a->dims, ctx->err);
}

static tfcc_status shlo_eval(tfcc_op_ctx *ctx, const shlo_kind *k) {
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(
      ctx,
      tfcc_ref_shlo_binary(k->op, a->dtype, a->data, b->data, out->data, tfcc_tensor_elements(a)),
      TFCC_ERR_UNSUPPORTED, "%s: dtype %s is not supported", k->name, tfcc_dtype_name(a->dtype));
  return TFCC_OK;
}

#define SHLO_OP(sym, kind, NAME) \
  static tfcc_status sym##_prepare(tfcc_op_ctx *ctx) { return shlo_prepare(ctx, &kind); } \
  static tfcc_status sym##_eval(tfcc_op_ctx *ctx) { return shlo_eval(ctx, &kind); } \
  const tfcc_op_def tfcc_op_##sym = { \
      .name = NAME, .prepare = sym##_prepare, .eval = sym##_eval, .inplace_ok = true};

SHLO_OP(stablehlo_add, k_add, "STABLEHLO_ADD")
SHLO_OP(stablehlo_multiply, k_mul, "STABLEHLO_MULTIPLY")
SHLO_OP(stablehlo_maximum, k_max, "STABLEHLO_MAXIMUM")
SHLO_OP(stablehlo_minimum, k_min, "STABLEHLO_MINIMUM")
SHLO_OP(stablehlo_and, k_and, "STABLEHLO_AND")
SHLO_OP(stablehlo_shift_left, k_shl, "STABLEHLO_SHIFT_LEFT")

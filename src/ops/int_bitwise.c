/* BITWISE_XOR and RIGHT_SHIFT: see int_bitwise.h. */
#include "ops/int_bitwise.h"

#include "ops/binary_common.h"

static const char *kind_name(tfcc_int_bitwise_kind k) {
  return k == TFCC_INT_BITWISE_XOR ? "BITWISE_XOR" : "RIGHT_SHIFT";
}

static bool dtype_ok(tfcc_dtype t) {
  return t == TFCC_INT8 || t == TFCC_UINT8 || t == TFCC_INT16 || t == TFCC_UINT16 ||
         t == TFCC_INT32 || t == TFCC_UINT32;
}

tfcc_status tfcc_int_bitwise_prepare(tfcc_op_ctx *ctx, tfcc_int_bitwise_kind kind) {
  const char *op = kind_name(kind);
  tfcc_status st = tfcc_elem_check_io(ctx, op, 2, 1);
  if (st) return st;
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(ctx, dtype_ok(a->dtype), TFCC_ERR_UNSUPPORTED,
                "%s: input 0 dtype %s is not supported (int8, uint8, int16, uint16, int32, uint32)",
                op, tfcc_dtype_name(a->dtype));
  TFCC_OP_CHECK(ctx, b->dtype == a->dtype, TFCC_ERR_DTYPE,
                "%s: input 1 dtype %s differs from input 0 dtype %s", op, tfcc_dtype_name(b->dtype),
                tfcc_dtype_name(a->dtype));
  TFCC_OP_CHECK(ctx, out->dtype == a->dtype, TFCC_ERR_DTYPE,
                "%s: output dtype %s differs from input dtype %s", op, tfcc_dtype_name(out->dtype),
                tfcc_dtype_name(a->dtype));
  const tfcc_tensor *ins[2] = {a, b};
  return tfcc_elem_broadcast_shape(ctx, op, 2, ins, out);
}

/* Row functions: one per (kind, dtype). */
#define XOR_ROW(NAME, T) \
  static void NAME(void *out, const void *const *in, const int64_t *step, int64_t n, \
                   const void *params) { \
    (void)params; \
    const T *x = in[0], *y = in[1]; \
    T *o = out; \
    for (int64_t i = 0; i < n; i++) o[i] = (T)(x[i * step[0]] ^ y[i * step[1]]); \
  }
#define SHIFT_ROW(NAME, T, BITS) \
  static void NAME(void *out, const void *const *in, const int64_t *step, int64_t n, \
                   const void *params) { \
    (void)params; \
    const T *x = in[0], *y = in[1]; \
    T *o = out; \
    for (int64_t i = 0; i < n; i++) { \
      int64_t s = (int64_t)y[i * step[1]]; \
      s = s < 0 ? 0 : (s > (BITS)-1 ? (BITS)-1 : s); \
      o[i] = (T)(x[i * step[0]] >> s); \
    } \
  }

XOR_ROW(xor_i8, int8_t)
XOR_ROW(xor_u8, uint8_t)
XOR_ROW(xor_i16, int16_t)
XOR_ROW(xor_u16, uint16_t)
XOR_ROW(xor_i32, int32_t)
XOR_ROW(xor_u32, uint32_t)
SHIFT_ROW(shr_i8, int8_t, 8)
SHIFT_ROW(shr_u8, uint8_t, 8)
SHIFT_ROW(shr_i16, int16_t, 16)
SHIFT_ROW(shr_u16, uint16_t, 16)
SHIFT_ROW(shr_i32, int32_t, 32)
SHIFT_ROW(shr_u32, uint32_t, 32)

static tfcc_bcast_row_fn row_fn(tfcc_int_bitwise_kind kind, tfcc_dtype t) {
  const bool x = kind == TFCC_INT_BITWISE_XOR;
  switch (t) {
    case TFCC_INT8: return x ? xor_i8 : shr_i8;
    case TFCC_UINT8: return x ? xor_u8 : shr_u8;
    case TFCC_INT16: return x ? xor_i16 : shr_i16;
    case TFCC_UINT16: return x ? xor_u16 : shr_u16;
    case TFCC_INT32: return x ? xor_i32 : shr_i32;
    case TFCC_UINT32: return x ? xor_u32 : shr_u32;
    default: return NULL;
  }
}

tfcc_status tfcc_int_bitwise_eval(tfcc_op_ctx *ctx, tfcc_int_bitwise_kind kind) {
  const tfcc_tensor *ins[2] = {ctx->in[0], ctx->in[1]};
  tfcc_tensor *out = ctx->out[0];
  tfcc_bcast_row_fn fn = row_fn(kind, out->dtype);
  TFCC_OP_CHECK(ctx, fn != NULL, TFCC_ERR_UNSUPPORTED, "%s: dtype %s is not supported",
                kind_name(kind), tfcc_dtype_name(out->dtype));
  tfcc_bcast bc;
  tfcc_elem_plan(&bc, 2, ins, out);
  const size_t es = tfcc_dtype_size(out->dtype);
  const void *const in_data[2] = {ins[0]->data, ins[1]->data};
  const size_t ies[2] = {es, es};
  tfcc_bcast_run(&bc, out->data, es, in_data, ies, fn, NULL);
  return TFCC_OK;
}

/* Elementwise arithmetic (ADD, SUB, MUL, DIV, POW, FLOOR_DIV, FLOOR_MOD, MAXIMUM, MINIMUM,
 * SQUARED_DIFFERENCE): options, quantized parameters, prepare, eval, kernel name. */
#include "ops/binary_common.h"
#include "ops/hybrid.h"

#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/q16-vbinary/vbinary.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/xnn_quant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/ref/quant_util.h"
#include "ops/params_mem.h"

/* ------------------------------------------------------------------ options */

static bool is_quant_dtype(tfcc_dtype dt) {
  return dt == TFCC_UINT8 || dt == TFCC_INT8 || dt == TFCC_INT16;
}

static bool arith_quantized(tfcc_arith_kind k, tfcc_dtype dt);
static tfcc_status arith_qparams(tfcc_op_ctx *ctx, tfcc_arith_kind k, tfcc_arith_q *q,
                                 tfcc_arith_qop *qop);

/* Computes the quantized parameters from the IR tensors once per model. Problems are left for
 * prepare to report (with the same message); then eval computes them itself. */
static void arith_cache_qparams(const tfcc_init_ctx *ictx, tfcc_arith_opts *o, tfcc_arith_kind k) {
  const tfcc_ir_node *n = ictx->node;
  if (!n || !ictx->sg || n->n_inputs < 2 || n->n_outputs < 1 || n->inputs[0] < 0 ||
      n->inputs[1] < 0 || n->outputs[0] < 0)
    return;
  tfcc_tensor views[3];
  tfcc_tensor *pin[2] = {&views[0], &views[1]}, *pout[1] = {&views[2]};
  const int32_t idx[3] = {n->inputs[0], n->inputs[1], n->outputs[0]};
  for (int i = 0; i < 3; i++) {
    const tfcc_ir_tensor *it = &ictx->sg->tensors[idx[i]];
    memset(&views[i], 0, sizeof views[i]);
    views[i].dtype = it->dtype;
    views[i].quant = &it->quant;
    views[i].index = idx[i];
  }
  if (!arith_quantized(k, views[2].dtype)) return;
  tfcc_err scratch_err = {0};
  tfcc_op_ctx c = {0};
  c.node = n;
  c.params = o;
  c.in = pin;
  c.n_in = 2;
  c.out = pout;
  c.n_out = 1;
  c.err = &scratch_err;
  c.isa = ictx->isa;
  c.ks = ictx->ks;
  o->q_ready = arith_qparams(&c, k, &o->q, &o->qop) == TFCC_OK;
  o->vp_ready = o->q_ready && k <= TFCC_ARITH_MUL &&
                tfcc_q8_vbinary_params_init(o->qop, views[2].dtype, &o->q, &o->vp);
}

void tfcc_arith_release(void *params) { tfcc_params_free(params); }

tfcc_status tfcc_arith_init(tfcc_init_ctx *ctx, tfcc_arith_kind kind) {
  tfcc_arith_opts *o = tfcc_params_calloc(sizeof *o); /* read at every run (ops/params_mem.h) */
  if (!o) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for operator options");
  o->activation = TFCC_ACT_NONE;
  o->pot_scale_int16 = false;
  o->quant_compat = ctx->quant_compat;
  const tfcc_ir_node *node = ctx->node;
  if (node) {
    o->activation = node->opts.arith.activation;
    o->pot_scale_int16 = node->opts.arith.pot_scale_int16;
  }
  if (o->activation < TFCC_ACT_NONE || o->activation > TFCC_ACT_RELU6) {
    int a = o->activation;
    tfcc_params_free(o);
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "fused activation %d not supported (only NONE, RELU, RELU_N1_TO_1, RELU6)",
                        a);
  }
  tfcc_binary_act_range(kind <= TFCC_ARITH_DIV ? o->activation : TFCC_ACT_NONE, &o->act);
  if (kind <= TFCC_ARITH_DIV && tfcc_ref_builtin_float_range(ctx))
    tfcc_act_range_f32_builtin(o->activation, &o->act.f_lo, &o->act.f_hi);
  arith_cache_qparams(ctx, o, kind);
  ctx->params = o;
  return TFCC_OK;
}

/* The options fields (not the cached parameters, which are large). */
typedef struct arith_flags {
  int32_t activation;
  bool pot_scale_int16;
  int quant_compat;
} arith_flags;

static arith_flags opts_of(const tfcc_op_ctx *ctx) {
  arith_flags f = {TFCC_ACT_NONE, false, TFCC_QUANT_COMPAT_TFLITE};
  if (ctx->params) {
    const tfcc_arith_opts *o = ctx->params;
    f.activation = o->activation;
    f.pot_scale_int16 = o->pot_scale_int16;
    f.quant_compat = o->quant_compat;
  }
  return f;
}

/* ------------------------------------------------------------------ arithmetic */

static const char *arith_name(tfcc_arith_kind k) {
  static const char *n[] = {"ADD",     "SUB",     "MUL", "DIV",       "SQUARED_DIFFERENCE",
                            "MAXIMUM", "MINIMUM", "POW", "FLOOR_DIV", "FLOOR_MOD"};
  return n[k];
}

static tfcc_binop arith_binop(tfcc_arith_kind k) {
  static const tfcc_binop m[] = {TFCC_BIN_ADD,       TFCC_BIN_SUB,      TFCC_BIN_MUL, TFCC_BIN_DIV,
                                 TFCC_BIN_SQDIFF,    TFCC_BIN_MAX,      TFCC_BIN_MIN, TFCC_BIN_POW,
                                 TFCC_BIN_FLOOR_DIV, TFCC_BIN_FLOOR_MOD};
  return m[k];
}

/* Which dtypes take the quantized path, as TFLite. */
static bool arith_quantized(tfcc_arith_kind k, tfcc_dtype dt) {
  switch (k) {
    case TFCC_ARITH_ADD:
    case TFCC_ARITH_SUB:
    case TFCC_ARITH_MUL: return is_quant_dtype(dt);
    case TFCC_ARITH_DIV: return is_quant_dtype(dt); /* int16: LiteRT */
    case TFCC_ARITH_SQDIFF: return dt == TFCC_INT8;
    default: return false;
  }
}

/* Whether TFLite's XNNPACK delegate takes a quantized ADD/SUB/MUL (VisitAdd/Sub/MulNode):
 * uint8/int8, each input-to-output scale in [2^-10, 2^8) for ADD/SUB, the product-to-output
 * scale in [2^-16, 2^8) for MUL, all computed in float as the delegate does. */
static bool xnn_arith_takes(tfcc_arith_kind k, tfcc_dtype dt, float s1, float s2, float so) {
  if (dt != TFCC_UINT8 && dt != TFCC_INT8) return false;
  if (k == TFCC_ARITH_ADD || k == TFCC_ARITH_SUB) {
    const float r1 = s1 / so, r2 = s2 / so;
    return r1 >= 0x1.0p-10f && r1 < 0x1.0p+8f && r2 >= 0x1.0p-10f && r2 < 0x1.0p+8f;
  }
  if (k == TFCC_ARITH_MUL) {
    const float product_scale = s1 * s2;
    const float r = product_scale / so;
    return r >= 0x1.0p-16f && r < 0x1.0p+8f;
  }
  return false;
}

/* An input's scale and zero point; MUL also takes a per-tensor scale of exactly 0 (the reader
 * allows it on an all-zero-point constant only): TFLite's multiplier s1 * s2 / so is then
 * QuantizeMultiplier(0) = 0, every output the output's zero point. */
static tfcc_status arith_in_quant(tfcc_op_ctx *ctx, tfcc_arith_kind k, const char *what,
                                  const tfcc_tensor *t, float *scale, int32_t *zp) {
  const char *op = arith_name(k);
  if (k == TFCC_ARITH_MUL && t->quant && t->quant->count == 1 && t->quant->scale &&
      t->quant->zero_point && t->quant->scale[0] == 0.f) {
    int32_t lo, hi;
    tfcc_elem_qrange(t->dtype, &lo, &hi);
    TFCC_OP_CHECK(ctx, t->quant->zero_point[0] >= lo && t->quant->zero_point[0] <= hi,
                  TFCC_ERR_INVALID_MODEL, "%s: %s zero point %d out of range for %s", op, what,
                  (int)t->quant->zero_point[0], tfcc_dtype_name(t->dtype));
    *scale = 0.f;
    *zp = t->quant->zero_point[0];
    return TFCC_OK;
  }
  return tfcc_elem_quant(ctx, op, what, t, scale, zp);
}

/* Quantized parameters from the tensors (also validates them). */
static tfcc_status arith_qparams(tfcc_op_ctx *ctx, tfcc_arith_kind k, tfcc_arith_q *q,
                                 tfcc_arith_qop *qop) {
  const char *op = arith_name(k);
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1], *o = ctx->out[0];
  float s1 = 0.f, s2 = 0.f, so = 0.f;
  int32_t z1 = 0, z2 = 0, zo = 0;
  tfcc_status st;
  if ((st = arith_in_quant(ctx, k, "input 0", a, &s1, &z1)) != TFCC_OK) return st;
  if ((st = arith_in_quant(ctx, k, "input 1", b, &s2, &z2)) != TFCC_OK) return st;
  if ((st = tfcc_elem_quant(ctx, op, "output", o, &so, &zo)) != TFCC_OK) return st;
  const tfcc_dtype dt = o->dtype;
  int32_t lo, hi;
  tfcc_elem_qrange(dt, &lo, &hi);
  const arith_flags opts = opts_of(ctx);
  memset(q, 0, sizeof *q);
  if (opts.quant_compat == TFCC_QUANT_COMPAT_TFLITE && xnn_arith_takes(k, dt, s1, s2, so)) {
    if (k == TFCC_ARITH_MUL) {
      tfcc_arith_q_prepare_mul_xnn(q, s1, z1, s2, z2, so, zo);
      *qop = TFCC_AQ_MUL_XNN;
    } else {
      tfcc_arith_q_prepare_add_xnn(q, s1, z1, s2, z2, so, zo, k == TFCC_ARITH_SUB);
      *qop = TFCC_AQ_ADD_XNN;
    }
    tfcc_xnn_act_range(opts.activation, so, zo, lo, hi, &q->act_min, &q->act_max);
    return TFCC_OK;
  }
  switch (k) {
    case TFCC_ARITH_ADD:
    case TFCC_ARITH_SUB: {
      bool pot = false;
      int32_t l1 = 0, l2 = 0, lo2 = 0;
      if (dt == TFCC_INT16 && opts.pot_scale_int16) {
        /* add.cc / sub.cc: the power-of-two path needs POT scales and zero points 0. */
        bool p1 = tfcc_checked_log2(s1, &l1), p2 = tfcc_checked_log2(s2, &l2),
             po = tfcc_checked_log2(so, &lo2);
        pot = p1 && p2 && po && z1 == 0 && z2 == 0 && zo == 0;
      }
      /* gtcrn57: a denormal input scale (the reader allows one on a MUL-by-zero product read
         by ADD / SUB) on the power-of-two path: Add16 / Sub16 would shift by its log2 distance
         to the output scale, more than 100 bits, which TFLite's C++ leaves undefined (its
         general path flushes the multiplier to 0: pot_scale_int16 false) */
      TFCC_OP_CHECK(ctx, !pot || (fpclassify(s1) != FP_SUBNORMAL && fpclassify(s2) != FP_SUBNORMAL),
                    TFCC_ERR_UNSUPPORTED,
                    "%s: int16 power-of-two path (pot_scale_int16) with the denormal input "
                    "scale %g: TFLite's shift by %d bits is undefined",
                    op, (double)(fpclassify(s1) == FP_SUBNORMAL ? s1 : s2),
                    (int)(fpclassify(s1) == FP_SUBNORMAL ? lo2 - l1 : lo2 - l2));
      if (pot) {
        q->in1_shift = l1 - lo2;
        q->in2_shift = l2 - lo2;
        TFCC_OP_CHECK(
            ctx, (q->in1_shift == 0 || q->in2_shift == 0) && q->in1_shift <= 0 && q->in2_shift <= 0,
            TFCC_ERR_UNSUPPORTED,
            "%s: int16 power-of-two scales need one input at the output scale and the "
            "other finer (shifts %d, %d)",
            op, (int)q->in1_shift, (int)q->in2_shift);
        *qop = k == TFCC_ARITH_ADD ? TFCC_AQ_ADD_POT : TFCC_AQ_SUB_POT;
      } else {
        tfcc_arith_q_prepare_add(q, s1, z1, s2, z2, so, zo, dt == TFCC_INT16 ? 15 : 20,
                                 k == TFCC_ARITH_SUB);
        *qop = TFCC_AQ_ADD;
      }
      tfcc_act_range_q(opts.activation, so, zo, lo, hi, &q->act_min, &q->act_max);
      break;
    }
    case TFCC_ARITH_MUL:
      if (dt == TFCC_INT16)
        TFCC_OP_CHECK(ctx, z1 == 0 && z2 == 0 && zo == 0, TFCC_ERR_UNSUPPORTED,
                      "MUL: int16 needs zero points 0 (got %d, %d, output %d)", (int)z1, (int)z2,
                      (int)zo);
      tfcc_arith_q_prepare_mul(q, s1, z1, s2, z2, so, zo);
      tfcc_act_range_q(opts.activation, so, zo, lo, hi, &q->act_min, &q->act_max);
      *qop = TFCC_AQ_MUL;
      break;
    case TFCC_ARITH_DIV:
      tfcc_arith_q_prepare_div(q, s1, z1, s2, z2, so, zo);
      tfcc_act_range_q(opts.activation, so, zo, lo, hi, &q->act_min, &q->act_max);
      *qop = TFCC_AQ_DIV;
      break;
    default: /* SQUARED_DIFFERENCE int8 */
      tfcc_arith_q_prepare_sqdiff(q, s1, z1, s2, z2, so, zo);
      *qop = TFCC_AQ_SQDIFF;
      break;
  }
  return TFCC_OK;
}

tfcc_status tfcc_arith_prepare(tfcc_op_ctx *ctx, tfcc_arith_kind k) {
  const char *op = arith_name(k);
  tfcc_status st = tfcc_elem_check_io(ctx, op, 2, 1);
  if (st != TFCC_OK) return st;
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1];
  tfcc_tensor *o = ctx->out[0];
  TFCC_OP_CHECK(ctx, a->dtype == b->dtype, TFCC_ERR_DTYPE, "%s: input 1 dtype %s, expected %s", op,
                tfcc_dtype_name(b->dtype), tfcc_dtype_name(a->dtype));
  TFCC_OP_CHECK(ctx, o->dtype == a->dtype, TFCC_ERR_DTYPE, "%s: output dtype %s, expected %s", op,
                tfcc_dtype_name(o->dtype), tfcc_dtype_name(a->dtype));
  const tfcc_dtype dt = a->dtype;
  const bool quant = arith_quantized(k, dt);
  bool ok = quant || tfcc_ref_binary_supported(arith_binop(k), dt);
  /* TFLite's DIV has no int64 kernel. */
  if (k == TFCC_ARITH_DIV && dt == TFCC_INT64) ok = false;
  TFCC_OP_CHECK(ctx, ok, TFCC_ERR_UNSUPPORTED, "%s: dtype %s not supported", op,
                tfcc_dtype_name(dt));
  const tfcc_tensor *in[2] = {a, b};
  st = tfcc_elem_broadcast_shape(ctx, op, 2, in, o);
  if (st != TFCC_OK) return st;
  if (quant) {
    tfcc_arith_q q;
    tfcc_arith_qop qop;
    st = arith_qparams(ctx, k, &q, &qop);
    if (st != TFCC_OK) return st;
  }
  ctx->scratch_bytes = 0;
  return TFCC_OK;
}

/* Data checks TFLite makes at eval (integer division by zero, negative int32 exponents). */
static tfcc_status arith_check_data(tfcc_op_ctx *ctx, tfcc_arith_kind k, const tfcc_arith_q *q) {
  const tfcc_tensor *b = ctx->in[1];
  const int64_t n = tfcc_tensor_elements(b);
  const char *op = arith_name(k);
  if (k == TFCC_ARITH_POW && b->dtype == TFCC_INT32) {
    const int32_t *v = b->data;
    for (int64_t i = 0; i < n; i++)
      TFCC_OP_CHECK(ctx, v[i] >= 0, TFCC_ERR_RUNTIME,
                    "POW: int32 exponent %d at element %lld is negative", (int)v[i], (long long)i);
    return TFCC_OK;
  }
  bool int_div = (k == TFCC_ARITH_DIV || k == TFCC_ARITH_FLOOR_DIV || k == TFCC_ARITH_FLOOR_MOD) &&
                 b->dtype != TFCC_FLOAT32;
  if (!int_div) return TFCC_OK;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = 0;
    switch (b->dtype) {
      case TFCC_UINT8: v = ((const uint8_t *)b->data)[i]; break;
      case TFCC_INT8: v = ((const int8_t *)b->data)[i]; break;
      case TFCC_INT16: v = ((const int16_t *)b->data)[i]; break;
      case TFCC_INT32: v = ((const int32_t *)b->data)[i]; break;
      case TFCC_INT64: v = ((const int64_t *)b->data)[i]; break;
      default: break;
    }
    /* Quantized DIV divides by (value - zero point). */
    const int64_t den = q ? v + q->in2_offset : v;
    TFCC_OP_CHECK(ctx, den != 0, TFCC_ERR_RUNTIME, "%s: division by zero at input 1 element %lld",
                  op, (long long)i);
  }
  return TFCC_OK;
}

/* ref9: float POW whose exponent is one element of another shape than the base and within 1e-5
 * of an integer n >= 1: TFLite's IntegerPower (tfcc_pow_int_f32), in both modes (lead49: LiteRT
 * computes the same, float_pow_int; its delegate does not take POW); true when it ran. */
static bool pow_by_integer(tfcc_op_ctx *ctx) {
  const tfcc_arith_opts *ao = ctx->params;
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1];
  if (!ao || b->dtype != TFCC_FLOAT32 || tfcc_tensor_elements(b) != 1) return false;
  bool same = a->rank == b->rank;
  for (int32_t d = 0; same && d < a->rank; d++) same = a->dims[d] == b->dims[d];
  const float e = *(const float *)b->data, r = roundf(e);
  if (same || !(fabsf(e) < 1e9f) || !(fabsf(e - r) < 1e-5f) || r < 1.f) return false;
  const int64_t n = tfcc_tensor_elements(ctx->out[0]);
  if (n != tfcc_tensor_elements(a)) return false;
  tfcc_pow_int_f32(a->data, (int32_t)r, ctx->out[0]->data, (size_t)n);
  return true;
}

tfcc_status tfcc_arith_eval(tfcc_op_ctx *ctx, tfcc_arith_kind k) {
  const tfcc_tensor *a = ctx->in[0], *b = ctx->in[1];
  tfcc_tensor *o = ctx->out[0];
  const tfcc_dtype dt = o->dtype;
  const tfcc_tensor *in[2] = {a, b};
  tfcc_bcast bc;
  tfcc_elem_plan(&bc, 2, in, o);
  tfcc_status st;
  if (arith_quantized(k, dt)) {
    const tfcc_arith_opts *po = ctx->params;
    tfcc_arith_q q;
    tfcc_arith_qop qop;
    if (po && po->q_ready) {
      q = po->q;
      qop = po->qop;
    } else if ((st = arith_qparams(ctx, k, &q, &qop)) != TFCC_OK) {
      return st;
    }
    if (k == TFCC_ARITH_DIV && (st = arith_check_data(ctx, k, &q)) != TFCC_OK) return st;
    if (k <= TFCC_ARITH_MUL) {
      tfcc_q8_vbinary_params vp;
      const tfcc_q8_vbinary_params *vpp = po && po->q_ready && po->vp_ready ? &po->vp : NULL;
      if (!vpp && !(po && po->q_ready) && tfcc_q8_vbinary_params_init(qop, dt, &q, &vp)) vpp = &vp;
      if (vpp) {
        tfcc_q8_vbinary_run(ctx->pool, ctx->ks->q8_vbinary, vpp, &bc, a->data, b->data, o->data);
        return TFCC_OK;
      }
    }
    tfcc_q8_vbinary_params p16;
    if (ctx->ks && ctx->ks->q16_vbinary && tfcc_q16_vbinary_params_init(qop, dt, &q, &p16)) {
      tfcc_q16_vbinary_run(ctx->pool, ctx->ks->q16_vbinary, &p16, &bc, a->data, b->data, o->data);
      return TFCC_OK;
    }
    if (!tfcc_ref_arith_q(qop, dt, &bc, a->data, b->data, o->data, &q))
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s: no quantized kernel for %s",
                          arith_name(k), tfcc_dtype_name(dt));
    return TFCC_OK;
  }
  if ((st = arith_check_data(ctx, k, NULL)) != TFCC_OK) return st;
  if (k == TFCC_ARITH_POW && dt == TFCC_FLOAT32 && pow_by_integer(ctx)) return TFCC_OK;
  tfcc_binary_act act;
  const tfcc_arith_opts *ao = ctx->params;
  if (ao)
    act = ao->act; /* set at init */
  else
    tfcc_binary_act_range(TFCC_ACT_NONE, &act);
  tfcc_f32_vbinary_op fop;
  if (dt == TFCC_FLOAT32 && tfcc_f32_vbinary_op_of(arith_binop(k), &fop)) {
    const tfcc_f32_vbinary_params fp = {fop, act.f_lo, act.f_hi};
    tfcc_f32_vbinary_run(ctx->pool, ctx->ks->f32_vbinary, &fp, &bc, a->data, b->data, o->data);
    return TFCC_OK;
  }
  if (!tfcc_ref_binary(arith_binop(k), dt, &bc, a->data, b->data, o->data, &act))
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "%s: no kernel for %s", arith_name(k),
                        tfcc_dtype_name(dt));
  return TFCC_OK;
}

const char *tfcc_arith_kernel(const tfcc_op_ctx *ctx, tfcc_arith_kind k) {
  if (ctx->n_in != 2 || ctx->n_out != 1 || !ctx->in[0] || !ctx->in[1] || !ctx->out[0]) return "ref";
  const tfcc_dtype dt = ctx->out[0]->dtype;
  if (arith_quantized(k, dt)) {
    if (k > TFCC_ARITH_MUL) return "ref";
    const tfcc_arith_opts *po = ctx->params;
    tfcc_arith_q q;
    tfcc_arith_qop qop;
    tfcc_op_quiet quiet;
    if (po && po->q_ready) {
      q = po->q;
      qop = po->qop;
    } else if (arith_qparams(tfcc_op_quiet_ctx(ctx, &quiet), k, &q, &qop) != TFCC_OK) {
      return "ref";
    }
    tfcc_q8_vbinary_params vp;
    if (tfcc_q16_vbinary_params_init(qop, dt, &q, &vp)) return ctx->ks->q16_vbinary->name;
    return tfcc_q8_vbinary_params_init(qop, dt, &q, &vp) ? ctx->ks->q8_vbinary->name : "ref";
  }
  tfcc_f32_vbinary_op fop;
  if (dt == TFCC_FLOAT32 && tfcc_f32_vbinary_op_of(arith_binop(k), &fop))
    return ctx->ks->f32_vbinary->name;
  return "ref";
}

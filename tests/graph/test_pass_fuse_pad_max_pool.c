/* fuse_pad into MAX_POOL_2D (ResNet's stem: a RELU-clamped tensor padded by 1 before a VALID
 * 3x3 / 2 max pool): x -> producer -> c -> PAD -> p -> MAX_POOL_2D (VALID) -> y, in float,
 * int8, uint8 and int16. Folded, with outputs identical to the unfused graph's, when every
 * value of c is at least the pad value: the producer's fused RELU / RELU6 (a 2x2 max pool), a
 * RELU operator, or (quantized) a zero point at the type's lowest value; asymmetric and empty
 * sides. Not folded (same outputs): a producer without a clamp (the padding's 0 would win over
 * negative values), RELU_N1_TO_1, a padding of filter_h (a window of padding only), paddings
 * of filter_w together on a resizable input (an empty image would leave windows of padding
 * only), a PAD whose output feeds two operators, a SAME pool, the pass disabled. */
#include "kernels/ref/quant_util.h"
#include "pass_test_util.h"

enum {
  CASE_RELU,         /* producer pool with fused RELU */
  CASE_RELU6,        /* fused RELU6, asymmetric pads */
  CASE_RELU_OP,      /* a RELU operator writes c */
  CASE_LOWEST_ZP,    /* no clamp, but the zero point is the type's lowest (quantized only) */
  CASE_NO_CLAMP,     /* no clamp: not folded */
  CASE_RELU_N1_TO_1, /* clamps at -1: not folded */
  CASE_PAD_TOO_BIG,  /* top padding 3 with a 3-row window: not folded */
  CASE_TWO_USERS,    /* p also feeds a second pool: not folded */
  CASE_SAME,         /* the pool is SAME: not folded */
  CASE_DYN_RELU,     /* CASE_RELU, input H resizable: folded (1 + 1 padding under 3 rows) */
  CASE_DYN_RELU6,    /* CASE_RELU6, input H resizable: 2 + 1 columns of padding would leave
                        a window of padding only on an empty image: not folded */
};

#define XH 8
#define XW 9
#define XC 5
#define XN (XH * XW * XC)

static tfb_field pool_fields[6];

/* Pool2DOptions: padding (0 SAME, 1 VALID), strides, filter, fused activation. */
static const tfb_field *pool_opts(int32_t valid, int32_t s, int32_t f, int32_t act) {
  static int32_t v[6];
  v[0] = valid, v[1] = v[2] = s, v[3] = v[4] = f, v[5] = act;
  for (int k = 0; k < 6; k++)
    pool_fields[k] = (tfb_field){k, k == 0 || k == 5 ? TFB_U8 : TFB_I32, v[k], 0, NULL, 0, NULL};
  return pool_fields;
}

/* The pads of PAD (top, bottom, left, right) a case uses. */
static void case_pads(int kase, int32_t pads[8]) {
  static const int32_t sym[8] = {0, 0, 1, 1, 1, 1, 0, 0}, asym[8] = {0, 0, 0, 2, 2, 1, 0, 0},
                       big[8] = {0, 0, 3, 0, 1, 1, 0, 0};
  memcpy(pads,
         kase == CASE_RELU6 || kase == CASE_DYN_RELU6 ? asym
         : kase == CASE_PAD_TOO_BIG                   ? big
                                                      : sym,
         8 * sizeof *pads);
}

static int32_t lowest_zp(tfcc_dtype dt) {
  return dt == TFCC_UINT8 ? 0 : dt == TFCC_INT8 ? -128 : dt == TFCC_INT16 ? -32768 : 0;
}

/* The producer's fused activation in a case. */
static int32_t producer_act(int kase) {
  switch (kase) {
    case CASE_RELU6:
    case CASE_DYN_RELU6: return TFCC_ACT_RELU6;
    case CASE_RELU_N1_TO_1: return TFCC_ACT_RELU_N1_TO_1;
    case CASE_RELU_OP:
    case CASE_LOWEST_ZP:
    case CASE_NO_CLAMP: return TFCC_ACT_NONE;
    default: return TFCC_ACT_RELU;
  }
}

/* Tensors: 0 x [1,8,9,5], 1 c [1,7,8,5], 2 pads, 3 p, 4 y, 5 y2 (CASE_TWO_USERS). The producer
 * is a 2x2 / 1 VALID max pool (fused activation per case), or a RELU (CASE_RELU_OP). Returns
 * y's element count. */
static int build(ptu *p, int kase, tfcc_dtype dt) {
  const int32_t XD[4] = {1, XH, XW, XC}, CD[4] = {1, XH - 1, XW - 1, XC};
  int32_t pads[8];
  case_pads(kase, pads);
  const int32_t ph = CD[1] + pads[2] + pads[3], pw = CD[2] + pads[4] + pads[5];
  const int32_t PD[4] = {1, ph, pw, XC};
  const bool same = kase == CASE_SAME;
  const int32_t YD[4] = {1, same ? (ph + 1) / 2 : (ph - 3) / 2 + 1,
                         same ? (pw + 1) / 2 : (pw - 3) / 2 + 1, XC};
  const bool two = kase == CASE_TWO_USERS;
  ptu_begin(p, two ? 6 : 5, two ? 4 : 3);
  const bool relu_op = kase == CASE_RELU_OP;
  const int32_t act = producer_act(kase);
  ptu_tensor(p, 0, dt, 4, XD, NULL);
  ptu_tensor(p, 1, dt, 4, relu_op ? XD : CD, NULL);
  ptu_tensor(p, 2, TFCC_INT32, 2, (int32_t[]){4, 2}, pads);
  int32_t pd_relu[4] = {1, XH + pads[2] + pads[3], XW + pads[4] + pads[5], XC};
  ptu_tensor(p, 3, dt, 4, relu_op ? pd_relu : PD, NULL);
  int32_t yd_relu[4] = {1, (pd_relu[1] - 3) / 2 + 1, (pd_relu[2] - 3) / 2 + 1, XC};
  ptu_tensor(p, 4, dt, 4, relu_op ? yd_relu : YD, NULL);
  if (two) ptu_tensor(p, 5, dt, 4, YD, NULL);
  if (dt != TFCC_FLOAT32) {
    const int32_t zp = kase == CASE_LOWEST_ZP ? lowest_zp(dt)
                       : dt == TFCC_INT16     ? 0
                       : dt == TFCC_UINT8     ? 120
                                              : -5;
    for (int32_t t = 0; t < (two ? 6 : 5); t++)
      if (t != 2) ptu_quant(p, t, dt == TFCC_INT16 ? 1.0f / 4096 : 0.03f, zp);
  }
  if (relu_op)
    ptu_node(p, 0, TFCC_OP_RELU, 1, (int32_t[]){0}, 1, (int32_t[]){1}, 0, NULL, 0);
  else
    ptu_node(p, 0, TFCC_OP_MAX_POOL_2D, 1, (int32_t[]){0}, 1, (int32_t[]){1}, 5,
             pool_opts(1, 1, 2, act), 6);
  ptu_node(p, 1, TFCC_OP_PAD, 2, (int32_t[]){1, 2}, 1, (int32_t[]){3}, 0, NULL, 0);
  ptu_node(p, 2, TFCC_OP_MAX_POOL_2D, 1, (int32_t[]){3}, 1, (int32_t[]){4}, 5,
           pool_opts(same ? 0 : 1, 2, 3, TFCC_ACT_NONE), 6);
  if (two) {
    ptu_node(p, 3, TFCC_OP_MAX_POOL_2D, 1, (int32_t[]){3}, 1, (int32_t[]){5}, 5,
             pool_opts(1, 2, 3, TFCC_ACT_NONE), 6);
    ptu_io(p, 1, (int32_t[]){0}, 2, (int32_t[]){4, 5});
  } else {
    ptu_io(p, 1, (int32_t[]){0}, 1, (int32_t[]){4});
  }
  if (kase == CASE_DYN_RELU || kase == CASE_DYN_RELU6) p->sg->tensors[0].signature[1] = -1;
  const int32_t *y = relu_op ? yd_relu : YD;
  return y[0] * y[1] * y[2] * y[3];
}

/* Runs a case with the passes but `disabled` and with none; checks the outputs are the same
 * bytes and returns the live nodes after the passes. */
static int check(int kase, tfcc_dtype dt, uint32_t disabled) {
  float xf[XN];
  /* mostly negative: the 2x2 maxima of the producer are still negative in most windows along
   * the border, where a padding of 0 would win */
  ptu_fill(xf, XN, 41, -2, 0.25f);
  int16_t x16[XN];
  int8_t x8[XN];
  uint8_t xu[XN];
  for (int i = 0; i < XN; i++) {
    x16[i] = (int16_t)(xf[i] * 4096);
    x8[i] = (int8_t)(xf[i] * 60);
    xu[i] = (uint8_t)(kase == CASE_LOWEST_ZP ? (int)((xf[i] + 2) * 60) : 120 + (int)(xf[i] * 60));
  }
  if (kase == CASE_LOWEST_ZP && dt == TFCC_INT8)
    for (int i = 0; i < XN; i++) x8[i] = (int8_t)(-128 + (int)((xf[i] + 2) * 60));
  if (kase == CASE_LOWEST_ZP && dt == TFCC_INT16)
    for (int i = 0; i < XN; i++) x16[i] = (int16_t)(-32768 + (int)((xf[i] + 2) * 16000));
  const void *in[1] = {dt == TFCC_FLOAT32 ? (const void *)xf
                       : dt == TFCC_INT16 ? (const void *)x16
                       : dt == TFCC_UINT8 ? (const void *)xu
                                          : (const void *)x8};
  float on[2][XN], off[2][XN];
  memset(on, 0, sizeof on);
  memset(off, 0, sizeof off);
  ptu a, b;
  const int n = build(&a, kase, dt);
  ptu_passes(&a, disabled);
  const int live = a.n_live;
  const tfcc_ir_node *pool = &a.sg->nodes[2];
  if (!a.sg->nodes[1].removed)
    CHECKF(pool->opts.pool.padding != TFCC_PAD_EXPLICIT, "case %d: explicit, PAD kept", kase);
  else
    CHECKF(pool->opts.pool.padding == TFCC_PAD_EXPLICIT && pool->inputs[0] == 1,
           "case %d %s: PAD removed, pool not padded", kase, tfcc_dtype_name(dt));
  ptu_eval(&a, in, (void *[]){on[0], on[1]});
  ptu_end(&a);
  build(&b, kase, dt);
  ptu_passes(&b, TFCC_PASS_ALL);
  ptu_eval(&b, in, (void *[]){off[0], off[1]});
  ptu_end(&b);
  const size_t bytes = (size_t)n * tfcc_dtype_size(dt);
  CHECKF(memcmp(on[0], off[0], bytes) == 0 && memcmp(on[1], off[1], bytes) == 0,
         "case %d %s: outputs differ", kase, tfcc_dtype_name(dt));
  return live;
}

int main(void) {
  static const tfcc_dtype dts[4] = {TFCC_FLOAT32, TFCC_INT8, TFCC_UINT8, TFCC_INT16};
  for (int d = 0; d < 4; d++) {
    const tfcc_dtype dt = dts[d];
    CHECKF(check(CASE_RELU, dt, 0) == 2, "%s: RELU not folded", tfcc_dtype_name(dt));
    CHECKF(check(CASE_RELU6, dt, 0) == 2, "%s: RELU6 not folded", tfcc_dtype_name(dt));
    if (dt != TFCC_INT16) /* the 8-bit and float RELU operators */
      CHECKF(check(CASE_RELU_OP, dt, 0) == 2, "%s: RELU op not folded", tfcc_dtype_name(dt));
    if (dt != TFCC_FLOAT32)
      CHECKF(check(CASE_LOWEST_ZP, dt, 0) == 2, "%s: lowest zp not folded", tfcc_dtype_name(dt));
    CHECKF(check(CASE_NO_CLAMP, dt, 0) == 3, "%s: folded, no clamp", tfcc_dtype_name(dt));
    CHECKF(check(CASE_RELU_N1_TO_1, dt, 0) == 3, "%s: folded, RELU_N1_TO_1", tfcc_dtype_name(dt));
    CHECKF(check(CASE_PAD_TOO_BIG, dt, 0) == 3, "%s: folded, pad 3", tfcc_dtype_name(dt));
    CHECKF(check(CASE_TWO_USERS, dt, 0) == 4, "%s: folded, two users", tfcc_dtype_name(dt));
    CHECKF(check(CASE_SAME, dt, 0) == 3, "%s: folded into SAME", tfcc_dtype_name(dt));
    CHECKF(check(CASE_DYN_RELU, dt, 0) == 2, "%s: resizable, not folded", tfcc_dtype_name(dt));
    CHECKF(check(CASE_DYN_RELU6, dt, 0) == 3, "%s: resizable, folded", tfcc_dtype_name(dt));
    CHECKF(check(CASE_RELU, dt, TFCC_PASS_FUSE_PAD) == 3, "%s: folded, pass off",
           tfcc_dtype_name(dt));
  }
  return tfcc_test_finish("pass_fuse_pad_max_pool");
}

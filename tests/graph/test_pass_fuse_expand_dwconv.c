/* fuse_expand_dwconv: x -> 1x1 CONV_2D (RELU6) -> t -> DEPTHWISE_CONV_2D 3x3 -> y becomes one
 * EXPAND_DEPTHWISE_CONV_2D node with the same outputs as the unfused graph (bit-identical: the
 * fused kernel runs the same GEMM and depthwise kernels), the expanded tensor gone from the
 * memory plan (the arena no larger: the window of these small images is the whole expanded
 * tensor; MobileNetV2's arena halves, see docs/passes.md); also after fuse_pad (explicit padding) and at stride 2 / 5x5,
 * and an int8 pair (the options then name the expanded tensor for its quantization), and hybrid
 * pairs (float32 x, int8 expand filter, float depthwise filter; TFLITE mode: XNNPACK's qd8 1x1
 * and its float depthwise order, in strips: kernels/hybrid/expand_dw.h), also at stride 2 / 5x5
 * and after fuse_pad; not a hybrid expand whose depthwise has int8 weights.
 * Not fused: t read by another node too, t a graph output, non-constant expand weights, a
 * 1x1 conv of stride 2, a dilated depthwise, a depth multiplier of 2,
 * a 3x3 (not 1x1) first conv, the pass disabled. */
#include "kernels/ref/quant_util.h"
#include "pass_test_util.h"

enum {
  CASE_FUSE,
  CASE_FUSE_S2_K5,
  CASE_FUSE_AFTER_PAD,
  CASE_OTHER_READER,
  CASE_GRAPH_OUTPUT,
  CASE_NONCONST_WEIGHTS,
  CASE_INT8,
  CASE_CONV_STRIDE2,
  CASE_DW_DILATED,
  CASE_DW_MULT2,
  CASE_CONV_3X3,
  CASE_HYBRID,
  CASE_HYBRID_S2_K5,
  CASE_HYBRID_AFTER_PAD,
  CASE_HYBRID_DW_INT8,
};

#define H 9
#define W 7
#define CIN 5
#define CE 12

/* Tensors: 0 x, 1 w1, 2 b1, 3 t, 4 w2, 5 b2, 6 y, 7 z (second reader's output / pad out),
 * 8 pads. Returns y's element count. */
static int build(ptu *p, int kase) {
  const bool hyb = kase >= CASE_HYBRID, hyb_dw8 = kase == CASE_HYBRID_DW_INT8;
  const bool q = kase == CASE_INT8, mult2 = kase == CASE_DW_MULT2;
  const bool s2 = kase == CASE_FUSE_S2_K5 || kase == CASE_HYBRID_S2_K5;
  const int k = s2 ? 5 : 3, stride = s2 ? 2 : 1, cs = kase == CASE_CONV_STRIDE2 ? 2 : 1;
  const int k1 = kase == CASE_CONV_3X3 ? 3 : 1;
  const int th = (H + cs - 1) / cs, tw = (W + cs - 1) / cs;
  const int cdw = mult2 ? 2 * CE : CE;
  int32_t yd[4] = {1, (th + stride - 1) / stride, (tw + stride - 1) / stride, cdw};
  const bool pad = kase == CASE_FUSE_AFTER_PAD || kase == CASE_HYBRID_AFTER_PAD;
  if (pad) { /* PAD 1,1 / 2,0 then VALID */
    yd[1] = th + 2 - k + 1;
    yd[2] = tw + 2 - k + 1;
  }
  const int extra = kase == CASE_OTHER_READER || pad;
  ptu_begin(p, 9, 2 + extra);
  const tfcc_dtype dt = q ? TFCC_INT8 : TFCC_FLOAT32;
  float w1[CE * CIN * 9], b1[CE], w2[25 * 2 * CE], b2[2 * CE];
  ptu_fill(w1, CE * CIN * 9, 1, -1, 1);
  ptu_fill(b1, CE, 2, -1, 1);
  ptu_fill(w2, 25 * 2 * CE, 3, -1, 1);
  ptu_fill(b2, 2 * CE, 4, -1, 1);
  ptu_tensor(p, 0, dt, 4, (int32_t[]){1, H, W, CIN}, NULL);
  ptu_tensor(p, 3, dt, 4, (int32_t[]){1, th, tw, CE}, NULL);
  ptu_tensor(p, 6, dt, 4, yd, NULL);
  if (q) {
    int8_t w1q[CE * CIN], w2q[9 * CE];
    int32_t b1q[CE], b2q[CE];
    for (int i = 0; i < CE * CIN; i++) w1q[i] = (int8_t)(w1[i] * 100);
    for (int i = 0; i < 9 * CE; i++) w2q[i] = (int8_t)(w2[i] * 100);
    for (int i = 0; i < CE; i++) b1q[i] = (int32_t)(b1[i] * 1000), b2q[i] = (int32_t)(b2[i] * 1000);
    ptu_tensor(p, 1, TFCC_INT8, 4, (int32_t[]){CE, 1, 1, CIN}, w1q);
    ptu_tensor(p, 2, TFCC_INT32, 1, (int32_t[]){CE}, b1q);
    ptu_tensor(p, 4, TFCC_INT8, 4, (int32_t[]){1, 3, 3, CE}, w2q);
    ptu_tensor(p, 5, TFCC_INT32, 1, (int32_t[]){CE}, b2q);
    ptu_quant(p, 0, 0.05f, 3);
    ptu_quant(p, 1, 0.01f, 0);
    ptu_quant(p, 2, 0.0005f, 0);
    ptu_quant(p, 3, 0.04f, -10);
    ptu_quant(p, 4, 0.01f, 0);
    ptu_quant(p, 5, 0.0004f, 0);
    ptu_quant(p, 6, 0.06f, 2);
  } else if (hyb) { /* float32 activations, int8 expand weights (per tensor, zero point 0) */
    int8_t w1q[CE * CIN], w2q[9 * CE];
    for (int i = 0; i < CE * CIN; i++) w1q[i] = (int8_t)(w1[i] * 127);
    for (int i = 0; i < 9 * CE; i++) w2q[i] = (int8_t)(w2[i] * 127);
    ptu_tensor(p, 1, TFCC_INT8, 4, (int32_t[]){CE, 1, 1, CIN}, w1q);
    ptu_quant(p, 1, 0.013f, 0);
    ptu_tensor(p, 2, dt, 1, (int32_t[]){CE}, b1);
    if (hyb_dw8) {
      ptu_tensor(p, 4, TFCC_INT8, 4, (int32_t[]){1, k, k, cdw}, w2q);
      ptu_quant(p, 4, 0.011f, 0);
    } else {
      ptu_tensor(p, 4, dt, 4, (int32_t[]){1, k, k, cdw}, w2);
    }
    ptu_tensor(p, 5, dt, 1, (int32_t[]){cdw}, b2);
  } else {
    ptu_tensor(p, 1, dt, 4, (int32_t[]){CE, k1, k1, CIN},
               kase == CASE_NONCONST_WEIGHTS ? NULL : w1);
    ptu_tensor(p, 2, dt, 1, (int32_t[]){CE}, b1);
    ptu_tensor(p, 4, dt, 4, (int32_t[]){1, k, k, cdw}, w2);
    ptu_tensor(p, 5, dt, 1, (int32_t[]){cdw}, b2);
  }
  /* Conv2DOptions: padding SAME, strides, RELU6 */
  const tfb_field conv_opts[] = {{0, TFB_U8, 0, 0, NULL, 0, NULL},
                                 {1, TFB_I32, cs, 0, NULL, 0, NULL},
                                 {2, TFB_I32, cs, 0, NULL, 0, NULL},
                                 {3, TFB_U8, 3, 0, NULL, 0, NULL}};
  /* DepthwiseConv2DOptions: padding, strides, multiplier, RELU, dilation */
  const int dil = kase == CASE_DW_DILATED ? 2 : 1;
  const tfb_field dw_opts[] = {
      {0, TFB_U8, pad ? 1 : 0, 0, NULL, 0, NULL}, {1, TFB_I32, stride, 0, NULL, 0, NULL},
      {2, TFB_I32, stride, 0, NULL, 0, NULL},     {3, TFB_I32, mult2 ? 2 : 1, 0, NULL, 0, NULL},
      {4, TFB_U8, 1, 0, NULL, 0, NULL},           {5, TFB_I32, dil, 0, NULL, 0, NULL},
      {6, TFB_I32, dil, 0, NULL, 0, NULL}};
  ptu_node(p, 0, TFCC_OP_CONV_2D, 3, (int32_t[]){0, 1, 2}, 1, (int32_t[]){3}, 1, conv_opts, 4);
  int32_t dw_in = 3, ni = 1;
  if (pad) {
    static const int32_t pads[8] = {0, 0, 1, 1, 2, 0, 0, 0};
    ptu_tensor(p, 8, TFCC_INT32, 2, (int32_t[]){4, 2}, pads);
    ptu_tensor(p, 7, dt, 4, (int32_t[]){1, th + 2, tw + 2, CE}, NULL);
    ptu_node(p, ni++, TFCC_OP_PAD, 2, (int32_t[]){3, 8}, 1, (int32_t[]){7}, 0, NULL, 0);
    dw_in = 7;
  }
  ptu_node(p, ni++, TFCC_OP_DEPTHWISE_CONV_2D, 3, (int32_t[]){dw_in, 4, 5}, 1, (int32_t[]){6}, 2,
           dw_opts, 7);
  if (kase == CASE_OTHER_READER) {
    ptu_tensor(p, 7, dt, 4, (int32_t[]){1, th, tw, CE}, NULL);
    ptu_node(p, ni++, TFCC_OP_RELU, 1, (int32_t[]){3}, 1, (int32_t[]){7}, 0, NULL, 0);
  }
  const int n_in = kase == CASE_NONCONST_WEIGHTS ? 2 : 1;
  if (kase == CASE_OTHER_READER)
    ptu_io(p, n_in, (int32_t[]){0, 1}, 2, (int32_t[]){6, 7});
  else if (kase == CASE_GRAPH_OUTPUT)
    ptu_io(p, n_in, (int32_t[]){0, 1}, 2, (int32_t[]){6, 3});
  else
    ptu_io(p, n_in, (int32_t[]){0, 1}, 1, (int32_t[]){6});
  return yd[0] * yd[1] * yd[2] * yd[3];
}

/* Runs kase with the passes in `disabled` off and with all off; returns the fused node count. */
static int check(int kase, uint32_t disabled) {
  float xf[H * W * CIN], w1[CE * CIN * 9];
  int8_t xq[H * W * CIN];
  ptu_fill(xf, H * W * CIN, 9, -2, 2);
  ptu_fill(w1, CE * CIN * 9, 1, -1, 1);
  for (int i = 0; i < H * W * CIN; i++) xq[i] = (int8_t)(xf[i] * 50);
  const void *in[2] = {kase == CASE_INT8 ? (const void *)xq : (const void *)xf, w1};
  float on[2][1200], off[2][1200];
  memset(on, 0, sizeof on);
  memset(off, 0, sizeof off);
  ptu a, b;
  const int n = build(&a, kase);
  ptu_passes(&a, disabled);
  int fused = 0;
  for (int32_t i = 0; i < a.sg->n_nodes; i++)
    if (!a.sg->nodes[i].removed && a.sg->nodes[i].builtin == TFCC_OP_EXPAND_DEPTHWISE_CONV_2D) {
      fused++;
      CHECK(a.sg->nodes[i].n_inputs == 5 && a.sg->nodes[i].inputs[0] == 0 &&
            a.sg->nodes[i].opts.kind == TFCC_OPTIONS_EXPAND_DWCONV &&
            a.sg->nodes[i].opts.expand_dwconv.expand_activation == TFCC_ACT_RELU6 &&
            a.sg->nodes[i].opts.expand_dwconv.mid == (kase == CASE_INT8 ? 3 : -1));
      if (kase >= CASE_HYBRID)
        CHECK(a.sg->nodes[i].params == NULL); /* initialised by ptu_eval below */
    }
  ptu_eval(&a, in, (void *[]){on[0], on[1]});
  const size_t arena_on = a.arena_bytes;
  ptu_end(&a);
  build(&b, kase);
  ptu_passes(&b, TFCC_PASS_ALL);
  ptu_eval(&b, in, (void *[]){off[0], off[1]});
  const size_t arena_off = b.arena_bytes;
  ptu_end(&b);
  CHECKF(memcmp(on[0], off[0], (size_t)n * (kase == CASE_INT8 ? 1 : 4)) == 0,
         "case %d: outputs differ", kase);
  if (fused)
    CHECKF(arena_on <= arena_off, "case %d: arena %zu, unfused %zu", kase, arena_on, arena_off);
  return fused;
}

int main(void) {
  CHECK(check(CASE_FUSE, 0) == 1);
  CHECK(check(CASE_FUSE_S2_K5, 0) == 1);
  CHECK(check(CASE_FUSE_AFTER_PAD, 0) == 1);
  CHECK(check(CASE_FUSE, TFCC_PASS_FUSE_EXPAND_DWCONV) == 0);
  CHECK(check(CASE_OTHER_READER, 0) == 0);
  CHECK(check(CASE_GRAPH_OUTPUT, 0) == 0);
  CHECK(check(CASE_NONCONST_WEIGHTS, 0) == 0);
  CHECK(check(CASE_INT8, 0) == 1); /* int8 pairs too (q8-expand-dw), the same bytes */
  CHECK(check(CASE_CONV_STRIDE2, 0) == 0);
  CHECK(check(CASE_DW_DILATED, 0) == 0);
  CHECK(check(CASE_DW_MULT2, 0) == 0);
  CHECK(check(CASE_CONV_3X3, 0) == 0);
  /* hybrid pairs: the same bytes as the unfused hybrid CONV_2D and XNNPACK-order depthwise */
  CHECK(check(CASE_HYBRID, 0) == 1);
  CHECK(check(CASE_HYBRID_S2_K5, 0) == 1);
  CHECK(check(CASE_HYBRID_AFTER_PAD, 0) == 1);
  CHECK(check(CASE_HYBRID, TFCC_PASS_FUSE_EXPAND_DWCONV) == 0);
  CHECK(check(CASE_HYBRID_DW_INT8, 0) == 0); /* its input quantized per image: apart */
  return tfcc_test_finish("pass_fuse_expand_dwconv");
}

/* fuse_pad: PAD (and PADV2 with the default value) on H/W before a VALID CONV_2D or
 * DEPTHWISE_CONV_2D becomes the conv's explicit padding, asymmetric and strided, float, int8
 * (per-channel weights) and uint8 (per-tensor weights with a zero point) with non-zero input
 * zero points, with identical outputs (quantized: the padded taps read the input zero point,
 * through the q8 GEMM's im2col). Not fused: a SAME conv, padding of
 * the channel axis, a PADV2 value other than the zero point, the pass disabled. */
#include "pass_test_util.h"

static const tfb_field k_conv_valid_s2[] = {{0, TFB_U8, 1, 0, NULL, 0, NULL},
                                            {1, TFB_I32, 2, 0, NULL, 0, NULL},
                                            {2, TFB_I32, 1, 0, NULL, 0, NULL}};
static const tfb_field k_conv_same[] = {{0, TFB_U8, 0, 0, NULL, 0, NULL},
                                        {1, TFB_I32, 1, 0, NULL, 0, NULL},
                                        {2, TFB_I32, 1, 0, NULL, 0, NULL}};
static const tfb_field k_dw_valid[] = {{0, TFB_U8, 1, 0, NULL, 0, NULL},
                                       {1, TFB_I32, 1, 0, NULL, 0, NULL},
                                       {2, TFB_I32, 2, 0, NULL, 0, NULL},
                                       {3, TFB_I32, 1, 0, NULL, 0, NULL}};

enum { CASE_CONV, CASE_DW, CASE_CONV_SAME, CASE_PAD_CHANNELS, CASE_PADV2_ZERO, CASE_PADV2_OTHER };

/* x [1,6,5,3] -> PAD -> p -> conv (3x3, 3 channels out) -> y. Tensors: 0 x, 1 pads, 2 p, 3 w,
 * 4 b, 5 y, 6 padv2 value. Returns y's element count. */
/* The padding in a CONV_2D's or DEPTHWISE_CONV_2D's options. */
static int32_t padding_of_node(const tfcc_ir_node *n) {
  return n->opts.kind == TFCC_OPTIONS_CONV_2D ? n->opts.conv.padding : n->opts.depthwise.padding;
}

static int build(ptu *p, int kase, tfcc_dtype dt) {
  static const int32_t XD[4] = {1, 6, 5, 3};
  int32_t pads[8] = {0, 0, 1, 2, 2, 0, 0, 0};
  if (kase == CASE_PAD_CHANNELS) pads[7] = 1;
  int32_t pd[4] = {1, 6 + pads[2] + pads[3], 5 + pads[4] + pads[5], 3 + pads[6] + pads[7]};
  bool dw = kase == CASE_DW;
  int32_t yd[4];
  if (kase == CASE_CONV_SAME) {
    yd[0] = 1;
    yd[1] = pd[1];
    yd[2] = pd[2];
    yd[3] = 3;
  } else if (dw) {
    yd[0] = 1;
    yd[1] = (pd[1] - 3) / 1 + 1;
    yd[2] = (pd[2] - 3) / 2 + 1;
    yd[3] = 3;
  } else {
    yd[0] = 1;
    yd[1] = (pd[1] - 3) / 1 + 1;
    yd[2] = (pd[2] - 3) / 2 + 1;
    yd[3] = 3;
  }
  ptu_begin(p, 7, 2);
  int32_t cin = pd[3];
  float wf[108], bf[3];
  ptu_fill(wf, 108, 31, -1, 1);
  ptu_fill(bf, 3, 32, -1, 1);
  ptu_tensor(p, 0, dt, 4, XD, NULL);
  ptu_tensor(p, 1, TFCC_INT32, 2, (int32_t[]){4, 2}, pads);
  ptu_tensor(p, 2, dt, 4, pd, NULL);
  int32_t wd[4] = {3, 3, 3, cin};
  if (dw) {
    wd[0] = 1;
    wd[3] = 3;
  }
  ptu_tensor(p, 5, dt, 4, yd, NULL);
  if (dt == TFCC_FLOAT32) {
    ptu_tensor(p, 3, dt, 4, wd, wf);
    ptu_tensor(p, 4, dt, 1, (int32_t[]){3}, bf);
    float v = kase == CASE_PADV2_OTHER ? 0.5f : 0.0f;
    ptu_tensor(p, 6, dt, 0, NULL, &v);
  } else if (dt == TFCC_UINT8) {
    uint8_t wq[108];
    int32_t bq[3] = {100, -50, 7};
    for (int i = 0; i < 108; i++) wq[i] = (uint8_t)(120 + (int)(wf[i] * 120));
    ptu_tensor(p, 3, TFCC_UINT8, 4, wd, wq);
    ptu_tensor(p, 4, TFCC_INT32, 1, (int32_t[]){3}, bq);
    ptu_quant(p, 0, 0.05f, 130);
    ptu_quant(p, 2, 0.05f, 130);
    ptu_quant(p, 3, 0.01f, 120);
    ptu_quant(p, 4, 0.05f * 0.01f, 0);
    ptu_quant(p, 5, 0.08f, 100);
    uint8_t v = kase == CASE_PADV2_OTHER ? 0 : 130;
    ptu_tensor(p, 6, dt, 0, NULL, &v);
    ptu_quant(p, 6, 0.05f, 130);
  } else {
    int8_t wq[108];
    int32_t bq[3] = {100, -50, 7};
    for (int i = 0; i < 108; i++) wq[i] = (int8_t)(wf[i] * 127);
    ptu_tensor(p, 3, TFCC_INT8, 4, wd, wq);
    ptu_tensor(p, 4, TFCC_INT32, 1, (int32_t[]){3}, bq);
    float ws[3] = {0.01f, 0.02f, 0.015f}, bs[3];
    for (int i = 0; i < 3; i++) bs[i] = 0.05f * ws[i];
    ptu_quant(p, 0, 0.05f, -7);
    ptu_quant(p, 2, 0.05f, -7);
    ptu_quant_axis(p, 3, dw ? 3 : 0, 3, ws);
    ptu_quant_axis(p, 4, 0, 3, bs);
    ptu_quant(p, 5, 0.08f, 3);
    int8_t v = kase == CASE_PADV2_OTHER ? 0 : -7;
    ptu_tensor(p, 6, dt, 0, NULL, &v);
    ptu_quant(p, 6, 0.05f, -7);
  }
  if (kase == CASE_PADV2_ZERO || kase == CASE_PADV2_OTHER)
    ptu_node(p, 0, TFCC_OP_PADV2, 3, (int32_t[]){0, 1, 6}, 1, (int32_t[]){2}, 0, NULL, 0);
  else
    ptu_node(p, 0, TFCC_OP_PAD, 2, (int32_t[]){0, 1}, 1, (int32_t[]){2}, 0, NULL, 0);
  if (dw)
    ptu_node(p, 1, TFCC_OP_DEPTHWISE_CONV_2D, 3, (int32_t[]){2, 3, 4}, 1, (int32_t[]){5}, 2,
             k_dw_valid, 4);
  else
    ptu_node(p, 1, TFCC_OP_CONV_2D, 3, (int32_t[]){2, 3, 4}, 1, (int32_t[]){5}, 1,
             kase == CASE_CONV_SAME ? k_conv_same : k_conv_valid_s2, 3);
  ptu_io(p, 1, (int32_t[]){0}, 1, (int32_t[]){5});
  return yd[0] * yd[1] * yd[2] * yd[3];
}

static int check(int kase, tfcc_dtype dt, uint32_t disabled) {
  float xf[90];
  int8_t xq[90];
  ptu_fill(xf, 90, 33, -2, 2);
  uint8_t xu[90];
  for (int i = 0; i < 90; i++) xq[i] = (int8_t)(xf[i] * 60);
  for (int i = 0; i < 90; i++) xu[i] = (uint8_t)(130 + (int)(xf[i] * 60));
  const void *in[1] = {dt == TFCC_FLOAT32 ? (const void *)xf
                       : dt == TFCC_UINT8 ? (const void *)xu
                                          : (const void *)xq};
  float on[400], off[400];
  memset(on, 0, sizeof on);
  memset(off, 0, sizeof off);
  ptu a, b;
  int n = build(&a, kase, dt);
  ptu_passes(&a, disabled);
  int live = a.n_live;
  if (live == 1)
    CHECK(padding_of_node(&a.sg->nodes[1]) == TFCC_PAD_EXPLICIT && a.sg->nodes[1].inputs[0] == 0);
  ptu_eval(&a, in, (void *[]){on});
  ptu_end(&a);
  build(&b, kase, dt);
  ptu_passes(&b, TFCC_PASS_ALL);
  ptu_eval(&b, in, (void *[]){off});
  ptu_end(&b);
  CHECKF(memcmp(on, off, (size_t)n * tfcc_dtype_size(dt)) == 0, "case %d %s: outputs differ", kase,
         tfcc_dtype_name(dt));
  return live;
}

int main(void) {
  for (int q = 0; q < 3; q++) {
    tfcc_dtype dt = q == 2 ? TFCC_UINT8 : q ? TFCC_INT8 : TFCC_FLOAT32;
    CHECK(check(CASE_CONV, dt, 0) == 1);
    CHECK(check(CASE_DW, dt, 0) == 1);
    CHECK(check(CASE_PADV2_ZERO, dt, 0) == 1);
    CHECK(check(CASE_PADV2_OTHER, dt, 0) == 2);
    CHECK(check(CASE_CONV_SAME, dt, 0) == 2);
    CHECK(check(CASE_CONV, dt, TFCC_PASS_FUSE_PAD) == 2);
  }
  CHECK(check(CASE_PAD_CHANNELS, TFCC_FLOAT32, 0) == 2);
  return tfcc_test_finish("pass_fuse_pad");
}

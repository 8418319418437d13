/* fuse_activation: RELU / RELU6 / RELU_N1_TO_1 after CONV_2D (float, int8) and ADD become the
 * producer's fused activation, with identical outputs; not when the producer's output has
 * another reader, when the activation requantizes, or when the pass is disabled. */
#include "pass_test_util.h"

enum { X, W, B, T, Y, NT };
static const int32_t XD[4] = {1, 5, 5, 3}, WD[4] = {4, 3, 3, 3}, BD[1] = {4}, YD[4] = {1, 5, 5, 4};

static const tfb_field k_conv_same[] = {{0, TFB_U8, 0, 0, NULL, 0, NULL},
                                        {1, TFB_I32, 1, 0, NULL, 0, NULL},
                                        {2, TFB_I32, 1, 0, NULL, 0, NULL},
                                        {3, TFB_U8, 0, 0, NULL, 0, NULL}};

/* x -> CONV_2D -> t -> act -> y (t also a graph output when t_is_output). */
static void build_conv(ptu *p, tfcc_dtype dt, int32_t act_op, bool t_is_output, bool requant) {
  ptu_begin(p, NT, 2);
  float wf[108], bf[4];
  ptu_fill(wf, 108, 1, -1, 1);
  ptu_fill(bf, 4, 2, -0.5f, 0.5f);
  ptu_tensor(p, X, dt, 4, XD, NULL);
  if (dt == TFCC_FLOAT32) {
    ptu_tensor(p, W, dt, 4, WD, wf);
    ptu_tensor(p, B, dt, 1, BD, bf);
  } else {
    int8_t wq[108];
    int32_t bq[4];
    for (int i = 0; i < 108; i++) wq[i] = (int8_t)(wf[i] * 127);
    for (int i = 0; i < 4; i++) bq[i] = (int32_t)(bf[i] * 4000);
    ptu_tensor(p, W, TFCC_INT8, 4, WD, wq);
    ptu_tensor(p, B, TFCC_INT32, 1, BD, bq);
    float ws[4] = {0.01f, 0.02f, 0.015f, 0.012f}, bs[4];
    for (int i = 0; i < 4; i++) bs[i] = 0.05f * ws[i];
    ptu_quant(p, X, 0.05f, -3);
    ptu_quant_axis(p, W, 0, 4, ws);
    ptu_quant_axis(p, B, 0, 4, bs);
    ptu_quant(p, T, 0.1f, 5);
    ptu_quant(p, Y, requant ? 0.11f : 0.1f, 5);
  }
  ptu_tensor(p, T, dt, 4, YD, NULL);
  ptu_tensor(p, Y, dt, 4, YD, NULL);
  ptu_node(p, 0, TFCC_OP_CONV_2D, 3, (int32_t[]){X, W, B}, 1, (int32_t[]){T}, 1, k_conv_same, 4);
  ptu_node(p, 1, act_op, 1, (int32_t[]){T}, 1, (int32_t[]){Y}, 0, NULL, 0);
  if (t_is_output)
    ptu_io(p, 1, (int32_t[]){X}, 2, (int32_t[]){Y, T});
  else
    ptu_io(p, 1, (int32_t[]){X}, 1, (int32_t[]){Y});
}

/* Builds twice, with and without the pass; returns the live node count with it. */
static int check_conv(tfcc_dtype dt, int32_t act_op, bool t_is_output, bool requant,
                      uint32_t disabled) {
  size_t es = tfcc_dtype_size(dt);
  float xf[75];
  int8_t xq[75];
  ptu_fill(xf, 75, 3, -2, 2);
  for (int i = 0; i < 75; i++) xq[i] = (int8_t)(xf[i] * 60);
  const void *in[1] = {dt == TFCC_FLOAT32 ? (const void *)xf : (const void *)xq};
  uint8_t y_on[400], t_on[400], y_off[400], t_off[400];
  void *out_on[2] = {y_on, t_on}, *out_off[2] = {y_off, t_off};
  ptu a, b;
  build_conv(&a, dt, act_op, t_is_output, requant);
  ptu_passes(&a, disabled);
  int live = a.n_live;
  ptu_eval(&a, in, out_on);
  if (live == 1) {
    CHECK(tfcc_pass_activation(&a.sg->nodes[0]) > 0); /* RELU, RELU6 or RELU_N1_TO_1 */
    CHECK(a.sg->nodes[0].outputs[0] == Y);
  }
  ptu_end(&a);
  build_conv(&b, dt, act_op, t_is_output, requant);
  ptu_passes(&b, TFCC_PASS_ALL);
  CHECK(b.n_live == 2);
  ptu_eval(&b, in, out_off);
  ptu_end(&b);
  CHECKF(memcmp(y_on, y_off, 100 * es) == 0, "%s act %d: outputs differ", tfcc_dtype_name(dt),
         (int)act_op);
  if (t_is_output) CHECK(memcmp(t_on, t_off, 100 * es) == 0);
  /* The activation did something (some values clamped). */
  return live;
}

static void add_relu_n1(void) {
  enum { A, C, S, O, N };
  static const int32_t D[2] = {3, 4};
  float av[12], cv[12], on[12], off[12];
  ptu_fill(av, 12, 5, -2, 2);
  ptu_fill(cv, 12, 6, -2, 2);
  const void *in[1] = {av};
  for (int pass = 0; pass < 2; pass++) {
    ptu p;
    ptu_begin(&p, N, 2);
    ptu_tensor(&p, A, TFCC_FLOAT32, 2, D, NULL);
    ptu_tensor(&p, C, TFCC_FLOAT32, 2, D, cv);
    ptu_tensor(&p, S, TFCC_FLOAT32, 2, D, NULL);
    ptu_tensor(&p, O, TFCC_FLOAT32, 2, D, NULL);
    ptu_node(&p, 0, TFCC_OP_ADD, 2, (int32_t[]){A, C}, 1, (int32_t[]){S}, 11, NULL, 0);
    ptu_node(&p, 1, TFCC_OP_RELU_N1_TO_1, 1, (int32_t[]){S}, 1, (int32_t[]){O}, 0, NULL, 0);
    ptu_io(&p, 1, (int32_t[]){A}, 1, (int32_t[]){O});
    ptu_passes(&p, pass ? TFCC_PASS_ALL : 0);
    CHECK(p.n_live == (pass ? 2 : 1));
    void *out[1] = {pass ? off : on};
    ptu_eval(&p, in, out);
    ptu_end(&p);
  }
  CHECK(memcmp(on, off, sizeof on) == 0);
  bool clamped = false;
  for (int i = 0; i < 12; i++) clamped |= on[i] == 1.0f || on[i] == -1.0f;
  CHECK(clamped);
}

int main(void) {
  CHECK(check_conv(TFCC_FLOAT32, TFCC_OP_RELU6, false, false, 0) == 1);
  CHECK(check_conv(TFCC_FLOAT32, TFCC_OP_RELU, false, false, 0) == 1);
  CHECK(check_conv(TFCC_INT8, TFCC_OP_RELU, false, false, 0) == 1);
  CHECK(check_conv(TFCC_INT8, TFCC_OP_RELU6, false, false, 0) == 1);
  CHECK(check_conv(TFCC_INT8, TFCC_OP_RELU_N1_TO_1, false, false, 0) == 1);
  /* Not fused: t is also a graph output; the activation requantizes; the pass is off. */
  CHECK(check_conv(TFCC_FLOAT32, TFCC_OP_RELU6, true, false, 0) == 2);
  CHECK(check_conv(TFCC_INT8, TFCC_OP_RELU, false, true, 0) == 2);
  CHECK(check_conv(TFCC_FLOAT32, TFCC_OP_RELU, false, false, TFCC_PASS_FUSE_ACTIVATION) == 2);
  add_relu_n1();
  return tfcc_test_finish("pass_fuse_activation");
}

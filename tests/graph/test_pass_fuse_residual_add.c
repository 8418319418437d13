/* fuse_residual_add: a float32 ADD of a CONV_2D's output (activation NONE) and a tensor ready
 * before the conv becomes the conv's residual input; the outputs are bit-identical to the
 * unfused graph on every CONV_2D path (1x1 GEMM reading NHWC in place, im2col GEMM, the
 * direct small-K kernel, the grouped reference kernel), also when the residual's buffer is
 * an arena tensor whose last reader becomes the conv (memory plan). Not fused: broadcasting,
 * the conv's output read elsewhere or a graph output, a conv with its own activation,
 * quantized tensors, a residual produced after the conv, the pass disabled. A CONV_2D with
 * a 4th input the pass did not add is an error. */
#include "kernels/ref/quant_util.h"
#include "pass_test_util.h"

enum { X, W0, B0, R0, W1, B1, T, Y, W2, B2, Z, RC, RB, RA, NT };
enum { R_EARLIER, R_INPUT, R_CONST, R_BCAST, R_AFTER };

typedef struct spec {
  int rmode;
  int kh;        /* conv1 filter size (SAME) */
  int c;         /* channels (input = output) */
  bool grouped;  /* conv1: filter input channels c / 2 */
  bool swap;     /* ADD(R, T) instead of ADD(T, R) */
  int conv_act;  /* conv1's own activation */
  int add_act;   /* the ADD's */
  bool t_output; /* T also a graph output */
  bool int8;
} spec;

static tfb_field conv_opts[4], add_opts[1];

static void set_conv_opts(int act) {
  const tfb_field f[4] = {{0, TFB_U8, 0, 0, NULL, 0, NULL},
                          {1, TFB_I32, 1, 0, NULL, 0, NULL},
                          {2, TFB_I32, 1, 0, NULL, 0, NULL},
                          {3, TFB_U8, act, 0, NULL, 0, NULL}};
  memcpy(conv_opts, f, sizeof f);
}

/* Builds the graph of s (nodes in execution order) and runs the passes not in `disabled`. */
static void build(ptu *p, const spec *s, uint32_t disabled) {
  const int C = s->c, fin = s->grouped ? C / 2 : C;
  const tfcc_dtype dt = s->int8 ? TFCC_INT8 : TFCC_FLOAT32;
  const int32_t XD[4] = {1, 5, 5, C}, W1D[4] = {C, s->kh, s->kh, fin}, WD[4] = {C, 1, 1, C};
  const int32_t BD[1] = {C}, RBD[4] = {1, 5, 5, 1};
  static float w0[24 * 24], w1[24 * 9 * 24], w2[24 * 24], b[24], rc[600], rb[25];
  ptu_fill(w0, C * C, 11, -0.5f, 0.5f);
  ptu_fill(w1, C * s->kh * s->kh * fin, 12, -0.3f, 0.3f);
  ptu_fill(w2, C * C, 13, -0.5f, 0.5f);
  ptu_fill(b, C, 14, -0.5f, 0.5f);
  ptu_fill(rc, 25 * C, 15, -2, 2);
  ptu_fill(rb, 25, 16, -2, 2);
  int n_nodes = 3 + (s->rmode == R_EARLIER || s->rmode == R_AFTER);
  ptu_begin(p, NT, n_nodes);
  ptu_tensor(p, X, dt, 4, XD, NULL);
  if (s->int8) {
    int8_t wq[24 * 9 * 24];
    int32_t bq[24] = {0};
    for (int i = 0; i < C * s->kh * s->kh * fin; i++) wq[i] = (int8_t)(w1[i] * 300);
    ptu_tensor(p, W1, dt, 4, W1D, wq);
    ptu_tensor(p, B1, TFCC_INT32, 1, BD, bq);
    for (int i = 0; i < C * C; i++) wq[i] = (int8_t)(w2[i] * 200);
    ptu_tensor(p, W2, dt, 4, WD, wq);
    ptu_tensor(p, B2, TFCC_INT32, 1, BD, bq);
    ptu_quant(p, X, 0.05f, -3);
    ptu_quant(p, W1, 0.01f, 0);
    ptu_quant(p, B1, 0.0005f, 0);
    ptu_quant(p, W2, 0.01f, 0);
    ptu_quant(p, B2, 0.001f, 0);
    ptu_quant(p, T, 0.1f, 2);
    ptu_quant(p, Y, 0.1f, 1);
    ptu_quant(p, Z, 0.2f, 0);
  } else {
    ptu_tensor(p, W0, dt, 4, WD, w0);
    ptu_tensor(p, B0, dt, 1, BD, b);
    ptu_tensor(p, W1, dt, 4, W1D, w1);
    ptu_tensor(p, B1, dt, 1, BD, b);
    ptu_tensor(p, W2, dt, 4, WD, w2);
    ptu_tensor(p, B2, dt, 1, BD, b);
    ptu_tensor(p, RC, dt, 4, XD, rc);
    ptu_tensor(p, RB, dt, 4, RBD, rb);
  }
  ptu_tensor(p, R0, dt, 4, XD, NULL);
  ptu_tensor(p, RA, dt, 4, XD, NULL);
  ptu_tensor(p, T, dt, 4, XD, NULL);
  ptu_tensor(p, Y, dt, 4, XD, NULL);
  ptu_tensor(p, Z, dt, 4, XD, NULL);
  int ni = 0;
  if (s->rmode == R_EARLIER) { /* R0 = conv0(X) (1x1), itself a residual candidate */
    set_conv_opts(0);
    ptu_node(p, ni++, TFCC_OP_CONV_2D, 3, (int32_t[]){X, W0, B0}, 1, (int32_t[]){R0}, 1, conv_opts,
             4);
  }
  set_conv_opts(s->conv_act);
  ptu_node(p, ni++, TFCC_OP_CONV_2D, 3, (int32_t[]){X, W1, B1}, 1, (int32_t[]){T}, 1, conv_opts, 4);
  if (s->rmode == R_AFTER) /* the residual is computed after the conv */
    ptu_node(p, ni++, TFCC_OP_RELU, 1, (int32_t[]){X}, 1, (int32_t[]){RA}, 0, NULL, 0);
  const int32_t r = s->rmode == R_EARLIER ? R0
                    : s->rmode == R_INPUT ? X
                    : s->rmode == R_CONST ? RC
                    : s->rmode == R_BCAST ? RB
                                          : RA;
  add_opts[0] = (tfb_field){0, TFB_U8, s->add_act, 0, NULL, 0, NULL};
  ptu_node(p, ni++, TFCC_OP_ADD, 2, s->swap ? (int32_t[]){r, T} : (int32_t[]){T, r}, 1,
           (int32_t[]){Y}, 11, add_opts, 1);
  set_conv_opts(0);
  ptu_node(p, ni++, TFCC_OP_CONV_2D, 3, (int32_t[]){Y, W2, B2}, 1, (int32_t[]){Z}, 1, conv_opts, 4);
  if (s->t_output)
    ptu_io(p, 1, (int32_t[]){X}, 2, (int32_t[]){Z, T});
  else
    ptu_io(p, 1, (int32_t[]){X}, 1, (int32_t[]){Z});
  ptu_passes(p, disabled);
}

/* Runs s fused (all passes) and unfused (all but this one); returns the fused graph's live
 * node count after checking the outputs are the same bytes. */
static int check(const spec *s) {
  const int C = s->c;
  float xf[600];
  int8_t xq[600];
  ptu_fill(xf, 25 * C, 3, -2, 2);
  for (int i = 0; i < 25 * C; i++) xq[i] = (int8_t)(xf[i] * 60);
  const void *in[1] = {s->int8 ? (const void *)xq : (const void *)xf};
  static float z_on[600], t_on[600], z_off[600], t_off[600];
  memset(z_on, 0, sizeof z_on);
  memset(z_off, 0xff, sizeof z_off);
  void *out_on[2] = {z_on, t_on}, *out_off[2] = {z_off, t_off};
  ptu a, b;
  build(&a, s, 0);
  const int live = a.n_live;
  int fused = -1;
  for (int32_t i = 0; i < a.sg->n_nodes; i++) {
    const tfcc_ir_node *n = &a.sg->nodes[i];
    if (n->removed || n->opts.kind != TFCC_OPTIONS_CONV_2D || !n->opts.conv.residual) continue;
    CHECK(fused < 0);
    fused = i;
    CHECK(n->builtin == TFCC_OP_CONV_2D && n->n_inputs == 4 && n->outputs[0] == Y);
    CHECK(n->inputs[3] == (s->rmode == R_EARLIER ? R0 : s->rmode == R_INPUT ? X : RC));
    CHECK(tfcc_pass_activation(n) == s->add_act);
  }
  CHECK((fused >= 0) == (live == a.sg->n_nodes - 1));
  ptu_eval(&a, in, out_on);
  ptu_end(&a);
  build(&b, s, TFCC_PASS_FUSE_RESIDUAL_ADD);
  CHECK(b.n_live == b.sg->n_nodes);
  ptu_eval(&b, in, out_off);
  ptu_end(&b);
  const size_t bytes = (size_t)25 * C * (s->int8 ? 1 : 4);
  CHECKF(memcmp(z_on, z_off, bytes) == 0, "rmode %d kh %d c %d grouped %d act %d: outputs differ",
         s->rmode, s->kh, C, s->grouped, s->add_act);
  if (s->t_output) CHECK(memcmp(t_on, t_off, bytes) == 0);
  return live;
}

/* A file's CONV_2D with 4 inputs (no pass made it): the plan fails, naming the count. */
static void four_inputs_rejected(void) {
  ptu p;
  spec s = {R_INPUT, 1, 6, false, false, 0, 0, false, false};
  build(&p, &s, TFCC_PASS_ALL);
  tfcc_ir_node *c = &p.sg->nodes[0];
  int32_t *in4 = tfcc_graph_alloc(&p.g, 4 * sizeof(int32_t), 4);
  memcpy(in4, c->inputs, 3 * sizeof(int32_t));
  in4[3] = X;
  c->inputs = in4;
  c->n_inputs = 4;
  tfcc_err err = {0};
  tfcc_isa isa = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  for (int32_t i = 0; i < p.sg->n_nodes; i++) {
    tfcc_ir_node *n = &p.sg->nodes[i];
    tfcc_init_ctx ic = {
        .graph = &p.g, .sg = p.sg, .node = n, .node_index = i, .err = &err, .isa = isa};
    CHECK(n->op->init(&ic) == TFCC_OK);
    n->params = ic.params;
  }
  tfcc_exec_plan plan;
  tfcc_exec_env env = {.isa = isa};
  tfcc_status st = tfcc_exec_plan_build(&plan, &p.g, 0, NULL, true, &env, &err);
  CHECK(st == TFCC_ERR_INVALID_MODEL);
  CHECKF(strstr(err.msg, "4 inputs") != NULL, "message: %s", err.msg);
  if (st == TFCC_OK) tfcc_exec_plan_free(&plan);
  ptu_end(&p);
}

int main(void) {
  const int acts[3] = {TFCC_ACT_NONE, TFCC_ACT_RELU, TFCC_ACT_RELU6};
  for (int a = 0; a < 3; a++) {
    /* fused: every CONV_2D path; R an earlier conv's output (arena, last read by the conv),
     * the graph input, a constant; both input orders */
    CHECK(check(&(spec){R_EARLIER, 1, 24, false, false, 0, acts[a], false, false}) == 3);
    CHECK(check(&(spec){R_EARLIER, 1, 24, false, true, 0, acts[a], false, false}) == 3);
    CHECK(check(&(spec){R_EARLIER, 3, 24, false, false, 0, acts[a], false, false}) == 3);
    CHECK(check(&(spec){R_INPUT, 3, 6, false, true, 0, acts[a], false, false}) == 2);
    CHECK(check(&(spec){R_INPUT, 3, 6, true, false, 0, acts[a], false, false}) == 2);
    CHECK(check(&(spec){R_CONST, 1, 6, false, false, 0, acts[a], false, false}) == 2);
  }
  /* not fused */
  CHECK(check(&(spec){R_BCAST, 1, 6, false, false, 0, TFCC_ACT_RELU, false, false}) == 3);
  CHECK(check(&(spec){R_AFTER, 1, 6, false, false, 0, TFCC_ACT_RELU, false, false}) == 4);
  CHECK(check(&(spec){R_INPUT, 1, 6, false, false, TFCC_ACT_RELU, 0, false, false}) == 3);
  CHECK(check(&(spec){R_INPUT, 1, 6, false, false, 0, TFCC_ACT_RELU, true, false}) == 3);
  CHECK(check(&(spec){R_INPUT, 1, 6, false, false, 0, TFCC_ACT_RELU, false, true}) == 3);
  four_inputs_rejected();
  return tfcc_test_finish("pass_fuse_residual_add");
}

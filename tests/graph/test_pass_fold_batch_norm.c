/* fold_batch_norm: constant per-channel MUL / ADD / SUB chains after float CONV_2D,
 * DEPTHWISE_CONV_2D and FULLY_CONNECTED fold into new weights and bias; the chain's activation
 * moves to the conv (then fuse_activation takes a trailing RELU too). Outputs agree with the
 * unfolded graph within float rounding: |d| <= 1e-5 * max(1, |y|) (W*s rounds once more than
 * conv(W)*s; measured differences are a few ulp). Not folded: constants along another axis,
 * shared weights, the pass disabled. */
#include <math.h>

#include "pass_test_util.h"

static const tfb_field k_same[] = {{0, TFB_U8, 0, 0, NULL, 0, NULL},
                                   {1, TFB_I32, 1, 0, NULL, 0, NULL},
                                   {2, TFB_I32, 1, 0, NULL, 0, NULL}};
static const tfb_field k_dw[] = {{0, TFB_U8, 0, 0, NULL, 0, NULL},
                                 {1, TFB_I32, 1, 0, NULL, 0, NULL},
                                 {2, TFB_I32, 1, 0, NULL, 0, NULL},
                                 {3, TFB_I32, 1, 0, NULL, 0, NULL}};
static const tfb_field k_relu[] = {{0, TFB_U8, 1, 0, NULL, 0, NULL}};

enum { PRODUCER_CONV, PRODUCER_DW, PRODUCER_FC };
enum {
  CHAIN_MUL_ADD_RELU,
  CHAIN_SCALAR_MUL_SUB,
  CHAIN_ADD_FUSED_RELU,
  CHAIN_BAD_AXIS,
  CHAIN_SHARED_W
};

/* Tensors: 0 x, 1 w, 2 t, 3 c1, 4 t1, 5 c2, 6 t2, 7 y, 8 y2 (second conv's output when shared). */
static int build(ptu *p, int producer, int chain) {
  static const int32_t XD[4] = {1, 6, 5, 4}, XFC[2] = {2, 6};
  int32_t od[4], rank;
  ptu_begin(p, 9, chain == CHAIN_SHARED_W ? 5 : 4);
  float w[4 * 3 * 3 * 4], c1[20], c2[4];
  ptu_fill(w, 144, 11 + (uint32_t)producer, -1, 1);
  ptu_fill(c1, 20, 12, 0.5f, 2.0f);
  ptu_fill(c2, 4, 13, -1, 1);
  if (producer == PRODUCER_FC) {
    ptu_tensor(p, 0, TFCC_FLOAT32, 2, XFC, NULL);
    ptu_tensor(p, 1, TFCC_FLOAT32, 2, (int32_t[]){4, 6}, w);
    rank = 2;
    od[0] = 2;
    od[1] = 4;
  } else {
    ptu_tensor(p, 0, TFCC_FLOAT32, 4, XD, NULL);
    if (producer == PRODUCER_CONV)
      ptu_tensor(p, 1, TFCC_FLOAT32, 4, (int32_t[]){4, 3, 3, 4}, w);
    else
      ptu_tensor(p, 1, TFCC_FLOAT32, 4, (int32_t[]){1, 3, 3, 4}, w);
    rank = 4;
    memcpy(od, XD, sizeof od);
  }
  for (int i = 2; i <= 8; i += 2) ptu_tensor(p, i, TFCC_FLOAT32, rank, od, NULL);
  ptu_tensor(p, 7, TFCC_FLOAT32, rank, od, NULL);
  ptu_tensor(p, 4, TFCC_FLOAT32, rank, od, NULL);
  if (chain == CHAIN_SCALAR_MUL_SUB)
    ptu_tensor(p, 3, TFCC_FLOAT32, 0, NULL, c1);
  else if (chain == CHAIN_BAD_AXIS && rank == 4)
    ptu_tensor(p, 3, TFCC_FLOAT32, 4, (int32_t[]){1, 6, 1, 1}, c1);
  else
    ptu_tensor(p, 3, TFCC_FLOAT32, 1, (int32_t[]){4}, c1);
  if (rank == 4)
    ptu_tensor(p, 5, TFCC_FLOAT32, 4, (int32_t[]){1, 1, 1, 4}, c2);
  else
    ptu_tensor(p, 5, TFCC_FLOAT32, 1, (int32_t[]){4}, c2);
  int32_t in2[2] = {0, 1};
  if (producer == PRODUCER_CONV)
    ptu_node(p, 0, TFCC_OP_CONV_2D, 2, in2, 1, (int32_t[]){2}, 1, k_same, 3);
  else if (producer == PRODUCER_DW)
    ptu_node(p, 0, TFCC_OP_DEPTHWISE_CONV_2D, 2, in2, 1, (int32_t[]){2}, 2, k_dw, 4);
  else
    ptu_node(p, 0, TFCC_OP_FULLY_CONNECTED, 2, in2, 1, (int32_t[]){2}, 8, NULL, 0);
  ptu_node(p, 1, TFCC_OP_MUL, 2, (int32_t[]){2, 3}, 1, (int32_t[]){4}, 21, NULL, 0);
  if (chain == CHAIN_SCALAR_MUL_SUB)
    ptu_node(p, 2, TFCC_OP_SUB, 2, (int32_t[]){4, 5}, 1, (int32_t[]){6}, 28, NULL, 0);
  else
    ptu_node(p, 2, TFCC_OP_ADD, 2, (int32_t[]){5, 4}, 1, (int32_t[]){6}, 11,
             chain == CHAIN_ADD_FUSED_RELU ? k_relu : NULL, 1);
  if (chain == CHAIN_ADD_FUSED_RELU)
    ptu_node(p, 3, TFCC_OP_TANH, 1, (int32_t[]){6}, 1, (int32_t[]){7}, 0, NULL, 0);
  else
    ptu_node(p, 3, TFCC_OP_RELU, 1, (int32_t[]){6}, 1, (int32_t[]){7}, 0, NULL, 0);
  if (chain == CHAIN_SHARED_W) {
    ptu_node(p, 4, TFCC_OP_CONV_2D, 2, in2, 1, (int32_t[]){8}, 1, k_same, 3);
    ptu_io(p, 1, (int32_t[]){0}, 2, (int32_t[]){7, 8});
  } else {
    ptu_io(p, 1, (int32_t[]){0}, 1, (int32_t[]){7});
  }
  return (int)tfcc_shape_elements(rank, od);
}

/* Returns live nodes with the passes on. */
static int check(int producer, int chain, uint32_t disabled) {
  float x[120], on[2][120], off[2][120];
  ptu_fill(x, 120, 21, -2, 2);
  const void *in[1] = {x};
  ptu a, b;
  int n = build(&a, producer, chain);
  ptu_passes(&a, disabled);
  int live = a.n_live;
  ptu_eval(&a, in, (void *[]){on[0], on[1]});
  ptu_end(&a);
  build(&b, producer, chain);
  ptu_passes(&b, TFCC_PASS_ALL);
  ptu_eval(&b, in, (void *[]){off[0], off[1]});
  ptu_end(&b);
  int over = 0, nonzero = 0;
  float max_d = 0;
  for (int i = 0; i < n; i++) {
    float d = fabsf(on[0][i] - off[0][i]);
    if (d > max_d) max_d = d;
    if (!(d <= 1e-5f * fmaxf(1.0f, fabsf(off[0][i])))) over++;
    nonzero += off[0][i] != 0;
  }
  CHECKF(over == 0, "producer %d chain %d: %d of %d differ (max %g)", producer, chain, over, n,
         (double)max_d);
  CHECK(nonzero > 0);
  printf("  producer %d chain %d: %d live nodes, max |on - off| %g\n", producer, chain, live,
         (double)max_d);
  return live;
}

int main(void) {
  for (int producer = 0; producer < 3; producer++) {
    /* conv -> MUL -> ADD -> RELU: one node. */
    CHECKF(check(producer, CHAIN_MUL_ADD_RELU, 0) == 1, "producer %d", producer);
    /* conv -> MUL(scalar) -> SUB -> RELU: one node. */
    CHECK(check(producer, CHAIN_SCALAR_MUL_SUB, 0) == 1);
    /* ADD's own RELU moves to the conv; the TANH after it stays. */
    CHECK(check(producer, CHAIN_ADD_FUSED_RELU, 0) == 2);
    CHECK(check(producer, CHAIN_MUL_ADD_RELU, TFCC_PASS_FOLD_BATCH_NORM) == 3);
  }
  /* Not folded (only the RELU fuses into the ADD): MUL along H; weights shared by a second conv. */
  CHECK(check(PRODUCER_CONV, CHAIN_BAD_AXIS, 0) == 3);
  CHECK(check(PRODUCER_CONV, CHAIN_SHARED_W, 0) == 4);
  return tfcc_test_finish("pass_fold_batch_norm");
}

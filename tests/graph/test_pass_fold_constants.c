/* fold_constants: nodes whose inputs are all constants (ADD of two constants, DEQUANTIZE of
 * float16 weights) are computed once at load; their outputs become constants, the nodes are
 * removed (initialised by the pass itself), and the graph computes the same. */
#include "pass_test_util.h"

static int check(uint32_t disabled, float out[6]) {
  static const int32_t D[2] = {2, 3};
  float c1[6] = {1, 2, 3, 4, 5, 6}, c2[6] = {0.5f, -1, 0.25f, 2, -3, 1};
  /* float16: 1.0, -2.0, 0.5, 3.0, -0.25, 8.0 */
  uint16_t h[6] = {0x3c00, 0xc000, 0x3800, 0x4200, 0xb400, 0x4800};
  float x[6] = {1, -1, 2, -2, 3, -3};
  ptu p;
  /* tensors: 0 x, 1 c1, 2 c2, 3 t, 4 h, 5 w, 6 u, 7 y */
  ptu_begin(&p, 8, 4);
  ptu_tensor(&p, 0, TFCC_FLOAT32, 2, D, NULL);
  ptu_tensor(&p, 1, TFCC_FLOAT32, 2, D, c1);
  ptu_tensor(&p, 2, TFCC_FLOAT32, 2, D, c2);
  ptu_tensor(&p, 3, TFCC_FLOAT32, 2, D, NULL);
  ptu_tensor(&p, 4, TFCC_FLOAT16, 2, D, h);
  for (int i = 5; i < 8; i++) ptu_tensor(&p, i, TFCC_FLOAT32, 2, D, NULL);
  ptu_node(&p, 0, TFCC_OP_ADD, 2, (int32_t[]){1, 2}, 1, (int32_t[]){3}, 11, NULL, 0);
  ptu_node(&p, 1, TFCC_OP_DEQUANTIZE, 1, (int32_t[]){4}, 1, (int32_t[]){5}, 0, NULL, 0);
  ptu_node(&p, 2, TFCC_OP_MUL, 2, (int32_t[]){0, 3}, 1, (int32_t[]){6}, 21, NULL, 0);
  ptu_node(&p, 3, TFCC_OP_ADD, 2, (int32_t[]){6, 5}, 1, (int32_t[]){7}, 11, NULL, 0);
  ptu_io(&p, 1, (int32_t[]){0}, 1, (int32_t[]){7});
  ptu_passes(&p, disabled);
  int live = p.n_live;
  if (live == 2) {
    CHECK(p.sg->tensors[3].data && p.sg->tensors[5].data);
    CHECK(p.sg->nodes[0].removed && p.sg->nodes[1].removed);
    CHECK(((const float *)p.sg->tensors[5].data)[5] == 8.0f);
  }
  const void *in[1] = {x};
  ptu_eval(&p, in, (void *[]){out});
  ptu_end(&p);
  return live;
}

int main(void) {
  float on[6], off[6];
  CHECK(check(0, on) == 2);
  CHECK(check(TFCC_PASS_FOLD_CONSTANTS, off) == 4);
  CHECK(memcmp(on, off, sizeof on) == 0);
  /* x * (c1 + c2) + w */
  CHECK(on[0] == 1 * 1.5f + 1.0f && on[5] == -3 * 7.0f + 8.0f);
  return tfcc_test_finish("pass_fold_constants");
}

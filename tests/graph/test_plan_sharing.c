/* Memory plan buffer sharing (src/runtime/exec_plan.c): a RESHAPE whose input lives in the
 * arena is a view (skipped at run), an elementwise op writes in place into an input read for
 * the last time, and in-place is refused while a view or the input itself is still read later.
 * Outputs are checked against values computed here; arena and lower bound shrink accordingly. */
#include <math.h>

#include "pass_test_util.h"

#define N 4096

/* 0: a = RELU(x) [1,64,64]; 1: b = RESHAPE(a) [64,64]; 2: c = RELU6(b);
 * 3: d = ADD(c, k) (variant 0) or ADD(c, a) -> [1,64,64] (variant 1); 4: y = ABS(d). */
static void run(int variant, float *x, float *y, ptu *p) {
  static const int32_t D3[3] = {1, 64, 64}, D2[2] = {64, 64};
  static float k[N];
  for (int i = 0; i < N; i++) k[i] = (float)(i % 7) - 3.0f;
  const int32_t shape[2] = {64, 64};
  /* tensors: 0 x, 1 a, 2 shape, 3 b, 4 c, 5 k, 6 d, 7 y */
  ptu_begin(p, 8, 5);
  ptu_tensor(p, 0, TFCC_FLOAT32, 3, D3, NULL);
  ptu_tensor(p, 1, TFCC_FLOAT32, 3, D3, NULL);
  ptu_tensor(p, 2, TFCC_INT32, 1, (int32_t[]){2}, shape);
  ptu_tensor(p, 3, TFCC_FLOAT32, 2, D2, NULL);
  ptu_tensor(p, 4, TFCC_FLOAT32, 2, D2, NULL);
  ptu_tensor(p, 5, TFCC_FLOAT32, 2, D2, k);
  ptu_tensor(p, 6, TFCC_FLOAT32, variant ? 3 : 2, variant ? D3 : D2, NULL);
  ptu_tensor(p, 7, TFCC_FLOAT32, variant ? 3 : 2, variant ? D3 : D2, NULL);
  ptu_node(p, 0, TFCC_OP_RELU, 1, (int32_t[]){0}, 1, (int32_t[]){1}, 0, NULL, 0);
  ptu_node(p, 1, TFCC_OP_RESHAPE, 2, (int32_t[]){1, 2}, 1, (int32_t[]){3}, 0, NULL, 0);
  ptu_node(p, 2, TFCC_OP_RELU6, 1, (int32_t[]){3}, 1, (int32_t[]){4}, 0, NULL, 0);
  ptu_node(p, 3, TFCC_OP_ADD, 2, (int32_t[]){4, variant ? 1 : 5}, 1, (int32_t[]){6}, 11, NULL, 0);
  ptu_node(p, 4, TFCC_OP_ABS, 1, (int32_t[]){6}, 1, (int32_t[]){7}, 0, NULL, 0);
  ptu_io(p, 1, (int32_t[]){0}, 1, (int32_t[]){7});
  ptu_passes(p, TFCC_PASS_ALL); /* the plan alone */
  const void *in[1] = {x};
  ptu_eval(p, in, (void *[]){y});
  ptu_end(p);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float a = x[i] > 0 ? x[i] : 0, c = a < 6 ? a : 6;
    float want = fabsf(c + (variant ? a : k[i]));
    bad += y[i] != want;
  }
  CHECKF(bad == 0, "variant %d: %d of %d wrong", variant, bad, N);
}

int main(void) {
  static float x[N], y[N];
  ptu_fill(x, N, 41, -8, 8);
  ptu p;
  /* a, b, c, d share one buffer: b is a view, c and d in place. */
  run(0, x, y, &p);
  CHECK(p.n_views == 1 && p.n_inplace == 2);
  CHECKF(p.arena_bytes == N * 4 && p.lower_bound == N * 4, "arena %zu lower bound %zu",
         p.arena_bytes, p.lower_bound);
  /* a is read again by the ADD: RELU6 must not overwrite a/b; the ADD may write into a. */
  run(1, x, y, &p);
  CHECK(p.n_views == 1 && p.n_inplace == 1);
  CHECKF(p.arena_bytes == 2 * N * 4 && p.lower_bound == 2 * N * 4, "arena %zu lower bound %zu",
         p.arena_bytes, p.lower_bound);
  return tfcc_test_finish("plan_sharing");
}

/* drop_noops: identity RESHAPE (static shapes only), CAST to the same dtype and QUANTIZE with
 * identical parameters are removed and their readers rewired, with identical outputs; kept when
 * the graph's input shape is dynamic (RESHAPE), when the output is a graph output, when QUANTIZE
 * really requantizes, or when the pass is disabled. */
#include "pass_test_util.h"

static const int32_t D[2] = {2, 3};

/* x -> RELU -> t -> RESHAPE -> u -> CAST -> v -> ABS -> y (u also a graph output if asked). */
static int check_float(bool dynamic, bool u_is_output, uint32_t disabled) {
  float x[6] = {-1.5f, 2, -3, 4, 0.25f, -0.5f}, on[2][6], off[2][6];
  const void *in[1] = {x};
  int live_on = 0;
  for (int pass = 0; pass < 2; pass++) {
    ptu p;
    ptu_begin(&p, 6, 4);
    const int32_t shape[2] = {2, 3};
    ptu_tensor(&p, 0, TFCC_FLOAT32, 2, D, NULL);
    if (dynamic) p.sg->tensors[0].signature[0] = -1;
    ptu_tensor(&p, 1, TFCC_INT32, 1, (int32_t[]){2}, shape);
    for (int i = 2; i <= 5; i++) ptu_tensor(&p, i, TFCC_FLOAT32, 2, D, NULL);
    /* tensors: 2 t, 3 u, 4 v, 5 y */
    ptu_node(&p, 0, TFCC_OP_RELU, 1, (int32_t[]){0}, 1, (int32_t[]){2}, 0, NULL, 0);
    ptu_node(&p, 1, TFCC_OP_RESHAPE, 2, (int32_t[]){2, 1}, 1, (int32_t[]){3}, 0, NULL, 0);
    ptu_node(&p, 2, TFCC_OP_CAST, 1, (int32_t[]){3}, 1, (int32_t[]){4}, 0, NULL, 0);
    ptu_node(&p, 3, TFCC_OP_ABS, 1, (int32_t[]){4}, 1, (int32_t[]){5}, 0, NULL, 0);
    if (u_is_output)
      ptu_io(&p, 1, (int32_t[]){0}, 2, (int32_t[]){5, 3});
    else
      ptu_io(&p, 1, (int32_t[]){0}, 1, (int32_t[]){5});
    ptu_passes(&p, pass ? TFCC_PASS_ALL : disabled);
    int live = p.n_live;
    ptu_eval(&p, in, pass ? (void *[]){off[0], off[1]} : (void *[]){on[0], on[1]});
    ptu_end(&p);
    if (pass) {
      CHECK(live == 4);
      CHECK(memcmp(on[0], off[0], sizeof on[0]) == 0);
      if (u_is_output) CHECK(memcmp(on[1], off[1], sizeof on[1]) == 0);
      CHECK(off[0][0] == 0.0f && off[0][1] == 2.0f);
    } else {
      live_on = live;
    }
  }
  return live_on;
}

/* x int8 -> QUANTIZE (to scale qs, zp qz) -> q -> RELU -> y. */
static int check_quantize(float qs, int32_t qz) {
  int8_t x[6] = {-128, -3, 0, 5, 90, 127}, on[6], off[6];
  const void *in[1] = {x};
  int live_on = 0;
  for (int pass = 0; pass < 2; pass++) {
    ptu p;
    ptu_begin(&p, 3, 2);
    for (int i = 0; i < 3; i++) ptu_tensor(&p, i, TFCC_INT8, 2, D, NULL);
    ptu_quant(&p, 0, 0.1f, -3);
    ptu_quant(&p, 1, qs, qz);
    ptu_quant(&p, 2, qs, qz);
    ptu_node(&p, 0, TFCC_OP_QUANTIZE, 1, (int32_t[]){0}, 1, (int32_t[]){1}, 0, NULL, 0);
    ptu_node(&p, 1, TFCC_OP_RELU, 1, (int32_t[]){1}, 1, (int32_t[]){2}, 0, NULL, 0);
    ptu_io(&p, 1, (int32_t[]){0}, 1, (int32_t[]){2});
    ptu_passes(&p, pass ? TFCC_PASS_ALL : 0);
    if (!pass) live_on = p.n_live;
    ptu_eval(&p, in, (void *[]){pass ? off : on});
    ptu_end(&p);
  }
  CHECK(memcmp(on, off, sizeof on) == 0);
  return live_on;
}

int main(void) {
  CHECK(check_float(false, false, 0) == 2);                    /* RESHAPE and CAST dropped */
  CHECK(check_float(true, false, 0) == 3);                     /* dynamic: RESHAPE stays */
  CHECK(check_float(false, true, 0) == 3);                     /* u is a graph output */
  CHECK(check_float(false, false, TFCC_PASS_DROP_NOOPS) == 4); /* disabled */
  /* the same pass disabled by name (tfcc_pass_parse), and the name list's other forms */
  uint32_t mask = 0;
  CHECK(tfcc_pass_parse("drop_noops", &mask) == TFCC_OK && mask == TFCC_PASS_DROP_NOOPS);
  CHECK(check_float(false, false, mask) == 4);
  mask = 0;
  CHECK(tfcc_pass_parse("fuse_pad,fold_constants", &mask) == TFCC_OK &&
        mask == (TFCC_PASS_FUSE_PAD | TFCC_PASS_FOLD_CONSTANTS));
  CHECK(tfcc_pass_parse("fuse_pad,nope", &mask) == TFCC_ERR_INVALID_ARG &&
        mask == (TFCC_PASS_FUSE_PAD | TFCC_PASS_FOLD_CONSTANTS));
  CHECK(tfcc_pass_parse("fuse_pad,", &mask) == TFCC_OK && tfcc_pass_parse(",", &mask) != TFCC_OK);
  CHECK(tfcc_pass_parse("all", &mask) == TFCC_OK && mask == TFCC_PASS_ALL);
  int32_t n_passes = 0;
  const tfcc_pass_info *passes = tfcc_pass_list(&n_passes);
  for (int32_t i = 0; i < n_passes; i++) {
    mask = 0;
    CHECKF(tfcc_pass_parse(passes[i].name, &mask) == TFCC_OK && mask == passes[i].bit, "%s",
           passes[i].name);
  }
  CHECK(check_quantize(0.1f, -3) == 1);
  CHECK(check_quantize(0.2f, -3) == 2);
  CHECK(check_quantize(0.1f, 4) == 2);
  return tfcc_test_finish("pass_drop_noops");
}

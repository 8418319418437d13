/* The Philox4x32-10 generator and TFLite's three random distributions (kernels/ref/philox.h)
 * against TensorFlow Lite's own outputs for the same seeds: the first invoke of single-op
 * RANDOM_UNIFORM (seed 1, seed2 2, shape [3, 5]), RANDOM_STANDARD_NORMAL (seed 7, seed2 -3,
 * shape [3, 6]) and MULTINOMIAL (seed 5, seed2 11, logits [[0, 1, -1, 0.5], [2, -3, 0, 0.1]],
 * 9 samples, int64) models made with modelgen (RandomOptions) and run by
 * `node /tmp/tflite-ref/run_ref.mjs MODEL OUT --engine litert` (LiteRT.js 2.5.3). Uniform and
 * multinomial are compared bit for bit; normal values (sinf/cosf/logf of the C library against
 * TFLite's) within 2 ulp. Then the operator (ops/random.c) through the public API: a session's
 * first run gives TFLite's first invoke, its second run continues the generator (TFLite keeps it
 * in the interpreter across invokes; the oracle re-creates its interpreter for each run, so this
 * part follows TFLite's code: random_ops.cc), and a new session starts again from the seed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/ref/philox.h"
#include "test_harness.h"
#include "tfcc/tfcc.h"

static const uint32_t k_uniform[15] = {0x3ed0133cu, 0x3f5b8ba6u, 0x3d62e6c0u, 0x3dafddd0u,
                                       0x3ed305ccu, 0x3d160a40u, 0x3f283f22u, 0x3db3cf30u,
                                       0x3f5e7caau, 0x3d2cf660u, 0x3eb51118u, 0x3e73be98u,
                                       0x3d8bf520u, 0x3efbfd3cu, 0x3f3389c4u};
static const uint32_t k_normal[18] = {
    0x3f974e1au, 0xbd389f5fu, 0xbf92ca3eu, 0xbef121fau, 0x3de859c7u, 0xbf374266u,
    0x3ef52868u, 0x3fcb1f91u, 0x3ff55144u, 0xbf979c3bu, 0xbf75615fu, 0x3eadad6au,
    0xbd32fcd1u, 0x3fc34130u, 0x3f48f9feu, 0x3f748099u, 0x3f14b716u, 0xbf9a1ddau};
static const int64_t k_multinomial[18] = {3, 3, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 3, 0, 0, 3, 0};

static int32_t ulp_diff(float a, float b) {
  int32_t x, y;
  memcpy(&x, &a, 4);
  memcpy(&y, &b, 4);
  if ((x < 0) != (y < 0)) return a == b ? 0 : INT32_MAX;
  return x > y ? x - y : y - x;
}

int main(void) {
  tfcc_philox p;
  float u[15], nrm[18];
  int64_t m[18];
  double cdf[4];
  tfcc_philox_init(&p, 1, 2);
  tfcc_ref_random_uniform_f32(&p, u, 15);
  for (int i = 0; i < 15; i++) {
    uint32_t bits;
    memcpy(&bits, &u[i], 4);
    CHECKF(bits == k_uniform[i], "uniform %d: 0x%08x, TFLite 0x%08x", i, (unsigned)bits,
           (unsigned)k_uniform[i]);
  }
  tfcc_philox_init(&p, 7, (uint64_t)(int64_t)-3);
  tfcc_ref_random_normal_f32(&p, nrm, 18);
  for (int i = 0; i < 18; i++) {
    float want;
    memcpy(&want, &k_normal[i], 4);
    CHECKF(ulp_diff(nrm[i], want) <= 2, "normal %d: %.9g, TFLite %.9g", i, (double)nrm[i],
           (double)want);
  }
  const float logits[8] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -3.0f, 0.0f, 0.1f};
  tfcc_philox_init(&p, 5, 11);
  tfcc_ref_multinomial(&p, logits, 2, 4, 9, m, 8, cdf);
  for (int i = 0; i < 18; i++)
    CHECKF(m[i] == k_multinomial[i], "multinomial %d: %lld, TFLite %lld", i, (long long)m[i],
           (long long)k_multinomial[i]);
  /* the state advances: a second draw differs from the first (TFLite's second invoke) */
  float u2[4];
  tfcc_philox_init(&p, 1, 2);
  tfcc_ref_random_uniform_f32(&p, u, 4);
  tfcc_ref_random_uniform_f32(&p, u2, 4);
  CHECK(memcmp(u, u2, sizeof u2) != 0);

  /* RANDOM_UNIFORM [3, 5], seeds (1, 2): two runs of one session, then a new session */
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/ops/conformance/random_uniform_f32.tflite",
           tfcc_test_source_dir());
  tfcc_runtime *rt = NULL;
  tfcc_model *model = NULL;
  CHECKF(tfcc_runtime_create(NULL, &rt) == TFCC_OK, "runtime: %s", tfcc_last_error());
  if (rt && tfcc_model_load_file(rt, path, NULL, &model) != TFCC_OK) {
    printf("SKIP session part: %s: %s\n", path, tfcc_last_error());
    tfcc_runtime_destroy(rt);
    return tfcc_test_finish("philox");
  }
  float want[30], got[3][15];
  tfcc_philox_init(&p, 1, 2);
  tfcc_ref_random_uniform_f32(&p, want, 15); /* 4 blocks: the last word of the 4th is dropped */
  tfcc_ref_random_uniform_f32(&p, want + 15, 15);
  for (int s = 0; s < 2 && model; s++) {
    tfcc_session *sess = NULL;
    CHECKF(tfcc_session_create(model, NULL, &sess) == TFCC_OK, "session: %s", tfcc_last_error());
    if (!sess) break;
    for (int r = 0; r < (s == 0 ? 2 : 1); r++) {
      void *outs[1] = {got[s == 0 ? r : 2]};
      CHECKF(tfcc_session_run(sess, NULL, outs) == TFCC_OK, "run: %s",
             tfcc_session_last_error(sess));
    }
    tfcc_session_destroy(sess);
  }
  CHECK(memcmp(got[0], want, sizeof got[0]) == 0);      /* first run: TFLite's first invoke */
  CHECK(memcmp(got[1], want + 15, sizeof got[1]) == 0); /* second run continues the generator */
  CHECK(memcmp(got[2], want, sizeof got[2]) == 0);      /* a new session starts from the seed */
  uint32_t first_bits;
  memcpy(&first_bits, &got[0][0], 4);
  CHECK(first_bits == k_uniform[0]);
  if (model) tfcc_model_release(model);
  tfcc_runtime_destroy(rt);
  return tfcc_test_finish("philox");
}

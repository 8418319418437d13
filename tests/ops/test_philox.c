/* The Philox4x32-10 generator and TFLite's three random distributions (kernels/ref/philox.h)
 * against TensorFlow Lite's own outputs for the same seeds: the first invoke of single-op
 * RANDOM_UNIFORM (seed 1, seed2 2, shape [3, 5]), RANDOM_STANDARD_NORMAL (seed 7, seed2 -3,
 * shape [3, 6]) and MULTINOMIAL (seed 5, seed2 11, logits [[0, 1, -1, 0.5], [2, -3, 0, 0.1]],
 * 9 samples, int64) models made with modelgen (RandomOptions) and run by
 * `node /tmp/tflite-ref/run_ref.mjs MODEL OUT --engine litert` (LiteRT.js 2.5.3). Uniform and
 * multinomial are compared bit for bit; normal values (sinf/cosf/logf of the C library against
 * TFLite's) within 2 ulp. The operators themselves are not registered yet: TFLite keeps the
 * generator in the interpreter across invokes, and tfcc operators have no per-session state. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/ref/philox.h"
#include "test_harness.h"

static const uint32_t k_uniform[15] = {
    0x3ed0133cu, 0x3f5b8ba6u, 0x3d62e6c0u, 0x3dafddd0u, 0x3ed305ccu, 0x3d160a40u, 0x3f283f22u,
    0x3db3cf30u, 0x3f5e7caau, 0x3d2cf660u, 0x3eb51118u, 0x3e73be98u, 0x3d8bf520u, 0x3efbfd3cu,
    0x3f3389c4u};
static const uint32_t k_normal[18] = {
    0x3f974e1au, 0xbd389f5fu, 0xbf92ca3eu, 0xbef121fau, 0x3de859c7u, 0xbf374266u, 0x3ef52868u,
    0x3fcb1f91u, 0x3ff55144u, 0xbf979c3bu, 0xbf75615fu, 0x3eadad6au, 0xbd32fcd1u, 0x3fc34130u,
    0x3f48f9feu, 0x3f748099u, 0x3f14b716u, 0xbf9a1ddau};
static const int64_t k_multinomial[18] = {
    3, 3, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 3, 0, 0, 3, 0};

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
    CHECKF(bits == k_uniform[i], "uniform %d: 0x%08x, TFLite 0x%08x", i, (unsigned)bits, (unsigned)k_uniform[i]);
  }
  tfcc_philox_init(&p, 7, (uint64_t)(int64_t)-3);
  tfcc_ref_random_normal_f32(&p, nrm, 18);
  for (int i = 0; i < 18; i++) {
    float want;
    memcpy(&want, &k_normal[i], 4);
    CHECKF(ulp_diff(nrm[i], want) <= 2, "normal %d: %.9g, TFLite %.9g", i, (double)nrm[i], (double)want);
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
  return tfcc_test_finish("philox");
}

/* Fast float32 activations (f32-vunary) against the reference kernels, every variant this CPU
 * can run. CLAMP (RELU, RELU6, RELU_N1_TO_1 ranges), LEAKY_RELU and HARD_SWISH must be bit
 * for bit the same (NaN for NaN); LOGISTIC and TANH within 1e-6 relative of libm's results
 * (|difference| <= 1e-6 |ref| + 2^-125) over the whole float range: every binade from
 * subnormals to 3e38, both signs, a dense sweep of [-20, 20], zeros, infinities, NaN. Lengths
 * 0..70 (vector tails), in place, and split over a 2-thread pool. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-vunary/vunary.h"
#include "kernels/kernel_families.h"
#include "kernels/ref/activation.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 2024u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static float from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

/* The test inputs: specials, every binade, a dense sweep. */
static size_t make_inputs(float **out) {
  const size_t cap = 2 * 256 * 64 + 400001 + 64;
  float *x = malloc(sizeof(float) * cap);
  size_t n = 0;
  const float sp[] = {0.f,      -0.f,    INFINITY, -INFINITY, NAN,   -NAN,        FLT_MIN,
                      -FLT_MIN, FLT_MAX, -FLT_MAX, 0.5f,      -0.5f, 0.49999997f, -0.49999997f,
                      87.f,     -87.f,   88.7f,    -88.7f,    89.f,  -89.f,       9.f,
                      -9.f,     3.f,     -3.f,     6.f,       -6.f,  1e-45f,      -1e-45f};
  for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) x[n++] = sp[i];
  for (uint32_t e = 0; e < 255; e++)
    for (int k = 0; k < 64; k++)
      for (uint32_t s = 0; s < 2; s++)
        x[n++] = from_bits((s << 31) | (e << 23) | (urand() & 0x7FFFFF));
  for (int i = -200000; i <= 200000; i++) x[n++] = (float)i * 1e-4f;
  *out = x;
  return n;
}

static bool same_bits(float a, float b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return memcmp(&a, &b, sizeof a) == 0;
}

static bool close_rel(float got, float want) {
  if (isnan(got) || isnan(want)) return isnan(got) && isnan(want);
  if (isinf(want)) return got == want;
  return fabs((double)got - (double)want) <= 1e-6 * fabs((double)want) + 0x1.0p-125;
}

static void ref_apply(const tfcc_f32_vunary_params *p, const float *in, float *out, size_t n) {
  switch (p->op) {
    case TFCC_F32VU_CLAMP: tfcc_clamp_f32(in, out, n, p->lo, p->hi); break;
    case TFCC_F32VU_LEAKY_RELU: tfcc_leaky_relu_f32(in, out, n, p->alpha); break;
    case TFCC_F32VU_HARD_SWISH: tfcc_hard_swish_f32(in, out, n); break;
    case TFCC_F32VU_LOGISTIC: tfcc_logistic_f32(in, out, n); break;
    default: tfcc_tanh_f32(in, out, n); break;
  }
}

static double worst_rel[2];

static void check(const tfcc_f32_vunary_kernel *k, tfcc_threadpool *pool,
                  const tfcc_f32_vunary_params *p, const float *x, size_t n, bool inplace) {
  float *want = malloc(sizeof(float) * (n + 1)), *got = malloc(sizeof(float) * (n + 1));
  ref_apply(p, x, want, n);
  got[n] = 1234.5f;
  const float *src = x;
  if (inplace) {
    memcpy(got, x, sizeof(float) * n);
    src = got;
  }
  tfcc_f32_vunary_run(pool, k, p, src, got, n);
  const bool approx = p->op == TFCC_F32VU_LOGISTIC || p->op == TFCC_F32VU_TANH;
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    const bool ok = approx ? close_rel(got[i], want[i]) : same_bits(got[i], want[i]);
    if (approx && !isnan(want[i]) && fabsf(want[i]) > 0x1.0p-125f) {
      const double r = fabs((double)got[i] - (double)want[i]) / fabs((double)want[i]);
      double *w = &worst_rel[p->op == TFCC_F32VU_TANH];
      if (r > *w) *w = r;
    }
    if (!ok && bad++ < 3)
      fprintf(stderr, "%s op %d: f(%a) = %a, want %a\n", k->name, (int)p->op, (double)x[i],
              (double)got[i], (double)want[i]);
  }
  CHECKF(bad == 0 && got[n] == 1234.5f, "%s op %d n %zu inplace %d: %d wrong", k->name, (int)p->op,
         n, inplace, bad);
  free(want);
  free(got);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS(tfcc_f32_vunary);
  float *x;
  const size_t nx = make_inputs(&x);
  const tfcc_f32_vunary_params ps[] = {
      {TFCC_F32VU_CLAMP, 0.f, INFINITY, 0.f}, {TFCC_F32VU_CLAMP, 0.f, 6.f, 0.f},
      {TFCC_F32VU_CLAMP, -1.f, 1.f, 0.f},     {TFCC_F32VU_LEAKY_RELU, 0, 0, 0.2f},
      {TFCC_F32VU_LEAKY_RELU, 0, 0, -1.5f},   {TFCC_F32VU_HARD_SWISH, 0, 0, 0},
      {TFCC_F32VU_LOGISTIC, 0, 0, 0},         {TFCC_F32VU_TANH, 0, 0, 0}};
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_f32_vunary, k, best) {
    for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++) {
      check(k, NULL, &ps[pi], x, nx, false);
      check(k, pool, &ps[pi], x, nx, true);
      for (size_t n = 0; n <= 70; n++) check(k, NULL, &ps[pi], x + 7 * n, n, n % 2 == 1);
    }
    tested++;
  }
  printf(
      "%d f32 activation kernels tested at CPU level %s on %zu inputs; worst relative error "
      "LOGISTIC %.3g, TANH %.3g\n",
      tested, tfcc_isa_name(best), nx, worst_rel[0], worst_rel[1]);
  free(x);
  tfcc_threadpool_destroy(pool);
  return tfcc_test_finish("vunary");
}

/* Fast SOFTMAX (src/kernels/softmax) against the reference kernels:
 *  - float32, every variant the CPU runs, against tfcc_softmax_f32: rows of 1..70, 100, 1001,
 *    4099 elements, values in narrow and wide ranges, equal rows, -inf / +inf / NaN entries,
 *    beta 0, 0.5, 1, 2.7 (and a negative beta through the driver, which runs the reference):
 *    exact6: bit for bit the reference (every variant computes its arithmetic, so the results
 *    do not depend on the ISA), and within 2e-6 relative plus the reference's sequential-sum
 *    error bound (depth x 2^-23) of the softmax computed in double from the same float
 *    arguments; NaN where the reference has NaN; a 2-thread pool.
 *  - 8-bit (uint8 -> uint8, int8 -> int8), the portable q8-softmax rows with every q8-lut
 *    variant (the vector q8-softmax variants: test_q8_softmax), byte for byte against
 *    tfcc_softmax_q8: 1..9 rows of 1..300, 1001, 2000 elements, constant rows, narrow and full
 *    byte ranges, several input scales and betas, output scales 1/256 and others (zero points
 *    0, -128, 17, 255; saturating outputs). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/ref/softmax.h"
#include "kernels/softmax/softmax.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 2024u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static float frand(float lo, float hi) {
  return lo + (hi - lo) * (float)(urand() % 1000001) / 1e6f;
}

static int f_cases = 0;

static void check_f32(const tfcc_f32_softmax_kernel *k, tfcc_threadpool *pool, size_t outer,
                      size_t depth, int kind, float beta) {
  const size_t n = outer * depth;
  float *x = malloc(n * sizeof *x + 4), *want = malloc(n * sizeof *x + 4),
        *got = malloc(n * sizeof *x + 4);
  for (size_t i = 0; i < n; i++) {
    switch (kind) {
      case 0: x[i] = frand(-5.f, 5.f); break;
      case 1: x[i] = frand(-300.f, 300.f); break;
      case 2: x[i] = 3.25f; break;
      case 3: x[i] = frand(-1e30f, 1e30f); break;
      default: x[i] = frand(-20.f, 20.f); break;
    }
  }
  if (kind == 5 && n) {
    x[urand() % n] = -INFINITY;
    if (n > 3) x[urand() % n] = INFINITY;
  }
  if (kind == 6 && n) x[urand() % n] = NAN;
  if (kind == 7)
    for (size_t i = 0; i < n; i++) x[i] = -INFINITY;
  tfcc_softmax_f32(x, want, outer, depth, beta);
  double *exact = malloc(n * sizeof *exact + 8);
  for (size_t r = 0; r < outer; r++) {
    const float *xr = x + r * depth;
    float mx = -3.402823466e38f;
    for (size_t c = 0; c < depth; c++) mx = xr[c] > mx ? xr[c] : mx;
    double sum = 0.;
    for (size_t c = 0; c < depth; c++)
      sum += exact[r * depth + c] = exp((double)((xr[c] - mx) * beta));
    for (size_t c = 0; c < depth; c++) exact[r * depth + c] /= sum;
  }
  memset(got, 0x7F, n * sizeof *got + 4);
  tfcc_f32_softmax_run(pool, k, x, got, outer, depth, beta);
  int bad = 0;
  /* every variant is the reference's arithmetic: its bits, its sequential-sum error */
  const double tol_exact = 2e-6 + (double)depth * 0x1.0p-23;
  for (size_t i = 0; i < n; i++) {
    const float w = want[i], g = got[i];
    const bool ok = isnan(w) ? isnan(g)
                             : memcmp(&g, &w, sizeof g) == 0 &&
                                   fabs((double)g - exact[i]) <= tol_exact * fabs(exact[i]) + 1e-30;
    if (!ok && bad++ < 3)
      fprintf(stderr, "%s: outer %zu depth %zu kind %d beta %g: out[%zu] = %.9g, want %.9g\n",
              k->name, outer, depth, kind, (double)beta, i, (double)g, (double)w);
  }
  CHECKF(bad == 0 && ((uint32_t *)got)[n] == 0x7F7F7F7Fu,
         "%s outer %zu depth %zu kind %d beta %g: %d wrong", k->name, outer, depth, kind,
         (double)beta, bad);
  f_cases++;
  free(exact);
  free(x);
  free(want);
  free(got);
}

static void test_f32(const tfcc_f32_softmax_kernel *k, tfcc_threadpool *pool) {
  static const float betas[] = {1.f, 0.5f, 0.f, 2.7f};
  for (size_t depth = 1; depth <= 74; depth++) {
    const size_t d = depth <= 70 ? depth
                                 : (depth == 71   ? 100
                                    : depth == 72 ? 1001
                                    : depth == 73 ? 4099
                                                  : 16);
    for (int kind = 0; kind < 8; kind++)
      check_f32(k, NULL, 1 + d % 3, d, kind, betas[(d + (size_t)kind) % 4]);
  }
  check_f32(k, NULL, 3, 37, 0, -1.f); /* negative beta: the reference */
  check_f32(k, pool, 300, 129, 0, 1.f);
  check_f32(k, pool, 7, 20000, 4, 1.f);
}

static int q_cases = 0;

/* the portable q8-softmax rows (the vector variants: test_q8_softmax) */
static const tfcc_q8_softmax_kernel *q8sm_generic(void) {
  return tfcc_q8_softmax_select(TFCC_ISA_GENERIC);
}

static void check_q8(const tfcc_q8_lut_kernel *lk, tfcc_dtype dt, size_t outer, size_t depth,
                     int kind, float in_scale, float beta, float out_scale, int32_t out_zp) {
  const size_t n = outer * depth;
  uint8_t *x = malloc(n + 1), *want = malloc(n + 1), *got = malloc(n + 1);
  const int base = (int)(urand() % 256);
  for (size_t i = 0; i < n; i++) {
    switch (kind) {
      case 0: x[i] = (uint8_t)urand(); break;                     /* full range */
      case 1: x[i] = (uint8_t)(base + (int)(urand() % 9)); break; /* narrow */
      case 2: x[i] = (uint8_t)base; break;                        /* constant */
      default:
        x[i] = (uint8_t)((urand() % 4) ? (uint32_t)base : urand());
        break; /* mostly one value */
    }
  }
  float table[256];
  tfcc_softmax_table_build(table, in_scale, beta);
  tfcc_softmax_q8(dt, x, dt, want, outer, depth, table, out_scale, out_zp);
  memset(got, 0xEE, n + 1);
  tfcc_q8_softmax_run(NULL, q8sm_generic(), lk, dt == TFCC_UINT8, x, got, outer, depth, table,
                      out_scale, out_zp);
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ < 3)
      fprintf(stderr, "%s %s: outer %zu depth %zu kind %d: out[%zu] = %d, want %d\n", lk->name,
              tfcc_dtype_name(dt), outer, depth, kind, i, got[i], want[i]);
  CHECKF(bad == 0 && got[n] == 0xEE,
         "%s %s outer %zu depth %zu kind %d scale %g beta %g out %g/%d: %d wrong", lk->name,
         tfcc_dtype_name(dt), outer, depth, kind, (double)in_scale, (double)beta, (double)out_scale,
         (int)out_zp, bad);
  q_cases++;
  free(x);
  free(want);
  free(got);
}

static void test_q8(const tfcc_q8_lut_kernel *lk) {
  typedef struct {
    float in_scale, beta, out_scale;
    int32_t zp_u8, zp_s8;
  } qp;
  static const qp params[] = {
      {0.1f, 1.f, 1.f / 256, 0, -128}, {0.0078125f, 1.f, 1.f / 256, 0, -128},
      {0.5f, 0.3f, 0.003f, 17, 17},    {0.02f, 2.f, 1e-5f, 255, 127},
      {1.3f, 1.f, 0.5f, 0, -128},      {0.05f, 0.f, 1.f / 256, 0, -128},
  };
  static const size_t depths[] = {1,   2,   3,   7,   16,  63,  64,   65,  100,
                                  127, 128, 129, 255, 256, 300, 1001, 2000};
  for (size_t pi = 0; pi < sizeof params / sizeof params[0]; pi++)
    for (size_t di = 0; di < sizeof depths / sizeof depths[0]; di++)
      for (int kind = 0; kind < 4; kind++) {
        const qp *p = &params[pi];
        const size_t outer = 1 + (di + (size_t)kind) % 9;
        check_q8(lk, TFCC_UINT8, outer, depths[di], kind, p->in_scale, p->beta, p->out_scale,
                 p->zp_u8);
        check_q8(lk, TFCC_INT8, outer, depths[di], kind, p->in_scale, p->beta, p->out_scale,
                 p->zp_s8);
      }
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS(tfcc_f32_softmax);
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_f32_softmax, k, best) {
    test_f32(k, pool);
    tested++;
  }
  TFCC_EACH_VARIANT(tfcc_q8_lut, k, best) {
    test_q8(k);
    tested++;
  }
  printf("%d softmax variants tested at CPU level %s: %d float cases, %d 8-bit cases\n", tested,
         tfcc_isa_name(best), f_cases, q_cases);
  tfcc_threadpool_destroy(pool);
  return tfcc_test_finish("softmax_fast");
}

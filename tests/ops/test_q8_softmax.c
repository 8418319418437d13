/* 8-bit SOFTMAX (q8-softmax, uint8 -> uint8 and int8 -> int8): every variant this CPU can run,
 * byte for byte against the reference kernel tfcc_softmax_q8 (TFLite's optimized kernel):
 * rows of every length 1..70 and 100 .. 4099 (vector tails, the 4-column gathers' overlapping
 * last columns), 1..19 rows (partial row blocks), value modes (full byte range, narrow ranges
 * that take the byte-table path, constant rows, mostly one value, only the two extremes, the
 * maximum alone above a narrow range), input scales and betas (beta 0, negative betas whose
 * table overflows to inf and gives NaN probabilities), output scales 1/256, others, and tiny
 * ones whose probabilities pass 2^24 and 2^31 (zero points that make INT32_MAX + zp wrap);
 * with the q8-lut variants the CPU runs; the driver: a 2-thread split, in place; and the pick
 * (tfcc_q8_softmax_pick, at the operator's init): the portable rows for a negative output scale
 * and an int8 zero point out of range, the variant itself for the rest. */
#include <stdlib.h>
#include <string.h>

#include "base/threadpool.h"
#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/ref/softmax.h"
#include "kernels/softmax/softmax.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 5959u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static int cases = 0;

static uint8_t val(int mode, int base) {
  switch (mode) {
    case 1: return (uint8_t)(base + (int)(urand() % 9));              /* narrow */
    case 2: return (uint8_t)base;                                     /* constant */
    case 3: return (uint8_t)(urand() % 4 ? (uint32_t)base : urand()); /* mostly one value */
    case 4: return urand() & 1 ? 0 : 255;                             /* raw extremes */
    case 5: return urand() & 1 ? 0x7f : 0x80;                         /* int8 extremes */
    case 6: return (uint8_t)(base + (int)(urand() % 40));             /* span 40 */
    default: return (uint8_t)urand();                                 /* full range */
  }
}

typedef struct qp {
  float in_scale, beta, out_scale;
  int32_t zp_u8, zp_s8;
} qp;

static void run_case(const tfcc_q8_softmax_kernel *k, const tfcc_q8_lut_kernel *lk,
                     tfcc_threadpool *pool, tfcc_dtype dt, size_t rows, size_t depth, int mode,
                     const qp *p, bool in_place) {
  const size_t n = rows * depth;
  uint8_t *x = malloc(n + 1), *want = malloc(n + 1), *got = malloc(n + 1);
  CHECK(x && want && got);
  if (!x || !want || !got) return;
  const int base = (int)(urand() % 256);
  for (size_t i = 0; i < n; i++) x[i] = val(mode, base);
  if (mode == 7 && n) /* one high value above a narrow range per row */
    for (size_t r = 0; r < rows; r++) x[r * depth + urand() % depth] = 255;
  float table[256];
  tfcc_softmax_table_build(table, p->in_scale, p->beta);
  const int32_t zp = dt == TFCC_UINT8 ? p->zp_u8 : p->zp_s8;
  tfcc_softmax_q8(dt, x, dt, want, rows, depth, table, p->out_scale, zp);
  memset(got, 0xEE, n + 1);
  if (in_place) memcpy(got, x, n);
  /* the variant the operator's init picks for these output parameters */
  const tfcc_q8_softmax_kernel *rk = tfcc_q8_softmax_pick(k, dt == TFCC_UINT8, p->out_scale, zp);
  tfcc_q8_softmax_run(pool, rk, lk, dt == TFCC_UINT8, in_place ? got : x, got, rows, depth, table,
                      p->out_scale, zp);
  int bad = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ < 3)
      fprintf(stderr, "%s/%s %s rows %zu depth %zu mode %d: out[%zu] = %d, want %d\n", k->name,
              lk->name, tfcc_dtype_name(dt), rows, depth, mode, i, got[i], want[i]);
  CHECKF(bad == 0 && got[n] == 0xEE,
         "%s/%s %s rows %zu depth %zu mode %d scale %g beta %g out %g/%d%s: %d wrong", k->name,
         lk->name, tfcc_dtype_name(dt), rows, depth, mode, (double)p->in_scale, (double)p->beta,
         (double)p->out_scale, (int)zp, in_place ? " in place" : "", bad);
  cases++;
  free(x);
  free(want);
  free(got);
}

static const qp params[] = {
    {0.1f, 1.f, 1.f / 256, 0, -128},   {0.0078125f, 1.f, 1.f / 256, 0, -128},
    {0.5f, 0.3f, 0.003f, 17, 17},      {0.02f, 2.f, 1e-5f, 255, 127},
    {1.3f, 1.f, 0.5f, 0, -128},        {0.05f, 0.f, 1.f / 256, 0, -128},
    {0.1f, -0.2f, 1.f / 256, 0, -128}, {1.f, -1.f, 1.f / 256, 0, -128}, /* inf table: NaN */
    {0.1f, 1.f, 1e-30f, 0, 5},         {0.25f, 1.f, 3e-8f, 9, -7},      /* past 2^31, 2^24 */
    {0.03f, 1.f, 1.f / 256, 0, 0},
};
#define N_PARAMS (sizeof params / sizeof params[0])

static void sweep(const tfcc_q8_softmax_kernel *k, const tfcc_q8_lut_kernel *lk) {
  static const size_t big[] = {100, 127, 128, 129, 255, 256, 257, 1000, 1001, 4099};
  for (size_t d = 1; d <= 70 + sizeof big / sizeof big[0]; d++) {
    const size_t depth = d <= 70 ? d : big[d - 71];
    for (int mode = 0; mode < 8; mode++) {
      const size_t rows = 1 + (depth * 7 + (size_t)mode) % 19;
      const qp *p = &params[(depth + (size_t)mode) % N_PARAMS];
      run_case(k, lk, NULL, TFCC_UINT8, rows, depth, mode, p, false);
      run_case(k, lk, NULL, TFCC_INT8, rows, depth, mode, p, false);
    }
  }
  /* every parameter set at the byte-table and the element paths, both types */
  for (size_t pi = 0; pi < N_PARAMS; pi++)
    for (int mode = 0; mode < 8; mode++) {
      run_case(k, lk, NULL, TFCC_UINT8, 17, 300, mode, &params[pi], false);
      run_case(k, lk, NULL, TFCC_INT8, 17, 300, mode, &params[pi], false);
      run_case(k, lk, NULL, TFCC_UINT8, 5, 37, mode, &params[pi], false);
      run_case(k, lk, NULL, TFCC_INT8, 5, 37, mode, &params[pi], false);
    }
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS(tfcc_q8_softmax);
  const tfcc_q8_lut_kernel *lk = tfcc_q8_lut_select(best);
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_q8_softmax, k, best) {
    sweep(k, lk);
    /* the other q8-lut variants on the byte-table path */
    TFCC_EACH_VARIANT(tfcc_q8_lut, l, best) {
      if (l == lk) continue;
      for (int mode = 0; mode < 8; mode++) {
        run_case(k, l, NULL, TFCC_UINT8, 9, 200, mode, &params[0], false);
        run_case(k, l, NULL, TFCC_INT8, 9, 200, mode, &params[1], false);
      }
    }
    /* the driver: threads, in place, the portable rows for what the lanes do not take */
    const qp neg = {0.1f, 1.f, -1.f / 256, 0, 100}, zp_out = {0.1f, 1.f, 1.f / 256, 0, 300};
    for (int mode = 0; mode < 8; mode++) {
      run_case(k, lk, pool, TFCC_INT8, 300, 129, mode, &params[0], false);
      run_case(k, lk, pool, TFCC_UINT8, 7, 20000, mode, &params[2], false);
      run_case(k, lk, pool, TFCC_INT8, 40, 1000, mode, &params[1], true);
      run_case(k, lk, NULL, TFCC_UINT8, 19, 45, mode, &params[4], true);
      run_case(k, lk, NULL, TFCC_INT8, 3, 77, mode, &neg, false);
      run_case(k, lk, NULL, TFCC_UINT8, 3, 77, mode, &neg, false);
      run_case(k, lk, NULL, TFCC_INT8, 3, 77, mode, &zp_out, false);
    }
    /* the pick: k for what its lanes take, the scalar rows for the rest */
    const tfcc_q8_softmax_kernel *sc = tfcc_q8_softmax_select(TFCC_ISA_GENERIC);
    for (size_t pi = 0; pi < N_PARAMS; pi++) {
      CHECK(tfcc_q8_softmax_pick(k, true, params[pi].out_scale, params[pi].zp_u8) == k);
      CHECK(tfcc_q8_softmax_pick(k, false, params[pi].out_scale, params[pi].zp_s8) == k);
    }
    CHECK(tfcc_q8_softmax_pick(k, true, 1.f / 256, 300) == k); /* uint8 ignores its zero point */
    CHECKF(tfcc_q8_softmax_pick(k, true, neg.out_scale, neg.zp_u8) == sc, "%s", k->name);
    CHECKF(tfcc_q8_softmax_pick(k, false, neg.out_scale, neg.zp_s8) == sc, "%s", k->name);
    CHECKF(tfcc_q8_softmax_pick(k, true, 0.f, 0) == sc, "%s", k->name);
    CHECKF(tfcc_q8_softmax_pick(k, false, zp_out.out_scale, zp_out.zp_s8) == sc, "%s", k->name);
    CHECKF(tfcc_q8_softmax_pick(k, false, 1.f / 256, -129) == sc, "%s", k->name);
    tested++;
  }
  printf("%d q8-softmax variants tested at CPU level %s: %d cases\n", tested, tfcc_isa_name(best),
         cases);
  tfcc_threadpool_destroy(pool);
  return tfcc_test_finish("q8_softmax");
}

/* Quantized BATCH_MATMUL on the q16-gemm micro-kernels (kernels/q16-bmm) on every variant this
 * CPU can run, against the reference kernels tfcc_bmm_i16, tfcc_bmm_i16_i8 and tfcc_bmm_i8
 * (kernels/ref/batch_matmul.c), bit for bit: sizes around the tiles (M not a multiple of MR, N of
 * NR, several panels), odd and even depths, depths around the micro-kernel's int32 flush (255
 * pairs: K 510 / 511 / 512) and several flushes, adj_x / adj_y, broadcast batch dimensions, 1
 * and 3 threads; the extreme values (-32768 / 32767 on both sides: products of 2^30, the int16
 * split's high part at -128 and 128), sums past the reference's clamp to +-2^47 and, for int8,
 * past int32 (TFLite's wrapping accumulator); multipliers with total shifts 1 (shift 14) to 62
 * (one past, 63, is refused: the reference kernel runs), reduced multipliers (0x7FFF), per-column
 * multipliers
 * (int16 x int8), ReLU ranges, int8 zero points at both ends. */
#include <stdlib.h>
#include <string.h>

#include "base/threadpool.h"
#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/q16-bmm/bmm.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 777u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static int cases_run;
/* the whole-lhs limit bmm_case passes to both calls (0: the row blocks per panel) */
static size_t lhs_max = TFCC_Q16_BMM_LHS_MAX;

/* value i of an operand: mode 0 random, 1 -32768 (int8: -128), 2 alternating ends, 3 small
 * (+-8), 4 the int16 split's edges (32767 / 32640 / -32768 / 127 / 128 / -129 / -128 / 255) */
static int32_t val(int mode, size_t i, bool i8) {
  static const int16_t edges[] = {32767, 32640, -32768, 127, 128, -129, -128, 255, -32640, -1};
  if (i8) {
    switch (mode) {
      case 1: return -128;
      case 2: return i & 1 ? 127 : -128;
      case 3: return (int32_t)(urand() % 17) - 8;
      default: return (int8_t)urand();
    }
  }
  switch (mode) {
    case 1: return -32768;
    case 2: return i % 3 ? 32767 : -32768;
    case 3: return (int32_t)(urand() % 17) - 8;
    case 4: return edges[urand() % (sizeof edges / sizeof edges[0])];
    default: return (int16_t)urand();
  }
}

typedef struct bmm_spec {
  int nbd;
  int lb[3], rb[3]; /* batch dims, left-padded with 1 */
  int m, k, n;
} bmm_spec;

/* One case: type t, values of modes lmode / rmode, shift kind sk (0: random -24..-12; 1: 14,
 * total shift 1; 2: -47, total 62; 3: one column -48 (total 63: refused); 4: -33..
 * -35, outputs near 2^14 of sums near 2^47), act 0 full range, 1 ReLU, 2 [-1000, 1000]. */
static void bmm_case(const tfcc_q16_gemm_kernel *k, tfcc_threadpool *pool, const bmm_spec *s,
                     tfcc_q16_bmm_type t, bool adj_x, bool adj_y, int lmode, int rmode, int sk,
                     int act) {
  tfcc_bmm_dims d;
  memset(&d, 0, sizeof d);
  d.nbd = s->nbd, d.m = s->m, d.k = s->k, d.n = s->n, d.adj_x = adj_x, d.adj_y = adj_y;
  size_t lb = 1, rb = 1, ob = 1;
  for (int i = 0; i < s->nbd; i++) {
    d.lhs_b[i] = s->lb[i], d.rhs_b[i] = s->rb[i];
    d.out_b[i] = s->lb[i] == 1 ? s->rb[i] : s->lb[i];
    lb *= (size_t)s->lb[i], rb *= (size_t)s->rb[i], ob *= (size_t)d.out_b[i];
  }
  const bool i8 = t == TFCC_Q16_BMM_I8, r8 = t != TFCC_Q16_BMM_I16;
  const size_t nl = lb * (size_t)s->m * s->k, nr = rb * (size_t)s->k * s->n;
  const size_t no = ob * (size_t)s->m * s->n, es = i8 ? 1 : 2;
  void *l = malloc(nl * es), *r = malloc(nr * (r8 ? 1 : 2));
  void *o0 = malloc(no * es + 64), *o1 = malloc(no * es + 64);
  int32_t *cm = malloc((size_t)s->n * sizeof(int32_t)),
          *cs = malloc((size_t)s->n * sizeof(int32_t));
  CHECK(l && r && o0 && o1 && cm && cs);
  if (!l || !r || !o0 || !o1 || !cm || !cs) goto done;
  for (size_t i = 0; i < nl; i++) {
    const int32_t v = val(lmode, i, i8);
    if (i8)
      ((int8_t *)l)[i] = (int8_t)v;
    else
      ((int16_t *)l)[i] = (int16_t)v;
  }
  for (size_t i = 0; i < nr; i++) {
    const int32_t v = val(rmode, i, r8);
    if (r8)
      ((int8_t *)r)[i] = (int8_t)v;
    else
      ((int16_t *)r)[i] = (int16_t)v;
  }
  tfcc_bmm_quant q;
  memset(&q, 0, sizeof q);
  q.mult = (int32_t)(0x40000000u + (urand() & 0x3fffffffu));
  q.shift = sk == 1   ? 14
            : sk == 2 ? -47
            : sk == 4 ? -33 - (int32_t)(urand() % 3)
                      : -(int32_t)(12 + urand() % 13);
  if (i8) { /* the int32 multiplier's shifts (left up to 31 - ...; right within 31) */
    q.shift = sk == 1 ? 2 : -(int32_t)(urand() % 20);
    /* offsets -zp: -127..128; mode 1 (-128) with -127: -255, products of 255 x 255 */
    q.lhs_offset = lmode == 1 ? -127 : (int32_t)(urand() % 256) - 127;
    q.rhs_offset = rmode == 1 ? -127 : (int32_t)(urand() % 256) - 127;
    q.output_offset = (int32_t)(urand() % 256) - 128;
    q.act_min = act == 1 ? q.output_offset : -128, q.act_max = act == 2 ? 100 : 127;
  } else {
    q.act_min = act == 1 ? 0 : act == 2 ? -1000 : -32768;
    q.act_max = act == 2 ? 1000 : 32767;
  }
  if (urand() % 4 == 0) q.mult = 0x7FFF8000 + (int32_t)(urand() & 0x7fff); /* reduced: 0x7FFF */
  if (t == TFCC_Q16_BMM_I16_I8 && urand() % 2) { /* one multiplier per column */
    for (int c = 0; c < s->n; c++) {
      cm[c] = (int32_t)(0x40000000u + (urand() & 0x3fffffffu));
      cs[c] = sk == 4   ? -33 - (int32_t)(urand() % 3)
              : sk == 2 ? -47 + (int32_t)(urand() % 4)
                        : q.shift - (int32_t)(urand() % 4);
    }
    if (sk == 3) cs[s->n / 2] = -48;
    q.col_mult = cm, q.col_shift = cs;
  } else if (sk == 3) {
    q.shift = -48;
  }
  const int threads = tfcc_threadpool_size(pool);
  if (sk == 3 && !i8) { /* a total shift of 63: the reference kernel's (not run here) */
    CHECK(!tfcc_q16_bmm_fits(&d, &q, t));
    goto done;
  }
  CHECK(tfcc_q16_bmm_fits(&d, &q, t));
  const size_t sb = tfcc_q16_bmm_scratch(k, &d, t, threads, lhs_max);
  CHECK(sb > 0);
  void *scratch = aligned_alloc(64, (sb + 63) & ~(size_t)63);
  CHECK(scratch != NULL);
  if (!scratch) goto done;
  memset(scratch, 0xa5, sb); /* no byte of it may be read before it is written */
  memset(o1, 0x5a, no * es + 64);
  if (t == TFCC_Q16_BMM_I8)
    tfcc_bmm_i8(&d, &q, l, r, o0);
  else if (t == TFCC_Q16_BMM_I16_I8)
    tfcc_bmm_i16_i8(&d, &q, l, r, o0);
  else
    tfcc_bmm_i16(&d, &q, l, r, o0);
  tfcc_q16_bmm(pool, k, &d, &q, t, lhs_max, l, r, o1, scratch);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < no * es; i++)
    if (((uint8_t *)o0)[i] != ((uint8_t *)o1)[i] && bad++ == 0) first = i;
  bool tail = true; /* nothing written past the output */
  for (size_t i = no * es; i < no * es + 64; i++) tail &= ((uint8_t *)o1)[i] == 0x5a;
  CHECK(tail);
  CHECKF(
      bad == 0,
      "%s type %d batches %d m %d k %d n %d adj %d%d modes %d/%d shift %d act %d threads %d: %zu "
      "bytes differ, first at %zu",
      k->name, (int)t, (int)ob, s->m, s->k, s->n, adj_x, adj_y, lmode, rmode, sk, act, threads, bad,
      first);
  free(scratch);
  cases_run++;
done:
  free(l), free(r), free(o0), free(o1), free(cm), free(cs);
}

static const bmm_spec specs[] = {
    {0, {0}, {0}, 1, 1, 1},
    {0, {0}, {0}, 7, 5, 9},
    {1, {4}, {4}, 13, 64, 40},      /* attention-like: heads, Q x K^T */
    {1, {3}, {3}, 17, 33, 70},      /* odd depth, three panels */
    {2, {2, 1}, {1, 3}, 5, 18, 33}, /* both broadcast */
    {3, {1, 2, 2}, {1, 1, 2}, 6, 24, 32},
    {2, {1, 2}, {2, 1}, 25, 7, 1},
    {0, {0}, {0}, 49, 100, 65}, /* more than a block of copied rows */
    {1, {2}, {1}, 8, 510, 19},  /* 255 pairs: one int32 run */
    {1, {1}, {2}, 9, 511, 34},  /* 256 steps (the last a half pair): one flush */
    {0, {0}, {0}, 3, 512, 31},  /* 256 pairs */
    {0, {0}, {0}, 4, 1300, 20}, /* several flushes */
};

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool3 = tfcc_test_pool(3);
  int tested = 0;
  const size_t ns = sizeof specs / sizeof specs[0];
  for (int ki = 0; ki < tfcc_q16_gemm_kernel_count(); ki++) {
    const tfcc_q16_gemm_kernel *k = tfcc_q16_gemm_kernel_at(ki);
    if (!tfcc_q16_gemm_usable(k, best)) {
      printf("skip %s (CPU level %s)\n", k->name, tfcc_isa_name(best));
      continue;
    }
    for (int t = 0; t < 3; t++)
      for (size_t si = 0; si < ns; si++)
        for (int adj = 0; adj < 4; adj++) {
          const int mode = (int)(si + (size_t)adj) % 5;
          bmm_case(k, (si + (size_t)adj) % 3 == 1 ? pool3 : NULL, &specs[si], (tfcc_q16_bmm_type)t,
                   adj & 1, adj >> 1, mode, (mode + 2) % 5, adj % 3, (int)si % 3);
        }
    /* the extremes: products of 2^30 both ways, the split's high parts at -128 and 128 */
    for (size_t si = 0; si < ns; si++)
      for (int m = 1; m <= 4; m++) {
        bmm_case(k, si % 2 ? pool3 : NULL, &specs[si], TFCC_Q16_BMM_I16, si % 2, (si / 2) % 2, m,
                 m == 4 ? 4 : (m % 2) + 1, si % 5 == 3 ? 3 : 4, 0);
        bmm_case(k, NULL, &specs[si], TFCC_Q16_BMM_I16_I8, (si / 2) % 2, si % 2, m, m % 3, 1, 0);
        bmm_case(k, si % 3 ? pool3 : NULL, &specs[si], TFCC_Q16_BMM_I8, si % 2, si % 2, m % 3,
                 (m + 1) % 3, 0, (int)si % 3);
      }
    /* int16 sums past +-2^47 (the reference's clamp): 140000 products of 2^30; int8 sums past
     * int32 (40000 of 255 x 255) */
    static const bmm_spec deep[] = {{0, {0}, {0}, 2, 140000, 3}, {0, {0}, {0}, 3, 40000, 5}};
    bmm_case(k, NULL, &deep[0], TFCC_Q16_BMM_I16, false, false, 1, 1, 4, 0);
    bmm_case(k, pool3, &deep[0], TFCC_Q16_BMM_I16, true, true, 2, 2, 4, 0);
    bmm_case(k, NULL, &deep[1], TFCC_Q16_BMM_I8, false, true, 1, 1, 0, 0);
    bmm_case(k, pool3, &deep[1], TFCC_Q16_BMM_I8, true, false, 1, 1, 0, 0);
    tested++;
  }
  /* the lhs copied in row blocks per panel (an lhs above the whole-lhs limit) */
  lhs_max = 0;
  for (int ki = 0; ki < tfcc_q16_gemm_kernel_count(); ki++) {
    const tfcc_q16_gemm_kernel *k = tfcc_q16_gemm_kernel_at(ki);
    if (!tfcc_q16_gemm_usable(k, best)) continue;
    for (int t = 0; t < 3; t++)
      for (size_t si = 0; si < ns; si++)
        for (int adj = 0; adj < 4; adj++)
          if (t == TFCC_Q16_BMM_I8 || (adj & 1))
            bmm_case(k, adj == 2 ? pool3 : NULL, &specs[si], (tfcc_q16_bmm_type)t, adj & 1,
                     adj >> 1, (int)si % 5, (int)(si + 3) % 5, adj % 3, (int)si % 3);
  }
  lhs_max = TFCC_Q16_BMM_LHS_MAX;
  tfcc_threadpool_destroy(pool3);
  printf("%d q16-gemm kernels tested on BATCH_MATMUL (%d cases) at CPU level %s\n", tested,
         cases_run, tfcc_isa_name(best));
  return tfcc_test_finish("q16_bmm");
}

/* int16 elementwise ADD / SUB with general scales and MUL (q16-vbinary): every variant this CPU
 * can run against the reference kernel (kernels/ref: tfcc_ref_arith_q, TFCC_AQ_ADD and
 * TFCC_AQ_MUL on int16), bit for bit: lengths around the vector widths, both inputs full,
 * either one a broadcast scalar, both scalars, output aliasing an input, scales from equal to
 * 1000x apart (add.cc's Prepare: tfcc_arith_q_prepare_add with left shift 15), SUB (negated
 * multiplier), MUL multipliers from 2^-31 to 2^7 (right and left shifts) with zero points,
 * activation ranges, the extremes -32768 / 32767; and the parameters the kernels refuse (ADD:
 * nonzero zero points; MUL: a right shift past 31). */
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/q16-vbinary/vbinary.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 777u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static int16_t val(int mode) {
  if (mode == 1) return urand() & 1 ? (int16_t)32767 : (int16_t)-32768;
  return (int16_t)(urand() & 0xffff);
}

/* The reference on shapes [n] (or [1] for a broadcast input). */
static void ref_op(tfcc_arith_qop op, const tfcc_arith_q *q, const int16_t *a, const int16_t *b,
                   int16_t *o, size_t n, int sa, int sb) {
  tfcc_bcast bc;
  const int32_t na = sa ? (int32_t)n : 1, nb = sb ? (int32_t)n : 1, no = (int32_t)n;
  const int32_t ranks[2] = {1, 1};
  const int32_t *dims[2] = {&na, &nb};
  tfcc_bcast_plan(&bc, 2, ranks, dims, 1, &no);
  CHECK(tfcc_ref_arith_q(op, TFCC_INT16, &bc, a, b, o, q));
}

static void row_case(const tfcc_q16_vbinary_kernel *k, tfcc_arith_qop op, const tfcc_arith_q *q,
                     size_t n, int sa, int sb, int mode, int alias) {
  int16_t *a = malloc((n + 1) * 2), *b = malloc((n + 1) * 2), *want = malloc((n + 1) * 2);
  int16_t *got = malloc((n + 1) * 2);
  CHECK(a && b && want && got);
  if (!a || !b || !want || !got) return;
  for (size_t i = 0; i <= n; i++) a[i] = val(mode), b[i] = val(mode);
  ref_op(op, q, a, b, want, n, sa, sb);
  tfcc_q8_vbinary_params p;
  CHECK(tfcc_q16_vbinary_params_init(op, TFCC_INT16, q, &p));
  got[n] = 0x5a5a;
  int16_t *dst = got;
  if (alias == 1 && sa) dst = a;
  if (alias == 2 && sb) dst = b;
  if (dst != got) dst[n] = 0x5a5a;
  k->fn(&p, a, b, dst, n, sa, sb);
  int bad = 0;
  for (size_t i = 0; i < n; i++) bad += dst[i] != want[i];
  CHECKF(bad == 0 && dst[n] == 0x5a5a, "%s op %d n %zu steps %d,%d mode %d alias %d: %d wrong",
         k->name, (int)op, n, sa, sb, mode, alias, bad);
  free(a), free(b), free(want), free(got);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  TFCC_CHECK_SELECTS(tfcc_q16_vbinary);
  /* scales (s1, s2, so), SUB, activation range */
  static const float sc[][3] = {{1e-3f, 1e-3f, 2e-3f},     {3.1e-4f, 7.7e-4f, 9.3e-4f},
                                {1e-5f, 1e-2f, 1e-2f},     {2.5e-3f, 1.3e-4f, 6.1e-5f},
                                {4.4e-4f, 4.3e-4f, 1e-3f}, {1e-3f, 3e-3f, 5e-4f}};
  tfcc_arith_q q;
  memset(&q, 0, sizeof q);
  tfcc_arith_q_prepare_add(&q, 1e-3f, 1, 1e-3f, 0, 1e-3f, 0, 15, false);
  q.act_min = -32768, q.act_max = 32767;
  tfcc_q8_vbinary_params p;
  CHECK(!tfcc_q16_vbinary_params_init(TFCC_AQ_ADD, TFCC_INT16, &q, &p)); /* zero point 1 */
  CHECK(!tfcc_q16_vbinary_params_init(TFCC_AQ_ADD, TFCC_INT8, &q, &p));
  CHECK(!tfcc_q16_vbinary_params_init(TFCC_AQ_DIV, TFCC_INT16, &q, &p));
  memset(&q, 0, sizeof q);
  tfcc_arith_q_prepare_mul(&q, 1e-3f, 0, 1e-3f, 0, 1.f, 0);
  q.act_min = -32768, q.act_max = 32767;
  CHECK(tfcc_q16_vbinary_params_init(TFCC_AQ_MUL, TFCC_INT16, &q, &p));
  q.out_shift = -32; /* a right shift past the lanes' 31 */
  CHECK(!tfcc_q16_vbinary_params_init(TFCC_AQ_MUL, TFCC_INT16, &q, &p));
  /* MUL scales (s1, s2, so) and zero points (z1, z2, zo): right shifts 0..31, left shifts */
  static const float msc[][3] = {{1e-3f, 1e-3f, 2e-3f}, {3.1e-4f, 7.7e-4f, 9.3e-4f},
                                 {1e-4f, 1e-4f, 1e-7f}, {1e-2f, 1e-2f, 1e-6f},
                                 {2.5e-5f, 2e-5f, 1.f}, {4.7e-5f, 3.1e-5f, 3.05e-5f},
                                 {5e-5f, 5e-5f, 0.4f},  {1.f, 1.f, 1.f}};
  static const int32_t mzp[][3] = {{0, 0, 0}, {0, 0, 0}, {3, -7, 0}, {0, 0, 5}};
  static const size_t ns[] = {1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1000};
  int tested = 0;
  for (int ki = 0; ki < tfcc_q16_vbinary_kernel_count(); ki++) {
    const tfcc_q16_vbinary_kernel *k = tfcc_q16_vbinary_kernel_at(ki);
    if (!tfcc_kernel_isa_fits(k->isa, best)) {
      printf("skip %s (CPU level %s)\n", k->name, tfcc_isa_name(best));
      continue;
    }
    for (size_t si = 0; si < sizeof sc / sizeof sc[0]; si++)
      for (int sub = 0; sub < 2; sub++)
        for (int act = 0; act < 3; act++) {
          memset(&q, 0, sizeof q);
          tfcc_arith_q_prepare_add(&q, sc[si][0], 0, sc[si][1], 0, sc[si][2], 0, 15, sub);
          q.act_min = act == 1 ? 0 : (act == 2 ? -1000 : -32768);
          q.act_max = act == 2 ? 1000 : 32767;
          for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
            for (int st = 0; st < 4; st++)
              for (int mode = 0; mode < 2; mode++)
                row_case(k, TFCC_AQ_ADD, &q, ns[ni], st & 1, st >> 1, mode, (int)((ni + si) % 3));
        }
    for (size_t si = 0; si < sizeof msc / sizeof msc[0]; si++)
      for (size_t zi = 0; zi < sizeof mzp / sizeof mzp[0]; zi++)
        for (int act = 0; act < 3; act++) {
          memset(&q, 0, sizeof q);
          tfcc_arith_q_prepare_mul(&q, msc[si][0], mzp[zi][0], msc[si][1], mzp[zi][1], msc[si][2],
                                   mzp[zi][2]);
          q.act_min = act == 1 ? 0 : (act == 2 ? -1000 : -32768);
          q.act_max = act == 2 ? 1000 : 32767;
          for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
            for (int st = 0; st < 4; st++)
              for (int mode = 0; mode < 2; mode++)
                row_case(k, TFCC_AQ_MUL, &q, ns[ni], st & 1, st >> 1, mode,
                         (int)((ni + si + zi) % 3));
        }
    tested++;
  }
  printf("%d q16-vbinary kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  return tfcc_test_finish("q16_vbinary");
}

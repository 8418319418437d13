/* Fast elementwise kernels (q8-vbinary, f32-vbinary): every variant this CPU can run produces
 * exactly the reference kernels' results (tfcc_ref_arith_q / tfcc_ref_binary). Quantized ADD,
 * SUB, MUL in both arithmetic modes (XNNPACK and builtin fixed point), int8 and uint8, random
 * and extreme zero points and scales, every fused activation; float ADD, SUB, MUL, DIV,
 * MAXIMUM, MINIMUM, SQUARED_DIFFERENCE with NaN, infinities, signed zeros and huge values.
 * Shapes: same shape (odd lengths 1..70), scalar on either side, per-channel (last dim),
 * general broadcasts; in place (output aliasing input 0 or 1); single-threaded and on a
 * 2-thread pool for tensors large enough to be split. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/kernel_families.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/ref/activation.h"
#include "kernels/ref/arith_quant.h"
#include "kernels/ref/binary.h"
#include "kernels/ref/quant_util.h"
#include "kernels/ref/xnn_quant.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 12345u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static float frand(float lo, float hi) {
  return lo + (hi - lo) * (float)(urand() % 100001) / 100000.f;
}

typedef struct shape_case {
  int ra, rb;
  int32_t da[4], db[4];
} shape_case;

static const shape_case k_shapes[] = {
    {4, 4, {1, 3, 5, 37}, {1, 3, 5, 37}}, /* same shape */
    {4, 1, {1, 4, 6, 37}, {37}},          /* per channel */
    {1, 4, {19}, {2, 3, 1, 19}},          /* per channel on input 0 */
    {4, 0, {1, 5, 7, 3}, {0}},            /* scalar input 1 */
    {0, 3, {0}, {3, 11, 5}},              /* scalar input 0 */
    {3, 3, {3, 1, 5}, {1, 4, 5}},         /* general */
    {3, 3, {2, 3, 1}, {1, 1, 4}},         /* general, row of 4 with both steps 0 / 1 */
    {2, 2, {33, 1}, {1, 17}},             /* outer product */
    {4, 4, {1, 1, 1, 1}, {1, 1, 1, 1}},   /* one element */
};
#define N_SHAPES ((int)(sizeof k_shapes / sizeof k_shapes[0]))

static int64_t plan(const int32_t *da, int ra, const int32_t *db, int rb, tfcc_bcast *bc) {
  const int32_t ranks[2] = {ra, rb};
  const int32_t *dims[2] = {da, db};
  int32_t out_rank = 0, out_dims[TFCC_MAX_DIMS], bad = 0;
  if (!tfcc_bcast_shape(2, ranks, dims, &out_rank, out_dims, &bad)) return -1;
  tfcc_bcast_plan(bc, 2, ranks, dims, out_rank, out_dims);
  return bc->elements;
}

static int64_t count(const int32_t *d, int r) {
  int64_t n = 1;
  for (int i = 0; i < r; i++) n *= d[i];
  return n;
}

/* ---------------------------------------------------------------- q8 */

typedef struct qcase {
  tfcc_arith_qop op;
  bool sub;
  bool is_signed;
  float s1, s2, so;
  int32_t z1, z2, zo;
  int act;
} qcase;

static bool make_q(const qcase *c, tfcc_arith_q *q) {
  memset(q, 0, sizeof *q);
  const int32_t lo = c->is_signed ? -128 : 0, hi = c->is_signed ? 127 : 255;
  switch (c->op) {
    case TFCC_AQ_ADD_XNN:
      tfcc_arith_q_prepare_add_xnn(q, c->s1, c->z1, c->s2, c->z2, c->so, c->zo, c->sub);
      tfcc_xnn_act_range(c->act, c->so, c->zo, lo, hi, &q->act_min, &q->act_max);
      break;
    case TFCC_AQ_ADD:
      tfcc_arith_q_prepare_add(q, c->s1, c->z1, c->s2, c->z2, c->so, c->zo, 20, c->sub);
      tfcc_act_range_q(c->act, c->so, c->zo, lo, hi, &q->act_min, &q->act_max);
      break;
    case TFCC_AQ_MUL_XNN:
      tfcc_arith_q_prepare_mul_xnn(q, c->s1, c->z1, c->s2, c->z2, c->so, c->zo);
      tfcc_xnn_act_range(c->act, c->so, c->zo, lo, hi, &q->act_min, &q->act_max);
      break;
    default:
      tfcc_arith_q_prepare_mul(q, c->s1, c->z1, c->s2, c->z2, c->so, c->zo);
      tfcc_act_range_q(c->act, c->so, c->zo, lo, hi, &q->act_min, &q->act_max);
      break;
  }
  return true;
}

static int q_refused = 0, q_run = 0;
/* run_q fills a[i] = i and b[i] = i >> 8 (every byte pair once per 65536 elements). */
static bool g_all_pairs = false;

/* inplace: 0 separate output, 1 output is input 0's buffer, 2 input 1's. */
static void run_q(const tfcc_q8_vbinary_kernel *k, tfcc_threadpool *pool, const qcase *c,
                  const int32_t *da, int ra, const int32_t *db, int rb, int inplace) {
  tfcc_bcast bc;
  const int64_t n = plan(da, ra, db, rb, &bc);
  if (n < 0) return;
  const int64_t na = count(da, ra), nb = count(db, rb);
  if (inplace == 1 && na != n) return;
  if (inplace == 2 && nb != n) return;
  const tfcc_dtype dt = c->is_signed ? TFCC_INT8 : TFCC_UINT8;
  tfcc_arith_q q;
  make_q(c, &q);
  tfcc_q8_vbinary_params p;
  if (!tfcc_q8_vbinary_params_init(c->op, dt, &q, &p)) {
    q_refused++;
    return;
  }
  q_run++;
  uint8_t *a = malloc((size_t)na + 1), *b = malloc((size_t)nb + 1);
  uint8_t *want = malloc((size_t)n + 1), *got = malloc((size_t)n + 1);
  for (int64_t i = 0; i < na; i++) a[i] = (uint8_t)urand();
  for (int64_t i = 0; i < nb; i++) b[i] = (uint8_t)urand();
  /* extremes of the storage range */
  for (int64_t i = 0; i < na; i += 5) a[i] = (i / 5) % 2 ? 0x80 : 0x7F;
  for (int64_t i = 0; i < nb; i += 7) b[i] = (i / 7) % 2 ? 0x00 : 0xFF;
  if (g_all_pairs) {
    for (int64_t i = 0; i < na; i++) a[i] = (uint8_t)i;
    for (int64_t i = 0; i < nb; i++) b[i] = (uint8_t)(i >> 8);
    if (na == 1) a[0] = 0x81;
    if (nb == 1) b[0] = 0xC3;
  }
  CHECK(tfcc_ref_arith_q(c->op, dt, &bc, a, b, want, &q));
  memset(got, 0xEE, (size_t)n + 1);
  const uint8_t *pa = a, *pb = b;
  uint8_t *po = got;
  if (inplace == 1) {
    memcpy(got, a, (size_t)n);
    pa = got;
  } else if (inplace == 2) {
    memcpy(got, b, (size_t)n);
    pb = got;
  }
  tfcc_q8_vbinary_run(pool, k, &p, &bc, pa, pb, po);
  int bad = 0;
  for (int64_t i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ < 3)
      fprintf(stderr, "%s: out[%lld] = %d, want %d (a %d b %d)\n", k->name, (long long)i, got[i],
              want[i], c->is_signed ? (int8_t)a[i % na] : a[i % na],
              c->is_signed ? (int8_t)b[i % nb] : b[i % nb]);
  CHECKF(bad == 0 && got[n] == 0xEE,
         "%s op %d%s %s s %g/%g/%g zp %d/%d/%d act %d shape %lld/%lld inplace %d: %d wrong",
         k->name, (int)c->op, c->sub ? " (sub)" : "", c->is_signed ? "s8" : "u8", (double)c->s1,
         (double)c->s2, (double)c->so, c->z1, c->z2, c->zo, c->act, (long long)na, (long long)nb,
         inplace, bad);
  free(a);
  free(b);
  free(want);
  free(got);
}

static void random_qcase(qcase *c, tfcc_arith_qop op, bool is_signed, int variety) {
  c->op = op;
  c->is_signed = is_signed;
  c->sub = (op == TFCC_AQ_ADD || op == TFCC_AQ_ADD_XNN) && (urand() % 2);
  const int32_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  switch (variety % 4) {
    case 0: /* typical */
      c->s1 = frand(0.01f, 0.2f);
      c->s2 = frand(0.01f, 0.2f);
      c->so = frand(0.02f, 0.3f);
      break;
    case 1: /* very different input scales */
      c->s1 = frand(0.001f, 0.002f);
      c->s2 = frand(0.5f, 1.0f);
      c->so = frand(0.01f, 0.5f);
      break;
    case 2: /* output much finer / coarser than inputs */
      c->s1 = frand(0.1f, 1.f);
      c->s2 = frand(0.1f, 1.f);
      c->so = (urand() % 2) ? frand(0.002f, 0.005f) : frand(5.f, 20.f);
      break;
    default: /* equal scales */ c->s1 = c->s2 = c->so = frand(0.005f, 0.1f); break;
  }
  const int32_t zs[] = {lo, hi, (lo + hi) / 2, lo + 1, hi - 1};
  c->z1 = (urand() % 3) ? lo + (int32_t)(urand() % 256) : zs[urand() % 5];
  c->z2 = (urand() % 3) ? lo + (int32_t)(urand() % 256) : zs[urand() % 5];
  c->zo = (urand() % 3) ? lo + (int32_t)(urand() % 256) : zs[urand() % 5];
  c->act = (int)(urand() % 4);
}

static void test_q8(const tfcc_q8_vbinary_kernel *k, tfcc_threadpool *pool) {
  static const tfcc_arith_qop ops[] = {TFCC_AQ_ADD_XNN, TFCC_AQ_ADD, TFCC_AQ_MUL_XNN, TFCC_AQ_MUL};
  for (int oi = 0; oi < 4; oi++)
    for (int sg = 0; sg < 2; sg++)
      for (int variety = 0; variety < 8; variety++) {
        qcase c;
        random_qcase(&c, ops[oi], sg == 1, variety);
        for (int s = 0; s < N_SHAPES; s++)
          for (int ip = 0; ip < 3; ip++)
            run_q(k, NULL, &c, k_shapes[s].da, k_shapes[s].ra, k_shapes[s].db, k_shapes[s].rb, ip);
        for (int32_t len = 1; len <= 70; len += (len < 34 ? 1 : 9)) {
          const int32_t d[1] = {len}, one[1] = {1};
          run_q(k, NULL, &c, d, 1, d, 1, 0);
          run_q(k, NULL, &c, d, 1, one, 1, 0);
          run_q(k, NULL, &c, one, 1, d, 1, 2);
        }
      }
  /* ADD / SUB: every byte pair, extreme scale ratios (XNNPACK's limits 2^-10 and 2^8, multipliers up to
   * 2^21), zero points at the storage limits, all activations: same shape (65536 + 45: the
   * 64-wide loop and its tail), a scalar on either side (the constant folded into the bias),
   * per-channel rows of 300 (64-wide loop restarting on each row). */
  {
    static const float ratio[][2] = {{0x1.0p-10f, 0x1.0p-10f}, {255.9f, 0.001f}, {0.001f, 255.9f},
                                     {255.9f, 255.9f},         {1.f, 1.f},       {0.37f, 3.1f}};
    g_all_pairs = true;
    for (int oi = 0; oi < 2; oi++) /* ADD / SUB in both modes (the 16-bit and table paths) */
      for (int sg = 0; sg < 2; sg++)
        for (int r = 0; r < 6; r++) {
          qcase c;
          random_qcase(&c, ops[oi], sg == 1, r);
          c.so = 0.05f;
          c.s1 = ratio[r][0] * c.so;
          c.s2 = ratio[r][1] * c.so;
          const int32_t lo = sg ? -128 : 0, hi = sg ? 127 : 255;
          if (r % 2) {
            c.z1 = lo;
            c.z2 = hi;
            c.zo = r % 3 ? hi : lo;
          }
          c.sub = (oi == 0 || oi == 1) && (r % 2 == 0);
          c.act = r % 4;
          const int32_t all[1] = {65536 + 45}, one[1] = {1}, rows[2] = {219, 300}, ch[1] = {300};
          run_q(k, NULL, &c, all, 1, all, 1, 0);
          run_q(k, NULL, &c, all, 1, one, 1, 1);
          run_q(k, NULL, &c, one, 1, all, 1, 2);
          run_q(k, NULL, &c, rows, 2, ch, 1, 0);
        }
    g_all_pairs = false;
  }
  /* split over threads: same shape, per channel, scalar */
  for (int oi = 0; oi < 4; oi++) {
    qcase c;
    random_qcase(&c, ops[oi], oi % 2 == 0, oi);
    const int32_t big[3] = {61, 41, 67}, ch[1] = {67}, one[1] = {1};
    run_q(k, pool, &c, big, 3, big, 3, 1);
    run_q(k, pool, &c, big, 3, ch, 1, 0);
    run_q(k, pool, &c, one, 1, big, 3, 2);
  }
}

/* ---------------------------------------------------------------- f32 */

static float special(void) {
  static const float v[] = {0.f, -0.f, 1.f, -1.f, 6.f, -6.f, 0.5f, 3e38f, -3e38f, 1e-40f, -1e-40f};
  switch (urand() % 8) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3:
    case 4: return v[urand() % (sizeof v / sizeof v[0])];
    default: return frand(-10.f, 10.f);
  }
}

static bool same_f32(float x, float y) {
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  return memcmp(&x, &y, sizeof x) == 0;
}

static void run_f(const tfcc_f32_vbinary_kernel *k, tfcc_threadpool *pool, tfcc_binop op, int act,
                  const int32_t *da, int ra, const int32_t *db, int rb, int inplace) {
  tfcc_bcast bc;
  const int64_t n = plan(da, ra, db, rb, &bc);
  if (n < 0) return;
  const int64_t na = count(da, ra), nb = count(db, rb);
  if (inplace == 1 && na != n) return;
  if (inplace == 2 && nb != n) return;
  float *a = malloc(sizeof(float) * (size_t)na), *b = malloc(sizeof(float) * (size_t)nb);
  float *want = malloc(sizeof(float) * (size_t)n), *got = malloc(sizeof(float) * (size_t)(n + 1));
  for (int64_t i = 0; i < na; i++) a[i] = urand() % 4 ? frand(-8.f, 8.f) : special();
  for (int64_t i = 0; i < nb; i++) b[i] = urand() % 4 ? frand(-8.f, 8.f) : special();
  tfcc_binary_act ra_;
  tfcc_binary_act_range(op <= TFCC_BIN_DIV ? act : TFCC_ACT_NONE, &ra_);
  CHECK(tfcc_ref_binary(op, TFCC_FLOAT32, &bc, a, b, want, &ra_));
  const float guard = 1234.5f;
  got[n] = guard;
  const float *pa = a, *pb = b;
  if (inplace == 1) {
    memcpy(got, a, sizeof(float) * (size_t)n);
    pa = got;
  } else if (inplace == 2) {
    memcpy(got, b, sizeof(float) * (size_t)n);
    pb = got;
  }
  tfcc_f32_vbinary_op fop = TFCC_F32VB_ADD;
  CHECK(tfcc_f32_vbinary_op_of(op, &fop));
  const tfcc_f32_vbinary_params p = {fop, ra_.f_lo, ra_.f_hi};
  tfcc_f32_vbinary_run(pool, k, &p, &bc, pa, pb, got);
  int bad = 0;
  for (int64_t i = 0; i < n; i++)
    if (!same_f32(got[i], want[i]) && bad++ < 3)
      fprintf(stderr, "%s: op %d out[%lld] = %g, want %g\n", k->name, (int)op, (long long)i,
              (double)got[i], (double)want[i]);
  CHECKF(bad == 0 && got[n] == guard, "%s op %d act %d shape %lld/%lld inplace %d: %d wrong",
         k->name, (int)op, act, (long long)na, (long long)nb, inplace, bad);
  free(a);
  free(b);
  free(want);
  free(got);
}

static void run_prelu(const tfcc_f32_vbinary_kernel *k, tfcc_threadpool *pool, const int32_t *di,
                      int ri, const int32_t *da, int ra, int inplace) {
  tfcc_bcast bc;
  const int64_t n = plan(di, ri, da, ra, &bc), nal = count(da, ra);
  CHECK(n == count(di, ri));
  int64_t strides[TFCC_MAX_DIMS] = {0}, st = 1;
  for (int d = ra - 1; d >= 0; d--) {
    strides[ri - ra + d] = da[d] == 1 ? 0 : st;
    st *= da[d];
  }
  float *x = malloc(sizeof(float) * (size_t)n), *al = malloc(sizeof(float) * (size_t)nal);
  float *want = malloc(sizeof(float) * (size_t)n), *got = malloc(sizeof(float) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++) x[i] = urand() % 4 ? frand(-8.f, 8.f) : special();
  for (int64_t i = 0; i < nal; i++) al[i] = urand() % 4 ? frand(-1.f, 1.f) : special();
  tfcc_prelu_f32(x, al, want, ri, di, strides);
  got[n] = 1234.5f;
  const float *px = x;
  if (inplace) {
    memcpy(got, x, sizeof(float) * (size_t)n);
    px = got;
  }
  const tfcc_f32_vbinary_params p = {TFCC_F32VB_PRELU, -INFINITY, INFINITY};
  tfcc_f32_vbinary_run(pool, k, &p, &bc, px, al, got);
  int bad = 0;
  for (int64_t i = 0; i < n; i++)
    if (!same_f32(got[i], want[i]) && bad++ < 3)
      fprintf(stderr, "%s: prelu out[%lld] = %g, want %g\n", k->name, (long long)i, (double)got[i],
              (double)want[i]);
  CHECKF(bad == 0 && got[n] == 1234.5f, "%s prelu %lld/%lld inplace %d: %d wrong", k->name,
         (long long)n, (long long)nal, inplace, bad);
  free(x);
  free(al);
  free(want);
  free(got);
}

static void test_f32(const tfcc_f32_vbinary_kernel *k, tfcc_threadpool *pool) {
  static const tfcc_binop ops[] = {TFCC_BIN_ADD, TFCC_BIN_SUB, TFCC_BIN_MUL,   TFCC_BIN_DIV,
                                   TFCC_BIN_MAX, TFCC_BIN_MIN, TFCC_BIN_SQDIFF};
  for (int oi = 0; oi < 7; oi++) {
    for (int act = 0; act < 4; act++) {
      for (int s = 0; s < N_SHAPES; s++)
        for (int ip = 0; ip < 3; ip++)
          run_f(k, NULL, ops[oi], act, k_shapes[s].da, k_shapes[s].ra, k_shapes[s].db,
                k_shapes[s].rb, ip);
      for (int32_t len = 1; len <= 70; len += (len < 34 ? 1 : 9)) {
        const int32_t d[1] = {len}, one[1] = {1};
        run_f(k, NULL, ops[oi], act, d, 1, d, 1, 0);
        run_f(k, NULL, ops[oi], act, d, 1, one, 1, 1);
        run_f(k, NULL, ops[oi], act, one, 1, d, 1, 0);
      }
    }
    const int32_t big[3] = {61, 41, 67}, ch[1] = {67}, one[1] = {1};
    run_f(k, pool, ops[oi], oi % 4, big, 3, big, 3, 2);
    run_f(k, pool, ops[oi], oi % 4, big, 3, ch, 1, 1);
    run_f(k, pool, ops[oi], oi % 4, one, 1, big, 3, 0);
  }
  tfcc_f32_vbinary_op fop;
  CHECK(!tfcc_f32_vbinary_op_of(TFCC_BIN_POW, &fop));
  CHECK(!tfcc_f32_vbinary_op_of(TFCC_BIN_FLOOR_MOD, &fop));
  /* PRELU: alpha broadcast to the input's shape (the output keeps the input's shape) */
  static const struct {
    int ri, ra;
    int32_t di[4], da[4];
  } pc[] = {{4, 3, {1, 9, 7, 37}, {1, 1, 37}}, {4, 4, {1, 5, 6, 19}, {1, 5, 6, 19}},
            {4, 1, {2, 3, 4, 5}, {1}},         {4, 4, {1, 3, 4, 16}, {1, 3, 1, 16}},
            {3, 2, {3, 33, 2}, {33, 1}},       {2, 1, {61, 2011}, {2011}}};
  for (size_t c = 0; c < sizeof pc / sizeof pc[0]; c++)
    for (int ip = 0; ip < 2; ip++)
      run_prelu(k, c + 1 == sizeof pc / sizeof pc[0] ? pool : NULL, pc[c].di, pc[c].ri, pc[c].da,
                pc[c].ra, ip);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS(tfcc_q8_vbinary);
  TFCC_CHECK_SELECTS(tfcc_f32_vbinary);
  int tested = 0;
  TFCC_EACH_VARIANT_IF(tfcc_q8_vbinary, k, best, tfcc_q8_vbinary_usable(k, best)) {
    test_q8(k, pool);
    tested++;
  }
  TFCC_EACH_VARIANT(tfcc_f32_vbinary, k, best) {
    test_f32(k, pool);
    tested++;
  }
  printf("%d elementwise kernels tested at CPU level %s; q8 cases run %d, refused %d\n", tested,
         tfcc_isa_name(best), q_run, q_refused);
  CHECK(q_run > 0 && q_refused * 20 < q_run);
  tfcc_threadpool_destroy(pool);
  return tfcc_test_finish("vbinary");
}

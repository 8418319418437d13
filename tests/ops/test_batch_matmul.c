/* BATCH_MATMUL: float32 / int8 / int16, adj_x / adj_y, batch broadcasting, against a double
 * reference (quantized: at most 1 unit off, differences counted). */
#include "conv_family_test_util.h"
#include "kernels/tflite-f32/eigen_f32.h"

/* exact6: tfcc_eigen_bmm_f32 (the classic interpreter's Eigen GEMM order, column blocks of 64,
 * two sums at a time) against the order of eigen_f32.h written one output at a time: paths
 * (M or N 1, K + M + N under 20, GEBP with its 4-row groups and remaining rows), panels over
 * K 816, adj_x / adj_y, broadcasting; bit for bit. */
static float eigen_dot(const float *a, size_t ap, const float *b, size_t bp, int32_t k, int32_t kc,
                       bool pair) {
  float tot = 0.f;
  for (int32_t k0 = 0; k0 < k; k0 += kc) {
    const int32_t k1 = k0 + kc < k ? k0 + kc : k, peel = pair ? k0 + ((k1 - k0) / 8) * 8 : k0;
    float c = 0.f, e = 0.f;
    int32_t p = k0;
    for (; p < peel; p++) {
      const float v = a[(size_t)p * ap] * b[(size_t)p * bp];
      if ((p - k0) % 2)
        e = e + v;
      else
        c = c + v;
    }
    if (pair) c = c + e;
    for (; p < k1; p++) {
      const float v = a[(size_t)p * ap] * b[(size_t)p * bp];
      c = c + v;
    }
    tot = tot + c;
  }
  return tot;
}

static void eigen_order_case(int32_t bl, int32_t br, int32_t m, int32_t k, int32_t n, bool ax,
                             bool ay) {
  tfcc_bmm_dims d;
  memset(&d, 0, sizeof d);
  d.nbd = 1;
  d.out_b[0] = bl > br ? bl : br, d.lhs_b[0] = bl, d.rhs_b[0] = br;
  d.m = m, d.k = k, d.n = n, d.adj_x = ax, d.adj_y = ay;
  const size_t nl = (size_t)bl * m * k, nr = (size_t)br * k * n, no = (size_t)d.out_b[0] * m * n;
  float *l = malloc(nl * 4), *r = malloc(nr * 4), *got = malloc(no * 4);
  for (size_t i = 0; i < nl; i++) l[i] = oh_randf(-2, 2);
  for (size_t i = 0; i < nr; i++) r[i] = oh_randf(-2, 2);
  tfcc_eigen_bmm_f32(&d, l, r, got);
  const bool gebp = m > 1 && n > 1 && k + m + n >= 20;
  const int32_t kc = gebp ? tfcc_eigen_gemm_kc(k, m, n) : k;
  size_t bad = 0;
  for (int32_t b = 0; b < d.out_b[0]; b++) {
    size_t lo, ro;
    tfcc_bmm_batch_offsets(&d, b, &lo, &ro);
    for (int32_t i = 0; i < m; i++)
      for (int32_t j = 0; j < n; j++) {
        const float *a = l + lo + (ax ? (size_t)i : (size_t)i * k);
        const float *c = r + ro + (ay ? (size_t)j * k : (size_t)j);
        const float w =
            eigen_dot(a, ax ? (size_t)m : 1, c, ay ? 1 : (size_t)n, k, kc, gebp && i < m / 4 * 4);
        bad += memcmp(&w, &got[((size_t)b * m + i) * n + j], 4) != 0;
      }
  }
  CHECKF(bad == 0, "eigen bmm %dx%dx%d adj %d %d: %zu differ", (int)m, (int)k, (int)n, ax, ay, bad);
  free(l), free(r), free(got);
}

static void eigen_order_cases(void) {
  CHECK(tfcc_eigen_gemm_kc(816, 64, 64) == 816 && tfcc_eigen_gemm_kc(1000, 8, 8) == 504 &&
        tfcc_eigen_gemm_kc(1632, 8, 8) == 816);
  eigen_order_case(2, 2, 5, 37, 6, false, false); /* the probe's shape */
  eigen_order_case(1, 3, 9, 100, 70, true, false);
  eigen_order_case(2, 1, 7, 1000, 5, false, true); /* two panels of 504 + 496 */
  eigen_order_case(1, 1, 1, 50, 9, false, false);  /* matrix-vector */
  eigen_order_case(1, 1, 6, 50, 1, true, true);
  eigen_order_case(1, 1, 4, 8, 5, false, false); /* K + M + N under 20 */
  eigen_order_case(1, 1, 12, 17, 130, false, false);
}

static void run(tfcc_dtype dt, int32_t lr, const int32_t *ld, int32_t rr, const int32_t *rd,
                bool ax, bool ay, int32_t orank, const int32_t *od) {
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_BATCH_MATMUL;
  c.n_in = 2;
  int64_t nl = 1, nr = 1, no = 1;
  for (int i = 0; i < lr; i++) nl *= ld[i];
  for (int i = 0; i < rr; i++) nr *= rd[i];
  for (int i = 0; i < orank; i++) no *= od[i];
  void *l = malloc((size_t)nl * 4), *r = malloc((size_t)nr * 4);
  double *rl = malloc(sizeof(double) * (size_t)nl), *rrv = malloc(sizeof(double) * (size_t)nr);
  float ls = dt == TFCC_INT16 ? 0.001f : 0.05f, rs = dt == TFCC_INT16 ? 0.002f : 0.03f;
  float os = dt == TFCC_INT16 ? 0.02f : 0.2f;
  int32_t lz = dt == TFCC_INT8 ? 3 : 0, rz = dt == TFCC_INT8 ? -5 : 0,
          oz = dt == TFCC_INT8 ? -2 : 0;
  for (int64_t i = 0; i < nl; i++) {
    if (dt == TFCC_FLOAT32) {
      ((float *)l)[i] = oh_randf(-1, 1);
      rl[i] = ((float *)l)[i];
    } else if (dt == TFCC_INT8) {
      int32_t v = oh_randi(-128, 127);
      ((int8_t *)l)[i] = (int8_t)v;
      rl[i] = (double)ls * (v - lz);
    } else {
      int32_t v = oh_randi(-32768, 32767);
      ((int16_t *)l)[i] = (int16_t)v;
      rl[i] = (double)ls * v;
    }
  }
  for (int64_t i = 0; i < nr; i++) {
    if (dt == TFCC_FLOAT32) {
      ((float *)r)[i] = oh_randf(-1, 1);
      rrv[i] = ((float *)r)[i];
    } else if (dt == TFCC_INT8) {
      int32_t v = oh_randi(-128, 127);
      ((int8_t *)r)[i] = (int8_t)v;
      rrv[i] = (double)rs * (v - rz);
    } else {
      int32_t v = oh_randi(-32768, 32767);
      ((int16_t *)r)[i] = (int16_t)v;
      rrv[i] = (double)rs * v;
    }
  }
  tt_set(&c.in[0], dt, lr, ld, l);
  tt_set(&c.in[1], dt, rr, rd, r);
  tt_set(&c.out, dt, orank, od, NULL);
  if (dt != TFCC_FLOAT32) {
    tt_q(&c.in[0], ls, lz);
    tt_q(&c.in[1], rs, rz);
    tt_q(&c.out, os, oz);
  }
  if (ax) tt_opt_i(&c, 0, TFB_U8, 1);
  if (ay) tt_opt_i(&c, 1, TFB_U8, 1);
  CHECKF(tt_run(&c, true) == TFCC_OK, "%s", c.err.msg);
  if (c.out_data) {
    CHECK(c.out_rank == orank);
    for (int i = 0; i < orank; i++) CHECK(c.out_dims[i] == od[i]);
    int32_t M = od[orank - 2], N = od[orank - 1];
    int32_t K = ax ? ld[lr - 2] : ld[lr - 1];
    int32_t Lm = ld[lr - 2], Lk = ld[lr - 1], Rk = rd[rr - 2], Rn = rd[rr - 1];
    double *want = malloc(sizeof(double) * (size_t)no);
    int64_t nb = no / ((int64_t)M * N);
    for (int64_t b = 0; b < nb; b++) {
      /* batch index -> lhs/rhs batch (broadcast) */
      int64_t rem = b, lb = 0, rb = 0, lmul = 1, rmul = 1;
      for (int i = orank - 3; i >= 0; i--) {
        int64_t idx = rem % od[i];
        rem /= od[i];
        int li = i - (orank - lr), ri = i - (orank - rr);
        if (li >= 0) {
          if (ld[li] != 1) lb += idx * lmul;
          lmul *= ld[li];
        }
        if (ri >= 0) {
          if (rd[ri] != 1) rb += idx * rmul;
          rmul *= rd[ri];
        }
      }
      for (int32_t i = 0; i < M; i++)
        for (int32_t j = 0; j < N; j++) {
          double s = 0;
          for (int32_t k = 0; k < K; k++) {
            double a = ax ? rl[lb * Lm * Lk + (int64_t)k * Lk + i]
                          : rl[lb * Lm * Lk + (int64_t)i * Lk + k];
            double bb = ay ? rrv[rb * Rk * Rn + (int64_t)j * Rn + k]
                           : rrv[rb * Rk * Rn + (int64_t)k * Rn + j];
            s += a * bb;
          }
          want[(b * M + i) * N + j] = s;
        }
    }
    if (dt == TFCC_FLOAT32) {
      oh_cmp_f("bmm float", c.out_data, want, no, 1e-5);
    } else {
      int32_t lo = dt == TFCC_INT8 ? -128 : -32768, hi = dt == TFCC_INT8 ? 127 : 32767;
      int32_t *g = malloc(sizeof(int32_t) * (size_t)no), *w = malloc(sizeof(int32_t) * (size_t)no);
      for (int64_t i = 0; i < no; i++) {
        g[i] = oh_get_q(c.out_data, dt, i);
        w[i] = tt_quantize(want[i], os, oz, lo, hi);
      }
      int64_t nd = oh_cmp_q("bmm q", g, w, no, 1);
      printf("bmm %s: %lld/%lld off by one\n", tfcc_dtype_name(dt), (long long)nd, (long long)no);
      CHECK(nd * 6 <= no);
      free(g);
      free(w);
    }
    CHECK(c.macs == no * K);
    free(want);
  }
  tt_done(&c);
  free(l);
  free(r);
  free(rl);
  free(rrv);
}

/* exact53: a float32 rhs that is a constant of the file is packed for the GEMM at the first
 * prepare (no per-run scratch) and gives exactly the bits of the per-run packing (the same rhs
 * as a run-time input): rhs batches, adj_y, a broadcast rhs, K over the packing's K block. */
static void const_rhs_case_packed(int32_t lr, const int32_t *ld, int32_t rr, const int32_t *rd,
                                  bool ay, int32_t orank, const int32_t *od, bool at_load) {
  int64_t nl = 1, nr = 1, no = 1;
  for (int i = 0; i < lr; i++) nl *= ld[i];
  for (int i = 0; i < rr; i++) nr *= rd[i];
  for (int i = 0; i < orank; i++) no *= od[i];
  float *l = malloc((size_t)nl * 4), *r = malloc((size_t)nr * 4);
  for (int64_t i = 0; i < nl; i++) l[i] = oh_randf(-2, 2);
  for (int64_t i = 0; i < nr; i++) r[i] = oh_randf(-2, 2);
  tt_case c[2];
  for (int v = 0; v < 2; v++) {
    memset(&c[v], 0, sizeof c[v]);
    c[v].builtin = TFCC_OP_BATCH_MATMUL;
    c[v].n_in = 2;
    tt_set(&c[v].in[0], TFCC_FLOAT32, lr, ld, l);
    c[v].in[0].not_const = true;
    tt_set(&c[v].in[1], TFCC_FLOAT32, rr, rd, r);
    c[v].in[1].not_const = v == 1;
    tt_set(&c[v].out, TFCC_FLOAT32, orank, od, NULL);
    if (ay) tt_opt_i(&c[v], 1, TFB_U8, 1);
    CHECKF(tt_run(&c[v], true) == TFCC_OK, "%s", c[v].err.msg);
  }
  if (c[0].out_data && c[1].out_data) {
    CHECKF(memcmp(c[0].out_data, c[1].out_data, (size_t)no * 4) == 0,
           "constant rhs (rank %d, adj_y %d): other bits than the per-run packing", (int)rr,
           (int)ay);
    CHECKF((c[0].scratch_bytes == 0) == at_load && c[1].scratch_bytes > 0,
           "scratch %zu (constant rhs, %s at load) and %zu (run-time rhs)", c[0].scratch_bytes,
           at_load ? "packed" : "not packed", c[1].scratch_bytes);
  }
  tt_done(&c[0]);
  tt_done(&c[1]);
  free(l);
  free(r);
}

static void const_rhs_case(int32_t lr, const int32_t *ld, int32_t rr, const int32_t *rd, bool ay,
                           int32_t orank, const int32_t *od) {
  const_rhs_case_packed(lr, ld, rr, rd, ay, orank, od, true);
}

static void const_rhs_cases(void) {
  const int32_t l1[3] = {2, 7, 33}, r1[3] = {2, 33, 19}, o1[3] = {2, 7, 19};
  const_rhs_case(3, l1, 3, r1, false, 3, o1); /* two rhs batches */
  const int32_t r2[3] = {2, 19, 33};
  const_rhs_case(3, l1, 3, r2, true, 3, o1); /* adj_y */
  const int32_t l3[4] = {3, 2, 6, 40}, r3[3] = {1, 40, 17}, o3[4] = {3, 2, 6, 17};
  const_rhs_case(4, l3, 3, r3, false, 4, o3); /* one rhs for every lhs batch */
  const int32_t l4[2] = {4, 600}, r4[2] = {600, 40}, o4[2] = {4, 40};
  const_rhs_case(2, l4, 2, r4, false, 2, o4); /* K in two blocks of the packing */
  const int32_t l5[3] = {2, 9, 600}, r5[2] = {37, 600}, o5[3] = {2, 9, 37};
  const_rhs_case(3, l5, 2, r5, true, 3, o5);
  /* fuzz55: 8192 matrices of 1 x 1 (32 KiB) pack to 64 to 256 bytes each (0.5 to 2 MiB, over
   * 4 x the rhs + 64 KiB): not packed at load; each run packs into scratch, the same bits */
  const int32_t l6[3] = {8192, 3, 1}, r6[3] = {8192, 1, 1}, o6[3] = {8192, 3, 1};
  const_rhs_case_packed(3, l6, 3, r6, false, 3, o6, false);
  const_rhs_case_packed(3, l6, 3, r6, true, 3, o6, false);
  /* one 1 x 4000 rhs (16 KB) packs to 32 KB (K + 1 rows) at every NR: 2 x, packed at load */
  const int32_t l7[2] = {5, 1}, r7[2] = {1, 4000}, o7[2] = {5, 4000};
  const_rhs_case_packed(2, l7, 2, r7, false, 2, o7, true);
}

/* A hybrid rhs of many tiny matrices: each matrix's hybrid keeps about 1 KiB besides its
 * weights, so their state is bounded by the rhs's bytes (4 x + 4 MiB): 4096 matrices of 1 x 1
 * run, 4113 are refused at init naming why (60,000 of them in 60 KB of a file took 53 MB, and
 * a [2^24, 1, 1] rhs of 16 MB would have made 15 GB of hybrids). */
static void hybrid_rhs_matrices(void) {
  static float lhs[4113], want[4113];
  static int8_t w[4113];
  for (int i = 0; i < 4113; i++) {
    w[i] = (int8_t)(i % 255 - 127);
    lhs[i] = (float)(i % 9 - 4) * 0.5f;
    want[i] = lhs[i] * (float)w[i] * 0.02f; /* one lhs value, symmetric quantization: exact */
  }
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_BATCH_MATMUL;
  c.n_in = 2;
  int32_t d[3] = {4096, 1, 1};
  tt_set(&c.in[0], TFCC_FLOAT32, 3, d, lhs);
  tt_set(&c.in[1], TFCC_INT8, 3, d, w);
  tt_q(&c.in[1], 0.02f, 0);
  tt_set(&c.out, TFCC_FLOAT32, 3, d, NULL);
  const tfcc_status st = tt_run(&c, true);
  CHECKF(st == TFCC_OK, "hybrid rhs of 4096 matrices of 1 x 1: %s", c.err.msg);
  if (st == TFCC_OK) {
    int bad = 0;
    for (int i = 0; i < 4096; i++) bad += fabsf(((const float *)c.out_data)[i] - want[i]) > 1e-5f;
    CHECKF(bad == 0, "hybrid rhs of 4096 matrices of 1 x 1: %d outputs off", bad);
  }
  tt_done(&c);
  d[0] = 4113;
  tt_set(&c.in[0], TFCC_FLOAT32, 3, d, lhs);
  tt_set(&c.in[1], TFCC_INT8, 3, d, w);
  tt_q(&c.in[1], 0.02f, 0);
  tt_set(&c.out, TFCC_FLOAT32, 3, d, NULL);
  tt_expect_fail(&c, false, "hybrid int8 rhs of 4113 matrices of 1 bytes: one hybrid each");
}

/* A hybrid rhs with matrices, each serving several output batches (lhs batches broadcast over
 * the rhs's): the lhs matrices of one rhs matrix run gathered, g at a time, as one call of g * m
 * rows (batch_matmul.c hyb_gather); every output batch must hold the bits of that lhs matrix
 * against its rhs matrix run alone (a 2-D BATCH_MATMUL). lhs batch dims [5, 2, 1] against rhs
 * [2, 3] (6 matrices, 5 output batches each): K 7 (one gather of 5), K 30,000 (gathers of 2, 2
 * and 1: the rows past 256 KiB split). */
static void hybrid_gathered_case(int32_t k, int32_t n, int32_t m) {
  const int32_t nb = 30, rb = 6;
  float *lhs = malloc(sizeof(float) * (size_t)5 * 2 * (size_t)m * (size_t)k);
  int8_t *w = malloc((size_t)rb * (size_t)k * (size_t)n);
  CHECK(lhs && w);
  if (!lhs || !w) {
    free(lhs);
    free(w);
    return;
  }
  for (size_t i = 0; i < (size_t)10 * (size_t)m * (size_t)k; i++)
    lhs[i] = (float)((int)(i * 7 % 23) - 11) * 0.37f;
  for (size_t i = 0; i < (size_t)rb * (size_t)k * (size_t)n; i++)
    w[i] = (int8_t)(i * 13 % 255 - 127);
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_BATCH_MATMUL;
  c.n_in = 2;
  const int32_t ld[5] = {5, 2, 1, m, k}, rd[4] = {2, 3, k, n}, od[5] = {5, 2, 3, m, n};
  tt_set(&c.in[0], TFCC_FLOAT32, 5, ld, lhs);
  tt_set(&c.in[1], TFCC_INT8, 4, rd, w);
  tt_q(&c.in[1], 0.021f, 0);
  tt_set(&c.out, TFCC_FLOAT32, 5, od, NULL);
  tfcc_status st = tt_run(&c, true);
  CHECKF(st == TFCC_OK, "gathered hybrid k %d: %s", (int)k, c.err.msg);
  int bad = 0;
  for (int32_t ob = 0; st == TFCC_OK && ob < nb; ob++) {
    const int32_t b0 = ob / 6, b1 = ob / 3 % 2, b2 = ob % 3; /* out [5, 2, 3] */
    tt_case one;
    memset(&one, 0, sizeof(one));
    one.builtin = TFCC_OP_BATCH_MATMUL;
    one.n_in = 2;
    const int32_t l2[2] = {m, k}, r2[2] = {k, n}, o2[2] = {m, n};
    tt_set(&one.in[0], TFCC_FLOAT32, 2, l2, lhs + (size_t)(b0 * 2 + b1) * (size_t)m * (size_t)k);
    tt_set(&one.in[1], TFCC_INT8, 2, r2, w + (size_t)(b1 * 3 + b2) * (size_t)k * (size_t)n);
    tt_q(&one.in[1], 0.021f, 0);
    tt_set(&one.out, TFCC_FLOAT32, 2, o2, NULL);
    if (tt_run(&one, true) == TFCC_OK)
      bad += memcmp(one.out_data, (const float *)c.out_data + (size_t)ob * (size_t)m * (size_t)n,
                    sizeof(float) * (size_t)m * (size_t)n) != 0;
    else
      bad++;
    tt_done(&one);
  }
  CHECKF(bad == 0, "gathered hybrid k %d: %d of %d output batches differ from one matrix alone",
         (int)k, bad, (int)nb);
  tt_done(&c);
  free(lhs);
  free(w);
}

int main(void) {
  eigen_order_cases();
  hybrid_rhs_matrices();
  hybrid_gathered_case(7, 4, 3);
  hybrid_gathered_case(30000, 1, 1);
  const_rhs_cases();
  const tfcc_dtype dts[3] = {TFCC_FLOAT32, TFCC_INT8, TFCC_INT16};
  for (int t = 0; t < 3; t++) {
    int32_t l1[3] = {2, 3, 5}, r1[3] = {2, 5, 4}, o1[3] = {2, 3, 4};
    run(dts[t], 3, l1, 3, r1, false, false, 3, o1);
    int32_t l2[4] = {2, 1, 5, 3}, r2[3] = {3, 4, 5}, o2[4] = {2, 3, 3, 4};
    run(dts[t], 4, l2, 3, r2, true, true, 4, o2); /* adj_x, adj_y, broadcast */
    int32_t l3[2] = {6, 7}, r3[4] = {2, 1, 7, 3}, o3[4] = {2, 1, 6, 3};
    run(dts[t], 2, l3, 4, r3, false, false, 4, o3);
  }
  /* errors */
  static uint8_t buf[512];
  tt_case c;
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_BATCH_MATMUL;
  c.n_in = 2;
  int32_t a[3] = {2, 3, 4}, b[3] = {3, 5, 2};
  tt_set(&c.in[0], TFCC_FLOAT32, 3, a, buf);
  tt_set(&c.in[1], TFCC_FLOAT32, 3, b, buf);
  tt_set(&c.out, TFCC_FLOAT32, 3, a, NULL);
  tt_expect_fail(&c, false, "contraction sizes differ: lhs 4, rhs 5");
  b[1] = 4;
  tt_set(&c.in[1], TFCC_FLOAT32, 3, b, buf);
  tt_expect_fail(&c, false, "batch dimension 0: 2 and 3 do not broadcast");
  c.in[1].dtype = TFCC_INT8;
  tt_q(&c.in[1], 0.01f, 0);
  /* hybrid (float lhs, int8 rhs): an rhs with batches runs one FULLY_CONNECTED per rhs
   * matrix (batch_matmul_hybrid_*rhs_batched* in the conformance cases); batches that do not
   * broadcast are refused there too */
  tt_expect_fail(&c, false, "batch dimension 0: 2 and 3 do not broadcast");
  c.in[0].dtype = c.in[1].dtype = c.out.dtype = TFCC_UINT8;
  tt_expect_fail(&c, false, "lhs dtype uint8 unsupported");
  /* int16 lhs x int8 rhs quantized per channel: only one scale per output column (axis N) */
  memset(&c, 0, sizeof(c));
  c.builtin = TFCC_OP_BATCH_MATMUL;
  c.n_in = 2;
  int32_t la[2] = {3, 4}, rb[2] = {4, 2}, oc[2] = {3, 2};
  tt_set(&c.in[0], TFCC_INT16, 2, la, buf);
  tt_set(&c.in[1], TFCC_INT8, 2, rb, buf);
  tt_set(&c.out, TFCC_INT16, 2, oc, NULL);
  tt_q(&c.in[0], 0.001f, 0);
  tt_q(&c.out, 0.01f, 0);
  c.in[1].nq = 4;
  for (int i = 0; i < 4; i++) c.in[1].qs[i] = 0.01f, c.in[1].qz[i] = 0;
  c.in[1].qaxis = 0; /* along K */
  tt_expect_fail(&c, false,
                 "per-channel rhs: 4 scales along axis 0; one scale per output column (2 scales "
                 "along axis 1) is supported");
  c.in[1].nq = 2, c.in[1].qaxis = 1, c.in[1].qz[1] = 3;
  tt_expect_fail(&c, false, "int16 zero points must be 0");
  c.in[1].qz[1] = 0;
  c.in[0].dtype = c.out.dtype = TFCC_INT8;
  tt_q(&c.in[0], 0.01f, 0);
  tt_q(&c.out, 0.1f, 0);
  tt_expect_fail(&c, false,
                 "per-channel filter quantization (2 scales) with int8 input unsupported");
  return tfcc_test_finish("batch_matmul");
}

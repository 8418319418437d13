/* BATCH_MATMUL: float32 / int8 / int16, adj_x / adj_y, batch broadcasting, against a double
 * reference (quantized: at most 1 unit off, differences counted). */
#include "conv_family_test_util.h"

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

int main(void) {
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
  /* hybrid (float lhs, int8 rhs) runs as a FULLY_CONNECTED: an rhs with batches is refused */
  tt_expect_fail(&c, false, "hybrid int8 rhs with batch dimension 0 = 3 unsupported");
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

/* Fast 8x8->16 LSTM (src/kernels/q8-lstm): every variant this CPU can run against the reference
 * kernel, byte for byte: the int16 logistic / tanh on all 65536 inputs at every integer-bit
 * count the LSTM uses, the packed matrix x vector product on odd shapes, and whole sequences
 * (odd sizes, CIFG, peephole, projection, clipping, both layouts, random multipliers and zero
 * points, saturating states). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/q8-lstm/lstm.h"
#include "kernels/ref/quant_util.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 777u;
static uint32_t rnd(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static int32_t rndi(int32_t lo, int32_t hi) {
  return lo + (int32_t)(rnd() % (uint32_t)(hi - lo + 1));
}

static void test_activations(const tfcc_q8_lstm_kernel *k) {
  enum { N = 65536 };
  static int16_t in[N + 7], got[N + 7];
  for (int32_t i = 0; i < N; i++) in[i] = (int16_t)(i - 32768);
  for (int ib = 0; ib <= 7; ib++) {
    for (int f = 0; f < 2; f++) {
      if (f == 1 && ib == 7) continue; /* tanh reads ib + 1 <= 7 integer bits */
      (f ? k->tanh : k->sigmoid)(in, got, N, ib);
      int bad = 0, first = -1;
      for (int32_t i = 0; i < N; i++) {
        int16_t want = f ? tfcc_fx16_tanh(in[i], ib) : tfcc_fx16_logistic(in[i], ib);
        if (got[i] != want && bad++ == 0) first = i;
      }
      CHECKF(
          bad == 0, "%s %s ib %d: %d wrong, first x=%d got %d want %d", k->name,
          f ? "tanh" : "logistic", ib, bad, first >= 0 ? in[first] : 0, first >= 0 ? got[first] : 0,
          first >= 0 ? (f ? tfcc_fx16_tanh(in[first], ib) : tfcc_fx16_logistic(in[first], ib)) : 0);
    }
  }
  /* Tails and in place: lengths 0..70, the element past the end untouched. */
  for (size_t n = 0; n <= 70; n++) {
    int16_t buf[80], want[80];
    for (size_t i = 0; i < 80; i++) buf[i] = (int16_t)rndi(-32768, 32767);
    memcpy(want, buf, sizeof buf);
    for (size_t i = 0; i < n; i++) want[i] = tfcc_fx16_tanh(want[i], 3);
    k->tanh(buf, buf, n, 3);
    CHECKF(memcmp(buf, want, sizeof buf) == 0, "%s tanh in place n %zu", k->name, n);
  }
}

static void test_gemv(const tfcc_q8_lstm_kernel *k) {
  static const int32_t shapes[][2] = {{1, 1},   {3, 5},   {16, 2},  {17, 33},
                                      {80, 28}, {80, 20}, {47, 64}, {5, 129}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const int32_t rows = shapes[s][0], cols = shapes[s][1];
    int8_t *w = malloc((size_t)rows * cols), *x = malloc((size_t)cols);
    int8_t *packed = malloc(tfcc_q8_lstm_packed_bytes(rows, cols));
    int32_t *xp = malloc(sizeof(int32_t) * (size_t)(cols + 1) / 2 + 4);
    int32_t *acc = malloc(sizeof(int32_t) * (size_t)(rows + 15) / 16 * 16);
    for (int32_t i = 0; i < rows * cols; i++) w[i] = (int8_t)rndi(-128, 127);
    for (int32_t i = 0; i < cols; i++) x[i] = (int8_t)(i % 7 == 0 ? -128 : rndi(-128, 127));
    tfcc_q8_lstm_pack(w, rows, cols, packed);
    for (int32_t p = 0; p < (cols + 1) / 2; p++) {
      int32_t lo = x[2 * p], hi = 2 * p + 1 < cols ? x[2 * p + 1] : 0;
      xp[p] = (int32_t)((uint32_t)(uint16_t)lo | ((uint32_t)(uint16_t)hi << 16));
    }
    k->gemv(packed, (rows + 15) / 16, (cols + 1) / 2, xp, acc);
    int bad = 0;
    for (int32_t r = 0; r < rows; r++) {
      int32_t want = 0;
      for (int32_t c = 0; c < cols; c++) want += w[(size_t)r * cols + c] * x[c];
      if (acc[r] != want) bad++;
    }
    CHECKF(bad == 0, "%s gemv %dx%d: %d wrong", k->name, (int)rows, (int)cols, bad);
    free(w), free(x), free(packed), free(xp), free(acc);
  }
}

typedef struct seq_case {
  int32_t nb, nt, ni, nc, no;
  bool cifg, peep, proj, clip, time_major;
  /* biases near the int32 ends and rescales near 1: the int32 sums wrap (fuzz_model_run: the
     reference's rescaled row plus the accumulated gate overflowed, undefined before) */
  bool extreme;
  /* peephole and projection multipliers of INT32_MAX with shift 30 (a hostile file's scales):
     the rescaled product spans int32, and adding the gate or the output zero point wraps
     (fuzz53: the fast kernel's int32 additions overflowed, undefined, where the reference's
     wrap) */
  bool huge;
  /* a cell state scale 6 octaves lower (2^-21..2^-15; not CIFG): below 2^-15 TFLite's ApplyTanh
     writes nothing and the hidden state takes the input gate for tanh(c) (sweep62b) */
  bool low_cell;
} seq_case;

static int32_t near_end(void) {
  return (rnd() & 1) ? INT32_MAX - rndi(0, 40000) : INT32_MIN + rndi(0, 40000);
}

static void test_sequence(const tfcc_q8_lstm_kernel *k, const seq_case *sc) {
  tfcc_lstm_shape s = {sc->nb, sc->nt, sc->ni, sc->nc, sc->no, sc->time_major, 0};
  const int32_t ni = sc->ni, nc = sc->nc, no = sc->no;
  int8_t *w[4] = {0}, *r[4] = {0}, *pw = NULL;
  int16_t *pe[4] = {0};
  int32_t *b[4] = {0}, *pb = NULL;
  tfcc_lstm_q_weights wt;
  memset(&wt, 0, sizeof wt);
  for (int g = 0; g < 4; g++) {
    if (g == 0 && sc->cifg) continue;
    w[g] = malloc((size_t)nc * ni);
    r[g] = malloc((size_t)nc * no);
    b[g] = malloc(sizeof(int32_t) * (size_t)nc);
    for (int32_t i = 0; i < nc * ni; i++) w[g][i] = (int8_t)rndi(-127, 127);
    for (int32_t i = 0; i < nc * no; i++) r[g][i] = (int8_t)rndi(-127, 127);
    for (int32_t i = 0; i < nc; i++) b[g][i] = sc->extreme ? near_end() : rndi(-40000, 40000);
    wt.w[g] = w[g];
    wt.r[g] = r[g];
    wt.bias[g] = b[g];
    if (sc->peep && g != 2) {
      pe[g] = malloc(sizeof(int16_t) * (size_t)nc);
      for (int32_t i = 0; i < nc; i++) pe[g][i] = (int16_t)rndi(-20000, 20000);
      wt.peep[g] = pe[g];
    }
  }
  if (sc->proj) {
    pw = malloc((size_t)no * nc);
    pb = malloc(sizeof(int32_t) * (size_t)no);
    for (int32_t i = 0; i < no * nc; i++) pw[i] = (int8_t)rndi(-127, 127);
    for (int32_t i = 0; i < no; i++) pb[i] = sc->extreme ? near_end() : rndi(-3000, 3000);
    wt.proj_w = pw;
    wt.proj_b = pb;
  }
  tfcc_lstm_q_params q;
  memset(&q, 0, sizeof q);
  for (int g = 0; g < 4; g++) {
    /* Effective scales around those of real models (weights x activations / 2^-12). */
    tfcc_quantize_multiplier(0.05 + (double)rndi(0, 1000) / 400.0, &q.in_a[g], &q.in_b[g]);
    tfcc_quantize_multiplier(0.05 + (double)rndi(0, 1000) / 400.0, &q.rec_a[g], &q.rec_b[g]);
    tfcc_quantize_multiplier((double)rndi(1, 1000) / 1000.0, &q.peep_a[g], &q.peep_b[g]);
    if (sc->extreme) {
      tfcc_quantize_multiplier(0.999, &q.in_a[g], &q.in_b[g]);
      tfcc_quantize_multiplier(0.999, &q.rec_a[g], &q.rec_b[g]);
    }
  }
  q.cell_scale = rndi(-15, -9);
  if (sc->low_cell) q.cell_scale -= 6; /* 2^-21..2^-15 */
  tfcc_quantize_multiplier((double)rndi(100, 1000) / 1000.0 * 0x1p-22, &q.hidden_a, &q.hidden_b);
  tfcc_quantize_multiplier((double)rndi(100, 1000) / 200000.0, &q.proj_a, &q.proj_b);
  if (sc->extreme) tfcc_quantize_multiplier(0.999, &q.proj_a, &q.proj_b);
  if (sc->huge) {
    for (int g = 0; g < 4; g++) q.peep_a[g] = INT32_MAX, q.peep_b[g] = 30;
    q.proj_a = INT32_MAX;
    q.proj_b = 30;
  }
  q.hidden_zp = rndi(-20, 20);
  q.input_zp = rndi(-128, 127);
  q.output_state_zp = rndi(-30, 30);
  q.cell_clip = sc->clip ? (int16_t)rndi(1000, 30000) : 0;
  q.proj_clip = sc->clip && sc->proj ? (int8_t)rndi(20, 120) : 0;

  const size_t nx = (size_t)sc->nb * sc->nt * ni, ny = (size_t)sc->nb * sc->nt * no;
  int8_t *x = malloc(nx + 1), *y_ref = malloc(ny + 1), *y = malloc(ny + 1);
  int8_t *h_ref = malloc((size_t)sc->nb * no), *h = malloc((size_t)sc->nb * no);
  int16_t *c_ref = malloc(sizeof(int16_t) * (size_t)sc->nb * nc),
          *c = malloc(sizeof(int16_t) * (size_t)sc->nb * nc);
  for (size_t i = 0; i < nx; i++) x[i] = (int8_t)rndi(-128, 127);
  for (int32_t i = 0; i < sc->nb * no; i++) h_ref[i] = h[i] = (int8_t)rndi(-128, 127);
  for (int32_t i = 0; i < sc->nb * nc; i++) c_ref[i] = c[i] = (int16_t)rndi(-32768, 32767);
  void *ref_scratch = malloc(tfcc_lstm_q_scratch_bytes(&s));
  tfcc_lstm_q8(&s, &wt, &q, x, h_ref, c_ref, y_ref, ref_scratch);

  tfcc_q8_lstm_plan pl;
  CHECK(tfcc_q8_lstm_plan_build(&pl, &s, &wt, &q));
  void *scratch = aligned_alloc(64, (tfcc_q8_lstm_scratch_bytes(&pl) + 63) & ~(size_t)63);
  memset(scratch, 0x5A, tfcc_q8_lstm_scratch_bytes(&pl));
  tfcc_q8_lstm_run(k, &pl, &s, x, h, c, y, scratch);
  size_t bad_y = 0, bad_h = 0, bad_c = 0;
  for (size_t i = 0; i < ny; i++) bad_y += y[i] != y_ref[i];
  for (int32_t i = 0; i < sc->nb * no; i++) bad_h += h[i] != h_ref[i];
  for (int32_t i = 0; i < sc->nb * nc; i++) bad_c += c[i] != c_ref[i];
  CHECKF(
      bad_y == 0 && bad_h == 0 && bad_c == 0,
      "%s b%d t%d i%d c%d o%d cifg %d peep %d proj %d clip %d tm %d: %zu/%zu outputs, %zu h, %zu c differ",
      k->name, (int)sc->nb, (int)sc->nt, (int)ni, (int)nc, (int)no, sc->cifg, sc->peep, sc->proj,
      sc->clip, sc->time_major, bad_y, ny, bad_h, bad_c);
  /* The case exercises the arithmetic: outputs spread over many values, not all saturated. */
  int distinct = 0;
  bool seen[256] = {false};
  for (size_t i = 0; i < ny; i++)
    if (!seen[(uint8_t)y_ref[i]]) seen[(uint8_t)y_ref[i]] = true, distinct++;
  CHECKF(ny < 100 || distinct >= 6, "case %d/%d/%d/%d proj %d too degenerate: %d distinct outputs",
         (int)sc->nb, (int)ni, (int)nc, (int)no, sc->proj, distinct);
  free(scratch);
  tfcc_q8_lstm_plan_free(&pl);
  free(ref_scratch), free(x), free(y_ref), free(y), free(h_ref), free(h), free(c_ref), free(c);
  for (int g = 0; g < 4; g++) free(w[g]), free(r[g]), free(b[g]), free(pe[g]);
  free(pw), free(pb);
}

static void test_sequences(const tfcc_q8_lstm_kernel *k) {
  static const seq_case cases[] = {
      {1, 28, 28, 20, 20, false, false, false, false, false, false, false,
       false}, /* keras_lstm_mnist_ptq */
      {1, 3, 1, 1, 1, false, false, false, false, false, false, false, false},
      {2, 5, 3, 7, 7, false, true, false, true, false, false, false, false},
      {3, 4, 37, 33, 33, true, false, false, false, true, false, false, false},
      {2, 6, 5, 19, 11, false, true, true, true, false, false, false, false},
      {1, 7, 13, 17, 5, true, true, true, false, true, false, false, false},
      {2, 3, 64, 70, 70, false, true, false, false, false, false, false, false},
      {1, 5, 9, 40, 24, false, false, true, false, false, false, false, false},
      {2, 0, 4, 6, 6, false, false, false, false, false, false, false, false},
      {2, 3, 5, 7, 7, false, true, true, false, false, true, false, false},
      {1, 4, 6, 9, 5, true, false, true, true, true, true, false, false},
      {2, 3, 5, 7, 7, false, true, true, false, false, false, true, false},
      {2, 3, 5, 7, 7, false, true, true, false, true, true, true, false},
      {2, 5, 3, 7, 7, false, true, false, true, false, false, false, true},
      {2, 6, 5, 19, 11, false, true, true, true, false, false, false, true},
      {1, 5, 9, 40, 24, false, false, true, false, true, false, false, true},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int rep = 0; rep < 3; rep++) test_sequence(k, &cases[i]);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  TFCC_CHECK_SELECTS(tfcc_q8_lstm);
  int tested = 0;
  TFCC_EACH_VARIANT(tfcc_q8_lstm, k, best) {
    test_activations(k);
    test_gemv(k);
    test_sequences(k);
    tested++;
  }
  printf("%d q8 lstm kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  return tfcc_test_finish("q8_lstm_fast");
}

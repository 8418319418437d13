/* Fast float32 LSTM driver (see lstm.h). */
#include "kernels/f32-lstm/lstm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 32 /* steps whose input products one GEMM computes */
#define ALIGN16(n) (((n) + (size_t)15) & ~(size_t)15)

bool tfcc_f32_lstm_supported(const tfcc_lstm_f32_weights *wt, const tfcc_lstm_f32_params *p) {
  for (int g = 0; g < 4; g++)
    if (wt->ln[g]) return false;
  return p->activation == 4; /* TANH */
}

/* Gate id of stacked block j: i, f, o, c (the sigmoid gates side by side), without i for CIFG. */
static int gate_of(const tfcc_f32_lstm_plan *pl, int j) {
  static const int order[4] = {TFCC_LSTM_GATE_I, TFCC_LSTM_GATE_F, TFCC_LSTM_GATE_O,
                               TFCC_LSTM_GATE_C};
  return order[j + (pl->n_gates == 3 ? 1 : 0)];
}

bool tfcc_f32_lstm_plan_build(tfcc_f32_lstm_plan *pl, tfcc_isa isa, const tfcc_lstm_shape *s,
                              const tfcc_lstm_f32_weights *wt, const tfcc_lstm_f32_params *p) {
  memset(pl, 0, sizeof *pl);
  const int32_t ni = s->n_input, nc = s->n_cell, no = s->n_output;
  pl->n_input = ni;
  pl->n_cell = nc;
  pl->n_output = no;
  pl->cell_clip = p->cell_clip;
  pl->proj_clip = p->proj_clip;
  const bool cifg = wt->w[0] == NULL;
  pl->n_gates = cifg ? 3 : 4;
  const int32_t rows = pl->n_gates * nc;
  for (int g = 0; g < 4; g++) pl->peep[g] = g == 2 || (g == 0 && cifg) ? NULL : wt->peep[g];
  const tfcc_f32_gemm_kernel *k = tfcc_f32_gemm_select(isa);
  pl->vu = tfcc_f32_vunary_select(isa);
  const size_t kmax = (size_t)(ni > no ? ni : no);
  float *tmp = malloc(sizeof(float) * ((size_t)rows * kmax + (size_t)rows));
  if (!tmp) return false;
  float *bias = tmp + (size_t)rows * kmax;
  bool ok = true;
  for (int j = 0; j < pl->n_gates; j++) {
    const int g = gate_of(pl, j);
    memcpy(tmp + (size_t)j * nc * ni, wt->w[g], sizeof(float) * (size_t)nc * ni);
    memcpy(bias + (size_t)j * nc, wt->bias[g], sizeof(float) * (size_t)nc);
  }
  ok = ok && tfcc_f32_pack(k, rows, ni, tmp, (size_t)ni, 1, bias, &pl->w);
  for (int j = 0; ok && j < pl->n_gates; j++) {
    const int g = gate_of(pl, j);
    memcpy(tmp + (size_t)j * nc * no, wt->r[g], sizeof(float) * (size_t)nc * no);
  }
  ok = ok && tfcc_f32_pack(k, rows, no, tmp, (size_t)no, 1, NULL, &pl->r);
  free(tmp);
  if (ok && wt->proj_w) {
    pl->has_proj = true;
    ok = tfcc_f32_pack(k, no, nc, wt->proj_w, (size_t)nc, 1, wt->proj_b, &pl->proj);
  }
  if (!ok) tfcc_f32_lstm_plan_free(pl);
  return ok;
}

void tfcc_f32_lstm_plan_free(tfcc_f32_lstm_plan *pl) {
  if (!pl) return;
  tfcc_f32_packed_free(&pl->w);
  tfcc_f32_packed_free(&pl->r);
  tfcc_f32_packed_free(&pl->proj);
  memset(pl, 0, sizeof *pl);
}

/* Scratch floats: gate products of a chunk of steps, tanh(c), hidden. */
static size_t scratch_floats(const tfcc_f32_lstm_plan *pl, size_t *gx, size_t *th) {
  const size_t rows = (size_t)pl->n_gates * pl->n_cell;
  *gx = ALIGN16(CHUNK * rows);
  *th = ALIGN16((size_t)pl->n_cell);
  return *gx + 2 * *th;
}

size_t tfcc_f32_lstm_scratch_bytes(const tfcc_f32_lstm_plan *pl) {
  size_t a, b;
  return scratch_floats(pl, &a, &b) * sizeof(float);
}

/* y (+)= x W^T + bias through the one-row micro-kernel panel by panel (no GEMM driver per
 * step): accumulate onto y when add, else start from the packed bias. */
static void gemv(const tfcc_f32_packed *p, const float *x, float *y, bool add) {
  const size_t nr = (size_t)p->k->nr, n = (size_t)p->n;
  for (size_t j = 0; j * nr < n; j++)
    tfcc_f32_panel_row(p, j, n - j * nr < nr ? n - j * nr : nr, x, y + j * nr, add, -INFINITY,
                       INFINITY);
}

static inline float clipf(float v, float clip) {
  return clip > 0.f ? (v > clip ? clip : (v < -clip ? -clip : v)) : v;
}

void tfcc_f32_lstm_run(const tfcc_f32_lstm_plan *pl, const tfcc_lstm_shape *s, const float *input,
                       float *output_state, float *cell_state, float *output, void *scratch) {
  const int32_t ni = pl->n_input, nc = pl->n_cell, no = pl->n_output;
  const size_t rows = (size_t)pl->n_gates * nc;
  size_t ngx, nth;
  scratch_floats(pl, &ngx, &nth);
  float *gx = scratch, *th = gx + ngx, *hid = th + nth;
  const tfcc_f32_vunary_kernel *vu = pl->vu;
  const tfcc_f32_vunary_params sig = {TFCC_F32VU_LOGISTIC, 0.f, 0.f, 0.f};
  const tfcc_f32_vunary_params tnh = {TFCC_F32VU_TANH, 0.f, 0.f, 0.f};
  const bool cifg = pl->n_gates == 3;
  /* The output gate's peephole reads the updated cell state: then its sigmoid waits. */
  const bool o_later = pl->peep[TFCC_LSTM_GATE_O] != NULL;
  const float inf = INFINITY;
  /* Row stride between steps of one batch in the input / output. */
  const size_t step_rows = s->time_major ? (size_t)s->n_batch : 1;
  for (int32_t b = 0; b < s->n_batch; b++) {
    float *h = output_state + (size_t)b * no, *c = cell_state + (size_t)b * nc;
    for (int32_t t0 = 0; t0 < s->n_time; t0 += CHUNK) {
      const int32_t nt = s->n_time - t0 < CHUNK ? s->n_time - t0 : CHUNK;
      const size_t row0 = s->time_major ? (size_t)t0 * s->n_batch + b : (size_t)b * s->n_time + t0;
      tfcc_f32_gemm(NULL, &pl->w, nt, input + row0 * ni, step_rows * ni, gx, rows, -inf, inf);
      for (int32_t t = 0; t < nt; t++) {
        float *g = gx + (size_t)t * rows;
        gemv(&pl->r, h, g, true);
        float *ig = cifg ? NULL : g, *fg = g + (cifg ? 0 : nc), *og = fg + nc, *cg = og + nc;
        if (ig && pl->peep[0])
          for (int32_t i = 0; i < nc; i++) ig[i] += pl->peep[0][i] * c[i];
        if (pl->peep[1])
          for (int32_t i = 0; i < nc; i++) fg[i] += pl->peep[1][i] * c[i];
        vu->fn(&sig, g, g, (size_t)(pl->n_gates - (o_later ? 2 : 1)) * nc);
        vu->fn(&tnh, cg, cg, (size_t)nc);
        for (int32_t i = 0; i < nc; i++) {
          const float in_gate = cifg ? 1.f - fg[i] : ig[i];
          c[i] = clipf(fg[i] * c[i] + cg[i] * in_gate, pl->cell_clip);
        }
        if (o_later) {
          for (int32_t i = 0; i < nc; i++) og[i] += pl->peep[3][i] * c[i];
          vu->fn(&sig, og, og, (size_t)nc);
        }
        vu->fn(&tnh, c, th, (size_t)nc);
        float *dst = pl->has_proj ? hid : h;
        for (int32_t i = 0; i < nc; i++) dst[i] = og[i] * th[i];
        if (pl->has_proj) {
          gemv(&pl->proj, hid, h, false);
          if (pl->proj_clip > 0.f)
            for (int32_t j = 0; j < no; j++) h[j] = clipf(h[j], pl->proj_clip);
        }
        const size_t row = row0 + (size_t)t * step_rows;
        memcpy(output + row * no, h, sizeof(float) * (size_t)no);
      }
    }
  }
}

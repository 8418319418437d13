/* Fast float32 LSTM driver (see lstm.h). */
#include "kernels/f32-lstm/lstm.h"
#include "kernels/ref/activation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 32 /* steps whose input products one kernel call computes */
#define ALIGN16(n) (((n) + (size_t)15) & ~(size_t)15)
#define ALIGN64(n) (((n) + (size_t)63) & ~(size_t)63)
#define PANEL_UP(n) (((n) + TFCC_XNN_FC_PANEL - 1) / TFCC_XNN_FC_PANEL * TFCC_XNN_FC_PANEL)

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

/* Packs n_gates blocks of [nc][k] (src[g] per gate, in the stacked order) into rows_pad rows at
 * dst: fc's panels for the input products (several steps a call), fc_row's blocks for the
 * recurrent ones (one step a call). False when out of memory. */
static bool pack_gates(const tfcc_f32_lstm_plan *pl, const float *const src[4], int32_t k,
                       bool one_row, float *dst) {
  const int32_t nc = pl->n_cell;
  float *tmp = calloc((size_t)pl->rows_pad * (size_t)(k > 0 ? k : 1), sizeof(float));
  if (!tmp) return false;
  for (int j = 0; j < pl->n_gates; j++)
    memcpy(tmp + (size_t)j * nc * k, src[gate_of(pl, j)], sizeof(float) * (size_t)nc * k);
  if (one_row)
    tfcc_xnn_fc_pack_blocks_into(tmp, pl->rows_pad, k, pl->xk->fc_row_block(), dst);
  else
    tfcc_xnn_fc_pack_into(tmp, pl->rows_pad, k, dst);
  free(tmp);
  return true;
}

void tfcc_f32_lstm_plan_layout(tfcc_f32_lstm_plan *pl, tfcc_isa isa, const tfcc_lstm_shape *s,
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
  /* a multiple of the panel (>= 16 units) never picks the kernel's nr2 order */
  pl->rows_pad = PANEL_UP(pl->n_gates * nc);
  pl->out_pad = PANEL_UP(no);
  for (int g = 0; g < 4; g++) pl->peep[g] = g == 2 || (g == 0 && cifg) ? NULL : wt->peep[g];
  pl->xk = tfcc_tflite_f32_select(isa);
  pl->has_proj = wt->proj_w != NULL;
  pl->proj_b = pl->has_proj ? wt->proj_b : NULL;
  const int32_t rb = pl->xk->fc_row_block();
  const size_t bytes[4] = {tfcc_xnn_fc_packed_bytes(pl->rows_pad, ni),
                           tfcc_xnn_fc_blocks_bytes(pl->rows_pad, no, rb),
                           pl->has_proj ? tfcc_xnn_fc_blocks_bytes(pl->out_pad, nc, rb) : 0,
                           sizeof(float) * (size_t)(pl->n_gates * nc)};
  size_t total = 0;
  for (int i = 0; i < 4; i++) {
    pl->off[i] = total;
    total += ALIGN64(bytes[i]);
  }
  pl->block_bytes = total;
}

/* The arrays at their offsets in block. */
static void point_into(tfcc_f32_lstm_plan *pl, const void *block) {
  const unsigned char *b = block;
  pl->w = (const float *)(b + pl->off[0]);
  pl->r = (const float *)(b + pl->off[1]);
  pl->proj = pl->has_proj ? (const float *)(b + pl->off[2]) : NULL;
  pl->bias = (const float *)(b + pl->off[3]);
}

bool tfcc_f32_lstm_plan_pack(tfcc_f32_lstm_plan *pl, const tfcc_lstm_f32_weights *wt, void *block) {
  const int32_t nc = pl->n_cell, no = pl->n_output;
  unsigned char *b = block;
  memset(b, 0, pl->block_bytes); /* the alignment gaps too: the block's bytes are defined */
  if (!pack_gates(pl, wt->w, pl->n_input, false, (float *)(b + pl->off[0])) ||
      !pack_gates(pl, wt->r, no, true, (float *)(b + pl->off[1])))
    return false;
  float *bias = (float *)(b + pl->off[3]);
  for (int j = 0; j < pl->n_gates; j++)
    memcpy(bias + (size_t)j * nc, wt->bias[gate_of(pl, j)], sizeof(float) * (size_t)nc);
  if (pl->has_proj) {
    float *tmp = calloc((size_t)pl->out_pad * (size_t)(nc > 0 ? nc : 1), sizeof(float));
    if (!tmp) return false;
    memcpy(tmp, wt->proj_w, sizeof(float) * (size_t)no * nc);
    tfcc_xnn_fc_pack_blocks_into(tmp, pl->out_pad, nc, pl->xk->fc_row_block(),
                                 (float *)(b + pl->off[2]));
    free(tmp);
  }
  point_into(pl, block);
  return true;
}

void tfcc_f32_lstm_plan_adopt(tfcc_f32_lstm_plan *pl, const void *block) { point_into(pl, block); }

bool tfcc_f32_lstm_plan_build(tfcc_f32_lstm_plan *pl, tfcc_isa isa, const tfcc_lstm_shape *s,
                              const tfcc_lstm_f32_weights *wt, const tfcc_lstm_f32_params *p) {
  tfcc_f32_lstm_plan_layout(pl, isa, s, wt, p);
  void *m = aligned_alloc(64, pl->block_bytes);
  if (!m || !tfcc_f32_lstm_plan_pack(pl, wt, m)) {
    free(m);
    memset(pl, 0, sizeof *pl);
    return false;
  }
  pl->mem = m;
  return true;
}

void tfcc_f32_lstm_plan_free(tfcc_f32_lstm_plan *pl) {
  if (!pl) return;
  free(pl->mem);
  memset(pl, 0, sizeof *pl);
}

/* Scratch floats: input products of a chunk of steps, gathered input rows (time-major with
 * several batches), recurrent products, tanh(c), hidden, projection products. */
static size_t scratch_floats(const tfcc_f32_lstm_plan *pl, size_t *gx, size_t *xs, size_t *rp,
                             size_t *th, size_t *pj) {
  *gx = ALIGN16((size_t)CHUNK * pl->rows_pad);
  *xs = ALIGN16((size_t)CHUNK * pl->n_input);
  *rp = ALIGN16((size_t)pl->rows_pad);
  *th = ALIGN16((size_t)pl->n_cell);
  *pj = ALIGN16((size_t)pl->out_pad);
  return *gx + *xs + *rp + 2 * *th + *pj;
}

size_t tfcc_f32_lstm_scratch_bytes(const tfcc_f32_lstm_plan *pl) {
  size_t a, b, c, d, e;
  return scratch_floats(pl, &a, &b, &c, &d, &e) * sizeof(float);
}

static inline float clipf(float v, float clip) {
  return clip > 0.f ? (v > clip ? clip : (v < -clip ? -clip : v)) : v;
}

void tfcc_f32_lstm_run(const tfcc_f32_lstm_plan *pl, const tfcc_lstm_shape *s, const float *input,
                       float *output_state, float *cell_state, float *output, void *scratch) {
  const int32_t ni = pl->n_input, nc = s->n_cell, no = pl->n_output, rp = pl->rows_pad;
  const int32_t ng = pl->n_gates;
  size_t ngx, nxs, nrp, nth, npj;
  scratch_floats(pl, &ngx, &nxs, &nrp, &nth, &npj);
  float *gx = scratch, *xs = gx + ngx, *gr = xs + nxs, *th = gr + nrp, *hid = th + nth;
  float *pj = hid + nth;
  const tfcc_tflite_f32_kernel *xk = pl->xk;
  const bool cifg = ng == 3;
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
      const float *xr = input + row0 * ni;
      if (step_rows != 1) { /* the chunk's rows of this batch, side by side */
        for (int32_t t = 0; t < nt; t++)
          memcpy(xs + (size_t)t * ni, xr + (size_t)t * step_rows * ni, sizeof(float) * (size_t)ni);
        xr = xs;
      }
      xk->fc(xr, nt, ni, pl->w, NULL, NULL, rp, -inf, inf, gx, 0, rp);
      for (int32_t t = 0; t < nt; t++) {
        float *g = gx + (size_t)t * rp;
        xk->fc_row(h, no, pl->r, NULL, rp, -inf, inf, gr);
        /* gate = bias; += W x; += R h (TFLite's CalculateLstmGateFloat) */
        for (int32_t i = 0; i < ng * nc; i++) {
          const float v = pl->bias[i] + g[i];
          g[i] = v + gr[i];
        }
        float *ig = cifg ? NULL : g, *fg = g + (cifg ? 0 : nc), *og = fg + nc, *cg = og + nc;
        if (ig && pl->peep[0])
          for (int32_t i = 0; i < nc; i++) ig[i] += pl->peep[0][i] * c[i];
        if (pl->peep[1])
          for (int32_t i = 0; i < nc; i++) fg[i] += pl->peep[1][i] * c[i];
        xk->logistic_eigen(g, g, (size_t)(ng - (o_later ? 2 : 1)) * nc);
        xk->tanh_eigen(cg, cg, (size_t)nc);
        for (int32_t i = 0; i < nc; i++) {
          const float in_gate = cifg ? 1.f - fg[i] : ig[i];
          c[i] = clipf(fg[i] * c[i] + cg[i] * in_gate, pl->cell_clip);
        }
        if (o_later) {
          for (int32_t i = 0; i < nc; i++) og[i] += pl->peep[3][i] * c[i];
          xk->logistic_eigen(og, og, (size_t)nc);
        }
        xk->tanh_eigen(c, th, (size_t)nc);
        float *dst = pl->has_proj ? hid : h;
        for (int32_t i = 0; i < nc; i++) dst[i] = og[i] * th[i];
        if (pl->has_proj) {
          xk->fc_row(hid, nc, pl->proj, NULL, pl->out_pad, -inf, inf, pj);
          for (int32_t j = 0; j < no; j++)
            h[j] = clipf((pl->proj_b ? pl->proj_b[j] : 0.f) + pj[j], pl->proj_clip);
        }
        const size_t row = row0 + (size_t)t * step_rows;
        memcpy(output + row * no, h, sizeof(float) * (size_t)no);
      }
    }
  }
}

/* Fast 8x8->16 LSTM: weight packing, the model-level plan and the per-step driver. The
 * arithmetic is the reference's (src/kernels/ref/lstm_quant.c) operation for operation; the
 * ISA variants supply the matrix x vector products and the int16 activations. */
#include <stdlib.h>
#include <string.h>

#include "kernels/q8-lstm/lstm.h"
#include "kernels/ref/quant_util.h"

#define ALIGN64(n) (((n) + (size_t)63) & ~(size_t)63)

static int32_t row_blocks(int32_t rows) { return (rows + 15) / 16; }
static int32_t col_pairs(int32_t cols) { return (cols + 1) / 2; }

size_t tfcc_q8_lstm_packed_bytes(int32_t rows, int32_t cols) {
  return (size_t)row_blocks(rows) * (size_t)col_pairs(cols) * 32;
}

void tfcc_q8_lstm_pack(const int8_t *w, int32_t rows, int32_t cols, int8_t *dst) {
  const int32_t kp = col_pairs(cols);
  for (int32_t b = 0; b < row_blocks(rows); b++)
    for (int32_t p = 0; p < kp; p++) {
      int8_t *d = dst + ((size_t)b * kp + p) * 32;
      for (int32_t i = 0; i < 16; i++) {
        const int32_t r = b * 16 + i, c = 2 * p;
        d[2 * i] = r < rows ? w[(size_t)r * cols + c] : 0;
        d[2 * i + 1] = r < rows && c + 1 < cols ? w[(size_t)r * cols + c + 1] : 0;
      }
    }
}

/* Rows [r0, r0 + n) of a packed matrix of `cols` columns (tfcc_q8_lstm_pack's layout) from
 * w [n][cols]; the other rows' bytes are left as they are. */
static void pack_rows(const int8_t *w, int32_t r0, int32_t n, int32_t cols, int8_t *dst) {
  const int32_t kp = col_pairs(cols);
  for (int32_t i = 0; i < n; i++) {
    const int32_t r = r0 + i;
    int8_t *d = dst + (size_t)(r / 16) * (size_t)kp * 32 + 2 * (r % 16);
    const int8_t *src = w + (size_t)i * cols;
    for (int32_t p = 0; p < kp; p++, d += 32) {
      d[0] = src[2 * p];
      d[1] = 2 * p + 1 < cols ? src[2 * p + 1] : 0;
    }
  }
}

/* bias + scalar * rowsum(w), wrapping like the reference's int32 sums. */
static void row_sums_times(const int8_t *w, int32_t rows, int32_t cols, int32_t scalar,
                           const int32_t *bias, int32_t *out) {
  for (int32_t r = 0; r < rows; r++) {
    uint32_t sum = 0;
    for (int32_t k = 0; k < cols; k++) sum += (uint32_t)(int32_t)w[(size_t)r * cols + k];
    out[r] = (int32_t)((bias ? (uint32_t)bias[r] : 0u) + sum * (uint32_t)scalar);
  }
}

void tfcc_q8_lstm_plan_layout(tfcc_q8_lstm_plan *pl, const tfcc_lstm_shape *s,
                              const tfcc_lstm_q_weights *wt, const tfcc_lstm_q_params *q) {
  memset(pl, 0, sizeof *pl);
  const int32_t ni = s->n_input, nc = s->n_cell, no = s->n_output;
  pl->n_input = ni;
  pl->n_cell = nc;
  pl->n_output = no;
  pl->q = *q;
  const bool cifg = wt->w[TFCC_LSTM_GATE_I] == NULL;
  /* i, f, o, c: the sigmoid gates side by side (one call when there is no output peephole). */
  static const int32_t order[4] = {TFCC_LSTM_GATE_I, TFCC_LSTM_GATE_F, TFCC_LSTM_GATE_O,
                                   TFCC_LSTM_GATE_C};
  for (int j = cifg ? 1 : 0; j < 4; j++) pl->gate[pl->n_gates++] = order[j];
  pl->rows = pl->n_gates * nc;
  for (int g = 0; g < 4; g++) pl->peep[g] = g == TFCC_LSTM_GATE_C ? NULL : wt->peep[g];
  if (cifg) pl->peep[TFCC_LSTM_GATE_I] = NULL;

  const bool proj = pl->has_proj = wt->proj_w != NULL;
  const size_t bytes[6] = {
      tfcc_q8_lstm_packed_bytes(pl->rows, ni),      tfcc_q8_lstm_packed_bytes(pl->rows, no),
      proj ? tfcc_q8_lstm_packed_bytes(no, nc) : 0, (size_t)pl->rows * sizeof(int32_t),
      (size_t)pl->rows * sizeof(int32_t),           proj ? (size_t)no * sizeof(int32_t) : 0};
  size_t total = 0;
  for (int i = 0; i < 6; i++) {
    pl->off[i] = total;
    total += ALIGN64(bytes[i]);
  }
  pl->block_bytes = total;
}

/* The arrays at their offsets in block. */
static void point_into(tfcc_q8_lstm_plan *pl, const void *block) {
  const uint8_t *m = block;
  const bool proj = pl->has_proj;
  pl->w = (const int8_t *)(m + pl->off[0]);
  pl->r = (const int8_t *)(m + pl->off[1]);
  pl->proj = proj ? (const int8_t *)(m + pl->off[2]) : NULL;
  pl->in_bias = (const int32_t *)(m + pl->off[3]);
  pl->rec_bias = (const int32_t *)(m + pl->off[4]);
  pl->proj_bias = proj ? (const int32_t *)(m + pl->off[5]) : NULL;
}

void tfcc_q8_lstm_plan_pack(tfcc_q8_lstm_plan *pl, const tfcc_lstm_q_weights *wt, void *block) {
  const int32_t ni = pl->n_input, nc = pl->n_cell, no = pl->n_output;
  const tfcc_lstm_q_params *q = &pl->q;
  uint8_t *m = block;
  memset(m, 0, pl->block_bytes); /* the alignment gaps too: the block's bytes are defined */
  /* Stacked [rows, ni] and [rows, no] matrices, packed gate block by gate block: the rows of
   * stacked gate j are the rows j * nc.. of the packing (tfcc_q8_lstm_pack's layout, row by
   * row, needs no temporary). */
  int8_t *w = (int8_t *)(m + pl->off[0]), *r = (int8_t *)(m + pl->off[1]);
  for (int j = 0; j < pl->n_gates; j++) {
    pack_rows(wt->w[pl->gate[j]], j * nc, nc, ni, w);
    pack_rows(wt->r[pl->gate[j]], j * nc, nc, no, r);
  }
  if (wt->proj_w) tfcc_q8_lstm_pack(wt->proj_w, no, nc, (int8_t *)(m + pl->off[2]));
  int32_t *in_bias = (int32_t *)(m + pl->off[3]), *rec_bias = (int32_t *)(m + pl->off[4]);
  for (int j = 0; j < pl->n_gates; j++) {
    const int g = pl->gate[j];
    row_sums_times(wt->w[g], nc, ni, -q->input_zp, wt->bias[g], in_bias + (size_t)j * nc);
    row_sums_times(wt->r[g], nc, no, -q->output_state_zp, NULL, rec_bias + (size_t)j * nc);
  }
  if (wt->proj_w)
    row_sums_times(wt->proj_w, no, nc, q->hidden_zp, wt->proj_b, (int32_t *)(m + pl->off[5]));
  point_into(pl, block);
}

void tfcc_q8_lstm_plan_adopt(tfcc_q8_lstm_plan *pl, const void *block) { point_into(pl, block); }

bool tfcc_q8_lstm_plan_build(tfcc_q8_lstm_plan *pl, const tfcc_lstm_shape *s,
                             const tfcc_lstm_q_weights *wt, const tfcc_lstm_q_params *q) {
  tfcc_q8_lstm_plan_layout(pl, s, wt, q);
  void *m = aligned_alloc(64, pl->block_bytes);
  if (!m) {
    memset(pl, 0, sizeof *pl);
    return false;
  }
  tfcc_q8_lstm_plan_pack(pl, wt, m);
  pl->mem = m;
  return true;
}

void tfcc_q8_lstm_plan_free(tfcc_q8_lstm_plan *pl) {
  if (!pl) return;
  free(pl->mem);
  memset(pl, 0, sizeof *pl);
}

/* Scratch layout. */
typedef struct scratch_map {
  int32_t *xp, *hp, *acc_x, *acc_h, *acc_p;
  int16_t *g16, *th;
  int8_t *hid;
} scratch_map;

static size_t scratch_map_of(const tfcc_q8_lstm_plan *pl, void *base, scratch_map *m) {
  const int32_t nc = pl->n_cell, no = pl->n_output;
  const int32_t hp_n = col_pairs(no > nc ? no : nc);
  const size_t sizes[8] = {
      ALIGN64((size_t)col_pairs(pl->n_input) * 4),
      ALIGN64((size_t)hp_n * 4),
      ALIGN64((size_t)row_blocks(pl->rows) * 64),
      ALIGN64((size_t)row_blocks(pl->rows) * 64),
      ALIGN64((size_t)row_blocks(no) * 64),
      ALIGN64((size_t)pl->rows * 2),
      ALIGN64((size_t)nc * 2),
      ALIGN64((size_t)nc),
  };
  uint8_t *p = base;
  size_t off[8], total = 0;
  for (int i = 0; i < 8; i++) {
    off[i] = total;
    total += sizes[i];
  }
  if (m) {
    m->xp = (int32_t *)(p + off[0]);
    m->hp = (int32_t *)(p + off[1]);
    m->acc_x = (int32_t *)(p + off[2]);
    m->acc_h = (int32_t *)(p + off[3]);
    m->acc_p = (int32_t *)(p + off[4]);
    m->g16 = (int16_t *)(p + off[5]);
    m->th = (int16_t *)(p + off[6]);
    m->hid = (int8_t *)(p + off[7]);
  }
  return total;
}

size_t tfcc_q8_lstm_scratch_bytes(const tfcc_q8_lstm_plan *pl) {
  return scratch_map_of(pl, NULL, NULL);
}

/* x[0..n) as int16 pairs for the gemv kernels (an odd count pads a zero). */
static void to_pairs(const int8_t *x, int32_t n, int32_t *xp) {
  for (int32_t p = 0; p < n / 2; p++)
    xp[p] = (int32_t)((uint32_t)(uint16_t)(int16_t)x[2 * p] |
                      ((uint32_t)(uint16_t)(int16_t)x[2 * p + 1] << 16));
  if (n & 1) xp[n / 2] = (int32_t)(uint32_t)(uint16_t)(int16_t)x[n - 1];
}

static inline int32_t wadd(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static inline int16_t clamp16(int32_t v) {
  return (int16_t)tfcc_clamp_i32(v, INT16_MIN, INT16_MAX);
}

/* VectorBatchVectorCwiseProductAccumulate over the first n_output cells (as the reference). */
static void peephole(const tfcc_q8_lstm_plan *pl, int g, const int16_t *c, int16_t *gate) {
  const int16_t *pw = pl->peep[g];
  if (!pw) return;
  const int32_t a = pl->q.peep_a[g];
  const int b = pl->q.peep_b[g];
  for (int32_t i = 0; i < pl->n_output; i++)
    gate[i] = clamp16(wadd(tfcc_mbqm((int32_t)pw[i] * c[i], a, b), gate[i])); /* wraps: ref */
}

static void step(const tfcc_q8_lstm_kernel *k, const tfcc_q8_lstm_plan *pl, const scratch_map *m,
                 const int8_t *x, int8_t *h, int16_t *c, int8_t *out) {
  const tfcc_lstm_q_params *q = &pl->q;
  const int32_t nc = pl->n_cell, no = pl->n_output, rb = row_blocks(pl->rows);
  to_pairs(x, pl->n_input, m->xp);
  to_pairs(h, no, m->hp);
  k->gemv(pl->w, rb, col_pairs(pl->n_input), m->xp, m->acc_x);
  k->gemv(pl->r, rb, col_pairs(no), m->hp, m->acc_h);
  /* Gate pre-activations: input then recurrent contribution, each requantized and clamped. */
  for (int32_t j = 0; j < pl->n_gates; j++) {
    const int g = pl->gate[j];
    const size_t r0 = (size_t)j * nc;
    k->gate(m->acc_x + r0, pl->in_bias + r0, q->in_a[g], q->in_b[g], m->acc_h + r0,
            pl->rec_bias + r0, q->rec_a[g], q->rec_b[g], m->g16 + r0, (size_t)nc);
  }
  const bool cifg = pl->n_gates == 3;
  int16_t *ig = cifg ? NULL : m->g16, *fg = m->g16 + (cifg ? 0 : nc);
  int16_t *og = fg + nc, *cg = og + nc;
  if (ig) peephole(pl, TFCC_LSTM_GATE_I, c, ig);
  peephole(pl, TFCC_LSTM_GATE_F, c, fg);
  /* The output gate's peephole reads the updated cell state: then its sigmoid waits. */
  const bool o_later = pl->peep[TFCC_LSTM_GATE_O] != NULL;
  k->sigmoid(m->g16, m->g16, (size_t)(pl->n_gates - (o_later ? 2 : 1)) * nc, 3);
  k->tanh(cg, cg, (size_t)nc, 3);
  k->cell(ig, fg, cg, c, (size_t)nc, 30 + q->cell_scale, q->cell_clip);
  if (o_later) {
    peephole(pl, TFCC_LSTM_GATE_O, c, og);
    k->sigmoid(og, og, (size_t)nc, 3);
  }
  /* CalculateLstmOutputInteger8x8_16. */
  /* below 2^-15 TFLite's ApplyTanh writes nothing: its output is the input gate's scratch */
  const int16_t *th = ig;
  if (15 + q->cell_scale >= 0) {
    k->tanh(c, m->th, (size_t)nc, 15 + q->cell_scale);
    th = m->th;
  }
  k->hidden(og, th, q->hidden_a, q->hidden_b, q->hidden_zp, m->hid, (size_t)nc);
  if (pl->proj) {
    to_pairs(m->hid, nc, m->hp);
    k->gemv(pl->proj, row_blocks(no), col_pairs(nc), m->hp, m->acc_p);
    for (int32_t j = 0; j < no; j++) {
      int32_t v = tfcc_mbqm(wadd(m->acc_p[j], pl->proj_bias[j]), q->proj_a, q->proj_b);
      v = tfcc_clamp_i32(wadd(v, q->output_state_zp), INT8_MIN, INT8_MAX); /* wraps: ref */
      if (q->proj_clip > 0) v = tfcc_clamp_i32(v, -q->proj_clip, q->proj_clip);
      h[j] = (int8_t)v;
    }
  } else {
    memcpy(h, m->hid, (size_t)no);
  }
  memcpy(out, h, (size_t)no);
}

void tfcc_q8_lstm_run(const tfcc_q8_lstm_kernel *k, const tfcc_q8_lstm_plan *pl,
                      const tfcc_lstm_shape *s, const int8_t *input, int8_t *output_state,
                      int16_t *cell_state, int8_t *output, void *scratch) {
  scratch_map m;
  scratch_map_of(pl, scratch, &m);
  const int32_t no = pl->n_output, nc = pl->n_cell;
  for (int32_t b = 0; b < s->n_batch; b++) {
    int8_t *h = output_state + (size_t)b * no;
    int16_t *c = cell_state + (size_t)b * nc;
    for (int32_t t = 0; t < s->n_time; t++) {
      size_t row = s->time_major ? (size_t)t * s->n_batch + b : (size_t)b * s->n_time + t;
      step(k, pl, &m, input + row * pl->n_input, h, c, output + row * no);
    }
  }
}

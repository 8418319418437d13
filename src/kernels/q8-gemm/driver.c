/* Tiling and threading of the q8 GEMM. Rows come from a plain strided matrix or a
 * convolution (read in place for 1x1, else im2col rows in scratch, padding taps set to the
 * input zero point so that they add nothing). Per tile, the row sums give the row term of
 * gemm.h. Fixed-point (REFERENCE) requantization runs on the int32 tile through the
 * reference kernels' own tfcc_requant32. No allocation. Two orders:
 *
 * - row tiles outer (most layers: many rows, few weights): tasks are (MR-row tiles x a block
 *   of NR panels that fits L2); each thread builds one im2col tile at a time in its scratch,
 *   then runs it against every panel of the block.
 * - panels outer (at most 64 rows, weights at least as large as the rows: the 7x7 stage of a CNN,
 *   FULLY_CONNECTED; not for multi-panel kernels, see panels_outer): every weight panel is read
 *   from memory once and runs against all the rows (im2col built once for all of them in shared
 *   scratch, by a first parallel pass); tasks are ranges of panels, so at 2 threads each streams
 *   its share of the weights. While a panel runs, the kernel prefetches the next one into L2,
 *   spread over the row tiles: the weights of a large layer come from memory in a whole model (the
 *   other layers' weights evict them), and streaming them at the compute rate of one tile would
 *   stall it. */
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/gemm_split.h"
#include "kernels/q8-gemm/gemm.h"
#include "kernels/q8-gemm/ukernels.h"
#include "kernels/ref/conv_acc.h"
#include "base/threadpool.h"

#define TFCC_Q8_MAX_MR 16
#define TFCC_Q8_MAX_NR 64
#define TFCC_Q8_L2_BLOCK (1024u * 1024u)
#define TFCC_Q8_MIN_PARALLEL_MACS (256.0 * 1024.0)
/* Panels outer: at most this many rows (their sums stay on the stack) and row bytes. With
 * more row tiles (ResNet's 14x14 stage: 14 tiles) the rows no longer stay in L1 while a panel
 * runs against them, and the row-tiles-outer order measured as fast or faster. */
#define TFCC_Q8_PO_MAX_M 64u
#define TFCC_Q8_PO_MAX_ROW_BYTES (512u * 1024u)
/* Row tiles outer: the kernel prefetches the panel it reads this many bytes ahead into L1
 * when the depth is at least ..._MIN_K (cold-cache ResNet-50 layers with K >= 512: 2-11%
 * faster; shallower panels measured the same or slower: fewer steps to hide the latency in
 * and the prefetches cost load slots). Panels outer prefetches the next panel instead. */
#define TFCC_Q8_PF_AHEAD 1024u
#define TFCC_Q8_PF_AHEAD_MIN_K 512

typedef struct q8_job {
  const tfcc_q8_packed *p;
  const tfcc_conv_requant *r;
  const tfcc_q8_hybrid *hyb; /* hybrid float output stage instead of r (gemm.h) */
  size_t m;
  const uint8_t *a; /* plain matrix (g == NULL) or convolution input */
  size_t a_stride;
  const tfcc_conv_geom *g;
  bool im2col;
  uint8_t pad; /* input zero point byte */
  bool panels_outer;
  uint8_t *rows_buf;     /* panels outer with im2col: all m rows, K bytes each */
  uint8_t *scratch;      /* per-thread parts */
  size_t scratch_stride; /* per thread */
  uint8_t *c;
  size_t c_stride;
  size_t m_tiles, n_panels;
  tfcc_gemm_split sp; /* the tasks: row chunks x column blocks */
  /* per product, not per tile (set_scratch): the kernel entry point, the depth it runs
     (kernel_depth) and a panel's bytes */
  tfcc_q8_gemm_fn fn;
  size_t kc, panel;
} q8_job;

/* im2col rows are K rounded up to 4 bytes (8 for the WebAssembly kernel, which widens 8
 * bytes of a row at a time), zero past K: the kernels then run them without a depth tail (the
 * packed weights are zero there too, and zeros add nothing to the sums). */
static size_t im2col_stride(const tfcc_q8_packed *p) {
  const size_t b = tfcc_q8_gemm_c2_layout(p->k) ? 7 : 3;
  return ((size_t)p->kdim + b) & ~b;
}
static size_t im2col_bytes(const tfcc_q8_packed *p) {
  return ((size_t)p->k->mr * im2col_stride(p) + 63) & ~(size_t)63;
}
/* The int16 rows of a rows16 kernel (tfcc_q8_gemm_rows16): depth rounded up to a pair. */
static size_t row16_elems(const tfcc_q8_packed *p) { return ((size_t)p->kdim + 1) & ~(size_t)1; }
static size_t rows16_bytes(const tfcc_q8_packed *p) {
  return tfcc_q8_gemm_rows16(p->k)
             ? ((size_t)p->k->mr * row16_elems(p) * sizeof(int16_t) + 63) & ~(size_t)63
             : 0;
}
static size_t c32_bytes(const tfcc_q8_packed *p, bool hyb) {
  return !hyb && (p->fp32 || p->k->fixed_epilogue)
             ? 0
             : (size_t)p->k->mr * (size_t)p->k->nr * sizeof(int32_t);
}

static bool conv_direct(const tfcc_conv_geom *g) {
  return g->filter_h == 1 && g->filter_w == 1 && g->pad_h == 0 && g->pad_w == 0 &&
         g->in_c == g->filter_in_c;
}

/* Panels outer for m rows of p (see the top). */
static bool panels_outer(size_t m, const tfcc_q8_packed *p) {
  const size_t rows = m * (size_t)p->kdim;
  const size_t panels = ((size_t)p->n + (size_t)p->k->nr - 1) / (size_t)p->k->nr;
  /* kernels that run several panels per call (wasm) fill a buffer of the rows' broadcast
     pairs once per call for all its panels; panels outer calls them one panel at a time, each
     paying the fill or going without it (MobileNetV2 int8's 7x7 layers 0.55-0.9 of the time
     rows outer, the model 0.96) */
  if (tfcc_q8_gemm_multi_panel(p->k)) return false;
  /* rows16 kernels: the row tiles outer widen each tile once for all its panels */
  if (tfcc_q8_gemm_rows16(p->k)) return false;
  return m <= TFCC_Q8_PO_MAX_M && rows <= TFCC_Q8_PO_MAX_ROW_BYTES &&
         panels * tfcc_q8_panel_bytes(p) >= rows;
}

static size_t conv_rows_count(const tfcc_conv_geom *g) {
  return (size_t)g->batches * (size_t)g->out_h * (size_t)g->out_w;
}

/* Shared im2col rows (panels outer), then the per-thread parts. */
static size_t shared_bytes(const tfcc_conv_geom *g, const tfcc_q8_packed *p) {
  if (!g || conv_direct(g) || !panels_outer(conv_rows_count(g), p)) return 0;
  return (conv_rows_count(g) * im2col_stride(p) + 63) & ~(size_t)63;
}

static size_t per_thread_bytes(const tfcc_conv_geom *g, const tfcc_q8_packed *p, bool hyb) {
  const bool tile = g && !conv_direct(g) && !panels_outer(conv_rows_count(g), p);
  return (c32_bytes(p, hyb) + (tile ? im2col_bytes(p) : 0) + rows16_bytes(p) + 63) & ~(size_t)63;
}

size_t tfcc_q8_scratch_bytes(const tfcc_conv_geom *g, const tfcc_q8_packed *p, int threads) {
  if (threads < 1) threads = 1;
  return shared_bytes(g, p) + per_thread_bytes(g, p, false) * (size_t)threads;
}

size_t tfcc_q8_hybrid_scratch_bytes(const tfcc_conv_geom *g, const tfcc_q8_packed *p, int threads) {
  if (threads < 1) threads = 1;
  tfcc_conv_geom g1; /* tfcc_q8_conv_hybrid runs one image at a time */
  if (g) {
    g1 = *g;
    g1.batches = 1;
    g = &g1;
  }
  return shared_bytes(g, p) + per_thread_bytes(g, p, true) * (size_t)threads;
}

/* memcpy for the short runs of im2col (a few channels times the filter width): inline moves
 * instead of a library call per run; the last move of a run ends at its last byte, overlapping
 * the one before (the same bytes twice), so that no run needs a byte loop past 3 bytes and
 * nothing is read or written outside the run. */
static inline void copy_run(uint8_t *dst, const uint8_t *src, size_t n) {
  if (n >= 64) {
    memcpy(dst, src, n);
    return;
  }
  if (n >= 16) {
    for (size_t i = 0; i + 16 < n; i += 16) memcpy(dst + i, src + i, 16);
    memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8) {
    memcpy(dst, src, 8);
    memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4) {
    memcpy(dst, src, 4);
    memcpy(dst + n - 4, src + n - 4, 4);
  } else {
    for (; n; n--) *dst++ = *src++;
  }
}

/* The filter_h runs of an im2col row whose window lies inside the image (no padding tap, no
 * horizontal dilation): n = filter_w * in_c bytes each, `step` apart in the input, copied
 * without per-tap checks. */
static void copy_window(uint8_t *dst, const uint8_t *src, size_t n, size_t step, int32_t fh) {
  for (int32_t ky = 0; ky < fh; ky++, src += step, dst += n) copy_run(dst, src, n);
}

/* Output coordinates of a row (pixel x, y of image b), stepped from row to row without a
 * division per row. */
typedef struct out_pos {
  size_t x, y, b;
} out_pos;
static out_pos out_pos_at(const tfcc_conv_geom *g, size_t m) {
  const size_t ow = (size_t)g->out_w, oh = (size_t)g->out_h;
  const out_pos q = {m % ow, (m / ow) % oh, m / ow / oh};
  return q;
}
static void out_pos_next(const tfcc_conv_geom *g, out_pos *q) {
  if (++q->x == (size_t)g->out_w) {
    q->x = 0;
    if (++q->y == (size_t)g->out_h) {
      q->y = 0;
      q->b++;
    }
  }
}

/* Row pointers of output rows m0 .. m0+mr-1. */
static void conv_rows(const q8_job *j, size_t m0, size_t mr, uint8_t *tile, const uint8_t **rows) {
  const tfcc_conv_geom *g = j->g;
  const size_t cin = (size_t)g->in_c, K = (size_t)j->p->kdim, stride = im2col_stride(j->p);
  out_pos q = out_pos_at(g, m0);
  for (size_t r = 0; r < mr; r++) {
    if (r > 0) out_pos_next(g, &q);
    const size_t ox = q.x, oy = q.y, b = q.b;
    const uint8_t *img = j->a + b * (size_t)g->in_h * (size_t)g->in_w * cin;
    if (!j->im2col) {
      rows[r] = img + (oy * (size_t)g->stride_h * (size_t)g->in_w + ox * (size_t)g->stride_w) * cin;
      continue;
    }
    uint8_t *dst = tile + r * stride;
    rows[r] = dst;
    for (size_t i = K; i < stride; i++) dst[i] = 0;
    const int32_t iy0 = (int32_t)oy * g->stride_h - g->pad_h;
    const int32_t ix0 = (int32_t)ox * g->stride_w - g->pad_w;
    if (g->dil_w == 1 && ix0 >= 0 && ix0 + g->filter_w <= g->in_w && iy0 >= 0 &&
        iy0 + (g->filter_h - 1) * g->dil_h < g->in_h) {
      const uint8_t *src = img + ((size_t)iy0 * (size_t)g->in_w + (size_t)ix0) * cin;
      copy_window(dst, src, (size_t)g->filter_w * cin, (size_t)g->dil_h * (size_t)g->in_w * cin,
                  g->filter_h);
      continue;
    }
    for (int32_t ky = 0; ky < g->filter_h; ky++) {
      const int32_t iy = (int32_t)oy * g->stride_h - g->pad_h + ky * g->dil_h;
      if (iy < 0 || iy >= g->in_h) {
        memset(dst, j->pad, (size_t)g->filter_w * cin);
        dst += (size_t)g->filter_w * cin;
        continue;
      }
      if (g->dil_w == 1 && ix0 >= 0 && ix0 + g->filter_w <= g->in_w) {
        const size_t n = (size_t)g->filter_w * cin;
        copy_run(dst, img + ((size_t)iy * (size_t)g->in_w + (size_t)ix0) * cin, n);
        dst += n;
        continue;
      }
      for (int32_t kx = 0; kx < g->filter_w; kx++, dst += cin) {
        const int32_t ix = ix0 + kx * g->dil_w;
        if (ix < 0 || ix >= g->in_w)
          memset(dst, j->pad, cin);
        else
          copy_run(dst, img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * cin, cin);
      }
    }
  }
}

static uint32_t row_sum(const uint8_t *x, size_t n, bool is_signed) {
  uint32_t s = 0;
  if (is_signed)
    for (size_t i = 0; i < n; i++) s += (uint32_t)(int32_t)(int8_t)x[i];
  else
    for (size_t i = 0; i < n; i++) s += x[i];
  return s;
}

/* Row pointers of tile rows m0 .. m0+mr-1 (im2col into `tile` when the job has no shared
 * rows), padded to MR rows with row 0. */
static void tile_rows(const q8_job *j, size_t m0, size_t mr, uint8_t *tile, const uint8_t **rows) {
  const size_t MR = (size_t)j->p->k->mr;
  if (j->rows_buf)
    for (size_t r = 0; r < mr; r++) rows[r] = j->rows_buf + (m0 + r) * im2col_stride(j->p);
  else if (j->g)
    conv_rows(j, m0, mr, tile, rows);
  else
    for (size_t r = 0; r < mr; r++) rows[r] = j->a + (m0 + r) * j->a_stride;
  for (size_t r = mr; r < MR; r++) rows[r] = rows[0];
}

/* n bytes of rows widened to int16 for a rows16 kernel (sign-extended for int8, zero-extended
 * for uint8): the AVX2 kernel's vector loop (rows16 kernels are AVX2 ones). */
static inline void widen_run(int16_t *d, const uint8_t *x, size_t n, bool is_signed) {
#if defined(__x86_64__) || defined(__i386__)
  tfcc_q8_widen_avx2(d, x, n, is_signed);
#else
  if (is_signed)
    for (size_t i = 0; i < n; i++) d[i] = (int8_t)x[i];
  else
    for (size_t i = 0; i < n; i++) d[i] = x[i];
#endif
}

/* The rows of a rows16 kernel widened to int16 into buf (row r at buf + r * row16_elems),
 * zero past K up to the pair; rows[] then point there (rows >= mr: row 0). */
static void widen_rows(const q8_job *j, const uint8_t **rows, size_t mr, int16_t *buf) {
  const size_t K = (size_t)j->p->kdim, n = row16_elems(j->p);
  for (size_t r = 0; r < mr; r++) {
    int16_t *d = buf + r * n;
    widen_run(d, rows[r], K, j->p->is_signed);
    if (n > K) d[K] = 0;
    rows[r] = (const uint8_t *)(const void *)d;
  }
  for (size_t r = mr; r < (size_t)j->p->k->mr; r++) rows[r] = rows[0];
}

/* conv_rows for a rows16 kernel in one pass: the im2col rows of output rows m0 .. m0+mr-1
 * widened straight from the input into buf (row r at buf + r * row16_elems; padding taps the
 * zero point, as an int16; zero past K up to the pair), rows[] pointing there (rows >= mr:
 * row 0), and their row terms into row_add (MR entries). */
static void conv_rows16(const q8_job *j, size_t m0, size_t mr, int16_t *buf, const uint8_t **rows,
                        int32_t *row_add) {
  const tfcc_conv_geom *g = j->g;
  const tfcc_q8_packed *p = j->p;
  const bool sgn = p->is_signed;
  const size_t cin = (size_t)g->in_c, K = (size_t)p->kdim, stride = row16_elems(p);
  const int16_t pad = sgn ? (int16_t)(int8_t)j->pad : (int16_t)j->pad;
  out_pos q = out_pos_at(g, m0);
  for (size_t r = 0; r < mr; r++) {
    if (r > 0) out_pos_next(g, &q);
    const size_t ox = q.x, oy = q.y, b = q.b;
    const uint8_t *img = j->a + b * (size_t)g->in_h * (size_t)g->in_w * cin;
    int16_t *const row = buf + r * stride;
    int16_t *dst = row;
    rows[r] = (const uint8_t *)(const void *)row;
    const int32_t iy0 = (int32_t)oy * g->stride_h - g->pad_h;
    const int32_t ix0 = (int32_t)ox * g->stride_w - g->pad_w;
    const bool cols_in = g->dil_w == 1 && ix0 >= 0 && ix0 + g->filter_w <= g->in_w;
    for (int32_t ky = 0; ky < g->filter_h; ky++) {
      const int32_t iy = iy0 + ky * g->dil_h;
      if (iy < 0 || iy >= g->in_h) {
        for (size_t i = 0; i < (size_t)g->filter_w * cin; i++) dst[i] = pad;
        dst += (size_t)g->filter_w * cin;
        continue;
      }
      if (cols_in) {
        const size_t n = (size_t)g->filter_w * cin;
        widen_run(dst, img + ((size_t)iy * (size_t)g->in_w + (size_t)ix0) * cin, n, sgn);
        dst += n;
        continue;
      }
      for (int32_t kx = 0; kx < g->filter_w; kx++, dst += cin) {
        const int32_t ix = ix0 + kx * g->dil_w;
        if (ix < 0 || ix >= g->in_w)
          for (size_t i = 0; i < cin; i++) dst[i] = pad;
        else
          widen_run(dst, img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * cin, cin, sgn);
      }
    }
    for (size_t i = K; i < stride; i++) row[i] = 0;
    uint32_t sum = 0;
    if (p->kz)
      for (size_t i = 0; i < K; i++) sum += (uint32_t)(int32_t)row[i];
    row_add[r] = (int32_t)((uint32_t)p->kz * sum);
  }
  for (size_t r = mr; r < (size_t)p->k->mr; r++) {
    rows[r] = rows[0];
    row_add[r] = row_add[0];
  }
}

/* The depth the kernel runs: K, or the im2col rows' stride (zeros past K) for kernels that
 * read whole 4-byte groups; the WebAssembly kernel takes K with rows_pad8 and runs only the
 * depth pairs up to K; rows16 kernels the bytes of the int16 rows. */
static size_t kernel_depth(const q8_job *j) {
  const tfcc_q8_packed *p = j->p;
  if (tfcc_q8_gemm_rows16(p->k)) return row16_elems(p) * sizeof(int16_t);
  return j->im2col && !tfcc_q8_gemm_c2_layout(p->k) ? im2col_stride(p) : (size_t)p->kdim;
}

/* Output stage common to both orders. */
static void out_init(const q8_job *j, int32_t *c32, tfcc_q8_out *o) {
  static const tfcc_conv_requant none = {0};
  const tfcc_conv_requant *r = j->r ? j->r : &none;
  o->c_stride = j->c_stride;
  o->c32 = c32;
  o->zp = r->output_offset;
  o->mult = o->shift = NULL;
  o->mult_stride = r->mult_stride;
  o->act_min = r->act_min;
  o->act_max = r->act_max;
  o->lo = (float)(r->act_min - r->output_offset);
  o->hi = (float)(r->act_max - r->output_offset);
  o->pf = o->pf_end = NULL;
  o->pf_step = 64;
  o->pf_skip = 0;
  o->pf_ahead = 0;
  o->hyb = NULL;
  o->rows_pad8 = j->im2col && tfcc_q8_gemm_c2_layout(j->p->k) && !tfcc_q8_gemm_rows16(j->p->k);
}

/* Hybrid output stage of a c32 tile (gemm.h, tfcc_q8_hybrid): zero-point correction with
 * the column sums, dequantization, bias, clamp; float out. One simple loop per step so that
 * compilers vectorise them; separate statements, so no contraction into a fused multiply-add:
 * the rounding is XNNPACK's / TFLite's. */
static void hybrid_row(const tfcc_q8_hybrid *h, const int32_t *acc, size_t n0, size_t nc,
                       uint32_t zp, float s, float *out) {
  float t[TFCC_Q8_MAX_NR];
  const int32_t *ws = h->wsum + n0;
  for (size_t j = 0; j < nc; j++) t[j] = (float)(int32_t)((uint32_t)acc[j] - zp * (uint32_t)ws[j]);
  if (h->fscale_stride) {
    const float *fs = h->fscale + n0;
    if (h->combined) {
      for (size_t j = 0; j < nc; j++) {
        const float m = s * fs[j];
        t[j] = t[j] * m;
      }
    } else {
      for (size_t j = 0; j < nc; j++) t[j] = t[j] * s;
      for (size_t j = 0; j < nc; j++) t[j] = t[j] * fs[j];
    }
  } else {
    const float fs = h->fscale[0];
    if (h->combined) {
      const float m = s * fs;
      for (size_t j = 0; j < nc; j++) t[j] = t[j] * m;
    } else {
      for (size_t j = 0; j < nc; j++) t[j] = t[j] * s;
      for (size_t j = 0; j < nc; j++) t[j] = t[j] * fs;
    }
  }
  if (h->bias) {
    const float *b = h->bias + n0;
    for (size_t j = 0; j < nc; j++) t[j] = t[j] + b[j];
  }
  const float lo = h->lo, hi = h->hi;
  for (size_t j = 0; j < nc; j++) {
    float v = t[j];
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    out[j] = v;
  }
}

static void hybrid_tile(const tfcc_q8_hybrid *h, const int32_t *c32, size_t NR, size_t m0,
                        size_t mr, size_t n0, size_t nc) {
  if (h->tile) {
    h->tile(h, c32, NR, m0, mr, n0, nc);
    return;
  }
  for (size_t r = 0; r < mr; r++) {
    const size_t grp = h->rows_per_group == 1 ? m0 + r : (m0 + r) / h->rows_per_group;
    (h->row ? h->row : hybrid_row)(h, c32 + r * NR, n0, nc, (uint32_t)h->zp[grp], h->scale[grp],
                                   h->c + (m0 + r) * h->c_stride + n0);
  }
}

/* Panels pi .. pi+np-1 against one row tile (np > 1: tfcc_q8_gemm_multi_panel kernels with
 * the float output stage), then the driver's requantization of a c32 tile. */
static void run_tile(const q8_job *j, size_t m0, size_t mr, size_t pi, size_t np,
                     const uint8_t **rows, const int32_t *row_add, tfcc_q8_out *o) {
  const tfcc_q8_packed *p = j->p;
  const size_t NR = (size_t)p->k->nr, N = (size_t)p->n;
  const size_t n0 = pi * NR, nc = N - n0 < np * NR ? N - n0 : np * NR;
  uint8_t *c = j->hyb ? NULL : j->c + m0 * j->c_stride;
  o->c = c ? c + n0 : NULL;
  if (!j->hyb && !p->fp32 && p->k->fixed_epilogue) {
    o->mult = j->r->mult + n0 * (size_t)j->r->mult_stride;
    o->shift = j->r->shift + n0 * (size_t)j->r->mult_stride;
  }
  /* the kernel's own hybrid output stage, where the tile's rows are one group or a group
     each */
  const tfcc_q8_hybrid *h = j->hyb;
  o->hyb = NULL;
  if (h && tfcc_q8_gemm_hybrid_epilogue(p->k) &&
      (h->rows_per_group == 1 || m0 / h->rows_per_group == (m0 + mr - 1) / h->rows_per_group)) {
    const size_t grp = h->rows_per_group == 1 ? m0 : m0 / h->rows_per_group;
    o->hyb = h;
    o->hyb_zp = h->zp + grp;
    o->hyb_scale = h->scale + grp;
    o->hyb_step = h->rows_per_group == 1 ? 1 : 0;
    o->hyb_n0 = n0;
    o->hyb_c = h->c + m0 * h->c_stride + n0;
  }
  j->fn(mr, nc, j->kc, (const void *const *)rows, p->w + pi * j->panel, row_add, o);
  if (o->hyb || !o->c32) return;
  if (j->hyb) {
    hybrid_tile(j->hyb, o->c32, NR, m0, mr, n0, nc);
    return;
  }
  for (size_t r = 0; r < mr; r++) {
    uint8_t *cr = c + r * j->c_stride + n0;
    for (size_t jj = 0; jj < nc; jj++)
      cr[jj] = (uint8_t)tfcc_requant32(o->c32[r * NR + jj], 0, j->r, (int32_t)(n0 + jj));
  }
}

static void tile_row_add(const q8_job *j, const uint8_t *const *rows, size_t mr, int32_t *row_add) {
  const tfcc_q8_packed *p = j->p;
  uint32_t (*const rsum)(const uint8_t *, size_t, bool) = p->k->row_sum ? p->k->row_sum : row_sum;
  for (size_t r = 0; r < mr; r++)
    row_add[r] =
        p->kz ? (int32_t)((uint32_t)p->kz * rsum(rows[r], (size_t)p->kdim, p->is_signed)) : 0;
  for (size_t r = mr; r < (size_t)p->k->mr; r++) row_add[r] = row_add[0];
}

/* After a task's non-temporal float stores (tfcc_q8_hybrid.stream): they are weakly
 * ordered, so they are made globally visible before the task ends and the pool's join
 * publishes the output to the caller's thread. */
static void stream_fence(const q8_job *j) {
#if defined(__SSE__)
  if (j->hyb && j->hyb->stream == TFCC_Q8_STREAM_ON) __builtin_ia32_sfence();
#else
  (void)j;
#endif
}

/* Panels outer, first pass: im2col of one row tile into the shared rows. */
static void q8_task_rows(void *ctx, size_t t, int thread) {
  (void)thread;
  const q8_job *j = ctx;
  const size_t MR = (size_t)j->p->k->mr, m0 = t * MR;
  const size_t mr = j->m - m0 < MR ? j->m - m0 : MR;
  const uint8_t *rows[TFCC_Q8_MAX_MR];
  conv_rows(j, m0, mr, j->rows_buf + m0 * im2col_stride(j->p), rows);
}

/* Panels outer: panels [p0, p1) of this task against all rows. */
static void q8_task_po(void *ctx, size_t task, int thread) {
  const q8_job *j = ctx;
  const tfcc_q8_packed *p = j->p;
  const size_t MR = (size_t)p->k->mr, panel = tfcc_q8_panel_bytes(p);
  const size_t p0 = task * j->sp.panels_per_block;
  size_t p1 = p0 + j->sp.panels_per_block;
  if (p1 > j->n_panels) p1 = j->n_panels;
  uint8_t *scratch = j->scratch ? j->scratch + (size_t)thread * j->scratch_stride : NULL;
  tfcc_q8_out o;
  out_init(j, c32_bytes(p, j->hyb != NULL) ? (int32_t *)(void *)scratch : NULL, &o);
  /* the sums of all rows, once per task */
  int32_t row_add[TFCC_Q8_PO_MAX_M + TFCC_Q8_MAX_MR];
  const uint8_t *rows[TFCC_Q8_MAX_MR];
  for (size_t t = 0; t < j->m_tiles; t++) {
    const size_t m0 = t * MR, mr = j->m - m0 < MR ? j->m - m0 : MR;
    tile_rows(j, m0, mr, NULL, rows);
    tile_row_add(j, rows, mr, row_add + m0);
  }
  /* the next panel's bytes, split between the row tiles (64-byte lines); not for a single
     tile (GEMV): it would have to prefetch as fast as it reads, which gains nothing when the
     weights come from memory and costs load slots when they are in cache */
  const size_t lines = (panel + 63) / 64;
  const size_t chunk = (lines + j->m_tiles - 1) / j->m_tiles * 64;
  const size_t steps = ((size_t)p->kdim + 3) / 4;
  o.pf_step = chunk > steps * 64 ? 128 : 64;
  while (o.pf_skip < 7 && chunk * 2 * (o.pf_skip + 1) <= steps * 64) o.pf_skip = 2 * o.pf_skip + 1;
  for (size_t pi = p0; pi < p1; pi++) {
    const uint8_t *next = j->m_tiles > 1 && pi + 1 < j->n_panels ? p->w + (pi + 1) * panel : NULL;
    for (size_t t = 0; t < j->m_tiles; t++) {
      const size_t m0 = t * MR, mr = j->m - m0 < MR ? j->m - m0 : MR;
      tile_rows(j, m0, mr, NULL, rows);
      if (next && t * chunk < panel) {
        o.pf = next + t * chunk;
        o.pf_end = next + ((t + 1) * chunk < panel ? (t + 1) * chunk : panel);
      } else {
        o.pf = o.pf_end = NULL;
      }
      run_tile(j, m0, mr, pi, 1, rows, row_add + m0, &o);
    }
  }
  stream_fence(j);
}

static void q8_task(void *ctx, size_t task, int thread) {
  const q8_job *j = ctx;
  const tfcc_q8_packed *p = j->p;
  const size_t MR = (size_t)p->k->mr;
  const tfcc_gemm_range rg = tfcc_gemm_task_range(&j->sp, j->m_tiles, j->n_panels, task);
  const size_t t0 = rg.t0, t1 = rg.t1, p0 = rg.p0, p1 = rg.p1;
  uint8_t *scratch = j->scratch ? j->scratch + (size_t)thread * j->scratch_stride : NULL;
  int32_t *c32 = c32_bytes(p, j->hyb != NULL) ? (int32_t *)(void *)scratch : NULL;
  uint8_t *tile = scratch ? scratch + c32_bytes(p, j->hyb != NULL) : NULL;
  /* rows16: the widened rows after the im2col tile */
  int16_t *rows16 =
      rows16_bytes(p) ? (int16_t *)(void *)(tile + (j->im2col ? im2col_bytes(p) : 0)) : NULL;
  const uint8_t *rows[TFCC_Q8_MAX_MR];
  int32_t row_add[TFCC_Q8_MAX_MR];
  tfcc_q8_out o;
  out_init(j, c32, &o);
  if (p->kdim >= TFCC_Q8_PF_AHEAD_MIN_K) o.pf_ahead = TFCC_Q8_PF_AHEAD;
  /* the kernel runs the task's panels in one call (one output stage per panel in it) */
  const bool multi = tfcc_q8_gemm_multi_panel(p->k) && !c32;
  if (multi && !j->hyb) {
    /* run_tile's work for every tile of the task, what does not depend on the tile once (the
       kernel's own output stage, no hybrid): in wasm the per-tile bookkeeping cost ~3% of a
       small-depth network */
    const size_t NR = (size_t)p->k->nr, n0 = p0 * NR, N = (size_t)p->n;
    const size_t nc = N - n0 < (p1 - p0) * NR ? N - n0 : (p1 - p0) * NR;
    const size_t kc = j->kc;
    const uint8_t *w = p->w + p0 * j->panel;
    const tfcc_q8_gemm_fn fn = j->fn;
    if (!p->fp32 && p->k->fixed_epilogue) {
      o.mult = j->r->mult + n0 * (size_t)j->r->mult_stride;
      o.shift = j->r->shift + n0 * (size_t)j->r->mult_stride;
    }
    for (size_t t = t0; t < t1; t++) {
      const size_t m0 = t * MR;
      const size_t mr = j->m - m0 < MR ? j->m - m0 : MR;
      tile_rows(j, m0, mr, tile, rows);
      tile_row_add(j, rows, mr, row_add);
      o.c = j->c + m0 * j->c_stride + n0;
      fn(mr, nc, kc, (const void *const *)rows, w, row_add, &o);
    }
    return;
  }
  for (size_t t = t0; t < t1; t++) {
    const size_t m0 = t * MR;
    const size_t mr = j->m - m0 < MR ? j->m - m0 : MR;
    if (rows16 && j->im2col && !j->rows_buf) {
      conv_rows16(j, m0, mr, rows16, rows, row_add);
    } else {
      tile_rows(j, m0, mr, tile, rows);
      tile_row_add(j, rows, mr, row_add);
      if (rows16) widen_rows(j, rows, mr, rows16);
    }
    if (multi)
      run_tile(j, m0, mr, p0, p1 - p0, rows, row_add, &o);
    else
      for (size_t pi = p0; pi < p1; pi++) run_tile(j, m0, mr, pi, 1, rows, row_add, &o);
  }
  stream_fence(j);
}

/* Row tiles per task with `threads` threads: the largest count up to `tpt` whose tasks share
 * out evenly, in row tiles per thread (each task has n_blocks equal parts, so only the row
 * chunks matter). 14 tiles (a 14x14 layer) in chunks of 2 make 7 tasks, 4 on one thread and 3
 * on the other, so 8/7 of the even time; chunks of 1 make 14 tasks, 7 each. A smaller count
 * is taken only when it shortens the busiest thread by more than 1/32 (more tasks cost a
 * little each). */
static size_t balanced_tiles_per_task(size_t m_tiles, size_t tpt, size_t threads) {
  size_t best = tpt, best_load = 0;
  const size_t lo = tpt / 4 > 1 ? tpt / 4 : 1;
  for (size_t c = tpt; c >= lo; c--) {
    const size_t tasks = (m_tiles + c - 1) / c;
    /* busiest thread: ceil(tasks / threads) tasks, the last one possibly short */
    size_t load = (tasks + threads - 1) / threads * c;
    if (load > m_tiles) load = m_tiles;
    if (best_load == 0 || load * 32 + load < best_load * 32) {
      best = c;
      best_load = load;
    }
  }
  return best;
}

static void run_job(struct tfcc_threadpool *pool, q8_job *j) {
  const tfcc_q8_gemm_kernel *k = j->p->k;
  if (j->m == 0 || j->p->n == 0) return;
  const size_t threads = tfcc_gemm_threads(&pool, j->m, (size_t)j->p->n, (size_t)j->p->kdim,
                                           TFCC_Q8_MIN_PARALLEL_MACS);
  const size_t MR = (size_t)k->mr, NR = (size_t)k->nr;
  j->m_tiles = (j->m + MR - 1) / MR;
  j->n_panels = ((size_t)j->p->n + NR - 1) / NR;
  if (j->panels_outer) {
    if (j->rows_buf) tfcc_threadpool_run(pool, j->m_tiles, q8_task_rows, j);
    /* a few panel ranges per thread (each task sums all rows once) */
    const size_t want = threads > 1 ? 2 * threads : 1;
    j->sp.panels_per_block = (j->n_panels + want - 1) / want;
    tfcc_threadpool_run(pool, (j->n_panels + j->sp.panels_per_block - 1) / j->sp.panels_per_block,
                        q8_task_po, j);
    return;
  }
  tfcc_gemm_split sp = tfcc_gemm_split_blocks(
      j->m_tiles, j->n_panels, TFCC_Q8_L2_BLOCK / tfcc_q8_panel_bytes(j->p), threads);
  if (threads > 1)
    tfcc_gemm_split_rows(&sp, j->m_tiles,
                         balanced_tiles_per_task(j->m_tiles, sp.tiles_per_task, threads));
  j->sp = sp;
  tfcc_threadpool_run(pool, tfcc_gemm_split_tasks(&j->sp), q8_task, j);
}

static void set_scratch(q8_job *j, void *scratch) {
  j->fn = j->p->is_signed ? j->p->k->fn_s : j->p->k->fn_u;
  j->kc = kernel_depth(j);
  j->panel = tfcc_q8_panel_bytes(j->p);
  j->panels_outer = panels_outer(j->m, j->p);
  const size_t shared = shared_bytes(j->g, j->p);
  j->rows_buf = shared ? scratch : NULL;
  j->scratch = scratch ? (uint8_t *)scratch + shared : NULL;
  j->scratch_stride = per_thread_bytes(j->g, j->p, j->hyb != NULL);
}

/* A product over m rows of a (a_stride bytes apart): requantized into c (r), or the hybrid
 * float output stage (h, c unused). */
static void run_rows(struct tfcc_threadpool *pool, const tfcc_q8_packed *p,
                     const tfcc_conv_requant *r, const tfcc_q8_hybrid *h, int32_t m, const void *a,
                     size_t a_stride, void *c, size_t c_stride, void *scratch) {
  q8_job j;
  memset(&j, 0, sizeof j);
  j.p = p;
  j.r = r;
  j.hyb = h;
  j.m = m > 0 ? (size_t)m : 0;
  j.a = a;
  j.a_stride = a_stride;
  j.c = c;
  j.c_stride = c_stride;
  set_scratch(&j, scratch);
  run_job(pool, &j);
}

void tfcc_q8_gemm(struct tfcc_threadpool *pool, const tfcc_q8_packed *p, const tfcc_conv_requant *r,
                  int32_t m, const void *a, size_t a_stride, void *c, size_t c_stride,
                  void *scratch) {
  run_rows(pool, p, r, NULL, m, a, a_stride, c, c_stride, scratch);
}

void tfcc_q8_conv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g, const tfcc_q8_packed *p,
                  const tfcc_conv_requant *r, const void *in, void *out, void *scratch) {
  q8_job j;
  memset(&j, 0, sizeof j);
  j.p = p;
  j.r = r;
  j.m = (size_t)g->batches * (size_t)g->out_h * (size_t)g->out_w;
  j.a = in;
  j.g = g;
  j.im2col = !conv_direct(g);
  /* 1x1 at stride 1: the rows are the input's pixels one after another (a plain matrix, no
     per-row coordinates) */
  if (!j.im2col && g->stride_h == 1 && g->stride_w == 1) {
    j.g = NULL;
    j.a_stride = (size_t)g->in_c;
  }
  j.pad = (uint8_t)(-r->input_offset);
  j.c = out;
  j.c_stride = (size_t)g->out_c;
  set_scratch(&j, scratch);
  run_job(pool, &j);
}

/* AUTO streams outputs of at least the last-level cache (the L3; TFCC_Q8_STREAM_MIN_BYTES
 * where its size is unknown), which the next operator reads from memory either way, from
 * kernels that run the output stage on their registers. Smaller outputs are stored through
 * the cache: streamed, they cost their reader more than they save (hybrid_twins: MobileNetV2
 * hybrid 6% slower with outputs of 1 MiB and more streamed, its 4.8 MiB expansion output
 * read from memory by the depthwise after it; ResNet-50 no faster). The whole-tile functions
 * (kernels without the register stage) always store through the cache: those kernels are slow
 * enough that their stores are not the bound. */
bool tfcc_q8_hybrid_streams(const tfcc_q8_packed *p, const tfcc_q8_hybrid *h, size_t bytes) {
  if (!tfcc_q8_gemm_hybrid_epilogue(p->k) || h->stream == TFCC_Q8_STREAM_OFF) return false;
  if (h->stream == TFCC_Q8_STREAM_ON) return true;
  const tfcc_cpu_info *ci = tfcc_cpu();
  return bytes >= (ci && ci->l3_bytes ? ci->l3_bytes : TFCC_Q8_STREAM_MIN_BYTES);
}

/* h with its store choice made for an output of `bytes`. */
static tfcc_q8_hybrid hybrid_stream(const tfcc_q8_hybrid *h, const tfcc_q8_packed *p,
                                    size_t bytes) {
  tfcc_q8_hybrid r = *h;
  r.stream = tfcc_q8_hybrid_streams(p, h, bytes) ? TFCC_Q8_STREAM_ON : TFCC_Q8_STREAM_OFF;
  return r;
}

void tfcc_q8_gemm_hybrid(struct tfcc_threadpool *pool, const tfcc_q8_packed *p,
                         const tfcc_q8_hybrid *h, int32_t m, const void *a, size_t a_stride,
                         void *scratch) {
  const tfcc_q8_hybrid hs =
      hybrid_stream(h, p, (m > 0 ? (size_t)m : 0) * h->c_stride * sizeof(float));
  run_rows(pool, p, NULL, &hs, m, a, a_stride, NULL, 0, scratch);
}

void tfcc_q8_conv_hybrid(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                         const tfcc_q8_packed *p, const tfcc_q8_hybrid *h, const void *in,
                         void *scratch) {
  /* one image per job: the padding byte is that image's zero point */
  tfcc_conv_geom g1 = *g;
  g1.batches = 1;
  const size_t in_img = (size_t)g->in_h * (size_t)g->in_w * (size_t)g->in_c;
  const size_t rows = (size_t)g->out_h * (size_t)g->out_w;
  for (int32_t b = 0; b < g->batches; b++) {
    tfcc_q8_hybrid hb = hybrid_stream(h, p, rows * h->c_stride * sizeof(float));
    hb.c = h->c + (size_t)b * rows * h->c_stride;
    hb.zp = h->zp + b;
    hb.scale = h->scale + b;
    hb.rows_per_group = rows ? rows : 1;
    q8_job j;
    memset(&j, 0, sizeof j);
    j.p = p;
    j.hyb = &hb;
    j.m = rows;
    j.a = (const uint8_t *)in + (size_t)b * in_img;
    j.g = &g1;
    j.im2col = !conv_direct(&g1);
    j.pad = (uint8_t)h->zp[b]; /* int8 zp, or the uint8 one (ops/hybrid.c) */
    set_scratch(&j, scratch);
    run_job(pool, &j);
  }
}

/* int16 x int8 depthwise dispatch table and the 16x8 DEPTHWISE_CONV_2D driver on it
 * (dwconv.h): the reference kernel's walk and requantization, its sums from the vector kernel. */
#include "kernels/q16-dwconv/dwconv.h"

#include <string.h>

#include "kernels/ref/conv_acc.h"
#include "kernels/ref/conv_walk.h"

#define Q16_DW_ROW(name, fn, sfx, level) \
  { \
    name "-" #sfx, level, fn##_##sfx, fn##_req_##sfx, tfcc_q16_dwp_##sfx, tfcc_q16_dwp_pack_##sfx, \
        tfcc_q16_dwf_##sfx, TFCC_Q16_DWP_B_##sfx \
  }
static const tfcc_q16_dw_kernel kernels[] = {
    TFCC_KERNEL_ROWS(Q16_DW_ROW, "q16-dwconv", tfcc_q16_dw)};
TFCC_DISPATCH_TABLE_FNS(tfcc_q16_dw, tfcc_q16_dw_kernel)

/* Output channels per pass (the int64 sums, the requantization terms and, with a depth
 * multiplier above 1, the input spread to the output channels, on the stack). */
enum { Q16_DW_CHUNK = 256 };

/* A padding tap's input on the tap-pair path (the reference kernel skips the tap: a zero sum). */
static const int16_t q16_dw_zeros[Q16_DW_CHUNK];

/* the widest block (AVX-512) */
enum { Q16_DW_MAX_B = 32 };

size_t tfcc_q16_dw_packed_bytes(const tfcc_q16_dw_kernel *k, int32_t c, int32_t taps) {
  if (!k || !k->fused || !k->pack || !k->block || k->block > Q16_DW_MAX_B || c <= 0 || taps <= 0 ||
      taps > TFCC_Q16_DWF_MAX_TAPS)
    return 0;
  const size_t nb = ((size_t)c + k->block - 1) / k->block, npairs = ((size_t)taps + 1) / 2;
  return nb * npairs * 2 * k->block * sizeof(int16_t);
}

/* pair by pair (k->pack of one pair writes its 2 * block int16) */
void tfcc_q16_dw_pack(const tfcc_q16_dw_kernel *k, int32_t c, int32_t taps, const int8_t *filter,
                      int16_t *dst) {
  const size_t bsz = k->block, npairs = ((size_t)taps + 1) / 2, nb = ((size_t)c + bsz - 1) / bsz;
  const int8_t *wps[2];
  int8_t pad[2][Q16_DW_MAX_B]; /* the last block's channels, zero past c */
  for (size_t b = 0; b < nb; b++) {
    const size_t c0 = b * bsz, n = (size_t)c - c0 < bsz ? (size_t)c - c0 : bsz;
    for (size_t p = 0; p < npairs; p++) {
      for (size_t i = 0; i < 2; i++) {
        const size_t t = 2 * p + i;
        wps[i] = NULL;
        if (t >= (size_t)taps) continue;
        wps[i] = filter + t * (size_t)c + c0;
        if (n < bsz) {
          memset(pad[i], 0, sizeof pad[i]);
          memcpy(pad[i], wps[i], n);
          wps[i] = pad[i];
        }
      }
      k->pack(1, wps, 1, dst + (b * npairs + p) * 2 * bsz);
    }
  }
}

bool tfcc_q16_dwconv_fits(const tfcc_conv_geom *g, const tfcc_conv_requant *q) {
  return g->in_c > 0 && g->out_c % g->in_c == 0 && q->input_offset == 0;
}

static size_t q16_dw_align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* the spread input's bytes (0: a multiplier of 1, or past TFCC_Q16_DW_SPREAD_MAX) */
static size_t q16_dw_spread_bytes(const tfcc_conv_geom *g) {
  if (g->in_c <= 0 || g->out_c <= g->in_c || g->batches <= 0 || g->in_h <= 0 || g->in_w <= 0)
    return 0;
  const double n = (double)g->batches * g->in_h * g->in_w * g->out_c * sizeof(int16_t);
  return n > (double)TFCC_Q16_DW_SPREAD_MAX ? 0 : q16_dw_align64((size_t)n);
}

/* one thread's fused-kernel work area: the taps' pointers and steps, the kernel's ws (at the
 * widest block); 0 past TFCC_Q16_DWF_MAX_TAPS */
static size_t q16_dw_ws_bytes(const tfcc_conv_geom *g) {
  const int64_t taps = (int64_t)g->filter_h * g->filter_w;
  if (taps <= 0 || taps > TFCC_Q16_DWF_MAX_TAPS) return 0;
  const size_t nt = 2 * (((size_t)taps + 1) / 2);
  return q16_dw_align64(nt * sizeof(const int16_t *)) + q16_dw_align64(nt * sizeof(ptrdiff_t)) +
         q16_dw_align64(tfcc_q16_dwf_ws_bytes(Q16_DW_MAX_B, nt / 2));
}

size_t tfcc_q16_dwconv_scratch_bytes(const tfcc_conv_geom *g, int threads) {
  const size_t ws = q16_dw_ws_bytes(g);
  if (!ws) return 0;
  return q16_dw_spread_bytes(g) + (size_t)(threads < 1 ? 1 : threads) * ws;
}

typedef struct q16_dw_job {
  const tfcc_q16_dw_kernel *k;
  const tfcc_conv_geom *g;
  const tfcc_conv_requant *q;
  const int16_t *in;
  const int8_t *filter;
  const int16_t *packed;
  const int64_t *b64;
  const int32_t *b32;
  int16_t *out;
  unsigned char *ws; /* the threads' fused-kernel work areas (NULL: none), ws_bytes each */
  size_t ws_bytes;
} q16_dw_job;

/* The terms of channels [c0, c0 + nc) (the bias from bias64, else bias32, else 0); false where a
 * shift is outside what tfcc_requant64 defines (the scalar reference function then runs). */
typedef struct q16_dw_terms {
  int64_t bias[Q16_DW_CHUNK], mult[Q16_DW_CHUNK], round[Q16_DW_CHUNK], shift[Q16_DW_CHUNK];
} q16_dw_terms;

static bool q16_dw_terms_init(const q16_dw_job *j, int32_t c0, int32_t nc, q16_dw_terms *t,
                              tfcc_q16_dw_req_terms *r) {
  const int64_t lim = (int64_t)1 << 47;
  const tfcc_conv_requant *q = j->q;
  r->bias = t->bias, r->mult = t->mult, r->round = t->round, r->shift = t->shift;
  r->offset = q->output_offset, r->act_min = q->act_min, r->act_max = q->act_max;
  for (int32_t n = 0; n < nc; n++) {
    const int32_t c = c0 + n, k = c * q->mult_stride, qm = q->mult[k];
    const int ts = 15 - q->shift[k];
    if (ts < 1 || ts > 62) return false;
    const int64_t b = j->b64 ? j->b64[c] : (j->b32 ? (int64_t)j->b32[c] : 0);
    t->bias[n] = b > lim ? lim : (b < -lim ? -lim : b);
    t->mult[n] = qm < 0x7FFF0000 ? (qm + (1 << 15)) >> 16 : 0x7FFF;
    t->round[n] = (int64_t)1 << (ts - 1);
    t->shift[n] = ts;
  }
  return true;
}

/* The fused kernel's terms of channels [c0, c0 + nc) in the lane order of blocks of bsz
 * (dwconv.h, tfcc_q16_dw_rq; padding positions past nc get zeros); false where the fused
 * requantization is not tfcc_requant64's (a bias past 2^47 - (max(taps, 511) + 1) x 2^22:
 * 2^47 - 2^31 up to 511 taps, so that with a sum |s| <= taps x 2^22 neither of the reference's
 * clamps to +-2^47 acts; a shift outside 1..62; a clamp range outside int16). */
typedef struct q16_dw_fterms {
  int64_t mult[Q16_DW_CHUNK], bm[Q16_DW_CHUNK], shift[Q16_DW_CHUNK];
} q16_dw_fterms;

static bool q16_dw_fterms_init(const q16_dw_job *j, int32_t c0, int32_t nc, q16_dw_fterms *t,
                               tfcc_q16_dw_rq *r) {
  const tfcc_conv_requant *q = j->q;
  const size_t bsz = j->k->block, np = ((size_t)nc + bsz - 1) / bsz * bsz;
  const int64_t taps = (int64_t)j->g->filter_h * j->g->filter_w;
  const int64_t blim = ((int64_t)1 << 47) - ((taps > 511 ? taps : 511) + 1) * ((int64_t)1 << 22);
  if (q->act_min < -32768 || q->act_max > 32767) return false;
  r->mult = t->mult, r->bm = t->bm, r->shift = t->shift;
  r->offset = q->output_offset, r->act_min = q->act_min, r->act_max = q->act_max;
  for (size_t p = 0; p < np; p++) {
    const size_t n = p / bsz * bsz + tfcc_q16_dwf_chan(bsz, p % bsz);
    t->mult[p] = 0, t->bm[p] = 0, t->shift[p] = 1;
    if (n >= (size_t)nc) continue;
    const int32_t c = c0 + (int32_t)n, k = c * q->mult_stride, qm = q->mult[k];
    const int ts = 15 - q->shift[k];
    if (ts < 1 || ts > 62) return false;
    const int64_t b = j->b64 ? j->b64[c] : (j->b32 ? (int64_t)j->b32[c] : 0);
    if (b > blim || b < -blim) return false;
    const int64_t m = qm < 0x7FFF0000 ? (qm + (1 << 15)) >> 16 : 0x7FFF;
    t->mult[p] = m, t->bm[p] = b * m + ((int64_t)1 << (ts - 1)), t->shift[p] = ts;
  }
  return true;
}

/* The tap pointers of output pixel (b, oy, ox) from channel c0 (a padding tap, and the zero
 * second tap of an odd count, the zero row), and each one's step to the next pixel to the
 * right (stride_w pixels; 0 for the zero row). */
static void q16_dw_taps(const q16_dw_job *j, int32_t b, int32_t oy, int32_t ox, size_t c0,
                        size_t nt, const int16_t **xs, ptrdiff_t *xstep) {
  const tfcc_conv_geom *g = j->g;
  const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
  const ptrdiff_t sx = (ptrdiff_t)g->stride_w * g->in_c;
  size_t t = 0;
  for (int32_t fy = 0; fy < g->filter_h; fy++) {
    const int32_t iy = iy0 + g->dil_h * fy;
    const bool rin = iy >= 0 && iy < g->in_h;
    for (int32_t fx = 0; fx < g->filter_w; fx++, t++) {
      const int32_t ix = ix0 + g->dil_w * fx;
      const bool in = rin && ix >= 0 && ix < g->in_w;
      xs[t] =
          in ? j->in + (((size_t)b * g->in_h + iy) * g->in_w + ix) * g->in_c + c0 : q16_dw_zeros;
      xstep[t] = in ? sx : 0;
    }
  }
  for (; t < nt; t++) xs[t] = q16_dw_zeros, xstep[t] = 0;
}

/* Output rows [r0, r1) on the fused kernel, channels [c0, c0 + nc): the columns whose window
 * lies inside the image's width in one call, stepping right; the others one by one. */
static void q16_dw_fused_rows(const q16_dw_job *j, size_t r0, size_t r1, int32_t c0, int32_t nc,
                              const tfcc_q16_dw_rq *rq, int thread) {
  const tfcc_conv_geom *g = j->g;
  const tfcc_q16_dw_kernel *k = j->k;
  const size_t taps = (size_t)g->filter_h * (size_t)g->filter_w, npairs = (taps + 1) / 2;
  const int16_t *w = j->packed + (size_t)c0 / k->block * npairs * 2 * k->block;
  /* this thread's work area (q16_dw_ws_bytes): tap pointers, steps, the kernel's ws */
  unsigned char *ws = j->ws + (size_t)thread * j->ws_bytes;
  const int16_t **xs = (const int16_t **)(void *)ws;
  ptrdiff_t *xstep = (ptrdiff_t *)(void *)(ws + q16_dw_align64(2 * npairs * sizeof *xs));
  void *kws = (unsigned char *)xstep + q16_dw_align64(2 * npairs * sizeof *xstep);
  /* ox in [lo, hi): ox * sw - pw >= 0 and ox * sw - pw + dw * (fw - 1) <= in_w - 1 */
  const int64_t sw = g->stride_w, span = (int64_t)g->dil_w * (g->filter_w - 1);
  const int64_t last = (int64_t)g->in_w - 1 + g->pad_w - span;
  int64_t lo = ((int64_t)g->pad_w + sw - 1) / sw, hi = last < 0 ? 0 : last / sw + 1;
  if (lo > g->out_w) lo = g->out_w;
  if (hi > g->out_w) hi = g->out_w;
  if (hi < lo) hi = lo;
  for (size_t row = r0; row < r1; row++) {
    const int32_t b = (int32_t)(row / (size_t)g->out_h), oy = (int32_t)(row % (size_t)g->out_h);
    int16_t *o = j->out + ((size_t)b * g->out_h + oy) * g->out_w * g->out_c + c0;
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      const size_t npix = ox == lo && hi > lo ? (size_t)(hi - lo) : 1;
      q16_dw_taps(j, b, oy, ox, (size_t)c0, 2 * npairs, xs, xstep);
      k->fused(npairs, xs, xstep, npix, w, (size_t)nc, rq, o + (size_t)ox * g->out_c,
               (size_t)g->out_c, kws);
      ox += (int32_t)npix - 1;
    }
  }
}

/* Output rows [r0, r1) of all batches (row = b * out_h + oy) on thread `thread`. */
static void q16_dw_rows(const q16_dw_job *j, size_t r0, size_t r1, int thread) {
  const tfcc_conv_geom *g = j->g;
  const tfcc_q16_dw_kernel *k = j->k;
  const int16_t *in = j->in;
  const int32_t mult = g->out_c / g->in_c;
  int64_t acc[Q16_DW_CHUNK];
  const int16_t *xs[TFCC_Q16_DW_MAX_TAPS];
  const int8_t *ws[TFCC_Q16_DW_MAX_TAPS];
  /* mult > 1: each tap's input of the pass spread to its output channels */
  int16_t spread[TFCC_Q16_DW_MAX_TAPS][Q16_DW_CHUNK];
  q16_dw_terms terms;
  tfcc_q16_dw_req_terms rt;
  /* depth multiplier 1 and at most TFCC_Q16_DW_MAX_TAPS taps: whole blocks of channels on the
   * tap-pair kernel (weights packed per pass), the rest on k->fn */
  const size_t taps = (size_t)g->filter_h * (size_t)g->filter_w, npairs = (taps + 1) / 2;
  const bool use_pairs = mult == 1 && taps <= TFCC_Q16_DW_MAX_TAPS && k->pairs && k->block;
  const int8_t *wps[TFCC_Q16_DW_MAX_TAPS];
  _Alignas(64) int16_t wpk[TFCC_Q16_DW_MAX_TAPS * Q16_DW_CHUNK];
  q16_dw_fterms fterms;
  tfcc_q16_dw_rq frq;
  /* the fused kernel on the layer packing (up to TFCC_Q16_DWF_MAX_TAPS taps, with a work area) */
  const bool fused = mult == 1 && taps <= TFCC_Q16_DWF_MAX_TAPS && k->fused && j->packed && j->ws;
  const bool packed = use_pairs && j->packed;
  for (int32_t c0 = 0; c0 < g->out_c; c0 += Q16_DW_CHUNK) {
    const int32_t nc = g->out_c - c0 < Q16_DW_CHUNK ? g->out_c - c0 : Q16_DW_CHUNK;
    if (fused && q16_dw_fterms_init(j, c0, nc, &fterms, &frq)) {
      q16_dw_fused_rows(j, r0, r1, c0, nc, &frq, thread);
      continue;
    }
    const bool vreq = q16_dw_terms_init(j, c0, nc, &terms, &rt);
    const size_t nb = use_pairs ? (size_t)nc / k->block : 0, nbc = nb * k->block;
    /* the layer's packing where there is one (the same layout, whole blocks first) */
    const int16_t *wk = packed ? j->packed + (size_t)c0 / k->block * npairs * 2 * k->block : wpk;
    if (nb && !packed) {
      for (size_t t = 0; t < 2 * npairs; t++)
        wps[t] = t < taps ? j->filter + t * (size_t)g->out_c + (size_t)c0 : NULL;
      k->pack(npairs, wps, nb, wpk);
    }
    for (size_t row = r0; row < r1; row++) {
      const int32_t b = (int32_t)(row / (size_t)g->out_h), oy = (int32_t)(row % (size_t)g->out_h);
      const int32_t iy0 = oy * g->stride_h - g->pad_h;
      for (int32_t ox = 0; ox < g->out_w; ox++) {
        const int32_t ix0 = ox * g->stride_w - g->pad_w;
        const size_t out_base = (((size_t)b * g->out_h + oy) * g->out_w + ox) * g->out_c;
        if (nb) {
          ptrdiff_t xstep[TFCC_Q16_DW_MAX_TAPS]; /* one pixel: its steps unused */
          q16_dw_taps(j, b, oy, ox, (size_t)c0, 2 * npairs, xs, xstep);
          k->pairs(npairs, xs, wk, nb, acc);
          if (nbc < (size_t)nc) {
            for (size_t t = 0; t < taps; t++) {
              xs[t] += nbc;
              ws[t] = j->filter + t * (size_t)g->out_c + (size_t)c0 + nbc;
            }
            for (size_t i = nbc; i < (size_t)nc; i++) acc[i] = 0;
            k->fn(taps, xs, ws, (size_t)nc - nbc, acc + nbc);
          }
        } else {
          for (int32_t i = 0; i < nc; i++) acc[i] = 0;
          size_t nt = 0;
          TFCC_CONV_TAPS({
            const int16_t *px = in + (((size_t)b * g->in_h + iy) * g->in_w + ix) * g->in_c;
            if (mult == 1) {
              xs[nt] = px + c0;
            } else {
              for (int32_t i = 0; i < nc; i++) spread[nt][i] = px[(c0 + i) / mult];
              xs[nt] = spread[nt];
            }
            ws[nt] = j->filter + ((size_t)fy * g->filter_w + fx) * g->out_c + c0;
            if (++nt == TFCC_Q16_DW_MAX_TAPS) {
              k->fn(nt, xs, ws, (size_t)nc, acc);
              nt = 0;
            }
          })
          if (nt) k->fn(nt, xs, ws, (size_t)nc, acc);
        }
        int16_t *o = j->out + out_base + c0;
        if (vreq) {
          k->req((size_t)nc, acc, &rt, o);
        } else {
          for (int32_t i = 0; i < nc; i++) {
            const int32_t c = c0 + i;
            const int64_t bv = j->b64 ? j->b64[c] : (j->b32 ? (int64_t)j->b32[c] : 0);
            o[i] = (int16_t)tfcc_requant64(acc[i], bv, j->q, c);
          }
        }
      }
    }
  }
}

/* Task t of a job: rows [t * per, (t + 1) * per) (tfcc_threadpool_run_split's pieces). */
typedef struct q16_dw_task_job {
  const q16_dw_job *j;
  size_t rows, per;
} q16_dw_task_job;

static void q16_dw_task(void *ctx, size_t task, int thread) {
  const q16_dw_task_job *t = ctx;
  const size_t r0 = task * t->per, r1 = r0 + t->per < t->rows ? r0 + t->per : t->rows;
  q16_dw_rows(t->j, r0, r1, thread);
}

/* Input rows [r0, r1) (row = b * in_h + iy) spread to out_c channels: x'[c] = x[c / mult]. */
typedef struct q16_dw_spread_job {
  const tfcc_conv_geom *g;
  const int16_t *in;
  int16_t *dst;
} q16_dw_spread_job;

/* d[i * m + k] = x[i] for i < n, k < m; with m a constant (multipliers 2, 3, 4) the compiler
 * vectorises it (interleaved stores of m copies) */
static inline void q16_dw_spread_m(const int16_t *restrict x, int16_t *restrict d, size_t n,
                                   size_t m) {
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < m; k++) d[i * m + k] = x[i];
}

static void q16_dw_spread_rows(void *ctx, size_t r0, size_t r1) {
  const q16_dw_spread_job *j = ctx;
  const size_t ic = (size_t)j->g->in_c, oc = (size_t)j->g->out_c, mult = oc / ic;
  /* the rows' pixels are contiguous: x'[p * oc + c] = x[p * ic + c / mult] is one flat spread */
  const size_t n = (r1 - r0) * (size_t)j->g->in_w * ic;
  const int16_t *x = j->in + r0 * (size_t)j->g->in_w * ic;
  int16_t *d = j->dst + r0 * (size_t)j->g->in_w * oc;
  switch (mult) {
    case 2: q16_dw_spread_m(x, d, n, 2); break;
    case 3: q16_dw_spread_m(x, d, n, 3); break;
    case 4: q16_dw_spread_m(x, d, n, 4); break;
    default: q16_dw_spread_m(x, d, n, mult); break;
  }
}

void tfcc_q16_dwconv(tfcc_threadpool *pool, const tfcc_q16_dw_kernel *k, const tfcc_conv_geom *g,
                     const tfcc_conv_requant *q, const int16_t *in, const int8_t *filter,
                     const int16_t *packed, const int64_t *bias64, const int32_t *bias32,
                     int16_t *out, void *scratch) {
  /* an empty output walks no row (2^30 batches of width 0: fuzz55) */
  if (g->out_w <= 0 || g->out_c <= 0) return;
  const int threads = tfcc_threadpool_size(pool);
  /* scratch: the spread input (a multiplier above 1, within TFCC_Q16_DW_SPREAD_MAX), then each
   * thread's work area */
  const size_t spread = q16_dw_spread_bytes(g), ws_bytes = q16_dw_ws_bytes(g);
  unsigned char *ws = scratch && ws_bytes ? (unsigned char *)scratch + spread : NULL;
  tfcc_conv_geom gs;
  if (g->out_c != g->in_c && ws && spread) {
    /* a depth multiplier above 1: the input spread once, then a multiplier of 1 */
    const q16_dw_spread_job sj = {g, in, scratch};
    const size_t in_rows = (size_t)g->batches * (size_t)g->in_h;
    tfcc_threadpool_run_split(pool, in_rows, threads > 1 ? 4 * (size_t)threads : 1,
                              q16_dw_spread_rows, (void *)&sj);
    gs = *g;
    gs.in_c = g->out_c;
    g = &gs, in = scratch;
  } else if (g->out_c != g->in_c) {
    packed = NULL; /* the packing is the fused kernel's, which needs the spread input */
  }
  const q16_dw_job j = {k, g, q, in, filter, packed, bias64, bias32, out, ws, ws_bytes};
  const size_t rows = (size_t)g->batches * (size_t)g->out_h;
  if (rows == 0) return;
  size_t tasks = threads > 1 ? 4 * (size_t)threads : 1;
  if (tasks > rows) tasks = rows;
  const size_t per = (rows + tasks - 1) / tasks;
  const q16_dw_task_job tj = {&j, rows, per};
  tfcc_threadpool_run(pool, (rows + per - 1) / per, q16_dw_task, (void *)&tj);
}

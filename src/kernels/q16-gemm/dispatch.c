/* int16 x int8 GEMM dispatch table, the filter packing and the 16x8 CONV_2D driver (gemm.h):
 * tiles of MR output pixels through the implicit im2col's row pointers against the panels of
 * NR output channels, then the requantization, split over the pool by panel and pixels. */
#include "kernels/q16-gemm/gemm.h"

#include <math.h>
#include <string.h>

#include "kernels/ref/conv_acc.h"
#include "kernels/ref/fully_connected.h"

#define Q16_GEMM_ROW(name, fn, sfx, level) \
  { \
    name "-" #sfx, level, fn##_##sfx, fn##_req_##sfx, fn##_widen_##sfx, fn##_fused_##sfx, \
        fn##_req32_##sfx, TFCC_Q16_GEMM_MR_##sfx, TFCC_Q16_GEMM_NR_##sfx, -1 \
  }
static const tfcc_q16_gemm_kernel kernels[] = {TFCC_KERNELS_X86(
    {"q16-gemm-avx512vnni", TFCC_ISA_AVX512, tfcc_q16_gemm_avx512vnni, tfcc_q16_gemm_req_avx512vnni,
     tfcc_q16_gemm_widen_avx512vnni, tfcc_q16_gemm_fused_avx512vnni, tfcc_q16_gemm_req32_avx512vnni,
     TFCC_Q16_GEMM_MR_avx512vnni, TFCC_Q16_GEMM_NR_avx512vnni,
     TFCC_CPU_AVX512VNNI}) TFCC_KERNEL_ROWS(Q16_GEMM_ROW, "q16-gemm", tfcc_q16_gemm)};
TFCC_DISPATCH_TABLE_FNS_USABLE(tfcc_q16_gemm, tfcc_q16_gemm_kernel, tfcc_q16_gemm_usable)

bool tfcc_q16_gemm_usable(const tfcc_q16_gemm_kernel *k, tfcc_isa isa) {
  if (!tfcc_isa_level_fits(k->isa, isa)) return false;
  return k->feature < 0 || tfcc_cpu_has(tfcc_cpu(), (tfcc_cpu_feature)k->feature);
}

/* The scratch a layer may ask for per thread (above it the layer runs on q16-dot). */
#define Q16_GEMM_SCRATCH_MAX ((size_t)64 << 20)
/* The packing a layer may have (1 GiB). */
#define Q16_GEMM_PACKED_MAX ((uint64_t)1 << 30)

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

bool tfcc_q16_gemm_flat(int32_t ks, int32_t kc) {
  return ks > 1 && kc > 0 && kc < TFCC_Q16_GEMM_FLAT_KC && (int64_t)ks * kc <= TFCC_Q16_GEMM_FLAT_K;
}

size_t tfcc_q16_gemm_packed_bytes(const tfcc_q16_gemm_kernel *k, int32_t oc, int32_t ks,
                                  int32_t kc) {
  if (!k || oc <= 0 || ks <= 0 || kc <= 0) return 0;
  if (tfcc_q16_gemm_flat(ks, kc)) kc *= ks, ks = 1;
  const uint64_t panels = ((uint64_t)oc + (uint64_t)k->nr - 1) / (uint64_t)k->nr;
  const uint64_t per_panel = (uint64_t)ks * (((uint64_t)kc + 1) / 2) * (uint64_t)k->nr * 2;
  if (per_panel > Q16_GEMM_PACKED_MAX || panels * per_panel > Q16_GEMM_PACKED_MAX) return 0;
  return (size_t)(panels * per_panel);
}

void tfcc_q16_gemm_pack(const tfcc_q16_gemm_kernel *k, int32_t oc, int32_t ks, int32_t kc,
                        const int8_t *filter, int8_t *w) {
  if (tfcc_q16_gemm_flat(ks, kc)) kc *= ks, ks = 1; /* the same bytes: [oc][ks * kc] */
  const size_t nr = (size_t)k->nr, K = (size_t)ks * (size_t)kc, KC = (size_t)kc;
  const size_t kp = (KC + 1) / 2, full = KC / 2;
  /* per panel and tap, a transpose of nr rows of pairs, in blocks of 32 pairs (the rows' cache
   * lines and the block's output lines stay in L1); every byte written once */
  for (size_t n0 = 0; n0 < (size_t)oc; n0 += nr) {
    const size_t nc = (size_t)oc - n0 < nr ? (size_t)oc - n0 : nr;
    for (size_t t = 0; t < (size_t)ks; t++, w += kp * nr * 2) {
      const int8_t *f = filter + n0 * K + t * KC;
      for (size_t j0 = 0; j0 < full; j0 += 32) {
        const size_t jn = full - j0 < 32 ? full - j0 : 32;
        for (size_t n = 0; n < nr; n++) {
          int8_t *d = w + (j0 * nr + n) * 2;
          if (n < nc) {
            const int8_t *src = f + n * K + 2 * j0;
            for (size_t jj = 0; jj < jn; jj++) memcpy(d + jj * nr * 2, src + 2 * jj, 2);
          } else {
            for (size_t jj = 0; jj < jn; jj++) memset(d + jj * nr * 2, 0, 2);
          }
        }
      }
      if (KC & 1) /* the last pair: one value and a zero */
        for (size_t n = 0; n < nr; n++) {
          w[(full * nr + n) * 2] = n < nc ? f[n * K + KC - 1] : 0;
          w[(full * nr + n) * 2 + 1] = 0;
        }
    }
  }
}

/* Scratch parts: one row of zeros (in_c + 1 int16: an odd in_c's last pair reads one past),
 * then per thread the row pointers of a block of tiles (tfcc_q16_gemm_conv: `block` tiles, made
 * once for every panel the task runs), for shallow inputs (tfcc_q16_gemm_flat) one tile's
 * im2col rows (block 1), and the int16 weights of one panel (widened once per block and panel;
 * shallow inputs with at most Q16_FLAT_PANELS panels: all of them, once per task), sized for
 * TFCC_Q16_GEMM_MAX_NR channels a panel. */
typedef struct q16_layout {
  size_t zero_bytes, ptr_bytes, row_bytes, wide_bytes, total, block;
} q16_layout;

/* Shallow inputs with at most Q16_FLAT_PANELS panels: a task is a range of pixels, each tile's
 * im2col rows made once for all panels (q16_conv_task_flat). */
enum { Q16_FLAT_PANELS = 8 };

/* Row pointers per thread (32 KiB), at most Q16_BLOCK_MAX tiles a block. */
enum { Q16_BLOCK_PTRS = 4096, Q16_BLOCK_MAX = 64 };

static bool q16_layout_of(const tfcc_conv_geom *g, int threads, q16_layout *l) {
  const uint64_t ks = (uint64_t)g->filter_h * (uint64_t)g->filter_w;
  if (g->filter_h <= 0 || g->filter_w <= 0 || g->in_c <= 0 || threads <= 0 ||
      ks > Q16_GEMM_SCRATCH_MAX)
    return false;
  l->zero_bytes = align64(((size_t)g->in_c + 1) * sizeof(int16_t));
  l->row_bytes = tfcc_q16_gemm_flat((int32_t)ks, g->in_c)
                     ? align64(((size_t)ks * (size_t)g->in_c + 1) * sizeof(int16_t))
                     : 0;
  const uint64_t tile_ptrs = ks * TFCC_Q16_GEMM_MAX_MR;
  l->block = l->row_bytes || tile_ptrs >= Q16_BLOCK_PTRS / 2 ? 1 : Q16_BLOCK_PTRS / tile_ptrs;
  if (l->block > Q16_BLOCK_MAX) l->block = Q16_BLOCK_MAX;
  l->ptr_bytes = align64(l->block * (size_t)ks * TFCC_Q16_GEMM_MAX_MR * sizeof(const int16_t *));
  /* the widened panel: ks * (kc + 1) / 2 pairs (flat: one tap of ks * kc) of NR channels; flat
   * layers widen all their panels (at most Q16_FLAT_PANELS of NR <= MAX_NR channels, together
   * at most out_c + NR - 1) */
  uint64_t wide_ch = TFCC_Q16_GEMM_MAX_NR;
  if (l->row_bytes) {
    const uint64_t all = (uint64_t)(g->out_c > 0 ? g->out_c : 0) + TFCC_Q16_GEMM_MAX_NR;
    wide_ch = all < (uint64_t)Q16_FLAT_PANELS * TFCC_Q16_GEMM_MAX_NR
                  ? all
                  : (uint64_t)Q16_FLAT_PANELS * TFCC_Q16_GEMM_MAX_NR;
  }
  const uint64_t pairs = ks * (((uint64_t)g->in_c + 1) / 2); /* ks < 2^27, pairs < 2^58 */
  if (pairs > Q16_GEMM_SCRATCH_MAX) return false;
  const uint64_t wide = pairs * wide_ch * 2 * sizeof(int16_t);
  if (wide > Q16_GEMM_SCRATCH_MAX) return false;
  l->wide_bytes = align64((size_t)wide);
  /* the limit is on one thread's part (with the zero row), so that whether a layer runs here
   * does not depend on the thread count where the total fits in size_t (conv_2d.c's init) */
  const uint64_t per_thread = (uint64_t)l->ptr_bytes +
                              (uint64_t)TFCC_Q16_GEMM_MAX_MR * l->row_bytes +
                              (uint64_t)l->wide_bytes;
  if ((uint64_t)l->zero_bytes + per_thread > Q16_GEMM_SCRATCH_MAX) return false;
  const uint64_t room = (uint64_t)SIZE_MAX - (uint64_t)l->zero_bytes;
  if (room / (uint64_t)threads < per_thread) return false;
  l->total = (size_t)((uint64_t)l->zero_bytes + (uint64_t)threads * per_thread);
  return true;
}

bool tfcc_q16_gemm_conv_fits(const tfcc_conv_geom *g, const tfcc_conv_requant *q) {
  return g->filter_in_c == g->in_c && g->in_c > 0 && q->input_offset == 0 && q->filter_offset == 0;
}

size_t tfcc_q16_gemm_conv_scratch(const tfcc_conv_geom *g, int threads) {
  q16_layout l;
  return q16_layout_of(g, threads, &l) ? l.total : 0;
}

typedef struct q16_conv_job {
  const tfcc_q16_gemm_kernel *k;
  const tfcc_conv_geom *g;
  const tfcc_conv_requant *q;
  const int16_t *in, *zero;
  const int8_t *w;
  const int64_t *b64;
  const int32_t *b32;
  int16_t *out;
  uint8_t *mem; /* per thread: a tile's row pointers, then its im2col rows (flat) */
  size_t per_thread, ptr_bytes, row_bytes, wide_off; /* wide_off: the widened panel's offset */
  size_t panel_bytes;                                /* of a panel (int8), its int16 elements */
  size_t M, m_chunk, n_mchunks;
  size_t block, group; /* tiles a block (their row pointers made once), panels a task */
  bool fc;             /* FULLY_CONNECTED: every output through tfcc_fc_i16_out */
  const double *real;  /* its double rescale, or NULL */
} q16_conv_job;

/* Output pixel p's batch and the input row and column of its window's first tap. */
static void q16_pixel_origin(const tfcc_conv_geom *g, size_t p, size_t *b, int32_t *iy0,
                             int32_t *ix0) {
  const int32_t ox = (int32_t)(p % (size_t)g->out_w);
  const size_t r = p / (size_t)g->out_w;
  const int32_t oy = (int32_t)(r % (size_t)g->out_h);
  *b = r / (size_t)g->out_h;
  *iy0 = oy * g->stride_h - g->pad_h;
  *ix0 = ox * g->stride_w - g->pad_w;
}

/* Row pointers of pixels [m, m + MR) (the last one repeated past mend), per tap: the first
 * pixel's position by division, the next ones stepped; a window inside the image takes its
 * taps' pointers by adding the tap offsets, one at the border checks each tap (zero row). */
static void q16_tile_rows(const tfcc_conv_geom *g, const int16_t *in, const int16_t *zero, size_t m,
                          size_t mend, int mr, const int16_t **a) {
  const size_t C = (size_t)g->in_c, W = (size_t)g->in_w;
  const int32_t span_h = (g->filter_h - 1) * g->dil_h, span_w = (g->filter_w - 1) * g->dil_w;
  const size_t step_y = (size_t)g->dil_h * W * C, step_x = (size_t)g->dil_w * C;
  int32_t ox = (int32_t)(m % (size_t)g->out_w);
  const size_t r = m / (size_t)g->out_w;
  int32_t oy = (int32_t)(r % (size_t)g->out_h);
  size_t b = r / (size_t)g->out_h;
  const size_t ks = (size_t)g->filter_h * (size_t)g->filter_w;
  for (int i = 0; i < mr; i++) {
    if (m + (size_t)i >= mend) { /* past the end: the last pixel again */
      for (size_t t = 0; t < ks; t++)
        a[t * (size_t)mr + (size_t)i] = a[t * (size_t)mr + (size_t)i - 1];
      continue;
    }
    const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
    if (iy0 >= 0 && iy0 + span_h < g->in_h && ix0 >= 0 && ix0 + span_w < g->in_w) {
      const int16_t *row = in + ((b * (size_t)g->in_h + (size_t)iy0) * W + (size_t)ix0) * C;
      size_t t = 0;
      for (int32_t fy = 0; fy < g->filter_h; fy++, row += step_y) {
        const int16_t *px = row;
        for (int32_t fx = 0; fx < g->filter_w; fx++, t++, px += step_x)
          a[t * (size_t)mr + (size_t)i] = px;
      }
    } else {
      size_t t = 0;
      for (int32_t fy = 0; fy < g->filter_h; fy++) {
        const int32_t iy = iy0 + g->dil_h * fy;
        for (int32_t fx = 0; fx < g->filter_w; fx++, t++) {
          const int32_t ix = ix0 + g->dil_w * fx;
          a[t * (size_t)mr + (size_t)i] =
              iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w
                  ? zero
                  : in + ((b * (size_t)g->in_h + (size_t)iy) * W + (size_t)ix) * C;
        }
      }
    }
    if (++ox == g->out_w) {
      ox = 0;
      if (++oy == g->out_h) oy = 0, b++;
    }
  }
}

/* r for channels [n0, n0 + nc) (the others zero); false where a shift is outside what
 * tfcc_requant64 defines (the scalar reference function then runs). */
static bool q16_req_init(const tfcc_conv_requant *q, const int64_t *b64, int32_t n0, int nc,
                         tfcc_q16_gemm_req *r) {
  const int64_t lim = (int64_t)1 << 47;
  memset(r, 0, sizeof *r);
  r->offset = q->output_offset, r->act_min = q->act_min, r->act_max = q->act_max;
  for (int n = 0; n < nc; n++) {
    const int32_t c = n0 + n, k = c * q->mult_stride, qm = q->mult[k];
    const int ts = 15 - q->shift[k];
    if (ts < 1 || ts > 62) return false;
    int64_t b = b64 ? b64[c] : 0;
    r->bias[n] = b > lim ? lim : (b < -lim ? -lim : b);
    r->mult[n] = qm < 0x7FFF0000 ? (qm + (1 << 15)) >> 16 : 0x7FFF;
    r->round[n] = (int64_t)1 << (ts - 1);
    r->shift[n] = ts;
  }
  return true;
}

/* rq for channels [n0, n0 + nc) (the others zero; gemm.h: tfcc_q16_gemm_rq): the double
 * rescale of a FULLY_CONNECTED where real is given, else tfcc_requant64's arithmetic (r from
 * q16_req_init, valid); false where the outputs would not be the reference's bits (an int32
 * bias without real, a bias too large, a clamp range outside int16, a rescale not finite). */
static bool q16_rq_init(const tfcc_conv_requant *q, const int64_t *b64, const int32_t *b32,
                        const double *real, bool req_ok, const tfcc_q16_gemm_req *r, int32_t n0,
                        int nc, tfcc_q16_gemm_rq *rq) {
  if (q->act_min < -32768 || q->act_max > 32767) return false;
  memset(rq, 0, sizeof *rq);
  rq->offset = q->output_offset, rq->act_min = q->act_min, rq->act_max = q->act_max;
  rq->real = real != NULL;
  if (real) {
    const int64_t lim = (int64_t)1 << 52;
    for (int n = 0; n < nc; n++) {
      const int32_t c = n0 + n;
      const double rs = real[c * q->mult_stride];
      if (!isfinite(rs)) return false;
      rq->rscale[n] = rs;
      if (b32) {
        rq->b32[n] = b32[c];
      } else if (b64) {
        if (b64[c] > lim || b64[c] < -lim) return false;
        rq->bias[n] = (double)b64[c];
      }
    }
    return true;
  }
  if (b32 || !req_ok) return false;
  /* |bias| <= 2^47 - 2^31 and |sum| < 2^31: the reference's clamps to +-2^47 change nothing */
  const int64_t blim = ((int64_t)1 << 47) - ((int64_t)1 << 31);
  for (int n = 0; n < nc; n++) {
    const int64_t b = b64 ? b64[n0 + n] : 0;
    if (b > blim || b < -blim) return false;
    rq->mult[n] = r->mult[n], rq->shift[n] = r->shift[n];
    rq->bm[n] = b * r->mult[n] + r->round[n];
  }
  return true;
}

/* Shallow inputs: the im2col rows of pixels [m, m + MR) (the last one repeated past mend),
 * ks * in_c int16 each, at rows (row_elems apart); a[i] points to row i. */
static void q16_tile_im2col(const tfcc_conv_geom *g, const int16_t *in, size_t m, size_t mend,
                            int mr, int16_t *rows, size_t row_elems, const int16_t **a) {
  const size_t C = (size_t)g->in_c;
  for (int i = 0; i < mr; i++) {
    size_t b;
    int32_t iy0, ix0;
    q16_pixel_origin(g, m + (size_t)i < mend ? m + (size_t)i : mend - 1, &b, &iy0, &ix0);
    int16_t *row = rows + (size_t)i * row_elems;
    /* a filter row inside the image (no column dilation): its taps are one run of the input */
    const bool inside_w = g->dil_w == 1 && ix0 >= 0 && ix0 + g->filter_w <= g->in_w;
    const size_t span = (size_t)g->filter_w * C;
    for (int32_t fy = 0; fy < g->filter_h; fy++) {
      const int32_t iy = iy0 + g->dil_h * fy;
      if (inside_w && iy >= 0 && iy < g->in_h) {
        memcpy(row, in + ((b * (size_t)g->in_h + (size_t)iy) * (size_t)g->in_w + (size_t)ix0) * C,
               span * sizeof(int16_t));
        row += span;
        continue;
      }
      for (int32_t fx = 0; fx < g->filter_w; fx++, row += C) {
        const int32_t ix = ix0 + g->dil_w * fx;
        if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w)
          memset(row, 0, C * sizeof(int16_t));
        else
          memcpy(row, in + ((b * (size_t)g->in_h + (size_t)iy) * (size_t)g->in_w + (size_t)ix) * C,
                 C * sizeof(int16_t));
      }
    }
    a[i] = rows + (size_t)i * row_elems;
  }
}

/* A panel's requantization: r for the int64 tiles' vector path (vreq), rq for the int32 one
 * (rq_ok; fused: straight from the micro-kernel's registers). */
typedef struct q16_panel_req {
  tfcc_q16_gemm_req r;
  tfcc_q16_gemm_rq rq;
  bool vreq, rq_ok, fused;
} q16_panel_req;

/* The requantization of channels [n0, n0 + nc) for a micro-kernel call of ks taps of depth kc. */
static void q16_panel_req_init(const q16_conv_job *j, int32_t n0, int nc, size_t ks, size_t kc,
                               q16_panel_req *p) {
  const bool req_ok = !j->b32 && !j->real && q16_req_init(j->q, j->b64, n0, nc, &p->r);
  p->vreq = req_ok;
  p->rq_ok = q16_rq_init(j->q, j->b64, j->b32, j->real, req_ok, &p->r, n0, nc, &p->rq);
  /* no flush: every int32 sum exact (gemm.h) */
  p->fused = p->rq_ok && ks * ((kc + 1) / 2) <= TFCC_Q16_GEMM_FLUSH;
}

/* The tile's sums of rows [m, m + MR) (past m1 not stored), channels [n0, n0 + nc), out. */
static void q16_tile_store(const q16_conv_job *j, const int64_t *acc, size_t m, size_t m1,
                           int32_t n0, int nc, const q16_panel_req *p) {
  const size_t mr = (size_t)j->k->mr, nr = (size_t)j->k->nr, oc = (size_t)j->g->out_c;
  const size_t rows = m1 - m < mr ? m1 - m : mr;
  int16_t *o = j->out + m * oc + (size_t)n0;
  if (p->vreq) {
    j->k->req(rows, (size_t)nc, acc, &p->r, o, oc);
    return;
  }
  if (p->rq_ok && j->k->req32(rows, (size_t)nc, acc, &p->rq, o, oc)) return;
  for (size_t i = 0; i < rows; i++, o += oc) {
    const int64_t *s = acc + i * nr;
    if (j->fc)
      for (int n = 0; n < nc; n++)
        o[n] = tfcc_fc_i16_out(s[n], n0 + n, j->q, j->b64, j->b32, j->real);
    else if (j->b32)
      for (int n = 0; n < nc; n++)
        o[n] = (int16_t)tfcc_requant16_b32(s[n], j->b32[n0 + n], j->q, n0 + n);
    else
      for (int n = 0; n < nc; n++)
        o[n] = (int16_t)tfcc_requant64(s[n], j->b64 ? j->b64[n0 + n] : 0, j->q, n0 + n);
  }
}

/* One tile: rows [m, m + MR) (past m1 not stored) of the ks taps of depth kc at a against the
 * widened panel w, channels [n0, n0 + nc), into out. */
static void q16_tile(const q16_conv_job *j, size_t ks, size_t kc, const int16_t *const *a,
                     const int16_t *w, size_t m, size_t m1, int32_t n0, int nc,
                     const q16_panel_req *p, int64_t *acc) {
  const tfcc_q16_gemm_kernel *k = j->k;
  if (p->fused) {
    const size_t mr = (size_t)k->mr, oc = (size_t)j->g->out_c;
    k->fused(ks, kc, a, w, &p->rq, m1 - m < mr ? m1 - m : mr, (size_t)nc,
             j->out + m * oc + (size_t)n0, oc);
    return;
  }
  k->fn(ks, kc, a, w, acc);
  q16_tile_store(j, acc, m, m1, n0, nc, p);
}

/* Shallow inputs with at most Q16_FLAT_PANELS panels: a task is a range of pixels, each tile's
 * im2col rows made once for all panels, the panels widened once. */
static void q16_conv_task_flat(void *ctx, size_t task, int thread) {
  const q16_conv_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const tfcc_q16_gemm_kernel *k = j->k;
  const int mr = k->mr, nr = k->nr;
  const size_t m0 = task * j->m_chunk;
  const size_t m1 = m0 + j->m_chunk < j->M ? m0 + j->m_chunk : j->M;
  const size_t np = ((size_t)g->out_c + (size_t)nr - 1) / (size_t)nr;
  uint8_t *mem = j->mem + (size_t)thread * j->per_thread;
  const int16_t **a = (const int16_t **)(void *)mem;
  int16_t *rows = (int16_t *)(void *)(mem + j->ptr_bytes);
  int16_t *wide = (int16_t *)(void *)(mem + j->wide_off);
  const size_t flat_k = (size_t)g->filter_h * g->filter_w * (size_t)g->in_c;
  int64_t acc[TFCC_Q16_GEMM_MAX_MR * TFCC_Q16_GEMM_MAX_NR];
  k->widen(np * j->panel_bytes, j->w, wide); /* the panels follow each other */
  q16_panel_req pr[Q16_FLAT_PANELS];
  for (size_t p = 0; p < np; p++) {
    const int32_t n0 = (int32_t)p * nr;
    q16_panel_req_init(j, n0, g->out_c - n0 < nr ? g->out_c - n0 : nr, 1, flat_k, &pr[p]);
  }
  for (size_t m = m0; m < m1; m += (size_t)mr) {
    q16_tile_im2col(g, j->in, m, m1, mr, rows, j->row_bytes / sizeof(int16_t), a);
    for (size_t p = 0; p < np; p++) {
      const int32_t n0 = (int32_t)p * nr;
      q16_tile(j, 1, flat_k, a, wide + p * j->panel_bytes, m, m1, n0,
               g->out_c - n0 < nr ? g->out_c - n0 : nr, &pr[p], acc);
    }
  }
}

/* A task: pixels [m0, m1) of one chunk against panels [p0, p1) of one group, in blocks of
 * `block` tiles whose row pointers are made once for all the group's panels (the panel's
 * weights then serve the whole block). */
static void q16_conv_task(void *ctx, size_t task, int thread) {
  const q16_conv_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const tfcc_q16_gemm_kernel *k = j->k;
  const int mr = k->mr, nr = k->nr;
  const size_t grp = task / j->n_mchunks, mc = task % j->n_mchunks;
  const size_t m0 = mc * j->m_chunk;
  const size_t m1 = m0 + j->m_chunk < j->M ? m0 + j->m_chunk : j->M;
  const size_t n_panels = ((size_t)g->out_c + (size_t)nr - 1) / (size_t)nr;
  const size_t p0 = grp * j->group, p1 = p0 + j->group < n_panels ? p0 + j->group : n_panels;
  uint8_t *mem = j->mem + (size_t)thread * j->per_thread;
  const int16_t **a = (const int16_t **)(void *)mem;
  int16_t *rows = (int16_t *)(void *)(mem + j->ptr_bytes);
  int16_t *wide = (int16_t *)(void *)(mem + j->wide_off);
  const size_t ks = (size_t)g->filter_h * g->filter_w;
  const size_t flat_k = ks * (size_t)g->in_c, row_elems = j->row_bytes / sizeof(int16_t);
  const size_t tile_ptrs = ks * (size_t)mr, span = j->block * (size_t)mr;
  int64_t acc[TFCC_Q16_GEMM_MAX_MR * TFCC_Q16_GEMM_MAX_NR];
  q16_panel_req pr;
  if (j->row_bytes) { /* shallow inputs, many panels: per panel (widened once), each tile's
                         im2col rows */
    for (size_t p = p0; p < p1; p++) {
      const int32_t n0 = (int32_t)p * nr;
      const int nc = g->out_c - n0 < nr ? g->out_c - n0 : nr;
      k->widen(j->panel_bytes, j->w + p * j->panel_bytes, wide);
      q16_panel_req_init(j, n0, nc, 1, flat_k, &pr);
      for (size_t m = m0; m < m1; m += (size_t)mr) {
        q16_tile_im2col(g, j->in, m, m1, mr, rows, row_elems, a);
        q16_tile(j, 1, flat_k, a, wide, m, m1, n0, nc, &pr, acc);
      }
    }
    return;
  }
  size_t have = (size_t)-1; /* the panel in `wide` (one panel a group: widened once a task) */
  for (size_t mb = m0; mb < m1; mb += span) {
    const size_t mbe = mb + span < m1 ? mb + span : m1;
    for (size_t m = mb, t = 0; m < mbe; m += (size_t)mr, t++)
      q16_tile_rows(g, j->in, j->zero, m, m1, mr, a + t * tile_ptrs);
    for (size_t p = p0; p < p1; p++) {
      const int32_t n0 = (int32_t)p * nr;
      const int nc = g->out_c - n0 < nr ? g->out_c - n0 : nr;
      if (p != have) k->widen(j->panel_bytes, j->w + p * j->panel_bytes, wide), have = p;
      q16_panel_req_init(j, n0, nc, ks, (size_t)g->in_c, &pr);
      for (size_t m = mb, t = 0; m < mbe; m += (size_t)mr, t++)
        q16_tile(j, ks, (size_t)g->in_c, a + t * tile_ptrs, wide, m, m1, n0, nc, &pr, acc);
    }
  }
}

static void q16_gemm_run(tfcc_threadpool *pool, const tfcc_q16_gemm_kernel *k,
                         const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                         const int8_t *w, const int64_t *bias64, const int32_t *bias32, bool fc,
                         const double *real, int16_t *out, void *scratch) {
  const int threads = tfcc_threadpool_size(pool);
  q16_layout l;
  if (!q16_layout_of(g, threads, &l)) return; /* the caller checked the scratch size */
  const size_t M = (size_t)g->batches * g->out_h * g->out_w;
  if (M == 0 || g->out_c <= 0) return;
  memset(scratch, 0, l.zero_bytes);
  const size_t n_panels = ((size_t)g->out_c + (size_t)k->nr - 1) / (size_t)k->nr;
  const size_t tiles = (M + (size_t)k->mr - 1) / (size_t)k->mr;
  /* about 4 tasks per thread where the pixels allow */
  const bool flat = l.row_bytes && n_panels <= Q16_FLAT_PANELS;
  /* q16_conv_task: pixel chunks first (a chunk's row pointers serve its group's panels), then
   * groups of panels where the pixels give fewer than 4 tasks per thread */
  size_t n_mchunks = 1, group = n_panels;
  if (threads > 1) {
    n_mchunks = 4 * (size_t)threads;
    if (n_mchunks > tiles) n_mchunks = tiles;
    if (!flat) {
      const size_t n_groups = (4 * (size_t)threads + n_mchunks - 1) / n_mchunks;
      group = (n_panels + n_groups - 1) / n_groups;
    }
  }
  const size_t m_chunk = (tiles + n_mchunks - 1) / n_mchunks * (size_t)k->mr;
  size_t ks = (size_t)g->filter_h * g->filter_w, kc = (size_t)g->in_c;
  if (l.row_bytes) kc *= ks, ks = 1;
  q16_conv_job j = {
      .k = k,
      .g = g,
      .q = q,
      .in = in,
      .zero = (const int16_t *)scratch,
      .w = w,
      .b64 = bias64,
      .b32 = bias32,
      .out = out,
      .mem = (uint8_t *)scratch + l.zero_bytes,
      .per_thread = l.ptr_bytes + (size_t)TFCC_Q16_GEMM_MAX_MR * l.row_bytes + l.wide_bytes,
      .ptr_bytes = l.ptr_bytes,
      .row_bytes = l.row_bytes,
      .wide_off = l.ptr_bytes + (size_t)TFCC_Q16_GEMM_MAX_MR * l.row_bytes,
      .panel_bytes = ks * ((kc + 1) / 2) * (size_t)k->nr * 2,
      .M = M,
      .m_chunk = m_chunk,
      .n_mchunks = (M + m_chunk - 1) / m_chunk,
      .block = l.block,
      .group = group,
      .fc = fc,
      .real = real};
  if (flat)
    tfcc_threadpool_run(pool, j.n_mchunks, q16_conv_task_flat, &j);
  else
    tfcc_threadpool_run(pool, (n_panels + group - 1) / group * j.n_mchunks, q16_conv_task, &j);
}

void tfcc_q16_gemm_conv(tfcc_threadpool *pool, const tfcc_q16_gemm_kernel *k,
                        const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                        const int8_t *w, const int64_t *bias64, const int32_t *bias32, int16_t *out,
                        void *scratch) {
  q16_gemm_run(pool, k, g, q, in, w, bias64, bias32, false, NULL, out, scratch);
}

/* A FULLY_CONNECTED as a 1x1 convolution over a 1 x batches image of accum channels. */
static void q16_fc_geom(int32_t batches, int32_t units, int32_t accum, tfcc_conv_geom *g) {
  memset(g, 0, sizeof *g);
  g->batches = 1, g->in_h = 1, g->in_w = batches, g->in_c = accum, g->filter_in_c = accum;
  g->out_h = 1, g->out_w = batches, g->out_c = units;
  g->filter_h = g->filter_w = 1, g->stride_h = g->stride_w = 1, g->dil_h = g->dil_w = 1;
}

bool tfcc_q16_gemm_fc_fits(const tfcc_conv_requant *q) {
  return q->input_offset == 0 && q->filter_offset == 0;
}

size_t tfcc_q16_gemm_fc_scratch(int32_t batches, int32_t units, int32_t accum, int threads) {
  if (batches <= 0 || units <= 0 || accum <= 0) return 0;
  tfcc_conv_geom g;
  q16_fc_geom(batches, units, accum, &g);
  return tfcc_q16_gemm_conv_scratch(&g, threads);
}

void tfcc_q16_gemm_fc(tfcc_threadpool *pool, const tfcc_q16_gemm_kernel *k, int32_t batches,
                      int32_t units, int32_t accum, const tfcc_conv_requant *q, const int16_t *in,
                      const int8_t *w, const int64_t *bias64, const int32_t *bias32,
                      const double *real, int16_t *out, void *scratch) {
  tfcc_conv_geom g;
  q16_fc_geom(batches, units, accum, &g);
  q16_gemm_run(pool, k, &g, q, in, w, bias64, bias32, true, real, out, scratch);
}

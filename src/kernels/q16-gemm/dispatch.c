/* int16 x int8 GEMM dispatch table and the 16x8 CONV_2D driver on it (gemm.h): filter panels
 * of NR output channels packed per run into the thread's scratch, tiles of MR output pixels
 * through the implicit im2col's row pointers, the reference kernel's requantization. */
#include "kernels/q16-gemm/gemm.h"

#include <string.h>

#include "kernels/ref/conv_acc.h"

#define Q16_GEMM_ROW(name, fn, sfx, level) \
  { name "-" #sfx, level, fn##_##sfx, TFCC_Q16_GEMM_MR_##sfx, TFCC_Q16_GEMM_NR_##sfx }
static const tfcc_q16_gemm_kernel kernels[] = {
    TFCC_KERNEL_ROWS(Q16_GEMM_ROW, "q16-gemm", tfcc_q16_gemm)};
TFCC_DISPATCH_TABLE_FNS(tfcc_q16_gemm, tfcc_q16_gemm_kernel)

/* The scratch a layer may ask for (above it the layer runs on q16-dot). */
#define Q16_GEMM_SCRATCH_MAX ((size_t)64 << 20)

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Scratch parts: one row of zeros (in_c + 1 int16: an odd in_c's last pair reads one past),
 * then per thread a packed panel and a tile's row pointers. */
typedef struct q16_layout {
  size_t zero_bytes, panel_bytes, ptr_bytes, total;
} q16_layout;

static bool q16_layout_of(const tfcc_conv_geom *g, int threads, q16_layout *l) {
  const uint64_t ks = (uint64_t)g->filter_h * (uint64_t)g->filter_w;
  const uint64_t kp = ((uint64_t)g->in_c + 1) / 2;
  const uint64_t panel = ks * kp * TFCC_Q16_GEMM_MAX_NR * 2 * sizeof(int16_t);
  if (g->filter_h <= 0 || g->filter_w <= 0 || g->in_c <= 0 || threads <= 0 ||
      panel > Q16_GEMM_SCRATCH_MAX)
    return false;
  l->zero_bytes = align64(((size_t)g->in_c + 1) * sizeof(int16_t));
  l->panel_bytes = align64((size_t)panel);
  l->ptr_bytes = align64((size_t)ks * TFCC_Q16_GEMM_MAX_MR * sizeof(const int16_t *));
  const uint64_t total =
      (uint64_t)l->zero_bytes + (uint64_t)threads * (l->panel_bytes + l->ptr_bytes);
  l->total = (size_t)total;
  return total <= Q16_GEMM_SCRATCH_MAX;
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
  const int8_t *filter;
  const int64_t *b64;
  const int32_t *b32;
  tfcc_q16_dw_req_fn req;
  int16_t *out;
  uint8_t *mem; /* per thread: panel, then pointers */
  size_t per_thread, panel_bytes;
  size_t M, m_chunk, n_mchunks;
} q16_conv_job;

/* Output channels [n0, n0 + nr) of the filter (OHWI) as [tap][pair][nr][2] int16, zero past
 * in_c and out_c. */
static void q16_pack_panel(const tfcc_conv_geom *g, const int8_t *filter, int32_t n0, int nr,
                           int16_t *w) {
  const size_t ks = (size_t)g->filter_h * g->filter_w, kc = (size_t)g->in_c, kp = (kc + 1) / 2;
  memset(w, 0, ks * kp * (size_t)nr * 2 * sizeof(int16_t));
  for (int n = 0; n < nr && n0 + n < g->out_c; n++) {
    const int8_t *f = filter + (size_t)(n0 + n) * ks * kc;
    for (size_t t = 0; t < ks; t++)
      for (size_t c = 0; c < kc; c++)
        w[((t * kp + c / 2) * (size_t)nr + (size_t)n) * 2 + (c & 1)] = f[t * kc + c];
  }
}

/* Row pointers of pixels [m, m + MR) (the last one repeated past mend), per tap. */
static void q16_tile_rows(const tfcc_conv_geom *g, const int16_t *in, const int16_t *zero, size_t m,
                          size_t mend, int mr, const int16_t **a) {
  const size_t C = (size_t)g->in_c;
  for (int i = 0; i < mr; i++) {
    const size_t p = m + (size_t)i < mend ? m + (size_t)i : mend - 1;
    const int32_t ox = (int32_t)(p % (size_t)g->out_w);
    const size_t r = p / (size_t)g->out_w;
    const int32_t oy = (int32_t)(r % (size_t)g->out_h);
    const size_t b = r / (size_t)g->out_h;
    const int32_t iy0 = oy * g->stride_h - g->pad_h, ix0 = ox * g->stride_w - g->pad_w;
    size_t t = 0;
    for (int32_t fy = 0; fy < g->filter_h; fy++) {
      const int32_t iy = iy0 + g->dil_h * fy;
      for (int32_t fx = 0; fx < g->filter_w; fx++, t++) {
        const int32_t ix = ix0 + g->dil_w * fx;
        a[t * (size_t)mr + (size_t)i] =
            iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w
                ? zero
                : in + ((b * (size_t)g->in_h + (size_t)iy) * (size_t)g->in_w + (size_t)ix) * C;
      }
    }
  }
}

static void q16_conv_task(void *ctx, size_t task, int thread) {
  const q16_conv_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const tfcc_q16_gemm_kernel *k = j->k;
  const int mr = k->mr, nr = k->nr;
  const size_t panel = task / j->n_mchunks, mc = task % j->n_mchunks;
  const size_t m0 = mc * j->m_chunk;
  const size_t m1 = m0 + j->m_chunk < j->M ? m0 + j->m_chunk : j->M;
  const int32_t n0 = (int32_t)panel * nr;
  const int nc = g->out_c - n0 < nr ? g->out_c - n0 : nr;
  uint8_t *mem = j->mem + (size_t)thread * j->per_thread;
  int16_t *w = (int16_t *)(void *)mem;
  const int16_t **a = (const int16_t **)(void *)(mem + j->panel_bytes);
  const size_t ks = (size_t)g->filter_h * g->filter_w, oc = (size_t)g->out_c;
  int64_t acc[TFCC_Q16_GEMM_MAX_MR * TFCC_Q16_GEMM_MAX_NR];
  q16_pack_panel(g, j->filter, n0, nr, w);
  for (size_t m = m0; m < m1; m += (size_t)mr) {
    q16_tile_rows(g, j->in, j->zero, m, m1, mr, a);
    k->fn(ks, (size_t)g->in_c, a, w, acc);
    const size_t rows = m1 - m < (size_t)mr ? m1 - m : (size_t)mr;
    for (size_t i = 0; i < rows; i++) {
      int16_t *o = j->out + (m + i) * oc + (size_t)n0;
      const int64_t *s = acc + i * (size_t)nr;
      if (j->req && !j->b32)
        j->req((size_t)nc, s, j->b64, NULL, j->q, n0, o);
      else if (j->b32)
        for (int n = 0; n < nc; n++)
          o[n] = (int16_t)tfcc_requant16_b32(s[n], j->b32[n0 + n], j->q, n0 + n);
      else
        for (int n = 0; n < nc; n++)
          o[n] = (int16_t)tfcc_requant64(s[n], j->b64 ? j->b64[n0 + n] : 0, j->q, n0 + n);
    }
  }
}

void tfcc_q16_gemm_conv(tfcc_threadpool *pool, const tfcc_q16_gemm_kernel *k,
                        const tfcc_conv_geom *g, const tfcc_conv_requant *q, const int16_t *in,
                        const int8_t *filter, const int64_t *bias64, const int32_t *bias32,
                        tfcc_q16_dw_req_fn req, int16_t *out, void *scratch) {
  const int threads = tfcc_threadpool_size(pool);
  q16_layout l;
  if (!q16_layout_of(g, threads, &l)) return; /* the caller checked the scratch size */
  const size_t M = (size_t)g->batches * g->out_h * g->out_w;
  if (M == 0 || g->out_c <= 0) return;
  memset(scratch, 0, l.zero_bytes);
  const size_t n_panels = ((size_t)g->out_c + (size_t)k->nr - 1) / (size_t)k->nr;
  const size_t tiles = (M + (size_t)k->mr - 1) / (size_t)k->mr;
  /* at least 4 tasks per thread where the pixels allow: each packs its panel */
  size_t n_mchunks = 1;
  if (threads > 1) {
    n_mchunks = (4 * (size_t)threads + n_panels - 1) / n_panels;
    if (n_mchunks > tiles) n_mchunks = tiles;
  }
  const size_t m_chunk = (tiles + n_mchunks - 1) / n_mchunks * (size_t)k->mr;
  q16_conv_job j = {.k = k,
                    .g = g,
                    .q = q,
                    .in = in,
                    .zero = (const int16_t *)scratch,
                    .filter = filter,
                    .b64 = bias64,
                    .b32 = bias32,
                    .req = req,
                    .out = out,
                    .mem = (uint8_t *)scratch + l.zero_bytes,
                    .per_thread = l.panel_bytes + l.ptr_bytes,
                    .panel_bytes = l.panel_bytes,
                    .M = M,
                    .m_chunk = m_chunk,
                    .n_mchunks = (M + m_chunk - 1) / m_chunk};
  tfcc_threadpool_run(pool, n_panels * j.n_mchunks, q16_conv_task, &j);
}

/* Tiling and threading of the packed GEMM (Goto-style blocking with A read in place).
 *
 * Rows are processed in groups (up to TFCC_F32_MAX_GROUP_ROWS, whose K-block slice of A fits
 * in about a quarter of the L2), K in blocks whose slice of one weight panel (kc x NR floats)
 * fits in L1. For each group and K block, every panel's slice is loaded into L1 once and
 * swept over all the group's MR-row tiles, while the group's A rows stream from L2:
 *
 *   for each row group                   (A rows: plain matrix, NHWC pixels in place, or
 *     for each K block                    an im2col slice packed into per-thread scratch)
 *       for each panel                   (kc x NR weights: L1)
 *         for each MR-row tile of the group: micro-kernel (the first K block adds the bias,
 *                                            later ones add onto C; the last one clamps)
 *
 * A network's large-weight layers (e.g. ResNet-50's 7x7 stage, M = 49, up to 9.4 MB of
 * weights) read their weights once per row group instead of once per tile, in one
 * sequential run per K block (the packed layout's order), each kernel call prefetching the
 * block that follows it. Weights that fit in L2 run tile by tile instead (tile_order). A
 * convolution that needs im2col packs only the current K-block slice of the group's rows,
 * or in tile order the current tile's rows (never the whole im2col matrix). Threads split
 * rows and/or panels, whichever re-reads fewer bytes. No allocation. */
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/conv.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/gemm_split.h"
#include "base/threadpool.h"

#define TFCC_F32_MAX_MR 16
/* A rows of one K block of one group: streamed from L2 once per panel. */
#define TFCC_F32_A_BLOCK_BYTES (384u * 1024u)
/* Rows of one group (row pointers live on the stack); a multiple of every MR (4, 6, 8, 12). */
#define TFCC_F32_MAX_GROUP_ROWS 384u
/* Weights up to this size run tile by tile (see gemm_task). */
#define TFCC_F32_TILE_ORDER_BYTES (1024u * 1024u)
#define TFCC_F32_MIN_PARALLEL_MACS (128.0 * 1024.0)

typedef struct blocking {
  size_t kc;         /* K block: the packed layout's (p->kc) */
  size_t n_kb;       /* K blocks (at least 1) */
  bool tile_order;   /* tile by tile over all of K (A rows span all of K), else K blocks */
  size_t group_rows; /* rows per group: a multiple of MR */
} blocking;

static blocking plan_blocks(const tfcc_f32_packed *p, size_t m) {
  const size_t mr = (size_t)p->k->mr, K = (size_t)p->kdim;
  blocking b;
  const size_t m_tiles = (m + mr - 1) / mr;
  const size_t wbytes = tfcc_f32_packed_bytes(p->k, p->n, p->kdim);
  b.kc = p->kc > 0 ? (size_t)p->kc : 1;
  b.n_kb = K ? (K + b.kc - 1) / b.kc : 1;
  /* weights that fit in L2: each tile's rows stay in L1 while the panels stream from L2
   * (measured faster than sweeping each panel over the group when K is short); a single
   * tile sweeps the K blocks in layout order (one sequential read of the weights) */
  b.tile_order = wbytes <= TFCC_F32_TILE_ORDER_BYTES && m_tiles > 1;
  const size_t akc = b.tile_order ? K : b.kc; /* im2col floats per row and group */
  size_t rows = TFCC_F32_A_BLOCK_BYTES / ((akc ? akc : 1) * sizeof(float));
  if (rows > TFCC_F32_MAX_GROUP_ROWS) rows = TFCC_F32_MAX_GROUP_ROWS;
  rows = rows / mr * mr;
  if (rows < mr) rows = mr;
  if (rows > m_tiles * mr) rows = m_tiles * mr;
  b.group_rows = rows;
  return b;
}

typedef struct gemm_job {
  const tfcc_f32_packed *p;
  size_t m;
  /* rows: plain matrix (g == NULL) or convolution */
  const float *a;
  size_t a_stride;
  const tfcc_conv_geom *g;
  float *scratch;        /* im2col: per thread group_rows x kc floats */
  size_t scratch_stride; /* floats per thread */
  blocking b;
  float *c;
  size_t c_stride;
  float lo, hi;
  /* residual (NULL: none): row m at res + m * res_stride, added to the last K block's
   * unclamped tile, then clamped (res_fn: the kernel's epilogue or the portable one) */
  const float *res;
  size_t res_stride;
  tfcc_f32_gemm_res_fn res_fn;
  size_t m_tiles, n_panels;
  tfcc_gemm_split sp; /* the tasks: row chunks x column blocks */
} gemm_job;

/* Short runs (a few channels) are cheaper as a loop than as a libc call. */
static inline void copy_floats(float *restrict dst, const float *restrict src, size_t n) {
  if (n >= 32) {
    memcpy(dst, src, n * sizeof(float));
    return;
  }
  for (size_t i = 0; i < n; i++) dst[i] = src[i];
}

/* Pointers to the NHWC input pixels of output rows m0 .. m0+n-1 (1x1 unpadded convolution,
 * any stride): walks the pixels, no division per row. */
static void direct_rows(const gemm_job *j, size_t m0, size_t n, const float **rows) {
  const tfcc_conv_geom *g = j->g;
  const size_t ow = (size_t)g->out_w, oh = (size_t)g->out_h, cin = (size_t)g->in_c;
  size_t ox = m0 % ow, t0 = m0 / ow;
  size_t oy = t0 % oh, b = t0 / oh;
  const size_t sw = (size_t)g->stride_w * cin;
  const float *p = j->a + ((b * (size_t)g->in_h + oy * (size_t)g->stride_h) * (size_t)g->in_w +
                           ox * (size_t)g->stride_w) *
                              cin;
  for (size_t r = 0; r < n; r++) {
    rows[r] = p;
    if (++ox < ow) {
      p += sw;
      continue;
    }
    ox = 0;
    if (++oy == oh) {
      oy = 0;
      b++;
    }
    p = j->a + ((b * (size_t)g->in_h + oy * (size_t)g->stride_h) * (size_t)g->in_w) * cin;
  }
}

/* Columns [k0, k0 + kn) of the im2col rows m0 .. m0+n-1 into dst (row r at dst + r * ld):
 * k = (ky * filter_w + kx) * in_c + c; taps outside the image are zeros. No division in the
 * loops: the slice's first tap is the same for every row, the pixels are walked. */
static void im2col_slice(const gemm_job *j, size_t m0, size_t n, size_t k0, size_t kn, float *dst,
                         size_t ld) {
  const tfcc_conv_geom *g = j->g;
  const size_t ow = (size_t)g->out_w, oh = (size_t)g->out_h, cin = (size_t)g->in_c;
  const size_t fw = (size_t)g->filter_w, in_w = (size_t)g->in_w;
  const size_t img_floats = (size_t)g->in_h * in_w * cin;
  const size_t seg0 = k0 / cin, c00 = k0 % cin, ky0 = seg0 / fw, kx0 = seg0 % fw;
  size_t ox = m0 % ow, t0 = m0 / ow, oy = t0 % oh, b = t0 / oh;
  for (size_t r = 0; r < n; r++, dst += ld) {
    const float *img = j->a + b * img_floats;
    const int32_t iy0 = (int32_t)oy * g->stride_h - g->pad_h;
    const int32_t ix0 = (int32_t)ox * g->stride_w - g->pad_w;
    /* the filter row lies inside the image row: one contiguous run */
    const bool row_inside = g->dil_w == 1 && ix0 >= 0 && ix0 + g->filter_w <= g->in_w;
    size_t ky = ky0, kx = kx0, c0 = c00, left = kn;
    float *d = dst;
    while (left) {
      const int32_t iy = iy0 + (int32_t)ky * g->dil_h;
      const bool whole = iy < 0 || iy >= g->in_h || row_inside;
      size_t len = whole ? (fw - kx) * cin - c0 : cin - c0;
      if (len > left) len = left;
      if (iy < 0 || iy >= g->in_h) { /* the rest of this filter row is padding */
        memset(d, 0, len * sizeof(float));
      } else if (row_inside) {
        copy_floats(d, img + ((size_t)iy * in_w + (size_t)ix0 + kx) * cin + c0, len);
      } else {
        const int32_t ix = ix0 + (int32_t)kx * g->dil_w;
        if (ix < 0 || ix >= g->in_w)
          memset(d, 0, len * sizeof(float));
        else
          copy_floats(d, img + ((size_t)iy * in_w + (size_t)ix) * cin + c0, len);
      }
      d += len;
      left -= len;
      c0 = 0;
      if (whole || ++kx == fw) { /* next filter row (unused when the slice ends here) */
        kx = 0;
        ky++;
      }
    }
    if (++ox == ow) {
      ox = 0;
      if (++oy == oh) {
        oy = 0;
        b++;
      }
    }
  }
}

/* One tile: the one-row kernel for a single row, the half-width kernel for a panel at most
 * half full (N = 16 layers, N tails), the short-tile kernel for a few rows (a last tile of
 * M = 12q + 2..4), else the full tile. */
static inline void f32_tile(const tfcc_f32_gemm_kernel *k, size_t mr, size_t nc, size_t kc,
                            const float *const *a, size_t a_off, const float *w, const float *bias,
                            float *c, size_t c_stride, float lo, float hi, const float *pf,
                            size_t pf_lines) {
  const tfcc_f32_gemm_fn f = mr == 1                                    ? k->fn1
                             : k->fn_half && 2 * nc <= (size_t)k->nr    ? k->fn_half
                             : k->fn_small && mr <= (size_t)k->small_mr ? k->fn_small
                                                                        : k->fn;
  f(mr, nc, kc, a, a_off, w, bias, c, c_stride, lo, hi, pf, pf_lines);
}

void tfcc_f32_gemm_res_generic(size_t mr, size_t nc, float *c, size_t c_stride, const float *r,
                               size_t r_stride, float lo, float hi) {
  for (size_t i = 0; i < mr; i++, c += c_stride, r += r_stride)
    for (size_t j = 0; j < nc; j++) {
      float v = c[j] + r[j];
      v = v < lo ? lo : v;
      c[j] = hi < v ? hi : v;
    }
}

/* The last K block's tile: with a residual, stored unclamped, then the residual added and
 * the clamp applied while the tile is in L1 (the sum (bias + sum_k) + r, then the clamp:
 * the bits of the conv followed by ADD). */
static inline void f32_tile_last(const gemm_job *j, size_t m0, size_t n0, size_t mr, size_t nc,
                                 size_t kc, const float *const *a, size_t a_off, const float *w,
                                 const float *bias, const float *pf, size_t pf_lines) {
  float *c = j->c + m0 * j->c_stride + n0;
  if (!j->res) {
    f32_tile(j->p->k, mr, nc, kc, a, a_off, w, bias, c, j->c_stride, j->lo, j->hi, pf, pf_lines);
    return;
  }
  /* the residual tile comes from L3/DRAM (written blocks earlier): its lines are requested
   * now and arrive while the kernel computes (measured: without this the epilogue waits on
   * them and costs as much as the separate ADD pass) */
  const float *r = j->res + m0 * j->res_stride + n0;
  for (size_t i = 0; i < mr; i++)
    for (size_t x = 0; x < nc; x += 16) __builtin_prefetch(r + i * j->res_stride + x, 0, 2);
  const tfcc_f32_gemm_kernel *k = j->p->k;
  if (k->fn_res) { /* fused into the kernel's store (same variant choice as f32_tile) */
    const tfcc_f32_gemm_res_kernel_fn f =
        mr == 1                                        ? k->fn1_res
        : k->fn_half_res && 2 * nc <= (size_t)k->nr    ? k->fn_half_res
        : k->fn_small_res && mr <= (size_t)k->small_mr ? k->fn_small_res
                                                       : k->fn_res;
    f(mr, nc, kc, a, a_off, w, bias, c, j->c_stride, j->lo, j->hi, pf, pf_lines, r, j->res_stride);
    return;
  }
  f32_tile(k, mr, nc, kc, a, a_off, w, bias, c, j->c_stride, -__builtin_inff(), __builtin_inff(),
           pf, pf_lines);
  j->res_fn(mr, nc, c, j->c_stride, r, j->res_stride, j->lo, j->hi);
}

static void gemm_task(void *ctx, size_t task, int thread) {
  const gemm_job *j = ctx;
  const tfcc_f32_packed *p = j->p;
  const tfcc_f32_gemm_kernel *k = p->k;
  const size_t MR = (size_t)k->mr, NR = (size_t)k->nr, K = (size_t)p->kdim;
  const size_t N = (size_t)p->n;
  const tfcc_gemm_range rg = tfcc_gemm_task_range(&j->sp, j->m_tiles, j->n_panels, task);
  const size_t t0 = rg.t0, t1 = rg.t1, p0 = rg.p0, p1 = rg.p1;
  const size_t G = j->b.group_rows / MR, kc = j->b.kc, n_kb = j->b.n_kb;
  const bool im2col = j->g && j->scratch;
  const size_t akc = j->b.tile_order ? K : kc; /* im2col row length */
  const float neg_inf = -__builtin_inff(), pos_inf = __builtin_inff();
  float *scratch = im2col ? j->scratch + (size_t)thread * j->scratch_stride : NULL;
  const float *rows[TFCC_F32_MAX_GROUP_ROWS + TFCC_F32_MAX_MR];
  const bool multi = tfcc_f32_gemm_multi_panel(k) && n_kb == 1 && !j->res;
  for (size_t g0 = t0; g0 < t1; g0 += G) {
    const size_t g1 = g0 + G < t1 ? g0 + G : t1;
    const size_t r0 = g0 * MR, r1 = g1 * MR < j->m ? g1 * MR : j->m, nrows = r1 - r0;
    if (im2col) /* tile order: one tile's rows (L1), packed per tile; else the group's */
      for (size_t r = 0; r < nrows; r++) rows[r] = scratch + (j->b.tile_order ? r % MR : r) * akc;
    else if (j->g)
      direct_rows(j, r0, nrows, rows);
    else
      for (size_t r = 0; r < nrows; r++) rows[r] = j->a + (r0 + r) * j->a_stride;
    /* rows past M in the last tile alias its first row (never stored) */
    for (size_t r = nrows; r < (g1 - g0) * MR; r++) rows[r] = rows[(g1 - g0 - 1) * MR];
    if (j->b.tile_order) {
      /* weights in L2: each tile's rows stay in L1 while its panels stream from L2, K block
       * by K block (the first starts from the bias, the last clamps) */
      for (size_t t = g0; t < g1; t++) {
        const size_t m0 = t * MR, mr = j->m - m0 < MR ? j->m - m0 : MR;
        if (im2col) im2col_slice(j, m0, mr, 0, K, scratch, akc);
        if (multi) { /* one K block, no residual: the task's panels in one call */
          const size_t n0 = p0 * NR, nc = (p1 * NR < N ? p1 * NR : N) - n0;
          f32_tile(k, mr, nc, K, rows + (t - g0) * MR, 0, tfcc_f32_panel_block(p, p0, 0),
                   tfcc_f32_panel_bias(p, p0), j->c + m0 * j->c_stride + n0, j->c_stride, j->lo,
                   j->hi, NULL, 0);
          continue;
        }
        for (size_t pi = p0; pi < p1; pi++) {
          const size_t n0 = pi * NR, nc = N - n0 < NR ? N - n0 : NR;
          for (size_t kb = 0; kb < n_kb; kb++) {
            const size_t k0 = kb * kc, kn = K - k0 < kc ? K - k0 : kc;
            const bool last = kb + 1 == n_kb;
            const float *w = tfcc_f32_panel_block(p, pi, k0);
            const float *next = !last         ? tfcc_f32_panel_block(p, pi, k0 + kc)
                                : pi + 1 < p1 ? tfcc_f32_panel_block(p, pi + 1, 0)
                                              : NULL;
            const float *bias = kb == 0 ? tfcc_f32_panel_bias(p, pi) : NULL;
            if (last)
              f32_tile_last(j, m0, n0, mr, nc, kn, rows + (t - g0) * MR, k0, w, bias, next, 2);
            else
              f32_tile(k, mr, nc, kn, rows + (t - g0) * MR, k0, w, bias,
                       j->c + m0 * j->c_stride + n0, j->c_stride, neg_inf, pos_inf, next, 2);
          }
        }
      }
      continue;
    }
    /* K blocks: each panel's kc x NR block stays in L1 while the group's tiles sweep it;
     * the blocks of one K block lie one after another (one sequential read). Two tiles of
     * MR-row kernels (a single-row tile runs the GEMV kernel, which never prefetches) share
     * the prefetch of the next block; one alone prefetches it whole. */
    const size_t pf_tiles = (g1 - g0) - (r1 - (g1 - 1) * MR == 1 ? 1 : 0);
    const bool halves = pf_tiles >= 2;
    for (size_t kb = 0; kb < n_kb; kb++) {
      const size_t k0 = kb * kc, kn = K - k0 < kc ? K - k0 : kc;
      const bool last = kb + 1 == n_kb;
      const float lo = last ? j->lo : neg_inf, hi = last ? j->hi : pos_inf;
      if (im2col) im2col_slice(j, r0, nrows, k0, kn, scratch, kc);
      const size_t a_off = im2col ? 0 : k0;
      for (size_t pi = p0; pi < p1; pi++) {
        const size_t n0 = pi * NR, nc = N - n0 < NR ? N - n0 : NR;
        const float *bias = kb == 0 ? tfcc_f32_panel_bias(p, pi) : NULL;
        const float *w = tfcc_f32_panel_block(p, pi, k0);
        /* the block this task sweeps next, prefetched half by the first tile and half by
         * the second, or whole by a group's only tile (the first tile of a block otherwise
         * waits on L3/DRAM in the large-weight layers; the whole block from every tile
         * measured 10-15% slower on ResNet-50's 7x7 stage) */
        const size_t kn_next = pi + 1 < p1 ? kn : K - k0 - kn < kc ? K - k0 - kn : kc;
        const float *next = pi + 1 < p1     ? tfcc_f32_panel_block(p, pi + 1, k0)
                            : kb + 1 < n_kb ? tfcc_f32_panel_block(p, p0, k0 + kc)
                                            : NULL;
        for (size_t t = g0; t < g1; t++) {
          const size_t m0 = t * MR, mr = j->m - m0 < MR ? j->m - m0 : MR;
          const float *pf = !next || t > g0 + 1 ? NULL
                            : !halves           ? (t == g0 ? next : NULL)
                            : t == g0           ? next
                                                : next + kn_next * NR / 2;
          if (last)
            f32_tile_last(j, m0, n0, mr, nc, kn, rows + (t - g0) * MR, a_off, w, bias, pf,
                          halves ? 1 : 2);
          else
            f32_tile(k, mr, nc, kn, rows + (t - g0) * MR, a_off, w, bias,
                     j->c + m0 * j->c_stride + n0, j->c_stride, lo, hi, pf, halves ? 1 : 2);
        }
      }
    }
  }
}

static void run_job(struct tfcc_threadpool *pool, gemm_job *j) {
  const tfcc_f32_gemm_kernel *k = j->p->k;
  if (j->m == 0 || j->p->n == 0) return;
  const size_t threads = tfcc_gemm_threads(&pool, j->m, (size_t)j->p->n, (size_t)j->p->kdim,
                                           TFCC_F32_MIN_PARALLEL_MACS);
  const size_t MR = (size_t)k->mr, NR = (size_t)k->nr;
  j->m_tiles = (j->m + MR - 1) / MR;
  j->n_panels = ((size_t)j->p->n + NR - 1) / NR;
  size_t m_chunks = 1, n_blocks = 1;
  if (threads > 1) {
    /* about 4 tasks per thread; among the splits, the one that re-reads the fewest bytes:
     * each row chunk reads all its panels' weights, each column block all its rows (an
     * im2col row costs its packing too) */
    const size_t target = 4 * threads;
    const double wbytes = (double)tfcc_f32_packed_bytes(k, j->p->n, j->p->kdim);
    const double abytes = (double)j->m * (double)j->p->kdim * 4.0 * (j->scratch ? 2.0 : 1.0);
    const size_t most = j->m_tiles * j->n_panels < target ? j->m_tiles * j->n_panels : target;
    double best = -1.0;
    for (size_t mc = 1; mc <= j->m_tiles && mc <= target; mc++) {
      size_t nb = (target + mc - 1) / mc;
      if (nb > j->n_panels) nb = j->n_panels;
      if (mc * nb < most) continue;
      const double cost = (double)mc * wbytes + (double)nb * abytes;
      if (best < 0.0 || cost < best) {
        best = cost;
        m_chunks = mc;
        n_blocks = nb;
      }
    }
  }
  j->sp = tfcc_gemm_split_counts(j->m_tiles, j->n_panels, m_chunks, n_blocks);
  tfcc_threadpool_run(pool, tfcc_gemm_split_tasks(&j->sp), gemm_task, j);
}

void tfcc_f32_gemm(struct tfcc_threadpool *pool, const tfcc_f32_packed *p, int32_t m,
                   const float *a, size_t a_stride, float *c, size_t c_stride, float lo, float hi) {
  gemm_job j;
  memset(&j, 0, sizeof j);
  j.p = p;
  j.m = m > 0 ? (size_t)m : 0;
  j.a = a;
  j.a_stride = a_stride;
  j.b = plan_blocks(p, j.m);
  j.c = c;
  j.c_stride = c_stride;
  j.lo = lo;
  j.hi = hi;
  run_job(pool, &j);
}

bool tfcc_f32_conv_direct(const tfcc_conv_geom *g) {
  return g->filter_h == 1 && g->filter_w == 1 && g->pad_h == 0 && g->pad_w == 0 &&
         g->in_c == g->filter_in_c;
}

static size_t conv_rows_m(const tfcc_conv_geom *g) {
  return (size_t)g->batches * (size_t)g->out_h * (size_t)g->out_w;
}

/* Floats of one thread's im2col scratch (64-byte multiple). */
static size_t scratch_floats(const blocking *b, const tfcc_f32_packed *p) {
  const size_t floats = b->tile_order ? (size_t)p->k->mr * (size_t)p->kdim /* one tile */
                                      : b->group_rows * b->kc;             /* a group's K block */
  return (floats + 15) & ~(size_t)15;
}

size_t tfcc_f32_conv_scratch_bytes(const tfcc_conv_geom *g, const tfcc_f32_packed *p, int threads) {
  if (tfcc_f32_conv_direct(g)) return 0;
  if (threads < 1) threads = 1;
  const blocking b = plan_blocks(p, conv_rows_m(g));
  return scratch_floats(&b, p) * sizeof(float) * (size_t)threads;
}

void tfcc_f32_conv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g, const tfcc_f32_packed *p,
                   const float *in, float *out, float lo, float hi, void *scratch) {
  tfcc_f32_conv_residual(pool, g, p, in, NULL, 0, out, lo, hi, scratch);
}

void tfcc_f32_conv_residual(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                            const tfcc_f32_packed *p, const float *in, const float *res,
                            size_t res_stride, float *out, float lo, float hi, void *scratch) {
  gemm_job j;
  memset(&j, 0, sizeof j);
  j.p = p;
  j.m = conv_rows_m(g);
  j.a = in;
  j.g = g;
  j.b = plan_blocks(p, j.m);
  if (!tfcc_f32_conv_direct(g)) {
    j.scratch = scratch;
    j.scratch_stride = scratch_floats(&j.b, p);
  }
  j.c = out;
  j.c_stride = (size_t)g->out_c;
  j.lo = lo;
  j.hi = hi;
  j.res = res;
  j.res_stride = res_stride;
  j.res_fn = p->k->res ? p->k->res : tfcc_f32_gemm_res_generic;
  run_job(pool, &j);
}

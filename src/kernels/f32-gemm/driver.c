/* Tiling and threading of the packed GEMM: output tiles (MR rows x a block of NR panels)
 * are tasks on the thread pool; each task keeps its weight block (up to half the L2) hot
 * while it walks its rows. A KxK convolution whose weights exceed one block packs its im2col
 * rows in groups (about 256 KiB) and runs every panel over a group, so no im2col row is
 * packed twice. Rows come from a plain strided matrix or from a convolution (in place for 1x1,
 * per-tile im2col packing otherwise). No allocation. */
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/conv.h"
#include "kernels/f32-gemm/gemm.h"
#include "runtime/threadpool.h"

#define TFCC_F32_MAX_MR 16
#define TFCC_F32_L2_BLOCK (256u * 1024u)
#define TFCC_F32_MIN_PARALLEL_MACS (128.0 * 1024.0)
/* im2col rows packed at once per thread (a group of MR-row tiles), so each weight panel is
 * read once per group rather than once per tile, and the im2col tile is built once per row
 * rather than once per column block. */
#define TFCC_F32_IM2COL_BLOCK (256u * 1024u)
#define TFCC_F32_MIN_GROUP_TILES 4

static size_t l2_block_bytes(void);

/* Rows of one im2col group: a multiple of MR. MR (one tile at a time, its im2col rows in L1)
 * when all the weights fit in one L2 column block (no repacking per block), or when fewer
 * than TFCC_F32_MIN_GROUP_TILES tiles fit the group (large K: the weights would stream from
 * L3 once per small group). */
static size_t im2col_group_rows(const tfcc_f32_packed *p) {
  const size_t mr = (size_t)p->k->mr, nr = (size_t)p->k->nr, kdim = (size_t)p->kdim;
  const size_t panels = ((size_t)p->n + nr - 1) / nr;
  if (panels * tfcc_f32_panel_floats(p) * sizeof(float) <= l2_block_bytes()) return mr;
  size_t rows = TFCC_F32_IM2COL_BLOCK / ((kdim ? kdim : 1) * sizeof(float));
  rows = rows / mr * mr;
  return rows < TFCC_F32_MIN_GROUP_TILES * mr ? mr : rows;
}

/* Weight bytes a column block may take: half the core's L2 (at least 256 KiB). */
static size_t l2_block_bytes(void) {
  static size_t cached;
  size_t b = __atomic_load_n(&cached, __ATOMIC_RELAXED);
  if (b) return b;
  const tfcc_cpu_info *ci = tfcc_cpu();
  b = ci && ci->l2_bytes / 2 > TFCC_F32_L2_BLOCK ? ci->l2_bytes / 2 : TFCC_F32_L2_BLOCK;
  __atomic_store_n(&cached, b, __ATOMIC_RELAXED);
  return b;
}

typedef struct gemm_job {
  const tfcc_f32_packed *p;
  size_t m;
  /* rows: plain matrix (g == NULL) or convolution */
  const float *a;
  size_t a_stride;
  const tfcc_conv_geom *g;
  float *scratch;       /* conv im2col groups: per thread group_tiles * MR * K floats */
  size_t scratch_stride;
  size_t group_tiles;   /* MR-row tiles per im2col group */
  float *c;
  size_t c_stride;
  float lo, hi;
  size_t m_tiles, tiles_per_task, m_chunks;
  size_t n_panels, panels_per_block, n_blocks;
} gemm_job;

/* Short runs (a few channels) are cheaper as a loop than as a libc call. */
static inline void copy_floats(float *restrict dst, const float *restrict src, size_t n) {
  if (n >= 32) {
    memcpy(dst, src, n * sizeof(float));
    return;
  }
  for (size_t i = 0; i < n; i++) dst[i] = src[i];
}

/* Row pointers of output rows m0 .. m0+mr-1 (rows past mr alias the first). */
static void conv_rows(const gemm_job *j, size_t m0, size_t mr, int thread, size_t slot,
                      const float **rows) {
  const tfcc_conv_geom *g = j->g;
  const size_t ow = (size_t)g->out_w, oh = (size_t)g->out_h;
  const size_t cin = (size_t)g->in_c, K = (size_t)j->p->kdim;
  const bool direct = j->scratch == NULL;
  size_t ox = m0 % ow, t0 = m0 / ow;
  size_t oy = t0 % oh, b = t0 / oh;
  if (direct) { /* walk the pixels: no division per row */
    const size_t sw = (size_t)g->stride_w * cin;
    const float *p = j->a + ((b * (size_t)g->in_h + oy * (size_t)g->stride_h) * (size_t)g->in_w +
                             ox * (size_t)g->stride_w) * cin;
    for (size_t r = 0; r < mr; r++) {
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
    return;
  }
  for (size_t r = 0; r < mr; r++) {
    const size_t pix = m0 + r;
    ox = pix % ow;
    const size_t t = pix / ow;
    oy = t % oh;
    b = t / oh;
    float *dst = j->scratch + (size_t)thread * j->scratch_stride + (slot + r) * K;
    rows[r] = dst;
    const float *img = j->a + b * (size_t)g->in_h * (size_t)g->in_w * cin;
    for (int32_t ky = 0; ky < g->filter_h; ky++) {
      const int32_t iy = (int32_t)oy * g->stride_h - g->pad_h + ky * g->dil_h;
      if (iy < 0 || iy >= g->in_h) {
        memset(dst, 0, (size_t)g->filter_w * cin * sizeof(float));
        dst += (size_t)g->filter_w * cin;
        continue;
      }
      const int32_t ix0 = (int32_t)ox * g->stride_w - g->pad_w;
      if (g->dil_w == 1 && ix0 >= 0 && ix0 + g->filter_w <= g->in_w) {
        /* the whole filter row is one contiguous run of the image row */
        const size_t n = (size_t)g->filter_w * cin;
        copy_floats(dst, img + ((size_t)iy * (size_t)g->in_w + (size_t)ix0) * cin, n);
        dst += n;
        continue;
      }
      for (int32_t kx = 0; kx < g->filter_w; kx++, dst += cin) {
        const int32_t ix = ix0 + kx * g->dil_w;
        if (ix < 0 || ix >= g->in_w)
          memset(dst, 0, cin * sizeof(float));
        else
          copy_floats(dst, img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * cin, cin);
      }
    }
  }
}

/* One MR-row tile against panels [p0, p1). */
static void run_tile(const gemm_job *j, const float *const *rows, size_t mr, size_t m0,
                     size_t p0, size_t p1) {
  const tfcc_f32_packed *p = j->p;
  const tfcc_f32_gemm_kernel *k = p->k;
  const size_t NR = (size_t)k->nr, K = (size_t)p->kdim;
  const size_t N = (size_t)p->n, panel = tfcc_f32_panel_floats(p);
  float *c = j->c + m0 * j->c_stride;
  const tfcc_f32_gemm_fn fn = mr == 1 ? k->fn1 : k->fn;
  for (size_t pi = p0; pi < p1; pi++) {
    const size_t n0 = pi * NR, nc = N - n0 < NR ? N - n0 : NR;
    /* a panel at most half full (N = 16, N tails): the half-width kernel */
    const tfcc_f32_gemm_fn f = mr > 1 && k->fn_half && 2 * nc <= NR ? k->fn_half : fn;
    f(mr, nc, K, rows, p->w + pi * panel, c + n0, j->c_stride, j->lo, j->hi);
  }
}

static void gemm_task(void *ctx, size_t task, int thread) {
  const gemm_job *j = ctx;
  const tfcc_f32_packed *p = j->p;
  const size_t MR = (size_t)p->k->mr, K = (size_t)p->kdim;
  const size_t mc = task / j->n_blocks, nb = task % j->n_blocks;
  const size_t t0 = mc * j->tiles_per_task;
  size_t t1 = t0 + j->tiles_per_task;
  if (t1 > j->m_tiles) t1 = j->m_tiles;
  const size_t p0 = nb * j->panels_per_block;
  size_t p1 = p0 + j->panels_per_block;
  if (p1 > j->n_panels) p1 = j->n_panels;
  const float *rows[TFCC_F32_MAX_MR];
  if (j->scratch && j->group_tiles > 1) {
    /* im2col: pack a group of tiles, then each panel over the whole group */
    for (size_t g0 = t0; g0 < t1; g0 += j->group_tiles) {
      const size_t g1 = g0 + j->group_tiles < t1 ? g0 + j->group_tiles : t1;
      for (size_t t = g0; t < g1; t++) {
        const size_t m0 = t * MR;
        conv_rows(j, m0, j->m - m0 < MR ? j->m - m0 : MR, thread, (t - g0) * MR, rows);
      }
      const float *base = j->scratch + (size_t)thread * j->scratch_stride;
      for (size_t pi = p0; pi < p1; pi++) {
        for (size_t t = g0; t < g1; t++) {
          const size_t m0 = t * MR;
          const size_t mr = j->m - m0 < MR ? j->m - m0 : MR;
          for (size_t r = 0; r < mr; r++) rows[r] = base + ((t - g0) * MR + r) * K;
          for (size_t r = mr; r < MR; r++) rows[r] = rows[0];
          run_tile(j, rows, mr, m0, pi, pi + 1);
        }
      }
    }
    return;
  }
  for (size_t t = t0; t < t1; t++) {
    const size_t m0 = t * MR;
    const size_t mr = j->m - m0 < MR ? j->m - m0 : MR;
    if (j->g) {
      conv_rows(j, m0, mr, thread, 0, rows);
    } else {
      for (size_t r = 0; r < mr; r++) rows[r] = j->a + (m0 + r) * j->a_stride;
    }
    for (size_t r = mr; r < MR; r++) rows[r] = rows[0];
    run_tile(j, rows, mr, m0, p0, p1);
  }
}

static void run_job(struct tfcc_threadpool *pool, gemm_job *j) {
  const tfcc_f32_gemm_kernel *k = j->p->k;
  if (j->m == 0 || j->p->n == 0) return;
  size_t threads = (size_t)tfcc_threadpool_size(pool);
  /* small products: waking workers costs more than it saves */
  if ((double)j->m * (double)j->p->n * (double)j->p->kdim < TFCC_F32_MIN_PARALLEL_MACS) {
    threads = 1;
    pool = NULL;
  }
  const size_t MR = (size_t)k->mr, NR = (size_t)k->nr;
  j->m_tiles = (j->m + MR - 1) / MR;
  j->n_panels = ((size_t)j->p->n + NR - 1) / NR;
  const size_t panel_bytes = tfcc_f32_panel_floats(j->p) * sizeof(float);
  /* im2col groups walk every panel over a group held in L2: one column block */
  size_t ppb = j->scratch && j->group_tiles > 1 ? j->n_panels : l2_block_bytes() / panel_bytes;
  if (ppb < 1) ppb = 1;
  if (ppb > j->n_panels) ppb = j->n_panels;
  size_t n_blocks = (j->n_panels + ppb - 1) / ppb;
  size_t m_chunks = 1;
  if (threads > 1) {
    const size_t target = 4 * threads;
    m_chunks = (target + n_blocks - 1) / n_blocks;
    if (m_chunks > j->m_tiles) m_chunks = j->m_tiles;
    if (m_chunks * n_blocks < target) { /* few rows: split the columns finer */
      size_t want = (target + m_chunks - 1) / m_chunks;
      if (want > j->n_panels) want = j->n_panels;
      ppb = (j->n_panels + want - 1) / want;
      n_blocks = (j->n_panels + ppb - 1) / ppb;
    }
  }
  j->panels_per_block = ppb;
  j->n_blocks = n_blocks;
  j->tiles_per_task = (j->m_tiles + m_chunks - 1) / m_chunks;
  j->m_chunks = (j->m_tiles + j->tiles_per_task - 1) / j->tiles_per_task;
  tfcc_threadpool_run(pool, j->m_chunks * j->n_blocks, gemm_task, j);
}

void tfcc_f32_gemm(struct tfcc_threadpool *pool, const tfcc_f32_packed *p, int32_t m,
                   const float *a, size_t a_stride, float *c, size_t c_stride, float lo,
                   float hi) {
  gemm_job j;
  memset(&j, 0, sizeof j);
  j.p = p;
  j.m = m > 0 ? (size_t)m : 0;
  j.a = a;
  j.a_stride = a_stride;
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

size_t tfcc_f32_conv_scratch_bytes(const tfcc_conv_geom *g, const tfcc_f32_packed *p,
                                   int threads) {
  if (tfcc_f32_conv_direct(g)) return 0;
  if (threads < 1) threads = 1;
  size_t per = im2col_group_rows(p) * (size_t)p->kdim * sizeof(float);
  per = (per + 63) & ~(size_t)63;
  return per * (size_t)threads;
}

void tfcc_f32_conv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                   const tfcc_f32_packed *p, const float *in, float *out, float lo, float hi,
                   void *scratch) {
  gemm_job j;
  memset(&j, 0, sizeof j);
  j.p = p;
  j.m = (size_t)g->batches * (size_t)g->out_h * (size_t)g->out_w;
  j.a = in;
  j.g = g;
  if (!tfcc_f32_conv_direct(g)) {
    j.scratch = scratch;
    const size_t mr = (size_t)p->k->mr;
    const size_t rows = im2col_group_rows(p);
    const size_t per = rows * (size_t)p->kdim * sizeof(float);
    j.scratch_stride = ((per + 63) & ~(size_t)63) / sizeof(float);
    j.group_tiles = rows / mr;
  }
  j.c = out;
  j.c_stride = (size_t)g->out_c;
  j.lo = lo;
  j.hi = hi;
  run_job(pool, &j);
}

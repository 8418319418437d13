/* Tiling and threading of the bf16 GEMM. Output tiles (MR rows x a block of NR panels) are
 * tasks on the thread pool. Each task converts its A rows to bf16 (a float32 row, a 1x1
 * convolution's input pixel, or a KxK convolution's im2col row) into per-thread scratch: one
 * MR-row tile at a time when all the packed weights fit one L2 column block (half the L2),
 * else a group of tiles (about 512 KiB of bf16 rows) that every panel then runs over, so each
 * row is converted once and the weights stream once per group. No allocation. */
#include "cpu/cpu_info.h"
#include "kernels/bf16-gemm/conv.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/gemm_split.h"
#include "base/threadpool.h"

#define BF16_L2_BLOCK (256u * 1024u)
#define BF16_GROUP_BYTES (512u * 1024u)
#define BF16_MIN_PARALLEL_MACS (128.0 * 1024.0)

/* Weight bytes a column block may take: half the core's L2 (at least 256 KiB). */
static size_t l2_block_bytes(void) {
  const tfcc_cpu_info *ci = tfcc_cpu();
  return ci && ci->l2_bytes / 2 > BF16_L2_BLOCK ? ci->l2_bytes / 2 : BF16_L2_BLOCK;
}

static size_t n_panels(const tfcc_bf16_packed *p) {
  return ((size_t)p->n + (size_t)p->k->nr - 1) / (size_t)p->k->nr;
}

/* Rows converted at once per thread: MR when the weights fit one column block, else a group
 * of tiles (a multiple of MR) of about BF16_GROUP_BYTES. */
static size_t group_rows(const tfcc_bf16_packed *p) {
  const size_t mr = (size_t)p->k->mr;
  if (n_panels(p) * tfcc_bf16_panel_bytes(p) <= l2_block_bytes()) return mr;
  size_t rows = BF16_GROUP_BYTES / (2u * (size_t)(p->kpad ? p->kpad : 1));
  rows = rows / mr * mr;
  return rows < mr ? mr : rows;
}

static size_t per_thread_bytes(const tfcc_bf16_packed *p, size_t rows) {
  return (rows * (size_t)p->kpad * 2u + 63u) & ~(size_t)63;
}

typedef struct bf16_job {
  const tfcc_bf16_packed *p;
  size_t m;
  const float *a; /* plain rows (g == NULL) or the convolution's NHWC input */
  size_t a_stride;
  const tfcc_conv_geom *g;
  unsigned char *scratch;
  size_t scratch_stride; /* bytes per thread */
  size_t group_tiles;
  float *c;
  size_t c_stride;
  float lo, hi;
  size_t m_tiles, n_panels;
  tfcc_gemm_split sp; /* the tasks: row chunks x column blocks */
} bf16_job;

/* Converts A row `row` (K floats) into dst (kpad bf16, zero tail). */
static void pack_row(const bf16_job *j, size_t row, uint16_t *dst) {
  const tfcc_bf16_packed *p = j->p;
  const tfcc_bf16_cvt_fn cvt = p->k->cvt;
  const size_t K = (size_t)p->kdim, kpad = (size_t)p->kpad;
  const tfcc_conv_geom *g = j->g;
  if (!g) {
    cvt(j->a + row * j->a_stride, dst, K);
  } else {
    const size_t ow = (size_t)g->out_w, oh = (size_t)g->out_h, cin = (size_t)g->in_c;
    const size_t ox = row % ow, t = row / ow, oy = t % oh, b = t / oh;
    const float *img = j->a + b * (size_t)g->in_h * (size_t)g->in_w * cin;
    uint16_t *d = dst;
    for (int32_t ky = 0; ky < g->filter_h; ky++) {
      const int32_t iy = (int32_t)oy * g->stride_h - g->pad_h + ky * g->dil_h;
      const size_t run = (size_t)g->filter_w * cin;
      if (iy < 0 || iy >= g->in_h) {
        memset(d, 0, run * sizeof *d);
        d += run;
        continue;
      }
      const int32_t ix0 = (int32_t)ox * g->stride_w - g->pad_w;
      const float *src_row = img + (size_t)iy * (size_t)g->in_w * cin;
      if (g->dil_w == 1 && ix0 >= 0 && ix0 + g->filter_w <= g->in_w) {
        cvt(src_row + (size_t)ix0 * cin, d, run); /* one contiguous run of the image row */
        d += run;
        continue;
      }
      for (int32_t kx = 0; kx < g->filter_w; kx++, d += cin) {
        const int32_t ix = ix0 + kx * g->dil_w;
        if (ix < 0 || ix >= g->in_w)
          memset(d, 0, cin * sizeof *d);
        else
          cvt(src_row + (size_t)ix * cin, d, cin);
      }
    }
  }
  if (kpad > K) memset(dst + K, 0, (kpad - K) * sizeof *dst);
}

static void bf16_task(void *ctx, size_t task, int thread) {
  const bf16_job *j = ctx;
  const tfcc_bf16_packed *p = j->p;
  const tfcc_bf16_gemm_kernel *k = p->k;
  const size_t MR = (size_t)k->mr, NR = (size_t)k->nr, kpad = (size_t)p->kpad;
  const size_t N = (size_t)p->n, panel = tfcc_bf16_panel_bytes(p);
  const tfcc_gemm_range rg = tfcc_gemm_task_range(&j->sp, j->m_tiles, j->n_panels, task);
  const size_t t0 = rg.t0, t1 = rg.t1, p0 = rg.p0, p1 = rg.p1;
  uint16_t *rows = (uint16_t *)(void *)(j->scratch + (size_t)thread * j->scratch_stride);
  const unsigned char *w = p->w;
  for (size_t g0 = t0; g0 < t1; g0 += j->group_tiles) {
    const size_t g1 = g0 + j->group_tiles < t1 ? g0 + j->group_tiles : t1;
    const size_t r0 = g0 * MR, r1 = g1 * MR < j->m ? g1 * MR : j->m;
    for (size_t r = r0; r < r1; r++) pack_row(j, r, rows + (r - r0) * kpad);
    for (size_t pi = p0; pi < p1; pi++) {
      const size_t n0 = pi * NR, nc = N - n0 < NR ? N - n0 : NR;
      for (size_t t = g0; t < g1; t++) {
        const size_t m0 = t * MR, mr = j->m - m0 < MR ? j->m - m0 : MR;
        const tfcc_bf16_gemm_fn f =
            mr == 1 ? k->fn1 : (k->fn_half && 2 * nc <= NR ? k->fn_half : k->fn);
        f(mr, nc, kpad / 2, rows + (m0 - r0) * kpad, kpad, w + pi * panel,
          j->c + m0 * j->c_stride + n0, j->c_stride, j->lo, j->hi);
      }
    }
  }
}

static void run_job(struct tfcc_threadpool *pool, bf16_job *j) {
  const tfcc_bf16_packed *p = j->p;
  if (j->m == 0 || p->n == 0) return;
  const size_t threads =
      tfcc_gemm_threads(&pool, j->m, (size_t)p->n, (size_t)p->kdim, BF16_MIN_PARALLEL_MACS);
  const size_t MR = (size_t)p->k->mr;
  j->m_tiles = (j->m + MR - 1) / MR;
  j->n_panels = n_panels(p);
  j->group_tiles = group_rows(p) / MR;
  const size_t ppb = j->group_tiles > 1 ? j->n_panels : l2_block_bytes() / tfcc_bf16_panel_bytes(p);
  j->sp = tfcc_gemm_split_blocks(j->m_tiles, j->n_panels, ppb, threads);
  j->scratch_stride = per_thread_bytes(p, j->group_tiles * MR);
  tfcc_threadpool_run(pool, tfcc_gemm_split_tasks(&j->sp), bf16_task, j);
}

size_t tfcc_bf16_gemm_scratch_bytes(const tfcc_bf16_packed *p, int32_t m, int threads) {
  (void)m;
  if (threads < 1) threads = 1;
  return per_thread_bytes(p, group_rows(p)) * (size_t)threads;
}

void tfcc_bf16_gemm(struct tfcc_threadpool *pool, const tfcc_bf16_packed *p, int32_t m,
                    const float *a, size_t a_stride, float *c, size_t c_stride, float lo, float hi,
                    void *scratch) {
  bf16_job j;
  memset(&j, 0, sizeof j);
  j.p = p;
  j.m = m > 0 ? (size_t)m : 0;
  j.a = a;
  j.a_stride = a_stride;
  j.scratch = scratch;
  j.c = c;
  j.c_stride = c_stride;
  j.lo = lo;
  j.hi = hi;
  run_job(pool, &j);
}

size_t tfcc_bf16_conv_scratch_bytes(const tfcc_conv_geom *g, const tfcc_bf16_packed *p,
                                    int threads) {
  (void)g;
  return tfcc_bf16_gemm_scratch_bytes(p, 0, threads);
}

void tfcc_bf16_conv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                    const tfcc_bf16_packed *p, const float *in, float *out, float lo, float hi,
                    void *scratch) {
  bf16_job j;
  memset(&j, 0, sizeof j);
  j.p = p;
  j.m = (size_t)g->batches * (size_t)g->out_h * (size_t)g->out_w;
  j.a = in;
  j.g = g;
  j.scratch = scratch;
  j.c = out;
  j.c_stride = (size_t)g->out_c;
  j.lo = lo;
  j.hi = hi;
  run_job(pool, &j);
}

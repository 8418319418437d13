/* Winograd convolution driver: tile blocks, per-position GEMMs on the packed micro-kernels,
 * threads over blocks (see winograd.h). */
#include <math.h>
#include <string.h>

#include "kernels/f32-winograd/winograd.h"
#include "base/threadpool.h"

/* Bytes of transformed input + products a block keeps in L2 (2 MiB per core; 1 MiB measured
 * 0.72x of the GEMM's time on ResNet-50's 14x14 stage with F2, two blocks of 25 tiles each
 * reading all weights, 2 MiB 0.60x with one block of 49). */
#define WINO_BLOCK_BYTES (2048u * 1024u)
/* Most tiles in a block (the row pointer array lives on the stack). */
#define WINO_MAX_TILES 256

static size_t round16(size_t x) { return (x + 15) & ~(size_t)15; }
static size_t round64b(size_t bytes) { return (bytes + 63) & ~(size_t)63; }

/* Transformed weight bytes per tile of a block above which a tile size loses: every block
 * reads all n*n positions' weights (from L3 or memory in a model run), and with few tiles per
 * block that read is not amortised. */
#define WINO_MAX_WEIGHT_BYTES_PER_TILE (128u * 1024u)

/* Tiles a block may hold (V and M in WINO_BLOCK_BYTES). */
static size_t wino_max_block(size_t npos, size_t in_c, size_t out_c) {
  const size_t per_tile = npos * (round16(in_c) + round16(out_c)) * sizeof(float);
  const size_t b = WINO_BLOCK_BYTES / per_tile;
  return b < 1 ? 1 : b > WINO_MAX_TILES ? WINO_MAX_TILES : b;
}

int tfcc_f32_wino_choose(const tfcc_conv_geom *g) {
  if (!tfcc_f32_wino_fits(g) || g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0) return 0;
  for (int m = 4; m >= 2; m -= 2) {
    const size_t npos = (size_t)(m + 2) * (size_t)(m + 2);
    double tiles =
        (double)g->batches * (double)((g->out_h + m - 1) / m) * (double)((g->out_w + m - 1) / m);
    const double block = (double)wino_max_block(npos, (size_t)g->in_c, (size_t)g->out_c);
    if (tiles > block) tiles = block;
    const double bytes = (double)npos * g->in_c * g->out_c * sizeof(float);
    if (bytes / tiles <= WINO_MAX_WEIGHT_BYTES_PER_TILE) return m;
  }
  return 0;
}

/* Tiles a block of an F2 layer holds at least for tfcc_f32_wino_choose_otf to take it. */
#define WINO_OTF_MIN_BLOCK 8

int tfcc_f32_wino_choose_otf(const tfcc_conv_geom *g) {
  const int m = tfcc_f32_wino_choose(g);
  if (m || !tfcc_f32_wino_fits(g) || g->batches <= 0 || g->out_h <= 0 || g->out_w <= 0) return m;
  const size_t tiles =
      (size_t)g->batches * (size_t)((g->out_h + 1) / 2) * (size_t)((g->out_w + 1) / 2);
  const size_t block = wino_max_block(16, (size_t)g->in_c, (size_t)g->out_c);
  return (tiles < block ? tiles : block) >= WINO_OTF_MIN_BLOCK ? 2 : 0;
}

typedef struct wino_plan {
  size_t tiles_h, tiles_w, tiles; /* all batches */
  size_t block, blocks;           /* tiles per block, number of blocks */
  size_t groups, group_panels;    /* output channel groups per block, GEMM panels per group */
  size_t ldv, ldm;                /* floats per tile row of V and M */
  size_t v_floats, m_floats, patch_floats, ytmp_floats;
  size_t u_floats;   /* on the fly: one panel's transformed filter, one row of positions */
  size_t per_thread; /* bytes */
} wino_plan;

static void wino_plan_make(const tfcc_conv_geom *g, const tfcc_f32_wino_weights *w, int threads,
                           wino_plan *pl) {
  const size_t m = (size_t)w->m, n = (size_t)w->n, npos = n * n;
  pl->tiles_h = ((size_t)g->out_h + m - 1) / m;
  pl->tiles_w = ((size_t)g->out_w + m - 1) / m;
  pl->tiles = (size_t)g->batches * pl->tiles_h * pl->tiles_w;
  pl->ldv = round16((size_t)g->in_c);
  pl->ldm = round16((size_t)g->out_c);
  const size_t max_block = wino_max_block(npos, (size_t)g->in_c, (size_t)g->out_c);
  size_t blocks = pl->tiles ? (pl->tiles + max_block - 1) / max_block : 1;
  /* With fewer blocks than threads, the threads split the output channels (whole GEMM panels)
   * of each block instead: each transforms the block's input (cheap) but reads only its share
   * of the weights (what costs in these layers: 14x14 and 28x28 stages). */
  const size_t want = (size_t)(threads > 1 ? threads : 1);
  const size_t panels = ((size_t)g->out_c + (size_t)w->gk->nr - 1) / (size_t)w->gk->nr;
  pl->groups = 1;
  if (blocks < want) pl->groups = panels < want ? panels : want;
  pl->group_panels = (panels + pl->groups - 1) / pl->groups;
  pl->groups = (panels + pl->group_panels - 1) / pl->group_panels;
  if (blocks * pl->groups < want && pl->tiles >= 2 * want) blocks = want;
  pl->block = pl->tiles ? (pl->tiles + blocks - 1) / blocks : 1;
  /* One thread: whole GEMM tiles (MR rows) per block, so only the last block has a short
   * tile. Several: equal blocks (196 tiles in 2 blocks: 98 + 98, not 108 + 88). */
  const size_t MR = (size_t)w->gk->mr;
  if (want == 1 && pl->block > MR) pl->block = (pl->block + MR - 1) / MR * MR;
  if (pl->block > WINO_MAX_TILES) pl->block = WINO_MAX_TILES;
  pl->blocks = pl->tiles ? (pl->tiles + pl->block - 1) / pl->block : 0;
  pl->v_floats = npos * pl->block * pl->ldv;
  pl->m_floats = npos * pl->block * pl->ldm;
  pl->patch_floats = n * n * (size_t)g->in_c;
  pl->ytmp_floats = m * m * (size_t)g->out_c;
  pl->u_floats = w->src ? n * (size_t)g->in_c * (size_t)w->gk->nr : 0;
  pl->per_thread = round64b(pl->v_floats * sizeof(float)) + round64b(pl->m_floats * sizeof(float)) +
                   round64b(pl->patch_floats * sizeof(float)) +
                   round64b(pl->ytmp_floats * sizeof(float)) +
                   round64b(pl->u_floats * sizeof(float));
}

size_t tfcc_f32_wino_scratch_bytes(const tfcc_conv_geom *g, const tfcc_f32_wino_weights *w,
                                   int threads) {
  wino_plan pl;
  wino_plan_make(g, w, threads, &pl);
  return pl.per_thread * (size_t)(threads > 1 ? threads : 1);
}

typedef struct wino_job {
  const tfcc_conv_geom *g;
  const tfcc_f32_wino_weights *w;
  const float *in;
  float *out;
  float lo, hi;
  char *scratch;
  wino_plan pl;
} wino_job;

/* The micro-kernel for a tile of mr rows (half: the panel's columns fit half a panel). */
static tfcc_f32_gemm_fn wino_fn(const tfcc_f32_gemm_kernel *k, bool half, size_t mr) {
  if (half) return k->fn_half;
  if (mr == 1) return k->fn1;
  if (k->fn_small && mr <= (size_t)k->small_mr) return k->fn_small;
  return k->fn;
}

/* M[p] = V[p] x U[p] for the block's nt tiles: each panel's K block stays in L1 while the
 * tiles sweep it (rows from L2). The first tile of each block prefetches the block that comes
 * next into L2 (the AVX-512 kernel; `next`: the next position's first block, or NULL): the
 * transformed weights usually come from L3 or memory. */
static void wino_gemm(const tfcc_f32_packed *pk, size_t p0, size_t p1, const float *next,
                      const float *const *rows, size_t nt, float *c, size_t ldc) {
  const tfcc_f32_gemm_kernel *k = pk->k;
  const size_t MR = (size_t)k->mr, NR = (size_t)k->nr, N = (size_t)pk->n;
  const size_t K = (size_t)pk->kdim, kc = (size_t)pk->kc;
  for (size_t k0 = 0; k0 < K; k0 += kc) {
    const size_t kn = K - k0 < kc ? K - k0 : kc;
    for (size_t pi = p0; pi < p1; pi++) {
      const size_t nc = N - pi * NR < NR ? N - pi * NR : NR;
      const float *wb = tfcc_f32_panel_block(pk, pi, k0);
      const float *bias = k0 == 0 ? tfcc_f32_panel_bias(pk, pi) : NULL;
      const bool half = k->fn_half && nc * 2 <= NR;
      const float *pf = pi + 1 < p1   ? tfcc_f32_panel_block(pk, pi + 1, k0)
                        : k0 + kn < K ? tfcc_f32_panel_block(pk, p0, k0 + kn)
                                      : next;
      for (size_t r = 0; r < nt; r += MR) {
        const size_t mr = nt - r < MR ? nt - r : MR;
        wino_fn(k, half, mr)(mr, nc, kn, rows + r, k0, wb, bias, c + r * ldc + pi * NR, ldc,
                             -INFINITY, INFINITY, r == 0 ? pf : NULL, r == 0 && pf ? 2 : 0);
      }
    }
  }
}

/* Most K blocks of the source packing prefetched per panel. */
#define WINO_MAX_SRC_BLOCKS 64

/* Zero bias of a panel's first K block (the output transform adds the conv's). */
static _Alignas(64) const float wino_zeros[64];

/* On the fly: panel pi of row a of U (G g G^T: positions a * n ..) into u, [b][in_c][NR],
 * from the im2col GEMM's packing (element (o, k = tap * in_c + c) in K block k / kc), in runs
 * of input channels whose nine taps each lie in one K block. */
static void wino_filter_row(const tfcc_f32_wino_weights *w, size_t pi, int a, float *u) {
  const tfcc_f32_packed *pk = w->src;
  const size_t IC = (size_t)w->in_c, NR = (size_t)pk->k->nr, K = (size_t)pk->kdim;
  const size_t kc = (size_t)pk->kc;
  for (size_t c = 0; c < IC;) {
    const float *taps[9];
    size_t count = IC - c;
    for (size_t t = 0; t < 9; t++) {
      const size_t k = t * IC + c, k0 = k / kc * kc, kn = K - k0 < kc ? K - k0 : kc;
      taps[t] = tfcc_f32_panel_block(pk, pi, k0) + (k - k0) * NR;
      if (k0 + kn - k < count) count = k0 + kn - k;
    }
    w->k->filt(taps, count, NR, w->n, a, u + c * NR, IC * NR);
    c += count;
  }
}

/* M[p] = V[p] x U[p] for one panel of on-the-fly weights: upos = the panel's U[p] (in_c x NR,
 * in L2), K blocks as the packing's. The first tile of each K block prefetches pf[j++] (a K
 * block of the next panel's source in the GEMM's packing: read from L3 or memory, the
 * transform would wait for it) while j < npf. */
static void wino_gemm_otf(const tfcc_f32_gemm_kernel *k, size_t K, size_t kc, size_t nc,
                          const float *upos, const float *const *rows, size_t nt, float *c,
                          size_t ldc, const float *const *pf, size_t npf, size_t *j) {
  const size_t MR = (size_t)k->mr, NR = (size_t)k->nr;
  const bool half = k->fn_half && nc * 2 <= NR;
  for (size_t k0 = 0; k0 < K; k0 += kc) {
    const size_t kn = K - k0 < kc ? K - k0 : kc;
    for (size_t r = 0; r < nt; r += MR) {
      const size_t mr = nt - r < MR ? nt - r : MR;
      const float *pfb = r == 0 && *j < npf ? pf[(*j)++] : NULL;
      wino_fn(k, half, mr)(mr, nc, kn, rows + r, k0, upos + k0 * NR, k0 == 0 ? wino_zeros : NULL,
                           c + r * ldc, ldc, -INFINITY, INFINITY, pfb, pfb ? 2 : 0);
    }
  }
}

static void wino_task(void *ctx, size_t task, int thread) {
  const wino_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const tfcc_f32_wino_weights *w = j->w;
  const wino_plan *pl = &j->pl;
  const size_t m = (size_t)w->m, n = (size_t)w->n, npos = n * n;
  const size_t IC = (size_t)g->in_c, OC = (size_t)g->out_c;
  const size_t in_h = (size_t)g->in_h, in_w = (size_t)g->in_w;
  const size_t out_h = (size_t)g->out_h, out_w = (size_t)g->out_w;
  char *base = j->scratch + (size_t)thread * pl->per_thread;
  float *V = (float *)base;
  float *M = (float *)(base + round64b(pl->v_floats * sizeof(float)));
  float *patch = (float *)((char *)M + round64b(pl->m_floats * sizeof(float)));
  float *ytmp = (float *)((char *)patch + round64b(pl->patch_floats * sizeof(float)));
  float *U = (float *)((char *)ytmp + round64b(pl->ytmp_floats * sizeof(float)));
  const size_t blk = task / pl->groups, grp = task % pl->groups;
  const size_t NR = (size_t)w->gk->nr, panels = (OC + NR - 1) / NR;
  const size_t p0 = grp * pl->group_panels;
  const size_t p1 = p0 + pl->group_panels < panels ? p0 + pl->group_panels : panels;
  const size_t c0 = p0 * NR, cn = (p1 * NR < OC ? p1 * NR : OC) - c0; /* channel slice */
  const size_t t0 = blk * pl->block;
  const size_t nt = pl->tiles - t0 < pl->block ? pl->tiles - t0 : pl->block;
  const size_t psv = pl->block * pl->ldv, psm = pl->block * pl->ldm;
  const size_t per_image = pl->tiles_h * pl->tiles_w;
  const tfcc_wino_in_fn in_fn = w->m == 4 ? w->k->in_f4 : w->k->in_f2;
  const tfcc_wino_out_fn out_fn = w->m == 4 ? w->k->out_f4 : w->k->out_f2;

  /* 1. input transform */
  for (size_t t = 0; t < nt; t++) {
    const size_t gt = t0 + t, b = gt / per_image, ty = gt % per_image / pl->tiles_w,
                 tx = gt % pl->tiles_w;
    const ptrdiff_t iy = (ptrdiff_t)(ty * m) - g->pad_h, ix = (ptrdiff_t)(tx * m) - g->pad_w;
    const float *img = j->in + b * in_h * in_w * IC;
    const float *d;
    size_t rs;
    if (iy >= 0 && ix >= 0 && (size_t)iy + n <= in_h && (size_t)ix + n <= in_w) {
      d = img + ((size_t)iy * in_w + (size_t)ix) * IC;
      rs = in_w * IC;
    } else {
      for (size_t r = 0; r < n; r++) {
        const ptrdiff_t yy = iy + (ptrdiff_t)r;
        for (size_t x = 0; x < n; x++) {
          const ptrdiff_t xx = ix + (ptrdiff_t)x;
          float *dst = patch + (r * n + x) * IC;
          if (yy >= 0 && xx >= 0 && (size_t)yy < in_h && (size_t)xx < in_w)
            memcpy(dst, img + ((size_t)yy * in_w + (size_t)xx) * IC, IC * sizeof(float));
          else
            memset(dst, 0, IC * sizeof(float));
        }
      }
      d = patch;
      rs = n * IC;
    }
    in_fn(d, rs, IC, V + t * pl->ldv, psv);
  }

  /* 2. one GEMM per position */
  const float *rows[WINO_MAX_TILES + 16];
  const size_t MR = (size_t)w->gk->mr;
  if (w->src) { /* on the fly: panel by panel, row by row of positions: its U, its GEMMs */
    const size_t kc = tfcc_f32_pack_kc(w->gk, IC);
    const tfcc_f32_packed *src = w->src;
    const size_t skc = (size_t)src->kc, sblocks = ((size_t)src->kdim + skc - 1) / skc;
    const float *pf[WINO_MAX_SRC_BLOCKS];
    for (size_t pi = p0; pi < p1; pi++) {
      const size_t nc = OC - pi * NR < NR ? OC - pi * NR : NR;
      /* the next panel's source, one K block per GEMM call of this panel */
      size_t npf = 0, j = 0;
      for (size_t b = 0; pi + 1 < p1 && b < sblocks && b < WINO_MAX_SRC_BLOCKS; b++)
        pf[npf++] = tfcc_f32_panel_block(src, pi + 1, b * skc);
      for (size_t p = 0; p < npos; p++) {
        if (p % n == 0) wino_filter_row(w, pi, (int)(p / n), U);
        const float *vp = V + p * psv;
        for (size_t t = 0; t < nt; t++) rows[t] = vp + t * pl->ldv;
        for (size_t t = nt; t < nt + MR && t < WINO_MAX_TILES + 16; t++) rows[t] = vp;
        wino_gemm_otf(w->gk, IC, kc, nc, U + p % n * IC * NR, rows, nt, M + p * psm + pi * NR,
                      pl->ldm, pf, npf, &j);
      }
    }
  }
  for (size_t p = 0; p < npos && !w->src; p++) {
    const float *vp = V + p * psv;
    for (size_t t = 0; t < nt; t++) rows[t] = vp + t * pl->ldv;
    for (size_t t = nt; t < nt + MR && t < WINO_MAX_TILES + 16; t++) rows[t] = vp;
    wino_gemm(&w->pos[p], p0, p1, p + 1 < npos ? tfcc_f32_panel_block(&w->pos[p + 1], p0, 0) : NULL,
              rows, nt, M + p * psm, pl->ldm);
  }

  /* 3. output transform */
  for (size_t t = 0; t < nt; t++) {
    const size_t gt = t0 + t, b = gt / per_image, ty = gt % per_image / pl->tiles_w,
                 tx = gt % pl->tiles_w;
    const size_t oy = ty * m, ox = tx * m;
    float *img = j->out + b * out_h * out_w * OC;
    const float *mt = M + t * pl->ldm + c0;
    if (oy + m <= out_h && ox + m <= out_w) {
      out_fn(mt, psm, cn, w->bias + c0, j->lo, j->hi, img + (oy * out_w + ox) * OC + c0, out_w * OC,
             OC);
    } else {
      out_fn(mt, psm, cn, w->bias + c0, j->lo, j->hi, ytmp, m * cn, cn);
      const size_t rh = out_h - oy < m ? out_h - oy : m, rw = out_w - ox < m ? out_w - ox : m;
      for (size_t r = 0; r < rh; r++)
        for (size_t x = 0; x < rw; x++)
          memcpy(img + ((oy + r) * out_w + ox + x) * OC + c0, ytmp + (r * m + x) * cn,
                 cn * sizeof(float));
    }
  }
}

void tfcc_f32_wino_conv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                        const tfcc_f32_wino_weights *w, const float *in, float *out, float lo,
                        float hi, void *scratch) {
  wino_job j = {g, w, in, out, lo, hi, scratch, {0}};
  wino_plan_make(g, w, tfcc_threadpool_size(pool), &j.pl);
  if (j.pl.blocks == 0) return;
  tfcc_threadpool_run(pool, j.pl.blocks * j.pl.groups, wino_task, &j);
}

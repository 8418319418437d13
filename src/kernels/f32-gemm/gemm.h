/* Fast float32 GEMM: packed-panel micro-kernels per ISA behind one dispatch table.
 *
 *   C[m][n] = clamp(bias[n] + sum_k A[m][k] * B[n][k], lo, hi)
 *
 * B (weights, N x K, e.g. an OHWI conv filter or FC weights) is packed once per model into
 * panels of NR columns (zero-padded past N), K cut into blocks of kc (tfcc_f32_pack_kc: one
 * panel's block fits in L1), stored in the order the driver reads them:
 *
 *   [bias: panels x NR][K block 0: panel 0 (kc x NR), panel 1, ...][K block 1: ...]...
 *
 * so a sweep of one K block over all panels reads one contiguous run of memory (the hardware
 * prefetchers follow it; with one run per panel they stalled at every 4 KiB page).
 * A rows are given as pointers (each row K contiguous floats), so a 1x1 convolution reads
 * the NHWC input in place at any stride; a general convolution packs MR rows of its
 * im2col matrix into per-thread scratch, one tile at a time (never the full im2col). */
#ifndef TFCC_KERNELS_F32_GEMM_GEMM_H
#define TFCC_KERNELS_F32_GEMM_GEMM_H

#include <stdbool.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* One tile over one K block: rows i < mr (a[i] valid for i < MR; rows >= mr may alias row 0
 * and are not stored), columns j < nc <= NR of one packed panel; A row i's block starts at
 * a[i] + a_off, w at the block's first kc x NR weights of the panel. The accumulators start
 * from bias (the panel's NR bias floats: the first K block) or, bias == NULL, from C's
 * current values (a later block adds onto the earlier ones). Every block clamps to
 * [lo, hi]: the driver passes +-infinity except for the last. c row i at c + i * c_stride.
 * pf: NULL, or the share of the weights the driver runs next that this call may prefetch
 * while it computes: pf_lines (1 or 2) 64-byte lines per k step, kc * pf_lines lines from pf
 * (2: a whole kc x 32-float block; 1: half of one, the driver handing the two halves of a
 * block to two tiles). A hint: never dereferenced; the AVX-512 12x32 kernel uses it. */
typedef void (*tfcc_f32_gemm_fn)(size_t mr, size_t nc, size_t kc, const float *const *a,
                                 size_t a_off, const float *w, const float *bias, float *c,
                                 size_t c_stride, float lo, float hi, const float *pf,
                                 size_t pf_lines);

/* Residual epilogue of a tile the kernel just stored without clamp (lo/hi = +-infinity):
 * c[i][j] = min(hi, max(lo, c[i][j] + r[i][j])) for rows i < mr, columns j < nc (c row i at
 * c + i * c_stride, r row i at r + i * r_stride), while the tile is still in L1. One IEEE add
 * per element, the clamp as the f32-vbinary kernels do it (NaN passes through), so that a
 * conv with a fused residual gives the bits of the conv followed by ADD. */
typedef void (*tfcc_f32_gemm_res_fn)(size_t mr, size_t nc, float *c, size_t c_stride,
                                     const float *r, size_t r_stride, float lo, float hi);

/* A micro-kernel with the residual fused into its store (gemm.h's tfcc_f32_gemm_fn plus res,
 * row i at res + i * res_stride): c = clamp((acc + r), lo, hi) with the epilogue's arithmetic,
 * the sum added while the accumulators are in registers (a separate epilogue right after the
 * kernel's masked stores reloads them: the loads wait for the stores, no forwarding). */
typedef void (*tfcc_f32_gemm_res_kernel_fn)(size_t mr, size_t nc, size_t kc, const float *const *a,
                                            size_t a_off, const float *w, const float *bias,
                                            float *c, size_t c_stride, float lo, float hi,
                                            const float *pf, size_t pf_lines, const float *res,
                                            size_t res_stride);

typedef struct tfcc_f32_gemm_kernel {
  const char *name;  /* "f32-gemm-12x32-avx512" */
  const char *name1; /* its one-row (GEMV) variant: "f32-gemv-32-avx512" */
  tfcc_isa isa;      /* level the kernel needs */
  int mr, nr;
  tfcc_f32_gemm_fn fn;  /* up to mr rows */
  tfcc_f32_gemm_fn fn1; /* one row (GEMV); same panel layout */
  /* up to mr rows of a panel's first nr/2 columns (same panel layout), for panels with
   * nc <= nr/2 (N = 16 layers, N tails); NULL: fn */
  tfcc_f32_gemm_fn fn_half;
  /* up to small_mr rows (2 .. small_mr) of a full panel, same layout: a short last tile
   * (M = 12q + 4) at a fraction of fn's cost; NULL: fn */
  int small_mr;
  tfcc_f32_gemm_fn fn_small;
  /* residual epilogue for tiles of up to mr rows x nr columns in this ISA's vectors; NULL:
   * the driver's portable loop (tfcc_f32_gemm_res_generic) */
  tfcc_f32_gemm_res_fn res;
  /* optional: fn, fn1, fn_half, fn_small with the residual fused (all four, or fn_res NULL:
   * the kernel then stores the last K block unclamped and `res` follows) */
  tfcc_f32_gemm_res_kernel_fn fn_res, fn1_res, fn_half_res, fn_small_res;
} tfcc_f32_gemm_kernel;

/* Kernels whose fn and fn1 take nc > nr: the consecutive panels of one K block from w (the
 * WebAssembly kernel, where a call and the driver's per-tile work cost several depth steps);
 * the others nc <= nr. */
bool tfcc_f32_gemm_multi_panel(const tfcc_f32_gemm_kernel *k);

/* The portable residual epilogue (any mr, nc). */
void tfcc_f32_gemm_res_generic(size_t mr, size_t nc, float *c, size_t c_stride, const float *r,
                               size_t r_stride, float lo, float hi);

/* Best kernel at or below `isa` (never NULL: the generic C kernel is always there); every
 * kernel this build has, for tests and benchmarks: count, then entry i. */
TFCC_DISPATCH_TABLE_DECL(tfcc_f32_gemm, tfcc_f32_gemm_kernel);

/* Weights packed for one kernel. */
typedef struct tfcc_f32_packed {
  const tfcc_f32_gemm_kernel *k;
  int32_t n, kdim; /* N columns, K depth */
  int32_t kc;      /* K block of the layout (tfcc_f32_pack_kc) */
  float *w;        /* 64-byte aligned (free with tfcc_f32_packed_free) */
} tfcc_f32_packed;

/* Bytes of one panel's K block kept in L1 while the tiles sweep it. */
#define TFCC_F32_KC_BYTES (32u * 1024u)
/* K block of the packed layout: all of K when one panel's K x NR fits TFCC_F32_KC_BYTES,
 * else K split evenly into blocks of at most that size (multiples of 4 but the last). */
static inline size_t tfcc_f32_pack_kc(const tfcc_f32_gemm_kernel *k, size_t kdim) {
  const size_t kc_max = TFCC_F32_KC_BYTES / ((size_t)k->nr * sizeof(float));
  if (kdim <= kc_max) return kdim;
  const size_t n = (kdim + kc_max - 1) / kc_max;
  return ((kdim + n - 1) / n + 3) & ~(size_t)3;
}

/* Packs B[n][k] = src[n * ld_n + k * ld_k] and bias (NULL: zeros). Returns false when out
 * of memory. */
bool tfcc_f32_pack(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim, const float *src,
                   size_t ld_n, size_t ld_k, const float *bias, tfcc_f32_packed *out);
/* The same, the panels split across pool's threads (NULL or one thread: the caller alone;
 * the same bytes either way). */
struct tfcc_threadpool;
bool tfcc_f32_pack_pool(struct tfcc_threadpool *pool, const tfcc_f32_gemm_kernel *k, int32_t n,
                        int32_t kdim, const float *src, size_t ld_n, size_t ld_k, const float *bias,
                        tfcc_f32_packed *out);
void tfcc_f32_packed_free(tfcc_f32_packed *p);
/* Told that the first `bytes` bytes of the source (from src) are read no more. */
typedef void (*tfcc_f32_pack_release_fn)(void *user, size_t bytes);
/* tfcc_f32_pack_pool's packing (the same bytes) of B stored N x K (src[n * ld_n + k], ld_n >=
 * kdim), made while the source is given back as it goes: the panels are packed in source order,
 * a chunk of about 1 MiB of source rows at a time, the block's pages populated as they are
 * reached, and release(user, bytes) is called after each chunk with the source bytes read so
 * far (the last call: every byte of the source); the source is not read after a call. Costs an
 * in-place transpose of the packing's K blocks at the end (pack.c). false (release never
 * called): out of memory, or a shape it does not take; the caller packs as before. */
bool tfcc_f32_pack_stream(struct tfcc_threadpool *pool, const tfcc_f32_gemm_kernel *k, int32_t n,
                          int32_t kdim, const float *src, size_t ld_n, const float *bias,
                          tfcc_f32_packed *out, tfcc_f32_pack_release_fn release, void *user);
/* Bytes tfcc_f32_pack_into writes (a multiple of 64). */
size_t tfcc_f32_packed_bytes(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim);
/* Packs into caller memory w (64-byte aligned, tfcc_f32_packed_bytes): no allocation, for
 * operands that change every run (BATCH_MATMUL). out->w = w (do not free). */
void tfcc_f32_pack_into(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim, const float *src,
                        size_t ld_n, size_t ld_k, const float *bias, float *w,
                        tfcc_f32_packed *out);
/* out describes packed weights w made by tfcc_f32_pack_into with the same k, n, kdim (kept
 * elsewhere, e.g. a weights cache; not freed through out). */
static inline void tfcc_f32_packed_view(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim,
                                        const float *w, tfcc_f32_packed *out) {
  out->k = k;
  out->n = n;
  out->kdim = kdim;
  out->kc = (int32_t)tfcc_f32_pack_kc(k, (size_t)(kdim > 0 ? kdim : 0));
  out->w = (float *)(uintptr_t)w; /* read only: kernels never write the packing */
}
static inline size_t tfcc_f32_panels(const tfcc_f32_packed *p) {
  return ((size_t)p->n + (size_t)p->k->nr - 1) / (size_t)p->k->nr;
}
/* Panel pi's NR bias floats. */
static inline const float *tfcc_f32_panel_bias(const tfcc_f32_packed *p, size_t pi) {
  return p->w + pi * (size_t)p->k->nr;
}
/* Panel pi's weights of the K block starting at k0 (a multiple of p->kc): kn x NR floats,
 * kn = min(kc, K - k0). */
static inline const float *tfcc_f32_panel_block(const tfcc_f32_packed *p, size_t pi, size_t k0) {
  const size_t nr = (size_t)p->k->nr, row = tfcc_f32_panels(p) * nr, K = (size_t)p->kdim;
  const size_t kn = K - k0 < (size_t)p->kc ? K - k0 : (size_t)p->kc;
  return p->w + row * (1 + k0) + pi * kn * nr;
}

/* One row a (K floats) against panel pi over all its K blocks through the one-row kernel:
 * c[0..nc) = clamp(bias + a . B, lo, hi), or with add, c[0..nc) += a . B (no bias, no clamp).
 * The sum is the GEMM tile's (bias or C, then k in order), so the results are the same bits. */
static inline void tfcc_f32_panel_row(const tfcc_f32_packed *p, size_t pi, size_t nc,
                                      const float *a, float *c, bool add, float lo, float hi) {
  const size_t K = (size_t)p->kdim, kc = (size_t)p->kc;
  const float *rows[1] = {a};
  size_t k0 = 0;
  do {
    const size_t kn = K - k0 < kc ? K - k0 : kc;
    const bool last = k0 + kn >= K;
    p->k->fn1(1, nc, kn, rows, k0, tfcc_f32_panel_block(p, pi, k0),
              k0 == 0 && !add ? tfcc_f32_panel_bias(p, pi) : NULL, c, 0,
              last && !add ? lo : -INFINITY, last && !add ? hi : INFINITY, NULL, 0);
    k0 += kn;
  } while (k0 < K);
}

struct tfcc_threadpool;

/* C = A x B for M rows: A row m at a + m * a_stride, C row m at c + m * c_stride. */
void tfcc_f32_gemm(struct tfcc_threadpool *pool, const tfcc_f32_packed *p, int32_t m,
                   const float *a, size_t a_stride, float *c, size_t c_stride, float lo, float hi);

#endif

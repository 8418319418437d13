/* Packs N x K weights into the panel layout of one micro-kernel (see gemm.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/kernel_copy.h"
#include "base/threadpool.h"
#include "base/weights_mem.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/move/move.h"

size_t tfcc_f32_packed_bytes(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim) {
  const size_t nr = (size_t)k->nr;
  const size_t panels = ((size_t)(n > 0 ? n : 0) + nr - 1) / nr;
  const size_t bytes = panels * nr * ((size_t)(kdim > 0 ? kdim : 0) + 1) * sizeof(float);
  return (bytes + 63) & ~(size_t)63;
}

/* Weights stored N x K (a filter, FC weights): a whole panel is a dense 2-D transpose, done by
 * the move kernel's blocked tiles (kernels/move); a partial last panel (its padding columns
 * zero) goes through a tile in L1: TB floats of each of the panel's rows are copied in (each
 * row read straight), then written out as TB rows of the panel. Read column by column instead,
 * the panel's NR rows, K floats apart, share a few L1 sets and most elements miss. */
#define TB 64
#define NR_MAX 64

/* Panel rows kk in [0, kn) of columns 0 .. nc - 1 (nc <= nr <= NR_MAX) from
 * B[n][k] = src[n * ld_n + k] into dst (kn rows of nr floats; columns nc .. nr - 1 zero). */
static void pack_panel_rows(size_t nr, size_t nc, size_t kn, const float *src, size_t ld_n,
                            float *dst) {
  if (nc == nr && kn <= INT32_MAX && nr <= INT32_MAX) {
    /* a whole panel: the output is dense, the move kernel's blocked transpose (vector
     * micro-tiles) writes it */
    const int32_t dims[2] = {(int32_t)kn, (int32_t)nr};
    const int64_t in_strides[2] = {1, (int64_t)ld_n}, out_strides[2] = {(int64_t)nr, 1};
    tfcc_move_copy_nd(2, dims, src, 0, in_strides, dst, 0, out_strides, sizeof(float));
    return;
  }
  float tile[NR_MAX][TB];
  for (size_t j = nc; j < nr; j++) memset(tile[j], 0, sizeof tile[j]);
  for (size_t t0 = 0; t0 < kn; t0 += TB) {
    const size_t tb = kn - t0 < TB ? kn - t0 : TB;
    for (size_t j = 0; j < nc; j++) memcpy(tile[j], src + j * ld_n + t0, tb * sizeof(float));
    for (size_t t = 0; t < tb; t++, dst += nr)
      for (size_t j = 0; j < nr; j++) dst[j] = tile[j][t];
  }
}

/* Floats of the buffer a load's packing gathers its source rows into (base/kernel_copy.h):
 * the rows of a few panels' K block (one at most TFCC_F32_KC_BYTES), read from there in L2.
 * 64 KiB: under malloc's mmap threshold, so the heap's pages are reused by every packing
 * (from mmap each would be fresh pages, first-touch faults again). */
#define STAGE_FLOATS ((size_t)16 << 10)

/* Panels [p0, p1) of one K block (kn columns from src) of B stored N x K into dst (the K
 * block's first panel; panel p at dst + p * pstride): the one panel packing of B stored N x K,
 * whichever order the blocks are written in (pack_panels, stream_panels). With stage (a load:
 * STAGE_FLOATS floats) their source rows are first gathered into it by the kernel
 * (base/kernel_copy.h), a group of panels at a time; read in place without it, or where the
 * gather is not available. */
static void pack_block(size_t nr, size_t N, size_t kn, const float *src, size_t ld_n, float *dst,
                       size_t pstride, size_t p0, size_t p1, float *stage) {
  const size_t group = stage && nr * kn <= STAGE_FLOATS ? STAGE_FLOATS / (nr * kn) : 0;
  for (size_t p = p0; p < p1;) {
    const size_t q = group && p1 - p > group ? p + group : p1;
    const size_t n0 = p * nr, n1 = q * nr < N ? q * nr : N;
    const bool staged = group && tfcc_kernel_gather(stage, src + n0 * ld_n, kn * sizeof(float),
                                                    ld_n * sizeof(float), n1 - n0);
    for (; p < q; p++) {
      const size_t nc = N - p * nr < nr ? N - p * nr : nr;
      if (staged)
        pack_panel_rows(nr, nc, kn, stage + (p * nr - n0) * kn, kn, dst + p * pstride);
      else
        pack_panel_rows(nr, nc, kn, src + p * nr * ld_n, ld_n, dst + p * pstride);
    }
  }
}

/* Panels [p0, p1) of every K block (the bias row is written by the caller); stage (or NULL):
 * STAGE_FLOATS floats to gather the source rows into (a load). */
static void pack_panels(const tfcc_f32_gemm_kernel *k, size_t N, size_t K, const float *src,
                        size_t ld_n, size_t ld_k, float *w, size_t p0, size_t p1, float *stage) {
  const size_t nr = (size_t)k->nr, panels = (N + nr - 1) / nr, kc = tfcc_f32_pack_kc(k, K);
  const size_t row = panels * nr;
  for (size_t k0 = 0; k0 < K; k0 += kc) {
    const size_t kn = K - k0 < kc ? K - k0 : kc;
    if (ld_k == 1 && ld_n != 1 && nr <= NR_MAX) { /* B stored N x K: through the tile */
      pack_block(nr, N, kn, src + k0, ld_n, w + row * (1 + k0), kn * nr, p0, p1, stage);
      continue;
    }
    for (size_t p = p0; p < p1; p++) {
      const size_t n0 = p * nr, nc = N - n0 < nr ? N - n0 : nr;
      float *dst = w + row * (1 + k0) + p * kn * nr; /* gemm.h: tfcc_f32_panel_block */
      for (size_t kk = k0; kk < k0 + kn; kk++, dst += nr) {
        if (ld_n == 1) { /* B stored K x N (BATCH_MATMUL rhs): rows copy straight */
          memcpy(dst, src + kk * ld_k + n0, nc * sizeof(float));
        } else {
          for (size_t j = 0; j < nc; j++) dst[j] = src[(n0 + j) * ld_n + kk * ld_k];
        }
        for (size_t j = nc; j < nr; j++) dst[j] = 0.0f;
      }
    }
  }
}

static void pack_begin(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim, const float *bias,
                       float *w, tfcc_f32_packed *out) {
  const size_t nr = (size_t)k->nr, N = (size_t)n;
  const size_t panels = (N + nr - 1) / nr;
  out->k = k;
  out->n = n;
  out->kdim = kdim;
  out->kc = (int32_t)tfcc_f32_pack_kc(k, (size_t)kdim);
  out->w = w;
  for (size_t j = 0; j < panels * nr; j++) w[j] = bias && j < N ? bias[j] : 0.0f;
}

void tfcc_f32_pack_into(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim, const float *src,
                        size_t ld_n, size_t ld_k, const float *bias, float *w,
                        tfcc_f32_packed *out) {
  pack_begin(k, n, kdim, bias, w, out);
  const size_t nr = (size_t)k->nr;
  pack_panels(k, (size_t)n, (size_t)kdim, src, ld_n, ld_k, w, 0, ((size_t)n + nr - 1) / nr, NULL);
}

typedef struct pack_job {
  const tfcc_f32_gemm_kernel *k;
  size_t N, K, ld_n, ld_k;
  const float *src;
  float *w;
} pack_job;

static void pack_job_range(void *ctx, size_t p0, size_t p1) {
  const pack_job *j = ctx;
  /* a load: the source rows go through a gather buffer (none: read in place) */
  float *stage = malloc(STAGE_FLOATS * sizeof(float));
  pack_panels(j->k, j->N, j->K, j->src, j->ld_n, j->ld_k, j->w, p0, p1, stage);
  free(stage);
}

/* Below this many bytes a packing runs on the caller alone. */
#define SPLIT_BYTES ((size_t)256 << 10)

bool tfcc_f32_pack_pool(struct tfcc_threadpool *pool, const tfcc_f32_gemm_kernel *k, int32_t n,
                        int32_t kdim, const float *src, size_t ld_n, size_t ld_k, const float *bias,
                        tfcc_f32_packed *out) {
  memset(out, 0, sizeof *out);
  if (n < 0 || kdim < 0) return false;
  const size_t bytes = tfcc_f32_packed_bytes(k, n, kdim);
  float *w = tfcc_wmem_alloc(bytes); /* huge pages, populated: few first-touch faults */
  if (!w) return false;
  pack_begin(k, n, kdim, bias, w, out);
  const size_t panels = ((size_t)n + (size_t)k->nr - 1) / (size_t)k->nr;
  const int threads = tfcc_threadpool_size(pool);
  pack_job j = {k, (size_t)n, (size_t)kdim, ld_n, ld_k, src, w};
  if (threads > 1 && bytes >= SPLIT_BYTES && panels > 1)
    tfcc_threadpool_run_split(pool, panels, (size_t)threads, pack_job_range, &j);
  else
    pack_job_range(&j, 0, panels);
  return true;
}

/* Streamed packing (gemm.h, tfcc_f32_pack_stream): the same pieces, by the same pack_block, in
 * another order of writing, and why it needs one. The layout is [bias row][K block 0]...
 * [K block B-1], block b holding every panel's kn_b x NR piece: K-block-major, because the
 * GEMM sweeps every panel of one K block while that block's rows of A stay in L1
 * (tfcc_f32_panel_block), and the weights cache stores that layout. One panel (NR contiguous
 * source rows) writes into every block, so packed in the final order, the first panel would
 * make the whole block resident while the whole source still is:
 * the peak the streaming exists to cut. Instead the first C = B - 1 blocks
 * (all kc deep) are written panel-major, panel p's C pieces one after the other from the end of
 * the bias row on, so that the block is written front to back as the source is read front to
 * back; the last block (kn_last deep, maybe shorter) is written in place. Once every panel is
 * packed, the P x C pieces are transposed in place into the C x P order of the layout (with
 * one K block, C <= 1, the two orders are one and nothing moves). Packing panel-major into
 * the final layout directly would need the K-block-major layout changed in every f32 GEMM
 * kernel and cache file; a K-block-major streamed write cannot give the source back before
 * the last block is reached. The bytes equal tfcc_f32_pack_pool's (ops test_weights_pack and
 * lifecycle test_stream_release compare them). */

/* Source bytes per chunk of panels between two releases of the source read so far. */
#define STREAM_CHUNK_BYTES ((size_t)1 << 20)

typedef struct stream_job {
  const tfcc_f32_gemm_kernel *k;
  size_t N, K, ld_n, P, C, kc;
  const float *src;
  float *w;
  float *last; /* the last block's pieces (C < B), in the layout's order */
} stream_job;

/* Panels [p0, p1): pieces of the first C blocks panel-major, the last block's (if C < B) into
 * j->last. */
static void stream_panels(const stream_job *j, size_t p0, size_t p1, float *stage) {
  const size_t nr = (size_t)j->k->nr, row = j->P * nr, S = j->kc * nr;
  for (size_t b = 0, k0 = 0; k0 < j->K; b++, k0 += j->kc) {
    const size_t kn = j->K - k0 < j->kc ? j->K - k0 : j->kc;
    float *dst = b < j->C ? j->w + row + b * S : j->last;
    const size_t pstride = b < j->C ? j->C * S : kn * nr;
    pack_block(nr, j->N, kn, j->src + k0, j->ld_n, dst, pstride, p0, p1, stage);
  }
}

/* A chunk of panels from `first` on, split across threads. */
typedef struct stream_chunk {
  const stream_job *j;
  size_t first;
} stream_chunk;

static void stream_chunk_range(void *ctx, size_t p0, size_t p1) {
  const stream_chunk *c = ctx;
  float *stage = malloc(STAGE_FLOATS * sizeof(float)); /* NULL: read in place */
  stream_panels(c->j, c->first + p0, c->first + p1, stage);
  free(stage);
}

/* The R x C matrix of items of S floats at a (row-major) made its C x R transpose, in place:
 * item i = r * C + c goes to c * R + r; each cycle of that permutation is followed once, its
 * first item held in tmp. seen: R * C bits, zeroed. */
static void transpose_items(float *a, size_t R, size_t C, size_t S, float *tmp, uint8_t *seen) {
  const size_t n = R * C, bytes = S * sizeof(float);
  for (size_t s = 0; s < n; s++) {
    if (seen[s / 8] & (1u << (s % 8))) continue;
    seen[s / 8] |= (uint8_t)(1u << (s % 8));
    size_t from = (s % R) * C + s / R; /* the item that goes to s */
    if (from == s) continue;
    memcpy(tmp, a + s * S, bytes);
    size_t to = s;
    while (from != s) {
      memcpy(a + to * S, a + from * S, bytes);
      seen[from / 8] |= (uint8_t)(1u << (from % 8));
      to = from;
      from = (to % R) * C + to / R;
    }
    memcpy(a + to * S, tmp, bytes);
  }
}

bool tfcc_f32_pack_stream(struct tfcc_threadpool *pool, const tfcc_f32_gemm_kernel *k, int32_t n,
                          int32_t kdim, const float *src, size_t ld_n, const float *bias,
                          tfcc_f32_packed *out, tfcc_f32_pack_release_fn release, void *user) {
  memset(out, 0, sizeof *out);
  if (n <= 0 || kdim <= 0 || ld_n < (size_t)kdim || (size_t)k->nr > NR_MAX || !release)
    return false;
  const size_t nr = (size_t)k->nr, N = (size_t)n, K = (size_t)kdim;
  const size_t P = (N + nr - 1) / nr, kc = tfcc_f32_pack_kc(k, K), B = (K + kc - 1) / kc;
  const size_t kn_last = K - (B - 1) * kc;
  /* blocks written panel-major: all, when they are all kc deep (one block: its own order) */
  const size_t C = kn_last == kc ? B : B - 1;
  const size_t S = kc * nr, row = P * nr, bytes = tfcc_f32_packed_bytes(k, n, kdim);
  const size_t last_floats = C < B ? P * nr * kn_last : 0;
  /* everything that can fail, before the first byte of the source is given back */
  float *tmp = C > 1 ? malloc(S * sizeof(float)) : NULL;
  uint8_t *seen = C > 1 ? calloc((P * C + 7) / 8, 1) : NULL;
  float *last = last_floats ? malloc(last_floats * sizeof(float)) : NULL;
  float *w = (C <= 1 || (tmp && seen)) && (!last_floats || last)
                 ? tfcc_wmem_alloc_unpopulated(bytes)
                 : NULL;
  if (!w) {
    free(tmp);
    free(seen);
    free(last);
    return false;
  }
  tfcc_wmem_populate(w, row * sizeof(float)); /* the bias row */
  pack_begin(k, n, kdim, bias, w, out);
  const size_t panel_src = nr * ld_n * sizeof(float);
  const size_t chunk = panel_src >= STREAM_CHUNK_BYTES ? 1 : STREAM_CHUNK_BYTES / panel_src;
  const int threads = tfcc_threadpool_size(pool);
  stream_job j = {k, N, K, ld_n, P, C, kc, src, w, last};
  for (size_t p0 = 0; p0 < P; p0 += chunk) {
    const size_t p1 = P - p0 < chunk ? P : p0 + chunk;
    tfcc_wmem_populate(w + row + p0 * C * S, (p1 - p0) * C * S * sizeof(float));
    stream_chunk c = {&j, p0};
    if (threads > 1 && p1 - p0 > 1)
      tfcc_threadpool_run_split(pool, p1 - p0, (size_t)threads, stream_chunk_range, &c);
    else
      stream_chunk_range(&c, 0, p1 - p0);
    const size_t rows = p1 * nr < N ? p1 * nr : N;
    release(user, rows < N ? rows * ld_n * sizeof(float) : ((N - 1) * ld_n + K) * sizeof(float));
  }
  if (C > 1) transpose_items(w + row, P, C, S, tmp, seen);
  if (last) { /* populated in one call, not a fault per page where the block's tail is small */
    tfcc_wmem_populate(w + row * (1 + C * kc), last_floats * sizeof(float));
    memcpy(w + row * (1 + C * kc), last, last_floats * sizeof(float));
  }
  const size_t used = row * (1 + K) * sizeof(float); /* the padding to 64 bytes: zeros */
  memset((uint8_t *)w + used, 0, bytes - used);
  free(tmp);
  free(seen);
  free(last);
  return true;
}

bool tfcc_f32_pack(const tfcc_f32_gemm_kernel *k, int32_t n, int32_t kdim, const float *src,
                   size_t ld_n, size_t ld_k, const float *bias, tfcc_f32_packed *out) {
  return tfcc_f32_pack_pool(NULL, k, n, kdim, src, ld_n, ld_k, bias, out);
}
void tfcc_f32_packed_free(tfcc_f32_packed *p) {
  if (!p) return;
  tfcc_wmem_free(p->w);
  p->w = NULL;
}

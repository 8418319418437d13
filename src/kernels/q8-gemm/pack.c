/* Packs 8-bit weights into the panel layout of one micro-kernel (see gemm.h). */
#include <stdlib.h>
#include <string.h>

#include "base/kernel_copy.h"
#include "base/threadpool.h"
#include "base/weights_mem.h"
#include "kernels/move/move.h"
#include "kernels/q8-gemm/gemm.h"

size_t tfcc_q8_pack_layout(const tfcc_q8_gemm_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                           const tfcc_conv_requant *r, tfcc_q8_packed *out) {
  memset(out, 0, sizeof *out);
  const int32_t kb = tfcc_q8_gemm_k_block(k);
  if (n <= 0 || kdim <= 0 || kdim > INT32_MAX - (kb - 1)) return 0;
  out->k = k;
  out->n = n;
  out->kdim = kdim;
  out->kpad = (kdim + kb - 1) / kb * kb;
  out->is_signed = is_signed;
  const uint8_t wx = tfcc_q8_gemm_stored_xor(k, is_signed);
  out->kz = !wx ? r->filter_offset : is_signed ? r->filter_offset - 128 : r->filter_offset + 128;
  out->fp32 = r->scale != NULL;
  const size_t nr = (size_t)k->nr;
  const size_t panels = ((size_t)n + nr - 1) / nr;
  const size_t panel = tfcc_q8_panel_bytes(out);
  if (panels > (SIZE_MAX - 63) / panel) return 0;
  return (panels * panel + 63) & ~(size_t)63;
}

/* Bytes of the buffer the source rows are gathered into (base/kernel_copy.h), under malloc's
 * mmap threshold so that its pages are reused from one packing to the next. */
#define STAGE_BYTES ((size_t)64 << 10)

/* Sum of a row's stored bytes (x xor wx), read as int8 (sgn) or uint8, modulo 2^32. */
static uint32_t row_sum(const uint8_t *row, size_t n, uint8_t wx, bool sgn) {
  uint32_t sum = 0;
  if (sgn)
    for (size_t i = 0; i < n; i++) sum += (uint32_t)(int32_t)(int8_t)(uint8_t)(row[i] ^ wx);
  else
    for (size_t i = 0; i < n; i++) sum += (uint32_t)(uint8_t)(row[i] ^ wx);
  return sum;
}

/* Weights of panel rows [0, nc) (row j at s + j * kdim) into pw, where the layout interleaves
 * units of `unit` bytes of K (4: the dword layout, 8: pairs, 2: the AVX2 kernel's int8 c2
 * layout; gemm.h): unit u of row j goes to
 * pw + (u * nr + j) * unit, a 2-D transpose of units done by the move kernel's blocked tiles,
 * the rows first gathered by the kernel into stage (NULL, or a gather refused: read in place).
 * The stored bytes are x xor wx (padding stays zero); sums[j]: row j's row_sum. */
static void fill_units(const uint8_t *s, size_t kdim, size_t nc, size_t nr, size_t unit, uint8_t wx,
                       bool sgn, uint8_t *pw, uint32_t *sums, uint8_t *stage) {
  const size_t units = kdim / unit;
  const size_t rows = kdim <= STAGE_BYTES ? STAGE_BYTES / kdim : 0;
  for (size_t j0 = 0; j0 < nc;) {
    size_t rn = nc - j0;
    const uint8_t *rs = s + j0 * kdim;
    if (stage && rows) {
      rn = rn < rows ? rn : rows;
      if (tfcc_kernel_gather(stage, rs, rn * kdim, rn * kdim, 1)) rs = stage;
    }
    const int32_t dims[2] = {(int32_t)units, (int32_t)rn};
    const int64_t in_strides[2] = {1, (int64_t)units}, out_strides[2] = {(int64_t)nr, 1};
    tfcc_move_copy_nd(2, dims, rs, 0, in_strides, pw + j0 * unit, 0, out_strides, unit);
    for (size_t j = 0; j < rn; j++) sums[j0 + j] = row_sum(rs + j * kdim, kdim, wx, sgn);
    j0 += rn;
  }
  if (wx)
    for (size_t u = 0; u < units; u++) {
      uint8_t *d = pw + u * nr * unit;
      for (size_t i = 0; i < nc * unit; i++) d[i] ^= wx;
    }
}

/* Widest c2 panel packed by the depth-outer loop of fill_panels (its column sums on
 * the stack). */
#define C2_MAX_NR 64

/* Panels [p0, p1) of out's layout into w (their bytes zeroed first), with sums (nr words) and
 * stage (STAGE_BYTES) for the transposed layouts, or NULL: element by element. src holds the
 * weights from row row0 on (row n at src + (n - row0) * kdim). */
static void fill_panels(const tfcc_q8_packed *out, const void *src, size_t row0,
                        const int32_t *bias, const tfcc_conv_requant *r, uint8_t *w, size_t p0,
                        size_t p1, uint32_t *sums, uint8_t *stage) {
  const tfcc_q8_gemm_kernel *k = out->k;
  const int32_t n = out->n, kdim = out->kdim;
  const bool is_signed = out->is_signed;
  const uint8_t wx = tfcc_q8_gemm_stored_xor(k, is_signed);
  const bool stored_signed = is_signed != (wx != 0); /* how the stored bytes are read */
  const size_t nr = (size_t)k->nr;
  const size_t panel = tfcc_q8_panel_bytes(out);
  memset(w + p0 * panel, 0, (p1 - p0) * panel);
  const uint8_t *s = src;
  const uint32_t io = (uint32_t)r->input_offset;
  const uint32_t kconst = (uint32_t)kdim * io * (uint32_t)out->kz;
  const bool pairs = tfcc_q8_gemm_pair_layout(k), c2 = tfcc_q8_gemm_c2_layout(k);
  const bool c2_w8 = tfcc_q8_gemm_rows16(k); /* int8 pairs, else int16 */
  /* the byte layouts: whole units of K per row (else element by element) */
  const size_t unit = c2_w8 ? 2 : c2 ? 0 : pairs ? 8 : 4;
  if (!unit || (size_t)kdim % unit != 0 || (size_t)kdim / unit > INT32_MAX || nr > INT32_MAX)
    sums = NULL;
  for (size_t p = p0; p < p1; p++) {
    uint8_t *dst = w + p * panel;
    int32_t *pb = (int32_t *)(void *)dst;
    float *ps = (float *)(void *)(dst + nr * 4);
    uint8_t *pw = dst + nr * 8;
    const size_t n0 = p * nr, nc = (size_t)n - n0 < nr ? (size_t)n - n0 : nr;
    if (sums)
      fill_units(s + (n0 - row0) * (size_t)kdim, (size_t)kdim, nc, nr, unit, wx, stored_signed, pw,
                 sums, stage);
    /* pairs: depth outer, the panel's columns inner (its groups written in order, the source
       rows read as nc streams); the sums of the stored values on the way */
    uint32_t c2_sums[C2_MAX_NR];
    const bool c2_fast = c2 && !sums && nr <= C2_MAX_NR;
    if (c2_fast) {
      const uint8_t *rows = s + (n0 - row0) * (size_t)kdim;
      for (size_t j = 0; j < nc; j++) c2_sums[j] = 0;
      for (size_t kk = 0; kk < (size_t)kdim; kk++) {
        const size_t at = (kk / 2) * nr * 2 + kk % 2;
        int16_t *d = (int16_t *)(void *)pw + at;
        uint8_t *d8 = pw + at;
        for (size_t j = 0; j < nc; j++) {
          const uint8_t v = (uint8_t)(rows[j * (size_t)kdim + kk] ^ wx);
          const int32_t e = stored_signed ? (int32_t)(int8_t)v : (int32_t)v;
          if (c2_w8)
            d8[j * 2] = v;
          else
            d[j * 2] = (int16_t)e;
          c2_sums[j] += (uint32_t)e;
        }
      }
    }
    for (size_t j = 0; j < nc; j++) {
      uint32_t sum = 0;
      if (sums) {
        sum = sums[j];
      } else if (c2_fast) {
        sum = c2_sums[j];
      } else {
        const uint8_t *row = s + (n0 - row0 + j) * (size_t)kdim;
        for (size_t kk = 0; kk < (size_t)kdim; kk++) {
          const uint8_t v = (uint8_t)(row[kk] ^ wx);
          const int32_t e = stored_signed ? (int32_t)(int8_t)v : (int32_t)v;
          if (pairs)
            pw[(kk / 8) * nr * 8 + (j / 2) * 16 + (j % 2) * 8 + kk % 8] = v;
          else if (c2_w8)
            pw[(kk / 2) * nr * 2 + j * 2 + kk % 2] = v;
          else if (c2) {
            const int16_t e16 = (int16_t)e;
            memcpy(pw + ((kk / 2) * nr * 2 + j * 2 + kk % 2) * 2, &e16, 2);
          } else
            pw[(kk / 4) * nr * 4 + j * 4 + kk % 4] = v;
          sum += (uint32_t)e;
        }
      }
      const uint32_t b = bias ? (uint32_t)bias[n0 + j] : 0u;
      /* activations xor 0x80 in the kernel: x + 128 (int8), x - 128 (uint8) */
      const uint32_t xfix = !k->x_xor ? 0u : is_signed ? 0u - 128u * sum : 128u * sum;
      pb[j] = (int32_t)(b + io * sum + kconst + xfix);
      ps[j] = r->scale ? r->scale[(n0 + j) * (size_t)r->mult_stride] : 0.0f;
    }
  }
}

typedef struct fill_job {
  const tfcc_q8_packed *out;
  const void *src;
  const int32_t *bias;
  const tfcc_conv_requant *r;
  uint8_t *w;
} fill_job;

/* Panels [p0, p1) with buffers of the calling thread's own (none: element by element). */
static void fill_job_range(void *ctx, size_t p0, size_t p1) {
  const fill_job *j = ctx;
  uint32_t *sums = malloc((size_t)j->out->k->nr * sizeof *sums);
  uint8_t *stage = sums ? malloc(STAGE_BYTES) : NULL;
  fill_panels(j->out, j->src, 0, j->bias, j->r, j->w, p0, p1, stage ? sums : NULL, stage);
  free(stage);
  free(sums);
}

/* Below this many bytes a packing runs on the caller alone. */
#define SPLIT_BYTES ((size_t)256 << 10)

static void fill_pool(struct tfcc_threadpool *pool, tfcc_q8_packed *out, const void *src,
                      const int32_t *bias, const tfcc_conv_requant *r, uint8_t *w, size_t bytes) {
  const size_t panels = ((size_t)out->n + (size_t)out->k->nr - 1) / (size_t)out->k->nr;
  const size_t used = panels * tfcc_q8_panel_bytes(out);
  memset(w + used, 0, bytes - used);
  fill_job j = {out, src, bias, r, w};
  const int threads = pool ? tfcc_threadpool_size(pool) : 1;
  if (threads > 1 && bytes >= SPLIT_BYTES && panels > 1)
    tfcc_threadpool_run_split(pool, panels, (size_t)threads, fill_job_range, &j);
  else
    fill_job_range(&j, 0, panels);
  out->w = w;
}

void tfcc_q8_pack_fill(tfcc_q8_packed *out, const void *src, const int32_t *bias,
                       const tfcc_conv_requant *r, uint8_t *w, size_t bytes) {
  fill_pool(NULL, out, src, bias, r, w, bytes);
}

bool tfcc_q8_pack_fill_rows(tfcc_q8_packed *out, const void *src, size_t p0, size_t p1,
                            const tfcc_conv_requant *r, uint8_t *w, size_t bytes) {
  const size_t nr = (size_t)out->k->nr, panel = tfcc_q8_panel_bytes(out);
  const size_t panels = ((size_t)out->n + nr - 1) / nr;
  if (p0 >= p1 || p1 > panels) return false;
  uint32_t *sums = malloc(nr * sizeof *sums);
  uint8_t *stage = sums ? malloc(STAGE_BYTES) : NULL;
  fill_panels(out, src, p0 * nr, NULL, r, w, p0, p1, stage ? sums : NULL, stage);
  free(stage);
  free(sums);
  if (p1 == panels) memset(w + panels * panel, 0, bytes - panels * panel);
  out->w = w;
  return true;
}

bool tfcc_q8_pack_pool(struct tfcc_threadpool *pool, const tfcc_q8_gemm_kernel *k, bool is_signed,
                       int32_t n, int32_t kdim, const void *src, const int32_t *bias,
                       const tfcc_conv_requant *r, tfcc_q8_packed *out) {
  const size_t bytes = tfcc_q8_pack_layout(k, is_signed, n, kdim, r, out);
  if (!bytes) return false;
  uint8_t *w = tfcc_wmem_alloc(bytes); /* huge pages, populated: few first-touch faults */
  if (!w) return false;
  fill_pool(pool, out, src, bias, r, w, bytes);
  return true;
}

bool tfcc_q8_pack(const tfcc_q8_gemm_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                  const void *src, const int32_t *bias, const tfcc_conv_requant *r,
                  tfcc_q8_packed *out) {
  return tfcc_q8_pack_pool(NULL, k, is_signed, n, kdim, src, bias, r, out);
}

void tfcc_q8_packed_free(tfcc_q8_packed *p) {
  if (!p) return;
  tfcc_wmem_free(p->w);
  p->w = NULL;
}

/* Weight packing at load: the f32 GEMM panels and the 8-bit GEMM panels are the bytes of a
 * straightforward element-by-element packer (the layouts of kernels/f32-gemm/gemm.h and
 * kernels/q8-gemm/gemm.h), for source rows gathered by the kernel (base/kernel_copy.h) and
 * read in place, on shapes around the gather buffer's and the K block's sizes: panel widths
 * 4 to 32, partial last panels, depths not a multiple of the interleaved unit, strided rows.
 * The 8-bit layouts: dword (x86, generic; weights xor 0x80 or as they are) and I8MM pairs
 * (a kernel description only: nothing is run). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/kernel_copy.h"
#include "base/threadpool.h"
#include "cpu/cpu_info.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/q8-gemm/gemm.h"
#include "test_harness.h"

static uint32_t rng = 12345u;
static tfcc_threadpool *pool2; /* 2 threads: the packings split by panels */
static uint32_t next(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static void test_gather(void) {
  const size_t rows = 600, row_bytes = 37, stride = 101; /* more rows than one system call */
  uint8_t *src = malloc(rows * stride), *dst = malloc(rows * row_bytes + 1);
  CHECK(src && dst);
  if (!src || !dst) goto out;
  for (size_t i = 0; i < rows * stride; i++) src[i] = (uint8_t)next();
  dst[rows * row_bytes] = 0xA5;
  if (tfcc_kernel_gather(dst, src, row_bytes, stride, rows)) {
    for (size_t r = 0; r < rows; r++)
      CHECKF(memcmp(dst + r * row_bytes, src + r * stride, row_bytes) == 0, "row %zu", r);
    CHECK(dst[rows * row_bytes] == 0xA5);            /* nothing past the rows */
    CHECK(tfcc_kernel_gather(dst, src, 64, 64, 50)); /* contiguous */
    CHECK(memcmp(dst, src, 64 * 50) == 0);
  } else {
    fprintf(stderr, "note: kernel gather not available here; packing reads in place\n");
  }
out:
  free(src);
  free(dst);
}

/* A region registered as whole huge pages (tfcc_kernel_copy_whole_add): a gather from it is
 * declined (read in place) until a piece of one of its huge pages is given back
 * (tfcc_kernel_copy_split); then a gather touching that huge page copies, one beside it is
 * still declined, and after the region is removed every gather copies again. Packing from the
 * region (in place) gives the same bytes as packing from a copy of it (gathered). */
static void test_whole_regions(void) {
  const size_t huge = (size_t)2 << 20, len = 3 * huge;
  uint8_t *raw = mmap(NULL, len + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(raw != MAP_FAILED);
  if (raw == MAP_FAILED) return;
  uint8_t *r = (uint8_t *)(((uintptr_t)raw + huge - 1) & ~(uintptr_t)(huge - 1));
#ifdef MADV_HUGEPAGE
  (void)madvise(r, len, MADV_HUGEPAGE);
#endif
  for (size_t i = 0; i < len; i++) r[i] = (uint8_t)next();
  uint8_t *dst = malloc(64 << 10);
  CHECK(dst != NULL);
  const bool gathers = dst && tfcc_kernel_gather(dst, r, 64, 128, 100); /* not registered */
  CHECK(!tfcc_kernel_copy_whole_add(r + 4096, huge));                   /* not 2 MiB aligned */
  CHECK(tfcc_kernel_copy_whole_add(r, len));
  if (gathers) {
    CHECK(!tfcc_kernel_gather(dst, r + 100, 64, 128, 100));        /* in place */
    CHECK(!tfcc_kernel_gather(dst, r + huge - 640, 64, 128, 100)); /* across two whole pages */
    CHECK(tfcc_kernel_gather(dst, r + len - 100, 64, 64, 2));      /* past the region's end */
    CHECK(memcmp(dst, r + len - 100, 100) == 0);
  }
  /* f32 packing from the region (read in place) against the same rows copied elsewhere */
  tfcc_f32_gemm_kernel k;
  memset(&k, 0, sizeof k);
  k.name = "layout";
  k.mr = 4;
  k.nr = 16;
  const int32_t n = 200, kdim = 300;
  float *src = (float *)(void *)(r + huge / 2), *copy = malloc((size_t)n * kdim * sizeof(float));
  CHECK(copy != NULL);
  for (size_t i = 0; i < (size_t)n * kdim; i++) src[i] = (float)(int32_t)(next() % 2001) - 1000;
  tfcc_f32_packed a, b;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  if (copy) {
    memcpy(copy, src, (size_t)n * kdim * sizeof(float));
    CHECK(tfcc_f32_pack_pool(pool2, &k, n, kdim, src, (size_t)kdim, 1, NULL, &a));
    CHECK(tfcc_f32_pack_pool(pool2, &k, n, kdim, copy, (size_t)kdim, 1, NULL, &b));
    if (a.w && b.w) CHECK(memcmp(a.w, b.w, tfcc_f32_packed_bytes(&k, n, kdim)) == 0);
  }
  tfcc_f32_packed_free(&a);
  tfcc_f32_packed_free(&b);
  /* asked of the range itself: whole while every 2 MiB is a huge page (where the kernel gave
   * them: THP off or none free leaves it false), never after a piece of one is given back */
  const bool huge_now = tfcc_huge_pages_whole(r, len);
  CHECK(!tfcc_huge_pages_whole(r + 4096, huge)); /* not 2 MiB aligned */
  CHECK(!tfcc_huge_pages_whole(r, huge + 4096)); /* not whole 2 MiB */
  if (huge_now) CHECK(tfcc_huge_pages_whole(r + huge, huge));
  /* a piece of the second huge page given back: it is split, the first and third are not */
  CHECK(madvise(r + huge + 8192, 4096, MADV_DONTNEED) == 0);
  CHECK(!tfcc_huge_pages_whole(r, len));
  CHECK(!tfcc_huge_pages_whole(r + huge, huge));
  if (huge_now) CHECK(tfcc_huge_pages_whole(r, huge) && tfcc_huge_pages_whole(r + 2 * huge, huge));
  tfcc_kernel_copy_split(r + huge + 8192, r + huge + 12288);
  if (gathers) {
    CHECK(tfcc_kernel_gather(dst, r + huge + 100, 64, 64, 10));
    CHECK(memcmp(dst, r + huge + 100, 640) == 0);
    CHECK(tfcc_kernel_gather(dst, r + huge - 640, 64, 128, 100)); /* reaches into it */
    CHECK(!tfcc_kernel_gather(dst, r + 100, 64, 128, 100));
    CHECK(!tfcc_kernel_gather(dst, r + 2 * huge + 100, 64, 128, 100));
  }
  /* whole huge pages given back split nothing */
  tfcc_kernel_copy_split(r + 2 * huge, r + 3 * huge);
  if (gathers) CHECK(!tfcc_kernel_gather(dst, r + 2 * huge + 100, 64, 128, 100));
  tfcc_kernel_copy_whole_remove(r);
  if (gathers) {
    CHECK(tfcc_kernel_gather(dst, r + 100, 64, 128, 100));
    for (size_t i = 0; i < 100; i++) CHECK(memcmp(dst + i * 64, r + 100 + i * 128, 64) == 0);
  }
  free(copy);
  free(dst);
  munmap(raw, len + huge);
}

/* f32: tfcc_f32_pack (a load: gathered rows) and tfcc_f32_pack_into (in place) against the
 * layout, element by element. */
static void check_f32(int nr, int32_t n, int32_t kdim, size_t ld_n) {
  tfcc_f32_gemm_kernel k;
  memset(&k, 0, sizeof k);
  k.name = "layout";
  k.mr = 4;
  k.nr = nr;
  float *src = malloc((size_t)n * ld_n * sizeof(float) + 4);
  float *bias = malloc((size_t)n * sizeof(float) + 4);
  const size_t bytes = tfcc_f32_packed_bytes(&k, n, kdim);
  float *ref = calloc(1, bytes), *w2 = malloc(bytes);
  CHECK(src && bias && ref && w2);
  if (!src || !bias || !ref || !w2) goto out;
  for (size_t i = 0; i < (size_t)n * ld_n; i++) src[i] = (float)(int32_t)(next() % 2001) - 1000;
  for (int32_t i = 0; i < n; i++) bias[i] = (float)i + 0.5f;
  const size_t panels = ((size_t)n + (size_t)nr - 1) / (size_t)nr, row = panels * (size_t)nr;
  const size_t kc = tfcc_f32_pack_kc(&k, (size_t)kdim);
  for (size_t j = 0; j < (size_t)n; j++) ref[j] = bias[j];
  for (size_t k0 = 0; k0 < (size_t)kdim; k0 += kc) {
    const size_t kn = (size_t)kdim - k0 < kc ? (size_t)kdim - k0 : kc;
    for (size_t p = 0; p < panels; p++)
      for (size_t kk = 0; kk < kn; kk++)
        for (size_t j = 0; j < (size_t)nr; j++) {
          const size_t c = p * (size_t)nr + j;
          ref[row * (1 + k0) + p * kn * (size_t)nr + kk * (size_t)nr + j] =
              c < (size_t)n ? src[c * ld_n + k0 + kk] : 0.0f;
        }
  }
  const size_t used = (row * (1 + (size_t)kdim)) * sizeof(float);
  tfcc_f32_packed pk;
  CHECK(tfcc_f32_pack(&k, n, kdim, src, ld_n, 1, bias, &pk));
  if (pk.w)
    CHECKF(memcmp(pk.w, ref, used) == 0, "f32 pack nr %d n %d k %d ld %zu", nr, n, kdim, ld_n);
  tfcc_f32_packed_free(&pk);
  CHECK(tfcc_f32_pack_pool(pool2, &k, n, kdim, src, ld_n, 1, bias, &pk));
  if (pk.w)
    CHECKF(memcmp(pk.w, ref, used) == 0, "f32 pack (pool) nr %d n %d k %d ld %zu", nr, n, kdim,
           ld_n);
  tfcc_f32_packed_free(&pk);
  tfcc_f32_packed p2;
  tfcc_f32_pack_into(&k, n, kdim, src, ld_n, 1, bias, w2, &p2);
  CHECKF(memcmp(w2, ref, used) == 0, "f32 pack_into nr %d n %d k %d ld %zu", nr, n, kdim, ld_n);
out:
  free(src);
  free(bias);
  free(ref);
  free(w2);
}

/* The source given back as a streamed packing goes: each release call's whole pages are made
 * inaccessible at once (a later read of them faults), the calls only grow, and the last one
 * names the whole source. */
typedef struct trap_src {
  uint8_t *base;
  size_t extent, done, calls;
  bool ok;
} trap_src;

static void trap_release(void *user, size_t bytes) {
  trap_src *t = user;
  const size_t pg = 4096;
  if (bytes < t->done || bytes > t->extent) t->ok = false;
  t->calls++;
  const size_t a = (t->done + pg - 1) / pg * pg, b = bytes / pg * pg;
  if (b > a && mprotect(t->base + a, b - a, PROT_NONE) != 0) t->ok = false;
  if (bytes > t->done) t->done = bytes;
}

/* tfcc_f32_pack_stream (1 and 2 threads) gives tfcc_f32_pack's bytes, and never reads a source
 * byte after it said so (release calls after each chunk of about 1 MiB of source rows). */
static void check_f32_stream(int nr, int32_t n, int32_t kdim, size_t ld_n) {
  tfcc_f32_gemm_kernel k;
  memset(&k, 0, sizeof k);
  k.name = "layout";
  k.mr = 4;
  k.nr = nr;
  const size_t extent = ((size_t)(n - 1) * ld_n + (size_t)kdim) * sizeof(float);
  const size_t map = (extent + 4095) / 4096 * 4096, count = extent / sizeof(float);
  float *bias = malloc((size_t)n * sizeof(float)), *keep = malloc(extent);
  uint8_t *m = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(bias && keep && m != MAP_FAILED);
  tfcc_f32_packed ref;
  memset(&ref, 0, sizeof ref);
  if (!bias || !keep || m == MAP_FAILED) goto out;
  float *src = (float *)(void *)m;
  for (int32_t i = 0; i < n; i++) bias[i] = (float)(int32_t)(next() % 2001) - 1000;
  for (size_t i = 0; i < count; i++) keep[i] = (float)(int32_t)(next() % 2001) - 1000;
  memcpy(src, keep, extent);
  CHECK(tfcc_f32_pack(&k, n, kdim, src, ld_n, 1, bias, &ref));
  for (int threads = 1; threads <= 2 && ref.w; threads++) {
    trap_src t = {m, extent, 0, 0, true};
    tfcc_f32_packed pk;
    CHECK(tfcc_f32_pack_stream(threads == 2 ? pool2 : NULL, &k, n, kdim, src, ld_n, bias, &pk,
                               trap_release, &t));
    CHECKF(t.ok && t.done == extent && t.calls >= 1, "stream release nr %d n %d k %d: %zu of %zu",
           nr, n, kdim, t.done, extent);
    const size_t used = ((size_t)n + (size_t)nr - 1) / (size_t)nr * (size_t)nr *
                        (1 + (size_t)kdim) * sizeof(float); /* not the padding to 64 bytes */
    if (pk.w)
      CHECKF(memcmp(pk.w, ref.w, used) == 0 && pk.kc == ref.kc,
             "f32 pack_stream nr %d n %d k %d ld %zu threads %d", nr, n, kdim, ld_n, threads);
    tfcc_f32_packed_free(&pk);
    CHECK(mprotect(m, map, PROT_READ | PROT_WRITE) == 0);
    memcpy(src, keep, extent);
  }
out:
  tfcc_f32_packed_free(&ref);
  if (m != MAP_FAILED) munmap(m, map);
  free(bias);
  free(keep);
}

/* q8: tfcc_q8_pack against the layout (weights xor w_xor, bias + row terms, scales). */
static void check_q8(int nr, bool pairs, uint8_t w_xor, uint8_t x_xor, bool is_signed, int32_t n,
                     int32_t kdim) {
  tfcc_q8_gemm_kernel k;
  memset(&k, 0, sizeof k);
  k.name = "layout";
  k.isa = TFCC_ISA_GENERIC;
  k.feature = pairs ? TFCC_CPU_I8MM : -1;
  k.w_xor = w_xor;
  k.x_xor = x_xor;
  k.mr = 4;
  k.nr = nr;
  uint8_t *src = malloc((size_t)n * (size_t)kdim);
  int32_t *bias = malloc((size_t)n * sizeof(int32_t));
  float *scale = malloc((size_t)n * sizeof(float));
  CHECK(src && bias && scale);
  if (!src || !bias || !scale) goto out;
  for (size_t i = 0; i < (size_t)n * (size_t)kdim; i++) src[i] = (uint8_t)next();
  for (int32_t i = 0; i < n; i++) {
    bias[i] = (int32_t)(next() % 100001) - 50000;
    scale[i] = 0.001f * (float)(i + 1);
  }
  tfcc_conv_requant r;
  memset(&r, 0, sizeof r);
  r.input_offset = 7;
  r.filter_offset = is_signed ? 3 : -120;
  r.scale = scale;
  r.mult_stride = 1;
  tfcc_q8_packed pk, pp;
  CHECK(tfcc_q8_pack(&k, is_signed, n, kdim, src, bias, &r, &pk));
  CHECK(tfcc_q8_pack_pool(pool2, &k, is_signed, n, kdim, src, bias, &r, &pp));
  if (!pk.w || !pp.w) goto out;
  /* the reference: every element where the layout puts it */
  const size_t panels = ((size_t)n + (size_t)nr - 1) / (size_t)nr;
  const size_t panel = tfcc_q8_panel_bytes(&pk), K = (size_t)kdim, NR = (size_t)nr;
  uint8_t *ref = calloc(panels, panel);
  CHECK(ref != NULL);
  if (ref) {
    const bool sgn = is_signed != (w_xor != 0);
    const uint32_t io = (uint32_t)r.input_offset, kconst = (uint32_t)kdim * io * (uint32_t)pk.kz;
    for (size_t c = 0; c < (size_t)n; c++) {
      const size_t p = c / NR, j = c % NR;
      uint8_t *dst = ref + p * panel;
      uint32_t sum = 0;
      for (size_t kk = 0; kk < K; kk++) {
        const uint8_t v = (uint8_t)(src[c * K + kk] ^ w_xor);
        dst[NR * 8 +
            (pairs ? (kk / 8) * NR * 8 + j * 8 + kk % 8 : (kk / 4) * NR * 4 + j * 4 + kk % 4)] = v;
        sum += sgn ? (uint32_t)(int32_t)(int8_t)v : (uint32_t)v;
      }
      const uint32_t xfix = !x_xor ? 0u : is_signed ? 0u - 128u * sum : 128u * sum;
      const int32_t b = (int32_t)((uint32_t)bias[c] + io * sum + kconst + xfix);
      memcpy(dst + j * 4, &b, 4);
      memcpy(dst + NR * 4 + j * 4, &scale[c], 4);
    }
    CHECKF(memcmp(pk.w, ref, panels * panel) == 0,
           "q8 pack nr %d pairs %d w_xor %d x_xor %d signed %d n %d k %d", nr, pairs, w_xor, x_xor,
           is_signed, n, kdim);
    free(ref);
  }
  tfcc_q8_packed_free(&pk);
out:
  free(src);
  free(bias);
  free(scale);
}

int main(void) {
  tfcc_err err = {0};
  CHECK(tfcc_threadpool_create(2, NULL, 0, &pool2, &err) == TFCC_OK);
  test_gather();
  test_whole_regions();
  const int f32_nr[] = {8, 16, 32};
  const int32_t f32_n[] = {1, 31, 33, 100, 1000};
  const int32_t f32_k[] = {1, 3, 16, 255, 257, 1280, 2001};
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 5; b++)
      for (int c = 0; c < 7; c++) {
        check_f32(f32_nr[a], f32_n[b], f32_k[c], (size_t)f32_k[c]);
        if (b == 2) check_f32(f32_nr[a], f32_n[b], f32_k[c], (size_t)f32_k[c] + 5);
        if (b >= 2) check_f32_stream(f32_nr[a], f32_n[b], f32_k[c], (size_t)f32_k[c]);
        if (b == 4) check_f32_stream(f32_nr[a], f32_n[b], f32_k[c], (size_t)f32_k[c] + 3);
      }
  const int q8_nr[] = {4, 8, 16, 32};
  const int32_t q8_n[] = {1, 7, 33, 300};
  const int32_t q8_k[] = {1, 3, 4, 8, 27, 64, 100, 4608, 70000}; /* 70000: a row over the buffer */
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++)
      for (int c = 0; c < 9; c++)
        for (int v = 0; v < 5; v++) {
          const bool pairs = v == 4, is_signed = v % 2 == 1;
          const uint8_t w_xor = v >= 2 && v < 4 ? 0x80 : 0, x_xor = v == 1 ? 0x80 : 0;
          if (q8_k[c] == 70000 && b > 1) continue;
          check_q8(q8_nr[a], pairs, w_xor, x_xor, is_signed, q8_n[b], q8_k[c]);
        }
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_weights_pack");
}

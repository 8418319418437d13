/* Planned copies and MIRROR_PAD block copies (src/kernels/move) against their reference twins
 * (tfcc_ref_copy_nd, tfcc_ref_mirror_pad), byte for byte, on random cases:
 *  - TRANSPOSE: every permutation of ranks 1..4 and random ones of ranks 5..6, random dims
 *    1..9 (and 1..40 for two axes), element sizes 1, 2, 4, 8 and 3 (reference route), the
 *    bytes past the output untouched; the plan kinds each case should take (runs, the 2-D
 *    transpose, strided) are checked to occur;
 *  - SLICE / STRIDED_SLICE boxes: random begin / size, steps -3..3 (not 0), offsets;
 *  - broadcasting copies (input stride 0) and reversed copies (negative strides);
 *  - MIRROR_PAD: ranks 0..5, REFLECT and SYMMETRIC, paddings 0..limit per side, every element
 *    size;
 *  - the operators: TRANSPOSE, SLICE and MIRROR_PAD through tfcc's op code on random float32 /
 *    int8 / int16 / int64 shapes against the reference kernels' results. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/move/mirror_pad.h"
#include "kernels/move/move.h"
#include "kernels/ref/copy.h"
#include "kernels/ref/pad.h"
#include "shape_test_util.h"
#include "test_harness.h"

/* Under AddressSanitizer, the part of the reused input buffer before a case's input is poisoned. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_MOVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_MOVE_ASAN 1
#endif
#endif
#ifdef TEST_MOVE_ASAN
#include <sanitizer/asan_interface.h>
#define TFCC_TEST_ASAN_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define TFCC_TEST_ASAN_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define TFCC_TEST_ASAN_POISON(p, n) ((void)(p), (void)(n))
#define TFCC_TEST_ASAN_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

static uint32_t rng = 12345u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static int32_t irand(int32_t lo, int32_t hi) {
  return lo + (int32_t)(urand() % (uint32_t)(hi - lo + 1));
}

static int kinds_seen[8];

/* Fills buf with n random bytes, eight per step of a 64-bit generator (SplitMix64) seeded from
 * urand's state; urand's state does not move. */
static void fill_random(uint8_t *buf, size_t n) {
  uint64_t x = 0x9E3779B97F4A7C15u * (rng + 1u);
  for (size_t i = 0; i < n; i += 8) {
    uint64_t z = (x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    if (n - i >= 8)
      memcpy(buf + i, &z, 8);
    else
      memcpy(buf + i, &z, n - i);
  }
}

/* Moves urand's state n steps on, as n urand() calls would: rng <- f^n(rng), f(r) = a r + c, the
 * powers f^(2^k) composed by the bits of n. */
static void rng_skip(size_t n) {
  uint32_t a = 1664525u, c = 1013904223u, ra = 1u, rc = 0u;
  for (size_t k = n; k; k >>= 1) {
    if (k & 1u) ra *= a, rc = rc * a + c;
    c = c * a + c, a *= a;
  }
  rng = ra * rng + rc;
}

/* Random bytes, then urand's state moved n steps on, as one urand() call per byte did (so the
 * cases' shapes stay what they were; a call per byte was most of this test's time). */
static void randomize(uint8_t *buf, size_t n) {
  fill_random(buf, n);
  rng_skip(n);
}

/* A case's input: the last n + 1 bytes of one buffer kept from case to case (grown when a case
 * needs more). Under AddressSanitizer the INPUT_FENCE bytes before the input are poisoned, so an
 * access just outside the input is still reported, as with a buffer of its own (one further
 * before reads bytes of the buffer, which differ from the reference's). The fence moves with the
 * input: poisoning the whole prefix of a 4.7 GB buffer wrote 590 MB of shadow per case, most of
 * this test's time under ASan. Never freed (one buffer, freed at exit). */
#define INPUT_FENCE ((size_t)16 << 20)
static uint8_t *input_buf;
static size_t input_cap;
static uint8_t *fence_at; /* the poisoned bytes: [fence_at, fence_at + fence_len) */
static size_t fence_len;

static uint8_t *input_region(size_t n) {
  TFCC_TEST_ASAN_UNPOISON(fence_at, fence_len);
  fence_at = NULL;
  fence_len = 0;
  if (n + 1 > input_cap) {
    free(input_buf);
    input_cap = n + 1;
    input_buf = malloc(input_cap);
    if (!input_buf) {
      fprintf(stderr, "ops.test_move: out of memory (%zu bytes)\n", input_cap);
      exit(1);
    }
  }
  uint8_t *in = input_buf + (input_cap - (n + 1));
  fence_len = (size_t)(in - input_buf) < INPUT_FENCE ? (size_t)(in - input_buf) : INPUT_FENCE;
  fence_at = in - fence_len;
  TFCC_TEST_ASAN_POISON(fence_at, fence_len);
  return in;
}

/* An input of n random bytes. */
static uint8_t *input_bytes(size_t n) {
  uint8_t *in = input_region(n);
  randomize(in, n);
  return in;
}

/* A slice's input of n bytes whose box (dims, strides bs from byte offset off in elements) holds
 * random bytes, scattered there by the reference copy; the bytes outside the box are left as the
 * buffer has them (zero or an earlier case's), so a read outside the box still differs from the
 * reference's random value. The slice inputs are up to 4.7 GB (16 GB in all) while their boxes
 * are small: writing every byte, and first touching every page, was this test's whole time. */
static uint8_t *slice_input(size_t n, int32_t rank, const int32_t *box, int64_t off,
                            const int64_t *bs, int64_t n_out, const int64_t *os, size_t es) {
  uint8_t *in = input_region(n);
  const size_t vb = (size_t)n_out * es;
  uint8_t *vals = malloc(vb + 1);
  if (!vals) {
    fprintf(stderr, "ops.test_move: out of memory (%zu bytes)\n", vb + 1);
    exit(1);
  }
  fill_random(vals, vb);
  rng_skip(n);
  tfcc_ref_copy_nd(rank, box, vals, 0, os, in, off, bs, es);
  free(vals);
  return in;
}

/* One copy both ways; out buffers hold out_elems elements plus guard bytes. */
static void check_copy(const char *what, int32_t rank, const int32_t *dims, const uint8_t *in,
                       int64_t in_off, const int64_t *is, int64_t out_elems, const int64_t *os,
                       size_t es) {
  const size_t bytes = (size_t)out_elems * es;
  uint8_t *a = malloc(bytes + 16), *b = malloc(bytes + 16);
  memset(a, 0x5a, bytes + 16);
  memset(b, 0x5a, bytes + 16);
  tfcc_ref_copy_nd(rank, dims, in, in_off, is, a, 0, os, es);
  tfcc_move_copy_nd(rank, dims, in, in_off, is, b, 0, os, es);
  tfcc_move_plan p;
  tfcc_move_plan_make(&p, rank, dims, is, os, es);
  kinds_seen[p.kind]++;
  bool same = memcmp(a, b, bytes + 16) == 0;
  CHECKF(same, "%s: rank %d es %zu dims [%d %d %d %d %d %d] kind %s differs", what, (int)rank, es,
         rank > 0 ? dims[0] : 0, rank > 1 ? dims[1] : 0, rank > 2 ? dims[2] : 0,
         rank > 3 ? dims[3] : 0, rank > 4 ? dims[4] : 0, rank > 5 ? dims[5] : 0,
         tfcc_move_kind_name(&p));
  free(a);
  free(b);
}

static const size_t k_sizes[] = {1, 2, 4, 8, 3};

/* TRANSPOSE of in_dims by perm. */
static void check_transpose(int32_t rank, const int32_t *in_dims, const int32_t *perm, size_t es) {
  int64_t n = 1, is[8], ps[8], os[8];
  int32_t od[8];
  for (int32_t d = 0; d < rank; d++) n *= in_dims[d];
  uint8_t *in = input_bytes((size_t)n * es);
  tfcc_ref_strides(rank, in_dims, is);
  for (int32_t d = 0; d < rank; d++) {
    od[d] = in_dims[perm[d]];
    ps[d] = is[perm[d]];
  }
  tfcc_ref_strides(rank, od, os);
  check_copy("transpose", rank, od, in, 0, ps, n, os, es);
}

/* Every permutation of rank r (Heap's algorithm over a small array), random dims each. */
static void all_perms(int32_t r) {
  int32_t perm[8], c[8] = {0};
  for (int32_t d = 0; d < r; d++) perm[d] = d;
  for (;;) {
    for (int rep = 0; rep < 6; rep++) {
      int32_t dims[8];
      for (int32_t d = 0; d < r; d++) dims[d] = irand(1, 9);
      if (rep == 5) /* two long axes: several tiles and partial ones */
        for (int32_t k = 0; k < 2 && k < r; k++) dims[irand(0, r - 1)] = irand(15, 40);
      check_transpose(r, dims, perm, k_sizes[rep % 5]);
    }
    int32_t i = 1;
    while (i < r && c[i] >= i) c[i++] = 0;
    if (i >= r) break;
    const int32_t j = (i % 2) ? c[i] : 0, t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
    c[i]++;
  }
}

static void test_transposes(void) {
  for (int32_t r = 1; r <= 4; r++) all_perms(r);
  for (int k = 0; k < 400; k++) {
    const int32_t r = irand(5, 6);
    int32_t perm[8], dims[8];
    for (int32_t d = 0; d < r; d++) perm[d] = d;
    for (int32_t d = r - 1; d > 0; d--) {
      const int32_t j = irand(0, d), t = perm[d];
      perm[d] = perm[j];
      perm[j] = t;
    }
    for (int32_t d = 0; d < r; d++) dims[d] = irand(1, 5);
    check_transpose(r, dims, perm, k_sizes[k % 5]);
  }
  /* The keyword-spotting shapes, a large 2-D and NHWC <-> NCHW. */
  const int32_t kws[] = {1, 102, 3, 4, 64}, kp[] = {2, 0, 3, 1, 4};
  check_transpose(5, kws, kp, 4);
  const int32_t h[] = {1, 4, 102, 64}, hp1[] = {0, 1, 3, 2}, hp2[] = {0, 2, 1, 3};
  check_transpose(4, h, hp1, 4);
  check_transpose(4, h, hp2, 4);
  const int32_t big[] = {257, 131}, bp[] = {1, 0};
  for (int k = 0; k < 5; k++) check_transpose(2, big, bp, k_sizes[k]);
  const int32_t img[] = {2, 17, 19, 33}, nchw[] = {0, 3, 1, 2}, nhwc[] = {0, 2, 3, 1};
  for (int k = 0; k < 5; k++) {
    check_transpose(4, img, nchw, k_sizes[k]);
    check_transpose(4, img, nhwc, k_sizes[k]);
  }
}

/* Random boxes of a random input: steps -3..3 (negative: from the box's last index down). */
static void test_slices(void) {
  for (int k = 0; k < 3000; k++) {
    const int32_t r = irand(0, 6);
    const size_t es = k_sizes[k % 5];
    int32_t in_dims[8], box[8];
    int64_t is[8], bs[8], os[8], n_in = 1, n_out = 1, off = 0;
    for (int32_t d = 0; d < r; d++) {
      in_dims[d] = irand(1, k % 7 == 0 ? 40 : 7);
      n_in *= in_dims[d];
    }
    tfcc_ref_strides(r, in_dims, is);
    const bool strided = k % 2 == 1;
    for (int32_t d = 0; d < r; d++) {
      int32_t step = strided ? irand(-3, 3) : 1;
      if (step == 0) step = 1;
      const int32_t mag = step < 0 ? -step : step;
      const int32_t b = irand(0, in_dims[d] - 1);
      const int32_t room = step > 0 ? (in_dims[d] - 1 - b) / mag + 1 : b / mag + 1;
      box[d] = irand(k % 11 == 0 ? 0 : 1, room);
      bs[d] = is[d] * step;
      off += b * is[d];
      n_out *= box[d];
    }
    if (n_out == 0) n_out = 1; /* guard bytes only */
    tfcc_ref_strides(r, box, os);
    uint8_t *in = slice_input((size_t)n_in * es, r, box, off, bs, n_out, os, es);
    check_copy(strided ? "strided slice" : "slice", r, box, in, off, bs, n_out, os, es);
  }
  /* Broadcast (input stride 0) and reversed rows. */
  for (int k = 0; k < 500; k++) {
    const int32_t r = irand(1, 4);
    const size_t es = k_sizes[k % 5];
    int32_t dims[8];
    int64_t is[8], os[8], n = 1;
    for (int32_t d = 0; d < r; d++) {
      dims[d] = irand(1, 9);
      n *= dims[d];
    }
    tfcc_ref_strides(r, dims, os);
    int64_t off = 0;
    for (int32_t d = 0; d < r; d++) {
      const int c = irand(0, 2);
      is[d] = c == 0 ? 0 : c == 1 ? os[d] : -os[d];
      if (c == 2) off += (dims[d] - 1) * os[d];
    }
    uint8_t *in = input_bytes((size_t)n * es);
    check_copy("broadcast/reverse", r, dims, in, off, is, n, os, es);
  }
}

static void check_mirror(int32_t r, const int32_t *in_dims, const int64_t *before,
                         const int64_t *after, bool symmetric, size_t es) {
  int32_t od[8];
  int64_t n_in = 1, n_out = 1;
  for (int32_t d = 0; d < r; d++) {
    od[d] = in_dims[d] + (int32_t)before[d] + (int32_t)after[d];
    n_in *= in_dims[d];
    n_out *= od[d];
  }
  uint8_t *in = input_bytes((size_t)n_in * es), *a = malloc((size_t)n_out * es + 16),
          *b = malloc((size_t)n_out * es + 16);
  memset(a, 0x5a, (size_t)n_out * es + 16);
  memset(b, 0x5a, (size_t)n_out * es + 16);
  tfcc_ref_mirror_pad(in, r, in_dims, before, od, symmetric, es, a);
  tfcc_move_mirror_pad(in, r, in_dims, before, od, symmetric, es, b);
  CHECKF(memcmp(a, b, (size_t)n_out * es + 16) == 0,
         "mirror pad rank %d es %zu %s dims [%d %d %d %d %d] differs", (int)r, es,
         symmetric ? "SYMMETRIC" : "REFLECT", r > 0 ? in_dims[0] : 0, r > 1 ? in_dims[1] : 0,
         r > 2 ? in_dims[2] : 0, r > 3 ? in_dims[3] : 0, r > 4 ? in_dims[4] : 0);
  free(a);
  free(b);
}

static void test_mirror_pads(void) {
  for (int k = 0; k < 3000; k++) {
    const int32_t r = irand(0, 5);
    const bool sym = k % 2 == 0;
    int32_t dims[8];
    int64_t before[8], after[8];
    for (int32_t d = 0; d < r; d++) {
      dims[d] = irand(sym ? 1 : 2, k % 5 == 0 ? 20 : 6);
      const int32_t lim = sym ? dims[d] : dims[d] - 1;
      const bool pad = irand(0, 2) > 0;
      before[d] = pad ? irand(0, lim) : 0;
      after[d] = pad ? irand(0, lim) : 0;
    }
    check_mirror(r, dims, before, after, sym, k_sizes[k % 5]);
  }
  /* A style-transfer layer: NHWC, H and W padded by 4 (REFLECT). */
  const int32_t img[] = {1, 40, 41, 3};
  const int64_t b4[] = {0, 4, 4, 0}, a4[] = {0, 4, 4, 0};
  check_mirror(4, img, b4, a4, false, 4);
  check_mirror(4, img, b4, a4, true, 1);
}

/* The operators on random shapes against the reference kernels. */
static uint8_t opt_buf[256];
static char msg[256];

static void test_ops(void) {
  static const tfcc_dtype dts[] = {TFCC_FLOAT32, TFCC_INT8, TFCC_INT16, TFCC_INT64};
  for (int k = 0; k < 200; k++) {
    const tfcc_dtype dt = dts[k % 4];
    const size_t es = tfcc_dtype_size(dt);
    const int32_t r = irand(1, 5);
    int32_t dims[8], perm[8], od[8];
    int64_t n = 1, is[8], ps[8], os[8];
    for (int32_t d = 0; d < r; d++) {
      dims[d] = irand(1, 12);
      n *= dims[d];
      perm[d] = d;
    }
    for (int32_t d = r - 1; d > 0; d--) {
      const int32_t j = irand(0, d), t = perm[d];
      perm[d] = perm[j];
      perm[j] = t;
    }
    uint8_t *x = malloc((size_t)n * es), *want = malloc((size_t)n * es);
    randomize(x, (size_t)n * es);
    tfcc_ref_strides(r, dims, is);
    for (int32_t d = 0; d < r; d++) {
      od[d] = dims[perm[d]];
      ps[d] = is[perm[d]];
    }
    tfcc_ref_strides(r, od, os);
    tfcc_ref_copy_nd(r, od, x, 0, ps, want, 0, os, es);
    /* TRANSPOSE */
    tfcc_tensor ti = st_tensor(dt, r, dims, x);
    ti.known = ti.is_const = false;
    tfcc_tensor tp = st_tensor(TFCC_INT32, 1, (int32_t[]){r}, perm);
    tfcc_tensor o = st_output(dt);
    tfcc_tensor *in2[] = {&ti, &tp}, *out[] = {&o};
    CHECKF(st_run(TFCC_OP_TRANSPOSE, tfb_build(opt_buf, sizeof opt_buf, NULL, 0), in2, 2, out, 1,
                  msg, sizeof msg) == TFCC_OK,
           "%s", msg);
    CHECKF(o.bytes == (size_t)n * es && memcmp(o.data, want, o.bytes) == 0,
           "TRANSPOSE rank %d dtype %d differs", (int)r, (int)dt);
    st_free(&o);
    /* SLICE: a random box */
    int32_t begin[8], size[8];
    int64_t off = 0, m = 1;
    for (int32_t d = 0; d < r; d++) {
      begin[d] = irand(0, dims[d] - 1);
      size[d] = irand(1, dims[d] - begin[d]);
      off += begin[d] * is[d];
      m *= size[d];
    }
    if (k % 3 == 0) size[0] = -1; /* to the end */
    int32_t box[8];
    for (int32_t d = 0; d < r; d++) box[d] = size[d] < 0 ? dims[d] - begin[d] : size[d];
    m = 1;
    for (int32_t d = 0; d < r; d++) m *= box[d];
    int64_t bos[8];
    tfcc_ref_strides(r, box, bos);
    tfcc_ref_copy_nd(r, box, x, off, is, want, 0, bos, es);
    tfcc_tensor tb = st_tensor(TFCC_INT32, 1, (int32_t[]){r}, begin);
    tfcc_tensor ts = st_tensor(TFCC_INT32, 1, (int32_t[]){r}, size);
    tfcc_tensor *in3[] = {&ti, &tb, &ts};
    o = st_output(dt);
    CHECKF(st_run(TFCC_OP_SLICE, tfb_build(opt_buf, sizeof opt_buf, NULL, 0), in3, 3, out, 1, msg,
                  sizeof msg) == TFCC_OK,
           "%s", msg);
    CHECKF(o.bytes == (size_t)m * es && memcmp(o.data, want, o.bytes) == 0,
           "SLICE rank %d dtype %d differs", (int)r, (int)dt);
    st_free(&o);
    /* MIRROR_PAD */
    const bool sym = k % 2 == 0;
    int64_t pads[16];
    int32_t pd[8];
    for (int32_t d = 0; d < r; d++) {
      const int32_t lim = sym ? dims[d] : dims[d] - 1;
      pads[2 * d] = irand(0, lim);
      pads[2 * d + 1] = irand(0, lim);
      pd[d] = dims[d] + (int32_t)pads[2 * d] + (int32_t)pads[2 * d + 1];
    }
    int64_t before[8], pn = 1;
    for (int32_t d = 0; d < r; d++) {
      before[d] = pads[2 * d];
      pn *= pd[d];
    }
    uint8_t *pw = malloc((size_t)pn * es);
    tfcc_ref_mirror_pad(x, r, dims, before, pd, sym, es, pw);
    tfcc_tensor tpad = st_tensor(TFCC_INT64, 2, (int32_t[]){r, 2}, pads);
    tfcc_tensor *inp[] = {&ti, &tpad};
    tfb_field f[] = {{.field = 0, .kind = TFB_U8, .i = sym ? 1 : 0}};
    o = st_output(dt);
    CHECKF(st_run(TFCC_OP_MIRROR_PAD, tfb_build(opt_buf, sizeof opt_buf, f, 1), inp, 2, out, 1, msg,
                  sizeof msg) == TFCC_OK,
           "%s", msg);
    CHECKF(o.bytes == (size_t)pn * es && memcmp(o.data, pw, o.bytes) == 0,
           "MIRROR_PAD rank %d dtype %d differs", (int)r, (int)dt);
    st_free(&o);
    st_free(&ti);
    st_free(&tp);
    st_free(&tb);
    st_free(&ts);
    st_free(&tpad);
    free(pw);
    free(x);
    free(want);
  }
}

int main(void) {
  test_transposes();
  test_slices();
  CHECKF(kinds_seen[TFCC_MOVE_RUNS] > 100 && kinds_seen[TFCC_MOVE_TRANSPOSE] > 100 &&
             kinds_seen[TFCC_MOVE_STRIDED] > 100 && kinds_seen[TFCC_MOVE_REFERENCE] > 100 &&
             kinds_seen[TFCC_MOVE_NONE] > 10,
         "plan kinds seen: runs %d transpose %d strided %d reference %d none %d",
         kinds_seen[TFCC_MOVE_RUNS], kinds_seen[TFCC_MOVE_TRANSPOSE], kinds_seen[TFCC_MOVE_STRIDED],
         kinds_seen[TFCC_MOVE_REFERENCE], kinds_seen[TFCC_MOVE_NONE]);
  test_mirror_pads();
  test_ops();
  return tfcc_test_finish("ops.test_move");
}

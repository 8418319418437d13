/* Planned N-d copies (contract in move.h); tfcc_ref_copy_nd is the reference twin. */
#include "kernels/move/move.h"

#include <stdbool.h>
#include <string.h>

#include "kernels/concat/concat.h"
#include "kernels/ref/copy.h"

/* Tile edge of the blocked transpose, in elements: 16 (32 for 1-byte elements: two 16 x 16
 * vector micro-tiles per edge), chosen on move_bench (larger tiles lose on large 2-byte and
 * 8-byte matrices, smaller ones on int8 images). */
#define TILE_FOR(ES) ((ES) == 1 ? 32 : 16)

void tfcc_move_plan_make(tfcc_move_plan *p, int32_t rank, const int32_t *dims,
                         const int64_t *in_strides, const int64_t *out_strides, size_t es) {
  p->es = es;
  p->unit = es;
  p->tj = -1;
  p->rank = 0;
  if (rank > TFCC_MOVE_MAX_RANK) rank = TFCC_MOVE_MAX_RANK; /* the reference's limit too */
  for (int32_t d = 0; d < rank; d++)
    if (dims[d] <= 0) {
      p->kind = TFCC_MOVE_NONE;
      return;
    }
  if (es != 1 && es != 2 && es != 4 && es != 8) {
    /* Kept as given (element strides) for the reference. */
    p->kind = TFCC_MOVE_REFERENCE;
    p->rank = rank < 0 ? 0 : rank;
    for (int32_t d = 0; d < p->rank; d++) {
      p->dims[d] = dims[d];
      p->in_bytes[d] = in_strides[d];
      p->out_bytes[d] = out_strides[d];
    }
    return;
  }
  /* Drop size-1 dimensions; merge a dimension into the one outside it when it continues it on
   * both sides (outer stride = inner stride x inner size). Element strides here. */
  int64_t *D = p->dims, *I = p->in_bytes, *O = p->out_bytes;
  int32_t n = 0;
  for (int32_t d = 0; d < rank; d++) {
    if (dims[d] == 1) continue;
    if (n > 0 && I[n - 1] == in_strides[d] * dims[d] && O[n - 1] == out_strides[d] * dims[d]) {
      D[n - 1] *= dims[d];
      I[n - 1] = in_strides[d];
      O[n - 1] = out_strides[d];
    } else {
      D[n] = dims[d];
      I[n] = in_strides[d];
      O[n] = out_strides[d];
      n++;
    }
  }
  if (n > 0 && I[n - 1] == 1 && O[n - 1] == 1) {
    p->unit = es * (size_t)D[n - 1];
    n--;
    p->kind = TFCC_MOVE_RUNS;
  } else if (n == 0) {
    p->kind = TFCC_MOVE_RUNS; /* one element */
  } else {
    p->kind = TFCC_MOVE_STRIDED;
    if (O[n - 1] == 1) {
      int32_t tj = -1;
      for (int32_t d = 0; d < n - 1; d++)
        if (I[d] == 1) tj = d;
      /* Dense output: every element written once, so the tiles' write order is harmless. */
      int64_t expect = 1;
      bool dense = true;
      for (int32_t d = n - 1; d >= 0; d--) {
        dense = dense && O[d] == expect;
        expect *= D[d];
      }
      if (tj >= 0 && dense) {
        p->kind = TFCC_MOVE_TRANSPOSE;
        p->tj = tj;
      }
    }
  }
  p->rank = n;
  for (int32_t d = 0; d < n; d++) {
    I[d] *= (int64_t)es;
    O[d] *= (int64_t)es;
  }
}

/* V x V micro-tiles of 16-byte vectors (V = 16 / ES elements): V input rows loaded, log2(V)
 * stages of interleaving (unpack low / high halves at 1, 2, 4, 8-byte granularity: punpck* on
 * x86, zip1/zip2 on NEON, i8x16.shuffle on WebAssembly, whatever the compiler's baseline), and
 * V output rows stored. GCC and Clang vector extensions, one body for every target; elsewhere
 * the scalar tile loop. */
#if defined(__GNUC__) || defined(__clang__)
#define MOVE_VEC 1
typedef uint8_t v16b __attribute__((vector_size(16)));
typedef uint16_t v8h __attribute__((vector_size(16)));
typedef uint32_t v4w __attribute__((vector_size(16)));
typedef uint64_t v2d __attribute__((vector_size(16)));

/* Interleaved low / high halves of a and b in units of 1, 2, 4, 8 bytes. */
static inline v16b lo1(v16b a, v16b b) {
  return __builtin_shufflevector(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
}
static inline v16b hi1(v16b a, v16b b) {
  return __builtin_shufflevector(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15,
                                 31);
}
static inline v16b lo2(v16b a, v16b b) {
  return (v16b)__builtin_shufflevector((v8h)a, (v8h)b, 0, 8, 1, 9, 2, 10, 3, 11);
}
static inline v16b hi2(v16b a, v16b b) {
  return (v16b)__builtin_shufflevector((v8h)a, (v8h)b, 4, 12, 5, 13, 6, 14, 7, 15);
}
static inline v16b lo4(v16b a, v16b b) {
  return (v16b)__builtin_shufflevector((v4w)a, (v4w)b, 0, 4, 1, 5);
}
static inline v16b hi4(v16b a, v16b b) {
  return (v16b)__builtin_shufflevector((v4w)a, (v4w)b, 2, 6, 3, 7);
}
static inline v16b lo8(v16b a, v16b b) {
  return (v16b)__builtin_shufflevector((v2d)a, (v2d)b, 0, 2);
}
static inline v16b hi8(v16b a, v16b b) {
  return (v16b)__builtin_shufflevector((v2d)a, (v2d)b, 1, 3);
}

/* Rows i and j of the tile interleaved at granularity G: i takes the low halves, j the high. */
#define PAIR(i, j, G) \
  do { \
    const v16b a_ = r[i], b_ = r[j]; \
    r[i] = lo##G(a_, b_); \
    r[j] = hi##G(a_, b_); \
  } while (0)
#define LD(i) memcpy(&r[i], src + (i)*sl, 16)
/* After the stages output row c is in vector bitrev(c). */
#define ST(c, k) memcpy(dst + (c)*dj, &r[k], 16)

/* One micro-tile: input rows src + i * sl (V elements), output rows dst + c * dj. Written out
 * (no loops), so that the tile lives in registers. */
static inline void micro_4(uint8_t *restrict dst, int64_t dj, const uint8_t *restrict src,
                           int64_t sl) {
  v16b r[4];
  LD(0);
  LD(1);
  LD(2);
  LD(3);
  PAIR(0, 1, 4);
  PAIR(2, 3, 4);
  PAIR(0, 2, 8);
  PAIR(1, 3, 8);
  ST(0, 0);
  ST(1, 2);
  ST(2, 1);
  ST(3, 3);
}
static inline void micro_2(uint8_t *restrict dst, int64_t dj, const uint8_t *restrict src,
                           int64_t sl) {
  v16b r[8];
  LD(0);
  LD(1);
  LD(2);
  LD(3);
  LD(4);
  LD(5);
  LD(6);
  LD(7);
  PAIR(0, 1, 2);
  PAIR(2, 3, 2);
  PAIR(4, 5, 2);
  PAIR(6, 7, 2);
  PAIR(0, 2, 4);
  PAIR(1, 3, 4);
  PAIR(4, 6, 4);
  PAIR(5, 7, 4);
  PAIR(0, 4, 8);
  PAIR(1, 5, 8);
  PAIR(2, 6, 8);
  PAIR(3, 7, 8);
  ST(0, 0);
  ST(1, 4);
  ST(2, 2);
  ST(3, 6);
  ST(4, 1);
  ST(5, 5);
  ST(6, 3);
  ST(7, 7);
}
static inline void micro_1(uint8_t *restrict dst, int64_t dj, const uint8_t *restrict src,
                           int64_t sl) {
  v16b r[16];
  LD(0);
  LD(1);
  LD(2);
  LD(3);
  LD(4);
  LD(5);
  LD(6);
  LD(7);
  LD(8);
  LD(9);
  LD(10);
  LD(11);
  LD(12);
  LD(13);
  LD(14);
  LD(15);
  PAIR(0, 1, 1);
  PAIR(2, 3, 1);
  PAIR(4, 5, 1);
  PAIR(6, 7, 1);
  PAIR(8, 9, 1);
  PAIR(10, 11, 1);
  PAIR(12, 13, 1);
  PAIR(14, 15, 1);
  PAIR(0, 2, 2);
  PAIR(1, 3, 2);
  PAIR(4, 6, 2);
  PAIR(5, 7, 2);
  PAIR(8, 10, 2);
  PAIR(9, 11, 2);
  PAIR(12, 14, 2);
  PAIR(13, 15, 2);
  PAIR(0, 4, 4);
  PAIR(1, 5, 4);
  PAIR(2, 6, 4);
  PAIR(3, 7, 4);
  PAIR(8, 12, 4);
  PAIR(9, 13, 4);
  PAIR(10, 14, 4);
  PAIR(11, 15, 4);
  PAIR(0, 8, 8);
  PAIR(1, 9, 8);
  PAIR(2, 10, 8);
  PAIR(3, 11, 8);
  PAIR(4, 12, 8);
  PAIR(5, 13, 8);
  PAIR(6, 14, 8);
  PAIR(7, 15, 8);
  ST(0, 0);
  ST(1, 8);
  ST(2, 4);
  ST(3, 12);
  ST(4, 2);
  ST(5, 10);
  ST(6, 6);
  ST(7, 14);
  ST(8, 1);
  ST(9, 9);
  ST(10, 5);
  ST(11, 13);
  ST(12, 3);
  ST(13, 11);
  ST(14, 7);
  ST(15, 15);
}
static inline void micro_8(uint8_t *restrict dst, int64_t dj, const uint8_t *restrict src,
                           int64_t sl) {
  v16b r[2];
  LD(0);
  LD(1);
  PAIR(0, 1, 8);
  ST(0, 0);
  ST(1, 1);
}
#undef PAIR
#undef LD
#undef ST
#else
#define MOVE_VEC 0
#endif

/* Blocked transpose of one [nl, nj] input matrix (input element (l, j) at src + l * sl +
 * j * ES) into the output (element (j, l) at dst + j * dj + l * ES): TILE x TILE tiles, inside
 * them V x V vector micro-tiles where whole ones fit (V = 16 / ES), single elements for the
 * rest. */
#define TRANSPOSE_FN(NAME, ES, VEC) \
  static void NAME(uint8_t *restrict dst, int64_t dj, const uint8_t *restrict src, int64_t sl, \
                   int64_t nj, int64_t nl) { \
    const int64_t v = (VEC) ? 16 / (ES) : 1, TILE = TILE_FOR(ES); \
    for (int64_t j0 = 0; j0 < nj; j0 += TILE) { \
      const int64_t j1 = j0 + TILE < nj ? j0 + TILE : nj; \
      const int64_t jv = (VEC) ? j0 + (j1 - j0) / v * v : j0; \
      for (int64_t l0 = 0; l0 < nl; l0 += TILE) { \
        const int64_t l1 = l0 + TILE < nl ? l0 + TILE : nl; \
        const int64_t lv = (VEC) ? l0 + (l1 - l0) / v * v : l0; \
        VEC_PART(ES, VEC) \
        for (int64_t j = j0; j < j1; j++) { \
          uint8_t *o = dst + j * dj; \
          const uint8_t *i = src + j * (ES); \
          for (int64_t l = j < jv ? lv : l0; l < l1; l++) memcpy(o + l * (ES), i + l * sl, ES); \
        } \
      } \
    } \
  }
#if MOVE_VEC
#define VEC_PART(ES, VEC) \
  if (VEC) \
    for (int64_t j = j0; j < jv; j += v) \
      for (int64_t l = l0; l < lv; l += v) \
        micro_##ES(dst + j * dj + l * (ES), dj, src + l * sl + j * (ES), sl);
#else
#define VEC_PART(ES, VEC)
#endif
TRANSPOSE_FN(transpose_1, 1, MOVE_VEC)
TRANSPOSE_FN(transpose_2, 2, MOVE_VEC)
TRANSPOSE_FN(transpose_4, 4, MOVE_VEC)
TRANSPOSE_FN(transpose_8, 8, MOVE_VEC)

/* n single elements of ES bytes, strided on both sides. */
#define STRIDED_FN(NAME, ES) \
  static void NAME(uint8_t *restrict d, int64_t ds, const uint8_t *restrict s, int64_t ss, \
                   int64_t n) { \
    for (int64_t k = 0; k < n; k++) memcpy(d + k * ds, s + k * ss, ES); \
  }
STRIDED_FN(strided_1, 1)
STRIDED_FN(strided_2, 2)
STRIDED_FN(strided_4, 4)
STRIDED_FN(strided_8, 8)

/* The innermost step of a plan at one position of its outer dimensions. */
static void inner(const tfcc_move_plan *p, uint8_t *o, const uint8_t *i) {
  const int32_t last = p->rank - 1;
  switch (p->kind) {
    case TFCC_MOVE_RUNS:
      if (p->rank == 0)
        memcpy(o, i, p->unit);
      else
        tfcc_copy_blocks(o, p->out_bytes[last], i, p->in_bytes[last], p->unit, p->dims[last]);
      return;
    case TFCC_MOVE_TRANSPOSE: {
      const int32_t j = p->tj;
      void (*fn)(uint8_t *, int64_t, const uint8_t *, int64_t, int64_t, int64_t) =
          p->es == 1   ? transpose_1
          : p->es == 2 ? transpose_2
          : p->es == 4 ? transpose_4
                       : transpose_8;
      fn(o, p->out_bytes[j], i, p->in_bytes[last], p->dims[j], p->dims[last]);
      return;
    }
    case TFCC_MOVE_STRIDED: {
      void (*fn)(uint8_t *, int64_t, const uint8_t *, int64_t, int64_t) = p->es == 1   ? strided_1
                                                                          : p->es == 2 ? strided_2
                                                                          : p->es == 4 ? strided_4
                                                                                       : strided_8;
      fn(o, p->out_bytes[last], i, p->in_bytes[last], p->dims[last]);
      return;
    }
    default: return;
  }
}

void tfcc_move_run(const tfcc_move_plan *p, const void *in, int64_t in_off, void *out,
                   int64_t out_off) {
  const uint8_t *ib = (const uint8_t *)in + in_off * (int64_t)p->es;
  uint8_t *ob = (uint8_t *)out + out_off * (int64_t)p->es;
  if (p->kind == TFCC_MOVE_NONE) return;
  if (p->kind == TFCC_MOVE_REFERENCE) {
    int32_t dims[TFCC_MOVE_MAX_RANK];
    for (int32_t d = 0; d < p->rank; d++) dims[d] = (int32_t)p->dims[d];
    tfcc_ref_copy_nd(p->rank, dims, in, in_off, p->in_bytes, out, out_off, p->out_bytes, p->es);
    return;
  }
  /* The outer dimensions: all but the ones the innermost step covers. */
  int32_t outer[TFCC_MOVE_MAX_RANK], n_outer = 0;
  const int32_t covered = p->kind == TFCC_MOVE_RUNS ? 1 : p->kind == TFCC_MOVE_STRIDED ? 1 : 2;
  for (int32_t d = 0; d < p->rank - 1; d++)
    if (!(covered == 2 && d == p->tj)) outer[n_outer++] = d;
  int64_t idx[TFCC_MOVE_MAX_RANK] = {0};
  for (;;) {
    inner(p, ob, ib);
    int32_t k = n_outer - 1;
    for (; k >= 0; k--) {
      const int32_t d = outer[k];
      ib += p->in_bytes[d];
      ob += p->out_bytes[d];
      if (++idx[k] < p->dims[d]) break;
      ib -= p->in_bytes[d] * p->dims[d];
      ob -= p->out_bytes[d] * p->dims[d];
      idx[k] = 0;
    }
    if (k < 0) return;
  }
}

void tfcc_move_copy_nd(int32_t rank, const int32_t *dims, const void *in, int64_t in_off,
                       const int64_t *in_strides, void *out, int64_t out_off,
                       const int64_t *out_strides, size_t es) {
  tfcc_move_plan p;
  tfcc_move_plan_make(&p, rank, dims, in_strides, out_strides, es);
  tfcc_move_run(&p, in, in_off, out, out_off);
}

const char *tfcc_move_kind_name(const tfcc_move_plan *p) {
  switch (p->kind) {
    case TFCC_MOVE_RUNS: return "move-runs";
    case TFCC_MOVE_TRANSPOSE: return "move-transpose";
    case TFCC_MOVE_STRIDED: return "move-strided";
    case TFCC_MOVE_NONE: return "move-none";
    default: return "ref";
  }
}

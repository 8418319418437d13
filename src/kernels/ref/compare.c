/* Comparison, logical and selection kernels. */
#include "kernels/ref/compare.h"

#include <string.h>

#include "kernels/ref/quant_util.h"

#define CMP_ROW(name, T, OPX) \
  static void name(void *out, const void *const *in, const int64_t *step, int64_t n, \
                   const void *params) { \
    (void)params; \
    const T *a = in[0], *b = in[1]; \
    uint8_t *o = out; \
    const int64_t sa = step[0], sb = step[1]; \
    for (int64_t i = 0; i < n; i++) { \
      const T x = a[i * sa], y = b[i * sb]; \
      o[i] = (uint8_t)(OPX); \
    } \
  }

#define CMP_ROWS(T, sfx) \
  CMP_ROW(eq_##sfx, T, x == y) \
  CMP_ROW(ne_##sfx, T, x != y) \
  CMP_ROW(gt_##sfx, T, x > y) \
  CMP_ROW(ge_##sfx, T, x >= y) \
  CMP_ROW(lt_##sfx, T, x < y) \
  CMP_ROW(le_##sfx, T, x <= y)

CMP_ROWS(float, f32)
CMP_ROWS(int32_t, i32)
CMP_ROWS(int64_t, i64)
CMP_ROWS(int16_t, i16)
CMP_ROWS(int8_t, i8)
CMP_ROWS(uint8_t, u8)
CMP_ROW(eq_b, uint8_t, (x != 0) == (y != 0))
CMP_ROW(ne_b, uint8_t, (x != 0) != (y != 0))

#define CMP_TABLE(sfx) \
  { eq_##sfx, ne_##sfx, gt_##sfx, ge_##sfx, lt_##sfx, le_##sfx }

static tfcc_bcast_row_fn pick(tfcc_cmpop op, tfcc_dtype dt) {
  static const tfcc_bcast_row_fn f32[] = CMP_TABLE(f32), i32[] = CMP_TABLE(i32),
                                 i64[] = CMP_TABLE(i64), i16[] = CMP_TABLE(i16),
                                 i8[] = CMP_TABLE(i8), u8[] = CMP_TABLE(u8),
                                 b[] = {eq_b, ne_b, NULL, NULL, NULL, NULL};
  if (op < 0 || op >= TFCC_CMPOP_COUNT_) return NULL;
  switch (dt) {
    case TFCC_FLOAT32: return f32[op];
    case TFCC_INT32: return i32[op];
    case TFCC_INT64: return i64[op];
    case TFCC_INT16: return i16[op];
    case TFCC_INT8: return i8[op];
    case TFCC_UINT8: return u8[op];
    case TFCC_BOOL: return b[op];
    default: return NULL;
  }
}

static void run2(const tfcc_bcast *bc, const void *a, const void *b, size_t es, uint8_t *out,
                 tfcc_bcast_row_fn fn, const void *params) {
  const void *in[2] = {a, b};
  size_t ies[2] = {es, es};
  tfcc_bcast_run(bc, out, 1, in, ies, fn, params);
}

bool tfcc_ref_compare(tfcc_cmpop op, tfcc_dtype dt, const tfcc_bcast *bc, const void *a,
                      const void *b, uint8_t *out) {
  tfcc_bcast_row_fn fn = pick(op, dt);
  if (!fn) return false;
  run2(bc, a, b, tfcc_dtype_size(dt), out, fn, NULL);
  return true;
}

/* Quantized: rescale both sides (ComparisonWithScaling), compare the int32 results. */
typedef struct {
  const tfcc_arith_q *q;
  tfcc_cmpop op;
} qcmp_params;

static inline uint8_t cmp_i32(tfcc_cmpop op, int32_t x, int32_t y) {
  switch (op) {
    case TFCC_CMP_EQ: return x == y;
    case TFCC_CMP_NE: return x != y;
    case TFCC_CMP_GT: return x > y;
    case TFCC_CMP_GE: return x >= y;
    case TFCC_CMP_LT: return x < y;
    default: return x <= y;
  }
}

#define QCMP_ROW(name, T) \
  static void name(void *out, const void *const *in, const int64_t *step, int64_t n, \
                   const void *params) { \
    const qcmp_params *p = params; \
    const tfcc_arith_q *q = p->q; \
    const T *a = in[0], *b = in[1]; \
    uint8_t *o = out; \
    const int64_t sa = step[0], sb = step[1]; \
    for (int64_t i = 0; i < n; i++) { \
      int32_t x = tfcc_compare_rescale(a[i * sa], q->in1_offset, q->in1_mult, q->in1_shift, \
                                       q->left_shift); \
      int32_t y = tfcc_compare_rescale(b[i * sb], q->in2_offset, q->in2_mult, q->in2_shift, \
                                       q->left_shift); \
      o[i] = cmp_i32(p->op, x, y); \
    } \
  }
QCMP_ROW(qcmp_u8, uint8_t)
QCMP_ROW(qcmp_i8, int8_t)
QCMP_ROW(qcmp_i16, int16_t)

bool tfcc_ref_compare_q(tfcc_cmpop op, tfcc_dtype dt, const tfcc_bcast *bc, const void *a,
                        const void *b, uint8_t *out, const tfcc_arith_q *q) {
  if (op < 0 || op >= TFCC_CMPOP_COUNT_) return false;
  qcmp_params p = {q, op};
  if (dt == TFCC_UINT8)
    run2(bc, a, b, 1, out, qcmp_u8, &p);
  else if (dt == TFCC_INT8)
    run2(bc, a, b, 1, out, qcmp_i8, &p);
  else if (dt == TFCC_INT16)
    run2(bc, a, b, 2, out, qcmp_i16, &p);
  else
    return false;
  return true;
}

CMP_ROW(and_b, uint8_t, (x != 0) && (y != 0))
CMP_ROW(or_b, uint8_t, (x != 0) || (y != 0))

void tfcc_ref_logical(bool is_or, const tfcc_bcast *bc, const uint8_t *a, const uint8_t *b,
                      uint8_t *out) {
  run2(bc, a, b, 1, out, is_or ? or_b : and_b, NULL);
}

static void select_row(void *out, const void *const *in, const int64_t *step, int64_t n,
                       const void *params) {
  const size_t es = *(const size_t *)params;
  const uint8_t *c = in[0];
  const uint8_t *x = in[1], *y = in[2];
  uint8_t *o = out;
  for (int64_t i = 0; i < n; i++) {
    const uint8_t *src =
        c[i * step[0]] ? x + (size_t)(i * step[1]) * es : y + (size_t)(i * step[2]) * es;
    memcpy(o + (size_t)i * es, src, es);
  }
}

void tfcc_ref_select(const tfcc_bcast *bc, const uint8_t *cond, const void *x, const void *y,
                     void *out, size_t esize) {
  const void *in[3] = {cond, x, y};
  size_t ies[3] = {1, esize, esize};
  tfcc_bcast_run(bc, out, esize, in, ies, select_row, &esize);
}

void tfcc_ref_select_rows(const uint8_t *cond, int64_t rows, int64_t row_elems, const void *x,
                          const void *y, void *out, size_t esize) {
  const size_t row_bytes = (size_t)row_elems * esize;
  for (int64_t r = 0; r < rows; r++) {
    const uint8_t *src = (const uint8_t *)(cond[r] ? x : y) + (size_t)r * row_bytes;
    memcpy((uint8_t *)out + (size_t)r * row_bytes, src, row_bytes);
  }
}

/* CONCATENATION / SPLIT fast copies (src/kernels/concat) against the reference kernels
 * (tfcc_ref_concat, tfcc_ref_split, tfcc_ref_concat_u8_scaled), byte for byte:
 *  - the kernels: 1..5 parts with block sizes 0..70, 100, 257, 1000 bytes (every size class:
 *    single moves, overlapping pairs, memcpy), outer 0..9 and 300;
 *  - the operator: uint8 CONCATENATION whose inputs are requantized through init-time tables
 *    (different scales, zero points at 0 and 255, tiny and huge scale ratios, a part equal to
 *    the output's quantization), outer 1 and > 1, odd inner sizes; SPLIT / SPLIT_V / other
 *    dtypes through the op on odd shapes. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/concat/concat.h"
#include "kernels/ref/copy.h"
#include "shape_test_util.h"
#include "test_harness.h"

static uint8_t opt_buf[1024];
static tfcc_fb_table tfb_table(const tfb_field *f, int n) {
  return tfb_build(opt_buf, sizeof(opt_buf), f, n);
}

static uint32_t rng = 777u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static void check_kernels(int32_t n, const size_t *inner, int64_t outer) {
  size_t row = 0;
  for (int32_t i = 0; i < n; i++) row += inner[i];
  const size_t total = row * (size_t)outer;
  uint8_t *parts[8], *sp_a[8], *sp_b[8];
  for (int32_t i = 0; i < n; i++) {
    const size_t b = inner[i] * (size_t)outer;
    parts[i] = malloc(b + 1);
    sp_a[i] = malloc(b + 1);
    sp_b[i] = malloc(b + 1);
    for (size_t j = 0; j < b; j++) parts[i][j] = (uint8_t)urand();
    memset(sp_a[i], 0x11, b + 1);
    memset(sp_b[i], 0x22, b + 1);
  }
  uint8_t *a = malloc(total + 1), *b = malloc(total + 1);
  memset(a, 0x33, total + 1);
  memset(b, 0x44, total + 1);
  tfcc_ref_concat(n, (const void *const *)parts, inner, outer, a);
  tfcc_concat_copy(n, (const void *const *)parts, inner, outer, b);
  CHECKF(memcmp(a, b, total) == 0 && b[total] == 0x44, "concat n %d inner0 %zu outer %lld differs",
         (int)n, inner[0], (long long)outer);
  tfcc_ref_split(a, n, (void *const *)sp_a, inner, outer);
  tfcc_split_copy(a, n, (void *const *)sp_b, inner, outer);
  for (int32_t i = 0; i < n; i++) {
    const size_t bytes = inner[i] * (size_t)outer;
    CHECKF(memcmp(sp_a[i], sp_b[i], bytes) == 0 && sp_b[i][bytes] == 0x22,
           "split n %d part %d inner %zu outer %lld differs", (int)n, (int)i, inner[i],
           (long long)outer);
  }
  for (int32_t i = 0; i < n; i++) {
    free(parts[i]);
    free(sp_a[i]);
    free(sp_b[i]);
  }
  free(a);
  free(b);
}

static void test_kernels(void) {
  static const size_t extra[] = {100, 257, 1000};
  for (size_t sz = 0; sz <= 73; sz++) {
    const size_t s = sz <= 70 ? sz : extra[sz - 71];
    for (int64_t outer = 0; outer <= 9; outer += 3) {
      size_t one[1] = {s};
      check_kernels(1, one, outer);
      size_t three[3] = {s, 1, s + 3};
      check_kernels(3, three, outer);
      size_t five[5] = {2, s, 0, 8, (s * 7) % 33};
      check_kernels(5, five, outer);
    }
  }
  /* many rows of tiny blocks (channel concatenation of NHWC pieces) */
  const size_t ch[4] = {1, 1, 2, 3};
  check_kernels(4, ch, 300);
  const size_t f32[3] = {4, 12, 4 * 17};
  check_kernels(3, f32, 300);
}

/* One uint8 CONCATENATION through the op (init tables) against tfcc_ref_concat_u8_scaled. */
static void check_u8_op(int32_t n, const int32_t *widths, int32_t rows, const float *scales,
                        const int32_t *zps, float out_scale, int32_t out_zp) {
  tfcc_tensor t[6], o = st_output(TFCC_UINT8);
  oh_qparam q[6], qo;
  tfcc_tensor *in[6], *out[1] = {&o};
  const uint8_t *ptrs[6];
  int64_t inner[6];
  int32_t total_w = 0;
  for (int32_t i = 0; i < n; i++) {
    uint8_t *d = malloc((size_t)(rows * widths[i]) + 1);
    for (int32_t j = 0; j < rows * widths[i]; j++)
      d[j] = (uint8_t)(j < 256 ? (uint32_t)j : urand());
    t[i] = st_tensor(TFCC_UINT8, 2, (int32_t[]){rows, widths[i]}, d);
    free(d);
    st_quant(&t[i], &q[i], scales[i], zps[i]);
    in[i] = &t[i];
    ptrs[i] = t[i].data;
    inner[i] = widths[i];
    total_w += widths[i];
  }
  st_quant(&o, &qo, out_scale, out_zp);
  tfb_field f[] = {{.field = 0, .kind = TFB_I32, .i = 1}};
  char msg[256];
  tfcc_status st = st_run(TFCC_OP_CONCATENATION, tfb_table(f, 1), in, n, out, 1, msg, sizeof msg);
  CHECKF(st == TFCC_OK, "%s", msg);
  uint8_t *want = malloc((size_t)(rows * total_w) + 1);
  tfcc_ref_concat_u8_scaled(n, ptrs, inner, rows, scales, zps, out_scale, out_zp, want);
  if (st == TFCC_OK)
    CHECKF(memcmp(want, o.data, (size_t)(rows * total_w)) == 0,
           "uint8 concat n %d rows %d out %g/%d differs from the reference", (int)n, (int)rows,
           (double)out_scale, (int)out_zp);
  free(want);
  for (int32_t i = 0; i < n; i++) st_free(&t[i]);
  st_free(&o);
}

static void test_u8_requant(void) {
  const int32_t w3[3] = {256, 7, 1}, w2[2] = {1, 3}, w4[4] = {17, 64, 2, 300};
  const float s3[3] = {0.05f, 0.1f, 0.0078125f}, s2[2] = {1e-6f, 3.7f};
  const int32_t z3[3] = {100, 3, 128}, z2[2] = {0, 255};
  const float s4[4] = {0.1f, 0.02f, 250.f, 0.1f};
  const int32_t z4[4] = {3, 255, 0, 4};
  for (int32_t rows = 1; rows <= 5; rows += 2) {
    check_u8_op(3, w3, rows, s3, z3, 0.1f, 3);
    check_u8_op(2, w2, rows, s2, z2, 0.013f, 255);
    check_u8_op(2, w2, rows, s2, z2, 1000.f, 0);
    check_u8_op(4, w4, rows, s4, z4, 0.1f, 3);
  }
  check_u8_op(3, w3, 64, s3, z3, 0.0078125f, 128);
}

/* float32 / int8 / int16 CONCATENATION and SPLIT round trip through the ops on odd shapes. */
static void test_ops_roundtrip(tfcc_dtype dt) {
  const size_t es = tfcc_dtype_size(dt);
  for (int32_t axis = 0; axis < 3; axis++) {
    const int32_t da[3] = {3, 5, 7},
                  db[3] = {axis == 0 ? 2 : 3, axis == 1 ? 1 : 5, axis == 2 ? 9 : 7};
    const size_t na = 105, nb = (size_t)(db[0] * db[1] * db[2]);
    uint8_t *a = malloc(na * es), *b = malloc(nb * es);
    for (size_t i = 0; i < na * es; i++) a[i] = (uint8_t)urand();
    for (size_t i = 0; i < nb * es; i++) b[i] = (uint8_t)urand();
    tfcc_tensor ta = st_tensor(dt, 3, da, a), tb = st_tensor(dt, 3, db, b), o = st_output(dt);
    oh_qparam qa, qb, qo;
    if (dt != TFCC_FLOAT32) {
      st_quant(&ta, &qa, 0.5f, 0);
      st_quant(&tb, &qb, 0.5f, 0);
      st_quant(&o, &qo, 0.5f, 0);
    }
    tfcc_tensor *in[2] = {&ta, &tb}, *out[1] = {&o};
    tfb_field f[] = {{.field = 0, .kind = TFB_I32, .i = axis}};
    char msg[256];
    CHECKF(
        st_run(TFCC_OP_CONCATENATION, tfb_table(f, 1), in, 2, out, 1, msg, sizeof msg) == TFCC_OK,
        "%s", msg);
    /* expected by the reference kernel */
    int64_t outer = 1;
    for (int32_t d = 0; d < axis; d++) outer *= da[d];
    size_t ib[2] = {na * es / (size_t)outer, nb * es / (size_t)outer};
    const void *pp[2] = {a, b};
    uint8_t *want = malloc((na + nb) * es);
    tfcc_ref_concat(2, pp, ib, outer, want);
    CHECKF(memcmp(want, o.data, (na + nb) * es) == 0, "dtype %d axis %d concat differs", (int)dt,
           (int)axis);
    /* SPLIT_V back into the two parts */
    const int32_t sizes[2] = {da[axis], db[axis]};
    tfcc_tensor tsz = st_tensor(TFCC_INT32, 1, (int32_t[]){2}, sizes);
    tfcc_tensor tax = st_tensor(TFCC_INT32, 0, NULL, &axis);
    tfcc_tensor o1 = st_output(dt), o2 = st_output(dt);
    tfcc_tensor *sin[3] = {&o, &tsz, &tax}, *sout[2] = {&o1, &o2};
    CHECKF(st_run(TFCC_OP_SPLIT_V, tfb_table(NULL, 0), sin, 3, sout, 2, msg, sizeof msg) == TFCC_OK,
           "%s", msg);
    CHECKF(memcmp(o1.data, a, na * es) == 0 && memcmp(o2.data, b, nb * es) == 0,
           "dtype %d axis %d split_v differs", (int)dt, (int)axis);
    st_free(&ta);
    st_free(&tb);
    st_free(&o);
    st_free(&tsz);
    st_free(&tax);
    st_free(&o1);
    st_free(&o2);
    free(a);
    free(b);
    free(want);
  }
}

int main(void) {
  test_kernels();
  test_u8_requant();
  test_ops_roundtrip(TFCC_FLOAT32);
  test_ops_roundtrip(TFCC_INT8);
  test_ops_roundtrip(TFCC_INT16);
  test_ops_roundtrip(TFCC_UINT8);
  return tfcc_test_finish("ops.test_concat_copy");
}

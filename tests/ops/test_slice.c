/* SLICE and STRIDED_SLICE (masks, negative strides, ellipsis, new axes, offset). */
#include "shape_test_util.h"

static uint8_t opt_buf[1024];
static char msg[1024];

typedef struct ss_case {
  const char *name;
  int32_t in_rank, in_dims[4];
  int32_t n, begin[4], end[4], strides[4];
  int32_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_mask, offset;
  int32_t out_rank, out_dims[4];
  int32_t expect[16];
} ss_case;

static const ss_case k_cases[] = {
    {"reverse all",
     1,
     {10},
     1,
     {-1},
     {-11},
     {-1},
     0,
     0,
     0,
     0,
     0,
     0,
     1,
     {10},
     {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
    {"stride 3", 1, {10}, 1, {1}, {8}, {3}, 0, 0, 0, 0, 0, 0, 1, {3}, {1, 4, 7}},
    {"begin mask, stride -2",
     1,
     {10},
     1,
     {0},
     {0},
     {-2},
     1,
     0,
     0,
     0,
     0,
     0,
     1,
     {5},
     {9, 7, 5, 3, 1}},
    {"end mask, stride -3", 1, {10}, 1, {8}, {5}, {-3}, 0, 1, 0, 0, 0, 0, 1, {3}, {8, 5, 2}},
    {"clamped end", 1, {10}, 1, {7}, {100}, {1}, 0, 0, 0, 0, 0, 0, 1, {3}, {7, 8, 9}},
    {"empty", 1, {10}, 1, {5}, {2}, {1}, 0, 0, 0, 0, 0, 0, 1, {0}, {0}},
    {"shrink row", 2, {3, 4}, 2, {-2, 0}, {0, 4}, {1, 1}, 0, 0, 0, 0, 1, 0, 1, {4}, {4, 5, 6, 7}},
    {"ellipsis",
     2,
     {3, 4},
     2,
     {0, 1},
     {0, 3},
     {1, 1},
     0,
     0,
     1,
     0,
     0,
     0,
     2,
     {3, 2},
     {1, 2, 5, 6, 9, 10}},
    {"new axis",
     2,
     {3, 4},
     2,
     {0, 1},
     {0, 3},
     {1, 1},
     0,
     0,
     0,
     1,
     0,
     0,
     3,
     {1, 2, 4},
     {4, 5, 6, 7, 8, 9, 10, 11}},
    {"partial spec", 2, {3, 4}, 1, {2}, {3}, {1}, 0, 0, 0, 0, 0, 0, 2, {1, 4}, {8, 9, 10, 11}},
    {"offset", 1, {10}, 1, {2}, {3}, {1}, 0, 0, 0, 0, 0, 1, 1, {3}, {2, 3, 4}},
    {"2d negative strides",
     2,
     {3, 4},
     2,
     {2, 3},
     {-4, 0},
     {-2, -2},
     0,
     0,
     0,
     0,
     0,
     0,
     2,
     {2, 2},
     {11, 9, 3, 1}},
};

static void test_strided_slice(void) {
  for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
    const ss_case *k = &k_cases[c];
    int32_t x[12];
    for (int i = 0; i < 12; i++) x[i] = i;
    tfcc_tensor ti = st_tensor(TFCC_INT32, k->in_rank, k->in_dims, x);
    tfcc_tensor tb = st_tensor(TFCC_INT32, 1, &k->n, k->begin);
    tfcc_tensor te = st_tensor(TFCC_INT32, 1, &k->n, k->end);
    tfcc_tensor ts = st_tensor(TFCC_INT32, 1, &k->n, k->strides);
    tfcc_tensor o = st_output(TFCC_INT32);
    tfcc_tensor *in[] = {&ti, &tb, &te, &ts}, *out[] = {&o};
    tfb_field f[] = {{.field = 0, .kind = TFB_I32, .i = k->begin_mask},
                     {.field = 1, .kind = TFB_I32, .i = k->end_mask},
                     {.field = 2, .kind = TFB_I32, .i = k->ellipsis_mask},
                     {.field = 3, .kind = TFB_I32, .i = k->new_axis_mask},
                     {.field = 4, .kind = TFB_I32, .i = k->shrink_mask},
                     {.field = 5, .kind = TFB_U8, .i = k->offset}};
    tfcc_status st = st_run(TFCC_OP_STRIDED_SLICE, tfb_build(opt_buf, sizeof opt_buf, f, 6), in, 4,
                            out, 1, msg, sizeof msg);
    CHECKF(st == TFCC_OK, "%s: %s", k->name, msg);
    bool shape_ok = o.rank == k->out_rank;
    for (int d = 0; shape_ok && d < o.rank; d++) shape_ok = o.dims[d] == k->out_dims[d];
    CHECKF(shape_ok, "%s: rank %d dims %d %d", k->name, (int)o.rank, (int)o.dims[0],
           (int)o.dims[1]);
    if (shape_ok) {
      int64_t n = tfcc_tensor_elements(&o);
      int bad = 0;
      for (int64_t i = 0; i < n; i++) bad += ((int32_t *)o.data)[i] != k->expect[i];
      CHECKF(bad == 0, "%s: %d wrong", k->name, bad);
    }
    st_free(&ti);
    st_free(&tb);
    st_free(&te);
    st_free(&ts);
    st_free(&o);
  }
  /* Zero stride and out-of-range shrink are rejected. */
  int32_t x[4] = {1, 2, 3, 4}, one = 1, b = 0, e = 4, z = 0, big = 7;
  tfcc_tensor ti = st_tensor(TFCC_INT32, 1, (int32_t[]){4}, x);
  tfcc_tensor tb = st_tensor(TFCC_INT32, 1, &one, &b), te = st_tensor(TFCC_INT32, 1, &one, &e);
  tfcc_tensor ts = st_tensor(TFCC_INT32, 1, &one, &z);
  tfcc_tensor o = st_output(TFCC_INT32);
  tfcc_tensor *in[] = {&ti, &tb, &te, &ts}, *out[] = {&o};
  tfcc_fb_table none = {0};
  CHECK(st_run(TFCC_OP_STRIDED_SLICE, none, in, 4, out, 1, msg, sizeof msg) ==
        TFCC_ERR_INVALID_MODEL);
  *(int32_t *)ts.data = 1;
  *(int32_t *)tb.data = big;
  tfb_field f[] = {{.field = 4, .kind = TFB_I32, .i = 1}};
  CHECK(st_run(TFCC_OP_STRIDED_SLICE, tfb_build(opt_buf, sizeof opt_buf, f, 1), in, 4, out, 1, msg,
               sizeof msg) == TFCC_ERR_SHAPE);
  st_free(&ti);
  st_free(&tb);
  st_free(&te);
  st_free(&ts);
  st_free(&o);
}

static void test_slice(void) {
  float x[60];
  for (int i = 0; i < 60; i++) x[i] = (float)i;
  tfcc_tensor ti = st_tensor(TFCC_FLOAT32, 3, (int32_t[]){3, 4, 5}, x);
  int64_t begin[3] = {1, 0, 2}, size[3] = {-1, 3, 2};
  tfcc_tensor tb = st_tensor(TFCC_INT64, 1, (int32_t[]){3}, begin);
  tfcc_tensor ts = st_tensor(TFCC_INT64, 1, (int32_t[]){3}, size);
  tfcc_tensor o = st_output(TFCC_FLOAT32);
  tfcc_tensor *in[] = {&ti, &tb, &ts}, *out[] = {&o};
  tfcc_fb_table none = {0};
  CHECKF(st_run(TFCC_OP_SLICE, none, in, 3, out, 1, msg, sizeof msg) == TFCC_OK, "%s", msg);
  CHECK(o.rank == 3 && o.dims[0] == 2 && o.dims[1] == 3 && o.dims[2] == 2);
  int bad = 0;
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 3; b++)
      for (int c = 0; c < 2; c++)
        bad += ((float *)o.data)[(a * 3 + b) * 2 + c] != x[((a + 1) * 4 + b) * 5 + c + 2];
  CHECK(bad == 0);
  ((int64_t *)ts.data)[2] = 4; /* 2 + 4 > 5 */
  CHECK(st_run(TFCC_OP_SLICE, none, in, 3, out, 1, msg, sizeof msg) == TFCC_ERR_SHAPE);
  ((int64_t *)ts.data)[2] = -2;
  CHECK(st_run(TFCC_OP_SLICE, none, in, 3, out, 1, msg, sizeof msg) == TFCC_ERR_SHAPE);
  st_free(&ti);
  st_free(&tb);
  st_free(&ts);
  st_free(&o);
}

int main(void) {
  test_strided_slice();
  test_slice();
  return tfcc_test_finish("ops.test_slice");
}

/* ARG_MAX / ARG_MIN against a straightforward scan, every input dtype, both index dtypes,
 * both axis dtypes, negative axes and ties (first index wins, as TFLite). */
#include <stdlib.h>
#include <string.h>

#include "fb_test_builder.h"
#include "format/tflite_options.h"
#include "ops/op.h"
#include "test_harness.h"

/* The node's options from a hand-built options table, read as the model loader reads them. */
static tfcc_status read_opts(tfcc_ir_node *node, uint8_t type, tfcc_fb_table t, tfcc_err *err) {
  return tfl_read_options(node->builtin, type, &t, &node->opts, err);
}

static uint32_t rng = 777u;
static uint32_t rnd(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static const tfcc_quant k_noq = {0, 0, NULL, NULL};

static void mk(tfcc_tensor *t, tfcc_dtype dt, int32_t rank, const int32_t *dims, void *data) {
  memset(t, 0, sizeof(*t));
  t->dtype = dt;
  t->rank = rank;
  for (int32_t i = 0; i < rank; i++) t->dims[i] = dims[i];
  t->data = data;
  t->quant = &k_noq;
  t->known = data != NULL;
}

static double get(tfcc_dtype dt, const void *p, int64_t i) {
  switch (dt) {
    case TFCC_FLOAT32: return ((const float *)p)[i];
    case TFCC_UINT8:
    case TFCC_BOOL: return ((const uint8_t *)p)[i];
    case TFCC_INT8: return ((const int8_t *)p)[i];
    case TFCC_INT16: return ((const int16_t *)p)[i];
    case TFCC_INT32: return ((const int32_t *)p)[i];
    default: return (double)((const int64_t *)p)[i];
  }
}

static void put(tfcc_dtype dt, void *p, int64_t i, int32_t v) {
  switch (dt) {
    case TFCC_FLOAT32: ((float *)p)[i] = (float)v * 0.25f; break;
    case TFCC_UINT8: ((uint8_t *)p)[i] = (uint8_t)(v + 8); break;
    case TFCC_BOOL: ((uint8_t *)p)[i] = (uint8_t)(v > 0); break;
    case TFCC_INT8: ((int8_t *)p)[i] = (int8_t)v; break;
    case TFCC_INT16: ((int16_t *)p)[i] = (int16_t)(v * 1000); break;
    case TFCC_INT32: ((int32_t *)p)[i] = v * 100000; break;
    default: ((int64_t *)p)[i] = (int64_t)v * ((int64_t)1 << 40); break;
  }
}

static tfcc_status run(bool is_max, tfcc_tensor *in, tfcc_tensor *axis, tfcc_tensor *out,
                       int out_type_opt, tfcc_err *err) {
  uint8_t storage[256];
  tfb_field f = {.field = 0, .kind = TFB_U8, .i = out_type_opt};
  tfcc_ir_node node;
  memset(&node, 0, sizeof(node));
  node.builtin = is_max ? TFCC_OP_ARG_MAX : TFCC_OP_ARG_MIN;
  tfcc_status st =
      read_opts(&node, 0, tfb_build(storage, sizeof(storage), &f, out_type_opt >= 0 ? 1 : 0), err);
  if (st != TFCC_OK) return st;
  tfcc_tensor *ins[2] = {in, axis}, *outs[1] = {out};
  tfcc_op_ctx ctx = {.node = &node,
                     .in = ins,
                     .n_in = 2,
                     .out = outs,
                     .n_out = 1,
                     .err = err,
                     .ks = tfcc_kernel_set_for(TFCC_ISA_GENERIC)};
  const tfcc_op_def *def = tfcc_op_lookup(is_max ? TFCC_OP_ARG_MAX : TFCC_OP_ARG_MIN);
  st = def->prepare(&ctx);
  if (st != TFCC_OK) return st;
  out->data = calloc((size_t)tfcc_tensor_elements(out) + 1, 8);
  return def->eval(&ctx);
}

static void test_all(void) {
  static const tfcc_dtype in_types[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16,
                                        TFCC_INT32,   TFCC_INT64, TFCC_BOOL};
  static const int32_t shapes[][4] = {{2, 3, 4, 5}, {1, 7, 1, 3}, {3, 1, 2, 9}};
  for (size_t t = 0; t < sizeof(in_types) / sizeof(in_types[0]); t++) {
    for (int s = 0; s < 3; s++) {
      for (int axis_v = -4; axis_v < 4; axis_v++) {
        for (int variant = 0; variant < 4; variant++) {
          bool is_max = variant & 1;
          tfcc_dtype odt = (variant & 2) ? TFCC_INT64 : TFCC_INT32;
          tfcc_dtype adt = ((axis_v + 4) & 1) ? TFCC_INT64 : TFCC_INT32;
          const int32_t *dims = shapes[s];
          int64_t n = (int64_t)dims[0] * dims[1] * dims[2] * dims[3];
          void *x = malloc((size_t)n * 8);
          /* Small value range: many ties. */
          for (int64_t i = 0; i < n; i++) put(in_types[t], x, i, (int32_t)(rnd() % 7) - 3);
          tfcc_tensor in, axis, out;
          int32_t one[1] = {1};
          int64_t av64 = axis_v;
          int32_t av32 = axis_v;
          mk(&in, in_types[t], 4, dims, x);
          mk(&axis, adt, 1, one, adt == TFCC_INT64 ? (void *)&av64 : (void *)&av32);
          mk(&out, odt, 0, one, NULL);
          tfcc_err err = {0};
          tfcc_status st = run(is_max, &in, &axis, &out, (int)odt, &err);
          CHECKF(st == TFCC_OK, "%s: %s", tfcc_dtype_name(in_types[t]), err.msg);
          if (st == TFCC_OK) {
            int a = axis_v < 0 ? axis_v + 4 : axis_v;
            CHECK(out.rank == 3);
            int64_t outer = 1, inner = 1;
            for (int d = 0; d < a; d++) outer *= dims[d];
            for (int d = a + 1; d < 4; d++) inner *= dims[d];
            for (int64_t o = 0; o < outer; o++) {
              for (int64_t j = 0; j < inner; j++) {
                int64_t best = 0;
                for (int64_t i = 1; i < dims[a]; i++) {
                  double v = get(in_types[t], x, (o * dims[a] + i) * inner + j);
                  double b = get(in_types[t], x, (o * dims[a] + best) * inner + j);
                  if (is_max ? v > b : v < b) best = i;
                }
                int64_t got = odt == TFCC_INT32 ? ((int32_t *)out.data)[o * inner + j]
                                                : ((int64_t *)out.data)[o * inner + j];
                CHECKF(got == best, "%s axis %d: %lld vs %lld", tfcc_dtype_name(in_types[t]),
                       axis_v, (long long)got, (long long)best);
              }
            }
          }
          free(out.data);
          free(x);
        }
      }
    }
  }
}

static void test_errors(void) {
  float x[6] = {1, 2, 3, 4, 5, 6};
  int32_t dims[2] = {2, 3}, one[1] = {1}, two[1] = {2};
  int32_t ax_bad = 2, ax_ok[2] = {1, 0};
  tfcc_tensor in, axis, out;
  tfcc_err err = {0};
  mk(&in, TFCC_FLOAT32, 2, dims, x);
  mk(&axis, TFCC_INT32, 1, one, &ax_bad);
  mk(&out, TFCC_INT32, 0, one, NULL);
  CHECK(run(true, &in, &axis, &out, TFCC_INT32, &err) == TFCC_ERR_SHAPE);
  free(out.data);
  mk(&axis, TFCC_INT32, 1, two, ax_ok);
  CHECK(run(true, &in, &axis, &out, TFCC_INT32, &err) == TFCC_ERR_SHAPE);
  mk(&axis, TFCC_INT32, 1, one, ax_ok);
  mk(&out, TFCC_FLOAT32, 0, one, NULL);
  CHECK(run(false, &in, &axis, &out, TFCC_FLOAT32, &err) == TFCC_ERR_DTYPE);
  mk(&out, TFCC_INT32, 0, one, NULL);
  CHECK(run(false, &in, &axis, &out, TFCC_INT64, &err) == TFCC_ERR_DTYPE);
  axis.known = false;
  CHECK(run(false, &in, &axis, &out, TFCC_INT32, &err) == TFCC_ERR_UNSUPPORTED);
  mk(&axis, TFCC_INT32, 1, one, ax_ok);
  mk(&in, TFCC_FLOAT32, 0, dims, x);
  CHECK(run(false, &in, &axis, &out, TFCC_INT32, &err) == TFCC_ERR_SHAPE);
  /* Rank-1 input: scalar output; no options table: output dtype taken from the tensor. */
  mk(&in, TFCC_FLOAT32, 1, &dims[1], x);
  int32_t ax0 = 0;
  mk(&axis, TFCC_INT32, 1, one, &ax0);
  mk(&out, TFCC_INT64, 0, one, NULL);
  CHECK(run(true, &in, &axis, &out, -1, &err) == TFCC_OK);
  CHECK(out.rank == 0 && ((int64_t *)out.data)[0] == 2);
  free(out.data);
}

int main(void) {
  test_all();
  test_errors();
  return tfcc_test_finish("ops.arg");
}

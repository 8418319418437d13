/* Reads every model in ../shared/models and checks it against what models/README.md says:
 * schema version, subgraph/operator counts, operators by name, constant tensors by dtype,
 * per-axis and sparse constants, inputs/outputs (tensor index, name, dtype, shape,
 * quantization, dynamic signature) and signature defs. Also checks the invariants the rest
 * of the engine relies on (indices in range, constant data sized and aligned). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format/tflite_reader.h"
#include "test_harness.h"

typedef struct io_expect {
  int32_t tensor;
  const char *name;
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_DIMS];
  double scale;
  int32_t zero_point;
  int quantized;
  int dynamic; /* shape_signature has -1 */
} io_expect;

typedef struct model_expect {
  const char *name;
  uint32_t schema;
  int32_t n_subgraphs, n_ops;
  struct {
    tfcc_dtype dtype;
    int count;
  } consts[4];
  int per_axis, sparse;
  const char *sig_key, *sig_in;
  int32_t sig_in_tensor;
  const char *sig_out;
  int32_t sig_out_tensor;
  int n_in;
  io_expect in[4];
  int n_out;
  io_expect out[6];
  struct {
    const char *op;
    int count;
  } ops[24];
} model_expect;

/* Transcribed by script from ../shared/models/README.md (one entry per model section). */
static const model_expect k_models[] = {
    {"mobilenet_v1_025_128_quant",
     3,
     1,
     31,
     {{TFCC_INT32, 29}, {TFCC_UINT8, 28}},
     0,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{0, "input", TFCC_UINT8, 4, {1, 128, 128, 3}, 0.0078125, 128, 1, 0}},
     1,
     {{88, "MobilenetV1/Predictions/Reshape_1", TFCC_UINT8, 2, {1, 1001}, 0.00390625, 0, 1, 0}},
     {{"CONV_2D", 15},
      {"DEPTHWISE_CONV_2D", 13},
      {"AVERAGE_POOL_2D", 1},
      {"RESHAPE", 1},
      {"SOFTMAX", 1}}},
    {"mobilenet_v2_224_quant",
     3,
     1,
     66,
     {{TFCC_INT32, 54}, {TFCC_UINT8, 53}},
     0,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{0, "input", TFCC_UINT8, 4, {1, 224, 224, 3}, 0.0078125, 128, 1, 0}},
     1,
     {{173, "MobilenetV2/Predictions/Softmax", TFCC_UINT8, 2, {1, 1001}, 0.00390625, 0, 1, 0}},
     {{"CONV_2D", 36},
      {"DEPTHWISE_CONV_2D", 17},
      {"ADD", 10},
      {"AVERAGE_POOL_2D", 1},
      {"RESHAPE", 1},
      {"SOFTMAX", 1}}},
    {"tf2_mobilenet_v2_224_ptq",
     3,
     1,
     68,
     {{TFCC_INT32, 55}, {TFCC_INT8, 53}},
     106,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{0, "input", TFCC_UINT8, 4, {1, 224, 224, 3}, 0.00784313772, 127, 1, 0}},
     1,
     {{176, "Identity", TFCC_UINT8, 2, {1, 1001}, 0.00390625, 0, 1, 0}},
     {{"CONV_2D", 36},
      {"DEPTHWISE_CONV_2D", 17},
      {"ADD", 10},
      {"QUANTIZE", 2},
      {"MEAN", 1},
      {"RESHAPE", 1},
      {"SOFTMAX", 1}}},
    {"movenet_lightning_ptq",
     3,
     1,
     157,
     {{TFCC_INT32, 91}, {TFCC_INT8, 82}},
     146,
     0,
     "serving_default",
     "input",
     0,
     "output_0",
     332,
     1,
     {{0, "serving_default_input:0", TFCC_UINT8, 4, {1, 192, 192, 3}, 0, 0, 0, 0}},
     1,
     {{332, "StatefulPartitionedCall:0", TFCC_FLOAT32, 4, {1, 1, 17, 3}, 0, 0, 0, 0}},
     {{"CONV_2D", 50},
      {"DEPTHWISE_CONV_2D", 24},
      {"ADD", 19},
      {"RESHAPE", 12},
      {"QUANTIZE", 8},
      {"MUL", 7},
      {"SUB", 6},
      {"CAST", 5},
      {"DEQUANTIZE", 4},
      {"GATHER_ND", 4},
      {"PACK", 3},
      {"RESIZE_BILINEAR", 3},
      {"ARG_MAX", 2},
      {"CONCATENATION", 2},
      {"FLOOR_DIV", 2},
      {"LOGISTIC", 2},
      {"UNPACK", 2},
      {"DIV", 1},
      {"SQRT", 1}}},
    {"deeplabv3_mnv2_dm05_quant",
     3,
     1,
     72,
     {{TFCC_INT32, 58}, {TFCC_UINT8, 55}},
     0,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{0, "MobilenetV2/MobilenetV2/input", TFCC_UINT8, 4, {1, 513, 513, 3}, 0.0078125, 128, 1, 0}},
     1,
     {{185, "ArgMax", TFCC_INT64, 3, {1, 513, 513}, 0, 0, 0, 0}},
     {{"CONV_2D", 38},
      {"DEPTHWISE_CONV_2D", 17},
      {"ADD", 10},
      {"RESIZE_BILINEAR", 3},
      {"ARG_MAX", 1},
      {"AVERAGE_POOL_2D", 1},
      {"CONCATENATION", 1},
      {"QUANTIZE", 1}}},
    {"keras_lstm_mnist_ptq",
     3,
     1,
     6,
     {{TFCC_INT32, 6}, {TFCC_INT8, 9}},
     0,
     0,
     "serving_default",
     "x",
     0,
     "output_0",
     28,
     1,
     {{0, "serving_default_x:0", TFCC_UINT8, 3, {1, 28, 28}, 0.00392156886, 0, 1, 0}},
     1,
     {{28, "StatefulPartitionedCall:0", TFCC_UINT8, 2, {1, 10}, 0.00390625, 0, 1, 0}},
     {{"QUANTIZE", 2},
      {"FULLY_CONNECTED", 1},
      {"RESHAPE", 1},
      {"SOFTMAX", 1},
      {"UNIDIRECTIONAL_SEQUENCE_LSTM", 1}}},
    {"split_concat_quant",
     3,
     1,
     3,
     {{TFCC_INT32, 1}},
     0,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     3,
     {{0, "input1", TFCC_UINT8, 4, {1, 8, 8, 3}, 0.0078125, 128, 1, 0},
      {1, "inputs/rnn1", TFCC_UINT8, 4, {1, 8, 8, 1}, 0.0078125, 128, 1, 0},
      {2, "inputs/rnn2", TFCC_UINT8, 4, {1, 8, 8, 2}, 0.0078125, 128, 1, 0}},
     5,
     {{4, "concat/split0", TFCC_UINT8, 4, {1, 8, 8, 1}, 0.0078125, 128, 1, 0},
      {6, "concat/split2", TFCC_UINT8, 4, {1, 8, 8, 1}, 0.0078125, 128, 1, 0},
      {8, "concat/split4", TFCC_UINT8, 4, {1, 8, 8, 1}, 0.0078125, 128, 1, 0},
      {5, "outputs/rnn1", TFCC_UINT8, 4, {1, 8, 8, 1}, 0.0078125, 128, 1, 0},
      {10, "outputs/rnn2", TFCC_UINT8, 4, {1, 8, 8, 2}, 0.0078125, 128, 1, 0}},
     {{"CONCATENATION", 2}, {"SPLIT", 1}}},
    {"hello_world_int8",
     3,
     1,
     3,
     {{TFCC_INT32, 3}, {TFCC_INT8, 3}},
     0,
     0,
     "serving_default",
     "dense_input",
     0,
     "dense_2",
     9,
     1,
     {{0, "serving_default_dense_input:0", TFCC_INT8, 2, {1, 1}, 0.0244801156, -128, 1, 1}},
     1,
     {{9, "StatefulPartitionedCall:0", TFCC_INT8, 2, {1, 1}, 0.00829095673, 5, 1, 1}},
     {{"FULLY_CONNECTED", 3}}},
    {"person_detect_int8",
     3,
     1,
     31,
     {{TFCC_INT32, 29}, {TFCC_INT8, 28}},
     56,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{88, "input", TFCC_INT8, 4, {1, 96, 96, 1}, 0.00784313772, -1, 1, 0}},
     1,
     {{87, "MobilenetV1/Predictions/Reshape_1", TFCC_INT8, 2, {1, 2}, 0.00390625, -128, 1, 0}},
     {{"CONV_2D", 14},
      {"DEPTHWISE_CONV_2D", 14},
      {"AVERAGE_POOL_2D", 1},
      {"RESHAPE", 1},
      {"SOFTMAX", 1}}},
    {"mnist_lstm_float",
     3,
     1,
     4,
     {{TFCC_FLOAT32, 14}, {TFCC_INT32, 1}},
     0,
     0,
     "serving_default",
     "fixed_input",
     0,
     "sequential",
     21,
     1,
     {{0, "serving_default_fixed_input:0", TFCC_FLOAT32, 3, {1, 28, 28}, 0, 0, 0, 0}},
     1,
     {{21, "StatefulPartitionedCall:0", TFCC_FLOAT32, 2, {1, 10}, 0, 0, 0, 0}},
     {{"FULLY_CONNECTED", 1}, {"RESHAPE", 1}, {"SOFTMAX", 1}, {"UNIDIRECTIONAL_SEQUENCE_LSTM", 1}}},
    {"face_detection_short_range",
     3,
     1,
     164,
     {{TFCC_FLOAT16, 74}, {TFCC_INT32, 11}},
     0,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{0, "input", TFCC_FLOAT32, 4, {1, 128, 128, 3}, 0, 0, 0, 0}},
     2,
     {{175, "regressors", TFCC_FLOAT32, 3, {1, 896, 16}, 0, 0, 0, 0},
      {174, "classificators", TFCC_FLOAT32, 3, {1, 896, 1}, 0, 0, 0, 0}},
     {{"DEQUANTIZE", 74},
      {"CONV_2D", 21},
      {"RELU", 17},
      {"ADD", 16},
      {"DEPTHWISE_CONV_2D", 16},
      {"PAD", 11},
      {"RESHAPE", 4},
      {"MAX_POOL_2D", 3},
      {"CONCATENATION", 2}}},
    {"face_detection_full_range_sparse",
     3,
     1,
     388,
     {{TFCC_FLOAT16, 182}, {TFCC_INT32, 6}},
     0,
     46,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{0, "input_1", TFCC_FLOAT32, 4, {1, 192, 192, 3}, 0, 0, 0, 0}},
     2,
     {{576, "Identity", TFCC_FLOAT32, 3, {1, 2304, 16}, 0, 0, 0, 0},
      {562, "Identity_1", TFCC_FLOAT32, 3, {1, 2304, 1}, 0, 0, 0, 0}},
     {{"DEQUANTIZE", 182},
      {"CONV_2D", 49},
      {"DENSIFY", 46},
      {"PAD", 43},
      {"DEPTHWISE_CONV_2D", 42},
      {"ADD", 19},
      {"RESIZE_BILINEAR", 3},
      {"DEPTH_TO_SPACE", 2},
      {"RESHAPE", 2}}},
    {"face_landmark",
     3,
     1,
     210,
     {{TFCC_FLOAT16, 113}, {TFCC_INT32, 3}},
     0,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{0, "input_1", TFCC_FLOAT32, 4, {1, 192, 192, 3}, 0, 0, 0, 0}},
     2,
     {{213, "conv2d_21", TFCC_FLOAT32, 4, {1, 1, 1, 1404}, 0, 0, 0, 0},
      {210, "conv2d_31", TFCC_FLOAT32, 4, {1, 1, 1, 1}, 0, 0, 0, 0}},
     {{"DEQUANTIZE", 113},
      {"CONV_2D", 25},
      {"PRELU", 23},
      {"ADD", 20},
      {"DEPTHWISE_CONV_2D", 20},
      {"MAX_POOL_2D", 6},
      {"PAD", 3}}},
    {"hand_landmark_lite",
     3,
     1,
     167,
     {{TFCC_FLOAT16, 102}, {TFCC_INT32, 1}},
     0,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{0, "input_1", TFCC_FLOAT32, 4, {1, 224, 224, 3}, 0, 0, 0, 0}},
     4,
     {{167, "Identity", TFCC_FLOAT32, 2, {1, 63}, 0, 0, 0, 0},
      {166, "Identity_1", TFCC_FLOAT32, 2, {1, 1}, 0, 0, 0, 0},
      {164, "Identity_2", TFCC_FLOAT32, 2, {1, 1}, 0, 0, 0, 0},
      {168, "Identity_3", TFCC_FLOAT32, 2, {1, 63}, 0, 0, 0, 0}},
     {{"DEQUANTIZE", 102},
      {"CONV_2D", 31},
      {"DEPTHWISE_CONV_2D", 16},
      {"ADD", 10},
      {"FULLY_CONNECTED", 4},
      {"LOGISTIC", 2},
      {"MAX_POOL_2D", 1},
      {"MEAN", 1}}},
    {"deeplabv3_257_float",
     3,
     1,
     70,
     {{TFCC_FLOAT32, 110}, {TFCC_INT32, 3}},
     0,
     0,
     NULL,
     NULL,
     0,
     NULL,
     0,
     1,
     {{183, "sub_7", TFCC_FLOAT32, 4, {1, 257, 257, 3}, 0, 0, 0, 0}},
     1,
     {{168, "ResizeBilinear_3", TFCC_FLOAT32, 4, {1, 257, 257, 21}, 0, 0, 0, 0}},
     {{"CONV_2D", 38},
      {"DEPTHWISE_CONV_2D", 17},
      {"ADD", 10},
      {"RESIZE_BILINEAR", 3},
      {"AVERAGE_POOL_2D", 1},
      {"CONCATENATION", 1}}},
};

static void check_io(const char *model, const tfcc_ir_subgraph *sg, int32_t idx,
                     const io_expect *e) {
  CHECKF(idx == e->tensor, "%s: I/O tensor %d, expected %d", model, (int)idx, (int)e->tensor);
  if (idx < 0 || idx >= sg->n_tensors) return;
  const tfcc_ir_tensor *x = &sg->tensors[idx];
  CHECKF(strcmp(x->name, e->name) == 0, "%s: tensor %d name '%s', expected '%s'", model, (int)idx,
         x->name, e->name);
  CHECKF(x->dtype == e->dtype, "%s: tensor %d dtype %s", model, (int)idx,
         tfcc_dtype_name(x->dtype));
  CHECKF(x->rank == e->rank, "%s: tensor %d rank %d", model, (int)idx, (int)x->rank);
  for (int32_t d = 0; d < e->rank && d < x->rank; d++)
    CHECKF(x->dims[d] == e->dims[d], "%s: tensor %d dim %d = %d, expected %d", model, (int)idx,
           (int)d, (int)x->dims[d], (int)e->dims[d]);
  CHECKF(x->quant.count == (e->quantized ? 1 : 0), "%s: tensor %d quant count %d", model, (int)idx,
         (int)x->quant.count);
  if (e->quantized && x->quant.count == 1) {
    CHECKF(fabs(x->quant.scale[0] - e->scale) <= 1e-8 * fabs(e->scale) + 1e-12,
           "%s: tensor %d scale %.9g, expected %.9g", model, (int)idx, x->quant.scale[0], e->scale);
    CHECKF(x->quant.zero_point[0] == e->zero_point, "%s: tensor %d zero point %d", model, (int)idx,
           (int)x->quant.zero_point[0]);
  }
  CHECKF(x->has_signature == (e->dynamic != 0) || !e->dynamic, "%s: tensor %d signature flag %d",
         model, (int)idx, (int)x->has_signature);
  if (e->dynamic)
    CHECKF(x->signature[0] == -1, "%s: tensor %d signature[0] %d", model, (int)idx,
           (int)x->signature[0]);
}

/* Invariants every loaded graph must satisfy, whatever the model. */
static void check_invariants(const char *model, const tfcc_graph *g) {
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    const tfcc_ir_subgraph *sg = &g->subgraphs[s];
    for (int32_t t = 0; t < sg->n_tensors; t++) {
      const tfcc_ir_tensor *x = &sg->tensors[t];
      CHECK(x->name != NULL);
      CHECK(x->rank >= 0 && x->rank <= TFCC_MAX_RANK);
      if (x->data) {
        const uint8_t *p = x->data;
        int in_file = p >= g->file && p + x->data_bytes <= g->file + g->file_size;
        size_t es = tfcc_dtype_size(x->dtype);
        size_t al = es > 8 ? 8 : es ? es : 1;
        CHECKF((uintptr_t)p % al == 0, "%s: tensor %d data misaligned", model, (int)t);
        (void)in_file;
        if (!x->sparsity && es)
          CHECKF(x->data_bytes == (size_t)tfcc_shape_elements(x->rank, x->dims) * es,
                 "%s: tensor %d holds %zu bytes", model, (int)t, x->data_bytes);
      }
      if (x->quant.count > 1) {
        CHECK(x->quant.axis >= 0 && x->quant.axis < x->rank);
        if (x->quant.axis >= 0 && x->quant.axis < x->rank)
          CHECK(x->quant.count == x->dims[x->quant.axis]);
      }
    }
    for (int32_t n = 0; n < sg->n_nodes; n++) {
      const tfcc_ir_node *node = &sg->nodes[n];
      for (int32_t k = 0; k < node->n_inputs; k++)
        CHECK(node->inputs[k] >= -1 && node->inputs[k] < sg->n_tensors);
      for (int32_t k = 0; k < node->n_outputs; k++)
        CHECK(node->outputs[k] >= 0 && node->outputs[k] < sg->n_tensors);
      CHECK(node->version >= 1);
    }
  }
}

static void check_model(const char *dir, const model_expect *e) {
  char path[4096];
  snprintf(path, sizeof path, "%s/models/%s.tflite", dir, e->name);
  size_t size;
  uint8_t *data = tfcc_test_read_file(path, &size);
  CHECKF(data != NULL, "cannot read %s", path);
  if (!data) return;
  tfcc_graph g;
  tfcc_err err = {0};
  tfcc_status st = tfcc_tflite_read(data, size, &g, &err);
  CHECKF(st == TFCC_OK, "%s: %s", e->name, err.msg);
  if (st != TFCC_OK) {
    free(data);
    return;
  }
  CHECK(g.schema_version == e->schema);
  CHECKF(g.n_subgraphs == e->n_subgraphs, "%s: %d subgraphs", e->name, (int)g.n_subgraphs);
  const tfcc_ir_subgraph *sg = &g.subgraphs[0];
  CHECKF(sg->n_nodes == e->n_ops, "%s: %d operators, expected %d", e->name, (int)sg->n_nodes,
         (int)e->n_ops);
  /* Operators by name. */
  int total = 0;
  for (int k = 0; k < 24 && e->ops[k].op; k++) {
    int n = 0;
    for (int32_t i = 0; i < sg->n_nodes; i++)
      if (strcmp(tfcc_builtin_name(sg->nodes[i].builtin), e->ops[k].op) == 0) n++;
    CHECKF(n == e->ops[k].count, "%s: %d x %s, expected %d", e->name, n, e->ops[k].op,
           e->ops[k].count);
    total += e->ops[k].count;
  }
  CHECKF(total == e->n_ops, "%s: op table sums to %d", e->name, total);
  /* Constants by dtype, per-axis and sparse. */
  int consts_total = 0, consts_expected = 0, per_axis = 0, sparse = 0;
  for (int k = 0; k < 4 && e->consts[k].count; k++) {
    int n = 0;
    for (int32_t t = 0; t < sg->n_tensors; t++)
      if (sg->tensors[t].data && sg->tensors[t].dtype == e->consts[k].dtype) n++;
    CHECKF(n == e->consts[k].count, "%s: %d %s constants, expected %d", e->name, n,
           tfcc_dtype_name(e->consts[k].dtype), e->consts[k].count);
    consts_expected += e->consts[k].count;
  }
  for (int32_t t = 0; t < sg->n_tensors; t++) {
    const tfcc_ir_tensor *x = &sg->tensors[t];
    if (!x->data) continue;
    consts_total++;
    if (x->quant.count > 1) per_axis++;
    if (x->sparsity) sparse++;
  }
  CHECKF(consts_total == consts_expected, "%s: %d constants, expected %d", e->name, consts_total,
         consts_expected);
  CHECKF(per_axis == e->per_axis, "%s: %d per-axis constants, expected %d", e->name, per_axis,
         e->per_axis);
  CHECKF(sparse == e->sparse, "%s: %d sparse constants, expected %d", e->name, sparse, e->sparse);
  /* I/O. */
  CHECKF(sg->n_inputs == e->n_in, "%s: %d inputs", e->name, (int)sg->n_inputs);
  CHECKF(sg->n_outputs == e->n_out, "%s: %d outputs", e->name, (int)sg->n_outputs);
  for (int i = 0; i < e->n_in && i < sg->n_inputs; i++)
    check_io(e->name, sg, sg->inputs[i], &e->in[i]);
  for (int i = 0; i < e->n_out && i < sg->n_outputs; i++)
    check_io(e->name, sg, sg->outputs[i], &e->out[i]);
  /* Signatures. */
  if (e->sig_key) {
    CHECKF(g.n_signatures == 1, "%s: %d signatures", e->name, (int)g.n_signatures);
    if (g.n_signatures >= 1) {
      const tfcc_ir_signature *s = &g.signatures[0];
      CHECK(strcmp(s->key, e->sig_key) == 0);
      CHECK(s->subgraph == 0);
      CHECK(s->n_inputs == 1 && s->n_outputs == 1);
      if (s->n_inputs == 1) {
        CHECKF(strcmp(s->input_names[0], e->sig_in) == 0, "%s: sig input %s", e->name,
               s->input_names[0]);
        CHECK(s->input_tensors[0] == e->sig_in_tensor);
      }
      if (s->n_outputs == 1) {
        CHECKF(strcmp(s->output_names[0], e->sig_out) == 0, "%s: sig output %s", e->name,
               s->output_names[0]);
        CHECK(s->output_tensors[0] == e->sig_out_tensor);
      }
    }
  }
  check_invariants(e->name, &g);
  tfcc_graph_free(&g);
  CHECK(g.blocks == NULL && g.subgraphs == NULL);
  free(data);
}

/* person_detect_int8: 1-D per-axis biases whose quantized_dimension is 3 load with axis 0. */
static void check_person_detect_bias_axis(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/models/person_detect_int8.tflite", dir);
  size_t size;
  uint8_t *data = tfcc_test_read_file(path, &size);
  if (!data) return;
  tfcc_graph g;
  tfcc_err err = {0};
  if (tfcc_tflite_read(data, size, &g, &err) == TFCC_OK) {
    int biases = 0;
    const tfcc_ir_subgraph *sg = &g.subgraphs[0];
    for (int32_t t = 0; t < sg->n_tensors; t++) {
      const tfcc_ir_tensor *x = &sg->tensors[t];
      if (x->rank == 1 && x->quant.count > 1) {
        biases++;
        CHECK(x->quant.axis == 0);
        CHECK(x->dtype == TFCC_INT32);
      }
    }
    CHECKF(biases == 28, "person_detect: %d per-axis 1-D tensors", biases);
    tfcc_graph_free(&g);
  }
  free(data);
}

/* Sparse weights: the sparsity metadata reaches the IR intact. */
static void check_sparse_model(const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/models/face_detection_full_range_sparse.tflite", dir);
  size_t size;
  uint8_t *data = tfcc_test_read_file(path, &size);
  if (!data) return;
  tfcc_graph g;
  tfcc_err err = {0};
  if (tfcc_tflite_read(data, size, &g, &err) == TFCC_OK) {
    const tfcc_ir_subgraph *sg = &g.subgraphs[0];
    int checked = 0;
    for (int32_t t = 0; t < sg->n_tensors; t++) {
      const tfcc_ir_tensor *x = &sg->tensors[t];
      if (!x->sparsity) continue;
      const tfcc_sparsity *sp = x->sparsity;
      CHECK(sp->n_traversal == sp->n_dim_meta);
      CHECK(sp->n_traversal >= x->rank);
      CHECK(x->dtype == TFCC_FLOAT16);
      checked++;
    }
    CHECK(checked == 46);
    tfcc_graph_free(&g);
  }
  free(data);
}

int main(void) {
  const char *dir = tfcc_test_shared_dir();
  if (!dir) return TFCC_TEST_SKIP;
  for (size_t i = 0; i < sizeof k_models / sizeof k_models[0]; i++) check_model(dir, &k_models[i]);
  check_person_detect_bias_axis(dir);
  check_sparse_model(dir);
  return tfcc_test_finish("test_tflite_reader");
}

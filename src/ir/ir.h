/* Graph IR: what the TFLite reader produces and what operators, passes and the planner read.
 *
 * Ownership: a tfcc_graph owns all its arrays and strings (allocated from its own block list,
 * freed together by tfcc_graph_free). Constant tensor bytes point into the model file's
 * mapping (zero-copy) or, where alignment forbids a view, into a graph-owned aligned copy. */
#ifndef TFCC_GRAPH_IR_H
#define TFCC_GRAPH_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/sparsity.h"
#include "ir/builtin_ops.h"
#include "ir/op_options.h"
#include "tfcc/tfcc.h"

#define TFCC_MAX_RANK TFCC_MAX_DIMS

/* Quantization of one tensor. count == 0: not quantized. count == 1: per-tensor.
 * count > 1: per-axis along `axis`. For a 1-D tensor with an out-of-range axis (as real
 * converters emit for biases) the reader sets axis to 0, as TFLite Micro accepts it. */
typedef struct tfcc_quant {
  int32_t count;
  int32_t axis;
  float *scale;              /* [count] */
  const int32_t *zero_point; /* [count] (int64 in the file; range-checked to int32); read only:
                               all-zero arrays of one graph share one block */
} tfcc_quant;

typedef struct tfcc_ir_tensor {
  const char *name; /* never NULL ("" if the file has none) */
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_RANK];
  bool has_signature;
  int32_t signature[TFCC_MAX_RANK]; /* -1 = dynamic; equals dims when !has_signature */
  tfcc_quant quant;
  const void *data;  /* constant contents or NULL */
  size_t data_bytes; /* bytes at data */
  uint32_t buffer;   /* buffer index in the file (0 = none) */
  bool is_variable;  /* stateful: persistent per session, zero at start */
  bool folded;       /* data computed at load from constants (passes/fold_constants), not read from
                  the file: TFLite computes such a tensor at run time */
  int32_t fold_node; /* folded: the subgraph's node that computed it (removed since) */
  const tfcc_sparsity *sparsity; /* non-NULL: data is the sparse encoding */
  bool from_sparse; /* data expanded at load from a sparse encoding that FULLY_CONNECTED reads
                       itself: TFLite runs its builtin sparse kernels on it, never XNNPACK's */
  /* Blockwise quantization (QuantizationDetails BlockwiseQuantization; quant.count is then 0):
   * block_size > 0 values along the last axis share one scale of tensor block_scales (dims
   * [..., last / block_size]); block_zero_points is a tensor index or -1. block_size 0: none. */
  int32_t block_size, block_scales, block_zero_points;
} tfcc_ir_tensor;

typedef struct tfcc_ir_node {
  int32_t builtin; /* tfcc_builtin code (TFCC_OP_CUSTOM for custom ops) */
  int32_t version;
  const char *custom_code; /* custom op name, or NULL */
  int32_t n_inputs, n_outputs, n_intermediates;
  int32_t *inputs; /* tensor indices; -1 = omitted optional input */
  int32_t *outputs;
  int32_t *intermediates;
  uint8_t options_type;          /* BuiltinOptions union type in the file (0: none) */
  uint8_t options2_type;         /* BuiltinOptions2 union type (newer ops; none is read) */
  tfcc_op_options opts;          /* typed options (ir/op_options.h): filled by the reader,
                               edited by graph passes, read by operators */
  const uint8_t *custom_options; /* custom operators' raw options (in the file), or NULL */
  size_t custom_options_len;
  /* Filled when the model is built, not by the reader: */
  const struct tfcc_op_def *op; /* NULL: unsupported */
  void *params;                 /* operator-owned, from op->init */
  bool removed;                 /* dropped by a graph pass */
} tfcc_ir_node;

typedef struct tfcc_ir_subgraph {
  const char *name;
  int32_t n_tensors;
  tfcc_ir_tensor *tensors;
  int32_t n_nodes;
  tfcc_ir_node *nodes; /* in execution order */
  int32_t n_inputs, n_outputs;
  int32_t *inputs, *outputs;
  bool unrunnable; /* it, or a subgraph it calls, has an unsupported operator (runtime/model.c):
                      never prepared or run, as TFLite fails only a subgraph it prepares */
  /* ops/hybrid.c's answer for this subgraph, computed once after the graph passes
   * (passes/pass_manager.c; tfcc_classic_undelegated_note): whether TFLite's classic
   * interpreter delegates none of its nodes. 0 not computed yet (then each query scans), 1 no,
   * 2 yes. */
  uint8_t classic_undelegated;
  /* The same for tfcc_hybrid_in_model (tfcc_hybrid_in_model_note): whether a node of the model
   * (any subgraph that runs) has a float input and int8 (or legacy uint8) weights; the same in
   * every subgraph. 0 not computed yet, 1 no, 2 yes. */
  uint8_t hybrid;
} tfcc_ir_subgraph;

typedef struct tfcc_ir_metadata {
  const char *name;
  const uint8_t *data; /* buffer contents, or NULL */
  size_t size;
  uint32_t buffer;
} tfcc_ir_metadata;

typedef struct tfcc_ir_signature {
  const char *key;
  int32_t subgraph;
  int32_t n_inputs, n_outputs;
  const char **input_names; /* signature names */
  int32_t *input_tensors;   /* tensor indices */
  const char **output_names;
  int32_t *output_tensors;
} tfcc_ir_signature;

typedef struct tfcc_graph_block tfcc_graph_block; /* allocation list (private) */

/* A byte range of the model file the reader copied into the graph (a per-channel quantization
 * vector, its length word included) or expanded there (the stored values of sparse
 * FULLY_CONNECTED weights): nothing reads it after the read. */
typedef struct tfcc_ir_copied {
  const uint8_t *data;
  size_t bytes;
  struct tfcc_ir_copied *next;
} tfcc_ir_copied;

typedef struct tfcc_graph {
  uint32_t schema_version;
  const char *description;
  int32_t n_subgraphs;
  tfcc_ir_subgraph *subgraphs;
  int32_t n_metadata;
  tfcc_ir_metadata *metadata;
  int32_t n_signatures;
  tfcc_ir_signature *signatures;
  const uint8_t *file; /* the model bytes the graph points into */
  size_t file_size;
  tfcc_graph_block *blocks; /* everything the graph allocated */
  tfcc_ir_copied *copied;   /* list; runtime/const_release.h gives them back */
  size_t folded_bytes;      /* constants computed at load (passes/fold_constants.c) */
} tfcc_graph;

/* Zero-filled allocation owned by the graph (freed by tfcc_graph_free). NULL on failure. */
void *tfcc_graph_alloc(tfcc_graph *g, size_t bytes, size_t align);
/* Copies a string (len bytes, NUL added) into graph memory. */
char *tfcc_graph_strdup(tfcc_graph *g, const char *s, size_t len);
void tfcc_graph_free(tfcc_graph *g);

/* The most a shape's nonzero dimensions may multiply to (2^56), empty shapes included: every
 * tensor the reader takes and every shape a session gives a tensor (tfcc_tensor_update_bytes:
 * resized inputs, operators' outputs) is held to it, so that operators may multiply any of a
 * tensor's dimensions, and that times an element size, in int64 without overflow. An empty
 * tensor of [0, 2^31 - 1, 2^31 - 1, 2^31 - 1] passed the element count (0) and overflowed
 * int64 in the operators that take the product of the dimensions after the 0 (fuzz56: ADD's
 * broadcast walk, CUMSUM's inner extent, the 16x8 FULLY_CONNECTED's batch count at load). */
#define TFCC_SHAPE_SPAN_MAX (INT64_C(1) << 56)
/* Number of elements of a shape (1 for rank 0); -1 for a negative dim or nonzero dimensions
 * whose product passes TFCC_SHAPE_SPAN_MAX. */
int64_t tfcc_shape_elements(int32_t rank, const int32_t *dims);
/* "[1,224,224,3]" into buf. Returns buf. */
const char *tfcc_shape_str(int32_t rank, const int32_t *dims, char *buf, size_t len);

#endif

/* The classic interpreter's dynamic outputs (classic_dynamic.h). Each operator's shape-deciding
 * inputs, as its kernel's Prepare tests them (IsConstantTensor, TFLite 2.12 as the tfjs-tflite
 * build of tflite-ref's `tfweb` carries it), each probed on `tfweb` with a model input in that
 * place and a LOGISTIC on no path from the node: Eigen's logistic (no node delegated) for every
 * row below, the delegate's sigmoid for SLICE (begin or size computed: it stays static there),
 * GATHER, GATHER_ND, REVERSE_V2, CUMSUM, DYNAMIC_UPDATE_SLICE, BROADCAST_ARGS, SHAPE, SQUEEZE,
 * MATRIX_DIAG and ONE_HOT by computed indices. */
#include "ops/classic_dynamic.h"

#include <stddef.h>
#include <stdint.h>

#include "ir/builtin_ops.h"

#define IN(k) (1u << (k))
#define ALWAYS 0x80000000u /* the output's size depends on the values, whatever the inputs */

/* Each operator and the inputs whose being computed makes its output dynamic (a mask of input
 * positions; the input's name in TFLite's kernel after it). */
typedef struct shape_rule {
  int32_t builtin;
  uint32_t inputs;
} shape_rule;

static const shape_rule k_rules[] = {
    {TFCC_OP_FILL, IN(0)},                          /* dims */
    {TFCC_OP_RESHAPE, IN(1)},                       /* shape */
    {TFCC_OP_RESIZE_BILINEAR, IN(1)},               /* size */
    {TFCC_OP_RESIZE_NEAREST_NEIGHBOR, IN(1)},       /* size */
    {TFCC_OP_STRIDED_SLICE, IN(1) | IN(2) | IN(3)}, /* begin, end, strides */
    {TFCC_OP_PAD, IN(1)},                           /* paddings */
    {TFCC_OP_PADV2, IN(1)},                         /* paddings */
    {TFCC_OP_MIRROR_PAD, IN(1)},                    /* paddings */
    {TFCC_OP_TILE, IN(1)},                          /* multiples */
    {TFCC_OP_BROADCAST_TO, IN(1)},                  /* shape */
    {TFCC_OP_RANGE, IN(0) | IN(1) | IN(2)},         /* start, limit, delta */
    {TFCC_OP_TRANSPOSE, IN(1)},                     /* perm */
    {TFCC_OP_MEAN, IN(1)},                          /* axis */
    {TFCC_OP_SUM, IN(1)},                           /* axis */
    {TFCC_OP_REDUCE_PROD, IN(1)},                   /* axis */
    {TFCC_OP_REDUCE_MAX, IN(1)},                    /* axis */
    {TFCC_OP_REDUCE_MIN, IN(1)},                    /* axis */
    {TFCC_OP_REDUCE_ANY, IN(1)},                    /* axis */
    {TFCC_OP_REDUCE_ALL, IN(1)},                    /* axis */
    {TFCC_OP_ARG_MAX, IN(1)},                       /* axis */
    {TFCC_OP_ARG_MIN, IN(1)},                       /* axis */
    {TFCC_OP_EXPAND_DIMS, IN(1)},                   /* axis */
    {TFCC_OP_SPLIT, IN(0)},                         /* axis */
    {TFCC_OP_SPLIT_V, IN(1) | IN(2)},               /* size_splits, axis */
    {TFCC_OP_ONE_HOT, IN(1)},                       /* depth */
    {TFCC_OP_SPACE_TO_BATCH_ND, IN(1) | IN(2)},     /* block_shape, paddings */
    {TFCC_OP_BATCH_TO_SPACE_ND, IN(1) | IN(2)},     /* block_shape, crops */
    {TFCC_OP_SCATTER_ND, IN(2)},                    /* shape */
    {TFCC_OP_SPARSE_TO_DENSE, IN(1)},               /* output_shape */
    {TFCC_OP_SEGMENT_SUM, IN(1)},                   /* segment_ids */
    {TFCC_OP_UNSORTED_SEGMENT_SUM, IN(1) | IN(2)},  /* segment_ids, num_segments */
    {TFCC_OP_UNSORTED_SEGMENT_PROD, IN(1) | IN(2)}, /* segment_ids, num_segments */
    {TFCC_OP_UNSORTED_SEGMENT_MAX, IN(1) | IN(2)},  /* segment_ids, num_segments */
    {TFCC_OP_UNSORTED_SEGMENT_MIN, IN(1) | IN(2)},  /* segment_ids, num_segments */
    {TFCC_OP_TOPK_V2, IN(1)},                       /* k */
    {TFCC_OP_WHERE, IN(0)},                         /* condition */
    {TFCC_OP_NON_MAX_SUPPRESSION_V4, IN(2)},        /* max_output_size */
    {TFCC_OP_NON_MAX_SUPPRESSION_V5, IN(2)},        /* max_output_size */
    {TFCC_OP_RANDOM_UNIFORM, IN(0)},                /* shape */
    {TFCC_OP_RANDOM_STANDARD_NORMAL, IN(0)},        /* shape */
    {TFCC_OP_MULTINOMIAL, IN(1)},                   /* num_samples */
    {TFCC_OP_TRANSPOSE_CONV, IN(0)},                /* output_shape */
    {TFCC_OP_CONV_3D_TRANSPOSE, IN(0)},             /* output_shape */
    {TFCC_OP_RFFT2D, IN(1)},                        /* fft_length */
    {TFCC_OP_UNIQUE, ALWAYS},
};

static uint32_t shape_inputs(int32_t builtin) {
  for (size_t i = 0; i < sizeof k_rules / sizeof k_rules[0]; i++)
    if (k_rules[i].builtin == builtin) return k_rules[i].inputs;
  return 0;
}

/* Whether input k of n is present and not a constant of the file (computed at run time, or
 * folded by tfcc at load: to TFLite's Prepare it is not constant either). */
static bool input_computed(const tfcc_ir_subgraph *sg, const tfcc_ir_node *n, int32_t k) {
  if (n->n_inputs <= k || n->inputs[k] < 0 || n->inputs[k] >= sg->n_tensors) return false;
  const tfcc_ir_tensor *t = &sg->tensors[n->inputs[k]];
  return !t->data || t->folded;
}

bool tfcc_classic_output_dynamic(const tfcc_ir_subgraph *sg, const tfcc_ir_node *n) {
  const uint32_t m = shape_inputs(n->builtin);
  if (m & ALWAYS) return true;
  for (int32_t k = 0; k < 31; k++)
    if ((m & IN(k)) && input_computed(sg, n, k)) return true;
  return false;
}

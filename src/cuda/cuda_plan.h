/* The CUDA backend's plan of one session (host code, no CUDA call; tested without a GPU):
 * which nodes of the CPU's execution plan run on the GPU (the rest fall back to the CPU), the
 * steps each GPU node launches with their geometry, the copies between host and device memory
 * where the two meet, and the device arena (offsets) laid out with the core's planner. */
#ifndef TFCC_CUDA_CUDA_PLAN_H
#define TFCC_CUDA_CUDA_PLAN_H

#include <stdbool.h>

#include "cuda/gpu_kernels.h"
#include "runtime/device_backend.h"

typedef enum tfcc_gs_kind {
  TFCC_GS_CONV = 0,  /* CONV_2D: im2col (unless 1x1 dense) + GEMM + bias/residual/act */
  TFCC_GS_FC,        /* FULLY_CONNECTED: GEMM + bias/act */
  TFCC_GS_DWCONV,    /* DEPTHWISE_CONV_2D */
  TFCC_GS_BINARY,    /* ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE, POW */
  TFCC_GS_UNARY,     /* RELU family, LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, ELU, GELU */
  TFCC_GS_POOL,      /* AVERAGE_POOL_2D, MAX_POOL_2D */
  TFCC_GS_REDUCE,    /* MEAN, SUM, REDUCE_MAX over adjacent axes */
  TFCC_GS_SOFTMAX,   /* SOFTMAX over the last axis */
  TFCC_GS_PAD,       /* PAD, PADV2 */
  TFCC_GS_CONCAT,    /* CONCATENATION: strided device copies */
  TFCC_GS_RESIZE,    /* RESIZE_BILINEAR, RESIZE_NEAREST_NEIGHBOR */
  TFCC_GS_TRANSPOSE, /* TRANSPOSE */
  TFCC_GS_COPY       /* a reshape the CPU plan does not make a view: device copy */
} tfcc_gs_kind;

/* One GPU node's launch parameters. Tensor indices are the plan's (-1: none). */
typedef struct tfcc_gs {
  tfcc_gs_kind kind;
  int32_t en;    /* exec node index in the plan */
  int32_t in[4]; /* data, weights (or b), bias, residual */
  int32_t out;
  int32_t act; /* tfcc_gpu_act */
  float param; /* LEAKY_RELU alpha, SOFTMAX beta, PADV2 value */
  int32_t op;  /* binary op, reduce op, pool is_max */
  tfcc_gpu_conv_geom g;
  bool im2col;           /* CONV_2D reads an im2col copy (scratch) */
  int64_t rows, cols, k; /* GEMM: rows x k times (cols x k)^T; softmax rows x cols */
  int64_t outer, reduce, inner;
  tfcc_gpu_broadcast bc;
  tfcc_gpu_resize rs;
  int32_t rank;
  int64_t dims[TFCC_GPU_MAX_RANK], before[TFCC_GPU_MAX_RANK], ydims[TFCC_GPU_MAX_RANK];
  int32_t perm[TFCC_GPU_MAX_RANK];
  size_t scratch_bytes; /* device scratch (im2col) */
  int32_t scratch_buf;  /* its buffer in the arena plan, -1: none */
} tfcc_gs;

typedef enum tfcc_ga_kind {
  TFCC_GA_GPU = 0, /* steps[index] */
  TFCC_GA_H2D,     /* root tensor index: its host data -> its device buffer */
  TFCC_GA_D2H,     /* tensor index: its root's device buffer -> the tensor's host data */
  TFCC_GA_CPU      /* exec node index: run on the CPU (after the stream has drained) */
} tfcc_ga_kind;

typedef struct tfcc_ga {
  tfcc_ga_kind kind;
  int32_t index;
} tfcc_ga;

/* Per tensor of the plan. */
typedef struct tfcc_gt {
  int32_t root;     /* the tensor whose buffer it shares (views), else itself */
  bool on_dev;      /* root has a device buffer in the arena */
  bool dev_const;   /* a model constant: in the device model (dev_const_index) */
  int32_t buf;      /* root's buffer in the arena plan, -1: none */
  size_t dev_bytes; /* elements x device element size */
} tfcc_gt;

typedef struct tfcc_cuda_plan {
  int32_t n_steps;
  tfcc_gs *steps;
  int32_t n_actions;
  tfcc_ga *actions;
  int32_t n_tensors;
  tfcc_gt *tensors;
  int32_t n_bufs;
  tfcc_plan_buffer *bufs; /* device arena buffers (offsets after planning) */
  size_t arena_bytes;
  size_t staging_bytes; /* float32 staging for conversions at host copies (precision != f32) */
  size_t max_scratch;
  int32_t n_gpu_nodes, n_cpu_nodes;
  tfcc_gpu_dtype dt; /* device element type of float tensors */
  char *fallback;    /* "node 12 (CUSTOM:X): why; ..." or NULL */
} tfcc_cuda_plan;

/* Classifies exec node e of plan p: true and *s filled when the GPU runs it; false and the
 * reason in why[0..cap) when it falls back to the CPU. */
bool tfcc_cuda_classify(const tfcc_exec_plan *p, int32_t e, tfcc_gs *s, char *why, size_t cap);

/* Builds the whole device plan of p (dt: the device type of float tensors). */
tfcc_status tfcc_cuda_plan_build(tfcc_cuda_plan *cp, const tfcc_exec_plan *p, tfcc_gpu_dtype dt,
                                 const tfcc_device_services *sv, tfcc_err *err);
void tfcc_cuda_plan_free(tfcc_cuda_plan *cp);

/* Elements of plan tensor t at its current shape. */
static inline int64_t tfcc_gpu_tensor_elems(const tfcc_tensor *t) {
  int64_t n = 1;
  for (int32_t d = 0; d < t->rank; d++) n *= t->dims[d];
  return n;
}

/* The element size of device type dt. */
static inline size_t tfcc_gpu_dtype_size(tfcc_gpu_dtype dt) { return dt == TFCC_GPU_F32 ? 4 : 2; }

#endif

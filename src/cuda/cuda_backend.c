/* libtfcc_cuda: the CUDA backend (runtime/device_backend.h, docs/cuda.md).
 *
 * Model: the float32 constants the GPU reads, uploaded once at load in the device precision
 * (biases stay float32). Session: the plan of cuda_plan.c over the CPU's execution plan, a stream,
 * a cuBLAS handle with its own workspace, a device arena, and one CUDA graph per run of
 * consecutive GPU steps (captured at session creation; the whole run for a model the GPU runs
 * entirely). Host copies (inputs, outputs, tensors the CPU's nodes read or write) go on the
 * session's stream between the graphs. */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_cudnn.h"
#include "cuda/cuda_lt.h"
#include "cuda/cuda_plan.h"
#include "cuda/gpu_kernels.h"
#include "ir/op_options.h"

#define TFCC_CUDA_EXPORT __attribute__((visibility("default")))

typedef struct cuda_dev {
  int id;
  const tfcc_device_services *sv;
  char name[256];
} cuda_dev;

typedef struct cuda_model {
  cuda_dev *d;
  tfcc_gpu_dtype dt;
  uint8_t *mem; /* every constant, one allocation */
  size_t bytes;
  int32_t n_sg;
  int32_t *n_t; /* per subgraph: tensors */
  void ***w;    /* per subgraph, per tensor: the constant in dt, or NULL */
  float ***b;   /* per subgraph, per tensor: the constant in float32 (biases), or NULL */
  bool fallback_logged;
  bool dnn_logged;
  bool engines_logged;
} cuda_model;

typedef struct cuda_seg {
  int32_t a0, a1; /* actions [a0, a1) */
  bool gpu;
  cudaGraphExec_t exec;
} cuda_seg;

typedef struct cuda_sess {
  cuda_model *m;
  const tfcc_exec_plan *p;
  tfcc_cuda_plan cp;
  cudaStream_t stream; /* the session's (cuda_session) */
  cublasHandle_t blas; /* the session's */
  uint8_t *arena;
  float *staging;
  void **ptr; /* per tensor: device data (arena or constant), NULL: none */
  int32_t n_seg;
  cuda_seg *seg;
  /* page-locked host staging of every host copy (per action, NULL: none): the DMA engines
   * read and write it at full speed, where pageable memory goes through the driver's own
   * bounce buffers */
  void **pinned;
  size_t pageable_min;
  int32_t *pending; /* copies down whose pinned bytes go to the host after the next sync */
  int32_t n_pending;
  /* per tensor: the memory of the caller's buffer of a graph input or output in this run
   * (mem_kind), and the exec node + 1 of a CPU node reading or writing it (0: none) */
  uint8_t *io_kind;
  int32_t *cpu_node;
  void *dnn;                 /* the session's cuDNN handle, or NULL */
  tfcc_cudnn_conv *dnn_conv; /* per step: cuDNN's set-up of a CONV_2D step (conv NULL: im2col) */
  void *dnn_ws;              /* the largest workspace a step's algorithm needs */
  void *lt;                  /* the session's cuBLASLt handle, or NULL */
  tfcc_lt_gemm *lt_gemm;     /* per step: cuBLASLt's set-up of a GEMM step (op NULL: cuBLAS) */
  int32_t n_lt;              /* steps cuBLASLt runs */
  void *ws;                  /* the session's GEMM workspace (cuBLAS's and cuBLASLt's) */
  size_t ws_bytes;
  int32_t *key; /* the graph inputs' shapes it was planned for: rank, dims..., per input */
  int32_t key_len;
  uint64_t used; /* the session's run count when last made current (least recently used goes) */
  /* env TFCC_CUDA_TIMING=1: CUDA events around each run's GPU work (first to last GPU step) and
   * around the whole run on the stream; medians logged when the plan is freed */
  cudaEvent_t ev[4];
  float *t_gpu, *t_all;
  int32_t n_t;
  /* TFCC_CUDA_TIMING=2 (graphs off): an event after each step, the time per step kind summed */
  cudaEvent_t *step_ev;
  double kind_ms[TFCC_GS_COPY + 2];
  int32_t n_dnn; /* CONV_2D steps cuDNN runs */
} cuda_sess;
#define CUDA_TIMED_RUNS 4096

/* A tfcc session on the GPU: the stream, cuBLAS handle and workspace, and the device plans of
 * the last few input shapes it ran at (a server batching requests resizes its sessions back and
 * forth: each shape keeps its arena and graphs, and coming back to it costs nothing). */
#define CUDA_PLANS_KEPT 4
typedef struct cuda_session {
  cuda_model *m;
  cudaStream_t stream;
  cublasHandle_t blas;
  void *ws;
  size_t ws_bytes;
  void *dnn; /* cuDNN on the stream (NULL: not available; convolutions by im2col + GEMM) */
  void *lt;  /* cuBLASLt (NULL: off or not available; GEMM + a separate epilogue pass) */
  cuda_sess *plans[CUDA_PLANS_KEPT];
  int32_t n_plans;
  cuda_sess *cur;
  uint64_t tick;
} cuda_session;

static tfcc_status cuda_fail(tfcc_err *err, cudaError_t e, const char *what) {
  return tfcc_err_set(err, e == cudaErrorMemoryAllocation ? TFCC_ERR_NO_MEMORY : TFCC_ERR_RUNTIME,
                      "device cuda: %s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

/* The memory a caller's pointer is in. Host memory (pageable or page-locked) is read through
 * the pinned staging; device and managed memory are copied on the device. */
enum { MEM_HOST = 0, MEM_DEVICE = 1, MEM_MANAGED = 2 };
static uint8_t mem_kind(const void *ptr) {
  struct cudaPointerAttributes a;
  if (!ptr || cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
    cudaGetLastError(); /* an unknown pointer is host memory; clear the sticky error */
    return MEM_HOST;
  }
  return a.type == cudaMemoryTypeDevice    ? MEM_DEVICE
         : a.type == cudaMemoryTypeManaged ? MEM_MANAGED
                                           : MEM_HOST;
}

static tfcc_status blas_fail(tfcc_err *err, cublasStatus_t s, const char *what) {
  return tfcc_err_set(err, s == CUBLAS_STATUS_ALLOC_FAILED ? TFCC_ERR_NO_MEMORY : TFCC_ERR_RUNTIME,
                      "device cuda: %s: cuBLAS status %d", what, (int)s);
}

/* ------------------------------------------------------------------ device */

static tfcc_status check_device(int id, tfcc_err *err) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED,
                        "device cuda: no usable CUDA driver or device: %s (%s)",
                        cudaGetErrorString(e), cudaGetErrorName(e));
  if (count <= 0)
    return tfcc_err_set(err, TFCC_ERR_UNSUPPORTED, "device cuda: no CUDA device found");
  if (id >= count)
    return tfcc_err_set(err, TFCC_ERR_INVALID_ARG,
                        "device cuda: device id %d does not exist (%d devices)", id, count);
  e = cudaSetDevice(id);
  if (e != cudaSuccess) return cuda_fail(err, e, "cudaSetDevice");
  e = cudaFree(NULL); /* creates the context now: errors show here, not in a run */
  return e == cudaSuccess ? TFCC_OK : cuda_fail(err, e, "creating the context");
}

static tfcc_status dev_open(int id, const tfcc_device_services *sv, void **out, tfcc_err *err) {
  tfcc_status st = check_device(id, err);
  if (st != TFCC_OK) return st;
  cuda_dev *d = calloc(1, sizeof *d);
  if (!d) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  d->id = id;
  d->sv = sv;
  struct cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, id) == cudaSuccess)
    snprintf(d->name, sizeof d->name, "%s", prop.name);
  char line[400];
  snprintf(line, sizeof line, "device cuda %d: %s", id, d->name);
  sv->log_line(sv->log, TFCC_LOG_INFO, "RUNTIME", line);
  *out = d;
  return TFCC_OK;
}

static void dev_close(void *dev) { free(dev); }

static tfcc_status dev_mem_alloc(void *dev, size_t bytes, int managed, void **ptr, tfcc_err *err) {
  const cuda_dev *d = dev;
  *ptr = NULL;
  cudaError_t e = cudaSetDevice(d->id);
  if (e == cudaSuccess)
    e = managed ? cudaMallocManaged(ptr, bytes, cudaMemAttachGlobal) : cudaMalloc(ptr, bytes);
  if (e == cudaSuccess) return TFCC_OK;
  *ptr = NULL;
  char what[120];
  snprintf(what, sizeof what, "allocating %zu bytes of %s memory", bytes,
           managed ? "managed" : "device");
  return cuda_fail(err, e, what);
}

static void dev_mem_free(void *dev, void *ptr) {
  cudaSetDevice(((const cuda_dev *)dev)->id);
  cudaFree(ptr);
}

static tfcc_status dev_mem_copy(void *dev, void *dst, const void *src, size_t bytes,
                                tfcc_err *err) {
  if (mem_kind(dst) == MEM_HOST && mem_kind(src) == MEM_HOST) {
    memcpy(dst, src, bytes);
    return TFCC_OK;
  }
  cudaError_t e = cudaSetDevice(((const cuda_dev *)dev)->id);
  if (e == cudaSuccess) e = cudaMemcpy(dst, src, bytes, cudaMemcpyDefault);
  if (e == cudaSuccess) return TFCC_OK;
  char what[80];
  snprintf(what, sizeof what, "copying %zu bytes", bytes);
  return cuda_fail(err, e, what);
}

static tfcc_status dev_describe(int id, char *buf, size_t cap, tfcc_err *err) {
  tfcc_status st = check_device(id, err);
  if (st != TFCC_OK) return st;
  struct cudaDeviceProp pr;
  cudaError_t e = cudaGetDeviceProperties(&pr, id);
  if (e != cudaSuccess) return cuda_fail(err, e, "cudaGetDeviceProperties");
  int drv = 0, rtv = 0, count = 0, cbv = 0;
  cudaDriverGetVersion(&drv);
  cudaRuntimeGetVersion(&rtv);
  cudaGetDeviceCount(&count);
  cublasGetProperty(MAJOR_VERSION, &cbv);
  int cbmin = 0, cbpatch = 0;
  cublasGetProperty(MINOR_VERSION, &cbmin);
  cublasGetProperty(PATCH_LEVEL, &cbpatch);
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  int n =
      snprintf(buf, cap,
               "{\"device\": \"cuda\", \"id\": %d, \"devices\": %d, \"name\": \"%s\", "
               "\"compute_capability\": \"%d.%d\", \"multiprocessors\": %d, \"memory_bytes\": %zu, "
               "\"memory_free_bytes\": %zu, \"l2_bytes\": %d, "
               "\"driver_version\": \"%d.%d\", \"runtime_version\": \"%d.%d\", "
               "\"cublas_version\": \"%d.%d.%d\", \"precisions\": [\"fp32\", \"fp16\", \"bf16\"]}",
               id, count, pr.name, pr.major, pr.minor, pr.multiProcessorCount, total_b, free_b,
               pr.l2CacheSize, drv / 1000, (drv % 1000) / 10, rtv / 1000, (rtv % 1000) / 10, cbv,
               cbmin, cbpatch);
  if (n < 0 || (size_t)n >= cap)
    return tfcc_err_set(err, TFCC_ERR_BUFFER_TOO_SMALL, "device description needs %d bytes", n);
  return TFCC_OK;
}

/* ------------------------------------------------------------------ model */

static tfcc_gpu_dtype precision_dtype(int precision) {
  return precision == TFCC_PRECISION_F16    ? TFCC_GPU_F16
         : precision == TFCC_PRECISION_BF16 ? TFCC_GPU_BF16
                                            : TFCC_GPU_F32;
}

static bool is_bias_slot(const tfcc_ir_node *n, int32_t k) {
  return k == 2 && (n->builtin == TFCC_OP_CONV_2D || n->builtin == TFCC_OP_DEPTHWISE_CONV_2D ||
                    n->builtin == TFCC_OP_FULLY_CONNECTED);
}

static size_t align_up(size_t v) { return (v + 255) & ~(size_t)255; }

static void model_close(void *dmv) {
  cuda_model *m = dmv;
  if (!m) return;
  if (m->mem) cudaFree(m->mem);
  for (int32_t s = 0; s < m->n_sg; s++) {
    if (m->w) free(m->w[s]);
    if (m->b) free(m->b[s]);
  }
  free(m->w);
  free(m->b);
  free(m->n_t);
  free(m);
}

/* Walks every constant float32 input of every live node: pass 0 sizes, pass 1 places. */
static size_t place_constants(cuda_model *m, const tfcc_graph *g, bool place) {
  size_t off = 0;
  const size_t es = tfcc_gpu_dtype_size(m->dt);
  for (int32_t s = 0; s < g->n_subgraphs; s++) {
    const tfcc_ir_subgraph *sg = &g->subgraphs[s];
    for (int32_t i = 0; i < sg->n_nodes; i++) {
      const tfcc_ir_node *n = &sg->nodes[i];
      if (n->removed || !n->op) continue;
      for (int32_t k = 0; k < n->n_inputs; k++) {
        const int32_t t = n->inputs[k];
        if (t < 0 || t >= sg->n_tensors) continue;
        const tfcc_ir_tensor *x = &sg->tensors[t];
        if (!x->data || x->dtype != TFCC_FLOAT32 || x->sparsity) continue;
        const size_t count = x->data_bytes / 4;
        const bool f32 = is_bias_slot(n, k) || m->dt == TFCC_GPU_F32;
        if (f32 && (!place || !m->b[s][t])) {
          if (place) m->b[s][t] = (float *)(m->mem + off);
          off += align_up(count * 4);
        }
        if (m->dt == TFCC_GPU_F32) {
          if (place) m->w[s][t] = m->b[s][t];
          continue;
        }
        if (!is_bias_slot(n, k) && (!place || !m->w[s][t])) {
          if (place) m->w[s][t] = m->mem + off;
          off += align_up(count * es);
        }
      }
    }
  }
  return off;
}

static tfcc_status model_open(void *dev, const tfcc_graph *g, int precision, void **out,
                              tfcc_err *err) {
  cuda_dev *d = dev;
  cudaError_t e = cudaSetDevice(d->id);
  if (e != cudaSuccess) return cuda_fail(err, e, "cudaSetDevice");
  cuda_model *m = calloc(1, sizeof *m);
  if (!m) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  m->d = d;
  m->dt = precision_dtype(precision);
  m->n_sg = g->n_subgraphs;
  m->n_t = calloc((size_t)m->n_sg + 1, sizeof *m->n_t);
  m->w = calloc((size_t)m->n_sg + 1, sizeof *m->w);
  m->b = calloc((size_t)m->n_sg + 1, sizeof *m->b);
  tfcc_status st = TFCC_OK;
  if (!m->n_t || !m->w || !m->b) st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  for (int32_t s = 0; st == TFCC_OK && s < m->n_sg; s++) {
    m->n_t[s] = g->subgraphs[s].n_tensors;
    m->w[s] = calloc((size_t)m->n_t[s] + 1, sizeof **m->w);
    m->b[s] = calloc((size_t)m->n_t[s] + 1, sizeof **m->b);
    if (!m->w[s] || !m->b[s]) st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  }
  if (st == TFCC_OK) m->bytes = place_constants(m, g, false);
  if (st == TFCC_OK && m->bytes && (e = cudaMalloc((void **)&m->mem, m->bytes)) != cudaSuccess)
    st = cuda_fail(err, e, "allocating device memory for the model's constants");
  if (st == TFCC_OK && m->bytes) place_constants(m, g, true);
  /* upload: float32 copies straight, the others through a float32 staging buffer */
  size_t max_stage = 0;
  for (int32_t s = 0; st == TFCC_OK && s < m->n_sg; s++)
    for (int32_t t = 0; t < m->n_t[s]; t++)
      if (m->w[s][t] && m->w[s][t] != (void *)m->b[s][t] &&
          g->subgraphs[s].tensors[t].data_bytes > max_stage)
        max_stage = g->subgraphs[s].tensors[t].data_bytes;
  float *stage = NULL;
  if (st == TFCC_OK && max_stage && (e = cudaMalloc((void **)&stage, max_stage)) != cudaSuccess)
    st = cuda_fail(err, e, "allocating device memory to convert the constants");
  for (int32_t s = 0; st == TFCC_OK && s < m->n_sg; s++)
    for (int32_t t = 0; st == TFCC_OK && t < m->n_t[s]; t++) {
      const tfcc_ir_tensor *x = &g->subgraphs[s].tensors[t];
      if (m->b[s][t] && (e = cudaMemcpy(m->b[s][t], x->data, x->data_bytes,
                                        cudaMemcpyHostToDevice)) != cudaSuccess)
        st = cuda_fail(err, e, "uploading a constant");
      if (st == TFCC_OK && m->w[s][t] && m->w[s][t] != (void *)m->b[s][t]) {
        e = cudaMemcpy(stage, x->data, x->data_bytes, cudaMemcpyHostToDevice);
        if (e == cudaSuccess)
          e = (cudaError_t)tfcc_gpu_convert(NULL, stage, TFCC_GPU_F32, m->w[s][t], m->dt,
                                            x->data_bytes / 4);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        if (e != cudaSuccess) st = cuda_fail(err, e, "converting a constant");
      }
    }
  if (stage) cudaFree(stage);
  if (st != TFCC_OK) {
    model_close(m);
    return st;
  }
  char line[300];
  snprintf(line, sizeof line, "device cuda %d: %.1f MiB of constants uploaded (%s)", d->id,
           (double)m->bytes / 1048576.0,
           m->dt == TFCC_GPU_F32   ? "fp32"
           : m->dt == TFCC_GPU_F16 ? "fp16"
                                   : "bf16");
  d->sv->log_line(d->sv->log, TFCC_LOG_INFO, "MODEL_LOAD", line);
  *out = m;
  return TFCC_OK;
}

/* ------------------------------------------------------------------ session */

static void *dptr(const cuda_sess *s, int32_t t) { return t < 0 ? NULL : s->ptr[t]; }

static const float *bias_ptr(const cuda_sess *s, int32_t t) {
  const int32_t sg = s->p->subgraph;
  return t < 0 ? NULL : s->m->b[sg][t];
}

static cudaDataType blas_type(tfcc_gpu_dtype dt) {
  return dt == TFCC_GPU_F16 ? CUDA_R_16F : dt == TFCC_GPU_BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

/* Row-major y[rows][cols] = a[rows][k] x w[cols][k]^T (cuBLAS is column-major: y^T = w a^T). */
static cublasStatus_t gemm(cuda_sess *s, const void *a, const void *w, void *y, int64_t rows,
                           int64_t cols, int64_t k) {
  const float one = 1.0f, zero = 0.0f;
  const cudaDataType t = blas_type(s->cp.dt);
  return cublasGemmEx(s->blas, CUBLAS_OP_T, CUBLAS_OP_N, (int)cols, (int)rows, (int)k, &one, w, t,
                      (int)k, a, t, (int)k, &zero, y, t, (int)cols, CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT);
}

/* Enqueues step si on the session's stream; 0 or a cudaError_t / (1000 + cublasStatus_t) /
 * (2000 + cudnnStatus_t). */
static int launch(cuda_sess *s, int32_t si) {
  const tfcc_gs *g = &s->cp.steps[si];
  const tfcc_gpu_dtype dt = s->cp.dt;
  void *st = s->stream;
  void *y = dptr(s, g->out);
  const void *x = dptr(s, g->in[0]);
  switch (g->kind) {
    case TFCC_GS_CONV:
    case TFCC_GS_FC: {
      const void *w = dptr(s, g->in[1]), *res = dptr(s, g->in[3]);
      const float *bias = bias_ptr(s, g->in[2]);
      if (s->dnn_conv && s->dnn_conv[si].conv) { /* cuDNN's convolution (TFCC_CUDNN=1) */
        int e = tfcc_cudnn_conv_run(s->dnn, &s->dnn_conv[si], x, w, y, s->dnn_ws);
        if (e) return 2000 + e;
      } else {
        const void *a = x;
        if (g->kind == TFCC_GS_CONV && g->im2col) {
          void *col = s->arena + s->cp.bufs[g->scratch_buf].offset;
          int e = tfcc_gpu_im2col(st, dt, x, col, &g->g);
          if (e) return e;
          a = col;
        }
        if (s->lt_gemm && s->lt_gemm[si].op) { /* cuBLASLt, epilogue fused (TFCC_CUDA_LT=1) */
          int e = tfcc_lt_gemm_run(s->lt, &s->lt_gemm[si], a, w, res, y, s->ws, s->ws_bytes, st);
          return e ? 1000 + e : 0;
        }
        cublasStatus_t bs = gemm(s, a, w, y, g->rows, g->cols, g->k);
        if (bs != CUBLAS_STATUS_SUCCESS) return 1000 + (int)bs;
      }
      if (!bias && !res && g->act == TFCC_GPU_ACT_NONE) return 0;
      return tfcc_gpu_bias_act(st, dt, y, bias, res, y, g->rows, (int32_t)g->cols, g->act);
    }
    case TFCC_GS_DWCONV:
      return tfcc_gpu_depthwise(st, dt, x, dptr(s, g->in[1]), bias_ptr(s, g->in[2]), y, &g->g,
                                g->act);
    case TFCC_GS_BINARY:
      return tfcc_gpu_binary(st, dt, g->op, x, dptr(s, g->in[1]), y, &g->bc, g->act);
    case TFCC_GS_UNARY:
      return tfcc_gpu_unary(st, dt, x, y, (size_t)tfcc_gpu_tensor_elems(&s->p->tensors[g->out]),
                            g->act, g->param);
    case TFCC_GS_POOL: return tfcc_gpu_pool(st, dt, x, y, &g->g, g->op, g->act);
    case TFCC_GS_REDUCE: return tfcc_gpu_reduce(st, dt, x, y, g->outer, g->reduce, g->inner, g->op);
    case TFCC_GS_SOFTMAX:
      return tfcc_gpu_softmax(st, dt, x, y, g->rows, (int32_t)g->cols, g->param);
    case TFCC_GS_PAD:
      return tfcc_gpu_pad(st, dt, x, y, g->rank, g->dims, g->before, g->ydims, g->param);
    case TFCC_GS_RESIZE: return tfcc_gpu_resize_nhwc(st, dt, x, y, &g->rs);
    case TFCC_GS_TRANSPOSE: return tfcc_gpu_transpose(st, dt, x, y, g->rank, g->dims, g->perm);
    case TFCC_GS_COPY: {
      if (x == y) return 0;
      const size_t bytes =
          (size_t)tfcc_gpu_tensor_elems(&s->p->tensors[g->out]) * tfcc_gpu_dtype_size(dt);
      return (int)cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, s->stream);
    }
    case TFCC_GS_CONCAT: {
      const tfcc_op_ctx *c = &s->p->nodes[g->en].ctx;
      const tfcc_tensor *yt = c->out[0];
      const size_t es = tfcc_gpu_dtype_size(dt);
      int64_t outer = 1, row = 1;
      for (int32_t d = 0; d < g->op; d++) outer *= yt->dims[d];
      for (int32_t d = g->op; d < yt->rank; d++) row *= yt->dims[d];
      size_t off = 0;
      for (int32_t k = 0; k < c->n_in; k++) {
        int64_t part = 1;
        for (int32_t d = g->op; d < c->in[k]->rank; d++) part *= c->in[k]->dims[d];
        const size_t w = (size_t)part * es;
        if (w && outer) {
          cudaError_t e =
              cudaMemcpy2DAsync((uint8_t *)y + off, (size_t)row * es, dptr(s, c->in[k]->index), w,
                                w, (size_t)outer, cudaMemcpyDeviceToDevice, s->stream);
          if (e != cudaSuccess) return (int)e;
        }
        off += w;
      }
      return 0;
    }
  }
  return (int)cudaErrorInvalidValue;
}

static tfcc_status step_fail(cuda_sess *s, const tfcc_gs *g, int code, tfcc_err *err) {
  const tfcc_exec_node *en = &s->p->nodes[g->en];
  const char *op = s->m->d->sv->op_name(en->ctx.node);
  if (code >= 2000)
    return tfcc_err_set(err, TFCC_ERR_RUNTIME, "device cuda: node %d (%s): cuDNN status %d",
                        (int)en->node, op, code - 2000);
  if (code >= 1000)
    return tfcc_err_set(err, TFCC_ERR_RUNTIME, "device cuda: node %d (%s): cuBLAS status %d",
                        (int)en->node, op, code - 1000);
  return tfcc_err_set(err, TFCC_ERR_RUNTIME, "device cuda: node %d (%s): %s", (int)en->node, op,
                      cudaGetErrorString((cudaError_t)code));
}

static tfcc_status run_gpu_actions(cuda_sess *s, int32_t a0, int32_t a1, tfcc_err *err) {
  for (int32_t a = a0; a < a1; a++) {
    const int32_t si = s->cp.actions[a].index;
    const tfcc_gs *g = &s->cp.steps[si];
    int code = launch(s, si);
    if (code) return step_fail(s, g, code, err);
    if (s->step_ev) cudaEventRecord(s->step_ev[si + 1], s->stream);
  }
  return TFCC_OK;
}

/* TFCC_CUDA_TIMING=2: after a drained run, each step's time (from the event before it) added to
 * its kind's sum; a convolution im2col copies counts as kind TFCC_GS_COPY + 1. */
static void add_step_times(cuda_sess *s) {
  cudaEvent_t prev = s->step_ev[0];
  for (int32_t a = 0; a < s->cp.n_actions; a++) {
    if (s->cp.actions[a].kind != TFCC_GA_GPU) continue;
    const int32_t si = s->cp.actions[a].index;
    float ms = 0;
    if (cudaEventElapsedTime(&ms, prev, s->step_ev[si + 1]) == cudaSuccess) {
      const tfcc_gs *g = &s->cp.steps[si];
      const bool im2col =
          g->kind == TFCC_GS_CONV && g->im2col && !(s->dnn_conv && s->dnn_conv[si].conv);
      s->kind_ms[im2col ? TFCC_GS_COPY + 1 : g->kind] += ms;
    }
    prev = s->step_ev[si + 1];
  }
}

/* Host copy action a (index ai). Up: host data -> pinned -> device (converted where the
 * device type is not float32). Down: device -> pinned now, pinned -> host data at the next
 * drain (flush_pending). */
static tfcc_status copy_action(cuda_sess *s, tfcc_exec_plan *p, int32_t ai, tfcc_err *err) {
  const tfcc_ga *a = &s->cp.actions[ai];
  const bool up = a->kind == TFCC_GA_H2D;
  const int32_t t = a->index, r = s->cp.tensors[t].root;
  tfcc_tensor *ht = &p->tensors[t];
  void *dev = s->ptr[r];
  const size_t n = (size_t)tfcc_gpu_tensor_elems(ht);
  if (!n) return TFCC_OK;
  if (!ht->data)
    return tfcc_err_set(err, TFCC_ERR_RUNTIME, "device cuda: tensor %d has no host data", (int)t);
  void *host = s->pinned[ai];
  const bool f32 = s->cp.dt == TFCC_GPU_F32;
  cudaError_t e = cudaSuccess;
  if (s->io_kind[t] != MEM_HOST) { /* the caller's device or managed memory: copied on the GPU */
    if (f32)
      e = up ? cudaMemcpyAsync(dev, ht->data, n * 4, cudaMemcpyDefault, s->stream)
             : cudaMemcpyAsync(ht->data, dev, n * 4, cudaMemcpyDefault, s->stream);
    else
      e = (cudaError_t)(up ? tfcc_gpu_convert(s->stream, ht->data, TFCC_GPU_F32, dev, s->cp.dt, n)
                           : tfcc_gpu_convert(s->stream, dev, s->cp.dt, ht->data, TFCC_GPU_F32, n));
  } else if (up) {
    if (host) memcpy(host, ht->data, n * 4);
    e = cudaMemcpyAsync(f32 ? dev : (void *)s->staging, host ? host : ht->data, n * 4,
                        cudaMemcpyHostToDevice, s->stream);
    if (e == cudaSuccess && !f32)
      e = (cudaError_t)tfcc_gpu_convert(s->stream, s->staging, TFCC_GPU_F32, dev, s->cp.dt, n);
  } else {
    if (!f32)
      e = (cudaError_t)tfcc_gpu_convert(s->stream, dev, s->cp.dt, s->staging, TFCC_GPU_F32, n);
    if (e == cudaSuccess)
      e = cudaMemcpyAsync(host, f32 ? dev : (const void *)s->staging, n * 4, cudaMemcpyDeviceToHost,
                          s->stream);
    if (e == cudaSuccess) s->pending[s->n_pending++] = ai;
  }
  if (e != cudaSuccess) {
    char what[160];
    snprintf(what, sizeof what, "copying tensor %d (%s) %s", (int)t, p->sg->tensors[t].name,
             up ? "to the device" : "to the host");
    return cuda_fail(err, e, what);
  }
  return TFCC_OK;
}

/* Waits for the stream, then moves the copies down from pinned memory to their host data. */
static tfcc_status drain(cuda_sess *s, tfcc_exec_plan *p, const char *what, tfcc_err *err) {
  cudaError_t e = cudaStreamSynchronize(s->stream);
  if (e != cudaSuccess) {
    s->n_pending = 0;
    return cuda_fail(err, e, what);
  }
  for (int32_t i = 0; i < s->n_pending; i++) {
    const tfcc_ga *a = &s->cp.actions[s->pending[i]];
    tfcc_tensor *ht = &p->tensors[a->index];
    memcpy(ht->data, s->pinned[s->pending[i]], (size_t)tfcc_gpu_tensor_elems(ht) * 4);
  }
  s->n_pending = 0;
  return TFCC_OK;
}

static int cmp_float(const void *a, const void *b) {
  const float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Frees one shape's device plan (the stream, handle and workspace are the session's). */
static void plan_close(cuda_sess *s) {
  if (!s) return;
  if (s->stream) cudaStreamSynchronize(s->stream);
  if (s->t_gpu && s->n_t) {
    qsort(s->t_gpu, (size_t)s->n_t, sizeof *s->t_gpu, cmp_float);
    qsort(s->t_all, (size_t)s->n_t, sizeof *s->t_all, cmp_float);
    char line[300];
    snprintf(line, sizeof line,
             "device cuda timing: %d runs, GPU steps p50 %.4f ms, whole run on the stream (copies "
             "included) p50 %.4f ms",
             (int)s->n_t, s->t_gpu[s->n_t / 2], s->t_all[s->n_t / 2]);
    s->m->d->sv->log_line(s->m->d->sv->log, TFCC_LOG_WARN, "RUNTIME", line);
    if (s->step_ev) {
      static const char *const names[] = {
          "conv-gemm", "fc",  "depthwise", "binary", "unary",     "pool", "reduce",
          "softmax",   "pad", "concat",    "resize", "transpose", "copy", "conv-im2col-gemm"};
      size_t n = (size_t)snprintf(line, sizeof line, "device cuda timing per run by step kind:");
      for (int k = 0; k <= TFCC_GS_COPY + 1 && n < sizeof line; k++)
        if (s->kind_ms[k] > 0)
          n += (size_t)snprintf(line + n, sizeof line - n, " %s %.4f ms", names[k],
                                s->kind_ms[k] / s->n_t);
      s->m->d->sv->log_line(s->m->d->sv->log, TFCC_LOG_WARN, "RUNTIME", line);
    }
  }
  for (int32_t i = 0; s->step_ev && i <= s->cp.n_steps; i++)
    if (s->step_ev[i]) cudaEventDestroy(s->step_ev[i]);
  free(s->step_ev);
  for (int k = 0; k < 4; k++)
    if (s->ev[k]) cudaEventDestroy(s->ev[k]);
  free(s->t_gpu);
  free(s->t_all);
  for (int32_t i = 0; i < s->n_seg; i++)
    if (s->seg[i].exec) cudaGraphExecDestroy(s->seg[i].exec);
  free(s->seg);
  for (int32_t a = 0; s->pinned && a < s->cp.n_actions; a++)
    if (s->pinned[a]) cudaFreeHost(s->pinned[a]);
  free(s->pinned);
  free(s->pending);
  free(s->io_kind);
  free(s->cpu_node);
  free(s->key);
  for (int32_t i = 0; s->dnn_conv && i < s->cp.n_steps; i++) tfcc_cudnn_conv_free(&s->dnn_conv[i]);
  free(s->dnn_conv);
  for (int32_t i = 0; s->lt_gemm && i < s->cp.n_steps; i++) tfcc_lt_gemm_free(&s->lt_gemm[i]);
  free(s->lt_gemm);
  if (s->dnn_ws) cudaFree(s->dnn_ws);
  if (s->arena) cudaFree(s->arena);
  if (s->staging) cudaFree(s->staging);
  free(s->ptr);
  tfcc_cuda_plan_free(&s->cp);
  free(s);
}

static void session_close(void *dsv) {
  cuda_session *ss = dsv;
  if (!ss) return;
  cudaSetDevice(ss->m->d->id);
  if (ss->stream) cudaStreamSynchronize(ss->stream);
  for (int32_t i = 0; i < ss->n_plans; i++) plan_close(ss->plans[i]);
  tfcc_cudnn_close(ss->dnn);
  tfcc_lt_close(ss->lt);
  if (ss->blas) cublasDestroy(ss->blas);
  if (ss->ws) cudaFree(ss->ws);
  if (ss->stream) cudaStreamDestroy(ss->stream);
  free(ss);
}

static bool graphs_enabled(void) {
  const char *v = getenv("TFCC_CUDA_GRAPHS"), *t = getenv("TFCC_CUDA_TIMING");
  if (t && strcmp(t, "2") == 0) return false; /* per-step events: steps launched one by one */
  return !(v && (strcmp(v, "0") == 0 || strcmp(v, "off") == 0));
}

static tfcc_status make_segments(cuda_sess *s, tfcc_err *err) {
  s->seg = calloc((size_t)s->cp.n_actions + 1, sizeof *s->seg);
  if (!s->seg) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  for (int32_t a = 0; a < s->cp.n_actions;) {
    const bool gpu = s->cp.actions[a].kind == TFCC_GA_GPU;
    int32_t b = a + 1;
    while (b < s->cp.n_actions && (s->cp.actions[b].kind == TFCC_GA_GPU) == gpu) b++;
    s->seg[s->n_seg++] = (cuda_seg){.a0 = a, .a1 = b, .gpu = gpu};
    a = b;
  }
  return TFCC_OK;
}

/* Captures each GPU segment into a CUDA graph (after one eager run, which loads the kernels). */
static tfcc_status capture(cuda_sess *s, tfcc_err *err) {
  for (int32_t i = 0; i < s->n_seg; i++) {
    cuda_seg *g = &s->seg[i];
    if (!g->gpu) continue;
    tfcc_status st = run_gpu_actions(s, g->a0, g->a1, err);
    if (st != TFCC_OK) return st;
    cudaError_t e = cudaStreamSynchronize(s->stream);
    if (e != cudaSuccess) return cuda_fail(err, e, "first run of the device's steps");
    if (!graphs_enabled()) continue;
    e = cudaStreamBeginCapture(s->stream, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess) return cuda_fail(err, e, "cudaStreamBeginCapture");
    st = run_gpu_actions(s, g->a0, g->a1, err);
    cudaGraph_t graph = NULL;
    e = cudaStreamEndCapture(s->stream, &graph);
    if (st != TFCC_OK) {
      if (graph) cudaGraphDestroy(graph);
      return st;
    }
    if (e != cudaSuccess) return cuda_fail(err, e, "capturing the CUDA graph");
    e = cudaGraphInstantiate(&g->exec, graph, 0);
    cudaGraphDestroy(graph);
    if (e != cudaSuccess) {
      g->exec = NULL;
      return cuda_fail(err, e, "cudaGraphInstantiate");
    }
  }
  return TFCC_OK;
}

/* The graph inputs' shapes of plan p, as a key (malloc'ed, *len ints). */
static int32_t *shape_key(const tfcc_exec_plan *p, int32_t *len) {
  int32_t n = 0;
  for (int32_t i = 0; i < p->sg->n_inputs; i++) n += 1 + p->tensors[p->sg->inputs[i]].rank;
  int32_t *k = malloc(((size_t)n + 1) * sizeof *k);
  if (!k) return NULL;
  n = 0;
  for (int32_t i = 0; i < p->sg->n_inputs; i++) {
    const tfcc_tensor *t = &p->tensors[p->sg->inputs[i]];
    k[n++] = t->rank;
    for (int32_t d = 0; d < t->rank; d++) k[n++] = t->dims[d];
  }
  *len = n;
  return k;
}

/* Marks the tensors exec node e (run on the CPU) reads or writes, and their roots. */
static void mark_cpu_node(cuda_sess *s, const tfcc_exec_plan *p, int32_t e) {
  const tfcc_op_ctx *c = &p->nodes[e].ctx;
  for (int32_t k = 0; k < c->n_in + c->n_out; k++) {
    const tfcc_tensor *t = k < c->n_in ? c->in[k] : c->out[k - c->n_in];
    if (!t || t->index < 0 || t->index >= s->cp.n_tensors) continue;
    if (!s->cpu_node[t->index]) s->cpu_node[t->index] = e + 1;
    const int32_t r = s->cp.tensors[t->index].root;
    if (r >= 0 && r < s->cp.n_tensors && !s->cpu_node[r]) s->cpu_node[r] = e + 1;
  }
}

/* The memory of each graph input's and output's buffer in this run; plain device memory that a
 * CPU node would read or write is refused, naming both. */
static tfcc_status classify_io(cuda_sess *s, tfcc_exec_plan *p, tfcc_err *err) {
  const tfcc_ir_subgraph *sg = p->sg;
  for (int pass = 0; pass < 2; pass++) {
    const int32_t n = pass ? sg->n_outputs : sg->n_inputs;
    const int32_t *ids = pass ? sg->outputs : sg->inputs;
    for (int32_t i = 0; i < n; i++) {
      const int32_t t = ids[i];
      if (t < 0 || t >= s->cp.n_tensors) continue;
      const uint8_t k = mem_kind(p->tensors[t].data);
      s->io_kind[t] = k;
      if (k != MEM_DEVICE || !s->cpu_node[t]) continue;
      const tfcc_exec_node *en = &p->nodes[s->cpu_node[t] - 1];
      return tfcc_err_set(err, TFCC_ERR_INVALID_ARG,
                          "device cuda: %s %d (%s) is in device memory, but node %d (%s) runs on "
                          "the CPU and %s it: pass host or managed memory",
                          pass ? "output" : "input", (int)i, sg->tensors[t].name, (int)en->node,
                          s->m->d->sv->op_name(en->ctx.node), pass ? "writes or reads" : "reads");
    }
  }
  return TFCC_OK;
}

/* The device plan of CPU plan p at its current shapes: arena, staging, pinned copies, graphs. */
static tfcc_status plan_open(cuda_session *ss, tfcc_exec_plan *p, cuda_sess **out, tfcc_err *err) {
  cuda_model *m = ss->m;
  const tfcc_device_services *sv = m->d->sv;
  cudaError_t e;
  cuda_sess *s = calloc(1, sizeof *s);
  if (!s) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  s->m = m;
  s->p = p;
  s->stream = ss->stream;
  s->blas = ss->blas;
  tfcc_status st = tfcc_cuda_plan_build(&s->cp, p, m->dt, sv, err);
  if (st != TFCC_OK) {
    free(s);
    return st;
  }
  if (s->cp.fallback && !m->fallback_logged) {
    m->fallback_logged = true;
    size_t len = strlen(s->cp.fallback) + 200;
    char *line = malloc(len);
    if (line) {
      snprintf(line, len, "device cuda: %d of %d nodes run on the CPU: %s", (int)s->cp.n_cpu_nodes,
               (int)(s->cp.n_cpu_nodes + s->cp.n_gpu_nodes), s->cp.fallback);
      sv->log_line(sv->log, TFCC_LOG_WARN, "KERNEL_FALLBACK", line);
      free(line);
    }
  }
  s->key = shape_key(p, &s->key_len);
  s->ptr = calloc((size_t)s->cp.n_tensors + 1, sizeof *s->ptr);
  if (!s->ptr || !s->key) st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  if (st == TFCC_OK && s->cp.arena_bytes &&
      (e = cudaMalloc((void **)&s->arena, s->cp.arena_bytes)) != cudaSuccess)
    st = cuda_fail(err, e, "allocating the device arena");
  if (st == TFCC_OK && s->cp.staging_bytes &&
      (e = cudaMalloc((void **)&s->staging, s->cp.staging_bytes)) != cudaSuccess)
    st = cuda_fail(err, e, "allocating the device staging buffer");
  for (int32_t t = 0; st == TFCC_OK && t < s->cp.n_tensors; t++) {
    const tfcc_gt *gt = &s->cp.tensors[t];
    if (gt->dev_const)
      s->ptr[t] = m->w[p->subgraph][t];
    else if (gt->buf >= 0)
      s->ptr[t] = s->arena + s->cp.bufs[gt->buf].offset;
  }
  const char *pg = getenv("TFCC_CUDA_PAGEABLE");
  s->pageable_min = pg && *pg ? (size_t)strtoull(pg, NULL, 10) : 0;
  s->pinned = calloc((size_t)s->cp.n_actions + 1, sizeof *s->pinned);
  s->pending = calloc((size_t)s->cp.n_actions + 1, sizeof *s->pending);
  s->io_kind = calloc((size_t)s->cp.n_tensors + 1, sizeof *s->io_kind);
  s->cpu_node = calloc((size_t)s->cp.n_tensors + 1, sizeof *s->cpu_node);
  if (st == TFCC_OK && (!s->pinned || !s->pending || !s->io_kind || !s->cpu_node))
    st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  for (int32_t a = 0; st == TFCC_OK && a < s->cp.n_actions; a++)
    if (s->cp.actions[a].kind == TFCC_GA_CPU) mark_cpu_node(s, p, s->cp.actions[a].index);
  for (int32_t a = 0; st == TFCC_OK && a < s->cp.n_actions; a++) {
    const tfcc_ga *ga = &s->cp.actions[a];
    if (ga->kind != TFCC_GA_H2D && ga->kind != TFCC_GA_D2H) continue;
    const size_t bytes = (size_t)tfcc_gpu_tensor_elems(&p->tensors[ga->index]) * 4;
    /* TFCC_CUDA_PAGEABLE=BYTES: copies up of at least BYTES straight from the caller's memory */
    if (ga->kind == TFCC_GA_H2D && s->pageable_min && bytes >= s->pageable_min) continue;
    if (bytes && (e = cudaMallocHost(&s->pinned[a], bytes)) != cudaSuccess)
      st = cuda_fail(err, e, "allocating page-locked host memory for the copies");
  }
  s->dnn = ss->dnn;
  if (st == TFCC_OK && s->dnn) { /* cuDNN for the convolutions im2col would copy */
    size_t ws = 0;
    s->dnn_conv = calloc((size_t)s->cp.n_steps + 1, sizeof *s->dnn_conv);
    if (!s->dnn_conv) st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
    for (int32_t i = 0; st == TFCC_OK && i < s->cp.n_steps; i++) {
      const tfcc_gs *g = &s->cp.steps[i];
      if (g->kind != TFCC_GS_CONV || !g->im2col) continue;
      if (tfcc_cudnn_conv_init(s->dnn, &s->dnn_conv[i], &g->g, m->dt)) {
        s->n_dnn++;
        if (s->dnn_conv[i].workspace > ws) ws = s->dnn_conv[i].workspace;
      }
    }
    if (st == TFCC_OK && ws && (e = cudaMalloc(&s->dnn_ws, ws)) != cudaSuccess)
      st = cuda_fail(err, e, "allocating cuDNN's workspace");
  }
  s->lt = ss->lt;
  s->ws = ss->ws;
  s->ws_bytes = ss->ws_bytes;
  if (st == TFCC_OK && s->lt) { /* cuBLASLt for the GEMM steps whose epilogue it can fuse */
    s->lt_gemm = calloc((size_t)s->cp.n_steps + 1, sizeof *s->lt_gemm);
    if (!s->lt_gemm) st = tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
    for (int32_t i = 0; st == TFCC_OK && i < s->cp.n_steps; i++) {
      const tfcc_gs *g = &s->cp.steps[i];
      if ((g->kind != TFCC_GS_CONV && g->kind != TFCC_GS_FC) ||
          (s->dnn_conv && s->dnn_conv[i].conv))
        continue;
      s->n_lt += tfcc_lt_gemm_init(s->lt, &s->lt_gemm[i], m->dt, g->rows, g->cols, g->k, g->act,
                                   bias_ptr(s, g->in[2]), g->in[3] >= 0, s->ws_bytes, s->stream);
    }
  }
  if (st == TFCC_OK && (s->dnn || s->lt) && !m->engines_logged) { /* once per model */
    m->engines_logged = true;
    int32_t n_gemm = 0;
    for (int32_t i = 0; i < s->cp.n_steps; i++)
      n_gemm += s->cp.steps[i].kind == TFCC_GS_CONV || s->cp.steps[i].kind == TFCC_GS_FC;
    char line[200];
    snprintf(line, sizeof line,
             "device cuda: %d of the CONV_2D steps run by cuDNN, %d GEMM steps by cuBLASLt (of %d "
             "CONV_2D / FULLY_CONNECTED steps)",
             (int)s->n_dnn, (int)s->n_lt, (int)n_gemm);
    sv->log_line(sv->log, TFCC_LOG_WARN, "RUNTIME", line);
  }
  const char *tm = getenv("TFCC_CUDA_TIMING");
  if (st == TFCC_OK && tm && (strcmp(tm, "1") == 0 || strcmp(tm, "2") == 0)) {
    s->t_gpu = malloc(CUDA_TIMED_RUNS * sizeof *s->t_gpu);
    s->t_all = malloc(CUDA_TIMED_RUNS * sizeof *s->t_all);
    for (int k = 0; k < 4 && s->t_gpu && s->t_all; k++) cudaEventCreate(&s->ev[k]);
    if (strcmp(tm, "2") == 0 &&
        (s->step_ev = calloc((size_t)s->cp.n_steps + 1, sizeof *s->step_ev)))
      for (int32_t i = 0; i <= s->cp.n_steps; i++) cudaEventCreate(&s->step_ev[i]);
  }
  if (st == TFCC_OK) st = make_segments(s, err);
  if (st == TFCC_OK) st = capture(s, err);
  if (st != TFCC_OK) {
    plan_close(s);
    return st;
  }
  *out = s;
  return TFCC_OK;
}

/* Makes the device plan of p's current shapes current: a kept one, else a new one (the least
 * recently used one freed when CUDA_PLANS_KEPT are kept). */
static tfcc_status session_replan(void *dsv, tfcc_exec_plan *p, tfcc_err *err) {
  cuda_session *ss = dsv;
  cudaError_t e = cudaSetDevice(ss->m->d->id);
  if (e != cudaSuccess) return cuda_fail(err, e, "cudaSetDevice");
  int32_t len = 0;
  int32_t *key = shape_key(p, &len);
  if (!key) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  for (int32_t i = 0; i < ss->n_plans; i++) {
    cuda_sess *c = ss->plans[i];
    if (c->key_len == len && memcmp(c->key, key, (size_t)len * sizeof *key) == 0) {
      free(key);
      c->p = p;
      c->used = ++ss->tick;
      ss->cur = c;
      return TFCC_OK;
    }
  }
  free(key);
  ss->cur = NULL; /* until a plan of these shapes exists (runs fail meanwhile, naming why) */
  if (ss->n_plans == CUDA_PLANS_KEPT) {
    int32_t lru = 0;
    for (int32_t i = 1; i < ss->n_plans; i++)
      if (ss->plans[i]->used < ss->plans[lru]->used) lru = i;
    plan_close(ss->plans[lru]);
    ss->plans[lru] = ss->plans[--ss->n_plans];
  }
  cuda_sess *c = NULL;
  tfcc_status st = plan_open(ss, p, &c, err);
  if (st != TFCC_OK) return st;
  c->used = ++ss->tick;
  ss->plans[ss->n_plans++] = c;
  ss->cur = c;
  return TFCC_OK;
}

static tfcc_status session_open(void *dmv, tfcc_exec_plan *p, void **out, tfcc_err *err) {
  cuda_model *m = dmv;
  cudaError_t e = cudaSetDevice(m->d->id);
  if (e != cudaSuccess) return cuda_fail(err, e, "cudaSetDevice");
  cuda_session *ss = calloc(1, sizeof *ss);
  if (!ss) return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "out of memory");
  ss->m = m;
  tfcc_status st = TFCC_OK;
  cublasStatus_t bs;
  if ((e = cudaStreamCreateWithFlags(&ss->stream, cudaStreamNonBlocking)) != cudaSuccess)
    st = cuda_fail(err, e, "cudaStreamCreate");
  if (st == TFCC_OK && (bs = cublasCreate(&ss->blas)) != CUBLAS_STATUS_SUCCESS)
    st = blas_fail(err, bs, "cublasCreate");
  if (st == TFCC_OK && (bs = cublasSetStream(ss->blas, ss->stream)) != CUBLAS_STATUS_SUCCESS)
    st = blas_fail(err, bs, "cublasSetStream");
  ss->ws_bytes = (size_t)32 << 20; /* cuBLAS's workspace, its own (graph capture needs it set) */
  if (st == TFCC_OK && (e = cudaMalloc(&ss->ws, ss->ws_bytes)) != cudaSuccess)
    st = cuda_fail(err, e, "allocating the cuBLAS workspace");
  if (st == TFCC_OK &&
      (bs = cublasSetWorkspace(ss->blas, ss->ws, ss->ws_bytes)) != CUBLAS_STATUS_SUCCESS)
    st = blas_fail(err, bs, "cublasSetWorkspace");
  if (st == TFCC_OK && m->dt == TFCC_GPU_F32 &&
      (bs = cublasSetMathMode(ss->blas, CUBLAS_PEDANTIC_MATH)) != CUBLAS_STATUS_SUCCESS)
    st = blas_fail(err, bs, "cublasSetMathMode");
  if (st == TFCC_OK) {
    char why[300];
    ss->dnn = tfcc_cudnn_open(ss->stream, why, sizeof why);
    if (!ss->dnn && !m->dnn_logged) {
      m->dnn_logged = true;
      char line[400];
      snprintf(line, sizeof line,
               "device cuda: cuDNN not used (%s): convolutions run as im2col + cuBLAS GEMM", why);
      m->d->sv->log_line(m->d->sv->log, TFCC_LOG_INFO, "RUNTIME", line);
    }
    ss->lt = tfcc_lt_open(why, sizeof why);
    if (!ss->lt && strncmp(why, "off", 3) != 0) {
      char line[400];
      snprintf(line, sizeof line, "device cuda: cuBLASLt not used (%s)", why);
      m->d->sv->log_line(m->d->sv->log, TFCC_LOG_WARN, "RUNTIME", line);
    }
  }
  if (st == TFCC_OK) st = session_replan(ss, p, err);
  if (st != TFCC_OK) {
    session_close(ss);
    return st;
  }
  *out = ss;
  return TFCC_OK;
}

static tfcc_status session_run(void *dsv, tfcc_exec_plan *p, tfcc_err *err) {
  cuda_session *ss = dsv;
  cuda_sess *s = ss->cur;
  if (!s) return tfcc_err_set(err, TFCC_ERR_STATE, "device cuda: the session has no device plan");
  s->p = p;
  s->n_pending = 0;
  cudaError_t e = cudaSetDevice(s->m->d->id);
  if (e != cudaSuccess) return cuda_fail(err, e, "cudaSetDevice");
  tfcc_status cst = classify_io(s, p, err);
  if (cst != TFCC_OK) return cst;
  const bool timed = s->ev[3] != NULL;
  int32_t first_gpu = -1, last_gpu = -1;
  for (int32_t i = 0; timed && i < s->n_seg; i++)
    if (s->seg[i].gpu) {
      if (first_gpu < 0) first_gpu = i;
      last_gpu = i;
    }
  if (timed) cudaEventRecord(s->ev[0], s->stream);
  if (s->step_ev) cudaEventRecord(s->step_ev[0], s->stream);
  for (int32_t i = 0; i < s->n_seg; i++) {
    const cuda_seg *g = &s->seg[i];
    tfcc_status st = TFCC_OK;
    if (timed && i == first_gpu) cudaEventRecord(s->ev[1], s->stream);
    if (timed && i == last_gpu + 1) cudaEventRecord(s->ev[2], s->stream);
    if (g->gpu) {
      if (g->exec) {
        if ((e = cudaGraphLaunch(g->exec, s->stream)) != cudaSuccess)
          return cuda_fail(err, e, "cudaGraphLaunch");
      } else if ((st = run_gpu_actions(s, g->a0, g->a1, err)) != TFCC_OK)
        return st;
      continue;
    }
    for (int32_t a = g->a0; a < g->a1; a++) {
      const tfcc_ga *ga = &s->cp.actions[a];
      if (ga->kind == TFCC_GA_CPU) {
        if ((st = drain(s, p, "waiting for the device before a CPU node", err)) != TFCC_OK)
          return st;
        tfcc_exec_node *en = &p->nodes[ga->index];
        st = s->m->d->sv->run_cpu_node(p, en, err);
        if (st != TFCC_OK)
          return tfcc_err_prefix(err, "node %d (%s)", (int)en->node,
                                 s->m->d->sv->op_name(en->ctx.node));
      } else if ((st = copy_action(s, p, a, err)) != TFCC_OK) {
        s->n_pending = 0;
        return st;
      }
    }
  }
  if (timed && last_gpu == s->n_seg - 1) cudaEventRecord(s->ev[2], s->stream);
  cudaEvent_t end = timed ? s->ev[3] : NULL;
  if (end) cudaEventRecord(end, s->stream);
  tfcc_status st = drain(s, p, "running the model", err);
  if (timed && end && st == TFCC_OK && s->n_t < CUDA_TIMED_RUNS && first_gpu >= 0) {
    float g = 0, a = 0;
    cudaEventElapsedTime(&g, s->ev[1], s->ev[2]);
    cudaEventElapsedTime(&a, s->ev[0], end);
    s->t_gpu[s->n_t] = g, s->t_all[s->n_t] = a, s->n_t++;
    if (s->step_ev) add_step_times(s);
  }
  return st;
}

static const tfcc_device_backend backend = {
    .abi = TFCC_DEVICE_ABI,
    .layout = {sizeof(tfcc_graph), sizeof(tfcc_ir_node), sizeof(tfcc_exec_plan),
               sizeof(tfcc_tensor)},
    .name = "cuda",
    .open = dev_open,
    .close = dev_close,
    .describe = dev_describe,
    .model_open = model_open,
    .model_close = model_close,
    .session_open = session_open,
    .session_replan = session_replan,
    .session_close = session_close,
    .session_run = session_run,
    .mem_alloc = dev_mem_alloc,
    .mem_free = dev_mem_free,
    .mem_copy = dev_mem_copy,
};

TFCC_CUDA_EXPORT const tfcc_device_backend *tfcc_cuda_backend(void) { return &backend; }

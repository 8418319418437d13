/* cuBLASLt for the CUDA backend's GEMM steps (CONV_2D, FULLY_CONNECTED) with the epilogue fused:
 * y = act(x W^T + bias + residual) in one kernel, where the plain path runs cuBLAS's GEMM and then
 * a bias / residual / activation pass that reads and writes y again (on MobileNetV2's 1x1
 * convolutions at batch 32, memory-bound, that pass is about as long as the GEMM). cuBLASLt's
 * epilogues give no activation and ReLU; the other activations keep the plain path, and so does
 * every step for which cuBLASLt offers no algorithm. One tfcc_lt_gemm per step, set up at session
 * creation (descriptors, the heuristic's first algorithm, the bias in the device type).
 * Opt-in with env TFCC_CUDA_LT=1 until it has run on a GPU (docs/cuda.md). */
#ifndef TFCC_CUDA_CUDA_LT_H
#define TFCC_CUDA_CUDA_LT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/gpu_kernels.h"

typedef struct tfcc_lt_gemm {
  void *op;         /* cublasLtMatmulDesc_t, NULL: this step keeps the plain path */
  void *a, *b, *c;  /* layouts of W, x and of the residual / y */
  uint64_t algo[8]; /* cublasLtMatmulAlgo_t (64 opaque bytes) */
  bool residual;    /* C is the residual (beta 1), else y with beta 0 */
  void *bias_dev;   /* the bias converted to the device type (owned), or NULL */
} tfcc_lt_gemm;

/* A cuBLASLt handle, or NULL (why in why[0..cap)) when it is off or cannot be created. */
void *tfcc_lt_open(char *why, size_t cap);
void tfcc_lt_close(void *h);
/* Sets g up for y[rows x cols] = act(a[rows x k] w[cols x k]^T + bias + residual) in dt (bias
 * float32 [cols] or NULL; residual: a [rows x cols] tensor added). false (g cleared) where
 * cuBLASLt cannot run it: another activation, no algorithm within workspace bytes, a failure. */
bool tfcc_lt_gemm_init(void *h, tfcc_lt_gemm *g, tfcc_gpu_dtype dt, int64_t rows, int64_t cols,
                       int64_t k, int act, const float *bias, bool residual, size_t workspace,
                       void *stream);
void tfcc_lt_gemm_free(tfcc_lt_gemm *g);
/* Enqueues the step on stream; 0 or a cublasStatus_t. */
int tfcc_lt_gemm_run(void *h, const tfcc_lt_gemm *g, const void *a, const void *w,
                     const void *residual, void *y, void *workspace, size_t bytes, void *stream);

#endif

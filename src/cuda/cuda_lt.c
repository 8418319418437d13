/* cuBLASLt GEMMs with fused epilogues (cuda_lt.h). Column-major view, as the plain path's
 * cublasGemmEx: D[cols x rows] = op(W)[cols x k] * x[k x rows], W stored [cols][k] (transposed),
 * x stored [rows][k]; the bias runs along D's rows (one value per output channel). */
#include "cuda/cuda_lt.h"

#include <cublasLt.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(cublasLtMatmulAlgo_t) <= sizeof(((tfcc_lt_gemm *)0)->algo),
               "tfcc_lt_gemm.algo holds a cublasLtMatmulAlgo_t");

void *tfcc_lt_open(char *why, size_t cap) {
  const char *v = getenv("TFCC_CUDA_LT");
  if (!v || strcmp(v, "1") != 0) {
    snprintf(why, cap, "off (env TFCC_CUDA_LT=1 turns it on)");
    return NULL;
  }
  cublasLtHandle_t h = NULL;
  cublasStatus_t s = cublasLtCreate(&h);
  if (s != CUBLAS_STATUS_SUCCESS) {
    snprintf(why, cap, "cublasLtCreate: status %d", (int)s);
    return NULL;
  }
  return h;
}

void tfcc_lt_close(void *h) {
  if (h) cublasLtDestroy((cublasLtHandle_t)h);
}

void tfcc_lt_gemm_free(tfcc_lt_gemm *g) {
  if (g->op) cublasLtMatmulDescDestroy((cublasLtMatmulDesc_t)g->op);
  if (g->a) cublasLtMatrixLayoutDestroy((cublasLtMatrixLayout_t)g->a);
  if (g->b) cublasLtMatrixLayoutDestroy((cublasLtMatrixLayout_t)g->b);
  if (g->c) cublasLtMatrixLayoutDestroy((cublasLtMatrixLayout_t)g->c);
  if (g->bias_dev) cudaFree(g->bias_dev);
  memset(g, 0, sizeof *g);
}

static cudaDataType lt_type(tfcc_gpu_dtype dt) {
  return dt == TFCC_GPU_F16 ? CUDA_R_16F : dt == TFCC_GPU_BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

/* The bias as the epilogue reads it (the output's type): float32 as it is, else a converted copy
 * owned by g. NULL on failure. */
static const void *device_bias(tfcc_lt_gemm *g, tfcc_gpu_dtype dt, const float *bias, int64_t cols,
                               void *stream) {
  if (dt == TFCC_GPU_F32) return bias;
  if (cudaMalloc(&g->bias_dev, (size_t)cols * 2 /* fp16 or bf16 */) != cudaSuccess) {
    g->bias_dev = NULL;
    return NULL;
  }
  if (tfcc_gpu_convert(stream, bias, TFCC_GPU_F32, g->bias_dev, dt, (size_t)cols) != 0 ||
      cudaStreamSynchronize((cudaStream_t)stream) != cudaSuccess)
    return NULL;
  return g->bias_dev;
}

bool tfcc_lt_gemm_init(void *h, tfcc_lt_gemm *g, tfcc_gpu_dtype dt, int64_t rows, int64_t cols,
                       int64_t k, int act, const float *bias, bool residual, size_t workspace,
                       void *stream) {
  memset(g, 0, sizeof *g);
  if (!h || (act != TFCC_GPU_ACT_NONE && act != TFCC_GPU_ACT_RELU)) return false;
  const cudaDataType t = lt_type(dt);
  cublasLtMatmulDesc_t op = NULL;
  cublasLtMatrixLayout_t la = NULL, lb = NULL, lc = NULL;
  cublasLtMatmulPreference_t pref = NULL;
  bool ok = cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) == CUBLAS_STATUS_SUCCESS;
  g->op = op;
  const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  const cublasLtEpilogue_t epi = act == TFCC_GPU_ACT_RELU
                                     ? (bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU)
                                 : bias ? CUBLASLT_EPILOGUE_BIAS
                                        : CUBLASLT_EPILOGUE_DEFAULT;
  ok = ok &&
       cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta) ==
           CUBLAS_STATUS_SUCCESS &&
       cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb) ==
           CUBLAS_STATUS_SUCCESS &&
       cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi) ==
           CUBLAS_STATUS_SUCCESS;
  if (ok && bias) {
    const void *bp = device_bias(g, dt, bias, cols, stream);
    ok = bp && cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bp,
                                              sizeof bp) == CUBLAS_STATUS_SUCCESS;
  }
  ok =
      ok &&
      cublasLtMatrixLayoutCreate(&la, t, (uint64_t)k, (uint64_t)cols, k) == CUBLAS_STATUS_SUCCESS &&
      cublasLtMatrixLayoutCreate(&lb, t, (uint64_t)k, (uint64_t)rows, k) == CUBLAS_STATUS_SUCCESS &&
      cublasLtMatrixLayoutCreate(&lc, t, (uint64_t)cols, (uint64_t)rows, cols) ==
          CUBLAS_STATUS_SUCCESS;
  g->a = la, g->b = lb, g->c = lc;
  ok = ok && cublasLtMatmulPreferenceCreate(&pref) == CUBLAS_STATUS_SUCCESS &&
       cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                            &workspace, sizeof workspace) == CUBLAS_STATUS_SUCCESS;
  cublasLtMatmulHeuristicResult_t res;
  int found = 0;
  ok = ok &&
       cublasLtMatmulAlgoGetHeuristic((cublasLtHandle_t)h, op, la, lb, lc, lc, pref, 1, &res,
                                      &found) == CUBLAS_STATUS_SUCCESS &&
       found > 0 && res.state == CUBLAS_STATUS_SUCCESS;
  if (pref) cublasLtMatmulPreferenceDestroy(pref);
  if (!ok) {
    tfcc_lt_gemm_free(g);
    return false;
  }
  memcpy(g->algo, &res.algo, sizeof res.algo);
  g->residual = residual;
  return true;
}

int tfcc_lt_gemm_run(void *h, const tfcc_lt_gemm *g, const void *a, const void *w,
                     const void *residual, void *y, void *workspace, size_t bytes, void *stream) {
  const float one = 1.0f, zero = 0.0f;
  cublasLtMatmulAlgo_t algo;
  memcpy(&algo, g->algo, sizeof algo);
  const cublasLtMatrixLayout_t lc = (cublasLtMatrixLayout_t)g->c;
  return (int)cublasLtMatmul((cublasLtHandle_t)h, (cublasLtMatmulDesc_t)g->op, &one, w,
                             (cublasLtMatrixLayout_t)g->a, a, (cublasLtMatrixLayout_t)g->b,
                             g->residual ? &one : &zero, g->residual ? residual : y, lc, y, lc,
                             &algo, workspace, bytes, (cudaStream_t)stream);
}

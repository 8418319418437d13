/* cuDNN through dlopen (cuda_cudnn.h). The legacy convolution API is deprecated in cuDNN 9 but
 * present in every 9.x; its declarations are only used for their types here. */
#include "cuda/cuda_cudnn.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TFCC_NO_CUDNN_HEADER /* built where cudnn.h is absent: the im2col + GEMM path only */
void *tfcc_cudnn_open(void *stream, char *why, size_t cap) {
  (void)stream;
  snprintf(why, cap, "libtfcc_cuda was built without cudnn.h");
  return NULL;
}
void tfcc_cudnn_close(void *h) { (void)h; }
bool tfcc_cudnn_conv_init(void *h, tfcc_cudnn_conv *c, const tfcc_gpu_conv_geom *g,
                          tfcc_gpu_dtype dt) {
  (void)h, (void)g, (void)dt;
  memset(c, 0, sizeof *c);
  return false;
}
void tfcc_cudnn_conv_free(tfcc_cudnn_conv *c) { (void)c; }
int tfcc_cudnn_conv_run(void *h, const tfcc_cudnn_conv *c, const void *x, const void *w, void *y,
                        void *workspace) {
  (void)h, (void)c, (void)x, (void)w, (void)y, (void)workspace;
  return -1;
}
#else
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#include <cudnn.h>

/* the functions used, each looked up by name */
// clang-format off
#define CUDNN_FNS(X) \
  X(cudnnCreate) \
  X(cudnnDestroy) \
  X(cudnnSetStream) \
  X(cudnnCreateTensorDescriptor) \
  X(cudnnSetTensor4dDescriptor) \
  X(cudnnDestroyTensorDescriptor) \
  X(cudnnCreateFilterDescriptor) \
  X(cudnnSetFilter4dDescriptor) \
  X(cudnnDestroyFilterDescriptor) \
  X(cudnnCreateConvolutionDescriptor) \
  X(cudnnSetConvolution2dDescriptor) \
  X(cudnnSetConvolutionMathType) \
  X(cudnnDestroyConvolutionDescriptor) \
  X(cudnnGetConvolution2dForwardOutputDim) \
  X(cudnnFindConvolutionForwardAlgorithm) \
  X(cudnnGetConvolutionForwardWorkspaceSize) \
  X(cudnnConvolutionForward)
// clang-format on

static struct {
#define FIELD(f) __typeof__(&f) f;
  CUDNN_FNS(FIELD)
#undef FIELD
  bool ok;
  char why[256];
} g_dnn;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void load(void) {
  /* opt-in until cuDNN's convolutions have run on a GPU (docs/cuda.md) */
  const char *on = getenv("TFCC_CUDNN");
  if (!on || strcmp(on, "1") != 0) {
    snprintf(g_dnn.why, sizeof g_dnn.why, "off; env TFCC_CUDNN=1 turns it on");
    return;
  }
  void *lib = dlopen("libcudnn.so.9", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(g_dnn.why, sizeof g_dnn.why, "%s", dlerror());
    return;
  }
#define LOOKUP(f) \
  { \
    void *sym = dlsym(lib, #f); \
    if (!sym) { \
      snprintf(g_dnn.why, sizeof g_dnn.why, "libcudnn.so.9 has no %s", #f); \
      return; \
    } \
    memcpy(&g_dnn.f, &sym, sizeof sym); \
  }
  CUDNN_FNS(LOOKUP)
#undef LOOKUP
  g_dnn.ok = true;
}

void *tfcc_cudnn_open(void *stream, char *why, size_t cap) {
  pthread_once(&g_once, load);
  if (!g_dnn.ok) {
    snprintf(why, cap, "%s", g_dnn.why);
    return NULL;
  }
  cudnnHandle_t h = NULL;
  if (g_dnn.cudnnCreate(&h) != CUDNN_STATUS_SUCCESS) {
    snprintf(why, cap, "cudnnCreate failed");
    return NULL;
  }
  if (g_dnn.cudnnSetStream(h, (cudaStream_t)stream) != CUDNN_STATUS_SUCCESS) {
    g_dnn.cudnnDestroy(h);
    snprintf(why, cap, "cudnnSetStream failed");
    return NULL;
  }
  return h;
}

void tfcc_cudnn_close(void *h) {
  if (h) g_dnn.cudnnDestroy((cudnnHandle_t)h);
}

void tfcc_cudnn_conv_free(tfcc_cudnn_conv *c) {
  if (!g_dnn.ok) return;
  if (c->x) g_dnn.cudnnDestroyTensorDescriptor(c->x);
  if (c->y) g_dnn.cudnnDestroyTensorDescriptor(c->y);
  if (c->w) g_dnn.cudnnDestroyFilterDescriptor(c->w);
  if (c->conv) g_dnn.cudnnDestroyConvolutionDescriptor(c->conv);
  memset(c, 0, sizeof *c);
}

bool tfcc_cudnn_conv_init(void *h, tfcc_cudnn_conv *c, const tfcc_gpu_conv_geom *g,
                          tfcc_gpu_dtype dt) {
  memset(c, 0, sizeof *c);
  if (!h || !g_dnn.ok) return false;
  /* TFLite's SAME padding puts an odd total's extra row after: cuDNN pads symmetrically, so
   * only geometries whose symmetric padding gives TFLite's output size (checked below) */
  const cudnnDataType_t t = dt == TFCC_GPU_F16    ? CUDNN_DATA_HALF
                            : dt == TFCC_GPU_BF16 ? CUDNN_DATA_BFLOAT16
                                                  : CUDNN_DATA_FLOAT;
  cudnnTensorDescriptor_t x = NULL, y = NULL;
  cudnnFilterDescriptor_t w = NULL;
  cudnnConvolutionDescriptor_t cv = NULL;
  bool ok = g_dnn.cudnnCreateTensorDescriptor(&x) == CUDNN_STATUS_SUCCESS &&
            g_dnn.cudnnCreateTensorDescriptor(&y) == CUDNN_STATUS_SUCCESS &&
            g_dnn.cudnnCreateFilterDescriptor(&w) == CUDNN_STATUS_SUCCESS &&
            g_dnn.cudnnCreateConvolutionDescriptor(&cv) == CUDNN_STATUS_SUCCESS;
  c->x = x, c->y = y, c->w = w, c->conv = cv;
  ok = ok &&
       g_dnn.cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, t, g->n, g->ic, g->ih, g->iw) ==
           CUDNN_STATUS_SUCCESS &&
       g_dnn.cudnnSetFilter4dDescriptor(w, t, CUDNN_TENSOR_NHWC, g->oc, g->ic, g->kh, g->kw) ==
           CUDNN_STATUS_SUCCESS &&
       g_dnn.cudnnSetConvolution2dDescriptor(cv, g->pad_top, g->pad_left, g->sh, g->sw, g->dh,
                                             g->dw, CUDNN_CROSS_CORRELATION,
                                             CUDNN_DATA_FLOAT) == CUDNN_STATUS_SUCCESS &&
       /* float32: FMA math, no TF32 (the 1e-3 agreement with the CPU); halves: tensor cores */
       g_dnn.cudnnSetConvolutionMathType(
           cv, dt == TFCC_GPU_F32 ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH) == CUDNN_STATUS_SUCCESS;
  int n = 0, ch = 0, oh = 0, ow = 0;
  ok = ok &&
       g_dnn.cudnnGetConvolution2dForwardOutputDim(cv, x, w, &n, &ch, &oh, &ow) ==
           CUDNN_STATUS_SUCCESS &&
       n == g->n && ch == g->oc && oh == g->oh && ow == g->ow;
  ok = ok && g_dnn.cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NHWC, t, g->n, g->oc, g->oh, g->ow) ==
                 CUDNN_STATUS_SUCCESS;
  cudnnConvolutionFwdAlgoPerf_t perf[8];
  int found = 0;
  ok = ok && g_dnn.cudnnFindConvolutionForwardAlgorithm((cudnnHandle_t)h, x, w, cv, y, 8, &found,
                                                        perf) == CUDNN_STATUS_SUCCESS;
  int best = -1;
  for (int i = 0; ok && i < found; i++) /* fastest first; no nondeterministic algorithm */
    if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].determinism == CUDNN_DETERMINISTIC &&
        perf[i].memory <= ((size_t)256 << 20)) {
      best = i;
      break;
    }
  if (!ok || best < 0) {
    tfcc_cudnn_conv_free(c);
    return false;
  }
  c->algo = (int)perf[best].algo;
  c->workspace = perf[best].memory;
  return true;
}

int tfcc_cudnn_conv_run(void *h, const tfcc_cudnn_conv *c, const void *x, const void *w, void *y,
                        void *workspace) {
  const float one = 1.0f, zero = 0.0f;
  return (int)g_dnn.cudnnConvolutionForward((cudnnHandle_t)h, &one, c->x, x, c->w, w, c->conv,
                                            (cudnnConvolutionFwdAlgo_t)c->algo, workspace,
                                            c->workspace, &zero, c->y, y);
}
#endif

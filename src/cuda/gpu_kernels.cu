// libtfcc_cuda's device kernels (the C interface and its contract: gpu_kernels.h).
//
// One body per kernel, templated over the storage type (float, __half, __nv_bfloat16); float32
// arithmetic in registers. Grid-stride loops with 64-bit indices: any shape is correct, the
// launch is sized for the work. Nothing here allocates, synchronises or prints: a whole run is
// captured into a CUDA graph.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "cuda/gpu_kernels.h"

namespace {

template <typename T> __device__ __forceinline__ float ld(const T *p, int64_t i);
template <> __device__ __forceinline__ float ld<float>(const float *p, int64_t i) { return p[i]; }
template <> __device__ __forceinline__ float ld<__half>(const __half *p, int64_t i) {
  return __half2float(p[i]);
}
template <> __device__ __forceinline__ float ld<__nv_bfloat16>(const __nv_bfloat16 *p, int64_t i) {
  return __bfloat162float(p[i]);
}
template <typename T> __device__ __forceinline__ void st(T *p, int64_t i, float v);
template <> __device__ __forceinline__ void st<float>(float *p, int64_t i, float v) { p[i] = v; }
template <> __device__ __forceinline__ void st<__half>(__half *p, int64_t i, float v) {
  p[i] = __float2half_rn(v);
}
template <> __device__ __forceinline__ void st<__nv_bfloat16>(__nv_bfloat16 *p, int64_t i, float v) {
  p[i] = __float2bfloat16_rn(v);
}

// TFLite's activations (gpu_kernels.h tfcc_gpu_act); clamps keep a NaN as the CPU's do.
__device__ __forceinline__ float clampf(float x, float lo, float hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}
__device__ __forceinline__ float act_f(float x, int act, float param) {
  switch (act) {
  case TFCC_GPU_ACT_RELU: return x < 0.0f ? 0.0f : x;
  case TFCC_GPU_ACT_RELU_N1_TO_1: return clampf(x, -1.0f, 1.0f);
  case TFCC_GPU_ACT_RELU6: return clampf(x, 0.0f, 6.0f);
  case TFCC_GPU_ACT_TANH: return tanhf(x);
  case TFCC_GPU_ACT_SIGMOID: return 1.0f / (1.0f + expf(-x));
  case TFCC_GPU_ACT_HARD_SWISH: return x * clampf(x + 3.0f, 0.0f, 6.0f) / 6.0f;
  case TFCC_GPU_ACT_RELU_0_TO_1: return clampf(x, 0.0f, 1.0f);
  case TFCC_GPU_ACT_LEAKY_RELU: return x > 0.0f ? x : x * param;
  case TFCC_GPU_ACT_ELU: return x < 0.0f ? expm1f(x) : x;
  case TFCC_GPU_ACT_GELU_TANH:
    return 0.5f * x * (1.0f + tanhf(0.7978845608028654f * (x + 0.044715f * x * x * x)));
  case TFCC_GPU_ACT_GELU_ERF: return 0.5f * x * erfcf(-x * 0.7071067811865476f);
  default: return x;
  }
}

constexpr int kThreads = 256;
inline unsigned blocks_for(int64_t n) {
  int64_t b = (n + kThreads - 1) / kThreads;
  return (unsigned)(b < 1 ? 1 : (b > 65535 * 8 ? 65535 * 8 : b));
}
#define GRID_LOOP(i, n)                                                                   \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n);             \
       i += (int64_t)gridDim.x * blockDim.x)

template <typename S, typename D> __global__ void k_convert(const S *x, D *y, int64_t n) {
  GRID_LOOP(i, n) st(y, i, ld(x, i));
}

template <typename T>
__global__ void k_bias_act(const T *x, const float *bias, const T *res, T *y, int64_t rows,
                           int32_t ch, int act) {
  const int64_t n = rows * ch;
  GRID_LOOP(i, n) {
    float v = ld(x, i);
    if (bias) v += bias[i % ch];
    if (res) v += ld(res, i);
    st(y, i, act_f(v, act, 0.0f));
  }
}

template <typename T> __global__ void k_im2col(const T *x, T *col, tfcc_gpu_conv_geom g) {
  const int64_t K = (int64_t)g.kh * g.kw * g.ic;
  const int64_t n = (int64_t)g.n * g.oh * g.ow * K;
  GRID_LOOP(i, n) {
    const int64_t m = i / K;
    const int32_t kk = (int32_t)(i - m * K);
    const int32_t ci = kk % g.ic, t = kk / g.ic, kx = t % g.kw, ky = t / g.kw;
    const int32_t ox = (int32_t)(m % g.ow);
    const int64_t m2 = m / g.ow;
    const int32_t oy = (int32_t)(m2 % g.oh);
    const int64_t b = m2 / g.oh;
    const int32_t iy = oy * g.sh - g.pad_top + ky * g.dh, ix = ox * g.sw - g.pad_left + kx * g.dw;
    float v = 0.0f;
    if (iy >= 0 && iy < g.ih && ix >= 0 && ix < g.iw) v = ld(x, ((b * g.ih + iy) * g.iw + ix) * g.ic + ci);
    st(col, i, v);
  }
}

template <typename T>
__global__ void k_depthwise(const T *__restrict__ x, const T *__restrict__ w,
                            const float *__restrict__ bias, T *__restrict__ y,
                            tfcc_gpu_conv_geom g, int act) {
  const int64_t n = (int64_t)g.n * g.oh * g.ow * g.oc;
  GRID_LOOP(i, n) {
    const int32_t c = (int32_t)(i % g.oc);
    int64_t t = i / g.oc;
    const int32_t ox = (int32_t)(t % g.ow);
    t /= g.ow;
    const int32_t oy = (int32_t)(t % g.oh);
    const int64_t b = t / g.oh;
    const int32_t ci = c / g.depth_multiplier;
    float acc = bias ? __ldg(bias + c) : 0.0f;
    for (int32_t ky = 0; ky < g.kh; ky++) {
      const int32_t iy = oy * g.sh - g.pad_top + ky * g.dh;
      if (iy < 0 || iy >= g.ih) continue;
      for (int32_t kx = 0; kx < g.kw; kx++) {
        const int32_t ix = ox * g.sw - g.pad_left + kx * g.dw;
        if (ix < 0 || ix >= g.iw) continue;
        acc += ld(x, ((b * g.ih + iy) * g.iw + ix) * g.ic + ci) *
               ld(w, ((int64_t)ky * g.kw + kx) * g.oc + c);
      }
    }
    st(y, i, act_f(acc, act, 0.0f));
  }
}

template <typename T>
__global__ void k_pool(const T *x, T *y, tfcc_gpu_conv_geom g, int is_max, int act) {
  const int64_t n = (int64_t)g.n * g.oh * g.ow * g.oc;
  GRID_LOOP(i, n) {
    const int32_t c = (int32_t)(i % g.oc);
    int64_t t = i / g.oc;
    const int32_t ox = (int32_t)(t % g.ow);
    t /= g.ow;
    const int32_t oy = (int32_t)(t % g.oh);
    const int64_t b = t / g.oh;
    float acc = is_max ? -INFINITY : 0.0f;
    int32_t count = 0;
    for (int32_t ky = 0; ky < g.kh; ky++) {
      const int32_t iy = oy * g.sh - g.pad_top + ky;
      if (iy < 0 || iy >= g.ih) continue;
      for (int32_t kx = 0; kx < g.kw; kx++) {
        const int32_t ix = ox * g.sw - g.pad_left + kx;
        if (ix < 0 || ix >= g.iw) continue;
        const float v = ld(x, ((b * g.ih + iy) * g.iw + ix) * g.ic + c);
        acc = is_max ? (v > acc ? v : acc) : acc + v;
        count++;
      }
    }
    if (!is_max) acc = count ? acc / (float)count : 0.0f;
    st(y, i, act_f(acc, act, 0.0f));
  }
}

template <typename T>
__global__ void k_reduce(const T *x, T *y, int64_t outer, int64_t red, int64_t inner, int op) {
  const int64_t n = outer * inner;
  GRID_LOOP(i, n) {
    const int64_t o = i / inner, in = i - o * inner;
    const T *p = x + o * red * inner + in;
    float acc = op == 2 ? -INFINITY : 0.0f;
    for (int64_t r = 0; r < red; r++) {
      const float v = ld(p, r * inner);
      acc = op == 2 ? (v > acc ? v : acc) : acc + v;
    }
    if (op == 0) acc = red ? acc / (float)red : 0.0f;
    st(y, i, acc);
  }
}

template <typename T>
__global__ void k_binary(int op, const T *a, const T *b, T *y, tfcc_gpu_broadcast bc, int act) {
  int64_t n = 1;
  for (int d = 0; d < bc.rank; d++) n *= bc.dims[d];
  GRID_LOOP(i, n) {
    int64_t rest = i, ao = 0, bo = 0;
    for (int d = bc.rank - 1; d >= 0; d--) {
      const int64_t c = rest % bc.dims[d];
      rest /= bc.dims[d];
      ao += c * bc.a_strides[d];
      bo += c * bc.b_strides[d];
    }
    const float u = ld(a, ao), v = ld(b, bo);
    float r;
    switch (op) {
    case TFCC_GPU_ADD: r = u + v; break;
    case TFCC_GPU_SUB: r = u - v; break;
    case TFCC_GPU_MUL: r = u * v; break;
    case TFCC_GPU_DIV: r = u / v; break;
    case TFCC_GPU_MAX: r = u > v ? u : v; break;
    case TFCC_GPU_MIN: r = u < v ? u : v; break;
    case TFCC_GPU_SQUARED_DIFF: r = (u - v) * (u - v); break;
    default: r = powf(u, v); break;
    }
    st(y, i, act_f(r, act, 0.0f));
  }
}

template <typename T>
__global__ void k_unary(const T *x, T *y, int64_t n, int act, float param) {
  GRID_LOOP(i, n) st(y, i, act_f(ld(x, i), act, param));
}

// One block per row: the row's maximum, then the sum of exponentials, then the outputs.
template <typename T>
__global__ void k_softmax(const T *x, T *y, int64_t rows, int32_t cols, float beta) {
  __shared__ float red[kThreads];
  for (int64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    const T *xr = x + r * cols;
    T *yr = y + r * cols;
    float m = -INFINITY;
    for (int32_t c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, ld(xr, c));
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if ((int)threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
      __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int32_t c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(beta * (ld(xr, c) - m));
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if ((int)threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
      __syncthreads();
    }
    const float inv = 1.0f / red[0];
    __syncthreads();
    for (int32_t c = threadIdx.x; c < cols; c += blockDim.x)
      st(yr, c, expf(beta * (ld(xr, c) - m)) * inv);
  }
}

struct dims6 {
  int32_t rank;
  int64_t x[TFCC_GPU_MAX_RANK], before[TFCC_GPU_MAX_RANK], y[TFCC_GPU_MAX_RANK];
  int32_t perm[TFCC_GPU_MAX_RANK];
};

template <typename T> __global__ void k_pad(const T *x, T *y, dims6 d, float value) {
  int64_t n = 1;
  for (int k = 0; k < d.rank; k++) n *= d.y[k];
  GRID_LOOP(i, n) {
    int64_t rest = i, xo = 0, stride = 1;
    bool inside = true;
    for (int k = d.rank - 1; k >= 0; k--) {
      const int64_t c = rest % d.y[k] - d.before[k];
      rest /= d.y[k];
      if (c < 0 || c >= d.x[k]) inside = false;
      xo += c * stride;
      stride *= d.x[k];
    }
    st(y, i, inside ? ld(x, xo) : value);
  }
}

template <typename T> __global__ void k_transpose(const T *x, T *y, dims6 d) {
  int64_t xs[TFCC_GPU_MAX_RANK];
  int64_t s = 1, n = 1;
  for (int k = d.rank - 1; k >= 0; k--) {
    xs[k] = s;
    s *= d.x[k];
  }
  for (int k = 0; k < d.rank; k++) n *= d.x[d.perm[k]];
  GRID_LOOP(i, n) {
    int64_t rest = i, xo = 0;
    for (int k = d.rank - 1; k >= 0; k--) {
      const int64_t yd = d.x[d.perm[k]];
      xo += (rest % yd) * xs[d.perm[k]];
      rest /= yd;
    }
    st(y, i, ld(x, xo));
  }
}

// reference_ops::ResizeBilinear / ResizeNearestNeighbor coordinates (float scales).
__device__ __forceinline__ void interp(int32_t v, float scale, bool half, int32_t size,
                                       float *scaled, int32_t *lo, int32_t *hi) {
  *scaled = half ? ((float)v + 0.5f) * scale - 0.5f : (float)v * scale;
  const int32_t l = (int32_t)floorf(*scaled), h = (int32_t)ceilf(*scaled);
  *lo = l > 0 ? l : 0;
  *hi = h < size - 1 ? h : size - 1;
}
__device__ __forceinline__ int32_t nearest(int32_t v, int32_t in, int32_t out, bool align,
                                           bool half) {
  const float scale = (align && out > 1) ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
  const float f = ((float)v + (half ? 0.5f : 0.0f)) * scale;
  int32_t r = align ? (int32_t)roundf(f) : (int32_t)floorf(f);
  if (r > in - 1) r = in - 1;
  if (half && r < 0) r = 0;
  return r;
}

template <typename T> __global__ void k_resize(const T *x, T *y, tfcc_gpu_resize r) {
  const int64_t n = (int64_t)r.n * r.oh * r.ow * r.c;
  float hs = (float)r.ih / (float)r.oh, ws = (float)r.iw / (float)r.ow;
  if (r.align_corners && r.oh > 1) hs = (float)(r.ih - 1) / (float)(r.oh - 1);
  if (r.align_corners && r.ow > 1) ws = (float)(r.iw - 1) / (float)(r.ow - 1);
  GRID_LOOP(i, n) {
    const int32_t c = (int32_t)(i % r.c);
    int64_t t = i / r.c;
    const int32_t ox = (int32_t)(t % r.ow);
    t /= r.ow;
    const int32_t oy = (int32_t)(t % r.oh);
    const int64_t b = t / r.oh;
    const int64_t base = b * r.ih;
    if (r.nearest) {
      const int32_t iy = nearest(oy, r.ih, r.oh, r.align_corners, r.half_pixel_centers);
      const int32_t ix = nearest(ox, r.iw, r.ow, r.align_corners, r.half_pixel_centers);
      st(y, i, ld(x, ((base + iy) * r.iw + ix) * r.c + c));
      continue;
    }
    float fy, fx;
    int32_t y0, y1, x0, x1;
    interp(oy, hs, r.half_pixel_centers, r.ih, &fy, &y0, &y1);
    interp(ox, ws, r.half_pixel_centers, r.iw, &fx, &x0, &x1);
    const float dy = fy - (float)y0, dx = fx - (float)x0;
    float v = 0.0f;
    v += ld(x, ((base + y0) * r.iw + x0) * r.c + c) * ((1 - dy) * (1 - dx));
    v += ld(x, ((base + y0) * r.iw + x1) * r.c + c) * ((1 - dy) * dx);
    v += ld(x, ((base + y1) * r.iw + x0) * r.c + c) * (dy * (1 - dx));
    v += ld(x, ((base + y1) * r.iw + x1) * r.c + c) * (dy * dx);
    st(y, i, v);
  }
}

inline cudaStream_t S(void *stream) { return (cudaStream_t)stream; }

}  // namespace

// Calls BODY with T the storage type of dt.
#define DISPATCH(dt, BODY)                                                                 \
  do {                                                                                    \
    if ((dt) == TFCC_GPU_F16) {                                                           \
      typedef __half T;                                                                   \
      BODY;                                                                               \
    } else if ((dt) == TFCC_GPU_BF16) {                                                   \
      typedef __nv_bfloat16 T;                                                            \
      BODY;                                                                               \
    } else {                                                                              \
      typedef float T;                                                                    \
      BODY;                                                                               \
    }                                                                                     \
  } while (0)
#define LAUNCH(n) blocks_for(n), kThreads, 0, S(stream)

template <typename D> static void convert_to(void *stream, const void *x, tfcc_gpu_dtype sdt, D *y, size_t n) {
  DISPATCH(sdt, (k_convert<T, D><<<LAUNCH((int64_t)n)>>>((const T *)x, y, (int64_t)n)));
}

extern "C" {

int tfcc_gpu_convert(void *stream, const void *x, tfcc_gpu_dtype sdt, void *y, tfcc_gpu_dtype ddt,
                     size_t n) {
  if (!n) return 0;
  DISPATCH(ddt, convert_to<T>(stream, x, sdt, (T *)y, n));
  return (int)cudaGetLastError();
}

int tfcc_gpu_bias_act(void *stream, tfcc_gpu_dtype dt, const void *x, const float *bias,
                      const void *res, void *y, int64_t rows, int32_t channels, int act) {
  if (rows <= 0 || channels <= 0) return 0;
  DISPATCH(dt, (k_bias_act<T><<<LAUNCH(rows * channels)>>>((const T *)x, bias, (const T *)res,
                                                          (T *)y, rows, channels, act)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_im2col(void *stream, tfcc_gpu_dtype dt, const void *x, void *col,
                    const tfcc_gpu_conv_geom *g) {
  const int64_t n = (int64_t)g->n * g->oh * g->ow * g->kh * g->kw * g->ic;
  if (n <= 0) return 0;
  DISPATCH(dt, (k_im2col<T><<<LAUNCH(n)>>>((const T *)x, (T *)col, *g)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_depthwise(void *stream, tfcc_gpu_dtype dt, const void *x, const void *filter,
                       const float *bias, void *y, const tfcc_gpu_conv_geom *g, int act) {
  const int64_t n = (int64_t)g->n * g->oh * g->ow * g->oc;
  if (n <= 0) return 0;
  DISPATCH(dt, (k_depthwise<T><<<LAUNCH(n)>>>((const T *)x, (const T *)filter, bias, (T *)y, *g,
                                               act)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_pool(void *stream, tfcc_gpu_dtype dt, const void *x, void *y,
                  const tfcc_gpu_conv_geom *g, int is_max, int act) {
  const int64_t n = (int64_t)g->n * g->oh * g->ow * g->oc;
  if (n <= 0) return 0;
  DISPATCH(dt, (k_pool<T><<<LAUNCH(n)>>>((const T *)x, (T *)y, *g, is_max, act)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_reduce(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, int64_t outer,
                    int64_t reduce, int64_t inner, int op) {
  if (outer * inner <= 0) return 0;
  DISPATCH(dt, (k_reduce<T><<<LAUNCH(outer * inner)>>>((const T *)x, (T *)y, outer, reduce, inner,
                                                       op)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_binary(void *stream, tfcc_gpu_dtype dt, int op, const void *a, const void *b, void *y,
                    const tfcc_gpu_broadcast *bc, int act) {
  int64_t n = 1;
  for (int d = 0; d < bc->rank; d++) n *= bc->dims[d];
  if (n <= 0) return 0;
  DISPATCH(dt, (k_binary<T><<<LAUNCH(n)>>>(op, (const T *)a, (const T *)b, (T *)y, *bc, act)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_unary(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, size_t n, int act,
                   float param) {
  if (!n) return 0;
  DISPATCH(dt, (k_unary<T><<<LAUNCH((int64_t)n)>>>((const T *)x, (T *)y, (int64_t)n, act, param)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_softmax(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, int64_t rows,
                     int32_t cols, float beta) {
  if (rows <= 0 || cols <= 0) return 0;
  const unsigned grid = (unsigned)(rows < 65535 ? rows : 65535);
  DISPATCH(dt, (k_softmax<T><<<grid, kThreads, 0, S(stream)>>>((const T *)x, (T *)y, rows, cols,
                                                                beta)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_pad(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, int32_t rank,
                 const int64_t *x_dims, const int64_t *before, const int64_t *y_dims, float value) {
  dims6 d = {};
  d.rank = rank;
  int64_t n = 1;
  for (int k = 0; k < rank; k++) {
    d.x[k] = x_dims[k], d.before[k] = before[k], d.y[k] = y_dims[k];
    n *= y_dims[k];
  }
  if (n <= 0) return 0;
  DISPATCH(dt, (k_pad<T><<<LAUNCH(n)>>>((const T *)x, (T *)y, d, value)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_resize_nhwc(void *stream, tfcc_gpu_dtype dt, const void *x, void *y,
                         const tfcc_gpu_resize *r) {
  const int64_t n = (int64_t)r->n * r->oh * r->ow * r->c;
  if (n <= 0) return 0;
  DISPATCH(dt, (k_resize<T><<<LAUNCH(n)>>>((const T *)x, (T *)y, *r)));
  return (int)cudaGetLastError();
}

int tfcc_gpu_transpose(void *stream, tfcc_gpu_dtype dt, const void *x, void *y, int32_t rank,
                       const int64_t *x_dims, const int32_t *perm) {
  dims6 d = {};
  d.rank = rank;
  int64_t n = 1;
  for (int k = 0; k < rank; k++) {
    d.x[k] = x_dims[k], d.perm[k] = perm[k];
    n *= x_dims[k];
  }
  if (n <= 0) return 0;
  DISPATCH(dt, (k_transpose<T><<<LAUNCH(n)>>>((const T *)x, (T *)y, d)));
  return (int)cudaGetLastError();
}

}  // extern "C"

/* Portable body of the XNNPACK-exact float32 kernels (tflite_f32.h), included by the per-ISA
 * files with TFCC_XF_ISA (name suffix) and XF_W (lanes) defined: GCC / Clang vectors of XF_W
 * floats; every product and sum is its own statement, so nothing is contracted into a fused
 * multiply-add even where the file is built with FMA enabled. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/tflite-f32/tflite_f32.h"

#define XF_CAT2(a, b) a##b
#define XF_CAT(a, b) XF_CAT2(a, b)

typedef float xv4 __attribute__((vector_size(XF_W * 4)));
typedef int32_t xi4 __attribute__((vector_size(XF_W * 4)));
typedef uint32_t xu4 __attribute__((vector_size(XF_W * 4)));

#if (XF_W == 16 && defined(__AVX512F__)) || (XF_W == 8 && defined(__AVX2__))
#include <immintrin.h>
#endif

/* The output clamp: lo < v ? v : lo, then v < hi ? v : hi (a NaN becomes lo), one x86 max and
 * one min where the build has them (those instructions are exactly these selects: the second
 * operand where the compare is false). */
static inline xv4 XF_CAT(xf_clamp_, TFCC_XF_ISA)(xv4 v, xv4 vlo, xv4 vhi) {
#if XF_W == 16 && defined(__AVX512F__)
  return (xv4)_mm512_min_ps(_mm512_max_ps((__m512)v, (__m512)vlo), (__m512)vhi);
#elif XF_W == 8 && defined(__AVX2__)
  return (xv4)_mm256_min_ps(_mm256_max_ps((__m256)v, (__m256)vlo), (__m256)vhi);
#else
  const xi4 gt = vlo < v;
  v = (xv4)(((xi4)v & gt) | ((xi4)vlo & ~gt));
  const xi4 lt = v < vhi;
  return (xv4)(((xi4)v & lt) | ((xi4)vhi & ~lt));
#endif
}
#define XF_CLAMP XF_CAT(xf_clamp_, TFCC_XF_ISA)

/* All lanes v: the scalar broadcast of "v - 0" (exact for every v, -0.0 included), which
 * compilers fold to a plain broadcast. */
static inline xv4 splat(float v) { return v - (xv4){0}; }

/* e^x for x <= 0 as XNNPACK's rr2-p5 (f32-raddstoreexpminusmax, and f32-vsigmoid's e^-|x|; wasm
 * SIMD, no FMA): 2^n from the magic-bias trick, ln2 in two parts, a degree-5 polynomial, 0
 * below the denormal cutoff (NaN stays NaN). */
static inline xv4 expminus_v(xv4 x) {
  const xv4 log2e = splat(0x1.715476p+0f), magic = splat(0x1.8000FEp23f);
  const xv4 minus_ln2_hi = splat(-0x1.62E400p-1f), minus_ln2_lo = splat(-0x1.7F7D1Cp-20f);
  const xv4 c5 = splat(0x1.0F9F9Cp-7f), c4 = splat(0x1.573A1Ap-5f), c3 = splat(0x1.555A80p-3f);
  const xv4 c2 = splat(0x1.FFFDC6p-2f), c1 = splat(0x1.FFFFF6p-1f);
  const xv4 cutoff = splat(-0x1.5D589Ep6f);
  const xv4 xl = x * log2e;
  xv4 n = magic + xl;
  const xv4 sc = (xv4)((xu4)n << 23);
  n = n - magic;
  const xv4 h = n * minus_ln2_hi;
  xv4 t = x + h;
  const xv4 l = n * minus_ln2_lo;
  t = t + l;
  xv4 p = c5 * t;
  p = c4 + p;
  xv4 q = p * t;
  p = c3 + q;
  q = p * t;
  p = c2 + q;
  q = p * t;
  p = c1 + q;
  t = t * sc;
  const xv4 tp = t * p;
  const xv4 f = sc + tp;
  return (xv4)((xi4)f & ~(x < cutoff));
}

/* e = e^-|x| (rr2-p5 above: its steps are those of f32-vsigmoid's with every sign flipped,
 * which rounding to nearest mirrors, so the same bits; checked on all 2^32 inputs), f = e /
 * (e + 1), 1 - f for x >= 0. */
static inline xv4 sigmoid_v(xv4 x) {
  const xv4 one = splat(1.0f);
  const xi4 xi = (xi4)x;
  /* e^-|x|, its sign bit cleared: a NaN stays the positive NaN of |x| (as before the exp was
   * shared); every other e is >= +0 already */
  const xv4 e = (xv4)((xi4)expminus_v((xv4)(xi | INT32_MIN)) & INT32_MAX);
  const xv4 d = e + one;
  const xv4 f = e / d;
  const xv4 cf = one - f;
  const xi4 neg = xi >> 31; /* all ones for a set sign bit */
  return (xv4)(((xi4)f & neg) | ((xi4)cf & ~neg));
}

void XF_CAT(tfcc_xnn_sigmoid_f32_, TFCC_XF_ISA)(const float *x, float *y, size_t n) {
  size_t i = 0;
  for (; i + XF_W <= n; i += XF_W) {
    xv4 v;
    memcpy(&v, x + i, sizeof v);
    v = sigmoid_v(v);
    memcpy(y + i, &v, sizeof v);
  }
  if (i < n) {
    xv4 v = splat(0.0f);
    memcpy(&v, x + i, (n - i) * sizeof(float));
    v = sigmoid_v(v);
    memcpy(y + i, &v, (n - i) * sizeof(float));
  }
}

/* e^x with the C library's bits (glibc's and musl's expf, one algorithm: ARM's
 * optimized-routines), XF_W lanes in double: z = x * 32 / ln2 in double, k = z rounded to nearest
 * (the 1.5 * 2^52 shift), r = z - k, s = 2^(k / 32) from the table (tfcc_expf_tab: 2^(j / 32)'s
 * bits for j = k mod 32, k / 32 added to the exponent), y = s * ((C0 r + C1) r^2 + (C2 r + 1)),
 * one rounding to float. Every product and sum is its own rounding (the libraries' non-FMA
 * build; the x86-64 glibc's FMA build gives the same bits on every float: docs/kernels.md).
 * Beyond the formula's range: x > 0x1.62e42ep6 -> inf, x < -0x1.9fe368p6 -> 0, NaN -> x + x. */
typedef double xd4 __attribute__((vector_size(XF_W * 8)));
typedef uint64_t xq4 __attribute__((vector_size(XF_W * 8)));

/* a macro: a function returning a double vector wider than the build's registers is an ABI
 * warning under clang */
#define splatd(v) ((double)(v) - (xd4){0})

/* t = tfcc_expf_tab[k & 31] for every lane: two-table permutes (AVX-512), gathers (AVX2), loads
 * (through pointers: a double vector wider than the build's registers is no return value) */
static inline __attribute__((always_inline)) void XF_CAT(xf_exptab_, TFCC_XF_ISA)(const xq4 *kp,
                                                                                  xq4 *tp) {
  const xq4 ki = *kp;
  xq4 t;
#if XF_W == 16 && defined(__AVX512F__)
  const __m512i t0 = _mm512_loadu_si512(tfcc_expf_tab), t1 = _mm512_loadu_si512(tfcc_expf_tab + 8);
  const __m512i t2 = _mm512_loadu_si512(tfcc_expf_tab + 16);
  const __m512i t3 = _mm512_loadu_si512(tfcc_expf_tab + 24);
  for (int h = 0; h < 2; h++) {
    __m512i k;
    memcpy(&k, (const char *)&ki + 64 * h, 64);
    /* index bits 0-3 pick among 16 entries; bit 4 picks the half of the table */
    const __m512i lo = _mm512_permutex2var_epi64(t0, k, t1);
    const __m512i hi = _mm512_permutex2var_epi64(t2, k, t3);
    const __m512i r =
        _mm512_mask_blend_epi64(_mm512_test_epi64_mask(k, _mm512_set1_epi64(16)), lo, hi);
    memcpy((char *)&t + 64 * h, &r, 64);
  }
#elif XF_W == 8 && defined(__AVX2__)
  for (int h = 0; h < 2; h++) {
    __m256i k;
    memcpy(&k, (const char *)&ki + 32 * h, 32);
    k = _mm256_and_si256(k, _mm256_set1_epi64x(31));
    const __m256i r = _mm256_i64gather_epi64((const long long *)tfcc_expf_tab, k, 8);
    memcpy((char *)&t + 32 * h, &r, 32);
  }
#else
  for (int j = 0; j < XF_W; j++) t[j] = tfcc_expf_tab[ki[j] & 31];
#endif
  *tp = t;
}

static inline __attribute__((always_inline)) xv4 expf_v(xv4 x) {
  const xd4 shift = splatd(0x1.8p52);
  const xd4 xd = __builtin_convertvector(x, xd4);
  const xd4 z = xd * splatd(0x1.71547652b82fep+5); /* 32 / ln 2 */
  const xd4 ks = z + shift;
  const xq4 ki = (xq4)ks;
  const xd4 kd = ks - shift;
  const xd4 r = z - kd;
  xq4 t;
  XF_CAT(xf_exptab_, TFCC_XF_ISA)(&ki, &t);
  t = t + (ki << 47);
  const xd4 s = (xd4)t;
  const xd4 c0r = r * splatd(0x1.c6af84b912394p-5 / 32768.0);
  const xd4 p = c0r + splatd(0x1.ebfce50fac4f3p-3 / 1024.0);
  const xd4 r2 = r * r;
  const xd4 c2r = r * splatd(0x1.62e42ff0c52d6p-1 / 32.0);
  const xd4 q = c2r + splatd(1.0);
  const xd4 pr2 = p * r2;
  const xd4 y = pr2 + q;
  const xd4 ys = y * s;
  const xv4 e = __builtin_convertvector(ys, xv4);
  const xi4 over = x > splat(0x1.62e42ep6f), under = x < splat(-0x1.9fe368p6f), nan = x != x;
  const xv4 xx = x + x;
  xi4 o = ((xi4)e & ~(over | under | nan)) | ((xi4)splat(__builtin_inff()) & over);
  return (xv4)(o | ((xi4)xx & nan));
}

/* Eigen's logistic as TensorFlow Lite's builtin kernels run it (tfcc_act_logistic_eigen's steps,
 * kernels/ref/activation.c): e = expf(x), 1 where e is inf, else e / (1 + e). */
static inline __attribute__((always_inline)) xv4 logistic_eigen_v(xv4 x) {
  const xv4 e = expf_v(x);
  const xv4 d = splat(1.0f) + e;
  const xv4 f = e / d;
  const xi4 inf = e == splat(__builtin_inff());
  return (xv4)(((xi4)splat(1.0f) & inf) | ((xi4)f & ~inf));
}

/* y = op(x) over n floats, XF_W at a time, the tail through a zero-filled vector. */
#define XF_UNARY(fn, op) \
  void XF_CAT(fn, TFCC_XF_ISA)(const float *x, float *y, size_t n) { \
    size_t i = 0; \
    for (; i + XF_W <= n; i += XF_W) { \
      xv4 v; \
      memcpy(&v, x + i, sizeof v); \
      v = op(v); \
      memcpy(y + i, &v, sizeof v); \
    } \
    if (i < n) { \
      xv4 v = splat(0.0f); \
      memcpy(&v, x + i, (n - i) * sizeof(float)); \
      v = op(v); \
      memcpy(y + i, &v, (n - i) * sizeof(float)); \
    } \
  }
XF_UNARY(tfcc_expf_f32_, expf_v)
XF_UNARY(tfcc_logistic_eigen_f32_, logistic_eigen_v)
#undef XF_UNARY

/* SOFTMAX (beta 1) over rows of depth values (tflite_f32.h): the row maximum, e^(x - max) XF_W
 * lanes at a time (rr2-p5 above), the row's sum in XNNPACK's wasm order (one 4-lane accumulator
 * over the exps in order, lanes (0 + 2) + (1 + 3), then a remaining pair, then a single), then
 * every exp times 1 / sum. */
typedef float xs4 __attribute__((vector_size(16)));

/* The row maximum of the scalar loop mx = x[0]; mx = x[i] > mx ? x[i] : mx (i = 1, 2, ...), bit
 * for bit, XF_W lanes at a time: a NaN first gives that NaN (every compare with it is false); a
 * later NaN is never taken; equal values have the same bits except +0 / -0, where the loop keeps
 * the first zero in the row, so a zero maximum is looked up again in order. (the
 * scalar loop was a third of the softmax's time.) */
static inline float XF_CAT(xf_row_max_, TFCC_XF_ISA)(const float *xr, size_t depth) {
  float mx = xr[0];
  if (mx != mx) return mx;
  size_t i = 0;
  if (depth >= XF_W) {
    xv4 m = splat(mx);
    for (; i + XF_W <= depth; i += XF_W) {
      xv4 v;
      memcpy(&v, xr + i, sizeof v);
      const xi4 gt = v > m;
      m = (xv4)(((xi4)v & gt) | ((xi4)m & ~gt));
    }
    for (int l = 0; l < XF_W; l++) mx = m[l] > mx ? m[l] : mx;
  }
  for (; i < depth; i++) mx = xr[i] > mx ? xr[i] : mx;
  if (mx == 0.0f) /* the first zero of the row (every value before it is below 0) */
    for (i = 0; i < depth; i++)
      if (xr[i] == 0.0f) return xr[i];
  return mx;
}

/* One row's exps (x - max, then rr2-p5) into yr. */
static inline void XF_CAT(xf_softmax_exps_, TFCC_XF_ISA)(const float *xr, float *yr, size_t depth) {
  const xv4 vmx = splat(XF_CAT(xf_row_max_, TFCC_XF_ISA)(xr, depth));
  size_t i = 0;
  for (; i + XF_W <= depth; i += XF_W) {
    xv4 v;
    memcpy(&v, xr + i, sizeof v);
    v = v - vmx;
    v = expminus_v(v);
    memcpy(yr + i, &v, sizeof v);
  }
  if (i < depth) {
    xv4 v = splat(0.0f);
    memcpy(&v, xr + i, (depth - i) * sizeof(float));
    v = v - vmx;
    v = expminus_v(v);
    memcpy(yr + i, &v, (depth - i) * sizeof(float));
  }
}

/* One row's sum from its 4-lane accumulator (the exps of the first depth / 4 * 4 summed lane by
 * lane), the tail in the order's way, then every exp times 1 / sum. */
static inline void XF_CAT(xf_softmax_finish_, TFCC_XF_ISA)(float *yr, size_t depth, xs4 lane,
                                                           tfcc_xnn_softmax_order order) {
  size_t i = depth / 4 * 4;
  const float h0 = lane[0] + lane[2], h1 = lane[1] + lane[3];
  float sum = h0 + h1;
  if (order == TFCC_XNN_SOFTMAX_SEQ) {
    for (; i < depth; i++) sum = sum + yr[i];
  } else {
    if ((depth - i) & 2) {
      const float pair = yr[i] + yr[i + 1];
      sum = sum + pair;
      i += 2;
    }
    if ((depth - i) & 1) sum = sum + yr[i];
  }
  const xv4 scale = splat(1.0f / sum);
  for (i = 0; i + XF_W <= depth; i += XF_W) {
    xv4 v;
    memcpy(&v, yr + i, sizeof v);
    v = v * scale;
    memcpy(yr + i, &v, sizeof v);
  }
  for (; i < depth; i++) yr[i] = yr[i] * scale[0];
}

/* Rows four at a time: their 4-lane sums side by side (four independent chains; each row's sum
 * in its own order, so the same bits as one row at a time). */
void XF_CAT(tfcc_xnn_softmax_f32_, TFCC_XF_ISA)(const float *x, float *y, size_t outer,
                                                size_t depth, tfcc_xnn_softmax_order order) {
  for (size_t r0 = 0; r0 < outer; r0 += 4) {
    const size_t nr = outer - r0 < 4 ? outer - r0 : 4;
    float *y0 = y + r0 * depth;
    for (size_t r = 0; r < nr; r++)
      XF_CAT(xf_softmax_exps_, TFCC_XF_ISA)(x + (r0 + r) * depth, y0 + r * depth, depth);
    xs4 lane[4] = {
        {0.f, 0.f, 0.f, 0.f}, {0.f, 0.f, 0.f, 0.f}, {0.f, 0.f, 0.f, 0.f}, {0.f, 0.f, 0.f, 0.f}};
    if (nr == 4) {
      for (size_t i = 0; i + 4 <= depth; i += 4) {
        xs4 e0, e1, e2, e3;
        memcpy(&e0, y0 + i, sizeof e0);
        memcpy(&e1, y0 + depth + i, sizeof e1);
        memcpy(&e2, y0 + 2 * depth + i, sizeof e2);
        memcpy(&e3, y0 + 3 * depth + i, sizeof e3);
        lane[0] = lane[0] + e0;
        lane[1] = lane[1] + e1;
        lane[2] = lane[2] + e2;
        lane[3] = lane[3] + e3;
      }
    } else {
      for (size_t r = 0; r < nr; r++)
        for (size_t i = 0; i + 4 <= depth; i += 4) {
          xs4 e;
          memcpy(&e, y0 + r * depth + i, sizeof e);
          lane[r] = lane[r] + e;
        }
    }
    for (size_t r = 0; r < nr; r++)
      XF_CAT(xf_softmax_finish_, TFCC_XF_ISA)(y0 + r * depth, depth, lane[r], order);
  }
}

/* XF_PX output pixels of a row at a time, each with its own accumulator (independent chains, so
 * that the adds overlap; every pixel's sum is formed in the IGEMM order, as one at a time), for
 * nb <= XF_NB blocks of XF_W output channels at once (the taps listed and each input value
 * broadcast once for them all). A short last group repeats its last pixel and stores only its
 * own. */
#define XF_PX 8
#ifndef XF_NB
#define XF_NB 1
#endif

/* The accumulators of nb blocks x XF_PX pixels start at the bias (0 without one). */
static inline __attribute__((always_inline)) void XF_CAT(xf_acc_init_,
                                                         TFCC_XF_ISA)(int nb, xv4 acc[XF_NB][XF_PX],
                                                                      const float *bias, int32_t oc,
                                                                      int32_t OC) {
  for (int b = 0; b < nb; b++) {
    const int32_t ob = oc + b * XF_W;
    xv4 b0 = splat(0.0f);        /* a local: the array's address is never taken (registers) */
    if (bias && ob + XF_W <= OC) /* a whole block: one load, not a lane at a time */
      memcpy(&b0, bias + ob, sizeof b0);
    else if (bias)
      memcpy(&b0, bias + ob, (size_t)(OC - ob) * sizeof(float));
    for (int p = 0; p < XF_PX; p++) acc[b][p] = b0;
  }
}

/* Clamped, the first np pixels' sums stored (OC apart). */
static inline __attribute__((always_inline)) void XF_CAT(xf_acc_store_, TFCC_XF_ISA)(
    int nb, xv4 acc[XF_NB][XF_PX], int32_t np, int32_t oc, int32_t OC, xv4 vlo, xv4 vhi, float *o) {
  for (int b = 0; b < nb; b++) {
    const int32_t ob = oc + b * XF_W;
    for (int p = 0; p < np; p++) {
      const xv4 v = XF_CLAMP(acc[b][p], vlo, vhi);
      float *op = o + (size_t)p * (size_t)OC + (size_t)ob;
      if (ob + XF_W <= OC)
        memcpy(op, &v, sizeof v);
      else
        for (int32_t j = 0; ob + j < OC; j++) op[j] = v[j];
    }
  }
}

static inline __attribute__((always_inline)) void XF_CAT(xf_pixels_, TFCC_XF_ISA)(
    int nb, const tfcc_conv_geom *g, const float *img, int32_t oy, int32_t ox0, int32_t np,
    const float *wp, int32_t ocp, int32_t oc, const float *bias, float lo, float hi, float *o) {
  const int32_t C = g->in_c, OC = g->out_c;
  xv4 acc[XF_NB][XF_PX];
  XF_CAT(xf_acc_init_, TFCC_XF_ISA)(nb, acc, bias, oc, OC);
  const float *w = wp + oc;
  const size_t xs = (size_t)g->stride_w * (size_t)C; /* one output pixel to the next */
  for (int32_t ky = 0; ky < g->filter_h; ky++) {
    const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
    const bool row_inside = iy >= 0 && iy < g->in_h;
    for (int32_t kx = 0; kx < g->filter_w; kx++) {
      const int32_t ix0 = ox0 * g->stride_w - g->pad_w + kx * g->dil_w;
      const int32_t ixl = ix0 + (np - 1) * g->stride_w;
      const float *x[XF_PX];
      if (row_inside && ix0 >= 0 && ixl < g->in_w) {
        const float *x0 = img + ((size_t)iy * (size_t)g->in_w + (size_t)ix0) * (size_t)C;
        for (int p = 0; p < XF_PX; p++) x[p] = x0 + (size_t)(p < np ? p : np - 1) * xs;
        for (int32_t c = 0; c < C; c++, w += ocp) {
          xv4 wv[XF_NB];
          for (int b = 0; b < nb; b++) memcpy(&wv[b], w + b * XF_W, sizeof wv[b]);
          for (int p = 0; p < XF_PX; p++) {
            const xv4 xv = splat(x[p][c]);
            for (int b = 0; b < nb; b++) {
              const xv4 prod = xv * wv[b];
              acc[b][p] = acc[b][p] + prod;
            }
          }
        }
        continue;
      }
      for (int p = 0; p < XF_PX; p++) {
        const int32_t ix = ix0 + (p < np ? p : np - 1) * g->stride_w;
        const bool inside = row_inside && ix >= 0 && ix < g->in_w;
        x[p] = inside ? img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * (size_t)C : NULL;
      }
      for (int32_t c = 0; c < C; c++, w += ocp) {
        xv4 wv[XF_NB];
        for (int b = 0; b < nb; b++) memcpy(&wv[b], w + b * XF_W, sizeof wv[b]);
        for (int p = 0; p < XF_PX; p++) {
          const xv4 xv = splat(x[p] ? x[p][c] : 0.0f);
          for (int b = 0; b < nb; b++) {
            const xv4 prod = xv * wv[b];
            acc[b][p] = acc[b][p] + prod;
          }
        }
      }
    }
  }
  XF_CAT(xf_acc_store_, TFCC_XF_ISA)(nb, acc, np, oc, OC, splat(lo), splat(hi), o);
}

/* A group of XF_PX (8) pixels whose taps are all inside the image: one loop over the
 * K = filter_h x filter_w x C taps in the IGEMM order, koff[k] the tap's input offset from the
 * pixel's first tap. The same products and sums in the same order as xf_pixels, without its
 * per-(ky, kx) pointer set-up, which took as long as the arithmetic where C is small
 * (MobileNetV2's first layer: 3 channels per tap); the nb (1 or 2) x 8 accumulators and the 8
 * input pointers are named (XF_P8), not arrays, so that they stay in registers. */
#if XF_PX != 8
#error "xf_flat names 8 pixels"
#endif
#define XF_P8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
static inline __attribute__((always_inline)) void XF_CAT(xf_flat_, TFCC_XF_ISA)(
    int nb, const float *x0, size_t xs, int32_t np, const int32_t *koff, int32_t K, const float *wp,
    int32_t ocp, int32_t oc, int32_t OC, const float *bias, xv4 vlo, xv4 vhi, float *o) {
  xv4 b0 = splat(0.0f), b1 = splat(0.0f);
  if (bias) {
    memcpy(&b0, bias + oc, sizeof b0);
    if (nb > 1) memcpy(&b1, bias + oc + XF_W, sizeof b1);
  }
#define XF_DECL(p) \
  xv4 a0_##p = b0, a1_##p = b1; \
  const float *xp##p = x0 + (size_t)(p < np ? p : np - 1) * xs;
  XF_P8(XF_DECL)
#undef XF_DECL
  const float *w = wp + oc;
  for (int32_t k = 0; k < K; k++, w += ocp) {
    const int32_t off = koff[k];
    xv4 w0, w1 = splat(0.0f);
    memcpy(&w0, w, sizeof w0);
    if (nb > 1) memcpy(&w1, w + XF_W, sizeof w1);
#define XF_STEP(p) \
  { \
    const xv4 xv = splat(xp##p[off]); \
    const xv4 p0 = xv * w0; \
    a0_##p = a0_##p + p0; \
    if (nb > 1) { \
      const xv4 p1 = xv * w1; \
      a1_##p = a1_##p + p1; \
    } \
  }
    XF_P8(XF_STEP)
#undef XF_STEP
  }
#define XF_STORE(p) \
  if (p < np) { \
    const xv4 v0 = XF_CLAMP(a0_##p, vlo, vhi); \
    memcpy(o + (size_t)p * (size_t)OC + (size_t)oc, &v0, sizeof v0); \
    if (nb > 1) { \
      const xv4 v1 = XF_CLAMP(a1_##p, vlo, vhi); \
      memcpy(o + (size_t)p * (size_t)OC + (size_t)oc + XF_W, &v1, sizeof v1); \
    } \
  }
  XF_P8(XF_STORE)
#undef XF_STORE
}

/* xf_flat for nb = XF_NB and nb = 1 as functions of their own: their few live values
 * (8 input pointers, the tap table, the weights) then fit the general registers, where inlined
 * into the row loop some went through vector registers and the stack. */
static __attribute__((noinline)) void XF_CAT(xf_flat_1_, TFCC_XF_ISA)(
    const float *x0, size_t xs, int32_t np, const int32_t *koff, int32_t K, const float *wp,
    int32_t ocp, int32_t oc, int32_t OC, const float *bias, float lo, float hi, float *o) {
  XF_CAT(xf_flat_, TFCC_XF_ISA)
  (1, x0, xs, np, koff, K, wp, ocp, oc, OC, bias, splat(lo), splat(hi), o);
}
#if XF_NB > 1
static __attribute__((noinline)) void XF_CAT(xf_flat_nb_, TFCC_XF_ISA)(
    const float *x0, size_t xs, int32_t np, const int32_t *koff, int32_t K, const float *wp,
    int32_t ocp, int32_t oc, int32_t OC, const float *bias, float lo, float hi, float *o) {
  XF_CAT(xf_flat_, TFCC_XF_ISA)
  (XF_NB, x0, xs, np, koff, K, wp, ocp, oc, OC, bias, splat(lo), splat(hi), o);
}
#endif

/* Taps listed for xf_flat up to this many (a stack table), else every group by xf_pixels. */
#define XF_KOFF_MAX 1024

/* One group of np <= 8 pixels of an output row, every output channel: interior (all taps
 * inside the image, koff listed): xf_flat for the whole blocks; the rest by xf_pixels. */
static inline __attribute__((always_inline)) void XF_CAT(xf_group_, TFCC_XF_ISA)(
    const tfcc_conv_geom *g, const float *img, int32_t oy, int32_t ox0, int32_t np, bool interior,
    const int32_t *koff, const float *wp, int32_t ocp, const float *bias, xv4 vlo, xv4 vhi,
    float *o) {
  const int32_t C = g->in_c, OC = g->out_c;
  const float lo = vlo[0], hi = vhi[0];
  int32_t oc = 0;
  if (interior) {
    const int32_t K = g->filter_h * g->filter_w * C;
    const size_t xs = (size_t)g->stride_w * (size_t)C; /* one output pixel to the next */
    const float *x0 = img + ((size_t)(oy * g->stride_h - g->pad_h) * (size_t)g->in_w +
                             (size_t)(ox0 * g->stride_w - g->pad_w)) *
                                (size_t)C;
#if XF_NB > 1
    for (; oc + XF_NB * XF_W <= OC; oc += XF_NB * XF_W)
      XF_CAT(xf_flat_nb_, TFCC_XF_ISA)(x0, xs, np, koff, K, wp, ocp, oc, OC, bias, lo, hi, o);
#endif
    for (; oc + XF_W <= OC; oc += XF_W)
      XF_CAT(xf_flat_1_, TFCC_XF_ISA)(x0, xs, np, koff, K, wp, ocp, oc, OC, bias, lo, hi, o);
  }
  /* whole groups of XF_NB blocks inside the packed width ocp, then one block at a time */
  for (; XF_NB > 1 && oc + XF_NB * XF_W <= ocp && oc + (XF_NB - 1) * XF_W < OC; oc += XF_NB * XF_W)
    XF_CAT(xf_pixels_, TFCC_XF_ISA)(XF_NB, g, img, oy, ox0, np, wp, ocp, oc, bias, lo, hi, o);
  for (; oc < OC; oc += XF_W)
    XF_CAT(xf_pixels_, TFCC_XF_ISA)(1, g, img, oy, ox0, np, wp, ocp, oc, bias, lo, hi, o);
}

void XF_CAT(tfcc_xnn_conv_f32_rows_, TFCC_XF_ISA)(const tfcc_conv_geom *g, const float *in,
                                                  const float *wp, int32_t ocp, const float *bias,
                                                  float lo, float hi, float *out, int32_t r0,
                                                  int32_t r1) {
  const int32_t C = g->in_c, OC = g->out_c;
  const int32_t K = g->filter_h * g->filter_w * C;
  const xv4 vlo = splat(lo), vhi = splat(hi);
  /* the taps' input offsets from a pixel's first tap (int32: checked to fit) */
  int32_t koff[XF_KOFF_MAX];
  const bool flat = K <= XF_KOFF_MAX && (int64_t)(g->filter_h - 1) * g->dil_h * g->in_w * C +
                                                (int64_t)g->filter_w * g->dil_w * C <
                                            INT32_MAX;
  if (flat)
    for (int32_t ky = 0, k = 0; ky < g->filter_h; ky++)
      for (int32_t kx = 0; kx < g->filter_w; kx++)
        for (int32_t c = 0; c < C; c++, k++)
          koff[k] = (ky * g->dil_h * g->in_w + kx * g->dil_w) * C + c;
  for (int32_t row = r0; row < r1; row++) {
    const int32_t b = row / g->out_h, oy = row % g->out_h;
    const float *img = in + (size_t)b * (size_t)g->in_h * (size_t)g->in_w * (size_t)C;
    const int32_t iy0 = oy * g->stride_h - g->pad_h;
    const bool rows_inside = flat && iy0 >= 0 && iy0 + (g->filter_h - 1) * g->dil_h < g->in_h;
    for (int32_t ox0 = 0; ox0 < g->out_w; ox0 += XF_PX) {
      const int32_t np = g->out_w - ox0 < XF_PX ? g->out_w - ox0 : XF_PX;
      const int32_t ix0 = ox0 * g->stride_w - g->pad_w;
      const bool interior = rows_inside && ix0 >= 0 &&
                            ix0 + (np - 1) * g->stride_w + (g->filter_w - 1) * g->dil_w < g->in_w;
      XF_CAT(xf_group_, TFCC_XF_ISA)
      (g, img, oy, ox0, np, interior, koff, wp, ocp, bias, vlo, vhi,
       out + ((size_t)row * (size_t)g->out_w + (size_t)ox0) * (size_t)OC);
    }
  }
}

/* CONV_2D of fewer than 8 output channels, XNNPACK's nr2 kernel (tflite_f32.h,
 * tfcc_xnn_conv_c4_f32_rows): the 8 columns of a pixel in the lanes of one 8-float vector,
 * the four partial sums (input channel modulo 4) four vectors, each lane's steps those of the
 * portable loop: products and sums rounded one at a time, in the same order. */
typedef float xv8 __attribute__((vector_size(8 * 4)));
typedef int32_t xi8 __attribute__((vector_size(8 * 4)));

void XF_CAT(tfcc_xnn_conv_c4_f32_rows_, TFCC_XF_ISA)(const tfcc_conv_geom *g, const float *in,
                                                     const float *wp, int32_t ocp,
                                                     const float *bias, float lo, float hi,
                                                     float *out, int32_t r0, int32_t r1) {
  const int32_t C = g->in_c, OC = g->out_c < TFCC_XNN_NR2_COLS ? g->out_c : TFCC_XNN_NR2_COLS;
  const xv8 zero = {0}, vlo = lo - zero, vhi = hi - zero;
  xv8 b0 = zero;
  for (int32_t o = 0; bias && o < OC; o++) b0[o] = bias[o];
  for (int32_t r = r0; r < r1; r++) {
    const int32_t b = r / g->out_h, oy = r % g->out_h;
    for (int32_t ox = 0; ox < g->out_w; ox++) {
      xv8 l0 = b0, l1 = zero, l2 = zero, l3 = zero;
      const float *w = wp;
      for (int32_t ky = 0; ky < g->filter_h; ky++)
        for (int32_t kx = 0; kx < g->filter_w; kx++) {
          const float *x = tfcc_xnn_tap(g, in, b, oy, ox, ky, kx);
          int32_t c = 0;
          for (; c + 4 <= C; c += 4) {
            xv8 w0, w1, w2, w3;
            memcpy(&w0, w, sizeof w0), w += ocp;
            memcpy(&w1, w, sizeof w1), w += ocp;
            memcpy(&w2, w, sizeof w2), w += ocp;
            memcpy(&w3, w, sizeof w3), w += ocp;
            const xv8 p0 = ((x ? x[c] : 0.0f) - zero) * w0;
            const xv8 p1 = ((x ? x[c + 1] : 0.0f) - zero) * w1;
            const xv8 p2 = ((x ? x[c + 2] : 0.0f) - zero) * w2;
            const xv8 p3 = ((x ? x[c + 3] : 0.0f) - zero) * w3;
            l0 = l0 + p0, l1 = l1 + p1, l2 = l2 + p2, l3 = l3 + p3;
          }
          for (; c < C; c++, w += ocp) { /* the channels past the last 4: lanes 0, 1, 2 */
            xv8 wv;
            memcpy(&wv, w, sizeof wv);
            const xv8 p = ((x ? x[c] : 0.0f) - zero) * wv;
            if ((c & 3) == 0)
              l0 = l0 + p;
            else if ((c & 3) == 1)
              l1 = l1 + p;
            else
              l2 = l2 + p;
          }
        }
      const xv8 s02 = l0 + l2, s13 = l1 + l3;
      xv8 v = s02 + s13;
      const xi8 gt = vlo < v; /* lo < v ? v : lo, then v < hi ? v : hi */
      v = (xv8)(((xi8)v & gt) | ((xi8)vlo & ~gt));
      const xi8 lt = v < vhi;
      v = (xv8)(((xi8)v & lt) | ((xi8)vhi & ~lt));
      float *y = out + ((size_t)r * (size_t)g->out_w + (size_t)ox) * (size_t)g->out_c;
      for (int32_t o = 0; o < OC; o++) y[o] = v[o];
    }
  }
}

/* DEPTHWISE_CONV_2D, depth multiplier 1 (tflite_f32.h, tfcc_xnn_dwconv_f32_rows): 4 output
 * pixels of a row at a time, one block of XF_W channels, each pixel its own accumulator (its sum
 * in XNNPACK's order: bias, then kx outer, ky inner; a padding tap adds 0 * w), the four held in
 * registers across the taps (named, not an array: an array indexed by the pixel count would be
 * kept in memory). A short last group repeats its last pixel and stores only its own; nc < XF_W:
 * the last channel block (partial loads and stores). */
static inline __attribute__((always_inline)) xv4 XF_CAT(xf_ld_, TFCC_XF_ISA)(const float *p,
                                                                             int32_t nc) {
  xv4 v = splat(0.0f);
  if (nc == XF_W)
    memcpy(&v, p, sizeof v);
  else
    memcpy(&v, p, (size_t)nc * sizeof(float));
  return v;
}

static inline __attribute__((always_inline)) void XF_CAT(xf_st_, TFCC_XF_ISA)(float *p, xv4 v,
                                                                              xv4 vlo, xv4 vhi,
                                                                              int32_t nc) {
  v = XF_CLAMP(v, vlo, vhi);
  if (nc == XF_W)
    memcpy(p, &v, sizeof v);
  else
    memcpy(p, &v, (size_t)nc * sizeof(float));
}
#define XF_LD XF_CAT(xf_ld_, TFCC_XF_ISA)
#define XF_ST XF_CAT(xf_st_, TFCC_XF_ISA)

static inline __attribute__((always_inline)) void XF_CAT(xf_dw_pixels_, TFCC_XF_ISA)(
    const tfcc_conv_geom *g, const float *img, int32_t oy, int32_t ox0, int32_t np,
    const float *filter, const float *bias, xv4 vlo, xv4 vhi, int32_t c0, int32_t nc, float *o) {
  const int32_t C = g->in_c;
  xv4 a0 = bias ? XF_LD(bias + c0, nc) : splat(0.0f);
  xv4 a1 = a0, a2 = a0, a3 = a0;
  const size_t xs = (size_t)g->stride_w * (size_t)C;
  const size_t d1 = (np > 1 ? 1 : 0) * xs, d2 = (size_t)(np > 2 ? 2 : np - 1) * xs,
               d3 = (size_t)(np > 3 ? 3 : np - 1) * xs;
  for (int32_t kx = 0; kx < g->filter_w; kx++) {
    const int32_t ix0 = ox0 * g->stride_w - g->pad_w + kx * g->dil_w;
    const bool cols_inside = ix0 >= 0 && ix0 + (np - 1) * g->stride_w < g->in_w;
    for (int32_t ky = 0; ky < g->filter_h; ky++) {
      const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
      const bool row_inside = iy >= 0 && iy < g->in_h;
      const xv4 w =
          XF_LD(filter + ((size_t)ky * (size_t)g->filter_w + (size_t)kx) * (size_t)C + c0, nc);
      if (row_inside && cols_inside) {
        const float *x0 = img + ((size_t)iy * (size_t)g->in_w + (size_t)ix0) * (size_t)C + c0;
        const xv4 p0 = XF_LD(x0, nc) * w, p1 = XF_LD(x0 + d1, nc) * w;
        const xv4 p2 = XF_LD(x0 + d2, nc) * w, p3 = XF_LD(x0 + d3, nc) * w;
        a0 = a0 + p0, a1 = a1 + p1, a2 = a2 + p2, a3 = a3 + p3;
        continue;
      }
      xv4 xv[4];
      for (int p = 0; p < 4; p++) {
        const int32_t ix = ix0 + (p < np ? p : np - 1) * g->stride_w;
        xv[p] = row_inside && ix >= 0 && ix < g->in_w
                    ? XF_LD(img + ((size_t)iy * (size_t)g->in_w + (size_t)ix) * (size_t)C + c0, nc)
                    : splat(0.0f); /* padding: 0 * w */
      }
      const xv4 p0 = xv[0] * w, p1 = xv[1] * w, p2 = xv[2] * w, p3 = xv[3] * w;
      a0 = a0 + p0, a1 = a1 + p1, a2 = a2 + p2, a3 = a3 + p3;
    }
  }
  XF_ST(o + c0, a0, vlo, vhi, nc);
  if (np > 1) XF_ST(o + (size_t)C + c0, a1, vlo, vhi, nc);
  if (np > 2) XF_ST(o + 2 * (size_t)C + c0, a2, vlo, vhi, nc);
  if (np > 3) XF_ST(o + 3 * (size_t)C + c0, a3, vlo, vhi, nc);
}

/* Interior groups (4 pixels whose taps are all inside the image's columns): the row's taps
 * listed once (tp: input offset of the tap from the group's first pixel, or -1 for a padding
 * row; tw: filter offset), nb (1 or 2) whole channel blocks at once (8 independent sums). */
static inline __attribute__((always_inline)) void XF_CAT(xf_dw_inner_, TFCC_XF_ISA)(
    int nb, const float *x0, size_t xs, int32_t ntaps, const ptrdiff_t *tp, const size_t *tw,
    const float *filter, const float *bias, xv4 vlo, xv4 vhi, int32_t c0, size_t C, float *o) {
  xv4 a[2][4];
  for (int b = 0; b < nb; b++) {
    a[b][0] = bias ? XF_LD(bias + c0 + b * XF_W, XF_W) : splat(0.0f);
    a[b][1] = a[b][0], a[b][2] = a[b][0], a[b][3] = a[b][0];
  }
  for (int32_t t = 0; t < ntaps; t++) {
    for (int b = 0; b < nb; b++) {
      const xv4 w = XF_LD(filter + tw[t] + c0 + b * XF_W, XF_W);
      xv4 p0, p1, p2, p3;
      if (tp[t] >= 0) {
        const float *x = x0 + tp[t] + c0 + b * XF_W;
        p0 = XF_LD(x, XF_W) * w, p1 = XF_LD(x + xs, XF_W) * w;
        p2 = XF_LD(x + 2 * xs, XF_W) * w, p3 = XF_LD(x + 3 * xs, XF_W) * w;
      } else { /* padding: 0 * w */
        p0 = splat(0.0f) * w, p1 = p0, p2 = p0, p3 = p0;
      }
      a[b][0] = a[b][0] + p0, a[b][1] = a[b][1] + p1;
      a[b][2] = a[b][2] + p2, a[b][3] = a[b][3] + p3;
    }
  }
  for (int b = 0; b < nb; b++)
    for (int p = 0; p < 4; p++) XF_ST(o + (size_t)p * C + c0 + b * XF_W, a[b][p], vlo, vhi, XF_W);
}

#define XF_DW_MAX_TAPS 64

/* 3 x 3 filters (MobileNet's): the run of n pixels of an output row whose taps are all inside
 * the image, one channel block of XF_W. The nine filter vectors stay in registers for the whole
 * run, and each pixel is one chain bias + x * w over the taps in XNNPACK's order (kx outer, ky
 * inner); the chains of successive pixels are independent, so they overlap. x0: the first
 * pixel's first tap at the block's first channel; xs: one pixel to the next; rs: one input row
 * to the next (dilation included); dc: one tap column to the next (dil_w x C). */
static inline __attribute__((always_inline)) void XF_CAT(xf_dw3_run_, TFCC_XF_ISA)(
    const float *x0, size_t xs, size_t rs, size_t dc, int32_t n, const float *wf, size_t C,
    xv4 bias, xv4 vlo, xv4 vhi, float *o) {
  const xv4 w00 = XF_LD(wf, XF_W), w01 = XF_LD(wf + C, XF_W), w02 = XF_LD(wf + 2 * C, XF_W);
  const xv4 w10 = XF_LD(wf + 3 * C, XF_W), w11 = XF_LD(wf + 4 * C, XF_W);
  const xv4 w12 = XF_LD(wf + 5 * C, XF_W), w20 = XF_LD(wf + 6 * C, XF_W);
  const xv4 w21 = XF_LD(wf + 7 * C, XF_W), w22 = XF_LD(wf + 8 * C, XF_W);
  for (int32_t i = 0; i < n; i++, x0 += xs, o += C) {
    const float *r0 = x0, *r1 = x0 + rs, *r2 = x0 + 2 * rs;
    xv4 a = bias, p;
    p = XF_LD(r0, XF_W) * w00, a = a + p;
    p = XF_LD(r1, XF_W) * w10, a = a + p;
    p = XF_LD(r2, XF_W) * w20, a = a + p;
    p = XF_LD(r0 + dc, XF_W) * w01, a = a + p;
    p = XF_LD(r1 + dc, XF_W) * w11, a = a + p;
    p = XF_LD(r2 + dc, XF_W) * w21, a = a + p;
    p = XF_LD(r0 + 2 * dc, XF_W) * w02, a = a + p;
    p = XF_LD(r1 + 2 * dc, XF_W) * w12, a = a + p;
    p = XF_LD(r2 + 2 * dc, XF_W) * w22, a = a + p;
    XF_ST(o, a, vlo, vhi, XF_W);
  }
}

/* One channel (in_c = out_c = 1: YOLO26's per-channel 3x3 CONV_2Ds, run as XNNPACK's dwconv):
 * XF_W output pixels of a row in the lanes, each lane's sum in the order above (bias, kx
 * outer, ky inner, a padding tap adding 0 * w); a tap's inputs one load where they are all
 * inside the row at stride 1, else gathered lane by lane (0 for padding). */
static void XF_CAT(xf_dw1_rows_, TFCC_XF_ISA)(const tfcc_conv_geom *g, const float *in,
                                              const float *filter, const float *bias, xv4 vlo,
                                              xv4 vhi, float *out, int32_t r0, int32_t r1) {
  const int32_t W = g->in_w, sw = g->stride_w;
  const xv4 b0 = splat(bias ? bias[0] : 0.0f);
  for (int32_t row = r0; row < r1; row++) {
    const int32_t b = row / g->out_h, oy = row % g->out_h;
    const float *img = in + (size_t)b * (size_t)g->in_h * (size_t)W;
    float *o = out + (size_t)row * (size_t)g->out_w;
    for (int32_t ox0 = 0; ox0 < g->out_w; ox0 += XF_W) {
      const int32_t np = g->out_w - ox0 < XF_W ? g->out_w - ox0 : XF_W;
      xv4 acc = b0;
      for (int32_t kx = 0; kx < g->filter_w; kx++) {
        const int32_t ix0 = ox0 * sw - g->pad_w + kx * g->dil_w;
        const bool cols_inside = sw == 1 && ix0 >= 0 && ix0 + XF_W <= W;
        for (int32_t ky = 0; ky < g->filter_h; ky++) {
          const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
          const xv4 w = splat(filter[(size_t)ky * (size_t)g->filter_w + (size_t)kx]);
          xv4 xv = splat(0.0f);
          if (iy >= 0 && iy < g->in_h) {
            const float *x = img + (size_t)iy * (size_t)W;
            if (cols_inside)
              memcpy(&xv, x + ix0, sizeof xv);
            else
              for (int l = 0; l < XF_W; l++) {
                const int32_t ix = ix0 + l * sw;
                if (ix >= 0 && ix < W) xv[l] = x[ix];
              }
          }
          const xv4 prod = xv * w;
          acc = acc + prod;
        }
      }
      const xv4 v = XF_CLAMP(acc, vlo, vhi);
      if (np == XF_W)
        memcpy(o + ox0, &v, sizeof v);
      else
        for (int32_t l = 0; l < np; l++) o[ox0 + l] = v[l];
    }
  }
}

void XF_CAT(tfcc_xnn_dwconv_f32_rows_, TFCC_XF_ISA)(const tfcc_conv_geom *g, const float *in,
                                                    const float *filter, const float *bias,
                                                    float lo, float hi, float *out, int32_t r0,
                                                    int32_t r1) {
  const int32_t C = g->in_c;
  const xv4 vlo = splat(lo), vhi = splat(hi);
  if (C == 1) {
    XF_CAT(xf_dw1_rows_, TFCC_XF_ISA)(g, in, filter, bias, vlo, vhi, out, r0, r1);
    return;
  }
  const int32_t ntaps = g->filter_h * g->filter_w;
  const bool listed = ntaps <= XF_DW_MAX_TAPS;
  const size_t xs = (size_t)g->stride_w * (size_t)C;
  ptrdiff_t tp[XF_DW_MAX_TAPS];
  size_t tw[XF_DW_MAX_TAPS];
  const bool f3 = g->filter_h == 3 && g->filter_w == 3;
  for (int32_t row = r0; row < r1; row++) {
    const int32_t b = row / g->out_h, oy = row % g->out_h;
    const float *img = in + (size_t)b * (size_t)g->in_h * (size_t)g->in_w * (size_t)C;
    const int32_t iy0 = oy * g->stride_h - g->pad_h;
    /* 3 x 3, taps inside the image's rows: the whole channel blocks of the pixels whose taps
     * are all inside by xf_dw3_run, [ox_lo, ox_hi]; the other pixels and a last partial block
     * by the groups below (each output's sum is its own, whichever code forms it) */
    int32_t ox_lo = 0, ox_hi = -1;
    const int32_t hi_num = g->in_w - 1 - 2 * g->dil_w + g->pad_w;
    if (f3 && C >= XF_W && iy0 >= 0 && iy0 + 2 * g->dil_h < g->in_h && hi_num >= 0) {
      ox_lo = (g->pad_w + g->stride_w - 1) / g->stride_w;
      ox_hi = hi_num / g->stride_w < g->out_w - 1 ? hi_num / g->stride_w : g->out_w - 1;
    }
    if (ox_hi >= ox_lo) {
      const float *x0 =
          img +
          ((size_t)iy0 * (size_t)g->in_w + (size_t)(ox_lo * g->stride_w - g->pad_w)) * (size_t)C;
      float *o = out + ((size_t)row * (size_t)g->out_w + (size_t)ox_lo) * (size_t)C;
      for (int32_t c0 = 0; c0 + XF_W <= C; c0 += XF_W) XF_CAT(xf_dw3_run_, TFCC_XF_ISA)
      (x0 + c0, xs, (size_t)g->dil_h * (size_t)g->in_w * (size_t)C, (size_t)g->dil_w * (size_t)C,
       ox_hi - ox_lo + 1, filter + c0, (size_t)C, bias ? XF_LD(bias + c0, XF_W) : splat(0.0f), vlo,
       vhi, o + c0);
    }
    if (listed) /* the row's taps in XNNPACK's order: kx outer, ky inner */
      for (int32_t kx = 0, t = 0; kx < g->filter_w; kx++)
        for (int32_t ky = 0; ky < g->filter_h; ky++, t++) {
          const int32_t iy = oy * g->stride_h - g->pad_h + ky * g->dil_h;
          tp[t] = iy >= 0 && iy < g->in_h
                      ? ((ptrdiff_t)iy * g->in_w + (ptrdiff_t)kx * g->dil_w) * (ptrdiff_t)C
                      : -1;
          tw[t] = ((size_t)ky * (size_t)g->filter_w + (size_t)kx) * (size_t)C;
        }
    for (int32_t ox0 = 0, np; ox0 < g->out_w; ox0 += np) {
      if (ox0 == ox_lo && ox_hi >= ox_lo) { /* the run: its partial last block only */
        const int32_t c0 = C / XF_W * XF_W;
        for (int32_t ox = ox0; c0 < C && ox <= ox_hi; ox += 4) XF_CAT(xf_dw_pixels_, TFCC_XF_ISA)
        (g, img, oy, ox, ox_hi + 1 - ox < 4 ? ox_hi + 1 - ox : 4, filter, bias, vlo, vhi, c0,
         C - c0, out + ((size_t)row * (size_t)g->out_w + (size_t)ox) * (size_t)C);
        np = ox_hi + 1 - ox0;
        continue;
      }
      np = g->out_w - ox0 < 4 ? g->out_w - ox0 : 4;
      if (ox0 < ox_lo && ox0 + np > ox_lo) np = ox_lo - ox0; /* up to the run */
      float *o = out + ((size_t)row * (size_t)g->out_w + (size_t)ox0) * (size_t)C;
      const int32_t ix0 = ox0 * g->stride_w - g->pad_w;
      int32_t c0 = 0;
      if (listed && np == 4 && ix0 >= 0 &&
          ix0 + 3 * g->stride_w + (g->filter_w - 1) * g->dil_w < g->in_w) {
        const float *x0 = img + (size_t)ix0 * (size_t)C;
        for (; c0 + 2 * XF_W <= C; c0 += 2 * XF_W) XF_CAT(xf_dw_inner_, TFCC_XF_ISA)
        (2, x0, xs, ntaps, tp, tw, filter, bias, vlo, vhi, c0, (size_t)C, o);
        for (; c0 + XF_W <= C; c0 += XF_W) XF_CAT(xf_dw_inner_, TFCC_XF_ISA)
        (1, x0, xs, ntaps, tp, tw, filter, bias, vlo, vhi, c0, (size_t)C, o);
      }
      for (; c0 + XF_W <= C; c0 += XF_W) /* whole blocks: nc a constant after inlining */
        XF_CAT(xf_dw_pixels_, TFCC_XF_ISA)
      (g, img, oy, ox0, np, filter, bias, vlo, vhi, c0, XF_W, o);
      if (c0 < C) XF_CAT(xf_dw_pixels_, TFCC_XF_ISA)
      (g, img, oy, ox0, np, filter, bias, vlo, vhi, c0, C - c0, o);
    }
  }
}

/* Self-checking test of src/cuda/gpu_kernels.cu: every function at every dtype against a double
 * CPU reference (inputs rounded to the storage type first). Prints one line per case; exit 0 all
 * pass, 1 any failure, 77 if no GPU. */
#include "cuda/gpu_kernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static int g_fail = 0, g_ok = 0;
static cudaStream_t g_s;
#define CK(e)                                                                                      \
  do {                                                                                             \
    cudaError_t err_ = (cudaError_t)(e);                                                           \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL cuda error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__);       \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static const char *dname[3] = {"f32", "f16", "bf16"};
static size_t dsize(int dt) { return dt == 0 ? 4 : 2; }
static float round_to(int dt, float v) {
  if (dt == 1) return __half2float(__float2half_rn(v));
  if (dt == 2) return __bfloat162float(__float2bfloat16_rn(v));
  return v;
}
static std::vector<float> rnd(int dt, size_t n, float lo = -2, float hi = 2) {
  std::vector<float> v(n);
  for (auto &x : v) x = round_to(dt, lo + (hi - lo) * (float)rand() / (float)RAND_MAX);
  return v;
}
static void *up(int dt, const std::vector<float> &v) {
  void *p;
  size_t n = v.size() ? v.size() : 1;
  CK(cudaMalloc(&p, n * dsize(dt)));
  std::vector<unsigned char> b(n * dsize(dt));
  for (size_t i = 0; i < v.size(); ++i) {
    if (dt == 0) memcpy(&b[i * 4], &v[i], 4);
    if (dt == 1) {
      __half h = __float2half_rn(v[i]);
      memcpy(&b[i * 2], &h, 2);
    }
    if (dt == 2) {
      __nv_bfloat16 h = __float2bfloat16_rn(v[i]);
      memcpy(&b[i * 2], &h, 2);
    }
  }
  CK(cudaMemcpy(p, b.data(), n * dsize(dt), cudaMemcpyHostToDevice));
  return p;
}
static float *upf(const std::vector<float> &v) {
  float *p;
  CK(cudaMalloc(&p, (v.size() ? v.size() : 1) * 4));
  CK(cudaMemcpy(p, v.data(), v.size() * 4, cudaMemcpyHostToDevice));
  return p;
}
static std::vector<float> down(int dt, const void *p, size_t n) {
  CK(cudaStreamSynchronize(g_s));
  std::vector<unsigned char> b(n * dsize(dt));
  CK(cudaMemcpy(b.data(), p, n * dsize(dt), cudaMemcpyDeviceToHost));
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    if (dt == 0) memcpy(&v[i], &b[i * 4], 4);
    if (dt == 1) {
      __half h;
      memcpy(&h, &b[i * 2], 2);
      v[i] = __half2float(h);
    }
    if (dt == 2) {
      __nv_bfloat16 h;
      memcpy(&h, &b[i * 2], 2);
      v[i] = __bfloat162float(h);
    }
  }
  return v;
}
/* Tolerance relative to the output's range: f32 1e-5 (+1e-6 abs), f16 4e-3, bf16 3e-2. */
static void check(const std::string &name, int dt, const std::vector<float> &got,
                  const std::vector<double> &ref, double extra = 1) {
  double range = 1e-30, err = 0;
  size_t at = 0;
  for (double r : ref) range = fmax(range, fabs(r));
  double tol = (dt == 0 ? 1e-5 : dt == 1 ? 4e-3 : 3e-2) * extra * fmax(range, 1.0) + 1e-6;
  bool bad = got.size() != ref.size();
  for (size_t i = 0; !bad && i < ref.size(); ++i) {
    double e = fabs((double)got[i] - ref[i]);
    if (!(e <= err)) {
      err = e;
      at = i;
    }
    if (std::isnan(got[i]) != std::isnan(ref[i])) bad = true;
  }
  if (bad || err > tol) {
    printf("FAIL %s %s max err %g at %zu (got %g want %g) tol %g\n", name.c_str(), dname[dt], err,
           at, at < got.size() ? got[at] : 0.0, at < ref.size() ? ref[at] : 0.0, tol);
    ++g_fail;
  } else {
    printf("ok %s %s (max err %g)\n", name.c_str(), dname[dt], err);
    ++g_ok;
  }
}

static double act_d(double x, int act, double p) {
  switch (act) {
  case 1: return fmax(x, 0);
  case 2: return fmin(fmax(x, -1), 1);
  case 3: return fmin(fmax(x, 0), 6);
  case 4: return tanh(x);
  case 16: return 1 / (1 + exp(-x));
  case 17: return x * fmin(fmax(x + 3, 0), 6) / 6;
  case 18: return fmin(fmax(x, 0), 1);
  case 19: return x >= 0 ? x : x * p;
  case 20: return x >= 0 ? x : expm1(x);
  case 21: return 0.5 * x * (1 + tanh(sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  case 22: return 0.5 * x * (1 + erf(x / sqrt(2.0)));
  default: return x;
  }
}
static const int kActs[] = {0, 1, 2, 3, 4, 16, 17, 18, 19, 20, 21, 22};

static void t_unary(int dt) {
  for (int act : kActs) {
    size_t n = 1000 + 3;
    auto x = rnd(dt, n, -5, 5);
    void *dx = up(dt, x), *dy = up(dt, std::vector<float>(n));
    CK(tfcc_gpu_unary(g_s, (tfcc_gpu_dtype)dt, dx, dy, n, act, 0.2f));
    std::vector<double> ref(n);
    for (size_t i = 0; i < n; ++i) ref[i] = act_d(x[i], act, 0.2);
    check("unary act" + std::to_string(act) + " [1003]", dt, down(dt, dy, n), ref);
    cudaFree(dx);
    cudaFree(dy);
  }
}

static void t_convert(int dt) {
  for (int dd = 0; dd < 3; ++dd) {
    size_t n = 777;
    auto x = rnd(dt, n, -100, 100);
    void *dx = up(dt, x), *dy = up(dd, std::vector<float>(n));
    CK(tfcc_gpu_convert(g_s, dx, (tfcc_gpu_dtype)dt, dy, (tfcc_gpu_dtype)dd, n));
    auto got = down(dd, dy, n);
    int bad = 0;
    for (size_t i = 0; i < n; ++i) bad += got[i] != round_to(dd, x[i]);
    if (bad) {
      printf("FAIL convert %s->%s %d mismatches\n", dname[dt], dname[dd], bad);
      ++g_fail;
    } else {
      printf("ok convert %s->%s [777]\n", dname[dt], dname[dd]);
      ++g_ok;
    }
    cudaFree(dx);
    cudaFree(dy);
  }
}

static void t_bias_act(int dt) {
  int shapes[][2] = {{7, 13}, {64, 32}, {1, 1}};
  for (auto &sh : shapes)
    for (int mode = 0; mode < 4; ++mode) {
      int64_t rows = sh[0];
      int ch = sh[1], act = mode == 3 ? 17 : mode;
      size_t n = rows * ch;
      auto x = rnd(dt, n), r = rnd(dt, n);
      std::vector<float> b(ch);
      for (auto &v : b) v = -1 + 2 * (float)rand() / RAND_MAX;
      bool hb = mode & 1, hr = mode >= 2;
      void *dx = up(dt, x), *dr = up(dt, r);
      float *db = upf(b);
      CK(tfcc_gpu_bias_act(g_s, (tfcc_gpu_dtype)dt, dx, hb ? db : NULL, hr ? dr : NULL, dx, rows,
                           ch, act));
      std::vector<double> ref(n);
      for (size_t i = 0; i < n; ++i)
        ref[i] = act_d((double)x[i] + (hb ? b[i % ch] : 0) + (hr ? r[i] : 0), act, 0);
      char nm[96];
      snprintf(nm, sizeof nm, "bias_act [%lld,%d] bias%d res%d act%d", (long long)rows, ch, hb, hr,
               act);
      check(nm, dt, down(dt, dx, n), ref);
      cudaFree(dx);
      cudaFree(dr);
      cudaFree(db);
    }
}

static tfcc_gpu_conv_geom geom(int n, int ih, int iw, int ic, int k, int s, int d, int dm, int pad) {
  tfcc_gpu_conv_geom g;
  g.n = n;
  g.ih = ih;
  g.iw = iw;
  g.ic = ic;
  g.kh = g.kw = k;
  g.sh = g.sw = s;
  g.dh = g.dw = d;
  g.pad_top = g.pad_left = pad;
  g.depth_multiplier = dm;
  g.oc = ic * dm;
  int ek = (k - 1) * d + 1;
  g.oh = (ih + 2 * pad - ek) / s + 1;
  g.ow = (iw + 2 * pad - ek) / s + 1;
  return g;
}
static const int kGeo[][8] = {
    /* n ih iw ic k s d dm(pad = k/2*d) */
    {1, 7, 9, 16, 3, 2, 1, 2}, {2, 8, 8, 3, 3, 1, 1, 1}, {1, 5, 6, 7, 3, 1, 2, 3},
    {1, 12, 11, 32, 5, 2, 1, 1}, {1, 1, 1, 5, 1, 1, 1, 1}};

static double xat(const std::vector<float> &x, const tfcc_gpu_conv_geom &g, int b, int iy, int ix,
                  int c, bool *in) {
  *in = iy >= 0 && iy < g.ih && ix >= 0 && ix < g.iw;
  return *in ? x[(((size_t)b * g.ih + iy) * g.iw + ix) * g.ic + c] : 0.0;
}

static void t_conv_family(int dt) {
  for (auto &q : kGeo) {
    tfcc_gpu_conv_geom g = geom(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[4] / 2 * q[6]);
    char tag[96];
    snprintf(tag, sizeof tag, "[%d,%d,%d,%d] k%d s%d d%d dm%d", g.n, g.ih, g.iw, g.ic, g.kh, g.sh,
             g.dh, g.depth_multiplier);
    size_t nx = (size_t)g.n * g.ih * g.iw * g.ic;
    auto x = rnd(dt, nx);
    void *dx = up(dt, x);
    /* depthwise */
    {
      auto f = rnd(dt, (size_t)g.kh * g.kw * g.oc);
      std::vector<float> b(g.oc);
      for (auto &v : b) v = round_to(0, -1 + 2 * (float)rand() / RAND_MAX);
      size_t ny = (size_t)g.n * g.oh * g.ow * g.oc;
      void *df = up(dt, f), *dy = up(dt, std::vector<float>(ny));
      float *db = upf(b);
      CK(tfcc_gpu_depthwise(g_s, (tfcc_gpu_dtype)dt, dx, df, db, dy, &g, 3));
      std::vector<double> ref(ny);
      size_t i = 0;
      for (int bb = 0; bb < g.n; ++bb)
        for (int oy = 0; oy < g.oh; ++oy)
          for (int ox = 0; ox < g.ow; ++ox)
            for (int c = 0; c < g.oc; ++c) {
              double acc = b[c];
              for (int ky = 0; ky < g.kh; ++ky)
                for (int kx = 0; kx < g.kw; ++kx) {
                  bool in;
                  double v = xat(x, g, bb, oy * g.sh - g.pad_top + ky * g.dh,
                                 ox * g.sw - g.pad_left + kx * g.dw, c / g.depth_multiplier, &in);
                  acc += v * f[((size_t)ky * g.kw + kx) * g.oc + c];
                }
              ref[i++] = act_d(acc, 3, 0);
            }
      check(std::string("depthwise ") + tag + " relu6", dt, down(dt, dy, ny), ref, 4);
      cudaFree(df);
      cudaFree(dy);
      cudaFree(db);
    }
    {
      /* im2col (any depth_multiplier: im2col ignores oc) */
      int64_t k = (int64_t)g.kh * g.kw * g.ic;
      size_t ny = (size_t)g.n * g.oh * g.ow * k;
      void *dy = up(dt, std::vector<float>(ny));
      CK(tfcc_gpu_im2col(g_s, (tfcc_gpu_dtype)dt, dx, dy, &g));
      std::vector<double> ref(ny);
      size_t i = 0;
      for (int bb = 0; bb < g.n; ++bb)
        for (int oy = 0; oy < g.oh; ++oy)
          for (int ox = 0; ox < g.ow; ++ox)
            for (int ky = 0; ky < g.kh; ++ky)
              for (int kx = 0; kx < g.kw; ++kx)
                for (int c = 0; c < g.ic; ++c) {
                  bool in;
                  ref[i++] = xat(x, g, bb, oy * g.sh - g.pad_top + ky * g.dh,
                                 ox * g.sw - g.pad_left + kx * g.dw, c, &in);
                }
      check(std::string("im2col ") + tag, dt, down(dt, dy, ny), ref, 0);
      cudaFree(dy);
      /* pools (dilation 1) */
      tfcc_gpu_conv_geom p = geom(g.n, g.ih, g.iw, g.ic, g.kh, g.sh, 1, 1, g.kh / 2);
      for (int is_max = 0; is_max < 2; ++is_max) {
        size_t np = (size_t)p.n * p.oh * p.ow * p.ic;
        void *dp = up(dt, std::vector<float>(np));
        CK(tfcc_gpu_pool(g_s, (tfcc_gpu_dtype)dt, dx, dp, &p, is_max, 0));
        std::vector<double> r2(np);
        size_t j = 0;
        for (int bb = 0; bb < p.n; ++bb)
          for (int oy = 0; oy < p.oh; ++oy)
            for (int ox = 0; ox < p.ow; ++ox)
              for (int c = 0; c < p.ic; ++c) {
                double acc = is_max ? -INFINITY : 0;
                int cnt = 0;
                for (int ky = 0; ky < p.kh; ++ky)
                  for (int kx = 0; kx < p.kw; ++kx) {
                    bool in;
                    double v = xat(x, p, bb, oy * p.sh - p.pad_top + ky,
                                   ox * p.sw - p.pad_left + kx, c, &in);
                    if (!in) continue;
                    acc = is_max ? fmax(acc, v) : acc + v;
                    ++cnt;
                  }
                r2[j++] = is_max ? acc : acc / cnt;
              }
        check(std::string(is_max ? "maxpool " : "avgpool ") + tag, dt, down(dt, dp, np), r2);
        cudaFree(dp);
      }
    }
    cudaFree(dx);
  }
}

static void t_reduce(int dt) {
  int64_t sh[][3] = {{1, 49, 1280}, {3, 17, 5}, {2, 1000, 1}, {1, 1, 1}};
  for (auto &s : sh)
    for (int op = 0; op < 3; ++op) {
      size_t n = s[0] * s[1] * s[2], ny = s[0] * s[2];
      auto x = rnd(dt, n);
      void *dx = up(dt, x), *dy = up(dt, std::vector<float>(ny));
      CK(tfcc_gpu_reduce(g_s, (tfcc_gpu_dtype)dt, dx, dy, s[0], s[1], s[2], op));
      std::vector<double> ref(ny);
      for (int64_t o = 0; o < s[0]; ++o)
        for (int64_t i = 0; i < s[2]; ++i) {
          double acc = op == 2 ? -INFINITY : 0;
          for (int64_t r = 0; r < s[1]; ++r) {
            double v = x[(o * s[1] + r) * s[2] + i];
            acc = op == 2 ? fmax(acc, v) : acc + v;
          }
          ref[o * s[2] + i] = op == 0 ? acc / s[1] : acc;
        }
      char nm[64];
      snprintf(nm, sizeof nm, "reduce op%d [%lld,%lld,%lld]", op, (long long)s[0],
               (long long)s[1], (long long)s[2]);
      check(nm, dt, down(dt, dy, ny), ref, op == 1 ? 4 : 1);
      cudaFree(dx);
      cudaFree(dy);
    }
}

static double binop_d(double a, double b, int op) {
  switch (op) {
  case 0: return a + b;
  case 1: return a - b;
  case 2: return a * b;
  case 3: return a / b;
  case 4: return fmax(a, b);
  case 5: return fmin(a, b);
  case 6: return (a - b) * (a - b);
  default: return pow(a, b);
  }
}

static void t_binary(int dt) {
  /* (output dims, a dims, b dims) with 1 = broadcast, ranks 1..6 */
  struct C {
    int rank;
    int64_t y[6], a[6], b[6];
  } cs[] = {{1, {37}, {37}, {1}},
            {2, {5, 7}, {5, 1}, {1, 7}},
            {3, {2, 3, 4}, {2, 3, 4}, {2, 3, 4}},
            {4, {1, 7, 9, 16}, {1, 7, 9, 16}, {1, 1, 1, 16}},
            {5, {2, 1, 3, 4, 5}, {2, 1, 1, 4, 1}, {1, 1, 3, 1, 5}},
            {6, {2, 3, 1, 2, 3, 2}, {2, 1, 1, 2, 1, 2}, {1, 3, 1, 1, 3, 1}}};
  for (auto &c : cs)
    for (int op = 0; op < 8; ++op) {
      tfcc_gpu_broadcast bc;
      bc.rank = c.rank;
      int64_t sa = 1, sb = 1, n = 1;
      for (int d = c.rank - 1; d >= 0; --d) {
        bc.dims[d] = c.y[d];
        bc.a_strides[d] = c.a[d] == 1 ? 0 : sa;
        bc.b_strides[d] = c.b[d] == 1 ? 0 : sb;
        sa *= c.a[d];
        sb *= c.b[d];
        n *= c.y[d];
      }
      bool pw = op == 7, dv = op == 3;
      auto a = rnd(dt, sa, pw ? 0.5f : -2, 2), b = rnd(dt, sb, pw ? -2 : dv ? 0.5f : -2, 2);
      void *da = up(dt, a), *db = up(dt, b), *dy = up(dt, std::vector<float>(n));
      int act = op == 0 ? 1 : 0;
      CK(tfcc_gpu_binary(g_s, (tfcc_gpu_dtype)dt, op, da, db, dy, &bc, act));
      std::vector<double> ref(n);
      for (int64_t i = 0; i < n; ++i) {
        int64_t rem = i, ao = 0, bo = 0;
        for (int d = c.rank - 1; d >= 0; --d) {
          int64_t q = rem % c.y[d];
          rem /= c.y[d];
          ao += q * bc.a_strides[d];
          bo += q * bc.b_strides[d];
        }
        ref[i] = act_d(binop_d(a[ao], b[bo], op), act, 0);
      }
      check("binary op" + std::to_string(op) + " rank" + std::to_string(c.rank), dt,
            down(dt, dy, n), ref);
      cudaFree(da);
      cudaFree(db);
      cudaFree(dy);
    }
}

static void t_softmax(int dt) {
  int sh[][2] = {{1, 1000}, {7, 13}, {3, 1}, {2, 4097}};
  for (auto &s : sh)
    for (float beta : {1.0f, 0.5f}) {
      size_t n = (size_t)s[0] * s[1];
      auto x = rnd(dt, n, -8, 8);
      void *dx = up(dt, x), *dy = up(dt, std::vector<float>(n));
      CK(tfcc_gpu_softmax(g_s, (tfcc_gpu_dtype)dt, dx, dy, s[0], s[1], beta));
      std::vector<double> ref(n);
      for (int r = 0; r < s[0]; ++r) {
        double m = -INFINITY, sum = 0;
        for (int c = 0; c < s[1]; ++c) m = fmax(m, x[r * s[1] + c]);
        for (int c = 0; c < s[1]; ++c) sum += exp(beta * (x[r * s[1] + c] - m));
        for (int c = 0; c < s[1]; ++c) ref[r * s[1] + c] = exp(beta * (x[r * s[1] + c] - m)) / sum;
      }
      char nm[64];
      snprintf(nm, sizeof nm, "softmax [%d,%d] beta%g", s[0], s[1], beta);
      check(nm, dt, down(dt, dy, n), ref);
      cudaFree(dx);
      cudaFree(dy);
    }
}

static void t_pad_transpose(int dt) {
  int64_t xd[] = {2, 3, 1, 4, 5, 2};
  int64_t bf[] = {0, 1, 2, 0, 1, 0}, af[] = {1, 0, 1, 2, 0, 0};
  for (int rank = 1; rank <= 6; ++rank) {
    int64_t yd[6], nx = 1, ny = 1;
    for (int d = 0; d < rank; ++d) {
      yd[d] = bf[d] + xd[d] + af[d];
      nx *= xd[d];
      ny *= yd[d];
    }
    auto x = rnd(dt, nx);
    void *dx = up(dt, x), *dy = up(dt, std::vector<float>(ny));
    CK(tfcc_gpu_pad(g_s, (tfcc_gpu_dtype)dt, dx, dy, rank, xd, bf, yd, 0.75f));
    std::vector<double> ref(ny);
    for (int64_t i = 0; i < ny; ++i) {
      int64_t rem = i, xo = 0, xs = 1;
      bool in = true;
      for (int d = rank - 1; d >= 0; --d) {
        int64_t q = rem % yd[d] - bf[d];
        rem /= yd[d];
        in = in && q >= 0 && q < xd[d];
        xo += q * xs;
        xs *= xd[d];
      }
      ref[i] = in ? x[xo] : round_to(dt, 0.75f);
    }
    check("pad rank" + std::to_string(rank), dt, down(dt, dy, ny), ref, 0);
    /* transpose: reverse permutation, and a rotation */
    for (int kind = 0; kind < 2; ++kind) {
      int32_t perm[6];
      for (int d = 0; d < rank; ++d) perm[d] = kind ? (d + 1) % rank : rank - 1 - d;
      void *dt2 = up(dt, std::vector<float>(nx));
      CK(tfcc_gpu_transpose(g_s, (tfcc_gpu_dtype)dt, dx, dt2, rank, xd, perm));
      int64_t xs[6], s = 1;
      for (int d = rank - 1; d >= 0; --d) {
        xs[d] = s;
        s *= xd[d];
      }
      std::vector<double> r2(nx);
      for (int64_t i = 0; i < nx; ++i) {
        int64_t rem = i, xo = 0;
        for (int d = rank - 1; d >= 0; --d) {
          int64_t yd2 = xd[perm[d]];
          xo += (rem % yd2) * xs[perm[d]];
          rem /= yd2;
        }
        r2[i] = x[xo];
      }
      check("transpose rank" + std::to_string(rank) + (kind ? " rot" : " rev"), dt,
            down(dt, dt2, nx), r2, 0);
      cudaFree(dt2);
    }
    cudaFree(dx);
    cudaFree(dy);
  }
}

static void t_resize(int dt) {
  int sz[][4] = {{4, 5, 8, 7}, {5, 5, 3, 2}, {1, 1, 3, 3}};
  for (auto &s : sz)
    for (int mode = 0; mode < 6; ++mode) {
      tfcc_gpu_resize r;
      r.n = 2;
      r.c = 3;
      r.ih = s[0];
      r.iw = s[1];
      r.oh = s[2];
      r.ow = s[3];
      r.nearest = mode >= 3;
      r.align_corners = mode % 3 == 1;
      r.half_pixel_centers = mode % 3 == 2;
      size_t nx = (size_t)r.n * r.ih * r.iw * r.c, ny = (size_t)r.n * r.oh * r.ow * r.c;
      auto x = rnd(dt, nx);
      void *dx = up(dt, x), *dy = up(dt, std::vector<float>(ny));
      CK(tfcc_gpu_resize_nhwc(g_s, (tfcc_gpu_dtype)dt, dx, dy, &r));
      auto scale = [&](int in, int out) {
        return (r.align_corners && out > 1) ? (double)(in - 1) / (out - 1) : (double)in / out;
      };
      double sy = scale(r.ih, r.oh), sx = scale(r.iw, r.ow);
      std::vector<double> ref(ny);
      size_t i = 0;
      for (int b = 0; b < r.n; ++b)
        for (int oy = 0; oy < r.oh; ++oy)
          for (int ox = 0; ox < r.ow; ++ox)
            for (int c = 0; c < r.c; ++c) {
              auto X = [&](int y, int xx) {
                return (double)x[(((size_t)b * r.ih + y) * r.iw + xx) * r.c + c];
              };
              if (r.nearest) {
                double off = r.half_pixel_centers ? 0.5 : 0;
                int iy = r.align_corners ? (int)round((oy + off) * sy) : (int)floor((oy + off) * sy);
                int ix = r.align_corners ? (int)round((ox + off) * sx) : (int)floor((ox + off) * sx);
                iy = iy < r.ih - 1 ? iy : r.ih - 1;
                ix = ix < r.iw - 1 ? ix : r.iw - 1;
                if (r.half_pixel_centers) {
                  iy = iy > 0 ? iy : 0;
                  ix = ix > 0 ? ix : 0;
                }
                ref[i++] = X(iy, ix);
              } else {
                double fy = r.half_pixel_centers ? (oy + 0.5) * sy - 0.5 : oy * sy;
                double fx = r.half_pixel_centers ? (ox + 0.5) * sx - 0.5 : ox * sx;
                int y0 = (int)fmax(floor(fy), 0), x0 = (int)fmax(floor(fx), 0);
                int y1 = (int)fmin(ceil(fy), r.ih - 1), x1 = (int)fmin(ceil(fx), r.iw - 1);
                double dy = fy - y0, dx = fx - x0;
                ref[i++] = X(y0, x0) * (1 - dy) * (1 - dx) + X(y0, x1) * (1 - dy) * dx +
                           X(y1, x0) * dy * (1 - dx) + X(y1, x1) * dy * dx;
              }
            }
      char nm[96];
      snprintf(nm, sizeof nm, "resize %s %dx%d->%dx%d ac%d hp%d", r.nearest ? "nearest" : "bilinear",
               r.ih, r.iw, r.oh, r.ow, r.align_corners, r.half_pixel_centers);
      check(nm, dt, down(dt, dy, ny), ref, r.nearest ? 0 : 1);
      cudaFree(dx);
      cudaFree(dy);
    }
}

int main(void) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    printf("skip: no CUDA device (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "count 0");
    return 77;
  }
  CK(cudaStreamCreate(&g_s));
  srand(12345);
  for (int dt = 0; dt < 3; ++dt) {
    t_convert(dt);
    t_unary(dt);
    t_bias_act(dt);
    t_conv_family(dt);
    t_reduce(dt);
    t_binary(dt);
    t_softmax(dt);
    t_pad_transpose(dt);
    t_resize(dt);
  }
  CK(cudaStreamSynchronize(g_s));
  printf("summary: %d ok, %d failed\n", g_ok, g_fail);
  return g_fail ? 1 : 0;
}

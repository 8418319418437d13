/* Complex FFT (radix-2 and Bluestein) and the 2-D real transform; contract in fft.h. */
#include "kernels/fft/fft.h"

#include <math.h>
#include <string.h>

static const double k_pi = 3.14159265358979323846;

static int is_pow2(int32_t n) { return n > 0 && (n & (n - 1)) == 0; }

static int32_t next_pow2(int32_t n) {
  int32_t m = 1;
  while (m < n) m *= 2;
  return m;
}

/* Bluestein length for n (0 for powers of two). */
static int32_t blue_len(int32_t n) { return is_pow2(n) ? 0 : next_pow2(2 * n - 1); }

/* twiddles: n/2 pairs w[k] = exp(-2 pi i k / n) */
static void twiddles(int32_t n, double *w) {
  for (int32_t k = 0; k < n / 2; k++) {
    const double a = -2.0 * k_pi * (double)k / (double)n;
    w[2 * k] = cos(a);
    w[2 * k + 1] = sin(a);
  }
}

/* Radix-2 in place, n a power of two, tw from twiddles(n * ts): w_n^k is tw[2 k ts]. */
static void fft_pow2_strided(int32_t n, double *x, const double *tw, int32_t ts) {
  for (int32_t i = 1, j = 0; i < n; i++) { /* bit reversal */
    int32_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      double t = x[2 * i];
      x[2 * i] = x[2 * j];
      x[2 * j] = t;
      t = x[2 * i + 1];
      x[2 * i + 1] = x[2 * j + 1];
      x[2 * j + 1] = t;
    }
  }
  for (int32_t len = 2; len <= n; len *= 2) {
    const int32_t half = len / 2, step = n / len * ts;
    for (int32_t s = 0; s < n; s += len)
      for (int32_t k = 0; k < half; k++) {
        const double wr = tw[2 * k * step], wi = tw[2 * k * step + 1];
        double *a = x + 2 * (s + k), *b = x + 2 * (s + k + half);
        const double br = b[0] * wr - b[1] * wi, bi = b[0] * wi + b[1] * wr;
        b[0] = a[0] - br;
        b[1] = a[1] - bi;
        a[0] += br;
        a[1] += bi;
      }
  }
}

static void fft_pow2(int32_t n, double *x, const double *tw) { fft_pow2_strided(n, x, tw, 1); }

/* Work layout. pow2: twiddles (n). Bluestein (m): twiddles (m), chirp (2n), filter (2m),
 * buffer (2m). */
size_t tfcc_fft_work_doubles(int32_t n) {
  const int32_t m = blue_len(n);
  if (!m) return (size_t)(n > 1 ? n : 1);
  return (size_t)m + 2 * (size_t)n + 4 * (size_t)m;
}

void tfcc_fft_init(int32_t n, double *work) {
  const int32_t m = blue_len(n);
  if (!m) {
    twiddles(n, work);
    return;
  }
  double *tw = work, *chirp = work + m, *filt = chirp + 2 * n;
  twiddles(m, tw);
  for (int32_t k = 0; k < n; k++) { /* chirp[k] = exp(-pi i k^2 / n), k^2 mod 2n */
    const int64_t q = ((int64_t)k * k) % (2 * (int64_t)n);
    const double a = -k_pi * (double)q / (double)n;
    chirp[2 * k] = cos(a);
    chirp[2 * k + 1] = sin(a);
  }
  memset(filt, 0, sizeof(double) * 2 * (size_t)m);
  for (int32_t k = 0; k < n; k++) { /* conj(chirp) at k and m - k */
    filt[2 * k] = chirp[2 * k];
    filt[2 * k + 1] = -chirp[2 * k + 1];
    if (k) {
      filt[2 * (m - k)] = chirp[2 * k];
      filt[2 * (m - k) + 1] = -chirp[2 * k + 1];
    }
  }
  fft_pow2(m, filt, tw);
}

void tfcc_fft_forward(int32_t n, double *data, double *work) {
  const int32_t m = blue_len(n);
  if (!m) {
    if (n > 1) fft_pow2(n, data, work);
    return;
  }
  const double *tw = work, *chirp = work + m, *filt = chirp + 2 * n;
  double *buf = work + m + 2 * (size_t)n + 2 * (size_t)m;
  memset(buf, 0, sizeof(double) * 2 * (size_t)m);
  for (int32_t k = 0; k < n; k++) { /* a = x * chirp */
    const double xr = data[2 * k], xi = data[2 * k + 1], cr = chirp[2 * k], ci = chirp[2 * k + 1];
    buf[2 * k] = xr * cr - xi * ci;
    buf[2 * k + 1] = xr * ci + xi * cr;
  }
  fft_pow2(m, buf, tw);
  for (int32_t k = 0; k < m; k++) { /* A * B, conjugated for the inverse transform */
    const double ar = buf[2 * k], ai = buf[2 * k + 1], br = filt[2 * k], bi = filt[2 * k + 1];
    buf[2 * k] = ar * br - ai * bi;
    buf[2 * k + 1] = -(ar * bi + ai * br);
  }
  fft_pow2(m, buf, tw); /* conj(ifft(C)) * m */
  const double inv = 1.0 / (double)m;
  for (int32_t k = 0; k < n; k++) { /* X = chirp * ifft(C) */
    const double cr = buf[2 * k] * inv, ci = -buf[2 * k + 1] * inv;
    const double wr = chirp[2 * k], wi = chirp[2 * k + 1];
    data[2 * k] = cr * wr - ci * wi;
    data[2 * k + 1] = cr * wi + ci * wr;
  }
}

/* rfft2d work: row work, column work, row buffer (2 fft_w), column buffer (2 fft_h),
 * intermediate [fft_h][fft_w/2+1] complex. */
size_t tfcc_rfft2d_work_doubles(int32_t fft_h, int32_t fft_w) {
  const size_t wc = (size_t)fft_w / 2 + 1;
  return tfcc_fft_work_doubles(fft_w) + tfcc_fft_work_doubles(fft_h) + 2 * (size_t)fft_w +
         2 * (size_t)fft_h + 2 * (size_t)fft_h * wc;
}

void tfcc_rfft2d_init(int32_t fft_h, int32_t fft_w, double *work) {
  tfcc_fft_init(fft_w, work);
  tfcc_fft_init(fft_h, work + tfcc_fft_work_doubles(fft_w));
}

/* The 2-D work area cut into its parts, and the slice's rows and columns that hold data. */
typedef struct {
  double *row_work, *col_work, *row, *col, *mid;
  int32_t h, w, wc; /* rows and columns read from the input; kept columns fft_w / 2 + 1 */
} rfft2d_layout;

static rfft2d_layout rfft2d_cut(int32_t h_in, int32_t w_in, int32_t fft_h, int32_t fft_w,
                                double *work) {
  rfft2d_layout l;
  l.row_work = work;
  l.col_work = work + tfcc_fft_work_doubles(fft_w);
  l.row = l.col_work + tfcc_fft_work_doubles(fft_h);
  l.col = l.row + 2 * (size_t)fft_w;
  l.mid = l.col + 2 * (size_t)fft_h;
  l.h = h_in < fft_h ? h_in : fft_h;
  l.w = w_in < fft_w ? w_in : fft_w;
  l.wc = fft_w / 2 + 1;
  return l;
}

/* Row r's kept spectrum in the intermediate; rows past the input are zero (a zero row
 * transforms to zeros) and get NULL after being cleared. */
static double *rfft2d_mid_row(const rfft2d_layout *l, int32_t r) {
  double *dst = l->mid + 2 * (size_t)r * (size_t)l->wc;
  if (r < l->h) return dst;
  memset(dst, 0, sizeof(double) * 2 * (size_t)l->wc);
  return NULL;
}

/* The column pass: each kept column of the intermediate transformed over fft_h, rounded to
 * float once into out. */
static void rfft2d_columns(const rfft2d_layout *l, int32_t fft_h, float *out) {
  const size_t wc = (size_t)l->wc;
  for (size_t c = 0; c < wc; c++) {
    for (int32_t r = 0; r < fft_h; r++) {
      l->col[2 * r] = l->mid[2 * ((size_t)r * wc + c)];
      l->col[2 * r + 1] = l->mid[2 * ((size_t)r * wc + c) + 1];
    }
    tfcc_fft_forward(fft_h, l->col, l->col_work);
    for (int32_t r = 0; r < fft_h; r++) {
      out[2 * ((size_t)r * wc + c)] = (float)l->col[2 * r];
      out[2 * ((size_t)r * wc + c) + 1] = (float)l->col[2 * r + 1];
    }
  }
}

void tfcc_rfft2d_reference(const float *in, int32_t h_in, int32_t w_in, int32_t fft_h,
                           int32_t fft_w, double *work, float *out) {
  const rfft2d_layout l = rfft2d_cut(h_in, w_in, fft_h, fft_w, work);
  for (int32_t r = 0; r < fft_h; r++) {
    double *dst = rfft2d_mid_row(&l, r);
    if (!dst) continue;
    memset(l.row, 0, sizeof(double) * 2 * (size_t)fft_w);
    for (int32_t c = 0; c < l.w; c++) l.row[2 * c] = in[(size_t)r * (size_t)w_in + (size_t)c];
    tfcc_fft_forward(fft_w, l.row, l.row_work);
    memcpy(dst, l.row, sizeof(double) * 2 * (size_t)l.wc);
  }
  rfft2d_columns(&l, fft_h, out);
}

/* Real transform of row[0..n) (n a power of two >= 4, row holding n doubles read as n/2
 * interleaved complex values z[k] = x[2k] + i x[2k+1]) to X[0..n/2] in dst (complex pairs).
 * With Z = FFT_{n/2}(z): E[k] = (Z[k] + conj Z[m-k]) / 2, O[k] = (Z[k] - conj Z[m-k]) / 2i,
 * X[k] = E[k] + w_n^k O[k]; tw from twiddles(n). */
static void rfft_pow2(int32_t n, double *row, const double *tw, double *dst) {
  const int32_t m = n / 2;
  fft_pow2_strided(m, row, tw, 2);
  dst[0] = row[0] + row[1];
  dst[1] = 0.0;
  dst[2 * m] = row[0] - row[1];
  dst[2 * m + 1] = 0.0;
  for (int32_t k = 1; k < m; k++) {
    const double zr = row[2 * k], zi = row[2 * k + 1];
    const double cr = row[2 * (m - k)], ci = -row[2 * (m - k) + 1]; /* conj Z[m-k] */
    const double er = 0.5 * (zr + cr), ei = 0.5 * (zi + ci);
    /* (a + bi) / 2i = (b - ai) / 2 */
    const double or_ = 0.5 * (zi - ci), oi = -0.5 * (zr - cr);
    const double wr = tw[2 * k], wi = tw[2 * k + 1];
    dst[2 * k] = er + or_ * wr - oi * wi;
    dst[2 * k + 1] = ei + or_ * wi + oi * wr;
  }
}

void tfcc_rfft2d(const float *in, int32_t h_in, int32_t w_in, int32_t fft_h, int32_t fft_w,
                 double *work, float *out) {
  if (!is_pow2(fft_w) || fft_w < 4) {
    tfcc_rfft2d_reference(in, h_in, w_in, fft_h, fft_w, work, out);
    return;
  }
  const rfft2d_layout l = rfft2d_cut(h_in, w_in, fft_h, fft_w, work);
  for (int32_t r = 0; r < fft_h; r++) {
    double *dst = rfft2d_mid_row(&l, r);
    if (!dst) continue;
    const float *src = in + (size_t)r * (size_t)w_in;
    for (int32_t c = 0; c < l.w; c++) l.row[c] = src[c];
    for (int32_t c = l.w; c < fft_w; c++) l.row[c] = 0.0;
    rfft_pow2(fft_w, l.row, l.row_work, dst);
  }
  if (fft_h == 1) { /* the column transform of length 1 is the identity */
    for (int32_t i = 0; i < 2 * l.wc; i++) out[i] = (float)l.mid[i];
    return;
  }
  rfft2d_columns(&l, fft_h, out);
}

/* ---- many rows of one real transform at a time (tfcc_rfft_rows) ----
 * TFCC_RFFT_LANES rows side by side (element c of row r in x[c * Q + r / 2][r % 2]), so each
 * butterfly of rfft_pow2 runs on all the rows at once with the same expressions, the same
 * twiddles and the same order per row: every row's bits equal rfft_pow2's on that row. Wider
 * vector types (32 or 64 bytes) were 2-4x slower at the baseline x86-64 target, which lowers
 * them through memory; 16 bytes x 4 measured best (bench/kernels/rfft_bench.c). */
#define LANES TFCC_RFFT_LANES

/* Two doubles, two rows: GCC / clang vector arithmetic, element by element IEEE double as the
 * scalar code (16 bytes: a register on every target, SSE2 / NEON / wasm SIMD). A lane group is
 * Q of them (LANES = 2 Q rows), so that Q independent butterflies are in flight. */
typedef double v2 __attribute__((vector_size(16)));
#define Q (LANES / 2)
#define EACH for (int q = 0; q < Q; q++)

/* element c of the group: x[c * Q + q] holds rows 2 q, 2 q + 1 */
static void fft_pow2_lanes(int32_t n, v2 *x, const double *tw, int32_t ts) {
  for (int32_t i = 1, j = 0; i < n; i++) { /* bit reversal */
    int32_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j)
      for (int q = 0; q < 2 * Q; q++) {
        const v2 t = x[2 * Q * i + q];
        x[2 * Q * i + q] = x[2 * Q * j + q];
        x[2 * Q * j + q] = t;
      }
  }
  for (int32_t len = 2; len <= n; len *= 2) {
    const int32_t half = len / 2, step = n / len * ts;
    for (int32_t s = 0; s < n; s += len)
      for (int32_t k = 0; k < half; k++) {
        const double wr = tw[2 * k * step], wi = tw[2 * k * step + 1];
        v2 *a = x + 2 * Q * (s + k), *b = x + 2 * Q * (s + k + half);
        EACH {
          const v2 br = b[q] * wr - b[Q + q] * wi, bi = b[q] * wi + b[Q + q] * wr;
          b[q] = a[q] - br;
          b[Q + q] = a[Q + q] - bi;
          a[q] += br;
          a[Q + q] += bi;
        }
      }
  }
}

/* rfft_pow2 on the group's rows (n / 2 complex elements), X[k] to dst[2 k Q ...]. */
static void rfft_pow2_lanes(int32_t n, v2 *x, const double *tw, v2 *dst) {
  const int32_t m = n / 2;
  const v2 zero = {0, 0};
  fft_pow2_lanes(m, x, tw, 2);
  EACH {
    dst[q] = x[q] + x[Q + q];
    dst[Q + q] = zero;
    dst[2 * Q * m + q] = x[q] - x[Q + q];
    dst[2 * Q * m + Q + q] = zero;
  }
  for (int32_t k = 1; k < m; k++) {
    const double wr = tw[2 * k], wi = tw[2 * k + 1];
    const v2 *z = x + 2 * Q * k, *c = x + 2 * Q * (m - k);
    v2 *d = dst + 2 * Q * k;
    EACH {
      const v2 zr = z[q], zi = z[Q + q];
      const v2 cr = c[q], ci = -c[Q + q]; /* conj Z[m-k] */
      const v2 er = 0.5 * (zr + cr), ei = 0.5 * (zi + ci);
      const v2 or_ = 0.5 * (zi - ci), oi = -0.5 * (zr - cr);
      d[q] = er + or_ * wr - oi * wi;
      d[Q + q] = ei + or_ * wi + oi * wr;
    }
  }
}

size_t tfcc_rfft_rows_buffer_doubles(int32_t fft_w) {
  return (size_t)LANES * (1 + (size_t)fft_w + 2 * ((size_t)fft_w / 2 + 1));
}

void tfcc_rfft_rows_init(int32_t fft_w, double *tw) { twiddles(fft_w, tw); }

void tfcc_rfft_rows(const float *in, size_t rows, size_t in_stride, int32_t w_in, int32_t fft_w,
                    const double *tw, double *buf, float *out, size_t out_stride) {
  const int32_t m = fft_w / 2, w = w_in < fft_w ? w_in : fft_w;
  const uintptr_t p = (uintptr_t)buf, a = sizeof(v2); /* buf has LANES spare */
  v2 *x = (v2 *)((p + a - 1) / a * a), *dst = x + (size_t)Q * (size_t)fft_w;
  for (size_t r0 = 0; r0 < rows; r0 += LANES) {
    const size_t nr = rows - r0 < LANES ? rows - r0 : LANES;
    for (int32_t c = 0; c < fft_w; c++)
      for (size_t r = 0; r < LANES; r++)
        x[(size_t)c * Q + r / 2][r % 2] =
            r < nr && c < w ? in[(r0 + r) * in_stride + (size_t)c] : 0.0;
    rfft_pow2_lanes(fft_w, x, tw, dst);
    for (size_t r = 0; r < nr; r++) {
      float *o = out + (r0 + r) * out_stride;
      for (int32_t i = 0; i < 2 * (m + 1); i++) o[i] = (float)dst[(size_t)i * Q + r / 2][r % 2];
    }
  }
}

/* The FFT kernels against a direct float64 DFT (radix-2 and Bluestein lengths, 1-D and the
 * 2-D real transform with cropping and zero padding), and the RFFT2D / REAL / IMAG /
 * COMPLEX_ABS operators: shapes, complex64 layout, hostile inputs. TensorFlow Lite's own
 * outputs are checked in tests/ops/conformance (rfft2d_*). */
#include "kernels/fft/complex.h"
#include "kernels/fft/fft.h"
#include "op_run.h"

static const double k_pi = 3.14159265358979323846;

/* Direct DFT in double; the angle 2 pi (j k mod n) / n is reduced in integers. */
static void dft(int32_t n, const double *x, double *X) {
  for (int32_t k = 0; k < n; k++) {
    double re = 0, im = 0;
    for (int32_t j = 0; j < n; j++) {
      const int64_t q = ((int64_t)j * k) % n;
      const double a = -2.0 * k_pi * (double)q / (double)n;
      re += x[2 * j] * cos(a) - x[2 * j + 1] * sin(a);
      im += x[2 * j] * sin(a) + x[2 * j + 1] * cos(a);
    }
    X[2 * k] = re;
    X[2 * k + 1] = im;
  }
}

static void test_fft_1d(void) {
  static const int32_t extra[] = {64, 100, 127, 128, 243, 256, 400, 512, 1000, 1024};
  double worst = 0;
  for (int32_t t = 0; t < 40 + (int32_t)(sizeof extra / sizeof extra[0]); t++) {
    const int32_t n = t < 40 ? t + 1 : extra[t - 40];
    double *x = malloc(sizeof(double) * 2 * (size_t)n), *y = malloc(sizeof(double) * 2 * (size_t)n);
    double *want = malloc(sizeof(double) * 2 * (size_t)n);
    double *work = malloc(sizeof(double) * tfcc_fft_work_doubles(n));
    double norm = 0;
    for (int32_t i = 0; i < 2 * n; i++) {
      x[i] = oh_randf(-1.f, 1.f);
      norm += fabs(x[i]);
    }
    memcpy(y, x, sizeof(double) * 2 * (size_t)n);
    tfcc_fft_init(n, work);
    tfcc_fft_forward(n, y, work);
    dft(n, x, want);
    double err = 0;
    for (int32_t i = 0; i < 2 * n; i++) err = fmax(err, fabs(y[i] - want[i]));
    err /= norm;
    CHECKF(err < 1e-13, "fft n=%d: max error %.3g of the input's L1 norm", (int)n, err);
    worst = fmax(worst, err);
    /* the work area is reusable: a second transform of the same data is identical */
    memcpy(want, x, sizeof(double) * 2 * (size_t)n);
    tfcc_fft_forward(n, want, work);
    CHECKF(memcmp(want, y, sizeof(double) * 2 * (size_t)n) == 0, "fft n=%d: reuse differs", (int)n);
    free(x);
    free(y);
    free(want);
    free(work);
  }
  printf("  fft 1..40 and up to 1024: worst error %.3g x L1 norm\n", worst);
}

/* rfft2d of an [h, w] slice at [fh, fw] against the direct 2-D DFT of the cropped / padded
 * slice. */
static void check_rfft2d(int32_t h, int32_t w, int32_t fh, int32_t fw) {
  const int32_t wc = fw / 2 + 1;
  float *in = malloc(sizeof(float) * (size_t)h * (size_t)w);
  float *out = malloc(sizeof(float) * 2 * (size_t)fh * (size_t)wc);
  double *work = malloc(sizeof(double) * tfcc_rfft2d_work_doubles(fh, fw));
  double *grid = calloc(2 * (size_t)fh * (size_t)fw, sizeof(double));
  double *row = malloc(sizeof(double) * 2 * (size_t)(fh > fw ? fh : fw));
  double *rowx = malloc(sizeof(double) * 2 * (size_t)(fh > fw ? fh : fw));
  double norm = 0;
  for (int32_t i = 0; i < h * w; i++) in[i] = oh_randf(-1.f, 1.f);
  for (int32_t r = 0; r < h && r < fh; r++)
    for (int32_t c = 0; c < w && c < fw; c++) {
      grid[2 * ((size_t)r * (size_t)fw + (size_t)c)] = in[r * w + c];
      norm += fabs(in[r * w + c]);
    }
  tfcc_rfft2d_init(fh, fw, work);
  tfcc_rfft2d(in, h, w, fh, fw, work, out);
  /* direct: rows, then columns */
  for (int32_t r = 0; r < fh; r++) {
    dft(fw, grid + 2 * (size_t)r * (size_t)fw, rowx);
    memcpy(grid + 2 * (size_t)r * (size_t)fw, rowx, sizeof(double) * 2 * (size_t)fw);
  }
  double err = 0;
  for (int32_t c = 0; c < wc; c++) {
    for (int32_t r = 0; r < fh; r++) {
      row[2 * r] = grid[2 * ((size_t)r * (size_t)fw + (size_t)c)];
      row[2 * r + 1] = grid[2 * ((size_t)r * (size_t)fw + (size_t)c) + 1];
    }
    dft(fh, row, rowx);
    for (int32_t r = 0; r < fh; r++)
      for (int p = 0; p < 2; p++) {
        const double got = out[2 * ((size_t)r * (size_t)wc + (size_t)c) + (size_t)p];
        /* float output: rounding is relative to the value */
        const double e = fabs(got - rowx[2 * r + p]) / (fabs(rowx[2 * r + p]) + 1e-3 * (norm + 1));
        err = fmax(err, e);
      }
  }
  CHECKF(err < 2e-7, "rfft2d [%d,%d] at [%d,%d]: error %.3g", (int)h, (int)w, (int)fh, (int)fw,
         err);
  free(in);
  free(out);
  free(work);
  free(grid);
  free(row);
  free(rowx);
}

/* The fast kernel (half-length complex FFT per power-of-two row) against its straightforward
 * twin: both compute in double and round once to float, so an element may differ by at most
 * one float ulp (when the double results straddle a rounding boundary); count how often. */
static void test_rfft2d_fast_vs_twin(void) {
  static const int32_t lens[] = {4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};
  size_t n_el = 0, n_diff = 0;
  for (int32_t t = 0; t < 200; t++) {
    const int32_t fw = lens[(size_t)t % (sizeof lens / sizeof lens[0])];
    const int32_t fh = (t / 10) % 3 == 0 ? 1 : (int32_t)1 << (t % 4);
    const int32_t h = 1 + (int32_t)(oh_randf(0.f, 1.f) * (float)(fh + 2));
    const int32_t w = 1 + (int32_t)(oh_randf(0.f, 1.f) * (float)(fw + 3));
    const int32_t wc = fw / 2 + 1;
    float *in = malloc(sizeof(float) * (size_t)h * (size_t)w);
    float *a = malloc(sizeof(float) * 2 * (size_t)fh * (size_t)wc);
    float *b = malloc(sizeof(float) * 2 * (size_t)fh * (size_t)wc);
    double *work = malloc(sizeof(double) * tfcc_rfft2d_work_doubles(fh, fw));
    double l1 = 0;
    for (int32_t i = 0; i < h * w; i++) { /* some inputs constant or integer: exact ties */
      in[i] = t % 5 == 0 ? 1.f : t % 5 == 1 ? (float)(i % 7) - 3.f : oh_randf(-4.f, 4.f);
      l1 += fabs(in[i]);
    }
    tfcc_rfft2d_init(fh, fw, work);
    tfcc_rfft2d(in, h, w, fh, fw, work, a);
    tfcc_rfft2d_reference(in, h, w, fh, fw, work, b);
    for (size_t i = 0; i < 2 * (size_t)fh * (size_t)wc; i++) {
      n_el++;
      if (a[i] == b[i]) continue;
      n_diff++;
      const float up = nextafterf(b[i], INFINITY), dn = nextafterf(b[i], -INFINITY);
      /* values that cancel to ~0 carry double rounding noise of the input's size */
      const bool near0 = fabs((double)a[i] - (double)b[i]) <= 1e-13 * l1;
      CHECKF(a[i] == up || a[i] == dn || near0,
             "rfft2d fast vs twin [%d,%d] at [%d,%d] element %zu: %.9g vs %.9g", (int)h, (int)w,
             (int)fh, (int)fw, i, (double)a[i], (double)b[i]);
    }
    free(in);
    free(a);
    free(b);
    free(work);
  }
  printf(
      "  rfft2d fast vs twin: %zu of %zu elements differ (each by <= 1 ulp, or <= 1e-13 x L1 near 0)\n",
      n_diff, n_el);
}

/* tfcc_rfft_rows (TFCC_RFFT_LANES rows side by side) against tfcc_rfft2d with fft_h 1 on each
 * row, bit for bit: row counts around the lane count, rows cropped and zero-padded, strides
 * wider than the rows. */
static void test_rfft_rows_vs_rfft2d(void) {
  static const int32_t lens[] = {4, 8, 16, 64, 256, 512, 1024};
  size_t n_el = 0;
  for (int32_t t = 0; t < 60; t++) {
    const int32_t fw = lens[(size_t)t % (sizeof lens / sizeof lens[0])];
    const size_t rows = 1 + (size_t)t % (2 * TFCC_RFFT_LANES + 3);
    const int32_t w = t % 3 == 0 ? fw : 1 + (int32_t)(oh_randf(0.f, 1.f) * (float)(fw + 5));
    const size_t in_stride = (size_t)w + (size_t)(t % 4), wc = (size_t)fw / 2 + 1;
    const size_t out_stride = 2 * wc + (size_t)(t % 2) * 6;
    float *in = malloc(sizeof(float) * rows * in_stride);
    float *a = calloc(rows * out_stride, sizeof(float));
    float *b = malloc(sizeof(float) * 2 * wc);
    double *tw = malloc(sizeof(double) * (size_t)fw);
    double *work = malloc(sizeof(double) * tfcc_rfft_rows_buffer_doubles(fw));
    double *work2 = malloc(sizeof(double) * tfcc_rfft2d_work_doubles(1, fw));
    for (size_t i = 0; i < rows * in_stride; i++)
      in[i] = t % 5 == 0 ? (float)(i % 7) - 3.f : oh_randf(-4.f, 4.f);
    tfcc_rfft_rows_init(fw, tw);
    tfcc_rfft_rows(in, rows, in_stride, w, fw, tw, work, a, out_stride);
    tfcc_rfft2d_init(1, fw, work2);
    for (size_t r = 0; r < rows; r++) {
      tfcc_rfft2d(in + r * in_stride, 1, w, 1, fw, work2, b);
      CHECKF(memcmp(a + r * out_stride, b, sizeof(float) * 2 * wc) == 0,
             "rfft rows: %zu rows of %d at %d, row %zu differs from tfcc_rfft2d", rows, (int)w,
             (int)fw, r);
      n_el += 2 * wc;
    }
    free(in);
    free(a);
    free(b);
    free(tw);
    free(work);
    free(work2);
  }
  printf("  rfft rows (%d lanes) vs rfft2d: %zu elements bit for bit\n", TFCC_RFFT_LANES, n_el);
}

static void test_rfft2d_kernel(void) {
  test_rfft2d_fast_vs_twin();
  test_rfft_rows_vs_rfft2d();
  check_rfft2d(8, 16, 8, 16); /* powers of two */
  check_rfft2d(16, 4, 16, 4);
  check_rfft2d(1, 2048, 1, 2048);
  check_rfft2d(2, 5, 2, 8);
  check_rfft2d(6, 16, 8, 16);   /* zero-padded rows */
  check_rfft2d(5, 12, 4, 16);   /* cropped rows, padded columns */
  check_rfft2d(3, 400, 1, 512); /* YAMNet-style frames */
  check_rfft2d(7, 10, 6, 10);   /* non-powers of two (Bluestein) */
  check_rfft2d(5, 7, 5, 7);
  check_rfft2d(1, 1, 1, 1);
  check_rfft2d(2, 3, 1, 2);
}

/* ------------------------------------------------------------------ operators */

static tfcc_status run_rfft(const float *x, int32_t rank, const int32_t *dims, int32_t *fft,
                            bool fft_known, tfcc_tensor *out, tfcc_err *err) {
  const int32_t d2[1] = {2};
  tfcc_tensor in = oh_tensor(TFCC_FLOAT32, rank, dims, (void *)x, NULL);
  tfcc_tensor len = oh_tensor(TFCC_INT32, 1, d2, fft, NULL);
  len.is_const = len.known = fft_known;
  tfcc_tensor *ins[2] = {&in, &len}, *outs[1] = {out};
  tfcc_ir_node node;
  memset(&node, 0, sizeof node);
  node.builtin = TFCC_OP_RFFT2D;
  node.n_inputs = 2;
  node.n_outputs = 1;
  oh_node_run r = {.op = tfcc_op_lookup(TFCC_OP_RFFT2D),
                   .node = &node,
                   .in = ins,
                   .n_in = 2,
                   .out = outs,
                   .n_out = 1,
                   .err = err,
                   .alloc_outputs = true};
  return oh_run_node(&r);
}

static tfcc_status run_part(int32_t code, tfcc_tensor *in, tfcc_tensor *out, tfcc_err *err) {
  tfcc_tensor *ins[1] = {in}, *outs[1] = {out};
  tfcc_ir_node node;
  memset(&node, 0, sizeof node);
  node.builtin = code;
  node.n_inputs = 1;
  node.n_outputs = 1;
  oh_node_run r = {.op = tfcc_op_lookup(code),
                   .node = &node,
                   .in = ins,
                   .n_in = 1,
                   .out = outs,
                   .n_out = 1,
                   .err = err,
                   .alloc_outputs = true};
  return oh_run_node(&r);
}

static void test_ops(void) {
  /* [2, 3, 5] at [4, 6]: output [2, 4, 4] complex64, each slice the kernel's result */
  const int32_t dims[3] = {2, 3, 5};
  float x[30];
  for (int i = 0; i < 30; i++) x[i] = oh_randf(-2.f, 2.f);
  int32_t fft[2] = {4, 6};
  const int32_t d1[1] = {1};
  tfcc_tensor out = oh_tensor(TFCC_COMPLEX64, 1, d1, NULL, NULL);
  tfcc_err err = {0};
  CHECKF(run_rfft(x, 3, dims, fft, true, &out, &err) == TFCC_OK, "%s", err.msg);
  CHECK(out.rank == 3 && out.dims[0] == 2 && out.dims[1] == 4 && out.dims[2] == 4);
  double work[512];
  CHECK(tfcc_rfft2d_work_doubles(4, 6) <= 512);
  float want[2 * 16];
  for (int s = 0; s < 2; s++) {
    tfcc_rfft2d_init(4, 6, work);
    tfcc_rfft2d(x + 15 * s, 3, 5, 4, 6, work, want);
    CHECKF(memcmp((float *)out.data + 32 * s, want, sizeof want) == 0, "slice %d differs", s);
  }
  /* DC term of slice 0 is the sum of its inputs */
  double sum = 0;
  for (int i = 0; i < 15; i++) sum += x[i];
  CHECKF(fabs(((float *)out.data)[0] - sum) < 1e-5 && fabsf(((float *)out.data)[1]) < 1e-6f,
         "DC %g vs %g", (double)((float *)out.data)[0], sum);
  /* REAL / IMAG / COMPLEX_ABS of that output */
  tfcc_tensor c = oh_tensor(TFCC_COMPLEX64, out.rank, out.dims, out.data, NULL);
  static const int32_t codes[3] = {TFCC_OP_REAL, TFCC_OP_IMAG, TFCC_OP_COMPLEX_ABS};
  for (int k = 0; k < 3; k++) {
    tfcc_tensor o = oh_tensor(TFCC_FLOAT32, 1, d1, NULL, NULL);
    CHECKF(run_part(codes[k], &c, &o, &err) == TFCC_OK, "%s", err.msg);
    CHECK(o.rank == 3 && o.dims[1] == 4 && o.dims[2] == 4);
    const float *z = (const float *)c.data, *v = (const float *)o.data;
    for (int i = 0; i < 32; i++) {
      const double re = z[2 * i], im = z[2 * i + 1];
      const double w = k == 0 ? re : (k == 1 ? im : sqrt(re * re + im * im));
      CHECKF(fabs(v[i] - w) <= 1e-6 * (1 + fabs(w)), "op %d element %d: %g vs %g", (int)codes[k], i,
             (double)v[i], w);
    }
    free(o.data);
    /* float input is refused */
    tfcc_tensor f = oh_tensor(TFCC_FLOAT32, 1, d1, x, NULL);
    o = oh_tensor(TFCC_FLOAT32, 1, d1, NULL, NULL);
    CHECK(run_part(codes[k], &f, &o, &err) == TFCC_ERR_UNSUPPORTED && strstr(err.msg, "complex64"));
    free(o.data);
  }
  free(out.data);
  /* COMPLEX_ABS at the float range's ends */
  const float big[6] = {3e38f, 3e38f, 3e-39f, 4e-39f, 0.f, -0.f};
  float ab[3];
  tfcc_complex_abs(big, ab, 3);
  CHECKF(isinf(ab[0]) && fabsf(ab[1] - 5e-39f) < 1e-44f && ab[2] == 0.f, "abs ends: %g %g %g",
         (double)ab[0], (double)ab[1], (double)ab[2]);
  /* hostile RFFT2D inputs */
  out = oh_tensor(TFCC_COMPLEX64, 1, d1, NULL, NULL);
  CHECK(run_rfft(x, 3, dims, fft, false, &out, &err) == TFCC_ERR_UNSUPPORTED &&
        strstr(err.msg, "fft_length"));
  free(out.data);
  int32_t zero[2] = {0, 8};
  out = oh_tensor(TFCC_COMPLEX64, 1, d1, NULL, NULL);
  CHECK(run_rfft(x, 3, dims, zero, true, &out, &err) == TFCC_ERR_INVALID_MODEL &&
        strstr(err.msg, "[0, 8]"));
  free(out.data);
  out = oh_tensor(TFCC_COMPLEX64, 1, d1, NULL, NULL);
  CHECK(run_rfft(x, 1, dims, fft, true, &out, &err) == TFCC_ERR_SHAPE && strstr(err.msg, "rank 1"));
  free(out.data);
  out = oh_tensor(TFCC_FLOAT32, 1, d1, NULL, NULL);
  CHECK(run_rfft(x, 3, dims, fft, true, &out, &err) == TFCC_ERR_DTYPE &&
        strstr(err.msg, "complex64"));
  free(out.data);
}

int main(void) {
  test_fft_1d();
  test_rfft2d_kernel();
  test_ops();
  return tfcc_test_finish("fft");
}

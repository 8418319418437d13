/* Fast pooling kernels (src/kernels/pool): every variant this CPU can run produces exactly
 * the reference kernel's output (kernels/ref/pool.c) for MAX and AVERAGE pooling of float32,
 * uint8, int8 and int16 (int16 averages up to 511 taps, a 511-tap window of 32767s included): odd channel counts (block tails), 1x1 .. 7x7 and non-square windows,
 * strides 1..3, SAME and VALID padding, windows larger than the image, padding larger than
 * the filter (empty windows), batches, activation ranges, extreme values (NaN, -0, infinities,
 * lowest / highest integers), single threaded and on a 2-thread pool. Floats compare bit for
 * bit, except that any NaN matches a NaN (its sign and payload are not specified). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/pool/pool.h"
#include "kernels/ref/pool.h"
#include "base/threadpool.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 4242u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static size_t esize(tfcc_dtype dt) { return dt == TFCC_FLOAT32 ? 4 : dt == TFCC_INT16 ? 2 : 1; }

static void fill(tfcc_dtype dt, void *p, size_t n, int mode) {
  for (size_t i = 0; i < n; i++) {
    if (dt == TFCC_FLOAT32) {
      float v = ((float)(urand() % 20001) - 10000.f) / 997.f;
      if (mode == 1) {
        const uint32_t r = urand() % 16;
        if (r == 0)
          v = NAN;
        else if (r == 1)
          v = -0.0f;
        else if (r == 2)
          v = INFINITY;
        else if (r == 3)
          v = -INFINITY;
        else if (r == 4)
          v = -FLT_MAX;
      }
      ((float *)p)[i] = v;
    } else if (dt == TFCC_INT16) {
      int16_t v = (int16_t)urand();
      if (mode == 1) v = (urand() & 1) ? (int16_t)-32768 : (int16_t)32767;
      if (mode == 2) v = (int16_t)(32767 - (int16_t)(urand() % 4)); /* near the highest */
      ((int16_t *)p)[i] = v;
    } else {
      uint8_t v = (uint8_t)urand();
      if (mode == 1) v = (urand() & 1) ? 0x80 : 0x7F; /* lowest/highest int8 */
      if (mode == 2) v = (urand() & 1) ? 0x00 : 0xFF; /* lowest/highest uint8 */
      ((uint8_t *)p)[i] = v;
    }
  }
}

static void run_ref(const tfcc_conv_geom *g, bool avg, tfcc_dtype dt, const void *in, float lo,
                    float hi, int32_t ql, int32_t qh, void *out) {
  if (dt == TFCC_FLOAT32) {
    if (avg)
      tfcc_avgpool_f32(g, in, lo, hi, out);
    else
      tfcc_maxpool_f32(g, in, lo, hi, out);
  } else {
    tfcc_pool_q(avg, dt, g, in, ql, qh, out);
  }
}

static int cases_run = 0;

static void test_pool(const tfcc_pool_kernel *k, tfcc_threadpool *pool, bool avg, tfcc_dtype dt,
                      int batches, int ih, int iw, int ch, int fh, int fw, int sh, int sw,
                      int pad_h, int pad_w, int mode, int act) {
  tfcc_conv_geom g;
  memset(&g, 0, sizeof g);
  g.batches = batches;
  g.in_h = ih;
  g.in_w = iw;
  g.in_c = g.out_c = ch;
  g.filter_h = fh;
  g.filter_w = fw;
  g.filter_in_c = 1;
  g.stride_h = sh;
  g.stride_w = sw;
  g.dil_h = g.dil_w = 1;
  g.pad_h = pad_h;
  g.pad_w = pad_w;
  /* pad_h < 0 means SAME, -2 VALID: compute like TFLite */
  if (pad_h < 0) {
    const bool same = pad_h == -1;
    g.out_h = same ? (ih + sh - 1) / sh : (ih - fh + sh) / sh;
    g.out_w = same ? (iw + sw - 1) / sw : (iw - fw + sw) / sw;
    const int th = (g.out_h - 1) * sh + fh - ih, tw = (g.out_w - 1) * sw + fw - iw;
    g.pad_h = th > 0 ? th / 2 : 0;
    g.pad_w = tw > 0 ? tw / 2 : 0;
  } else {
    /* explicit padding (e.g. larger than the filter): output covers the padded image */
    g.out_h = (ih + 2 * pad_h - fh) / sh + 1;
    g.out_w = (iw + 2 * pad_w - fw) / sw + 1;
  }
  if (g.out_h <= 0 || g.out_w <= 0) return;
  CHECK(tfcc_pool_fast_ok(&g, avg, dt));
  const size_t es = esize(dt);
  const size_t nin = (size_t)batches * ih * iw * ch,
               nout = (size_t)batches * g.out_h * g.out_w * ch;
  uint8_t *in = malloc(nin * es + 1), *want = malloc(nout * es + 1), *got = malloc(nout * es + 1);
  fill(dt, in, nin, mode);
  float lo = -INFINITY, hi = INFINITY;
  int32_t ql = dt == TFCC_UINT8 ? 0 : -128, qh = dt == TFCC_UINT8 ? 255 : 127;
  if (dt == TFCC_INT16) ql = -32768, qh = 32767;
  if (act == 1) {
    lo = 0.f;
    ql += 37;
  }
  if (act == 2) {
    lo = -1.f;
    hi = 1.f;
    ql += 5;
    qh -= 50;
  }
  if (act == 3) {
    lo = 0.f;
    hi = 6.f;
    ql = qh = dt == TFCC_UINT8 ? 9 : -9;
  }
  memset(want, 0xEE, nout * es + 1);
  memset(got, 0xEE, nout * es + 1);
  run_ref(&g, avg, dt, in, lo, hi, ql, qh, want);
  const tfcc_pool_job j = {&g, avg, dt, in, got, lo, hi, ql, qh};
  tfcc_pool_run(pool, k, &j);
  int bad = 0;
  for (size_t i = 0; i < nout; i++) {
    if (memcmp(got + i * es, want + i * es, es) == 0) continue;
    /* a NaN's sign and payload are not specified (IEEE: one of the input NaNs; the compiler
     * may commute an addition): NaN where the reference has NaN is the same result */
    if (dt == TFCC_FLOAT32 && isnan(((float *)got)[i]) && isnan(((float *)want)[i])) continue;
    if (bad++ < 3) {
      if (dt == TFCC_FLOAT32)
        fprintf(stderr, "%s: out[%zu] = %a, want %a\n", k->name, i, (double)((float *)got)[i],
                (double)((float *)want)[i]);
      else if (dt == TFCC_INT16)
        fprintf(stderr, "%s: out[%zu] = %d, want %d\n", k->name, i, ((int16_t *)got)[i],
                ((int16_t *)want)[i]);
      else
        fprintf(stderr, "%s: out[%zu] = %d, want %d\n", k->name, i, got[i], want[i]);
    }
  }
  CHECKF(bad == 0 && got[nout * es] == 0xEE,
         "%s %s %s n%d %dx%dx%d f%dx%d s%dx%d pad %d/%d mode %d act %d: %d wrong", k->name,
         avg ? "avg" : "max", tfcc_dtype_name(dt), batches, ih, iw, ch, fh, fw, sh, sw, g.pad_h,
         g.pad_w, mode, act, bad);
  cases_run++;
  free(in);
  free(want);
  free(got);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS_USABLE(tfcc_pool, tfcc_pool_usable);
  /* what the fast path refuses */
  tfcc_conv_geom big = {1, 300, 300, 8, 1, 1, 8, 300, 300, 1, 1, 1, 1, 1, 0, 0};
  CHECK(!tfcc_pool_fast_ok(&big, true, TFCC_INT8));
  CHECK(tfcc_pool_fast_ok(&big, true, TFCC_FLOAT32));
  CHECK(tfcc_pool_fast_ok(&big, false, TFCC_UINT8));
  CHECK(tfcc_pool_fast_ok(&big, false, TFCC_INT16));
  CHECK(!tfcc_pool_fast_ok(&big, true, TFCC_INT16)); /* int16 average: at most 511 taps */
  big.filter_h = 7, big.filter_w = 73;               /* 511 */
  CHECK(tfcc_pool_fast_ok(&big, true, TFCC_INT16));
  big.filter_w = 74; /* 518 */
  CHECK(!tfcc_pool_fast_ok(&big, true, TFCC_INT16));
  const tfcc_dtype dts[] = {TFCC_FLOAT32, TFCC_UINT8, TFCC_INT8, TFCC_INT16};
  int tested = 0;
  TFCC_EACH_VARIANT_IF(tfcc_pool, k, best, tfcc_pool_usable(k, best)) {
    tested++;
    for (int di = 0; di < 4; di++)
      for (int avg = 0; avg < 2; avg++) {
        const tfcc_dtype dt = dts[di];
        for (int mode = 0; mode < 3; mode++) {
          tfcc_threadpool *pl = mode == 1 ? pool2 : NULL;
          const int act = (mode + di + avg) % 4;
          test_pool(k, pl, avg, dt, 1, 7, 9, 3, 3, 3, 2, 2, -1, -1, mode, act);
          test_pool(k, pl, avg, dt, 2, 12, 11, 33, 3, 3, 2, 2, -1, -1, mode, act);
          test_pool(k, pl, avg, dt, 1, 112, 112, 64, 3, 3, 2, 2, -1, -1, mode, 0);
          test_pool(k, pl, avg, dt, 1, 9, 9, 97, 2, 2, 2, 2, -2, -2, mode, act);
          test_pool(k, pl, avg, dt, 1, 13, 10, 130, 5, 3, 1, 2, -1, -1, mode, act);
          test_pool(k, pl, avg, dt, 1, 7, 7, 65, 7, 7, 1, 1, -2, -2, mode, 0);
          test_pool(k, pl, avg, dt, 1, 8, 6, 16, 3, 3, 3, 1, -1, -1, mode, act);
          test_pool(k, pl, avg, dt, 1, 5, 4, 1, 7, 6, 1, 1, -1, -1, mode, act);
          test_pool(k, pl, avg, dt, 1, 6, 6, 40, 1, 1, 1, 1, -2, -2, mode, act);
          test_pool(k, pl, avg, dt, 3, 4, 5, 31, 2, 3, 2, 1, -1, -1, mode, act);
          /* padding larger than the filter: empty windows at the borders */
          test_pool(k, pl, avg, dt, 1, 5, 5, 35, 2, 2, 1, 1, 3, 3, mode, act);
          /* int16: the largest average window the fast path takes (511 taps), channels
           * across the 32-element blocks */
          if (dt == TFCC_INT16)
            test_pool(k, pl, avg, dt, 1, 7, 75, 57, 7, 73, 1, 1, -2, -2, mode, act);
        }
      }
  }
  CHECK(tested >= 1);
  printf("%d pool kernels tested at CPU level %s, %d cases\n", tested, tfcc_isa_name(best),
         cases_run);
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_pool_fast");
}

/* Fast 8-bit GEMM / convolution: every q8 micro-kernel this CPU can run produces exactly the
 * reference conv kernel's bytes (tfcc_conv_i8 / tfcc_conv_u8), for int8 (per-channel scales)
 * and uint8 (per-tensor, filter zero point), in both requantization modes (XNNPACK fp32 and
 * fixed point), on odd shapes (depth not a multiple of 4, channels not a multiple of the
 * tile), padding, strides, dilation, batches, extreme zero points and scales, every fused
 * activation range, single threaded and on a 2-thread pool, in both loop orders of the driver
 * (row tiles outer; panels outer for few rows and large weights). On aarch64 with I8MM
 * (qemu-aarch64's default CPU) the SMMLA/UMMLA kernel, with its own panel layout, must be
 * among them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/q8-gemm/gemm.h"
#include "kernels/ref/conv.h"
#include "kernels/ref/fully_connected.h"
#include "kernels/ref/quant_util.h"
#include "base/threadpool.h"
#include "q8_conv_test_util.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static void test_conv(const tfcc_q8_gemm_kernel *k, tfcc_threadpool *pool, const qcase *q,
                      int batches, int ih, int iw, int ic, int oc, int fh, int fw, int sh, int sw,
                      int dh, int dw, bool same, bool with_bias) {
  q8_check_conv(k->name, k, pool, q, 1, NULL, batches, ih, iw, ic, oc, fh, fw, sh, sw, dh, dw, same,
                with_bias);
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  tfcc_threadpool *pool2 = tfcc_test_pool(2);
  TFCC_CHECK_SELECTS_USABLE(tfcc_q8_gemm, tfcc_q8_gemm_usable);
  CHECK(tfcc_q8_gemm_select(TFCC_ISA_GENERIC)->isa == TFCC_ISA_GENERIC);
  /* Per-shape choice: AMX only for deep GEMMs with enough rows, else the level's best non-AMX
   * kernel; the same as tfcc_q8_gemm_select wherever that is not AMX. */
  for (int isa = 0; isa < TFCC_ISA_COUNT_; isa++) {
    const tfcc_q8_gemm_kernel *best_k = tfcc_q8_gemm_select((tfcc_isa)isa);
    const int64_t rows[] = {1, TFCC_Q8_AMX_MIN_ROWS - 1, TFCC_Q8_AMX_MIN_ROWS, 3136};
    const int32_t depth[] = {16, TFCC_Q8_AMX_MIN_K - 1, TFCC_Q8_AMX_MIN_K, 4608};
    for (int ri = 0; ri < 4; ri++)
      for (int di = 0; di < 4; di++) {
        const tfcc_q8_gemm_kernel *k =
            tfcc_q8_gemm_select_for((tfcc_isa)isa, rows[ri], depth[di], 64);
        CHECK(k != NULL && tfcc_q8_gemm_usable(k, (tfcc_isa)isa));
        if (ri < 2 || di < 2)
          CHECKF(!tfcc_q8_gemm_is_amx(k), "AMX chosen for %lld x %d", (long long)rows[ri],
                 depth[di]);
        else
          CHECK(k == best_k);
        if (!tfcc_q8_gemm_is_amx(best_k)) CHECK(k == best_k);
      }
  }
  const qcase cases[] = {
      /* signed, fp32, in_zp, w_zp, out_zp, scales, act range */
      {true, true, 0, 0, 0, 1e-4f, 2e-2f, -128, 127},
      {true, true, -128, 0, 127, 1e-3f, 5e-2f, -128, 127},
      {true, true, 127, 0, -128, 1e-5f, 1e-3f, -128, 127},
      {true, true, 5, 0, -3, 1e-3f, 3e-3f, 0, 127},  /* RELU */
      {true, true, -7, 0, 10, 1e-3f, 3e-3f, 10, 70}, /* RELU6-like */
      {true, false, 3, 0, -5, 1e-4f, 2e-2f, -128, 127},
      {true, false, -128, 0, 127, 1e-3f, 5e-1f, -128, 127},
      {true, false, 127, 0, 0, 1e-6f, 1e-5f, -1, 1},
      {false, true, 128, 128, 128, 1e-4f, 1e-4f, 0, 255},
      {false, true, 0, 255, 255, 2e-3f, 2e-3f, 0, 255},
      {false, true, 255, 0, 0, 3e-5f, 3e-5f, 0, 255},
      {false, true, 17, 140, 3, 1e-3f, 1e-3f, 3, 200},
      {false, false, 128, 128, 128, 1e-4f, 1e-4f, 0, 255},
      {false, false, 0, 255, 255, 2e-3f, 2e-3f, 0, 255},
      {false, false, 255, 0, 0, 7e-2f, 7e-2f, 0, 255},
      {false, false, 100, 37, 60, 4e-4f, 4e-4f, 60, 255},
      /* scales above 1: left shifts in fixed point, float products beyond the int32 range */
      {true, false, -3, 0, 4, 1.5f, 6.0f, -128, 127},
      {true, true, 9, 0, -9, 1e3f, 1e5f, -128, 127},
      {false, false, 77, 200, 19, 3.0f, 3.0f, 0, 255},
      {false, true, 200, 3, 250, 2e4f, 2e4f, 10, 255},
  };
  int tested = 0;
  bool tested_i8mm = false; /* the I8MM kernel (its own panel layout), where the CPU has I8MM */
  TFCC_EACH_VARIANT_IF(tfcc_q8_gemm, k, best, tfcc_q8_gemm_usable(k, best)) {
    tested++;
    printf("test %s\n", k->name);
    if (k->feature == TFCC_CPU_I8MM) tested_i8mm = true;
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
      const qcase *q = &cases[ci];
      tfcc_threadpool *pl = ci % 2 ? pool2 : NULL;
      test_conv(k, pl, q, 1, 5, 7, 3, 5, 1, 1, 1, 1, 1, 1, false, true);
      test_conv(k, pl, q, 2, 9, 6, 17, 33, 1, 1, 1, 1, 1, 1, false, ci % 3 == 0);
      test_conv(k, pl, q, 1, 9, 6, 64, 70, 1, 1, 2, 2, 1, 1, false, true);
      test_conv(k, pl, q, 1, 8, 8, 3, 16, 3, 3, 2, 2, 1, 1, true, true);
      test_conv(k, pl, q, 1, 11, 13, 5, 37, 3, 3, 1, 1, 1, 1, true, false);
      test_conv(k, pl, q, 2, 10, 9, 4, 7, 3, 3, 1, 2, 2, 1, false, true);
      test_conv(k, pl, q, 1, 12, 12, 6, 9, 5, 5, 2, 2, 1, 1, true, true);
      test_conv(k, pl, q, 1, 7, 7, 2, 3, 3, 2, 1, 1, 2, 3, true, true);
      test_conv(k, pl, q, 1, 1, 1, 13, 11, 1, 1, 1, 1, 1, 1, true, true);
      test_conv(k, pl, q, 1, 3, 3, 8, 40, 3, 3, 1, 1, 1, 1, true, true);
      test_conv(k, pl, q, 1, 6, 5, 129, 67, 1, 1, 1, 1, 1, 1, true, true);
      /* whole 14-row tiles plus a partial one, and a stem-like im2col of 3-channel runs */
      test_conv(k, pl, q, 1, 7, 9, 20, 40, 1, 1, 1, 1, 1, 1, false, true);
      test_conv(k, pl, q, 2, 3, 3, 9, 33, 1, 1, 1, 1, 1, 1, false, true);  /* 14 + 4 rows */
      test_conv(k, pl, q, 1, 4, 5, 10, 31, 1, 1, 1, 1, 1, 1, false, true); /* 14 + 6 rows */
      test_conv(k, pl, q, 1, 19, 19, 3, 24, 7, 7, 2, 2, 1, 1, false, true);
      /* few rows, weights larger than the rows: panels outer, with a shared im2col of all
         4 row tiles (the 7x7 stage of ResNet) and in place (1x1, strided) */
      test_conv(k, pl, q, 1, 7, 7, 40, 70, 3, 3, 1, 1, 1, 1, true, ci % 2 == 0);
      test_conv(k, pl, q, 1, 13, 13, 67, 97, 1, 1, 2, 2, 1, 1, false, true);
      /* 14 row tiles (a 14x14 layer: on 2 threads, tasks of one tile each) with a depth the
         driver has the kernel prefetch ahead in (K >= 512) */
      if (ci % 2 == 1) test_conv(k, pl, q, 1, 14, 14, 64, 40, 3, 3, 1, 1, 1, 1, true, true);
      /* weights larger than one cache block (several N blocks per row tile) */
      if (ci % 4 == 0) test_conv(k, pl, q, 1, 1, 3, 1101, 1000, 1, 1, 1, 1, 1, 1, false, true);
    }
  }
  CHECK(tested >= 1);
#if defined(__aarch64__)
  CHECKF(tested_i8mm || !tfcc_cpu_has(tfcc_cpu(), TFCC_CPU_I8MM),
         "the CPU has I8MM but q8-gemm-8x8-neoni8mm was not tested");
#else
  (void)tested_i8mm;
#endif
  printf("%d q8 GEMM kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  tfcc_threadpool_destroy(pool2);
  return tfcc_test_finish("test_q8_gemm");
}

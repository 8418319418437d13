/* Small 8-bit FULLY_CONNECTED (q8-fc-small): every variant this CPU can run gives the same
 * bytes as the reference kernels (tfcc_fc_i8 / tfcc_fc_u8) on odd shapes (columns around the
 * 8/16-lane blocks, odd depths, several batches), extreme zero points and weights offsets,
 * random and wrapping biases, per-tensor and per-channel requantization, in both quant modes
 * (XNNPACK fp32 scales and TFLite fixed point, multipliers above and below one), with fused
 * activation ranges; and the packing refuses what it cannot take. Through the operator
 * (FULLY_CONNECTED init / prepare / eval, fixed-point mode): constant weights (the small path)
 * give the bytes of the same node with weights not known at prepare (the reference kernel). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conv_family_test_util.h"
#include "cpu/cpu_info.h"
#include "kernels/kernel_families.h"
#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/ref/fully_connected.h"
#include "kernels/ref/quant_util.h"
#include "kernel_test_main.h"
#include "test_harness.h"

static uint32_t rng = 12345u;
static uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}
static int32_t randi(int32_t lo, int32_t hi) {
  return lo + (int32_t)(urand() % (uint32_t)(hi - lo + 1));
}

typedef struct fc_case {
  bool is_signed, per_channel, fp32, wide_bias;
  int32_t batches, n, kdim;
  int32_t in_zp, w_zp, out_zp, act_min, act_max;
  int extreme; /* 0 random data, 1 all minimum, 2 all maximum, 3 alternating */
} fc_case;

static int32_t pick(const fc_case *c, int32_t lo, int32_t hi, size_t i) {
  switch (c->extreme) {
    case 1: return lo;
    case 2: return hi;
    case 3: return i & 1 ? lo : hi;
    default: return randi(lo, hi);
  }
}

static size_t n_inner, n_total; /* outputs strictly inside the activation range, all outputs */

static int run_case(const tfcc_q8_fcs_kernel *k, const fc_case *c) {
  const int32_t lo = c->is_signed ? -128 : 0, hi = c->is_signed ? 127 : 255;
  const size_t nx = (size_t)c->batches * c->kdim, nw = (size_t)c->n * c->kdim;
  const size_t ny = (size_t)c->batches * c->n;
  uint8_t *x = malloc(nx + 1), *w = malloc(nw + 1), *want = malloc(ny + 1), *got = malloc(ny + 1);
  int32_t *bias = malloc(sizeof(int32_t) * (size_t)c->n),
          *mult = malloc(sizeof(int32_t) * (size_t)c->n);
  int32_t *shift = malloc(sizeof(int32_t) * (size_t)c->n);
  float *scale = malloc(sizeof(float) * (size_t)c->n);
  for (size_t i = 0; i < nx; i++) x[i] = (uint8_t)pick(c, lo, hi, i);
  for (size_t i = 0; i < nw; i++) w[i] = (uint8_t)pick(c, lo, hi, i / 3);
  const int32_t nq = c->per_channel ? c->n : 1;
  for (int32_t j = 0; j < c->n; j++)
    bias[j] = c->wide_bias ? (int32_t)(urand() << 8 ^ urand()) : randi(-40000, 40000);
  /* largest |accumulator| of each column, so that the multipliers spread the outputs over the
     type instead of saturating them */
  double amax = 1.0;
  for (int32_t bb = 0; bb < c->batches; bb++)
    for (int32_t j = 0; j < c->n; j++) {
      int64_t acc = bias[j];
      for (int32_t kk = 0; kk < c->kdim; kk++) {
        const size_t xi = (size_t)bb * c->kdim + kk, wi = (size_t)j * c->kdim + kk;
        const int32_t xv = c->is_signed ? (int8_t)x[xi] : x[xi],
                      wv = c->is_signed ? (int8_t)w[wi] : w[wi];
        acc += (int64_t)(xv - c->in_zp) * (wv - c->w_zp);
      }
      if (fabs((double)acc) > amax) amax = fabs((double)acc);
    }
  for (int32_t j = 0; j < nq; j++) {
    /* mostly multipliers that map the accumulators onto ~[-125, 125] (rounding matters), some
       from 2^-20 to ~4 (shifts on both sides of zero, saturation) */
    const double m = urand() % 4 ? 100.0 / amax * (0.25 + (double)(urand() % 1000) / 1000.0)
                                 : ldexp(0.5 + (double)(urand() % 1000) / 2000.0, randi(-19, 2));
    int sh = 0;
    tfcc_quantize_multiplier(m, &mult[j], &sh);
    shift[j] = sh;
    scale[j] = (float)m;
  }
  tfcc_conv_requant r = {
      .input_offset = -c->in_zp,
      .filter_offset = -c->w_zp,
      .output_offset = c->out_zp,
      .mult = mult,
      .shift = shift,
      .mult_stride = c->per_channel ? 1 : 0,
      .act_min = c->act_min,
      .act_max = c->act_max,
      .scale = c->fp32 ? scale : NULL,
  };
  const tfcc_fc_dims d = {c->batches, c->kdim, c->n};
  if (c->is_signed)
    tfcc_fc_i8(&d, &r, (const int8_t *)x, (const int8_t *)w, bias, (int8_t *)want);
  else
    tfcc_fc_u8(&d, &r, x, w, bias, want);
  tfcc_q8_fcs_packed p;
  int bad = 0;
  CHECKF(tfcc_q8_fcs_pack(k, c->is_signed, c->n, c->kdim, w, bias, &r, &p), "%s: pack %dx%d",
         k->name, c->n, c->kdim);
  if (p.k) {
    memset(got, 0xA5, ny + 1);
    k->fn(&p, (size_t)c->batches, x, got);
    for (size_t i = 0; i < ny; i++)
      if (got[i] != want[i] && bad++ < 3)
        fprintf(stderr, "%s: %s %s %s b%d n%d k%d zp %d/%d/%d extreme %d: out[%zu] = %d, want %d\n",
                k->name, c->is_signed ? "int8" : "uint8", c->fp32 ? "fp32" : "fixed",
                c->per_channel ? "per-channel" : "per-tensor", c->batches, c->n, c->kdim, c->in_zp,
                c->w_zp, c->out_zp, c->extreme, i, got[i], want[i]);
    for (size_t i = 0; i < ny; i++) {
      const int32_t v = c->is_signed ? (int8_t)want[i] : want[i];
      n_inner += v > c->act_min && v < c->act_max;
      n_total++;
    }
    CHECKF(bad == 0 && got[ny] == 0xA5, "%s: %d wrong bytes (or wrote past the end)", k->name, bad);
  }
  tfcc_q8_fcs_packed_free(&p);
  free(x), free(w), free(want), free(got), free(bias), free(mult), free(shift), free(scale);
  return bad;
}

static void test_kernel(const tfcc_q8_fcs_kernel *k) {
  static const int32_t ns[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 48, 65};
  static const int32_t ks[] = {1, 2, 3, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100};
  for (int s = 0; s < 2; s++) {
    const bool is_signed = s == 0;
    const int32_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
      for (size_t b = 0; b < sizeof ks / sizeof ks[0]; b++) {
        const int v = (int)(a * 7 + b);
        fc_case c = {
            .is_signed = is_signed,
            .per_channel = is_signed && v % 2 == 1,
            .fp32 = v % 3 != 0,
            .wide_bias = v % 5 == 0,
            .batches = 1 + v % 3,
            .n = ns[a],
            .kdim = ks[b],
            .in_zp = v % 4 == 0   ? lo
                     : v % 4 == 1 ? hi
                                  : randi(lo, hi),
            .w_zp = is_signed ? (v % 3 == 0   ? 0
                                 : v % 3 == 1 ? -128
                                              : 127)
                              : (v % 3 == 0   ? 0
                                 : v % 3 == 1 ? 255
                                              : randi(0, 255)),
            .out_zp = v % 4 == 2   ? lo
                      : v % 4 == 3 ? hi
                                   : randi(lo, hi),
            .act_min = lo,
            .act_max = hi,
            .extreme = v % 4,
        };
        if (c.per_channel) c.w_zp = 0; /* TFLite's per-channel kernels take no weights offset */
        if (v % 6 == 5) {              /* a fused activation range inside the type */
          c.act_min = c.out_zp > lo + 20 ? c.out_zp - 20 : lo;
          c.act_max = c.out_zp < hi - 30 ? c.out_zp + 30 : hi;
        }
        run_case(k, &c);
      }
    /* the largest shapes the small path takes */
    fc_case big = {.is_signed = is_signed,
                   .fp32 = true,
                   .batches = 2,
                   .n = 16,
                   .kdim = TFCC_Q8_FCS_MAX_K,
                   .in_zp = lo,
                   .w_zp = hi,
                   .out_zp = 1,
                   .act_min = lo,
                   .act_max = hi,
                   .extreme = 2};
    if (is_signed) big.w_zp = -128;
    run_case(k, &big);
    big.fp32 = false;
    big.extreme = 0;
    run_case(k, &big);
    big.n = TFCC_Q8_FCS_MAX_WEIGHTS / 128, big.kdim = 128, big.batches = 1, big.extreme = 3;
    run_case(k, &big);
  }
}

static void test_refuse(void) {
  const tfcc_q8_fcs_kernel *k = tfcc_q8_fcs_select(TFCC_ISA_GENERIC);
  static uint8_t w[TFCC_Q8_FCS_MAX_K + 1];
  int32_t m = 1 << 30, sh = 0;
  tfcc_conv_requant r = {.mult = &m, .shift = &sh, .act_min = -128, .act_max = 127};
  tfcc_q8_fcs_packed p;
  CHECK(tfcc_q8_fcs_pack(k, true, 1, TFCC_Q8_FCS_MAX_K, w, NULL, &r, &p) && p.k == k);
  tfcc_q8_fcs_packed_free(&p);
  CHECK(!tfcc_q8_fcs_pack(k, true, 1, TFCC_Q8_FCS_MAX_K + 1, w, NULL, &r, &p) && !p.k);
  CHECK(tfcc_q8_fcs_refuse(TFCC_Q8_FCS_MAX_WEIGHTS / 64 + 1, 64, w, true, &r) != NULL);
  CHECK(tfcc_q8_fcs_refuse(0, 4, w, true, &r) != NULL);
  CHECK(tfcc_q8_fcs_refuse(4, 4, NULL, true, &r) != NULL);
  r.filter_offset = 32767 - 126; /* 127 + offset overflows int16 */
  CHECK(tfcc_q8_fcs_refuse(4, 4, w, true, &r) != NULL);
  r.filter_offset = 32767 - 127;
  CHECK(tfcc_q8_fcs_refuse(4, 4, w, true, &r) == NULL);
  r.filter_offset = -32768 - 1; /* uint8 0 + offset below int16 */
  CHECK(tfcc_q8_fcs_refuse(4, 4, w, false, &r) != NULL);
  /* the call limit */
  CHECK(tfcc_q8_fcs_pack(k, true, 16, 16, w, NULL, &r, &p) == false); /* offset refused above */
  r.filter_offset = 0;
  CHECK(tfcc_q8_fcs_pack(k, true, 16, 16, w, NULL, &r, &p));
  CHECK(tfcc_q8_fcs_fits(&p, TFCC_Q8_FCS_MAX_MACS / 256));
  CHECK(!tfcc_q8_fcs_fits(&p, TFCC_Q8_FCS_MAX_MACS / 256 + 1));
  tfcc_q8_fcs_packed_free(&p);
  CHECK(!tfcc_q8_fcs_fits(&p, 1)); /* freed: not packed */
}

/* FULLY_CONNECTED with tiny shapes: the small path (constant weights) against the reference
 * kernel (the same weights not constant), bytes. */
static void test_operator(void) {
  static const int32_t shapes[][3] = {
      {1, 16, 1}, {1, 16, 16}, {1, 1, 16}, {3, 17, 33}, {2, 65, 40}};
  for (int dt = 0; dt < 2; dt++)
    for (int pc = 0; pc < 2; pc++)
      for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
        const int32_t b = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
        const bool is_signed = dt == 0, per_channel = pc == 1 && is_signed;
        if (pc == 1 && (!is_signed || n > TT_MAXQ)) continue;
        const int32_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
        const tfcc_dtype t = is_signed ? TFCC_INT8 : TFCC_UINT8;
        uint8_t *x = malloc((size_t)b * k), *w = malloc((size_t)n * k);
        int32_t *bias = malloc(sizeof(int32_t) * (size_t)n);
        for (int32_t i = 0; i < b * k; i++) x[i] = (uint8_t)randi(lo, hi);
        for (int32_t i = 0; i < n * k; i++) w[i] = (uint8_t)randi(lo, hi);
        for (int32_t i = 0; i < n; i++) bias[i] = randi(-3000, 3000);
        uint8_t *res[2] = {NULL, NULL};
        for (int run = 0; run < 2; run++) {
          tt_case c;
          memset(&c, 0, sizeof c);
          c.builtin = TFCC_OP_FULLY_CONNECTED;
          c.n_in = 3;
          const int32_t din[2] = {b, k}, dw[2] = {n, k}, db[1] = {n};
          tt_set(&c.in[0], t, 2, din, x);
          tt_q(&c.in[0], 0.05f, is_signed ? -7 : 131);
          tt_set(&c.in[1], t, 2, dw, w);
          if (per_channel) {
            c.in[1].nq = n;
            for (int32_t j = 0; j < n; j++)
              c.in[1].qs[j] = 0.01f + 0.002f * (float)j, c.in[1].qz[j] = 0;
          } else {
            tt_q(&c.in[1], 0.02f, is_signed ? 5 : 120);
          }
          c.in[1].not_const = run == 1;
          tt_set(&c.in[2], TFCC_INT32, 1, db, bias);
          tt_q(&c.in[2], 0.001f, 0);
          c.out.dtype = t;
          tt_q(&c.out, 0.15f, is_signed ? 3 : 125);
          tt_opt_i(&c, 0, TFB_U8, si % 2 ? 1 : 0); /* RELU on some */
          CHECKF(tt_run(&c, true) == TFCC_OK, "FC %dx%dx%d: %s", b, n, k, c.err.msg);
          res[run] = c.out_data;
          c.out_data = NULL;
          tt_done(&c);
        }
        if (res[0] && res[1]) {
          int bad = 0;
          for (int32_t i = 0; i < b * n; i++) bad += res[0][i] != res[1][i];
          CHECKF(bad == 0,
                 "FULLY_CONNECTED %s%s %dx%dx%d: %d bytes differ from the reference kernel",
                 is_signed ? "int8" : "uint8", per_channel ? " per-channel" : "", b, n, k, bad);
        }
        free(res[0]), free(res[1]), free(x), free(w), free(bias);
      }
}

int main(void) {
  const tfcc_isa best = tfcc_cpu_dispatch_isa(TFCC_ISA_COUNT_);
  TFCC_CHECK_SELECTS(tfcc_q8_fcs);
  CHECK(tfcc_q8_fcs_select(TFCC_ISA_GENERIC)->isa == TFCC_ISA_GENERIC);
  int tested = 0;
  for (int ki = 0; ki < tfcc_q8_fcs_kernel_count(); ki++) {
    const tfcc_q8_fcs_kernel *k = tfcc_q8_fcs_kernel_at(ki);
    if (k->feature < 0) /* the family table names the variant of each level */
      CHECK(strcmp(tfcc_kernel_variant("q8-fc-small", k->isa), k->name) == 0);
    if (!tfcc_q8_fcs_usable(k, best)) {
      printf("skip %s (CPU level %s or a CPU feature missing)\n", k->name, tfcc_isa_name(best));
      continue;
    }
    n_inner = n_total = 0;
    test_kernel(k);
    printf("%s: %zu of %zu outputs inside the activation range\n", k->name, n_inner, n_total);
    CHECK(n_inner * 3 > n_total); /* the cases test rounding, not only saturation */
    tested++;
  }
  test_refuse();
  test_operator();
  printf("%d q8-fc-small kernels tested at CPU level %s\n", tested, tfcc_isa_name(best));
  return tfcc_test_finish("test_q8_fc_small");
}

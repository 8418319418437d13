#include "kernels/kernel_families.h"

#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/f32-conv-direct/direct_conv.h"
#include "kernels/f32-dwconv/dwconv.h"
#include "kernels/f32-expand-dw/expand_dw.h"
#include "kernels/f32-gemm/gemm.h"
#include "kernels/f32-resize/resize.h"
#include "kernels/f32-vbinary/vbinary.h"
#include "kernels/f32-vunary/vunary.h"
#include "kernels/f32-winograd/winograd.h"
#include "kernels/hash/sha256.h"
#include "kernels/hybrid/fc_eigen.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/pool/pool.h"
#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/q8-fc-small/fc_small.h"
#include "kernels/q8-gemm/gemm.h"
#include "kernels/q16-dot/dot.h"
#include "kernels/q16-dwconv/dwconv.h"
#include "kernels/q16-gemm/gemm.h"
#include "kernels/q16-vbinary/vbinary.h"
#include "kernels/q8-lstm/lstm.h"
#include "kernels/q8-lut/lut.h"
#include "kernels/q8-resize/resize.h"
#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/quantize/quantize.h"
#include "kernels/reduce/reduce.h"
#include "kernels/softmax/softmax.h"

/* THE registry of kernel families: one row per family, its operators in words and where its
 * variants come from. A family with a dispatch table (kernels/dispatch_table.h) names it with
 * TABLE(prefix): its variants, their levels and the one dispatch picks are the table's own
 * rows, so a variant added to the table is listed (`tfcc cpu-info`, tfcc_kernel_family_*) and
 * tested (the per-variant loops over <prefix>_kernel_at) with no second list to edit. A
 * family without one (reference code, copies) names its single generic variant with ONE. */
typedef struct kernel_family {
  const char *name;
  const char *ops;
  int (*count)(void);                           /* table length; NULL: ONE */
  const char *(*variant)(int i, tfcc_isa *isa); /* table row i, best first */
  int (*chosen)(tfcc_isa level);                /* row dispatch takes; NULL: first that fits */
  const char *only;                             /* ONE: its variant's name */
} kernel_family;

#define TABLE(prefix) prefix##_kernel_count, prefix##_row_name, prefix##_kernel_chosen, NULL
#define TABLE_ACCESS(prefix) prefix##_kernel_count, prefix##_row_name, NULL, NULL
#define ONE(name) NULL, NULL, NULL, name

/* f32-expand-dw runs the f32-dwconv row of the level (with f32-gemm): its variants are
 * f32-dwconv's, under their own names. */
static const char *expand_dw_variant(int i, tfcc_isa *isa) {
  const tfcc_f32_dwconv_kernel *k = tfcc_f32_dwconv_kernel_at(i);
  if (!k) return NULL;
  if (isa) *isa = k->isa;
  return tfcc_f32_expand_dw_name(k);
}

/* bf16-gemm: the AVX512-BF16 / AMX rows when the CPU has them, else precision bf16 runs the
 * float32 kernels (the generic "variant"); the scalar row is an emulation for tests only. */
static int bf16_count(void) {
  int n = 1;
  for (int i = 0; i < tfcc_bf16_gemm_kernel_count(); i++)
    n += !tfcc_bf16_gemm_kernel_at(i)->test_only;
  return n;
}
static const char *bf16_variant(int i, tfcc_isa *isa) {
  if (i == bf16_count() - 1) { /* last row, listed first: the fallback */
    if (isa) *isa = TFCC_ISA_GENERIC;
    return "float32 kernels";
  }
  for (int t = 0; t < tfcc_bf16_gemm_kernel_count(); t++) {
    const tfcc_bf16_gemm_kernel *k = tfcc_bf16_gemm_kernel_at(t);
    if (k->test_only || i-- > 0) continue;
    if (isa) *isa = k->isa;
    return k->name;
  }
  return NULL;
}
static int bf16_chosen(tfcc_isa level) {
  const tfcc_bf16_gemm_kernel *k = tfcc_bf16_gemm_select(level);
  for (int i = 0; k && i < bf16_count() - 1; i++)
    if (strcmp(bf16_variant(i, NULL), k->name) == 0) return i;
  return bf16_count() - 1;
}

static const kernel_family k_families[] = {
    {"f32-gemm",
     "CONV_2D, FULLY_CONNECTED (float32: 1x1 in place, KxK through im2col; batch-1 FC "
     "through the same family's GEMV, f32-gemv-<nr>-<isa>)",
     TABLE(tfcc_f32_gemm)},
    {"f32-conv-direct",
     "CONV_2D (float32, first layers with K = Cin*KH*KW <= 160: ResNet / "
     "MobileNet stems; reads the f32-gemm packed weights)",
     TABLE_ACCESS(tfcc_f32_direct_conv)},
    {"f32-winograd", "CONV_2D (float32 3x3 stride 1: F(2,3) / F(4,3) transforms around f32-gemm)",
     TABLE(tfcc_f32_wino)},
    {"f32-dwconv", "DEPTHWISE_CONV_2D (float32)", TABLE(tfcc_f32_dwconv)},
    {"f32-expand-dw",
     "EXPAND_DEPTHWISE_CONV_2D (float32 1x1 CONV_2D fused into its "
     "DEPTHWISE_CONV_2D by the pass fuse_expand_dwconv; f32-gemm + f32-dwconv "
     "of the same level on a window of expanded rows)",
     tfcc_f32_dwconv_kernel_count, expand_dw_variant, tfcc_f32_dwconv_kernel_chosen, NULL},
    {"conv", "CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED with int16 activations or hybrid weights",
     ONE("ref")},
    {"q8-gemm",
     "CONV_2D, FULLY_CONNECTED (int8/uint8; AMX-INT8 / AVX512-VNNI / AVX-VNNI / I8MM / "
     "dot-product rows need their CPU feature)",
     TABLE(tfcc_q8_gemm)},
    {"q8-fc-small",
     "FULLY_CONNECTED (int8/uint8 tiny layers: depth <= 1024, weights <= 16384, "
     "batches x units x depth <= 16384; generic on NEON)",
     TABLE(tfcc_q8_fcs)},
    {"q8-dwconv",
     "DEPTHWISE_CONV_2D (int8/uint8, any depth multiplier; the avx512vnni row needs "
     "AVX512-VNNI)",
     TABLE(tfcc_q8_dw)},
    {"bf16-gemm",
     "CONV_2D, FULLY_CONNECTED (float32 models at precision bf16; needs AVX512-BF16, the AMX "
     "variant AMX-BF16 and the OS's permission; else float32)",
     bf16_count, bf16_variant, bf16_chosen, NULL},
    {"batch-matmul", "BATCH_MATMUL", ONE("ref")},
    {"transpose-conv", "TRANSPOSE_CONV", ONE("ref")},
    {"pool", "AVERAGE_POOL_2D, MAX_POOL_2D (float32, int8, uint8; int16 and L2_POOL_2D: ref)",
     TABLE(tfcc_pool)},
    {"f32-vbinary", "ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE, PRELU (float32)",
     TABLE(tfcc_f32_vbinary)},
    {"q8-vbinary",
     "ADD, SUB, MUL (int8/uint8, both quant modes; the avx512vnni row needs "
     "AVX512-VNNI)",
     TABLE(tfcc_q8_vbinary)},
    {"f32-resize", "RESIZE_BILINEAR (float32; the builtin order and XNNPACK's)",
     TABLE(tfcc_f32_resize)},
    {"q8-resize",
     "RESIZE_BILINEAR (int8/uint8, XNNPACK arithmetic: TFLITE mode, same in/out quantization)",
     TABLE(tfcc_q8_resize)},
    {"q8-lut",
     "LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, RELU, RELU6, RELU_N1_TO_1 (int8/uint8: 256-entry table)",
     TABLE(tfcc_q8_lut)},
    {"elementwise", "DIV (quantized), POW, FLOOR_DIV, FLOOR_MOD, comparisons, unary math",
     ONE("ref")},
    {"f32-vunary", "RELU, RELU6, RELU_N1_TO_1, LEAKY_RELU, HARD_SWISH, LOGISTIC, TANH (float32)",
     TABLE(tfcc_f32_vunary)},
    {"activation", "GELU, ELU, PRELU (8-bit), int16 activations", ONE("ref")},
    {"f32-softmax", "SOFTMAX (float32, beta >= 0; within 2e-6 relative)", TABLE(tfcc_f32_softmax)},
    {"q8-softmax",
     "SOFTMAX uint8/int8 -> same type (tfcc_softmax_q8's bytes; long rows' byte tables through "
     "q8-lut)",
     TABLE(tfcc_q8_softmax)},
    {"softmax", "LOG_SOFTMAX, SOFTMAX 8-bit -> int16 (ref)", ONE("ref")},
    {"q16-softmax", "SOFTMAX int16 -> int16 (SoftmaxInt16's tables and arithmetic, the same bits)",
     TABLE(tfcc_q16_softmax)},
    {"reduce",
     "MEAN (float32, int8, uint8, int16), quantized SUM over [outer, reduced, inner]; "
     "REDUCE_MAX, REDUCE_MIN, REDUCE_PROD and other layouts: ref",
     TABLE(tfcc_rsum)},
    {"concat",
     "CONCATENATION, SPLIT, SPLIT_V (strided block copies, any dtype; uint8 requantized "
     "inputs through q8-lut tables)",
     ONE("concat-copy")},
    {"pad", "PAD, PADV2 (constant, any dtype: one pass over the output, rows split over the pool)",
     ONE("pad-copy")},
    {"move",
     "TRANSPOSE, SLICE, STRIDED_SLICE, DEPTH_TO_SPACE, SPACE_TO_DEPTH (planned copies: merged "
     "axes, contiguous runs, blocked 2-D transposes in 16-byte vector micro-tiles; any dtype), "
     "SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND (per-block box copies), MIRROR_PAD (block copies), "
     "RESIZE_NEAREST_NEIGHBOR (pixel / row copies)",
     ONE("move")},
    {"arg", "ARG_MAX, ARG_MIN, REDUCE_MAX, REDUCE_MIN (adjacent reduced axes; branch-free selects)",
     ONE("arg-select")},
    {"q8-resize-u8-float",
     "RESIZE_BILINEAR (uint8 outside XNNPACK, e.g. align_corners: TFLite's builtin float "
     "arithmetic, column tables, compiler-vectorised channels)",
     ONE("q8-resize-u8-float")},
    {"copy", "GATHER, RESIZE_BILINEAR (int8/int16 outside XNNPACK), other shape operators",
     ONE("ref")},
    {"quantize", "QUANTIZE, DEQUANTIZE (per-tensor; builtin 8-bit requantize: quantize-lut table)",
     TABLE(tfcc_qz)},
    {"tflite-f32",
     "TensorFlow Lite's float arithmetic bit for bit: CONV_2D, DEPTHWISE_CONV_2D, "
     "FULLY_CONNECTED, BATCH_MATMUL, SOFTMAX, LOGISTIC of hybrid networks, TANH and GELU of any "
     "network, in TFLITE mode (XNNPACK's bits, no fused multiply-add); the float LSTM plan's "
     "dot products, Eigen tanh / logistic and expf (the builtin kernel's bits)",
     TABLE(tfcc_tflite_f32)},
    {"f32-fc-eigen",
     "FULLY_CONNECTED (float32 with run-time weights in hybrid networks, TFLITE mode: Eigen's "
     "GEBP order, vectorised across units, the same bits)",
     TABLE(tfcc_fc_eigen)},
    {"q16-dot",
     "CONV_2D (ungrouped, when q16-gemm's scratch is not there), FULLY_CONNECTED: int16 x int8 "
     "(16x8 quantized; exact int64 sums)",
     TABLE(tfcc_q16_dot)},
    {"q16-gemm",
     "CONV_2D (ungrouped): int16 x int8 (16x8 quantized; packed panels, register tiles, "
     "threads; exact int64 sums)",
     TABLE(tfcc_q16_gemm)},
    {"q16-dwconv", "DEPTHWISE_CONV_2D: int16 x int8 (16x8 quantized; exact int64 sums)",
     TABLE(tfcc_q16_dw)},
    {"q16-vbinary",
     "ADD, SUB: int16 with general scales (add.cc's rescaling), MUL: int16 (mul.cc; the same "
     "bits)",
     TABLE(tfcc_q16_vbinary)},
    {"lstm", "UNIDIRECTIONAL_SEQUENCE_LSTM (int8x8->16; float32 runs on f32-gemm + f32-vunary)",
     TABLE(tfcc_q8_lstm)},
    {"sha256",
     "no operator: SHA-256 of model files (weights cache source check, --verify-cache, "
     "watermarks)",
     TABLE(tfcc_sha256)},
};
#define FAMILY_COUNT ((int)(sizeof k_families / sizeof k_families[0]))

int tfcc_kernel_isa_fits(tfcc_isa need, tfcc_isa level) {
  if (need == TFCC_ISA_GENERIC) return 1;
  if ((unsigned)level >= TFCC_ISA_COUNT_) return 0;
  return tfcc_isa_level_fits(need, level);
}

static int variant_count(const kernel_family *f) { return f->count ? f->count() : 1; }

/* Variant v of f, lowest level first (tables are best first: read from the end). */
static const char *variant_at(const kernel_family *f, int v, tfcc_isa *isa) {
  const int n = variant_count(f);
  if (v < 0 || v >= n) return NULL;
  if (!f->count) {
    if (isa) *isa = TFCC_ISA_GENERIC;
    return f->only;
  }
  return f->variant(n - 1 - v, isa);
}

/* The variant of f dispatch takes at level (lowest-first index). */
static int chosen(const kernel_family *f, tfcc_isa level) {
  const int n = variant_count(f);
  if (!f->count) return 0;
  if (f->chosen) return n - 1 - f->chosen(level);
  for (int r = 0; r < n; r++) { /* best first: the first row that fits */
    tfcc_isa isa = TFCC_ISA_GENERIC;
    f->variant(r, &isa);
    if (tfcc_kernel_isa_fits(isa, level)) return n - 1 - r;
  }
  return 0;
}

const char *tfcc_kernel_variant(const char *family, tfcc_isa level) {
  if (!family) return NULL;
  for (int i = 0; i < FAMILY_COUNT; i++)
    if (strcmp(k_families[i].name, family) == 0)
      return variant_at(&k_families[i], chosen(&k_families[i], level), NULL);
  return NULL;
}

int tfcc_kernel_family_count(void) { return FAMILY_COUNT; }

tfcc_status tfcc_kernel_family_get(int index, tfcc_isa level, tfcc_kernel_family *out) {
  if (!out || index < 0 || index >= FAMILY_COUNT || (unsigned)level >= TFCC_ISA_COUNT_)
    return TFCC_ERR_INVALID_ARG;
  const kernel_family *f = &k_families[index];
  memset(out, 0, sizeof *out);
  out->name = f->name;
  out->ops = f->ops;
  out->variant_count = variant_count(f);
  out->variant = variant_at(f, chosen(f, level), &out->variant_isa);
  return TFCC_OK;
}

tfcc_status tfcc_kernel_family_variant(int index, int variant, const char **name, tfcc_isa *isa) {
  if (index < 0 || index >= FAMILY_COUNT) return TFCC_ERR_INVALID_ARG;
  tfcc_isa visa = TFCC_ISA_GENERIC;
  const char *vname = variant_at(&k_families[index], variant, &visa);
  if (!vname) return TFCC_ERR_INVALID_ARG;
  if (name) *name = vname;
  if (isa) *isa = visa;
  return TFCC_OK;
}

/* ---- gated variants (AMX): the families' dispatch tables say whether and why not ---- */
#if defined(__x86_64__)
static const tfcc_q8_gemm_kernel *q8_amx(void) {
  for (int i = 0; i < tfcc_q8_gemm_kernel_count(); i++)
    if (tfcc_q8_gemm_is_amx(tfcc_q8_gemm_kernel_at(i))) return tfcc_q8_gemm_kernel_at(i);
  return NULL;
}

static const tfcc_bf16_gemm_kernel *bf16_amx(void) {
  for (int i = 0; i < tfcc_bf16_gemm_kernel_count(); i++)
    if (tfcc_bf16_gemm_kernel_at(i)->amx) return tfcc_bf16_gemm_kernel_at(i);
  return NULL;
}

/* The AMX kernels' listing: family, name and what they need; both run at the avx512
 * dispatch level. */
static void gated_amx(tfcc_kernel_gated *out, const char *family, const char *name,
                      const char *needs) {
  out->family = family;
  out->name = name;
  out->isa = TFCC_ISA_AVX512;
  out->needs = needs;
}

static void gated_q8(tfcc_isa level, tfcc_kernel_gated *out) {
  const tfcc_q8_gemm_kernel *k = q8_amx();
  gated_amx(out, "q8-gemm", k ? k->name : "q8-gemm-16x64-amxint8",
            "AMX-TILE + AMX-INT8 (cpuid), tile state in XCR0, Linux's tile permission, "
            "AVX512-VNNI; taken per layer for depth >= 256 and >= 16 rows (TFCC_AMX=off: never)");
  out->reason = k ? tfcc_q8_gemm_unavailable(k, level) : "not in this build";
}

static void gated_bf16(tfcc_isa level, tfcc_kernel_gated *out) {
  const tfcc_bf16_gemm_kernel *k = bf16_amx();
  const tfcc_cpu_info *c = tfcc_cpu();
  gated_amx(out, "bf16-gemm", k ? k->name : "bf16-gemm-16x32-amxbf16",
            "precision bf16; AMX-TILE + AMX-BF16 (cpuid), tile state in XCR0, Linux's tile "
            "permission, AVX512-BF16");
  if (!k)
    out->reason = "not in this build";
  else if (!tfcc_isa_level_fits(k->isa, level))
    out->reason = "the dispatch level is below avx512 (CPU or TFCC_ISA cap)";
  else
    out->reason = tfcc_cpu_amx_unusable(TFCC_CPU_AMXBF16);
  if (!out->reason && k && !tfcc_bf16_gemm_runnable(k))
    out->reason = tfcc_cpu_has(c, TFCC_CPU_AVX512BF16) ? "the CPU lacks a feature it needs"
                                                       : "the CPU has no AVX512-BF16";
}

static void (*const k_gated[])(tfcc_isa, tfcc_kernel_gated *) = {gated_q8, gated_bf16};
#define GATED_COUNT ((int)(sizeof k_gated / sizeof k_gated[0]))
#else
static void (*const k_gated[1])(tfcc_isa, tfcc_kernel_gated *) = {NULL};
#define GATED_COUNT 0
#endif

int tfcc_kernel_gated_count(void) { return GATED_COUNT; }

tfcc_status tfcc_kernel_gated_get(int index, tfcc_isa level, tfcc_kernel_gated *out) {
  if (!out || index < 0 || index >= GATED_COUNT || (unsigned)level >= TFCC_ISA_COUNT_)
    return TFCC_ERR_INVALID_ARG;
  memset(out, 0, sizeof *out);
  k_gated[index](level, out);
  out->available = out->reason == NULL;
  return TFCC_OK;
}

tfcc_isa tfcc_isa_dispatch_level(tfcc_isa cap) { return tfcc_cpu_dispatch_isa(cap); }

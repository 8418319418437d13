#include "kernels/kernel_families.h"

#include <string.h>

#include "cpu/cpu_info.h"
#include "kernels/bf16-gemm/gemm.h"
#include "kernels/q8-gemm/gemm.h"

#define TFCC_KERNEL_MAX_VARIANTS 8 /* per family in this table; the API lists them one by one */

typedef struct kernel_variant {
  tfcc_isa isa;
  const char *name;
} kernel_variant;

typedef struct kernel_family {
  const char *name;
  const char *ops;
  kernel_variant variants[TFCC_KERNEL_MAX_VARIANTS]; /* lowest ISA first; ends at name NULL */
} kernel_family;

/* THE table. One row per family; within a row, one {isa, name} per variant, lowest ISA first.
 * Add a variant here when you add its file (e.g. {TFCC_ISA_AVX512, "f32-gemm-12x32-avx512"});
 * variants that need a CPU feature beyond the ISA level are named in the operators text, gated
 * ones (AMX) in the gated table below. */
static const kernel_family k_families[] = {
    {"f32-gemm", "CONV_2D, FULLY_CONNECTED (float32: 1x1 in place, KxK through im2col; batch-1 FC "
                 "through the same family's GEMV, f32-gemv-<nr>-<isa>)",
     {{TFCC_ISA_GENERIC, "f32-gemm-4x8-scalar"},
      {TFCC_ISA_SSE4, "f32-gemm-4x8-sse4"},
      {TFCC_ISA_AVX2, "f32-gemm-6x16-avx2"},
      {TFCC_ISA_AVX512, "f32-gemm-12x32-avx512"},
      {TFCC_ISA_NEON, "f32-gemm-8x8-neon"},
      {TFCC_ISA_WASMSIMD, "f32-gemm-4x8-wasmsimd"}}},
    {"f32-conv-direct", "CONV_2D (float32, first layers with K = Cin*KH*KW <= 160: ResNet / "
                        "MobileNet stems; reads the f32-gemm packed weights)",
     {{TFCC_ISA_GENERIC, "f32-conv-direct-8-scalar"},
      {TFCC_ISA_SSE4, "f32-conv-direct-8-sse4"},
      {TFCC_ISA_AVX2, "f32-conv-direct-16-avx2"},
      {TFCC_ISA_AVX512, "f32-conv-direct-32-avx512"},
      {TFCC_ISA_NEON, "f32-conv-direct-8-neon"},
      {TFCC_ISA_WASMSIMD, "f32-conv-direct-8-wasmsimd"}}},
    {"f32-dwconv", "DEPTHWISE_CONV_2D (float32)",
     {{TFCC_ISA_GENERIC, "f32-dwconv-scalar"},
      {TFCC_ISA_SSE4, "f32-dwconv-sse4"},
      {TFCC_ISA_AVX2, "f32-dwconv-avx2"},
      {TFCC_ISA_AVX512, "f32-dwconv-avx512"},
      {TFCC_ISA_NEON, "f32-dwconv-neon"},
      {TFCC_ISA_WASMSIMD, "f32-dwconv-wasmsimd"}}},
    {"f32-expand-dw", "EXPAND_DEPTHWISE_CONV_2D (float32 1x1 CONV_2D fused into its "
                      "DEPTHWISE_CONV_2D by the pass fuse_expand_dwconv; f32-gemm + f32-dwconv "
                      "of the same level on a window of expanded rows)",
     {{TFCC_ISA_GENERIC, "f32-expand-dw-scalar"},
      {TFCC_ISA_SSE4, "f32-expand-dw-sse4"},
      {TFCC_ISA_AVX2, "f32-expand-dw-avx2"},
      {TFCC_ISA_AVX512, "f32-expand-dw-avx512"},
      {TFCC_ISA_NEON, "f32-expand-dw-neon"},
      {TFCC_ISA_WASMSIMD, "f32-expand-dw-wasmsimd"}}},
    {"conv", "CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED with int16 activations or hybrid weights",
     {{TFCC_ISA_GENERIC, "ref"}}},
    {"q8-gemm", "CONV_2D, FULLY_CONNECTED (int8/uint8; avx512 variant needs AVX512-VNNI, else avx2; "
                "avx2 runs q8-gemm-6x16-avxvnni on CPUs with AVX-VNNI; neon runs q8-gemm-8x8-neoni8mm on CPUs with I8MM)",
     {{TFCC_ISA_GENERIC, "q8-gemm-4x16-scalar"},
      {TFCC_ISA_AVX2, "q8-gemm-4x8-avx2"},
      {TFCC_ISA_AVX512, "q8-gemm-14x32-avx512vnni"},
      {TFCC_ISA_NEON, "q8-gemm-8x8-neondot"},
      {TFCC_ISA_WASMSIMD, "q8-gemm-4x8-wasmsimd"}}},
    {"q8-fc-small", "FULLY_CONNECTED (int8/uint8 tiny layers: depth <= 1024, weights <= 16384, "
                    "batches x units x depth <= 16384; generic on NEON)",
     {{TFCC_ISA_GENERIC, "q8-fc-small-scalar"},
      {TFCC_ISA_AVX2, "q8-fc-small-8-avx2"},
      {TFCC_ISA_AVX512, "q8-fc-small-16-avx512"}}},
    {"q8-dwconv", "DEPTHWISE_CONV_2D (int8/uint8, any depth multiplier; avx512 runs "
                  "q8-dwconv-64-avx512vnni on CPUs with AVX512-VNNI)",
     {{TFCC_ISA_GENERIC, "q8-dwconv-scalar"},
      {TFCC_ISA_AVX2, "q8-dwconv-8-avx2"},
      {TFCC_ISA_AVX512, "q8-dwconv-16-avx512"},
      {TFCC_ISA_NEON, "q8-dwconv-8-neon"},
      {TFCC_ISA_WASMSIMD, "q8-dwconv-8-wasmsimd"}}},
    {"bf16-gemm",
     "CONV_2D, FULLY_CONNECTED (float32 models at precision bf16; needs AVX512-BF16, the AMX "
     "variant AMX-BF16 and the OS's permission; else float32)",
     {{TFCC_ISA_GENERIC, "float32 kernels"},
      {TFCC_ISA_AVX512, "bf16-gemm-8x32-avx512bf16"}}},
    {"batch-matmul", "BATCH_MATMUL", {{TFCC_ISA_GENERIC, "ref"}}},
    {"transpose-conv", "TRANSPOSE_CONV", {{TFCC_ISA_GENERIC, "ref"}}},
    {"pool", "AVERAGE_POOL_2D, MAX_POOL_2D (float32, int8, uint8; int16 and L2_POOL_2D: ref)",
     {{TFCC_ISA_GENERIC, "pool-scalar"},
      {TFCC_ISA_SSE4, "pool-sse4"},
      {TFCC_ISA_AVX2, "pool-avx2"},
      {TFCC_ISA_AVX512, "pool-avx512"},
      {TFCC_ISA_NEON, "pool-neon"},
      {TFCC_ISA_WASMSIMD, "pool-wasmsimd"}}},
    {"f32-vbinary", "ADD, SUB, MUL, DIV, MAXIMUM, MINIMUM, SQUARED_DIFFERENCE, PRELU (float32)",
     {{TFCC_ISA_GENERIC, "f32-vbinary-scalar"},
      {TFCC_ISA_AVX2, "f32-vbinary-avx2"},
      {TFCC_ISA_AVX512, "f32-vbinary-avx512"},
      {TFCC_ISA_NEON, "f32-vbinary-neon"},
      {TFCC_ISA_WASMSIMD, "f32-vbinary-wasmsimd"}}},
    {"q8-vbinary", "ADD, SUB, MUL (int8/uint8, both quant modes; avx512vnni on CPUs with AVX512-VNNI)",
     {{TFCC_ISA_GENERIC, "q8-vbinary-scalar"},
      {TFCC_ISA_AVX2, "q8-vbinary-avx2"},
      {TFCC_ISA_AVX512, "q8-vbinary-avx512"},
      {TFCC_ISA_NEON, "q8-vbinary-neon"}}},
    {"f32-resize", "RESIZE_BILINEAR (float32)",
     {{TFCC_ISA_GENERIC, "f32-resize-scalar"},
      {TFCC_ISA_AVX2, "f32-resize-avx2"},
      {TFCC_ISA_AVX512, "f32-resize-avx512"},
      {TFCC_ISA_NEON, "f32-resize-neon"},
      {TFCC_ISA_WASMSIMD, "f32-resize-wasmsimd"}}},
    {"q8-resize", "RESIZE_BILINEAR (int8/uint8, XNNPACK arithmetic: TFLITE mode, same in/out quantization)",
     {{TFCC_ISA_GENERIC, "q8-resize-scalar"},
      {TFCC_ISA_AVX2, "q8-resize-avx2"},
      {TFCC_ISA_AVX512, "q8-resize-avx512"},
      {TFCC_ISA_NEON, "q8-resize-neon"}}},
    {"q8-lut", "LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU, RELU, RELU6, RELU_N1_TO_1 (int8/uint8: 256-entry table)",
     {{TFCC_ISA_GENERIC, "q8-lut-scalar"},
      {TFCC_ISA_AVX2, "q8-lut-32-avx2"},
      {TFCC_ISA_AVX512, "q8-lut-64-avx512"},
      {TFCC_ISA_NEON, "q8-lut-16-neon"}}},
    {"elementwise", "DIV (quantized), POW, FLOOR_DIV, FLOOR_MOD, comparisons, unary math",
     {{TFCC_ISA_GENERIC, "ref"}}},
    {"f32-vunary", "RELU, RELU6, RELU_N1_TO_1, LEAKY_RELU, HARD_SWISH, LOGISTIC, TANH (float32)",
     {{TFCC_ISA_GENERIC, "f32-vunary-scalar"},
      {TFCC_ISA_AVX2, "f32-vunary-avx2"},
      {TFCC_ISA_AVX512, "f32-vunary-avx512"},
      {TFCC_ISA_NEON, "f32-vunary-neon"},
      {TFCC_ISA_WASMSIMD, "f32-vunary-wasmsimd"}}},
    {"activation", "GELU, ELU, PRELU (8-bit), int16 activations",
     {{TFCC_ISA_GENERIC, "ref"}}},
    {"f32-softmax", "SOFTMAX (float32, beta >= 0; within 2e-6 relative)",
     {{TFCC_ISA_GENERIC, "f32-softmax-scalar"},
      {TFCC_ISA_AVX2, "f32-softmax-avx2"},
      {TFCC_ISA_AVX512, "f32-softmax-avx512"},
      {TFCC_ISA_NEON, "f32-softmax-neon"},
      {TFCC_ISA_WASMSIMD, "f32-softmax-wasmsimd"}}},
    {"softmax", "SOFTMAX uint8/int8 -> same type (q8-softmax: exact, tables through q8-lut), "
                "int16 and LOG_SOFTMAX (ref)",
     {{TFCC_ISA_GENERIC, "ref"}}},
    {"reduce", "MEAN (float32, int8, uint8, int16), quantized SUM over [outer, reduced, inner]; "
               "REDUCE_MAX, REDUCE_MIN, REDUCE_PROD and other layouts: ref",
     {{TFCC_ISA_GENERIC, "reduce-scalar"},
      {TFCC_ISA_SSE4, "reduce-sse4"},
      {TFCC_ISA_AVX2, "reduce-avx2"},
      {TFCC_ISA_AVX512, "reduce-avx512"},
      {TFCC_ISA_NEON, "reduce-neon"},
      {TFCC_ISA_WASMSIMD, "reduce-wasmsimd"}}},
    {"concat", "CONCATENATION, SPLIT, SPLIT_V (strided block copies, any dtype; uint8 requantized "
               "inputs through q8-lut tables)",
     {{TFCC_ISA_GENERIC, "concat-copy"}}},
    {"pad", "PAD, PADV2 (constant, any dtype: one pass over the output, rows split over the pool)",
     {{TFCC_ISA_GENERIC, "pad-copy"}}},
    {"copy", "TRANSPOSE, SLICE, GATHER, RESIZE_*, MIRROR_PAD", {{TFCC_ISA_GENERIC, "ref"}}},
    {"quantize", "QUANTIZE, DEQUANTIZE (per-tensor; builtin 8-bit requantize: quantize-lut table)",
     {{TFCC_ISA_GENERIC, "quantize-scalar"},
      {TFCC_ISA_SSE4, "quantize-sse4"},
      {TFCC_ISA_AVX2, "quantize-avx2"},
      {TFCC_ISA_AVX512, "quantize-avx512"},
      {TFCC_ISA_NEON, "quantize-neon"},
      {TFCC_ISA_WASMSIMD, "quantize-wasmsimd"}}},
    {"lstm", "UNIDIRECTIONAL_SEQUENCE_LSTM (int8x8->16; float32 runs on f32-gemm + f32-vunary)",
     {{TFCC_ISA_GENERIC, "ref"},
      {TFCC_ISA_SSE4, "q8-lstm-sse4"},
      {TFCC_ISA_AVX2, "q8-lstm-avx2"},
      {TFCC_ISA_AVX512, "q8-lstm-avx512"},
      {TFCC_ISA_NEON, "q8-lstm-neon"}}},
};
#define FAMILY_COUNT ((int)(sizeof k_families / sizeof k_families[0]))

int tfcc_kernel_isa_fits(tfcc_isa need, tfcc_isa level) {
  if (need == TFCC_ISA_GENERIC) return 1;
  if ((unsigned)level >= TFCC_ISA_COUNT_) return 0;
  return tfcc_isa_level_fits(need, level);
}

/* Index of the chosen variant of f at level (0 if none fits: the first row is the fallback). */
static int chosen(const kernel_family *f, tfcc_isa level) {
  int best = 0;
  for (int v = 0; v < TFCC_KERNEL_MAX_VARIANTS && f->variants[v].name; v++)
    if (tfcc_kernel_isa_fits(f->variants[v].isa, level)) best = v;
  return best;
}

const char *tfcc_kernel_variant(const char *family, tfcc_isa level) {
  if (!family) return NULL;
  for (int i = 0; i < FAMILY_COUNT; i++)
    if (strcmp(k_families[i].name, family) == 0) return k_families[i].variants[chosen(&k_families[i], level)].name;
  return NULL;
}

int tfcc_kernel_family_count(void) { return FAMILY_COUNT; }

tfcc_status tfcc_kernel_family_get(int index, tfcc_isa level, tfcc_kernel_family *out) {
  if (!out || index < 0 || index >= FAMILY_COUNT || (unsigned)level >= TFCC_ISA_COUNT_) return TFCC_ERR_INVALID_ARG;
  const kernel_family *f = &k_families[index];
  memset(out, 0, sizeof *out);
  out->name = f->name;
  out->ops = f->ops;
  for (int v = 0; v < TFCC_KERNEL_MAX_VARIANTS && f->variants[v].name; v++) out->variant_count = v + 1;
  int c = chosen(f, level);
  out->variant = f->variants[c].name;
  out->variant_isa = f->variants[c].isa;
  return TFCC_OK;
}

tfcc_status tfcc_kernel_family_variant(int index, int variant, const char **name, tfcc_isa *isa) {
  if (index < 0 || index >= FAMILY_COUNT || variant < 0 || variant >= TFCC_KERNEL_MAX_VARIANTS ||
      !k_families[index].variants[variant].name)
    return TFCC_ERR_INVALID_ARG;
  if (name) *name = k_families[index].variants[variant].name;
  if (isa) *isa = k_families[index].variants[variant].isa;
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

static void gated_q8(tfcc_isa level, tfcc_kernel_gated *out) {
  const tfcc_q8_gemm_kernel *k = q8_amx();
  out->family = "q8-gemm";
  out->name = k ? k->name : "q8-gemm-16x64-amxint8";
  out->isa = TFCC_ISA_AVX512;
  out->needs = "AMX-TILE + AMX-INT8 (cpuid), tile state in XCR0, Linux's tile permission, "
               "AVX512-VNNI; taken per layer for depth >= 256 and >= 16 rows (TFCC_AMX=off: never)";
  out->reason = k ? tfcc_q8_gemm_unavailable(k, level) : "not in this build";
}

static void gated_bf16(tfcc_isa level, tfcc_kernel_gated *out) {
  const tfcc_bf16_gemm_kernel *k = bf16_amx();
  const tfcc_cpu_info *c = tfcc_cpu();
  out->family = "bf16-gemm";
  out->name = k ? k->name : "bf16-gemm-16x32-amxbf16";
  out->isa = TFCC_ISA_AVX512;
  out->needs = "precision bf16; AMX-TILE + AMX-BF16 (cpuid), tile state in XCR0, Linux's tile "
               "permission, AVX512-BF16";
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

/*
 * tfcc: a TensorFlow Lite inference engine in C.
 *
 * The one public header. Three handles:
 *   tfcc_runtime  created once per process (threads, affinity, memory pool, logging).
 *   tfcc_model    a loaded .tflite file: immutable, reference counted, shared by any number
 *                 of sessions on any number of threads.
 *   tfcc_session  per-caller execution state (one arena, one plan). One thread at a time.
 *
 * Conventions
 *   - Every fallible call returns a tfcc_status. TFCC_OK is 0.
 *   - The detailed message of the last failure is kept on the handle that failed
 *     (tfcc_session_last_error) or, for calls that create a handle, in a per-thread slot
 *     read with tfcc_last_error(). Messages name the cause, e.g.
 *     "tensor 12: buffer 7 holds 300 bytes, shape [1,10,10] float32 needs 400".
 *   - Options structs are filled by tfcc_<x>_options_default() and carry their size so fields
 *     can be added without breaking callers.
 *   - Nothing in this library aborts, exits or asserts on user input.
 */
#ifndef TFCC_TFCC_H
#define TFCC_TFCC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TFCC_CUSTOM_OPS_PLUGIN)
/* compiling a custom-operator plugin (tfcc/tfcc_plugin.h): the API is reached through the
 * host's tfcc_custom_api table, by definitions inside the plugin */
#define TFCC_API __attribute__((visibility("hidden")))
#elif defined(_WIN32)
#define TFCC_API
#else
#define TFCC_API __attribute__((visibility("default")))
#endif

#define TFCC_VERSION_MAJOR 0
#define TFCC_VERSION_MINOR 1
#define TFCC_VERSION_PATCH 0

/* Largest tensor rank tfcc handles. */
#define TFCC_MAX_DIMS 8

/* ---------------------------------------------------------------- status */

/* X(name, text): the one table of status codes. */
#define TFCC_STATUS_LIST(X) \
  X(OK, "ok") \
  X(ERR_INVALID_ARG, "invalid argument") \
  X(ERR_INVALID_MODEL, "invalid model") \
  X(ERR_UNSUPPORTED, "unsupported") \
  X(ERR_NO_MEMORY, "out of memory") \
  X(ERR_IO, "i/o error") \
  X(ERR_SHAPE, "shape mismatch") \
  X(ERR_DTYPE, "dtype mismatch") \
  X(ERR_NOT_FOUND, "not found") \
  X(ERR_STATE, "invalid state") \
  X(ERR_RUNTIME, "runtime error") \
  X(ERR_INTEGRITY, "integrity check failed") \
  X(ERR_BUFFER_TOO_SMALL, "output buffer too small") \
  X(ERR_DEADLINE, "run deadline exceeded") \
  X(ERR_CANCELLED, "run cancelled")

typedef enum tfcc_status {
#define TFCC_STATUS_ENUM_(name, text) TFCC_##name,
  TFCC_STATUS_LIST(TFCC_STATUS_ENUM_)
#undef TFCC_STATUS_ENUM_
      TFCC_STATUS_COUNT_
} tfcc_status;

/* Static text of a status ("invalid model"). Never NULL. */
TFCC_API const char *tfcc_status_str(tfcc_status s);

/* Message of the last failed handle-creating call on this thread ("" if none).
 * Valid until the next tfcc call on this thread. */
TFCC_API const char *tfcc_last_error(void);

/* "0.1.0" */
TFCC_API const char *tfcc_version(void);

/* ---------------------------------------------------------------- dtypes */

/* Values equal TensorFlow Lite's TensorType enum. */
typedef enum tfcc_dtype {
  TFCC_FLOAT32 = 0,
  TFCC_FLOAT16 = 1,
  TFCC_INT32 = 2,
  TFCC_UINT8 = 3,
  TFCC_INT64 = 4,
  TFCC_STRING = 5,
  TFCC_BOOL = 6,
  TFCC_INT16 = 7,
  TFCC_COMPLEX64 = 8,
  TFCC_INT8 = 9,
  TFCC_FLOAT64 = 10,
  TFCC_COMPLEX128 = 11,
  TFCC_UINT64 = 12,
  TFCC_RESOURCE = 13,
  TFCC_VARIANT = 14,
  TFCC_UINT32 = 15,
  TFCC_UINT16 = 16,
  TFCC_INT4 = 17,
  TFCC_BFLOAT16 = 18,
  TFCC_INT2 = 19,          /* held one value per byte, sign-extended, [-2, 1] */
  TFCC_UINT4 = 20,         /* held one value per byte, [0, 15] */
  TFCC_FLOAT8_E4M3FN = 21, /* raw bytes: 1 sign, 4 exponent (bias 7), 3 mantissa; no inf */
  TFCC_FLOAT8_E5M2 = 22,   /* raw bytes: 1 sign, 5 exponent (bias 15), 2 mantissa */
  TFCC_DTYPE_COUNT_
} tfcc_dtype;

/* "float32", "uint8", ... ("unknown" for values out of range). */
TFCC_API const char *tfcc_dtype_name(tfcc_dtype t);
/* Bytes per element; 0 for types without a fixed size (string, resource, variant). int4: 1,
 * tfcc holds int4 tensors one value per byte, sign-extended (TFLite packs two per byte in files
 * and in its own buffers; tfcc unpacks them at load, as TFLite's Python API hands them out).
 * int2 and uint4 likewise (1: one value per byte; TFLite packs four / two per byte); float8: 1. */
TFCC_API size_t tfcc_dtype_size(tfcc_dtype t);

/* ---------------------------------------------------------------- logging */

typedef enum tfcc_log_level {
  TFCC_LOG_ERROR = 0,
  TFCC_LOG_WARN = 1,
  TFCC_LOG_INFO = 2,
  TFCC_LOG_DEBUG = 3
} tfcc_log_level;

/* tag is a short grep-able word (KERNEL_FALLBACK, MEM_ALLOC_FAIL, MODEL_INVALID, ...).
 * Called from any thread that hits the event; must be thread-safe. */
typedef void (*tfcc_log_fn)(void *user, tfcc_log_level level, const char *tag, const char *message);

/* ---------------------------------------------------------------- CPU */

/* CPU features tfcc dispatches on (bit numbers of tfcc_cpu_info.flags). */
/* a macro list that clang-format 14 rewraps differently on each pass: */
/* clang-format off */
#define TFCC_CPU_FEATURE_LIST(X)                                               \
  X(SSE41, "sse4.1") X(AVX, "avx") X(AVX2, "avx2") X(FMA, "fma") X(F16C, "f16c") \
  X(AVX512F, "avx512f") X(AVX512BW, "avx512bw") X(AVX512VL, "avx512vl")        \
  X(AVX512DQ, "avx512dq") X(AVX512VNNI, "avx512_vnni") X(AVXVNNI, "avx_vnni")   \
  X(AVX512BF16, "avx512_bf16") X(AVX512FP16, "avx512_fp16")                    \
  X(AMXTILE, "amx_tile") X(AMXINT8, "amx_int8") X(AMXBF16, "amx_bf16")          \
  X(NEON, "neon") X(DOTPROD, "dotprod") X(FP16ARITH, "fp16") X(I8MM, "i8mm")     \
  X(SVE, "sve") X(SHA256, "sha256")
/* clang-format on */

typedef enum tfcc_cpu_feature {
#define TFCC_CPU_FEATURE_ENUM_(name, text) TFCC_CPU_##name,
  TFCC_CPU_FEATURE_LIST(TFCC_CPU_FEATURE_ENUM_)
#undef TFCC_CPU_FEATURE_ENUM_
      TFCC_CPU_FEATURE_COUNT_
} tfcc_cpu_feature;

/* Kernel dispatch levels, lowest first. The values are stable: a new level is added at the end
 * (before TFCC_ISA_COUNT_, which therefore grows and is not for use as a value across
 * versions: ask for "no cap" with TFCC_ISA_NO_CAP). */
typedef enum tfcc_isa {
  TFCC_ISA_GENERIC = 0,
  TFCC_ISA_SSE4 = 1,
  TFCC_ISA_AVX2 = 2,     /* AVX2 + FMA + F16C */
  TFCC_ISA_AVX512 = 3,   /* AVX-512 F/BW/VL/DQ */
  TFCC_ISA_NEON = 4,     /* aarch64 */
  TFCC_ISA_WASMSIMD = 5, /* WebAssembly SIMD128 (a build with -msimd128) */
  TFCC_ISA_COUNT_,
  TFCC_ISA_NO_CAP = 255 /* tfcc_isa_dispatch_level(): no cap (the CPU's best) */
} tfcc_isa;

typedef struct tfcc_cpu_info {
  char vendor[16];
  char brand[64];
  char arch[16];      /* "x86_64", "aarch64", "wasm32" */
  uint64_t flags;     /* 1 << TFCC_CPU_* for usable features (OS state enabled) */
  int logical_cpus;   /* online */
  int physical_cores; /* 0 if unknown */
  int numa_nodes;
  size_t l1d_bytes, l2_bytes, l3_bytes; /* per core (L1/L2) and per package/CCX (L3); 0 unknown */
  int amx_permitted;                    /* Linux granted AMX tile state to this process */
  tfcc_isa best_isa;                    /* what the CPU supports */
} tfcc_cpu_info;

/* Fingerprint of this CPU (cached after the first call; thread-safe). */
TFCC_API tfcc_status tfcc_cpu_info_get(tfcc_cpu_info *info);
/* "avx2", ... for a feature; "?" if out of range. */
TFCC_API const char *tfcc_cpu_feature_name(tfcc_cpu_feature f);
/* "generic", "sse4", "avx2", "avx512", "neon", "wasmsimd". */
TFCC_API const char *tfcc_isa_name(tfcc_isa isa);
/* Parses an ISA cap name; TFCC_ERR_INVALID_ARG if unknown. */
TFCC_API tfcc_status tfcc_isa_parse(const char *name, tfcc_isa *isa);
/* The level kernels are dispatched at under a cap (what tfcc_runtime_create does with
 * options.isa / TFCC_ISA): the CPU's best, never raised by the cap. TFCC_ISA_NO_CAP (or any
 * value past the last level) = no cap. */
TFCC_API tfcc_isa tfcc_isa_dispatch_level(tfcc_isa cap);

/* Kernel families and the variant dispatch picks for each at a level (for `tfcc cpu-info`,
 * `tfcc bench`). Strings are static. */
typedef struct tfcc_kernel_family {
  const char *name;     /* "f32-gemm" */
  const char *ops;      /* operators it serves ("CONV_2D 1x1, FULLY_CONNECTED (float32)") */
  const char *variant;  /* the variant chosen at the level asked ("ref", "f32-gemm-8x32-avx512") */
  tfcc_isa variant_isa; /* the ISA level that variant needs */
  int variant_count;    /* every variant, lowest ISA first: tfcc_kernel_family_variant() */
} tfcc_kernel_family;
TFCC_API int tfcc_kernel_family_count(void);
/* Family `index` (0..count-1) as dispatched at `level` (e.g. tfcc_isa_dispatch_level(cap)). */
TFCC_API tfcc_status tfcc_kernel_family_get(int index, tfcc_isa level, tfcc_kernel_family *out);
/* Variant `variant` (0..variant_count-1, lowest ISA first) of family `index`: its name and the
 * level it needs (either pointer may be NULL). */
TFCC_API tfcc_status tfcc_kernel_family_variant(int index, int variant, const char **name,
                                                tfcc_isa *isa);

/* Kernel variants that need more than an ISA level: CPU features and the OS's permission (AMX
 * tiles). Dispatch takes one (in place of its family's variant above) only when `available`;
 * else `reason` names what is missing here (cpuid, XCR0, Linux's tile permission, the level).
 * For `tfcc cpu-info`. Strings are static. */
typedef struct tfcc_kernel_gated {
  const char *family; /* "q8-gemm" */
  const char *name;   /* "q8-gemm-16x64-amxint8" */
  tfcc_isa isa;       /* the level it needs */
  const char *needs;  /* what else it needs, in words */
  int available;      /* dispatch takes it at the level asked */
  const char *reason; /* NULL when available, else why not */
} tfcc_kernel_gated;
TFCC_API int tfcc_kernel_gated_count(void);
/* Gated variant `index` (0..count-1) at `level` (e.g. tfcc_isa_dispatch_level(cap)). */
TFCC_API tfcc_status tfcc_kernel_gated_get(int index, tfcc_isa level, tfcc_kernel_gated *out);

/* ---------------------------------------------------------------- runtime */

typedef struct tfcc_runtime tfcc_runtime;

typedef struct tfcc_runtime_options {
  size_t struct_size;      /* sizeof(tfcc_runtime_options), set by _default() */
  int num_threads;         /* worker threads incl. the caller; 0 = all online CPUs */
  const int *cpu_affinity; /* optional: CPU ids to pin workers to (copied) */
  int cpu_affinity_count;
  size_t memory_pool_bytes; /* arena pool to reserve up front; 0 = grow on demand */
  int huge_pages;           /* 1: try MAP_HUGETLB, then MADV_HUGEPAGE for arenas */
  tfcc_log_level log_level; /* default TFCC_LOG_WARN */
  tfcc_log_fn log_fn;       /* NULL: log to stderr */
  void *log_user;
  const char *isa; /* cap kernel dispatch: "generic", "sse4", "avx2", "avx512";
                                 NULL: env TFCC_ISA, else the best the CPU has (copied) */
  /* Where models run (docs/cuda.md): NULL or "cpu" (default; env TFCC_DEVICE when NULL), or
   * "cuda": an NVIDIA GPU through libtfcc_cuda (loaded at run time from beside libtfcc, or
   * env TFCC_CUDA_LIBRARY). Every node the GPU backend runs goes there, the others run on the
   * CPU (one KERNEL_FALLBACK line per model names them). tfcc_runtime_create fails, naming
   * the cause, when the library, the driver or the device is missing. */
  const char *device;
  int device_id; /* GPU ordinal (default 0) */
} tfcc_runtime_options;

TFCC_API void tfcc_runtime_options_default(tfcc_runtime_options *opts);

/* Creates a runtime. opts may be NULL (defaults). The runtime must outlive every model
 * loaded with it. On failure *out is NULL and tfcc_last_error() says why. */
TFCC_API tfcc_status tfcc_runtime_create(const tfcc_runtime_options *opts, tfcc_runtime **out);
/* Frees the runtime. NULL is a no-op. */
TFCC_API void tfcc_runtime_destroy(tfcc_runtime *rt);
/* Writes one line through the runtime's logger (its level and callback; rt NULL: stderr at
 * TFCC_LOG_WARN), for libraries built on tfcc (libtfcc_crypto). tag: a short grep-able word. */
/* A description of the accelerator `device` ("cuda") number device_id as JSON (name, compute
 * capability, memory, driver and runtime versions, library versions) into buf[0..cap), for
 * `tfcc gpu-info`. Fails, naming the cause (library, driver or device missing), where it
 * cannot be opened; TFCC_ERR_BUFFER_TOO_SMALL when cap is too small. */
TFCC_API tfcc_status tfcc_device_describe(const char *device, int device_id, char *buf, size_t cap);
/* The device the runtime's models run on: "cpu" or "cuda". */
TFCC_API const char *tfcc_runtime_device(const tfcc_runtime *rt);
/* Memory of the runtime's device, for session inputs and outputs that already live there (a
 * decoder's frames, another library's tensors): on a device runtime, tfcc_session_run and
 * tfcc_session_set_input / set_output take device or managed pointers as well as host ones,
 * telling them apart per call, and copy device to device instead of through the host.
 * device_alloc gives bytes (> 0) of device memory, or of managed memory (managed != 0) that
 * the host may also read and write; device_free frees it (NULL is a no-op); device_copy copies
 * bytes between any two of host, device and managed memory and returns when done. A node that
 * runs on the CPU (KERNEL_FALLBACK) cannot read or write plain device memory: a run whose
 * graph input or output it touches fails, naming both; managed memory works everywhere.
 * TFCC_ERR_UNSUPPORTED on a CPU runtime (tfcc_runtime_device "cpu"). */
TFCC_API tfcc_status tfcc_runtime_device_alloc(tfcc_runtime *rt, size_t bytes, int managed,
                                               void **ptr);
TFCC_API tfcc_status tfcc_runtime_device_free(tfcc_runtime *rt, void *ptr);
TFCC_API tfcc_status tfcc_runtime_device_copy(tfcc_runtime *rt, void *dst, const void *src,
                                              size_t bytes);
TFCC_API tfcc_status tfcc_runtime_log(tfcc_runtime *rt, tfcc_log_level level, const char *tag,
                                      const char *message);

/* ---------------------------------------------------------------- model */

typedef struct tfcc_model tfcc_model;

/* Which arithmetic quantized operators follow (see docs/quantization.md). */
typedef enum tfcc_quant_compat {
  /* What TensorFlow Lite computes by default: its XNNPACK delegate's arithmetic (float
   * requantization, round half to even) for the operators, dtypes and parameters that
   * delegate takes; TFLite's builtin kernels for the rest. */
  TFCC_QUANT_COMPAT_TFLITE = 0,
  /* TFLite's builtin reference kernels (fixed-point multipliers) everywhere. */
  TFCC_QUANT_COMPAT_REFERENCE = 1
} tfcc_quant_compat;

/* Arithmetic of float32 CONV_2D and FULLY_CONNECTED (docs/kernels.md, "Precision bf16"). */
typedef enum tfcc_precision {
  TFCC_PRECISION_F32 = 0, /* float32 throughout (default) */
  /* Weights and input activations rounded to bfloat16 (round to nearest even), products
   * accumulated in float32, bias, activation and output in float32: half the weight memory;
   * outputs typically move by up to ~1% of their range (measured per model in the docs).
   * Runs on AVX512-BF16 (vdpbf16ps) or AMX-BF16 at dispatch level avx512; elsewhere the model
   * runs in float32 and its load logs one KERNEL_FALLBACK naming why. Other operators stay
   * float32. */
  TFCC_PRECISION_BF16 = 1,
  /* Device "cuda" only: weights and activations in IEEE float16 on the GPU (float32
   * accumulation and epilogues, docs/cuda.md); nodes that fall back to the CPU run in float32.
   * On the CPU it is float32 (one KERNEL_FALLBACK line). */
  TFCC_PRECISION_F16 = 2
} tfcc_precision;

/* A piece of memory handed to a callback. */
typedef struct tfcc_bytes {
  const void *data;
  size_t size;
} tfcc_bytes;

typedef struct tfcc_model_options {
  size_t struct_size;             /* sizeof(tfcc_model_options) */
  int allow_unsupported;          /* 1: load even if operators are unsupported (for inspection);
                                 sessions of such a model cannot be created */
  uint32_t disabled_passes;       /* bit mask of TFCC_PASS_* graph passes to skip */
  int require_watermark;          /* 1: fail to load (TFCC_ERR_INTEGRITY) unless the file carries a
                                 tfcc watermark whose content hash matches (see tfcc_watermark_*) */
  tfcc_quant_compat quant_compat; /* default TFCC_QUANT_COMPAT_TFLITE */
  tfcc_precision precision;       /* default TFCC_PRECISION_F32 */
  int disable_winograd;           /* 1: float32 3x3 stride-1 CONV_2D stays on the im2col GEMM
                                     instead of Winograd (docs/kernels.md); 0 (default): Winograd
                                     where it is faster, its filter transformed on the fly from
                                     the GEMM's packing, unless env TFCC_WINOGRAD=off; 2 (or env
                                     TFCC_WINOGRAD=stored): the transformed filters stored (16/9
                                     or 36/9 of the filter's memory) */
  int file_immutable;             /* tfcc_model_load_file / tfcc_model_update_weights: 1 = the
                                     operator guarantees the file is never truncated or rewritten
                                     in place while loaded: it is mapped and used in place
                                     (zero-copy). 0 (default): the file is read into private
                                     memory, so that changing it in place cannot crash a run,
                                     unless env TFCC_MODEL_FILES_IMMUTABLE=1 or the file is on a
                                     file system that cannot be written (squashfs, erofs, ISO
                                     9660) or is a sealed memfd (docs/lifecycle.md) */
  const char *weights_cache;      /* packed-weights cache file (docs/weights_cache.md), or NULL
                                     (default: none). The first load packs and writes it; later
                                     loads of the same model bytes at the same kernel level map
                                     its blocks and pack nothing. A stale, foreign, truncated or
                                     corrupt file is ignored (one log line) and rewritten. The
                                     string is read during the load only */
  int weights_cache_verify;       /* 1: check the cache against the model's SHA-256 and every
                                     block's hash at load (default 0: the model's size and 64-bit
                                     content hash, and each block's hash when it is used) */
  /* A weights cache held in memory instead of a file (how tfcc_model_load_encrypted keeps its
   * cache encrypted at rest; docs/weights_cache.md "Encrypted models"). When either field below
   * is set, the file weights_cache names is neither read nor written (the string only names
   * the cache in log lines) and weight updates of the model use no cache. */
  const void *weights_cache_data; /* a cache file's bytes (64-byte aligned), checked like a file
                                     and its blocks used in place: they must stay valid and
                                     unchanged until the model is released. NULL: none yet */
  size_t weights_cache_size;
  int weights_cache_data_trusted; /* 1: the caller vouches that weights_cache_data holds exactly
                                     the bytes a sink received from a load of these very model
                                     bytes (e.g. authenticated by an AEAD tag bound to the
                                     model's): the model's content hash and the blocks' hashes
                                     are not computed (header, identity and sizes still checked;
                                     weights_cache_verify overrides) */
  /* Called once at the end of a load that packed blocks the cache lacked (none, stale,
   * foreign, damaged) with the new cache's bytes, in order, as n pieces (the file is their
   * concatenation), instead of writing a file; the pieces are valid during the call only. Its
   * status is logged, the load succeeds either way. NULL: nothing is written. */
  tfcc_status (*weights_cache_sink)(void *user, const tfcc_bytes *pieces, size_t n);
  void *weights_cache_sink_user;
  int weights_cache_no_float; /* 1: the float32 packings (GEMM panels, Winograd filters,
                                     expand filters) are neither taken from the cache nor
                                     written to it, but packed at every load: for a cache that
                                     costs more to read than they cost to pack (an encrypted
                                     one, which tfcc_model_load_encrypted sets this for) */
} tfcc_model_options;

/* Graph passes run at load, in this order (docs/passes.md); set a bit in disabled_passes to
 * skip one. The bits are stable: a new pass takes the next free bit (so a mask written for an
 * older release still skips what it named, and new passes run); TFCC_PASS_ALL skips every pass,
 * present and future. By name: tfcc_pass_parse. */
#define TFCC_PASS_FOLD_CONSTANTS (1u << 0)  /* nodes with only constant inputs computed once */
#define TFCC_PASS_DROP_NOOPS (1u << 1)      /* identity RESHAPE/SQUEEZE/EXPAND_DIMS/CAST/QUANTIZE */
#define TFCC_PASS_FOLD_BATCH_NORM (1u << 2) /* constant per-channel MUL/ADD/SUB into conv/FC */
#define TFCC_PASS_FUSE_PAD (1u << 3)        /* PAD of H/W into the following conv */
#define TFCC_PASS_FUSE_ACTIVATION (1u << 4) /* RELU/RELU6/RELU_N1_TO_1 into the producer */
#define TFCC_PASS_FUSE_EXPAND_DWCONV (1u << 5) /* f32 1x1 CONV_2D into its DEPTHWISE_CONV_2D */
#define TFCC_PASS_FUSE_RESIDUAL_ADD (1u << 6)  /* float ADD into the CONV_2D feeding it */
#define TFCC_PASS_ALL 0xffffffffu

/* Adds to *mask the TFCC_PASS_* bits of a comma-separated list of pass names ("fuse_pad",
 * "fold_constants,fuse_activation"; "all" for TFCC_PASS_ALL; the names of docs/passes.md), for
 * disabled_passes. TFCC_ERR_INVALID_ARG (and *mask unchanged) if a name is unknown. */
TFCC_API tfcc_status tfcc_pass_parse(const char *names, uint32_t *mask);

TFCC_API void tfcc_model_options_default(tfcc_model_options *opts);

/* Loads a .tflite file. opts may be NULL. The file is read once into private memory (checked:
 * a file that changes size while read fails with TFCC_ERR_INTEGRITY), so truncating or
 * rewriting it later cannot affect the model; an immutable file (opts->file_immutable) is
 * mapped and its weights used in place. The model holds the bytes until its last reference is
 * released.
 * On failure *out is NULL and tfcc_last_error() names the cause. */
TFCC_API tfcc_status tfcc_model_load_file(tfcc_runtime *rt, const char *path,
                                          const tfcc_model_options *opts, tfcc_model **out);

/* Loads from a caller's buffer without copying it: the caller keeps data alive and
 * unchanged until the model's last reference is released. */
TFCC_API tfcc_status tfcc_model_load_buffer(tfcc_runtime *rt, const void *data, size_t size,
                                            const tfcc_model_options *opts, tfcc_model **out);

/* Like tfcc_model_load_buffer, but the model takes ownership of data: it calls
 * free_fn(free_user, data, size) when its last reference is released (also when loading fails).
 * Used by loaders that produce the bytes themselves (decryption, decompression). data must be
 * writable memory: the whole pages inside constants that no operator reads after packing are
 * zeroed and given back to the system during the load (madvise MADV_DONTNEED), so free_fn may
 * find them zero (docs/weights_cache.md). */
typedef void (*tfcc_free_fn)(void *user, void *data, size_t size);
TFCC_API tfcc_status tfcc_model_load_owned_buffer(tfcc_runtime *rt, void *data, size_t size,
                                                  tfcc_free_fn free_fn, void *free_user,
                                                  const tfcc_model_options *opts, tfcc_model **out);

/* Reference counting: load returns one reference; every session holds one. */
TFCC_API void tfcc_model_retain(tfcc_model *m);
TFCC_API void tfcc_model_release(tfcc_model *m);

/* Introspection of the model (static shapes as stored in the file). Strings returned are
 * owned by the model and live as long as it does. */
typedef struct tfcc_tensor_info {
  const char *name;
  tfcc_dtype dtype;
  int32_t rank;
  int32_t dims[TFCC_MAX_DIMS];      /* current shape */
  int32_t signature[TFCC_MAX_DIMS]; /* shape_signature: -1 marks a dynamic dimension */
  size_t bytes;                     /* dims x dtype size */
  int32_t quant_count;              /* 0: not quantized; 1: per-tensor; >1: per-axis */
  const float *scales;              /* [quant_count] */
  const int32_t *zero_points;       /* [quant_count] */
  int32_t quant_axis;               /* quantized dimension for per-axis */
} tfcc_tensor_info;

typedef struct tfcc_op_info {
  const char *name; /* "CONV_2D", or "CUSTOM:<code>" */
  int32_t version;
  int32_t supported; /* 0 if tfcc has no kernel for it */
  int32_t input_count;
  int32_t output_count;
  int64_t macs;    /* multiply-accumulates at the static shapes (0 if not a MAC op) */
  int32_t removed; /* 1: a graph pass folded, dropped or fused this node away (it does
                             not run); always 0 with every pass disabled */
} tfcc_op_info;

TFCC_API int tfcc_model_input_count(const tfcc_model *m);
TFCC_API int tfcc_model_output_count(const tfcc_model *m);
TFCC_API tfcc_status tfcc_model_input_info(const tfcc_model *m, int index, tfcc_tensor_info *info);
TFCC_API tfcc_status tfcc_model_output_info(const tfcc_model *m, int index, tfcc_tensor_info *info);
TFCC_API int tfcc_model_op_count(const tfcc_model *m);
TFCC_API tfcc_status tfcc_model_op_info(const tfcc_model *m, int index, tfcc_op_info *info);
TFCC_API int tfcc_model_tensor_count(const tfcc_model *m);
TFCC_API size_t tfcc_model_constant_bytes(const tfcc_model *m);
/* Unsupported operators found at load ("" if none), e.g.
 * "unsupported: CUSTOM:TFLite_Detection_PostProcess at node 63". */
TFCC_API const char *tfcc_model_unsupported(const tfcc_model *m);
/* Model description string from the file ("" if none). */
TFCC_API const char *tfcc_model_description(const tfcc_model *m);

/* Tensor index (in the model's main subgraph, as TensorFlow Lite numbers tensors) of input or
 * output `index` (0..count-1). TFCC_ERR_INVALID_ARG if out of range. */
TFCC_API tfcc_status tfcc_model_input_tensor(const tfcc_model *m, int index, int32_t *tensor);
TFCC_API tfcc_status tfcc_model_output_tensor(const tfcc_model *m, int index, int32_t *tensor);

/* SignatureDefs of the file (TensorFlow Lite's signature runner). Names and tensor indices point
 * into the model and live as long as it does. tfcc_session_create_for_signature runs one;
 * tfcc_model_subgraph_error(m, info.subgraph) says why a signature cannot run. */
typedef struct tfcc_signature_info {
  const char *key; /* "serving_default" */
  int32_t subgraph;
  int32_t input_count, output_count;
  const char *const *input_names;  /* [input_count] signature names ("x") */
  const int32_t *input_tensors;    /* [input_count] tensor indices in that subgraph */
  const char *const *output_names; /* [output_count] */
  const int32_t *output_tensors;   /* [output_count] */
} tfcc_signature_info;
TFCC_API int tfcc_model_signature_count(const tfcc_model *m);
/* Signature `index` (0..count-1); TFCC_ERR_INVALID_ARG if out of range. */
TFCC_API tfcc_status tfcc_model_signature_info(const tfcc_model *m, int index,
                                               tfcc_signature_info *info);

/* Subgraphs of the model (subgraph 0 is the main graph) and which of them run: an entry
 * (subgraph 0, or a signature's) or called by an operator (WHILE cond/body, IF then/else,
 * CALL_ONCE init, CALL). */
typedef struct tfcc_subgraph_info {
  const char *name; /* "" if the file has none */
  int32_t input_count, output_count, op_count;
  int32_t entry;         /* 1: subgraph 0 or a signature's subgraph */
  int32_t caller;        /* first subgraph whose operator runs it; -1 if none */
  int32_t caller_node;   /* that operator's node index in the caller */
  const char *caller_op; /* "WHILE", "IF", "CALL_ONCE", "CALL" (NULL if none) */
  const char *role;      /* "cond", "body", "then", "else", "init", "call" (NULL if none) */
} tfcc_subgraph_info;
TFCC_API int tfcc_model_subgraph_count(const tfcc_model *m);
TFCC_API tfcc_status tfcc_model_subgraph_info(const tfcc_model *m, int index,
                                              tfcc_subgraph_info *info);
/* Why subgraph `index` cannot run, as the model's load found: "" when it can; else the
 * unsupported operators it reaches, itself or through the subgraphs it calls ("unsupported:
 * CUSTOM:FlexRestore at subgraph 1 node 0"), or, for a signature's subgraph, its plan's error
 * at the stored shapes. A session for a signature whose subgraph cannot run is refused with
 * this cause (TFLite fails a subgraph only when it prepares it; docs/runtime.md, "Subgraphs
 * that cannot run"). NULL if index is out of range. */
TFCC_API const char *tfcc_model_subgraph_error(const tfcc_model *m, int index);

/* ---------------------------------------------------------------- hot weight update */

/* Replaces the weights (constant tensors, and everything operators precompute from them) of a
 * loaded model with those of another .tflite file of the same graph: same operators and
 * versions, same tensors with the same dtypes and shapes, same inputs and outputs (names and
 * quantization). The new file is read into private memory as tfcc_model_load_file reads it
 * (mapped, prefaulted, when the model was loaded with file_immutable or the file is otherwise
 * known to be immutable), verified, its operators
 * initialised (weights prepacked) here, on the caller's thread; then one atomic pointer store
 * publishes it. Runs in progress finish on the old weights; every run that starts afterwards
 * uses the new ones. The old weights are freed when their last run ends (this call waits up to
 * a second for that, so usually they are gone when it returns).
 *
 * Publish new files by writing a temporary file and rename(2)ing it over the old name. A file
 * truncated or rewritten in place during the call is refused: this call checks that the file's
 * size, times and content checksum did not change between reading and switching
 * (TFCC_ERR_INTEGRITY otherwise); a file changed afterwards does not affect the model (unless
 * it was declared immutable and mapped). Graph changes need a new model: load it with
 * tfcc_model_load_file, create sessions on it, and release the old model (the server's swap).
 *
 * A model loaded with a weights cache (options.weights_cache) uses the cache at that path for
 * the new weights: taken when it was made for them, else refused as stale and, after the
 * switch, rewritten for them on a thread of its own that the call does not wait for (the next
 * update and the model's release do; docs/weights_cache.md, "Weight updates").
 *
 * Updates of one model are serialised. The model must not be released during the call.
 * On failure the current weights stay in force and tfcc_last_error() names the first
 * difference ("tensor 12 (conv1/w): shape [8,3,3,3], model has [16,3,3,3]"). */
TFCC_API tfcc_status tfcc_model_update_weights(tfcc_model *m, const char *path);
/* Same from a buffer, which is copied (the caller may free it on return). */
TFCC_API tfcc_status tfcc_model_update_weights_buffer(tfcc_model *m, const void *data, size_t size);

typedef struct tfcc_update_info {
  uint64_t generation; /* 0: the weights loaded with the model; +1 per update */
  double map_ms;       /* open + read into private memory (or map + prefault + checksum) */
  double prepare_ms;   /* verify + signature check + operator init (prepack) + folding +
                            validation + the second integrity check (file unchanged) */
  double switch_ms;    /* pointer publication */
  double total_ms;     /* call start to publication (the switch time) */
  double drain_ms;     /* waiting for runs on the old weights, then freeing them */
} tfcc_update_info;
/* Figures of the model's last successful update (all zero before the first). */
TFCC_API tfcc_status tfcc_model_update_info(const tfcc_model *m, tfcc_update_info *info);

/* ---------------------------------------------------------------- watermark */

/* A tfcc watermark is a TFLite metadata entry named "tfcc_watermark" holding an owner/build id
 * and the SHA-256 of the model without the watermark. Other TFLite runtimes ignore it. */
typedef struct tfcc_watermark_info {
  char id[257];    /* owner/build id */
  char sha256[65]; /* hex digest stored in the watermark */
  int present;     /* 1 if the file has a tfcc watermark */
  int valid;       /* 1 if the stored digest matches the content and layout */
} tfcc_watermark_info;

/* Writes a watermarked copy of model[0..size) to *out (malloc'ed; free() it). id: 1-256
 * printable ASCII characters. An existing tfcc watermark is replaced. */
TFCC_API tfcc_status tfcc_watermark_embed(const void *model, size_t size, const char *id,
                                          void **out, size_t *out_size);
/* Reads and checks the watermark of model[0..size). TFCC_OK with info->present = 0 when there
 * is none; the message of a failed check is in tfcc_last_error(). */
TFCC_API tfcc_status tfcc_watermark_read(const void *model, size_t size, tfcc_watermark_info *info);
/* The same for a loaded model's file. */
TFCC_API tfcc_status tfcc_model_watermark(const tfcc_model *m, tfcc_watermark_info *info);

/* ---------------------------------------------------------------- session */

typedef struct tfcc_session tfcc_session;

/* tfcc_session_options.prefault: the weights cache's pages read ahead on a thread of their own */
#define TFCC_PREFAULT_BACKGROUND 2
/* tfcc_session_options.prefault: nothing touched at creation (the default before stop 59) */
#define TFCC_PREFAULT_OFF (-1)

typedef struct tfcc_session_options {
  size_t struct_size; /* sizeof(tfcc_session_options) */
  int reserved;
  int prefault;      /* 0 (the default): every page of the arena is touched at creation, and
                   the pages of the weights the first run would read for the first time (the
                   weights cache file's, the last packed weights where the load left them in
                   4 KiB pages, the constants read in place) are read, once per weights
                   generation (the first session of a model, or of new weights after an
                   update), so that the first run takes no page faults there and costs what a
                   later one does
                   (the pages a run writes and reads are made resident here instead of in the
                   first run: a session created and never run holds its arena resident).
                   1: that, and the model's first such session also makes the packed
                   weights' last huge page whole again where the load split it (4-19 ms once,
                   then no 4 KiB page walks there at run).
                   TFCC_PREFAULT_OFF (-1): nothing touched at creation; pages fault on first use
                   (the first run pays them: 1.2-3 x a later run by CPU, docs/weights_cache.md
                   "cache59").
                   TFCC_PREFAULT_BACKGROUND (2): none of that at creation; a thread of its own
                   reads the pages of the weights cache's blocks in the order runs read them
                   (once per model, ending by itself; nothing waits for it; stopped at the
                   session's destroy), so that the first run finds most of them mapped. It costs
                   a thread start and its CPU beside the caller's (docs/weights_cache.md, "First
                   run") */
  size_t max_memory; /* bytes one plan of the session may take: its arena plus its variable
                        tensors (each called subgraph's plan is held to it too). Over it,
                        creating the session (or resizing its inputs) fails with
                        TFCC_ERR_NO_MEMORY naming both figures, before anything is allocated
                        or zeroed: a server handed a model that asks for gigabytes refuses it
                        at once. Dynamic tensors (sized by the data while running) count
                        too: a run whose tensor would pass the limit fails with
                        TFCC_ERR_NO_MEMORY naming it. 0 (the default): no limit */
} tfcc_session_options;

TFCC_API void tfcc_session_options_default(tfcc_session_options *opts);

/* Creates a session (plans its arena). Retains the model. opts may be NULL.
 * On failure *out is NULL and tfcc_last_error() says why. A model that cannot run at its stored
 * input shapes but has an input with -1 in its shape signature (a placeholder shape, as
 * TensorFlow Lite allows: docs/runtime.md) gives a session without a plan: its runs fail with
 * TFCC_ERR_STATE, naming why, until tfcc_session_resize_input gives it shapes it can run. */
TFCC_API tfcc_status tfcc_session_create(tfcc_model *m, const tfcc_session_options *opts,
                                         tfcc_session **out);
/* Frees the session and drops its model reference. NULL is a no-op. */
TFCC_API void tfcc_session_destroy(tfcc_session *s);

/* Message of this session's last failure ("" if none). Owned by the session. */
TFCC_API const char *tfcc_session_last_error(const tfcc_session *s);

TFCC_API int tfcc_session_input_count(const tfcc_session *s);
TFCC_API int tfcc_session_output_count(const tfcc_session *s);
/* Current shapes (after any resize). Pointers inside info stay valid while s lives.
 * A dynamic output (tfcc_session_output_is_dynamic) reports the shape of the last run, or the
 * shape stored in the model before the first run. */
TFCC_API tfcc_status tfcc_session_input_info(const tfcc_session *s, int index,
                                             tfcc_tensor_info *info);
TFCC_API tfcc_status tfcc_session_output_info(const tfcc_session *s, int index,
                                              tfcc_tensor_info *info);
/* Index of an input/output by tensor name; TFCC_ERR_NOT_FOUND if none. */
TFCC_API tfcc_status tfcc_session_find_input(const tfcc_session *s, const char *name, int *index);
TFCC_API tfcc_status tfcc_session_find_output(const tfcc_session *s, const char *name, int *index);

/* Dynamic outputs: outputs whose shape depends on data known only while running (a
 * TRANSPOSE_CONV output_shape fed as a graph input, WHERE, ...). They are sized during run,
 * outside the arena, in session memory that grows only when a run needs more than any run
 * before. A caller buffer for one must hold what the run produces: with
 * tfcc_session_set_output, the bytes given there; with tfcc_session_run, the bytes
 * tfcc_session_output_info reported when run was called. When it does not, run still computes
 * everything, writes the outputs that fit, and returns TFCC_ERR_BUFFER_TOO_SMALL naming the
 * output and the bytes needed; tfcc_session_output_info then gives the shape and bytes, and
 * tfcc_session_output_data the values. A NULL buffer for a dynamic output is not an error: read
 * the output with tfcc_session_output_data.
 * 1 if output index is dynamic at the current input shapes, else 0. */
TFCC_API int tfcc_session_output_is_dynamic(const tfcc_session *s, int index);
/* The last run's values of dynamic output index, held by the session (valid until the next
 * run, resize or destroy). TFCC_ERR_STATE before a successful (or buffer-too-small) run, or
 * for a static output (those are written only into the caller's buffer). */
TFCC_API tfcc_status tfcc_session_output_data(const tfcc_session *s, int index, const void **data,
                                              size_t *bytes);

/* Dynamic tensors at the current input shapes (see above): every tensor whose shape is known
 * only while running, the node that produces it and why. A model whose shapes are all known
 * before running has none: its sessions run entirely in the static arena. */
typedef struct tfcc_dynamic_tensor_info {
  int32_t tensor;     /* tensor index (subgraph 0) */
  const char *name;   /* tensor name */
  int32_t node;       /* producing node */
  const char *op;     /* its operator ("TRANSPOSE_CONV") */
  const char *reason; /* "TRANSPOSE_CONV: output_shape (tensor 0) is known only while running",
                          "reads dynamic tensor 4 (name)" */
} tfcc_dynamic_tensor_info;
TFCC_API int tfcc_session_dynamic_tensor_count(const tfcc_session *s);
/* Pointers inside info stay valid until the session is re-planned or destroyed. */
TFCC_API tfcc_status tfcc_session_dynamic_tensor_info(const tfcc_session *s, int index,
                                                      tfcc_dynamic_tensor_info *info);

/* Changes the shape of an input (only dimensions that are -1 in its signature may change,
 * or any if the model has no signature) and re-plans the session. */
TFCC_API tfcc_status tfcc_session_resize_input(tfcc_session *s, int index, int32_t rank,
                                               const int32_t *dims);
/* Resizes several inputs at once and re-plans once (inputs that must change together, e.g. both
 * operands of an ADD): input indices[k] gets shape dims[k][0..ranks[k]). On failure no shape
 * changes and the previous plan stays in force. */
TFCC_API tfcc_status tfcc_session_resize_inputs(tfcc_session *s, int count, const int *indices,
                                                const int32_t *ranks, const int32_t *const *dims);

/* Runs the model. inputs[i] points to input i's bytes (tfcc_session_input_info().bytes),
 * outputs[i] to a caller buffer for output i. Both are caller-owned and only used during
 * the call: inputs are read in place and outputs written in place (no copies), so each
 * buffer must be aligned to its element size (malloc'ed memory always is); a misaligned one
 * is refused with TFCC_ERR_INVALID_ARG. Allocates nothing, except for dynamic outputs (above)
 * whose size grows beyond that of every earlier run. */
TFCC_API tfcc_status tfcc_session_run(tfcc_session *s, const void *const *inputs,
                                      void *const *outputs);

/* Named helpers: bind caller buffers (kept until rebound), then tfcc_session_invoke().
 * bytes must equal the tensor's current byte size; for a dynamic output it is the buffer's
 * capacity (any size). */
TFCC_API tfcc_status tfcc_session_set_input(tfcc_session *s, int index, const void *data,
                                            size_t bytes);
TFCC_API tfcc_status tfcc_session_set_output(tfcc_session *s, int index, void *data, size_t bytes);
TFCC_API tfcc_status tfcc_session_set_input_by_name(tfcc_session *s, const char *name,
                                                    const void *data, size_t bytes);
TFCC_API tfcc_status tfcc_session_set_output_by_name(tfcc_session *s, const char *name, void *data,
                                                     size_t bytes);
TFCC_API tfcc_status tfcc_session_invoke(tfcc_session *s);

/* Sets every stateful (variable) tensor, e.g. LSTM state, back to zero, forgets every resource
 * variable (VAR_HANDLE / ASSIGN_VARIABLE) and lets CALL_ONCE run its init subgraph again on the
 * next run: the session is as fresh as after tfcc_session_create. */
TFCC_API tfcc_status tfcc_session_reset_state(tfcc_session *s);

/* Run budget and cancellation. A run checks them between operators, between the iterations of
 * a WHILE loop and inside operators whose loops can run long, and stops with TFCC_ERR_DEADLINE (the run took longer than
 * timeout_us microseconds; 0 = no limit, the default) or TFCC_ERR_CANCELLED. Outputs are then
 * undefined; variables keep what the operators that ran assigned. */
TFCC_API tfcc_status tfcc_session_set_run_timeout(tfcc_session *s, uint64_t timeout_us);
/* Bounds each operator's work in a run: before an operator whose work estimate
 * (tfcc_op_info.macs: multiply-adds, window taps, IoUs...) at the shapes it runs with passes
 * `work`, the run stops with TFCC_ERR_DEADLINE naming the node and both figures. The deadline
 * above is checked between operators; this bounds what one operator may start, including one
 * whose shapes come with the data (a dynamic node: its estimate is taken when it is prepared
 * in the run). 0 (the default): no limit. TFCC_ERR_INVALID_ARG for a negative work. */
TFCC_API tfcc_status tfcc_session_set_run_max_work(tfcc_session *s, int64_t work);
/* Asks the run in progress on s (or, if none, the next one) to stop. Thread-safe: the only
 * session call that may be made from another thread while s runs. */
TFCC_API tfcc_status tfcc_session_cancel(tfcc_session *s);

/* A session for one signature of the model (tfcc_model_signature_info), as TFLite's
 * SignatureRunner: it runs the signature's subgraph; its inputs and outputs are the
 * subgraph's, named (tfcc_session_input_info().name, find_input/find_output) as the signature
 * names them. TFCC_ERR_NOT_FOUND if the model has no signature key. */
TFCC_API tfcc_status tfcc_session_create_for_signature(tfcc_model *m, const char *key,
                                                       const tfcc_session_options *opts,
                                                       tfcc_session **out);
/* Subgraph the session runs (0 unless created for a signature). */
TFCC_API int tfcc_session_subgraph(const tfcc_session *s);

/* Bytes of the session's activation arena. */
TFCC_API size_t tfcc_session_arena_bytes(const tfcc_session *s);

/* Memory plan figures at the current shapes: the arena, the naive sum of every intermediate
 * buffer, and the lower bound (the largest set of simultaneously live buffers).
 * ABI: this struct is fixed at these five fields (callers allocate it and carry no size), so a
 * later figure comes with its own getter, as tfcc_session_dynamic_bytes. */
typedef struct tfcc_memory_info {
  size_t arena_bytes;
  size_t naive_bytes;
  size_t lower_bound_bytes;
  size_t persistent_bytes; /* stateful tensors and values computed at prepare time */
  size_t constant_bytes;   /* model constants (shared by all sessions; mostly mapped file) */
} tfcc_memory_info;
TFCC_API tfcc_status tfcc_session_memory_info(const tfcc_session *s, tfcc_memory_info *info);
/* Bytes held now for dynamic tensors (shapes known only while running: docs/runtime.md) and
 * their scratch, the outputs custom operators size with tfcc_custom_output_resize included:
 * grown to the largest run so far, outside the arena (subgraphs' plans not included). 0 for
 * NULL. */
TFCC_API size_t tfcc_session_dynamic_bytes(const tfcc_session *s);

/* ---------------------------------------------------------------- custom operators */

/* A runtime's own operators for a model's CUSTOM operator codes (docs/custom_ops.md), as
 * TensorFlow Lite's resolver AddCustom: register them on the runtime before loading the models
 * that use them. Each model binds the operators its runtime has when it is loaded: a
 * registration made after a model was loaded affects only later loads, and a model whose
 * custom operator is not registered fails to load with TFCC_ERR_UNSUPPORTED naming it. A name
 * registered here takes precedence over the custom operators tfcc implements itself
 * (TFLite_Detection_PostProcess) for this runtime's later loads. Registrations last as long
 * as the runtime (which outlives its models). Registering is thread-safe and may overlap
 * loads on this and other runtimes.
 *
 * The contract is the built-in operators': init once per model (options), prepare per session
 * and input shapes (check, set output shapes, ask for scratch: the shapes go into the static
 * memory plan), eval per run (compute; no allocation, I/O, locking or logging). A callback
 * returns TFCC_OK or an error status with a message set by tfcc_custom_op_error(): the error
 * becomes the load, session-create or run status, prefixed with the node and operator. */

/* A tensor as a custom operator sees it. Owned by tfcc; valid during the callback only. */
typedef struct tfcc_custom_tensor {
  size_t struct_size; /* sizeof(tfcc_custom_tensor) as tfcc was built (fields are only
                                  ever added at the end) */
  int32_t tensor;     /* tensor index in the subgraph */
  tfcc_dtype dtype;   /* outputs: the model's dtype (prepare may not change it) */
  int32_t rank;       /* outputs: prepare sets rank and dims */
  int32_t dims[TFCC_MAX_DIMS];
  size_t bytes;               /* elements x dtype size (eval; inputs at prepare) */
  void *data;                 /* eval: the values (inputs are read-only); prepare: an input's
                                  values when known then (constant), else NULL */
  int32_t is_const;           /* 1: constant (model weights, or computed at prepare) */
  int32_t quant_count;        /* 0: not quantized; 1: per-tensor; >1: per-axis */
  const float *scales;        /* [quant_count] */
  const int32_t *zero_points; /* [quant_count] */
  int32_t quant_axis;
  int32_t is_dynamic; /* outputs: prepare sets 1 when the shape depends on input values
                                  (eval sizes it with tfcc_custom_output_resize); at eval, 1 on
                                  the outputs eval must size. Inputs: 1 when sized while running */
} tfcc_custom_tensor;

/* What a callback gets. Fields are filled as the phase says; tfcc owns the struct. */
typedef struct tfcc_custom_ctx {
  size_t struct_size;  /* sizeof(tfcc_custom_ctx) as tfcc was built */
  const char *op_name; /* the custom_code ("MaxUnpooling2D") */
  int32_t node;        /* node index in its subgraph */
  const void *options; /* the operator's custom_options bytes (NULL if none) */
  size_t options_size;
  void *op_user;                           /* tfcc_custom_op.user */
  void *node_data;                         /* init may set it; given to prepare, eval and free */
  int32_t input_count;                     /* prepare, eval (init: the count, views NULL) */
  const tfcc_custom_tensor *const *inputs; /* [input_count]; an omitted optional input is NULL */
  int32_t output_count;
  tfcc_custom_tensor *const *outputs; /* [output_count] */
  size_t scratch_bytes;               /* prepare: set to the bytes eval needs (default 0) */
  void *scratch;                      /* eval: scratch_bytes of 64-byte aligned memory (undefined
                                  contents; reused by other nodes between evals) */
  void *internal_;                    /* tfcc's */
} tfcc_custom_ctx;

typedef tfcc_status (*tfcc_custom_fn)(tfcc_custom_ctx *ctx);
/* Frees what init stored in node_data (called once per node whose init succeeded). */
typedef void (*tfcc_custom_free_fn)(void *op_user, void *node_data);

typedef struct tfcc_custom_op {
  size_t struct_size;       /* sizeof(tfcc_custom_op), set by tfcc_custom_op_default() */
  const char *name;         /* custom_code to serve: 1..TFCC_CUSTOM_OP_NAME_MAX bytes (copied) */
  tfcc_custom_fn init;      /* optional: once per node at load (options, counts) */
  tfcc_custom_fn prepare;   /* required */
  tfcc_custom_fn eval;      /* required */
  tfcc_custom_free_fn free; /* optional */
  void *user;               /* given to every callback as ctx->op_user */
} tfcc_custom_op;

#define TFCC_CUSTOM_OP_NAME_MAX 127

TFCC_API void tfcc_custom_op_default(tfcc_custom_op *op);

/* Registers op (copied) on rt for the models loaded after this call. TFCC_ERR_INVALID_ARG for a
 * NULL argument, an unset struct_size, a missing prepare or eval or a bad name;
 * TFCC_ERR_STATE if rt already has an operator of that name. The message is in
 * tfcc_last_error(). */
TFCC_API tfcc_status tfcc_runtime_register_custom_op(tfcc_runtime *rt, const tfcc_custom_op *op);
/* Number of custom operators registered on rt. */
TFCC_API int tfcc_runtime_custom_op_count(const tfcc_runtime *rt);

/* For eval: gives output `output`, which prepare marked is_dynamic, its shape for this run (as
 * TFLite's ResizeTensor): the view's rank, dims, bytes and data change (data may move; its
 * contents are undefined until eval writes them). Memory grows only when this run needs more
 * than any run before. Every output prepare marked must be sized before eval returns OK.
 * TFCC_ERR_STATE outside eval or for an output prepare did not mark; TFCC_ERR_SHAPE for a
 * rank outside 0..TFCC_MAX_DIMS or a negative dimension; the message is set as by
 * tfcc_custom_op_error (return the status). */
TFCC_API tfcc_status tfcc_custom_output_resize(tfcc_custom_ctx *ctx, int32_t output, int32_t rank,
                                               const int32_t *dims);

/* For callbacks: sets the message of the callback's failure (printf format) and returns code,
 * as `return tfcc_custom_op_error(ctx, TFCC_ERR_SHAPE, "input 0: rank %d, needs 4", r);`. */
TFCC_API tfcc_status tfcc_custom_op_error(tfcc_custom_ctx *ctx, tfcc_status code, const char *fmt,
                                          ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Plugins: a shared library of custom operators exports one function named
 * TFCC_CUSTOM_OPS_REGISTER_SYMBOL, of type tfcc_custom_ops_register_fn, that registers its
 * operators on rt through api (docs/custom_ops.md, "Plugins"). The host (tfcc run/bench/
 * inspect/serve --custom-ops, Python's custom_op_libraries) dlopens the library, fills api with
 * tfcc_custom_api_get and calls the function once per runtime. The table is how a plugin
 * reaches the tfcc that loads it, whether that tfcc is libtfcc.so or a copy linked statically
 * into the host (the Python extension): write the plugin against this header as usual and
 * include tfcc/tfcc_plugin.h in one of its files. The core has no loader (no dlopen): hosts do. */
#define TFCC_CUSTOM_OPS_REGISTER_SYMBOL "tfcc_custom_ops_register"

typedef struct tfcc_custom_api {
  size_t struct_size; /* sizeof(tfcc_custom_api) as the host was built (fields only added at
                         the end): a plugin checks it covers what it calls */
  tfcc_status (*register_custom_op)(tfcc_runtime *rt, const tfcc_custom_op *op);
  int (*custom_op_count)(const tfcc_runtime *rt);
  tfcc_status (*custom_op_verror)(tfcc_custom_ctx *ctx, tfcc_status code, const char *fmt,
                                  va_list ap);
  tfcc_status (*custom_output_resize)(tfcc_custom_ctx *ctx, int32_t output, int32_t rank,
                                      const int32_t *dims);
  const char *(*last_error)(void);
  const char *(*status_str)(tfcc_status s);
  const char *(*dtype_name)(tfcc_dtype t);
  size_t (*dtype_size)(tfcc_dtype t);
  const char *(*version)(void);
} tfcc_custom_api;

/* Returns the plugin's status; on failure it leaves a message in the host's tfcc_last_error()
 * (api->register_custom_op does). The host's table stays valid for the life of the process:
 * the plugin keeps the pointer for its operators' calls. Hosts call it from one thread at a
 * time. */
typedef tfcc_status (*tfcc_custom_ops_register_fn)(tfcc_runtime *rt, const tfcc_custom_api *api);

/* Fills api with this library's functions (struct_size first). */
TFCC_API void tfcc_custom_api_get(tfcc_custom_api *api);

/* ---------------------------------------------------------------- profiling */

/* Per-operator figures accumulated over runs while profiling is on. */
typedef struct tfcc_op_profile {
  const char *name;   /* operator ("CONV_2D") */
  const char *kernel; /* kernel that ran ("ref", "f32-gemm-avx512", ...) */
  int32_t node;       /* node index in the model */
  int64_t macs;       /* multiply-accumulates per run */
  uint64_t runs;
  double total_ms;
} tfcc_op_profile;

/* Called after each operator while set (for traces): times are CLOCK_MONOTONIC nanoseconds. */
typedef void (*tfcc_op_observer_fn)(void *user, int32_t node, const char *name, uint64_t start_ns,
                                    uint64_t end_ns);

/* Turns per-operator timing on (allocates its table now, never during run) or off. */
TFCC_API tfcc_status tfcc_session_set_profiling(tfcc_session *s, int enable);
TFCC_API tfcc_status tfcc_session_set_op_observer(tfcc_session *s, tfcc_op_observer_fn fn,
                                                  void *user);
/* Entries in execution order; valid until the session is re-planned or destroyed. */
TFCC_API int tfcc_session_profile(const tfcc_session *s, const tfcc_op_profile **entries);
TFCC_API void tfcc_session_profile_reset(tfcc_session *s);

#ifdef __cplusplus
}
#endif
#endif /* TFCC_TFCC_H */

/* Where operators' packed weight blocks come from at model load (a weights cache file).
 *
 * An operator that packs or transforms constant weights asks its init context's store for the
 * block by a key stable across loads of the same model (node index, block id below) and its
 * size. A hit is a read-only, 64-byte aligned pointer that lives as long as the model (the
 * operator uses it in place and never frees it). On a miss (NULL) the operator packs into its
 * own memory as without a store and offers the result with put; the runtime writes the blocks
 * to the cache file when the load is done (runtime/weights_cache.h). The store is NULL when
 * the model has no cache; after the load it answers every get with NULL and ignores puts. */
#ifndef TFCC_OPS_PACKED_STORE_H
#define TFCC_OPS_PACKED_STORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tfcc_packed_store tfcc_packed_store;
struct tfcc_packed_store {
  const void *(*get)(tfcc_packed_store *s, int32_t node, uint32_t block, size_t bytes);
  void (*put)(tfcc_packed_store *s, int32_t node, uint32_t block, const void *data, size_t bytes);
  /* Optional (may be NULL): the operator whose params are `owner` will never read the
   * constant at `data` again, at any shape (it runs on its packing only). The model may then
   * release those bytes (runtime/const_release.h). Repeated calls count once. */
  void (*consumed)(tfcc_packed_store *s, const void *owner, const void *data);
  /* Optional (may be NULL): owner, packing the constant at `data` on the path that says
   * consumed for it once the packing is made, reads data[0, bytes) no more. true: the model
   * may give those bytes back now (owner is the constant's last reader; the whole 2 MiB pages
   * inside them are given back), so that owner may pack while giving its source back as it
   * goes (bytes 0 only asks). false: nothing is given back before consumed; the caller packs
   * as without it. */
  bool (*consumed_prefix)(tfcc_packed_store *s, const void *owner, const void *data, size_t bytes);
};

/* Block ids: one per kind of packing an operator keeps. */
enum {
  TFCC_BLOCK_F32_GEMM = 1,   /* tfcc_f32_packed (CONV_2D, FULLY_CONNECTED) */
  TFCC_BLOCK_Q8_GEMM = 2,    /* tfcc_q8_packed (CONV_2D, FULLY_CONNECTED) */
  TFCC_BLOCK_F32_WINO = 3,   /* Winograd-transformed 3x3 filter + bias (CONV_2D) */
  TFCC_BLOCK_XDW_EXPAND = 4, /* expand filter of EXPAND_DEPTHWISE_CONV_2D */
  /* 5: the q8 depthwise packing without its layout header, packed at every load, then
   * compared with the cache's copy (before tail4); no longer asked for: an old file misses 8 */
  TFCC_BLOCK_XDW_DW = 6,    /* depthwise filter, then bias, of EXPAND_DEPTHWISE_CONV_2D */
  TFCC_BLOCK_XNN_FC = 7,    /* XNNPACK-order float FULLY_CONNECTED panels (hybrid models; the
                               FC-order 1x1 CONV_2D's too) */
  TFCC_BLOCK_Q8_DW = 8,     /* tfcc_q8_dw_packed block with its layout header (DEPTHWISE_CONV_2D) */
  TFCC_BLOCK_F32_TCONV = 9, /* float32 TRANSPOSE_CONV weights packed [H][W][in_c][out_c] for
                               the XNNPACK order (tfcc_tconv_f32_pack), then the bias if any */
  /* the XNNPACK-order FC kernel's narrow last block in the ISA variant's lane-pair
   * layout (tfcc_xnn_fc_tail_pack; FULLY_CONNECTED, the FC-order 1x1 CONV_2D) */
  TFCC_BLOCK_XNN_FC_TAIL = 10,
  /* REFERENCE mode's Eigen-order float CONV_2D filter transposed to [K][out_c] */
  TFCC_BLOCK_EIGEN_CONV = 11,
  /* Eigen-order float FULLY_CONNECTED weights in 16-unit panels [accum][16]
   * (tfcc_fc_eigen_pack; REFERENCE mode's builtin kernel on constant weights) */
  TFCC_BLOCK_FC_EIGEN = 12,
  /* the 16x8 CONV_2D's int8 filter packed for q16-gemm (tfcc_q16_gemm_pack: panels of
   * the kernel's NR output channels, pairs of input channels); since cache56 also the 16x8
   * FULLY_CONNECTED's weights packed so (one tap) */
  TFCC_BLOCK_Q16_GEMM = 13,
  /* a constant float32 BATCH_MATMUL rhs, every rhs batch packed for the f32 GEMM
   * (tfcc_f32_pack_into of the kernel the model's f32 GEMM tile names) */
  TFCC_BLOCK_BMM_F32_GEMM = 14,
  /* the same rhs (adj_y) transposed to [k][n] per batch for the XNNPACK-order path */
  TFCC_BLOCK_BMM_F32_T = 15,
  /* a hybrid (float32 input, int8 weights) CONV_2D / FULLY_CONNECTED / BATCH_MATMUL's
   * weights packed for the q8 GEMM (as uint8 w + 128, filter offset -128), then their int32
   * column sums (ops/hybrid.c) */
  TFCC_BLOCK_HYB_Q8 = 16,
  /* a hybrid DEPTHWISE_CONV_2D's int8 filter packed for the q8 depthwise row kernel
   * (depth multiplier 1, AVX512-VNNI): a tfcc_q8_dw_packed block with its layout header, signed,
   * no offsets and no bias (ops/hybrid.c) */
  TFCC_BLOCK_HYB_DW = 17,
  /* a float32 UNIDIRECTIONAL_SEQUENCE_LSTM / LSTM's plan (kernels/f32-lstm): the stacked gate
   * weights packed for fc, the recurrent weights and the projection for fc_row (the tflite-f32
   * variant's row blocks), then the stacked gate biases, each 64-byte aligned */
  TFCC_BLOCK_F32_LSTM = 18,
  /* a full-integer (8x8->16) LSTM's plan (kernels/q8-lstm): the stacked gate weights, recurrent
   * weights and projection packed for the gemv, then the effective biases (bias - zero point x
   * row sums) of each, 64-byte aligned */
  TFCC_BLOCK_Q8_LSTM = 19,
  /* a tiny int8 / uint8 FULLY_CONNECTED's q8-fc-small packing (kernels/q8-fc-small): the
   * weights plus offset as int16 pairs, the bias with the input offset's sums, the per-column
   * requantization (tfcc_q8_fcs_bytes) */
  TFCC_BLOCK_Q8_FC_SMALL = 20,
  /* a float32 CONV_2D filter of a hybrid model packed for XNNPACK's IGEMM order
   * (tfcc_xnn_conv_pack: [K][out_c rounded up to 16]), or a float DEPTHWISE_CONV_2D of one input
   * channel packed so (ops/packed_layouts.h); since cache56 a FULLY_CONNECTED-order 1x1 CONV_2D's
   * panels are TFCC_BLOCK_XNN_FC */
  TFCC_BLOCK_XNN_CONV = 21,
  /* a hybrid DEPTHWISE_CONV_2D's int8 filter widened to int32 for the int16 vector kernel
   * (kernels/hybrid/dwconv.h), where the q8 row kernel does not take every geometry (ops/hybrid.c) */
  TFCC_BLOCK_HYB_DW32 = 22,
  /* DENSIFY's dense output: the constant sparse tensor expanded (float32, float16 or int8) */
  TFCC_BLOCK_DENSIFY = 23,
  /* precision bf16: a float32 CONV_2D / FULLY_CONNECTED's weights (and bias) packed for the bf16
   * GEMM (tfcc_bf16_pack: bias + bf16 pair panels of the kernel's NR columns, ops/bf16_fast.c) */
  TFCC_BLOCK_BF16_GEMM = 24,
  /* a quantized conv-family node's per-channel requantization tables (ops/conv_common.h,
   * tfcc_conv_qparams_node: a 16-byte header, the Q0.31 multipliers, the shifts, then
   * XNNPACK's float scales where the node runs XNNPACK's arithmetic); for the fused expand +
   * depthwise node, the expand's */
  TFCC_BLOCK_REQUANT = 25,
  /* the fused expand + depthwise node's second set: the depthwise's tables, as block 25 */
  TFCC_BLOCK_REQUANT_DW = 26,
  /* a 16x8 DEPTHWISE_CONV_2D's int8 filter packed for the q16-dwconv fused kernel
   * (tfcc_q16_dw_pack: the kernel's channel blocks of tap pairs, int16) */
  TFCC_BLOCK_Q16_DW = 27
};

/* A block's key, kept by the operator until it packs (prepare may pack, after init). */
typedef struct tfcc_packed_key {
  tfcc_packed_store *store; /* NULL: no cache */
  int32_t node;
  uint32_t block;
} tfcc_packed_key;

static inline const void *tfcc_packed_get(const tfcc_packed_key *k, size_t bytes) {
  return k->store ? k->store->get(k->store, k->node, k->block, bytes) : NULL;
}
static inline void tfcc_packed_put(const tfcc_packed_key *k, const void *data, size_t bytes) {
  if (k->store && data) k->store->put(k->store, k->node, k->block, data, bytes);
}

/* What an operator gave back: the bytes of the largest constant it said consumed for (or gave
 * a prefix of) to a store that gives pages back. An operator with a path that would read a raw
 * constant again after its packing consumed it (CONV_2D's grouped reference kernel) keeps one
 * as the first member of its params (so that the owner the store sees is the params either
 * way) and gives back only through tfcc_packed_give / tfcc_packed_give_prefix, which record
 * here whatever may be given back: a packing added later cannot forget to tell its guard (the
 * bf16 packing of cache57 did, fuzz57's guard never heard of it). Zeroed with the params. */
typedef struct tfcc_packed_owner {
  atomic_size_t given_back;
} tfcc_packed_owner;

/* The largest constant o's operator gave back (or may have) so far, in bytes. */
static inline size_t tfcc_packed_given_back(const tfcc_packed_owner *o) {
  return atomic_load_explicit(&((tfcc_packed_owner *)o)->given_back, memory_order_relaxed);
}
/* k's store may give back pages of a constant of `bytes` that o's operator read */
static inline void tfcc_packed_gave(const tfcc_packed_key *k, tfcc_packed_owner *o, size_t bytes) {
  if (k->store && (k->store->consumed || k->store->consumed_prefix) &&
      bytes > tfcc_packed_given_back(o))
    atomic_store_explicit(&o->given_back, bytes, memory_order_relaxed);
}

/* The operator with params `owner` reads the constant `data` (NULL: ignored) no more. Only
 * for a node whose every later eval and prepare, at any input shape, uses its packing (never
 * a reference path on the raw constant). */
static inline void tfcc_packed_consumed(const tfcc_packed_key *k, const void *owner,
                                        const void *data) {
  if (k->store && k->store->consumed && data) k->store->consumed(k->store, owner, data);
}

/* tfcc_packed_consumed for the constant `data` of `bytes` (NULL: ignored), recorded in o. */
static inline void tfcc_packed_give(const tfcc_packed_key *k, tfcc_packed_owner *o,
                                    const void *data, size_t bytes) {
  if (!data) return;
  tfcc_packed_gave(k, o, bytes);
  tfcc_packed_consumed(k, o, data);
}

/* The operator with params `owner`, which will say consumed for the constant `data` once its
 * packing is made, reads data[0, bytes) no more (bytes 0: only whether the model takes such
 * calls for it). true: taken (the contract above). */
static inline bool tfcc_packed_consumed_prefix(const tfcc_packed_key *k, const void *owner,
                                               const void *data, size_t bytes) {
  return k->store && k->store->consumed_prefix && data &&
         k->store->consumed_prefix(k->store, owner, data, bytes);
}

/* tfcc_packed_consumed_prefix recorded in o (the constant holds `total` bytes): where taken,
 * o's operator may no longer read any of the constant. */
static inline bool tfcc_packed_give_prefix(const tfcc_packed_key *k, tfcc_packed_owner *o,
                                           const void *data, size_t bytes, size_t total) {
  if (!tfcc_packed_consumed_prefix(k, o, data, bytes)) return false;
  tfcc_packed_gave(k, o, total);
  return true;
}

#endif

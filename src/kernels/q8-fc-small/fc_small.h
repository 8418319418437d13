/* Small 8-bit FULLY_CONNECTED (q8-fc-small): the direct path for tiny layers (hello_world's
 * 1->16->16->1, classifier heads), where the q8 GEMM's tiling, scratch and thread-pool
 * dispatch cost more than the arithmetic. Everything that does not depend on the input is
 * computed once at packing (operator init), so a call is: widen the input row, one
 * multiply-add per pair of depth positions per 16 columns, requantize, store.
 *
 *   acc[n] = sum_k (x[k] + io) * (w[n][k] + fo) + bias[n]                   (int32, wrapping)
 *          = sum_k x[k] * wf[n][k]  +  (bias[n] + io * sum_k wf[n][k])      (mod 2^32)
 * with wf = w + fo (|wf| <= 32767 or the packing refuses). The second term is the packed bias.
 * Every product x * wf and every pair sum fits in int32 (|x| <= 255), and all sums wrap
 * modulo 2^32 like the reference's int32 accumulator: byte-identical results in both quant
 * modes (fp32: tfcc_requant_fp32; fixed point: tflite::MultiplyByQuantizedMultiplier).
 *
 * Packed layout (one for every variant): columns padded to npad (a multiple of 16), depth in
 * pairs, wf as int16: w[(q * npad + n) * 2 + {0,1}] = wf[n][2q], wf[n][2q + 1] (zero past K and
 * N), so one 32-bit broadcast of the input pair (x[2q], x[2q+1]) and one PMADDWD give 16 (or 8)
 * columns' partial sums. bias/scale/mult/shift hold one entry per padded column. */
#ifndef TFCC_KERNELS_Q8_FC_SMALL_FC_SMALL_H
#define TFCC_KERNELS_Q8_FC_SMALL_FC_SMALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/ref/conv.h"
#include "tfcc/tfcc.h"
#include "kernels/dispatch_table.h"

/* Limits of the small path: depth (the kernels widen one input row on the stack), weights
 * (units x depth) and work per call (batches x units x depth multiply-adds); beyond them the
 * q8 GEMM (tiled, threaded, VNNI) is faster (build/bench/q8_fc_small_bench: at 16384 MACs the
 * two are even at batch 1 and 2, and the GEMM is 1.4-2.5x faster at 32768 with 2+ batches). */
#define TFCC_Q8_FCS_MAX_K 1024
#define TFCC_Q8_FCS_MAX_WEIGHTS 16384
#define TFCC_Q8_FCS_MAX_MACS 16384

struct tfcc_q8_fcs_packed;

/* out[b][n] for b < batches: input rows kdim bytes apart, output rows n bytes apart. */
typedef void (*tfcc_q8_fcs_fn)(const struct tfcc_q8_fcs_packed *p, size_t batches, const void *x,
                               void *y);

typedef struct tfcc_q8_fcs_kernel {
  const char *name; /* "q8-fc-small-16-avx512" */
  tfcc_isa isa;
  int feature; /* tfcc_cpu_feature it also needs beyond the level, or -1 (none so far) */
  tfcc_q8_fcs_fn fn;
} tfcc_q8_fcs_kernel;

/* Best variant usable at `isa` on this CPU (never NULL: the generic one). */
TFCC_DISPATCH_TABLE_DECL(tfcc_q8_fcs, tfcc_q8_fcs_kernel);
bool tfcc_q8_fcs_usable(const tfcc_q8_fcs_kernel *k, tfcc_isa isa);

typedef struct tfcc_q8_fcs_packed {
  const tfcc_q8_fcs_kernel *k; /* NULL: not packed */
  const void *src;             /* the weights this was packed from */
  int32_t n, kdim, npad, kpairs;
  bool is_signed; /* int8 (else uint8) activations and output */
  bool fp32;      /* requantize in float (scale); else fixed point (mult, shift) */
  int32_t zp, act_min, act_max;
  float lo, hi;                /* act_min - zp, act_max - zp (fp32 mode) */
  const int16_t *w;            /* [kpairs][npad][2] */
  const int32_t *bias;         /* [npad] bias + io * sum_k wf */
  const float *scale;          /* [npad] (fp32) */
  const int32_t *mult, *shift; /* [npad] (fixed point) */
  /* the one 64-byte aligned block behind the arrays when packed here (freed by packed_free);
   * NULL when the block is the caller's (pack_into) or adopted (a weights cache's) */
  void *mem;
} tfcc_q8_fcs_packed;

/* Why these weights cannot take the small path (NULL: they can): sizes over the limits, a
 * weights offset that does not fit int16. */
const char *tfcc_q8_fcs_refuse(int32_t n, int32_t kdim, const void *src, bool is_signed,
                               const tfcc_conv_requant *r);
/* Packs src[n * kdim + k] (int8 when is_signed, else uint8) with int32 bias (NULL: zero) for
 * requantization r (per-tensor or per-channel; r->scale selects fp32 mode) for kernel k.
 * False when refused (see above) or out of memory; out is then zeroed. */
bool tfcc_q8_fcs_pack(const tfcc_q8_fcs_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                      const void *src, const int32_t *bias, const tfcc_conv_requant *r,
                      tfcc_q8_fcs_packed *out);
/* The same in caller memory (a weights-cache block): the block's size for these shapes (0: none),
 * which does not depend on the values or the variant; the packing into block (that size,
 * 64-byte aligned), and the adoption of a block packed so before for the same weights and
 * requantization (nothing read from src; false where pack would refuse). */
size_t tfcc_q8_fcs_bytes(int32_t n, int32_t kdim);
bool tfcc_q8_fcs_pack_into(const tfcc_q8_fcs_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                           const void *src, const int32_t *bias, const tfcc_conv_requant *r,
                           void *block, tfcc_q8_fcs_packed *out);
bool tfcc_q8_fcs_adopt(const tfcc_q8_fcs_kernel *k, bool is_signed, int32_t n, int32_t kdim,
                       const void *src, const tfcc_conv_requant *r, const void *block,
                       tfcc_q8_fcs_packed *out);
/* Frees the block if the packing owns it (mem), and clears it. */
void tfcc_q8_fcs_packed_free(tfcc_q8_fcs_packed *p);

/* Whether a call with `batches` rows stays within TFCC_Q8_FCS_MAX_MACS. */
static inline bool tfcc_q8_fcs_fits(const tfcc_q8_fcs_packed *p, int64_t batches) {
  return p->k && batches >= 0 && batches * (int64_t)p->n * (int64_t)p->kdim <= TFCC_Q8_FCS_MAX_MACS;
}

/* The variants (one file each). */
void tfcc_q8_fcs_scalar(const tfcc_q8_fcs_packed *p, size_t batches, const void *x, void *y);
void tfcc_q8_fcs_avx2(const tfcc_q8_fcs_packed *p, size_t batches, const void *x, void *y);
void tfcc_q8_fcs_avx512(const tfcc_q8_fcs_packed *p, size_t batches, const void *x, void *y);

#endif

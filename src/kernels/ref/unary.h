/* Unary elementwise kernels (reference): float math, integer ABS/NEG, quantized ABS and SQRT,
 * CAST conversions, FILL and RANGE. Semantics follow TFLite's elementwise.cc, neg.cc, round.cc,
 * cast.cc, fill.cc and range.cc. */
#ifndef TFCC_KERNELS_REF_UNARY_H
#define TFCC_KERNELS_REF_UNARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

typedef enum tfcc_unop {
  TFCC_UN_ABS,
  TFCC_UN_NEG,
  TFCC_UN_EXP,
  TFCC_UN_LOG,
  TFCC_UN_SQRT,
  TFCC_UN_RSQRT,
  TFCC_UN_SQUARE,
  TFCC_UN_FLOOR,
  TFCC_UN_CEIL,
  TFCC_UN_ROUND, /* half to even, by TFLite's RoundToNearest */
  TFCC_UN_SIN,
  TFCC_UN_COS,
  TFCC_UN_NOT, /* bool */
  TFCC_UNOP_COUNT_
} tfcc_unop;

/* Whether a non-quantized kernel exists: every op on float32; ABS and NEG on int8/int16/
 * int32/int64 raw values (wrapping); NOT on bool. */
bool tfcc_ref_unary_supported(tfcc_unop op, tfcc_dtype dt);
bool tfcc_ref_unary(tfcc_unop op, tfcc_dtype dt, const void *in, void *out, int64_t n);

/* Quantized ABS (elementwise.cc AbsEvalQuantized) for int8 / int16. */
typedef struct tfcc_unary_q {
  int32_t in_zp, out_zp;
  float in_scale, out_scale;
  bool needs_rescale;
  int32_t mult, shift; /* QuantizeMultiplier(in_scale / out_scale) (float division) */
} tfcc_unary_q;
void tfcc_unary_q_prepare_abs(tfcc_unary_q *q, float in_scale, int32_t in_zp, float out_scale,
                              int32_t out_zp);
bool tfcc_ref_abs_q(tfcc_dtype dt, const void *in, void *out, int64_t n, const tfcc_unary_q *q);
/* Quantized SQRT (SqrtEvalQuantized): dequantize, sqrtf, truncate. Returns the index of the
 * first negative input (then nothing after it is defined), or -1 on success. */
int64_t tfcc_ref_sqrt_q(tfcc_dtype dt, const void *in, void *out, int64_t n, const tfcc_unary_q *q);

/* CAST between bool, uint8, int8, uint16, int16, uint32, int32, uint64, int64, float16,
 * float32, float64 with C++ static_cast semantics (integers wrap; float -> integer truncates;
 * out-of-range float -> integer yields what x86 does; nonzero -> true); bfloat16 and float8
 * (e4m3fn / e5m2, through float32, kernels/ref/float8.h); int2 / int4 / uint4 (one value per
 * byte) to float32 / float8, and from float32 clamped to their range, then truncated. */
bool tfcc_ref_cast_supported(tfcc_dtype from, tfcc_dtype to);
bool tfcc_ref_cast(tfcc_dtype from, tfcc_dtype to, const void *in, void *out, int64_t n);

/* IEEE binary16 conversions (round to nearest even). */
float tfcc_f16_to_f32(uint16_t h);
uint16_t tfcc_f32_to_f16(float f);

/* FILL uses tfcc_ref_fill from kernels/ref/copy.h. */
#include "kernels/ref/copy.h"

/* RANGE: out[i] accumulated as TFLite does (value = start; value += delta). */
void tfcc_ref_range_f32(float start, float delta, float *out, int64_t n);
void tfcc_ref_range_i32(int32_t start, int32_t delta, int32_t *out, int64_t n);
void tfcc_ref_range_i64(int64_t start, int64_t delta, int64_t *out, int64_t n);

#endif

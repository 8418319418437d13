/* Helpers shared by the shape and data-movement operators (concatenation, split, reshape,
 * slice, gather, pad, transpose, resize, ...): reading small known integer tensors, axis
 * normalization, dtype and quantization checks. */
#ifndef TFCC_OPS_SHAPE_OPS_UTIL_H
#define TFCC_OPS_SHAPE_OPS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/op.h"

/* Input i, or an error naming the op if it is absent. */
tfcc_status tfcc_so_input(tfcc_op_ctx *ctx, int32_t i, const char *op, tfcc_tensor **t);
/* Checks n_in in [min_in, max_in] and n_out == n_out_expected (-1: any >= 1). */
tfcc_status tfcc_so_check_arity(tfcc_op_ctx *ctx, const char *op, int32_t min_in, int32_t max_in,
                                int32_t n_out);
/* Input i, which must have t0's dtype and rank (the later inputs of CONCATENATION, PACK). */
tfcc_status tfcc_so_input_like(tfcc_op_ctx *ctx, int32_t i, const char *op, const tfcc_tensor *t0,
                               tfcc_tensor **t);
/* The opening of most prepares: tfcc_so_check_arity, then input 0 into *in0. */
tfcc_status tfcc_so_open(tfcc_op_ctx *ctx, const char *op, int32_t min_in, int32_t max_in,
                         int32_t n_out, tfcc_tensor **in0);
/* The operators that pad with a value (DILATE, STABLEHLO_PAD): input 0 of a fixed-size dtype
 * and rank >= 1, input pad_index (padding_value) of input 0's dtype. */
tfcc_status tfcc_so_check_padded(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                                 int32_t pad_index, const tfcc_tensor *pad);
/* The opening of a float32-only operator with one input and one output (as TFLite's
 * FAKE_QUANT, LOCAL_RESPONSE_NORMALIZATION): tfcc_so_open, then input 0 must be float32. */
tfcc_status tfcc_so_open_f32(tfcc_op_ctx *ctx, const char *op, tfcc_tensor **in);
/* tfcc_so_open, then input 0's dtype one of `allowed` (terminated by -1; tfcc_so_check_dtype). */
tfcc_status tfcc_so_open_typed(tfcc_op_ctx *ctx, const char *op, int32_t min_in, int32_t max_in,
                               int32_t n_out, const int *allowed, tfcc_tensor **in0);
/* The element types of TFLite's kernels templated over float32 and the integers (MATRIX_DIAG,
 * MATRIX_SET_DIAG, UNIQUE, TOPK_V2): float32, uint8, int8, int16, int32, int64; -1 ends it. */
extern const int tfcc_so_numeric_dtypes[];
/* The opening of a prepare with exactly n inputs, all present: inputs 0..n-1 into *in[0..n-1]. */
tfcc_status tfcc_so_open_n(tfcc_op_ctx *ctx, const char *op, int32_t n, int32_t n_out,
                           tfcc_tensor **const *in);
/* The same for one output, which must have dtype *out_dtype (NULL: input 0's dtype, as the
 * operators that only move or relabel elements): input 0 into *in0, output 0 into *out. */
tfcc_status tfcc_so_open_io(tfcc_op_ctx *ctx, const char *op, int32_t min_in, int32_t max_in,
                            const tfcc_dtype *out_dtype, tfcc_tensor **in0, tfcc_tensor **out);

/* Element size for a dtype that data-movement ops can carry (fixed 1/2/4/8 bytes), else 0. */
size_t tfcc_so_elem_size(tfcc_dtype t);
/* types: the dtypes SPLIT / SPLIT_V / PACK / UNPACK copy: tfcc_so_elem_size's and float8
 * (SPLIT v5, SPLIT_V v3, PACK v5, UNPACK v6). */
bool tfcc_so_copyable(tfcc_dtype t);
/* Fails with TFCC_ERR_UNSUPPORTED if t is not one of the allowed dtypes (terminated by -1). */
tfcc_status tfcc_so_check_dtype(tfcc_op_ctx *ctx, const char *op, const char *what, tfcc_dtype t,
                                const int *allowed);
/* Fails with TFCC_ERR_DTYPE if out->dtype != expected. */
tfcc_status tfcc_so_check_out_dtype(tfcc_op_ctx *ctx, const char *op, int32_t index,
                                    const tfcc_tensor *out, tfcc_dtype expected);
/* ops: the output dtype of GATHER / TRANSPOSE, which copy int4 elements too (v7): in's dtype,
 * or int4 where `in` is a constant int4 tensor of the file, which the loader unpacks into an
 * int8 one (format/tflite_tensor.c); its values must then lie in [-8, 7]. */
tfcc_status tfcc_so_check_copy_out_dtype(tfcc_op_ctx *ctx, const char *op, const tfcc_tensor *in,
                                         const tfcc_tensor *out);
/* ops: an operand of an int4 operator (CONCATENATION v5, DYNAMIC_UPDATE_SLICE v5): int4, or a
 * constant int4 tensor of the file (unpacked to int8 at load) with values in [-8, 7]. */
tfcc_status tfcc_so_int4_operand(tfcc_op_ctx *ctx, const char *op, const char *what,
                                 const tfcc_tensor *t);

/* Reads an int32/int64 tensor whose data is known at prepare time into vals (at most max).
 * what names it in messages ("shape", "paddings"). */
tfcc_status tfcc_so_read_ints(tfcc_op_ctx *ctx, const char *op, const char *what,
                              const tfcc_tensor *t, int64_t *vals, int64_t max, int64_t *count);

/* axis in [-rank, rank) -> [0, rank). */
tfcc_status tfcc_so_axis(tfcc_op_ctx *ctx, const char *op, int64_t axis, int32_t rank,
                         int32_t *out);

/* Number of elements of dims[from..to). */
int64_t tfcc_so_prod(const int32_t *dims, int32_t from, int32_t to);

/* Sets the output shape after checking each dim is in [0, INT32_MAX] and the element count
 * fits in int64 / size_t. */
tfcc_status tfcc_so_set_shape(tfcc_op_ctx *ctx, const char *op, tfcc_tensor *out, int32_t rank,
                              const int64_t *dims);

/* Per-tensor quantization (scale, zero point) of t: (0, 0) when not quantized. */
float tfcc_so_scale(const tfcc_tensor *t);
int32_t tfcc_so_zero_point(const tfcc_tensor *t);

/* GATHER / GATHER_ND inputs: arity 2 -> 1, params of a copyable dtype (int4 too with
 * allow_int4), int16/32/64 indices, output dtype = params dtype (tfcc_so_check_copy_out_dtype
 * with allow_int4). */
tfcc_status tfcc_so_gather_inputs(tfcc_op_ctx *ctx, const char *op, bool allow_int4,
                                  tfcc_tensor **params, tfcc_tensor **indices);

/* Copies in to out (no-op if they alias). */
void tfcc_so_copy(tfcc_tensor *out, const tfcc_tensor *in);

/* A dimension-list option (StableHLO's offset_dims, start_index_map ...): the n entries of v
 * distinct and in [0, lim), and ascending if `ascending`. */
bool tfcc_so_dim_list_ok(const int64_t *v, uint32_t n, int64_t lim, bool ascending);

#endif

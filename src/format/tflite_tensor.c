/* TFLite loader: one tensor (shape, type, name, quantization, sparsity, signature, data). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format/fb_core.h"
#include "format/fb_verify.h"
#include "format/tflite_read_ctx.h"
#include "format/tflite_schema.h"

/* Context prefix of every message about a tensor: "tensor 12 (conv1/weights)". */
#define TENSOR_ERR(c, ti, x, ...) tensor_err((c), (ti), (x)->name, __VA_ARGS__)

static tfcc_status tensor_err(tfl_ctx *c, int32_t ti, const char *name, const char *fmt, ...)
    TFCC_PRINTF(4, 5);
static tfcc_status tensor_err(tfl_ctx *c, int32_t ti, const char *name, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL, "tensor %d (%s): %s", (int)ti,
                      name ? name : "", msg);
}

static tfcc_status read_shape(tfl_ctx *c, const tfcc_fb_table *t, int32_t ti, tfcc_ir_tensor *x) {
  tfcc_fb_vec v;
  bool present;
  tfcc_status st = tfcc_fbv_vector(t, TFL_TENSOR_SHAPE, 4, &v, NULL, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "tensor %d (%s): shape", (int)ti, x->name);
  if (v.count > TFCC_MAX_RANK)
    return TENSOR_ERR(c, ti, x, "rank %u exceeds the maximum %d", v.count, TFCC_MAX_RANK);
  x->rank = (int32_t)v.count;
  for (uint32_t i = 0; i < v.count; i++) {
    x->dims[i] = tfcc_fb_vec_i32(&v, i);
    if (x->dims[i] < 0)
      return TENSOR_ERR(c, ti, x, "dimension %u is %d (negative)", i, (int)x->dims[i]);
    x->signature[i] = x->dims[i];
  }
  if (tfcc_shape_elements(x->rank, x->dims) < 0)
    return TENSOR_ERR(c, ti, x, "shape %s has too many elements",
                      tfcc_shape_str(x->rank, x->dims, (char[160]){0}, 160));

  st = tfcc_fbv_vector(t, TFL_TENSOR_SHAPE_SIGNATURE, 4, &v, &present, c->err);
  if (st != TFCC_OK)
    return tfcc_err_prefix(c->err, "tensor %d (%s): shape_signature", (int)ti, x->name);
  /* An empty shape_signature on a ranked tensor says nothing: treat it as absent. */
  if (!present || (v.count == 0 && x->rank > 0)) return TFCC_OK;
  if (v.count != (uint32_t)x->rank)
    return TENSOR_ERR(c, ti, x, "shape_signature has rank %u, shape has rank %d", v.count,
                      (int)x->rank);
  for (uint32_t i = 0; i < v.count; i++) {
    int32_t s = tfcc_fb_vec_i32(&v, i);
    if (s != -1 && s != x->dims[i])
      return TENSOR_ERR(c, ti, x, "shape_signature dimension %u is %d, shape has %d", i, (int)s,
                        (int)x->dims[i]);
    x->signature[i] = s;
  }
  x->has_signature = true;
  return TFCC_OK;
}

/* Zero points a tensor of this type can hold: the values of its own type (a zero point is a
 * stored value: the real number 0), int32 for wider or non-integer types. */
static void zero_point_range(tfcc_dtype dt, int64_t *lo, int64_t *hi) {
  switch (dt) {
    case TFCC_UINT8: *lo = 0, *hi = UINT8_MAX; break;
    case TFCC_INT8: *lo = INT8_MIN, *hi = INT8_MAX; break;
    case TFCC_INT16: *lo = INT16_MIN, *hi = INT16_MAX; break;
    case TFCC_UINT16: *lo = 0, *hi = UINT16_MAX; break;
    case TFCC_INT4: *lo = -8, *hi = 7; break;
    case TFCC_INT2: *lo = -2, *hi = 1; break;
    case TFCC_UINT4: *lo = 0, *hi = 15; break;
    default: *lo = INT32_MIN, *hi = INT32_MAX; break;
  }
}

static const char *scale_problem(float s) {
  if (isnan(s)) return "not a number";
  if (isinf(s)) return "infinite";
  if (s == 0) return "zero";
  if (s < 0) return "negative";
  return "denormal";
}

/* The zero points of a quantization (count of them, checked): all zero (symmetric weights and
 * their per-channel biases: ~17,000 of MobileNetV2 int8's) point into one shared block of
 * zeros, grown as counts need; others get an array of their own. */
static tfcc_status zero_points(tfl_ctx *c, const tfcc_fb_vec *zp, uint32_t count, bool all_zero,
                               const int32_t **out) {
  if (all_zero) {
    if (count > c->n_zeros) {
      const uint32_t n = count > 256 ? count : 256;
      void *z;
      tfcc_status st = tfl_alloc(c, n, sizeof(int32_t), 4, &z, "zero points");
      if (st != TFCC_OK) return st;
      c->zeros = z;
      c->n_zeros = n;
    }
    *out = c->zeros;
    return TFCC_OK;
  }
  int32_t *z;
  tfcc_status st = tfl_alloc(c, count, sizeof(int32_t), 4, (void **)&z, "zero points");
  if (st != TFCC_OK) return st;
  for (uint32_t i = 0; i < count; i++) z[i] = (int32_t)tfcc_fb_vec_i64(zp, zp->count == 1 ? 0 : i);
  *out = z;
  return TFCC_OK;
}

static tfcc_status read_quant(tfl_ctx *c, const tfcc_fb_table *t, int32_t ti, tfcc_ir_tensor *x) {
  tfcc_fb_table q;
  tfcc_fb_vec scale, zp, min, max;
  bool has_zp;
  uint8_t details_type;
  int32_t qdim;
  tfcc_status st = tfcc_fbv_subtable(t, TFL_TENSOR_QUANTIZATION, &q, c->err);
  if (st == TFCC_OK && q.buf) {
    if ((st = tfcc_fbv_vector(&q, TFL_QUANT_MIN, 4, &min, NULL, c->err)) == TFCC_OK &&
        (st = tfcc_fbv_vector(&q, TFL_QUANT_MAX, 4, &max, NULL, c->err)) == TFCC_OK &&
        (st = tfcc_fbv_vector(&q, TFL_QUANT_SCALE, 4, &scale, NULL, c->err)) == TFCC_OK &&
        (st = tfcc_fbv_vector(&q, TFL_QUANT_ZERO_POINT, 8, &zp, &has_zp, c->err)) == TFCC_OK &&
        (st = tfcc_fbv_u8(&q, TFL_QUANT_DETAILS_TYPE, 0, &details_type, c->err)) == TFCC_OK)
      st = tfcc_fbv_i32(&q, TFL_QUANT_QUANTIZED_DIMENSION, 0, &qdim, c->err);
  }
  if (st != TFCC_OK)
    return tfcc_err_prefix(c->err, "tensor %d (%s): quantization", (int)ti, x->name);
  x->block_size = 0;
  x->block_scales = x->block_zero_points = -1;
  if (q.buf && details_type == TFL_QUANT_DETAILS_BLOCKWISE) { /* checked by the operator */
    tfcc_fb_table d;
    int32_t bs = 0, sc = -1, z = -1;
    if ((st = tfcc_fbv_subtable(&q, TFL_QUANT_DETAILS, &d, c->err)) == TFCC_OK && d.buf &&
        (st = tfcc_fbv_i32(&d, TFL_BLOCKWISE_SCALES, 0, &sc, c->err)) == TFCC_OK &&
        (st = tfcc_fbv_i32(&d, TFL_BLOCKWISE_ZERO_POINTS, 0, &z, c->err)) == TFCC_OK)
      st = tfcc_fbv_i32(&d, TFL_BLOCKWISE_BLOCK_SIZE, 0, &bs, c->err);
    if (st != TFCC_OK)
      return tfcc_err_prefix(c->err, "tensor %d (%s): blockwise quantization", (int)ti, x->name);
    if (!d.buf || bs <= 0)
      return TENSOR_ERR(c, ti, x, "blockwise quantization without details or with block size %d",
                        (int)bs);
    x->block_size = bs;
    x->block_scales = sc;
    x->block_zero_points = z;
    return TFCC_OK;
  }
  /* As TFLite's ParseQuantization: no scales means not quantized (zero points ignored);
   * custom quantization (details) is not affine quantization. */
  if (!q.buf || scale.count == 0 || details_type != 0) return TFCC_OK;
  if (!has_zp)
    return TENSOR_ERR(c, ti, x, "quantization has %u scales but no zero_point", scale.count);
  if (zp.count != scale.count && zp.count != 1)
    return TENSOR_ERR(c, ti, x, "quantization has %u scales and %u zero points", scale.count,
                      zp.count);
  int32_t axis = 0;
  if (scale.count > 1) {
    axis = qdim;
    if (x->rank == 1 && (axis < 0 || axis >= 1)) {
      /* Converters emit per-channel 1-D biases with the weights' quantized_dimension (e.g. 3);
       * TFLite Micro accepts them; the only possible axis is 0. */
      axis = 0;
    }
    if (axis < 0 || axis >= x->rank)
      return TENSOR_ERR(c, ti, x, "quantized_dimension %d out of range for rank %d", (int)axis,
                        (int)x->rank);
    if ((int64_t)scale.count != x->dims[axis])
      return TENSOR_ERR(c, ti, x, "%u per-axis scales for dimension %d of size %d", scale.count,
                        (int)axis, (int)x->dims[axis]);
  } else if (qdim >= 0 && qdim < x->rank) {
    axis = qdim;
  }
  x->quant.count = (int32_t)scale.count;
  x->quant.axis = axis;
  st = tfl_alloc(c, scale.count, sizeof(float), 4, (void **)&x->quant.scale, "scales");
  if (st != TFCC_OK) return st;
  int64_t zlo, zhi;
  zero_point_range(x->dtype, &zlo, &zhi);
  /* TFLite's post-training quantizer gives an all-zero channel of per-channel weights (pruned
   * filters) the scale 0 (half range 0 / 127), and its bias the scale input x 0: the channel's
   * requantisation multiplier is 0 and it outputs the zero point, in TFLite as here. Allowed
   * there only: a per-tensor or activation scale of 0 has no such meaning. A negative scale
   * of constant per-axis weights (mcunet: batch-norm folded with negative gammas) is a
   * negative multiplier in TFLite's per-channel kernels, which run it (XNNPACK refuses it). */
  const bool constant = x->buffer < c->n_buffers && c->buffers[x->buffer].data;
  const bool constant_per_axis = scale.count > 1 && constant;
  /* A per-tensor scale of 0 on a constant: TFLite's quantizer writes it for an all-zero int16
   * constant that only QUANTIZE nodes requantize (AmbiqAI's neuralSPOT mut_model_data: its
   * CONCATENATION inputs), multiplier 0 in TFLite, whose outputs are the zero point. Kept
   * here; check_zero_scales (tflite_subgraph.c, after the operators) allows it only there. */
  const bool constant_per_tensor = scale.count == 1 && constant;
  /* A positive denormal per-tensor scale on an activation: TFLite's quantizer writes it for the
   * product of a zero-scale constant (AmbiqAI's nnse / nnsp LSTM: `sequential/lstm/zeros` x a
   * sigmoid, 3.6e-43), whose readers' QuantizeMultiplier flushes it to multiplier 0. Kept here;
   * check_zero_scales allows it only there. */
  const bool activation_per_tensor = scale.count == 1 && !constant;
  bool all_zero = true;
  for (uint32_t i = 0; i < scale.count; i++) {
    int64_t z = tfcc_fb_vec_i64(&zp, zp.count == 1 ? 0 : i);
    float s = tfcc_fb_vec_f32(&scale, i);
    /* Every kernel divides by or takes the logarithm of the scale and converts the zero point
     * to the stored type: one check here covers every operator. */
    if (z < INT32_MIN || z > INT32_MAX)
      return TENSOR_ERR(c, ti, x, "zero point %u is %lld, outside int32", i, (long long)z);
    if ((!isnormal(s) || s < 0) && !((s == 0 || (isnormal(s) && s < 0)) && constant_per_axis) &&
        !(s == 0 && constant_per_tensor) &&
        !(s > 0 && fpclassify(s) == FP_SUBNORMAL && activation_per_tensor))
      return TENSOR_ERR(
          c, ti, x, "quantization scale %u is %g (%s); scales must be finite, positive and normal",
          i, (double)s, scale_problem(s));
    if (z < zlo || z > zhi)
      return TENSOR_ERR(c, ti, x, "quantization zero point %u is %lld, outside %s [%lld, %lld]", i,
                        (long long)z, tfcc_dtype_name(x->dtype), (long long)zlo, (long long)zhi);
    x->quant.scale[i] = s;
    all_zero &= z == 0;
  }
  if ((st = zero_points(c, &zp, scale.count, all_zero, &x->quant.zero_point)) != TFCC_OK) return st;
  /* copied: the vectors (with their length words) are read no more */
  st = tfl_note_copied(c, scale.data - 4, 4 + (size_t)scale.count * 4);
  if (st == TFCC_OK && zp.count) st = tfl_note_copied(c, zp.data - 4, 4 + (size_t)zp.count * 8);
  return st;
}

/* One SparseIndexVector union (type field, value field) of a DimensionMetadata. */
static tfcc_status read_index_vector(tfl_ctx *c, const tfcc_fb_table *dm, int type_field,
                                     int value_field, tfcc_sparse_index *out) {
  uint8_t type;
  tfcc_fb_table vt;
  tfcc_status st = tfcc_fbv_u8(dm, type_field, 0, &type, c->err);
  if (st != TFCC_OK) return st;
  if ((st = tfcc_fbv_subtable(dm, value_field, &vt, c->err)) != TFCC_OK) return st;
  memset(out, 0, sizeof *out);
  if (type == 0 || !vt.buf) return TFCC_OK;
  size_t elem;
  switch (type) {
    case TFCC_SPARSE_IDX_I32: elem = 4; break;
    case TFCC_SPARSE_IDX_U16: elem = 2; break;
    case TFCC_SPARSE_IDX_U8: elem = 1; break;
    default:
      return tfcc_err_set(c->err, TFCC_ERR_INVALID_MODEL, "unknown index vector type %u",
                          (unsigned)type);
  }
  tfcc_fb_vec v;
  bool present;
  st = tfcc_fbv_vector(&vt, TFL_INDEX_VECTOR_VALUES, elem, &v, &present, c->err);
  if (st != TFCC_OK) return st;
  if (!present) return TFCC_OK;
  out->type = (tfcc_sparse_index_type)type;
  out->count = v.count;
  out->data = v.data;
  return TFCC_OK;
}

/* Verifies the sparsity metadata against the dense shape and counts the stored values, with
 * the rules of TFLite's verifier (VerifyAndCountSparseElements). */
static tfcc_status count_sparse_values(tfl_ctx *c, int32_t ti, const tfcc_ir_tensor *x,
                                       const tfcc_sparsity *sp, uint64_t *count) {
  int32_t rank = x->rank, total = sp->n_traversal;
  if (sp->n_dim_meta != total || total < rank || total > 2 * TFCC_MAX_RANK)
    return TENSOR_ERR(c, ti, x,
                      "sparsity has %d traversal dimensions and %d dim_metadata for rank %d",
                      (int)total, (int)sp->n_dim_meta, (int)rank);
  int32_t block_rank = total - rank;
  if (sp->n_block_map != block_rank)
    return TENSOR_ERR(c, ti, x, "sparsity block_map has %d entries, expected %d",
                      (int)sp->n_block_map, (int)block_rank);
  /* traversal_order: a permutation of 0..rank-1, then of rank..total-1. */
  bool seen[2 * TFCC_MAX_RANK] = {false};
  for (int32_t i = 0; i < total; i++) {
    int32_t d = sp->traversal_order[i];
    int32_t lo = i < rank ? 0 : rank, hi = i < rank ? rank : total;
    if (d < lo || d >= hi || seen[d])
      return TENSOR_ERR(c, ti, x, "sparsity traversal_order[%d] = %d is not a valid permutation",
                        (int)i, (int)d);
    seen[d] = true;
  }
  /* Sizes of the expanded dimensions (d0..dn-1, then the block dimensions). */
  int64_t size[2 * TFCC_MAX_RANK];
  for (int32_t i = 0; i < rank; i++) size[i] = x->dims[i];
  for (int32_t i = 0; i < block_rank; i++) {
    int32_t bd = sp->traversal_order[rank + i];
    int32_t block = sp->dim_meta[rank + i].dense_size;
    int32_t mapped = sp->block_map[i];
    if (block <= 0)
      return TENSOR_ERR(c, ti, x, "sparsity block dimension %d has size %d", (int)i, (int)block);
    if (mapped < 0 || mapped >= rank)
      return TENSOR_ERR(c, ti, x, "sparsity block_map[%d] = %d out of range for rank %d", (int)i,
                        (int)mapped, (int)rank);
    if (x->dims[mapped] % block != 0)
      return TENSOR_ERR(c, ti, x, "sparsity block size %d does not divide dimension %d (%d)",
                        (int)block, (int)mapped, (int)x->dims[mapped]);
    size[bd] = block;
    size[mapped] /= block;
  }
  uint64_t n = 1;
  for (int32_t i = 0; i < total; i++) {
    const tfcc_dim_meta *dm = &sp->dim_meta[i];
    int64_t dim_size = size[sp->traversal_order[i]];
    if (dm->format == 0) {
      if (dm->dense_size != dim_size)
        return TENSOR_ERR(c, ti, x, "sparsity level %d: dense_size %d, dimension size %lld", (int)i,
                          (int)dm->dense_size, (long long)dim_size);
      n *= (uint64_t)dim_size;
      if (n > UINT32_MAX) return TENSOR_ERR(c, ti, x, "sparsity: too many elements");
      continue;
    }
    if (dm->format != 1)
      return TENSOR_ERR(c, ti, x, "sparsity level %d: unknown format %d", (int)i, (int)dm->format);
    const tfcc_sparse_index *seg = &dm->segments, *idx = &dm->indices;
    if (seg->type == TFCC_SPARSE_IDX_NONE || idx->type == TFCC_SPARSE_IDX_NONE)
      return TENSOR_ERR(c, ti, x, "sparsity level %d: CSR dimension without segments/indices",
                        (int)i);
    if ((uint64_t)seg->count != n + 1)
      return TENSOR_ERR(c, ti, x, "sparsity level %d: %u segments for %llu parent elements", (int)i,
                        seg->count, (unsigned long long)n);
    tfcc_status st = tfl_charge(c, (size_t)seg->count + idx->count, "sparsity indices");
    if (st != TFCC_OK) return st;
    int32_t prev = 0;
    for (uint32_t k = 0; k < seg->count; k++) {
      int32_t s = tfcc_sparse_index_get(seg, k);
      if (s < prev || (k == 0 && s != 0))
        return TENSOR_ERR(c, ti, x,
                          "sparsity level %d: segment %u = %d is not non-decreasing "
                          "from 0",
                          (int)i, k, (int)s);
      prev = s;
    }
    if ((uint32_t)prev != idx->count)
      return TENSOR_ERR(c, ti, x, "sparsity level %d: last segment %d, %u indices", (int)i,
                        (int)prev, idx->count);
    for (uint32_t k = 0; k < idx->count; k++) {
      int32_t v = tfcc_sparse_index_get(idx, k);
      if (v < 0 || v >= dim_size)
        return TENSOR_ERR(c, ti, x, "sparsity level %d: index %u = %d out of range [0,%lld)",
                          (int)i, k, (int)v, (long long)dim_size);
    }
    n = idx->count;
  }
  *count = n;
  return TFCC_OK;
}

static tfcc_status read_int_vector(tfl_ctx *c, const tfcc_fb_table *t, int field, int32_t *count,
                                   int32_t **out) {
  tfcc_fb_vec v;
  tfcc_status st = tfcc_fbv_vector(t, field, 4, &v, NULL, c->err);
  if (st != TFCC_OK) return st;
  if ((st = tfl_alloc(c, v.count, sizeof(int32_t), 4, (void **)out, "sparsity")) != TFCC_OK)
    return st;
  *count = (int32_t)v.count;
  for (uint32_t i = 0; i < v.count; i++) (*out)[i] = tfcc_fb_vec_i32(&v, i);
  return TFCC_OK;
}

static tfcc_status read_sparsity(tfl_ctx *c, const tfcc_fb_table *t, int32_t ti, tfcc_ir_tensor *x,
                                 uint64_t *values) {
  tfcc_fb_table s;
  tfcc_status st = tfcc_fbv_subtable(t, TFL_TENSOR_SPARSITY, &s, c->err);
  if (st != TFCC_OK || !s.buf) goto done;
  tfcc_sparsity *sp;
  if ((st = tfl_alloc(c, 1, sizeof *sp, 8, (void **)&sp, "sparsity")) != TFCC_OK) return st;
  tfcc_fb_vec dims;
  if ((st = read_int_vector(c, &s, TFL_SPARSITY_TRAVERSAL_ORDER, &sp->n_traversal,
                            &sp->traversal_order)) != TFCC_OK ||
      (st = read_int_vector(c, &s, TFL_SPARSITY_BLOCK_MAP, &sp->n_block_map, &sp->block_map)) !=
          TFCC_OK ||
      (st = tfcc_fbv_vector(&s, TFL_SPARSITY_DIM_METADATA, 4, &dims, NULL, c->err)) != TFCC_OK)
    goto done;
  if (dims.count > 2 * TFCC_MAX_RANK)
    return TENSOR_ERR(c, ti, x, "sparsity has %u dim_metadata entries", dims.count);
  st = tfl_alloc(c, dims.count, sizeof(tfcc_dim_meta), 8, (void **)&sp->dim_meta, "sparsity");
  if (st != TFCC_OK) return st;
  sp->n_dim_meta = (int32_t)dims.count;
  for (uint32_t i = 0; i < dims.count && st == TFCC_OK; i++) {
    tfcc_dim_meta *dm = &sp->dim_meta[i];
    tfcc_fb_table d;
    int8_t format = 0;
    if ((st = tfcc_fbv_vec_table(&s, &dims, i, &d, c->err)) == TFCC_OK &&
        (st = tfcc_fbv_i8(&d, TFL_DIM_FORMAT, 0, &format, c->err)) == TFCC_OK &&
        (st = tfcc_fbv_i32(&d, TFL_DIM_DENSE_SIZE, 0, &dm->dense_size, c->err)) == TFCC_OK &&
        (st = read_index_vector(c, &d, TFL_DIM_SEGMENTS_TYPE, TFL_DIM_SEGMENTS, &dm->segments)) ==
            TFCC_OK)
      st = read_index_vector(c, &d, TFL_DIM_INDICES_TYPE, TFL_DIM_INDICES, &dm->indices);
    dm->format = format;
  }
  if (st != TFCC_OK) goto done;
  x->sparsity = sp;
  if ((st = count_sparse_values(c, ti, x, sp, values)) != TFCC_OK) return st;
  /* review59: DENSIFY expands it at load, so its dense form is charged to the load budget: a
   * 1 KiB file declaring a [83886085, 7] float32 tensor of 7 values took 2.3 GB and seconds */
  const int64_t n = tfcc_shape_elements(x->rank, x->dims);
  const uint64_t es = tfcc_dtype_size(x->dtype) ? tfcc_dtype_size(x->dtype) : 1;
  char what[160];
  snprintf(what, sizeof what, "tensor %d (%s): the dense form of a sparse tensor (%lld elements)",
           (int)ti, x->name, (long long)n);
  return tfl_charge(c, n < 0 || (uint64_t)n > SIZE_MAX / es ? SIZE_MAX : (size_t)((uint64_t)n * es),
                    what);
done:
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "tensor %d (%s): sparsity", (int)ti, x->name);
  return st;
}

/* Checks a string tensor's buffer (TFLite string_util layout: int32 count N, N+1 int32
 * offsets from the buffer start, the bytes; offsets non-decreasing, the last = size). */
static tfcc_status check_string_buffer(tfl_ctx *c, int32_t ti, const tfcc_ir_tensor *x,
                                       const uint8_t *p, size_t size, int64_t elements) {
  if (size < 4) return TENSOR_ERR(c, ti, x, "string buffer of %zu bytes", size);
  uint32_t n = tfcc_fb_ld32(p);
  if ((uint64_t)n + 2 > (size / 4))
    return TENSOR_ERR(c, ti, x, "string buffer of %zu bytes cannot hold %u strings", size, n);
  if ((int64_t)n != elements)
    return TENSOR_ERR(c, ti, x, "string buffer holds %u strings, shape needs %lld", n,
                      (long long)elements);
  uint32_t prev = (n + 2) * 4;
  if (tfcc_fb_ld32(p + 4) != prev)
    return TENSOR_ERR(c, ti, x, "string buffer: first offset must be %u", prev);
  for (uint32_t i = 1; i <= n; i++) {
    uint32_t o = tfcc_fb_ld32(p + 4 + 4 * (size_t)i);
    if (o < prev || o > size)
      return TENSOR_ERR(c, ti, x, "string buffer: offset %u = %u out of order or past %zu", i, o,
                        size);
    prev = o;
  }
  if (prev != size)
    return TENSOR_ERR(c, ti, x, "string buffer: last offset %u, buffer has %zu bytes", prev, size);
  return TFCC_OK;
}

/* ops: a constant int4 tensor becomes an int8 one (same values, same quantization), one byte
 * per element, as TFLite's kernels unpack int4 weights (UnpackDenseInt4IntoInt8) before running
 * their int8 arithmetic: the buffer is read as packed, element 2i in the low nibble of byte i and
 * 2i + 1 in the high nibble, each sign-extended. types: int2 (four a byte, element 4i + k in bits
 * 2k..2k+1, sign-extended) becomes int8 and uint4 (two a byte, as int4, not sign-extended)
 * uint8, as TFLite's UnpackPackedIntToInt8. */
static tfcc_status unpack_packed(tfcc_ir_tensor *x, tfl_ctx *c, const tfl_buffer *b,
                                 int64_t elements) {
  void *mem = NULL;
  const char *what = x->dtype == TFCC_INT2    ? "unpacked int2 constant"
                     : x->dtype == TFCC_UINT4 ? "unpacked uint4 constant"
                                              : "unpacked int4 constant";
  tfcc_status st = tfl_alloc(c, (size_t)elements + 1, 1, 16, &mem, what);
  if (st != TFCC_OK) return st;
  const unsigned bits = x->dtype == TFCC_INT2 ? 2 : 4, per = 8 / bits, mask = (1u << bits) - 1;
  const bool is_signed = x->dtype != TFCC_UINT4;
  uint8_t *dst = mem;
  const uint8_t *src = b->data;
  for (int64_t i = 0; i < elements; i++) {
    const unsigned v = (unsigned)(src[i / per] >> (bits * (unsigned)(i % per))) & mask;
    const int s = is_signed && v > (mask >> 1) ? (int)v - (int)(mask + 1) : (int)v;
    dst[i] = (uint8_t)(int8_t)s;
  }
  x->dtype = x->dtype == TFCC_UINT4 ? TFCC_UINT8 : TFCC_INT8;
  x->data = mem;
  x->data_bytes = (size_t)elements;
  return TFCC_OK;
}

static tfcc_status attach_data(tfl_ctx *c, int32_t ti, tfcc_ir_tensor *x, uint64_t sparse_values) {
  /* Buffer 0 reads as empty whatever the file holds there (tfl_ctx.buffer0: XMOS' stripping
   * tool writes a bias there; TFLite then stops at "Input tensor N lacks data", and the dataflow
   * check names the tensor here). */
  tfl_buffer *b = &c->buffers[x->buffer];
  if (!b->data) {
    /* ops: a tensor of no elements whose buffer has an empty data vector is a constant of no
     * bytes (converters write RESHAPE's new shape [] so); TFLite's verifier counts it as
     * constant too; so is a sparse tensor whose sparsity stores no values (all zeros: both
     * TFLite engines densify it to zeros, review59). Anything else without bytes is not
     * constant. */
    if (b->empty && !x->is_variable &&
        (x->sparsity ? sparse_values == 0 : tfcc_shape_elements(x->rank, x->dims) == 0)) {
      x->data = c->file;
      x->data_bytes = 0;
    }
    return TFCC_OK;
  }
  if (x->is_variable)
    return tfcc_err_set(c->err, TFCC_ERR_UNSUPPORTED,
                        "tensor %d (%s): variable tensor with a constant buffer %u (TFLite does "
                        "not support initialised variables either)",
                        (int)ti, x->name, x->buffer);
  int64_t elements = x->sparsity ? (int64_t)sparse_values : tfcc_shape_elements(x->rank, x->dims);
  size_t esize = tfcc_dtype_size(x->dtype);
  char shape[160];
  tfcc_shape_str(x->rank, x->dims, shape, sizeof shape);
  if (x->dtype == TFCC_STRING) {
    tfcc_status st = check_string_buffer(c, ti, x, b->data, b->size, elements);
    if (st != TFCC_OK) return st;
  } else if (x->dtype == TFCC_INT4 || x->dtype == TFCC_INT2 || x->dtype == TFCC_UINT4) {
    /* Packed two (int2: four) per byte, or (as TFLite's verifier counts it) one per byte. */
    const uint64_t per = x->dtype == TFCC_INT2 ? 4 : 2;
    uint64_t packed = ((uint64_t)elements + per - 1) / per;
    if (b->size != packed && b->size != (uint64_t)elements)
      return TENSOR_ERR(c, ti, x, "buffer %u holds %zu bytes, shape %s %s needs %llu", x->buffer,
                        b->size, shape, tfcc_dtype_name(x->dtype), (unsigned long long)packed);
  } else if (esize == 0) {
    return TENSOR_ERR(c, ti, x, "%s tensor cannot have constant data (buffer %u)",
                      tfcc_dtype_name(x->dtype), x->buffer);
  } else {
    uint64_t need = (uint64_t)elements * esize; /* elements < 2^63 / ... see below */
    if ((uint64_t)elements > UINT64_MAX / esize || need != b->size) {
      if (x->sparsity)
        return TENSOR_ERR(c, ti, x,
                          "buffer %u holds %zu bytes, its sparsity encodes %lld %s values (%llu "
                          "bytes)",
                          x->buffer, b->size, (long long)elements, tfcc_dtype_name(x->dtype),
                          (unsigned long long)need);
      return TENSOR_ERR(c, ti, x, "buffer %u holds %zu bytes, shape %s %s needs %llu", x->buffer,
                        b->size, shape, tfcc_dtype_name(x->dtype), (unsigned long long)need);
    }
  }
  if (x->dtype == TFCC_INT4 || x->dtype == TFCC_INT2 || x->dtype == TFCC_UINT4)
    return unpack_packed(x, c, b, elements);
  size_t align = esize > 8 ? 8 : esize ? esize : 1;
  if (x->dtype == TFCC_STRING) align = 4;
  if ((uintptr_t)b->data % align != 0) {
    /* Misaligned in this mapping: one aligned copy per buffer, shared by its tensors. */
    if (!b->aligned) {
      tfcc_status st = tfl_alloc(c, b->size, 1, 16, &b->aligned, "aligned constant copy");
      if (st != TFCC_OK) return st;
      memcpy(b->aligned, b->data, b->size);
    }
    x->data = b->aligned;
  } else {
    x->data = b->data;
  }
  x->data_bytes = b->size;
  return TFCC_OK;
}

tfcc_status tfl_read_tensor(tfl_ctx *c, const tfcc_fb_table *t, int32_t si, int32_t ti,
                            tfcc_ir_tensor *x) {
  const char *name;
  uint32_t name_len;
  tfcc_status st = tfcc_fbv_string(t, TFL_TENSOR_NAME, &name, &name_len, c->err);
  if (st != TFCC_OK) return tfcc_err_prefix(c->err, "tensor %d: name", (int)ti);
  if ((st = tfl_strdup(c, name, name_len, &x->name)) != TFCC_OK) return st;
  int8_t type;
  uint8_t is_var, has_rank;
  tfcc_fb_vec variants;
  if ((st = tfcc_fbv_i8(t, TFL_TENSOR_TYPE, 0, &type, c->err)) != TFCC_OK ||
      (st = tfcc_fbv_u32(t, TFL_TENSOR_BUFFER, 0, &x->buffer, c->err)) != TFCC_OK ||
      (st = tfcc_fbv_u8(t, TFL_TENSOR_IS_VARIABLE, 0, &is_var, c->err)) != TFCC_OK)
    return tfcc_err_prefix(c->err, "tensor %d (%s)", (int)ti, x->name);
  if ((st = tfcc_fbv_u8(t, TFL_TENSOR_HAS_RANK, 0, &has_rank, c->err)) != TFCC_OK ||
      (st = tfcc_fbv_vector(t, TFL_TENSOR_VARIANT_TENSORS, 4, &variants, NULL, c->err)) != TFCC_OK)
    return tfcc_err_prefix(c->err, "tensor %d (%s)", (int)ti, x->name);
  if (type < 0 || type >= TFCC_DTYPE_COUNT_)
    return TENSOR_ERR(c, ti, x, "unknown type %d", (int)type);
  x->dtype = (tfcc_dtype)type;
  x->is_variable = is_var != 0;
  if (x->buffer != 0 && x->buffer >= c->n_buffers)
    return TENSOR_ERR(c, ti, x, "buffer %u out of range (%u buffers)", x->buffer, c->n_buffers);
  if ((st = read_shape(c, t, ti, x)) != TFCC_OK) return st;
  if ((st = read_quant(c, t, ti, x)) != TFCC_OK) return st;
  uint64_t sparse_values = 0;
  if ((st = read_sparsity(c, t, ti, x, &sparse_values)) != TFCC_OK) return st;
  if (x->buffer < c->n_buffers) st = attach_data(c, ti, x, sparse_values);
  (void)si;
  return st;
}

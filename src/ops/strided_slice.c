/* STRIDED_SLICE: inputs (input, begin, end, strides) known int32 vectors of one length;
 * StridedSliceOptions: begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask,
 * offset. Follows TFLite strided_slice.cc: masks are first expanded into "effective" per-axis
 * parameters (BuildStridedSliceParams: the ellipsis covers the unspecified axes, new axes are
 * size-1 input axes), then each axis uses StridedSliceStartForAxis / StridedSliceEndForAxis
 * (normalize negative, clamp to [0,size] or [-1,size-1], masks override, offset: end += start).
 * The copy runs the planned copy of kernels/move (contiguous runs as single moves or memcpy);
 * tfcc_ref_copy_nd is its reference twin (tests/ops/test_move.c). */
#include "kernels/move/move.h"
#include "kernels/ref/copy.h"
#include "ops/shape_ops_util.h"

#define OP "STRIDED_SLICE"
#define SS_MAX 32 /* masks are 32-bit */

typedef struct ss_plan {
  int32_t out_rank;
  int64_t out_dims[TFCC_MAX_RANK];
  int32_t copy_rank; /* axes with count != 1 */
  int32_t copy_dims[TFCC_MAX_RANK];
  int64_t copy_in_strides[TFCC_MAX_RANK];
  int64_t in_offset;
  bool empty;
} ss_plan;

static int32_t clamp_i(int64_t v, int64_t lo, int64_t hi) {
  return (int32_t)(v < lo ? lo : (v > hi ? hi : v));
}

static tfcc_status ss_plan_make(tfcc_op_ctx *ctx, const tfcc_tensor *in, ss_plan *p) {
  const tfcc_strided_slice_options *o = &ctx->node->opts.strided_slice;
  const int32_t begin_mask_o = o->begin_mask, end_mask_o = o->end_mask;
  const int32_t ellipsis_mask = o->ellipsis_mask, new_axis_mask = o->new_axis_mask;
  const int32_t shrink_o = o->shrink_axis_mask;
  const bool offset = o->offset;
  int64_t b[SS_MAX], e[SS_MAX], s[SS_MAX], nb, ne, ns;
  tfcc_status st;
  for (int32_t i = 1; i <= 3; i++)
    TFCC_OP_CHECK(ctx, ctx->in[i]->dtype == TFCC_INT32 || ctx->in[i]->dtype == TFCC_INT64,
                  TFCC_ERR_DTYPE, OP ": input %d dtype %s, expected int32", (int)i,
                  tfcc_dtype_name(ctx->in[i]->dtype));
  if ((st = tfcc_so_read_ints(ctx, OP, "begin", ctx->in[1], b, SS_MAX, &nb)) ||
      (st = tfcc_so_read_ints(ctx, OP, "end", ctx->in[2], e, SS_MAX, &ne)) ||
      (st = tfcc_so_read_ints(ctx, OP, "strides", ctx->in[3], s, SS_MAX, &ns)))
    return st;
  TFCC_OP_CHECK(ctx, nb == ne && ne == ns, TFCC_ERR_SHAPE,
                OP ": begin, end and strides have %lld, %lld, %lld entries", (long long)nb,
                (long long)ne, (long long)ns);
  const int32_t begin_count = (int32_t)nb, input_dims = in->rank;
  int32_t num_add_axis = 0;
  for (int32_t i = 0; i < begin_count; i++)
    if (!((1u << i) & (uint32_t)ellipsis_mask) && ((1u << i) & (uint32_t)new_axis_mask))
      num_add_axis++;
  const int32_t eff_dims = input_dims + num_add_axis;
  TFCC_OP_CHECK(ctx, eff_dims <= SS_MAX, TFCC_ERR_UNSUPPORTED, OP ": %d effective axes",
                (int)eff_dims);
  /* Effective ellipsis / new-axis masks (TFLite BuildStridedSliceParams). */
  uint32_t eff_ellipsis = 0, eff_new_axis = 0;
  int32_t ellipsis_start = eff_dims, expanded_ellipsis = 0;
  for (int32_t i = 0; i < eff_dims;) {
    if ((1u << i) & (uint32_t)ellipsis_mask) {
      ellipsis_start = i;
      int32_t end_idx = i + 1 + num_add_axis + input_dims - begin_count;
      if (end_idx > eff_dims) end_idx = eff_dims;
      if (end_idx < i + 1) end_idx = i + 1;
      expanded_ellipsis = end_idx - ellipsis_start - 1;
      for (; i < end_idx; i++) eff_ellipsis |= 1u << i;
      continue;
    }
    if (i - expanded_ellipsis >= 0 && i - expanded_ellipsis < 32 &&
        ((1u << (i - expanded_ellipsis)) & (uint32_t)new_axis_mask))
      eff_new_axis |= 1u << i;
    i++;
  }
  int32_t start[SS_MAX], stop[SS_MAX], stride[SS_MAX], shape[SS_MAX], in_axis[SS_MAX];
  uint32_t bm = 0, em = 0, sm = 0;
  int32_t added_ellipsis = 0, added_axes = 0;
  for (int32_t i = 0; i < eff_dims; i++) {
    in_axis[i] = -1;
    if ((1u << i) & eff_ellipsis) {
      added_ellipsis = i - ellipsis_start > 0 ? i - ellipsis_start : 0;
      bm |= 1u << i;
      em |= 1u << i;
      start[i] = 0;
      stop[i] = 0;
      stride[i] = 1;
      in_axis[i] = i - added_axes;
    } else if ((1u << i) & eff_new_axis) {
      start[i] = 0;
      stop[i] = 1;
      stride[i] = 1;
      added_axes++;
    } else if (i >= begin_count + expanded_ellipsis) {
      start[i] = 0;
      stop[i] = 0;
      stride[i] = 1;
      bm |= 1u << i;
      em |= 1u << i;
      in_axis[i] = i - added_axes;
    } else {
      const int32_t k = i - added_ellipsis;
      TFCC_OP_CHECK(ctx, k >= 0 && k < begin_count, TFCC_ERR_INVALID_MODEL,
                    OP ": inconsistent ellipsis/new-axis masks");
      TFCC_OP_CHECK(ctx,
                    b[k] >= INT32_MIN && b[k] <= INT32_MAX && e[k] >= INT32_MIN &&
                        e[k] <= INT32_MAX && s[k] >= INT32_MIN && s[k] <= INT32_MAX,
                    TFCC_ERR_INVALID_MODEL, OP ": index %d out of int32 range", (int)k);
      start[i] = (int32_t)b[k];
      stop[i] = (int32_t)e[k];
      stride[i] = (int32_t)s[k];
      if ((uint32_t)begin_mask_o & (1u << k)) bm |= 1u << i;
      if ((uint32_t)end_mask_o & (1u << k)) em |= 1u << i;
      if ((uint32_t)shrink_o & (1u << k)) sm |= 1u << i;
      in_axis[i] = i - added_axes;
    }
    if (in_axis[i] >= 0) {
      TFCC_OP_CHECK(ctx, in_axis[i] < input_dims, TFCC_ERR_INVALID_MODEL,
                    OP ": slice spec has more axes than the input rank %d", (int)input_dims);
      shape[i] = in->dims[in_axis[i]];
    } else {
      shape[i] = 1;
    }
  }
  int64_t is[TFCC_MAX_RANK];
  tfcc_ref_strides(in->rank, in->dims, is);
  p->out_rank = 0;
  p->copy_rank = 0;
  p->in_offset = 0;
  p->empty = false;
  for (int32_t i = 0; i < eff_dims; i++) {
    const int32_t size = shape[i], st_i = stride[i];
    TFCC_OP_CHECK(ctx, st_i != 0, TFCC_ERR_INVALID_MODEL, OP ": stride %d is zero", (int)i);
    /* StridedSliceStartForAxis */
    int64_t bgn = start[i];
    if (bgn < 0) bgn += size;
    bgn = st_i > 0 ? clamp_i(bgn, 0, size) : clamp_i(bgn, -1, size - 1);
    if (bm & (1u << i)) bgn = st_i > 0 ? 0 : size - 1;
    /* StridedSliceEndForAxis */
    int64_t end;
    const bool shrink = (sm & (1u << i)) != 0;
    if (shrink) {
      TFCC_OP_CHECK(ctx, bgn >= 0 && bgn < size, TFCC_ERR_SHAPE,
                    OP ": shrink index %d out of range for axis %d of size %d", (int)start[i],
                    (int)i, (int)size);
      end = bgn + 1;
    } else {
      end = stop[i];
      if (offset) end += bgn;
      if (end < 0) end += size;
      end = st_i > 0 ? clamp_i(end, 0, size) : clamp_i(end, -1, size - 1);
      if (em & (1u << i)) end = st_i > 0 ? size : -1;
    }
    int64_t count;
    if (shrink) {
      count = 1;
    } else {
      int64_t diff = end - bgn;
      /* ceil(diff / stride) */
      count = st_i > 0 ? (diff > 0 ? (diff + st_i - 1) / st_i : 0)
                       : (diff < 0 ? (-diff + (-(int64_t)st_i) - 1) / (-(int64_t)st_i) : 0);
      TFCC_OP_CHECK(ctx, p->out_rank < TFCC_MAX_RANK, TFCC_ERR_SHAPE, OP ": output rank exceeds %d",
                    TFCC_MAX_RANK);
      p->out_dims[p->out_rank++] = count;
    }
    if (count == 0) p->empty = true;
    if (in_axis[i] >= 0 && count > 0) {
      p->in_offset += bgn * is[in_axis[i]];
      if (count != 1) {
        p->copy_dims[p->copy_rank] = (int32_t)count;
        p->copy_in_strides[p->copy_rank] = (int64_t)st_i * is[in_axis[i]];
        p->copy_rank++;
      }
    }
  }
  return TFCC_OK;
}

static tfcc_status strided_slice_prepare(tfcc_op_ctx *ctx) {
  tfcc_tensor *in, *t;
  tfcc_status st = tfcc_so_open(ctx, OP, 4, 4, 1, &in);
  if (st) return st;
  for (int32_t i = 1; i < 4; i++)
    if ((st = tfcc_so_input(ctx, i, OP, &t))) return st;
  TFCC_OP_CHECK(ctx, tfcc_so_elem_size(in->dtype) != 0, TFCC_ERR_UNSUPPORTED,
                OP ": input dtype %s is not supported", tfcc_dtype_name(in->dtype));
  if ((st = tfcc_so_check_out_dtype(ctx, OP, 0, ctx->out[0], in->dtype))) return st;
  ss_plan p;
  if ((st = ss_plan_make(ctx, in, &p))) return st;
  return tfcc_so_set_shape(ctx, OP, ctx->out[0], p.out_rank, p.out_dims);
}

static tfcc_status strided_slice_eval(tfcc_op_ctx *ctx) {
  ss_plan p;
  tfcc_status st = ss_plan_make(ctx, ctx->in[0], &p);
  if (st) return st;
  if (p.empty) return TFCC_OK;
  int64_t os[TFCC_MAX_RANK];
  tfcc_ref_strides(p.copy_rank, p.copy_dims, os);
  tfcc_move_copy_nd(p.copy_rank, p.copy_dims, ctx->in[0]->data, p.in_offset, p.copy_in_strides,
                    ctx->out[0]->data, 0, os, tfcc_dtype_size(ctx->in[0]->dtype));
  return TFCC_OK;
}

static const char *strided_slice_kernel(const tfcc_op_ctx *ctx) {
  tfcc_op_quiet q;
  ss_plan p;
  if (ctx->n_in < 4 || !ctx->in[0] || !ctx->in[1] || !ctx->in[2] || !ctx->in[3] || ctx->n_out < 1 ||
      ss_plan_make(tfcc_op_quiet_ctx(ctx, &q), ctx->in[0], &p))
    return "ref";
  if (p.empty) return "move-none";
  int64_t os[TFCC_MAX_RANK];
  tfcc_ref_strides(p.copy_rank, p.copy_dims, os);
  tfcc_move_plan plan;
  tfcc_move_plan_make(&plan, p.copy_rank, p.copy_dims, p.copy_in_strides, os,
                      tfcc_dtype_size(ctx->in[0]->dtype));
  return tfcc_move_kind_name(&plan);
}

const tfcc_op_def tfcc_op_strided_slice = {.name = OP,
                                           .prepare = strided_slice_prepare,
                                           .eval = strided_slice_eval,
                                           .kernel = strided_slice_kernel};

/* The CUDA backend's plan of a session (cuda_plan.h). */
#include "cuda/cuda_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/op_options.h"

#define WHY(...) (snprintf(why, cap, __VA_ARGS__), false)

/* A float32 activation or constant the device can hold: static shape, rank <= 6. */
static bool dev_float(const tfcc_tensor *t) {
  return t && t->dtype == TFCC_FLOAT32 && !t->dynamic && t->rank <= TFCC_GPU_MAX_RANK &&
         t->quant->count == 0 && (t->is_const || !t->known);
}

/* TFLite's padding before the input along one axis (SAME: half the total, the odd one after). */
static int32_t pad_before(int32_t padding, const int32_t *explicit_pad, int32_t in, int32_t out,
                          int32_t k, int32_t stride, int32_t dil) {
  if (padding == TFCC_PAD_EXPLICIT) return explicit_pad[0];
  if (padding != TFCC_PAD_SAME) return 0;
  int64_t total = (int64_t)(out - 1) * stride + (int64_t)(k - 1) * dil + 1 - in;
  return total > 0 ? (int32_t)(total / 2) : 0;
}

/* Fused activation codes the epilogue takes (TFLite's NONE, RELU, RELU_N1_TO_1, RELU6, TANH). */
static bool fused_act_ok(int32_t a) { return a >= 0 && a <= 4; }

static bool conv_like(const tfcc_exec_plan *p, const tfcc_exec_node *en, tfcc_gs *s, bool dw,
                      char *why, size_t cap) {
  const tfcc_op_ctx *c = &en->ctx;
  const tfcc_tensor *x = c->in[0], *w = c->n_in > 1 ? c->in[1] : NULL;
  const tfcc_tensor *b = c->n_in > 2 ? c->in[2] : NULL, *y = c->out[0];
  if (!dev_float(x) || x->is_const || !dev_float(y) || x->rank != 4 || y->rank != 4)
    return WHY("input or output is not a float32 NHWC activation");
  if (!w || !dev_float(w) || !w->is_const || w->rank != 4)
    return WHY("filter is not a constant float32 tensor (quantized or computed)");
  if (b && (!dev_float(b) || !b->is_const)) return WHY("bias is not a constant float32 tensor");
  const tfcc_op_options *o = &c->node->opts;
  int32_t padding, sw, sh, dwl, dhl, act;
  const int32_t *pad;
  if (dw) {
    padding = o->depthwise.padding, sw = o->depthwise.stride_w, sh = o->depthwise.stride_h;
    dwl = o->depthwise.dilation_w, dhl = o->depthwise.dilation_h, act = o->depthwise.activation;
    pad = o->depthwise.pad;
  } else {
    padding = o->conv.padding, sw = o->conv.stride_w, sh = o->conv.stride_h;
    dwl = o->conv.dilation_w, dhl = o->conv.dilation_h, act = o->conv.activation;
    pad = o->conv.pad;
  }
  if (!fused_act_ok(act)) return WHY("fused activation %d", (int)act);
  tfcc_gpu_conv_geom *g = &s->g;
  g->n = x->dims[0], g->ih = x->dims[1], g->iw = x->dims[2], g->ic = x->dims[3];
  g->oh = y->dims[1], g->ow = y->dims[2], g->oc = y->dims[3];
  g->kh = w->dims[1], g->kw = w->dims[2];
  g->sh = sh, g->sw = sw, g->dh = dhl, g->dw = dwl;
  g->pad_top = pad_before(padding, &pad[0], g->ih, g->oh, g->kh, sh, dhl);
  g->pad_left = pad_before(padding, &pad[2], g->iw, g->ow, g->kw, sw, dwl);
  g->depth_multiplier = 1;
  if (y->dims[0] != g->n) return WHY("batch of output and input differ");
  if (dw) {
    if (w->dims[0] != 1 || w->dims[3] != g->oc || g->ic <= 0 || g->oc % g->ic)
      return WHY("depthwise filter [%d,%d,%d,%d] for %d input channels", (int)w->dims[0],
                 (int)w->dims[1], (int)w->dims[2], (int)w->dims[3], (int)g->ic);
    g->depth_multiplier = g->oc / g->ic;
  } else {
    if (w->dims[0] != g->oc || w->dims[3] != g->ic)
      return WHY("grouped convolution (filter [%d,%d,%d,%d], %d input channels)", (int)w->dims[0],
                 (int)w->dims[1], (int)w->dims[2], (int)w->dims[3], (int)g->ic);
  }
  if (b && tfcc_gpu_tensor_elems(b) != g->oc)
    return WHY("bias has %lld values for %d channels", (long long)tfcc_gpu_tensor_elems(b),
               (int)g->oc);
  s->in[0] = x->index, s->in[1] = w->index, s->in[2] = b ? b->index : -1, s->in[3] = -1;
  if (!dw && o->conv.residual) {
    const tfcc_tensor *r = c->n_in > 3 ? c->in[3] : NULL;
    if (!dev_float(r) || tfcc_gpu_tensor_elems(r) != tfcc_gpu_tensor_elems(y))
      return WHY("residual input is not like the output");
    s->in[3] = r->index;
  }
  s->out = y->index;
  s->act = act;
  s->kind = dw ? TFCC_GS_DWCONV : TFCC_GS_CONV;
  if (!dw) {
    s->rows = (int64_t)g->n * g->oh * g->ow;
    s->cols = g->oc;
    s->k = (int64_t)g->kh * g->kw * g->ic;
    s->im2col = !(g->kh == 1 && g->kw == 1 && g->sh == 1 && g->sw == 1 && g->pad_top == 0 &&
                  g->pad_left == 0 && g->oh == g->ih && g->ow == g->iw);
  }
  (void)p;
  return true;
}

static bool fully_connected(const tfcc_exec_node *en, tfcc_gs *s, char *why, size_t cap) {
  const tfcc_op_ctx *c = &en->ctx;
  const tfcc_tensor *x = c->in[0], *w = c->n_in > 1 ? c->in[1] : NULL;
  const tfcc_tensor *b = c->n_in > 2 ? c->in[2] : NULL, *y = c->out[0];
  const tfcc_fully_connected_options *o = &c->node->opts.fc;
  if (!dev_float(x) || x->is_const || !dev_float(y))
    return WHY("input or output is not a float32 activation");
  if (!w || !dev_float(w) || !w->is_const || w->rank != 2 || o->weights_format != 0)
    return WHY("weights are not a constant float32 matrix (quantized or computed)");
  if (b && (!dev_float(b) || !b->is_const)) return WHY("bias is not a constant float32 tensor");
  if (!fused_act_ok(o->activation)) return WHY("fused activation %d", (int)o->activation);
  const int64_t k = w->dims[1], n = w->dims[0];
  if (k <= 0 || tfcc_gpu_tensor_elems(x) % k || (b && tfcc_gpu_tensor_elems(b) != n))
    return WHY("input of %lld values for weights [%lld,%lld]", (long long)tfcc_gpu_tensor_elems(x),
               (long long)n, (long long)k);
  s->kind = TFCC_GS_FC;
  s->in[0] = x->index, s->in[1] = w->index, s->in[2] = b ? b->index : -1, s->in[3] = -1;
  s->out = y->index;
  s->rows = tfcc_gpu_tensor_elems(x) / k, s->cols = n, s->k = k;
  s->act = o->activation;
  if (tfcc_gpu_tensor_elems(y) != s->rows * n)
    return WHY("output of %lld values", (long long)tfcc_gpu_tensor_elems(y));
  return true;
}

static bool binary(const tfcc_exec_node *en, int32_t op, tfcc_gs *s, char *why, size_t cap) {
  const tfcc_op_ctx *c = &en->ctx;
  if (c->n_in != 2) return WHY("%d inputs", (int)c->n_in);
  const tfcc_tensor *a = c->in[0], *b = c->in[1], *y = c->out[0];
  if (!dev_float(a) || !dev_float(b) || !dev_float(y) || y->is_const)
    return WHY("operands are not float32");
  int32_t act = 0;
  const int32_t code = c->node->builtin;
  if (code == TFCC_OP_ADD || code == TFCC_OP_SUB || code == TFCC_OP_MUL || code == TFCC_OP_DIV)
    act = c->node->opts.arith.activation;
  if (!fused_act_ok(act)) return WHY("fused activation %d", (int)act);
  tfcc_gpu_broadcast *bc = &s->bc;
  memset(bc, 0, sizeof *bc);
  const int32_t r = y->rank;
  if (a->rank > r || b->rank > r) return WHY("operand rank above the output's");
  bc->rank = r;
  int64_t sa = 1, sb = 1;
  for (int32_t d = r - 1; d >= 0; d--) {
    const int32_t da = d - (r - a->rank), db = d - (r - b->rank);
    const int64_t na = da >= 0 ? a->dims[da] : 1, nb = db >= 0 ? b->dims[db] : 1;
    bc->dims[d] = y->dims[d];
    if ((na != 1 && na != y->dims[d]) || (nb != 1 && nb != y->dims[d]))
      return WHY("shapes do not broadcast to the output");
    bc->a_strides[d] = na == 1 ? 0 : sa;
    bc->b_strides[d] = nb == 1 ? 0 : sb;
    sa *= na, sb *= nb;
  }
  s->kind = TFCC_GS_BINARY;
  s->op = op;
  s->act = act;
  s->in[0] = a->index, s->in[1] = b->index, s->in[2] = -1, s->in[3] = -1;
  s->out = y->index;
  return true;
}

static bool unary(const tfcc_exec_node *en, int32_t act, float param, tfcc_gs *s, char *why,
                  size_t cap) {
  const tfcc_tensor *x = en->ctx.in[0], *y = en->ctx.out[0];
  if (!dev_float(x) || !dev_float(y) || tfcc_gpu_tensor_elems(x) != tfcc_gpu_tensor_elems(y))
    return WHY("input or output is not float32");
  s->kind = TFCC_GS_UNARY;
  s->act = act;
  s->param = param;
  s->in[0] = x->index, s->in[1] = s->in[2] = s->in[3] = -1;
  s->out = y->index;
  return true;
}

static bool pool(const tfcc_exec_node *en, int32_t is_max, tfcc_gs *s, char *why, size_t cap) {
  const tfcc_tensor *x = en->ctx.in[0], *y = en->ctx.out[0];
  const tfcc_pool_options *o = &en->ctx.node->opts.pool;
  if (!dev_float(x) || !dev_float(y) || x->rank != 4 || y->rank != 4)
    return WHY("input or output is not a float32 NHWC activation");
  if (!fused_act_ok(o->activation)) return WHY("fused activation %d", (int)o->activation);
  tfcc_gpu_conv_geom *g = &s->g;
  g->n = x->dims[0], g->ih = x->dims[1], g->iw = x->dims[2], g->ic = x->dims[3];
  g->oh = y->dims[1], g->ow = y->dims[2], g->oc = y->dims[3];
  g->kh = o->filter_h, g->kw = o->filter_w, g->sh = o->stride_h, g->sw = o->stride_w;
  g->dh = g->dw = 1, g->depth_multiplier = 1;
  g->pad_top = pad_before(o->padding, &o->pad[0], g->ih, g->oh, g->kh, g->sh, 1);
  g->pad_left = pad_before(o->padding, &o->pad[2], g->iw, g->ow, g->kw, g->sw, 1);
  if (g->oc != g->ic) return WHY("channels differ");
  s->kind = TFCC_GS_POOL;
  s->op = is_max;
  s->act = o->activation;
  s->in[0] = x->index, s->in[1] = s->in[2] = s->in[3] = -1;
  s->out = y->index;
  return true;
}

/* Reads constant integer tensor t (int32 or int64) into v[0..n). */
static bool const_ints(const tfcc_tensor *t, int64_t *v, int32_t max, int32_t *n) {
  if (!t || !t->data || (!t->is_const && !t->known)) return false;
  int64_t count = tfcc_gpu_tensor_elems(t);
  if (count > max) return false;
  for (int64_t i = 0; i < count; i++)
    if (t->dtype == TFCC_INT32)
      v[i] = ((const int32_t *)t->data)[i];
    else if (t->dtype == TFCC_INT64)
      v[i] = ((const int64_t *)t->data)[i];
    else
      return false;
  *n = (int32_t)count;
  return true;
}

static bool reduce(const tfcc_exec_node *en, int32_t op, tfcc_gs *s, char *why, size_t cap) {
  const tfcc_tensor *x = en->ctx.in[0], *y = en->ctx.out[0];
  if (!dev_float(x) || !dev_float(y)) return WHY("input or output is not float32");
  int64_t axes[2 * TFCC_GPU_MAX_RANK];
  int32_t n = 0;
  if (!const_ints(en->ctx.n_in > 1 ? en->ctx.in[1] : NULL, axes, 2 * TFCC_GPU_MAX_RANK, &n) ||
      n < 1)
    return WHY("axes are not constant");
  bool red[TFCC_GPU_MAX_RANK] = {false};
  for (int32_t i = 0; i < n; i++) {
    int64_t a = axes[i] < 0 ? axes[i] + x->rank : axes[i];
    if (a < 0 || a >= x->rank) return WHY("axis %lld", (long long)axes[i]);
    red[a] = true;
  }
  int32_t lo = -1, hi = -1;
  for (int32_t d = 0; d < x->rank; d++)
    if (red[d]) {
      if (lo < 0) lo = d;
      if (hi >= 0 && hi != d - 1) return WHY("reduced axes are not adjacent");
      hi = d;
    }
  s->outer = 1, s->reduce = 1, s->inner = 1;
  for (int32_t d = 0; d < x->rank; d++)
    *(d < lo ? &s->outer : d <= hi ? &s->reduce : &s->inner) *= x->dims[d];
  if (s->outer * s->inner != tfcc_gpu_tensor_elems(y)) return WHY("output size");
  s->kind = TFCC_GS_REDUCE;
  s->op = op;
  s->in[0] = x->index, s->in[1] = s->in[2] = s->in[3] = -1;
  s->out = y->index;
  return true;
}

static bool pad(const tfcc_exec_node *en, tfcc_gs *s, char *why, size_t cap) {
  const tfcc_tensor *x = en->ctx.in[0], *y = en->ctx.out[0];
  if (!dev_float(x) || !dev_float(y) || x->rank < 1) return WHY("input or output is not float32");
  int64_t pads[2 * TFCC_GPU_MAX_RANK];
  int32_t n = 0;
  if (!const_ints(en->ctx.in[1], pads, 2 * TFCC_GPU_MAX_RANK, &n) || n != 2 * x->rank)
    return WHY("paddings are not constant");
  float value = 0.0f;
  if (en->ctx.n_in > 2 && en->ctx.in[2]) {
    const tfcc_tensor *v = en->ctx.in[2];
    if (v->dtype != TFCC_FLOAT32 || !v->data || tfcc_gpu_tensor_elems(v) != 1)
      return WHY("pad value");
    value = *(const float *)v->data;
  }
  s->rank = x->rank;
  for (int32_t d = 0; d < x->rank; d++) {
    if (pads[2 * d] < 0 || pads[2 * d + 1] < 0) return WHY("negative padding");
    s->dims[d] = x->dims[d], s->before[d] = pads[2 * d], s->ydims[d] = y->dims[d];
    if (s->ydims[d] != x->dims[d] + pads[2 * d] + pads[2 * d + 1]) return WHY("output shape");
  }
  s->kind = TFCC_GS_PAD;
  s->param = value;
  s->in[0] = x->index, s->in[1] = s->in[2] = s->in[3] = -1;
  s->out = y->index;
  return true;
}

static bool concat(const tfcc_exec_node *en, tfcc_gs *s, char *why, size_t cap) {
  const tfcc_tensor *y = en->ctx.out[0];
  const tfcc_concatenation_options *o = &en->ctx.node->opts.concat;
  if (!dev_float(y) || o->activation != 0) return WHY("output is not float32, or activation");
  int32_t axis = o->axis < 0 ? o->axis + y->rank : o->axis;
  if (axis < 0 || axis >= y->rank) return WHY("axis %d", (int)o->axis);
  for (int32_t k = 0; k < en->ctx.n_in; k++)
    if (!dev_float(en->ctx.in[k]) || en->ctx.in[k]->rank != y->rank)
      return WHY("input %d is not float32 of the output's rank", (int)k);
  s->kind = TFCC_GS_CONCAT;
  s->op = axis;
  s->in[0] = s->in[1] = s->in[2] = s->in[3] = -1;
  s->out = y->index;
  return true;
}

static bool resize(const tfcc_exec_node *en, bool nearest, tfcc_gs *s, char *why, size_t cap) {
  const tfcc_tensor *x = en->ctx.in[0], *y = en->ctx.out[0];
  if (!dev_float(x) || !dev_float(y) || x->rank != 4 || y->rank != 4)
    return WHY("input or output is not a float32 NHWC activation");
  const tfcc_resize_options *o = &en->ctx.node->opts.resize;
  s->rs = (tfcc_gpu_resize){.n = x->dims[0],
                            .ih = x->dims[1],
                            .iw = x->dims[2],
                            .c = x->dims[3],
                            .oh = y->dims[1],
                            .ow = y->dims[2],
                            .align_corners = o->align_corners,
                            .half_pixel_centers = o->half_pixel_centers,
                            .nearest = nearest};
  s->kind = TFCC_GS_RESIZE;
  s->in[0] = x->index, s->in[1] = s->in[2] = s->in[3] = -1;
  s->out = y->index;
  return true;
}

static bool transpose(const tfcc_exec_node *en, tfcc_gs *s, char *why, size_t cap) {
  const tfcc_tensor *x = en->ctx.in[0], *y = en->ctx.out[0];
  if (!dev_float(x) || !dev_float(y)) return WHY("input or output is not float32");
  int64_t perm[TFCC_GPU_MAX_RANK];
  int32_t n = 0;
  if (!const_ints(en->ctx.in[1], perm, TFCC_GPU_MAX_RANK, &n) || n != x->rank)
    return WHY("permutation is not constant");
  s->rank = x->rank;
  for (int32_t d = 0; d < n; d++) {
    if (perm[d] < 0 || perm[d] >= n) return WHY("permutation");
    s->perm[d] = (int32_t)perm[d], s->dims[d] = x->dims[d];
  }
  s->kind = TFCC_GS_TRANSPOSE;
  s->in[0] = x->index, s->in[1] = s->in[2] = s->in[3] = -1;
  s->out = y->index;
  return true;
}

bool tfcc_cuda_classify(const tfcc_exec_plan *p, int32_t e, tfcc_gs *s, char *why, size_t cap) {
  const tfcc_exec_node *en = &p->nodes[e];
  memset(s, 0, sizeof *s);
  s->en = e;
  s->scratch_buf = -1;
  s->in[0] = s->in[1] = s->in[2] = s->in[3] = -1;
  s->out = -1;
  if (en->dynamic) return WHY("its output shape is known only while running");
  if (en->ctx.n_out != 1) return WHY("%d outputs", (int)en->ctx.n_out);
  const tfcc_op_options *o = &en->ctx.node->opts;
  switch (en->ctx.node->builtin) {
    case TFCC_OP_CONV_2D: return conv_like(p, en, s, false, why, cap);
    case TFCC_OP_DEPTHWISE_CONV_2D: return conv_like(p, en, s, true, why, cap);
    case TFCC_OP_FULLY_CONNECTED: return fully_connected(en, s, why, cap);
    case TFCC_OP_ADD: return binary(en, TFCC_GPU_ADD, s, why, cap);
    case TFCC_OP_SUB: return binary(en, TFCC_GPU_SUB, s, why, cap);
    case TFCC_OP_MUL: return binary(en, TFCC_GPU_MUL, s, why, cap);
    case TFCC_OP_DIV: return binary(en, TFCC_GPU_DIV, s, why, cap);
    case TFCC_OP_MAXIMUM: return binary(en, TFCC_GPU_MAX, s, why, cap);
    case TFCC_OP_MINIMUM: return binary(en, TFCC_GPU_MIN, s, why, cap);
    case TFCC_OP_SQUARED_DIFFERENCE: return binary(en, TFCC_GPU_SQUARED_DIFF, s, why, cap);
    case TFCC_OP_POW: return binary(en, TFCC_GPU_POW, s, why, cap);
    case TFCC_OP_RELU: return unary(en, TFCC_GPU_ACT_RELU, 0, s, why, cap);
    case TFCC_OP_RELU6: return unary(en, TFCC_GPU_ACT_RELU6, 0, s, why, cap);
    case TFCC_OP_RELU_N1_TO_1: return unary(en, TFCC_GPU_ACT_RELU_N1_TO_1, 0, s, why, cap);
    case TFCC_OP_RELU_0_TO_1: return unary(en, TFCC_GPU_ACT_RELU_0_TO_1, 0, s, why, cap);
    case TFCC_OP_TANH: return unary(en, TFCC_GPU_ACT_TANH, 0, s, why, cap);
    case TFCC_OP_LOGISTIC: return unary(en, TFCC_GPU_ACT_SIGMOID, 0, s, why, cap);
    case TFCC_OP_HARD_SWISH: return unary(en, TFCC_GPU_ACT_HARD_SWISH, 0, s, why, cap);
    case TFCC_OP_ELU: return unary(en, TFCC_GPU_ACT_ELU, 0, s, why, cap);
    case TFCC_OP_LEAKY_RELU:
      return unary(en, TFCC_GPU_ACT_LEAKY_RELU, o->leaky_relu.alpha, s, why, cap);
    case TFCC_OP_GELU:
      return unary(en, o->gelu.approximate ? TFCC_GPU_ACT_GELU_TANH : TFCC_GPU_ACT_GELU_ERF, 0, s,
                   why, cap);
    case TFCC_OP_AVERAGE_POOL_2D: return pool(en, 0, s, why, cap);
    case TFCC_OP_MAX_POOL_2D: return pool(en, 1, s, why, cap);
    case TFCC_OP_MEAN: return reduce(en, 0, s, why, cap);
    case TFCC_OP_SUM: return reduce(en, 1, s, why, cap);
    case TFCC_OP_REDUCE_MAX: return reduce(en, 2, s, why, cap);
    case TFCC_OP_SOFTMAX: {
      const tfcc_tensor *x = en->ctx.in[0], *y = en->ctx.out[0];
      if (!dev_float(x) || !dev_float(y) || x->rank < 1) return WHY("input is not float32");
      s->kind = TFCC_GS_SOFTMAX;
      s->cols = x->dims[x->rank - 1];
      s->rows = s->cols ? tfcc_gpu_tensor_elems(x) / s->cols : 0;
      s->param = o->softmax.beta;
      s->in[0] = x->index;
      s->out = y->index;
      return true;
    }
    case TFCC_OP_PAD:
    case TFCC_OP_PADV2: return pad(en, s, why, cap);
    case TFCC_OP_CONCATENATION: return concat(en, s, why, cap);
    case TFCC_OP_RESIZE_BILINEAR: return resize(en, false, s, why, cap);
    case TFCC_OP_RESIZE_NEAREST_NEIGHBOR: return resize(en, true, s, why, cap);
    case TFCC_OP_TRANSPOSE: return transpose(en, s, why, cap);
    case TFCC_OP_RESHAPE:
    case TFCC_OP_SQUEEZE:
    case TFCC_OP_EXPAND_DIMS: {
      const tfcc_tensor *x = en->ctx.in[0], *y = en->ctx.out[0];
      if (!dev_float(x) || !dev_float(y) || tfcc_gpu_tensor_elems(x) != tfcc_gpu_tensor_elems(y))
        return WHY("not float32");
      s->kind = TFCC_GS_COPY;
      s->in[0] = x->index;
      s->out = y->index;
      return true;
    }
    default: return WHY("no CUDA kernel for this operator");
  }
}

/* ------------------------------------------------------------------ the whole plan */

static tfcc_status no_mem(tfcc_err *err) {
  return tfcc_err_set(err, TFCC_ERR_NO_MEMORY, "device cuda: out of host memory for the plan");
}

static int32_t root_of(const tfcc_cuda_plan *cp, int32_t t) { return cp->tensors[t].root; }

/* Appends to the fallback list. */
static tfcc_status note_fallback(tfcc_cuda_plan *cp, size_t *len, size_t *capb, int32_t node,
                                 const char *op, const char *why, tfcc_err *err) {
  char line[400];
  int n = snprintf(line, sizeof line, "%snode %d (%s): %s", *len ? "; " : "", (int)node, op, why);
  if (n < 0) return TFCC_OK;
  if (*len + (size_t)n + 1 > *capb) {
    size_t nc = (*capb ? *capb * 2 : 1024) + (size_t)n;
    char *q = realloc(cp->fallback, nc);
    if (!q) return no_mem(err);
    cp->fallback = q, *capb = nc;
  }
  memcpy(cp->fallback + *len, line, (size_t)n + 1);
  *len += (size_t)n;
  return TFCC_OK;
}

typedef struct plan_builder {
  tfcc_cuda_plan *cp;
  const tfcc_exec_plan *p;
  int32_t cap_actions;
  bool *dev_valid;       /* per root: the device buffer holds the current value */
  bool *host_valid;      /* per root: the host buffer holds the current value */
  int32_t *first, *last; /* per root: action range using its device buffer */
} plan_builder;

static tfcc_status add_action(plan_builder *b, tfcc_ga_kind kind, int32_t index, tfcc_err *err) {
  tfcc_cuda_plan *cp = b->cp;
  if (cp->n_actions == b->cap_actions) {
    int32_t nc = b->cap_actions ? 2 * b->cap_actions : 64;
    tfcc_ga *q = realloc(cp->actions, (size_t)nc * sizeof *q);
    if (!q) return no_mem(err);
    cp->actions = q, b->cap_actions = nc;
  }
  cp->actions[cp->n_actions++] = (tfcc_ga){kind, index};
  return TFCC_OK;
}

static void use_dev(plan_builder *b, int32_t r) {
  const int32_t a = b->cp->n_actions - 1;
  if (b->first[r] < 0) b->first[r] = a;
  b->last[r] = a;
}

/* The device needs root r's value now: copy it up if only the host has it. */
static tfcc_status need_dev(plan_builder *b, int32_t t, tfcc_err *err) {
  const int32_t r = root_of(b->cp, t);
  if (b->cp->tensors[r].dev_const || b->dev_valid[r]) return TFCC_OK;
  tfcc_status st = add_action(b, TFCC_GA_H2D, r, err);
  if (st != TFCC_OK) return st;
  b->dev_valid[r] = true;
  b->cp->tensors[r].on_dev = true;
  use_dev(b, r);
  return TFCC_OK;
}

/* The host needs tensor t's value now (its root's): copy it down into t's host data if only the
 * device has it. */
static tfcc_status need_host(plan_builder *b, int32_t t, tfcc_err *err) {
  const int32_t r = root_of(b->cp, t);
  if (b->host_valid[r]) return TFCC_OK;
  tfcc_status st = add_action(b, TFCC_GA_D2H, t, err);
  if (st != TFCC_OK) return st;
  b->host_valid[r] = true;
  use_dev(b, r);
  return TFCC_OK;
}

static tfcc_status plan_actions(plan_builder *b, const tfcc_device_services *sv, tfcc_err *err) {
  tfcc_cuda_plan *cp = b->cp;
  const tfcc_exec_plan *p = b->p;
  const tfcc_ir_subgraph *sg = p->sg;
  size_t flen = 0, fcap = 0;
  cp->steps = calloc((size_t)p->n_nodes + 1, sizeof *cp->steps);
  if (!cp->steps) return no_mem(err);
  for (int32_t e = 0; e < p->n_nodes; e++) {
    const tfcc_exec_node *en = &p->nodes[e];
    if (en->folded || en->view) continue;
    tfcc_gs *s = &cp->steps[cp->n_steps];
    char why[300] = "";
    tfcc_status st = TFCC_OK;
    if (tfcc_cuda_classify(p, e, s, why, sizeof why)) {
      for (int32_t k = 0; k < en->ctx.n_in && st == TFCC_OK; k++)
        if (en->ctx.in[k] && en->ctx.in[k]->dtype == TFCC_FLOAT32 &&
            !cp->tensors[en->ctx.in[k]->index].dev_const)
          st = need_dev(b, en->ctx.in[k]->index, err);
      if (st == TFCC_OK) st = add_action(b, TFCC_GA_GPU, cp->n_steps, err);
      if (st != TFCC_OK) return st;
      for (int32_t k = 0; k < en->ctx.n_in; k++)
        if (en->ctx.in[k] && en->ctx.in[k]->dtype == TFCC_FLOAT32 &&
            !cp->tensors[en->ctx.in[k]->index].dev_const)
          use_dev(b, root_of(cp, en->ctx.in[k]->index));
      const int32_t r = root_of(cp, s->out);
      cp->tensors[r].on_dev = true;
      b->dev_valid[r] = true, b->host_valid[r] = false;
      use_dev(b, r);
      cp->n_steps++;
      cp->n_gpu_nodes++;
    } else {
      for (int32_t k = 0; k < en->ctx.n_in && st == TFCC_OK; k++)
        if (en->ctx.in[k] && !en->ctx.in[k]->is_const) st = need_host(b, en->ctx.in[k]->index, err);
      if (st == TFCC_OK) st = add_action(b, TFCC_GA_CPU, e, err);
      if (st == TFCC_OK)
        st = note_fallback(cp, &flen, &fcap, en->node, sv ? sv->op_name(en->ctx.node) : "?", why,
                           err);
      if (st != TFCC_OK) return st;
      for (int32_t k = 0; k < en->ctx.n_out; k++) {
        const int32_t r = root_of(cp, en->ctx.out[k]->index);
        b->host_valid[r] = true, b->dev_valid[r] = false;
      }
      cp->n_cpu_nodes++;
    }
  }
  /* graph outputs the device computed go down to the caller's buffers */
  for (int32_t i = 0; i < sg->n_outputs; i++) {
    const int32_t t = sg->outputs[i];
    if (p->tensors[t].is_const || p->tensors[t].known) continue;
    tfcc_status st = need_host(b, t, err);
    if (st != TFCC_OK) return st;
  }
  return TFCC_OK;
}

tfcc_status tfcc_cuda_plan_build(tfcc_cuda_plan *cp, const tfcc_exec_plan *p, tfcc_gpu_dtype dt,
                                 const tfcc_device_services *sv, tfcc_err *err) {
  memset(cp, 0, sizeof *cp);
  cp->dt = dt;
  const int32_t nt = p->n_tensors;
  cp->n_tensors = nt;
  cp->tensors = calloc((size_t)nt + 1, sizeof *cp->tensors);
  plan_builder b = {.cp = cp, .p = p};
  b.dev_valid = calloc((size_t)nt + 1, sizeof *b.dev_valid);
  b.host_valid = calloc((size_t)nt + 1, sizeof *b.host_valid);
  b.first = malloc(((size_t)nt + 1) * sizeof *b.first);
  b.last = malloc(((size_t)nt + 1) * sizeof *b.last);
  tfcc_status st = TFCC_OK;
  if (!cp->tensors || !b.dev_valid || !b.host_valid || !b.first || !b.last) st = no_mem(err);
  for (int32_t t = 0; st == TFCC_OK && t < nt; t++) {
    cp->tensors[t].root = t;
    cp->tensors[t].buf = -1;
    b.first[t] = b.last[t] = -1;
    const tfcc_tensor *x = &p->tensors[t];
    cp->tensors[t].dev_const = x->is_const && x->dtype == TFCC_FLOAT32;
    /* constants, values known at prepare and graph inputs start on the host */
    b.host_valid[t] = true;
  }
  /* views share their input's buffer, on the device as on the host */
  for (int32_t e = 0; st == TFCC_OK && e < p->n_nodes; e++) {
    const tfcc_exec_node *en = &p->nodes[e];
    if (!en->view || en->folded) continue;
    const int32_t in = en->ctx.in[0]->index, out = en->ctx.out[0]->index;
    cp->tensors[out].root = cp->tensors[in].root;
  }
  if (st == TFCC_OK) {
    /* a tensor produced by a node starts nowhere valid until that node runs */
    for (int32_t e = 0; e < p->n_nodes; e++) {
      const tfcc_exec_node *en = &p->nodes[e];
      if (en->folded || en->view) continue;
      for (int32_t k = 0; k < en->ctx.n_out; k++) b.host_valid[en->ctx.out[k]->index] = false;
    }
    st = plan_actions(&b, sv, err);
  }
  /* device buffers: one per root with a device life, plus each step's scratch */
  if (st == TFCC_OK) {
    cp->bufs = calloc((size_t)nt + (size_t)cp->n_steps + 1, sizeof *cp->bufs);
    if (!cp->bufs) st = no_mem(err);
  }
  const size_t es = tfcc_gpu_dtype_size(dt);
  for (int32_t t = 0; st == TFCC_OK && t < nt; t++) {
    if (cp->tensors[t].root != t || b.first[t] < 0 || cp->tensors[t].dev_const) continue;
    const tfcc_tensor *x = &p->tensors[t];
    size_t bytes = (size_t)tfcc_gpu_tensor_elems(x) * es;
    cp->tensors[t].on_dev = true;
    cp->tensors[t].dev_bytes = bytes;
    cp->tensors[t].buf = cp->n_bufs;
    cp->bufs[cp->n_bufs++] =
        (tfcc_plan_buffer){.size = bytes ? bytes : 1, .first = b.first[t], .last = b.last[t]};
    if (dt != TFCC_GPU_F32 && (size_t)tfcc_gpu_tensor_elems(x) * 4 > cp->staging_bytes)
      cp->staging_bytes = (size_t)tfcc_gpu_tensor_elems(x) * 4;
  }
  for (int32_t t = 0; st == TFCC_OK && t < nt; t++) {
    const int32_t r = cp->tensors[t].root;
    cp->tensors[t].on_dev = cp->tensors[r].on_dev;
    cp->tensors[t].buf = cp->tensors[r].buf;
    cp->tensors[t].dev_bytes = (size_t)tfcc_gpu_tensor_elems(&p->tensors[t]) * es;
  }
  for (int32_t a = 0; st == TFCC_OK && a < cp->n_actions; a++) {
    if (cp->actions[a].kind != TFCC_GA_GPU) continue;
    tfcc_gs *s = &cp->steps[cp->actions[a].index];
    if (s->kind == TFCC_GS_CONV && s->im2col) {
      s->scratch_bytes = (size_t)s->rows * (size_t)s->k * es;
      s->scratch_buf = cp->n_bufs;
      cp->bufs[cp->n_bufs++] = (tfcc_plan_buffer){
          .size = s->scratch_bytes ? s->scratch_bytes : 1, .first = a, .last = a};
    }
  }
  if (st == TFCC_OK && cp->n_bufs)
    st = sv ? sv->arena_plan(cp->bufs, cp->n_bufs, 256, &cp->arena_bytes, err)
            : tfcc_err_set(err, TFCC_ERR_INVALID_ARG, "no planner");
  free(b.dev_valid);
  free(b.host_valid);
  free(b.first);
  free(b.last);
  if (st != TFCC_OK) tfcc_cuda_plan_free(cp);
  return st;
}

void tfcc_cuda_plan_free(tfcc_cuda_plan *cp) {
  free(cp->steps);
  free(cp->actions);
  free(cp->tensors);
  free(cp->bufs);
  free(cp->fallback);
  memset(cp, 0, sizeof *cp);
}

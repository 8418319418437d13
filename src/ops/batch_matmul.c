/* BATCH_MATMUL: inputs (lhs, rhs), options BatchMatMulOptions (adj_x, adj_y,
 * asymmetric_quantize_inputs). float32, int8, int16 (zero points 0) and int16 lhs with int8 rhs
 * ("a16w8", zero points 0) with per-tensor quantization; the multiplier is
 * GetQuantizedConvolutionMultipler's (float product of the input scales widened to double).
 * int16 x int8 with an rhs quantized per output column (quantized_dimension = the N axis) takes
 * one multiplier per column (in double, as PopulateConvolutionQuantizationParams): TFLite's
 * kernel reads the tensor's single legacy scale, which its interpreter leaves 0 for a
 * per-channel tensor, and outputs zeros there (docs/operators.md). Hybrid (float32 lhs,
 * constant int8 rhs) runs in ops/hybrid.c as the FULLY_CONNECTED TFLite makes of it; an rhs
 * with batches as one such FULLY_CONNECTED per rhs matrix, each lhs matrix against its own.
 * a float32 rhs that is a constant of the file is prepared once, at the first prepare
 * (model load), for every session (bmm_const_rhs): the GEMM path's packings, one per rhs batch,
 * or the XNNPACK-order path's adj_y rhs transposed to [k][n]; per run both were redone. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/f32-gemm/gemm.h"
#include "kernels/q16-bmm/bmm.h"
#include "kernels/tflite-f32/tflite_f32.h"
#include "kernels/ref/batch_matmul.h"
#include "kernels/ref/quant_util.h"
#include "ops/conv_common.h"
#include "ops/f32_fast.h"
#include "ops/hybrid.h"
#include "kernels/tflite-f32/eigen_f32.h"
#include "base/weights_mem.h"
#include "ops/pack_once.h"
#include "ops/work_estimate.h"

/* a constant float32 rhs prepared once (bmm_const_prepare): rb matrices (the rhs
 * batches) of the GEMM path packed for kernel gk (per_batch floats each, a multiple of 64
 * bytes), or (xnn) transposed from [n][k] to [k][n]. The same bits as the per-run work. */
typedef struct bmm_const_rhs {
  tfcc_pack_once once;
  const float *buf;                /* own, or the weights cache's block; NULL: not prepared */
  float *own;                      /* buf when tfcc_wmem_alloc'ed here */
  tfcc_packed_key key_gemm, key_t; /* its block in the weights cache, by layout */
  const tfcc_f32_gemm_kernel *gk;  /* GEMM packing's kernel; NULL for the transposed layout */
  size_t per_batch;                /* floats per rhs batch in buf */
  int32_t n, k;                    /* the shapes it was made for */
  int64_t rb;
} bmm_const_rhs;

typedef struct bmm_params {
  bool adj_x, adj_y;
  tfcc_bmm_quant q;
  bool quantized;
  atomic_bool f32_logged; /* KERNEL_FALLBACK written */
  tfcc_hybrid *hyb;       /* float32 lhs with constant int8 rhs (ops/hybrid.h), else NULL */
  tfcc_hybrid **hyb_b;    /* the same for an rhs with hyb_nb > 1 matrices: one per matrix */
  int64_t hyb_nb;
  bool xnn_f32;   /* float32 x float32 in a hybrid model, TFLITE mode: XNNPACK's order */
  bool eigen_f32; /* the same in REFERENCE mode: the classic interpreter's Eigen GEMM */
  int32_t n_col;  /* int16 x int8 per output column: multipliers in colq (its tables: the
                    weights cache's block TFCC_BLOCK_REQUANT or its own) */
  tfcc_conv_qparams colq;
  bmm_const_rhs crhs; /* a constant float32 rhs prepared once */
} bmm_params;

static void bmm_release(void *params) {
  bmm_params *p = params;
  if (!p) return;
  tfcc_wmem_free(p->crhs.own);
  tfcc_pack_once_destroy(&p->crhs.once);
  if (!p->hyb_b) tfcc_hybrid_free(p->hyb); /* else hyb is hyb_b[0] */
  for (int64_t b = 0; p->hyb_b && b < p->hyb_nb; b++) tfcc_hybrid_free(p->hyb_b[b]);
  free(p->hyb_b);
  tfcc_conv_qparams_free(&p->colq);
  free(p);
}

/* int16 lhs with int8 rhs ("a16w8"); else both of one dtype. */
static bool bmm_i16_i8(const tfcc_ir_tensor *l, const tfcc_ir_tensor *r) {
  return l->dtype == TFCC_INT16 && r->dtype == TFCC_INT8;
}

/* Zero points of every channel of t are 0. */
static bool bmm_zero_points_0(const tfcc_quant *q) {
  for (int32_t c = 0; c < q->count; c++)
    if (q->zero_point[c]) return false;
  return true;
}

static tfcc_status bmm_init(tfcc_init_ctx *ctx) {
  bmm_params *p = calloc(1, sizeof(*p));
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for BATCH_MATMUL");
  p->adj_x = ctx->node->opts.batch_matmul.adj_x;
  p->adj_y = ctx->node->opts.batch_matmul.adj_y;
  tfcc_pack_once_init(&p->crhs.once);
  p->crhs.key_gemm = tfcc_init_block_key(ctx, TFCC_BLOCK_BMM_F32_GEMM);
  p->crhs.key_t = tfcc_init_block_key(ctx, TFCC_BLOCK_BMM_F32_T);
  const tfcc_ir_tensor *l = tfcc_conv_ir_input(ctx, 0), *r = tfcc_conv_ir_input(ctx, 1);
  const tfcc_ir_tensor *o = tfcc_conv_ir_output(ctx, 0);
  atomic_init(&p->f32_logged, false);
  tfcc_status st = TFCC_OK;
  const bool asym = ctx->node->opts.batch_matmul.asymmetric_quantize_inputs;
  const int64_t rb = tfcc_hybrid_applies(ctx, 0, 1) ? tfcc_hybrid_bmm_rhs_batches(ctx) : 0;
  if (rb > 1) { /* one hybrid per rhs matrix */
    st = tfcc_hybrid_bmm_rhs_check(ctx, rb);
    p->hyb_b = st == TFCC_OK ? calloc((size_t)rb, sizeof(*p->hyb_b)) : NULL;
    if (st == TFCC_OK && !p->hyb_b)
      st = tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, "out of memory for BATCH_MATMUL");
    else if (st == TFCC_OK)
      p->hyb_nb = rb;
    for (int64_t b = 0; st == TFCC_OK && b < rb; b++)
      st = tfcc_hybrid_bmm_init_slice(ctx, p->adj_x, p->adj_y, asym, b, &p->hyb_b[b]);
    if (st == TFCC_OK) p->hyb = p->hyb_b[0]; /* the checks and names of the single case */
  } else if (tfcc_hybrid_applies(ctx, 0, 1))
    st = tfcc_hybrid_bmm_init(ctx, p->adj_x, p->adj_y, asym, &p->hyb);
  else if (l && r && o && (l->dtype == TFCC_INT8 || l->dtype == TFCC_INT16) &&
           (r->dtype == l->dtype || bmm_i16_i8(l, r)) && o->dtype == l->dtype) {
    const bool per_col = bmm_i16_i8(l, r) && r->quant.count > 1;
    tfcc_conv_qparams q;
    st = tfcc_conv_qparams_node(&q, ctx, TFCC_BLOCK_REQUANT, l, r, o, 0, !per_col, false);
    if (st == TFCC_OK) {
      p->quantized = true;
      p->q.lhs_offset = q.input_offset;
      p->q.rhs_offset = q.filter_offset;
      p->q.output_offset = q.output_offset;
      p->q.mult = q.mult[0];
      p->q.shift = q.shift[0];
      p->q.act_min = q.act_min;
      p->q.act_max = q.act_max;
      int32_t max_shift = q.shift[0];
      for (int32_t c = 1; c < q.n_mult; c++)
        max_shift = q.shift[c] > max_shift ? q.shift[c] : max_shift;
      if (per_col) { /* the tables move to p */
        p->n_col = q.n_mult;
        p->colq = q;
        p->q.col_mult = p->colq.mult;
        p->q.col_shift = p->colq.shift;
      } else
        tfcc_conv_qparams_free(&q);
      if (l->dtype == TFCC_INT16 &&
          (p->q.lhs_offset || !bmm_zero_points_0(&r->quant) || p->q.output_offset))
        st = tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "int16 zero points must be 0");
      else if (l->dtype == TFCC_INT16 && max_shift > 14)
        st = tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL, "multiplier 2^%d too large",
                          (int)max_shift);
    }
  }
  if (st != TFCC_OK) {
    bmm_release(p);
    return st;
  }
  /* TFLite's delegate takes a float BATCH_MATMUL of rank >= 2 operands
   * (VisitBatchMatMulNode; adj_x becomes a transpose node) */
  p->xnn_f32 = !p->hyb && l && r && o && l->dtype == TFCC_FLOAT32 && r->dtype == TFCC_FLOAT32 &&
               l->rank >= 2 && r->rank >= 2 && tfcc_hybrid_xnn_float(ctx);
  p->eigen_f32 = !p->hyb && l && r && o && l->dtype == TFCC_FLOAT32 && r->dtype == TFCC_FLOAT32 &&
                 tfcc_hybrid_ref_builtin_float(ctx);
  ctx->params = p;
  return TFCC_OK;
}

static tfcc_status bmm_shapes(const tfcc_op_ctx *ctx, tfcc_bmm_dims *d, int32_t *orank,
                              int32_t *od) {
  const bmm_params *p = ctx->params;
  const tfcc_tensor *l = ctx->in[0], *r = ctx->in[1];
  if (l->rank < 2 || r->rank < 2 || l->rank > 2 + TFCC_BMM_MAX_BATCH_DIMS ||
      r->rank > 2 + TFCC_BMM_MAX_BATCH_DIMS)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "input ranks %d and %d, expected 2 to %d",
                        (int)l->rank, (int)r->rank, 2 + TFCC_BMM_MAX_BATCH_DIMS);
  const int32_t lm = l->dims[l->rank - 2], lk = l->dims[l->rank - 1];
  const int32_t rk = r->dims[r->rank - 2], rn = r->dims[r->rank - 1];
  d->adj_x = p->adj_x;
  d->adj_y = p->adj_y;
  d->m = p->adj_x ? lk : lm;
  d->k = p->adj_x ? lm : lk;
  const int32_t k2 = p->adj_y ? rn : rk;
  d->n = p->adj_y ? rk : rn;
  if (d->k != k2)
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "contraction sizes differ: lhs %d, rhs %d",
                        (int)d->k, (int)k2);
  const int32_t lb = l->rank - 2, rb = r->rank - 2;
  d->nbd = lb > rb ? lb : rb;
  for (int32_t i = 0; i < d->nbd; i++) {
    int32_t li = i - (d->nbd - lb), ri = i - (d->nbd - rb);
    int32_t a = li >= 0 ? l->dims[li] : 1, b = ri >= 0 ? r->dims[ri] : 1;
    if (a != b && a != 1 && b != 1)
      return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE,
                          "batch dimension %d: %d and %d do not broadcast", (int)i, (int)a, (int)b);
    d->lhs_b[i] = a;
    d->rhs_b[i] = b;
    d->out_b[i] = a == 1 ? b : a;
    od[i] = d->out_b[i];
  }
  od[d->nbd] = d->m;
  od[d->nbd + 1] = d->n;
  *orank = d->nbd + 2;
  int64_t n;
  if (!tfcc_conv_count(*orank, od, &n) || !tfcc_conv_count(l->rank, l->dims, &n) ||
      !tfcc_conv_count(r->rank, r->dims, &n))
    return tfcc_err_set(ctx->err, TFCC_ERR_SHAPE, "tensor too large");
  return TFCC_OK;
}

/* Float32 fast path: the GEMM with rhs packed per run into scratch (rhs may change every
 * run). lhs rows must be contiguous (adj_x false). */
static bool bmm_f32_fast(const tfcc_op_ctx *ctx, const tfcc_bmm_dims *d) {
  const bmm_params *p = ctx->params;
  return !p->xnn_f32 && !p->eigen_f32 && ctx->in[0]->dtype == TFCC_FLOAT32 && !d->adj_x &&
         d->m > 0 && d->n > 0 && d->k > 0;
}

static size_t bmm_f32_scratch(const tfcc_op_ctx *ctx, const tfcc_bmm_dims *d) {
  return tfcc_f32_packed_bytes(ctx->ks->f32_gemm, d->n, d->k);
}

/* Matrices in the rhs tensor: the product of its batch dimensions (not broadcast). */
static int64_t bmm_rhs_batches(const tfcc_bmm_dims *d) {
  int64_t rb = 1;
  for (int32_t i = 0; i < d->nbd; i++) rb *= d->rhs_b[i];
  return rb;
}

/* The constant rhs prepared for these shapes and this rhs tensor (eval: no locking), or NULL.
 * xnn: the transposed layout, else the GEMM packing. */
static const bmm_const_rhs *bmm_const_get(const tfcc_op_ctx *ctx, const tfcc_bmm_dims *d,
                                          bool xnn) {
  const bmm_const_rhs *c = &((const bmm_params *)ctx->params)->crhs;
  if (!tfcc_pack_once_ready(&c->once, ctx->in[1]->data) || c->n != d->n || c->k != d->k ||
      c->rb != bmm_rhs_batches(d) || (c->gk == NULL) != xnn)
    return NULL;
  return c;
}

/* whether rb packed matrices of per floats may be kept at load for an rhs of rb
 * matrices of mat floats: at most 4 x the rhs's bytes + 64 KiB. The GEMM packing pads the n
 * columns to panels of the kernel's NR (up to 32) and K to K + 1 rows: every rhs with n >= NR
 * packs to under 4 x its bytes, and a narrow one up to 64 KiB is kept too. Past that (a
 * [2^24, 1, 1] rhs of 64 MB packs to 256 bytes a matrix, 4 GB at NR 32; 64x its file bytes) the
 * rhs is packed per run into the op's scratch, one matrix at a time, as a run-time rhs is. The
 * transposed layout (xnn) is the rhs's size and always fits. */
static bool bmm_const_bounded(int64_t rb, size_t mat, size_t per) {
  const double rhs = (double)rb * (double)mat * sizeof(float);
  return (double)rb * (double)per * sizeof(float) <= 4.0 * rhs + 65536.0;
}

/* prepare (model load runs the first): a float32 rhs that is a constant of the file,
 * packed for the GEMM (xnn false) or, adj_y on the XNNPACK-order path, transposed, once for
 * every session; a failure (out of memory) leaves the per-run work. The result is a
 * block of the weights cache (TFCC_BLOCK_BMM_F32_GEMM or _T by layout; its size follows from
 * the shapes and the GEMM kernel, which the cache's identity names): a hit is used in place
 * without reading the rhs. */
static void bmm_const_prepare(tfcc_op_ctx *ctx, const tfcc_bmm_dims *d, bool xnn) {
  bmm_params *p = (bmm_params *)ctx->params;
  const tfcc_tensor *r = ctx->in[1];
  if (!(r->is_const || r->known) || !r->data || d->n <= 0 || d->k <= 0 || (xnn && !d->adj_y))
    return;
  bmm_const_rhs *c = &p->crhs;
  if (bmm_const_get(ctx, d, xnn) || !tfcc_pack_once_begin(&c->once)) return;
  const int64_t rb = bmm_rhs_batches(d);
  const size_t N = (size_t)d->n, K = (size_t)d->k, mat = N * K;
  const tfcc_f32_gemm_kernel *gk = xnn ? NULL : tfcc_f32_gemm_select(ctx->isa);
  const size_t per = xnn ? mat : tfcc_f32_packed_bytes(gk, d->n, d->k) / sizeof(float);
  const bool fits = rb > 0 && (size_t)rb <= SIZE_MAX / sizeof(float) / (per ? per : 1);
  const size_t bytes =
      fits && bmm_const_bounded(rb, mat, per) ? (size_t)rb * per * sizeof(float) : 0;
  const tfcc_packed_key *key = xnn ? &c->key_t : &c->key_gemm;
  const float *hit = bytes ? tfcc_packed_get(key, bytes) : NULL;
  float *buf = bytes && !hit ? tfcc_wmem_alloc(bytes) : NULL;
  const float *src = r->data;
  for (int64_t b = 0; buf && b < rb; b++) {
    const float *m = src + (size_t)b * mat;
    float *dst = buf + (size_t)b * per;
    if (xnn) { /* [n][k] -> [k][n] */
      for (size_t j = 0; j < N; j++)
        for (size_t q = 0; q < K; q++) dst[q * N + j] = m[j * K + q];
    } else { /* B[n][k]: rhs [K, N] (ld_n 1, ld_k N) or with adj_y [N, K] */
      tfcc_f32_packed pk;
      if (d->adj_y)
        tfcc_f32_pack_into(gk, d->n, d->k, m, K, 1, NULL, dst, &pk);
      else
        tfcc_f32_pack_into(gk, d->n, d->k, m, 1, N, NULL, dst, &pk);
    }
  }
  if (buf) tfcc_packed_put(key, buf, bytes);
  c->own = buf;
  c->buf = hit ? hit : buf;
  c->gk = gk, c->per_batch = per, c->n = d->n, c->k = d->k, c->rb = rb;
  tfcc_pack_once_end(&c->once, src, c->buf != NULL);
}

static void bmm_f32_run(const tfcc_op_ctx *ctx, const tfcc_bmm_dims *d, const float *l,
                        const float *r, float *o) {
  const bmm_const_rhs *c = bmm_const_get(ctx, d, false);
  const tfcc_f32_gemm_kernel *k = c ? c->gk : ctx->ks->f32_gemm;
  int64_t nb = 1;
  for (int32_t i = 0; i < d->nbd; i++) nb *= d->out_b[i];
  const size_t lsz = (size_t)d->m * (size_t)d->k, rsz = (size_t)d->k * (size_t)d->n;
  const size_t osz = (size_t)d->m * (size_t)d->n;
  int64_t packed_off = -1;
  tfcc_f32_packed pk;
  for (int64_t ob = 0; ob < nb; ob++) {
    /* batch offsets with broadcasting (a dimension of 1 repeats) */
    int64_t rem = ob, loff = 0, roff = 0, lstride = 1, rstride = 1;
    for (int32_t i = d->nbd - 1; i >= 0; i--) {
      const int64_t idx = rem % d->out_b[i];
      rem /= d->out_b[i];
      if (d->lhs_b[i] != 1) loff += idx * lstride;
      if (d->rhs_b[i] != 1) roff += idx * rstride;
      lstride *= d->lhs_b[i];
      rstride *= d->rhs_b[i];
    }
    if (c && roff != packed_off) { /* packed at load */
      tfcc_f32_packed_view(k, d->n, d->k, c->buf + (size_t)roff * c->per_batch, &pk);
      packed_off = roff;
    } else if (roff != packed_off) {
      const float *rb = r + (size_t)roff * rsz;
      /* B[n][k]: rhs [K, N] (ld_n 1, ld_k N) or with adj_y [N, K] */
      if (d->adj_y)
        tfcc_f32_pack_into(k, d->n, d->k, rb, (size_t)d->k, 1, NULL, ctx->scratch, &pk);
      else
        tfcc_f32_pack_into(k, d->n, d->k, rb, 1, (size_t)d->n, NULL, ctx->scratch, &pk);
      packed_off = roff;
    }
    tfcc_f32_gemm(ctx->pool, &pk, d->m, l + (size_t)loff * lsz, (size_t)d->k, o + (size_t)ob * osz,
                  (size_t)d->n, -INFINITY, INFINITY);
  }
}

/* the constant rhs prepared at load is what every later eval reads, at any lhs shape
 * (the rhs fixes n, k and its batches; an empty lhs reads no rhs): its bytes are released. */
static void bmm_consumed(const tfcc_op_ctx *ctx, const tfcc_packed_key *key) {
  tfcc_packed_consumed(key, ctx->params, ctx->in[1]->data);
}

/* The quantized BATCH_MATMUL's type on the q16-gemm micro-kernels (kernels/q16-bmm), from the
 * operands' dtypes. */
static tfcc_q16_bmm_type bmm_q_type(const tfcc_op_ctx *ctx) {
  if (ctx->in[0]->dtype == TFCC_INT8) return TFCC_Q16_BMM_I8;
  return ctx->in[1]->dtype == TFCC_INT8 ? TFCC_Q16_BMM_I16_I8 : TFCC_Q16_BMM_I16;
}

static const tfcc_q16_gemm_kernel *bmm_q_kernel(const tfcc_op_ctx *ctx) {
  return ctx->ks ? ctx->ks->q16_gemm : tfcc_q16_gemm_select(ctx->isa);
}

/* The scratch of the quantized fast path for d (0: the reference kernel runs). */
static size_t bmm_q_scratch(const tfcc_op_ctx *ctx, const tfcc_bmm_dims *d) {
  const bmm_params *p = ctx->params;
  const tfcc_q16_bmm_type t = bmm_q_type(ctx);
  if (!p->quantized || !tfcc_q16_bmm_fits(d, &p->q, t)) return 0;
  return tfcc_q16_bmm_scratch(bmm_q_kernel(ctx), d, t, tfcc_threadpool_size(ctx->pool),
                              TFCC_Q16_BMM_LHS_MAX);
}

/* Hybrid rhs with matrices where each rhs matrix serves several output batches (an lhs with
 * more batches, broadcast over the rhs's): the lhs matrices of one rhs matrix are gathered, g
 * at a time, into one FULLY_CONNECTED call of g * m rows (rows are quantized and computed
 * independently: the same bits as one call per matrix), instead of one call per output batch
 * (2 M output batches of 1 x 1 matrices took 10.9 s CPU under ASan + UBSan, 5.4 us a call).
 * g: at most the batches an rhs matrix serves, the gathered rows within HYB_GATHER_BYTES; 1:
 * one call per batch (no gathering). bytes: the gather buffers, before the call's scratch. */
#define HYB_GATHER_BYTES ((size_t)256 << 10)

typedef struct hyb_gather {
  int64_t g;
  size_t in_off, out_off, bytes; /* the lhs rows, the outputs, then the batches' indices */
} hyb_gather;

static hyb_gather hyb_gather_of(const bmm_params *p, const tfcc_bmm_dims *d) {
  hyb_gather hg = {1, 0, 0, 0};
  if (!p->hyb_b || p->hyb_nb <= 0 || d->m <= 0 || d->n <= 0 || d->k <= 0) return hg;
  int64_t nb = 1;
  for (int32_t i = 0; i < d->nbd; i++) nb *= d->out_b[i];
  const int64_t serves = nb / p->hyb_nb; /* output batches per rhs matrix (each serves as many) */
  const size_t per = (size_t)d->m * ((size_t)d->k + (size_t)d->n) * sizeof(float);
  int64_t g = per < HYB_GATHER_BYTES ? (int64_t)(HYB_GATHER_BYTES / per) : 1;
  if (g > serves) g = serves;
  if (g * d->m > INT32_MAX) g = INT32_MAX / d->m;
  if (g <= 1) return hg;
  hg.g = g;
  hg.in_off = 0;
  hg.out_off = ((size_t)g * (size_t)d->m * (size_t)d->k * sizeof(float) + 63) & ~(size_t)63;
  const size_t idx =
      hg.out_off + (((size_t)g * (size_t)d->m * (size_t)d->n * sizeof(float) + 63) & ~(size_t)63);
  hg.bytes = idx + (((size_t)g * sizeof(int64_t) + 63) & ~(size_t)63);
  return hg;
}

/* Advances the coordinates c over the output batch dimensions where (rhs_b[i] > 1) equals
 * rhs_dims (the last fastest); false once they wrap to 0. */
static bool hyb_gather_next(const tfcc_bmm_dims *d, int32_t *c, bool rhs_dims) {
  for (int32_t i = d->nbd - 1; i >= 0; i--) {
    if ((d->rhs_b[i] > 1) != rhs_dims) continue;
    if (++c[i] < d->out_b[i]) return true;
    c[i] = 0;
  }
  return false;
}

static tfcc_status hyb_gather_eval(tfcc_op_ctx *ctx, const bmm_params *p, const tfcc_bmm_dims *d) {
  const hyb_gather hg = hyb_gather_of(p, d);
  if (!ctx->scratch || ctx->scratch_bytes < hg.bytes)
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "BATCH_MATMUL hybrid: scratch not prepared");
  uint8_t *base = ctx->scratch;
  float *gin = (float *)(void *)(base + hg.in_off), *gout = (float *)(void *)(base + hg.out_off);
  int64_t *obs =
      (int64_t *)(void *)(base + hg.out_off +
                          (((size_t)hg.g * (size_t)d->m * (size_t)d->n * sizeof(float) + 63) &
                           ~(size_t)63));
  tfcc_op_ctx call = *ctx; /* the FULLY_CONNECTED's scratch after the gather buffers */
  call.scratch = base + hg.bytes;
  call.scratch_bytes = ctx->scratch_bytes - hg.bytes;
  const size_t mk = (size_t)d->m * (size_t)d->k, mn = (size_t)d->m * (size_t)d->n;
  const size_t per_rhs = (size_t)d->k * (size_t)d->n;
  const float *lhs = ctx->in[0]->data;
  float *out = ctx->out[0]->data;
  int64_t ostr[TFCC_BMM_MAX_BATCH_DIMS], stride = 1;
  for (int32_t i = d->nbd - 1; i >= 0; i--) ostr[i] = stride, stride *= d->out_b[i];
  int32_t ca[TFCC_BMM_MAX_BATCH_DIMS] = {0}; /* the rhs matrix's coordinates */
  do {
    int32_t cb[TFCC_BMM_MAX_BATCH_DIMS] = {0}; /* the batches it serves */
    int64_t cnt = 0, rbi = 0;
    bool more;
    do {
      int64_t ob = 0;
      for (int32_t i = 0; i < d->nbd; i++) ob += (d->rhs_b[i] > 1 ? ca[i] : cb[i]) * ostr[i];
      size_t loff, roff;
      tfcc_bmm_batch_offsets(d, ob, &loff, &roff);
      rbi = per_rhs ? (int64_t)(roff / per_rhs) : 0;
      memcpy(gin + (size_t)cnt * mk, lhs + loff, mk * sizeof(float));
      obs[cnt++] = ob;
      more = hyb_gather_next(d, cb, false);
      if (cnt == hg.g || !more) {
        if (rbi >= p->hyb_nb)
          return tfcc_err_set(ctx->err, TFCC_ERR_STATE,
                              "BATCH_MATMUL hybrid: rhs matrix %lld of %lld", (long long)rbi,
                              (long long)p->hyb_nb);
        const tfcc_status st = tfcc_hybrid_fc_eval_at(&call, p->hyb_b[rbi], gin, gout,
                                                      (int32_t)(cnt * d->m), d->n, d->k);
        if (st != TFCC_OK) return st;
        for (int64_t j = 0; j < cnt; j++)
          memcpy(out + (size_t)obs[j] * mn, gout + (size_t)j * mn, mn * sizeof(float));
        cnt = 0;
      }
    } while (more);
  } while (hyb_gather_next(d, ca, true));
  return TFCC_OK;
}

static tfcc_status bmm_prepare(tfcc_op_ctx *ctx) {
  const bmm_params *p = ctx->params;
  if (!p) return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "BATCH_MATMUL not initialised");
  if (ctx->n_in < 2 || !ctx->in[0] || !ctx->in[1] || ctx->n_out < 1 || !ctx->out[0])
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_MODEL,
                        "BATCH_MATMUL needs two inputs and one output");
  const tfcc_tensor *l = ctx->in[0], *r = ctx->in[1];
  if (p->hyb) { /* float32 lhs, int8 rhs */
    tfcc_bmm_dims d;
    int32_t orank = 0, od[TFCC_MAX_RANK] = {0};
    tfcc_status st = bmm_shapes(ctx, &d, &orank, od);
    if (st != TFCC_OK) return st;
    /* an rhs with matrices: up to g lhs matrices of one rhs matrix at a time (m rows each),
       gathered where g > 1 (hyb_gather) */
    const hyb_gather hg = hyb_gather_of(p, &d);
    const int32_t rows = p->hyb_b  ? (int32_t)hg.g * d.m
                         : d.k > 0 ? (int32_t)(tfcc_tensor_elements(l) / d.k)
                                   : 0;
    st = tfcc_hybrid_fc_prepare(ctx, p->hyb, rows, d.n, d.k);
    if (st == TFCC_OK) ctx->scratch_bytes += hg.bytes;
    return st != TFCC_OK ? st : tfcc_tensor_set_shape(ctx->out[0], orank, od, ctx->err);
  }
  if (l->dtype != TFCC_FLOAT32 && l->dtype != TFCC_INT8 && l->dtype != TFCC_INT16)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "lhs dtype %s unsupported",
                        tfcc_dtype_name(l->dtype));
  const bool i16_i8 = l->dtype == TFCC_INT16 && r->dtype == TFCC_INT8;
  if (r->dtype != l->dtype && !i16_i8)
    return tfcc_err_set(ctx->err, l->dtype == TFCC_FLOAT32 ? TFCC_ERR_UNSUPPORTED : TFCC_ERR_DTYPE,
                        "rhs dtype %s with lhs %s unsupported (TFLite pairs float32 lhs with int8 "
                        "rhs, int16 lhs with int16 or int8 rhs, else one dtype)",
                        tfcc_dtype_name(r->dtype), tfcc_dtype_name(l->dtype));
  tfcc_status st = tfcc_conv_expect_dtype(ctx->out[0], "output", l->dtype, ctx->err);
  if (st != TFCC_OK) return st;
  if (l->dtype != TFCC_FLOAT32 && !p->quantized)
    return tfcc_err_set(ctx->err, TFCC_ERR_STATE, "quantization parameters missing");
  if (l->dtype != TFCC_FLOAT32 && r->quant->count > 1 && !p->n_col)
    return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                        "per-channel rhs quantization (%d scales) with %s rhs unsupported (only "
                        "int16 lhs with int8 rhs takes one scale per output column)",
                        (int)r->quant->count, tfcc_dtype_name(r->dtype));
  tfcc_bmm_dims d;
  int32_t orank = 0, od[TFCC_MAX_RANK] = {0};
  st = bmm_shapes(ctx, &d, &orank, od);
  if (st != TFCC_OK) return st;
  if (p->n_col) {
    const int32_t axis = r->rank - (d.adj_y ? 2 : 1);
    if (r->quant->axis != axis || p->n_col != d.n)
      return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED,
                          "per-channel rhs: %d scales along axis %d; one scale per output column "
                          "(%d scales along axis %d) is supported",
                          (int)p->n_col, (int)r->quant->axis, (int)d.n, (int)axis);
  }
  ctx->scratch_bytes = 0;
  if (l->dtype == TFCC_FLOAT32) {
    if (p->xnn_f32) {
      bmm_const_prepare(ctx, &d, true);
      if (!bmm_const_get(ctx, &d, true))
        ctx->scratch_bytes = tfcc_xnn_bmm_scratch_bytes(&d);
      else if (ctx->ks && ctx->ks->tflite_f32)
        bmm_consumed(ctx, &p->crhs.key_t);
    } else if (bmm_f32_fast(ctx, &d)) {
      bmm_const_prepare(ctx, &d, false);
      if (!bmm_const_get(ctx, &d, false))
        ctx->scratch_bytes = bmm_f32_scratch(ctx, &d);
      else
        bmm_consumed(ctx, &p->crhs.key_gemm);
    } else if (d.adj_x)
      tfcc_f32_log_fallback_once(&((bmm_params *)p)->f32_logged, ctx, "BATCH_MATMUL",
                                 "adj_x (transposed lhs)");
  } else {
    ctx->scratch_bytes = bmm_q_scratch(ctx, &d);
  }
  return tfcc_tensor_set_shape(ctx->out[0], orank, od, ctx->err);
}

static tfcc_status bmm_eval(tfcc_op_ctx *ctx) {
  const bmm_params *p = ctx->params;
  tfcc_bmm_dims d;
  int32_t orank = 0, od[TFCC_MAX_RANK] = {0};
  tfcc_status st = bmm_shapes(ctx, &d, &orank, od);
  if (st != TFCC_OK) return st;
  /* no output, no walk (an lhs [2^30, 0, k] has 2^30 empty batches) */
  if (d.m == 0 || d.n == 0) return TFCC_OK;
  if (p->hyb_b && hyb_gather_of(p, &d).g > 1) return hyb_gather_eval(ctx, p, &d);
  if (p->hyb_b) { /* lhs matrix of output batch ob against its rhs matrix */
    int64_t nb = 1;
    for (int32_t i = 0; i < d.nbd; i++) nb *= d.out_b[i];
    const size_t per_rhs = (size_t)d.k * (size_t)d.n;
    for (int64_t ob = 0; ob < nb; ob++) {
      size_t loff, roff;
      tfcc_bmm_batch_offsets(&d, ob, &loff, &roff);
      const int64_t rbi = per_rhs ? (int64_t)(roff / per_rhs) : 0;
      if (rbi >= p->hyb_nb)
        return tfcc_err_set(ctx->err, TFCC_ERR_STATE,
                            "BATCH_MATMUL hybrid: rhs matrix %lld of %lld", (long long)rbi,
                            (long long)p->hyb_nb);
      st = tfcc_hybrid_fc_eval_at(ctx, p->hyb_b[rbi], (const float *)ctx->in[0]->data + loff,
                                  (float *)ctx->out[0]->data + (size_t)ob * d.m * d.n, d.m, d.n,
                                  d.k);
      if (st != TFCC_OK) return st;
    }
    return TFCC_OK;
  }
  if (p->hyb)
    return tfcc_hybrid_fc_eval(
        ctx, p->hyb, d.k > 0 ? (int32_t)(tfcc_tensor_elements(ctx->in[0]) / d.k) : 0, d.n, d.k);
  const void *l = ctx->in[0]->data, *r = ctx->in[1]->data;
  void *o = ctx->out[0]->data;
  switch (ctx->in[0]->dtype) {
    case TFCC_FLOAT32:
      if (p->xnn_f32 && ctx->ks && ctx->ks->tflite_f32 && bmm_const_get(ctx, &d, true)) {
        tfcc_bmm_dims dt = d; /* the rhs transposed at load: [k][n] matrices */
        dt.adj_y = false;
        tfcc_xnn_bmm_run(ctx->pool, ctx->ks->tflite_f32, &dt, l, p->crhs.buf, o, NULL);
      } else if (p->xnn_f32 && ctx->ks && ctx->ks->tflite_f32 &&
                 ctx->scratch_bytes >= tfcc_xnn_bmm_scratch_bytes(&d))
        tfcc_xnn_bmm_run(ctx->pool, ctx->ks->tflite_f32, &d, l, r, o, ctx->scratch);
      else if (p->xnn_f32)
        tfcc_bmm_f32_xnn(&d, l, r, o);
      else if (p->eigen_f32)
        tfcc_eigen_bmm_f32(&d, l, r, o);
      else if (bmm_f32_fast(ctx, &d) &&
               (bmm_const_get(ctx, &d, false) ||
                (ctx->scratch && ctx->scratch_bytes >= bmm_f32_scratch(ctx, &d))))
        bmm_f32_run(ctx, &d, l, r, o);
      else
        tfcc_bmm_f32(&d, l, r, o);
      return TFCC_OK;
    case TFCC_INT8:
    case TFCC_INT16: {
      const size_t qs = bmm_q_scratch(ctx, &d); /* the q16-gemm micro-kernels */
      if (qs && ctx->scratch && ctx->scratch_bytes >= qs)
        tfcc_q16_bmm(ctx->pool, bmm_q_kernel(ctx), &d, &p->q, bmm_q_type(ctx), TFCC_Q16_BMM_LHS_MAX,
                     l, r, o, ctx->scratch);
      else if (ctx->in[0]->dtype == TFCC_INT8)
        tfcc_bmm_i8(&d, &p->q, l, r, o);
      else if (ctx->in[1]->dtype == TFCC_INT8)
        tfcc_bmm_i16_i8(&d, &p->q, l, r, o);
      else
        tfcc_bmm_i16(&d, &p->q, l, r, o);
      return TFCC_OK;
    }
    default: return tfcc_err_set(ctx->err, TFCC_ERR_UNSUPPORTED, "dtype unsupported");
  }
}

static int64_t bmm_macs(const tfcc_op_ctx *ctx) {
  tfcc_err e;
  tfcc_op_ctx c;
  tfcc_bmm_dims d;
  int32_t orank = 0, od[TFCC_MAX_RANK] = {0};
  if (!tfcc_op_probe_ctx(ctx, 2, &e, &c) || bmm_shapes(&c, &d, &orank, od) != TFCC_OK) return 0;
  int64_t n = tfcc_work_mul3(d.m, d.n, d.k); /* saturating: empty batches of any size */
  for (int32_t i = 0; i < d.nbd; i++) n = tfcc_work_mul(n, d.out_b[i]);
  return n;
}

static const char *bmm_kernel(const tfcc_op_ctx *ctx) {
  tfcc_err e;
  tfcc_op_ctx c;
  if (!tfcc_op_probe_ctx(ctx, 2, &e, &c)) return "ref";
  tfcc_bmm_dims d;
  int32_t orank = 0, od[TFCC_MAX_RANK] = {0};
  if (((const bmm_params *)ctx->params)->hyb)
    return tfcc_hybrid_kernel(((const bmm_params *)ctx->params)->hyb);
  if (((const bmm_params *)ctx->params)->xnn_f32)
    return ctx->ks && ctx->ks->tflite_f32 ? ctx->ks->tflite_f32->name : "xnn-f32-gemm-order";
  if (((const bmm_params *)ctx->params)->eigen_f32) return "eigen-f32-gemm-order";
  if (bmm_shapes(&c, &d, &orank, od) != TFCC_OK) return "ref";
  if (ctx->in[0]->dtype != TFCC_FLOAT32) {
    const tfcc_q16_gemm_kernel *k = bmm_q_kernel(ctx);
    return bmm_q_scratch(ctx, &d) && k ? k->name : "ref";
  }
  if (!bmm_f32_fast(ctx, &d)) return "ref";
  return ctx->ks->f32_gemm->name;
}

TFCC_OP_DEFINE(tfcc_op_batch_matmul, "BATCH_MATMUL", bmm_init, bmm_prepare, bmm_eval,
               .release = bmm_release, .macs = bmm_macs, .kernel = bmm_kernel);

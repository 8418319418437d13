/* RFFT2D: 2-D FFT of the real innermost [H, W] slices of a float32 input (rank >= 2), each
 * cropped or zero-padded to fft_length = [fft_h, fft_w] (int32 [2]); output complex64
 * [..., fft_h, fft_w / 2 + 1] as tf.signal.rfft2d, computed in double (kernels/fft/fft.h;
 * power-of-two rows by a half-length complex FFT, the real-input trick).
 * fft_length must be known at prepare (constant or folded): TFLite makes the output dynamic
 * otherwise. TFLite accepts only powers of two; any length >= 1 works here. */
#include <stdlib.h>
#include <string.h>

#include "kernels/fft/fft.h"
#include "ops/op.h"
#include "ops/work_estimate.h"
#include "base/threadpool.h"

#define OP "RFFT2D"
/* keeps the work area and output sizes far from overflow */
#define FFT_MAX_LEN (1 << 20)

/* fft_h 1 and a power-of-two fft_w >= 4 (spectrogram frames): all slices' rows at once,
 * TFCC_RFFT_LANES side by side (tfcc_rfft_rows, the same bits as tfcc_rfft2d per slice). */
static bool rows_path(int32_t fh, int32_t fw) { return fh == 1 && fw >= 4 && (fw & (fw - 1)) == 0; }
/* fewer slices leave most lanes idle: 3 rows ran 0.8x the per-slice kernel (rfft_bench) */
#define ROWS_MIN (TFCC_RFFT_LANES / 2)

/* The rows path's twiddles, computed once at load when fft_length is a constant of the file
 * (every real spectrogram front end): eval then only reads them. */
typedef struct rfft2d_params {
  int32_t fw;
  double tw[]; /* fw doubles (tfcc_rfft_rows_init) */
} rfft2d_params;

static tfcc_status init(tfcc_init_ctx *ctx) {
  const tfcc_ir_tensor *len = tfcc_init_ir_input(ctx, 1);
  if (!len || !len->data || len->dtype != TFCC_INT32 || len->rank != 1 || len->dims[0] != 2 ||
      len->data_bytes < 2 * sizeof(int32_t))
    return TFCC_OK; /* prepare checks and names what is wrong, or eval computes them */
  int32_t fl[2];
  memcpy(fl, len->data, sizeof fl);
  if (fl[0] < 1 || fl[0] > FFT_MAX_LEN || fl[1] < 1 || fl[1] > FFT_MAX_LEN ||
      !rows_path(fl[0], fl[1]))
    return TFCC_OK;
  rfft2d_params *p = malloc(sizeof *p + (size_t)fl[1] * sizeof(double));
  if (!p)
    return tfcc_err_set(ctx->err, TFCC_ERR_NO_MEMORY, OP ": out of memory for %d twiddles",
                        (int)fl[1]);
  p->fw = fl[1];
  tfcc_rfft_rows_init(fl[1], p->tw);
  ctx->params = p;
  return TFCC_OK;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  TFCC_OP_CHECK(ctx, ctx->n_in == 2 && ctx->n_out == 1 && ctx->in[0] && ctx->in[1] && ctx->out[0],
                TFCC_ERR_INVALID_MODEL,
                OP
                ": %d inputs and %d outputs, expected 2 (input, "
                "fft_length) and 1",
                (int)ctx->n_in, (int)ctx->n_out);
  const tfcc_tensor *in = ctx->in[0], *len = ctx->in[1];
  tfcc_tensor *out = ctx->out[0];
  TFCC_OP_CHECK(ctx, in->dtype == TFCC_FLOAT32, TFCC_ERR_UNSUPPORTED,
                OP ": input dtype %s, expected float32", tfcc_dtype_name(in->dtype));
  TFCC_OP_CHECK(ctx, in->rank >= 2, TFCC_ERR_SHAPE, OP ": input rank %d, expected >= 2",
                (int)in->rank);
  TFCC_OP_CHECK(ctx, len->dtype == TFCC_INT32 && len->rank == 1 && len->dims[0] == 2,
                TFCC_ERR_SHAPE, OP ": fft_length must be int32 [2] (is %s rank %d)",
                tfcc_dtype_name(len->dtype), (int)len->rank);
  TFCC_OP_CHECK(ctx, len->known && len->data, TFCC_ERR_UNSUPPORTED,
                OP
                ": fft_length (tensor %d) is computed at run time; tfcc needs it constant to "
                "size the output",
                (int)len->index);
  TFCC_OP_CHECK(ctx, out->dtype == TFCC_COMPLEX64, TFCC_ERR_DTYPE,
                OP ": output dtype %s, expected complex64", tfcc_dtype_name(out->dtype));
  const int32_t *fl = (const int32_t *)len->data;
  TFCC_OP_CHECK(ctx, fl[0] >= 1 && fl[0] <= FFT_MAX_LEN && fl[1] >= 1 && fl[1] <= FFT_MAX_LEN,
                TFCC_ERR_INVALID_MODEL, OP ": fft_length [%d, %d] outside 1..2^20", (int)fl[0],
                (int)fl[1]);
  int32_t dims[TFCC_MAX_RANK];
  for (int32_t i = 0; i < in->rank; i++) dims[i] = in->dims[i];
  dims[in->rank - 2] = fl[0];
  dims[in->rank - 1] = fl[1] / 2 + 1;
  tfcc_status st = tfcc_tensor_set_shape(out, in->rank, dims, ctx->err);
  if (st) return st;
  size_t work = tfcc_rfft2d_work_doubles(fl[0], fl[1]);
  const size_t rows_work = (size_t)fl[1] + (size_t)tfcc_threadpool_size(ctx->pool) *
                                               tfcc_rfft_rows_buffer_doubles(fl[1]);
  if (rows_path(fl[0], fl[1]) && rows_work > work) work = rows_work;
  ctx->scratch_bytes = work * sizeof(double);
  return TFCC_OK;
}

/* One task: TFCC_RFFT_LANES slices' rows, in the calling thread's buffer. */
typedef struct rows_job {
  const float *src;
  float *dst;
  size_t in_slice, out_slice, slices;
  int32_t w, fw;
  const double *tw;
  double *bufs;
  size_t buf_doubles;
} rows_job;

static void rows_task(void *ctx, size_t task, int thread) {
  const rows_job *j = ctx;
  const size_t r0 = task * TFCC_RFFT_LANES;
  const size_t n = j->slices - r0 < TFCC_RFFT_LANES ? j->slices - r0 : TFCC_RFFT_LANES;
  tfcc_rfft_rows(j->src + r0 * j->in_slice, n, j->in_slice, j->w, j->fw, j->tw,
                 j->bufs + (size_t)thread * j->buf_doubles, j->dst + r0 * j->out_slice,
                 j->out_slice);
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  const int32_t *fl = (const int32_t *)ctx->in[1]->data;
  const int32_t fh = fl[0], fw = fl[1];
  const int32_t h = in->dims[in->rank - 2], w = in->dims[in->rank - 1];
  size_t slices = 1;
  for (int32_t i = 0; i < in->rank - 2; i++) slices *= (size_t)in->dims[i];
  double *work = (double *)ctx->scratch;
  const float *src = (const float *)in->data;
  float *dst = (float *)ctx->out[0]->data;
  const size_t in_slice = (size_t)h * (size_t)w;
  const size_t out_slice = (size_t)fh * (size_t)(fw / 2 + 1) * 2;
  if (rows_path(fh, fw) && h >= 1 && slices >= ROWS_MIN) {
    const rfft2d_params *p = ctx->params;
    const double *tw = work;
    if (p && p->fw == fw)
      tw = p->tw;
    else
      tfcc_rfft_rows_init(fw, work);
    rows_job j = {src, dst, in_slice, out_slice, slices,
                  w,   fw,  tw,       work + fw, tfcc_rfft_rows_buffer_doubles(fw)};
    tfcc_threadpool_run(ctx->pool, (slices + TFCC_RFFT_LANES - 1) / TFCC_RFFT_LANES, rows_task, &j);
    return TFCC_OK;
  }
  tfcc_rfft2d_init(fh, fw, work);
  for (size_t s = 0; s < slices; s++)
    tfcc_rfft2d(src + s * in_slice, h, w, fh, fw, work, dst + s * out_slice);
  return TFCC_OK;
}

/* The kernel a profile names: the rows kernel where it runs, else the per-slice one. */
static const char *rfft2d_kernel(const tfcc_op_ctx *ctx) {
  if (ctx->n_in < 2 || !ctx->in[0] || !ctx->in[1] || !ctx->in[1]->data) return "ref";
  const tfcc_tensor *in = ctx->in[0];
  const int32_t *fl = (const int32_t *)ctx->in[1]->data;
  if (in->rank < 2 || in->dims[in->rank - 2] < 1 || !rows_path(fl[0], fl[1])) return "ref";
  size_t slices = 1;
  for (int32_t i = 0; i < in->rank - 2; i++) slices *= (size_t)in->dims[i];
  return slices >= ROWS_MIN ? "rfft-rows" : "ref";
}

static int64_t log2_ceil(int64_t n) {
  int64_t k = 0;
  while (((int64_t)1 << k) < n) k++;
  return k;
}

/* Radix-2 butterflies of one complex transform of length n: (n / 2) log2(n) for a power of two;
 * otherwise Bluestein's two transforms of the power of two m >= 2n - 1 (kernels/fft/fft.c). */
static int64_t fft_butterflies(int64_t n) {
  if (n <= 1) return 0;
  const int64_t k = log2_ceil(n);
  if (((int64_t)1 << k) == n) return n / 2 * k;
  const int64_t km = log2_ceil(2 * n - 1);
  return 2 * (((int64_t)1 << km) / 2 * km);
}

/* An estimate of the work (tfcc_op_info.macs, profiles, callers bounding a run): 4 real
 * multiply-adds per radix-2 butterfly, a transform of fw in each of the fh rows and one of fh in
 * each of the fw / 2 + 1 columns, per slice. */
static int64_t rfft2d_macs(const tfcc_op_ctx *ctx) {
  const tfcc_tensor *in = ctx->in[0];
  if (ctx->n_in < 2 || !ctx->in[1] || !ctx->in[1]->data || in->rank < 2) return 0;
  const int32_t *fl = (const int32_t *)ctx->in[1]->data;
  const int64_t fh = fl[0], fw = fl[1];
  int64_t slices = 1;
  for (int32_t i = 0; i < in->rank - 2; i++) slices = tfcc_work_mul(slices, in->dims[i]);
  /* saturating: a file's lengths and batch dimensions may ask for more than int64 holds */
  const int64_t rows = tfcc_work_mul(fh, fft_butterflies(fw)),
                cols = tfcc_work_mul(fw / 2 + 1, fft_butterflies(fh));
  const int64_t per_slice = rows > INT64_MAX - cols ? INT64_MAX : rows + cols;
  return tfcc_work_mul(4, tfcc_work_mul(slices, per_slice));
}

const tfcc_op_def tfcc_op_rfft2d = {.name = OP,
                                    .init = init,
                                    .prepare = prepare,
                                    .eval = eval,
                                    .macs = rfft2d_macs,
                                    .kernel = rfft2d_kernel};

/* Mfcc (ops; a custom operator every standard TFLite build registers, kernels/mfcc.cc):
 * a spectrogram float32 [channels, frames, width] (squared magnitudes, as AudioSpectrogram
 * makes them) and the sample rate (int32, one element) -> float32 [channels, frames,
 * dct_coefficient_count]: mel filterbank over the magnitudes, log (floor 1e-12), DCT-II, in
 * double (kernels/ref/audio_features.c). A sample rate <= 0 fails the run, as TFLite's
 * filterbank does not initialize then. */

#include "kernels/ref/audio_features.h"
#include "ops/custom_params.h"
#include "ops/work_estimate.h"

typedef struct mfcc_op {
  tfcc_mfcc_params p;
} mfcc_op;

static tfcc_status init(tfcc_init_ctx *ctx) {
  const tfcc_status st = tfcc_custom_params_new(
      ctx, TFCC_OPTIONS_MFCC,
      "upper_frequency_limit, lower_frequency_limit, filterbank_channel_count, "
      "dct_coefficient_count",
      sizeof(mfcc_op));
  if (st) return st;
  const tfcc_mfcc_options *o = &ctx->node->opts.mfcc;
  ((mfcc_op *)ctx->params)->p =
      (tfcc_mfcc_params){o->upper_frequency_limit, o->lower_frequency_limit,
                         o->filterbank_channel_count, o->dct_coefficient_count};
  return TFCC_OK;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  const mfcc_op *m = (const mfcc_op *)ctx->params;
  TFCC_OP_CHECK(ctx, ctx->n_in == 2 && ctx->n_out == 1 && ctx->in[0] && ctx->in[1] && ctx->out[0],
                TFCC_ERR_INVALID_MODEL,
                "%d inputs and %d outputs, expected 2 (spectrogram, sample rate) and 1",
                (int)ctx->n_in, (int)ctx->n_out);
  const tfcc_tensor *in = ctx->in[0], *rate = ctx->in[1];
  TFCC_OP_CHECK(ctx, in->dtype == TFCC_FLOAT32 && ctx->out[0]->dtype == TFCC_FLOAT32,
                TFCC_ERR_DTYPE, "spectrogram %s, output %s: both must be float32",
                tfcc_dtype_name(in->dtype), tfcc_dtype_name(ctx->out[0]->dtype));
  TFCC_OP_CHECK(ctx, rate->dtype == TFCC_INT32 && tfcc_tensor_elements(rate) == 1, TFCC_ERR_DTYPE,
                "sample rate: %s with %lld elements, expected one int32",
                tfcc_dtype_name(rate->dtype), (long long)tfcc_tensor_elements(rate));
  TFCC_OP_CHECK(ctx, in->rank == 3, TFCC_ERR_SHAPE,
                "spectrogram rank %d, expected 3 (channels, frames, width)", (int)in->rank);
  const int32_t dims[3] = {in->dims[0], in->dims[1], m->p.dct_coefficient_count};
  tfcc_status st = tfcc_tensor_set_shape(ctx->out[0], 3, dims, ctx->err);
  if (st) return st;
  ctx->scratch_bytes = tfcc_mfcc_scratch_doubles(&m->p, in->dims[2]) * sizeof(double);
  return TFCC_OK;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const mfcc_op *m = (const mfcc_op *)ctx->params;
  const tfcc_tensor *in = ctx->in[0];
  const int32_t rate = *(const int32_t *)ctx->in[1]->data;
  const int64_t rows = (int64_t)in->dims[0] * in->dims[1];
  if (rows == 0) return TFCC_OK;
  if (!tfcc_mfcc_f32((const float *)in->data, rows, in->dims[2], (double)rate, &m->p,
                     (float *)ctx->out[0]->data, (double *)ctx->scratch))
    return tfcc_err_set(ctx->err, TFCC_ERR_INVALID_ARG,
                        "Mfcc: sample rate %d with spectrogram width %d: the mel filterbank needs "
                        "a positive rate and a width >= 2",
                        (int)rate, (int)in->dims[2]);
  return TFCC_OK;
}

/* An estimate of the work (tfcc_op_info.macs): the DCT's cosine table once (its
 * dct_coefficient_count x filterbank_channel_count entries), then per row of the spectrogram
 * its width, the filterbank's channels and the DCT (coefficients x channels). The options
 * allow 65,536 channels: quadratic in them, over rows the input sizes. */
static int64_t macs(const tfcc_op_ctx *ctx) {
  const mfcc_op *m = (const mfcc_op *)ctx->params;
  if (!m || ctx->n_in < 1 || !ctx->in[0] || ctx->in[0]->rank != 3) return 0;
  const tfcc_tensor *in = ctx->in[0];
  const int64_t rows = tfcc_work_mul(in->dims[0], in->dims[1]);
  if (rows == 0) return 0; /* eval returns before the table */
  const int64_t table = tfcc_work_mul(m->p.dct_coefficient_count, m->p.filterbank_channel_count);
  const int64_t per_row =
      tfcc_work_add(tfcc_work_add(in->dims[2], m->p.filterbank_channel_count), table);
  return tfcc_work_add(table, tfcc_work_mul(rows, per_row));
}

TFCC_OP_DEFINE(tfcc_op_mfcc, "Mfcc", init, prepare, eval, .macs = macs);

/* AudioSpectrogram (ops; a custom operator every standard TFLite build registers,
 * kernels/audio_spectrogram.cc): float32 [samples, channels] -> float32 [channels, frames,
 * 1 + fft / 2], frames = 1 + (samples - window_size) / stride (0 when the input is shorter than
 * a window), fft the next power of two >= window_size; each frame's periodic-Hann-windowed DFT
 * as squared magnitude or (magnitude_squared false) its square root. Options from the custom
 * options (format/tflite_custom_options.c); the arithmetic in kernels/ref/audio_features.c. */

#include "kernels/ref/audio_features.h"
#include "ops/custom_params.h"
#include "ops/work_estimate.h"

typedef struct spectrogram_op {
  tfcc_audio_spectrogram_options o;
} spectrogram_op;

static tfcc_status init(tfcc_init_ctx *ctx) {
  const tfcc_status st = tfcc_custom_params_new(ctx, TFCC_OPTIONS_AUDIO_SPECTROGRAM,
                                                "window_size, stride", sizeof(spectrogram_op));
  if (st) return st;
  ((spectrogram_op *)ctx->params)->o = ctx->node->opts.spectrogram;
  return TFCC_OK;
}

static tfcc_status prepare(tfcc_op_ctx *ctx) {
  const spectrogram_op *p = (const spectrogram_op *)ctx->params;
  TFCC_OP_CHECK(ctx, ctx->n_in == 1 && ctx->n_out == 1 && ctx->in[0] && ctx->out[0],
                TFCC_ERR_INVALID_MODEL, "%d inputs and %d outputs, expected 1 and 1",
                (int)ctx->n_in, (int)ctx->n_out);
  const tfcc_tensor *in = ctx->in[0];
  TFCC_OP_CHECK(ctx, in->dtype == TFCC_FLOAT32 && ctx->out[0]->dtype == TFCC_FLOAT32,
                TFCC_ERR_DTYPE, "input %s, output %s: both must be float32",
                tfcc_dtype_name(in->dtype), tfcc_dtype_name(ctx->out[0]->dtype));
  TFCC_OP_CHECK(ctx, in->rank == 2, TFCC_ERR_SHAPE, "input rank %d, expected 2 (samples, channels)",
                (int)in->rank);
  const int32_t dims[3] = {in->dims[1],
                           tfcc_spectrogram_frames(in->dims[0], p->o.window_size, p->o.stride),
                           1 + tfcc_spectrogram_fft_length(p->o.window_size) / 2};
  tfcc_status st = tfcc_tensor_set_shape(ctx->out[0], 3, dims, ctx->err);
  if (st) return st;
  ctx->scratch_bytes = tfcc_spectrogram_scratch_doubles(p->o.window_size) * sizeof(double);
  return TFCC_OK;
}

static tfcc_status eval(tfcc_op_ctx *ctx) {
  const spectrogram_op *p = (const spectrogram_op *)ctx->params;
  const tfcc_tensor *in = ctx->in[0];
  if (ctx->out[0]->dims[1] == 0 || in->dims[1] == 0) return TFCC_OK;
  tfcc_spectrogram_f32((const float *)in->data, in->dims[0], in->dims[1], p->o.window_size,
                       p->o.stride, p->o.magnitude_squared, (float *)ctx->out[0]->data,
                       (double *)ctx->scratch);
  return TFCC_OK;
}

/* An estimate of the work (tfcc_op_info.macs): per channel and frame, the window, an FFT of
 * length n (n / 2 butterflies in each of its log2 n passes, and n twiddle factors) and the
 * output row. A window of 2^24 samples is 4e8 per frame. */
static int64_t macs(const tfcc_op_ctx *ctx) {
  const spectrogram_op *p = (const spectrogram_op *)ctx->params;
  if (!p || ctx->n_in < 1 || !ctx->in[0] || ctx->in[0]->rank != 2 || p->o.window_size < 2 ||
      p->o.stride < 1)
    return 0;
  const tfcc_tensor *in = ctx->in[0];
  const int64_t frames = tfcc_spectrogram_frames(in->dims[0], p->o.window_size, p->o.stride);
  const int64_t n = tfcc_spectrogram_fft_length(p->o.window_size);
  int64_t log2n = 0;
  while (((int64_t)1 << log2n) < n) log2n++;
  const int64_t per_frame =
      tfcc_work_add(tfcc_work_add(p->o.window_size, n), tfcc_work_mul(n / 2 + 1, log2n + 1));
  return tfcc_work_mul3(in->dims[1], frames, per_frame);
}

TFCC_OP_DEFINE(tfcc_op_audio_spectrogram, "AudioSpectrogram", init, prepare, eval, .macs = macs);

/* The audio front ends every standard TFLite build registers as custom operators:
 * AudioSpectrogram (periodic Hann window, power-of-two real FFT in double, squared magnitude)
 * and Mfcc (mel filterbank over the magnitude spectrum, log with a 1e-12 floor, DCT-II), in
 * double arithmetic as tflite::internal::Spectrogram and tflite::internal::Mfcc. */
#ifndef TFCC_KERNELS_REF_AUDIO_FEATURES_H
#define TFCC_KERNELS_REF_AUDIO_FEATURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The FFT length of a window (the next power of two >= window) and the output width
 * (1 + fft / 2). window must be >= 2 and <= 2^30. */
int32_t tfcc_spectrogram_fft_length(int32_t window);
/* Frames of samples: 1 + (samples - window) / stride, or 0 when samples < window. */
int32_t tfcc_spectrogram_frames(int64_t samples, int32_t window, int32_t stride);
/* Scratch doubles tfcc_spectrogram_f32 needs for this window. */
size_t tfcc_spectrogram_scratch_doubles(int32_t window);
/* in [samples, channels] -> out [channels, frames, 1 + fft / 2]: the squared magnitude of each
 * windowed frame's DFT (magnitude_squared) or its square root (sqrtf of the float value). */
void tfcc_spectrogram_f32(const float *in, int64_t samples, int32_t channels, int32_t window,
                          int32_t stride, bool magnitude_squared, float *out, double *scratch);

typedef struct tfcc_mfcc_params {
  double upper_frequency_limit, lower_frequency_limit;
  int32_t filterbank_channel_count, dct_coefficient_count;
} tfcc_mfcc_params;

/* Scratch doubles tfcc_mfcc_f32 needs for spectrogram rows of `width` values. */
size_t tfcc_mfcc_scratch_doubles(const tfcc_mfcc_params *p, int32_t width);
/* in [rows, width] (squared magnitudes) -> out [rows, dct_coefficient_count]. false (nothing
 * written) where TFLite's MfccMelFilterbank::Initialize fails: sample_rate <= 0 or width < 2, or
 * a row shorter than the filterbank's last bin (TFLite then fails the node). */
bool tfcc_mfcc_f32(const float *in, int64_t rows, int32_t width, double sample_rate,
                   const tfcc_mfcc_params *p, float *out, double *scratch);

#endif

/* AudioSpectrogram and Mfcc in double arithmetic, as TFLite's internal::Spectrogram and
 * internal::Mfcc (audio_features.h). The FFT is an iterative radix-2 transform of the
 * zero-padded windowed frame; TFLite uses Ooura's rdft, which differs only in the last bits of
 * the double results (the outputs are rounded to float). */
#include "kernels/ref/audio_features.h"

#include <math.h>

int32_t tfcc_spectrogram_fft_length(int32_t window) {
  int32_t n = 1;
  while (n < window) n <<= 1;
  return n;
}

int32_t tfcc_spectrogram_frames(int64_t samples, int32_t window, int32_t stride) {
  if (samples < window) return 0;
  return (int32_t)(1 + (samples - window) / stride);
}

size_t tfcc_spectrogram_scratch_doubles(int32_t window) {
  return (size_t)window + 2 * (size_t)tfcc_spectrogram_fft_length(window);
}

/* In-place complex FFT of n (a power of two) points, re / im separate. */
static void fft(double *re, double *im, int32_t n) {
  for (int32_t i = 1, j = 0; i < n; i++) { /* bit reversal */
    int32_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      double t = re[i];
      re[i] = re[j];
      re[j] = t;
      t = im[i];
      im[i] = im[j];
      im[j] = t;
    }
  }
  const double pi = atan(1.0) * 4.0;
  for (int32_t len = 2; len <= n; len <<= 1) {
    const int32_t half = len / 2;
    for (int32_t k = 0; k < half; k++) {
      const double a = -2.0 * pi * (double)k / (double)len;
      const double wr = cos(a), wi = sin(a);
      for (int32_t s = 0; s < n; s += len) {
        double *ur = &re[s + k], *ui = &im[s + k], *vr = &re[s + k + half], *vi = &im[s + k + half];
        const double tr = *vr * wr - *vi * wi, ti = *vr * wi + *vi * wr;
        *vr = *ur - tr;
        *vi = *ui - ti;
        *ur += tr;
        *ui += ti;
      }
    }
  }
}

void tfcc_spectrogram_f32(const float *in, int64_t samples, int32_t channels, int32_t window,
                          int32_t stride, bool magnitude_squared, float *out, double *scratch) {
  const int32_t n = tfcc_spectrogram_fft_length(window), width = 1 + n / 2;
  const int32_t frames = tfcc_spectrogram_frames(samples, window, stride);
  double *hann = scratch, *re = scratch + window, *im = re + n;
  const double pi = atan(1.0) * 4.0;
  for (int32_t i = 0; i < window; i++) hann[i] = 0.5 - 0.5 * cos((2.0 * pi * i) / window);
  for (int32_t c = 0; c < channels; c++) {
    for (int32_t f = 0; f < frames; f++) {
      const int64_t start = (int64_t)f * stride;
      for (int32_t j = 0; j < window; j++) {
        re[j] = (double)in[(start + j) * channels + c] * hann[j];
        im[j] = 0.0;
      }
      for (int32_t j = window; j < n; j++) re[j] = im[j] = 0.0;
      fft(re, im, n);
      float *row = out + ((int64_t)c * frames + f) * width;
      for (int32_t i = 0; i < width; i++) {
        const float p = (float)(re[i] * re[i] + im[i] * im[i]);
        row[i] = magnitude_squared ? p : sqrtf(p);
      }
    }
  }
}

size_t tfcc_mfcc_scratch_doubles(const tfcc_mfcc_params *p, int32_t width) {
  const size_t ch = (size_t)p->filterbank_channel_count;
  return (ch + 1) + 2 * (size_t)width + (size_t)p->dct_coefficient_count * ch + ch;
}

static double freq_to_mel(double freq) { return 1127.0 * log1p(freq / 700.0); }

bool tfcc_mfcc_f32(const float *in, int64_t rows, int32_t width, double sample_rate,
                   const tfcc_mfcc_params *p, float *out, double *scratch) {
  const int32_t nch = p->filterbank_channel_count, ndct = p->dct_coefficient_count;
  if (!(sample_rate > 0) || width < 2) return false;
  double *center = scratch, *mapper = center + nch + 1, *weights = mapper + width;
  double *cosines = weights + width, *working = cosines + (size_t)ndct * nch;
  /* MfccMelFilterbank::Initialize */
  const double mel_low = freq_to_mel(p->lower_frequency_limit);
  const double mel_hi = freq_to_mel(p->upper_frequency_limit);
  const double mel_spacing = (mel_hi - mel_low) / (double)(nch + 1);
  for (int32_t i = 0; i < nch + 1; i++) center[i] = mel_low + (mel_spacing * (i + 1));
  const double hz_per_sbin = 0.5 * sample_rate / (double)(width - 1);
  const double start_d = 1.5 + (p->lower_frequency_limit / hz_per_sbin);
  const double end_d = p->upper_frequency_limit / hz_per_sbin;
  /* static_cast<int>; beyond int range TFLite's behaviour is undefined: clamp */
  const int32_t start = start_d > 2e9 ? 2000000000 : (int32_t)start_d;
  const int32_t end = end_d > 2e9 ? 2000000000 : (int32_t)end_d;
  int32_t channel = 0;
  for (int32_t i = 0; i < width; i++) {
    const double melf = freq_to_mel(i * hz_per_sbin);
    if (i < start || i > end) {
      mapper[i] = -2;
    } else {
      while (channel < nch && center[channel] < melf) ++channel;
      mapper[i] = channel - 1;
    }
  }
  for (int32_t i = 0; i < width; i++) {
    const int32_t ch = (int32_t)mapper[i];
    if (i < start || i > end)
      weights[i] = 0.0;
    else if (ch >= 0)
      weights[i] = (center[ch + 1] - freq_to_mel(i * hz_per_sbin)) / (center[ch + 1] - center[ch]);
    else
      weights[i] = (center[0] - freq_to_mel(i * hz_per_sbin)) / (center[0] - mel_low);
  }
  /* MfccDct::Initialize */
  const double fnorm = sqrt(2.0 / nch), pi = atan(1.0) * 4.0, arg = pi / nch;
  for (int32_t i = 0; i < ndct; i++)
    for (int32_t j = 0; j < nch; j++)
      cosines[(size_t)i * nch + j] = fnorm * cos(i * arg * (j + 0.5));
  for (int64_t r = 0; r < rows; r++) {
    const float *x = in + r * width;
    float *y = out + r * ndct;
    if (width <= end) { /* MfccMelFilterbank::Compute leaves its output empty: the DCT of nothing */
      for (int32_t i = 0; i < ndct; i++) y[i] = 0.0f;
      continue;
    }
    for (int32_t c = 0; c < nch; c++) working[c] = 0.0;
    for (int32_t i = start; i <= end; i++) {
      const double spec_val = sqrt((double)x[i]);
      const double weighted = spec_val * weights[i];
      int32_t ch = (int32_t)mapper[i];
      if (ch >= 0) working[ch] += weighted;
      ch++;
      if (ch < nch) working[ch] += spec_val - weighted;
    }
    for (int32_t c = 0; c < nch; c++) working[c] = log(working[c] < 1e-12 ? 1e-12 : working[c]);
    for (int32_t i = 0; i < ndct; i++) {
      double sum = 0.0;
      for (int32_t j = 0; j < nch; j++) sum += cosines[(size_t)i * nch + j] * working[j];
      y[i] = (float)sum;
    }
  }
  return true;
}

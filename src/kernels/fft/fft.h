/* Complex discrete Fourier transform in double precision, any length n >= 1:
 *   X[k] = sum_j x[j] * exp(-2 pi i j k / n)          (forward, unnormalized)
 * Power-of-two lengths: iterative radix-2 (decimation in time, bit-reversed input order).
 * Other lengths: Bluestein's chirp-z algorithm over a power-of-two FFT of length
 * m >= 2n - 1 (the chirp angle pi k^2 / n is reduced modulo 2n in integers, so it stays
 * accurate for large k).
 * Data is n interleaved (re, im) pairs. A work area prepared once by tfcc_fft_init (twiddle
 * factors; for Bluestein also the chirp and its transformed filter) serves any number of
 * transforms of that length; it is read-only afterwards except for Bluestein's buffer, so
 * one work area per thread. */
#ifndef TFCC_KERNELS_FFT_FFT_H
#define TFCC_KERNELS_FFT_FFT_H

#include <stddef.h>
#include <stdint.h>

/* Doubles the work area of length n needs. */
size_t tfcc_fft_work_doubles(int32_t n);

/* Fills the work area for length n. */
void tfcc_fft_init(int32_t n, double *work);

/* In-place forward transform of data[2n]. */
void tfcc_fft_forward(int32_t n, double *data, double *work);

/* 2-D real-input transform as tf.signal.rfft2d: a [h_in, w_in] float slice, cropped or
 * zero-padded to [fft_h, fft_w], to [fft_h, fft_w / 2 + 1] complex values written as float
 * (re, im) pairs. Rows are transformed first, then the fft_w / 2 + 1 kept columns.
 * work: tfcc_rfft2d_work_doubles(fft_h, fft_w) doubles. */
size_t tfcc_rfft2d_work_doubles(int32_t fft_h, int32_t fft_w);
void tfcc_rfft2d_init(int32_t fft_h, int32_t fft_w, double *work);
void tfcc_rfft2d(const float *in, int32_t h_in, int32_t w_in, int32_t fft_h, int32_t fft_w,
                 double *work, float *out);
/* The straightforward twin of tfcc_rfft2d (every row as a complex FFT of length fft_w), kept
 * as the reference the tests compare against. tfcc_rfft2d transforms rows of power-of-two
 * length >= 4 with one complex FFT of half the length (x[2k] + i x[2k+1]) and a split step;
 * both are computed in double, so they differ by double rounding only (a float result may
 * differ in its last bit). Same work area. */
void tfcc_rfft2d_reference(const float *in, int32_t h_in, int32_t w_in, int32_t fft_h,
                           int32_t fft_w, double *work, float *out);

/* fft_h == 1 with a power-of-two fft_w >= 4 over many slices: `rows` rows (row r at
 * in + r * in_stride, w_in floats, cropped or zero-padded to fft_w) to fft_w / 2 + 1 complex
 * values each as float (re, im) pairs at out + r * out_stride, TFCC_RFFT_LANES rows at a time
 * side by side; bit for bit tfcc_rfft2d on each row. tw: fft_w doubles filled by
 * tfcc_rfft_rows_init (read-only afterwards, shared by threads); buf:
 * tfcc_rfft_rows_buffer_doubles(fft_w) doubles of scratch (one per thread). */
#define TFCC_RFFT_LANES 8
size_t tfcc_rfft_rows_buffer_doubles(int32_t fft_w);
void tfcc_rfft_rows_init(int32_t fft_w, double *tw);
void tfcc_rfft_rows(const float *in, size_t rows, size_t in_stride, int32_t w_in, int32_t fft_w,
                    const double *tw, double *buf, float *out, size_t out_stride);

#endif

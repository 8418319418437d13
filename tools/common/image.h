/* Image decoding for the tfcc tool: JPEG (libjpeg), PNG (libpng), BMP (own decoder).
 *
 * Result: 8-bit pixels, row-major, top row first, interleaved channels (RGB or gray).
 * Conversions:
 *   - a BMP whose palette is all gray (r == g == b) and PNG/JPEG grayscale images decode
 *     to 1 channel; everything else decodes to RGB;
 *   - RGB -> gray uses ITU-R BT.601 luma, round(0.299 R + 0.587 G + 0.114 B);
 *   - gray -> RGB replicates the value;
 *   - alpha (PNG, 32-bit BMP with an alpha mask) is dropped; PNG alpha is composited onto
 *     black by libpng. */
#ifndef TFCC_TOOLS_IMAGE_H
#define TFCC_TOOLS_IMAGE_H

#include <stddef.h>
#include <stdint.h>

typedef struct image_u8 {
  int32_t width;
  int32_t height;
  int32_t channels; /* 1 or 3 */
  uint8_t *pixels;  /* width*height*channels bytes, malloc'ed */
} image_u8;

/* Largest accepted width or height, and pixel count (protects against absurd headers). */
#define IMAGE_MAX_SIDE 32768
#define IMAGE_MAX_PIXELS (1u << 28)

/* Decodes an image held in memory. want_channels: 1 (gray), 3 (RGB) or 0 (as stored).
 * Returns 0, or -1 with err set. */
int image_decode(const uint8_t *buf, size_t size, int want_channels, image_u8 *out, char *err,
                 size_t err_size);
/* Reads and decodes a file (format from its magic bytes). Messages start with the path. */
int image_load_file(const char *path, int want_channels, image_u8 *out, char *err, size_t err_size);

/* The format's own decoders, native channels (1 or 3). Exposed for tests. */
int image_decode_bmp(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t err_size);
int image_decode_png(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t err_size);
int image_decode_jpeg(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t err_size);

/* Converts in place to 1 or 3 channels (see above). Returns 0 or -1 (out of memory). */
int image_convert(image_u8 *img, int channels);

void image_free(image_u8 *img);

#endif

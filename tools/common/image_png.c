/* PNG decoding through libpng's simplified API (png_image): any bit depth, palette,
 * tRNS and 16-bit are converted by libpng to 8-bit RGB or gray. */
#include "image.h"

#include <png.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int png_fail(char *err, size_t n, const char *fmt, ...) {
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

int image_decode_png(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t n) {
  memset(out, 0, sizeof *out);
  png_image pi;
  memset(&pi, 0, sizeof pi);
  pi.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&pi, buf, size))
    return png_fail(err, n, "PNG: %s", pi.message[0] ? pi.message : "cannot read header");
  if (pi.width == 0 || pi.height == 0 || pi.width > IMAGE_MAX_SIDE || pi.height > IMAGE_MAX_SIDE ||
      (uint64_t)pi.width * pi.height > IMAGE_MAX_PIXELS) {
    png_image_free(&pi);
    return png_fail(err, n, "PNG: unsupported size %ux%u", (unsigned)pi.width, (unsigned)pi.height);
  }
  int channels = (pi.format & PNG_FORMAT_FLAG_COLOR) ? 3 : 1;
  pi.format = channels == 3 ? PNG_FORMAT_RGB : PNG_FORMAT_GRAY;
  size_t bytes = (size_t)pi.width * pi.height * (size_t)channels;
  /* Zeroed: an alpha channel is composited onto the buffer, i.e. onto black. */
  uint8_t *px = (uint8_t *)calloc(bytes, 1);
  if (!px) {
    png_image_free(&pi);
    return png_fail(err, n, "PNG: out of memory");
  }
  if (!png_image_finish_read(&pi, NULL, px, 0, NULL)) {
    free(px);
    png_image_free(&pi);
    return png_fail(err, n, "PNG: %s", pi.message[0] ? pi.message : "decode error");
  }
  out->width = (int32_t)pi.width;
  out->height = (int32_t)pi.height;
  out->channels = channels;
  out->pixels = px;
  png_image_free(&pi);
  return 0;
}

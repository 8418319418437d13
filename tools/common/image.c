/* Image loading: format detection by magic bytes and channel conversion. */
#include "image.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int img_fail(char *err, size_t n, const char *fmt, ...) {
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

void image_free(image_u8 *img) {
  if (!img) return;
  free(img->pixels);
  memset(img, 0, sizeof *img);
}

int image_convert(image_u8 *img, int channels) {
  if (channels == 0 || channels == img->channels) return 0;
  size_t count = (size_t)img->width * (size_t)img->height;
  size_t bytes = count * (size_t)channels;
  uint8_t *dst = (uint8_t *)malloc(bytes ? bytes : 1);
  if (!dst) return -1;
  const uint8_t *src = img->pixels;
  if (channels == 1 && img->channels == 3) {
    /* ITU-R BT.601 luma in integer arithmetic, rounded: (299 R + 587 G + 114 B + 500) / 1000. */
    for (size_t i = 0; i < count; i++) {
      uint32_t y = 299u * src[3 * i] + 587u * src[3 * i + 1] + 114u * src[3 * i + 2];
      dst[i] = (uint8_t)((y + 500u) / 1000u);
    }
  } else if (channels == 3 && img->channels == 1) {
    for (size_t i = 0; i < count; i++) dst[3 * i] = dst[3 * i + 1] = dst[3 * i + 2] = src[i];
  } else {
    free(dst);
    return -1;
  }
  free(img->pixels);
  img->pixels = dst;
  img->channels = channels;
  return 0;
}

int image_decode(const uint8_t *buf, size_t size, int want_channels, image_u8 *out, char *err,
                 size_t n) {
  memset(out, 0, sizeof *out);
  if (want_channels != 0 && want_channels != 1 && want_channels != 3)
    return img_fail(err, n, "cannot make %d-channel images (only 1 or 3)", want_channels);
  int rc;
  if (size >= 2 && buf[0] == 'B' && buf[1] == 'M') {
    rc = image_decode_bmp(buf, size, out, err, n);
  } else if (size >= 8 && memcmp(buf, "\x89PNG\r\n\x1a\n", 8) == 0) {
    rc = image_decode_png(buf, size, out, err, n);
  } else if (size >= 3 && buf[0] == 0xFF && buf[1] == 0xD8 && buf[2] == 0xFF) {
    rc = image_decode_jpeg(buf, size, out, err, n);
  } else {
    return img_fail(err, n, "unknown image format (not JPEG, PNG or BMP)");
  }
  if (rc != 0) return -1;
  if (image_convert(out, want_channels) != 0) {
    image_free(out);
    return img_fail(err, n, "out of memory converting the image");
  }
  return 0;
}

int image_load_file(const char *path, int want_channels, image_u8 *out, char *err, size_t n) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) return img_fail(err, n, "%s: %s", path, strerror(errno));
  uint8_t *buf = NULL;
  long len = -1;
  if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
  if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return img_fail(err, n, "%s: cannot determine size (not a regular file?)", path);
  }
  buf = (uint8_t *)malloc((size_t)len + 1);
  if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
    fclose(f);
    free(buf);
    return img_fail(err, n, "%s: read error", path);
  }
  fclose(f);
  char inner[256];
  int rc = image_decode(buf, (size_t)len, want_channels, out, inner, sizeof inner);
  free(buf);
  if (rc != 0) return img_fail(err, n, "%s: %s", path, inner);
  return 0;
}

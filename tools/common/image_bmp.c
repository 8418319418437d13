/* Small BMP decoder: BITMAPINFOHEADER and its V2..V5 extensions (40..124 bytes),
 * 8-bit palette (gray or color), 24-bit BGR, 32-bit BGRX (BI_RGB) or masked (BI_BITFIELDS),
 * bottom-up (height > 0) and top-down (height < 0) rows padded to 4 bytes.
 * Not supported (clear error): OS/2 core headers, RLE compression, 1/4/16-bit pixels. */
#include "image.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bmp_fail(char *err, size_t n, const char *fmt, ...) {
  if (err && n) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static uint32_t rd_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint16_t rd_u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

/* Extracts an 8-bit channel value from a masked pixel: shifts the mask down and rescales
 * masks narrower than 8 bits to the full 0..255 range. */
static uint8_t masked_channel(uint32_t px, uint32_t mask) {
  if (!mask) return 0;
  int shift = 0;
  while (!((mask >> shift) & 1u)) shift++;
  uint32_t m = mask >> shift;
  uint32_t v = (px >> shift) & m;
  if (m == 255u) return (uint8_t)v;
  return (uint8_t)((v * 255u + m / 2u) / m);
}

int image_decode_bmp(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t n) {
  memset(out, 0, sizeof *out);
  if (size < 14 + 4 || buf[0] != 'B' || buf[1] != 'M') return bmp_fail(err, n, "not a BMP file");
  uint32_t data_off = rd_u32(buf + 10);
  uint32_t hsize = rd_u32(buf + 14);
  if (hsize == 12) return bmp_fail(err, n, "BMP: OS/2 core headers are not supported");
  if (hsize < 40 || hsize > 124 || 14 + (size_t)hsize > size)
    return bmp_fail(err, n, "BMP: bad info header size %u", (unsigned)hsize);
  const uint8_t *h = buf + 14;
  int32_t width = (int32_t)rd_u32(h + 4);
  int32_t height_raw = (int32_t)rd_u32(h + 8);
  uint16_t bpp = rd_u16(h + 14);
  uint32_t compression = rd_u32(h + 16);
  uint32_t colors_used = rd_u32(h + 32);
  int top_down = height_raw < 0;
  if (height_raw == INT32_MIN) return bmp_fail(err, n, "BMP: bad height");
  int32_t height = top_down ? -height_raw : height_raw;
  if (width <= 0 || height <= 0 || width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE ||
      (uint64_t)width * (uint64_t)height > IMAGE_MAX_PIXELS)
    return bmp_fail(err, n, "BMP: unsupported size %dx%d", (int)width, (int)height_raw);

  uint32_t masks[4] = {0x00FF0000u, 0x0000FF00u, 0x000000FFu, 0};
  if (bpp == 32 && compression == 3) { /* BI_BITFIELDS: masks follow the 40-byte header */
    const size_t moff = 14 + 40;       /* V2+ headers hold the masks at the same place */
    if (moff + 12 > size) return bmp_fail(err, n, "BMP: truncated bit masks");
    for (int i = 0; i < 3; i++) masks[i] = rd_u32(buf + moff + 4 * (size_t)i);
  } else if (compression != 0) {
    return bmp_fail(err, n, "BMP: compression %u is not supported (only uncompressed)",
                    (unsigned)compression);
  }
  if (bpp != 8 && bpp != 24 && bpp != 32)
    return bmp_fail(err, n, "BMP: %u bits per pixel is not supported (8, 24, 32)", (unsigned)bpp);

  /* Palette (8-bit): BGRA entries right after the info header (and masks, for V1 + BI_BITFIELDS,
   * which cannot happen at 8 bits). */
  uint8_t pal[256][3];
  int gray = 0;
  if (bpp == 8) {
    uint32_t entries = colors_used ? colors_used : 256u;
    if (entries > 256u) return bmp_fail(err, n, "BMP: palette of %u colors", (unsigned)entries);
    size_t poff = 14 + (size_t)hsize;
    if (poff + 4 * (size_t)entries > size) return bmp_fail(err, n, "BMP: truncated palette");
    memset(pal, 0, sizeof pal);
    gray = 1;
    for (uint32_t i = 0; i < entries; i++) {
      const uint8_t *e = buf + poff + 4 * (size_t)i;
      pal[i][0] = e[2];
      pal[i][1] = e[1];
      pal[i][2] = e[0];
      if (e[0] != e[1] || e[1] != e[2]) gray = 0;
    }
  }

  size_t stride = ((size_t)width * bpp + 31u) / 32u * 4u;
  if (data_off > size || (size - data_off) / stride < (size_t)height)
    return bmp_fail(err, n, "BMP: pixel data truncated (%zu bytes from offset %u, need %zu)",
                    data_off <= size ? size - data_off : (size_t)0, (unsigned)data_off,
                    stride * (size_t)height);

  int channels = (bpp == 8 && gray) ? 1 : 3;
  uint8_t *px = (uint8_t *)malloc((size_t)width * (size_t)height * (size_t)channels);
  if (!px) return bmp_fail(err, n, "BMP: out of memory");
  for (int32_t y = 0; y < height; y++) {
    const uint8_t *row = buf + data_off + stride * (size_t)(top_down ? y : height - 1 - y);
    uint8_t *dst = px + (size_t)y * (size_t)width * (size_t)channels;
    for (int32_t x = 0; x < width; x++) {
      if (bpp == 8) {
        const uint8_t *c = pal[row[x]];
        if (channels == 1) {
          dst[x] = c[0];
        } else {
          dst[3 * x] = c[0];
          dst[3 * x + 1] = c[1];
          dst[3 * x + 2] = c[2];
        }
      } else if (bpp == 24) {
        const uint8_t *s = row + 3 * (size_t)x;
        dst[3 * x] = s[2];
        dst[3 * x + 1] = s[1];
        dst[3 * x + 2] = s[0];
      } else {
        uint32_t v = rd_u32(row + 4 * (size_t)x);
        dst[3 * x] = masked_channel(v, masks[0]);
        dst[3 * x + 1] = masked_channel(v, masks[1]);
        dst[3 * x + 2] = masked_channel(v, masks[2]);
      }
    }
  }
  out->width = width;
  out->height = height;
  out->channels = channels;
  out->pixels = px;
  return 0;
}

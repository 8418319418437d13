/* Unit tests of the tool's BMP decoder, channel conversion and bilinear resize
 * (tools/common/image.c, image_bmp.c, resize.c). PNG/JPEG go through libpng/libjpeg, which
 * unit tests do not link: those paths are covered by tests/cli (tfcc classify). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/common/image.c"
#include "../../tools/common/image_bmp.c"
#include "../../tools/common/npy.c"
#include "../../tools/common/resize.c"
#include "test_harness.h"

int image_decode_png(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t n) {
  (void)buf;
  (void)size;
  (void)out;
  snprintf(err, n, "PNG stub");
  return -1;
}
int image_decode_jpeg(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t n) {
  (void)buf;
  (void)size;
  (void)out;
  snprintf(err, n, "JPEG stub");
  return -1;
}

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}
static void put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

/* Test pattern: pixel (x, y) of an RGB image. */
static void pattern(int x, int y, uint8_t rgb[3]) {
  rgb[0] = (uint8_t)(x * 37 + y * 11);
  rgb[1] = (uint8_t)(x * 5 + y * 53 + 7);
  rgb[2] = (uint8_t)(x * y + 200);
}

/* Builds a BMP with a 40-byte (or hsize-byte) info header. bpp 8 uses a palette where
 * index i maps to (i, i, i) if gray else to (i, 255 - i, i / 2); pixel value = (x*7 + y*3) & 255.
 * For 32 bpp with masks, the masks are RGB at bits 0..7, 8..15, 16..23 (reverse of default). */
static size_t make_bmp(uint8_t *buf, size_t cap, int w, int h, int bpp, int top_down, int gray,
                       int bitfields, uint32_t hsize) {
  size_t stride = ((size_t)w * (size_t)bpp + 31) / 32 * 4;
  size_t pal = bpp == 8 ? 256 * 4 : 0;
  size_t masks = bitfields && hsize == 40 ? 12 : 0;
  size_t off = 14 + hsize + masks + pal;
  size_t total = off + stride * (size_t)h;
  if (total > cap) return 0;
  memset(buf, 0, total);
  buf[0] = 'B';
  buf[1] = 'M';
  put32(buf + 2, (uint32_t)total);
  put32(buf + 10, (uint32_t)off);
  uint8_t *ih = buf + 14;
  put32(ih, hsize);
  put32(ih + 4, (uint32_t)w);
  put32(ih + 8, (uint32_t)(top_down ? -h : h));
  put16(ih + 12, 1);
  put16(ih + 14, (uint16_t)bpp);
  put32(ih + 16, bitfields ? 3u : 0u);
  if (bitfields) {
    put32(buf + 14 + 40, 0x000000FFu);
    put32(buf + 14 + 44, 0x0000FF00u);
    put32(buf + 14 + 48, 0x00FF0000u);
  }
  if (bpp == 8) {
    uint8_t *p = buf + 14 + hsize + masks;
    for (int i = 0; i < 256; i++) {
      uint8_t r = (uint8_t)i, g = gray ? (uint8_t)i : (uint8_t)(255 - i),
              b = gray ? (uint8_t)i : (uint8_t)(i / 2);
      p[4 * i] = b;
      p[4 * i + 1] = g;
      p[4 * i + 2] = r;
    }
  }
  for (int y = 0; y < h; y++) {
    uint8_t *row = buf + off + stride * (size_t)(top_down ? y : h - 1 - y);
    for (int x = 0; x < w; x++) {
      uint8_t c[3];
      pattern(x, y, c);
      if (bpp == 8) {
        row[x] = (uint8_t)((x * 7 + y * 3) & 255);
      } else if (bpp == 24) {
        row[3 * x] = c[2];
        row[3 * x + 1] = c[1];
        row[3 * x + 2] = c[0];
      } else if (bitfields) {
        put32(row + 4 * x,
              (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | 0xAB000000u);
      } else {
        row[4 * x] = c[2];
        row[4 * x + 1] = c[1];
        row[4 * x + 2] = c[0];
        row[4 * x + 3] = 0x55;
      }
    }
  }
  return total;
}

static int check_pixels(const image_u8 *img, int bpp, int gray) {
  int bad = 0;
  for (int y = 0; y < img->height; y++) {
    for (int x = 0; x < img->width; x++) {
      uint8_t want[3];
      if (bpp == 8) {
        int i = (x * 7 + y * 3) & 255;
        want[0] = (uint8_t)i;
        want[1] = gray ? (uint8_t)i : (uint8_t)(255 - i);
        want[2] = gray ? (uint8_t)i : (uint8_t)(i / 2);
      } else {
        pattern(x, y, want);
      }
      const uint8_t *got =
          img->pixels + ((size_t)y * (size_t)img->width + (size_t)x) * (size_t)img->channels;
      for (int c = 0; c < img->channels; c++) bad += got[c] != want[c];
    }
  }
  return bad;
}

static void test_bmp_variants(void) {
  static uint8_t buf[1 << 16];
  static const struct {
    int bpp, gray, bitfields;
    uint32_t hsize;
  } kinds[] = {{24, 0, 0, 40},  {24, 0, 0, 124}, {32, 0, 0, 40}, {32, 0, 1, 40},
               {32, 0, 1, 108}, {8, 1, 0, 40},   {8, 0, 0, 40},  {8, 1, 0, 124}};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    for (int td = 0; td <= 1; td++) {
      for (int w = 1; w <= 7; w += 3) {
        int h = 5;
        size_t n = make_bmp(buf, sizeof buf, w, h, kinds[k].bpp, td, kinds[k].gray,
                            kinds[k].bitfields, kinds[k].hsize);
        CHECK(n > 0);
        image_u8 img;
        char err[256] = "";
        int rc = image_decode(buf, n, 0, &img, err, sizeof err);
        CHECKF(rc == 0, "bpp %d td %d w %d: %s", kinds[k].bpp, td, w, err);
        if (rc) continue;
        CHECK(img.width == w && img.height == h);
        CHECK(img.channels == (kinds[k].bpp == 8 && kinds[k].gray ? 1 : 3));
        int bad = check_pixels(&img, kinds[k].bpp, kinds[k].gray);
        CHECKF(bad == 0, "bpp %d bitfields %d hsize %u td %d w %d: %d wrong", kinds[k].bpp,
               kinds[k].bitfields, (unsigned)kinds[k].hsize, td, w, bad);
        image_free(&img);
      }
    }
  }
}

static void test_bmp_errors(void) {
  static uint8_t buf[1 << 14];
  image_u8 img;
  char err[256];
  size_t n = make_bmp(buf, sizeof buf, 9, 4, 24, 0, 0, 0, 40);
  CHECK(image_decode(buf, n - 1, 0, &img, err, sizeof err) == -1 && strstr(err, "truncated"));
  CHECK(image_decode(buf, 20, 0, &img, err, sizeof err) == -1);
  uint8_t save[4];
  memcpy(save, buf + 14 + 16, 4);
  put32(buf + 14 + 16, 1); /* BI_RLE8 */
  CHECK(image_decode(buf, n, 0, &img, err, sizeof err) == -1 && strstr(err, "compression 1"));
  memcpy(buf + 14 + 16, save, 4);
  put16(buf + 14 + 14, 16);
  CHECK(image_decode(buf, n, 0, &img, err, sizeof err) == -1 && strstr(err, "16 bits"));
  put16(buf + 14 + 14, 24);
  put32(buf + 14 + 4, 0);
  CHECK(image_decode(buf, n, 0, &img, err, sizeof err) == -1 && strstr(err, "size"));
  put32(buf + 14 + 4, 9);
  put32(buf + 14 + 8, 0x80000000u);
  CHECK(image_decode(buf, n, 0, &img, err, sizeof err) == -1);
  put32(buf + 14 + 8, 100000);
  CHECK(image_decode(buf, n, 0, &img, err, sizeof err) == -1);
  put32(buf + 14 + 8, 4);
  put32(buf + 14, 12);
  CHECK(image_decode(buf, n, 0, &img, err, sizeof err) == -1 && strstr(err, "OS/2"));
  put32(buf + 14, 200);
  CHECK(image_decode(buf, n, 0, &img, err, sizeof err) == -1 && strstr(err, "header size"));
  put32(buf + 14, 40);
  put32(buf + 10, 0xFFFFFFF0u);
  CHECK(image_decode(buf, n, 0, &img, err, sizeof err) == -1 && strstr(err, "truncated"));
  /* 8-bit with a palette running past the end of the file */
  n = make_bmp(buf, sizeof buf, 3, 3, 8, 0, 1, 0, 40);
  CHECK(image_decode(buf, 14 + 40 + 100, 0, &img, err, sizeof err) == -1 && strstr(err, "palette"));
  put32(buf + 14 + 32, 300);
  CHECK(image_decode(buf, n, 0, &img, err, sizeof err) == -1 && strstr(err, "palette"));

  const uint8_t gif[] = "GIF89a....";
  CHECK(image_decode(gif, sizeof gif, 0, &img, err, sizeof err) == -1 &&
        strstr(err, "unknown image format"));
  const uint8_t png[] = "\x89PNG\r\n\x1a\n....";
  CHECK(image_decode(png, sizeof png, 0, &img, err, sizeof err) == -1 && strstr(err, "PNG stub"));
  CHECK(image_decode(png, sizeof png, 2, &img, err, sizeof err) == -1 && strstr(err, "2-channel"));
  CHECK(image_load_file("/nonexistent.bmp", 3, &img, err, sizeof err) == -1 &&
        strstr(err, "/nonexistent.bmp"));
}

static void test_convert(void) {
  uint8_t rgb[4 * 3] = {255, 255, 255, 0, 0, 0, 255, 0, 0, 10, 200, 30};
  image_u8 img = {2, 2, 3, NULL};
  img.pixels = (uint8_t *)malloc(sizeof rgb);
  memcpy(img.pixels, rgb, sizeof rgb);
  CHECK(image_convert(&img, 1) == 0 && img.channels == 1);
  /* BT.601: round(0.299 R + 0.587 G + 0.114 B) computed in double here */
  for (int i = 0; i < 4; i++) {
    double y = 0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1] + 0.114 * rgb[3 * i + 2];
    CHECKF(img.pixels[i] == (uint8_t)(y + 0.5), "pixel %d: %u vs %.3f", i, img.pixels[i], y);
  }
  CHECK(image_convert(&img, 3) == 0 && img.channels == 3);
  CHECK(img.pixels[3] == 0 && img.pixels[4] == 0 && img.pixels[5] == 0 && img.pixels[0] == 255);
  image_free(&img);
}

/* Straightforward bilinear (half-pixel centers) in double, for a +-1 sanity bound. */
static double bilinear_double(const uint8_t *in, int ih, int iw, int ch, int oy, int ox, int c,
                              int oh, int ow) {
  double sy = (oy + 0.5) * ih / oh - 0.5, sx = (ox + 0.5) * iw / ow - 0.5;
  if (sy < 0) sy = 0;
  if (sx < 0) sx = 0;
  int y0 = (int)sy, x0 = (int)sx;
  int y1 = y0 + 1 < ih ? y0 + 1 : ih - 1, x1 = x0 + 1 < iw ? x0 + 1 : iw - 1;
  double fy = sy - y0, fx = sx - x0;
#define P(y, x) (double)in[((size_t)(y) * (size_t)iw + (size_t)(x)) * (size_t)ch + (size_t)c]
  return P(y0, x0) * (1 - fy) * (1 - fx) + P(y1, x0) * fy * (1 - fx) + P(y0, x1) * (1 - fy) * fx +
         P(y1, x1) * fy * fx;
#undef P
}

static void test_resize_synthetic(void) {
  enum { IH = 13, IW = 17, CH = 3 };
  uint8_t in[IH * IW * CH];
  for (int i = 0; i < IH * IW * CH; i++) in[i] = (uint8_t)((i * 97 + 13) % 256);
  /* identity */
  uint8_t same[IH * IW * CH];
  resize_bilinear_u8(in, IH, IW, CH, same, IH, IW);
  CHECK(memcmp(in, same, sizeof in) == 0);
  /* constant image stays constant up to truncation: with a 1x1 source the weights are e.g.
   * 1.4 and -0.4 (TFLite does not clamp the border offset), so 7 may come out as 6.99999 -> 6 */
  uint8_t one[3] = {7, 200, 255}, big[5 * 9 * 3];
  resize_bilinear_u8(one, 1, 1, 3, big, 5, 9);
  int bad = 0;
  for (int i = 0; i < 5 * 9; i++)
    bad += (big[3 * i] != 7 && big[3 * i] != 6) ||
           (big[3 * i + 1] != 200 && big[3 * i + 1] != 199) || big[3 * i + 2] < 254;
  CHECK(bad == 0);
  /* up and down, odd sizes: truncation of the float result is within (-1, +1e-3] of the exact value */
  static const int sizes[][2] = {{5, 7}, {29, 31}, {1, 1}, {13, 40}, {40, 3}};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    int oh = sizes[k][0], ow = sizes[k][1];
    uint8_t *out = (uint8_t *)malloc((size_t)oh * (size_t)ow * CH);
    resize_bilinear_u8(in, IH, IW, CH, out, oh, ow);
    int off = 0;
    for (int y = 0; y < oh; y++)
      for (int x = 0; x < ow; x++)
        for (int c = 0; c < CH; c++) {
          double want = bilinear_double(in, IH, IW, CH, y, x, c, oh, ow);
          double got = out[((size_t)y * (size_t)ow + (size_t)x) * CH + (size_t)c];
          off += !(got <= want + 1e-3 && got > want - 1.0 - 1e-3);
        }
    CHECKF(off == 0, "%dx%d: %d values off", oh, ow, off);
    free(out);
  }
}

/* The shared references were made from these images with TFLite's RESIZE_BILINEAR formula
 * in float32: our result must be byte-identical. */
static void test_resize_matches_refs(void) {
  const char *shared = tfcc_test_shared_dir();
  if (!shared) return;
  static const struct {
    const char *image, *ref;
    int size;
  } cases[] = {
      {"cat.bmp", "mobilenet_v2_224_quant", 224},
      {"cat.bmp", "mobilenet_v1_025_128_quant", 128},
      {"squat.bmp", "movenet_lightning_ptq", 192},
      {"bird_segmentation.bmp", "deeplabv3_mnv2_dm05_quant", 513},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char path[4096], err[256] = "";
    image_u8 img;
    npy_array ref;
    snprintf(path, sizeof path, "%s/models/images/%s", shared, cases[k].image);
    int rc = image_load_file(path, 3, &img, err, sizeof err);
    CHECKF(rc == 0, "%s", err);
    if (rc) continue;
    snprintf(path, sizeof path, "%s/models/ref/%s/input_0.npy", shared, cases[k].ref);
    rc = npy_read_file(path, &ref, err, sizeof err);
    CHECKF(rc == 0, "%s", err);
    if (rc) {
      image_free(&img);
      continue;
    }
    int s = cases[k].size;
    CHECK(ref.bytes == (size_t)s * (size_t)s * 3);
    uint8_t *out = (uint8_t *)malloc((size_t)s * (size_t)s * 3);
    resize_bilinear_u8(img.pixels, img.height, img.width, 3, out, s, s);
    size_t diff = 0;
    for (size_t i = 0; i < ref.bytes && i < (size_t)s * (size_t)s * 3; i++)
      diff += out[i] != ((uint8_t *)ref.data)[i];
    CHECKF(diff == 0, "%s -> %s: %zu bytes differ", cases[k].image, cases[k].ref, diff);
    free(out);
    npy_free(&ref);
    image_free(&img);
  }
  /* 8-bit gray BMP: mnist_nine.bmp is the keras_lstm_mnist_ptq input as raw pixels */
  char path[4096], err[256] = "";
  image_u8 img;
  npy_array ref;
  snprintf(path, sizeof path, "%s/models/images/mnist_nine.bmp", shared);
  CHECKF(image_load_file(path, 0, &img, err, sizeof err) == 0, "%s", err);
  snprintf(path, sizeof path, "%s/models/ref/keras_lstm_mnist_ptq/input_0.npy", shared);
  CHECKF(npy_read_file(path, &ref, err, sizeof err) == 0, "%s", err);
  CHECK(img.channels == 1 && img.width == 28 && img.height == 28);
  if (img.pixels && ref.data && ref.bytes == 28 * 28)
    CHECK(memcmp(img.pixels, ref.data, 28 * 28) == 0);
  npy_free(&ref);
  image_free(&img);
}

/* Random corruption of valid BMPs must give an image or an error, never a crash
 * (run under ASan/UBSan in CI). */
static void test_bmp_mutations(void) {
  static uint8_t good[1 << 14], buf[1 << 14];
  uint32_t seed = 12345;
  int decoded = 0, failed = 0;
  for (int round = 0; round < 3000; round++) {
    int bpp = round % 3 == 0 ? 8 : round % 3 == 1 ? 24 : 32;
    size_t n = make_bmp(good, sizeof good, 5 + round % 4, 3 + round % 5, bpp, round & 1, round & 2,
                        bpp == 32 && (round & 4), (round & 8) ? 124 : 40);
    memcpy(buf, good, n);
    for (int k = 0; k < 1 + round % 6; k++) {
      seed = seed * 1664525u + 1013904223u;
      size_t at = (seed >> 8) % (round % 7 == 0 ? n : 70); /* mostly the headers */
      seed = seed * 1664525u + 1013904223u;
      buf[at] = (uint8_t)(seed >> 24);
    }
    seed = seed * 1664525u + 1013904223u;
    size_t len = (round % 5 == 0) ? (seed >> 8) % (n + 1) : n;
    image_u8 img;
    char err[256];
    if (image_decode(buf, len, round % 4 == 3 ? 1 : 0, &img, err, sizeof err) == 0) {
      decoded++;
      CHECK(img.width > 0 && img.height > 0 && img.pixels != NULL);
      image_free(&img);
    } else {
      failed++;
      CHECK(err[0] != '\0');
    }
  }
  CHECK(decoded > 0 && failed > 0);
}

int main(void) {
  test_bmp_variants();
  test_bmp_mutations();
  test_bmp_errors();
  test_convert();
  test_resize_synthetic();
  test_resize_matches_refs();
  return tfcc_test_finish("test_image");
}

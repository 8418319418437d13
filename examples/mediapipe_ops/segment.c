/* Runs a MediaPipe segmentation model (hair, selfie) with the MediaPipe custom operators
 * registered, on a 24- or 32-bit uncompressed BMP image (or a mid-grey image if none is given),
 * and prints how much of the image, its centre and its border the mask covers:
 *   mediapipe_segment MODEL.tflite [IMAGE.bmp [MASK.pgm]]
 * The input is the image resized (nearest) to the model's float32 NHWC input, RGB in [0, 1];
 * channels past the third (the hair model's previous mask) are 0. The mask is output 0: one
 * channel (a probability, foreground where > 0.5) or two (foreground where channel 1 > channel 0);
 * MASK.pgm, if given, receives it (255 = foreground). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mediapipe_ops.h"

typedef struct image {
  int w, h;
  uint8_t *rgb; /* w*h*3, top row first */
} image;

static uint32_t le(const uint8_t *p, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

/* Uncompressed 24/32-bit BMP; 0 on success. */
static int read_bmp(const char *path, image *img) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  uint8_t hdr[54];
  int ok = fread(hdr, 1, sizeof hdr, f) == sizeof hdr && hdr[0] == 'B' && hdr[1] == 'M';
  uint32_t off = ok ? le(hdr + 10, 4) : 0, comp = ok ? le(hdr + 30, 4) : 0;
  int32_t w = ok ? (int32_t)le(hdr + 18, 4) : 0, h = ok ? (int32_t)le(hdr + 22, 4) : 0;
  int bpp = ok ? (int)le(hdr + 28, 2) : 0;
  int top_down = h < 0;
  if (top_down) h = -h;
  ok = ok && w > 0 && h > 0 && w <= 16384 && h <= 16384 && (bpp == 24 || bpp == 32) &&
       (comp == 0 || comp == 3);
  size_t row = ((size_t)w * (size_t)(bpp / 8) + 3) & ~(size_t)3;
  uint8_t *buf = ok ? malloc(row * (size_t)h) : NULL;
  img->rgb = ok ? malloc((size_t)w * (size_t)h * 3) : NULL;
  ok = ok && buf && img->rgb && fseek(f, (long)off, SEEK_SET) == 0 &&
       fread(buf, row, (size_t)h, f) == (size_t)h;
  fclose(f);
  if (ok) {
    img->w = w, img->h = h;
    for (int y = 0; y < h; y++) {
      const uint8_t *src = buf + row * (size_t)(top_down ? y : h - 1 - y);
      for (int x = 0; x < w; x++)
        for (int c = 0; c < 3; c++)
          img->rgb[((size_t)y * w + x) * 3 + c] = src[x * (bpp / 8) + 2 - c];
    }
  }
  free(buf);
  if (!ok) free(img->rgb), img->rgb = NULL;
  return ok ? 0 : -1;
}

static int fail(const char *what) {
  fprintf(stderr, "mediapipe_segment: %s: %s\n", what, tfcc_last_error());
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 4) {
    fprintf(stderr, "usage: %s MODEL.tflite [IMAGE.bmp [MASK.pgm]]\n", argv[0]);
    return 2;
  }
  image img = {0, 0, NULL};
  if (argc >= 3 && read_bmp(argv[2], &img) != 0) {
    fprintf(stderr, "mediapipe_segment: %s: not an uncompressed 24/32-bit BMP\n", argv[2]);
    return 1;
  }
  tfcc_runtime *rt = NULL;
  tfcc_model *model = NULL;
  tfcc_session *s = NULL;
  if (tfcc_runtime_create(NULL, &rt) != TFCC_OK) return fail("runtime");
  int rc = 1;
  float *x = NULL, *y = NULL;
  if (mediapipe_ops_register(rt) != TFCC_OK) {
    rc = fail("registering the MediaPipe operators");
    goto out;
  }
  if (tfcc_model_load_file(rt, argv[1], NULL, &model) != TFCC_OK) {
    rc = fail(argv[1]);
    goto out;
  }
  if (tfcc_session_create(model, NULL, &s) != TFCC_OK) {
    rc = fail("session");
    goto out;
  }
  tfcc_tensor_info in, o;
  tfcc_session_input_info(s, 0, &in);
  tfcc_session_output_info(s, 0, &o);
  if (in.dtype != TFCC_FLOAT32 || in.rank != 4 || in.dims[3] < 3 || o.dtype != TFCC_FLOAT32 ||
      o.rank != 4 || o.dims[3] < 1 || o.dims[3] > 2) {
    fprintf(stderr,
            "mediapipe_segment: expects a float32 NHWC image input (>= 3 channels) and a 1- or "
            "2-channel float32 mask output\n");
    goto out;
  }
  const int ih = in.dims[1], iw = in.dims[2], ic = in.dims[3];
  x = calloc(1, in.bytes);
  y = malloc(o.bytes);
  if (!x || !y) goto out;
  for (int r = 0; r < ih; r++)
    for (int c = 0; c < iw; c++)
      for (int k = 0; k < 3; k++)
        x[((size_t)r * iw + c) * ic + k] =
            img.rgb
                ? img.rgb[((size_t)(r * img.h / ih) * img.w + (size_t)(c * img.w / iw)) * 3 + k] /
                      255.f
                : 0.5f;
  const void *ins[] = {x};
  void *outs[] = {y};
  if (tfcc_session_input_count(s) != 1) {
    fprintf(stderr, "mediapipe_segment: the model has %d inputs, this example feeds one\n",
            tfcc_session_input_count(s));
    goto out;
  }
  void **all_outs = calloc((size_t)tfcc_session_output_count(s), sizeof(void *));
  if (!all_outs) goto out;
  all_outs[0] = outs[0];
  for (int k = 1; k < tfcc_session_output_count(s); k++) {
    tfcc_tensor_info oi;
    tfcc_session_output_info(s, k, &oi);
    all_outs[k] = malloc(oi.bytes ? oi.bytes : 1);
  }
  tfcc_status st = tfcc_session_run(s, ins, (void *const *)all_outs);
  for (int k = 1; k < tfcc_session_output_count(s); k++) free(all_outs[k]);
  free(all_outs);
  if (st != TFCC_OK) {
    fprintf(stderr, "mediapipe_segment: run: %s\n", tfcc_session_last_error(s));
    goto out;
  }
  const int oh = o.dims[1], ow = o.dims[2], oc = o.dims[3];
  FILE *pgm = argc == 4 ? fopen(argv[3], "wb") : NULL;
  if (argc == 4 && !pgm) {
    fprintf(stderr, "mediapipe_segment: cannot write %s\n", argv[3]);
    goto out;
  }
  if (pgm) fprintf(pgm, "P5\n%d %d\n255\n", ow, oh);
  long fg = 0, centre = 0, centre_n = 0, border = 0, border_n = 0;
  for (int r = 0; r < oh; r++)
    for (int c = 0; c < ow; c++) {
      const float *p = y + ((size_t)r * ow + c) * oc;
      const int on = oc == 1 ? p[0] > 0.5f : p[1] > p[0];
      const int in_centre = r >= oh / 4 && r < oh * 3 / 4 && c >= ow / 4 && c < ow * 3 / 4;
      const int in_border = r < oh / 10 || r >= oh - oh / 10 || c < ow / 10 || c >= ow - ow / 10;
      fg += on;
      if (pgm) fputc(on ? 255 : 0, pgm);
      if (in_centre) centre += on, centre_n++;
      if (in_border) border += on, border_n++;
    }
  if (pgm && fclose(pgm) != 0) {
    fprintf(stderr, "mediapipe_segment: cannot write %s\n", argv[3]);
    goto out;
  }
  printf("input %dx%dx%dx%d, mask %dx%dx%dx%d\n", in.dims[0], ih, iw, ic, o.dims[0], oh, ow, oc);
  printf("foreground %.1f%% (centre %.1f%%, border %.1f%%)\n", 100.0 * fg / ((double)oh * ow),
         centre_n ? 100.0 * centre / centre_n : 0.0, border_n ? 100.0 * border / border_n : 0.0);
  rc = 0;
out:
  free(x);
  free(y);
  free(img.rgb);
  tfcc_session_destroy(s);
  tfcc_model_release(model);
  tfcc_runtime_destroy(rt);
  return rc;
}

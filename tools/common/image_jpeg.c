/* JPEG decoding through libjpeg(-turbo). libjpeg reports fatal errors through error_exit,
 * which must not return: we longjmp back here and turn it into an error message. */
#include "image.h"

#include <stdio.h> /* before jpeglib.h, which uses FILE */

#include <jpeglib.h>
#include <jerror.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct jpeg_err_jmp {
  struct jpeg_error_mgr mgr;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  int truncated; /* libjpeg only warns (and pads with gray) when the data ends early */
} jpeg_err_jmp;

static void on_error_exit(j_common_ptr cinfo) {
  jpeg_err_jmp *e = (jpeg_err_jmp *)cinfo->err;
  e->mgr.format_message(cinfo, e->message);
  longjmp(e->jump, 1);
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; /* warnings: stay quiet */ }

static void on_emit_message(j_common_ptr cinfo, int level) {
  jpeg_err_jmp *e = (jpeg_err_jmp *)cinfo->err;
  if (level < 0) {
    if (e->mgr.msg_code == JWRN_JPEG_EOF) e->truncated = 1;
    e->mgr.num_warnings++;
  }
}

int image_decode_jpeg(const uint8_t *buf, size_t size, image_u8 *out, char *err, size_t n) {
  memset(out, 0, sizeof *out);
  struct jpeg_decompress_struct cinfo;
  jpeg_err_jmp jerr;
  /* Written after setjmp and read after a longjmp: must be volatile. */
  uint8_t *volatile px = NULL;
  memset(&cinfo, 0, sizeof cinfo);
  cinfo.err = jpeg_std_error(&jerr.mgr);
  jerr.mgr.error_exit = on_error_exit;
  jerr.mgr.output_message = on_output_message;
  jerr.mgr.emit_message = on_emit_message;
  jerr.message[0] = '\0';
  jerr.truncated = 0;
  if (setjmp(jerr.jump)) {
    jpeg_destroy_decompress(&cinfo);
    free(px);
    if (err && n) snprintf(err, n, "JPEG: %s", jerr.message);
    return -1;
  }
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, buf, (unsigned long)size);
  jpeg_read_header(&cinfo, TRUE);
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    snprintf(jerr.message, sizeof jerr.message, "CMYK images are not supported");
    longjmp(jerr.jump, 1);
  }
  int channels = cinfo.num_components == 1 ? 1 : 3;
  cinfo.out_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_start_decompress(&cinfo);
  if (cinfo.output_width == 0 || cinfo.output_height == 0 || cinfo.output_width > IMAGE_MAX_SIDE ||
      cinfo.output_height > IMAGE_MAX_SIDE ||
      (uint64_t)cinfo.output_width * cinfo.output_height > IMAGE_MAX_PIXELS ||
      cinfo.output_components != channels) {
    snprintf(jerr.message, sizeof jerr.message, "unsupported size %ux%u",
             (unsigned)cinfo.output_width, (unsigned)cinfo.output_height);
    longjmp(jerr.jump, 1);
  }
  size_t stride = (size_t)cinfo.output_width * (size_t)channels;
  px = (uint8_t *)malloc(stride * cinfo.output_height);
  if (!px) {
    snprintf(jerr.message, sizeof jerr.message, "out of memory");
    longjmp(jerr.jump, 1);
  }
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = px + stride * cinfo.output_scanline;
    jpeg_read_scanlines(&cinfo, &row, 1);
  }
  if (jerr.truncated) {
    snprintf(jerr.message, sizeof jerr.message, "file truncated (image data ends early)");
    longjmp(jerr.jump, 1);
  }
  jpeg_finish_decompress(&cinfo);
  out->width = (int32_t)cinfo.output_width;
  out->height = (int32_t)cinfo.output_height;
  out->channels = channels;
  out->pixels = px;
  jpeg_destroy_decompress(&cinfo);
  return 0;
}

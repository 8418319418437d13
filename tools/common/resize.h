/* Bilinear image resize matching TensorFlow Lite's RESIZE_BILINEAR reference kernel with
 * half_pixel_centers = true, align_corners = false, evaluated in float32 and truncated to
 * uint8 (as libcoral's CopyResizedImage feeds models). */
#ifndef TFCC_TOOLS_RESIZE_H
#define TFCC_TOOLS_RESIZE_H

#include <stdint.h>

/* in: ih x iw x channels, out: oh x ow x channels (row-major, interleaved). All sizes > 0. */
void resize_bilinear_u8(const uint8_t *in, int32_t ih, int32_t iw, int32_t channels, uint8_t *out,
                        int32_t oh, int32_t ow);

#endif

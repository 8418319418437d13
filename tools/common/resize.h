/* Bilinear image resize matching TensorFlow Lite's RESIZE_BILINEAR reference kernel with
 * half_pixel_centers = true, align_corners = false, evaluated in float32 and truncated to
 * uint8 (as libcoral's CopyResizedImage feeds models). */
#ifndef TFCC_TOOLS_RESIZE_H
#define TFCC_TOOLS_RESIZE_H

#include <stddef.h>
#include <stdint.h>

#include "tfcc/tfcc.h"

/* in: ih x iw x channels, out: oh x ow x channels (row-major, interleaved). All sizes > 0. */
void resize_bilinear_u8(const uint8_t *in, int32_t ih, int32_t iw, int32_t channels, uint8_t *out,
                        int32_t oh, int32_t ow);

/* A model's image input from count resized pixels, as classify and detect feed it (docs/tools.md):
 * uint8 the pixels, int8 pixel - 128, float32 (pixel - mean) / std; any other dtype: nothing. */
void pixels_to_input(const uint8_t *px, size_t count, tfcc_dtype dtype, double mean, double std,
                     void *dst);

#endif

/* q8 bilinear resize, portable C: every channel through the body's one-at-a-time loop. */
#include "kernels/q8-resize/resize.h"

static inline size_t q8r_channels(int8_t *o, const int8_t *const *p, int32_t wx, int32_t wy,
                                  bool is_signed, size_t d) {
  return 0;
}

#define TFCC_Q8_RESIZE_FN tfcc_q8_resize_scalar
#include "kernels/q8-resize/resize_body.h"

/* Depth-multiplier expansion of a depthwise convolution's input (dw_expand.h). */
#include "kernels/dw_expand.h"

#include <stdint.h>

#include "base/threadpool.h"

typedef struct expand_job {
  const void *in;
  void *out;
  size_t in_c, m, esize;
} expand_job;

/* The copy loop for one element type (bits copied as they are). */
#define EXPAND_PIXELS(T) \
  for (size_t px = p0; px < p1; px++) { \
    const T *s = (const T *)e->in + px * e->in_c; \
    T *d = (T *)e->out + px * e->in_c * e->m; \
    for (size_t c = 0; c < e->in_c; c++) \
      for (size_t k = 0; k < e->m; k++) *d++ = s[c]; \
  }

static void expand_range(void *ctx, size_t p0, size_t p1) {
  const expand_job *e = ctx;
  if (e->esize == 4) {
    EXPAND_PIXELS(uint32_t)
  } else if (e->esize == 2) {
    EXPAND_PIXELS(uint16_t)
  } else {
    EXPAND_PIXELS(uint8_t)
  }
}

void tfcc_dw_expand_channels(struct tfcc_threadpool *pool, const void *in, void *out, size_t pixels,
                             size_t in_c, size_t m, size_t esize) {
  expand_job e = {in, out, in_c, m, esize};
  tfcc_threadpool_run_split(pool, pixels, pool ? 8 : 1, expand_range, &e);
}

/* Sum kernels' dispatch table and the [outer, reduced, inner] shape test. */
#include "kernels/reduce/reduce.h"
#include "kernels/dispatch_table.h"

#include <string.h>

#include "kernels/quantize/quantize.h"

#define K(name_, fn_, isa, lvl) \
  { "reduce-" #isa, lvl, tfcc_rsum_f32_##isa, tfcc_rsum_q_##isa, tfcc_rsum_xnn_mean_f32_##isa }
static const tfcc_rsum_kernel kernels[] = {TFCC_KERNEL_ROWS_SSE4(K, , )};
#undef K
TFCC_DISPATCH_TABLE_FNS(tfcc_rsum, tfcc_rsum_kernel)

bool tfcc_rsum_usable(const tfcc_rsum_kernel *k, tfcc_isa isa) {
  return tfcc_isa_level_fits(k->isa, isa);
}

bool tfcc_rsum_shape(const tfcc_reduce_shape *s, size_t *O, size_t *R, size_t *I) {
  if (s->in_count <= 0) return false;
  /* runs of kept (0) and reduced (1) axes, size-1 axes skipped */
  size_t size[3] = {1, 1, 1};
  int kind[3] = {-1, -1, -1};
  int runs = 0;
  for (int32_t d = 0; d < s->rank; d++) {
    if (s->dims[d] == 1) continue;
    const int k = s->reduced[d] ? 1 : 0;
    if (runs == 0 || kind[runs - 1] != k) {
      if (runs == 3) return false;
      kind[runs] = k;
      size[runs] = 1;
      runs++;
    }
    size[runs - 1] *= (size_t)s->dims[d];
  }
  size_t o = 1, r = 1, i = 1;
  int at = 0;
  if (at < runs && kind[at] == 0) o = size[at++];
  if (at < runs && kind[at] == 1) r = size[at++];
  if (at < runs && kind[at] == 0) i = size[at++];
  if (at != runs) return false; /* reduced, kept, reduced */
  *O = o;
  *R = r;
  *I = i;
  return true;
}

void tfcc_rsum_xnn_q8_finish(tfcc_isa isa, const tfcc_reduce_shape *s, tfcc_dtype dt, int32_t *acc,
                             int32_t in_zp, float in_scale, void *out, int32_t out_zp,
                             float out_scale, bool is_mean) {
  const float scale = tfcc_xnn_reduce_scale(s, in_scale, out_scale, is_mean);
  const float bias = tfcc_xnn_reduce_bias((int32_t)s->reduce_count, in_zp, scale, out_zp);
  const size_t n = (size_t)s->out_count;
  for (size_t j = 0; j < n; j++) {
    /* the raw sum times the scale plus the float bias, as tfcc_xnn_reduce_q8_finish */
    float f = (float)acc[j] * scale;
    f += bias;
    memcpy(acc + j, &f, sizeof f);
  }
  const float *fa = (const float *)(const void *)acc;
  tfcc_qz_select(isa)->quantize_xnn(fa, out, n, 1.0f, 0, dt);
}

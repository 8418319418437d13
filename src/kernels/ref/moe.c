/* moe's arithmetic (moe.h). */
#include "kernels/ref/moe.h"

#include <math.h>
#include <string.h>

size_t tfcc_moe_scratch_floats(const tfcc_moe_shape *s) {
  return 3 * (size_t)s->hidden_dim + (size_t)s->model_dim;
}

/* y[o] = sum_c W[(o x experts + e) x n_in + c] x[c] for o < n_out, in the order of c. */
static void expert_fc(const float *w, int32_t experts, int32_t e, int32_t n_out, int32_t n_in,
                      const float *x, float *y) {
  for (int32_t o = 0; o < n_out; o++) {
    const float *row = w + ((int64_t)o * experts + e) * n_in;
    float acc = 0.0f;
    for (int32_t c = 0; c < n_in; c++) acc += x[c] * row[c];
    y[o] = acc;
  }
}

bool tfcc_moe_f32(const tfcc_moe_shape *s, int64_t tokens, const float *src,
                  const float *top_weights, const int32_t *top_indices, const tfcc_moe_weights *w,
                  float *out, float *scratch, int32_t *bad_index) {
  const int32_t d = s->model_dim, h = s->hidden_dim, k = s->num_active, n = s->num_experts;
  for (int64_t i = 0; i < tokens * k; i++) {
    const int32_t e = top_indices[i];
    if (e < -n || e >= n) {
      *bad_index = e < 0 ? e + n : e;
      return false;
    }
  }
  float *g = scratch, *u = g + h, *hid = u + h, *y = hid + h;
  memset(out, 0, (size_t)(tokens * d) * sizeof(float));
  for (int64_t t = 0; t < tokens; t++) {
    const float *x = src + t * d;
    float *o = out + t * d;
    for (int32_t e = 0; e < n; e++)
      for (int32_t r = 0; r < k; r++) {
        const int32_t idx = top_indices[t * k + r];
        if ((idx < 0 ? idx + n : idx) != e) continue;
        expert_fc(w->gate, n, e, h, d, x, g);
        expert_fc(w->up, n, e, h, d, x, u);
        for (int32_t j = 0; j < h; j++)
          hid[j] = 0.5f * g[j] * erfcf(g[j] * -0.70710678118654752440f) * u[j];
        expert_fc(w->down, n, e, d, h, hid, y);
        const float scale = w->per_expert_scale[e] * top_weights[t * k + r];
        for (int32_t j = 0; j < d; j++) o[j] += y[j] * scale;
      }
  }
  return true;
}

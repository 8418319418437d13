/* Winograd filter transform U = G g G^T per (out_c, in_c), packed per position for the f32
 * GEMM micro-kernel. Runs once per model. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/weights_mem.h"
#include "kernels/f32-winograd/winograd.h"

/* G of F(2x2,3x3) and F(4x4,3x3) (rows: positions, columns: filter taps). */
static const double g_f2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
static const double g_f4[6][3] = {{1.0 / 4, 0, 0},
                                  {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                  {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                  {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                  {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                  {0, 0, 1}};

bool tfcc_f32_wino_fits(const tfcc_conv_geom *g) {
  return g->filter_h == 3 && g->filter_w == 3 && g->stride_h == 1 && g->stride_w == 1 &&
         g->dil_h == 1 && g->dil_w == 1 && g->in_c == g->filter_in_c && g->in_c > 0 && g->out_c > 0;
}

void tfcc_f32_wino_free(tfcc_f32_wino_weights *w) {
  if (!w) return;
  tfcc_wmem_free(w->mem); /* the bias lies in the same block */
  memset(w, 0, sizeof *w);
}

size_t tfcc_f32_wino_weight_bytes(const tfcc_f32_wino_weights *w) {
  if (!w->mem) return 0;
  return (size_t)w->n * w->n * tfcc_f32_packed_bytes(w->gk, w->out_c, w->in_c) +
         (size_t)w->out_c * sizeof(float);
}

size_t tfcc_f32_wino_layout(const tfcc_f32_wino_kernel *k, const tfcc_f32_gemm_kernel *gk, int m,
                            int32_t out_c, int32_t in_c, tfcc_f32_wino_weights *w) {
  memset(w, 0, sizeof *w);
  if ((m != 2 && m != 4) || out_c <= 0 || in_c <= 0) return 0;
  w->k = k;
  w->gk = gk;
  w->name = m == 4 ? k->name_f4 : k->name_f2;
  w->m = m;
  w->n = m + 2;
  w->in_c = in_c;
  w->out_c = out_c;
  const size_t bias = ((size_t)out_c * sizeof(float) + 63) & ~(size_t)63;
  return (size_t)w->n * (size_t)w->n * tfcc_f32_packed_bytes(gk, out_c, in_c) + bias;
}

bool tfcc_f32_wino_otf(const tfcc_f32_wino_kernel *k, int m, int32_t out_c, int32_t in_c,
                       const tfcc_f32_packed *src, tfcc_f32_wino_weights *w) {
  if (!src || !src->w || src->n != out_c || (int64_t)src->kdim != 9 * (int64_t)in_c ||
      !tfcc_f32_wino_layout(k, src->k, m, out_c, in_c, w)) {
    memset(w, 0, sizeof *w);
    return false;
  }
  w->src = src;
  w->bias = src->w; /* the packing's first row: panels x NR bias floats, in channel order */
  return true;
}

void tfcc_f32_wino_bind(tfcc_f32_wino_weights *w, const void *block) {
  const int npos = w->n * w->n;
  const size_t pbytes = tfcc_f32_packed_bytes(w->gk, w->out_c, w->in_c);
  const size_t kc = tfcc_f32_pack_kc(w->gk, (size_t)w->in_c), pstride = pbytes / sizeof(float);
  w->mem = (float *)(uintptr_t)block; /* read only once filled */
  w->bias = w->mem + (size_t)npos * pstride;
  for (int p = 0; p < npos; p++)
    w->pos[p] =
        (tfcc_f32_packed){w->gk, w->out_c, w->in_c, (int32_t)kc, w->mem + (size_t)p * pstride};
}

bool tfcc_f32_wino_pack(const tfcc_f32_wino_kernel *k, const tfcc_f32_gemm_kernel *gk, int m,
                        int32_t out_c, int32_t in_c, const float *filter, const float *bias,
                        tfcc_f32_wino_weights *w) {
  const size_t bytes = tfcc_f32_wino_layout(k, gk, m, out_c, in_c, w);
  if (!bytes || !filter) {
    memset(w, 0, sizeof *w);
    return false;
  }
  const int n = m + 2;
  const size_t OC = (size_t)out_c, IC = (size_t)in_c;
  const size_t pbytes = tfcc_f32_packed_bytes(gk, out_c, in_c);
  double *t = malloc((size_t)n * 3 * IC * sizeof(double)); /* G g of one o: [a][kx][i] */
  void *block = tfcc_wmem_alloc(bytes); /* huge pages, populated: few first-touch faults */
  if (!t || !block) {
    free(t);
    tfcc_wmem_free(block);
    memset(w, 0, sizeof *w);
    return false;
  }
  memset(block, 0, bytes);
  tfcc_f32_wino_bind(w, block);
  for (size_t o = 0; o < OC; o++) w->bias[o] = bias ? bias[o] : 0.0f;
  const double(*G)[3] = m == 4 ? g_f4 : g_f2;
  /* U[p] goes straight into tfcc_f32_pack_into's layout (gemm.h; zero bias and padding):
   * element (o, i) of K block k0 at row * (1 + k0) + panel * kn * NR + (i - k0) * NR + o % NR. */
  const size_t NR = (size_t)gk->nr, row = (OC + NR - 1) / NR * NR;
  const size_t kc = tfcc_f32_pack_kc(gk, IC), pstride = pbytes / sizeof(float);
  /* Input channels innermost (contiguous in the OHWI filter): the first pass vectorises. */
  for (size_t o = 0; o < OC; o++) {
    const float *f = filter + o * 9 * IC; /* tap (ky, kx) at f[(ky * 3 + kx) * IC] */
    for (int a = 0; a < n; a++) {
      for (size_t kx = 0; kx < 3; kx++) {
        double *ta = t + ((size_t)a * 3 + kx) * IC;
        const float *f0 = f + kx * IC, *f1 = f + (3 + kx) * IC, *f2 = f + (6 + kx) * IC;
        for (size_t i = 0; i < IC; i++) ta[i] = G[a][0] * f0[i] + G[a][1] * f1[i] + G[a][2] * f2[i];
      }
    }
    for (int a = 0; a < n; a++) { /* (G g) G^T */
      const double *t0 = t + (size_t)a * 3 * IC, *t1 = t0 + IC, *t2 = t1 + IC;
      for (int b = 0; b < n; b++) {
        float *base = w->mem + (size_t)(a * n + b) * pstride + o % NR;
        for (size_t k0 = 0; k0 < IC; k0 += kc) {
          const size_t kn = IC - k0 < kc ? IC - k0 : kc;
          float *dst = base + row * (1 + k0) + o / NR * kn * NR - k0 * NR;
          for (size_t i = k0; i < k0 + kn; i++)
            dst[i * NR] = (float)(t0[i] * G[b][0] + t1[i] * G[b][1] + t2[i] * G[b][2]);
        }
      }
    }
  }
  free(t);
  return true;
}

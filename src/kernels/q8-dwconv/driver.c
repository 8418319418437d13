/* Packing, tap pointers and threading of the q8 depthwise convolution (see dwconv.h). One
 * task per output row; fixed-point requantization on a per-thread int32 row of channels. */
#include <stdlib.h>
#include <string.h>

#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/ref/conv_acc.h"
#include "runtime/threadpool.h"

static size_t c16_of(int32_t c) { return ((size_t)c + 15u) & ~(size_t)15u; }

bool tfcc_q8_dw_pack(const tfcc_q8_dw_kernel *k, bool is_signed, int32_t c, int32_t fh,
                     int32_t fw, const void *filter, const int32_t *bias,
                     const tfcc_conv_requant *r, tfcc_q8_dw_packed *out) {
  memset(out, 0, sizeof *out);
  if (c <= 0 || fh <= 0 || fw <= 0 || (int64_t)fh * fw > TFCC_Q8_DW_MAX_TAPS) return false;
  const size_t c16 = c16_of(c), taps = (size_t)fh * (size_t)fw;
  const size_t bytes = ((2 + taps) * c16 * 4 + c16 + 63) & ~(size_t)63;
  int32_t *w = aligned_alloc(64, bytes);
  if (!w) return false;
  memset(w, 0, bytes);
  const uint8_t *f = filter;
  const uint32_t io = (uint32_t)r->input_offset;
  float *scale = (float *)(void *)(w + c16);
  for (size_t ch = 0; ch < (size_t)c; ch++) {
    uint32_t sum = 0;
    for (size_t t = 0; t < taps; t++) {
      const uint8_t b = f[t * (size_t)c + ch];
      const int32_t v = (is_signed ? (int32_t)(int8_t)b : (int32_t)b) + r->filter_offset;
      w[(2 + t) * c16 + ch] = (int32_t)(uint32_t)(uint16_t)(int16_t)v;
      sum += (uint32_t)v;
    }
    w[ch] = (int32_t)((bias ? (uint32_t)bias[ch] : 0u) + io * sum);
    scale[ch] = r->scale ? r->scale[ch * (size_t)r->mult_stride] : 0.0f;
  }
  memset((uint8_t *)(w + (2 + taps) * c16), (uint8_t)(-r->input_offset), c16);
  out->k = k;
  out->c = c;
  out->taps = (int32_t)taps;
  out->is_signed = is_signed;
  out->fp32 = r->scale != NULL;
  out->w = w;
  return true;
}

void tfcc_q8_dw_packed_free(tfcc_q8_dw_packed *p) {
  if (!p) return;
  free(p->w);
  p->w = NULL;
}

size_t tfcc_q8_dw_scratch_bytes(const tfcc_q8_dw_packed *p, int threads) {
  if (p->fp32) return 0;
  if (threads < 1) threads = 1;
  return ((c16_of(p->c) * 4 + 63) & ~(size_t)63) * (size_t)threads;
}

typedef struct dw_job {
  const tfcc_conv_geom *g;
  const tfcc_q8_dw_packed *p;
  const tfcc_conv_requant *r;
  const uint8_t *in;
  uint8_t *out;
  uint8_t *scratch;
} dw_job;

static void dw_task(void *ctx, size_t task, int thread) {
  const dw_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const tfcc_q8_dw_packed *p = j->p;
  const size_t C = (size_t)p->c, c16 = c16_of(p->c);
  const size_t oy = task % (size_t)g->out_h, b = task / (size_t)g->out_h;
  const uint8_t *zrow = (const uint8_t *)(p->w + (2 + (size_t)p->taps) * c16);
  const uint8_t *img = j->in + b * (size_t)g->in_h * (size_t)g->in_w * C;
  const tfcc_q8_dw_fn fn = p->is_signed ? p->k->fn_s : p->k->fn_u;
  const uint8_t *taps[TFCC_Q8_DW_MAX_TAPS];
  tfcc_q8_out o;
  o.c_stride = 0;
  o.c32 = p->fp32 ? NULL
                  : (int32_t *)(void *)(j->scratch + (size_t)thread * ((c16 * 4 + 63) & ~(size_t)63));
  o.zp = j->r->output_offset;
  o.lo = (float)(j->r->act_min - j->r->output_offset);
  o.hi = (float)(j->r->act_max - j->r->output_offset);
  uint8_t *orow = j->out + (b * (size_t)g->out_h + oy) * (size_t)g->out_w * C;
  const int32_t iy0 = (int32_t)oy * g->stride_h - g->pad_h;
  const uint8_t *rowp[TFCC_Q8_DW_MAX_TAPS]; /* image row of each filter row, NULL outside */
  for (int32_t fy = 0; fy < g->filter_h; fy++) {
    const int32_t iy = iy0 + fy * g->dil_h;
    rowp[fy] = iy >= 0 && iy < g->in_h ? img + (size_t)iy * (size_t)g->in_w * C : NULL;
  }
  const size_t dxc = (size_t)g->dil_w * C;
  for (int32_t ox = 0; ox < g->out_w; ox++) {
    const int32_t ix0 = ox * g->stride_w - g->pad_w;
    const bool x_in = ix0 >= 0 && ix0 + (g->filter_w - 1) * g->dil_w < g->in_w;
    size_t t = 0;
    for (int32_t fy = 0; fy < g->filter_h; fy++) {
      const uint8_t *rp = rowp[fy];
      if (rp && x_in) { /* the whole filter row is inside the image */
        const uint8_t *px = rp + (size_t)ix0 * C;
        for (int32_t fx = 0; fx < g->filter_w; fx++, t++) taps[t] = px + (size_t)fx * dxc;
        continue;
      }
      for (int32_t fx = 0; fx < g->filter_w; fx++, t++) {
        const int32_t ix = ix0 + fx * g->dil_w;
        taps[t] = rp && ix >= 0 && ix < g->in_w ? rp + (size_t)ix * C : zrow;
      }
    }
    o.c = orow + (size_t)ox * C;
    fn(C, t, taps, p->w, &o);
    if (o.c32)
      for (size_t ch = 0; ch < C; ch++)
        o.c[ch] = (uint8_t)tfcc_requant32(o.c32[ch], 0, j->r, (int32_t)ch);
  }
}

void tfcc_q8_dwconv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                    const tfcc_q8_dw_packed *p, const tfcc_conv_requant *r, const void *in,
                    void *out, void *scratch) {
  dw_job j = {g, p, r, in, out, scratch};
  const size_t rows = (size_t)g->batches * (size_t)g->out_h;
  if (rows == 0 || g->out_w == 0) return;
  const double macs = (double)rows * g->out_w * p->c * p->taps;
  tfcc_threadpool_run(macs < 64.0 * 1024.0 ? NULL : pool, rows, dw_task, &j);
}

/* Packing, tap pointers and threading of the q8 depthwise convolution (see dwconv.h). One
 * task per output row; fixed-point requantization on a per-thread int32 row of channels. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/q8-dwconv/dwconv.h"
#include "kernels/dw_expand.h"
#include "kernels/ref/conv_acc.h"
#include "base/threadpool.h"
#include "base/weights_mem.h"

static size_t c16_of(int32_t c) { return ((size_t)c + 15u) & ~(size_t)15u; }

/* The layout header in front of the packed weights (dwconv.h, tfcc_q8_dw_block_bytes). */
#define DW_HDR ((size_t)64)
#define DW_MAGIC 0x31574451u /* "QDW1" */
typedef struct dw_hdr {
  uint32_t magic;
  int32_t c, fh, fw, kz;
  uint8_t is_signed, rows, cols;
} dw_hdr;

static size_t rows_bytes(size_t c, int32_t fh, int32_t fw) {
  const size_t nq = ((size_t)fh + 3) / 4, blocks = (c + 63) / 64;
  const bool rep = c < 64 && 64 % c == 0;
  return (blocks + (rep ? 1u : 0u)) * (4 + nq * (size_t)fw) * 64 * 4;
}

static size_t pixel_bytes(int32_t c, size_t taps) {
  const size_t c16 = c16_of(c);
  return ((2 + taps) * c16 * 4 + c16 + 63) & ~(size_t)63;
}

/* Filter channel ch's weight quads (the row and column-quad layouts): w' - kz of filter row
 * ky, column kx at byte ky % 4 of int32 e of group (ky / 4) * fw + kx, groups gstride int32
 * apart. Returns the sum of the w' (modulo 2^32). */
static uint32_t pack_quads(bool is_signed, size_t C, size_t ch, int32_t fh, int32_t fw,
                           const uint8_t *f, const tfcc_conv_requant *r, int32_t kz, uint8_t *wq,
                           size_t gstride, size_t e) {
  uint32_t sum = 0;
  for (int32_t ky = 0; ky < fh; ky++)
    for (int32_t kx = 0; kx < fw; kx++) {
      const uint8_t b = f[((size_t)ky * (size_t)fw + (size_t)kx) * C + ch];
      const int32_t v = (is_signed ? (int32_t)(int8_t)b : (int32_t)b) + r->filter_offset;
      sum += (uint32_t)v;
      const size_t grp = (size_t)(ky / 4) * (size_t)fw + (size_t)kx;
      wq[(grp * gstride + e) * 4 + (size_t)(ky % 4)] = (uint8_t)(int8_t)(v - kz);
    }
  return sum;
}

/* Every filter of these quantization parameters fits the row kernels' signed bytes (pack_rows
 * finds a kz): int8 filters with no offset, uint8 ones whose zero point is 1..255 (values
 * w' = w - zp span at most 255 and stay under 255). */
static bool rows_always(bool is_signed, const tfcc_conv_requant *r) {
  return is_signed ? r->filter_offset == 0 : r->filter_offset <= -1 && r->filter_offset >= -255;
}

size_t tfcc_q8_dw_block_bytes(const tfcc_q8_dw_kernel *k, bool is_signed, int32_t c, int32_t fh,
                              int32_t fw, const tfcc_conv_requant *r) {
  if (!k || c <= 0 || fh <= 0 || fw <= 0 || (int64_t)fh * fw > TFCC_Q8_DW_MAX_TAPS) return 0;
  if (c > (INT32_MAX >> 12)) return 0; /* far beyond any model; keeps the sizes below in range */
  const size_t px = pixel_bytes(c, (size_t)fh * (size_t)fw);
  if (!k->row_s) return DW_HDR + px;
  const size_t rw = rows_bytes((size_t)c, fh, fw);
  return DW_HDR + (rows_always(is_signed, r) || rw > px ? rw : px);
}

static bool scale_lt1(const tfcc_conv_requant *r, int32_t c) {
  for (size_t ch = 0; r->scale && ch < (size_t)c; ch++)
    if (!(fabsf(r->scale[ch * (size_t)r->mult_stride]) < 1.0f)) return false;
  return r->scale != NULL;
}

/* Row-kernel layout (dwconv.h); false when no kz brings a uint8 filter into signed bytes. */
static bool pack_rows(bool is_signed, int32_t c, int32_t fh, int32_t fw, const uint8_t *f,
                      const int32_t *bias, const tfcc_conv_requant *r, int32_t *w,
                      tfcc_q8_dw_packed *out) {
  const size_t taps = (size_t)fh * (size_t)fw, C = (size_t)c;
  int32_t wmin = 255, wmax = -255;
  for (size_t i = 0; i < taps * C; i++) {
    const int32_t v = (is_signed ? (int32_t)(int8_t)f[i] : (int32_t)f[i]) + r->filter_offset;
    wmin = v < wmin ? v : wmin;
    wmax = v > wmax ? v : wmax;
  }
  int32_t kz = 0;
  if (wmin < -128 || wmax > 127) {
    kz = wmax - 127 > -128 ? wmax - 127 : -128;
    if (kz > wmin + 128 || kz > 127) return false;
  }
  const int32_t nq = (fh + 3) / 4;
  const size_t blocks = (C + 63) / 64, bstride = (size_t)(4 + nq * fw) * 64;
  /* c dividing 64: one more block with channel (lane byte % c), 64 / c pixels per vector */
  const bool rep = C < 64 && 64 % C == 0;
  const uint32_t io = (uint32_t)r->input_offset - (is_signed ? 128u : 0u);
  for (size_t n = 0; n < C + (rep ? 64 : 0); n++) {
    const size_t blk = n < C ? n / 64 : blocks, cb = n < C ? n % 64 : n - C;
    const size_t ch = n < C ? n : cb % C;
    /* lane order: byte 16 L + 4 j + i sits in vector j, element 4 L + i */
    const size_t e = ((cb >> 2) & 3) * 16 + (cb >> 4) * 4 + (cb & 3);
    int32_t *pw = w + blk * bstride;
    const uint32_t sum =
        pack_quads(is_signed, C, ch, fh, fw, f, r, kz, (uint8_t *)(void *)(pw + 256), 64, e);
    pw[e] = (int32_t)((bias ? (uint32_t)bias[ch] : 0u) + io * sum);
    const size_t k = ch * (size_t)r->mult_stride;
    ((float *)(void *)(pw + 64))[e] = r->scale ? r->scale[k] : 0.0f;
    pw[128 + e] = r->mult ? r->mult[k] : 0;
    pw[192 + e] = r->shift ? r->shift[k] : 0;
  }
  out->rep = rep;
  out->scale_lt1 = scale_lt1(r, c);
  out->kz = kz;
  out->rows = true;
  return true;
}

/* Column-quad layout (dwconv.h, tfcc_q8_dw_cols_fn); false when a w' is not a signed byte or
 * the requantization is not float (the next per-pixel kernel packs then). */
static bool pack_cols(bool is_signed, int32_t c, int32_t fh, int32_t fw, const uint8_t *f,
                      const int32_t *bias, const tfcc_conv_requant *r, int32_t *w,
                      tfcc_q8_dw_packed *out) {
  const size_t taps = (size_t)fh * (size_t)fw, C = (size_t)c, c16 = c16_of(c);
  if (!r->scale) return false;
  for (size_t i = 0; i < taps * C; i++) {
    const int32_t v = (is_signed ? (int32_t)(int8_t)f[i] : (int32_t)f[i]) + r->filter_offset;
    if (v < -128 || v > 127) return false;
  }
  /* int8 x is read as the byte x + 128: -128 * sum w' into the bias */
  const uint32_t io = (uint32_t)r->input_offset - (is_signed ? 128u : 0u);
  float *scale = (float *)(void *)(w + c16);
  uint8_t *wq = (uint8_t *)(void *)(w + 2 * c16);
  for (size_t ch = 0; ch < C; ch++) {
    const uint32_t sum = pack_quads(is_signed, C, ch, fh, fw, f, r, 0, wq, c16, ch);
    w[ch] = (int32_t)((bias ? (uint32_t)bias[ch] : 0u) + io * sum);
    scale[ch] = r->scale[ch * (size_t)r->mult_stride];
  }
  memset((uint8_t *)(w + (2 + taps) * c16), (uint8_t)(-r->input_offset), c16);
  out->cols = true;
  return true;
}

/* The fields of out that follow from the arguments, not from the filter's values. */
static void set_common(const tfcc_q8_dw_kernel *k, bool is_signed, int32_t c, int32_t fh,
                       int32_t fw, const tfcc_conv_requant *r, tfcc_q8_dw_packed *out) {
  memset(out, 0, sizeof *out);
  out->c = c;
  out->taps = fh * fw;
  out->fh = fh;
  out->fw = fw;
  out->is_signed = is_signed;
  out->fp32 = r->scale != NULL;
  out->zp_byte = (uint8_t)(-r->input_offset);
  out->k = k;
}

bool tfcc_q8_dw_pack(const tfcc_q8_dw_kernel *k, bool is_signed, int32_t c, int32_t fh, int32_t fw,
                     const void *filter, const int32_t *bias, const tfcc_conv_requant *r,
                     tfcc_q8_dw_packed *out) {
  memset(out, 0, sizeof *out);
  const size_t block = tfcc_q8_dw_block_bytes(k, is_signed, c, fh, fw, r);
  if (!block) return false;
  set_common(k, is_signed, c, fh, fw, r, out);
  /* huge pages, populated, among the other packed weights: a run reads them through few TLB
   * entries, not ~100 scattered 4 KiB pages of the C heap (bench/README.md, "tail4") */
  uint8_t *mem = tfcc_wmem_alloc(block);
  if (!mem) return false;
  memset(mem, 0, block);
  int32_t *w = (int32_t *)(void *)(mem + DW_HDR);
  const size_t taps = (size_t)fh * (size_t)fw;
  if (!(k->row_s && pack_rows(is_signed, c, fh, fw, filter, bias, r, w, out)) &&
      !(k->cols_s && pack_cols(is_signed, c, fh, fw, filter, bias, r, w, out))) {
    if (!k->fn_s) out->k = k = tfcc_q8_dw_pixel_fallback(k, k->isa);
    const size_t c16 = c16_of(c);
    const uint8_t *f = filter;
    const uint32_t io = (uint32_t)r->input_offset;
    float *scale = (float *)(void *)(w + c16);
    const bool w16 = tfcc_q8_dw_w16(k);
    for (size_t ch = 0; ch < (size_t)c; ch++) {
      uint32_t sum = 0;
      for (size_t t = 0; t < taps; t++) {
        const uint8_t b = f[t * (size_t)c + ch];
        const int32_t v = (is_signed ? (int32_t)(int8_t)b : (int32_t)b) + r->filter_offset;
        if (w16)
          ((int16_t *)(void *)(w + (2 + t / 2) * c16))[2 * ch + t % 2] = (int16_t)v;
        else
          w[(2 + t) * c16 + ch] = (int32_t)(uint32_t)(uint16_t)(int16_t)v;
        sum += (uint32_t)v;
      }
      w[ch] = (int32_t)((bias ? (uint32_t)bias[ch] : 0u) + io * sum);
      scale[ch] = r->scale ? r->scale[ch * (size_t)r->mult_stride] : 0.0f;
    }
    memset((uint8_t *)(w + (2 + taps) * c16), (uint8_t)(-r->input_offset), c16);
  }
  dw_hdr h;
  memset(&h, 0, sizeof h);
  h.magic = DW_MAGIC;
  h.c = c, h.fh = fh, h.fw = fw, h.kz = out->kz;
  h.is_signed = is_signed, h.rows = out->rows, h.cols = out->cols;
  memcpy(mem, &h, sizeof h);
  out->w = w;
  out->mem = mem;
  out->block_bytes = block;
  return true;
}

bool tfcc_q8_dw_adopt(const tfcc_q8_dw_kernel *k, bool is_signed, int32_t c, int32_t fh, int32_t fw,
                      const tfcc_conv_requant *r, const void *block, size_t bytes,
                      tfcc_q8_dw_packed *out) {
  memset(out, 0, sizeof *out);
  if (!block || ((uintptr_t)block & 63) != 0 ||
      bytes != tfcc_q8_dw_block_bytes(k, is_signed, c, fh, fw, r) || bytes == 0)
    return false;
  dw_hdr h;
  memcpy(&h, block, sizeof h);
  if (h.magic != DW_MAGIC || h.c != c || h.fh != fh || h.fw != fw || h.is_signed != is_signed ||
      h.rows > 1 || (h.rows && !k->row_s) || h.kz < -128 || h.kz > 127 || (!h.rows && h.kz) ||
      h.cols > 1 || (h.cols && (!k->cols_s || h.rows || !r->scale)))
    return false;
  set_common(k, is_signed, c, fh, fw, r, out);
  const size_t need = h.rows ? rows_bytes((size_t)c, fh, fw) : pixel_bytes(c, (size_t)fh * fw);
  if (DW_HDR + need > bytes) return false;
  if (h.rows) {
    out->rows = true;
    out->kz = h.kz;
    out->rep = c < 64 && 64 % c == 0;
    out->scale_lt1 = scale_lt1(r, c);
  } else if (h.cols) {
    out->cols = true;
  } else if (!k->fn_s) {
    out->k = tfcc_q8_dw_pixel_fallback(k, k->isa);
  }
  out->w = (int32_t *)(uintptr_t)((const uint8_t *)block + DW_HDR); /* read only */
  out->block_bytes = bytes;
  return true;
}

const void *tfcc_q8_dw_block(const tfcc_q8_dw_packed *p) {
  return p->w ? (const uint8_t *)p->w - DW_HDR : NULL;
}

void tfcc_q8_dw_packed_free(tfcc_q8_dw_packed *p) {
  if (!p) return;
  tfcc_wmem_free(p->mem); /* NULL when adopted: the caller's block */
  p->mem = NULL;
  p->w = NULL;
}

/* The filter's tap count and a window's parameters the row kernels accept at all. */
static bool dw_window_ok(int32_t filter_h, int32_t filter_w, int32_t stride_w, int32_t dil_w) {
  return filter_h > 0 && filter_w > 0 && stride_w > 0 && dil_w > 0 &&
         (int64_t)filter_h * filter_w <= TFCC_Q8_DW_MAX_TAPS;
}

/* The columns one row of out_w outputs spans, against its bound of 16 per tap + 256. */
static bool dw_span_ok(int64_t out_w, int32_t filter_w, int32_t stride_w, int32_t dil_w) {
  const int64_t span = (out_w - 1) * stride_w + (int64_t)(filter_w - 1) * dil_w + 1;
  return span <= 16 * out_w * filter_w + 256;
}

bool tfcc_q8_dw_fits(const tfcc_conv_geom *g) {
  if (!dw_window_ok(g->filter_h, g->filter_w, g->stride_w, g->dil_w)) return false;
  if (g->out_w <= 0) return true; /* no column is built */
  return dw_span_ok(g->out_w, g->filter_w, g->stride_w, g->dil_w);
}

bool tfcc_q8_dw_fits_any_width(int32_t filter_h, int32_t filter_w, int32_t stride_w,
                               int32_t dil_w) {
  return dw_window_ok(filter_h, filter_w, stride_w, dil_w) && stride_w <= 16 * (int64_t)filter_w &&
         dw_span_ok(1, filter_w, stride_w, dil_w);
}

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

/* Per-thread buffer: row kernels' column quads, the fixed-point int32 row, or for kernels
 * with runs (float requantization) an input row of zero points, the filter rows above and
 * below the image. */
static size_t thread_bytes(const tfcc_q8_dw_packed *p, const tfcc_conv_geom *g) {
  if (p->rows) {
    const size_t ncols =
        (size_t)(g->out_w - 1) * (size_t)g->stride_w + (size_t)(p->fw - 1) * (size_t)g->dil_w + 1;
    return align64(ncols * (size_t)((p->fh + 3) / 4) * 256);
  }
  if (p->fp32) return p->k->run_s || p->cols ? align64((size_t)g->in_w * (size_t)p->c) : 0;
  return align64(c16_of(p->c) * 4);
}

static size_t expand_bytes(const tfcc_conv_geom *g) {
  if (g->in_c == g->out_c) return 0;
  return align64((size_t)g->batches * (size_t)g->in_h * (size_t)g->in_w * (size_t)g->out_c);
}

size_t tfcc_q8_dw_scratch_bytes(const tfcc_q8_dw_packed *p, const tfcc_conv_geom *g, int threads) {
  if (threads < 1) threads = 1;
  if (g->out_w <= 0 || g->out_h <= 0) return 0;
  return expand_bytes(g) + thread_bytes(p, g) * (size_t)threads;
}

typedef struct dw_job {
  const tfcc_conv_geom *g;
  const tfcc_q8_dw_packed *p;
  const tfcc_conv_requant *r;
  const uint8_t *in;
  uint8_t *out;
  uint8_t *scratch; /* per-thread buffers */
  size_t thread_bytes;
  const tfcc_q8_dw_hyb *hyb; /* hybrid: float output fout */
  float *fout;
} dw_job;

static void row_task(void *ctx, size_t task, int thread) {
  const dw_job *j = ctx;
  const tfcc_conv_geom *g = j->g;
  const tfcc_q8_dw_packed *p = j->p;
  const size_t C = (size_t)p->c;
  const size_t oy = task % (size_t)g->out_h, b = task / (size_t)g->out_h;
  const uint8_t *img = j->in + b * (size_t)g->in_h * (size_t)g->in_w * C;
  const uint8_t *rows[TFCC_Q8_DW_MAX_TAPS];
  const int32_t iy0 = (int32_t)oy * g->stride_h - g->pad_h;
  for (int32_t fy = 0; fy < g->filter_h; fy++) {
    const int32_t iy = iy0 + fy * g->dil_h;
    rows[fy] = iy >= 0 && iy < g->in_h ? img + (size_t)iy * (size_t)g->in_w * C : NULL;
  }
  tfcc_q8_dw_row a;
  a.g = g;
  a.p = p;
  a.r = j->r;
  a.rows = rows;
  /* the hybrid output stage writes fout; out is NULL then (no offset applied to it) */
  a.out = j->out ? j->out + (b * (size_t)g->out_h + oy) * (size_t)g->out_w * C : NULL;
  a.cols = j->scratch + (size_t)thread * j->thread_bytes;
  a.zp = j->r->output_offset;
  a.lo = (float)(j->r->act_min - j->r->output_offset);
  a.hi = (float)(j->r->act_max - j->r->output_offset);
  a.zp_byte = j->hyb ? (uint8_t)(int8_t)j->hyb->zp : p->zp_byte;
  a.hyb = j->hyb;
  a.fout = j->hyb ? j->fout + (b * (size_t)g->out_h + oy) * (size_t)g->out_w * C : NULL;
  (p->is_signed ? p->k->row_s : p->k->row_u)(&a);
}

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
  o.c32 = p->fp32 ? NULL : (int32_t *)(void *)(j->scratch + (size_t)thread * j->thread_bytes);
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
  /* runs of the pixels whose filter columns are inside the image in one call where the kernel
     has them (float requantization); filter rows outside read a row of zero points */
  const tfcc_q8_dw_run_fn run = p->is_signed ? p->k->run_s : p->k->run_u;
  const tfcc_q8_dw_cols_fn cols = !p->cols ? NULL : p->is_signed ? p->k->cols_s : p->k->cols_u;
  const bool rows_in = (run || cols) && !o.c32;
  const uint8_t *rrow[TFCC_Q8_DW_MAX_TAPS];
  for (int32_t fy = 0, filled = 0; rows_in && fy < g->filter_h; fy++) {
    rrow[fy] = rowp[fy];
    if (rowp[fy]) continue;
    uint8_t *z = j->scratch + (size_t)thread * j->thread_bytes;
    if (!filled) memset(z, p->zp_byte, (size_t)g->in_w * C);
    filled = 1;
    rrow[fy] = z;
  }
  const int32_t span = (g->filter_w - 1) * g->dil_w;
  for (int32_t ox = 0; ox < g->out_w; ox++) {
    const int32_t ix0 = ox * g->stride_w - g->pad_w;
    const bool x_in = ix0 >= 0 && ix0 + span < g->in_w;
    if (rows_in && x_in) {
      int32_t n = 1;
      while (ox + n < g->out_w && (ox + n) * g->stride_w - g->pad_w + span < g->in_w) n++;
      size_t t = 0;
      for (int32_t fy = 0; fy < g->filter_h; fy++)
        for (int32_t fx = 0; fx < g->filter_w; fx++, t++)
          taps[t] = rrow[fy] + (size_t)ix0 * C + (size_t)fx * dxc;
      o.c = orow + (size_t)ox * C;
      if (cols)
        cols(C, g->filter_h, g->filter_w, taps, p->w, &o, (size_t)n, (size_t)g->stride_w * C);
      else
        run(C, t, taps, p->w, &o, (size_t)n, (size_t)g->stride_w * C);
      ox += n - 1;
      continue;
    }
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
    if (rows_in) { /* a pixel at the left or right edge: a run of one */
      if (cols)
        cols(C, g->filter_h, g->filter_w, taps, p->w, &o, 1, 0);
      else
        run(C, t, taps, p->w, &o, 1, 0);
      continue;
    }
    fn(C, t, taps, p->w, &o);
    if (o.c32 && p->k->rq_fixed)
      p->k->rq_fixed(o.c32, C, j->r, o.c);
    else if (o.c32)
      for (size_t ch = 0; ch < C; ch++)
        o.c[ch] = (uint8_t)tfcc_requant32(o.c32[ch], 0, j->r, (int32_t)ch);
  }
}

void tfcc_q8_dwconv(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                    const tfcc_q8_dw_packed *p, const tfcc_conv_requant *r, const void *in,
                    void *out, void *scratch) {
  const size_t rows = (size_t)g->batches * (size_t)g->out_h;
  if (rows == 0 || g->out_w <= 0) return;
  const double macs = (double)rows * g->out_w * p->c * p->taps;
  if (macs < 64.0 * 1024.0) pool = NULL;
  tfcc_conv_geom ge = *g;
  uint8_t *buf = scratch;
  if (g->in_c != g->out_c) { /* depth multiplier: expand the input to out_c channels */
    const size_t pixels = (size_t)g->batches * (size_t)g->in_h * (size_t)g->in_w;
    tfcc_dw_expand_channels(pool, in, buf, pixels, (size_t)g->in_c, (size_t)(g->out_c / g->in_c),
                            1);
    in = buf;
    buf += expand_bytes(g);
    ge.in_c = g->out_c;
  }
  dw_job j = {&ge, p, r, in, out, buf, thread_bytes(p, g), NULL, NULL};
  tfcc_threadpool_run(pool, rows, p->rows ? row_task : dw_task, &j);
}

void tfcc_q8_dwconv_hybrid(struct tfcc_threadpool *pool, const tfcc_conv_geom *g,
                           const tfcc_q8_dw_packed *p, const tfcc_q8_dw_hyb *h, const int8_t *in,
                           float *out, void *scratch) {
  const size_t rows = (size_t)g->batches * (size_t)g->out_h;
  if (rows == 0 || g->out_w <= 0 || !p->rows) return;
  const double macs = (double)rows * g->out_w * p->c * p->taps;
  if (macs < 64.0 * 1024.0) pool = NULL;
  const tfcc_conv_requant none = {0};
  dw_job j = {g, p, &none, (const uint8_t *)in, NULL, scratch, thread_bytes(p, g), h, out};
  tfcc_threadpool_run(pool, rows, row_task, &j);
}

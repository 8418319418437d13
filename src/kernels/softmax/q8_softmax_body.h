/* 8-bit SOFTMAX rows (uint8 -> uint8, int8 -> int8), byte-identical to tfcc_softmax_q8 (the
 * portable rows, q8-softmax-scalar.c, step by step), F32V_N rows or elements a step:
 *  - each row's biased (x ^ flip) maximum and minimum, 16 bytes a step;
 *  - the sums of table[255 - max + v] in element order, one row per lane (F32V_N rows side by
 *    side, each lane's additions in its row's order: the reference's float sum); the bytes of 4
 *    columns of every row in one 32-bit load per lane, their table entries by a gather (blocks
 *    of fewer than F32V_N / 2 rows: scalar sums, one chain a row);
 *  - per row inv = 1 / (sum * out_scale) and each probability t * inv quantized in float lanes:
 *    uint8 (int)(p + 0.5f) clamped; int8 roundf(p) + zp clamped (half away from zero as round
 *    to even plus one where the rounded value lies half below, the reference's saturation for
 *    p >= 2^31 and NaN); rows longer than twice their value range through a byte table of
 *    those values (applied by the q8-lut kernel), the others element by element (a gather).
 * Exact for probabilities in [0, inf] or NaN (table entries >= 0 or NaN, as expf's; out_scale
 * > 0) and, for int8, zp in [-128, 127]: the driver (q8_softmax.c) sends anything else to the
 * portable rows, and rows shorter than 4 too. The including file first includes its ISA's
 * f32v header and defines
 *   q8b, q8b_ld(p), q8b_set(x), q8b_xor, q8b_max, q8b_min, q8b_hmax(v): 16 unsigned bytes, their
 *     maximum / minimum and horizontal maximum;
 *   q8sm_st8(p, v, u8): the lanes (integral floats of the byte type) stored as F32V_N bytes;
 * and, where it has a gather instruction (else the lane-by-lane loads below serve),
 *   Q8SM_GATHER, q8sm_rows, q8sm_rows_make(roff, toff, flip), q8sm_gather4(table, p, rows, e),
 *   q8sm_gather(t, p, flip) (see the portable ones); then TFCC_Q8_SOFTMAX_FN. */
#include <string.h>

#include "kernels/softmax/q8_softmax_quant.h"
#include "kernels/softmax/softmax.h"

#ifndef Q8SM_GATHER
/* lane k: row k at p + roff[k], its table at table + toff[k] */
typedef struct q8sm_rows {
  int32_t roff[F32V_N], toff[F32V_N];
  uint8_t flip;
} q8sm_rows;

static inline q8sm_rows q8sm_rows_make(const int32_t *roff, const int32_t *toff, uint8_t flip) {
  q8sm_rows r;
  memcpy(r.roff, roff, sizeof r.roff);
  memcpy(r.toff, toff, sizeof r.toff);
  r.flip = flip;
  return r;
}

/* e[b] lane k = table[toff[k] + (p[roff[k] + b] ^ flip)], b = 0..3 */
static inline void q8sm_gather4(const float *table, const uint8_t *p, const q8sm_rows *r,
                                f32v e[4]) {
  float v[4][F32V_N];
  for (int k = 0; k < F32V_N; k++) {
    const uint8_t *q = p + r->roff[k];
    const float *t = table + r->toff[k];
    for (int b = 0; b < 4; b++) v[b][k] = t[q[b] ^ r->flip];
  }
  for (int b = 0; b < 4; b++) e[b] = f32v_ld(v[b]);
}

/* lane i = t[p[i] ^ flip] */
static inline f32v q8sm_gather(const float *t, const uint8_t *p, uint8_t flip) {
  float v[F32V_N];
  for (int i = 0; i < F32V_N; i++) v[i] = t[p[i] ^ flip];
  return f32v_ld(v);
}
#endif

/* the horizontal minimum: 255 - the maximum of the complements */
static inline int q8b_hmin(q8b v) { return 255 - q8b_hmax(q8b_xor(v, q8b_set(0xff))); }

static inline void q8sm_range(const uint8_t *row, size_t depth, uint8_t flip, int *lo, int *hi) {
  int mx = 0, mn = 255;
  size_t j = 0;
  if (depth >= 16) {
    const q8b f = q8b_set(flip);
    q8b vmx = q8b_set(0), vmn = q8b_set(0xff);
    for (; j + 16 <= depth; j += 16) {
      const q8b v = q8b_xor(q8b_ld(row + j), f);
      vmx = q8b_max(vmx, v);
      vmn = q8b_min(vmn, v);
    }
    if (j < depth) { /* the last 16, overlapping */
      const q8b v = q8b_xor(q8b_ld(row + depth - 16), f);
      vmx = q8b_max(vmx, v);
      vmn = q8b_min(vmn, v);
    }
    mx = q8b_hmax(vmx);
    mn = q8b_hmin(vmn);
    j = depth;
  }
  for (; j < depth; j++) {
    const int v = row[j] ^ flip;
    mx = v > mx ? v : mx;
    mn = v < mn ? v : mn;
  }
  *lo = mn;
  *hi = mx;
}

/* the constants of q8sm_quant */
typedef struct q8sm_qc {
  f32v zero, one, half, f255, two31, zp, lo, hi, big;
  bool u8;
} q8sm_qc;

/* p >= 0, +inf or NaN -> the quantized byte value as an integral float (tfcc_q8sm_quantize) */
static inline f32v q8sm_quant(f32v p, const q8sm_qc *c) {
  if (c->u8) {
    /* (int)(p + 0.5f): NaN -> 0, then saturated; for m in [0, 255] trunc = floor */
    const f32v m = f32v_min(f32v_max(f32v_add(p, c->half), c->zero), c->f255);
    const f32v r = f32v_round(m);
    return f32v_sel(f32v_gt(r, m), f32v_sub(r, c->one), r);
  }
  const f32v m = f32v_max(p, c->zero); /* NaN -> 0 */
  f32v r = f32v_round(m);              /* ties to even; away from zero is one more */
  r = f32v_sel(f32v_ge(f32v_sub(m, r), c->half), f32v_add(r, c->one), r);
  r = f32v_clamp(f32v_add(r, c->zp), c->lo, c->hi); /* r integral: r + zp > 127 from 2^24 on */
  return f32v_sel(f32v_ge(m, c->two31), c->big, r); /* INT32_MAX + zp, wrapped and clamped */
}

TFCC_Q8_SOFTMAX_DECL(TFCC_Q8_SOFTMAX_FN) {
  if (depth < 4 || depth > (size_t)INT32_MAX / F32V_N) {
    tfcc_q8_softmax_scalar(lk, u8, in, out, rows, depth, table, out_scale, out_zp);
    return;
  }
  const uint8_t flip = u8 ? 0 : 0x80;
  const q8sm_qc qc = {f32v_zero(),
                      f32v_set(1.f),
                      f32v_set(0.5f),
                      f32v_set(255.f),
                      f32v_set(2147483648.f),
                      f32v_set((float)out_zp),
                      f32v_set(-128.f),
                      f32v_set(127.f),
                      f32v_set(out_zp > 0 ? -128.f : 127.f),
                      u8};
  for (size_t r0 = 0; r0 < rows; r0 += F32V_N) {
    const size_t nr = rows - r0 < F32V_N ? rows - r0 : F32V_N;
    const uint8_t *p0 = in + r0 * depth;
    int lo[F32V_N], hi[F32V_N];
    int32_t roff[F32V_N], toff[F32V_N];
    for (size_t k = 0; k < F32V_N; k++) {
      if (k < nr) q8sm_range(p0 + k * depth, depth, flip, &lo[k], &hi[k]);
      /* lanes past the last row repeat it (their sums are not used) */
      const size_t kk = k < nr ? k : nr - 1;
      roff[k] = (int32_t)(kk * depth);
      toff[k] = 255 - hi[kk];
    }
    float sums[F32V_N];
    if (2 * nr < F32V_N) { /* a few rows: one scalar chain each */
      for (size_t k = 0; k < nr; k++) {
        const uint8_t *row = p0 + k * depth;
        const float *t = table + toff[k];
        float sum = 0.f;
        for (size_t j = 0; j < depth; j++) sum += t[row[j] ^ flip];
        sums[k] = sum;
      }
    } else {
      const q8sm_rows rs = q8sm_rows_make(roff, toff, flip);
      f32v s = f32v_zero();
      f32v e[4];
      size_t j = 0;
      for (; j + 4 <= depth; j += 4) {
        q8sm_gather4(table, p0 + j, &rs, e);
        s = f32v_add(f32v_add(f32v_add(f32v_add(s, e[0]), e[1]), e[2]), e[3]);
      }
      if (j < depth) { /* the last depth % 4 columns, from the last 4 */
        q8sm_gather4(table, p0 + depth - 4, &rs, e);
        for (size_t b = 4 - (depth - j); b < 4; b++) s = f32v_add(s, e[b]);
      }
      f32v_st(sums, s);
    }
    for (size_t k = 0; k < nr; k++) {
      const uint8_t *row = p0 + k * depth;
      uint8_t *orow = out + (r0 + k) * depth;
      const float *t = table + toff[k];
      const float inv = 1.0f / (sums[k] * out_scale);
      const f32v vinv = f32v_set(inv);
      const size_t span = (size_t)(hi[k] - lo[k] + 1);
      if (depth >= 2 * span && depth >= 64) {
        /* the byte table of the values lo..hi (biased), computed F32V_N table entries at a
         * time (the last step ends at table[255], the row maximum; values below lo are
         * harmless, the first F32V_N bytes a margin below value 0), then indexed by raw byte */
        uint8_t buf[F32V_N + 256], lut[256];
        uint8_t *lutb = buf + F32V_N;
        memset(buf, 0, sizeof buf);
        for (int i = toff[k] + lo[k]; i < 256; i += F32V_N) {
          const int i0 = i + F32V_N <= 256 ? i : 256 - F32V_N;
          q8sm_st8(lutb + (i0 - toff[k]), q8sm_quant(f32v_mul(f32v_ld(table + i0), vinv), &qc), u8);
        }
        memcpy(lut, lutb + flip, 256 - flip);
        memcpy(lut + 256 - flip, lutb, flip);
        lk->fn(lut, row, orow, depth);
        continue;
      }
      size_t c = 0;
      for (; c + F32V_N <= depth; c += F32V_N)
        q8sm_st8(orow + c, q8sm_quant(f32v_mul(q8sm_gather(t, row + c, flip), vinv), &qc), u8);
      for (; c < depth; c++) orow[c] = tfcc_q8sm_quantize(t[row[c] ^ flip] * inv, u8, out_zp);
    }
  }
}

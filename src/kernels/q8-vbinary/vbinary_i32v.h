/* The int32-lane arithmetic of the q8 elementwise kernels, written once over the i32v
 * primitives (kernels/simd/i32v.h), and the row loop of each operation: the file that includes
 * it first includes its ISA's i32v_<isa>.h. */
#ifndef TFCC_KERNELS_Q8_VBINARY_VBINARY_I32V_H
#define TFCC_KERNELS_Q8_VBINARY_VBINARY_I32V_H

#include "kernels/q8-vbinary/vbinary.h"
#include "kernels/simd/i32v_rdiv.h"

typedef struct vparams {
  bool s;
  i32v zo, lo, hi;
  i32v bias, am, bm, aoff, boff;
  i32v_shc sh, ls, ols;
  i32v aqm, bqm, oqm;
  rdiv ard, brd, ord;
  f32v scale, flo, fhi;
} vparams;

static inline void vparams_make(vparams *v, const tfcc_q8_vbinary_params *p) {
  v->s = p->is_signed;
  v->zo = i32v_set(p->out_zp);
  v->lo = i32v_set(p->qmin);
  v->hi = i32v_set(p->qmax);
  v->bias = i32v_set(p->bias);
  v->am = i32v_set(p->a_mult);
  v->bm = i32v_set(p->b_mult);
  v->aoff = i32v_set(p->a_off);
  v->boff = i32v_set(p->b_off);
  v->sh = i32v_shc_make(p->shift);
  v->ls = i32v_shc_make(p->left_shift);
  v->ols = i32v_shc_make(p->out_ls);
  v->aqm = i32v_set(p->a_qm);
  v->bqm = i32v_set(p->b_qm);
  v->oqm = i32v_set(p->out_qm);
  v->ard = rdiv_make(p->a_rs);
  v->brd = rdiv_make(p->b_rs);
  v->ord = rdiv_make(p->out_rs);
  v->scale = f32v_set(p->scale);
  v->flo = f32v_set((float)(p->qmin - p->out_zp));
  v->fhi = f32v_set((float)(p->qmax - p->out_zp));
}

static inline i32v clamp(const vparams *v, i32v r) { return i32v_min(i32v_max(r, v->lo), v->hi); }

static inline i32v add_xnn(const vparams *v, i32v a, i32v b) {
  const i32v acc = i32v_add(v->bias, i32v_add(i32v_mullo(a, v->am), i32v_mullo(b, v->bm)));
  return clamp(v, i32v_add(i32v_sra(acc, v->sh), v->zo));
}

/* the output requantization of ADD_FIXED, from the sum of the two inputs' terms */
static inline i32v fixed_out(const vparams *v, i32v ta, i32v tb) {
  const i32v s = i32v_add(ta, tb);
  return clamp(v, i32v_add(rdbpot(i32v_srdhm(s, v->oqm), &v->ord), v->zo));
}

static inline i32v add_fixed(const vparams *v, i32v a, i32v b) {
  const i32v xa = i32v_sll(i32v_add(a, v->aoff), v->ls);
  const i32v xb = i32v_sll(i32v_add(b, v->boff), v->ls);
  return fixed_out(v, rdbpot(i32v_srdhm(xa, v->aqm), &v->ard),
                   rdbpot(i32v_srdhm(xb, v->bqm), &v->brd));
}

static inline i32v mul_xnn(const vparams *v, i32v a, i32v b) {
  const i32v prod = i32v_mullo(i32v_add(a, v->aoff), i32v_add(b, v->boff));
  const f32v f = f32v_clamp(f32v_mul(i32v_to_f32(prod), v->scale), v->flo, v->fhi);
  return i32v_add(i32v_from_f32(f), v->zo);
}

static inline i32v mul_fixed(const vparams *v, i32v a, i32v b) {
  const i32v prod = i32v_mullo(i32v_add(a, v->aoff), i32v_add(b, v->boff));
  return clamp(v, i32v_add(rdbpot(i32v_srdhm(i32v_sll(prod, v->ols), v->oqm), &v->ord), v->zo));
}

/* One row loop per operation so that each keeps its constants in registers. */
#define TFCC_Q8VB_ROW(name, op) \
  static void name(const vparams *v, const int8_t *pa, const int8_t *pb, int8_t *po, size_t n, \
                   int a_step, int b_step) { \
    const bool s = v->s; \
    const i32v ca = i32v_widen8(_mm_set1_epi8(pa[0]), s), \
               cb = i32v_widen8(_mm_set1_epi8(pb[0]), s); \
    size_t i = 0; \
    for (; i + I32V_N <= n; i += I32V_N) { \
      const i32v va = a_step ? i32v_ld_i8(pa + i, s) : ca; \
      const i32v vb = b_step ? i32v_ld_i8(pb + i, s) : cb; \
      i32v_st_i8(po + i, op(v, va, vb), s); \
    } \
    if (i < n) { \
      const i32v va = a_step ? i32v_ld_i8_n(pa + i, n - i, s) : ca; \
      const i32v vb = b_step ? i32v_ld_i8_n(pb + i, n - i, s) : cb; \
      i32v_st_i8_n(po + i, op(v, va, vb), n - i, s); \
    } \
  }

#endif

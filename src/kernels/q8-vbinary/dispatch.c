/* q8 elementwise dispatch table, parameter translation and threaded driver. */
#include "kernels/bcast_split.h"
#include "kernels/dispatch_table.h"
#include "kernels/q8-vbinary/vbinary.h"

#include <math.h>
#include <string.h>

#include "kernels/ref/quant_util.h"
#include "base/threadpool.h"

static const tfcc_q8_vbinary_kernel kernels[] = {
    TFCC_KERNELS_X86(
        {"q8-vbinary-avx512vnni", TFCC_ISA_AVX512, TFCC_CPU_AVX512VNNI, tfcc_q8_vbinary_avx512vnni},
        {"q8-vbinary-avx512", TFCC_ISA_AVX512, -1, tfcc_q8_vbinary_avx512},
        {"q8-vbinary-avx2", TFCC_ISA_AVX2, -1, tfcc_q8_vbinary_avx2})
        TFCC_KERNELS_ARM64({"q8-vbinary-neon", TFCC_ISA_NEON, -1, tfcc_q8_vbinary_neon})
            TFCC_KERNELS_WASMSIMD(
                {"q8-vbinary-wasmsimd", TFCC_ISA_WASMSIMD, -1, tfcc_q8_vbinary_wasmsimd}){
                "q8-vbinary-scalar", TFCC_ISA_GENERIC, -1, tfcc_q8_vbinary_scalar},
};
TFCC_DISPATCH_TABLE_FNS_USABLE(tfcc_q8_vbinary, tfcc_q8_vbinary_kernel, tfcc_q8_vbinary_usable)

bool tfcc_q8_vbinary_usable(const tfcc_q8_vbinary_kernel *k, tfcc_isa isa) {
  if (!tfcc_isa_level_fits(k->isa, isa)) return false;
  return k->feature < 0 || tfcc_cpu_has(tfcc_cpu(), (tfcc_cpu_feature)k->feature);
}

static bool rshift_ok(int32_t s) { return s >= 0 && s <= 31; }

bool tfcc_q8_vbinary_add_fixed_scales(const tfcc_arith_q *q, int32_t max_left_shift,
                                      tfcc_q8_vbinary_params *p) {
  p->op = TFCC_Q8VB_ADD_FIXED;
  p->left_shift = q->left_shift;
  p->a_qm = q->in1_mult;
  p->a_rs = -q->in1_shift;
  p->b_qm = q->in2_mult;
  p->b_rs = -q->in2_shift;
  p->out_qm = q->out_mult;
  p->out_rs = -q->out_shift;
  return q->left_shift >= 0 && q->left_shift <= max_left_shift && rshift_ok(p->a_rs) &&
         rshift_ok(p->b_rs) && rshift_ok(p->out_rs) && p->a_qm != INT32_MIN &&
         p->b_qm != INT32_MIN && p->out_qm != INT32_MIN;
}

bool tfcc_q8_vbinary_params_init(tfcc_arith_qop op, tfcc_dtype dt, const tfcc_arith_q *q,
                                 tfcc_q8_vbinary_params *p) {
  if (dt != TFCC_INT8 && dt != TFCC_UINT8) return false;
  memset(p, 0, sizeof *p);
  p->is_signed = dt == TFCC_INT8;
  const int32_t lo = p->is_signed ? -128 : 0, hi = p->is_signed ? 127 : 255;
  if (!(lo <= q->act_min && q->act_min <= q->act_max && q->act_max <= hi)) return false;
  p->qmin = q->act_min;
  p->qmax = q->act_max;
  p->out_zp = q->out_offset;
  p->a_off = q->in1_offset;
  p->b_off = q->in2_offset;
  if (p->out_zp < lo || p->out_zp > hi || -p->a_off < lo || -p->a_off > hi || -p->b_off < lo ||
      -p->b_off > hi)
    return false;
  switch (op) {
    case TFCC_AQ_ADD_XNN:
      p->op = TFCC_Q8VB_ADD_XNN;
      p->bias = q->xnn_bias;
      p->a_mult = q->xnn_a_mult;
      p->b_mult = q->xnn_b_mult;
      p->shift = q->xnn_shift;
      p->xnn_pairs = p->a_mult > -(1 << 22) && p->a_mult < (1 << 22) && p->b_mult > -(1 << 22) &&
                     p->b_mult < (1 << 22);
      if (p->xnn_pairs) {
        /* arithmetic >> 7 of a negative multiplier, without relying on signed >> */
        const int32_t ah = (p->a_mult - (p->a_mult & 127)) / 128,
                      bh = (p->b_mult - (p->b_mult & 127)) / 128;
        p->a_pair = (int32_t)(((uint32_t)(p->a_mult & 127) << 16) | (uint16_t)ah);
        p->b_pair = (int32_t)(((uint32_t)(p->b_mult & 127) << 16) | (uint16_t)bh);
      }
      return rshift_ok(p->shift);
    case TFCC_AQ_ADD:
      /* (q - zp) << left_shift stays inside int32 for 8-bit values up to left shift 22. */
      if (!tfcc_q8_vbinary_add_fixed_scales(q, 22, p)) return false;
      for (int x = 0; x < 256; x++) {
        const int32_t v = p->is_signed ? (int32_t)(int8_t)x : x;
        p->a_term[x] = tfcc_rdbpot(
            tfcc_srdhm((int32_t)((uint32_t)(v + p->a_off) << p->left_shift), p->a_qm), p->a_rs);
        p->b_term[x] = tfcc_rdbpot(
            tfcc_srdhm((int32_t)((uint32_t)(v + p->b_off) << p->left_shift), p->b_qm), p->b_rs);
      }
      return true;
    case TFCC_AQ_MUL_XNN:
      p->op = TFCC_Q8VB_MUL_XNN;
      p->scale = q->xnn_scale;
      return isfinite(p->scale);
    case TFCC_AQ_MUL:
      /* |product| <= 255 * 255 < 2^16: a left shift up to 15 stays inside int32. */
      p->op = TFCC_Q8VB_MUL_FIXED;
      p->out_qm = q->out_mult;
      p->out_ls = q->out_shift > 0 ? q->out_shift : 0;
      p->out_rs = q->out_shift > 0 ? 0 : -q->out_shift;
      return p->out_ls <= 15 && rshift_ok(p->out_rs) && p->out_qm != INT32_MIN;
    default: return false;
  }
}

void tfcc_q8_vbinary_run(struct tfcc_threadpool *pool, const tfcc_q8_vbinary_kernel *k,
                         const tfcc_q8_vbinary_params *p, const tfcc_bcast *bc, const void *a,
                         const void *b, void *out) {
  /* ~0.1 ns per element: below 64K elements a second thread costs more than it saves. */
  tfcc_bcast_split_run(pool, bc, 1, a, b, out, k->fn, p, 32 * 1024);
}

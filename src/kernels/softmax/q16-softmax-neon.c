/* int16 softmax rows, NEON (aarch64) build of the shared body (q16_softmax_body.h): 4 lanes,
 * the exp table's pairs loaded lane by lane (no gather). */
#include <arm_neon.h>

#include "kernels/simd/i32v_neon.h"

static inline i32v ld16(const int16_t *p) { return vmovl_s16(vld1_s16(p)); }
static inline void st16(int16_t *p, i32v x) { vst1_s16(p, vmovn_s32(x)); }

#define TFCC_Q16_SOFTMAX_LANE_LUT
#define TFCC_Q16_SOFTMAX_FN tfcc_q16_softmax_neon
#include "kernels/softmax/q16_softmax_body.h"

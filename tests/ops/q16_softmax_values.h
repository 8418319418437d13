/* The int16 SOFTMAX tests' input values, shared by the native kernel test
 * (tests/ops/test_q16_softmax.c) and the SIMD128 Node driver (tests/wasm/q16_softmax_node.c):
 * a fixed LCG, and per mode random values, the extremes, a constant, or values in the 300 just
 * below a base (narrow near the maximum). Header-only: the wasm driver links no test harness. */
#ifndef TFCC_TESTS_Q16_SOFTMAX_VALUES_H
#define TFCC_TESTS_Q16_SOFTMAX_VALUES_H

#include <stdint.h>

static uint32_t rng = 4242u;
static inline uint32_t urand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static inline int16_t val(int mode, int16_t base) {
  switch (mode) {
    case 1: return urand() & 1 ? (int16_t)32767 : (int16_t)-32768;
    case 2: return base;
    case 3: return (int16_t)(base - (int16_t)(urand() % 300));
    default: return (int16_t)(urand() & 0xffff);
  }
}

#endif

/* The int16 SOFTMAX SIMD128 row (tfcc_q16_softmax_wasmsimd) against the reference
 * (tfcc_softmax_i16) bit for bit, in Node: scripts/check-wasm-kernels.sh builds and runs it.
 * Scales * beta 1e-9..40 (right shifts to 17, left shifts to 18), depths around the 4 lanes and
 * long rows, 1..3 rows, 4 value modes (random, the extremes, constant, narrow near the maximum);
 * a guard element after the output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/softmax/softmax.h"
#include "../ops/q16_softmax_values.h"

int main(void) {
  static const float sb[][2] = {{1e-9f, 1.f},    {1e-5f, 1.f}, {3.05e-5f, 1.f}, {1e-4f, 1.f},
                                {4.6e-4f, 0.5f}, {2e-3f, 1.f}, {0.3f, 1.f},     {40.f, 1.f}};
  static const size_t depths[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 128, 1000};
  static tfcc_softmax_i16_params p;
  int cases = 0, bad_cases = 0;
  for (size_t si = 0; si < sizeof sb / sizeof sb[0]; si++) {
    tfcc_softmax_i16_params_init(sb[si][0], sb[si][1], &p);
    for (size_t di = 0; di < sizeof depths / sizeof depths[0]; di++)
      for (int mode = 0; mode < 4; mode++)
        for (size_t rows = 1; rows <= 3; rows++) {
          const size_t n = rows * depths[di];
          int16_t *in = malloc(n * 2), *want = malloc(n * 2), *got = malloc(n * 2 + 2);
          const int16_t base = (int16_t)(urand() & 0xffff);
          for (size_t i = 0; i < n; i++) in[i] = val(mode, base);
          tfcc_softmax_i16(in, want, rows, depths[di], &p);
          got[n] = 0x5a5a;
          tfcc_q16_softmax_wasmsimd(in, got, rows, depths[di], &p);
          int bad = got[n] != 0x5a5a;
          for (size_t i = 0; i < n; i++) bad += got[i] != want[i];
          if (bad) {
            bad_cases++;
            if (bad_cases < 10)
              printf("wrong: shift %d depth %zu rows %zu mode %d: %d\n", p.input_shift, depths[di],
                     rows, mode, bad);
          }
          cases++;
          free(in), free(want), free(got);
        }
  }
  printf("q16-softmax-wasmsimd: %d cases, %d wrong\n", cases, bad_cases);
  return bad_cases != 0;
}

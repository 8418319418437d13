/* libFuzzer target (fuzz62): the arena planner (plan/arena_plan.h) on buffers made from the
 * bytes, the repair of stop 61 included (it runs only when every placement order misses the
 * lower bound, which no seed model of fuzz_model_run reached). Byte 0 picks the alignment
 * (1 to 128); then 5 bytes a buffer: size (16 bits, shifted left by 0 to 7), first node, and
 * how many nodes after it the buffer lives. Every plan must keep buffers alive at one node
 * apart, aligned and inside the arena, which is at least the lower bound and at most the sum
 * of the (rounded) sizes; planning the same buffers again gives the same arena. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/arena_plan.h"

#define MAX_BUFFERS 160

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const size_t align = (size_t)1 << (data[0] & 7);
  tfcc_plan_buffer b[MAX_BUFFERS], again[MAX_BUFFERS];
  int32_t n = 0;
  for (size_t at = 1; at + 5 <= size && n < MAX_BUFFERS; at += 5, n++) {
    const size_t bytes = (size_t)(data[at] | data[at + 1] << 8) << (data[at + 2] & 7);
    b[n] = (tfcc_plan_buffer){bytes, data[at + 3], data[at + 3] + (data[at + 4] & 31), 0};
  }
  size_t arena = 0, sum = 0;
  if (tfcc_arena_plan(b, n, align, &arena, NULL) != TFCC_OK) abort();
  for (int32_t i = 0; i < n; i++) {
    if (!b[i].size) continue;
    const size_t rounded = (b[i].size + align - 1) & ~(align - 1);
    sum += rounded;
    if (b[i].offset % align || b[i].offset > arena || rounded > arena - b[i].offset) abort();
    for (int32_t j = 0; j < i; j++) {
      if (!b[j].size) continue;
      const bool live = b[i].first <= b[j].last && b[j].first <= b[i].last;
      const bool overlap =
          b[i].offset < b[j].offset + b[j].size && b[j].offset < b[i].offset + b[i].size;
      if (live && overlap) abort(); /* two buffers alive at one node share bytes */
    }
  }
  if (arena < tfcc_arena_lower_bound(b, n, align) || arena > sum) abort();
  memcpy(again, b, sizeof b[0] * (size_t)n);
  size_t arena2 = 0;
  if (tfcc_arena_plan(again, n, align, &arena2, NULL) != TFCC_OK || arena2 != arena) abort();
  for (int32_t i = 0; i < n; i++)
    if (again[i].offset != b[i].offset) abort(); /* the plan depends on the buffers only */
  return 0;
}

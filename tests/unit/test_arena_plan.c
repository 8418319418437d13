/* Arena planner: no two buffers alive at the same node overlap; the arena is close to the
 * lower bound; sizes and alignment hold. */
#include <stdbool.h>
#include <stdlib.h>

#include "plan/arena_plan.h"
#include "test_harness.h"

static unsigned rnd(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

static void check_plan(tfcc_plan_buffer *b, int n, size_t align) {
  size_t arena = 0;
  CHECK(tfcc_arena_plan(b, n, align, &arena, NULL) == TFCC_OK);
  for (int i = 0; i < n; i++) {
    if (!b[i].size) continue;
    CHECK(b[i].offset % align == 0);
    CHECK(b[i].offset + b[i].size <= arena);
    for (int j = i + 1; j < n; j++) {
      if (!b[j].size) continue;
      bool live = b[i].first <= b[j].last && b[j].first <= b[i].last;
      bool overlap = b[i].offset < b[j].offset + b[j].size && b[j].offset < b[i].offset + b[i].size;
      CHECKF(!(live && overlap), "buffers %d and %d overlap while both alive", i, j);
    }
  }
  size_t lb = tfcc_arena_lower_bound(b, n, align);
  CHECK(arena >= lb);
}

int main(void) {
  /* A chain: each buffer lives two nodes; two buffers suffice. */
  tfcc_plan_buffer chain[6];
  for (int i = 0; i < 6; i++) chain[i] = (tfcc_plan_buffer){1000, i, i + 1, 0};
  size_t arena = 0;
  CHECK(tfcc_arena_plan(chain, 6, 64, &arena, NULL) == TFCC_OK);
  CHECK(arena == 2 * 1024);
  check_plan(chain, 6, 64);

  /* ResNet-50 f32's buffers that kept its plan at 1.111 x the lower bound (8 of its 71): a
     one-node CONV_2D scratch (the last) placed by size before the 1.5 MiB tensors took the
     bottom of the arena at node 17, and the tensor living over nodes 15-18 went on top
     (6,823,936 bytes against the bound 6,422,528). Placing one-node buffers after the rest
     meets the bound. */
  tfcc_plan_buffer rn[8] = {{802816, 7, 8, 0},    {3211264, 8, 11, 0}, {3211264, 11, 15, 0},
                            {1605632, 12, 13, 0}, {401408, 13, 14, 0}, {1605632, 14, 15, 0},
                            {1605632, 15, 18, 0}, {2066432, 17, 17, 0}};
  CHECK(tfcc_arena_lower_bound(rn, 8, 64) == 6422528);
  CHECK(tfcc_arena_plan(rn, 8, 64, &arena, NULL) == TFCC_OK);
  CHECKF(arena == 6422528, "arena %zu, lower bound 6422528", arena);
  check_plan(rn, 8, 64);

  /* MoveNet int8's buffers that kept its plan over 1.1 x the lower bound (15 of its 129, node
     indices as planned on an AVX2 machine whose cache sizes set its scratch): every placement
     order missed it (663,552 bytes at best against the bound 589,824, 1.125 x). Moving the
     buffer that reaches the top halfway towards the front of the best order and placing again
     meets the bound. */
  tfcc_plan_buffer mv[15] = {{294912, 5, 6, 0},    {294912, 6, 7, 0},     {147456, 7, 8, 0},
                             {221184, 8, 9, 0},    {55296, 66, 93, 0},    {55296, 84, 85, 0},
                             {221184, 85, 86, 0},  {39168, 86, 89, 0},    {39168, 88, 136, 0},
                             {156672, 89, 111, 0}, {78336, 92, 125, 0},   {156672, 106, 107, 0},
                             {39168, 108, 110, 0}, {156672, 110, 111, 0}, {156672, 111, 112, 0}};
  CHECK(tfcc_arena_lower_bound(mv, 15, 64) == 589824);
  CHECK(tfcc_arena_plan(mv, 15, 64, &arena, NULL) == TFCC_OK);
  CHECKF(arena == 589824, "arena %zu, lower bound 589824", arena);
  check_plan(mv, 15, 64);

  /* Random lifetimes and sizes. */
  unsigned seed = 42;
  for (int iter = 0; iter < 200; iter++) {
    tfcc_plan_buffer b[40];
    int n = 1 + (int)(rnd(&seed) % 40);
    for (int i = 0; i < n; i++) {
      int first = (int)(rnd(&seed) % 30);
      b[i] = (tfcc_plan_buffer){rnd(&seed) % 5000, first, first + (int)(rnd(&seed) % 6), 0};
    }
    check_plan(b, n, 64);
  }
  /* Empty plan. */
  CHECK(tfcc_arena_plan(NULL, 0, 64, &arena, NULL) == TFCC_OK && arena == 0);
  return tfcc_test_finish("arena_plan");
}

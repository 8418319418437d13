/* Passes on vs off give the same outputs (see passes_equivalence.h): the larger real models. */
#include "passes_equivalence.h"

int main(void) {
  static const char *const models[] = {"face_detection_full_range_sparse", "face_landmark",
                                       "hand_landmark_lite", "deeplabv3_mnv2_dm05_quant",
                                       "deeplabv3_257_float"};
  return equivalence_main("passes_equivalence_large", false, models,
                          (int)(sizeof models / sizeof models[0]));
}

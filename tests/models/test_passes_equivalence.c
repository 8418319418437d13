/* Passes on vs off give the same outputs (see passes_equivalence.h): every operator
 * conformance model and the smaller real models. */
#include "passes_equivalence.h"

int main(void) {
  static const char *const models[] = {"hello_world_int8",       "split_concat_quant",
                                       "keras_lstm_mnist_ptq",   "mnist_lstm_float",
                                       "person_detect_int8",     "mobilenet_v1_025_128_quant",
                                       "mobilenet_v2_224_quant", "tf2_mobilenet_v2_224_ptq",
                                       "movenet_lightning_ptq",  "face_detection_short_range"};
  return equivalence_main("passes_equivalence", true, models,
                          (int)(sizeof models / sizeof models[0]));
}

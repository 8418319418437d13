/* MediaPipe's custom TensorFlow Lite operators for tfcc (its segmentation models):
 *   MaxPoolingWithArgmax2D      max pooling that also outputs where each maximum was
 *   MaxUnpooling2D              writes values back where those indices say
 *   Convolution2DTransposeBias  transposed convolution plus a bias
 * written against tfcc's public custom-operator API only (tfcc/tfcc.h; docs/custom_ops.md).
 * Semantics follow mediapipe/util/tflite/operations/ (README.md here). */
#ifndef TFCC_EXAMPLES_MEDIAPIPE_OPS_H
#define TFCC_EXAMPLES_MEDIAPIPE_OPS_H

#include <tfcc/tfcc.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Registers the three operators on rt (before loading the models that use them). Fails as
 * tfcc_runtime_register_custom_op does (e.g. TFCC_ERR_STATE when one is already registered);
 * the message is in tfcc_last_error(). */
tfcc_status mediapipe_ops_register(tfcc_runtime *rt);

#ifdef __cplusplus
}
#endif
#endif

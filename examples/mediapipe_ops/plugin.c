/* The MediaPipe operators as a tfcc custom-operator plugin (libtfcc_mediapipe_ops.so): the same
 * mediapipe_ops.c, compiled with -DTFCC_CUSTOM_OPS_PLUGIN, behind the plugin entry point
 * (tfcc/tfcc_plugin.h), for `tfcc run --custom-ops`, `tfcc serve` and Python's
 * custom_op_libraries (docs/custom_ops.md, "Plugins"). */
#include <tfcc/tfcc_plugin.h>

#include "mediapipe_ops.h"

TFCC_CUSTOM_OPS_PLUGIN_ENTRY(mediapipe_ops_register)

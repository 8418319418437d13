"""Custom-operator plugins from Python (docs/custom_ops.md, "Plugins"): the MediaPipe plugin
(examples/mediapipe_ops, libtfcc_mediapipe_ops.so) through Interpreter(custom_op_libraries=...)
and TensorFlow Lite's custom_op_registerers (a function name in the process, or its address), on
the model of examples.test_mediapipe_ops against its NumPy references; the errors of a missing
library, a library that is not a plugin, an unknown function name and a failing registration."""
import ctypes
import os

import numpy as np
import pytest

import tfcc
from conftest import SOURCE_DIR

DATA = os.path.join(SOURCE_DIR, "tests", "models", "data", "mediapipe_ops")
MODEL = os.path.join(DATA, "mediapipe_ops.tflite")


@pytest.fixture(scope="module")
def plugin():
    b = os.environ.get("TFCC_BINARY_DIR")
    p = os.path.join(b, "examples", "mediapipe_ops", "libtfcc_mediapipe_ops.so") if b else ""
    if not p or not os.path.isfile(p):
        pytest.skip("the MediaPipe plugin is not built (TFCC_BINARY_DIR %r)" % b)
    return p


def check_reference(interp):
    interp.allocate_tensors()
    x = np.load(os.path.join(DATA, "in0.npy"))
    interp.set_tensor(interp.get_input_details()[0]["index"], x)
    interp.invoke()
    outs = interp.get_output_details()
    assert len(outs) == 7
    for k, d in enumerate(outs):
        ref = np.load(os.path.join(DATA, "out%d.npy" % k))
        got = interp.get_tensor(d["index"])
        assert got.shape == ref.shape, d["name"]
        if k in (3, 6):  # the transposed convolutions: float sums
            np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5, err_msg=d["name"])
        else:  # pools, indices, unpooling: exact
            np.testing.assert_array_equal(got, ref, err_msg=d["name"])


def test_without_plugin_refused():
    with pytest.raises(ValueError, match="custom operator MaxPoolingWithArgmax2D is not registered"):
        tfcc.Interpreter(MODEL)


def test_libraries(plugin):
    check_reference(tfcc.Interpreter(MODEL, custom_op_libraries=[plugin]))
    check_reference(tfcc.Interpreter(model_path=MODEL, custom_op_libraries=plugin, num_threads=2))


def test_registerers(plugin):
    lib = ctypes.CDLL(plugin, mode=ctypes.RTLD_GLOBAL)
    check_reference(tfcc.InterpreterWithCustomOps(model_path=MODEL,
                                                  custom_op_registerers=["tfcc_custom_ops_register"]))
    addr = ctypes.cast(lib.tfcc_custom_ops_register, ctypes.c_void_p).value
    check_reference(tfcc.Interpreter(MODEL, custom_op_registerers=[addr]))


def test_errors(plugin, tmp_path):
    missing = str(tmp_path / "libnope.so")
    with pytest.raises(ValueError, match="plugin %s: cannot load: .*No such file" % missing):
        tfcc.Interpreter(MODEL, custom_op_libraries=[missing])
    with pytest.raises(ValueError, match="plugin libm.so.6: no function tfcc_custom_ops_register"):
        tfcc.Interpreter(MODEL, custom_op_libraries=["libm.so.6"])
    with pytest.raises(ValueError, match="already registered on this runtime"):
        tfcc.Interpreter(MODEL, custom_op_libraries=[plugin, plugin])
    with pytest.raises(ValueError, match="no function named 'no_such_registerer'"):
        tfcc.Interpreter(MODEL, custom_op_registerers=["no_such_registerer"])
    with pytest.raises(TypeError):
        tfcc.Interpreter(MODEL, custom_op_registerers=[1.5])
    # the interpreter still works after failed ones
    check_reference(tfcc.Interpreter(MODEL, custom_op_libraries=[plugin]))

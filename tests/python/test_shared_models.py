"""Every shared model of tests/models/test_shared_models.c through the Interpreter API, against
the same TensorFlow Lite references (ref/<name>/input_i.npy -> output_i.npy) with the same
tolerances: uint8/int8/int16 within 1, int32/int64 (label maps) >= 99.5% exact, float32
within 1e-3 + 1e-3*|ref|. Skips visibly without the shared models."""
import os

import numpy as np
import pytest

import tfcc

MODELS = [
    "mobilenet_v1_025_128_quant", "mobilenet_v2_224_quant", "tf2_mobilenet_v2_224_ptq",
    "movenet_lightning_ptq", "deeplabv3_mnv2_dm05_quant", "keras_lstm_mnist_ptq",
    "split_concat_quant", "hello_world_int8", "person_detect_int8", "mnist_lstm_float",
    "face_detection_short_range", "face_detection_full_range_sparse", "face_landmark",
    "hand_landmark_lite", "deeplabv3_257_float",
]
# top-1 of the classifiers on the stored input (EXPECTED.md)
LABELS = {"mobilenet_v1_025_128_quant": 283, "mobilenet_v2_224_quant": 286,
          "tf2_mobilenet_v2_224_ptq": 286}


def compare(name, i, got, ref):
    assert got.dtype == ref.dtype and got.shape == ref.shape, \
        "%s: output %d: ours %s %s, ref %s %s" % (name, i, got.dtype, got.shape, ref.dtype, ref.shape)
    if ref.dtype in (np.uint8, np.int8, np.int16):
        diff = np.abs(got.astype(np.int64) - ref.astype(np.int64))
        assert diff.max(initial=0) <= 1, "%s: output %d: max diff %d" % (name, i, diff.max())
    elif ref.dtype in (np.int32, np.int64):
        differ = int(np.count_nonzero(got != ref))
        assert differ * 1000 <= ref.size * 5, "%s: output %d: %d of %d labels differ" % (
            name, i, differ, ref.size)
    elif ref.dtype == np.float32:
        tol = 1e-3 + 1e-3 * np.abs(ref.astype(np.float64))
        diff = np.abs(got.astype(np.float64) - ref.astype(np.float64))
        nan_mismatch = np.isnan(got) != np.isnan(ref)
        over = int(np.count_nonzero((diff > tol) | nan_mismatch))
        assert over == 0, "%s: output %d: %d of %d beyond tolerance (max diff %g)" % (
            name, i, over, ref.size, np.nanmax(diff))
    else:
        np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("name", MODELS)
def test_shared_model(shared, name):
    models = os.path.join(shared, "models")
    ref_dir = os.path.join(models, "ref", name)
    it = tfcc.Interpreter(model_path=os.path.join(models, name + ".tflite"))
    it.allocate_tensors()
    for i, d in enumerate(it.get_input_details()):
        x = np.load(os.path.join(ref_dir, "input_%d.npy" % i))
        it.set_tensor(d["index"], x)
    it.invoke()
    outs = it.get_output_details()
    for i, d in enumerate(outs):
        ref = np.load(os.path.join(ref_dir, "output_%d.npy" % i))
        compare(name, i, it.get_tensor(d["index"]), ref)
    if name in LABELS:
        y = it.get_tensor(outs[0]["index"]).reshape(-1)
        assert int(np.argmax(y)) == LABELS[name]


@pytest.mark.parametrize("name", ["keras_lstm_mnist_ptq", "mnist_lstm_float"])
def test_reset_all_variables(shared, name):
    """The LSTM models keep their state in variable tensors: a second run on the same input
    differs from the first, and reset_all_variables() brings the first result back."""
    models = os.path.join(shared, "models")
    it = tfcc.Interpreter(model_path=os.path.join(models, name + ".tflite"))
    it.set_tensor(it.get_input_details()[0]["index"],
                  np.load(os.path.join(models, "ref", name, "input_0.npy")))
    out = it.get_output_details()[0]["index"]
    it.invoke()
    first = it.get_tensor(out)
    it.invoke()
    assert not np.array_equal(it.get_tensor(out), first)
    it.reset_all_variables()
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(out), first)


@pytest.mark.parametrize("name", ["movenet_lightning_ptq", "hello_world_int8",
                                  "mobilenet_v1_025_128_quant"])
def test_signature_runner(shared, name):
    """The signature runner on converted models (serving_default with its own names), and on a
    model without signatures (tfcc's runner over the inputs and outputs by tensor name)."""
    models = os.path.join(shared, "models")
    it = tfcc.Interpreter(model_path=os.path.join(models, name + ".tflite"))
    sigs = it.get_signature_list()
    runner = it.get_signature_runner()
    ins = runner.get_input_details()
    assert len(ins) == 1
    (in_name, _), = ins.items()
    if sigs:
        assert list(sigs) == ["serving_default"] and sigs["serving_default"]["inputs"] == [in_name]
    x = np.load(os.path.join(models, "ref", name, "input_0.npy"))
    res = runner(**{in_name: x})
    out_names = sigs["serving_default"]["outputs"] if sigs else \
        [d["name"] for d in it.get_output_details()]
    assert sorted(res) == sorted(out_names)
    by_index = {d["index"]: i for i, d in enumerate(it.get_output_details())}
    for out_name, detail in runner.get_output_details().items():
        ref = np.load(os.path.join(models, "ref", name, "output_%d.npy" % by_index[detail["index"]]))
        compare(name, by_index[detail["index"]], res[out_name], ref)

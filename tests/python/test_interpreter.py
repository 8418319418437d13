"""tfcc.Interpreter against TensorFlow Lite's Interpreter API, on committed conformance models
(TFLite's own outputs) and modelgen networks: no shared files needed."""
import os

import numpy as np
import pytest

import tfcc
from conftest import SOURCE_DIR, case

DETAIL_KEYS = {"name", "index", "shape", "shape_signature", "dtype", "quantization",
               "quantization_parameters", "sparsity_parameters"}


def run_case(name, **kw):
    path, ins, outs = case(name)
    it = tfcc.Interpreter(model_path=path, **kw)
    it.allocate_tensors()
    for d, x in zip(it.get_input_details(), ins):
        it.set_tensor(d["index"], x)
    it.invoke()
    got = [it.get_tensor(d["index"]) for d in it.get_output_details()]
    return it, got, outs


def test_details_float():
    it = tfcc.Interpreter(model_path=case("add_f32_same")[0])
    ins, outs = it.get_input_details(), it.get_output_details()
    assert [d["name"] for d in ins] == ["in0", "in1"] and [d["name"] for d in outs] == ["out0"]
    for d in ins + outs:
        assert set(d) == DETAIL_KEYS
        assert d["dtype"] is np.float32
        assert d["shape"].dtype == np.int32 and list(d["shape"]) == [2, 3, 5]
        assert list(d["shape_signature"]) == [2, 3, 5]
        assert d["quantization"] == (0.0, 0)
        qp = d["quantization_parameters"]
        assert qp["scales"].dtype == np.float32 and qp["scales"].size == 0
        assert qp["zero_points"].dtype == np.int32 and qp["quantized_dimension"] == 0
        assert d["sparsity_parameters"] == {}
    # TFLite numbering: the tensor indices of the file
    assert [d["index"] for d in ins] == [0, 1] and outs[0]["index"] == 2


def test_details_quantized():
    it = tfcc.Interpreter(model_path=case("add_i8_same")[0])
    d = it.get_input_details()[0]
    assert d["dtype"] is np.int8
    scale, zp = d["quantization"]
    assert scale > 0 and -128 <= zp <= 127
    qp = d["quantization_parameters"]
    assert qp["scales"].tolist() == [pytest.approx(scale)] and qp["zero_points"].tolist() == [zp]


@pytest.mark.parametrize("name", ["add_f32_same", "add_i8_same", "add_u8_same", "conv_2d_i8_3x3_same",
                                  "softmax_f32", "fully_connected_i8_2d"])
def test_outputs_match_tflite(name):
    import os
    from conftest import CONFORMANCE
    if not os.path.exists(os.path.join(CONFORMANCE, name + ".tflite")):
        pytest.skip("no conformance case %s" % name)
    _, got, want = run_case(name)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        if w.dtype == np.float32:
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
        else:
            np.testing.assert_array_equal(g, w)


def test_get_tensor_is_a_copy_and_tensor_is_a_view():
    path, ins, outs = case("add_f32_same")
    it = tfcc.Interpreter(model_path=path)
    it.allocate_tensors()
    in0, in1 = (d["index"] for d in it.get_input_details())
    out = it.get_output_details()[0]["index"]
    view_in0, view_in1, view_out = it.tensor(in0), it.tensor(in1), it.tensor(out)
    view_in0()[...] = ins[0]  # writes straight into the buffer tfcc reads
    view_in1()[...] = ins[1]
    address = view_out().ctypes.data
    it.invoke()
    np.testing.assert_allclose(view_out(), outs[0], rtol=1e-5, atol=1e-5)
    assert view_out().ctypes.data == address  # same memory every run: no copies
    copy = it.get_tensor(out)
    copy[...] = 0
    assert np.any(it.get_tensor(out) != 0)
    # an array held across invoke sees the new results
    held = view_out()
    view_in0()[...] = 0
    view_in1()[...] = 1
    it.invoke()
    assert np.all(held == 1)
    # a view: resizing or reshaping it cannot move the buffer tfcc was given
    with pytest.raises(ValueError):
        held.resize((60,), refcheck=False)
    held.shape = (30,)
    it.invoke()
    assert view_out().shape == (2, 3, 5) and view_out().ctypes.data == address


def test_model_content():
    path, ins, outs = case("add_f32_same")
    with open(path, "rb") as f:
        it = tfcc.Interpreter(model_content=f.read())
    for d, x in zip(it.get_input_details(), ins):
        it.set_tensor(d["index"], x)
    it.invoke()
    np.testing.assert_allclose(it.get_tensor(it.get_output_details()[0]["index"]), outs[0],
                               rtol=1e-5, atol=1e-5)


def test_resize_then_allocate():
    it = tfcc.Interpreter(model_path=case("add_f32_same")[0])
    for d in it.get_input_details():
        it.resize_tensor_input(d["index"], [4, 3, 5])
    it.allocate_tensors()
    assert [list(d["shape"]) for d in it.get_input_details()] == [[4, 3, 5], [4, 3, 5]]
    assert list(it.get_output_details()[0]["shape"]) == [4, 3, 5]
    a = np.arange(60, dtype=np.float32).reshape(4, 3, 5)
    it.set_tensor(0, a)
    it.set_tensor(1, a)
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(2), 2 * a)


def test_signatures():
    path, ins, outs = case("add_f32_same")
    it = tfcc.Interpreter(model_path=path)
    assert it.get_signature_list() == {"serving_default": {"inputs": ["in0", "in1"],
                                                           "outputs": ["out0"]}}
    runner = it.get_signature_runner()
    assert set(runner.get_input_details()) == {"in0", "in1"}
    assert runner.get_output_details()["out0"]["dtype"] is np.float32
    res = runner(in0=ins[0], in1=ins[1])
    assert set(res) == {"out0"}
    np.testing.assert_allclose(res["out0"], outs[0], rtol=1e-5, atol=1e-5)
    res = it.get_signature_runner("serving_default")(in0=ins[0][:1], in1=ins[1][:1])
    assert res["out0"].shape == (1, 3, 5)  # the runner resized both inputs
    np.testing.assert_allclose(res["out0"], outs[0][:1], rtol=1e-5, atol=1e-5)


def test_signature_runner_any_subgraph():
    """modelgen's `signatures` model: encode (subgraph 0, x * 2) and decode (subgraph 1,
    code + 1), against TensorFlow Lite's outputs (tests/models/data/control_flow)."""
    d = os.path.join(SOURCE_DIR, "tests", "models", "data", "control_flow")
    it = tfcc.Interpreter(model_path=os.path.join(d, "signatures.tflite"))
    assert it.get_signature_list() == {"encode": {"inputs": ["x"], "outputs": ["code"]},
                                       "decode": {"inputs": ["code_in"], "outputs": ["out"]}}
    with pytest.raises(ValueError, match="has 2 Signatures"):
        it.get_signature_runner()
    enc, dec = it.get_signature_runner("encode"), it.get_signature_runner("decode")
    assert set(dec.get_input_details()) == {"code_in"}
    assert dec.get_output_details()["out"]["dtype"] is np.float32
    for key, runner, out in (("encode", enc, "code"), ("decode", dec, "out")):
        x = np.load(os.path.join(d, "signatures.%s.r0.in0.npy" % key))
        want = np.load(os.path.join(d, "signatures.%s.r0.out0.npy" % key))
        res = runner(**{list(runner.get_input_details())[0]: x})
        assert set(res) == {out}
        np.testing.assert_array_equal(res[out], want)
    # encode then decode: (x * 2) + 1; the decode runner keeps its session between calls
    x = np.array([3.0, -0.5, 0.0], dtype=np.float32)
    np.testing.assert_array_equal(dec(code_in=enc(x=x)["code"])["out"], x * 2 + 1)
    with pytest.raises(ValueError, match="Invalid Input name"):
        dec(x=x)
    # a hot weight update reaches the signature runner's session too (constants x3)
    it.update_weights(os.path.join(d, "signatures.w3.tflite"))
    np.testing.assert_array_equal(dec(code_in=x)["out"], x + 3)
    np.testing.assert_array_equal(enc(x=x)["code"], x * 6)
    del it  # the runner keeps the model (and its runtime) alive
    np.testing.assert_array_equal(dec(code_in=x)["out"], x + 3)


def test_tensor_details_are_inputs_and_outputs():
    it = tfcc.Interpreter(model_path=case("add_f32_same")[0])
    assert [d["index"] for d in it.get_tensor_details()] == [0, 1, 2]


def test_reset_all_variables_and_memory_info():
    it = tfcc.Interpreter(model_path=case("add_f32_same")[0])
    assert it.reset_all_variables() is None
    m = it.memory_info()
    assert set(m) == {"arena_bytes", "naive_bytes", "lower_bound_bytes", "persistent_bytes",
                      "constant_bytes", "dynamic_bytes"}
    assert m["dynamic_bytes"] == 0  # no dynamic tensors in this model


def test_network_float_and_int8(modelgen_net):
    import os
    rng = np.random.default_rng(1)
    for name in ("mobilenet_v1_025_128_float", "mobilenet_v1_025_128_int8"):
        it = tfcc.Interpreter(model_path=os.path.join(modelgen_net, name + ".tflite"))
        d = it.get_input_details()[0]
        if d["dtype"] is np.float32:
            x = rng.uniform(-1, 1, d["shape"]).astype(np.float32)
        else:
            x = rng.integers(-128, 128, d["shape"]).astype(d["dtype"])
        it.set_tensor(d["index"], x)
        it.invoke()
        y = it.get_tensor(it.get_output_details()[0]["index"])
        assert y.shape == (1, 1001)
        assert np.all(np.isfinite(y))
        if name.endswith("_float"):  # softmax
            assert abs(float(y.sum()) - 1.0) < 1e-3


def test_options():
    path, ins, outs = case("add_f32_same")
    for kw in ({"isa": "generic"}, {"precision": "bf16"}, {"quant_compat": "reference"},
               {"num_threads": 2}, {"disable_winograd": True}):
        _, got, want = run_case("add_f32_same", **kw)
        np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)


def test_device_option():
    # "cpu" runs as before; a malformed device raises ValueError, an unknown device or a missing
    # CUDA backend / driver / GPU RuntimeError (the runtime's), each naming the cause
    # (docs/cuda.md); where a GPU is there, "cuda" runs
    path, ins, outs = case("add_f32_same")
    _, got, want = run_case("add_f32_same", device="cpu")
    np.testing.assert_allclose(got[0], want[0], rtol=1e-5, atol=1e-5)
    for bad, exc, msg in (("tpu", RuntimeError, "unknown device 'tpu'"),
                          ("cuda:x", ValueError, "not cpu, cuda or cuda:N")):
        try:
            tfcc.Interpreter(model_path=path, device=bad)
        except exc as e:
            assert msg in str(e), str(e)
        else:
            raise AssertionError("device=%r accepted" % bad)
    try:
        _, got, want = run_case("add_f32_same", device="cuda", precision="fp16")
    except RuntimeError as e:
        assert "device cuda: " in str(e), str(e)
    else:
        np.testing.assert_allclose(got[0], want[0], rtol=5e-3, atol=5e-3)


def test_import_like_tflite_runtime():
    import tfcc.interpreter as tflite
    assert tflite.Interpreter is tfcc.Interpreter


def test_int4_input_and_output_one_value_a_byte():
    # TRANSPOSE v7, int4 in and out (tests/ops/test_int4_io.c): NumPy int8, one value a byte,
    # as TensorFlow Lite's Python API hands int4 tensors out.
    path = os.path.join(SOURCE_DIR, "tests/ops/data/opsc_hostile/transpose_int4_io_v7.tflite")
    it = tfcc.Interpreter(model_path=path)
    it.allocate_tensors()
    din, dout = it.get_input_details()[0], it.get_output_details()[0]
    assert din["dtype"] is np.int8 and dout["dtype"] is np.int8
    x = np.array([[-8, -1, 0], [3, 7, -5]], dtype=np.int8)
    it.set_tensor(din["index"], x)
    it.invoke()
    y = it.get_tensor(dout["index"])
    assert y.dtype == np.int8 and y.tolist() == x.T.tolist()


def test_int2_uint4_float8_one_value_a_byte():
    # types: int2 is NumPy int8 and uint4 uint8, one value a byte; float8 tensors are their raw
    # bytes as uint8 (tests/ops/data/opsc_hostile/accepted.txt models)
    d = os.path.join(SOURCE_DIR, "tests/ops/data/opsc_hostile")
    it = tfcc.Interpreter(model_path=os.path.join(d, "cast_float32_int2_io_v8.tflite"))
    it.allocate_tensors()
    din, dout = it.get_input_details()[0], it.get_output_details()[0]
    assert dout["dtype"] is np.int8
    it.set_tensor(din["index"], np.array([-3.0, -1.5, 0.5, 1.0, 9.0], dtype=np.float32))
    it.invoke()
    assert it.get_tensor(dout["index"]).tolist() == [-2, -1, 0, 1, 1]
    it = tfcc.Interpreter(model_path=os.path.join(d, "dequantize_uint4_input_v8.tflite"))
    it.allocate_tensors()
    din, dout = it.get_input_details()[0], it.get_output_details()[0]
    assert din["dtype"] is np.uint8
    it.set_tensor(din["index"], np.array([0, 8, 9, 15, 3], dtype=np.uint8))
    it.invoke()
    assert it.get_tensor(dout["index"]).tolist() == [-4.0, 0.0, 0.5, 3.5, -2.5]
    it = tfcc.Interpreter(model_path=os.path.join(d, "gather_float8_io_v8.tflite"))
    it.allocate_tensors()
    din, dout = it.get_input_details()[0], it.get_output_details()[0]
    assert din["dtype"] is np.uint8 and dout["dtype"] is np.uint8
    x = np.array([[0x3C, 0xBC], [0x7C, 0x7E], [0x01, 0x80], [0x40, 0xFF]], dtype=np.uint8)
    it.set_tensor(din["index"], x)
    it.invoke()
    assert it.get_tensor(dout["index"]).tolist() == [x[0].tolist(), x[3].tolist()]

"""The same exceptions as TensorFlow Lite for the same mistakes, with tfcc's messages."""
import os

import numpy as np
import pytest

import tfcc
from conftest import case


@pytest.fixture
def add():
    return tfcc.Interpreter(model_path=case("add_f32_same")[0])


def test_wrong_dtype(add):
    with pytest.raises(ValueError, match="got value of type float64 but expected type float32 for input 0"):
        add.set_tensor(0, np.zeros((2, 3, 5)))


def test_wrong_shape(add):
    with pytest.raises(ValueError, match="dimension mismatch: got 4 but expected 5 for dimension 2 of input 0"):
        add.set_tensor(0, np.zeros((2, 3, 4), np.float32))
    with pytest.raises(ValueError, match="got 2 dimensions but expected 3"):
        add.set_tensor(0, np.zeros((2, 3), np.float32))


def test_python_list_is_float64(add):
    with pytest.raises(ValueError, match="float64"):
        add.set_tensor(0, [[[0.0] * 5] * 3] * 2)


def test_bad_indices(add):
    with pytest.raises(ValueError, match="tensor 7 is not an input"):
        add.set_tensor(7, np.zeros((2, 3, 5), np.float32))
    with pytest.raises(ValueError, match="is an output"):
        add.set_tensor(2, np.zeros((2, 3, 5), np.float32))
    with pytest.raises(ValueError, match="inputs and outputs only"):
        add.get_tensor(9)
    with pytest.raises(ValueError, match="inputs and outputs only"):
        add.tensor(9)
    with pytest.raises(ValueError, match="not an input"):
        add.resize_tensor_input(2, [1])


def test_missing_file():
    with pytest.raises(ValueError, match="/no/such/model.tflite"):
        tfcc.Interpreter(model_path="/no/such/model.tflite")


def test_not_a_model(tmp_path):
    p = tmp_path / "x.tflite"
    p.write_bytes(b"\0" * 100)
    with pytest.raises(ValueError, match="x.tflite"):
        tfcc.Interpreter(model_path=str(p))
    with pytest.raises(ValueError, match="not a valid TFLite model"):
        tfcc.Interpreter(model_content=b"garbage" * 10)
    with pytest.raises(ValueError, match="empty"):
        tfcc.Interpreter(model_content=b"")


def test_arguments():
    path = case("add_f32_same")[0]
    with pytest.raises(ValueError, match="exactly one of model_path and model_content"):
        tfcc.Interpreter()
    with pytest.raises(ValueError, match="unknown ISA 'sse9'"):
        tfcc.Interpreter(model_path=path, isa="sse9")
    with pytest.raises(ValueError, match="precision"):
        tfcc.Interpreter(model_path=path, precision="f8")
    with pytest.raises(ValueError, match="delegates"):
        tfcc.Interpreter(model_path=path, experimental_delegates=[object()])
    with pytest.raises(ValueError, match="preserve_all_tensors"):
        tfcc.Interpreter(model_path=path, experimental_preserve_all_tensors=True)
    with pytest.raises(ValueError, match="num_threads"):
        tfcc.Interpreter(model_path=path, num_threads="2")


def test_strict_resize(add):
    with pytest.raises(ValueError, match="only allows changing dimensions that are -1"):
        add.resize_tensor_input(0, [4, 3, 5], strict=True)


def test_bad_resize_fails_at_allocate(add):
    add.resize_tensor_input(0, [4, 3, 5])  # in1 stays [2,3,5]: ADD cannot broadcast
    with pytest.raises(RuntimeError, match="allocate_tensors"):
        add.invoke()
    with pytest.raises(ValueError, match="do not broadcast"):
        add.allocate_tensors()
    add.invoke()  # the previous shapes stay in force


def test_signature_runner_errors(add):
    runner = add.get_signature_runner()
    with pytest.raises(ValueError, match="Invalid number of inputs"):
        runner(in0=np.zeros((2, 3, 5), np.float32))
    with pytest.raises(ValueError, match="Invalid Input name"):
        runner(in0=np.zeros((2, 3, 5), np.float32), nope=np.zeros((2, 3, 5), np.float32))
    with pytest.raises(ValueError, match="Invalid signature_key"):
        add.get_signature_runner("nope")


def test_update_weights_mismatch(add):
    other = case("add_f32_bcast_row")[0]
    with pytest.raises(ValueError, match="update_weights"):
        add.update_weights(other)


@pytest.mark.skipif(not tfcc.has_crypto, reason="tfcc built without OpenSSL (no encrypted models)")
def test_encrypted_needs_the_right_key(tmp_path):
    src = case("add_f32_same")[0]
    enc = str(tmp_path / "m.tfcce")
    key = bytes(range(32))
    tfcc.encrypt_file(src, enc, key)
    with pytest.raises(ValueError, match="encrypted tfcc model: pass key="):
        tfcc.Interpreter(model_path=enc)
    with pytest.raises(ValueError):
        tfcc.Interpreter(model_path=enc, key=bytes(32))
    with pytest.raises(ValueError, match="32"):
        tfcc.Interpreter(model_path=enc, key=b"short")
    with pytest.raises(ValueError, match="not an encrypted tfcc model"):
        tfcc.Interpreter(model_path=src, key=key)

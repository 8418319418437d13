"""Models whose stored input shape is a placeholder (tests/models/data/placeholder_shapes).

openWakeWord's melspectrogram stores its input as [1, 1] with the signature [-1, -1], and its
first CONV_2D needs 512 samples: TensorFlow Lite loads it, the caller resizes the input, and
only then are the operators prepared. These models fail the same way at their stored shapes
and run once resized (tests/unit/test_placeholder_shapes.c computes their expected outputs):

  reshape_placeholder  x float32 [1, 1], signature [1, -1] -> RESHAPE to [4, -1] -> MUL by 2.
                       At [1, 1] the reshape cannot split 1 value into 4 rows; at [1, 8] the
                       output is [4, 2].
  fixed_input          the same graph with x stored as [1, 1] and no -1 in its signature:
                       nothing can make it run, so its load fails, naming the RESHAPE.

    python3 modelgen/make_placeholder_shapes.py --out tests/models/data/placeholder_shapes
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_schema as T  # noqa: E402
from tflite_schema import FLOAT32, INT32  # noqa: E402


def reshape_times_two(signature):
    m = T.Model("RESHAPE of a placeholder-shaped input")
    x = m.add_tensor("x", FLOAT32, [1, 1], shape_signature=signature)
    shape = m.add_tensor("shape", INT32, [2], data=T.pack(INT32, [4, -1]))
    r = m.add_tensor("rows", FLOAT32, [4, 2], shape_signature=[4, -1])
    two = m.add_tensor("two", FLOAT32, [], data=T.pack(FLOAT32, [2.0]))
    y = m.add_tensor("y", FLOAT32, [4, 2], shape_signature=[4, -1])
    m.add_op("RESHAPE", [x, shape], [r], {"new_shape": [4, -1]})
    m.add_op("MUL", [r, two], [y], {"fused_activation_function": 0})
    m.inputs, m.outputs = [x], [y]
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name, model in (("reshape_placeholder", reshape_times_two([1, -1])),
                        ("fixed_input", reshape_times_two([1, 1]))):
        with open(os.path.join(a.out, name + ".tflite"), "wb") as f:
            f.write(T.serialize(model))
        print("wrote", name)


if __name__ == "__main__":
    main()

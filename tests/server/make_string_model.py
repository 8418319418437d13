#!/usr/bin/env python3
"""make_string_model.py OUT.tflite [--string-output]: a tiny model with a TFLite STRING
tensor (KServe v2 datatype BYTES) among its inputs: 'text' (STRING [1], unused by any
operator) and 'x' (FLOAT32 [1, 4]) -> RELU -> 'y'. --string-output also returns 'text' as
an output. For the BYTES tests: tfcc has no string kernels, and the server must say so."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'modelgen'))
import tflite_schema as ts  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument('out')
ap.add_argument('--string-output', action='store_true')
a = ap.parse_args()
m = ts.Model('tfcc server test: a string input')
text = m.add_tensor('text', ts.STRING, [1])
x = m.add_tensor('x', ts.FLOAT32, [1, 4])
y = m.add_tensor('y', ts.FLOAT32, [1, 4])
m.add_op('RELU', [x], [y])
m.inputs = [text, x]
m.outputs = [y, text] if a.string_output else [y]
with open(a.out, 'wb') as f:
    f.write(ts.serialize(m))

#!/usr/bin/env python3
"""make_signatures.py OUT.tflite [SCALE]: modelgen's `signatures` test model (encode: code = x *
2 in subgraph 0, decode: out = code + 1 in subgraph 1; tests/models/data/control_flow) with its
constants multiplied by SCALE (default 1: the committed model): encode x * 2S, decode code + S.
For the signature and reload tests of tfcc serve."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'modelgen'))
import make_control_flow as cf  # noqa: E402
import tflite_schema as T  # noqa: E402

out = sys.argv[1]
scale = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
orig = cf.const
cf.const = lambda g, name, dtype, shape, values: orig(g, name, dtype, shape, [v * scale for v in values])
m, _ = cf.signatures()
with open(out, 'wb') as f:
    f.write(T.serialize(m))

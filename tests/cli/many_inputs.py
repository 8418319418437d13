#!/usr/bin/env python3
"""Writes the CLI tests' model of many inputs (tfcc run and bench once stopped at 256 -i).

  many_inputs.py DIR N    DIR/many.tflite: N float32 inputs x0..x{N-1} of shape [2] summed by
      a chain of ADDs (s1, s2, ...) into the output y; DIR/xK.npy = [K, 1] for each input, so
      y = [N (N - 1) / 2, N], exact in float32. DIR must not exist.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "modelgen"))
import npy  # noqa: E402
import tflite_schema as S  # noqa: E402


def main():
    d, n = sys.argv[1], int(sys.argv[2])
    os.makedirs(d)
    m = S.Model(description="%d inputs" % n)
    xs = [m.add_tensor("x%d" % k, S.FLOAT32, [2]) for k in range(n)]
    acc = xs[0]
    for k in range(1, n):
        y = m.add_tensor("y" if k == n - 1 else "s%d" % k, S.FLOAT32, [2])
        m.add_op("ADD", [acc, xs[k]], [y], {})
        acc = y
    m.inputs, m.outputs = xs, [acc]
    with open(os.path.join(d, "many.tflite"), "wb") as f:
        f.write(S.serialize(m))
    for k in range(n):
        npy.save("%s/x%d.npy" % (d, k), "float32", [2], [float(k), 1.0])


if __name__ == "__main__":
    main()

"""Variants of the control-flow test models for the hot weight update tests
(tests/lifecycle/test_hot_update.c), written next to them in tests/models/data/control_flow:

  while_counter.w2.tflite          the same graph, other weights in the WHILE body: k 1.5 -> 2.5,
                                   c 0.25 -> -0.75 (acc = acc * k + c per iteration)
  while_counter.body_shape.tflite  another graph: the body's constant c has shape [1], not []
  signatures.w3.tflite             the same graph, constants x3: encode x * 6, decode code + 3
  signatures.flex_decode.tflite    decode's ADD replaced by the Flex op FlexRestore (no TFLite
                                   build here runs it): encode runs, decode is refused
  signatures.bad_decode.tflite     decode adds a [4] constant to its [3] input (no broadcast):
                                   encode runs, decode is refused with the shape error
  signatures.flex_decode.w3.tflite signatures.flex_decode with constants x3 (encode x * 6; the
                                   Flex op's constant 3): new weights for a model whose decode
                                   cannot run
  signatures.flex_encode.tflite    encode's MUL (subgraph 0) replaced by the Flex op FlexRestore:
                                   subgraph 0 cannot run, decode (subgraph 1) runs, as a LiteRT
                                   signature runner runs it (tests/models/test_control_flow.c)

    python3 modelgen/make_cf_variants.py --out tests/models/data/control_flow
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_control_flow as cf  # noqa: E402
import tflite_schema as T  # noqa: E402


def model(fn, values=None, shapes=None, scale=1.0):
    orig = cf.const

    def const(g, name, dtype, shape, vals):
        vals = (values or {}).get(name, [v * scale for v in vals] if scale != 1.0 else vals)
        return orig(g, name, dtype, (shapes or {}).get(name, shape), vals)

    cf.const = const
    try:
        m, _ = fn()
    finally:
        cf.const = orig
    return m


def build(fn, values=None, shapes=None, scale=1.0):
    return T.serialize(model(fn, values, shapes, scale))


def signatures_flex_decode(scale=1.0):
    m = model(cf.signatures, scale=scale)
    op = m.subgraphs[0].operators[0]
    assert op.op == "ADD"
    m.subgraphs[0].operators[0] = T.Operator("CUSTOM", op.inputs, op.outputs, custom_code="FlexRestore")
    return T.serialize(m)


def signatures_flex_encode():
    m = model(cf.signatures)
    op = m.operators[0]
    assert op.op == "MUL"
    m.operators[0] = T.Operator("CUSTOM", op.inputs, op.outputs, custom_code="FlexRestore")
    return T.serialize(m)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    files = {"while_counter.w2.tflite": build(cf.while_counter, values={"k": [2.5], "c": [-0.75]}),
             "while_counter.body_shape.tflite": build(cf.while_counter, shapes={"c": [1]}),
             "signatures.w3.tflite": build(cf.signatures, scale=3.0),
             "signatures.flex_decode.tflite": signatures_flex_decode(),
             "signatures.flex_decode.w3.tflite": signatures_flex_decode(scale=3.0),
             "signatures.flex_encode.tflite": signatures_flex_encode(),
             "signatures.bad_decode.tflite": build(cf.signatures, values={"one": [1.0] * 4},
                                                   shapes={"one": [4]})}
    for name, data in files.items():
        with open(os.path.join(a.out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()

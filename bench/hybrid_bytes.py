#!/usr/bin/env python3
"""Activation bytes a dynamic-range ("hybrid") network moves per inference against its int8 twin.

  bench/hybrid_bytes.py [--zoo DIR] [ARCH...]        (default: mobilenet_v2 resnet18 resnet50)

Reads <arch>.hybrid.tflite and <arch>.int8.tflite (--zoo, default ~/.cache/tfcc-zoo; the twins
of modelgen/make_hybrid_twins.py) and counts, from the graphs alone, the bytes of activations
written and read per inference as tfcc runs them (constants excluded; caches ignored: a count of
traffic through the load / store units, not of memory traffic):
  - every tensor an operator writes: its elements x its type's size, once; every operator that
    reads it: the same again;
  - int8 twin: a 1x1 CONV_2D whose only reader is a DEPTHWISE_CONV_2D (through a PAD or not) is
    one fused node (fuse_expand_dwconv): the expanded tensor is never written or read; a PAD
    whose readers are convolutions is folded into them (fuse_pad), in both twins;
  - hybrid twin, per hybrid node (int8 weights, float input): a 1x1 stride-1 CONV_2D or a
    FULLY_CONNECTED quantizes its input per row (qd8: one read of the floats, counted above, 1
    byte written and read back by the GEMM); any other CONV_2D and the DEPTHWISE_CONV_2D quantize
    per image (a min/max read of the floats, 4 bytes a value, on top of the element's read; 1 byte
    written and read back); a 1x1 hybrid CONV_2D whose only reader is a float-weight
    DEPTHWISE_CONV_2D is fused (hybrid-expand-xnn-dw): its output is never written or read.
Prints the totals per twin, the ratio, and the hybrid twin's bytes by kind. Benchmarks are not
tests: nothing is asserted."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "modelgen"))
import tflite_read  # noqa: E402

SIZE = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 9: 1, 10: 8}  # TensorType -> bytes
INT8 = 9


def elems(t):
    n = 1
    for d in t.shape:
        n *= max(d, 1)
    return n


def count(path, hybrid):
    with open(path, "rb") as f:
        m = tflite_read.read(f.read())
    readers = {}
    for i, o in enumerate(m.operators):
        for t in o.inputs:
            if t >= 0:
                readers.setdefault(t, []).append(i)
    const = {i for i, t in enumerate(m.tensors) if t.data is not None}
    # a PAD before a convolution or depthwise is folded into it (fuse_pad): its reader reads the
    # PAD's input, and the padded tensor is never written
    alias = {}
    for o in m.operators:
        r = readers.get(o.outputs[0], []) if o.outputs else []
        if o.op == "PAD" and r and all(m.operators[j].op in ("CONV_2D", "DEPTHWISE_CONV_2D")
                                       for j in r):
            alias[o.outputs[0]] = o.inputs[0]

    def nbytes(t):
        return elems(m.tensors[t]) * SIZE.get(m.tensors[t].dtype, 4)

    def is_1x1(o):
        w = m.tensors[o.inputs[1]].shape
        return (o.op == "CONV_2D" and len(w) == 4 and w[1] == 1 and w[2] == 1 and
                o.options.get("stride_h", 1) == 1 and o.options.get("stride_w", 1) == 1)

    def hybrid_node(o):
        return (o.op in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED") and
                m.tensors[o.inputs[0]].dtype == 0 and m.tensors[o.inputs[1]].dtype == INT8)

    # tensors never written nor read: the fused pairs' intermediates
    skip = set()
    for i, o in enumerate(m.operators):
        if o.op != "CONV_2D" or not is_1x1(o):
            continue
        t = o.outputs[0]
        r = readers.get(t, [])
        if len(r) != 1:
            continue
        nxt, chain = m.operators[r[0]], [t]
        if nxt.op == "PAD" and len(readers.get(nxt.outputs[0], [])) == 1:
            chain.append(nxt.outputs[0])
            nxt = m.operators[readers[nxt.outputs[0]][0]]
        if nxt.op != "DEPTHWISE_CONV_2D":
            continue
        if not hybrid:
            skip.update(chain)
        elif hybrid_node(o) and m.tensors[nxt.inputs[1]].dtype == 0:
            skip.update(chain)
    kinds = {"float written": 0, "float read": 0, "range reads": 0, "quantized copies": 0,
             "8-bit written": 0, "8-bit read": 0, "other": 0}
    for o in m.operators:
        if o.op == "PAD" and o.outputs[0] in alias:
            continue
        for t in o.outputs:
            if t in skip:
                continue
            k = "float written" if m.tensors[t].dtype == 0 else \
                "8-bit written" if SIZE.get(m.tensors[t].dtype) == 1 else "other"
            kinds[k] += nbytes(t)
        for t in o.inputs:
            t = alias.get(t, t)
            if t < 0 or t in const or t in skip:
                continue
            k = "float read" if m.tensors[t].dtype == 0 else \
                "8-bit read" if SIZE.get(m.tensors[t].dtype) == 1 else "other"
            kinds[k] += nbytes(t)
        if hybrid and hybrid_node(o) and o.inputs[0] not in skip:
            n = elems(m.tensors[alias.get(o.inputs[0], o.inputs[0])])
            kinds["quantized copies"] += 2 * n  # 1 byte written, read back
            if not (o.op == "FULLY_CONNECTED" or is_1x1(o)):
                kinds["range reads"] += 4 * n
    return kinds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--zoo", default=os.environ.get("TFCC_ZOO_DIR",
                                                    os.path.expanduser("~/.cache/tfcc-zoo")))
    ap.add_argument("arch", nargs="*", default=["mobilenet_v2", "resnet18", "resnet50"])
    a = ap.parse_args()
    print("| network | int8 MB | hybrid MB | hybrid / int8 | hybrid: float written / read, "
          "range reads, quantized copies (MB) |")
    print("|---|---:|---:|---:|---|")
    for arch in a.arch:
        h = f"{a.zoo}/{arch}.hybrid.tflite"
        q = f"{a.zoo}/{arch}.int8.tflite"
        if not (os.path.isfile(h) and os.path.isfile(q)):
            print(f"hybrid_bytes.py: skip {arch}: twins missing in {a.zoo}", file=sys.stderr)
            continue
        kh, kq = count(h, True), count(q, False)
        th, tq = sum(kh.values()), sum(kq.values())
        print("| %s | %.2f | %.2f | %.2f | %.2f / %.2f, %.2f, %.2f |" % (
            arch, tq / 1e6, th / 1e6, th / tq, kh["float written"] / 1e6,
            kh["float read"] / 1e6, kh["range reads"] / 1e6, kh["quantized copies"] / 1e6))


if __name__ == "__main__":
    main()

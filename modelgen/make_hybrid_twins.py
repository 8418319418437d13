"""Dynamic-range ("hybrid") twins of float32 models, and float32 twins of hybrid ones, for the
hybrid speed comparisons (bench/README.md "Hybrid networks") and tests/models/test_hybrid_twins.

  hybrid:  the weights of CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and BATCH_MATMUL (constant
           float32 rhs) become int8, as TensorFlow Lite's converter does with
           Optimize.DEFAULT and no representative dataset (its MLIR dynamic-range quantizer,
           tfl-prepare-quantize-dynamic-range defaults): symmetric, narrow range [-127, 127],
           scale max|w| / 127, round half away from zero; per channel for CONV_2D (dimension
           0), DEPTHWISE_CONV_2D (dimension 3) and FULLY_CONNECTED (dimension 0), per tensor for
           BATCH_MATMUL; weights of fewer than 1024 elements stay float32 (min_elements_for_weights);
           biases stay float32. FULLY_CONNECTED and BATCH_MATMUL get asymmetric_quantize_inputs.
  float:   (--dequantize) every int8 weight of those operators with float32 activations becomes
           the float32 constant q * scale (the same network in float, for yolov8n_dynamic_range).

    python3 modelgen/make_hybrid_twins.py IN.tflite OUT.tflite [--dequantize]
    python3 modelgen/make_hybrid_twins.py --zoo ~/.cache/tfcc-zoo --out DIR   # <arch>.hybrid.tflite
"""
import argparse
import glob
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tflite_read  # noqa: E402
import tflite_schema as T  # noqa: E402
from casekit import numel, quantize_symmetric_int8  # noqa: E402

MIN_ELEMENTS = 1024
# operator -> (weight input, quantized dimension or None for per tensor, version of the hybrid op)
HYBRID_OPS = {"CONV_2D": (1, 0, 5), "DEPTHWISE_CONV_2D": (1, 3, 6),
              "FULLY_CONNECTED": (1, 0, 9), "BATCH_MATMUL": (1, None, 4)}


def hybridize(m):
    """Quantizes the weights of m (a tflite_schema.Model) in place; returns the count."""
    done = {}
    for op in m.operators:
        spec = HYBRID_OPS.get(op.op)
        if spec is None or len(op.inputs) <= spec[0]:
            continue
        wi, axis, version = spec
        t = m.tensors[op.inputs[wi]]
        act = m.tensors[op.inputs[0]]
        if act.dtype != T.FLOAT32:
            continue
        if op.inputs[wi] not in done:
            if t.dtype != T.FLOAT32 or t.data is None or numel(t.shape) < MIN_ELEMENTS:
                continue
            if op.op == "BATCH_MATMUL" and (op.options.get("adj_x") or len(t.shape) < 2):
                continue
            n = numel(t.shape)
            values = struct.unpack("<%df" % n, t.data[:4 * n])
            q, scales = quantize_symmetric_int8(values, t.shape, axis)
            t.dtype = T.INT8
            t.data = struct.pack("<%db" % n, *q)
            t.quant = {"scale": scales, "zero_point": [0] * len(scales),
                       "quantized_dimension": axis or 0}
            done[op.inputs[wi]] = True
        op.version = max(op.version, version)
        if op.op in ("FULLY_CONNECTED", "BATCH_MATMUL"):
            op.options["asymmetric_quantize_inputs"] = True
    return len(done)


def dequantize(m):
    """Turns the int8 weights of hybrid nodes of m into float32 constants; returns the count."""
    done = set()
    for op in m.operators:
        spec = HYBRID_OPS.get(op.op)
        if spec is None or len(op.inputs) <= spec[0]:
            continue
        ti = op.inputs[spec[0]]
        t = m.tensors[ti]
        if m.tensors[op.inputs[0]].dtype != T.FLOAT32 or (t.dtype != T.INT8 and ti not in done):
            continue
        if ti not in done:
            n = numel(t.shape)
            q = struct.unpack("<%db" % n, t.data[:n])
            scales = t.quant["scale"]
            axis = t.quant.get("quantized_dimension", 0) if len(scales) > 1 else None
            inner = numel(t.shape[axis + 1:]) if axis is not None else n
            groups = len(scales)
            vals = [q[i] * scales[(i // inner) % groups if axis is not None else 0]
                    for i in range(n)]
            t.dtype = T.FLOAT32
            t.data = struct.pack("<%df" % n, *vals)
            t.quant = None
            done.add(ti)
        op.options.pop("asymmetric_quantize_inputs", None)
    return len(done)


def convert(src, dst, to_float=False):
    with open(src, "rb") as f:
        m = tflite_read.read(f.read())
    n = dequantize(m) if to_float else hybridize(m)
    data = T.serialize(m)
    with open(dst + ".tmp", "wb") as f:
        f.write(data)
    os.replace(dst + ".tmp", dst)
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", nargs="?")
    ap.add_argument("dst", nargs="?")
    ap.add_argument("--dequantize", action="store_true", help="hybrid -> float32 twin")
    ap.add_argument("--zoo", help="folder of the zoo's <arch>.tflite float models")
    ap.add_argument("--out", help="with --zoo: where <arch>.hybrid.tflite go")
    a = ap.parse_args()
    if a.zoo:
        for src in sorted(glob.glob(os.path.join(a.zoo, "*.tflite"))):
            base = os.path.basename(src)[:-len(".tflite")]
            if "." in base:  # <arch>.int8, <arch>.hybrid
                continue
            dst = os.path.join(a.out or a.zoo, base + ".hybrid.tflite")
            print("%s: %d weight tensors quantized -> %s" % (base, convert(src, dst), dst))
        return
    if not a.src or not a.dst:
        ap.error("give SRC DST, or --zoo DIR")
    print("%d weight tensors %s" % (convert(a.src, a.dst, a.dequantize),
                                    "dequantized" if a.dequantize else "quantized"))


if __name__ == "__main__":
    main()

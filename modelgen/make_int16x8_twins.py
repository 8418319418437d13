"""int16x8 twins of float32 .tflite models, made the way TensorFlow Lite's converter makes them
with `target_spec.supported_ops = [EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8,
TFLITE_BUILTINS]` and a representative dataset (its post-training quantizer,
lite/tools/optimize/quantize_model.cc with the operator table of operator_property.cc; read
there, written here from its rules):

  activations  int16, symmetric, zero point 0, scale max(|min|, |max|) / 32767 of the range seen
               when the float model runs on the calibration inputs (tfcc itself runs it: every
               float tensor an operator writes is made an output of a calibration copy), the
               range rounded up to 8 significant bits (not the converter's: so that the twin
               does not depend on the last bits of the float kernels of one build or ISA)
  weights      int8 symmetric, narrow range [-127, 127], scale max|w| / 127, round half away
               from zero: per channel for CONV_2D / TRANSPOSE_CONV (dimension 0) and
               DEPTHWISE_CONV_2D (dimension 3), per tensor for FULLY_CONNECTED
  bias         int64, scale input scale * weight scale (per channel)
  restricted   LOGISTIC / TANH / SOFTMAX outputs: scale 1/32768, zero point 0
  same scale   AVERAGE/MAX_POOL_2D, RESHAPE, SQUEEZE, SLICE, STRIDED_SLICE, PAD(V2), MIRROR_PAD,
               TRANSPOSE, SPLIT(_V), UNPACK, GATHER, REDUCE_MAX/MIN, SUB, EXPAND_DIMS (the
               kernel requires it): output = input 0's
               scale; CONCATENATION, PACK, MAXIMUM, MINIMUM: inputs whose scale differs from the
               calibrated output scale get a requantizing QUANTIZE (int16 -> int16) in front;
               constant inputs are quantized at the output scale
  constants    other float constant inputs of int16 operators (ADD / MUL operands, GATHER
               params): int16 symmetric, scale max|c| / 32767
  ADD / SUB    pot_scale_int16 = false (the general int16 kernels)
  float16      float16 constants behind DEQUANTIZE are folded to float32 first
  the rest     operators without int16 kernels in the converter's table (RELU, RELU6,
               HARD_SWISH, RESIZE_*, LSTM, ...) stay float32 between DEQUANTIZE and QUANTIZE;
               the model's inputs and outputs stay float32 (QUANTIZE in, DEQUANTIZE out)

`--extra-int16 RELU,HARD_SWISH,...` also quantizes those operators (newer converters, and a way to
meet tfcc's int16 kernels in deep chains; the oracle says whether TensorFlow Lite runs them).
`--expose` makes every int16 and float32 tensor an operator writes an output too (trace where
two builds part; --check then names the first outputs that differ).
`--check` runs the twin in tfcc and in TensorFlow Lite (`--oracle run_ref.mjs`, both engines)
on the first calibration input and prints the largest difference per output in LSB.

    python3 modelgen/make_int16x8_twins.py IN.tflite OUT.tflite [--input X.npy ...] [--calib 4]
        [--tfcc build/tools/tfcc] [--extra-int16 OPS] [--expose] [--check --oracle run_ref.mjs]
    python3 modelgen/make_int16x8_twins.py --zoo ~/.cache/tfcc-zoo --out DIR  # <arch>.int16x8.tflite

Standard library only; deterministic for the same inputs.
"""
import argparse
import glob
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import npy  # noqa: E402
import tflite_read  # noqa: E402
import tflite_schema as T  # noqa: E402
from casekit import Rng, quantize_symmetric_int8  # noqa: E402
from casekit import f32 as _f32, numel as _count, round_half_away as _round_away  # noqa: E402

# operator -> (activation input, weight input, per-channel dimension or None, bias input)
WEIGHT_OPS = {"CONV_2D": (0, 1, 0, 2), "DEPTHWISE_CONV_2D": (0, 1, 3, 2),
              "TRANSPOSE_CONV": (2, 1, 0, 3), "FULLY_CONNECTED": (0, 1, None, 2)}
SAME_SCALE = {"AVERAGE_POOL_2D", "MAX_POOL_2D", "RESHAPE", "SQUEEZE", "SLICE", "STRIDED_SLICE",
              "PAD", "PADV2", "MIRROR_PAD", "TRANSPOSE", "SPLIT", "SPLIT_V", "UNPACK", "GATHER",
              "REDUCE_MAX", "REDUCE_MIN", "SUB", "SPACE_TO_DEPTH", "DEPTH_TO_SPACE", "EXPAND_DIMS",
              "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR"}
MULTI_SAME = {"CONCATENATION", "PACK", "MAXIMUM", "MINIMUM"}
RESTRICTED = {"LOGISTIC": 1.0 / 32768, "TANH": 1.0 / 32768, "SOFTMAX": 1.0 / 32768}
# EXPAND_DIMS is free in that table, but TFLite's kernel refuses differing scales: same scale
FREE = {"ADD", "MUL", "MEAN", "LEAKY_RELU", "BATCH_MATMUL", "QUANTIZE"}
# the converter's int16 table (operator_property.cc: quantizable_int16 not false)
CONVERTER_INT16 = (set(WEIGHT_OPS) | MULTI_SAME | set(RESTRICTED) | FREE | SAME_SCALE) - {
    "SPACE_TO_DEPTH", "DEPTH_TO_SPACE", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR",
    "QUANTIZE"}
EXTRA_FREE = {"RELU", "RELU6", "RELU_N1_TO_1", "HARD_SWISH", "ELU", "GELU", "ABS", "NEG",
              "SQUARED_DIFFERENCE", "SUM", "RSQRT", "SQRT", "EXP", "LOG", "DIV"}
Q16 = 32767.0


def _floats(t):
    n = _count(t.shape)
    return struct.unpack("<%df" % n, t.data[:4 * n])


# ------------------------------------------------------------------------ calibration
def _run_tfcc(tfcc, model_path, inputs, outdir):
    os.makedirs(outdir, exist_ok=True)
    cmd = [tfcc, "run", model_path, "-o", outdir, "--threads", "1"]
    for p in inputs:
        cmd += ["-i", p]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("tfcc run %s: %s" % (model_path, r.stderr.strip()))
    files = {}
    for f in os.listdir(outdir):
        if f.endswith(".npy") and "_" in f:
            files[int(f.split("_", 1)[0])] = os.path.join(outdir, f)
    return [files[i] for i in sorted(files)]


def calibration_inputs(m, given, count, work):
    """count lists of .npy paths (one per model input): the given files first, then seeded
    random inputs (uniform over the given input's range, else [-1, 1])."""
    sets = []
    if given:
        if len(given) != len(m.inputs):
            raise ValueError("%d --input files for %d model inputs" % (len(given), len(m.inputs)))
        sets.append(list(given))
    rng = Rng(0x16816)
    k = 0
    while len(sets) < count:
        paths = []
        for j, ti in enumerate(m.inputs):
            t = m.tensors[ti]
            shape = [d if d > 0 else 1 for d in t.shape]
            n = _count(shape)
            lo, hi = -1.0, 1.0
            if given:
                _, _, v = npy.load(given[j])
                lo, hi = min(v), max(v)
            p = os.path.join(work, "calib%d_in%d.npy" % (k, j))
            if t.dtype == T.FLOAT32:
                npy.save(p, "float32", shape, [_f32(rng.uniform(lo, hi)) for _ in range(n)])
            elif t.dtype in (T.INT32, T.INT64):
                hi_i = int(hi) if given else 10
                npy.save(p, "int32" if t.dtype == T.INT32 else "int64", shape,
                         [rng.randint(max(0, int(lo)), max(1, hi_i)) for _ in range(n)])
            else:
                raise ValueError("input %d: dtype %d not calibrated" % (j, t.dtype))
            paths.append(p)
        sets.append(paths)
        k += 1
    return sets


def calibrate(m, tfcc, input_sets, work):
    """{tensor index: (min, max)} of every float32 tensor an operator writes and every float32
    model input, over the calibration runs."""
    watch = [ti for ti in m.inputs if m.tensors[ti].dtype == T.FLOAT32]
    seen = set(watch)
    for op in m.operators:
        for ti in op.outputs:
            if ti >= 0 and ti not in seen and m.tensors[ti].dtype == T.FLOAT32:
                seen.add(ti)
                watch.append(ti)
    outs, inputs = m.outputs, m.inputs
    m.outputs = list(watch)
    path = os.path.join(work, "calib.tflite")
    with open(path, "wb") as f:
        f.write(T.serialize(m))
    m.outputs = outs
    assert m.inputs is inputs
    ranges = {}
    for k, ins in enumerate(input_sets):
        files = _run_tfcc(tfcc, path, ins, os.path.join(work, "calib_out%d" % k))
        if len(files) != len(watch):
            raise RuntimeError("calibration run wrote %d outputs, expected %d"
                               % (len(files), len(watch)))
        for ti, f in zip(watch, files):
            _, _, v = npy.load(f)
            if not v:
                continue
            lo, hi = min(v), max(v)
            if ti in ranges:
                lo, hi = min(lo, ranges[ti][0]), max(hi, ranges[ti][1])
            ranges[ti] = (lo, hi)
        shutil.rmtree(os.path.join(work, "calib_out%d" % k))
    return {ti: (-_round_up(-lo), _round_up(hi)) for ti, (lo, hi) in ranges.items()}


def _round_up(v):
    """v (>= 0) rounded up to 8 significant bits: the twin's scales then do not depend on the
    last bits of the float kernels that calibrated it (another ISA, another build)."""
    if v <= 0:
        return 0.0
    m, e = math.frexp(v)
    return math.ldexp(math.ceil(m * 256.0) / 256.0, e)


# ------------------------------------------------------------------------ quantization
def _sym_scale(lo, hi):
    r = max(abs(lo), abs(hi))
    return _f32(r / Q16) if r > 0 else _f32(1.0 / Q16)


def _quant_int16(values, scale):
    inv = 1.0 / scale
    out = []
    for v in values:
        q = _round_away(v * inv)
        out.append(-32767 if q < -32767 else 32767 if q > 32767 else q)
    return out


def fold_constant_dequantize(m):
    """float16 constants seen through DEQUANTIZE (the converter's float16 weights) become
    float32 constants, as the converter's quantizer sees the float model; returns the count."""
    keep, n = [], 0
    for op in m.operators:
        src = m.tensors[op.inputs[0]] if op.op == "DEQUANTIZE" and op.inputs else None
        if src is not None and src.data is not None and src.dtype == T.FLOAT16:
            cnt = _count(src.shape)
            vals = struct.unpack("<%de" % cnt, src.data[:2 * cnt])
            dst = m.tensors[op.outputs[0]]
            dst.data = struct.pack("<%df" % cnt, *vals)
            n += 1
            continue
        keep.append(op)
    m.operators = keep
    return n


class Twin:
    def __init__(self, m, ranges, int16_ops):
        self.m, self.ranges, self.int16_ops = m, ranges, int16_ops
        self.ops = []
        self.qmap = {}      # float tensor -> int16 tensor
        self.const = {}     # (tensor, purpose) -> quantized constant tensor
        self.producer = {}
        for k, op in enumerate(m.operators):
            for t in op.outputs:
                self.producer[t] = k

    def _is_const(self, ti):
        return ti >= 0 and self.m.tensors[ti].data is not None

    def _scale(self, ti):
        return self.m.tensors[ti].quant["scale"][0]

    def _new(self, like, dtype, quant, name_suffix, data=None, shape=None):
        t = self.m.tensors[like]
        return self.m.add_tensor(t.name + name_suffix, dtype, list(shape or t.shape), data=data,
                                 quant=quant, shape_signature=t.shape_signature)

    def quantizable(self, op):
        if op.op not in self.int16_ops:
            return False
        m = self.m
        outs = [t for t in op.outputs if t >= 0]
        if not outs or any(m.tensors[t].dtype != T.FLOAT32 or t not in self.ranges for t in outs):
            return False
        acts = [t for t in op.inputs if t >= 0 and m.tensors[t].dtype == T.FLOAT32
                and not self._is_const(t)]
        if not acts:
            return False
        if op.op in WEIGHT_OPS:
            a, w, _, b = WEIGHT_OPS[op.op]
            if len(op.inputs) <= w or not self._is_const(op.inputs[w]):
                return False
            if m.tensors[op.inputs[w]].dtype != T.FLOAT32 or op.inputs[a] not in acts:
                return False
            if len(op.inputs) > b and op.inputs[b] >= 0 and not self._is_const(op.inputs[b]):
                return False
        if op.op == "BATCH_MATMUL" and any(self._is_const(t) for t in op.inputs):
            return False
        return True

    def act16(self, ti, scale=None):
        """The int16 tensor of float activation ti (a QUANTIZE in front when ti is float)."""
        if ti not in self.qmap:
            lo, hi = self.ranges.get(ti, (-1.0, 1.0))
            s = _sym_scale(lo, hi)
            q = self._new(ti, T.INT16, {"scale": [s], "zero_point": [0]}, "_int16")
            self.ops.append(T.Operator("QUANTIZE", [ti], [q]))
            self.qmap[ti] = q
        q = self.qmap[ti]
        if scale is not None and self._scale(q) != scale:
            key = (q, "requant", scale)
            if key not in self.const:
                r = self._new(ti, T.INT16, {"scale": [scale], "zero_point": [0]}, "_requantized")
                self.ops.append(T.Operator("QUANTIZE", [q], [r]))
                self.const[key] = r
            return self.const[key]
        return q

    def const16(self, ti, scale=None):
        key = (ti, "int16", scale)
        if key not in self.const:
            t = self.m.tensors[ti]
            vals = _floats(t)
            s = scale if scale is not None else _sym_scale(min(vals), max(vals))
            q = _quant_int16(vals, s)
            self.const[key] = self._new(ti, T.INT16, {"scale": [s], "zero_point": [0]},
                                        "_int16", data=struct.pack("<%dh" % len(q), *q))
        return self.const[key]

    def weights(self, ti, axis):
        key = (ti, "w", axis)
        if key not in self.const:
            t = self.m.tensors[ti]
            q, scales = quantize_symmetric_int8(_floats(t), t.shape, axis)
            quant = {"scale": scales, "zero_point": [0] * len(scales),
                     "quantized_dimension": axis or 0}
            self.const[key] = self._new(ti, T.INT8, quant, "_int8",
                                        data=struct.pack("<%db" % len(q), *q))
        return self.const[key]

    def bias(self, ti, in_scale, w_scales):
        key = (ti, "b", in_scale, tuple(w_scales))
        if key not in self.const:
            t = self.m.tensors[ti]
            vals = _floats(t)
            scales = [_f32(in_scale * ws) for ws in w_scales]
            q = []
            for i, v in enumerate(vals):
                s = scales[i] if len(scales) > 1 else scales[0]
                b = int(_round_away(v / s))  # clamped to int64, as the converter does
                q.append(max(-(1 << 63) + 1, min((1 << 63) - 1, b)))
            quant = {"scale": scales, "zero_point": [0] * len(scales), "quantized_dimension": 0}
            self.const[key] = self._new(ti, T.INT64, quant, "_int64",
                                        data=struct.pack("<%dq" % len(q), *q))
        return self.const[key]

    def convert(self):
        m = self.m
        qops = [self.quantizable(op) for op in m.operators]
        need_float = set(m.outputs)
        for op, q in zip(m.operators, qops):
            if not q:
                need_float.update(t for t in op.inputs if t >= 0)
        for op, q in zip(m.operators, qops):
            if not q:
                self.ops.append(op)
                continue
            self.quantize_op(op)
            for t in op.outputs:
                if t in need_float:
                    self.ops.append(T.Operator("DEQUANTIZE", [self.qmap[t]], [t]))
        m.operators = self.ops
        return sum(qops)

    def quantize_op(self, op):
        m = self.m
        name = op.op
        new_in = list(op.inputs)
        first_act = next(t for t in op.inputs if t >= 0 and m.tensors[t].dtype == T.FLOAT32
                         and not self._is_const(t))
        if name in WEIGHT_OPS:
            a, w, axis, b = WEIGHT_OPS[name]
            qa = self.act16(op.inputs[a])
            new_in[a] = qa
            new_in[w] = self.weights(op.inputs[w], axis)
            if len(op.inputs) > b and op.inputs[b] >= 0:
                new_in[b] = self.bias(op.inputs[b], self._scale(qa),
                                      m.tensors[new_in[w]].quant["scale"])
        elif name in MULTI_SAME:
            s_out = _sym_scale(*self.ranges[op.outputs[0]])
            for i, t in enumerate(op.inputs):
                if t < 0 or m.tensors[t].dtype != T.FLOAT32:
                    continue
                new_in[i] = self.const16(t, s_out) if self._is_const(t) else self.act16(t, s_out)
        else:
            for i, t in enumerate(op.inputs):
                if t < 0 or m.tensors[t].dtype != T.FLOAT32:
                    continue
                if name == "PRELU" and i == 1 and self._is_const(t):
                    new_in[i] = self.weights(t, None)  # alpha: an 8-bit weight (per tensor)
                    continue
                new_in[i] = self.const16(t) if self._is_const(t) else self.act16(t)
        for o in op.outputs:
            if o < 0:
                continue
            if name in RESTRICTED:
                s = RESTRICTED[name]
            elif name in SAME_SCALE:
                s = self._scale(self.qmap[first_act])
            elif name in MULTI_SAME:
                s = _sym_scale(*self.ranges[op.outputs[0]])
            else:
                s = _sym_scale(*self.ranges[o])
            self.qmap[o] = self._new(o, T.INT16, {"scale": [s], "zero_point": [0]}, "_int16")
        opts = dict(op.options)
        if name in ("ADD", "SUB"):
            opts["pot_scale_int16"] = False
        self.ops.append(T.Operator(name, new_in, [self.qmap.get(o, o) for o in op.outputs],
                                   opts, op.version, intermediates=op.intermediates))


def prune(m):
    """Drops the tensors no operator or model input/output names any more (the float weights
    the twin replaced), renumbering the rest; returns the count dropped."""
    used = set(m.inputs) | set(m.outputs)
    for op in m.operators:
        used.update(t for t in op.inputs + op.outputs + list(op.intermediates) if t >= 0)
    order = [i for i in range(len(m.tensors)) if i in used]
    new = {old: k for k, old in enumerate(order)}
    fix = lambda ts: [new[t] if t >= 0 else t for t in ts]  # noqa: E731
    for op in m.operators:
        op.inputs, op.outputs, op.intermediates = fix(op.inputs), fix(op.outputs), fix(op.intermediates)
    m.inputs, m.outputs = fix(m.inputs), fix(m.outputs)
    dropped = len(m.tensors) - len(order)
    m.tensors = [m.tensors[i] for i in order]
    return dropped


def make_twin(src, dst, tfcc, given=(), calib=4, int16_ops=CONVERTER_INT16, expose=False,
              keep_work=None):
    with open(src, "rb") as f:
        m = tflite_read.read(f.read())
    sub = sorted(set(op.op for op in m.operators) & {"WHILE", "IF", "CALL_ONCE", "STABLEHLO_COMPOSITE"})
    if sub:
        raise ValueError("%s: %s needs further subgraphs; tflite_read reads subgraph 0 only"
                         % (src, "/".join(sub)))
    fold_constant_dequantize(m)
    work = keep_work or tempfile.mkdtemp(prefix="i16twin_")
    try:
        sets = calibration_inputs(m, list(given), calib, work)
        ranges = calibrate(m, tfcc, sets, work)
        tw = Twin(m, ranges, int16_ops)
        n = tw.convert()
        if expose:
            extra = []
            for op in m.operators:  # in execution order, for traces
                extra += [t for t in op.outputs if t >= 0 and t not in extra and t not in m.outputs
                          and m.tensors[t].dtype in (T.INT16, T.FLOAT32)]
            m.outputs = list(m.outputs) + extra
        prune(m)
        data = T.serialize(m)
        with open(dst + ".tmp", "wb") as f:
            f.write(data)
        os.replace(dst + ".tmp", dst)
        ops = {}
        for op in m.operators:
            if any(t >= 0 and m.tensors[t].dtype == T.INT16 for t in op.outputs):
                ops[op.op] = ops.get(op.op, 0) + 1
        return n, ops, sets[0], work
    finally:
        if keep_work is None:
            pass


# ------------------------------------------------------------------------ check
def _lsb_report(m, ref_files, got_files, n_main):
    lines = []
    worst = 0
    writer = {}
    for k, op in enumerate(m.operators):
        for t in op.outputs:
            writer[t] = "op %d %s" % (k, op.op)
    for i, (rf, gf) in enumerate(zip(ref_files, got_files)):
        _, _, r = npy.load(rf)
        _, _, g = npy.load(gf)
        ti = m.outputs[i]
        scale = None
        for op in m.operators:
            if op.op == "DEQUANTIZE" and op.outputs[0] == ti:
                scale = m.tensors[op.inputs[0]].quant["scale"][0]
        q = m.tensors[ti].quant
        if scale is None and q and q.get("scale"):
            scale = q["scale"][0]
        d = max((abs(a - b) for a, b in zip(r, g)), default=0.0)
        exact = sum(1 for a, b in zip(r, g) if a == b)
        lsb = d if m.tensors[ti].dtype != T.FLOAT32 or not scale else d / scale
        worst = max(worst, lsb)
        if i < n_main or (d > 0 and len(lines) < n_main + 3):
            lines.append("out%d%s max %.4g LSB, %.2f%% exact" % (
                i, "" if i < n_main else " (%s, %s)" % (writer.get(ti), m.tensors[ti].name),
                lsb, 100.0 * exact / max(1, len(r))))
    return worst, "; ".join(lines)


def check(dst, tfcc, oracle, inputs, work, n_main):
    with open(dst, "rb") as f:
        m = tflite_read.read(f.read())
    got = _run_tfcc(tfcc, dst, inputs, os.path.join(work, "tfcc_out"))
    res = {}
    for engine in ("litert", "tfweb"):
        od = os.path.join(work, "ref_" + engine)
        os.makedirs(od, exist_ok=True)
        r = subprocess.run(["node", oracle, dst, od] + list(inputs) + ["--engine", engine,
                                                                       "--quiet"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        refs = [os.path.join(od, "output_%d.npy" % i) for i in range(len(m.outputs))]
        failed = [ln for ln in r.stdout.splitlines()  # LiteRT.js logs a failed node, exits 0
                  if "failed to prepare" in ln or "failed to invoke" in ln]
        if failed:
            res[engine] = (None, "refused: " + failed[0].strip()[:200])
            continue
        if r.returncode != 0 or not all(os.path.exists(p) for p in refs):
            tail = r.stdout.strip().splitlines()[-1:] if r.stdout.strip() else ["no output"]
            res[engine] = (None, "refused: " + tail[0][:200])
            continue
        res[engine] = _lsb_report(m, refs, got, n_main)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src", nargs="?")
    ap.add_argument("dst", nargs="?")
    ap.add_argument("--input", action="append", default=[], help=".npy per model input")
    ap.add_argument("--calib", type=int, default=4, help="calibration runs (default 4)")
    ap.add_argument("--tfcc", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "..", "build", "tools", "tfcc"))
    ap.add_argument("--extra-int16", default="", help="comma-separated operators also in int16")
    ap.add_argument("--expose", action="store_true", help="every int16 activation an output")
    ap.add_argument("--check", action="store_true", help="compare tfcc with TensorFlow Lite")
    ap.add_argument("--oracle", default="/tmp/tflite-ref/run_ref.mjs")
    ap.add_argument("--zoo", help="folder of the zoo's <arch>.tflite float models")
    ap.add_argument("--out", help="with --zoo: where <arch>.int16x8.tflite go")
    a = ap.parse_args()
    ops = set(CONVERTER_INT16)
    for o in filter(None, a.extra_int16.split(",")):
        if o not in T.BUILTIN:
            ap.error("unknown operator %s" % o)
        ops.add(o)
    jobs = []
    if a.zoo:
        for src in sorted(glob.glob(os.path.join(a.zoo, "*.tflite"))):
            base = os.path.basename(src)[:-len(".tflite")]
            if "." in base:
                continue
            given = [os.path.join(a.zoo, base + ".input_nhwc.npy")]
            jobs.append((src, os.path.join(a.out or a.zoo, base + ".int16x8.tflite"),
                         [g for g in given if os.path.exists(g)]))
    elif a.src and a.dst:
        jobs.append((a.src, a.dst, a.input))
    else:
        ap.error("give SRC DST, or --zoo DIR")
    status = 0
    for src, dst, given in jobs:
        work = tempfile.mkdtemp(prefix="i16twin_")
        try:
            with open(src, "rb") as f:
                n_out = len(tflite_read.read(f.read()).outputs)
            n, qops, first, _ = make_twin(src, dst, a.tfcc, given, a.calib, ops, a.expose, work)
            print("%s: %d operators in int16 (%s) -> %s" % (
                os.path.basename(src), n, " ".join("%s:%d" % kv for kv in sorted(qops.items())),
                dst))
            if a.check:
                for engine, (worst, text) in check(dst, a.tfcc, a.oracle, first, work, n_out).items():
                    print("  %s: %s" % (engine, text))
                    if worst is not None and worst > 0:
                        status = 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())

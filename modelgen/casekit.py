"""Helpers to describe small TFLite models for operator conformance cases:
a seeded PRNG, TFLite-convention quantization parameters, tensor specs and a
Case that turns into a tflite_schema.Model plus its random inputs."""
import argparse
import math
import os
import struct

import sparse_tensor
import tflite_schema as S

# ---------------------------------------------------------------- PRNG
class Rng:
    """splitmix64: small, deterministic on every platform."""

    def __init__(self, seed):
        self.state = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF

    def next_u64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def uniform(self, lo=0.0, hi=1.0):
        return lo + (hi - lo) * ((self.next_u64() >> 11) / float(1 << 53))

    def randint(self, lo, hi):
        """Uniform integer in [lo, hi] (both included)."""
        return lo + self.next_u64() % (hi - lo + 1)

    def normal(self):
        u1 = max(self.uniform(), 1e-12)
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * self.uniform())


def seed_of(name):
    h = 1469598103934665603
    for ch in name.encode():
        h = ((h ^ ch) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def f32(x):
    """Rounds a Python float to float32."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


# ---------------------------------------------------------------- quantization (TFLite conventions)
QRANGE = {S.UINT8: (0, 255), S.INT8: (-128, 127), S.INT16: (-32768, 32767)}
QUANT_DTYPES = (S.UINT8, S.INT8, S.INT16)


def choose_qparams(dtype, lo, hi):
    """Asymmetric (uint8/int8) or symmetric (int16, zero point 0) parameters covering
    [lo, hi], the way TFLite's converter picks them: the range is widened to include 0,
    scale = (max - min) / (qmax - qmin), zero point = round(qmin - min / scale) clamped."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi == lo:
        hi = lo + 1.0
    qmin, qmax = QRANGE[dtype]
    if dtype == S.INT16:
        return f32(max(-lo, hi) / 32767.0), 0
    scale = f32((hi - lo) / (qmax - qmin))
    zp = int(round(qmin - lo / scale))
    return scale, max(qmin, min(qmax, zp))


def round_half_away(v):
    """Rounds half away from zero (TFLite's converter's std::round)."""
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def quantize_symmetric_int8(values, shape, axis):
    """(int8 list, float32 scales) of float values in `shape`, as TFLite's converter quantizes
    weights: symmetric, narrow range [-127, 127], scale max|w| / 127 (1 for an all-zero
    channel), round half away from zero; per channel along axis (None: per tensor)."""
    n = len(values)
    if axis is None:
        groups, inner = 1, n
    else:
        groups = shape[axis]
        inner = numel(shape[axis + 1:])
    # channel of element i: (i // inner) % groups
    amax = [0.0] * groups
    for i, v in enumerate(values):
        c = (i // inner) % groups if axis is not None else 0
        a = abs(v)
        if a > amax[c]:
            amax[c] = a
    scales = [f32(a / 127.0) if a > 0 else 1.0 for a in amax]
    inv = [1.0 / s for s in scales]
    q = [0] * n
    for i, v in enumerate(values):
        c = (i // inner) % groups if axis is not None else 0
        t = round_half_away(v * inv[c])
        q[i] = -127 if t < -127 else 127 if t > 127 else t
    return q, scales


def quantize_value(x, scale, zp, dtype):
    qmin, qmax = QRANGE.get(dtype, (-(1 << 31), (1 << 31) - 1))
    q = int(math.floor(x / scale + 0.5)) + zp
    return max(qmin, min(qmax, q))


# ---------------------------------------------------------------- tensor specs
class T:
    """A tensor of a case.
    dtype: tflite type; shape; q: None, (scale, zp) or dict(scale=[..], zero_point=[..],
    quantized_dimension=d); const: flat list of values (constant tensor) or None;
    values: fixed runtime input values; lo/hi: range for random runtime values;
    sparse: with const, a dict of modelgen/sparse_tensor.py encode()'s keyword arguments (formats,
    traversal_order, block_map, block_size, index_types): the constant is written sparse."""

    def __init__(self, dtype, shape, q=None, const=None, values=None, lo=None, hi=None,
                 name=None, variable=False, sparse=None):
        self.variable = variable  # a variable (state) tensor: is_variable, zero-initialised
        self.sparse = sparse
        self.dtype, self.shape, self.q = dtype, list(shape), q
        self.const, self.values, self.lo, self.hi, self.name = const, values, lo, hi, name

    def quant(self):
        if self.q is None:
            return None
        if isinstance(self.q, dict):
            return self.q
        return {"scale": [self.q[0]], "zero_point": [self.q[1]]}

    def random_values(self, rng):
        if self.values is not None:
            return list(self.values)
        n = numel(self.shape)
        dt = self.dtype
        if dt == S.FLOAT32:
            lo = -4.0 if self.lo is None else self.lo
            hi = 4.0 if self.hi is None else self.hi
            return [f32(rng.uniform(lo, hi)) for _ in range(n)]
        if dt == S.BOOL:
            return [bool(rng.randint(0, 1)) for _ in range(n)]
        if dt in QUANT_DTYPES:
            qmin, qmax = QRANGE[dt]
            lo = qmin if self.lo is None else self.lo
            hi = qmax if self.hi is None else self.hi
            vals = [rng.randint(lo, hi) for _ in range(n)]
            # Always exercise the two ends of the range.
            if n >= 2 and self.lo is None and self.hi is None:
                vals[0], vals[-1] = qmin, qmax
            return vals
        if dt == S.FLOAT64:
            lo = -4.0 if self.lo is None else self.lo
            hi = 4.0 if self.hi is None else self.hi
            return [rng.uniform(lo, hi) for _ in range(n)]
        if dt in (S.UINT16, S.UINT32):
            lo = 0 if self.lo is None else self.lo
            hi = (1 << (16 if dt == S.UINT16 else 32)) - 1 if self.hi is None else self.hi
            return [rng.randint(lo, hi) for _ in range(n)]
        if dt in (S.INT32, S.INT64):
            lo = -10 if self.lo is None else self.lo
            hi = 10 if self.hi is None else self.hi
            return [rng.randint(lo, hi) for _ in range(n)]
        if dt == S.INT4:  # ops: run-time int4 inputs (tfcc's API: one value per byte)
            return [rng.randint(-8, 7) for _ in range(n)]
        if dt in (S.INT2, S.UINT4):  # types: one value per byte, as int4
            lo, hi = (-2, 1) if dt == S.INT2 else (0, 15)
            return [rng.randint(lo, hi) for _ in range(n)]
        if dt in (S.FLOAT8_E4M3FN, S.FLOAT8_E5M2):  # types: raw bytes
            return [rng.randint(0, 255) for _ in range(n)]
        raise ValueError("no random values for dtype %d" % dt)


OMIT = "omit"  # an omitted optional input (tensor index -1)


class Case:
    """A small model: ops is a list of (op name, [input keys], [output keys], options);
    tensors maps key -> T. Inputs/outputs of the model are the keys listed."""

    def __init__(self, name, tensors, ops, inputs, outputs, note=""):
        self.name, self.tensors, self.ops = name, tensors, ops
        self.inputs, self.outputs, self.note = inputs, outputs, note

    def tolerance(self):
        return "float" if any(self.tensors[k].dtype in (S.FLOAT32, S.FLOAT64) for k in self.outputs) else "exact"

    def build(self):
        """Returns (model bytes, [(dtype name, shape, values)] for each input)."""
        m = S.Model(description="tfcc conformance case " + self.name)
        rng = Rng(seed_of(self.name))
        index = {}
        for key, t in self.tensors.items():
            const, sparsity = t.const, None
            if const is not None and getattr(t, "sparse", None):
                const, sparsity = sparse_tensor.encode(t.shape, const, **t.sparse)
            data = S.pack(t.dtype, const) if const is not None else None
            index[key] = m.add_tensor(t.name or key, t.dtype, t.shape, data=data, quant=t.quant(),
                                      is_variable=t.variable, sparsity=sparsity)
        for spec in self.ops:  # (op, ins, outs, opts[, intermediates])
            op, ins, outs, opts = spec[:4]
            inter = [index[k] for k in spec[4]] if len(spec) > 4 else None
            in_idx, out_idx = [-1 if k == OMIT else index[k] for k in ins], [index[k] for k in outs]
            if op.startswith("CUSTOM:"):  # "CUSTOM:<custom_code>", opts = custom_options bytes
                m.add_op("CUSTOM", in_idx, out_idx, custom_code=op[7:], custom_options=opts or None)
            else:  # opts may name the operator version as "_version" (ops: version cases)
                version = opts.get("_version") if isinstance(opts, dict) else None
                if version is not None:
                    opts = {k: v for k, v in opts.items() if k != "_version"}
                m.add_op(op, in_idx, out_idx, opts, intermediates=inter, version=version)
        extend = getattr(self, "extend", None)
        if extend:  # more subgraphs and operators: extend(model, key -> tensor index)
            extend(m, index)
        m.inputs = [index[k] for k in self.inputs]
        m.outputs = [index[k] for k in self.outputs]
        feeds = []
        for k in self.inputs:
            t = self.tensors[k]
            feeds.append((S.DTYPE_NAME[t.dtype], t.shape, t.random_values(rng)))
        return S.serialize(m), feeds


def single(name, op, ins, outs, options=None, note=""):
    """A one-operator case. ins: list of T or OMIT; outs: list of T. Inputs without
    const become model inputs in order."""
    tensors, in_keys, model_inputs = {}, [], []
    for i, t in enumerate(ins):
        if t is OMIT:
            in_keys.append(OMIT)
            continue
        key = t.name or "in%d" % i
        tensors[key] = t
        in_keys.append(key)
        if t.const is None and not t.variable:
            model_inputs.append(key)
    out_keys = []
    for i, t in enumerate(outs):
        key = t.name or "out%d" % i
        tensors[key] = t
        out_keys.append(key)
    return Case(name, tensors, [(op, in_keys, out_keys, options or {})], model_inputs, out_keys, note)


def uniform_f32(rng, n, bound):
    """n float32 values drawn uniformly from [-bound, bound) (weights of generated models)."""
    return [f32(rng.uniform(-bound, bound)) for _ in range(n)]


def write_models(out, cases, keep_existing=False):
    """Writes each case's model as OUT/<name>.tflite (OUT made if missing) and prints
    "wrote PATH"; keep_existing: a file already there is left as it is. Returns the paths."""
    os.makedirs(out, exist_ok=True)
    paths = []
    for case in cases:
        path = os.path.join(out, case.name + ".tflite")
        paths.append(path)
        if keep_existing and os.path.exists(path):
            continue
        data, _ = case.build()
        with open(path, "wb") as f:
            f.write(data)
        print("wrote", path)
    return paths



def write_models_main(cases):
    """The command line of a script that writes its cases' models: --out DIR (write_models)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    write_models(ap.parse_args().out, cases())


# ---------------------------------------------------------------- shape helpers
def broadcast(a, b):
    ra, rb = list(a), list(b)
    n = max(len(ra), len(rb))
    ra = [1] * (n - len(ra)) + ra
    rb = [1] * (n - len(rb)) + rb
    out = []
    for x, y in zip(ra, rb):
        if x != y and 1 not in (x, y):
            raise ValueError("shapes %s and %s do not broadcast" % (a, b))
        out.append(max(x, y))
    return out


def conv_out(size, k, stride, dilation, padding):
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    return (size - eff + stride) // stride

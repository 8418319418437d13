"""Conformance cases of the tensor types int2, uint4 and float8 (types work): the operator versions
of the newest standard resolver that use them.

- int2 / uint4 (references from LiteRT.js, which runs them): QUANTIZE v5 (float32 -> uint4), CAST v8
  (float32 <-> int2 / uint4), DEQUANTIZE v7 (int2) / v8 (uint4), constant and run-time,
  EMBEDDING_LOOKUP v5 (int2 table), FULLY_CONNECTED v14 (int2 weights: int8, int16 and hybrid),
  and QUANTIZE v6 (uint8 -> int16). Run-time packed tensors are seen through float32 (the oracle
  reads no int2 / uint4 tensors).
- float8 e4m3fn / e5m2: TFLite runs these only in a build with TFLITE_ENABLE_EXTRA_REFERENCE_KERNELS,
  which LiteRT.js is not (it refuses every float8 model), so the references are computed here:
  CAST v9 and DEQUANTIZE v9 from the format's definition (float8_ref below, round to nearest even
  as ml_dtypes' ConvertFrom), and the copying operators (BROADCAST_TO v4, CONCATENATION v7, FILL v5,
  GATHER v8, GATHER_ND v6, PACK v5, PAD / PADV2 v6, REVERSE_V2 v4, SPLIT v5, SPLIT_V v3, UNPACK v6)
  as TensorFlow Lite's own float32 operator (the oracle) run on the float8-rounded values: a copy of
  float8 bytes is the copy of their values.
Called from opsc_cases.cases() with its add()."""
import math
import os
import shutil
import struct
import subprocess
import tempfile

import npy
import tflite_schema as S
from casekit import Case, Rng, T, f32, numel, seed_of, single

F32, I32, I8, I16, U8 = S.FLOAT32, S.INT32, S.INT8, S.INT16, S.UINT8
I2, U4, E4M3, E5M2 = S.INT2, S.UINT4, S.FLOAT8_E4M3FN, S.FLOAT8_E5M2
ORACLE = os.environ.get("TFCC_ORACLE", "/tmp/tflite-ref/run_ref.mjs")


# ---------------------------------------------------------------- float8, from the definition
def f8_decode(b, e5m2):
    """The value of a float8 byte (float64; exact)."""
    mbits, bias = (2, 15) if e5m2 else (3, 7)
    sign = -1.0 if b & 0x80 else 1.0
    e, m = (b & 0x7F) >> mbits, b & ((1 << mbits) - 1)
    if e5m2 and e == 31:
        return sign * math.inf if m == 0 else math.copysign(math.nan, sign)
    if not e5m2 and (b & 0x7F) == 0x7F:
        return math.copysign(math.nan, sign)
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - mbits)
    return sign * (1 + m / (1 << mbits)) * 2.0 ** (e - bias)


def f8_encode(x, e5m2):
    """A float32 value rounded to the nearest float8 byte, ties to even (ml_dtypes' ConvertFrom
    without saturation): past the largest finite value -> inf (e5m2) / NaN (e4m3fn)."""
    x = f32(x)
    neg = math.copysign(1.0, x) < 0
    s = 0x80 if neg else 0
    if math.isnan(x):
        return s | (0x7E if e5m2 else 0x7F)
    if math.isinf(x):
        return s | (0x7C if e5m2 else 0x7F)
    a = abs(x)
    best, best_err = None, None
    for b in range(0x7C if e5m2 else 0x7F):  # the finite non-negative encodings, in value order
        err = abs(f8_decode(b, e5m2) - a)
        if best is None or err < best_err or (err == best_err and b % 2 == 0):
            best, best_err = b, err
    top = 0x7B if e5m2 else 0x7E
    if best == top and a > f8_decode(top, e5m2):
        # past the largest finite value: round to nearest even against the value one step above
        # it (not encodable); rounding there overflows to inf / NaN
        mid = f8_decode(top, e5m2) + (f8_decode(top, e5m2) - f8_decode(top - 1, e5m2)) / 2
        if a > mid or (a == mid and top % 2 == 1):
            return s | (0x7C if e5m2 else 0x7F)
    return s | best


def f8_round(x, e5m2):
    return f8_decode(f8_encode(x, e5m2), e5m2)


def _to_f32(v):
    return f32(v) if not math.isnan(v) else v


# ---------------------------------------------------------------- int2 / uint4
def _const_plus_x(name, c, ops, out_shape):
    """A constant packed tensor c through ops (each (op, key, ins, out T, options); ins may name
    "c"), then ADD with a float32 input of zeros: LiteRT.js's XNNPACK setup fails on a model with
    no run-time input (docs/operators.md)."""
    tensors = {"c": c, "x": T(F32, out_shape, values=[0.0] * numel(out_shape)), "y": T(F32, out_shape)}
    chain, last = [], None
    for op, key, ins, out, opts in ops:
        tensors[key] = out
        chain.append((op, ins, [key], opts))
        last = key
    chain.append(("ADD", [last, "x"], ["y"], {}))
    return Case(name, tensors, chain, ["x"], ["y"])


def _packed(rng, n, dt):
    lo, hi = (-2, 1) if dt == I2 else (0, 15)
    v = [rng.randint(lo, hi) for _ in range(n)]
    v[0], v[-1] = lo, hi
    return v


def packed_cases(add):
    rng = Rng(seed_of("types_packed"))
    # QUANTIZE v5 float32 -> uint4 (round half away from zero, clamp to [0, 15]) -> DEQUANTIZE v8
    vals = [f32(rng.uniform(-1.5, 5.0)) for _ in range(30)]
    vals[:8] = [-9.0, 9.0, 0.125, -0.125, 0.375, 0.625, 3.125, f32(-0.5)]
    for name, q, v in (("quantize_f32_u4_v5", (f32(0.25), 3), vals),
                       ("quantize_f32_u4_zp0_v5", (f32(0.3), 0), [abs(x) for x in vals]),
                       ("quantize_f32_u4_zp15_v5", (f32(0.2), 15), [-abs(x) for x in vals])):
        t = {"x": T(F32, [5, 6], values=v), "q": T(U4, [5, 6], q=q), "y": T(F32, [5, 6])}
        add(Case(name, t, [("QUANTIZE", ["x"], ["q"], {"_version": 5}),
                           ("DEQUANTIZE", ["q"], ["y"], {"_version": 8})], ["x"], ["y"]))
    # CAST v8: float32 -> int2 / uint4 (clamped, then truncated) -> float32
    cv = [-9.0, -2.5, -2.0, -1.75, -1.0, -0.5, -0.0, 0.0, 0.25, 0.99, 1.0, 1.5, 2.0, 7.9, 14.5, 15.0,
          16.0, 300.0, -300.0, 3.0e9]
    cv += [f32(rng.uniform(-4.0, 18.0)) for _ in range(10)]
    for tag, dt in (("i2", I2), ("u4", U4)):
        t = {"x": T(F32, [5, 6], values=[f32(v) for v in cv]), "m": T(dt, [5, 6]), "y": T(F32, [5, 6])}
        add(Case("cast_f32_%s_f32_v8" % tag, t, [("CAST", ["x"], ["m"], {"_version": 8}),
                                                  ("CAST", ["m"], ["y"], {"_version": 8})], ["x"], ["y"]))
        # a constant int2 / uint4 tensor (odd element count: a partly used last byte) cast to float32
        c = T(dt, [3, 7], const=_packed(rng, 21, dt))
        add(_const_plus_x("cast_%s_const_f32_v8" % tag, c,
                          [("CAST", "d", ["c"], T(F32, [3, 7]), {"_version": 8})], [3, 7]))
    # DEQUANTIZE v7 (int2) / v8 (uint4): constants per tensor and per channel, and run-time tensors
    for tag, dt, ver, zp in (("i2", I2, 7, -1), ("u4", U4, 8, 8)):
        c = T(dt, [3, 7], q=(f32(0.25), zp), const=_packed(rng, 21, dt))
        add(_const_plus_x("dequantize_%s_const_v%d" % (tag, ver), c,
                          [("DEQUANTIZE", "d", ["c"], T(F32, [3, 7]), {"_version": ver})], [3, 7]))
        q = {"scale": [f32(0.5), f32(0.125), f32(0.75)], "zero_point": [0, zp, 1 if dt == I2 else 3],
             "quantized_dimension": 0}
        c = T(dt, [3, 5], q=q, const=_packed(rng, 15, dt))
        add(_const_plus_x("dequantize_%s_const_per_channel_v%d" % (tag, ver), c,
                          [("DEQUANTIZE", "d", ["c"], T(F32, [3, 5]), {"_version": ver})], [3, 5]))
        t = {"x": T(F32, [5, 6], values=[f32(v) for v in cv]), "m": T(dt, [5, 6], q=(f32(0.5), zp)),
             "y": T(F32, [5, 6])}
        add(Case("dequantize_%s_runtime_v%d" % (tag, ver), t,
                 [("CAST", ["x"], ["m"], {"_version": 8}), ("DEQUANTIZE", ["m"], ["y"], {"_version": ver})],
                 ["x"], ["y"]))
    # EMBEDDING_LOOKUP v5: int2 table (rows of 8 values: TFLite's Unpack2Bit starts each row at a
    # byte), one scale per row and one per tensor; zero points 0
    for name, ch in (("embedding_lookup_w2_per_row_v5", 5), ("embedding_lookup_w2_v5", 1)):
        q = {"scale": [f32(rng.uniform(0.1, 1.0)) for _ in range(ch)], "zero_point": [0] * ch,
             "quantized_dimension": 0}
        tab = T(I2, [5, 8], q=q, const=_packed(rng, 40, I2))
        add(single(name, "EMBEDDING_LOOKUP", [T(I32, [4], values=[2, 0, 4, 2]), tab], [T(F32, [4, 8])],
                   {"_version": 5}))
    # FULLY_CONNECTED v14: int2 weights (zero point 0), int8 per channel, int16, and hybrid
    from version_cases import qact, qbias
    for tag, d, bdt, pc in (("i8_w2", I8, I32, True), ("i16_w2", I16, S.INT64, False)):
        name = "fully_connected_%s_v14" % tag
        r = Rng(seed_of(name))
        x = qact(d, [3, 9], -2.0, 2.0)
        ch = 5 if pc else 1
        ws = [f32(0.5 / 2.0 * r.uniform(0.3, 1.0)) for _ in range(ch)]
        w = T(I2, [5, 9], q={"scale": ws, "zero_point": [0] * ch, "quantized_dimension": 0},
              const=_packed(r, 45, I2))
        b = qbias(r, 5, x.q[0], ws, bdt)
        add(single(name, "FULLY_CONNECTED", [x, w, b], [qact(d, [3, 5], -3.0, 3.0)], {"_version": 14}))
    name = "fully_connected_hybrid_w2_v14"
    r = Rng(seed_of(name))
    ws = [f32(r.uniform(0.1, 0.4)) for _ in range(4)]
    w = T(I2, [4, 8], q={"scale": ws, "zero_point": [0] * 4, "quantized_dimension": 0}, const=_packed(r, 32, I2))
    add(single(name, "FULLY_CONNECTED", [T(F32, [2, 8], lo=-2.0, hi=2.0), w,
                                         T(F32, [4], const=[f32(r.uniform(-0.5, 0.5)) for _ in range(4)])],
               [T(F32, [2, 4])], {"_version": 14}))
    # QUANTIZE v6: uint8 -> int16 (requantization)
    add(single("quantize_u8_i16_v6", "QUANTIZE", [T(U8, [4, 6], q=(f32(0.05), 131))],
               [T(I16, [4, 6], q=(f32(6.0 / 32767), 0))], {"_version": 6}))


# ---------------------------------------------------------------- float8
def _f8_values(rng, n, e5m2):
    """Values that exercise rounding: exact ones, ties, subnormals, overflow, NaN, infinities."""
    big = 57344.0 if e5m2 else 448.0
    special = [0.0, -0.0, 1.0, -1.5, 1.0625, 1.1875, 3.0, big, -big, big * 1.06, big * 1.2,
               2.0 ** (-16 if e5m2 else -9), 2.0 ** (-17 if e5m2 else -10), 3 * 2.0 ** (-17 if e5m2 else -10),
               1e-30, math.inf, -math.inf, math.nan, 0.3, -7.1]
    v = special + [rng.uniform(-big / 8, big / 8) for _ in range(max(0, n - len(special)))]
    return [_to_f32(x) for x in v[:n]]


def _fmt(e5m2):
    return (E5M2, "e5m2") if e5m2 else (E4M3, "e4m3")


def float8_cast_cases(add):
    rng = Rng(seed_of("types_float8"))
    for e5m2 in (False, True):
        f8, tag = _fmt(e5m2)
        vals = _f8_values(rng, 30, e5m2)
        # float32 -> float8 -> float32 (CAST v9 both ways)
        t = {"x": T(F32, [5, 6], values=vals), "m": T(f8, [5, 6]), "y": T(F32, [5, 6])}
        c = Case("cast_f32_f8%s_f32_v9" % tag, t, [("CAST", ["x"], ["m"], {"_version": 9}),
                                                   ("CAST", ["m"], ["y"], {"_version": 9})], ["x"], ["y"])
        c.reference = lambda case, feeds, e=e5m2: [[_to_f32(f8_round(v, e)) for v in feeds[0][2]]]
        add(c)
        # DEQUANTIZE v9 of a run-time float8 tensor (scale ignored)
        t = {"x": T(F32, [5, 6], values=vals), "m": T(f8, [5, 6], q=(f32(0.5), 0)), "y": T(F32, [5, 6])}
        c = Case("dequantize_f8%s_runtime_v9" % tag, t, [("CAST", ["x"], ["m"], {"_version": 9}),
                                                         ("DEQUANTIZE", ["m"], ["y"], {"_version": 9})],
                 ["x"], ["y"])
        c.reference = lambda case, feeds, e=e5m2: [[_to_f32(f8_round(v, e)) for v in feeds[0][2]]]
        add(c)
        # every byte of the format as a constant: DEQUANTIZE v9, and CAST v9 to float32 / float16 /
        # int32 / uint8 (float -> integer truncates; NaN / inf excluded there: C++ leaves them undefined)
        allb = list(range(256))
        c = single("dequantize_f8%s_const_all_v9" % tag, "DEQUANTIZE", [T(f8, [16, 16], const=allb)],
                   [T(F32, [16, 16])], {"_version": 9})
        c.reference = lambda case, feeds, e=e5m2: [[_to_f32(f8_decode(b, e)) for b in range(256)]]
        add(c)
        c = single("cast_f8%s_const_f32_v9" % tag, "CAST", [T(f8, [16, 16], const=allb)], [T(F32, [16, 16])],
                   {"_version": 9})
        c.reference = lambda case, feeds, e=e5m2: [[_to_f32(f8_decode(b, e)) for b in range(256)]]
        add(c)
        fin = [b for b in allb if abs(f8_decode(b, e5m2)) < 100.0]  # finite, in int32 / uint8 range
        fin = fin[:96]
        c = single("cast_f8%s_const_i32_v9" % tag, "CAST", [T(f8, [len(fin)], const=fin)], [T(I32, [len(fin)])],
                   {"_version": 9})
        c.reference = lambda case, feeds, e=e5m2, f=fin: [[int(f8_decode(b, e)) for b in f]]
        add(c)
        c = single("cast_f8%s_const_f16_v9" % tag, "CAST", [T(f8, [16, 16], const=allb)],
                   [T(S.FLOAT16, [16, 16])], {"_version": 9})
        # exact in half; NaN keeps its sign (float8 -> float -> Eigen::half)
        c.reference = lambda case, feeds, e=e5m2: [[f8_decode(b, e) if not math.isnan(f8_decode(b, e))
                                                   else math.copysign(math.nan, -1.0 if b & 0x80 else 1.0)
                                                   for b in range(256)]]
        add(c)
        # int32 -> float8 -> float32
        iv = [0, 1, -1, 7, 17, 19, 100, -250, 448, 449, 464, 465, 480, 1000, 57344, 61440, 65536, -3, 33, 35]
        t = {"x": T(I32, [20], values=iv), "m": T(f8, [20]), "y": T(F32, [20])}
        c = Case("cast_i32_f8%s_f32_v9" % tag, t, [("CAST", ["x"], ["m"], {"_version": 9}),
                                                   ("CAST", ["m"], ["y"], {"_version": 9})], ["x"], ["y"])
        c.reference = lambda case, feeds, e=e5m2: [[_to_f32(f8_round(float(v), e)) for v in feeds[0][2]]]
        add(c)
    # e4m3fn -> e5m2 and back (through float32)
    allb = [b for b in range(256)]
    t = {"c": T(E4M3, [256], const=allb), "m": T(E5M2, [256]), "y": T(F32, [256])}
    c = Case("cast_f8e4m3_f8e5m2_v9", t, [("CAST", ["c"], ["m"], {"_version": 9}),
                                          ("CAST", ["m"], ["y"], {"_version": 9})], [], ["y"])
    c.reference = lambda case, feeds: [[_to_f32(f8_round(f8_decode(b, False), True)) for b in range(256)]]
    add(c)


def _run_oracle(case, feeds):
    """Runs case (a float32 twin) in TensorFlow Lite; returns its outputs (flat lists)."""
    model, _ = case.build()
    tmp = tempfile.mkdtemp(prefix="tfcc_f8twin_")
    try:
        mpath = os.path.join(tmp, "twin.tflite")
        with open(mpath, "wb") as f:
            f.write(model)
        paths = []
        for i, (dt, shape, vals) in enumerate(feeds):
            p = os.path.join(tmp, "in%d.npy" % i)
            npy.save(p, dt, shape, vals)
            paths.append(p)
        out = os.path.join(tmp, "out")
        r = subprocess.run(["node", ORACLE, mpath, out] + paths + ["--engine", "litert", "--quiet"],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise RuntimeError("float32 twin of %s: %s" % (case.name, r.stderr[-300:]))
        return [npy.load(os.path.join(out, "output_%d.npy" % i))[2] for i in range(len(case.outputs))]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _f8_copy(add, name, op, ins, outs, opts, e5m2):
    """A float8 copying operator: its float8 data inputs come from float32 model inputs through
    CAST v9, its outputs go back to float32 through CAST v9. ins: ("d", shape) for a data input,
    ("s", value) for a constant float8 scalar, or a constant T (indices, paddings, axes); outs:
    output shapes. The reference is TensorFlow Lite's float32 operator on the float8-rounded
    inputs (its float32 twin)."""
    f8, tag = _fmt(e5m2)
    rng = Rng(seed_of(name))
    tensors, op_in, inputs, twin_t, twin_in = {}, [], [], {}, []
    chain = []
    for i, spec in enumerate(ins):
        if isinstance(spec, T):
            key = "k%d" % i
            tensors[key] = twin_t[key] = spec
            op_in.append(key)
            twin_in.append(key)
        elif spec[0] == "d":
            shape = spec[1]
            vals = [_to_f32(v) for v in _f8_values(rng, numel(shape), e5m2)]
            # no NaN into the twin's float32 operator: the copies keep NaN, but LiteRT's float32
            # kernels may not (XNNPACK canonicalises); inf and -0 stay
            vals = [v if not math.isnan(v) else 2.5 for v in vals]
            rng_vals = vals[::-1] if i % 2 else vals
            xk, mk = "x%d" % i, "m%d" % i
            tensors[xk] = T(F32, shape, values=rng_vals)
            tensors[mk] = T(f8, shape)
            chain.append(("CAST", [xk], [mk], {"_version": 9}))
            inputs.append(xk)
            op_in.append(mk)
            twin_t[xk] = T(F32, shape, values=rng_vals)
            twin_in.append(xk)
        else:  # a constant float8 scalar
            key = "s%d" % i
            b = f8_encode(spec[1], e5m2)
            tensors[key] = T(f8, [], const=[b])
            twin_t[key] = T(F32, [], const=[_to_f32(f8_decode(b, e5m2))])
            op_in.append(key)
            twin_in.append(key)
    outputs, op_out, twin_out = [], [], []
    for j, shape in enumerate(outs):
        ok, yk = "o%d" % j, "y%d" % j
        tensors[ok] = T(f8, shape)
        tensors[yk] = T(F32, shape)
        op_out.append(ok)
        outputs.append(yk)
        twin_t[yk] = T(F32, shape)
        twin_out.append(yk)
    ver = dict(opts)
    chain.append((op, op_in, op_out, ver))
    for ok, yk in zip(op_out, outputs):
        chain.append(("CAST", [ok], [yk], {"_version": 9}))
    case = Case(name, tensors, chain, inputs, outputs)
    twin_opts = {k: v for k, v in opts.items() if k != "_version"}
    twin = Case(name + "_twin", twin_t, [(op, twin_in, twin_out, twin_opts)], inputs, twin_out)

    def reference(c, feeds, twin=twin, e=e5m2):
        rounded = [(dt, shape, [_to_f32(f8_round(v, e)) for v in vals]) for dt, shape, vals in feeds]
        return _run_oracle(twin, rounded)
    case.reference = reference
    add(case)


def float8_copy_cases(add):
    for e5m2 in (False, True):
        _, tag = _fmt(e5m2)

        def c(name, op, ins, outs, opts):
            _f8_copy(add, "%s_f8%s" % (name, tag), op, ins, outs, opts, e5m2)
        c("broadcast_to", "BROADCAST_TO", [("d", [3, 1]), T(I32, [3], const=[2, 3, 4])], [[2, 3, 4]], {"_version": 4})
        c("concatenation", "CONCATENATION", [("d", [2, 3]), ("d", [2, 2])], [[2, 5]], {"axis": 1, "_version": 7})
        c("fill", "FILL", [T(I32, [2], const=[2, 3]), ("s", -1.75)], [[2, 3]], {"_version": 5})
        c("gather", "GATHER", [("d", [4, 3]), T(I32, [3], const=[3, 0, 3])], [[3, 3]], {"axis": 0, "_version": 8})
        c("gather_nd", "GATHER_ND", [("d", [3, 4]), T(I32, [2, 2], const=[2, 1, 0, 3])], [[2]], {"_version": 6})
        c("pack", "PACK", [("d", [2, 3]), ("d", [2, 3])], [[2, 2, 3]], {"values_count": 2, "axis": 1, "_version": 5})
        c("pad", "PAD", [("d", [2, 3]), T(I32, [2, 2], const=[1, 0, 2, 1])], [[3, 6]], {"_version": 6})
        c("padv2", "PADV2", [("d", [2, 3]), T(I32, [2, 2], const=[0, 1, 1, 1]), ("s", 3.0)], [[3, 5]],
          {"_version": 6})
        c("reverse_v2", "REVERSE_V2", [("d", [3, 4]), T(I32, [1], const=[1])], [[3, 4]], {"_version": 4})
        c("split", "SPLIT", [T(I32, [], const=[1]), ("d", [2, 6])], [[2, 3], [2, 3]], {"num_splits": 2, "_version": 5})
        c("split_v", "SPLIT_V", [("d", [2, 5]), T(I32, [2], const=[2, -1]), T(I32, [], const=[1])],
          [[2, 2], [2, 3]], {"num_splits": 2, "_version": 3})
        c("unpack", "UNPACK", [("d", [3, 2])], [[3], [3]], {"num": 2, "axis": 1, "_version": 6})


def softmax_f16_cases(add):
    """SOFTMAX v4: float16 (reference Softmax<half>: float32 exp and sum, half outputs)."""
    rng = Rng(seed_of("softmax_f16"))

    def h(v):
        return struct.unpack("<e", struct.pack("<e", v))[0]
    F16 = S.FLOAT16
    x = [h(rng.uniform(-6.0, 6.0)) for _ in range(40)]
    x[:4] = [h(11.0), h(-30.0), 0.0, h(11.0)]
    add(single("softmax_f16_v4", "SOFTMAX", [T(F16, [4, 10], values=x)], [T(F16, [4, 10])],
               {"beta": 1.0, "_version": 4}))
    add(single("softmax_f16_beta_v4", "SOFTMAX", [T(F16, [2, 4, 5], values=x)], [T(F16, [2, 4, 5])],
               {"beta": 0.37, "_version": 4}))
    add(single("softmax_f16_wide_v4", "SOFTMAX", [T(F16, [1, 40], values=[v * 3 for v in x])], [T(F16, [1, 40])],
               {"beta": 1.0, "_version": 4}))


def gelu_f16_cases(add):
    """GELU v3: float16, both settings. LiteRT's default build hands it to XNNPACK (float32
    rational interpolant, one rounding to half); the inputs sweep the finite halves (every 29th
    bit pattern, both signs: subnormals, the interpolant's clamp near 5.1, 65504) plus values
    whose result lies near a rounding tie of the exact function."""
    F16 = S.FLOAT16
    vals = []
    for bits in list(range(0, 0x7C00, 29)) + [0x7BFF]:
        v = struct.unpack("<e", struct.pack("<H", bits))[0]
        vals += [v, -v]
    vals += [-1.4853515625, -2.38671875, 0.09283447265625, 0.001338958740234375, 5.960464477539063e-08]
    for approx in (False, True):
        add(single("gelu_f16%s_v3" % ("_approximate" if approx else ""), "GELU",
                   [T(F16, [len(vals)], values=vals)], [T(F16, [len(vals)])],
                   {"approximate": approx, "_version": 3}))


def cases(add):
    packed_cases(add)
    softmax_f16_cases(add)
    gelu_f16_cases(add)
    float8_cast_cases(add)
    float8_copy_cases(add)

#!/usr/bin/python3
"""Runs every .tflite in a folder through TensorFlow Lite (the tflite-ref oracle, LiteRT.js falling
back to the classic interpreter) and through `tfcc run`, on the same seeded random inputs, and
compares the outputs with the tolerances of ../shared/models/README.md:

  float32 / float16 outputs  |tfcc - ref| <= 1e-3 + 1e-3 |ref|
  int8 / uint8 / int16       |tfcc - ref| <= 1 quantized unit (exact counted separately)
  int32 / int64              equal on >= 99.5% of elements (ARG_MAX ties); bool exact

Usage (Debian's Python, which has NumPy):
  /usr/bin/python3 scripts/sweep_models.py MODELS_DIR [--tfcc build/tools/tfcc]
      [--oracle /tmp/tflite-ref/run_ref.mjs] [--work /tmp/sweep/work] [--sources FILE]
      [--only NAME ...] [--timeout 300] [--markdown OUT.md] [--json OUT.json]
      [--custom-ops build/examples/mediapipe_ops/libtfcc_mediapipe_ops.so]

--sources: lines "<model name> <repository> <path>" to name each model's origin in the table.
--oracle: run_ref.mjs (run with node), or a .py file with its command line and outputs (run with
this Python; tests/cli/sweep_fake_oracle.py, which checks this script's verdicts in ctest).
Inputs: float in [-1, 1) (images and audio alike), integers over the dtype's range (int32 / int64:
0..9, token ids and indices), bool random; shapes from the file (a -1 in shape_signature takes the
stored shape); an int32 graph input that is a TRANSPOSE_CONV's output_shape gets the op's static
output shape. String inputs are not made (the model is reported "no inputs"). The reference is LiteRT.js, or
the classic interpreter (tfweb) where tfcc reports a dynamic output or an output is a graph input
(LiteRT.js reads neither back) or LiteRT.js fails (the classic interpreter's own XNNPACK
delegate may fail first: its ERROR lines and "Restored original execution plan" do not count as a
refusal when the outputs are written); where the classic interpreter, asked first, refuses (an
operator version newer than its release), LiteRT.js is asked; a model that differs from tfweb is also
compared with LiteRT.js on a copy whose outputs are declared with tfcc's shapes, and one that
differs from LiteRT.js with tfweb (a match there counts as a match, the other engine's result
is kept in the verdict); where LiteRT.js hands back an output in the shape the file declares
and tfcc computes another, LiteRT.js also runs the copy with tfcc's shapes written; a row still
differing from LiteRT.js whose model has a hybrid DEPTHWISE_CONV_2D with one weight scale for
all channels (TFLite's kernel indexes that scale per channel, past the array) is also compared
with LiteRT.js on a copy whose scale is written once per channel, and one whose output a RESHAPE
writes from a computed shape (dynamic in TFLite; LiteRT.js does not read it back) on a copy
with that shape written as a constant. Prints one line per
model and, at the end, the table and the counts (runs in TFLite, runs in tfcc, matches).
Standard library and NumPy only."""
import argparse
import glob
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "modelgen"))
from tflite_read import _Buf as Buf  # noqa: E402  (modelgen's FlatBuffer table reader)

DTYPES = {0: "float32", 1: "float16", 2: "int32", 3: "uint8", 4: "int64", 5: "string", 6: "bool",
          7: "int16", 8: "complex64", 9: "int8", 10: "float64", 12: "uint64", 15: "uint32",
          16: "uint16", 17: "int4", 18: "bfloat16"}


def io_of(path):
    """[(name, dtype name, shape)] of subgraph 0's inputs, the number of its outputs, and whether
    an output is also an input (LiteRT.js hands back other memory for such an output)."""
    with open(path, "rb") as fh:
        b = Buf(fh.read())
    sg = b.tables(b.table(b.u32(0)), 2)[0]
    tensors = b.tables(sg, 0)
    inputs = []
    for i in b.scalars(sg, 1, "i") or []:
        t = tensors[i]
        ttype = b.scalar(t, 1, "b")
        inputs.append((b.string(t, 3) or "", DTYPES.get(ttype, "type%d" % ttype),
                       b.scalars(t, 0, "i") or []))
    outs = b.scalars(sg, 2, "i") or []
    passthrough = bool(set(outs) & set(b.scalars(sg, 1, "i") or []))
    return inputs, len(outs), passthrough


def shape_inputs(path):
    """{subgraph-0 input position: int32 array} for inputs that are a TRANSPOSE_CONV's
    output_shape (operand 0) whose output tensor has a static 4-D shape: random values there
    ask for an output that disagrees with the input's batch and the filter's channels, which
    TensorFlow Lite does not check (its MatchingDim is a debug-only check) and tfcc refuses."""
    with open(path, "rb") as fh:
        b = Buf(fh.read())
    model = b.table(b.u32(0))
    codes = []
    for oc in b.tables(model, 1) or []:
        codes.append(max(b.scalar(oc, 0, "b"), b.scalar(oc, 3, "i")))
    sg = b.tables(model, 2)[0]
    tensors = b.tables(sg, 0)
    pos = {t: k for k, t in enumerate(b.scalars(sg, 1, "i") or [])}
    fill = {}
    for op in b.tables(sg, 3) or []:
        ins, outs = b.scalars(op, 1, "i") or [], b.scalars(op, 2, "i") or []
        if codes[b.scalar(op, 0, "I")] != 67 or not ins or not outs or ins[0] not in pos:
            continue
        shape = b.scalars(tensors[outs[0]], 0, "i") or []
        if len(shape) == 4 and min(shape) > 0:
            fill[pos[ins[0]]] = np.array(shape, dtype=np.int32)
    return fill


def make_input(rng, dtype, shape):
    # a dimension the file declares 0 is an empty tensor, which TFLite takes (LiteRT's
    # tools/optimize testdata test_min_runtime: ADD of a float32 [0] and a [1]); a negative
    # one is unknown, fed as 1
    shape = [1 if d < 0 else d for d in shape]
    if dtype in ("float32", "float16", "float64"):
        return rng.uniform(-1.0, 1.0, size=shape).astype(dtype)
    if dtype == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype in ("int32", "int64"):
        return rng.integers(0, 10, size=shape).astype(dtype)
    if dtype in ("int8", "uint8", "int16", "uint16"):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max + 1, size=shape).astype(dtype)
    return None


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return 124, "timed out after %d s" % timeout


def oracle_cmd(args):
    """run_ref.mjs runs under node; an oracle written in Python (a .py file with run_ref.mjs's
    command line, as tests/cli/sweep_fake_oracle.py) under this interpreter."""
    if args.oracle.endswith(".py"):
        return [sys.executable, args.oracle]
    return ["node", args.oracle]


def oracle_error(log):
    keep = [ln.strip() for ln in log.splitlines()
            if ("ERROR" in ln or "Error" in ln or "failed" in ln.lower()) and "WebGPU" not in ln
            and "npu_registry" not in ln and "NPU" not in ln and "model_load.cc" not in ln
            and not ln.startswith("{")]
    return keep[0][:160] if keep else "no outputs written"


def compare(ref, got):
    """(ok, text) for one output."""
    if ref.shape != got.shape and ref.size == got.size:
        got = got.reshape(ref.shape)
    if ref.shape != got.shape:
        return False, "shape %s vs TFLite %s" % (list(got.shape), list(ref.shape))
    if ref.dtype != got.dtype:
        return False, "dtype %s vs TFLite %s" % (got.dtype, ref.dtype)
    if ref.size == 0:
        return True, "empty"
    k = ref.dtype.kind
    if k == "f":
        r, g = ref.astype(np.float64), got.astype(np.float64)
        both_nan = np.isnan(r) & np.isnan(g)
        same_inf = np.isinf(r) & (r == g)
        err = np.where(both_nan | same_inf, 0.0, np.abs(g - r))
        err = np.nan_to_num(err, nan=np.inf)
        bad = err > 1e-3 + 1e-3 * np.abs(np.nan_to_num(r))
        return (not bad.any()), "max |diff| %.3g" % float(err.max())
    if k == "b":
        n = int((ref != got).sum())
        return n == 0, "%d of %d differ" % (n, ref.size)
    d = np.abs(got.astype(np.int64) - ref.astype(np.int64))
    if ref.dtype.itemsize <= 2:
        return int(d.max()) <= 1, "max |diff| %d LSB, %.1f%% exact" % (int(d.max()), 100.0 * (d == 0).mean())
    frac = float((d == 0).mean())
    return frac >= 0.995, "%.2f%% equal" % (100 * frac)


def sweep_one(name, path, args, rng_seed):
    res = {"model": name, "tflite": "", "tfcc": "", "verdict": ""}
    try:
        ins, n_out, passthrough = io_of(path)
    except Exception as e:  # not a readable flatbuffer
        res.update(tflite="-", tfcc="-", verdict="unreadable: %s" % e)
        return res
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(rng_seed)
    files = []
    fixed = shape_inputs(path)
    for i, (tname, dtype, shape) in enumerate(ins):
        x = fixed[i] if i in fixed and dtype == "int32" else make_input(rng, dtype, shape)
        if x is None:
            res.update(tflite="-", tfcc="-", verdict="no inputs: input %d (%s) is %s" % (i, tname, dtype))
            return res
        f = os.path.join(work, "in%d.npy" % i)
        np.save(f, x)
        files.append(f)
    ref_dir, got_dir = os.path.join(work, "ref"), os.path.join(work, "tfcc")
    for d in (ref_dir, got_dir):
        os.makedirs(d, exist_ok=True)
        for old in glob.glob(os.path.join(d, "*.npy")):
            os.remove(old)
    refs = [os.path.join(ref_dir, "output_%d.npy" % i) for i in range(n_out)]

    def oracle(extra):
        for old in glob.glob(os.path.join(ref_dir, "*.npy")):
            os.remove(old)
        rc, log = run(oracle_cmd(args) + [path, ref_dir] + files + extra, args.timeout)
        # LiteRT.js logs a failed prepare or invoke and still exits 0; its refusal of variable
        # tensors ("model_load.cc ... Variable tensors") is followed by the classic interpreter's run
        errors = [ln for ln in log.splitlines() if "ERROR" in ln and "model_load.cc" not in ln]
        # the classic interpreter logs its XNNPACK delegate's failure as ERROR lines, then
        # "Restored original execution plan" and runs the builtin kernels
        if any("Restored original execution plan after delegate application failure" in ln
               for ln in errors):
            errors = [ln for ln in errors if "XNNPACK" not in ln and "XNNPack" not in ln
                      and "Restored original execution plan" not in ln]
        return rc == 0 and all(os.path.exists(f) for f in refs) and not errors, log

    cmd = [args.tfcc, "run", path, "-o", got_dir, "-t", "1"]
    for lib in args.custom_ops or []:
        cmd += ["--custom-ops", lib]
    for f in files:
        cmd += ["-i", f]
    tfcc_rc, tfcc_log = run(cmd, args.timeout)
    # LiteRT.js's compiled model does not read dynamic outputs back (it hands back other
    # memory): where tfcc's output is dynamic, the classic interpreter is the reference
    dynamic = "(dynamic)" in tfcc_log
    first = ["--engine", "tfweb"] if dynamic or passthrough else []
    ref_ok, log = oracle(first)
    if not ref_ok and not first:  # a LiteRT.js crash or refusal: the classic interpreter may run it
        ok2, log2 = oracle(["--engine", "tfweb"])
        if ok2:
            ref_ok, log = ok2, log2
    elif not ref_ok:  # the classic interpreter refuses (an operator version newer than its
        # release, FULLY_CONNECTED 12): LiteRT.js is the reference left
        ok2, log2 = oracle([])
        if ok2:
            ref_ok, log = ok2, log2
    engine = ""
    for ln in log.splitlines():
        if ln.startswith("{"):
            try:
                engine = json.loads(ln).get("engine", "").split(" ")[0]
            except ValueError:
                pass
    res["tflite"] = ("runs (%s)" % engine) if ref_ok else "refused: " + oracle_error(log)
    if tfcc_rc != 0:
        msg = " ".join(ln.strip() for ln in tfcc_log.splitlines() if ln.strip())[:200]
        res["tfcc"] = "refused: " + msg
        res["verdict"] = "tfcc refuses" if ref_ok else "both refuse"
        return res
    res["tfcc"] = "runs"
    if not ref_ok:
        res["verdict"] = "tfcc runs, TFLite refuses"
        return res
    got = sorted(glob.glob(os.path.join(got_dir, "*.npy")), key=lambda p: int(os.path.basename(p).split("_")[0]))
    if len(got) != n_out:
        res["verdict"] = "mismatch: %d outputs, TFLite %d" % (len(got), n_out)
        return res
    notes, ok = [], True
    for i in range(n_out):
        good, text = compare(np.load(refs[i]), np.load(got[i]))
        ok &= good
        notes.append("out%d %s" % (i, text))
    res["verdict"] = ("match" if ok else "MISMATCH") + ": " + "; ".join(notes)
    if not ok and engine == "tfweb":  # the classic interpreter is an older TFLite: ask LiteRT
        again = static_copy_vs_litert(path, work, files, got, refs, args)
        if again.startswith("match"):
            res["verdict"] = again + " (the classic interpreter: %s)" % res["verdict"]
        else:
            res["verdict"] += "; " + again
    elif not ok and engine == "litert":  # LiteRT.js's own kernels may be wrong: ask the classic one
        # LiteRT.js hands back an output with the shape the file declares, not the one computed
        # (a converter's wrong [1, 256, 512, 2] on an ARG_MAX output of [1, 256, 512])
        reshaped = any(np.load(r).shape != np.load(g).shape for r, g in zip(refs, got))
        # outputs written count, whatever its log says (it logs the XNNPACK delegate's refusal of
        # int16 tensors as ERROR, then runs the builtin kernels)
        oracle(["--engine", "tfweb"])
        if all(os.path.exists(f) for f in refs):
            notes2, ok2 = [], True
            for i in range(n_out):
                good, text = compare(np.load(refs[i]), np.load(got[i]))
                ok2 &= good
                notes2.append("out%d %s" % (i, text))
            if ok2:
                res["verdict"] = "match vs the classic interpreter: %s (LiteRT.js: %s)" % (
                    "; ".join(notes2), res["verdict"])
            else:
                res["verdict"] += "; the classic interpreter: MISMATCH: " + "; ".join(notes2)
        if reshaped and not res["verdict"].startswith("match"):
            again = static_copy_vs_litert(path, work, files, got, refs, args)
            if again.startswith("match"):
                res["verdict"] = again + " (LiteRT.js on the file: %s)" % res["verdict"]
        if not res["verdict"].startswith("match"):
            again = per_channel_copy_vs_litert(path, work, files, got, refs, args)
            if again and again.startswith("match"):
                res["verdict"] = again + " (LiteRT.js on the file: %s)" % res["verdict"]
        if not res["verdict"].startswith("match"):
            again = reshape_copy_vs_litert(path, work, files, got, refs, args)
            if again and again.startswith("match"):
                res["verdict"] = again + " (LiteRT.js on the file: %s)" % res["verdict"]
    return res


def copy_vs_litert(path, work, files, got, refs, args, rewrite, name, what):
    """LiteRT.js on a copy of the model that rewrite(model) changed (modelgen's reader and
    writer: subgraph 0, the options it knows), compared with tfcc; None where rewrite returns
    False (nothing to change)."""
    try:
        import tflite_read
        import tflite_schema
        with open(path, "rb") as fh:
            m = tflite_read.read(fh.read())
        if not rewrite(m):
            return None
        copy = os.path.join(work, name + ".tflite")
        with open(copy, "wb") as fh:
            fh.write(tflite_schema.serialize(m))
    except Exception as e:  # noqa: BLE001 (a model modelgen cannot rewrite)
        return "no %s copy (%s)" % (name, str(e)[:60])
    ref_dir = os.path.join(work, "ref_" + name)
    os.makedirs(ref_dir, exist_ok=True)
    for old in glob.glob(os.path.join(ref_dir, "*.npy")):
        os.remove(old)
    rc, _ = run(oracle_cmd(args) + [copy, ref_dir] + files + ["--engine", "litert"], args.timeout)
    outs = [os.path.join(ref_dir, os.path.basename(r)) for r in refs]
    if rc != 0 or not all(os.path.exists(f) for f in outs):
        return "LiteRT on a %s copy: no result" % name
    notes, ok = [], True
    for i, (r, g) in enumerate(zip(outs, got)):
        good, text = compare(np.load(r), np.load(g))
        ok &= good
        notes.append("out%d %s" % (i, text))
    return ("match" if ok else "MISMATCH") + " vs LiteRT on a copy " + what + ": " + "; ".join(notes)


def static_copy_vs_litert(path, work, files, got, refs, args):
    """LiteRT.js on a copy whose dynamic outputs are declared with the shapes tfcc produced."""
    def rewrite(m):
        for t, g in zip(m.outputs, got):
            m.tensors[t].shape = list(np.load(g).shape)
        return True
    return copy_vs_litert(path, work, files, got, refs, args, rewrite, "static_outputs",
                          "with the output shapes written")


def per_channel_copy_vs_litert(path, work, files, got, refs, args):
    """A hybrid DEPTHWISE_CONV_2D (float input, int8 weights) with one weight scale for all its
    channels: TFLite's kernel passes the scale array to DepthwiseConvHybridPerChannel, which
    indexes it by output channel, reading past it. LiteRT.js on a copy with that scale written
    once per channel (quantized_dimension 3) shows what the file means."""
    def rewrite(m):
        n = 0
        for op in m.operators:
            w = m.tensors[op.inputs[1]] if op.op == "DEPTHWISE_CONV_2D" and len(op.inputs) > 1 else None
            if (w is None or w.dtype != 9 or m.tensors[op.inputs[0]].dtype != 0 or not w.quant
                    or len(w.quant.get("scale") or []) != 1 or w.shape[3] < 2):
                continue
            c = w.shape[3]
            w.quant = {"scale": list(w.quant["scale"]) * c, "zero_point": [0] * c,
                       "quantized_dimension": 3}
            n += 1
        return n > 0
    return copy_vs_litert(path, work, files, got, refs, args, rewrite, "per_channel",
                          "whose one hybrid depthwise weight scale is written per channel "
                          "(TFLite reads past it)")


def reshape_copy_vs_litert(path, work, files, got, refs, args):
    """An output written by a RESHAPE whose shape operand is computed (SHAPE -> STRIDED_SLICE ->
    PACK: Keras's Reshape behind a batch dimension of -1): TFLite makes that output dynamic,
    which tfcc resolves while planning but LiteRT.js's compiled model does not read back (it
    hands back other memory, sweep27's Edge-AI files). LiteRT.js on a copy whose RESHAPE takes
    the shape tfcc produced as a constant (the same values in the same order)."""
    def rewrite(m):
        producer = {o: op for op in m.operators for o in op.outputs}
        n = 0
        for t, g in zip(m.outputs, got):
            op = producer.get(t)
            if op is None or op.op != "RESHAPE" or len(op.inputs) < 2 or op.inputs[1] < 0:
                continue
            if m.tensors[op.inputs[1]].data is not None:
                continue
            shape = list(np.load(g).shape)
            s = m.add_tensor("static_shape_%d" % t, 2, [len(shape)],
                             data=np.array(shape, "<i4").tobytes())
            op.inputs = [op.inputs[0], s]
            n += 1
        return n > 0
    return copy_vs_litert(path, work, files, got, refs, args, rewrite, "static_reshape",
                          "whose computed RESHAPE shape is written as a constant")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models")
    ap.add_argument("--tfcc", default="build/tools/tfcc")
    ap.add_argument("--oracle", default="/tmp/tflite-ref/run_ref.mjs")
    ap.add_argument("--work", default="/tmp/sweep/work")
    ap.add_argument("--sources")
    ap.add_argument("--custom-ops", action="append",
                    help="tfcc run --custom-ops LIB.so (e.g. examples/mediapipe_ops' plugin)")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--markdown")
    ap.add_argument("--json")
    args = ap.parse_args()
    src = {}
    if args.sources:
        with open(args.sources) as fh:
            for ln in fh:
                p = ln.split()
                if len(p) >= 2:
                    src[p[0]] = p[1]
    paths = sorted(glob.glob(os.path.join(args.models, "*.tflite")))
    rows = []
    for k, path in enumerate(paths):
        name = os.path.splitext(os.path.basename(path))[0]
        if args.only and not any(s in name for s in args.only):
            continue
        r = sweep_one(name, path, args, 1000 + k)
        r["source"] = src.get(name, "")
        rows.append(r)
        print("%-55s | %s | %s | %s" % (name, r["tflite"][:60], r["tfcc"][:80], r["verdict"]), flush=True)
    n = len(rows)
    in_tfl = sum(r["tflite"].startswith("runs") for r in rows)
    in_tfcc = sum(r["tfcc"] == "runs" for r in rows)
    both = sum(r["tflite"].startswith("runs") and r["tfcc"] == "runs" for r in rows)
    match = sum(r["verdict"].startswith("match") for r in rows)
    counts = ("%d models: %d run in TFLite, %d run in tfcc, %d run in both, %d of those match"
              % (n, in_tfl, in_tfcc, both, match))
    print(counts)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write("| model | source repository | TFLite | tfcc | result |\n|---|---|---|---|---|\n")
            for r in rows:
                cell = lambda s: s.replace("|", "/")
                fh.write("| %s | %s | %s | %s | %s |\n" % (r["model"], r["source"], cell(r["tflite"]),
                                                         cell(r["tfcc"]), cell(r["verdict"])))
            fh.write("\n%s\n" % counts)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""A stand-in for /tmp/tflite-ref/run_ref.mjs in tests/cli/test_sweep_models.sh: same command line
(MODEL OUT_DIR IN.npy ... [--engine litert|tfweb]), same output files (OUT_DIR/output_<i>.npy)
and the same JSON summary line on stdout, so that scripts/sweep_models.py's comparison and
verdict logic can be checked without the real engines.

Its "reference" is `$TFCC run` on the same inputs, changed as the case asks: FAKE_ORACLE_CASES
names a JSON file {case: {engine: action}}. The case is the model's file name without .tflite,
or "<folder>/<name>" for the copies sweep_models.py writes into a model's work folder
(static_outputs, per_channel, static_reshape). Actions:
  exact          tfcc's outputs unchanged
  add:X          X added to every element of floating outputs; X quantized units (clipped to
                 the dtype's range) added to integer outputs
  flip:N         N elements of each integer output changed (+1)
  zeros:DT:SHAPE one output of zeros, dtype DT, shape SHAPE (comma-separated); for models tfcc
                 refuses
  refuse         an ERROR line on stderr and exit 1, no outputs
  noisy:ACTION   the classic interpreter's log of its XNNPACK delegate failing and being
                 undone (ERROR lines on stderr), then ACTION
A case or engine not in the file is "exact". Every call is appended to FAKE_ORACLE_LOG (one
line: case and engine) when that is set. Standard library and NumPy only."""
import glob
import json
import os
import subprocess
import sys
import tempfile

import numpy as np


def main():
    args, engine = [], "litert"
    argv = sys.argv[1:]
    i = 0
    while i < len(argv):
        if argv[i] == "--engine":
            engine = argv[i + 1]
            i += 2
            continue
        args.append(argv[i])
        i += 1
    if engine == "auto":
        engine = "litert"
    model, out_dir, inputs = args[0], args[1], args[2:]
    stem = os.path.splitext(os.path.basename(model))[0]
    case = stem
    if stem in ("static_outputs", "per_channel", "static_reshape"):
        case = os.path.basename(os.path.dirname(os.path.abspath(model))) + "/" + stem
    with open(os.environ["FAKE_ORACLE_CASES"]) as fh:
        cases = json.load(fh)
    action = cases.get(case, {}).get(engine, "exact")
    if os.environ.get("FAKE_ORACLE_LOG"):
        with open(os.environ["FAKE_ORACLE_LOG"], "a") as fh:
            fh.write("%s %s\n" % (case, engine))
    if action.startswith("noisy:"):
        sys.stderr.write("ERROR: failed to create XNNPACK Value for tensor 7\n"
                         "ERROR: Node number 3 (TfLiteXNNPackDelegate) failed to prepare.\n"
                         "ERROR: Restored original execution plan after delegate application failure.\n")
        action = action[len("noisy:"):]
    if action == "refuse":
        sys.stderr.write("ERROR: fake %s refuses %s\n" % (engine, case))
        return 1
    os.makedirs(out_dir, exist_ok=True)
    if action.startswith("zeros:"):
        _, dt, shape = action.split(":")
        outs = [np.zeros([int(d) for d in shape.split(",")], dtype=dt)]
    else:
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [os.environ["TFCC"], "run", model, "-o", tmp, "-t", "1"]
            for f in inputs:
                cmd += ["-i", f]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                sys.stderr.write("ERROR: fake oracle: tfcc failed: %s\n" % p.stderr.strip())
                return 1
            files = sorted(glob.glob(os.path.join(tmp, "*.npy")),
                           key=lambda f: int(os.path.basename(f).split("_")[0]))
            outs = [np.load(f) for f in files]
        kind, _, arg = action.partition(":")
        for k, o in enumerate(outs):
            if kind == "add" and o.dtype.kind == "f":
                outs[k] = (o.astype(np.float64) + float(arg)).astype(o.dtype)
            elif kind == "add":
                info = np.iinfo(o.dtype)
                outs[k] = np.clip(o.astype(np.int64) + int(arg), info.min, info.max).astype(o.dtype)
            elif kind == "flip":
                flat = o.reshape(-1).copy()
                flat[:int(arg)] += 1
                outs[k] = flat.reshape(o.shape)
            elif kind != "exact":
                sys.stderr.write("ERROR: fake oracle: unknown action %s\n" % action)
                return 2
    summary = {"model": os.path.basename(model), "engine": engine + " (fake oracle)", "outputs": []}
    for k, o in enumerate(outs):
        np.save(os.path.join(out_dir, "output_%d.npy" % k), o)
        summary["outputs"].append({"dtype": str(o.dtype), "shape": list(o.shape)})
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs every modelgen network through TensorFlow Lite (the tflite-ref oracle) on a
seeded input and compares each int8 network's output with its float twin (same
weights): python3 modelgen/check_nets.py --dir DIR [--oracle run_ref.mjs].
Builds missing networks into DIR first. Prints one line per network."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nets  # noqa: E402
import npy  # noqa: E402


def run(oracle, model, inp_path):
    out = tempfile.mkdtemp(prefix="tfcc_nets_")
    r = subprocess.run(["node", oracle, model, out, inp_path, "--quiet"], capture_output=True, text=True)
    if r.returncode != 0:
        errs = [ln for ln in r.stderr.splitlines() if ln.startswith("ERROR:") or "run_ref" in ln]
        return None, (errs[0] if errs else r.stderr[-300:]).strip(), None
    info = json.loads(r.stdout.strip().splitlines()[-1])
    return npy.load(os.path.join(out, "output_0.npy")), None, info


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--oracle", default="/tmp/tflite-ref/run_ref.mjs")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    outputs, failed = {}, 0
    for name in nets.NETS:
        path = os.path.join(args.dir, name + ".tflite")
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(nets.build(name))
        arch = name.rpartition("_")[0]
        net, _ = nets.ARCHS[arch]()
        shape = net.nodes[0].shape
        lo, hi = net.input_range
        inp = os.path.join(args.dir, arch + ".input.npy")
        npy.save(inp, "float32", shape, nets.uniform_block(arch + "/check-input", nets.numel(shape), lo, hi))
        res, err, info = run(args.oracle, path, inp)
        if err:
            print("%-32s FAILED in TFLite: %s" % (name, err))
            failed += 1
            continue
        dtype, oshape, vals = res
        outputs[name] = vals
        line = "%-32s ok (%s) output %s %s, %.1f ms" % (name, info["engine"].split(" ")[0], dtype,
                                                          list(oshape), info["ms"].get("first_invoke", 0))
        if name.endswith("_int8") and arch + "_float" in outputs:
            ref = outputs[arch + "_float"]
            maxd = max(abs(a - b) for a, b in zip(vals, ref))
            span = max(ref) - min(ref) or 1.0
            am = lambda v: max(range(len(v)), key=v.__getitem__)
            line += ", max |int8 - float| %.4f (%.1f%% of the float range)" % (maxd, 100 * maxd / span)
            if len(vals) > 16:
                line += ", argmax %s" % ("same" if am(vals) == am(ref) else "differs")
        print(line, flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A dynamic-range ("hybrid") network against its int8 twin, layer by layer.

  bench/hybrid_layers.py [--tfcc PATH] [--zoo DIR] [--reps N] [--threads T] [ARCH]

Runs `tfcc bench MODEL -r 1 --profile-runs 20 --json` on ARCH's hybrid and int8 twins
(--zoo, default ~/.cache/tfcc-zoo: <arch>.hybrid.tflite from modelgen/make_hybrid_twins.py and
<arch>.int8.tflite), alternating, N times; per operator the minimum of the N profiled means
(ms). The convolution-family operators (those with MACs) are matched in order and must have the
same MACs; prints one row per pair (hybrid ms, int8 ms, ratio, excess, hybrid kernel) and the
totals. Benchmarks are not tests: nothing is asserted beyond the matching."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tfcc", default=os.path.join(HERE, "..", "build", "tools", "tfcc"))
    ap.add_argument("--zoo", default=os.environ.get("TFCC_ZOO_DIR",
                                                    os.path.expanduser("~/.cache/tfcc-zoo")))
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("arch", nargs="?", default="mobilenet_v2")
    a = ap.parse_args()
    models = {"hybrid": f"{a.zoo}/{a.arch}.hybrid.tflite", "int8": f"{a.zoo}/{a.arch}.int8.tflite"}
    for m in models.values():
        if not os.path.isfile(m):
            sys.exit(f"hybrid_layers.py: error: {m} missing (make the twins first)")
    best = {k: {} for k in models}
    for _ in range(a.reps):
        for k, m in models.items():
            out = subprocess.run([a.tfcc, "bench", m, "-t", str(a.threads), "-r", "1",
                                  "--profile-runs", "20", "--json"],
                                 capture_output=True, text=True, check=True).stdout
            for o in json.loads(out)["ops"]:
                b = best[k].setdefault(o["node"], dict(o))
                b["ms"] = min(b["ms"], o["ms"])
    rows = {k: [best[k][n] for n in sorted(best[k])] for k in models}
    conv = {k: [o for o in rows[k] if o["macs"] > 0] for k in models}
    if len(conv["hybrid"]) != len(conv["int8"]):
        sys.exit("hybrid_layers.py: error: the twins have different convolution counts")
    print(f"{'#':>3} {'operator':18} {'MMACs':>7} {'hybrid':>7} {'int8':>7} {'ratio':>6} "
          f"{'excess':>7}  hybrid kernel")
    th = ti = 0.0
    for i, (h, q) in enumerate(zip(conv["hybrid"], conv["int8"])):
        if h["macs"] != q["macs"]:
            sys.exit(f"hybrid_layers.py: error: operator {i}: {h['macs']} vs {q['macs']} MACs")
        th += h["ms"]
        ti += q["ms"]
        print(f"{i:>3} {h['name'][:18]:18} {h['macs'] / 1e6:7.2f} {h['ms']:7.3f} {q['ms']:7.3f} "
              f"{h['ms'] / q['ms']:6.2f} {h['ms'] - q['ms']:7.3f}  {h['kernel']}")
    oh = sum(o["ms"] for o in rows["hybrid"] if o["macs"] == 0)
    oi = sum(o["ms"] for o in rows["int8"] if o["macs"] == 0)
    print(f"convolution family: hybrid {th:.3f} ms, int8 {ti:.3f} ms ({th / ti:.2f}); "
          f"other operators: hybrid {oh:.3f}, int8 {oi:.3f}")


if __name__ == "__main__":
    main()

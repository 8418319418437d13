#!/usr/bin/env python3
"""A dynamic-range ("hybrid") network against its int8 twin, layer by layer.

  bench/hybrid_layers.py [--tfcc PATH] [--zoo DIR] [--reps N] [--threads T] [ARCH]

Runs `tfcc bench MODEL -r 1 --profile-runs 20 --json` on ARCH's hybrid and int8 twins
(--zoo, default ~/.cache/tfcc-zoo: <arch>.hybrid.tflite from modelgen/make_hybrid_twins.py and
<arch>.int8.tflite), alternating, N times; per operator the minimum of the N profiled means
(ms). The convolution-family operators (those with MACs) are matched in order and must have the
same MACs; an int8 EXPAND_DEPTHWISE_CONV_2D (the fuse_expand_dwconv pass: the int8 twin's 1x1
expand and its depthwise in one node) is matched with the hybrid twin's run of operators whose
MACs add up to its own (the expand, a PAD if any, the depthwise: hybrid activations need the
whole expanded image's range before the depthwise, so the hybrid twin keeps them apart). Prints
one row per pair (hybrid ms, int8 ms, ratio, excess, hybrid kernels), the totals, and the
excess by class: float-weight layers (tflite-f32 / xnn-f32 kernels, not fused in int8), expand +
depthwise pairs, the other 1x1 convolutions and FULLY_CONNECTED, the operators without MACs.
Benchmarks are not tests: nothing is asserted beyond the matching."""
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
    # pairs: (hybrid operators, int8 operator); hybrid operators without MACs between the
    # members of a fused pair (PAD) go with the pair
    hyb = rows["hybrid"]
    pairs, hi = [], 0
    for q in (o for o in rows["int8"] if o["macs"] > 0):
        grp, macs = [], 0
        while hi < len(hyb) and macs < q["macs"]:
            o = hyb[hi]
            hi += 1
            if o["macs"] == 0 and not grp:
                continue  # an operator without MACs before the group: counted as "other"
            grp.append(o)
            macs += o["macs"]
        if macs != q["macs"]:
            sys.exit(f"hybrid_layers.py: error: int8 node {q['node']} ({q['name']}, "
                     f"{q['macs']} MACs) has no hybrid match ({macs} MACs)")
        pairs.append((grp, q))
    paired = {o["node"] for g, _ in pairs for o in g}
    print(f"{'#':>3} {'operator':26} {'MMACs':>7} {'hybrid':>7} {'int8':>7} {'ratio':>6} "
          f"{'excess':>7}  hybrid kernels")
    th = ti = 0.0
    cls = {}
    for i, (g, q) in enumerate(pairs):
        h_ms = sum(o["ms"] for o in g)
        th += h_ms
        ti += q["ms"]
        kernels = " + ".join(o["kernel"] for o in g)
        if q["name"] == "EXPAND_DEPTHWISE_CONV_2D":
            c = "expand + depthwise (fused in int8)"
        elif all(o["kernel"].startswith(("tflite-f32", "xnn-f32")) for o in g):
            c = "float-weight layers"
        else:
            c = "other 1x1 CONV_2D, FULLY_CONNECTED"
        e = cls.setdefault(c, [0, 0.0, 0.0])
        e[0] += 1
        e[1] += h_ms
        e[2] += q["ms"]
        name = "+".join(o["name"][:4] for o in g) if len(g) > 1 else g[0]["name"]
        print(f"{i:>3} {name[:26]:26} {q['macs'] / 1e6:7.2f} {h_ms:7.3f} {q['ms']:7.3f} "
              f"{h_ms / q['ms']:6.2f} {h_ms - q['ms']:7.3f}  {kernels}")
    oh = sum(o["ms"] for o in hyb if o["node"] not in paired)
    oi = sum(o["ms"] for o in rows["int8"] if o["macs"] == 0)
    print(f"convolution family: hybrid {th:.3f} ms, int8 {ti:.3f} ms ({th / ti:.2f}); "
          f"other operators: hybrid {oh:.3f}, int8 {oi:.3f}")
    print(f"{'class':36} {'count':>5} {'hybrid':>7} {'int8':>7} {'ratio':>6} {'excess':>7}")
    for c, (n, h_ms, q_ms) in cls.items():
        print(f"{c:36} {n:5} {h_ms:7.3f} {q_ms:7.3f} {h_ms / q_ms:6.2f} {h_ms - q_ms:7.3f}")
    print(f"{'operators without MACs':36} {'':5} {oh:7.3f} {oi:7.3f} {'':6} {oh - oi:7.3f}")
    print(f"{'all':36} {'':5} {th + oh:7.3f} {ti + oi:7.3f} {(th + oh) / (ti + oi):6.2f} "
          f"{th + oh - ti - oi:7.3f}")

if __name__ == "__main__":
    main()

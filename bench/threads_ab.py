#!/usr/bin/env python3
"""A/B of two tfcc builds on whole models at several thread counts: `tfcc bench MODEL
--threads T --runs R --profile-runs 0 --json` per cell, the two builds alternated round by round
(the order flipped every round), medians of CPU ms per run (all threads) and p50 wall ms printed
as a Markdown table with the load average.

  bench/threads_ab.py --before /tmp/base/tfcc --after build/tools/tfcc --rounds 9 --runs 50 \
      --threads 1,2 /tmp/hybrid5/keyword_spotting_combined.tflite ...

A build that is a copy elsewhere needs its libtfcc.so beside it: pass a wrapper script that
sets LD_LIBRARY_PATH. Extra `tfcc bench` flags after `--`. Standard library only.
"""
import argparse
import json
import os
import statistics
import subprocess


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="tfcc binary (or wrapper) A")
    ap.add_argument("--after", required=True, help="tfcc binary (or wrapper) B")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    ap.add_argument("models", nargs="+")
    ap.add_argument("extra", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    threads = a.threads.split(",")
    bins = {"before": a.before, "after": a.after}
    res = {}
    for r in range(a.rounds):
        for m in a.models:
            for t in threads:
                for b in (("before", "after") if r % 2 == 0 else ("after", "before")):
                    cmd = [bins[b], "bench", m, "--threads", t, "--runs", str(a.runs), "--profile-runs", "0",
                           "--json"] + [x for x in a.extra if x != "--"]
                    d = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
                    res.setdefault((m, t, b), []).append((d["cpu_ms_per_run"], d["latency_ms"]["p50"]))
    print("load average", " ".join(open("/proc/loadavg").read().split()[:3]))
    print("| model | threads | before CPU / wall ms | after CPU / wall ms |")
    print("|---|---|---|---|")
    for m in a.models:
        for t in threads:
            cells = []
            for b in ("before", "after"):
                v = res[(m, t, b)]
                cells.append("%.2f / %.2f" % (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)))
            print("| %s | %s | %s | %s |" % (os.path.basename(m), t, cells[0], cells[1]))


if __name__ == "__main__":
    main()

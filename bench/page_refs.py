#!/usr/bin/python3
"""What a steady run reads, per mapping (issue 18 point 7: pages read per run).

usage: page_refs.py MODEL [--tail PATH] [--runs N] [--wait S] [--window S] [-- RUN_TAIL_ARGS]

Starts `run_tail MODEL --runs N --io-huge` (build/bench/run_tail), waits S seconds (the load
over, the runs going), clears the referenced bits of the process (/proc/PID/clear_refs), waits
the window (many runs), then prints every mapping with referenced bytes from /proc/PID/smaps:
its size, Rss, Referenced, AnonHugePages and name, and the referenced kB of mappings that are
not wholly huge pages (read through 4 KiB pages) by kind: model (the model file's mapping, or
an anonymous one of half its size to its size + 2 MiB: its copy), harness (other anonymous
ones of 16 MiB or more: run_tail's per-run tables), heap (the C heap), anon (other writable
anonymous mappings: a split weights huge page, malloc's mmapped blocks, thread stacks), text
(code; shared file pages: other processes' reads of libc count too), other.
Deterministic on a busy machine, unlike a timing: the set of pages a run touches is the same
in every run. The process is killed after the reading (it was started here).
"""
import os
import signal
import subprocess
import sys
import time


def parse_smaps(pid):
    maps, cur = [], None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            parts = line.split()
            if "-" in parts[0] and len(parts) >= 5 and ":" in parts[3]:
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                cur = {"lo": lo, "hi": hi, "perm": parts[1],
                       "name": parts[5] if len(parts) > 5 else "", "f": {}}
                maps.append(cur)
            elif cur is not None and parts[0].endswith(":") and len(parts) >= 2:
                try:
                    cur["f"][parts[0][:-1]] = int(parts[1])
                except ValueError:
                    pass
    return maps


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    if not argv:
        print(__doc__)
        return 2
    model, tail, runs, wait, window = argv[0], "build/bench/run_tail", 100000, 3.0, 1.0
    i = 1
    while i < len(argv):
        if argv[i] == "--tail":
            tail = argv[i + 1]
        elif argv[i] == "--runs":
            runs = int(argv[i + 1])
        elif argv[i] == "--wait":
            wait = float(argv[i + 1])
        elif argv[i] == "--window":
            window = float(argv[i + 1])
        else:
            print("unknown argument " + argv[i], file=sys.stderr)
            return 2
        i += 2
    cmd = [tail, model, "--runs", str(runs), "--io-huge"] + extra
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(wait)
        if p.poll() is not None:
            print("run_tail ended before the window (more --runs)", file=sys.stderr)
            return 1
        with open(f"/proc/{p.pid}/clear_refs", "w") as f:
            f.write("1")
        time.sleep(window)
        maps = parse_smaps(p.pid)
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait()
    fsize = os.path.getsize(model)
    kinds = {"harness": 0, "heap": 0, "anon": 0, "model": 0, "text": 0, "other": 0, "huge": 0}
    others = []
    print(f"{'range':>27} {'size kB':>9} {'rss':>7} {'ref':>7} {'anonhuge':>8}  name")
    for m in maps:
        ref = m["f"].get("Referenced", 0)
        if ref == 0:
            continue
        huge = m["f"].get("AnonHugePages", 0)
        rss = m["f"].get("Rss", 0)
        print(f"{m['lo']:012x}-{m['hi']:012x} {(m['hi'] - m['lo']) // 1024:9d} {rss:7d} "
              f"{ref:7d} {huge:8d}  {m['name']}")
        if huge and huge >= rss:
            kinds["huge"] += ref
            continue
        small = ref - min(huge, ref)
        name, size = m["name"], m["hi"] - m["lo"]
        if name == "" and fsize // 2 <= size <= fsize + (2 << 20) + 4096:
            kinds["model"] += small  # the model's copy of its file (anonymous)
        elif name == "" and size >= (16 << 20):
            kinds["harness"] += small  # run_tail's per-run tables
        elif name == "[heap]":
            kinds["heap"] += small
        elif name == "" and "w" in m["perm"]:
            kinds["anon"] += small
        elif name.endswith(".tflite") or name.endswith(".onnx") or "model" in name:
            kinds["model"] += small
        elif "x" in m["perm"]:
            kinds["text"] += small
        else:
            kinds["other"] += small
            others.append(name or m["perm"])
    print("referenced kB, 4 KiB-page mappings: " +
          ", ".join(f"{k} {v}" for k, v in kinds.items() if k != "huge") +
          f"; huge-page mappings: {kinds['huge']}; other: {' '.join(others)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A/B of model load time and peak memory: `tfcc bench` per model under named environment
settings, interleaved round by round (one process per cell), medians printed as a Markdown table.

  bench/load_ab.py --tfcc build/tools/tfcc --rounds 3 \
      --setting before@/tmp/old-build-copy: --setting after: \
      ~/.cache/tfcc-zoo/mobilenet_v2.tflite ...

Extra `tfcc bench` flags after `--` (default: --threads 1 --runs 200 --json --profile-runs 0).
--cache DIR adds rows with a weights cache: the first load writes DIR/NAME.wc ("write"), the
next ones map it ("warm"). --evict adds two more: "drop", a load right after the cache file's
pages were dropped from the page cache (posix_fadvise DONTNEED: as after a reboot or memory
pressure), and "dropped", the next process, which finds the file as "drop" read it back in
(bench/README.md "first18"). "floor" is the issue's weights + arena + 8 MiB (file constants +
arena_bytes + 8 MiB). first/p50 is the first run's wall time over the timed runs' median
(issue 18's point 5: <= 1.3), p99/p50 the timed runs' tail; faults are the process's page faults
over the load and over the first run (medians). --pretouch MB touches and frees MB of huge pages before every cell,
so that the load's fresh memory comes from pages the guest holds rather than pages a VM's host
has to back again (docs/bench.md, "load_ms": 2-5 ms per MB on the test VM). Standard library
only.
"""
import argparse, json, os, statistics, subprocess, sys


PRETOUCH = """
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
huge = 2 << 20
n = int(sys.argv[1]) << 20
raw = libc.mmap(None, n + huge, 3, 0x22, -1, 0)  # PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS
p = (raw + huge - 1) & ~(huge - 1)  # whole huge pages
libc.madvise(p, n, 14)  # MADV_HUGEPAGE
if libc.madvise(p, n, 23) != 0:  # MADV_POPULATE_WRITE (Linux 5.14); else touch every page
    ctypes.memset(p, 1, n)
libc.munmap(raw, n + huge)
"""


def pretouch(mb):
    """Touches and frees mb MiB of anonymous memory (huge pages where the kernel gives them), in
    a process of its own (a child inherits its parent's peak RSS across fork and exec)."""
    subprocess.run([sys.executable, "-c", PRETOUCH, str(mb)], check=True)


def evict(path):
    """Drops a file's pages from the page cache (clean pages mapped by no process)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def run(tfcc, model, env_kv, extra, cache):
    if "@" in tfcc:  # setting NAME@DIR: DIR/tfcc with DIR's libraries
        d = tfcc.split("@", 1)[1]
        tfcc = os.path.join(d, "tfcc")
        env_kv = env_kv + ["LD_LIBRARY_PATH=" + d]
    env = dict(os.environ)
    for kv in env_kv:
        k, _, v = kv.partition("=")
        env[k] = v
    cmd = [tfcc, "bench", model] + extra
    if cache:
        cmd += ["--weights-cache", cache]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def faults(js, key):
    """Median page faults of a key (bench's JSON has them since load12), "-" when it lacks them."""
    v = [j[key] for j in js if key in j]
    return "%d" % statistics.median(v) if v else "-"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfcc", default="build/tools/tfcc")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--setting", action="append", required=True,
                    help="NAME[@DIR]:K=V,K=V (empty: none); @DIR: run DIR/tfcc with DIR's libraries")
    ap.add_argument("--cache", help="directory for weights-cache rows")
    ap.add_argument("--pretouch", type=int, default=0, metavar="MB",
                    help="touch and free MB MiB of memory before every cell (0: no)")
    ap.add_argument("--evict", action="store_true",
                    help="with --cache: rows \"drop\" (the cache file dropped from the page cache "
                         "first) and \"dropped\" (the process after it)")
    ap.add_argument("models", nargs="+")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []  # after --: tfcc bench flags
    a = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    extra = extra or ["--threads", "1", "--runs", "200", "--json", "--profile-runs", "0"]
    settings = []
    for s in a.setting:
        name, _, kvs = s.partition(":")
        name, _, d = name.partition("@")
        settings.append((name, [kv for kv in kvs.split(",") if kv], d))
    modes = ["none"] + (["write", "warm"] if a.cache else []) + (
        ["drop", "dropped"] if a.cache and a.evict else [])
    if a.cache:
        os.makedirs(a.cache, exist_ok=True)  # tfcc writes no cache into a missing folder
    res = {}
    for _ in range(a.rounds):
        for m in a.models:
            for mode in modes:
                for name, kv, d in settings:
                    tfcc = a.tfcc + ("@" + d if d else "")
                    cache = None
                    if mode != "none":
                        cache = os.path.join(a.cache, os.path.basename(m) + "." + name + ".wc")
                        if mode == "write" and os.path.exists(cache):
                            os.remove(cache)
                        if mode != "write" and not os.path.exists(cache):
                            run(tfcc, m, kv, extra, cache)
                        if mode == "drop":
                            evict(cache)
                    if a.pretouch:
                        pretouch(a.pretouch)
                    j = run(tfcc, m, kv, extra, cache)
                    res.setdefault((m, mode, name), []).append(j)
    print("| model | cache | setting | peak RSS MB | floor MB | load_ms | load CPU ms | first_ms | p50 ms |"
          " first/p50 | p99/p50 | first CPU ms | CPU ms/run | first/run CPU | faults load / first |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for m in a.models:
        for mode in modes:
            for name, _, _ in settings:
                js = res[(m, mode, name)]
                med = lambda f: statistics.median(f(j) for j in js)
                floor = (js[0]["memory"]["constant_bytes"] + js[0]["arena_bytes"]) / 1e6 + 8 * 1.048576
                p50 = lambda j: j["latency_ms"]["p50"]
                print("| %s | %s | %s | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |"
                      " %s / %s |" % (
                    os.path.basename(m), mode, name, med(lambda j: j["peak_rss_bytes"]) / 1e6, floor,
                    med(lambda j: j["load_ms"]), med(lambda j: j["load_cpu_ms"]), med(lambda j: j["first_ms"]),
                    med(p50), med(lambda j: j["first_ms"] / p50(j) if p50(j) else 0),
                    med(lambda j: j["latency_ms"]["p99"] / p50(j) if p50(j) else 0),
                    med(lambda j: j["first_cpu_ms"]), med(lambda j: j["cpu_ms_per_run"]),
                    med(lambda j: j["first_cpu_ms"] / j["cpu_ms_per_run"] if j["cpu_ms_per_run"] else 0),
                    faults(js, "load_faults"), faults(js, "first_faults")))
    if len(settings) > 1:
        # each round's cells ran one after the other: a ratio per round pairs them
        base = settings[0][0]
        print()
        print("| model | cache | setting | load CPU ms min | %s min | paired load CPU ratio (median of rounds) |"
              " rounds |" % base)
        print("|---|---|---|---|---|---|---|")
        for m in a.models:
            for mode in modes:
                b = [j["load_cpu_ms"] for j in res[(m, mode, base)]]
                for name, _, _ in settings[1:]:
                    x = [j["load_cpu_ms"] for j in res[(m, mode, name)]]
                    r = statistics.median(xi / bi for xi, bi in zip(x, b) if bi > 0)
                    print("| %s | %s | %s | %.1f | %.1f | %.3f | %d |" % (
                        os.path.basename(m), mode, name, min(x), min(b), r, len(x)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()

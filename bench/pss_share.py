#!/usr/bin/env python3
"""PSS of N processes serving one model from one weights cache, against one process alone
(issue 18 point 2: goal N=4 <= 1.3 x one).

  bench/pss_share.py --tfcc build/tools/tfcc --procs 4 --cache /tmp/pss \
      [--setting NAME[@DIR]:K=V,...] ~/.cache/tfcc-zoo/mobilenet_v2.tflite ...

Per model and setting: one `tfcc bench MODEL --weights-cache DIR/NAME.wc` writes the cache;
then one process alone, then N at once (`tfcc bench MODEL --threads 1 --duration S
--profile-runs 0 --weights-cache ...`, the same cache file), each sampled from /proc/PID/smaps
after --sample-after seconds (after the load and the first runs: the cache's blocks and the
arena are resident then). Prints the PSS of one process, the sum over N, their ratio, and the
PSS of one of the N by kind of mapping (the cache file, the model file, anonymous memory:
arena, packed blocks not in the cache, the model's kept bytes, heap; libraries and the binary),
as a Markdown table. `--no-cache` measures without a cache instead. Linux only, standard
library only.
"""
import argparse, os, statistics, subprocess, sys, time


def smaps(pid, cache, model):
    """PSS in bytes of process pid by kind of mapping, from /proc/PID/smaps."""
    kinds = {}
    kind = None
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            head = line.split(None, 5)
            if len(head) >= 5 and "-" in head[0] and ":" not in head[0]:
                path = head[5].strip() if len(head) > 5 else ""
                if cache and path == cache:
                    kind = "cache"
                elif path == model:
                    kind = "model file"
                elif path == "":
                    kind = "anonymous"
                elif path == "[heap]":
                    kind = "heap"
                elif path.startswith("["):
                    kind = "other"
                elif ".so" in os.path.basename(path):
                    kind = "libraries"
                else:
                    kind = "binary and other files"
            elif line.startswith("Pss:") and kind:
                kinds[kind] = kinds.get(kind, 0) + int(line.split()[1]) * 1024
    return kinds


def launch(tfcc, d, env_kv, model, cache, duration):
    env = dict(os.environ)
    if d:
        tfcc = os.path.join(d, "tfcc")
        env["LD_LIBRARY_PATH"] = d
    for kv in env_kv:
        k, _, v = kv.partition("=")
        env[k] = v
    cmd = [tfcc, "bench", model, "--threads", "1", "--duration", str(duration), "--profile-runs",
           "0", "--json"]
    if cache:
        cmd += ["--weights-cache", cache]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def measure(a, d, kv, model, cache, n):
    """Starts n processes, samples each one's smaps after a.sample_after s, waits for them."""
    ps = [launch(a.tfcc, d, kv, model, cache, a.duration) for _ in range(n)]
    time.sleep(a.sample_after)
    try:
        return [smaps(p.pid, cache and os.path.realpath(cache), os.path.realpath(model)) for p in ps]
    finally:
        for p in ps:
            if p.wait() != 0:
                sys.exit("tfcc bench exited with %d (duration shorter than --sample-after?)" %
                         p.returncode)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tfcc", default="build/tools/tfcc")
    ap.add_argument("--procs", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=1, help="repeats (medians printed)")
    ap.add_argument("--duration", type=float, default=6, help="seconds each process runs")
    ap.add_argument("--sample-after", type=float, default=4, help="seconds before sampling")
    ap.add_argument("--cache", help="directory of the cache files (required unless --no-cache)")
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--setting", action="append",
                    help="NAME[@DIR]:K=V,K=V (env); @DIR: DIR/tfcc with DIR's libraries")
    ap.add_argument("models", nargs="+")
    a = ap.parse_args()
    if not a.no_cache and not a.cache:
        ap.error("--cache DIR or --no-cache")
    if a.sample_after >= a.duration:
        ap.error("--sample-after must be less than --duration")
    settings = []
    for s in a.setting or ["default:"]:
        name, _, kvs = s.partition(":")
        name, _, d = name.partition("@")
        settings.append((name, [kv for kv in kvs.split(",") if kv], d))
    mb = lambda b: b / 1e6
    print("| model | setting | procs | PSS one MB | PSS all MB | all / one | one of the %d by kind, MB |"
          % a.procs)
    print("|---|---|---|---|---|---|---|")
    for model in a.models:
        for name, kv, d in settings:
            cache = None
            if not a.no_cache:
                os.makedirs(a.cache, exist_ok=True)
                cache = os.path.join(a.cache, os.path.basename(model) + "." + name + ".wc")
                if os.path.exists(cache):
                    os.remove(cache)
                env = dict(os.environ, **dict(x.partition("=")[::2] for x in kv))
                exe = os.path.join(d, "tfcc") if d else a.tfcc
                if d:
                    env["LD_LIBRARY_PATH"] = d
                subprocess.run([exe, "bench", model, "--runs", "1", "--profile-runs", "0",
                                "--weights-cache", cache, "--json"], env=env, check=True,
                               stdout=subprocess.DEVNULL)
            ones, alls, kinds = [], [], []
            for _ in range(a.rounds):
                one = measure(a, d, kv, model, cache, 1)
                ones.append(sum(one[0].values()))
                many = measure(a, d, kv, model, cache, a.procs)
                alls.append(sum(sum(k.values()) for k in many))
                kinds.append(many[0])
            o, t = statistics.median(ones), statistics.median(alls)
            by = kinds[len(kinds) // 2]
            desc = ", ".join("%s %.1f" % (k, mb(v)) for k, v in sorted(by.items(), key=lambda x: -x[1]))
            print("| %s | %s | %d | %.1f | %.1f | %.2f | %s |" % (
                os.path.basename(model), name, a.procs, mb(o), mb(t), t / o, desc))
            sys.stdout.flush()


if __name__ == "__main__":
    main()

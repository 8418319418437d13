#!/usr/bin/env python3
"""PyTorch's latency and throughput for the zoo's networks on one GPU, the peer of
`tfcc bench --device cuda` (docs/cuda.md, scripts/gpu_check.sh).

For each torchvision network (random weights, seeded as shared/tools/zoo/make_pairs.py makes
them) and batch size, in fp16 (and fp32 with --fp32): eager mode with
torch.backends.cudnn.benchmark and channels-last memory format, and the same captured in a CUDA
graph (torch.cuda.CUDAGraph, replayed). Times are CUDA-event times of one forward pass (input
already on the GPU, as tfcc's device-side time is not: tfcc's include the host copies), median
and p99 of --runs runs after --warmup runs. Prints one JSON document.

  python3 bench/cuda/torch_baseline.py --arch mobilenet_v2,resnet50 --batch 1,32 --runs 100
"""
import argparse
import json
import statistics
import sys
import time


def pct(v, q):
    s = sorted(v)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def build(arch):
    import torch
    import torchvision
    torch.manual_seed(0)
    model = getattr(torchvision.models, arch)(weights=None).eval()
    g = torch.Generator().manual_seed(1)
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)
    return model


def time_fn(fn, runs, warmup):
    import torch
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ms = []
    for _ in range(runs):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        ms.append(a.elapsed_time(b))
    return ms


def one(arch, batch, dtype_name, runs, warmup):
    import torch
    dtype = torch.float16 if dtype_name == "fp16" else torch.float32
    model = build(arch).to("cuda", dtype=dtype).to(memory_format=torch.channels_last)
    x = torch.randn(batch, 3, 224, 224, device="cuda", dtype=dtype).to(
        memory_format=torch.channels_last)
    out = {"arch": arch, "batch": batch, "precision": dtype_name}
    with torch.inference_mode():
        eager = time_fn(lambda: model(x), runs, warmup)
        out["eager_p50_ms"] = statistics.median(eager)
        out["eager_p99_ms"] = pct(eager, 0.99)
        # CUDA graph: capture on a side stream after warm-up, replay
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            for _ in range(3):
                model(x)
        torch.cuda.current_stream().wait_stream(s)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            y = model(x)
        graphed = time_fn(graph.replay, runs, warmup)
        out["graph_p50_ms"] = statistics.median(graphed)
        out["graph_p99_ms"] = pct(graphed, 0.99)
        out["graph_images_per_s"] = batch * 1000.0 / out["graph_p50_ms"]
        out["eager_images_per_s"] = batch * 1000.0 / out["eager_p50_ms"]
        out["output_shape"] = list(y.shape)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", default="mobilenet_v2,resnet50")
    ap.add_argument("--batch", default="1,32")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--fp32", action="store_true", help="also fp32")
    a = ap.parse_args()
    import torch
    if not torch.cuda.is_available():
        print(json.dumps({"error": "torch.cuda is not available"}))
        return 1
    torch.backends.cudnn.benchmark = True
    res = {"torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
           "gpu": torch.cuda.get_device_name(0), "date": time.strftime("%Y-%m-%d %H:%M:%S"),
           "results": []}
    precisions = ["fp16"] + (["fp32"] if a.fp32 else [])
    for arch in a.arch.split(","):
        for batch in [int(b) for b in a.batch.split(",")]:
            for p in precisions:
                try:
                    res["results"].append(one(arch, batch, p, a.runs, a.warmup))
                except Exception as e:  # one failing configuration does not hide the others
                    res["results"].append({"arch": arch, "batch": batch, "precision": p,
                                           "error": repr(e)})
                print("torch_baseline: %s" % json.dumps(res["results"][-1]), file=sys.stderr)
    print(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

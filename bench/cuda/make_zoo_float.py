#!/usr/bin/env python3
"""The zoo's float32 networks (.tflite and the NHWC test input) made from torchvision on the
GPU machine, where the 100 MB ResNet-50 file cannot be carried: the same builder as
shared/tools/zoo/make_pairs.py (seeded random weights), exported to ONNX with the TorchScript
exporter and converted by its onnx2tflite.py. The GPU checks compare tfcc on the GPU with tfcc on
the CPU on the same file, so the weights need not equal the zoo's bit for bit.

  python3 bench/cuda/make_zoo_float.py --zoo-tools DIR --outdir OUT --arch resnet50,resnet18
"""
import argparse
import os
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--zoo-tools", required=True, help="shared/tools/zoo")
    ap.add_argument("--outdir", required=True)
    ap.add_argument("--arch", default="resnet50")
    ap.add_argument("--batch", type=int, default=1,
                    help="batch of the exported input (files <arch>_b<N>.tflite when > 1)")
    a = ap.parse_args()
    sys.path.insert(0, a.zoo_tools)
    import numpy as np
    import torch

    import make_pairs
    import onnx2tflite
    os.makedirs(a.outdir, exist_ok=True)
    torch.set_num_threads(max(1, (os.cpu_count() or 2) - 1))
    for arch in a.arch.split(","):
        t0 = time.time()
        model, x = make_pairs.build_torch_model(arch, 224)
        name = arch if a.batch == 1 else "%s_b%d" % (arch, a.batch)
        if a.batch > 1:
            x = torch.randn(a.batch, 3, 224, 224, generator=torch.Generator().manual_seed(2))
        p_onnx = os.path.join(a.outdir, name + ".onnx")
        kw = dict(opset_version=13, input_names=["input"], output_names=["output"],
                  do_constant_folding=True)
        try:
            torch.onnx.export(model, x, p_onnx, dynamo=False, **kw)
        except TypeError:  # a torch without the dynamo switch: its exporter is TorchScript's
            torch.onnx.export(model, x, p_onnx, **kw)
        onnx2tflite.convert_file(p_onnx, os.path.join(a.outdir, name + ".tflite"))
        xn = x.numpy().astype(np.float32)
        np.save(os.path.join(a.outdir, name + ".input_nhwc.npy"),
                np.ascontiguousarray(xn.transpose(0, 2, 3, 1)))
        os.remove(p_onnx)
        print("make_zoo_float: %s in %.1f s" % (name, time.time() - t0), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

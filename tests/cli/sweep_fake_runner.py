#!/usr/bin/python3
"""A stand-in "other build" for tests/cli/test_sweep_isa.sh: called as
  sweep_fake_runner.py TFCC run MODEL -o DIR [-t N] [-i IN.npy ...]
it runs TFCC with the rest of the command line, then changes the outputs as FAKE_RUNNER asks:
comma-separated "<model substring>:<action>", actions
  add:X   X added to every element of floating outputs; X units (clipped to the dtype's range)
          added to integer outputs
  fail    no run: a message on stderr, exit 3
A model that no entry names keeps tfcc's outputs. Standard library and NumPy only."""
import glob
import os
import subprocess
import sys

import numpy as np


def main():
    tfcc, argv = sys.argv[1], sys.argv[2:]
    model, out_dir = argv[1], argv[argv.index("-o") + 1]
    action = ""
    for entry in os.environ.get("FAKE_RUNNER", "").split(","):
        key, _, act = entry.partition(":")
        if key and key in os.path.basename(model):
            action = act
    if action == "fail":
        sys.stderr.write("fake runner: %s fails as asked\n" % os.path.basename(model))
        return 3
    rc = subprocess.call([tfcc] + argv)
    if rc != 0 or not action.startswith("add:"):
        return rc
    x = float(action[4:])
    for f in glob.glob(os.path.join(out_dir, "*.npy")):
        a = np.load(f)
        if a.dtype.kind == "f":
            a = (a.astype(np.float64) + x).astype(a.dtype)
        else:
            info = np.iinfo(a.dtype)
            a = np.clip(a.astype(np.int64) + int(x), info.min, info.max).astype(a.dtype)
        np.save(f, a)
    return 0


if __name__ == "__main__":
    sys.exit(main())

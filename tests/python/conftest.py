"""Fixtures of the tfcc Python tests.

Run from a CMake build: `ctest -R python.pytest` (PYTHONPATH = <build>/python), or by hand:
    PYTHONPATH=build/python TFCC_SHARED_DIR=/work/shared /usr/bin/python3 -m pytest tests/python
Tests that need the shared models (TFCC_SHARED_DIR, default ../shared next to the source tree)
skip with a message naming the directory when it is absent.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

SOURCE_DIR = os.environ.get("TFCC_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
CONFORMANCE = os.path.join(SOURCE_DIR, "tests", "ops", "conformance")
PYTHON_DIR = os.path.join(SOURCE_DIR, "python")


def shared_dir():
    d = os.environ.get("TFCC_SHARED_DIR") or os.path.join(SOURCE_DIR, "..", "shared")
    return os.path.abspath(d)


@pytest.fixture(scope="session")
def shared():
    d = shared_dir()
    if not os.path.isfile(os.path.join(d, "models", "README.md")):
        pytest.skip("shared models not found at %s (set TFCC_SHARED_DIR)" % d)
    return d


@pytest.fixture(scope="session")
def conformance():
    return CONFORMANCE


def case(name):
    """(model path, [inputs], [expected outputs]) of a conformance case (TFLite's outputs)."""
    base = os.path.join(CONFORMANCE, name)
    ins, outs = [], []
    i = 0
    while os.path.exists("%s.in%d.npy" % (base, i)):
        ins.append(np.load("%s.in%d.npy" % (base, i)))
        i += 1
    i = 0
    while os.path.exists("%s.out%d.npy" % (base, i)):
        outs.append(np.load("%s.out%d.npy" % (base, i)))
        i += 1
    return base + ".tflite", ins, outs


@pytest.fixture(scope="session")
def tfcc_cli():
    """The tfcc command of the build whose package is on PYTHONPATH, or None."""
    for p in sys.path:
        cand = os.path.join(p, "..", "tools", "tfcc")
        if p and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return os.path.abspath(cand)
    return None


@pytest.fixture(scope="session")
def modelgen_net(tmp_path_factory):
    """Builds modelgen's small MobileNet (float and int8, no shared files needed) once."""
    out = tmp_path_factory.mktemp("nets")
    subprocess.check_call([sys.executable, os.path.join(SOURCE_DIR, "modelgen", "build.py"),
                           "--out", str(out), "--net", "mobilenet_v1_025_128_float",
                           "--net", "mobilenet_v1_025_128_int8"], stdout=subprocess.DEVNULL)
    return str(out)

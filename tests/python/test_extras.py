"""tfcc's own extras: bench, update_weights, encrypted models, cpu_info, precision/ISA."""
import json
import os
import shutil
import subprocess

import numpy as np
import pytest

import tfcc
from conftest import case


def test_cpu_info():
    ci = tfcc.cpu_info()
    for k in ("vendor", "brand", "arch", "features", "logical_cpus", "physical_cores", "numa_nodes",
              "l1d_bytes", "l2_bytes", "l3_bytes", "amx_permitted", "best_isa", "isa"):
        assert k in ci
    assert ci["logical_cpus"] >= 1
    assert ci["best_isa"] in ("generic", "sse4", "avx2", "avx512", "neon", "wasmsimd")


JSON_KEYS = {"model", "threads", "affinity", "isa", "isa_cap", "precision", "seed", "load_ms",
             "session_ms", "first_ms", "warmup_runs", "runs", "timed_s", "latency_ms", "qps",
             "cpu_ms_per_run", "peak_rss_bytes", "arena_bytes", "memory", "profile_runs",
             "profile_ms", "ops"}


def test_bench_report():
    path = case("conv_2d_i8_3x3_same")[0]
    r = tfcc.bench(path, runs=20, warmup=2, isa="generic")
    assert JSON_KEYS <= set(r)
    assert r["runs"] == 20 and r["warmup_runs"] == 2 and r["isa_cap"] == "generic"
    lat = r["latency_ms"]
    assert 0 < lat["min"] <= lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"]
    assert r["profile_runs"] == 10 and r["ops"] and r["ops"][0]["name"] == "CONV_2D"
    assert r["memory"]["arena_bytes"] == r["arena_bytes"]


def test_bench_matches_the_command(tfcc_cli, tmp_path):
    if not tfcc_cli:
        pytest.skip("the tfcc command is not next to the package (not a CMake build tree)")
    path = case("conv_2d_i8_3x3_same")[0]
    out = subprocess.run([tfcc_cli, "bench", path, "--json", "-r", "5", "--isa", "generic"],
                         check=True, capture_output=True, text=True).stdout
    cmd = json.loads(out)
    py = tfcc.bench(path, runs=5, isa="generic")
    assert set(py) == set(cmd)
    for k in ("model", "threads", "isa", "isa_cap", "precision", "seed", "warmup_runs", "runs",
              "arena_bytes", "memory", "profile_runs"):
        assert py[k] == cmd[k], k
    assert [(o["node"], o["name"], o["kernel"], o["macs"]) for o in py["ops"]] == \
           [(o["node"], o["name"], o["kernel"], o["macs"]) for o in cmd["ops"]]


def test_bench_errors():
    with pytest.raises(RuntimeError, match="/no/such.tflite"):
        tfcc.bench("/no/such.tflite", runs=1)
    with pytest.raises(ValueError, match="runs"):
        tfcc.bench(case("add_f32_same")[0], runs=0)


def test_update_weights(tmp_path):
    src = case("conv_2d_i8_3x3_same")[0]
    path, ins, outs = case("conv_2d_i8_3x3_same")
    it = tfcc.Interpreter(model_path=path)
    it.set_tensor(it.get_input_details()[0]["index"], ins[0])
    it.invoke()
    before = it.get_tensor(it.get_output_details()[0]["index"])
    copy = str(tmp_path / "same.tflite")
    shutil.copy(src, copy)
    info = it.update_weights(copy)
    assert info["generation"] == 1 and info["total_ms"] >= 0
    it.invoke()
    np.testing.assert_array_equal(it.get_tensor(it.get_output_details()[0]["index"]), before)
    with open(src, "rb") as f:
        assert it.update_weights(f.read())["generation"] == 2


@pytest.mark.skipif(not tfcc.has_crypto, reason="tfcc built without OpenSSL (no encrypted models)")
def test_encrypted_model(tmp_path, monkeypatch):
    path, ins, outs = case("add_f32_same")
    enc = str(tmp_path / "m.tfcce")
    key = os.urandom(32)
    tfcc.encrypt_file(path, enc, key, key_id="test")
    keyfile = tmp_path / "k.hex"
    keyfile.write_text(key.hex())
    monkeypatch.setenv("TFCC_TEST_KEY", key.hex())
    with open(enc, "rb") as f:
        content = f.read()
    for kw in ({"model_path": enc, "key": key}, {"model_path": enc, "key": key.hex()},
               {"model_path": enc, "key_file": str(keyfile)},
               {"model_path": enc, "key_env": "TFCC_TEST_KEY"},
               {"model_content": content, "key": key}):
        it = tfcc.Interpreter(**kw)
        for d, x in zip(it.get_input_details(), ins):
            it.set_tensor(d["index"], x)
        it.invoke()
        np.testing.assert_allclose(it.get_tensor(2), outs[0], rtol=1e-5, atol=1e-5)

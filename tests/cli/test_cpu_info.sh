#!/usr/bin/env bash
# tfcc cpu-info: text and JSON; TFCC_ISA caps the dispatch level; kernel families listed.
source "$(dirname "$0")/lib.bash"

expect_rc 0 "cpu-info --help" -- "$TFCC" cpu-info --help
expect_in "$TMP/out" "usage: tfcc cpu-info" "cpu-info --help"
expect_rc 0 "cpu-info" -- env -u TFCC_ISA "$TFCC" cpu-info
for s in "cpu: " "cores: " "NUMA nodes: " "caches: L1d " "features:" "AMX: " "best ISA: " "dispatch level by cap:" "kernel families at " "TFCC_ISA: (unset)"; do
  expect_in "$TMP/out" "$s" "cpu-info text"
done
expect_in "$TMP/out" "generic->generic" "cap generic"
if [ "$(uname -m)" = x86_64 ]; then
  expect_in "$TMP/out" "gated variants at " "cpu-info gated variants"
  expect_in "$TMP/out" "q8-gemm-16x64-amxint8" "cpu-info lists the AMX-INT8 kernel"
fi

if have_python; then
  expect_rc 0 "cpu-info --json" -- env -u TFCC_ISA "$TFCC" cpu-info --json
  if python3 - "$TMP/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["arch"] in ("x86_64", "aarch64"), d["arch"]
assert d["logical_cpus"] >= 1 and d["numa_nodes"] >= 1
assert len(d["features"]) == 22 and all(isinstance(v, bool) for v in d["features"].values())
order = ["generic", "sse4", "avx2", "avx512", "neon", "wasmsimd"]
assert d["best_isa"] in order and d["dispatch_isa"] == d["best_isa"] and d["isa_env"] is None
assert d["dispatch_by_cap"]["generic"] == "generic"
if d["arch"] == "x86_64":
    for cap, lvl in d["dispatch_by_cap"].items():  # never above the cap nor the CPU
        assert order.index(lvl) == min(order.index(cap), order.index(d["best_isa"])), (cap, lvl)
    if d["features"]["avx512f"] and d["features"]["avx512bw"] and d["features"]["avx512vl"] and d["features"]["avx512dq"]:
        assert d["best_isa"] == "avx512"
fams = d["kernel_families"]
assert len(fams) >= 5 and len({f["family"] for f in fams}) == len(fams)
for f in fams:
    assert f["variants"][0]["isa"] == "generic"
    assert f["variant"] in [v["name"] for v in f["variants"]]
    assert order.index(f["variant_isa"]) <= order.index(d["dispatch_isa"]) or f["variant_isa"] == "generic"
assert any("CONV_2D" in f["ops"] for f in fams)
gated = d["gated_kernels"]
for g in gated:
    assert g["available"] == (g["reason"] is None), g
    if not d["amx_permitted"]:  # the first thing missing: the dispatch level, else AMX
        below = order.index(d["dispatch_isa"]) < order.index(g["isa"])
        assert not g["available"] and (("below " + g["isa"]) in g["reason"] if below else "AMX" in g["reason"]), g
if d["arch"] == "x86_64":
    assert "q8-gemm-16x64-amxint8" in [g["name"] for g in gated]
PY
  then ok; else bad "cpu-info JSON"; fi

  expect_rc 0 "cpu-info TFCC_ISA=generic" -- env TFCC_ISA=generic "$TFCC" cpu-info --json
  if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["isa_env"]=="generic" and d["dispatch_isa"]=="generic" and all(f["variant_isa"]=="generic" for f in d["kernel_families"])' "$TMP/out"; then ok; else bad "TFCC_ISA=generic"; fi
fi
expect_rc 1 "cpu-info bad TFCC_ISA" -- env TFCC_ISA=avx9 "$TFCC" cpu-info
expect_error_line cpu-info "cpu-info bad TFCC_ISA"
expect_in "$TMP/err" "avx9" "bad TFCC_ISA named"
expect_rc 2 "cpu-info extra arg" -- "$TFCC" cpu-info extra
expect_error_line cpu-info "cpu-info extra arg"
finish

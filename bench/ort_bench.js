#!/usr/bin/env node
// ONNX Runtime side of bench/compare_ort.sh: latency of one .onnx model with onnxruntime-node
// (CPU execution provider, all graph optimizations, sequential execution).
//
//   node ort_bench.js MODEL.onnx INPUT.npy [--threads N] [--warmup W] [--runs R]
//
// Prints one JSON line with the keys `tfcc bench --json` uses: load_ms, first_ms,
// latency_ms{min,avg,p50,p90,p99,max,stddev}, cpu_latency_ms{...} (each timed run's process CPU
// time), qps, cpu_ms_per_run (process CPU time per timed run, all threads), runs, threads, runtime.
// onnxruntime-node is loaded from $ORT_DIR (a folder where `npm ci --ignore-scripts` was run with
// ../shared/tools/zoo/ort/package.json), else from $ZOO_ORT_DIR, else by normal resolution.
'use strict';
const fs = require('fs');
const path = require('path');
const {createRequire} = require('module');

const ortDir = process.env.ORT_DIR || process.env.ZOO_ORT_DIR;
const ort = (ortDir ? createRequire(path.join(path.resolve(ortDir), 'index.js')) : require)('onnxruntime-node');

const NPY_TYPES = {
  '<f4': ['float32', Float32Array], '|u1': ['uint8', Uint8Array], '|i1': ['int8', Int8Array],
  '<i4': ['int32', Int32Array], '<i8': ['int64', BigInt64Array],
};

function loadNpy(file) {
  const raw = fs.readFileSync(file);
  if (raw.length < 10 || raw.toString('latin1', 1, 6) !== 'NUMPY') throw new Error(`${file}: not a .npy file`);
  const v1 = raw[6] === 1;
  const headerLen = v1 ? raw.readUInt16LE(8) : raw.readUInt32LE(8);
  const start = v1 ? 10 : 12;
  const header = raw.toString('latin1', start, start + headerLen);
  const descr = (header.match(/'descr':\s*'([^']*)'/) || [])[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: Fortran order is not supported`);
  const dims = ((header.match(/'shape':\s*\(([^)]*)\)/) || [])[1] || '')
    .split(',').map((x) => x.trim()).filter((x) => x.length).map(Number);
  const t = NPY_TYPES[descr === '<u1' ? '|u1' : descr === '<i1' ? '|i1' : descr];
  if (!t) throw new Error(`${file}: dtype ${descr} is not supported`);
  const body = raw.subarray(start + headerLen);
  const copy = new Uint8Array(body.length);
  copy.set(body);
  return new ort.Tensor(t[0], new t[1](copy.buffer), dims);
}

function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  const pct = (p) => {
    const rank = (p / 100) * (n - 1), lo = Math.floor(rank), hi = Math.min(lo + 1, n - 1);
    return s[lo] + (s[hi] - s[lo]) * (rank - lo);
  };
  const avg = s.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(s.reduce((a, b) => a + (b - avg) * (b - avg), 0) / (n - 1)) : 0;
  return {min: s[0], avg, p50: pct(50), p90: pct(90), p99: pct(99), max: s[n - 1], stddev: sd};
}

async function main() {
  const args = process.argv.slice(2);
  const opt = {threads: 1, warmup: 1, runs: 10};
  const pos = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--threads' || a === '--warmup' || a === '--runs') {
      const v = Number(args[++i]);
      if (!Number.isInteger(v) || v < 0) throw new Error(`${a}: '${args[i]}' is not a non-negative integer`);
      opt[a.slice(2)] = v;
    } else if (a === '-h' || a === '--help') {
      console.log('usage: node ort_bench.js MODEL.onnx INPUT.npy [--threads N] [--warmup W] [--runs R]');
      return;
    } else pos.push(a);
  }
  if (pos.length !== 2) throw new Error('usage: node ort_bench.js MODEL.onnx INPUT.npy [--threads N] [--warmup W] [--runs R]');
  const [model, input] = pos;
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  const t0 = now();
  const sess = await ort.InferenceSession.create(model, {
    executionProviders: ['cpu'], intraOpNumThreads: opt.threads, interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all',
  });
  const loadMs = now() - t0;
  const feeds = {[sess.inputNames[0]]: loadNpy(input)};
  let a = now();
  await sess.run(feeds);
  const firstMs = now() - a;
  for (let i = 0; i < opt.warmup; i++) await sess.run(feeds);
  const lat = [], latCpu = [];
  const cpu0 = process.cpuUsage();
  const start = now();
  let c = cpu0;
  for (let i = 0; i < Math.max(1, opt.runs); i++) {
    a = now();
    await sess.run(feeds);
    lat.push(now() - a);
    const d = process.cpuUsage(c); // this run's process CPU time, as tfcc bench's cpu_latency_ms
    c = process.cpuUsage();
    latCpu.push((d.user + d.system) / 1000);
  }
  const total = (now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuMsPerRun = (cpu.user + cpu.system) / 1000 / lat.length;
  console.log(JSON.stringify({
    model: path.basename(model), runtime: `onnxruntime-node ${ort.env.versions.common}`, threads: opt.threads,
    load_ms: loadMs, first_ms: firstMs, runs: lat.length, latency_ms: stats(lat), cpu_latency_ms: stats(latCpu), qps: lat.length / total, cpu_ms_per_run: cpuMsPerRun,
  }));
}

main().catch((e) => { console.error(`ort_bench: error: ${e.message}`); process.exit(1); });

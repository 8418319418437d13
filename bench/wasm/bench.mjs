// tfcc-wasm vs LiteRT.js (@litertjs/core) vs the TFLite Web API of @tensorflow/tfjs-tflite, in one
// Node process, on the same .tflite files and inputs, single-threaded, and with --threads N tfcc-wasm
// also at N threads (a threads build, scripts/build-wasm.sh --threads, runs its pthreads on Node's
// worker_threads; LiteRT.js and tfjs-tflite as shipped for Node run no worker threads, so they stay
// at 1 thread). process.cpuUsage counts every thread of the process, the workers included.
// Rounds are interleaved (each round runs every engine
// once, in rotating order); an engine's figure is the median over rounds of its mean ms per run,
// the ratios are medians of the per-round ratios.
//   node bench/wasm/bench.mjs [--tfcc PKG_DIR] [--deps NODE_MODULES] [--rounds 7] [--runs 10]
//        [--models "FILE.tflite[:INPUT.npy] ..."] [--zoo DIR] [--json OUT] [--tfcc-before PKG_DIR]
//        [--litert-relaxed]  (with node --experimental-wasm-relaxed-simd)  [--threads N]
// --tfcc-before: a second tfcc-wasm package (e.g. built from the previous commit) run as a fourth
// engine in the same interleaved rounds, for a before/after on the same load.
// Defaults: --tfcc build-wasm/npm/tfcc-wasm; --deps bench/wasm/node_modules (npm ci there), else
// /tmp/tflite-ref/node_modules; models: the zoo's mobilenet_v2, mobilenet_v2.int8, resnet18
// (--zoo, default ~/.cache/tfcc-zoo, where present) and the shared int8 MobileNetV2s.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';
import {createRequire} from 'node:module';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {readNpy} from '../../js/test/npy.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const tfccPkg = path.resolve(opt('--tfcc', path.join(ROOT, 'build-wasm', 'npm', 'tfcc-wasm')));
let deps = opt('--deps', null);
if (!deps) deps = [path.join(HERE, 'node_modules'), '/tmp/tflite-ref/node_modules'].find((d) => fs.existsSync(path.join(d, '@litertjs', 'core')));
if (!deps) { console.error('bench: no @litertjs/core: run `npm ci` in bench/wasm or pass --deps'); process.exit(2); }
const rounds = Number(opt('--rounds', 7)), runs = Number(opt('--runs', 10));
// --litert-relaxed: LiteRT.js's relaxed-SIMD build (what it loads in a browser that has relaxed
// SIMD) instead of its compat build (what it loads in Node 20, which has relaxed SIMD only behind
// a flag): run node with --experimental-wasm-relaxed-simd
const litertRelaxed = args.includes('--litert-relaxed');
const shared = process.env.TFCC_SHARED_DIR || path.join(ROOT, '..', 'shared');
const zoo = opt('--zoo', path.join(os.homedir(), '.cache', 'tfcc-zoo'));

function defaultModels() {
  const list = [];
  for (const arch of ['mobilenet_v2', 'mobilenet_v2.int8', 'resnet18']) {
    const f = path.join(zoo, `${arch}.tflite`), base = arch.replace('.int8', '');
    if (fs.existsSync(f)) list.push(`${f}:${path.join(zoo, `${base}.input_nhwc.npy`)}`);
  }
  for (const n of ['mobilenet_v2_224_quant', 'tf2_mobilenet_v2_224_ptq']) {
    const f = path.join(shared, 'models', `${n}.tflite`);
    if (fs.existsSync(f)) list.push(`${f}:${path.join(shared, 'models', 'ref', n, 'input_0.npy')}`);
  }
  return list;
}
const models = (opt('--models', null)?.split(/\s+/).filter(Boolean)) || defaultModels();

// ------------------------------------------------------------------ engines
const {Runtime} = await import(pathToFileURL(path.join(tfccPkg, 'lib', 'index.mjs')).href);
const tfccRt = await Runtime.create({threads: 1});
// --threads N: tfcc-wasm at N threads as one more engine, tfcc-wasm-Nt
const nThreads = Number(opt('--threads', 1));
const tfccRtN = nThreads > 1 ? await Runtime.create({threads: nThreads}) : null;
if (tfccRtN && tfccRtN.threads !== nThreads) {
  console.error(`bench: --threads ${nThreads}: the package runs ${tfccRtN.threads} (a threads build? scripts/build-wasm.sh --threads)`);
  process.exit(2);
}
const TN = `tfcc-wasm-${nThreads}t`;

const beforePkg = opt('--tfcc-before', null);
const beforeRt = beforePkg
  ? await (await import(pathToFileURL(path.join(path.resolve(beforePkg), 'lib', 'index.mjs')).href)).Runtime.create({threads: 1})
  : null;

async function tfccEngine(bytes, inputs, rt = tfccRt) {
  const m = await rt.loadModel(bytes);
  const s = m.createSession();
  return {run: () => s.run(inputs), output: () => Object.values(s.run(inputs))[0],
          close: () => { s.dispose(); m.dispose(); }};
}

let liteRt = null;
async function loadLiteRt() {
  if (liteRt) return liteRt;
  const CORE = path.join(deps, '@litertjs', 'core');
  const jsPath = path.join(CORE, 'wasm', litertRelaxed ? 'litert_wasm_internal.js' : 'litert_wasm_compat_internal.js');
  const wrapper = vm.runInThisContext('(function(exports, require, module, __filename, __dirname){' +
                                      fs.readFileSync(jsPath, 'utf8') + '\n})', {filename: jsPath});
  const mod = {exports: {}};
  wrapper(mod.exports, createRequire(jsPath), mod, jsPath, path.dirname(jsPath));
  globalThis.self = globalThis;
  globalThis.importScripts = () => {};
  globalThis.ModuleFactory = mod.exports;
  const core = await import(pathToFileURL(path.join(CORE, 'dist', 'index.js')).href);
  const lr = await core.loadLiteRt(jsPath);
  delete globalThis.importScripts;
  liteRt = {lr, version: JSON.parse(fs.readFileSync(path.join(CORE, 'package.json'))).version};
  return liteRt;
}

async function litertEngine(bytes, inputs) {
  const {lr} = await loadLiteRt();
  const w = lr.liteRtWasm, env = lr.getDefaultEnvironment();
  const ptr = w._malloc(bytes.length);
  w.HEAPU8.set(bytes, ptr);
  const model = w.loadModel(env.liteRtEnvironment, ptr, bytes.length);
  const compiled = await w.compileModel(env.liteRtEnvironment, model,
      {environment: env, accelerator: 'wasm', cpuOptions: {numThreads: 1}, gpuOptions: {}, webNNOptions: {}});
  const bufs = inputs.map((x, slot) => {
    const tt = model.getInputTensorType(0, slot);
    const raw = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
    const tb = w.LiteRtTensorBuffer.createManaged(env.liteRtEnvironment, w.LiteRtTensorBufferType.HOST_MEMORY, tt, raw.length);
    tt.delete();
    const dp = tb.lock(w.LiteRtTensorBufferLockMode.WRITE);
    w.HEAPU8.set(raw, dp);
    tb.unlock();
    return tb;
  });
  const run = async () => { const outs = await compiled.run(0, bufs); for (const o of outs) o.delete(); };
  const output = async () => {
    const outs = await compiled.run(0, bufs);
    const dp = outs[0].lock(w.LiteRtTensorBufferLockMode.READ);
    const b = w.HEAPU8.slice(dp, dp + outs[0].packedSize());
    outs[0].unlock();
    for (const o of outs) o.delete();
    return b;
  };
  return {run, output, close: () => { for (const b of bufs) b.delete(); compiled.delete(); model.delete(); w._free(ptr); }};
}

let tfweb = null;
async function loadTfWeb() {
  if (tfweb) return tfweb;
  const TJ = path.join(deps, '@tensorflow', 'tfjs-tflite');
  const dir = path.join(TJ, 'wasm'), base = 'tflite_web_api_cc_simd', js = path.join(dir, base + '.js');
  const factory = vm.runInThisContext('(function(require, __dirname, __filename, module, exports){' +
                                      fs.readFileSync(js, 'utf8') + '\n;return tflite_web_api_ModuleFactory;})',
                                      {filename: js})(createRequire(js), dir, js, {exports: {}}, {});
  const M = await factory({wasmBinary: fs.readFileSync(path.join(dir, base + '.wasm'))});
  tfweb = {M, version: JSON.parse(fs.readFileSync(path.join(TJ, 'package.json'))).version};
  return tfweb;
}

async function tfwebEngine(bytes, inputs) {
  const {M} = await loadTfWeb();
  const ptr = M._malloc(bytes.length);
  M.HEAPU8.set(bytes, ptr);
  const st = M.TFLiteWebModelRunner.CreateFromBufferAndOptions(ptr, bytes.length,
      {numThreads: 1, enableProfiling: false, maxProfilingBufferEntries: 1024});
  if (!st.ok()) throw new Error('tfweb: ' + st.errorMessage());
  const runner = st.value();
  const ins = runner.GetInputs();
  inputs.forEach((x, i) => {
    const d = ins.get(i).data();
    new Uint8Array(d.buffer, d.byteOffset, d.byteLength).set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
  });
  const run = () => { if (!runner.Infer()) throw new Error('tfweb: Infer() failed'); };
  const output = () => {
    run();
    const d = runner.GetOutputs().get(0).data();
    return new Uint8Array(d.buffer, d.byteOffset, d.byteLength).slice();
  };
  return {run, output, close: () => { runner.delete(); M._free(ptr); }};
}

// ------------------------------------------------------------------ measurement
const ENGINES = [['tfcc-wasm', tfccEngine], ['litert', litertEngine], ['tfjs-tflite', tfwebEngine]];
if (beforeRt) ENGINES.push(['tfcc-before', (b, i) => tfccEngine(b, i, beforeRt)]);
if (tfccRtN) ENGINES.push([TN, (b, i) => tfccEngine(b, i, tfccRtN)]);
const median = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const bytesOf = (x) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);

function maxDiff(a, b, dtype) {
  const C = {float32: Float32Array, int8: Int8Array, uint8: Uint8Array}[dtype] || Uint8Array;
  const x = new C(a.buffer, a.byteOffset, a.byteLength / C.BYTES_PER_ELEMENT);
  const y = new C(b.buffer, b.byteOffset, b.byteLength / C.BYTES_PER_ELEMENT);
  let m = 0;
  for (let i = 0; i < Math.min(x.length, y.length); i++) m = Math.max(m, Math.abs(x[i] - y[i]));
  return m;
}

const results = [];
for (const spec of models) {
  const [file, inFile] = spec.split(':');
  const bytes = new Uint8Array(fs.readFileSync(file));
  const inputs = [readNpy(inFile).data];
  const name = path.basename(file, '.tflite');
  const eng = {};
  for (const [ename, make] of ENGINES) {
    try { eng[ename] = await make(bytes, inputs); } catch (e) { console.log(`${name}: ${ename}: ${e.message}`); }
  }
  // agreement of output 0 with LiteRT (sanity: the engines compute the same thing)
  const check = {};
  if (eng['tfcc-wasm'] && eng.litert) {
    const t = eng['tfcc-wasm'].output();
    const r = await eng.litert.output();
    const dtype = t instanceof Float32Array ? 'float32' : t instanceof Int8Array ? 'int8' : 'uint8';
    check.tfcc_vs_litert_max_diff = maxDiff(bytesOf(t), r, dtype);
    check.tfcc_dtype = dtype;
  }
  const per = Object.fromEntries(Object.keys(eng).map((k) => [k, []]));
  const cpu = Object.fromEntries(Object.keys(eng).map((k) => [k, []]));
  const names = Object.keys(eng);
  for (const k of names) await eng[k].run(); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < names.length; j++) {
      const k = names[(r + j) % names.length];
      const t0 = performance.now(), c0 = process.cpuUsage();
      for (let i = 0; i < runs; i++) await eng[k].run();
      const c = process.cpuUsage(c0);
      per[k].push((performance.now() - t0) / runs);
      cpu[k].push((c.user + c.system) / 1000 / runs);
    }
  }
  const row = {model: name, file, ms: {}, ratio: {}, cpu_ms: {}, cpu_ratio: {}};
  Object.assign(row, check);
  for (const k of names) row.ms[k] = +median(per[k]).toFixed(2);
  for (const k of names) row.cpu_ms[k] = +median(cpu[k]).toFixed(2);
  for (const k of names.filter((n) => n !== 'tfcc-wasm')) {
    if (!per['tfcc-wasm']) continue;
    if (k === 'tfcc-before') {
      for (const o of ['litert', 'tfjs-tflite'])
        if (per[o]) row.ratio[`before/${o}`] = +median(per[k].map((v, i) => v / per[o][i])).toFixed(3);
    }
    row.ratio[`tfcc/${k}`] = +median(per['tfcc-wasm'].map((v, i) => v / per[k][i])).toFixed(3);
    row.cpu_ratio[`tfcc/${k}`] = +median(cpu['tfcc-wasm'].map((v, i) => v / cpu[k][i])).toFixed(3);
  }
  if (per[TN]) {
    for (const k of names.filter((n) => n !== TN && n !== 'tfcc-before')) {
      row.ratio[`${TN}/${k}`] = +median(per[TN].map((v, i) => v / per[k][i])).toFixed(3);
      row.cpu_ratio[`${TN}/${k}`] = +median(cpu[TN].map((v, i) => v / cpu[k][i])).toFixed(3);
    }
    if (eng['tfcc-wasm']) row[`${TN}_vs_1t_max_diff`] = maxDiff(bytesOf(eng[TN].output()), bytesOf(eng['tfcc-wasm'].output()),
                                                          row.tfcc_dtype);
  }
  results.push(row);
  console.log(JSON.stringify(row));
  for (const k of names) eng[k].close();
}

const wasmFile = path.join(tfccPkg, 'lib', 'tfcc-core.wasm');
const wasmBytes = fs.readFileSync(wasmFile);
const summary = {
  node: process.version, cpu: os.cpus()[0]?.model, rounds, runs_per_round: runs, threads: 1, tfcc_threads: tfccRtN ? [1, nThreads] : [1],
  tfcc_isa: tfccRt.isa, tfcc_binary: tfccRt.relaxedSimd ? 'relaxed-simd' : 'simd128', litert: liteRt?.version, litert_build: litertRelaxed ? 'relaxed-simd' : 'compat',
  tfjs_tflite: tfweb?.version,
  tfcc_wasm_bytes: wasmBytes.length, tfcc_wasm_gzip_bytes: zlib.gzipSync(wasmBytes, {level: 9}).length,
};
console.log(JSON.stringify(summary));
// wall ms, then CPU ms (process.cpuUsage: every engine runs on this thread, so CPU time is
// what each engine costs even when other processes share the machine)
console.log('\n| model | tfcc-wasm ms | LiteRT.js ms | tfjs-tflite ms | tfcc / LiteRT.js | tfcc / tfjs-tflite | CPU ms tfcc / LiteRT.js / tfjs | CPU tfcc / LiteRT.js | CPU tfcc / tfjs | max |tfcc - LiteRT| |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  console.log(`| ${r.model} | ${r.ms['tfcc-wasm'] ?? '-'} | ${r.ms.litert ?? '-'} | ${r.ms['tfjs-tflite'] ?? '-'} | ` +
              `${r.ratio['tfcc/litert'] ?? '-'} | ${r.ratio['tfcc/tfjs-tflite'] ?? '-'} | ` +
              `${r.cpu_ms['tfcc-wasm'] ?? '-'} / ${r.cpu_ms.litert ?? '-'} / ${r.cpu_ms['tfjs-tflite'] ?? '-'} | ` +
              `${r.cpu_ratio['tfcc/litert'] ?? '-'} | ${r.cpu_ratio['tfcc/tfjs-tflite'] ?? '-'} | ${r.tfcc_vs_litert_max_diff ?? '-'} |`);
}
if (tfccRtN) {
  console.log(`\n| model | tfcc-wasm ${nThreads} threads ms | tfcc-wasm 1 thread ms | LiteRT.js 1 thread ms | tfjs-tflite 1 thread ms | ` +
              `tfcc ${nThreads}t / LiteRT.js | tfcc ${nThreads}t / tfjs | tfcc ${nThreads}t / tfcc 1t | CPU ms tfcc ${nThreads}t / tfcc 1t / LiteRT.js / tfjs | max |tfcc ${nThreads}t - 1t| |`);
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results)
    console.log(`| ${r.model} | ${r.ms[TN] ?? '-'} | ${r.ms['tfcc-wasm'] ?? '-'} | ${r.ms.litert ?? '-'} | ${r.ms['tfjs-tflite'] ?? '-'} | ` +
                `${r.ratio[`${TN}/litert`] ?? '-'} | ${r.ratio[`${TN}/tfjs-tflite`] ?? '-'} | ${r.ratio[`${TN}/tfcc-wasm`] ?? '-'} | ` +
                `${r.cpu_ms[TN] ?? '-'} / ${r.cpu_ms['tfcc-wasm'] ?? '-'} / ${r.cpu_ms.litert ?? '-'} / ${r.cpu_ms['tfjs-tflite'] ?? '-'} | ` +
                `${r[`${TN}_vs_1t_max_diff`] ?? '-'} |`);
}
if (beforeRt) {
  console.log('\n| model | tfcc before ms | tfcc after ms | LiteRT.js ms | tfjs-tflite ms | before / LiteRT.js | after / LiteRT.js | before / tfjs | after / tfjs |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results)
    console.log(`| ${r.model} | ${r.ms['tfcc-before'] ?? '-'} | ${r.ms['tfcc-wasm'] ?? '-'} | ${r.ms.litert ?? '-'} | ${r.ms['tfjs-tflite'] ?? '-'} | ` +
                `${r.ratio['before/litert'] ?? '-'} | ${r.ratio['tfcc/litert'] ?? '-'} | ${r.ratio['before/tfjs-tflite'] ?? '-'} | ${r.ratio['tfcc/tfjs-tflite'] ?? '-'} |`);
}
const out = opt('--json', null);
if (out) fs.writeFileSync(out, JSON.stringify({summary, results}, null, 2) + '\n');
tfccRt.dispose();
tfccRtN?.dispose();
beforeRt?.dispose();

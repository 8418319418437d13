#!/usr/bin/env node
// Runs a .tflite model several times in a row on ONE TensorFlow Lite (LiteRT.js) compiled model,
// so that state (resource variables, CALL_ONCE) carries from one run to the next, and writes
// every run's outputs. Uses the oracle installed as ../shared/tools/tflite-ref describes
// (default /tmp/tflite-ref; TFLITE_REF_DIR overrides). run_ref.mjs compiles the model afresh for
// each run, so it cannot make references for a sequence of runs.
//
//   node modelgen/run_ref_seq.mjs MODEL.tflite OUTDIR --signature KEY --runs R --inputs N \
//        r0_in0.npy .. r0_in<N-1>.npy r1_in0.npy ...
// writes OUTDIR/r<run>.out<i>.npy (outputs in the signature's order) and prints one JSON line.
// Inputs of each run are given in the signature's input order.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import {createRequire} from 'node:module';

const REF = process.env.TFLITE_REF_DIR || '/tmp/tflite-ref';
const CORE = path.join(REF, 'node_modules', '@litertjs', 'core');
const ELEM = {1: ['<f4', 4], 2: ['<i4', 4], 3: ['|u1', 1], 4: ['<i8', 8], 6: ['|b1', 1], 7: ['<i2', 2], 9: ['|i1', 1]};
const ALIAS = {'<u1': '|u1', '<i1': '|i1', '<b1': '|b1', 'u1': '|u1', 'i1': '|i1', 'b1': '|b1'};

const argv = process.argv.slice(2);
const pos = [];
let sigKey = null, runs = 1, nIn = 0;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--signature') sigKey = argv[++i];
  else if (argv[i] === '--runs') runs = parseInt(argv[++i], 10);
  else if (argv[i] === '--inputs') nIn = parseInt(argv[++i], 10);
  else pos.push(argv[i]);
}
const [modelPath, outDir, ...inPaths] = pos;
if (!modelPath || !outDir || inPaths.length !== runs * nIn) {
  console.error('usage: run_ref_seq.mjs MODEL OUTDIR --signature KEY --runs R --inputs N files (R*N)');
  process.exit(2);
}

function readNpy(file) {
  const buf = fs.readFileSync(file);
  const hlen = buf.readUInt16LE(8);
  const header = buf.toString('latin1', 10, 10 + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map(s => s.trim()).filter(s => s).map(Number);
  return {descr: ALIAS[descr] || descr, shape, data: buf.subarray(10 + hlen)};
}

function writeNpy(file, descr, shape, bytes) {
  const shp = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shp}, }`;
  header += ' '.repeat((64 - ((11 + header.length) % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  pre.writeUInt32BE(0x934e554d, 0);
  pre.write('PY', 4, 'latin1');
  pre[6] = 1;
  pre.writeUInt16LE(header.length, 8);
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'), Buffer.from(bytes)]));
}

const jsPath = path.join(CORE, 'wasm', 'litert_wasm_compat_internal.js');
const src = fs.readFileSync(jsPath, 'utf8');
const wrapper = vm.runInThisContext('(function(exports, require, module, __filename, __dirname){' + src + '\n})',
                                    {filename: jsPath});
const mod = {exports: {}};
wrapper(mod.exports, createRequire(jsPath), mod, jsPath, path.dirname(jsPath));
globalThis.self = globalThis;
globalThis.importScripts = () => {};
globalThis.ModuleFactory = mod.exports;
const core = await import(path.join(CORE, 'dist', 'index.js'));
const lr = await core.loadLiteRt(jsPath);
delete globalThis.importScripts;
const wasm = lr.liteRtWasm;
const env = lr.getDefaultEnvironment();
const vec = v => { const a = []; for (let i = 0; i < v.size(); i++) a.push(v.get(i)); v.delete(); return a; };

const bytes = fs.readFileSync(modelPath);
const ptr = wasm._malloc(bytes.byteLength);
wasm.HEAPU8.set(bytes, ptr);
const model = wasm.loadModel(env.liteRtEnvironment, ptr, bytes.byteLength);
const compiled = await wasm.compileModel(env.liteRtEnvironment, model,
    {environment: env, accelerator: 'wasm', cpuOptions: {numThreads: 1}, gpuOptions: {}, webNNOptions: {}});
let sigIndex = 0;
const nSig = model.getNumSignatures ? model.getNumSignatures() : 1;
for (let k = 0; k < nSig; k++) {
  const s = model.getSignature(k);
  if (sigKey === null || s.key() === sigKey) { sigIndex = k; s.delete(); break; }
  s.delete();
}
const sig = model.getSignature(sigIndex);
const inNames = vec(sig.inputNames()), outNames = vec(sig.outputNames());
if (inNames.length !== nIn) throw new Error(`signature ${sig.key()} has ${inNames.length} inputs, --inputs ${nIn}`);
fs.mkdirSync(outDir, {recursive: true});
const summary = {engine: 'litert', signature: sig.key(), inputs: inNames, outputs: outNames, runs: []};
for (let r = 0; r < runs; r++) {
  const bufs = [];
  for (let i = 0; i < nIn; i++) {
    const arr = readNpy(inPaths[r * nIn + i]);
    const tt = model.getInputTensorType(sigIndex, i);
    const et = tt.elementType().value;
    if (!ELEM[et] || ELEM[et][0] !== arr.descr) throw new Error(`input ${i}: model element type ${et}, npy ${arr.descr}`);
    const dv = new wasm.VectorInt32();
    for (const d of arr.shape) dv.push_back(d);
    const lay = wasm.LiteRtLayout.create(dv);
    dv.delete();
    const useType = wasm.LiteRtRankedTensorType.create({value: et}, lay);
    lay.delete();
    tt.delete();
    const tb = wasm.LiteRtTensorBuffer.createManaged(env.liteRtEnvironment, wasm.LiteRtTensorBufferType.HOST_MEMORY,
                                                     useType, Math.max(arr.data.length, 1));
    useType.delete();
    const dp = tb.lock(wasm.LiteRtTensorBufferLockMode.WRITE);
    wasm.HEAPU8.set(arr.data, dp);
    tb.unlock();
    bufs.push(tb);
  }
  const outs = await compiled.run(sigIndex, bufs);
  const shapes = [];
  for (let o = 0; o < outs.length; o++) {
    const tb = outs[o];
    const tt = tb.tensorType();
    const et = tt.elementType().value;
    const layout = tt.layout();
    const dims = vec(layout.dimensions());
    layout.delete(); tt.delete();
    const dp = tb.lock(wasm.LiteRtTensorBufferLockMode.READ);
    const n = dims.reduce((a, b) => a * b, 1) * ELEM[et][1];
    const data = wasm.HEAPU8.slice(dp, dp + n);
    tb.unlock();
    writeNpy(path.join(outDir, `r${r}.out${o}.npy`), ELEM[et][0], dims, data);
    shapes.push(dims);
    tb.delete();
  }
  for (const tb of bufs) tb.delete();
  summary.runs.push(shapes);
}
console.log(JSON.stringify(summary));

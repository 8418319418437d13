// tfcc-wasm against XNNPACK layer by layer: the TFLite Web API of @tensorflow/tfjs-tflite
// (XNNPACK delegate, profiling on) and a tfcc-wasm package in one Node process, blocks of runs
// interleaved; per convolution (CONV_2D / DEPTHWISE_CONV_2D in model order against XNNPACK's
// Convolution ops in run order) tfcc's median ms, XNNPACK's mean ms and the ratio, then the
// other operators of each. XNNPACK's own profile adds its timing overhead; compare the ratios
// between layers (which lose, which win), not the totals. Models whose graphs tfcc fuses
// differently (float MobileNetV2: EXPAND_DEPTHWISE_CONV_2D) do not line up layer by layer.
//   node bench/wasm/xnn-layers.mjs [--tfcc PKG] [--deps NODE_MODULES] [--blocks 10] [--runs 5] [--zoo DIR] [MODEL]
// MODEL: a zoo name (default mobilenet_v2.int8). Needs bench/wasm's npm deps (README).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import {createRequire} from 'node:module';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {readNpy} from '../../js/test/npy.mjs';
import {takeOpt} from './args.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => takeOpt(args, k, d);
const pkg = path.resolve(opt('--tfcc', path.join(HERE, '..', '..', 'build-wasm', 'npm', 'tfcc-wasm')));
const deps = opt('--deps', [path.join(HERE, 'node_modules'), '/tmp/tflite-ref/node_modules']
  .find((d) => fs.existsSync(path.join(d, '@tensorflow', 'tfjs-tflite'))));
const blocks = Number(opt('--blocks', 10)), runs = Number(opt('--runs', 5));
const zoo = opt('--zoo', path.join(os.homedir(), '.cache', 'tfcc-zoo'));
const name = args[0] || 'mobilenet_v2.int8';
if (!deps) { console.error('xnn-layers: no @tensorflow/tfjs-tflite: run `npm ci` in bench/wasm or pass --deps'); process.exit(2); }
const bytes = fs.readFileSync(path.join(zoo, `${name}.tflite`));
const x = readNpy(path.join(zoo, `${name.replace('.int8', '')}.input_nhwc.npy`)).data;

const dir = path.join(deps, '@tensorflow', 'tfjs-tflite', 'wasm'), js = path.join(dir, 'tflite_web_api_cc_simd.js');
const factory = vm.runInThisContext('(function(require, __dirname, __filename, module, exports){' +
                                    fs.readFileSync(js, 'utf8') + '\n;return tflite_web_api_ModuleFactory;})',
                                    {filename: js})(createRequire(js), dir, js, {exports: {}}, {});
const M = await factory({wasmBinary: fs.readFileSync(path.join(dir, 'tflite_web_api_cc_simd.wasm'))});
const ptr = M._malloc(bytes.length);
M.HEAPU8.set(bytes, ptr);
const st = M.TFLiteWebModelRunner.CreateFromBufferAndOptions(ptr, bytes.length,
    {numThreads: 1, enableProfiling: true, maxProfilingBufferEntries: 100000});
if (!st.ok()) throw new Error('tfjs-tflite: ' + st.errorMessage());
const runner = st.value();
{
  const d = runner.GetInputs().get(0).data();
  new Uint8Array(d.buffer, d.byteOffset, d.byteLength).set(new Uint8Array(x.buffer, x.byteOffset, x.byteLength));
}
const {Runtime} = await import(pathToFileURL(path.join(pkg, 'lib', 'index.mjs')).href);
const rt = await Runtime.create({threads: 1});
const s = (await rt.loadModel(new Uint8Array(bytes))).createSession();
const feed = {[s.inputs[0].name]: x};
for (let i = 0; i < 3; i++) { s.run(feed); runner.Infer(); }
const prof = [];
for (let b = 0; b < blocks; b++) {
  s.profile(true);
  for (let i = 0; i < runs; i++) s.run(feed);
  prof.push(s.profile());
  s.profile(false);
  for (let i = 0; i < runs; i++) runner.Infer();
}
// XNNPACK's ops: the summary's "Delegate internal" run-order table, mean ms per op
const sum = runner.GetProfilingSummary();
const sec = sum.slice(sum.indexOf('Delegate internal'));
const xnn = [];
for (const line of sec.slice(0, sec.indexOf('Top by')).split('\n')) {
  const m = line.match(/DelegateOpInvoke\s+[\d.]+\s+([\d.]+)\s+.*Delegate\/(.*):\d+$/);
  if (m) xnn.push({ms: +m[1], op: m[2]});
}
const med = (v) => { const q = [...v].sort((p, r) => p - r); return q[q.length >> 1]; };
const tf = prof[0].map((n, i) => ({...n, ms: med(prof.map((p) => p[i].ms))}));
const tc = tf.filter((n) => n.op === 'CONV_2D' || n.op === 'DEPTHWISE_CONV_2D');
const xc = xnn.filter((n) => /^Convolution/.test(n.op));
console.log(`tfcc ${tf.reduce((t, n) => t + n.ms, 0).toFixed(3)} ms, XNNPACK ${xnn.reduce((t, n) => t + n.ms, 0).toFixed(3)} ms (profiled)`);
console.log('| node | op | MACs | tfcc ms | XNNPACK op | XNNPACK ms | tfcc / XNNPACK |');
console.log('|---:|---|---:|---:|---|---:|---:|');
for (let i = 0; i < tc.length; i++) {
  const q = xc[i];
  console.log(`| ${tc[i].node} | ${tc[i].op} | ${tc[i].macs} | ${tc[i].ms.toFixed(4)} | ${q ? q.op : '-'} | ${q ? q.ms.toFixed(4) : '-'} | ${q ? (tc[i].ms / q.ms).toFixed(3) : '-'} |`);
}
console.log('tfcc, other:', tf.filter((n) => !/CONV_2D/.test(n.op)).map((n) => `${n.op} ${n.ms.toFixed(3)}`).join(', '));
console.log('XNNPACK, other:', xnn.filter((n) => !/^Convolution/.test(n.op)).map((n) => `${n.op} ${n.ms.toFixed(3)}`).join(', '));

// The threads build in Node (worker_threads): Runtime.create({threads: 2}) starts one worker
// besides the caller (counted in Emscripten's pool), and the shared models give at 2 threads
// what they give at 1 and what TensorFlow Lite gives (ref/): quantized outputs bit-identical,
// float32 |2 threads - 1 thread| and |ours - ref| <= 1e-3 + 1e-3 |ref| (the models' README).
// Where /proc/self/task exists (Linux), the runs at 2 threads must spend CPU time on two threads
// (the second busiest thread at least a fifth of the busiest's); CPU time over wall time of the
// process is printed (not asserted: the machine may be busy).
//   node js/test/threads.mjs [--pkg DIR] [--shared DIR]
// Exit 77 (skip) when the package is not a threads build or the shared models are absent.
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {readNpy} from './npy.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const pkg = path.resolve(opt('--pkg', path.join(HERE, '..', 'lib')));
const shared = opt('--shared', process.env.TFCC_SHARED_DIR || path.join(HERE, '..', '..', '..', 'shared'));
const modelsDir = path.join(shared, 'models');
const entry = fs.existsSync(path.join(pkg, 'index.mjs')) ? path.join(pkg, 'index.mjs') : path.join(pkg, 'lib', 'index.mjs');
const {Runtime} = await import(pathToFileURL(entry).href);

const rt1 = await Runtime.create({threads: 1});
const pool = rt1._core.PThread;
if (!pool) {
  console.log('SKIP: not a threads build (scripts/build-wasm.sh --threads)');
  process.exit(77);
}
if (!fs.existsSync(path.join(modelsDir, 'ref'))) {
  console.log(`SKIP: no shared models at ${modelsDir}`);
  process.exit(77);
}
// CPU ticks per thread of this process (Linux), {} elsewhere
function threadTicks() {
  const out = {};
  try {
    for (const tid of fs.readdirSync('/proc/self/task')) {
      const f = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      out[tid] = Number(f[11]) + Number(f[12]); // utime + stime (fields 14, 15)
    }
  } catch { /* not Linux */ }
  return out;
}
let failures = 0;
const fail = (msg) => { failures++; console.log(`FAIL ${msg}`); };

const busy = pool.runningWorkers.length;
const rt2 = await Runtime.create({threads: 2});
if (rt2.threads !== 2) fail(`Runtime.create({threads: 2}) gave ${rt2.threads} thread(s) (pool of ${pool.unusedWorkers.length + busy} workers)`);
if (pool.runningWorkers.length !== busy + 1) fail(`threads: 2 runs ${pool.runningWorkers.length - busy} worker(s), expected 1`);
console.log(`tfcc-wasm ${rt2.version}, isa ${rt2.isa}: ${rt2.threads} threads, ${pool.runningWorkers.length - busy} worker running`);

// uint8, int8 (quantized) and float32 models
const NAMES = ['mobilenet_v2_224_quant', 'tf2_mobilenet_v2_224_ptq', 'deeplabv3_257_float'];
const RUNS = 3;
for (const name of NAMES) {
  const file = path.join(modelsDir, `${name}.tflite`);
  if (!fs.existsSync(file)) { fail(`${name}: no ${file}`); continue; }
  const outs = [];
  let ratio = 0, busiest = [];
  for (const rt of [rt1, rt2]) {
    const model = await rt.loadModel(file);
    const s = model.createSession();
    const inputs = s.inputs.map((t, i) => readNpy(path.join(modelsDir, 'ref', name, `input_${i}.npy`)).data);
    let out = s.run(inputs);
    const t0 = threadTicks(), c0 = process.cpuUsage(), w0 = performance.now();
    // at least RUNS runs and 0.4 s (the CPU ticks are 10 ms)
    for (let r = 0; r < RUNS || performance.now() - w0 < 400; r++) out = s.run(inputs);
    const c = process.cpuUsage(c0), w = performance.now() - w0, t1 = threadTicks();
    if (rt === rt2) {
      ratio = (c.user + c.system) / 1000 / w;
      busiest = Object.keys(t1).map((k) => t1[k] - (t0[k] || 0)).sort((x, y) => y - x).slice(0, 2);
    }
    outs.push({out, info: s.outputs});
    s.dispose();
    model.dispose();
  }
  outs[0].info.forEach((t, i) => {
    const a = outs[0].out[t.name], b = outs[1].out[t.name];
    const ref = readNpy(path.join(modelsDir, 'ref', name, `output_${i}.npy`)).data;
    const quant = t.dtype !== 'float32';
    let differ = 0, over = 0, overRef = 0;
    for (let k = 0; k < a.length; k++) {
      const d = Math.abs(a[k] - b[k]), dr = Math.abs(b[k] - ref[k]);
      if (d > 0) differ++;
      if (quant ? d > 0 : d > 1e-3 + 1e-3 * Math.abs(a[k])) over++;
      if (quant ? dr > 0 : dr > 1e-3 + 1e-3 * Math.abs(ref[k])) overRef++;
    }
    const twoBusy = busiest.length < 2 || busiest[1] * 5 >= busiest[0];
    const ok = twoBusy && over === 0 && overRef === 0 && a.length === b.length && b.length === ref.length;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(26)} out${i} ${t.dtype.padEnd(7)} 2 vs 1 thread: ${differ} of ${a.length} differ` +
                `${quant ? ' (bit-identical required)' : ''}; vs TFLite: ${overRef} over tolerance; cpu/wall at 2 threads ${ratio.toFixed(2)}` +
                (busiest.length < 2 ? '' : `, ticks of the two busiest threads ${busiest.join(' + ')}`));
    if (!ok) failures++;
  });
}
rt2.dispose();
if (pool.runningWorkers.length !== busy) fail(`dispose left ${pool.runningWorkers.length - busy} worker(s) running`);
rt1.dispose();
console.log(failures ? `${failures} failure(s)` : 'threads build: 2 threads match 1 thread and TensorFlow Lite');
process.exit(failures ? 1 : 0);

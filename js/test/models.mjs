// The shared models (../shared/models) through the package, against the TensorFlow Lite
// reference outputs ref/<name>/output_<i>.npy, with the tolerances of the models' README (those
// of the native test tests/models/test_shared_models.c): quantized outputs bit-exact (the native
// engine is; counted and asserted here), int32/int64 label maps >= 99.5% exact, float32
// |ours - ref| <= 1e-3 + 1e-3 |ref|. Where ref/ is not valid (outputs sized while running, which
// the litert oracle returns stale) the references of tests/models/test_runtime_shapes.c are used,
// as there (tests/models/data/runtime_shapes/README.md).
//   node js/test/models.mjs [--pkg DIR] [--shared DIR] [--only NAME] [--threads N] [--expect-relaxed]
// --expect-relaxed (under node --experimental-wasm-relaxed-simd): fails unless the package's
// relaxed-SIMD binary is the one that runs
// Exit 77 (skip) when the shared directory is absent.
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {floatDistance, floatWithin} from './float_compare.mjs';
import {readNpy} from './npy.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const pkg = path.resolve(opt('--pkg', path.join(HERE, '..', 'lib')));
const shared = opt('--shared', process.env.TFCC_SHARED_DIR || path.join(HERE, '..', '..', '..', 'shared'));
const only = opt('--only', null);
const threads = Number(opt('--threads', 1));
const isa = opt('--isa', undefined);
const modelsDir = path.join(shared, 'models');
if (!fs.existsSync(path.join(modelsDir, 'ref'))) {
  console.log(`SKIP: no shared models at ${modelsDir}`);
  process.exit(77);
}
const entry = fs.existsSync(path.join(pkg, 'index.mjs')) ? path.join(pkg, 'index.mjs') : path.join(pkg, 'lib', 'index.mjs');
const {Runtime} = await import(pathToFileURL(entry).href);

const DATA = path.join(HERE, '..', '..', 'tests', 'models', 'data', 'runtime_shapes');
// model -> (output index) -> {file, every}: reference replacing ref/<name>/output_<i>.npy
const OTHER_REF = {
  transpose_conv_shape_input_int16: (i) => ({file: path.join(DATA, 'transpose_conv_os12_out0.npy'), every: 1}),
  basic_pitch_nmp: (i) => ({file: path.join(DATA, `basic_pitch_out${i}_every8.npy`), every: 8}),
};
// models the native model tests do not run either (operators tfcc does not have yet): a load
// that fails with "unsupported" is reported as skipped, not failed
const NOT_YET = new Set(['okay_nabu_streaming']);
const QUANT = new Set(['uint8', 'int8', 'int16']);
const LABELS = new Set(['int32', 'int64']);
// MODELS: every model with a reference; the native test skips none either.
const names = fs.readdirSync(path.join(modelsDir, 'ref'))
  .filter((n) => fs.existsSync(path.join(modelsDir, `${n}.tflite`)) && fs.existsSync(path.join(modelsDir, 'ref', n, 'output_0.npy')))
  .filter((n) => !only || n === only).sort();

const rt = await Runtime.create({threads, isa});
console.log(`tfcc-wasm ${rt.version}, isa ${rt.isa}, ${rt.threads} thread(s), ` +
            `${rt.relaxedSimd ? 'relaxed-SIMD' : 'SIMD128'} binary, int8 GEMM ${rt.q8Gemm}`);
let failures = 0;
const fail = (msg) => { failures++; console.log(`FAIL ${msg}`); };
if (args.includes('--expect-relaxed') && !rt.relaxedSimd) fail('the relaxed-SIMD binary did not load');

for (const name of names) {
  const t0 = performance.now();
  let model, session;
  try {
    model = await rt.loadModel(path.join(modelsDir, `${name}.tflite`));
    session = model.createSession();
  } catch (e) {
    if (NOT_YET.has(name) && /unsupported/.test(e.message)) console.log(`  skip ${name}: ${e.message.slice(0, 120)}`);
    else fail(`${name}: ${e.message}`);
    continue;
  }
  const inputs = session.inputs.map((t, i) => readNpy(path.join(modelsDir, 'ref', name, `input_${i}.npy`)).data);
  let out;
  try {
    out = session.run(inputs);
  } catch (e) {
    fail(`${name}: run: ${e.message}`);
    session.dispose(); model.dispose();
    continue;
  }
  const ms = performance.now() - t0;
  session.outputs.forEach((t, i) => {
    const other = OTHER_REF[name] ? OTHER_REF[name](i) : null;
    const ref = readNpy(other ? other.file : path.join(modelsDir, 'ref', name, `output_${i}.npy`));
    let got = out[t.name];
    if (other && other.every > 1) got = got.filter((_, k) => k % other.every === 0);
    if (ref.dtype !== t.dtype || ref.data.length !== got.length) {
      fail(`${name}: output ${i}: ours ${t.dtype} x${got.length}, ref ${ref.dtype} x${ref.data.length}`);
      return;
    }
    let differ = 0, over = 0, maxDiff = 0;
    for (let k = 0; k < got.length; k++) {
      let a = got[k], b = ref.data[k];
      if (typeof a === 'bigint') { a = Number(a); b = Number(b); }
      const d = floatDistance(a, b);
      if (d > 0) differ++;
      if (!floatWithin(a, b, t.dtype === 'float32' ? 1e-3 + 1e-3 * Math.abs(b) : 0)) over++;
      if (d > maxDiff) maxDiff = d;
    }
    let ok;
    if (LABELS.has(t.dtype)) ok = differ * 1000 <= got.length * 5;
    else ok = over === 0; // QUANT: tol 0, bit-exact
    const tag = QUANT.has(t.dtype) ? ' (quantized: bit-exact required)' : '';
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(34)} out${i} ${t.dtype.padEnd(7)} ${String(got.length).padStart(8)} elements: ` +
                `${differ} differ (max ${maxDiff.toPrecision(3)})${differ === 0 ? ', bit-exact' : ''}${tag}  ${ms.toFixed(0)} ms`);
    if (!ok) failures++;
  });
  session.dispose();
  model.dispose();
}
rt.dispose();
console.log(failures ? `${failures} failure(s) in ${names.length} models` : `all ${names.length} models match their references`);
process.exit(failures ? 1 : 0);

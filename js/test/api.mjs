// API of the package: loading from bytes / path / file URL, tensor descriptions, run by name and
// in order, zero-copy input and output views, errors carrying tfcc's message, dispose.
//   node js/test/api.mjs [--pkg DIR] [--shared DIR]      (exit 77 without the shared models)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {readNpy} from './npy.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const pkg = path.resolve(opt('--pkg', path.join(HERE, '..', 'lib')));
const shared = opt('--shared', process.env.TFCC_SHARED_DIR || path.join(HERE, '..', '..', '..', 'shared'));
const models = path.join(shared, 'models');
const NAME = 'mobilenet_v1_025_128_quant';
if (!fs.existsSync(path.join(models, `${NAME}.tflite`))) {
  console.log(`SKIP: no shared models at ${models}`);
  process.exit(77);
}
const entry = fs.existsSync(path.join(pkg, 'index.mjs')) ? path.join(pkg, 'index.mjs') : path.join(pkg, 'lib', 'index.mjs');
const {Runtime, TfccError} = await import(pathToFileURL(entry).href);

let checks = 0;
async function check(what, fn) {
  await fn();
  checks++;
  console.log(`ok ${what}`);
}

const rt = await Runtime.create({threads: 1});
await check('runtime reports SIMD128 kernels and a version', () => {
  assert.equal(rt.isa, 'wasmsimd');
  assert.match(rt.version, /^\d+\.\d+\.\d+/);
});

await check('a file that is not a model fails with tfcc\'s message', async () => {
  await assert.rejects(rt.loadModel(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])), (e) => {
    assert.ok(e instanceof TfccError, String(e));
    assert.match(e.message, /^model: /);
    assert.ok(e.message.length > 'model: '.length + 10, e.message);
    return true;
  });
  await assert.rejects(rt.loadModel(path.join(models, 'no_such_model.tflite')), /ENOENT/);
});

const file = path.join(models, `${NAME}.tflite`);
const input = readNpy(path.join(models, 'ref', NAME, 'input_0.npy')).data;
const ref = readNpy(path.join(models, 'ref', NAME, 'output_0.npy')).data;

for (const [how, src] of [['path', file], ['file URL', pathToFileURL(file)], ['bytes', fs.readFileSync(file)],
                          ['ArrayBuffer', new Uint8Array(fs.readFileSync(file)).buffer]]) {
  await check(`load from ${how}, describe, run by name = TFLite's output`, async () => {
    const m = await rt.loadModel(src);
    const s = m.createSession();
    assert.equal(s.inputs.length, 1);
    assert.deepEqual({...s.inputs[0]}, {
      name: 'input', dtype: 'uint8', shape: [1, 128, 128, 3], bytes: 128 * 128 * 3,
      quantization: {scales: [0.0078125], zeroPoints: [128], axis: -1}, dynamic: false,
    });
    assert.equal(s.outputs[0].name, 'MobilenetV1/Predictions/Reshape_1');
    assert.deepEqual(s.outputs[0].shape, [1, 1001]);
    const out = s.run({input});
    const o = out['MobilenetV1/Predictions/Reshape_1'];
    assert.ok(o instanceof Uint8Array);
    assert.deepEqual(Array.from(o), Array.from(ref));
    s.dispose();
    m.dispose();
  });
}

const m = await rt.loadModel(file);
const s = m.createSession();
await check('run in input order; zero-copy input view and output views', () => {
  const a = s.run([input]);
  s.inputView('input').set(input);
  const b = s.run({}, {copy: false});
  const o = b['MobilenetV1/Predictions/Reshape_1'];
  assert.equal(o.buffer, s.inputView(0).buffer, 'output view is in wasm memory');
  assert.deepEqual(Array.from(o), Array.from(a['MobilenetV1/Predictions/Reshape_1']));
});

await check('per-operator profile names the wasmsimd kernels', () => {
  s.profile(true);
  s.run({input});
  s.run({input});
  const p = s.profile();
  assert.equal(p.length, 31, 'one entry per operator (31 in the file, none folded)');
  const conv = p.filter((e) => e.op === 'CONV_2D');
  assert.ok(conv.length > 0 && conv.every((e) => e.kernel === 'q8-gemm-4x8-wasmsimd' && e.runs === 2 && e.ms >= 0 && e.macs > 0),
            JSON.stringify(conv[0]));
  assert.ok(p.some((e) => e.op === 'DEPTHWISE_CONV_2D' && e.kernel === 'q8-dwconv-16-wasmsimd'), JSON.stringify(p));
  s.profile(false);
});

await check('wrong input size, type or name fails naming the input', () => {
  assert.throws(() => s.run({input: new Uint8Array(10)}), (e) => e instanceof TfccError && /input 'input': 10 bytes given/.test(e.message));
  assert.throws(() => s.run({input: [1, 2, 3]}), /expected a typed array/);
  assert.throws(() => s.run({nope: input}), /input 'nope': no such input \(inputs: input\)/);
});

await check('a session keeps its model alive; disposed handles refuse to run', () => {
  m.dispose();
  const o = s.run({input})['MobilenetV1/Predictions/Reshape_1'];
  assert.deepEqual(Array.from(o), Array.from(ref));
  s.dispose();
  assert.throws(() => s.run({input}), /session: disposed/);
  assert.throws(() => m.createSession(), /model: disposed/);
});

await check('several inputs and outputs (split_concat_quant)', async () => {
  const name = 'split_concat_quant';
  const mm = await rt.loadModel(path.join(models, `${name}.tflite`));
  const ss = mm.createSession();
  assert.equal(ss.inputs.length, 3);
  assert.equal(ss.outputs.length, 5);
  const ins = ss.inputs.map((t, i) => readNpy(path.join(models, 'ref', name, `input_${i}.npy`)).data);
  const out = ss.run(Object.fromEntries(ss.inputs.map((t, i) => [t.name, ins[i]])));
  ss.outputs.forEach((t, i) => {
    assert.deepEqual(Array.from(out[t.name]), Array.from(readNpy(path.join(models, 'ref', name, `output_${i}.npy`)).data));
  });
  ss.dispose();
  mm.dispose();
});

rt.dispose();
await assert.rejects(rt.loadModel(file), /runtime: disposed/);
console.log(`api: ${checks} checks, 0 failed`);

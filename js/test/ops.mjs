// Quantized elementwise operators through the package: the conformance models of ADD, SUB and
// MUL on int8 / uint8 (tests/ops/conformance: same shapes, row and 4-D broadcasts, scalars) and
// of QUANTIZE float32 -> int8 / uint8 (21 values: the wasm kernel's 16-value steps and the
// tail), at the wasmsimd and the generic kernel level, bit-exact against TensorFlow Lite's
// outputs.
//   node js/test/ops.mjs [--pkg DIR]
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {readNpy} from './npy.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const pkg = path.resolve(opt('--pkg', path.join(HERE, '..', 'lib')));
const entry = fs.existsSync(path.join(pkg, 'index.mjs')) ? path.join(pkg, 'index.mjs') : path.join(pkg, 'lib', 'index.mjs');
const {Runtime} = await import(pathToFileURL(entry).href);
const dir = path.join(HERE, '..', '..', 'tests', 'ops', 'conformance');
const names = fs.readdirSync(dir).filter((f) => /^((add|sub|mul)_(i8|u8)_.*|quantize_f32_to_(i8|u8))\.tflite$/.test(f)).map((f) => f.slice(0, -7)).sort();
assert.ok(names.length >= 20, `only ${names.length} conformance models in ${dir}`);

let checks = 0;
for (const isa of ['wasmsimd', 'generic']) {
  const rt = await Runtime.create({threads: 1, isa});
  assert.equal(rt.isa, isa);
  for (const name of names) {
    const m = await rt.loadModel(path.join(dir, `${name}.tflite`));
    const s = m.createSession();
    const ins = s.inputs.map((t, i) => readNpy(path.join(dir, `${name}.in${i}.npy`)).data);
    const out = Object.values(s.run(ins))[0];
    const ref = readNpy(path.join(dir, `${name}.out0.npy`)).data;
    assert.deepEqual(Array.from(out), Array.from(ref), `${name} (${isa})`);
    s.dispose();
    m.dispose();
    checks++;
  }
  rt.dispose();
}
console.log(`${checks} checks passed (${names.length} models x 2 kernel levels)`);

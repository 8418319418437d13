// Convolution-family operators through the package: the conformance models of CONV_2D,
// DEPTHWISE_CONV_2D and FULLY_CONNECTED (tests/ops/conformance: int8, uint8, int16, float and
// hybrid; strides, dilations, padding, odd channel counts and depths, batches), at the wasmsimd
// and the generic kernel level, against TensorFlow Lite's outputs with the tolerance of
// tests/ops/conformance/cases.txt (exact: byte-identical; float: |d| <= 1e-5 + 1e-5 |ref|, NaN for
// NaN).
// They reach the wasm GEMM and depthwise kernels' edges: column tails of a panel, row tiles
// shorter than the kernel's, depth tails, several panels per call.
//   node js/test/conv.mjs [--pkg DIR]
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {floatDistance, floatWithin} from './float_compare.mjs';
import {readNpy} from './npy.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const pkg = path.resolve(opt('--pkg', path.join(HERE, '..', 'lib')));
const entry = fs.existsSync(path.join(pkg, 'index.mjs')) ? path.join(pkg, 'index.mjs') : path.join(pkg, 'lib', 'index.mjs');
const {Runtime} = await import(pathToFileURL(entry).href);
const dir = path.join(HERE, '..', '..', 'tests', 'ops', 'conformance');
const cases = fs.readFileSync(path.join(dir, 'cases.txt'), 'utf8').split('\n')
  .filter((l) => /^(conv_2d|depthwise_conv_2d|fully_connected)_/.test(l))
  .map((l) => { const [name, ins, outs, kind] = l.trim().split(/\s+/); return {name, ins: +ins, outs: +outs, kind}; });
assert.ok(cases.length >= 40, `only ${cases.length} convolution cases in ${dir}/cases.txt`);

let checks = 0;
for (const isa of ['wasmsimd', 'generic']) {
  const rt = await Runtime.create({threads: 1, isa});
  assert.equal(rt.isa, isa);
  for (const c of cases) {
    const m = await rt.loadModel(path.join(dir, `${c.name}.tflite`));
    const s = m.createSession();
    const ins = [];
    for (let i = 0; i < c.ins; i++) ins.push(readNpy(path.join(dir, `${c.name}.in${i}.npy`)).data);
    const outs = Object.values(s.run(ins));
    assert.equal(outs.length, c.outs, `${c.name}: outputs`);
    for (let o = 0; o < c.outs; o++) {
      const ref = readNpy(path.join(dir, `${c.name}.out${o}.npy`)).data, out = outs[o];
      assert.equal(out.length, ref.length, `${c.name} out${o} (${isa}): length`);
      if (c.kind === 'exact') {
        assert.deepEqual(Array.from(out), Array.from(ref), `${c.name} out${o} (${isa})`);
      } else {
        for (let i = 0; i < ref.length; i++) {
          assert.ok(floatWithin(out[i], ref[i], 1e-5 + 1e-5 * Math.abs(ref[i])),
                    `${c.name} out${o} (${isa}) [${i}]: ${out[i]} vs ${ref[i]} (|d| ${floatDistance(out[i], ref[i])})`);
        }
      }
      checks++;
    }
    s.dispose();
    m.dispose();
  }
  rt.dispose();
}
console.log(`${checks} checks passed (${cases.length} models x 2 kernel levels)`);

// Per-operator A/B of two tfcc-wasm packages in one Node process: blocks of profiled runs
// (session.profile()), A and B interleaved (A B, B A, ...), the median over the blocks of each
// node's mean ms, side by side with the ratio B / A. Layer-level effects of a kernel change
// show here when the whole-model A/B (ab.mjs) is within its noise. The second package of a
// pair reads a few % faster than the first on a loaded machine: run both orders (A B, then
// B A) and trust what holds in both.
//   node bench/wasm/profile-ab.mjs PKG_A PKG_B [--blocks 15] [--runs 4] [--zoo DIR] [MODEL]
// MODEL: a zoo name (default mobilenet_v2.int8; input <zoo>/<arch>.input_nhwc.npy)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {readNpy} from '../../js/test/npy.mjs';
import {takeOpt} from './args.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => takeOpt(args, k, d);
const blocks = Number(opt('--blocks', 15)), runs = Number(opt('--runs', 4));
const zoo = opt('--zoo', path.join(os.homedir(), '.cache', 'tfcc-zoo'));
const [a, b, name = 'mobilenet_v2.int8'] = args;
if (!a || !b) { console.error('usage: node bench/wasm/profile-ab.mjs PKG_A PKG_B [--blocks N] [--runs N] [--zoo DIR] [MODEL]'); process.exit(2); }
const bytes = new Uint8Array(fs.readFileSync(path.join(zoo, `${name}.tflite`)));
const x = readNpy(path.join(zoo, `${name.replace('.int8', '')}.input_nhwc.npy`)).data;
const ss = [];
for (const p of [a, b]) {
  // the query string makes a second module instance when A and B are one path
  const url = pathToFileURL(path.join(path.resolve(p), 'lib', 'index.mjs')).href + '?' + ss.length;
  const rt = await (await import(url)).Runtime.create({threads: 1});
  ss.push((await rt.loadModel(bytes)).createSession());
}
const feed = {[ss[0].inputs[0].name]: x};
for (const s of ss) for (let i = 0; i < 3; i++) s.run(feed);
const res = [[], []];
for (let r = 0; r < blocks; r++) {
  for (let j = 0; j < 2; j++) {
    const k = (r + j) % 2, s = ss[k];
    s.profile(true);
    for (let i = 0; i < runs; i++) s.run(feed);
    res[k].push(s.profile());
    s.profile(false);
  }
}
const med = (v) => { const s = [...v].sort((p, q) => p - q); return s[s.length >> 1]; };
let ta = 0, tb = 0;
console.log('| node | op | kernel (A) | A ms | B ms | B / A |');
console.log('|---:|---|---|---:|---:|---:|');
for (let i = 0; i < res[0][0].length; i++) {
  const n = res[0][0][i], ma = med(res[0].map((p) => p[i].ms)), mb = med(res[1].map((p) => p[i].ms));
  ta += ma;
  tb += mb;
  console.log(`| ${n.node} | ${n.op} | ${n.kernel} | ${ma.toFixed(4)} | ${mb.toFixed(4)} | ${ma > 0 ? (mb / ma).toFixed(3) : '-'} |`);
}
console.log(`| | all | | ${ta.toFixed(3)} | ${tb.toFixed(3)} | ${(tb / ta).toFixed(3)} |`);

// Two threads builds of tfcc-wasm (A, B: e.g. a change to the thread pool and its base), each at
// 1 and 2 threads, in one Node process: interleaved rounds (rotating order), each the mean of
// --runs runs; per engine the median wall and CPU ms (process.cpuUsage: every thread), and the
// medians of the per-round wall ratios B2/A2, A2/A1, B2/B1, B1/A1.
//   node bench/wasm/threads-ab.mjs --a PKG_DIR --b PKG_DIR [--rounds 11] [--runs 8] [--zoo DIR]
//        [--models "mobilenet_v2 mobilenet_v2.int8 resnet18"]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {readNpy} from '../../js/test/npy.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const load = (dir) => import(pathToFileURL(path.join(path.resolve(dir), 'lib', 'index.mjs')).href);
const [A, B] = [await load(opt('--a')), await load(opt('--b'))];
const rounds = Number(opt('--rounds', 11)), runs = Number(opt('--runs', 8));
const zoo = opt('--zoo', path.join(os.homedir(), '.cache', 'tfcc-zoo'));
const models = opt('--models', 'mobilenet_v2 mobilenet_v2.int8 resnet18').split(/\s+/).filter(Boolean);
const rts = {a1: await A.Runtime.create({threads: 1}), a2: await A.Runtime.create({threads: 2}),
             b1: await B.Runtime.create({threads: 1}), b2: await B.Runtime.create({threads: 2})};
for (const k in rts) {
  if (rts[k].threads !== Number(k[1])) throw new Error(`${k}: ${rts[k].threads} thread(s): not a threads build?`);
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
for (const m of models) {
  const x = readNpy(path.join(zoo, `${m.replace('.int8', '')}.input_nhwc.npy`)).data;
  const bytes = new Uint8Array(fs.readFileSync(path.join(zoo, `${m}.tflite`)));
  const s = {}, wall = {}, cpu = {};
  for (const k in rts) {
    s[k] = (await rts[k].loadModel(bytes)).createSession();
    s[k].run([x]);
    wall[k] = [];
    cpu[k] = [];
  }
  const ks = Object.keys(s);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < ks.length; j++) {
      const k = ks[(r + j) % ks.length];
      const c0 = process.cpuUsage(), t0 = performance.now();
      for (let i = 0; i < runs; i++) s[k].run([x]);
      const c = process.cpuUsage(c0);
      wall[k].push((performance.now() - t0) / runs);
      cpu[k].push((c.user + c.system) / 1000 / runs);
    }
  }
  const ratio = (p, q) => med(wall[p].map((v, i) => v / wall[q][i])).toFixed(3);
  console.log(JSON.stringify({model: m, ms: Object.fromEntries(ks.map((k) => [k, +med(wall[k]).toFixed(2)])),
                              cpu_ms: Object.fromEntries(ks.map((k) => [k, +med(cpu[k]).toFixed(2)])),
                              'B2/A2': +ratio('b2', 'a2'), 'A2/A1': +ratio('a2', 'a1'),
                              'B2/B1': +ratio('b2', 'b1'), 'B1/A1': +ratio('b1', 'a1')}));
  for (const k of ks) s[k].dispose();
}
for (const k in rts) rts[k].dispose();

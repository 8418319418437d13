// A/B of two tfcc-wasm packages in one Node process: single runs interleaved (A B, B A, ...),
// per-run CPU time (process.cpuUsage), the median and minimum of each, the median of the
// per-pair ratios B / A, and whether output 0 has the same bits in both. Kernel changes are
// measured with it on a shared machine, where wall times of separate processes are not
// comparable (an A/A of one package gives 1.00 +- 0.01 here).
//   node bench/wasm/ab.mjs PKG_A PKG_B [--rounds 60] [--zoo DIR] [MODEL ...]
// MODEL: a zoo name (default mobilenet_v2.int8 mobilenet_v2; input <zoo>/<arch>.input_nhwc.npy)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';
import {readNpy} from '../../js/test/npy.mjs';
import {takeOpt} from './args.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => takeOpt(args, k, d);
const rounds = Number(opt('--rounds', 60));
const zoo = opt('--zoo', path.join(os.homedir(), '.cache', 'tfcc-zoo'));
const [a, b, ...models] = args;
if (!a || !b) { console.error('usage: node bench/wasm/ab.mjs PKG_A PKG_B [--rounds N] [--zoo DIR] [MODEL ...]'); process.exit(2); }
const list = models.length ? models : ['mobilenet_v2.int8', 'mobilenet_v2'];
const rts = [];
// the query string makes a second module instance (its own wasm memory) when A and B are one path
for (const p of [a, b]) {
  const url = pathToFileURL(path.join(path.resolve(p), 'lib', 'index.mjs')).href + '?' + rts.length;
  rts.push(await (await import(url)).Runtime.create({threads: 1}));
}
const med = (v) => { const s = [...v].sort((x, y) => x - y); return s[s.length >> 1]; };
for (const name of list) {
  const bytes = new Uint8Array(fs.readFileSync(path.join(zoo, `${name}.tflite`)));
  const x = readNpy(path.join(zoo, `${name.replace('.int8', '')}.input_nhwc.npy`)).data;
  const ss = [];
  for (const rt of rts) ss.push((await rt.loadModel(bytes)).createSession());
  const feed = {[ss[0].inputs[0].name]: x};
  const outs = ss.map((s) => Object.values(s.run(feed))[0].slice());
  const oa = new Uint8Array(outs[0].buffer), ob = new Uint8Array(outs[1].buffer);
  let same = oa.length === ob.length;
  for (let i = 0; same && i < oa.length; i++) same = oa[i] === ob[i];
  const t = [[], []];
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < 2; j++) {
      const k = (r + j) % 2, c0 = process.cpuUsage();
      ss[k].run(feed);
      const c = process.cpuUsage(c0);
      t[k].push((c.user + c.system) / 1000);
    }
  }
  const ratio = med(t[1].map((v, i) => v / t[0][i]));
  console.log(`${name}: A median ${med(t[0]).toFixed(2)} ms, min ${Math.min(...t[0]).toFixed(2)} | ` +
              `B median ${med(t[1]).toFixed(2)} ms, min ${Math.min(...t[1]).toFixed(2)} | ` +
              `B/A median ratio ${ratio.toFixed(3)}, min ratio ${(Math.min(...t[1]) / Math.min(...t[0])).toFixed(3)} | ` +
              `output bits ${same ? 'same' : 'DIFFER'}`);
  for (const s of ss) s.dispose();
}
for (const rt of rts) rt.dispose();

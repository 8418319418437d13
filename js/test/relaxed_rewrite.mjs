// scripts/wasm-relaxed.mjs on a hand-assembled module: the placeholders (f32x4 fma, f64x2 fma
// of the relaxed-SIMD proposal's early opcodes) are rewritten to relaxed_madd and
// relaxed_dot_i8x16_i7x16_add_s; the same bytes inside a v128.const, an i8x16.shuffle mask and
// a memory offset are left alone; a count that differs from the module's, and an opcode the
// decoder does not know, fail the rewrite.
//   node js/test/relaxed_rewrite.mjs
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const script = path.join(HERE, '..', '..', 'scripts', 'wasm-relaxed.mjs');
const FMA = [0xfd, 0xaf, 0x01], DOT = [0xfd, 0xcf, 0x01];
const MADD = [0xfd, 0x85, 0x02], RDOT = [0xfd, 0x93, 0x02];
const bait = [...DOT, ...FMA, ...DOT, ...FMA, ...DOT, 0]; // 16 bytes of placeholder patterns
const leb = (n) => { const o = []; do { o.push((n & 0x7f) | (n > 0x7f ? 0x80 : 0)); n >>= 7; } while (n); return o; };
const lenPrefixed = (bytes) => [...leb(bytes.length), ...bytes];

// (func (result v128)): v128.const bait; v128.const bait; i8x16.shuffle bait-mask (lanes < 32
// are required by engines, not by the decoder); three placeholders; v128.load with an offset
// whose LEB holds 0xfd 0xcf 0x01; drop
function module(body) {
  const code = [1, ...lenPrefixed([0, ...body, 0x0b])];
  return new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 5, 1, 0x60, 0, 1, 0x7b, 3, 2, 1, 0,
    5, 3, 1, 0, 1, 10, ...lenPrefixed(code)]);
}
const v128 = [0xfd, 0x0c, ...bait];
const body = [...v128, ...v128, 0xfd, 0x0d, ...bait, // shuffle of the two
  ...v128, ...v128, ...DOT, // dot(shuffled, c, c)
  ...v128, ...FMA, // madd
  ...v128, ...v128, ...DOT,
  0x1a, 0x41, 0, 0xfd, 0x00, 0x04, 0xfd, 0xcf, 0x01]; // drop; i32.const 0; v128.load offset=0x67fd
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tfcc-rewrite-'));
const inp = path.join(dir, 'in.wasm'), out = path.join(dir, 'out.wasm');
fs.writeFileSync(inp, module(body));
const run = (...counts) => spawnSync(process.execPath, [script, inp, out, ...counts], {encoding: 'utf8'});
const count = (b, pat) => { let n = 0; for (let i = 0; i + 2 < b.length; i++) if (b[i] === pat[0] && b[i + 1] === pat[1] && b[i + 2] === pat[2]) n++; return n; };

const src = fs.readFileSync(inp);
assert.ok(count(src, DOT) > 2 && count(src, FMA) > 1, 'the module holds the patterns in immediates too');
let r = run('f32x4.relaxed_fma=1', 'f64x2.relaxed_fma=2');
assert.equal(r.status, 0, r.stderr);
const got = fs.readFileSync(out);
assert.equal(got.length, src.length);
assert.equal(count(got, RDOT), 2);
assert.equal(count(got, MADD), 1);
// every other byte as it was: the immediates' patterns untouched
let changed = 0;
for (let i = 0; i < src.length; i++) if (src[i] !== got[i]) changed++;
assert.equal(changed, 6, 'two bytes per rewritten instruction');
assert.equal(count(got, DOT), count(src, DOT) - 2);
assert.equal(count(got, FMA), count(src, FMA) - 1);
// wrong counts, none expected, an unknown opcode
r = run('f32x4.relaxed_fma=1', 'f64x2.relaxed_fma=3');
assert.equal(r.status, 1);
assert.match(r.stderr, /2 f64x2\.relaxed_fma instructions, 3 expected/);
r = run('f64x2.relaxed_fma=0');
assert.equal(r.status, 1);
fs.writeFileSync(inp, module([0x06, 0x40, 0x0b]));
r = run('f64x2.relaxed_fma=1');
assert.equal(r.status, 1);
assert.match(r.stderr, /unknown opcode 0x6/);
fs.rmSync(dir, {recursive: true, force: true});
console.log('relaxed rewrite: placeholders rewritten, immediates untouched, bad counts and opcodes refused');

// Developer helper: compile every corpus file's Typst output and report errors.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { museToTypst, checkTypst } from '../src/index.ts';

const dir = process.argv[2] ?? '../shared/fixtures/muse';
const files = new Map<string, Uint8Array>();
for (const f of readdirSync(dir)) if (f.endsWith('.png')) files.set(f, readFileSync(join(dir, f)));
const t0 = Date.now();
let bad = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith('.muse')).sort()) {
  const src = museToTypst(readFileSync(join(dir, f), 'utf8'), { files });
  const errs = checkTypst(src, files);
  if (errs.length) {
    bad++;
    console.log('FAIL', f, JSON.stringify(errs).slice(0, 600));
  }
}
console.log('failed', bad, 'ms', Date.now() - t0);

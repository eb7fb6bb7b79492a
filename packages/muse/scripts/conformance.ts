// Developer helper: print the structural diff of every corpus file (npx tsx packages/muse/scripts/conformance.ts [name]).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { museToHtml } from '../src/index.ts';
import { compareHtml } from '../src/testing/structure.ts';

const dir = join(dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures/muse');
if (!existsSync(dir)) {
  console.log('corpus not found at', dir);
  process.exit(0);
}
const only = process.argv[2];
let pass = 0;
let total = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith('.muse')).sort()) {
  const name = f.slice(0, -5);
  if (only && name !== only) continue;
  total++;
  const { html } = museToHtml(readFileSync(join(dir, f), 'utf8'));
  const r = compareHtml(html, readFileSync(join(dir, name + '.exp.html'), 'utf8'));
  if (r.equal) pass++;
  else console.log(`FAIL ${name} ${r.diff}`);
}
console.log(`${pass}/${total}`);

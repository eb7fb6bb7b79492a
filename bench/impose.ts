// Imposition benchmark: a generated 400-page A5 PDF (30 lines of text per page, one embedded
// font) imposed 2up with signatures of 16, five runs. Prints one JSON line:
// {"pages":400,"schema":"2up","signature":16,"median_s":..,"p95_s":..}. Budget: under 2 s.
import { performance } from 'node:perf_hooks';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { impose } from '../packages/imposition/src/index.ts';

const PAGES = 400;
const RUNS = 5;
const WORDS = 'river stone window lantern harvest common library archive letter morning council village paper printing'.split(' ');

async function book(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  let k = 0;
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([419.528, 595.276]);
    for (let line = 0; line < 30; line++) {
      const words: string[] = [];
      for (let w = 0; w < 10; w++) words.push(WORDS[(k = (k * 31 + 7) % 997) % WORDS.length]);
      page.drawText(words.join(' '), { x: 50, y: 540 - line * 16, size: 11, font });
    }
    page.drawText(String(p), { x: 200, y: 30, size: 10, font });
  }
  return doc.save();
}

const input = await book(PAGES);
const times: number[] = [];
let sides = 0;
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  const res = await impose(input, { schema: '2up', signature: 16 });
  times.push((performance.now() - t0) / 1000);
  sides = res.outputPages;
}
if (sides !== PAGES / 2) throw new Error(`expected ${PAGES / 2} sides, got ${sides}`);
times.sort((a, b) => a - b);
const pct = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
const r = (v: number) => Math.round(v * 1000) / 1000;
console.log(JSON.stringify({ pages: PAGES, schema: '2up', signature: 16, median_s: r(pct(0.5)), p95_s: r(pct(0.95)) }));

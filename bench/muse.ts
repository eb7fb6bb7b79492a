// Muse benchmark: a generated ~300-page text (about 120,000 words, with footnotes, headings,
// lists, quotes, verse and tables) parsed and rendered to HTML and to Typst.
// Prints one JSON line with median and p95 milliseconds per full parse+render.
import { performance } from 'node:perf_hooks';
import { parseMuse, museToHtml, museToTypst } from '../packages/muse/src/index.ts';
import { generateMuse } from './lib/muse-text.ts';

export function generateText(targetWords = 120_000): { text: string; words: number } {
  return generateMuse({ title: 'Benchmark', words: targetWords, seed: 42, parts: true });
}

function stats(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { median: +at(0.5).toFixed(1), p95: +at(0.95).toFixed(1) };
}

const RUNS = Number(process.env.MUSE_BENCH_RUNS ?? 15);
const { text, words } = generateText();
// warm up the JIT
for (let i = 0; i < 3; i++) {
  museToHtml(text);
  museToTypst(text);
}
const htmlMs: number[] = [];
const typstMs: number[] = [];
let htmlBytes = 0;
let typstBytes = 0;
for (let i = 0; i < RUNS; i++) {
  let t = performance.now();
  htmlBytes = museToHtml(parseMuse(text)).html.length;
  htmlMs.push(performance.now() - t);
  t = performance.now();
  typstBytes = museToTypst(parseMuse(text)).length;
  typstMs.push(performance.now() - t);
}
const html = stats(htmlMs);
const typst = stats(typstMs);
const budget = 300;
console.log(
  JSON.stringify({
    bench: 'muse',
    words,
    chars: text.length,
    runs: RUNS,
    parse_html_ms: html,
    parse_typst_ms: typst,
    html_chars: htmlBytes,
    typst_chars: typstBytes,
    budget_ms: budget,
    within_budget: html.p95 < budget && typst.p95 < budget,
  }),
);

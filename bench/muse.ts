// Muse benchmark: a generated ~300-page text (about 120,000 words, with footnotes, headings,
// lists, quotes, verse and tables) parsed and rendered to HTML and to Typst.
// Prints one JSON line with median and p95 milliseconds per full parse+render.
import { performance } from 'node:perf_hooks';
import { parseMuse, museToHtml, museToTypst } from '../packages/muse/src/index.ts';

const WORDS = (
  'river stone window lantern harvest common library archive letter morning council village ' +
  'paper printing commune assembly freedom bread garden workshop railway winter summer street ' +
  'pamphlet meeting neighbour market harbour school bicycle kitchen evening promise question'
).split(' ');

// Small deterministic generator so every run measures the same text.
let seed = 42;
function rnd(n: number): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
}

function sentence(min: number, max: number): string {
  const n = min + rnd(max - min);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    let w = WORDS[rnd(WORDS.length)];
    const r = rnd(40);
    if (r === 0) w = `*${w}*`;
    else if (r === 1) w = `**${w}**`;
    else if (r === 2) w = `=${w}=`;
    words.push(w);
  }
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return words.join(' ') + '.';
}

export function generateText(targetWords = 120_000): { text: string; words: number } {
  const body: string[] = [];
  const notes: string[] = [];
  let words = 0;
  let fn = 0;
  let chapter = 0;
  while (words < targetWords) {
    chapter++;
    if (chapter % 10 === 1) body.push(`* Part ${Math.ceil(chapter / 10)}`, '');
    body.push(`** Chapter ${chapter} on the ${WORDS[rnd(WORDS.length)]}`, '');
    for (let s = 0; s < 4 && words < targetWords; s++) {
      body.push(`*** Section ${chapter}.${s + 1}`, '');
      for (let p = 0; p < 8; p++) {
        const parts: string[] = [];
        for (let k = 0; k < 6; k++) parts.push(sentence(8, 20));
        let para = parts.join(' ');
        if (rnd(3) === 0) {
          fn++;
          para += ` [${fn}]`;
          notes.push(`[${fn}] ${sentence(6, 25)} [[https://example.org/n${fn}][source]]`, '');
          words += 20;
        }
        words += para.split(' ').length;
        body.push(para, '');
      }
      const r = rnd(4);
      if (r === 0) body.push(' - ' + sentence(5, 12), ' - ' + sentence(5, 12), '   1. ' + sentence(4, 8), '');
      else if (r === 1) body.push('<verse>', sentence(4, 8), '  ' + sentence(4, 8), '', sentence(4, 8), '</verse>', '');
      else if (r === 2) body.push('  ' + sentence(20, 40), '');
      else body.push(' a || b || c', ' 1 | 2 | 3', ' 4 | 5 | 6', ' |+ A table +|', '');
    }
    // notes of the chapter go after it, as amusewiki texts usually have them at the end
    body.push(...notes.splice(0));
  }
  return { text: '#title Benchmark\n#author Generator\n#lang en\n\n' + body.join('\n') + '\n', words };
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

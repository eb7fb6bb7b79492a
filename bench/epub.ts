// EPUB benchmark (issue 31): the generated ~300-page text of bench/muse.ts to an EPUB (parse + write +
// zip), median and p95 over repeated runs; then a 5 MB text (EPUB_BENCH_BIG_MB, default 5 MiB of Muse),
// generated here into a file, which each run reads, as the server reads a stored text, in a fresh process
// held to a 256 MB heap (the npm script's --max-old-space-size), with that process's peak RSS as the OS
// counts it (getrusage maxrss): the budget is 256 MB for the whole process.
// Run: npm run bench:epub
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { museToEpub } from '../packages/muse/src/index.ts';
import { generateMuse } from './lib/muse-text.ts';

function stats(xs: number[]): { median: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { median: +at(0.5).toFixed(1), p95: +at(0.95).toFixed(1) };
}

const BIG_BYTES = Math.round(Number(process.env.EPUB_BENCH_BIG_MB ?? 5) * 2 ** 20);

/** A generated text of about `bytes` bytes (all ASCII: bytes = characters). */
function bigText(bytes: number): string {
  const sample = generateMuse({ title: 'Big', words: 50_000, seed: 7, parts: true });
  return generateMuse({ title: 'Big', words: Math.round((sample.words * bytes) / sample.text.length), seed: 7, parts: true }).text;
}

const bigAt = process.argv.indexOf('--big');
if (bigAt >= 0) {
  // one 5 MB run in this fresh process
  const text = fs.readFileSync(process.argv[bigAt + 1], 'utf8');
  const t = performance.now();
  const bytes = museToEpub(text).length;
  const ms = performance.now() - t;
  console.log(JSON.stringify({ chars: text.length, ms: Math.round(ms), epubBytes: bytes, peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
} else {
  const RUNS = Number(process.env.EPUB_BENCH_RUNS ?? 15);
  const BIG_RUNS = Number(process.env.EPUB_BENCH_BIG_RUNS ?? 3);
  const { text, words } = generateMuse({ title: 'Benchmark', words: 120_000, seed: 42, parts: true });
  for (let i = 0; i < 3; i++) museToEpub(text);
  const ms: number[] = [];
  // CPU time too: on a busy machine the wall time is mostly waiting for a core
  const cpuMs: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    bytes = museToEpub(text).length;
    const d = process.cpuUsage(c);
    ms.push(performance.now() - t);
    cpuMs.push((d.user + d.system) / 1000);
  }
  const big: { chars: number; ms: number; epubBytes: number; peakRssMB: number }[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-epub-'));
  const bigFile = path.join(dir, 'big.muse');
  fs.writeFileSync(bigFile, bigText(BIG_BYTES));
  try {
    for (let i = 0; i < BIG_RUNS; i++) {
      const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--big', bigFile], { encoding: 'utf8', env: process.env });
      if (r.status !== 0) throw new Error(`the ${BIG_BYTES}-byte run failed: ${r.stderr.slice(-2000)}`);
      big.push(JSON.parse(r.stdout.trim().split('\n').pop()!));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const s = stats(ms);
  const bigMs = stats(big.map((b) => b.ms));
  const peak = Math.max(...big.map((b) => b.peakRssMB));
  console.log(
    JSON.stringify({
      bench: 'epub',
      words,
      chars: text.length,
      runs: RUNS,
      epubMs: s,
      epubCpuMs: stats(cpuMs),
      epubBytes: bytes,
      budgetMs: 300,
      withinBudget: s.p95 < 300,
      big: { mb: +(big[0].chars / 2 ** 20).toFixed(2), runs: BIG_RUNS, ms: bigMs, epubBytes: big[0].epubBytes, peakRssMB: big.map((b) => b.peakRssMB), budgetMB: 256, withinBudget: peak <= 256 },
    }),
  );
}

// Book Builder benchmark: a generated collection of three Muse texts (about 300 A5 pages with the
// default layout: chapters, sections, footnotes, lists, quotes, verse, tables) built the way a build job
// does it (server/src/bookbuilder/build.ts: Muse → Typst → PDF), then imposed 2up in 16-page signatures.
// Prints one JSON line: Muse-to-PDF and imposition seconds (first run, and the median of the warm runs;
// the compile's CPU seconds too, which a busy machine disturbs less),
// and the peak memory (largest RSS seen, and the process's max RSS from the OS).
// Budgets: under 2 s each, under 1 GiB.
// With --large [MB]: one generated text of about 5 MB (the 4,349-page book) built once by the
// build job's own function (buildBook: default options, no imposition) in this fresh process; a book
// that large is laid out in chunks by child processes (server/src/bookbuilder/chunked.ts). One JSON
// line with the size, pages, chunks, seconds and the peak memory of the whole build: the largest sum
// of this process's RSS and its children's, sampled every 20 ms from /proc, and the OS's peak RSS of
// this process and of the largest child (budget: the sum under 1 GiB), and the CPU seconds of this process and of the children.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileTypstPdf, evictTypstCaches } from '../packages/muse/src/index.ts';
import { impose } from '../packages/imposition/src/index.ts';
import { defaultCollectionData } from '../packages/shared/src/index.ts';
import { bookTypst, buildBook } from '../server/src/bookbuilder/build.ts';
import { generateMuse } from './lib/muse-text.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

async function main() {
  const runs = Math.max(1, Number(process.env.BOOK_BENCH_RUNS ?? 3));
  // New texts for every run: the compiler memoizes layouts, so repeating one text would measure its cache.
  const collection = (run: number) => {
    return ['First Book', 'Second Book', 'Third Book'].map((title, i) => ({
      muse: generateMuse({ title, words: 13_600, seed: 7 + run * 1000 + i }).text,
      files: new Map<string, Uint8Array>(),
    }));
  };
  const data = { ...defaultCollectionData(), title: 'Benchmark Collection', author: 'Bench Writer' };
  const imposeOpts = { schema: '2up' as const, signature: 16, fillSignature: true, coverLast: true };
  let peak = process.memoryUsage().rss;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const timer = setInterval(sample, 20);

  const typst: number[] = [];
  // CPU time of the process during the compile: on a shared 2-core machine wall time also counts the neighbours
  const typstCpu: number[] = [];
  const imp: number[] = [];
  let pages = 0;
  let sheets = 0;
  for (let i = 0; i < runs; i++) {
    const texts = collection(i);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const { source, files } = bookTypst(texts, data);
    const pdf = compileTypstPdf(source, files);
    // as buildBook does after each book: the next one lays out faster without this one's layouts cached
    evictTypstCaches();
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    typstCpu.push((c1.user + c1.system) / 1e6);
    sample();
    const r = await impose(pdf.pdf, imposeOpts);
    const t2 = performance.now();
    sample();
    typst.push((t1 - t0) / 1000);
    imp.push((t2 - t1) / 1000);
    pages = pdf.pages;
    sheets = r.sheets;
  }
  clearInterval(timer);
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  const peakMb = Math.max(peak / 1024 / 1024, maxRssMb);
  const out = {
    bench: 'book',
    pages,
    imposed_sheets: sheets,
    runs,
    muse_to_pdf_s: { first: round(typst[0]), median: round(median(typst)) },
    muse_to_pdf_cpu_s: { first: round(typstCpu[0]), median: round(median(typstCpu)) },
    impose_2up_16_s: { first: round(imp[0]), median: round(median(imp)) },
    peak_rss_mb: Math.round(peakMb),
    budgets: { seconds: 2, rss_mb: 1024 },
    within_budget: typst[0] < 2 && imp[0] < 2 && peakMb < 1024,
  };
  console.log(JSON.stringify(out));
  if (!out.within_budget) process.exitCode = 1;
}

/** Words of generated Muse per MB of source (the generator's texts run at about 8.5 bytes a word). */
const WORDS_PER_MB = 117_000;

/** The RSS in bytes of a process and all its descendants, from /proc (Linux); 0 for a process gone. */
function treeRss(pid: number): number {
  let rss = 0;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const kids = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const kid of kids ? kids.split(/\s+/) : []) rss += treeRss(Number(kid));
    }
  } catch {
    // the process ended between two reads
  }
  return rss;
}

async function large(mb: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-book-large-'));
  try {
    const musePath = path.join(dir, 'large.muse');
    fs.writeFileSync(musePath, generateMuse({ title: 'A Large Book', words: Math.round(mb * WORDS_PER_MB), seed: 4349 }).text);
    const bytes = fs.statSync(musePath).size;
    // the process did nothing else: its memory and its children's are the build's
    let peak = treeRss(process.pid);
    const timer = setInterval(() => (peak = Math.max(peak, treeRss(process.pid))), 20);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = await buildBook(
      { texts: [{ musePath, zipPath: null }], data: defaultCollectionData(), outPath: path.join(dir, 'large.pdf') },
      { onProgress: (p) => console.error(`${((performance.now() - t0) / 1000).toFixed(1)} s: ${p.label}`) },
    );
    const seconds = (performance.now() - t0) / 1000;
    const c1 = process.cpuUsage(c0);
    clearInterval(timer);
    const parentMb = Math.round(process.resourceUsage().maxRSS / 1024);
    const childMb = Math.round(r.childMaxRssKb / 1024);
    const peakMb = Math.round(peak / 1024 / 1024);
    const out = {
      bench: 'book-large',
      muse_mb: round(bytes / 1e6, 2),
      pages: r.bookPages,
      chunks: r.chunks,
      pdf_mb: round(r.bytes / 1e6, 1),
      seconds: round(seconds, 1),
      typst_s: round(r.typstSeconds, 1),
      // CPU seconds of this process and of the chunks' processes: a busy machine disturbs them less
      cpu_s: { parent: round((c1.user + c1.system) / 1e6, 1), children: round(r.childCpuSeconds, 1) },
      peak_rss_mb: peakMb,
      parent_max_rss_mb: parentMb,
      child_max_rss_mb: childMb,
      budgets: { rss_mb: 1024 },
      within_budget: peakMb < 1024,
    };
    console.log(JSON.stringify(out));
    if (!out.within_budget) process.exitCode = 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--large');
  const mb = at < 0 ? 0 : Number(process.argv[at + 1]) || 5;
  (at < 0 ? main() : large(mb)).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

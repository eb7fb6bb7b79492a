// The fonts offered by the Book Builder: every family the Typst compiler resolves (the bundled DejaVu,
// whatever else is installed, the compiler's embedded fonts), each marked with whether it has the
// letters of the session's texts, with a PDF, an SVG and a PNG specimen (spec §3 Font: preview_pdf,
// preview_png; SVG is our extra) rendered by the server on first request and cached under DATA_DIR/cache/fonts/.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Resvg } from '@resvg/resvg-js';
import { availableFonts, fontSpecimenPdf, fontSpecimenTypst, typstToSvg, useFontIndex, type FontFamily, type FontIndex } from '@uc/muse';
import type { FontTask, FontTaskAnswer } from './font-thread-main.ts';
import type { BookFont } from '@uc/shared';

const API = '/collector/api';

export const PREVIEW_KINDS = ['pdf', 'png', 'svg'] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

/** Width of the PNG specimen in pixels (the 150 mm page at about 200 dpi). */
const PNG_WIDTH = 1200;

/** A PNG of Typst's SVG: its glyphs are outlines, so no font lookup happens here; white behind the page. */
export function svgToPng(svg: string, width = PNG_WIDTH): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white', font: { loadSystemFonts: false } }).render().asPng();
}

/** The bundled families (the defaults), offered whatever the texts: the compiler falls back for letters they lack. */
export const isBundledFont = (name: string) => name.startsWith('DejaVu ');

/** Sets of letters whose answers are kept (the last few sessions'). */
const LETTER_SETS_KEPT = 64;

/** How many of the letters a family lacks are named in the list. */
const MISSING_SHOWN = 12;

export function fontSlug(name: string): string {
  return name.replace(/ /g, '-');
}

export class FontCatalog {
  private families: FontFamily[] | null = null;
  private loading: Promise<FontIndex> | null = null;
  private rendering = new Map<string, Promise<void>>();
  /** The letters each family lacks, per set of letters (the last few sessions' texts). */
  private lacking = new Map<string, Promise<Map<string, string[]>>>();
  private lackingKnown = new Map<string, Map<string, string[]>>();
  private thread = new FontThread();

  constructor(private cacheDir: string) {}

  /** Reads the installed fonts in a thread, once; `serve` starts it at once so the first list is ready. */
  ready(): Promise<FontIndex> {
    this.loading ??= this.thread.run({ kind: 'index' }).then((answer) => {
      if (!('index' in answer)) throw new Error('no font index');
      useFontIndex(answer.index);
      this.families = answer.index.families;
      return answer.index;
    });
    return this.loading;
  }

  /**
   * The letters a family lacks from an earlier list for the same letters (a build is checked after its
   * session's font list was shown), or null when not asked yet.
   */
  knownMissing(family: string, letters: Set<string>): string[] | null {
    const known = this.lackingKnown.get([...letters].join(''));
    return known ? (known.get(family) ?? []) : null;
  }

  /** Which of `letters` each family lacks, found in a thread (an embedded family is asked by compiling). */
  private async missing(letters: Set<string>): Promise<Map<string, string[]>> {
    if (!letters.size) return new Map();
    // In the texts' order: the letters named first are the first ones the texts use.
    const list = [...letters];
    const key = list.join('');
    let answer = this.lacking.get(key);
    if (!answer) {
      const index = await this.ready();
      answer = this.thread.run({ kind: 'missing', index, letters: list }).then((a) => {
        if (!('missing' in a)) throw new Error('no answer');
        const known = new Map(a.missing);
        if (this.lackingKnown.size >= LETTER_SETS_KEPT) this.lackingKnown.delete(this.lackingKnown.keys().next().value!);
        this.lackingKnown.set(key, known);
        return known;
      });
      answer.catch(() => this.lacking.delete(key));
      if (this.lacking.size >= LETTER_SETS_KEPT) this.lacking.delete(this.lacking.keys().next().value!);
      this.lacking.set(key, answer);
    }
    return answer;
  }

  /** For a build's check of its font names: read here if the thread has not answered yet (a rare start-up race). */
  private all(): FontFamily[] {
    this.families ??= availableFonts();
    return this.families;
  }

  names(): string[] {
    return this.all().map((f) => f.name);
  }

  /**
   * Every family, marked against `letters` (those of the session's texts; none without a session):
   * `offered` when bundled or when it has every letter, `missing` naming the first letters it lacks.
   */
  async list(letters: Set<string> = new Set(), lang = 'en'): Promise<BookFont[]> {
    await this.ready();
    const lacking = await this.missing(letters);
    return this.all().map((f) => {
      const slug = encodeURIComponent(fontSlug(f.name));
      const styles = f.styles.length ? ` (${f.styles.slice(0, 6).join(', ')}${f.styles.length > 6 ? '…' : ''})` : '';
      const missing = lacking.get(f.name) ?? [];
      // The specimen's sentences are a pangram of the reader's language (English without a ?lang).
      const q = lang === 'en' ? '' : `?lang=${lang}`;
      return {
        name: f.name,
        desc: `${f.name}${styles}`,
        type: f.type,
        preview_pdf: `${API}/bookbuilder/fonts/${slug}.pdf${q}`,
        preview_png: `${API}/bookbuilder/fonts/${slug}.png${q}`,
        preview_svg: `${API}/bookbuilder/fonts/${slug}.svg${q}`,
        bundled: isBundledFont(f.name),
        covers_texts: missing.length === 0,
        missing: missing.slice(0, MISSING_SHOWN).join(''),
        offered: missing.length === 0 || isBundledFont(f.name),
      };
    });
  }

  /** The cached specimen of a listed family in a language, rendered in a thread on first use; null for unknown names. */
  async preview(slug: string, ext: PreviewKind, lang = 'en'): Promise<string | null> {
    const family = (await this.ready()).families.find((f) => fontSlug(f.name) === slug);
    if (!family) return null;
    const file = path.join(this.cacheDir, lang === 'en' ? `${fontSlug(family.name)}.${ext}` : `${fontSlug(family.name)}.${lang}.${ext}`);
    if (fs.existsSync(file)) return file;
    // One rendering per file at a time: two requests for the same specimen wait for the same one.
    let pending = this.rendering.get(file);
    if (!pending) {
      pending = this.thread.run({ kind: 'preview', family: family.name, ext, file, lang }).then((answer) => {
        if ('error' in answer) throw new Error(answer.error);
      }).finally(() => this.rendering.delete(file));
      this.rendering.set(file, pending);
    }
    await pending;
    return file;
  }
}

/** Renders one specimen into `file` (the PNG from the SVG, rendered first when missing). */
export function renderPreview(family: string, ext: PreviewKind, file: string, lang = 'en'): void {
  if (fs.existsSync(file)) return;
  let bytes: Uint8Array;
  if (ext === 'pdf') bytes = fontSpecimenPdf(family, lang);
  else if (ext === 'svg') bytes = Buffer.from(typstToSvg(fontSpecimenTypst(family, lang)));
  else {
    const svg = file.replace(/\.png$/, '.svg');
    renderPreview(family, 'svg', svg, lang);
    bytes = svgToPng(fs.readFileSync(svg, 'utf8'));
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
}

/**
 * The thread that does the font work, started on first use and ended after a minute without tasks (it
 * holds the compiler's fonts, tens of MB). Tasks are answered in turn.
 */
class FontThread {
  private worker: Worker | null = null;
  private pending = new Map<number, { resolve: (a: FontTaskAnswer) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;

  run(task: FontTask): Promise<FontTaskAnswer> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<FontTaskAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, task });
    }).then((answer) => {
      if ('error' in answer) throw new Error(answer.error);
      return answer;
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./font-thread.mjs', import.meta.url));
    worker.unref(); // never what keeps a process alive
    worker.on('message', ({ id, answer }: { id: number; answer: FontTaskAnswer }) => {
      this.pending.get(id)?.resolve(answer);
      this.pending.delete(id);
      if (this.pending.size === 0) {
        this.idle = setTimeout(() => this.stop(), FONT_THREAD_IDLE_MS);
        this.idle.unref();
      }
    });
    const fail = (e: Error) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      if (this.worker === worker) this.worker = null;
    };
    worker.once('error', fail);
    worker.once('exit', (code) => fail(new Error(`The font thread ended (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
  }
}

const FONT_THREAD_IDLE_MS = 60_000;

// Facts about the loaded demo catalogue, computed from the server's API (and the demo's own Muse
// texts), so the tests follow the data instead of hard-coding counts that can change.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Entry, FullText, SearchResponse } from '@uc/shared';
import { baseUrl } from './browser.ts';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function api<T>(pathAndQuery: string): Promise<T> {
  const res = await fetch(`${baseUrl}/collector/api${pathAndQuery}`);
  if (!res.ok) throw new Error(`GET ${pathAndQuery}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export async function apiStatus(pathAndQuery: string): Promise<number> {
  const res = await fetch(`${baseUrl}/collector/api${pathAndQuery}`);
  await res.arrayBuffer();
  return res.status;
}

export function search(params: Record<string, string | string[] | number | undefined> = {}): Promise<SearchResponse> {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v]) sp.append(k, String(x));
  }
  const qs = sp.toString();
  return api<SearchResponse>(`/search${qs ? `?${qs}` : ''}`);
}

/** The English heading of a search with a query (spec §2; i18n plural forms of en.json). */
export function resultsHeading(query: string, count: number): string {
  return `Search results for “${query}”: found ${count} ${count === 1 ? 'entry' : 'entries'}`;
}

export interface TitleRow {
  id: number;
  title: string;
}

let allTitlesCache: Promise<TitleRow[]> | undefined;
/** Every public entry's id and title (the demo is small; capped at 3,000). */
export function allTitles(): Promise<TitleRow[]> {
  allTitlesCache ??= (async () => {
    const rows: TitleRow[] = [];
    for (let page = 1; page <= 30; page++) {
      const r = await search({ sort_by: 'title_asc', page_size: 100, page_number: page });
      rows.push(...r.matches.map((m) => ({ id: m.entry_id, title: m.title[0].value })));
      if (rows.length >= r.total_entries || r.matches.length === 0) break;
    }
    return rows;
  })();
  return allTitlesCache;
}

/** Titles of the demo's Muse texts (demo/texts/*.muse, `#title` lines). */
export function demoTextTitles(): string[] {
  const dir = path.join(repoRoot, 'demo', 'texts');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.muse'))
    .sort()
    .map((f) => /^#title[ \t]+(.+)$/m.exec(fs.readFileSync(path.join(dir, f), 'utf8'))?.[1]?.trim() ?? '')
    .filter((t) => t !== '');
}

const stripMarks = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').normalize('NFC');

export interface QueryWord {
  query: string;
  total: number;
  /** A title the query finds (on the first result page). */
  title: string;
}

/**
 * A plain query word from a real title: letters only, at least 5 of them, found by the server and
 * not matching everything (so the count means something). Demo text titles first.
 */
export async function pickQueryWord(): Promise<QueryWord> {
  const all = await search();
  const titles = [...demoTextTitles(), ...(await allTitles()).map((r) => r.title)];
  const tried = new Set<string>();
  for (const title of titles) {
    for (const word of title.split(/[^\p{L}]+/u)) {
      const w = word.toLowerCase();
      if (w.length < 5 || !/^[a-z]+$/.test(w) || tried.has(w)) continue;
      tried.add(w);
      const r = await search({ query: w });
      if (r.total_entries > 0 && r.total_entries < all.total_entries) return { query: w, total: r.total_entries, title: r.matches[0].title[0].value };
      if (tried.size > 40) break;
    }
  }
  throw new Error('The demo catalogue has no title word (5+ ASCII letters) that finds some but not all entries');
}

export interface AccentCase {
  entryId: number;
  title: string;
  accentedWord: string;
  folded: string;
  total: number;
}

/** An accented title of the demo and the same word without accents, which the server must find. */
export async function pickAccentedTitle(): Promise<AccentCase | undefined> {
  const rows = await allTitles();
  for (const row of rows) {
    for (const word of row.title.split(/[^\p{L}]+/u)) {
      const folded = stripMarks(word).toLowerCase();
      if (folded === word.toLowerCase() || folded.length < 4 || !/^[a-z]+$/.test(folded)) continue;
      const r = await search({ query: folded, page_size: 100 });
      if (r.matches.some((m) => m.entry_id === row.id)) {
        return { entryId: row.id, title: row.title, accentedWord: word, folded, total: r.total_entries };
      }
    }
  }
  return undefined;
}

export interface TextEntry {
  entry: Entry;
  dataSourceId: number;
  /** The first heading of the rendered full text. */
  heading: string;
  hasPdf: boolean;
}

const decodeEntities = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');

function firstHeading(html: string): string | undefined {
  for (const m of html.matchAll(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/gi)) {
    const text = decodeEntities(m[2].replace(/<a\b[^>]*class="footnote"[^>]*>[\s\S]*?<\/a>/gi, '').replace(/<[^>]+>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
    if (text) return text;
  }
  return undefined;
}

let textEntriesCache: Promise<TextEntry[]> | undefined;
/**
 * Entries with a readable full text (Muse): the demo's own texts (demo/texts) first. Scans at most
 * 60 entries that have downloads, so a large demo stays quick.
 */
export function textEntries(): Promise<TextEntry[]> {
  textEntriesCache ??= (async () => {
    const wanted = new Set(demoTextTitles());
    const candidates = new Map<number, string>();
    for (const download of ['text', 'raw']) {
      for (let page = 1; page <= 3; page++) {
        const r = await search({ filter_download: download, page_size: 100, page_number: page });
        r.matches.forEach((m) => candidates.set(m.entry_id, m.title[0].value));
        if (r.matches.length < 100) break;
      }
    }
    const ordered = [...candidates].sort((a, b) => Number(wanted.has(b[1])) - Number(wanted.has(a[1]))).slice(0, 60);
    const out: TextEntry[] = [];
    for (const [id] of ordered) {
      const entry = await api<Entry>(`/entry/${id}`);
      for (const ds of entry.data_sources) {
        if (!ds.has_full_text) continue;
        const ft = await api<FullText>(`/full-text/${ds.data_source_id}`);
        const heading = firstHeading(ft.html);
        if (!heading) continue;
        const hasPdf = ds.has_pdf && ds.downloads.some((d) => d.ext.replace(/^\./, '').toLowerCase() === 'pdf');
        out.push({ entry, dataSourceId: ds.data_source_id, heading, hasPdf });
        break;
      }
      if (out.length >= 3 && out.some((t) => t.hasPdf)) break;
    }
    return out;
  })();
  return textEntriesCache;
}

/** Entries with a PDF (and whether the same data source also has a full text). */
export async function pdfEntry(): Promise<{ entry: Entry; dataSourceId: number; withText: boolean } | undefined> {
  const withText = (await textEntries()).find((t) => t.hasPdf);
  if (withText) return { entry: withText.entry, dataSourceId: withText.dataSourceId, withText: true };
  for (const download of ['raw', 'text']) {
    const r = await search({ filter_download: download, page_size: 100 });
    for (const m of r.matches.slice(0, 60)) {
      const entry = await api<Entry>(`/entry/${m.entry_id}`);
      const ds = entry.data_sources.find((d) => d.has_pdf && d.downloads.some((x) => x.ext.replace(/^\./, '').toLowerCase() === 'pdf'));
      if (ds) return { entry, dataSourceId: ds.data_source_id, withText: ds.has_full_text };
    }
  }
  return undefined;
}

/** A word of a demo text found by the search only inside its full text (not its title), with the snippet's marked word. */
export async function pickFullTextWord(): Promise<{ word: string; title: string; snippet: string } | undefined> {
  for (const t of await textEntries()) {
    const title = t.entry.title;
    const ft = await api<{ html: string }>(`/full-text/${t.dataSourceId}`);
    const text = ft.html.replace(/<[^>]+>/g, ' ');
    const titleWords = new Set(title.toLowerCase().split(/[^\p{L}]+/u));
    const words = [...new Set(text.match(/\b[a-z]{8,12}\b/g) ?? [])].filter((w) => !titleWords.has(w)).slice(0, 8);
    for (const word of words) {
      const r = await search({ query: word });
      const m = r.matches.find((x) => x.entry_id === t.entry.id);
      const marked = m?.snippet?.parts.find((p) => p.match);
      if (marked) return { word, title: m!.title[0].value, snippet: marked.text };
    }
  }
  return undefined;
}

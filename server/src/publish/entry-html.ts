// Entry pages readable by crawlers: the web app's index.html with the entry's title, description,
// canonical link, Open Graph tags and schema.org JSON-LD written into <head>, so the page says what it
// is before (or without) the app running. The entry comes from CatalogueService.getEntry as an
// anonymous visitor sees it: an entry nobody anonymous may see gets the bare app and a 404.
import { shortEntryText, type Entry, type ShortEntry } from '@uc/shared';
import type { CatalogueService } from '../catalogue/service.ts';
import type { PagesService } from '../pages/service.ts';
import { ANONYMOUS } from '../http/viewer.ts';
import { entrySummary, fullTitle } from './feeds.ts';
import { ACQUISITION_TYPES } from './opds.ts';

// An entry's page, and its text's page (/entry/<id>/text: linked and shared on its own).
const ENTRY_PATH = /^\/entry\/([^/]+)(\/text)?\/?$/;
const DESCRIPTION_MAX = 300;

/** Text for HTML text and double- or single-quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON safe inside <script>: every '<' (so no '</script>' nor '<!--'), '>' and '&' as \u escapes, and
 * the line separators JavaScript once refused in strings. The JSON value is unchanged.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function clip(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

// Records whose type names something else than a text (MARC 336, or a MIME type from 856) are CreativeWorks.
const NOT_A_BOOK = /image|video|audio|sound|music|film|movie|cartographic|\bmap|object|dataset/i;

export function schemaType(entry: Entry): 'Book' | 'CreativeWork' {
  if (entry.data_sources.some((d) => d.isbn)) return 'Book';
  return entry.data_sources.some((d) => d.content_type && NOT_A_BOOK.test(d.content_type)) ? 'CreativeWork' : 'Book';
}

function earliestYear(entry: Entry): number | null {
  const years = entry.data_sources.flatMap((d) => [d.year_first_edition, d.year_edition]).filter((y): y is number => !!y);
  return years.length ? Math.min(...years) : null;
}

/** The schema.org description of an entry (JSON-LD). */
export function entryJsonLd(entry: Entry, base: string): Record<string, unknown> {
  const url = (id: number) => `${base}/entry/${id}`;
  const ref = (e: ShortEntry) => ({ '@type': 'CreativeWork', '@id': url(e.entry_id), url: url(e.entry_id), name: shortEntryText(e).title });
  const year = earliestYear(entry);
  const publishers = [...new Set(entry.data_sources.map((d) => d.publisher?.trim()).filter((p): p is string => !!p))];
  const isbns = [...new Set(entry.data_sources.map((d) => d.isbn?.trim()).filter((i): i is string => !!i))];
  const summary = entrySummary(entry);
  const languages = entry.languages.map((l) => l.id);
  const doc: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': schemaType(entry),
    '@id': url(entry.id),
    url: url(entry.id),
    name: entry.title,
  };
  if (entry.subtitle) doc.alternativeHeadline = entry.subtitle;
  if (entry.authors.length) doc.author = entry.authors.map((a) => ({ '@type': 'Person', name: a.value, url: `${base}/library/author/${a.id}` }));
  if (languages.length) doc.inLanguage = languages.length === 1 ? languages[0] : languages;
  if (year) doc.datePublished = String(year);
  if (publishers.length) doc.publisher = publishers.map((name) => ({ '@type': 'Organization', name }));
  if (isbns.length) doc.isbn = isbns.length === 1 ? isbns[0] : isbns;
  if (summary) doc.description = summary;
  // Translations both ways: translationOfWork points at the original, workTranslation at the translations.
  if (entry.original_entry) doc.translationOfWork = { '@type': 'CreativeWork', '@id': url(entry.original_entry.id), url: url(entry.original_entry.id) };
  if (entry.translations.length) doc.workTranslation = entry.translations.map((t) => ({ '@type': 'CreativeWork', '@id': url(t.id), url: url(t.id), inLanguage: t.languages.map((l) => l.id) }));
  if (entry.aggregations.length) doc.isPartOf = entry.aggregations.map(ref);
  if (entry.aggregated.length) doc.hasPart = entry.aggregated.map(ref);
  // Holdings as lending offers made by each library: the pattern schema.org's bibliographic extension
  // gives for library holdings (holdingArchive would need an ArchiveOrganization, which a library is not).
  const libraries = new Map<number, Entry['data_sources'][number]>();
  for (const d of entry.data_sources) if (!libraries.has(d.library_id)) libraries.set(d.library_id, d);
  if (libraries.size) {
    doc.offers = [...libraries.values()].map((d) => ({
      '@type': 'Offer',
      businessFunction: 'http://purl.org/goodrelations/v1#LeaseOut',
      offeredBy: { '@type': 'Library', name: d.library_name, url: `${base}/library/details/${d.library_id}` },
      url: `${url(entry.id)}#library-${d.library_id}`,
      ...(d.shelf_location_code ? { sku: d.shelf_location_code } : {}),
    }));
  }
  // The files anyone may download, as the work's encodings.
  const files = entry.data_sources.flatMap((d) => d.downloads.filter((f) => ACQUISITION_TYPES[f.ext]).map((f) => ({
    '@type': 'MediaObject', encodingFormat: ACQUISITION_TYPES[f.ext], contentUrl: `${base}/collector/api/download/${d.data_source_id}${f.ext}`,
  })));
  if (files.length) doc.encoding = files;
  return doc;
}

/** The head elements of an entry page (`page` 'text': the page of its full text, which is its own canonical address). */
export function entryHead(entry: Entry, base: string, siteName: string, page: 'entry' | 'text' = 'entry'): string {
  const authors = entry.authors.map((a) => a.value).join(', ');
  const title = authors ? `${fullTitle(entry)} — ${authors}` : fullTitle(entry);
  const description = clip(entrySummary(entry) || fullTitle(entry), DESCRIPTION_MAX);
  const canonical = `${base}/entry/${entry.id}${page === 'text' ? '/text' : ''}`;
  const year = earliestYear(entry);
  const meta = (attr: 'name' | 'property', key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const lines = [
    `<title>${escapeHtml(title)}</title>`,
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(canonical)}" />`,
    meta('property', 'og:type', schemaType(entry) === 'Book' ? 'book' : 'website'),
    meta('property', 'og:title', fullTitle(entry)),
    meta('property', 'og:description', description),
    meta('property', 'og:url', canonical),
    meta('property', 'og:site_name', siteName),
    ...(schemaType(entry) === 'Book' ? [
      ...entry.authors.map((a) => meta('property', 'book:author', a.value)),
      ...(year ? [meta('property', 'book:release_date', String(year))] : []),
    ] : []),
    `<script type="application/ld+json">${scriptJson(entryJsonLd(entry, base))}</script>`,
  ];
  return lines.map((l) => `    ${l}\n`).join('');
}

/** The template with its own title and description replaced by `head` (or left as they are, with `noindex`). */
export function injectHead(template: string, head: string): string {
  const stripped = template.replace(/[ \t]*<title>[\s\S]*?<\/title>[ \t]*\r?\n?/i, '').replace(/[ \t]*<meta\s+name="description"[^>]*>[ \t]*\r?\n?/i, '');
  // Before the line holding </head>, so the block keeps its own indentation.
  const m = /(^|\n)[ \t]*<\/head>/i.exec(stripped);
  if (!m) return stripped;
  const at = m.index + m[1].length;
  return `${stripped.slice(0, at)}${head}${stripped.slice(at)}`;
}

export class EntryPages {
  constructor(private catalogue: CatalogueService, private pages: PagesService) {}

  /** The page for a request path, or null when the path is not an entry page. */
  render(path: string, template: string, base: string): { status: number; html: string } | null {
    const m = ENTRY_PATH.exec(path);
    if (!m) return null;
    const missing = { status: 404, html: template.replace(/<\/head>/i, '    <meta name="robots" content="noindex" />\n  </head>') };
    if (!/^\d{1,10}$/.test(m[1]) || Number(m[1]) < 1 || Number(m[1]) > 2 ** 31 - 1) return missing;
    const entry = this.catalogue.getEntry(Number(m[1]), ANONYMOUS);
    // The API's rule for an empty entry page (EntryPage shows "not found" when no record is visible).
    if (!entry || entry.data_sources.length === 0) return missing;
    return { status: 200, html: injectHead(template, entryHead(entry, base, this.pages.general().site_name, m[2] ? 'text' : 'entry')) };
  }
}

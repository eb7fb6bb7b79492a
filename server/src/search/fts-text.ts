// An entry's full-text row (entry_fts) from its text as stored, and the FTS5 settings of a bulk load:
// the Indexer writes rows itself, and an import into an empty catalogue hands them to the full-text
// builder thread (fts-builder.ts), which must make exactly the same rows. No database imports here.
import { hash } from 'node:crypto';
import { foldText, searchForms } from '@uc/shared';
import { LAYER_STRIDE } from './layers.ts';
import { stemLanguages, stemText } from './analysis.ts';

/**
 * An entry's text as stored, each part joined with ' \n ': titles, authors, description and the like, full
 * texts; then its language codes (space-separated), whose stemmers add the stems of every part but the authors.
 */
export type FtsText = [title: string, authors: string, body: string, fulltext: string, languages?: string];

/** An entry's full-text row: rowid, title, authors, body, full text (as entry_fts stores them, folded). */
export type FtsRow = [number, string, string, string, string];

/**
 * The FTS5 table of full-text rows: the catalogue's entry_fts on SQLite, and each app node's text
 * mirror on PostgreSQL (text-mirror.ts). Contentless: it keeps the folded tokens only.
 */
export const ENTRY_FTS5_TABLE = `CREATE VIRTUAL TABLE entry_fts USING fts5(title, authors, body, fulltext,
          content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0', prefix='2 3')`;

/**
 * PostgreSQL's entry_fts: each full-text row's text as stored (an `FtsText` by rowid); the app nodes'
 * text mirrors make the FTS5 rows from it (`ftsRow`), so folding and stemming cost the import nothing.
 * `entry_id` finds an entry's own row and its private libraries' layer rows (rowid modulo LAYER_STRIDE).
 */
export const PG_ENTRY_TEXT_TABLE = `CREATE TABLE entry_fts (rowid bigint PRIMARY KEY,
          entry_id bigint GENERATED ALWAYS AS (rowid % 4294967296) STORED,
          title text NOT NULL, authors text NOT NULL, body text NOT NULL, fulltext text NOT NULL, languages text NOT NULL);
        CREATE INDEX entry_fts_entry ON entry_fts (entry_id);`;

/** An `FtsText` as PostgreSQL's entry_fts stores it: rowid, then the five texts (languages '' for none). */
export type StoredFtsText = [number, string, string, string, string, string];

export const storedFtsText = (rowid: number, text: FtsText): StoredFtsText => [rowid, text[0], text[1], text[2], text[3], text[4] ?? ''];

/**
 * The row of an entry's text: titles and authors in Cyrillic or Greek are indexed as written and in Latin
 * letters; titles, body and full text are followed by the stems of their words in the entry's languages
 * (search/analysis.ts).
 */
export function ftsRow(entryId: number, text: FtsText): FtsRow {
  const langs = text[4] ? stemLanguages(text[4].split(' ')) : [];
  const titles = searchForms(text[0]);
  const body = foldText(text[2]);
  const fulltext = foldText(text[3]);
  if (!langs.length) return [entryId, titles.join(' \n '), searchForms(text[1]).join(' \n '), body, fulltext];
  return [
    entryId,
    withStems(titles.join(' \n '), stemText(titles[0]!, langs)),
    searchForms(text[1]).join(' \n '),
    withStems(body, stemText(body, langs)),
    withStems(fulltext, stemText(fulltext, langs)),
  ];
}

const withStems = (text: string, stems: string) => (stems ? `${text} \n ${stems}` : text);

/**
 * For a bulk load (with `inTransaction` reindexes): FTS5 holds up to 32 MiB of terms before it writes a
 * segment (1 MiB by default: many small segments), and merges no segments meanwhile (automerge 0, crisis
 * merges only past 1,000 segments on a level, of 2,000 in all). Merging as it went cost more the larger
 * the index grew (about an eighth of a 1,000,000-entry import's main thread); the compaction job merges
 * the segments once, after the load (search/compaction.ts).
 */
export const BULK_FTS_CONFIG = { hashsize: 32 * 1024 * 1024, automerge: 0, crisismerge: 1000 } as const;
/** FTS5's own defaults of the settings a bulk load changes. */
export const FTS5_DEFAULT_CONFIG = { hashsize: 1024 * 1024, automerge: 4, crisismerge: 16 } as const;

/**
 * Fingerprints (48 bits of a SHA-1; 0: none) of the full-text rows written in one bulk load, by entry
 * id: a typed array, 8 bytes per id and nothing for the garbage collector to trace at 1,000,000 entries.
 */
export class FtsFingerprints {
  private values = new Float64Array(1 << 16);
  /** Rows of a private library's layer (rowids past LAYER_STRIDE: search/layers.ts), few: in a map. */
  private layers = new Map<number, number>();
  get(entryId: number): number {
    if (entryId >= LAYER_STRIDE) return this.layers.get(entryId) ?? 0;
    return entryId < this.values.length ? this.values[entryId]! : 0;
  }
  set(entryId: number, fingerprint: number): void {
    if (entryId >= LAYER_STRIDE) {
      this.layers.set(entryId, fingerprint);
      return;
    }
    if (entryId >= this.values.length) {
      const grown = new Float64Array(Math.max(this.values.length * 2, entryId + 1));
      grown.set(this.values);
      this.values = grown;
    }
    this.values[entryId] = fingerprint;
  }
}

/** The fingerprint of a row (never 0). */
export function fingerprintOf(row: readonly (string | number | undefined)[]): number {
  return hash('sha1', row.join('\u0000'), 'buffer').readUIntBE(0, 6) || 1;
}

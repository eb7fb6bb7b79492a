// Every Muse text as an EPUB download (issue 31): a Deriver of derived-files.ts, so it is made on the first
// request (in a build thread: a large text takes seconds), cached under DATA_DIR/derived/<id>/ and dropped
// when the text changes. The title page credits the library and links the text's own address.
import fs from 'node:fs';
import { museToEpub, readMuseZip } from '@uc/muse';
import type { Db } from '../db/index.ts';
import { CONTENT_TYPES } from './files.ts';
import type { Deriver } from './derived-files.ts';

/** What the build thread needs to write one text's EPUB (file in, file out). */
export interface TextEpubInput {
  musePath: string;
  zipPath: string | null;
  outPath: string;
  identifier?: string;
  credits?: string;
  sourceUrl?: string;
  /** dcterms:modified: the text's own time, so the same text gives the same package. */
  modifiedMs: number;
}

/** Runs in a build thread (build-thread-main.ts). */
export function writeTextEpub(input: TextEpubInput): { bytes: number } {
  const muse = fs.readFileSync(input.musePath, 'utf8');
  let files = new Map<string, Uint8Array>();
  if (input.zipPath) {
    try {
      files = readMuseZip(new Uint8Array(fs.readFileSync(input.zipPath))).files;
    } catch {
      // a broken zip only loses the images
    }
  }
  const epub = museToEpub(muse, { files, identifier: input.identifier, credits: input.credits, sourceUrl: input.sourceUrl, modified: new Date(input.modifiedMs) });
  fs.writeFileSync(input.outPath, epub);
  return { bytes: epub.length };
}

/** How many are made at once, and their time limit (`signal`): DerivedFiles' rules for every derived file. */
export function textEpubDeriver(db: Db, run: (input: TextEpubInput, signal: AbortSignal) => Promise<unknown>, publicUrl = ''): Deriver {
  const credits = db.sqlite.prepare(`SELECT d.entry_id, d.uri, l.name FROM data_sources d JOIN sites s ON s.id = d.site_id
    JOIN libraries l ON l.id = s.library_id WHERE d.id = ?`);
  return {
    ext: '.epub',
    contentType: CONTENT_TYPES['.epub'],
    from: '.muse',
    alsoReads: ['.zip'],
    async build({ sources, outPath, dataSourceId, signal }) {
      const row = credits.get(dataSourceId) as { entry_id: number; uri: string | null; name: string } | undefined;
      const sourceUrl = row?.uri && /^https?:\/\//i.test(row.uri) ? row.uri : undefined;
      const musePath = sources['.muse']!;
      await run({
        musePath,
        zipPath: sources['.zip'] ?? null,
        outPath,
        // a stable identifier: the text's own address, else its entry's on this site
        identifier: sourceUrl ?? (publicUrl && row ? `${publicUrl.replace(/\/$/, '')}/entry/${row.entry_id}` : `urn:x-union-catalogue:data-source:${dataSourceId}`),
        credits: row?.name,
        sourceUrl,
        modifiedMs: Math.trunc(fs.statSync(musePath).mtimeMs / 1000) * 1000,
      }, signal);
    },
  };
}

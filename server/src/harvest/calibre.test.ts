import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listCalibreIdentifiers, scanCalibreTree, type CalibreBook } from './calibre.ts';
import { renderReport } from './report.ts';

const FIXTURE = fileURLToPath(new URL('./test-fixtures/calibre', import.meta.url));
const COMMONS = 'calibre:6d1f4c2a-93b7-4e0e-a8f1-0c5b7e2d9a11';
const SONGS = 'calibre:a3e9b0d4-5c21-4f6a-9e7d-2b8c1f0e4d52';

async function scan(root: string, opts: Parameters<typeof scanCalibreTree>[1] = {}): Promise<CalibreBook[]> {
  const out: CalibreBook[] = [];
  for await (const b of scanCalibreTree(root, opts)) out.push(b);
  return out;
}

const tmpDirs: string[] = [];
/** A writable copy of the fixture library (to change dates and add links). */
function copyOfLibrary(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'calibre-test-'));
  tmpDirs.push(dir);
  const root = path.join(dir, 'library');
  fs.cpSync(FIXTURE, root, { recursive: true });
  return root;
}
afterAll(() => {
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('scanning a Calibre library folder', () => {
  it('finds one book per folder with a metadata.opf, skipping hidden folders', async () => {
    const books = await scan(FIXTURE);
    expect(books.map((b) => b.identifier)).toEqual(['urn:isbn:207036822X', SONGS, COMMONS, 'Unknown/Broken Catalogue Card (3)']);
    expect(books.some((b) => b.dir.includes('.caltrash'))).toBe(false);
  });

  it('lists each book\'s format files (not its cover) and offers them as downloads', async () => {
    const commons = (await scan(FIXTURE)).find((b) => b.identifier === COMMONS)!;
    expect(commons.files.map((f) => f.ext)).toEqual(['.epub', '.pdf', '.txt']);
    expect(commons.files.every((f) => fs.existsSync(f.path) && f.path.startsWith(commons.dir))).toBe(true);
    expect(commons.record?.downloads).toEqual(['epub', 'pdf', 'txt']);
    expect(commons.record).toMatchObject({ title: 'The Commons of the Sea', authors: ['Lucia Ferrer', 'Tomas Vidal'], aggregations: [{ name: 'Harbour Cycle', order: 2 }] });
    expect(commons.modified.getTime()).toBe(fs.statSync(path.join(commons.dir, 'metadata.opf')).mtime.getTime());
  });

  it('reports a malformed metadata.opf as the book\'s error, identified by its folder, and goes on', async () => {
    const books = await scan(FIXTURE);
    const broken = books.find((b) => b.error)!;
    expect(broken.identifier).toBe('Unknown/Broken Catalogue Card (3)');
    expect(broken.record).toBeUndefined();
    expect(renderReport('en', broken.error!)).toMatch(/^Unknown\/Broken Catalogue Card \(3\)\/metadata\.opf cannot be read: The document is not well-formed XML/);
    expect(books.filter((b) => b.record)).toHaveLength(3);
  });

  it('skips books whose OPF is older than `since`, while listCalibreIdentifiers still lists every book', async () => {
    const root = copyOfLibrary();
    const old = new Date('2020-01-01T00:00:00Z');
    for (const b of await scan(root)) fs.utimesSync(path.join(b.dir, 'metadata.opf'), old, old);
    const songsOpf = path.join(root, 'Lucia Ferrer/Harbour Songs (2)/metadata.opf');
    const recent = new Date('2025-06-01T00:00:00Z');
    fs.utimesSync(songsOpf, recent, recent);
    expect((await scan(root, { since: new Date('2024-01-01T00:00:00Z') })).map((b) => b.identifier)).toEqual([SONGS]);
    expect([...await listCalibreIdentifiers(root)].sort()).toEqual([COMMONS, SONGS, 'Unknown/Broken Catalogue Card (3)', 'urn:isbn:207036822X'].sort());
  });

  it('follows symbolic links inside the library but never out of it', async () => {
    const root = copyOfLibrary();
    const outside = path.join(path.dirname(root), 'outside');
    fs.mkdirSync(path.join(outside, 'Secret (9)'), { recursive: true });
    fs.copyFileSync(path.join(FIXTURE, 'Lucia Ferrer/Harbour Songs (2)/metadata.opf'), path.join(outside, 'Secret (9)/metadata.opf'));
    fs.writeFileSync(path.join(outside, 'passwd.txt'), 'not for the catalogue');
    fs.symlinkSync(outside, path.join(root, 'Linked out'));
    fs.symlinkSync(path.join(outside, 'passwd.txt'), path.join(root, 'Jeanne Morel/Les vallees libres (4)/stolen.txt'));
    fs.mkdirSync(path.join(root, 'Shelf'));
    fs.symlinkSync(path.join(root, 'Lucia Ferrer'), path.join(root, 'Shelf/Lucia'));
    fs.symlinkSync(root, path.join(root, 'Shelf/loop'));
    const books = await scan(root);
    expect(books.some((b) => b.dir.includes('Linked out'))).toBe(false);
    expect(books.find((b) => b.identifier === 'urn:isbn:207036822X')!.files.map((f) => f.ext)).toEqual(['.pdf']);
    // A folder reachable through a link too is scanned once; the link back to the root is no loop.
    expect(books.filter((b) => b.identifier === SONGS).map((b) => path.relative(root, b.dir)).sort()).toEqual(['Lucia Ferrer/Harbour Songs (2)']);
  });

  it('stops when the harvest is cancelled', async () => {
    const ctl = new AbortController();
    ctl.abort();
    await expect(scan(FIXTURE, { signal: ctl.signal })).rejects.toThrow();
  });
});

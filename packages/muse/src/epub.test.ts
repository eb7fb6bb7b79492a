// EPUB 3 output: EPUBCheck (Debian's epubcheck) over the whole Muse corpus, the demo texts, the real
// amusewiki zips and a collection, in one JVM; and what a reader app would read back from a package.
import { describe, it, expect, beforeAll } from 'vitest';
import { existsSync, readdirSync, readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { unzipSync, strFromU8 } from 'fflate';
import { museToEpub, collectionToEpub, readMuseZip } from './index.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const corpus = join(repoRoot, '../shared/fixtures/muse');
const zips = join(repoRoot, '../shared/fixtures/amusewiki-texts');
const demo = join(repoRoot, 'demo/texts');
const JAR = '/usr/share/java/epubcheck.jar';
const haveJava = spawnSync('java', ['-version']).status === 0;
const haveCheck = existsSync(JAR) && haveJava;
if (!haveCheck) console.log(`EPUBCheck tests skipped: install the Debian package epubcheck (${JAR} and a Java runtime)`);

function imagesNextTo(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const f of readdirSync(dir)) if (/\.(png|jpe?g)$/i.test(f)) files.set(f, readFileSync(join(dir, f)));
  return files;
}

const FIXED = { modified: new Date('2026-01-01T00:00:00Z') };

describe.skipIf(!haveCheck)('EPUBCheck', () => {
  const out = mkdtempSync(join(tmpdir(), 'epub-check-'));
  const made: string[] = [];
  beforeAll(() => {
    const add = (name: string, data: Uint8Array) => {
      const p = join(out, name.replace(/[^A-Za-z0-9_.-]/g, '_') + '.epub');
      writeFileSync(p, data);
      made.push(p);
    };
    if (existsSync(corpus)) {
      const files = imagesNextTo(corpus);
      for (const f of readdirSync(corpus).filter((f) => f.endsWith('.muse')).sort())
        add(`corpus-${f}`, museToEpub(readFileSync(join(corpus, f), 'utf8'), { files, ...FIXED }));
    }
    const demoFiles = imagesNextTo(demo);
    const demoTexts = readdirSync(demo).filter((f) => f.endsWith('.muse')).sort();
    for (const f of demoTexts) add(`demo-${f}`, museToEpub(readFileSync(join(demo, f), 'utf8'), { files: demoFiles, credits: 'Demo library', sourceUrl: 'https://example.org/library/' + f, ...FIXED }));
    if (existsSync(zips)) {
      for (const f of readdirSync(zips).filter((f) => f.endsWith('.zip'))) {
        const z = readMuseZip(new Uint8Array(readFileSync(join(zips, f))));
        add(`zip-${f}`, museToEpub(z.muse, { files: z.files, ...FIXED }));
      }
    }
    add(
      'collection',
      collectionToEpub(
        demoTexts.slice(0, 3).map((f) => ({ muse: readFileSync(join(demo, f), 'utf8'), files: demoFiles, credits: 'Demo library' })),
        { title: 'A collection', author: 'Somebody', ...FIXED },
      ),
    );
    return () => rmSync(out, { recursive: true, force: true });
  });

  it('reports no error and no warning on any file', () => {
    const r = spawnSync('java', ['-cp', JAR, join(here, '../scripts/EpubCheckMany.java'), ...made], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const text = r.stdout + r.stderr;
    const problems: string[] = [];
    for (const part of text.split(/^== (?=\/)/m).slice(1)) {
      const file = part.slice(0, part.indexOf('\n'));
      const m = /Messages: (\d+) fatals? \/ (\d+) errors? \/ (\d+) warnings?/.exec(part);
      if (!m || m[1] !== '0' || m[2] !== '0' || m[3] !== '0') problems.push(part.split('\n').filter((l) => /^(ERROR|WARNING|FATAL)/.test(l) || l === file).join('\n'));
    }
    expect(made.length).toBeGreaterThan(3);
    expect(text.split(/^== (?=\/)/m).length - 1).toBe(made.length);
    expect(problems).toEqual([]);
  }, 180_000);
});

function unpack(epub: Uint8Array): Record<string, string> {
  const entries = unzipSync(epub);
  return Object.fromEntries(Object.entries(entries).filter(([n]) => !/\.(png|jpe?g|gif)$/.test(n)).map(([n, d]) => [n, strFromU8(d)]));
}

describe('EPUB contents', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
  const muse = [
    '#title Notes and more',
    '#author Ann Writer',
    '#lang en',
    '',
    'Before the first heading.',
    '',
    '* Part one',
    '',
    '** Short | A longer chapter title',
    '',
    'A claim.[1] Another.[2]',
    '',
    '[[figure.png][A drawing of shelves]]',
    '',
    '<quote>',
    '<[fr]>Une phrase.</[fr]>',
    '</quote>',
    '',
    '** Second chapter',
    '',
    '<verse>',
    'a line',
    'another',
    '</verse>',
    '',
    '[1] The first note.{1}',
    '',
    '[2] The second note.',
    '',
    '{1} A note on the note.',
    '',
  ].join('\n');
  const files = unpack(museToEpub(muse, { files: new Map([['figure.png', png]]), identifier: 'https://example.org/entry/1', ...FIXED }));

  it('starts with an uncompressed mimetype entry', () => {
    const raw = museToEpub(muse, FIXED);
    expect(strFromU8(raw.slice(30, 38))).toBe('mimetype');
    expect(raw[8]).toBe(0); // method: stored
    expect(strFromU8(raw.slice(38, 58))).toBe('application/epub+zip');
  });

  it('has the headings in the TOC, the short form of a long heading, in both nav and NCX', () => {
    const nav = files['OEBPS/nav.xhtml'];
    expect(nav).toContain('>Part one</a>');
    expect(nav).toContain('>Short</a>');
    expect(nav).not.toContain('A longer chapter title');
    expect(nav).toMatch(/Part one<\/a><ol>/); // chapters nested under the part
    expect(files['OEBPS/toc.ncx']).toContain('<text>Second chapter</text>');
    // one file per top-level section: before the first heading, the part, the two chapters
    expect(Object.keys(files).filter((n) => /^OEBPS\/text\/\d+\.xhtml$/.test(n))).toHaveLength(4);
  });

  it('has footnotes as EPUB 3 noterefs and asides with back links, the secondary one too', () => {
    const all = Object.values(files).join('\n');
    expect(all).toMatch(/<a epub:type="noteref"[^>]*href="#fn1"[^>]*id="fn1-ref">\[1\]<\/a>/);
    expect(all).toMatch(/<aside epub:type="footnote"[^>]*id="fn1"[^>]*><p><a class="noteback" href="#fn1-ref"/);
    expect(all).toMatch(/<aside epub:type="footnote"[^>]*id="fnb1"/);
    expect(all).toContain('A note on the note.');
  });

  it('has the image with its alt text and its file in the manifest', () => {
    const all = Object.values(files).join('\n');
    expect(all).toContain('<img src="../images/figure.png" alt="A drawing of shelves"/>');
    expect(files['OEBPS/content.opf']).toContain('href="images/figure.png" media-type="image/png"');
    expect(files['OEBPS/content.opf']).toContain('<meta property="schema:accessibilityFeature">alternativeText</meta>');
  });

  it('has the language per text and per passage, and the metadata', () => {
    const opf = files['OEBPS/content.opf'];
    expect(opf).toContain('<dc:language>en</dc:language>');
    expect(opf).toContain('<dc:identifier id="uid">https://example.org/entry/1</dc:identifier>');
    expect(opf).toContain('<dc:creator>Ann Writer</dc:creator>');
    expect(opf).toContain('<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>');
    expect(opf).toContain('schema:accessibilitySummary');
    const all = Object.values(files).join('\n');
    expect(all).toContain('xml:lang="fr" lang="fr"');
    expect(files['OEBPS/text/title.xhtml']).toContain('<h1 class="title">Notes and more</h1>');
  });

  it('reads right to left for an Arabic text', () => {
    const rtl = unpack(museToEpub('#title عنوان\n#lang ar\n\n* فصل\n\nنص.\n', FIXED));
    expect(rtl['OEBPS/content.opf']).toContain('page-progression-direction="rtl"');
    expect(rtl['OEBPS/text/001.xhtml']).toMatch(/<html [^>]*xml:lang="ar" lang="ar" dir="rtl"/);
  });
});

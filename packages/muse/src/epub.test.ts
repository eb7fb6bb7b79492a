// EPUB 3 output: EPUBCheck (Debian's epubcheck) over the whole Muse corpus, the demo texts, the real
// amusewiki zips and a collection, in one JVM; and what a reader app would read back from a package.
import { describe, it, expect, beforeAll } from 'vitest';
import { existsSync, readdirSync, readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { unzipSync, strFromU8 } from 'fflate';
import { museToEpub, collectionToEpub, readMuseZip, selectSections } from './index.ts';
import { EPUBCHECK_MISSING, HAVE_EPUBCHECK, epubCheck } from './testing/epubcheck.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const corpus = join(repoRoot, '../shared/fixtures/muse');
const zips = join(repoRoot, '../shared/fixtures/amusewiki-texts');
const demo = join(repoRoot, 'demo/texts');
if (!HAVE_EPUBCHECK) console.log(EPUBCHECK_MISSING);

function imagesNextTo(dir: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const f of readdirSync(dir)) if (/\.(png|jpe?g)$/i.test(f)) files.set(f, readFileSync(join(dir, f)));
  return files;
}

const FIXED = { modified: new Date('2026-01-01T00:00:00Z') };

describe.skipIf(!HAVE_EPUBCHECK)('EPUBCheck', () => {
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
    // a Book Builder collection with partial selections (some sections of each text) and the virtual header
    add(
      'collection-partial',
      collectionToEpub(
        demoTexts.slice(0, 3).map((f, i) => ({ muse: selectSections(readFileSync(join(demo, f), 'utf8'), i === 1 ? [0, 2] : [1]), files: demoFiles, credits: 'Demo library' })),
        { title: 'Parts of *three* texts', subtitle: 'A reader', date: '2026', notes: 'Chosen for the test', source: 'The demo library', ...FIXED },
      ),
    );
    return () => rmSync(out, { recursive: true, force: true });
  });

  it('reports no error and no warning on any file', () => {
    const { reports, problems } = epubCheck(made);
    expect(made.length).toBeGreaterThan(3);
    expect(reports).toBe(made.length);
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

describe('partial selections', () => {
  const muse = '#title Parts\n#lang en\n\nBefore.[1]\n\n* One\n\nFirst.\n\n** Two\n\nSecond.[2]\n\n* Three\n\nThird.\n\n[1] Note one.\n\n[2] Note two.\n';

  it('keeps only the chosen sections, in the text\'s order, with their notes', () => {
    const files = unpack(collectionToEpub([{ muse: selectSections(muse, [3, 2]) }, { muse }], { title: 'Two', ...FIXED }));
    const first = Object.entries(files).filter(([n]) => n.startsWith('OEBPS/text/t001-')).map(([, v]) => v).join('\n');
    expect(first).toContain('Second.');
    expect(first).toContain('Third.');
    expect(first).toContain('Note two.');
    expect(first).not.toContain('First.');
    expect(first).not.toContain('Before.');
    expect(first).not.toContain('Note one.');
    expect(first.indexOf('Second.')).toBeLessThan(first.indexOf('Third.'));
    // one table of contents: each text's title, then its chosen headings one level below
    const nav = files['OEBPS/nav.xhtml'].split('</nav>')[0];
    expect(nav.match(/<a [^>]*>[^<]*<\/a>/g)!.map((a) => a.replace(/<[^>]+>/g, ''))).toEqual(['Parts', 'Two', 'Three', 'Parts', 'One', 'Two', 'Three']);
    expect(files['OEBPS/text/t001-000.xhtml']).toContain('<h1 class="title">Parts</h1>');
  });

  it('puts the collection\'s header on its title page and in the metadata', () => {
    const files = unpack(collectionToEpub([{ muse }], { title: 'My *own* book', subtitle: 'Sub', author: 'Editor', date: '2025', source: 'Somewhere', ...FIXED }));
    expect(files['OEBPS/text/title.xhtml']).toContain('<h1 class="title">My own book</h1>');
    expect(files['OEBPS/text/title.xhtml']).toContain('<p class="source">Somewhere</p>');
    const opf = files['OEBPS/content.opf'];
    expect(opf).toContain('<dc:title>My own book</dc:title>');
    expect(opf).toContain('<dc:creator>Editor</dc:creator>');
    expect(opf).toContain('<dc:date>2025</dc:date>');
    expect(opf).toContain('<dc:source>Somewhere</dc:source>');
  });
});

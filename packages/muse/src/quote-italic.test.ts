// Quotations keep their italics in the PDF (issue 32 point 15): the site's text view sets <quote> and
// indented paragraphs in italics, and so do the Typst writer's books, one text or a collection; an
// <em> inside a quotation stands out upright (Typst's emph toggles).
import { describe, expect, it } from 'vitest';
import { PDFDocument, PDFDict, PDFName } from 'pdf-lib';
import { collectionToPdf, museToPdf, museToTypst } from './index.ts';

const TEXT = `#title Quotes

Plain paragraph.

<quote>
A quotation with <em>a stressed phrase</em> inside.
</quote>

  An indented quotation.
`;

/** The font names of every page of a PDF. */
async function fontNames(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf);
  const names = new Set<string>();
  for (const page of doc.getPages()) {
    const fonts = page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict);
    for (const [, ref] of fonts?.entries() ?? []) {
      const f = doc.context.lookup(ref, PDFDict);
      names.add(String(f.get(PDFName.of('BaseFont'))).replace(/^\/[A-Z]{6}\+/, ''));
    }
  }
  return [...names].sort();
}

describe('quotations in italics', () => {
  it('the Typst source sets block quotes in italics and keeps <em> as emph inside them', () => {
    const src = museToTypst(TEXT, {});
    expect(src).toContain('#show quote.where(block: true): set text(style: "italic")');
    expect(src).toMatch(/#quote\(block: true\)\[\s*A quotation with #emph\[a stressed phrase\] inside/);
  });

  it('one text: the quotation is set in the italic face, its <em> upright', async () => {
    const onlyQuote = await museToPdf('#title Q\n\n<quote>\nOnly a quotation.\n</quote>\n', {});
    expect(await fontNames(onlyQuote)).toContain('DejaVuSerif-Italic');
    expect(await fontNames(await museToPdf('#title Q\n\n  Only an indented quotation.\n', {}))).toContain('DejaVuSerif-Italic');
    expect(await fontNames(await museToPdf('#title Q\n\nOnly a paragraph.\n', {}))).not.toContain('DejaVuSerif-Italic');
  });

  it('the Book Builder’s collection path sets the same italics', async () => {
    const emOnly = '#title E\n\n<quote>\n<em>Emphasis</em> inside quotes only.\n</quote>\n';
    const plain = '#title P\n\n<quote>\nA quotation.\n</quote>\n';
    expect(await fontNames(await collectionToPdf([{ muse: plain }, { muse: plain }], { title: 'Two' }))).toContain('DejaVuSerif-Italic');
    expect(await fontNames(await collectionToPdf([{ muse: emOnly }, { muse: emOnly }], { title: 'Two' }))).toContain('DejaVuSerif-Italic');
  });
});

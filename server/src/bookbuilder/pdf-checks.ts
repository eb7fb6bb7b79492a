// What a reader or a print shop checks on a built book, measured on the PDF itself (MuPDF, WASM):
// fonts embedded, page sizes, the outline, metadata and the text with its font sizes and positions.
// Used by the book tests and by `npm run check:book`.
import * as mupdf from 'mupdf';
import { pdfFonts, pdfPageSizesMm, withDoc } from '../covers/test/pdf-inspect.ts';

export { pdfFonts, pdfPageSizesMm };

const MM_PER_PT = 25.4 / 72;

export interface TextSpan {
  text: string;
  /** Font size in pt. */
  size: number;
  font: string;
  /** Left edge, right edge and baseline in mm from the page's top-left corner. */
  x: number;
  right: number;
  baseline: number;
}

/** The page's text lines, split where the font or size changes. */
export function pdfTextSpans(pdf: Uint8Array, page: number): TextSpan[] {
  return withDoc(pdf, (doc) => {
    const p = doc.loadPage(page);
    const [ox, oy] = p.getBounds();
    const st = p.toStructuredText('preserve-whitespace');
    const spans: TextSpan[] = [];
    let cur: TextSpan | null = null;
    const flush = () => {
      if (cur && cur.text.trim()) spans.push(cur);
      cur = null;
    };
    try {
      st.walk({
        beginLine: flush,
        endLine: flush,
        onChar(c, origin, font, size, quad) {
          const name = font.getName();
          const sz = Math.round(size * 10) / 10;
          if (cur && (cur.font !== name || cur.size !== sz)) flush();
          const right = (Math.max(quad[2], quad[6]) - ox) * MM_PER_PT;
          if (!cur) cur = { text: '', size: sz, font: name, x: (quad[0] - ox) * MM_PER_PT, right: -Infinity, baseline: (origin[1] - oy) * MM_PER_PT };
          cur.text += c;
          // the ink's right edge: a trailing space is no overflow
          if (!/^[\s\u200b]$/u.test(c)) cur.right = Math.max(cur.right, right);
        },
      });
    } finally {
      st.destroy();
      p.destroy();
    }
    flush();
    return spans;
  });
}

export function pdfPageCount(pdf: Uint8Array): number {
  return withDoc(pdf, (doc) => doc.countPages());
}

/** The outline (bookmarks), flattened, with each entry's depth (0 = top). */
export function pdfOutline(pdf: Uint8Array): { title: string; depth: number }[] {
  return withDoc(pdf, (doc) => {
    const out: { title: string; depth: number }[] = [];
    type Item = NonNullable<ReturnType<mupdf.PDFDocument["loadOutline"]>>[number];
    const walk = (items: Item[], depth: number) => {
      for (const it of items) {
        out.push({ title: it.title ?? '', depth });
        if (it.down) walk(it.down, depth + 1);
      }
    };
    walk(doc.loadOutline() ?? [], 0);
    return out;
  });
}

/** The document information dictionary's Title, Author, Subject and Keywords. */
export function pdfInfo(pdf: Uint8Array): { title?: string; author?: string; subject?: string; keywords?: string } {
  return withDoc(pdf, (doc) => ({
    title: doc.getMetaData('info:Title'),
    author: doc.getMetaData('info:Author'),
    subject: doc.getMetaData('info:Subject'),
    keywords: doc.getMetaData('info:Keywords'),
  }));
}

/** One page as a PNG at the given resolution (for docs/screenshots). */
export function pdfPagePng(pdf: Uint8Array, page: number, dpi = 72): Uint8Array {
  return withDoc(pdf, (doc) => {
    const p = doc.loadPage(page);
    const pix = p.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, false, true);
    try {
      return pix.asPNG();
    } finally {
      pix.destroy();
      p.destroy();
    }
  });
}

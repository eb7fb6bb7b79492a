// What a reader or a print shop checks on a built book, measured on the PDF itself (MuPDF, WASM):
// fonts embedded, page sizes, the outline, metadata and the text with its font sizes and positions.
// Used by the book tests and by `npm run check:book`.
import * as mupdf from 'mupdf';
import { PDFArray, PDFBool, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFString, decodePDFRawStream, type PDFObject } from 'pdf-lib';
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

export interface PdfTags {
  /** The catalog's /Lang and whether /MarkInfo says the document is tagged. */
  lang: string | null;
  marked: boolean;
  /** The structure types (/S) in reading order (depth first), with the marked-content items each holds. */
  elements: string[];
  /** What breaks PDF 1.7 §14.7: a reference to marked content the page or form lacks, or the parent tree disagreeing, or tagged content no element owns. */
  problems: string[];
}

/**
 * The structure tree of a PDF, checked both ways: every marked-content reference of an element
 * names an MCID that its page's or form's content has and whose parent-tree entry is that element,
 * and every MCID in the content of the pages and their forms is owned by an element.
 */
export async function pdfTags(pdf: Uint8Array): Promise<PdfTags> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const N = (s: string) => PDFName.of(s);
  const lang = doc.catalog.lookup(N('Lang'));
  const mark = doc.catalog.lookupMaybe(N('MarkInfo'), PDFDict);
  const result: PdfTags = {
    lang: lang instanceof PDFString || lang instanceof PDFHexString ? lang.decodeText() : null,
    marked: mark?.lookup(N('Marked')) === PDFBool.True,
    elements: [],
    problems: [],
  };
  const root = doc.catalog.lookupMaybe(N('StructTreeRoot'), PDFDict);
  if (!root) return result;
  // the parent tree, flattened (Nums and Kids)
  const parentTree = new Map<number, PDFArray>();
  const readNums = (node: PDFDict | undefined) => {
    if (!node) return;
    const nums = node.lookupMaybe(N('Nums'), PDFArray);
    for (let i = 0; nums && i + 1 < nums.size(); i += 2) {
      const arr = nums.lookup(i + 1);
      if (arr instanceof PDFArray) parentTree.set((nums.lookup(i) as PDFNumber).asNumber(), arr);
    }
    node.lookupMaybe(N('Kids'), PDFArray)?.asArray().forEach((k) => readNums(doc.context.lookup(k) as PDFDict));
  };
  readNums(root.lookupMaybe(N('ParentTree'), PDFDict));
  // the content streams that carry marked content: each page and the forms it draws, by their StructParents
  const streams = new Map<string, { key: number | undefined; mcids: Set<number> }>();
  const mcidsOf = (s: PDFObject | undefined): Set<number> => {
    const parts = s instanceof PDFArray ? s.asArray().map((x) => doc.context.lookup(x)) : [s];
    const text = parts.map((p) => (p instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(p).decode()).toString('latin1') : '')).join('\n');
    return new Set([...text.matchAll(/\/MCID\s+(\d+)/g)].map((m) => Number(m[1])));
  };
  const structParents = (d: PDFDict) => (d.lookup(N('StructParents')) as PDFNumber | undefined)?.asNumber();
  for (const page of doc.getPages()) {
    streams.set(page.ref.toString(), { key: structParents(page.node), mcids: mcidsOf(page.node.Contents()) });
    const xobjects = page.node.Resources()?.lookupMaybe(N('XObject'), PDFDict);
    for (const ref of xobjects?.values() ?? []) {
      const form = doc.context.lookup(ref);
      if (!(ref instanceof PDFRef) || !(form instanceof PDFRawStream) || form.dict.lookup(N('Subtype')) !== N('Form') || streams.has(ref.toString())) continue;
      const mcids = mcidsOf(form);
      if (mcids.size || form.dict.has(N('StructParents'))) streams.set(ref.toString(), { key: structParents(form.dict), mcids });
    }
  }
  const owned = new Set<string>();
  const check = (el: PDFRef, pg: PDFObject | undefined, stm: PDFObject | undefined, mcid: number) => {
    const where = (stm ?? pg)?.toString() ?? 'nowhere';
    const s = streams.get(where);
    owned.add(`${where}#${mcid}`);
    if (!s) return result.problems.push(`MCID ${mcid} refers to ${where}, which is no page or form of the document`);
    if (!s.mcids.has(mcid)) result.problems.push(`MCID ${mcid} is not in the content of ${where}`);
    const entry = s.key === undefined ? undefined : parentTree.get(s.key)?.get(mcid);
    if (!(entry instanceof PDFRef) || entry.toString() !== el.toString()) result.problems.push(`the parent tree does not name the element of MCID ${mcid} in ${where}`);
  };
  const walk = (ref: PDFRef, inheritedPg: PDFObject | undefined) => {
    const d = doc.context.lookup(ref, PDFDict);
    const pg = d.get(N('Pg')) ?? inheritedPg;
    let items = 0;
    const kids = d.get(N('K'));
    const elements: PDFRef[] = [];
    for (const k of kids instanceof PDFArray ? kids.asArray() : kids ? [kids] : []) {
      if (k instanceof PDFNumber) {
        check(ref, pg, undefined, k.asNumber());
        items++;
        continue;
      }
      const o = k instanceof PDFRef ? doc.context.lookup(k) : k;
      if (!(o instanceof PDFDict)) continue;
      const type = o.lookup(N('Type'));
      if (type === N('MCR')) {
        check(ref, o.get(N('Pg')) ?? pg, o.get(N('Stm')), (o.lookup(N('MCID')) as PDFNumber).asNumber());
        items++;
      } else if (type !== N('OBJR') && k instanceof PDFRef) {
        elements.push(k);
      }
    }
    result.elements.push(`${(d.lookup(N('S')) as PDFName).decodeText()}${items ? `(${items})` : ''}`);
    for (const e of elements) walk(e, pg);
  };
  const top = root.get(N('K'));
  for (const k of top instanceof PDFArray ? top.asArray() : top ? [top] : []) if (k instanceof PDFRef) walk(k, undefined);
  for (const [where, s] of streams) {
    for (const mcid of s.mcids) if (!owned.has(`${where}#${mcid}`)) result.problems.push(`MCID ${mcid} of ${where} belongs to no element`);
  }
  return result;
}

// Collections (bookbuilder reference §2.6): several Muse texts in one Typst document under a virtual
// header (title, subtitle, author, date, notes, source). Each text starts on a new (recto) page with its
// own title block, is listed in the table of contents at part level, keeps its language, footnotes,
// anchors and images to itself (labels and files are namespaced per text), and ends with its source
// and notes. The layout options are the book builder's (TypstLayoutOptions), shared by all texts;
// per-text header options (#cover, #nocoverpage…) are not used.
import type { MuseDocument } from './types.ts';
import { parseMuse } from './parse.ts';
import { inlineText, parseInline } from './inline.ts';
import { resolveLayout, type TypstLayoutOptions } from './layout.ts';
import { LANG_OK, RAGGED, TypstRenderer, chapterNewpage, headerInline, joinTypstBook, museBreak, noRefs, preamble, titleLine, typstBookPieces, typstString, type TypstBook, type TypstSegment } from './typst.ts';
import { compileTypst } from './pdf.ts';

export interface CollectionText {
  /** The Muse source (or an already parsed document). */
  muse: string | MuseDocument;
  /** The text's own attachments (images), by file name. */
  files?: Map<string, Uint8Array>;
}

export interface CollectionTypst {
  source: string;
  /** Every text's files under its own prefix (`t<n>/<name>`): pass these to compileTypst. */
  files: Map<string, Uint8Array>;
}

export const DEFAULT_COLLECTION_TITLE = 'My collection';

const RTL = ['ar', 'he', 'fa'];

/** One Typst document for several texts (a single text works too, with the virtual header on top). */
export function collectionToTypst(texts: CollectionText[], options: TypstLayoutOptions = {}): CollectionTypst {
  const { book, files } = collectionToTypstBook(texts, options);
  return { source: joinTypstBook(book), files };
}

/** collectionToTypst in pieces (see TypstBook): one segment per text. */
export function collectionToTypstBook(texts: CollectionText[], options: TypstLayoutOptions = {}): { book: TypstBook; files: Map<string, Uint8Array> } {
  const L = resolveLayout(options);
  const F = L.flags;
  const docs = texts.map((t) => (typeof t.muse === 'string' ? parseMuse(t.muse) : t.muse));
  if (!chapterNewpage(F.chapterNewpage, docs)) F.runOnChapters = true;
  const lang = docs.length && LANG_OK.test(docs[0].lang) ? docs[0].lang : 'en';
  const rtl = RTL.includes(lang);
  const files = new Map<string, Uint8Array>();
  const renderers = docs.map((doc, i) => {
    for (const [name, data] of texts[i].files ?? []) files.set(`t${i + 1}/${name}`, data);
    return new TypstRenderer(doc, L, texts[i].files, { labelPrefix: `t${i + 1}-`, filePrefix: `t${i + 1}/` });
  });
  // The virtual header is plain inline Muse; any renderer can format it (it has no notes or anchors).
  const hr = new TypstRenderer(parseMuse(''), L, undefined, { labelPrefix: 'h-' });
  const v = (k: 'title' | 'subtitle' | 'author' | 'date' | 'notes' | 'source') => (typeof options[k] === 'string' ? options[k]!.trim() : '');
  const rawTitle = v('title') || DEFAULT_COLLECTION_TITLE;
  const title = headerInline(rawTitle, hr);
  const subtitle = headerInline(v('subtitle'), hr);
  const author = headerInline(v('author'), hr);
  const date = headerInline(v('date'), hr);
  const notes = headerInline(v('notes'), hr);
  const source = headerInline(v('source'), hr);
  const toOdd = museBreak(L.twoside ? 'odd' : '');
  const out: string[] = [];

  const meta = [`title: ${typstString(inlineText(parseInline(rawTitle, noRefs)).trim())}`];
  const plainAuthor = inlineText(parseInline(v('author'), noRefs)).trim();
  if (plainAuthor) meta.push(`author: (${typstString(plainAuthor)},)`);
  // Subject: the subtitle, as for a single text
  const plainSubtitle = inlineText(parseInline(v('subtitle'), noRefs)).trim();
  if (plainSubtitle) meta.push(`description: ${typstString(plainSubtitle)}`);
  out.push(`#set document(${meta.join(', ')})`);
  out.push(...preamble(L, { lang, rtl, title, subtitle, author }));
  const headEnd = out.length;
  let frontEnd = -1;

  // Front matter: the collection's title page (or block), impressum with the notes, contents.
  if (!F.bodyOnly) {
    // the empty page is a recto: in two-sided mode the title moves on to the next recto (page 3)
    if (F.startWithEmptyPage) out.push('#page(header: none, footer: none)[]', ...(L.twoside ? [museBreak('odd')] : []));
    const block = [RAGGED, '#v(2em)', titleLine(title, L)];
    if (subtitle) block.push(`#v(1em)#align(center, text(size: 1.44em)[${subtitle}])`);
    if (author) block.push(`#v(2em)#align(center, text(size: 1.3em)[${author}])`);
    if (F.nocoverpage) {
      out.push('#[', ...block, ']', '#v(3em)', '');
    } else {
      out.push('#page(header: none, footer: none)[', ...block, '#v(1fr)', date ? `#align(center)[${date}]` : '', ']');
      if (F.impressum && notes) out.push(`#page(header: none, footer: none)[${RAGGED}\n#set text(size: 0.85em)\n#v(1fr)\n#align(center)[${notes}]]`);
      frontEnd = out.length;
      out.push(toOdd);
    }
  }
  if (!F.notoc) {
    out.push('#museToc()');
    frontEnd = out.length;
    out.push(F.nocoverpage ? '#v(3em, weak: true)' : toOdd);
  }
  if (frontEnd < 0) frontEnd = out.length;
  out.push('');
  const bodyAt = out.length;
  const segments: TypstSegment[] = [];

  docs.forEach((doc, i) => {
    const r = renderers[i];
    const h = doc.header;
    const tTitle = headerInline(h.title || 'Untitled', r);
    const tSub = headerInline(h.subtitle, r);
    const tAuthor = headerInline(h.author, r);
    const tDate = headerInline(h.date, r);
    const textLang = LANG_OK.test(doc.lang) ? doc.lang : lang;
    const textRtl = RTL.includes(textLang);
    const hasHeadings = doc.body.some((b) => b.type === 'heading' && b.level <= 4);
    const parts: string[] = [];
    parts.push(toOdd);
    if (!F.continuefootnotes) parts.push('#counter(footnote).update(0)');
    // The text's TOC entry at part level; running heads of the part level show the text's title.
    const entry = `(level: 1, title: [${tTitle}])`;
    parts.push(`#metadata(${entry})<muse-toc>`);
    // the text's title in the PDF outline: a heading that prints nothing
    parts.push(`#[#show heading: none\n#heading(level: 1, outlined: false, bookmarked: true)[${tTitle}]]`);
    parts.push(`#[#set text(lang: ${typstString(textLang)}${textRtl !== rtl ? `, dir: ${textRtl ? 'rtl' : 'ltr'}` : ''})`);
    const titleBlock = [`#align(center, text(size: 1.6em${F.nobold ? '' : ', weight: "bold"'})[${tTitle}])`];
    if (tSub) titleBlock.push(`#v(0.8em)#align(center, text(size: 1.25em)[${tSub}])`);
    if (tAuthor) titleBlock.push(`#v(1.2em)#align(center, text(size: 1.15em)[${tAuthor}])`);
    if (tDate) titleBlock.push(`#v(0.8em)#align(center)[${tDate}]`);
    if (hasHeadings) {
      // A text with its own chapters gets a title page; the text starts on the next (recto) page.
      parts.push(`#page(header: none, footer: none)[${RAGGED}`, '#v(10%)', ...titleBlock, ']');
      parts.push(toOdd);
    } else {
      // the text opens here: plain page style (page number in the foot, no running head)
      parts.push('#metadata(none)<muse-opening>', `#block(width: 100%)[${RAGGED}`, ...titleBlock, ']', '#v(2em)');
    }
    parts.push('');
    const n = r.tocEntries.length;
    parts.push(r.blocks(doc.body));
    const toc = [entry, ...r.tocEntries.slice(n)];
    const tail = [headerInline(h.source, r), headerInline(h.notes, r)].filter(Boolean);
    if (tail.length) {
      parts.push(`#v(1fr)\n#block(width: 100%)[#set par(first-line-indent: 0pt)\n#set text(size: 0.9em)\n${tail.map((x) => `#align(center)[${x}]`).join('\n')}]`);
    }
    parts.push(']');
    out.push(parts.join('\n'));
    // each text starts with a break to a new (recto) page, so the texts can be laid out apart
    segments.push({ source: (i ? '\n' : '') + parts.join('\n'), toc });
  });
  const bodyEnd = out.length;

  if (!F.nofinalpage && !F.bodyOnly) {
    const lines = [author, title, subtitle, date].filter(Boolean).map((x) => `#align(center)[${x}]`);
    const tail = [source, F.impressum ? '' : notes].filter(Boolean).map((x) => `#align(center)[${x}]`);
    if (L.twoside) out.push(museBreak('even'));
    out.push(`#page(header: none, footer: none)[${RAGGED}\n#v(1fr)\n${lines.join('\n')}\n#v(2em)\n#set text(size: 0.9em)\n${tail.join('\n')}\n]`);
  }
  return { book: typstBookPieces(out, { headEnd, frontEnd, bodyAt, bodyEnd }, segments, true), files };
}

/** PDF of a collection (see collectionToTypst). */
export async function collectionToPdf(texts: CollectionText[], options: TypstLayoutOptions = {}): Promise<Uint8Array> {
  const { source, files } = collectionToTypst(texts, options);
  return compileTypst(source, files);
}

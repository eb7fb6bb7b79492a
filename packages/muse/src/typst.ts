// Typst renderer: the document tree plus layout options to Typst source.
// Every text node goes through escapeTypst, strings through typstString, so Muse input can
// never inject Typst code.
import type { Block, Footnote, Inline, MuseDocument, ImageSpec } from './types.ts';
import { parseMuse } from './parse.ts';
import { isSafeLinkTarget } from './links.ts';
import { inlineText, parseInline, unpairedTags } from './inline.ts';
import { resolveLayout, truthy, type ResolvedLayout, type TypstLayoutOptions } from './layout.ts';

export type TypstOptions = TypstLayoutOptions & {
  /** The text's own files (images); only images present here are embedded. */
  files?: Map<string, Uint8Array>;
};

/** Virtual path under which museToPdf mounts the text's files. */
export const FILES_DIR = '/muse-files';

const TYPST_SPECIAL = /[\\#*_`$<>@=\-+/[\]~.():;]/g;

/** Escape plain text for Typst markup; applies the TeX-like dash and dots substitutions. */
export function escapeTypst(s: string): string {
  return s
    .replace(/\.\.\.\.?/g, '…')
    .replace(/---/g, '—')
    .replace(/--/g, '–')
    .replace(TYPST_SPECIAL, (c) => '\\' + c)
    .replace(/\s*\n\s*/g, ' ');
}

const LONG_RUN = /\S{30,}/gu;
/**
 * Per column, the longest pieces a line of a cell cannot break (words, and the pieces splitLongRuns
 * cuts long runs into), as a Typst array of string arrays for museTable to measure: at most 8 each.
 */
function tableWords(b: Extract<Block, { type: 'table' }>, cols: number): string {
  const words: Set<string>[] = Array.from({ length: cols }, () => new Set());
  for (const row of [...b.head, ...b.body, ...b.foot]) {
    row.forEach((cell, i) => {
      for (const token of inlineText(cell.children).split(/\s+/)) for (const piece of splitLongRuns(token)) if (piece && i < cols) words[i].add(piece);
    });
  }
  const arr = (xs: string[]) => `(${xs.join(', ')}${xs.length === 1 ? ',' : ''})`;
  return arr(words.map((ws) => arr([...ws].sort((x, y) => [...y].length - [...x].length).slice(0, 8).map(typstString))));
}

/** Each column's share of the table's width: its percentage, or an equal part of what those leave. */
function tableShares(b: Extract<Block, { type: 'table' }>, cols: number): string {
  const pct = Array.from({ length: cols }, (_, i) => b.widths?.[i] ?? null);
  const fixed = pct.reduce<number>((sum, w) => sum + (w ?? 0), 0);
  const free = pct.filter((w) => !w).length;
  const shares = pct.map((w) => (w ? w / 100 : Math.max(0, 1 - fixed / 100) / free));
  return `(${shares.map((x) => x.toFixed(4)).join(', ')}${cols === 1 ? ',' : ''})`;
}

const WORD = /^[\p{L}\p{M}]+$/u;
const BREAK_AFTER = /[_./\\:?&=,;|-]/u;
/** A break opportunity of no width (a zero-width space would make Typst overfill justified lines). */
const BREAK = '#box(width: 0pt)';

/**
 * The text cut where a line may break inside runs a line cannot hold (identifiers, hashes, paths):
 * words of letters under 60 characters are left to hyphenation; elsewhere after punctuation and at
 * least every 10 characters.
 */
export function splitLongRuns(s: string): string[] {
  const pieces: string[] = [];
  let last = 0;
  for (const m of s.matchAll(LONG_RUN)) {
    const run = m[0];
    if (run.length < 60 && WORD.test(run)) continue;
    let cur = s.slice(last, m.index);
    let since = 0;
    for (const ch of run) {
      cur += ch;
      since++;
      if (BREAK_AFTER.test(ch) || since >= 10) {
        pieces.push(cur);
        cur = '';
        since = 0;
      }
    }
    if (cur) pieces.push(cur);
    last = m.index + run.length;
  }
  // the last piece carries what follows the last run (possibly nothing)
  if (last < s.length || pieces.length === 0) pieces.push(s.slice(last));
  return pieces;
}

/** A Typst string literal. */
export function typstString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return out + '"';
}

export const LANG_OK = /^[a-z]{2,3}$/;

/** Set rules for text aligned as marked (title blocks, headings, centred and right blocks): never justified nor hyphenated. */
export const RAGGED = '#set par(justify: false, first-line-indent: 0pt)\n#set text(hyphenate: false)';

/** KOMA's heading sizes relative to the body (at 12 pt: part 29.9, chapter 24.9, section 17.3, subsection 14.4, then 12 pt). */
export const HEADING_EM = [2.488, 2.074, 1.44, 1.2, 1] as const;

/** LaTeX's baselineskip for the body size (14.5 pt for 12 pt type), in em, before linespacing. */
const PITCH_EM = 14.5 / 12;
const NUMBERING: Record<string, string> = { '1': '1.', a: 'a.', A: 'A.', i: 'i.', I: 'I.' };

/**
 * Namespaces of one text inside a collection: its anchors become labels `amuse-<labelPrefix><name>` and
 * its images are read from `FILES_DIR/<filePrefix><name>`, so two texts never clash.
 */
export interface RenderNamespace {
  labelPrefix?: string;
  filePrefix?: string;
}

export class TypstRenderer {
  private readonly labels = new Set<string>();
  private readonly emitted = new Set<string>();
  /** The contents entries rendered so far, as Typst values `(level: n, title: [...])` (a chunked build's contents). */
  readonly tocEntries: string[] = [];
  private readonly labelPrefix: string;
  private readonly filePrefix: string;
  private inHeading = false;
  /** #hyphenation: each listed word (lower case) with the character offsets it may break before. */
  private readonly hyphenation: Map<string, Set<number>>;

  constructor(
    private readonly doc: MuseDocument,
    private readonly layout: ResolvedLayout,
    private readonly files: Map<string, Uint8Array> | undefined,
    ns: RenderNamespace = {},
  ) {
    collectAnchors(doc, this.labels);
    this.labelPrefix = ns.labelPrefix ?? '';
    this.filePrefix = ns.filePrefix ?? '';
    this.hyphenation = hyphenationExceptions(doc.header.hyphenation ?? '');
  }

  /** Plain text escaped, the words of #hyphenation broken only where it says (the reference's \\hyphenation). */
  private hyphenated(text: string): string {
    if (this.hyphenation.size === 0 || this.inHeading) return escapeTypst(text);
    let out = '';
    let last = 0;
    for (const m of text.matchAll(/[\p{L}\p{M}]+/gu)) {
      const breaks = this.hyphenation.get(m[0].toLowerCase());
      if (!breaks || [...m[0].toLowerCase()].length !== [...m[0]].length) continue;
      const chars = [...m[0]];
      const word = chars.map((c, i) => (i > 0 && breaks.has(i) ? '\u00ad' : '') + c).join('');
      out += escapeTypst(text.slice(last, m.index)) + `#text(hyphenate: false)[${escapeTypst(word)}]`;
      last = m.index + m[0].length;
    }
    return out + escapeTypst(text.slice(last));
  }

  private label(name: string): string {
    return `label(${typstString('amuse-' + this.labelPrefix + name)})`;
  }

  anchors(names: string[]): string {
    let out = '';
    for (const a of names) {
      // a label defined twice cannot be linked to: keep the first one only
      if (this.emitted.has(a)) continue;
      this.emitted.add(a);
      out += `#metadata(none)<amuse-${this.labelPrefix}${a}>`;
    }
    return out;
  }

  inline(nodes: Inline[]): string {
    let out = '';
    for (const n of nodes) {
      switch (n.type) {
        case 'text':
          out += splitLongRuns(n.value).map((piece) => this.hyphenated(piece)).join(BREAK);
          break;
        case 'code':
          out += splitLongRuns(n.value.replace(/\s*\n\s*/g, ' '))
            .map((piece) => `#raw(${typstString(piece)})`)
            .join(BREAK);
          break;
        case 'style': {
          const inner = this.inline(n.children);
          switch (n.style) {
            case 'em':
              out += `#emph[${inner}]`;
              break;
            case 'strong':
              out += this.layout.flags.nobold ? `#emph[${inner}]` : `#strong[${inner}]`;
              break;
            case 'del':
            case 'strike':
              out += `#strike[${inner}]`;
              break;
            case 'sup':
              out += `#super[${inner}]`;
              break;
            case 'sub':
              out += `#sub[${inner}]`;
              break;
            case 'sf':
              out += `#text(font: ${typstString(this.layout.sansfont)})[${inner}]`;
              break;
            case 'sc':
              out += `#smallcaps[${inner}]`;
              break;
          }
          break;
        }
        case 'lang':
          out += LANG_OK.test(n.lang.toLowerCase()) ? `#text(lang: ${typstString(n.lang.toLowerCase())})[${this.inline(n.children)}]` : this.inline(n.children);
          break;
        case 'dir':
          out += `#text(dir: ${n.dir})[${this.inline(n.children)}]`;
          break;
        case 'ruby':
          out += `#museRuby[${escapeTypst(n.base)}][${escapeTypst(n.annotation)}]`;
          break;
        case 'br':
          out += '#linebreak()';
          break;
        case 'link':
          out += this.link(n);
          break;
        case 'image':
          out += this.image(n.image);
          break;
        case 'fnref': {
          // the space before a note mark is eaten, as in the reference LaTeX output
          out = out.replace(/ +$/, '');
          const fn = n.secondary ? this.doc.secondaryFootnotes.get(n.n) : this.doc.footnotes.get(n.n);
          if (fn) out += this.note(fn);
          break;
        }
      }
    }
    return out;
  }

  private note(fn: Footnote): string {
    const body = this.anchors(fn.anchors) + fn.paragraphs.map((p) => this.inline(p)).join('#parbreak()');
    const note = fn.secondary ? `museSecondary[${body}]` : `footnote[${body}]`;
    // in a heading, out of the plain text a PDF bookmark is made of (it would include the note's text)
    return this.inHeading ? `#context ${note}` : `#${note}`;
  }

  private link(n: Extract<Inline, { type: 'link' }>): string {
    if (n.internal) {
      const desc = n.children ?? [];
      if (!this.labels.has(n.target)) return this.inline(desc);
      // "??" in the description is the page number of the anchor
      const pageOf = `#context counter(page).at(${this.label(n.target)}).first()`;
      const inner = desc
        .map((d) => (d.type === 'text' ? d.value.split('??').map(escapeTypst).join(pageOf) : this.inline([d])))
        .join('');
      return `#link(${this.label(n.target)})[${inner}]`;
    }
    // a script link (javascript:, data:...) is its text only: a PDF viewer may run a URI action
    if (!isSafeLinkTarget(n.target)) return this.inline(n.children ?? [{ type: 'text', value: n.target }]);
    if (n.children) return `#link(${typstString(n.target)})[${this.inline(n.children)}]`;
    return `#link(${typstString(n.target)})[#text(font: ${typstString(this.layout.monofont)})[${escapeTypst(n.target)}]]`;
  }

  /** The image as a figure filling the width it is given (a caller's block sets that width). */
  private figure(img: ImageSpec): string {
    const data = this.files?.get(img.src);
    const format = data ? imageFormat(data) : null;
    let graphic: string;
    if (format) {
      graphic = `image(${typstString(`${FILES_DIR}/${this.filePrefix}${img.src}`)}, format: "${format}", width: 100%)`;
      if (img.rotate) graphic = `rotate(${img.rotate}deg, reflow: true, ${graphic})`;
    } else {
      // a missing attachment must not break the build
      graphic = `rect(width: 100%, stroke: 0.5pt + gray, inset: 6pt, text(size: 0.8em, raw(${typstString(img.src)})))`;
    }
    const caption = img.caption ? `, caption: [${this.inline(img.caption)}]` : '';
    return `figure(${graphic}, numbering: none, supplement: none${caption})`;
  }

  private image(img: ImageSpec): string {
    // the width applies once, to the block holding the figure (a float's width is a share of the text width)
    const sized = `block(width: ${img.width ?? 100}%, ${this.figure(img)})`;
    if (img.float === 'r') return `#align(right, ${sized})`;
    if (img.float === 'l') return `#align(left, ${sized})`;
    if (img.float === 'f') return `#pagebreak(weak: true)#figure(${sized}, numbering: none, supplement: none)#pagebreak(weak: true)`;
    return `#align(center, ${sized})`;
  }

  /**
   * A left or right floated image with the paragraph after it wrapped around it, as the reference's
   * wrapfigure: the paragraph's words are handed over one by one so museWrap can set beside the image
   * as many as fit its height and the rest below, full width.
   */
  private wrap(img: ImageSpec, anchors: string[], children: Inline[]): string {
    const words = wordChunks(children).map((c) => `[${this.inline(c)}]`);
    return `${this.anchors(anchors)}#museWrap(${img.float === 'l' ? 'left' : 'right'}, ${img.width ?? 50}%, ${this.figure(img)}, (${words.join(', ')},))\n\n`;
  }

  blocks(blocks: Block[]): string {
    let out = '';
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i];
      const img = b.type === 'paragraph' ? floatedImage(b.children) : null;
      const next = blocks[i + 1];
      if (img && b.type === 'paragraph' && next?.type === 'paragraph' && !floatedImage(next.children) && next.children.some((n) => n.type !== 'br')) {
        out += this.anchors(b.anchors) + this.wrap(img, next.anchors, next.children);
        i++;
      } else {
        out += this.block(b);
      }
    }
    return out;
  }

  private paragraph(anchors: string[], children: Inline[]): string {
    if (children.length === 1 && children[0].type === 'br') return this.anchors(anchors) + '#v(1em)\n\n';
    let body = this.inline(children).trim();
    if (children[0]?.type === 'br') body = body.replace(/^#linebreak\(\)/, '');
    return `${this.anchors(anchors)}${body}\n\n`;
  }

  private block(b: Block): string {
    switch (b.type) {
      case 'paragraph':
        return this.paragraph(b.anchors, b.children);
      case 'heading': {
        const level = b.level;
        // Typst would repeat footnotes of an outlined heading on the TOC page: the TOC and the
        // running heads read this metadata instead, which carries the title without notes.
        const entry = level <= 4 ? `(level: ${level}, title: [${this.inline(stripRefs(b.tocChildren ?? b.children)).trim()}])` : '';
        if (entry) this.tocEntries.push(entry);
        const toc = entry ? `#metadata(${entry})<muse-toc>` : '';
        // anchors go before the heading: its body is repeated in the PDF bookmarks
        this.inHeading = true;
        const body = this.inline(b.children).trim();
        this.inHeading = false;
        return `${this.anchors(b.anchors)}#heading(level: ${level}, outlined: false, bookmarked: ${level <= 4})[${toc}${body}]\n\n`;
      }
      case 'container': {
        const inner = this.blocks(b.children);
        switch (b.kind) {
          case 'quote':
            return `#quote(block: true)[\n${inner}]\n\n`;
          case 'center':
            return `#align(center)[${RAGGED}\n${inner}]\n\n`;
          case 'right':
            return `#align(right)[${RAGGED}\n${inner}]\n\n`;
          default:
            return `#block(inset: (left: 1em))[#set par(hanging-indent: 1em, first-line-indent: 0pt)\n${inner}]\n\n`;
        }
      }
      case 'direction':
        return `#[#set text(dir: ${b.dir})\n${this.blocks(b.children)}]\n\n`;
      case 'language':
        return LANG_OK.test(b.lang.toLowerCase()) ? `#[#set text(lang: ${typstString(b.lang.toLowerCase())})\n${this.blocks(b.children)}]\n\n` : this.blocks(b.children);
      case 'verse': {
        const stanzas: string[][] = [[]];
        for (const line of b.lines) {
          if (line === null) stanzas.push([]);
          else stanzas[stanzas.length - 1].push(this.inline(line));
        }
        const body = stanzas
          .filter((s) => s.length)
          .map((s) => s.join('#linebreak()\n'))
          .join('\n\n');
        return `${this.anchors(b.anchors)}#museVerse[\n${body}\n]\n\n`;
      }
      case 'example':
        return `${this.anchors(b.anchors)}#museExample(${typstString(b.text)})\n\n`;
      case 'comment':
        return '';
      case 'list':
        return this.list(b);
      case 'table':
        return this.anchors(b.anchors) + this.table(b);
      case 'rule':
        return '#museRule()\n\n';
      case 'pagebreak':
        return '#pagebreak(weak: true)\n\n';
      case 'anchors':
        return this.anchors(b.names);
    }
  }

  private list(b: Extract<Block, { type: 'list' }>): string {
    if (b.kind === 'dl') {
      const items = b.items.map((it) => `terms.item([${this.inline(it.term ?? [])}], [${this.blocks(it.children).trim()}])`);
      return `#terms(tight: false, ${items.join(', ')})\n\n`;
    }
    const items = b.items.map((it) => `[${this.blocks(it.children).trim()}]`).join(', ');
    if (b.kind === 'ul') return `#list(tight: false, ${items})\n\n`;
    const start = b.start !== undefined ? `, start: ${b.start}` : '';
    return `#enum(tight: false, numbering: ${typstString(NUMBERING[b.style ?? '1'])}${start}, ${items})\n\n`;
  }

  private table(b: Extract<Block, { type: 'table' }>): string {
    const cols = Math.max(1, b.head[0]?.length ?? 0, b.body[0]?.length ?? 0, b.foot[0]?.length ?? 0);
    const widths = Array.from({ length: cols }, (_, i) => {
      const w = b.widths?.[i];
      return w ? `${w}%` : '1fr';
    });
    const aligns = b.aligns ? b.aligns.map((a) => (a === 'justify' ? 'left' : a)) : null;
    const cell = (c: { children: Inline[] }) => `[${this.inline(c.children).trim()}]`;
    const rows = (rs: typeof b.body) => rs.map((r) => r.map(cell).join(', ')).join(', ');
    const parts = [`columns: (${widths.join(', ')},)`];
    if (aligns) parts.push(`align: (${aligns.join(', ')},)`, 'stroke: none');
    if (b.head.length) parts.push(`table.header(${rows(b.head)})`);
    if (b.body.length) parts.push(rows(b.body));
    if (b.foot.length) parts.push(`table.footer(${rows(b.foot)})`);
    const table = `museTable(${tableWords(b, cols)}, ${tableShares(b, cols)}, table(${parts.join(', ')}))`;
    if (b.caption) {
      // breakable, or a table longer than the page piles its last rows onto its caption at the page's foot;
      // the caption above it, so it heads the table's first page
      return `#{ show figure: set block(breakable: true); figure(${table}, kind: table, numbering: none, supplement: none, caption: figure.caption(position: top, [${this.inline(b.caption)}])) }\n\n`;
    }
    return `#v(0.5em)#${table}#v(0.5em)\n\n`;
  }
}

/** Format from the PNG or JPEG signature (extensions lie); null would make the build fail. */
export function imageFormat(d: Uint8Array): 'png' | 'jpg' | null {
  if (d.length > 8 && d[0] === 0x89 && d[1] === 0x50 && d[2] === 0x4e && d[3] === 0x47) return 'png';
  if (d.length > 3 && d[0] === 0xff && d[1] === 0xd8 && d[2] === 0xff) return 'jpg';
  return null;
}

/**
 * The #hyphenation directive: space-separated words with "-" where they may break; as in the reference,
 * only tokens of letters (and hyphens between them) count, and a word without a hyphen never breaks.
 */
export function hyphenationExceptions(value: string): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const token of value.split(/\s+/)) {
    if (!/^[\p{L}\p{M}]+(-[\p{L}\p{M}]+)*$/u.test(token)) continue;
    const breaks = new Set<number>();
    let at = 0;
    for (const part of token.split('-')) {
      if (at > 0) breaks.add(at);
      at += [...part].length;
    }
    out.set(token.replace(/-/g, '').toLowerCase(), breaks);
  }
  return out;
}

/** The image of a paragraph holding nothing but one image floated left or right. */
function floatedImage(children: Inline[]): ImageSpec | null {
  const real = children.filter((n) => !(n.type === 'text' && !n.value.trim()));
  const n = real[0];
  return real.length === 1 && n.type === 'image' && (n.image.float === 'l' || n.image.float === 'r') ? n.image : null;
}

/**
 * Inline nodes cut into words, each with the white space after it; markup spanning several words is
 * repeated around each, and a note mark stays with the word before it.
 */
export function wordChunks(nodes: Inline[]): Inline[][] {
  // pieces: runs that end at white space (or at the end), to be glued into words
  const pieces: { nodes: Inline[]; spaceAfter: boolean; note: boolean }[] = [];
  const walk = (ns: Inline[], wrap: (inner: Inline) => Inline) => {
    for (const n of ns) {
      if (n.type === 'text') {
        for (const m of n.value.matchAll(/\S*\s*/gu)) {
          if (m[0]) pieces.push({ nodes: [wrap({ type: 'text', value: m[0] })], spaceAfter: /\s$/u.test(m[0]), note: false });
        }
      } else if (n.type === 'style' || n.type === 'lang' || n.type === 'dir') {
        walk(n.children, (inner) => wrap({ ...n, children: [inner] }));
      } else {
        pieces.push({ nodes: [wrap(n)], spaceAfter: false, note: n.type === 'fnref' });
      }
    }
  };
  walk(nodes, (inner) => inner);
  const words: Inline[][] = [];
  let gluing = false;
  for (const p of pieces) {
    if (words.length && (gluing || p.note)) words[words.length - 1].push(...p.nodes);
    else words.push([...p.nodes]);
    gluing = !p.spaceAfter;
  }
  return words;
}

function stripRefs(nodes: Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const n of nodes) {
    if (n.type === 'fnref') continue;
    if (n.type === 'style' || n.type === 'lang' || n.type === 'dir') out.push({ ...n, children: stripRefs(n.children) });
    else out.push(n);
  }
  return out;
}

function collectAnchors(doc: MuseDocument, out: Set<string>): void {
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if ('anchors' in b && Array.isArray(b.anchors)) for (const a of b.anchors) out.add(a);
      if (b.type === 'anchors') for (const a of b.names) out.add(a);
      if (b.type === 'container' || b.type === 'direction' || b.type === 'language') walk(b.children);
      if (b.type === 'list') for (const it of b.items) walk(it.children);
    }
  };
  walk(doc.body);
  // notes are only printed when referenced, so their anchors may be missing: leave them out
}

export function headerInline(value: string | undefined, r: TypstRenderer): string {
  if (!value) return '';
  const nodes = parseInline(value, {
    primaryRefs: false,
    secondaryRefs: false,
    links: true,
    hasPrimary: () => false,
    hasSecondary: () => false,
  });
  return r.inline(nodes).trim();
}

export function mm(v: number): string {
  return `${Math.round(v * 100) / 100}mm`;
}

export function runningHead(L: ResolvedLayout, title: string, subtitle: string, author: string): string {
  const last = (level: number) =>
    `{ let hs = query(selector(<muse-toc>).before(here())).filter(m => m.value.level == ${level}); if hs.len() > 0 { hs.last().value.title } }`;
  const texts: Record<Exclude<ResolvedLayout['headings'], 'none'>, [string, string, string]> = {
    // [verso text, recto text, one-sided text]
    part_chapter: [last(1), last(2), last(1)],
    title_subtitle: [`[${title}]`, `[${subtitle || title}]`, `[${title}]`],
    author_title: [`[${author || title}]`, `[${title}]`, `[${title}]`],
    chapter_section: [last(2), last(3), last(2)],
    section_subsection: [last(3), last(4), last(3)],
    title_chapter: [`[${title}]`, last(2), last(2)],
    title_section: [`[${title}]`, last(3), last(3)],
  };
  const num = 'counter(page).display()';
  // KOMA's page styles: "empty" on blank pages (part pages set their own), "plain" (number in the
  // foot) on chapter openings and without running heads, "headings" elsewhere.
  if (!needsPageStyles(L)) return `header: none, footer: context align(center, ${num}),`;
  const kind = 'let k = musePageStyle(here().page());';
  if (L.headings === 'none') return `header: none, footer: context { ${kind} if k != "empty" { align(center, ${num}) } },`;
  const [verso, recto, one] = texts[L.headings];
  const plainFoot = `footer: context { ${kind} if k == "plain" { align(center, ${num}) } },`;
  if (!L.twoside) return `header: context { ${kind} if k == "headings" { set text(size: 0.85em); museHead(center, ${one}) } }, ${plainFoot}`;
  return (
    `header: context { ${kind} if k == "headings" { set text(size: 0.85em); if calc.even(here().page()) { grid(columns: (auto, 1fr), column-gutter: 1em, ${num}, museHead(right, ${verso})) } ` +
    `else { grid(columns: (1fr, auto), column-gutter: 1em, museHead(left, ${recto}), ${num}) } } }, ${plainFoot}`
  );
}

/**
 * Whether pages need their KOMA style looked up: with running heads (none on chapter openings), or when
 * breaks to a recto/verso leave blank pages (no number there). Otherwise every page shows its number in
 * the foot, and the breaks carry no marks: the lookups cost a quarter of a 300-page book's layout.
 */
function needsPageStyles(L: ResolvedLayout): boolean {
  return L.headings !== 'none' || L.twoside || L.openRight || L.openLeft;
}

/** A page break that may leave a blank page, marked so that page gets the empty page style. */
export function museBreak(to: '' | 'odd' | 'even'): string {
  return `#museBreak(${to ? typstString(to) : 'none'})`;
}

/**
 * The contents' entries (the function `list(gap)`), set closer (0.25em apart instead of 0.6em) when that
 * saves a page: contents that would spill a few entries onto another page fit on one. The room under the
 * contents' heading is known where the contents open a page (a chapter-like heading: 2.3 lines down, the
 * heading's line and the space below it); where they follow a title block (parts and chapters running
 * on) the spacing stays.
 */
function tocSpacing(L: ResolvedLayout, m: { top: number; bottom: number }): string {
  if (L.flags.nocoverpage || L.flags.runOnChapters) return 'list(0.6em)';
  const headPt = HEADING_EM[1] * L.fontsizePt;
  const headMm = ((2.3 * PITCH_EM + 1 + 1) * headPt * 25.4) / 72;
  const body = L.heightMm - m.top - m.bottom;
  return (
    `let room = ${mm(body - headMm)}; let full = ${mm(body)}; ` +
    'let pages(h) = if h <= room { 1 } else { 1 + calc.ceil((h - room) / full) }; ' +
    'layout(size => { let h(gap) = measure(block(width: size.width, list(gap))).height; if pages(h(0.25em)) < pages(h(0.6em)) { list(0.25em) } else { list(0.6em) } })'
  );
}

/** The page, text, paragraph and heading rules plus the helper functions every document starts with. */
export function preamble(L: ResolvedLayout, h: { lang: string; rtl: boolean; title: string; subtitle: string; author: string }): string[] {
  const { lang, rtl, title, subtitle, author } = h;
  const F = L.flags;
  const out: string[] = [];
  const m = L.margin;
  const margin = L.twoside
    ? `(inside: ${mm(m.inner)}, outside: ${mm(m.outer)}, top: ${mm(m.top)}, bottom: ${mm(m.bottom)})`
    : `(left: ${mm(m.inner)}, right: ${mm(m.outer)}, top: ${mm(m.top)}, bottom: ${mm(m.bottom)})`;
  const styled = needsPageStyles(L);
  if (!styled) out.push('#let museBreak(to) = pagebreak(weak: true, to: to)');
  else out.push(
    '#let museBreak(to) = { [#metadata(none)<muse-break>]; pagebreak(weak: true, to: to); [#metadata(none)<muse-resume>] }',
    // blank: between a break and where the text resumes, or holding nothing but the break's mark.
    // Computed once for all pages (Typst memoizes the call), looked up per page.
    '#let musePageStyles() = { let d = (:); ' +
      `for (a, b) in query(<muse-break>).zip(query(<muse-resume>)) { let pa = a.location().page(); let first = if a.location().position().y <= ${mm(m.top)} + 1pt { pa } else { pa + 1 }; for p in range(first, b.location().page()) { d.insert(str(p), "empty") } }; ` +
      'for o in query(<muse-opening>) { let k = str(o.location().page()); if k not in d { d.insert(k, "plain") } }; d }',
    '#let musePageStyle(p) = musePageStyles().at(str(p), default: "headings")',
  );
  // One line of running head: a longer one keeps the words that fit before the page number and ends
  // with "…" (clipping the wrapped head showed its last line, with slivers of the one above).
  out.push(
    '#let museText(c) = if c == none { "" } else if type(c) == str { c } else if c.has("text") { museText(c.text) } else if c.has("children") { c.children.map(museText).sum(default: "") } ' +
      'else if c.has("body") { museText(c.body) } else if c.has("child") { museText(c.child) } else if c.func() == [ ].func() { " " } else { "" }',
  );
  out.push(
    '#let museHead(al, body) = layout(size => { set par(justify: false); set text(hyphenate: false); if measure(body).width <= size.width { align(al, body) } else { ' +
      'let words = museText(body).split(" ").filter(w => w != ""); let lo = 1; let hi = words.len(); ' +
      'while lo < hi { let mid = calc.quo(lo + hi + 1, 2); if measure(words.slice(0, mid).join(" ") + " …").width <= size.width { lo = mid } else { hi = mid - 1 } }; ' +
      'box(width: 100%, clip: true, words.slice(0, lo).join(" ") + " …") } })',
  );
  const head = runningHead(L, title, subtitle, author);
  out.push(
    `#set page(width: ${mm(L.widthMm)}, height: ${mm(L.heightMm)}, margin: ${margin}${L.twoside ? ', binding: left' : ''}, ` + head.replace(/,$/, '') + ')',
  );
  // A line box of exactly 1em plus the leading gives LaTeX's baseline pitch (14.5 pt at 12 pt).
  out.push(
    `#set text(font: (${typstString(L.mainfont)}, "DejaVu Serif"), size: ${L.fontsizePt}pt, lang: ${typstString(lang)}, top-edge: 0.8em, bottom-edge: -0.2em${rtl ? ', dir: rtl' : ''})`,
  );
  const leading = (PITCH_EM * L.linespacing - 1).toFixed(3);
  // LaTeX sets no extra space between paragraphs (the indent marks them)
  out.push(`#set par(justify: true, leading: ${leading}em, spacing: ${leading}em, first-line-indent: (amount: ${L.parindentPt}pt, all: true))`);
  if (L.justification) {
    const j = L.justification;
    out.push(`#set par(justification-limits: (spacing: (min: 66.67%, max: ${j.spacingMaxPct}%), tracking: (min: 0em, max: ${j.trackingMaxEm}em)))`);
  }
  out.push(`#show raw: set text(font: (${typstString(L.monofont)}, "DejaVu Sans Mono"))`);
  out.push('#show table.cell: set par(justify: false)', '#show table.cell: set text(hyphenate: false)');
  out.push('#set heading(numbering: none)');
  const headFont = F.sansfontsections ? L.sansfont : L.mainfont;
  out.push(`#show heading: set text(font: (${typstString(headFont)}, "DejaVu Serif"), hyphenate: false${F.nobold ? ', weight: "regular"' : ''})`);
  out.push('#show heading: set par(justify: false, first-line-indent: 0pt)');
  // absolute sizes: Typst's own heading sizes (in em) would compound with relative ones
  HEADING_EM.forEach((em, i) => out.push(`#show heading.where(level: ${i + 1}): set text(size: ${Math.round(em * L.fontsizePt * 100) / 100}pt)`));
  out.push('#show heading: set block(above: 1.6em, below: 1em)');
  out.push(
    // entries: (entry, page number, link target); a chunked build gives them from its pieces
    '#let museTocList(entries) = { heading(level: 2, outlined: false, bookmarked: false, numbering: none)[' +
      escapeTypst(tocTitle(lang)) +
      ']; set par(first-line-indent: 0pt, justify: false); set text(hyphenate: false); ' +
      // the page number has its own column, level with the entry's last line: never alone on a line
      'let entry((v, p, to), gap) = block(above: gap, below: gap, inset: (left: (v.level - 1) * 1.2em), link(to, grid(columns: (1fr, auto), column-gutter: 0.3em, align: (left, right + bottom), ' +
      '{ if v.level == 1 { strong(v.title) } else { v.title }; box(width: 1fr, repeat(text(bottom-edge: "baseline")[ . ])) }, str(p)))); ' +
      // the last three entries go over a page together: a page with only one or two of them is an orphan
      'let k = calc.max(0, entries.len() - 3); ' +
      'let list(gap) = { for e in entries.slice(0, k) { entry(e, gap) }; block(breakable: false, above: gap, below: gap, for e in entries.slice(k) { entry(e, gap) }) }; ' +
      tocSpacing(L, m) +
      ' }',
    '#let museToc() = context museTocList(query(<muse-toc>).map(m => (m.value, counter(page).at(m.location()).first(), m.location())))',
  );
  const center = (cond: boolean) => (cond ? 'align(center, it)' : 'it');
  const to = L.openRight ? '"odd"' : L.openLeft ? '"even"' : 'none';
  const resetFn = F.continuefootnotes ? '' : ' counter(footnote).update(0);';
  if (F.nocoverpage || F.runOnChapters) {
    // The reference's article class: parts and chapters (and the contents) run on without a new page,
    // and footnotes are numbered through. Also a short text's chapters (chapterNewpage()).
    out.push('#show heading.where(level: 1): it => { v(1em); align(center, it) }');
    out.push(`#show heading.where(level: 2): it => ${center(F.centerchapter || F.centersection)}`);
  } else {
    // Part pages: a page of their own, empty page style. Chapters: a new page, the title lower down
    // (KOMA's space before a chapter heading), plain page style.
    out.push(
      `#show heading.where(level: 1): it => { museBreak(${to}); page(header: none, footer: none, { v(20%); align(center, it) }) }`,
    );
    out.push(
      `#show heading.where(level: 2): it => { museBreak(${to});${resetFn}${styled ? ' [#metadata(none)<muse-opening>];' : ''} v(${(2.3 * PITCH_EM).toFixed(2)}em); ${center(F.centerchapter || F.centersection)} }`,
    );
  }
  for (const lvl of [3, 4, 5]) out.push(`#show heading.where(level: ${lvl}): it => ${center(F.centersection)}`);
  out.push(...museHelpers(L));
  out.push('');
  return out;
}

/** The functions rendered blocks call (notes, ruby, verse, examples, rules): no page or heading rules. */
export function museHelpers(L: ResolvedLayout): string[] {
  return [
    // Quotations are set in italics, as the site's text view shows them; Typst's emph toggles, so an
    // <em> inside one stands out upright.
    '#show quote.where(block: true): set text(style: "italic")',
    `#let museSecondary(body) = { counter("muse-secondary").step(); context { let n = counter("muse-secondary").get().first(); footnote(numbering: _ => numbering(${typstString(L.flags.secondaryAlpha ? 'a' : '(1)')}, n), body) }; counter(footnote).update(n => n - 1) }`,
    '#let museRuby(base, ann) = box(place(top + center, dy: -0.75em, text(size: 0.5em, ann)) + base)',
    '#let museVerse(body) = block(inset: (left: 2em), above: 1em, below: 1em, { set par(first-line-indent: 0pt, justify: false); body })',
    '#let museExample(src) = block(width: 100%, above: 1em, below: 1em, { set par(justify: false); raw(src, block: true) })',
    '#let museRule() = { v(1em); line(length: 100%, stroke: 0.4pt); v(1em) }',
    // A table whose longest word (per column: `words`, measured here) would not fit its column
    // (`shares` of the width, less the cells' 5 pt insets) is set smaller, type and insets alike,
    // until it does: cells are never hyphenated, and an overlong word would run into the margin.
    '#let museTable(words, shares, t) = layout(size => { let f = 1.0; for (i, ws) in words.enumerate() { ' +
      'let w = calc.max(0pt, ..ws.map(x => measure(x).width)); f = calc.min(f, size.width * shares.at(i) / (w * 1.03 + 10pt)) }; ' +
      'if f >= 1 { t } else { set text(size: f * 1em); set table(inset: f * 5pt); t } })',
    // A floated image with text wrapped around it: the most words that fit beside the image's height
    // (binary search with measure), the line before the cut justified, the rest of the paragraph below.
    '#let museWrap(side, share, fig, words) = layout(size => { let fw = size.width * share; let gap = 1em.to-absolute(); let tw = size.width - fw - gap; ' +
      'let fh = measure(block(width: fw, fig)).height; let fits(n) = measure(block(width: tw, par(words.slice(0, n).join()))).height <= fh; ' +
      'let lo = 0; let hi = words.len(); while lo < hi { let mid = calc.quo(lo + hi + 1, 2); if fits(mid) { lo = mid } else { hi = mid - 1 } }; ' +
      'let beside = par(words.slice(0, lo).join() + if lo < words.len() { linebreak(justify: true) }); let img = block(width: fw, fig); ' +
      'block(above: par.spacing, below: par.spacing, grid(columns: if side == right { (tw, fw) } else { (fw, tw) }, column-gutter: gap, ..if side == right { (beside, img) } else { (img, beside) })); ' +
      'if lo < words.len() { set par(first-line-indent: 0pt); par(words.slice(lo).join()) } })',
  ];
}

/**
 * A Muse fragment inside another document (the cover's fields) as Typst markup: 'inline' is one line
 * (runs of white space and <br> become one space), 'body' a whole Muse body. Call museHelpers first.
 */
export function museFragmentTypst(text: string, kind: 'inline' | 'body', options: TypstOptions = {}): string {
  const L = resolveLayout(options);
  if (kind === 'inline') {
    const line = text.replace(/<br ?\/?>/g, ' ').replace(/\s+/g, ' ').trim();
    const doc = parseMuse('');
    return new TypstRenderer(doc, L, undefined).inline(parseInline(line, noRefs)).trim();
  }
  const doc = parseMuse(text);
  return new TypstRenderer(doc, L, options.files).blocks(doc.body).trim();
}

/** Tags a fragment leaves unpaired, paragraph by paragraph (they would print literally). */
export function museFragmentProblems(text: string): string[] {
  return text.split(/\n\s*\n/).flatMap((para) => unpairedTags(para, noRefs));
}

/**
 * A book's Typst source in the pieces a chunked build compiles apart (packages/muse/src/chunks.ts);
 * joined (joinTypstBook) they are the one-pass source, character for character.
 */
export interface TypstBook {
  /** `#set document`, the page, text and heading rules and the helpers: the start of every piece compiled apart. */
  head: string;
  /** Title page, impressum and contents, without the break that ends them ('' when none). */
  front: string;
  /**
   * The body in pieces, each beginning where the book starts a new page (a part, a chapter, a text of
   * a collection); the first begins with the front's closing break.
   */
  segments: TypstSegment[];
  /** What follows the body (the final page). */
  tail: string;
  /** Whether the pieces may be laid out apart: each really starts a new page (not so under nocoverpage, where chapters run on). */
  splittable: boolean;
}

export interface TypstSegment {
  source: string;
  /** The contents entries of its headings, in order, as Typst values `(level: n, title: [...])`. */
  toc: string[];
}

export function joinTypstBook(b: TypstBook): string {
  return b.head + b.front + b.segments.map((s) => s.source).join('') + b.tail;
}

/**
 * Cuts the lines of a book (`out`, joined with newlines) into its pieces: head `[0, headEnd)`, front
 * `[headEnd, frontEnd)`, the closing break `[frontEnd, bodyAt)` (put before the first segment), the body
 * `[bodyAt, bodyEnd)` given as `segments` (their sources joined are those lines joined), the tail after.
 */
export function typstBookPieces(
  out: string[],
  at: { headEnd: number; frontEnd: number; bodyAt: number; bodyEnd: number },
  segments: TypstSegment[],
  splittable: boolean,
): TypstBook {
  const lines = (a: number, b: number) => (a < b ? out.slice(a, b).join('\n') + '\n' : '');
  const segs = segments.length ? segments.map((s) => ({ ...s })) : [{ source: '', toc: [] }];
  segs[0].source = lines(at.frontEnd, at.bodyAt) + segs[0].source;
  const after = lines(at.bodyEnd, out.length);
  return {
    head: lines(0, at.headEnd),
    front: lines(at.headEnd, at.frontEnd),
    segments: segs,
    tail: at.bodyEnd > at.bodyAt ? '\n' + after : after,
    splittable,
  };
}

/** Top-level blocks cut before each part and chapter heading (each starts a new page unless nocoverpage). */
function chapterRuns(blocks: Block[]): Block[][] {
  const runs: Block[][] = [[]];
  for (const b of blocks) {
    if (b.type === 'heading' && b.level <= 2 && runs[runs.length - 1].length) runs.push([]);
    runs[runs.length - 1].push(b);
  }
  return runs;
}

/**
 * Texts shorter than this (characters of text, about 35 A5 pages at 12 pt) are articles: with
 * chapter_newpage 'auto' their parts and chapters run on instead of each starting a page that is
 * then mostly empty. Longer texts are books: each part and chapter starts a new page.
 */
export const ARTICLE_MAX_CHARS = 50_000;

/** Characters of text in blocks (the value of every text node of the parsed tree). */
export function textLength(node: unknown): number {
  if (typeof node !== 'object' || node === null) return 0;
  if (Array.isArray(node)) return node.reduce((a: number, x) => a + textLength(x), 0);
  const o = node as Record<string, unknown>;
  if (o.type === 'text' && typeof o.value === 'string') return o.value.length;
  let n = 0;
  for (const v of Object.values(o)) n += textLength(v);
  return n;
}

/**
 * Whether parts and chapters start a new page: as asked, or with 'auto' when the texts are books
 * (their average length at least ARTICLE_MAX_CHARS), not for articles and short texts.
 */
export function chapterNewpage(option: boolean | 'auto', docs: MuseDocument[]): boolean {
  if (option !== 'auto') return option;
  if (!docs.length) return true;
  return docs.reduce((a, d) => a + textLength(d.body), 0) / docs.length >= ARTICLE_MAX_CHARS;
}

export function museToTypst(input: string | MuseDocument, options: TypstOptions = {}): string {
  return joinTypstBook(museToTypstBook(input, options));
}

/** museToTypst in pieces (see TypstBook). */
export function museToTypstBook(input: string | MuseDocument, options: TypstOptions = {}): TypstBook {
  const doc = typeof input === 'string' ? parseMuse(input) : input;
  const L = resolveLayout(options);
  if (!chapterNewpage(L.flags.chapterNewpage, [doc])) L.flags.runOnChapters = true;
  const files = options.files;
  const r = new TypstRenderer(doc, L, files);
  const h = doc.header;
  const field = (k: 'title' | 'subtitle' | 'author' | 'date' | 'notes' | 'source') => h[k] || options[k] || '';
  const title = headerInline(field('title'), r);
  const subtitle = headerInline(field('subtitle'), r);
  const author = headerInline(field('author'), r);
  const date = headerInline(field('date'), r);
  const F = L.flags;
  const lang = LANG_OK.test(doc.lang) ? doc.lang : 'en';
  const rtl = ['ar', 'he', 'fa'].includes(lang);
  const out: string[] = [];

  // metadata: plain strings only
  const meta: string[] = [`title: ${typstString(inlineText(parseInline(h.LISTtitle || field('title') || 'Untitled', noRefs)).trim())}`];
  const authors = (h.SORTauthors || h.authors || field('author'))
    .split(h.SORTauthors?.includes(';') || h.authors?.includes(';') ? ';' : ',')
    .map((a) => inlineText(parseInline(a, noRefs)).trim())
    .filter(Boolean);
  if (authors.length) meta.push(`author: (${authors.map(typstString).join(', ')},)`);
  // Subject and Keywords, as the reference's hyperref setup: the subtitle and the topics
  const plainSubtitle = inlineText(parseInline(field('subtitle'), noRefs)).trim();
  if (plainSubtitle) meta.push(`description: ${typstString(plainSubtitle)}`);
  const topics = (h.topics ?? '')
    .split(/[,;]/)
    .map((t) => inlineText(parseInline(t, noRefs)).trim())
    .filter(Boolean);
  if (topics.length) meta.push(`keywords: (${topics.map(typstString).join(', ')},)`);
  out.push(`#set document(${meta.join(', ')})`);

  out.push(...preamble(L, { lang, rtl, title, subtitle, author }));
  const headEnd = out.length;
  // where the front ends: before the break that closes it
  let frontEnd = -1;

  if (!F.bodyOnly) {
    // the empty page is a recto: in two-sided mode the title moves on to the next recto (page 3)
    if (F.startWithEmptyPage) out.push('#page(header: none, footer: none)[]', ...(L.twoside ? [museBreak('odd')] : []));
    const cover = (options.cover || h.cover || '').trim();
    const coverOk =
      !F.ignoreCover && /^[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]\.(jpe?g|png)$/.test(cover) && !!files?.get(cover) && !!imageFormat(files.get(cover)!);
    const coverWidth = options.coverwidth !== undefined ? L.coverwidth : Math.min(1, Math.max(0.01, Number(h.coverwidth) || 1));
    const block: string[] = [RAGGED];
    block.push('#v(2em)');
    if (title) block.push(titleLine(title, L));
    if (subtitle) block.push(`#v(1em)#align(center, text(size: 1.44em)[${subtitle}])`);
    if (author) block.push(`#v(2em)#align(center, text(size: 1.3em)[${author}])`);
    if (coverOk && !F.nocoverpage) {
      block.push(`#v(3em)#align(center, image(${typstString(`${FILES_DIR}/${cover}`)}, format: "${imageFormat(files!.get(cover)!)}", width: ${Math.round(coverWidth * 100)}%, height: 50%, fit: "contain"))`);
    }
    if (F.nocoverpage) {
      out.push('#[', ...block, ']', '#v(3em)', '');
    } else {
      out.push('#page(header: none, footer: none)[', ...block, '#v(1fr)', date ? `#align(center)[${date}]` : '', ']');
      if (F.impressum) {
        const imp = ['seriesname', 'notes', 'rights', 'isbn', 'publisher', 'colophon']
          .map((k) => {
            if (k === 'seriesname') return h.seriesname && h.seriesnumber ? headerInline(`${h.seriesname} ${h.seriesnumber}`, r) : '';
            if (k === 'isbn') return h.isbn ? 'ISBN ' + headerInline(h.isbn, r) : '';
            return headerInline(k === 'notes' ? field('notes') : h[k], r);
          })
          .filter(Boolean);
        out.push(`#page(header: none, footer: none)[${RAGGED}\n#set text(size: 0.85em)\n#v(1fr)\n${imp.map((x) => `#align(center)[${x}]`).join('#v(0.5em)\n')}]`);
      }
      frontEnd = out.length;
      out.push(museBreak(L.twoside ? 'odd' : ''));
    }
  }
  const wantsToc = doc.body.some((b) => b.type === 'heading' && b.level <= 4) && !F.notoc && !truthy(h.notoc);
  if (wantsToc) {
    out.push('#museToc()');
    frontEnd = out.length;
    // weak: a hard space after the contents pushed the text onto a new page
    out.push(F.nocoverpage ? '#v(3em, weak: true)' : museBreak(L.twoside ? 'odd' : ''));
  }
  if (frontEnd < 0 || F.nocoverpage) frontEnd = out.length;
  out.push('');
  const bodyAt = out.length;
  const segments = chapterRuns(doc.body).map((run) => {
    const n = r.tocEntries.length;
    const source = r.blocks(run);
    return { source, toc: r.tocEntries.slice(n) };
  });
  out.push(segments.map((s) => s.source).join(''));

  if (!F.nofinalpage && !F.bodyOnly) {
    const lines: string[] = [];
    for (const v of [author, title, subtitle, date]) if (v) lines.push(`#align(center)[${v}]`);
    const tail: string[] = [];
    const source = headerInline(field('source'), r);
    if (source) tail.push(source);
    if (!F.impressum) {
      if (h.seriesname && h.seriesnumber) tail.push(headerInline(`${h.seriesname} ${h.seriesnumber}`, r));
      for (const k of ['notes', 'rights', 'isbn', 'publisher', 'colophon']) {
        const v = k === 'notes' ? field('notes') : h[k];
        if (v) tail.push((k === 'isbn' ? 'ISBN ' : '') + headerInline(v, r));
      }
    }
    const finalPage = `#page(header: none, footer: none)[${RAGGED}\n#v(1fr)\n${lines.join('\n')}\n#v(2em)\n#set text(size: 0.9em)\n${tail.map((x) => `#align(center)[${x}]`).join('\n')}\n]`;
    if (L.twoside) out.push(museBreak('even'));
    out.push(finalPage);
  }
  return typstBookPieces(out, { headEnd, frontEnd, bodyAt, bodyEnd: bodyAt + 1 }, segments, !F.runOnChapters);
}

/** The title on a title page: KOMA's \\huge, bold unless nobold. */
export function titleLine(title: string, L: ResolvedLayout): string {
  return `#align(center, text(size: 2.074em${L.flags.nobold ? '' : ', weight: "bold"'})[${title}])`;
}

const TOC_TITLES: Record<string, string> = {
  en: 'Contents',
  fa: 'فهرست مطالب',
  ar: 'المحتويات',
  he: 'תוכן העניינים',
  el: 'Περιεχόμενα',
  bg: 'Съдържание',
  uk: 'Зміст',
  mk: 'Содржина',
  hu: 'Tartalomjegyzék',
  ro: 'Cuprins',
  sl: 'Kazalo',
  sk: 'Obsah',
  sq: 'Përmbajtja',
  ca: 'Índex',
  gl: 'Índice',
  eu: 'Gaien aurkibidea',
  nb: 'Innhold',
  no: 'Innhold',
  lt: 'Turinys',
  lv: 'Saturs',
  et: 'Sisukord',
  id: 'Daftar Isi',
  vi: 'Mục lục',
  ja: '目次',
  zh: '目录',
  ko: '차례',
  it: 'Indice',
  fr: 'Table des matières',
  de: 'Inhaltsverzeichnis',
  es: 'Índice',
  pt: 'Índice',
  nl: 'Inhoudsopgave',
  ru: 'Содержание',
  hr: 'Sadržaj',
  sr: 'Садржај',
  pl: 'Spis treści',
  fi: 'Sisällys',
  sv: 'Innehåll',
  da: 'Indhold',
  cs: 'Obsah',
  tr: 'İçindekiler',
  eo: 'Enhavo',
};

export function tocTitle(lang: string): string {
  return TOC_TITLES[lang] ?? TOC_TITLES.en;
}

export const noRefs = {
  primaryRefs: false,
  secondaryRefs: false,
  links: false,
  hasPrimary: () => false,
  hasSecondary: () => false,
};

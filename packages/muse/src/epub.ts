// EPUB 3 writer: a parsed Muse document (or several, for a collection) as an EPUB 3 package with an
// EPUB 2 NCX, one XHTML file per top-level section (split before every heading of levels 1–4, as the
// reference does), footnotes as EPUB 3 noterefs and asides, and EPUB Accessibility 1.1 metadata.
import { createHash } from 'node:crypto';
import { zipSync, strToU8 } from 'fflate';
import type { Block, Footnote, Inline, ImageSpec, MuseDocument } from './types.ts';
import { parseMuse } from './parse.ts';
import { parseInline, inlineText } from './inline.ts';
import { isSafeLinkTarget } from './links.ts';
import { encodeUrl } from './html.ts';

export interface EpubOptions {
  /** Attachments by file name (images). */
  files?: Map<string, Uint8Array>;
  /** A stable identifier (e.g. the entry's URI); default: one derived from the text. */
  identifier?: string;
  /** dcterms:modified; default: now. */
  modified?: Date;
  /** The library's credits on the title page (plain text). */
  credits?: string;
  /** Where the text comes from (shown on the title page, dc:source when the header has none). */
  sourceUrl?: string;
  /** Fallbacks for header fields the text lacks. */
  title?: string;
  author?: string;
}

export interface EpubText extends EpubOptions {
  muse: string | MuseDocument;
}

/** The collection's own header (the Book Builder's virtual fields: inline Muse, shown as plain text). */
export interface EpubCollectionOptions {
  title: string;
  subtitle?: string;
  author?: string;
  date?: string;
  notes?: string;
  source?: string;
  lang?: string;
  identifier?: string;
  modified?: Date;
  credits?: string;
}

const RTL_LANGS = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'syr', 'dv']);
const LANG_OK = /^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*$/;
const XML_ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
// characters XML 1.0 does not allow
// eslint-disable-next-line no-control-regex
const BAD_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeXml(s: string): string {
  return s.replace(BAD_XML, '').replace(/[&<>"]/g, (c) => XML_ESC[c]);
}

const headerCtx = { primaryRefs: false, secondaryRefs: false, links: false, hasPrimary: () => false, hasSecondary: () => false };

function plain(value: string | undefined): string {
  if (!value) return '';
  return inlineText(parseInline(value.replace(/<br ?\/?>/g, ' '), headerCtx)).replace(/\s+/g, ' ').trim();
}

function mediaType(d: Uint8Array): string | null {
  if (d.length > 8 && d[0] === 0x89 && d[1] === 0x50 && d[2] === 0x4e && d[3] === 0x47) return 'image/png';
  if (d.length > 3 && d[0] === 0xff && d[1] === 0xd8 && d[2] === 0xff) return 'image/jpeg';
  if (d.length > 6 && d[0] === 0x47 && d[1] === 0x49 && d[2] === 0x46) return 'image/gif';
  return null;
}

interface NavEntry {
  level: number;
  title: string;
  href: string;
}

interface Chunk {
  file: string;
  title: string;
  /** The XHTML inside <body>: a section's as UTF-8 bytes (a flat copy instead of the string built piece by piece). */
  body: string | Uint8Array;
  lang: string;
  dir: 'rtl' | 'ltr';
}

/** One text's part of the package: its files are prefixed with `prefix`. */
class TextWriter {
  readonly chunks: Chunk[] = [];
  readonly nav: NavEntry[] = [];
  readonly images: Map<string, { path: string; type: string; data: Uint8Array }>;
  private anchorFile = new Map<string, string>();
  private ids = new Set<string>();
  private noteDone = new Set<string>();
  private pendingNotes: Footnote[] = [];
  private current = '';
  private tocCount = 0;
  readonly lang: string;
  readonly dir: 'rtl' | 'ltr';

  constructor(
    readonly doc: MuseDocument,
    private readonly prefix: string,
    private readonly files: Map<string, Uint8Array>,
    private readonly imageDir: string,
    private readonly images_: Map<string, { path: string; type: string; data: Uint8Array }>,
    /** The document was parsed here: its blocks may be let go section by section (memory of a large text). */
    private readonly owned = false,
  ) {
    this.lang = LANG_OK.test(doc.lang) ? doc.lang : '';
    this.dir = RTL_LANGS.has(this.lang.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr';
    this.images = images_;
  }

  /** Top-level sections: chunk 0 is what precedes the first heading of levels 1–4. */
  private sections(): Block[][] {
    const out: Block[][] = [[]];
    for (const b of this.doc.body) {
      if (b.type === 'heading' && b.level <= 4 && out[out.length - 1].length) out.push([]);
      out[out.length - 1].push(b);
    }
    return out.filter((s) => s.some((b) => b.type !== 'comment'));
  }

  private fileOf(i: number): string {
    return `${this.prefix}${String(i + 1).padStart(3, '0')}.xhtml`;
  }

  render(titleOfChunk: (i: number) => string): void {
    const sections = this.sections();
    if (this.owned) this.doc.body = [];
    // where each anchor lives, so links across files resolve
    sections.forEach((s, i) => {
      const walk = (blocks: Block[]) => {
        for (const b of blocks) {
          if ('anchors' in b && Array.isArray(b.anchors)) for (const a of b.anchors) if (!this.anchorFile.has(a)) this.anchorFile.set(a, this.fileOf(i));
          if (b.type === 'anchors') for (const a of b.names) if (!this.anchorFile.has(a)) this.anchorFile.set(a, this.fileOf(i));
          if (b.type === 'container' || b.type === 'direction' || b.type === 'language') walk(b.children);
          if (b.type === 'list') for (const it of b.items) walk(it.children);
        }
      };
      walk(s);
    });
    sections.forEach((s, i) => {
      this.current = this.fileOf(i);
      this.ids = new Set();
      this.pendingNotes = [];
      let body = this.blocks(s);
      body += this.notes();
      const heading = s.find((b) => b.type === 'heading') as Extract<Block, { type: 'heading' }> | undefined;
      const title = heading ? tocText(heading.tocChildren ?? heading.children) : titleOfChunk(i);
      // bytes now: the string of many small pieces and the section's blocks can go before the next section
      this.chunks.push({ file: this.current, title: title || titleOfChunk(i), body: strToU8(body), lang: this.lang, dir: this.dir });
      if (this.owned) sections[i] = [];
    });
  }

  private id(name: string): string {
    // unique within the file and a valid XML id
    let base = name.replace(/[^A-Za-z0-9_.-]/g, '_');
    if (!/^[A-Za-z_]/.test(base)) base = `x${base}`;
    let id = base;
    for (let n = 2; this.ids.has(id); n++) id = `${base}-${n}`;
    this.ids.add(id);
    return id;
  }

  private anchorId(name: string): string {
    return `amuse-${name.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
  }

  private anchors(names: string[]): string {
    return names
      .filter((a) => this.anchorFile.get(a) === this.current && !this.ids.has(this.anchorId(a)))
      .map((a) => `<span id="${this.id(this.anchorId(a))}"></span>`)
      .join('');
  }

  private text(s: string): string {
    return escapeXml(s);
  }

  inline(nodes: Inline[]): string {
    let out = '';
    for (const n of nodes) {
      switch (n.type) {
        case 'text':
          out += this.text(n.value);
          break;
        case 'code':
          out += `<code>${this.text(n.value)}</code>`;
          break;
        case 'style': {
          const inner = this.inline(n.children);
          if (n.style === 'sf') out += `<span class="sf">${inner}</span>`;
          else if (n.style === 'sc') out += `<span class="sc">${inner}</span>`;
          else out += `<${n.style}>${inner}</${n.style}>`;
          break;
        }
        case 'lang': {
          const l = LANG_OK.test(n.lang) ? n.lang : '';
          const rtl = l && RTL_LANGS.has(l.split('-')[0].toLowerCase()) ? ' dir="rtl"' : '';
          out += l ? `<span xml:lang="${l}" lang="${l}"${rtl}>${this.inline(n.children)}</span>` : this.inline(n.children);
          break;
        }
        case 'dir':
          out += `<bdi dir="${n.dir}">${this.inline(n.children)}</bdi>`;
          break;
        case 'ruby':
          out += `<ruby>${this.text(n.base)}<rp>(</rp><rt>${this.text(n.annotation)}</rt><rp>)</rp></ruby>`;
          break;
        case 'br':
          out += '<br/>';
          break;
        case 'link':
          out += this.link(n);
          break;
        case 'image':
          out += this.image(n.image, false);
          break;
        case 'fnref':
          out += this.noteref(n.secondary, n.n);
          break;
      }
    }
    return out;
  }

  private link(n: Extract<Inline, { type: 'link' }>): string {
    const label = n.children ? this.inline(n.children) : this.text(n.target);
    if (n.internal) {
      const file = this.anchorFile.get(n.target);
      if (!file) return label;
      const href = (file === this.current ? '' : file.split('/').pop()) + `#${this.anchorId(n.target)}`;
      return `<a href="${escapeXml(href)}">${label}</a>`;
    }
    // only links that leave the book: a relative target has no file in the package
    if (!isSafeLinkTarget(n.target) || !/^(https?|ftp|mailto):/i.test(n.target)) return label;
    return `<a href="${escapeXml(encodeUrl(n.target))}">${label}</a>`;
  }

  private imageFile(src: string): { path: string; type: string } | null {
    const key = `${this.imageDir}${src}`;
    const known = this.images.get(key);
    if (known) return known;
    const data = this.files.get(src) ?? this.files.get(src.split('/').pop()!);
    const type = data && mediaType(data);
    if (!data || !type) return null;
    // the extension the content has (a ".png" may be a JPEG), which reading systems go by
    const ext = { 'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif' }[type]!;
    const stem = `${this.imageDir}${src.replace(/\//g, '-').replace(/\.[A-Za-z]+$/, '')}`;
    const taken = new Set([...this.images.values()].map((e) => e.path));
    let path = `${stem}${ext}`;
    for (let n = 2; taken.has(path); n++) path = `${stem}-${n}${ext}`;
    const entry = { path, type, data };
    this.images.set(key, entry);
    return entry;
  }

  /** An image with its caption as alt text; `block`: alone in its paragraph (a figure). */
  private image(img: ImageSpec, block: boolean): string {
    const file = this.imageFile(img.src);
    const caption = img.caption ? this.inline(img.caption) : '';
    const alt = escapeXml(img.caption ? inlineText(img.caption).replace(/\s+/g, ' ').trim() : img.src.replace(/\.[a-z]+$/i, '').replace(/[-_/]+/g, ' '));
    if (!file) return caption ? `<span class="missing-image">${caption}</span>` : '';
    const cls = img.float === 'l' ? 'image left' : img.float === 'r' ? 'image right' : 'image';
    const width = img.width !== undefined ? ` style="width:${img.width}%"` : '';
    const src = file.path.slice(file.path.lastIndexOf('/') + 1);
    const tag = `<img src="${escapeXml(`../images/${src}`)}" alt="${alt}"/>`;
    if (block) return `<figure class="${cls}"${width}>${tag}${caption ? `<figcaption>${caption}</figcaption>` : ''}</figure>\n`;
    return `<span class="${cls}"${width}>${tag}${caption ? `<span class="caption">${caption}</span>` : ''}</span>`;
  }

  private noteKey(secondary: boolean, n: number): string {
    return `${secondary ? 'fnb' : 'fn'}${n}`;
  }

  private noteref(secondary: boolean, n: number): string {
    const note = (secondary ? this.doc.secondaryFootnotes : this.doc.footnotes).get(n);
    const label = secondary ? `{${n}}` : `[${n}]`;
    if (!note) return this.text(label);
    const key = this.noteKey(secondary, n);
    const refId = this.id(`${key}-ref`);
    if (!this.noteDone.has(key)) {
      this.noteDone.add(key);
      this.noteHome.set(key, { file: this.current, back: refId });
      this.pendingNotes.push(note);
    }
    const home = this.noteHome.get(key)!;
    const href = (home.file === this.current ? '' : home.file.split('/').pop()) + `#${key}`;
    return `<a epub:type="noteref" role="doc-noteref" class="noteref" href="${href}" id="${refId}">${label}</a>`;
  }

  private noteHome = new Map<string, { file: string; back: string }>();

  /** The asides of the notes first referenced in this file (secondary notes found in them too). */
  private notes(): string {
    let out = '';
    for (let i = 0; i < this.pendingNotes.length; i++) {
      const fn = this.pendingNotes[i];
      const key = this.noteKey(fn.secondary, fn.n);
      const label = fn.secondary ? `{${fn.n}}` : `[${fn.n}]`;
      this.ids.add(key);
      const paras = fn.paragraphs.map((p, j) => {
        const back = j === 0 ? `<a class="noteback" href="#${this.noteHome.get(key)!.back}" role="doc-backlink">${label}</a> ` : '';
        return `<p>${back}${j === 0 ? this.anchors(fn.anchors) : ''}${this.inline(p)}</p>`;
      });
      out += `<aside epub:type="footnote" role="doc-footnote" id="${key}" class="${fn.secondary ? 'footnote secondary' : 'footnote'}">${paras.join('')}</aside>\n`;
    }
    return out ? `<section class="notes">\n${out}</section>\n` : '';
  }

  blocks(blocks: Block[]): string {
    return blocks.map((b) => this.block(b)).join('');
  }

  private paragraph(anchors: string[], children: Inline[], cls = ''): string {
    if (children.length === 1 && children[0].type === 'image') return this.anchors(anchors) + this.image(children[0].image, true);
    const a = this.anchors(anchors);
    const inner = this.inline(children);
    if (!a && !inner.trim()) return '';
    return `<p${cls}>${a}${inner}</p>\n`;
  }

  private block(b: Block): string {
    switch (b.type) {
      case 'paragraph':
        return this.paragraph(b.anchors, b.children);
      case 'heading': {
        const level = Math.min(6, b.level);
        let id = '';
        if (b.level <= 4) {
          this.tocCount++;
          id = ` id="${this.id(`toc${this.tocCount}`)}"`;
          this.nav.push({ level: b.level, title: tocText(b.tocChildren ?? b.children) || '—', href: `${this.current}#toc${this.tocCount}` });
        }
        return `<h${level}${id}>${this.anchors(b.anchors)}${this.inline(b.children)}</h${level}>\n`;
      }
      case 'container':
        if (b.kind === 'quote') return `<blockquote>\n${this.blocks(b.children)}</blockquote>\n`;
        return `<div class="${b.kind}">\n${this.blocks(b.children)}</div>\n`;
      case 'direction':
        return `<div dir="${b.dir}">\n${this.blocks(b.children)}</div>\n`;
      case 'language': {
        const l = LANG_OK.test(b.lang) ? b.lang : '';
        if (!l) return this.blocks(b.children);
        const rtl = RTL_LANGS.has(l.split('-')[0].toLowerCase()) ? ' dir="rtl"' : '';
        return `<div xml:lang="${l}" lang="${l}"${rtl}>\n${this.blocks(b.children)}</div>\n`;
      }
      case 'verse': {
        const stanzas: string[][] = [[]];
        for (const line of b.lines) {
          if (line === null) stanzas.push([]);
          else stanzas[stanzas.length - 1].push(this.inline(line));
        }
        const ps = stanzas.filter((s) => s.length).map((s) => `<p class="stanza">${s.join('<br/>\n')}</p>`);
        return `${this.anchors(b.anchors)}<div class="verse">\n${ps.join('\n')}\n</div>\n`;
      }
      case 'example':
        return `${this.anchors(b.anchors)}<pre>${this.text(b.text)}</pre>\n`;
      case 'comment':
        return '';
      case 'list': {
        if (b.kind === 'dl') {
          if (!b.items.length) return '';
          return `<dl>\n${b.items.map((it) => `<dt>${this.inline(it.term ?? [])}</dt>\n<dd>${this.blocks(it.children)}</dd>\n`).join('')}</dl>\n`;
        }
        if (!b.items.length) return '';
        let attrs = '';
        if (b.kind === 'ol' && b.style && b.style !== '1') attrs += ` class="list-${{ a: 'la', A: 'ua', i: 'lr', I: 'ur' }[b.style]}"`;
        if (b.kind === 'ol' && b.start !== undefined) attrs += ` start="${b.start}"`;
        return `<${b.kind}${attrs}>\n${b.items.map((it) => `<li>${this.blocks(it.children)}</li>\n`).join('')}</${b.kind}>\n`;
      }
      case 'table':
        return this.anchors(b.anchors) + this.table(b);
      case 'rule':
        return '<hr/>\n';
      case 'pagebreak':
        return `<p class="center pagebreak">${this.text(b.text ?? '* * * * *')}</p>\n`;
      case 'anchors': {
        const a = this.anchors(b.names);
        return a ? `<p class="anchor">${a}</p>\n` : '';
      }
    }
  }

  private table(b: Extract<Block, { type: 'table' }>): string {
    let out = '<table>\n';
    if (b.caption) out += `<caption>${this.inline(b.caption)}</caption>\n`;
    const attr = (i: number) => {
      const a = b.aligns?.[i];
      return a && a !== 'justify' ? ` class="${a}"` : '';
    };
    const section = (tag: string, cell: string, rows: typeof b.body) => {
      if (!rows.length) return '';
      const trs = rows.map((row) => `<tr>${row.map((c, i) => `<${cell}${cell === 'th' ? ' scope="col"' : ''}${attr(i)}>${this.inline(c.children)}</${cell}>`).join('')}</tr>`);
      return `<${tag}>\n${trs.join('\n')}\n</${tag}>\n`;
    };
    out += section('thead', 'th', b.head);
    out += section('tbody', 'td', b.body.length ? b.body : [[]].filter(() => false));
    out += section('tfoot', 'td', b.foot);
    if (!b.body.length && !b.head.length && !b.foot.length) return '';
    return out + '</table>\n';
  }

  /** The title page fields as XHTML (title, subtitle, author, date, notes, source, credits). */
  titlePage(opts: EpubOptions, heading: 'h1' | 'h2' = 'h1'): string {
    const h = this.doc.header;
    const field = (v: string | undefined) => (v ? this.inline(parseInline(v, { ...headerCtx, links: true })) : '');
    const title = field(h.title || opts.title) || escapeXml(opts.title || 'Untitled');
    let out = `<section epub:type="titlepage" class="titlepage">\n<${heading} class="title">${title}</${heading}>\n`;
    if (h.subtitle) out += `<p class="subtitle">${field(h.subtitle)}</p>\n`;
    if (h.author || opts.author) out += `<p class="author">${field(h.author || opts.author)}</p>\n`;
    if (h.date) out += `<p class="date">${field(h.date)}</p>\n`;
    if (h.notes) out += `<p class="notes">${field(h.notes)}</p>\n`;
    if (h.source) out += `<p class="source">${field(h.source)}</p>\n`;
    if (opts.sourceUrl && /^https?:/i.test(opts.sourceUrl)) out += `<p class="source-url"><a href="${escapeXml(encodeUrl(opts.sourceUrl))}">${escapeXml(opts.sourceUrl)}</a></p>\n`;
    if (opts.credits) out += `<p class="credits">${escapeXml(opts.credits)}</p>\n`;
    return out + '</section>\n';
  }
}

function tocText(nodes: Inline[]): string {
  return inlineText(nodes).replace(/\s+/g, ' ').trim();
}

const STYLE = `/* Sizes in em and no font family: the reader's font and size choices stay in force. */
body { margin: 0 1em; line-height: 1.4; }
h1, h2, h3, h4, h5, h6 { text-align: center; line-height: 1.2; page-break-after: avoid; }
p { margin: 0.5em 0; }
.titlepage { text-align: center; margin-top: 3em; }
.titlepage .title { font-size: 1.8em; }
.subtitle { font-size: 1.3em; }
.author { font-size: 1.2em; margin-top: 2em; }
.credits, .source-url { font-size: 0.9em; margin-top: 2em; }
.center { text-align: center; }
.right { text-align: right; }
.verse { margin: 1em 2em; }
.stanza { margin: 0 0 1em 0; }
blockquote { margin: 1em 2em; }
pre { white-space: pre-wrap; font-size: 0.9em; }
.sc { font-variant: small-caps; }
.sf { font-family: sans-serif; }
table { border-collapse: collapse; margin: 1em auto; }
th, td { border: 1px solid; padding: 0.2em 0.4em; }
th.left, td.left { text-align: left; } th.right, td.right { text-align: right; } th.center, td.center { text-align: center; }
.image { display: block; text-align: center; margin: 1em auto; }
.image img { max-width: 100%; }
figure.left, span.left { float: left; margin: 0 1em 0.5em 0; }
figure.right, span.right { float: right; margin: 0 0 0.5em 1em; }
figcaption, .caption { display: block; font-size: 0.9em; text-align: center; }
.notes { margin-top: 2em; border-top: 1px solid; font-size: 0.9em; }
.noteref { vertical-align: super; font-size: 0.75em; line-height: 0; text-decoration: none; }
.list-la { list-style-type: lower-alpha; } .list-ua { list-style-type: upper-alpha; }
.list-lr { list-style-type: lower-roman; } .list-ur { list-style-type: upper-roman; }
nav ol { list-style-type: none; }
`;

function xhtmlHead(title: string, lang: string, dir: string, bodyType = ''): string {
  const l = lang || 'en';
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n` +
    `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${l}" lang="${l}"${dir === 'rtl' ? ' dir="rtl"' : ''}>\n` +
    `<head>\n<meta charset="UTF-8"/>\n<title>${escapeXml(title)}</title>\n<link rel="stylesheet" type="text/css" href="../style.css"/>\n</head>\n` +
    `<body${bodyType ? ` epub:type="${bodyType}"` : ''}>\n`
  );
}

const XHTML_TAIL = '</body>\n</html>\n';

function xhtml(title: string, lang: string, dir: string, body: string, bodyType = ''): string {
  return xhtmlHead(title, lang, dir, bodyType) + body + XHTML_TAIL;
}

/** A section's XHTML file as bytes, its body already encoded. */
function xhtmlBytes(title: string, lang: string, dir: string, body: string | Uint8Array): Uint8Array {
  if (typeof body === 'string') return strToU8(xhtml(title, lang, dir, body));
  const head = strToU8(xhtmlHead(title, lang, dir));
  const tail = strToU8(XHTML_TAIL);
  const out = new Uint8Array(head.length + body.length + tail.length);
  out.set(head);
  out.set(body, head.length);
  out.set(tail, head.length + body.length);
  return out;
}

/** Nested <ol> of nav entries (a level deeper than the previous entry's nests under it). */
function navList(entries: NavEntry[]): string {
  interface Node { e: NavEntry; children: Node[] }
  const roots: Node[] = [];
  const stack: Node[] = [];
  for (const e of entries) {
    const node = { e, children: [] };
    while (stack.length && stack[stack.length - 1].e.level >= e.level) stack.pop();
    (stack.length ? stack[stack.length - 1].children : roots).push(node);
    stack.push(node);
  }
  const ol = (nodes: Node[]): string =>
    `<ol>\n${nodes.map((n) => `<li><a href="${escapeXml(n.e.href)}">${escapeXml(n.e.title)}</a>${n.children.length ? ol(n.children) : ''}</li>\n`).join('')}</ol>\n`;
  let order = 0;
  const ncx = (nodes: Node[]): string =>
    nodes
      .map((n) => {
        order++;
        return `<navPoint id="np${order}" playOrder="${order}"><navLabel><text>${escapeXml(n.e.title)}</text></navLabel><content src="${escapeXml(n.e.href)}"/>${ncx(n.children)}</navPoint>\n`;
      })
      .join('');
  return JSON.stringify({ ol: ol(roots), ncx: ncx(roots), depth: depthOf(roots) });
  function depthOf(nodes: Node[]): number {
    return nodes.length ? 1 + Math.max(...nodes.map((n) => depthOf(n.children))) : 0;
  }
}

function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function uuidFrom(s: string): string {
  const h = createHash('sha1').update(s).digest('hex');
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

interface PackageParts {
  title: string;
  creators: string[];
  lang: string;
  dir: 'rtl' | 'ltr';
  identifier: string;
  modified: Date;
  date?: string;
  source?: string;
  description?: string;
  subjects: string[];
  titlePage: string;
  chunks: Chunk[];
  nav: NavEntry[];
  images: Map<string, { path: string; type: string; data: Uint8Array }>;
}

function pack(p: PackageParts): Uint8Array {
  const lang = p.lang || 'en';
  const hasImages = p.images.size > 0;
  const files: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {};
  files.mimetype = [strToU8('application/epub+zip'), { level: 0 }];
  files['META-INF/container.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n' +
      '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>\n</container>\n',
  );
  const manifest: string[] = [
    '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
    '<item id="css" href="style.css" media-type="text/css"/>',
    '<item id="titlepage" href="text/title.xhtml" media-type="application/xhtml+xml"/>',
  ];
  const spine: string[] = ['<itemref idref="titlepage"/>'];
  files['OEBPS/style.css'] = strToU8(STYLE);
  files['OEBPS/text/title.xhtml'] = strToU8(xhtml(p.title, lang, p.dir, p.titlePage));
  p.chunks.forEach((c, i) => {
    const id = `c${i + 1}`;
    manifest.push(`<item id="${id}" href="text/${c.file}" media-type="application/xhtml+xml"/>`);
    spine.push(`<itemref idref="${id}"/>`);
    files[`OEBPS/text/${c.file}`] = xhtmlBytes(c.title, c.lang || lang, c.dir, c.body);
    c.body = ''; // the file holds it now
  });
  let n = 0;
  for (const img of p.images.values()) {
    manifest.push(`<item id="img${++n}" href="${escapeXml(img.path)}" media-type="${img.type}"/>`);
    files[`OEBPS/${img.path}`] = [img.data, { level: 0 }];
  }
  const navEntries = p.nav.length ? p.nav : [{ level: 1, title: p.title, href: 'title.xhtml' }];
  const withDir = navEntries.map((e) => ({ ...e, href: `text/${e.href}` }));
  const lists = JSON.parse(navList(withDir)) as { ol: string; ncx: string; depth: number };
  const labels = NAV_LABELS[lang.split('-')[0].toLowerCase()] ?? NAV_LABELS.en;
  files['OEBPS/nav.xhtml'] = strToU8(
    xhtml(
      labels[0],
      lang,
      p.dir,
      `<nav epub:type="toc" id="toc" role="doc-toc">\n<h1>${escapeXml(labels[0])}</h1>\n${lists.ol}</nav>\n` +
        `<nav epub:type="landmarks" id="landmarks" hidden="hidden">\n<h2>${escapeXml(labels[1])}</h2>\n<ol>\n` +
        `<li><a epub:type="titlepage" href="text/title.xhtml">${escapeXml(p.title)}</a></li>\n` +
        (p.chunks.length ? `<li><a epub:type="bodymatter" href="text/${p.chunks[0].file}">${escapeXml(p.chunks[0].title)}</a></li>\n` : '') +
        `</ol>\n</nav>\n`,
    ).replace('href="../style.css"', 'href="style.css"'),
  );
  files['OEBPS/toc.ncx'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?>\n<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1" xml:lang="${lang}">\n` +
      `<head><meta name="dtb:uid" content="${escapeXml(p.identifier)}"/><meta name="dtb:depth" content="${lists.depth}"/>` +
      `<meta name="dtb:totalPageCount" content="0"/><meta name="dtb:maxPageNumber" content="0"/></head>\n` +
      `<docTitle><text>${escapeXml(p.title)}</text></docTitle>\n<navMap>\n${lists.ncx}</navMap>\n</ncx>\n`,
  );
  const features = ['structuralNavigation', 'tableOfContents', 'readingOrder'];
  if (hasImages) features.push('alternativeText');
  const meta: string[] = [
    `<dc:identifier id="uid">${escapeXml(p.identifier)}</dc:identifier>`,
    `<dc:title>${escapeXml(p.title)}</dc:title>`,
    ...p.creators.map((c) => `<dc:creator>${escapeXml(c)}</dc:creator>`),
    `<dc:language>${escapeXml(lang)}</dc:language>`,
    `<meta property="dcterms:modified">${isoSeconds(p.modified)}</meta>`,
  ];
  const date = p.date && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(p.date.trim()) ? p.date.trim() : p.date?.match(/\b(1[0-9]{3}|20[0-9]{2})\b/)?.[1];
  if (date) meta.push(`<dc:date>${date}</dc:date>`);
  if (p.source) meta.push(`<dc:source>${escapeXml(p.source)}</dc:source>`);
  if (p.description) meta.push(`<dc:description>${escapeXml(p.description)}</dc:description>`);
  for (const s of p.subjects) meta.push(`<dc:subject>${escapeXml(s)}</dc:subject>`);
  meta.push('<meta property="schema:accessMode">textual</meta>');
  if (hasImages) meta.push('<meta property="schema:accessMode">visual</meta>');
  meta.push('<meta property="schema:accessModeSufficient">textual</meta>');
  for (const f of features) meta.push(`<meta property="schema:accessibilityFeature">${f}</meta>`);
  meta.push('<meta property="schema:accessibilityHazard">none</meta>');
  meta.push(
    `<meta property="schema:accessibilitySummary">${escapeXml(
      'Reflowable text with a table of contents, headings in reading order, footnotes linked both ways' +
        (hasImages ? ', images with a text alternative (their caption or file name)' : '') +
        '. No hazards.',
    )}</meta>`,
  );
  files['OEBPS/content.opf'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="${lang}"${p.dir === 'rtl' ? ' dir="rtl"' : ''}>\n` +
      `<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n${meta.join('\n')}\n</metadata>\n` +
      `<manifest>\n${manifest.join('\n')}\n</manifest>\n` +
      `<spine toc="ncx"${p.dir === 'rtl' ? ' page-progression-direction="rtl"' : ''}>\n${spine.join('\n')}\n</spine>\n</package>\n`,
  );
  return zipSync(files as Parameters<typeof zipSync>[0], { level: 6 });
}

const NAV_LABELS: Record<string, [string, string]> = {
  en: ['Contents', 'Landmarks'],
  de: ['Inhalt', 'Orientierungspunkte'],
  fr: ['Table des matières', 'Repères'],
  it: ['Indice', 'Punti di riferimento'],
  el: ['Περιεχόμενα', 'Ορόσημα'],
  hr: ['Sadržaj', 'Orijentiri'],
};

function creatorsOf(h: Record<string, string>, fallback?: string): string[] {
  const raw = h.SORTauthors || h.authors || h.author || fallback || '';
  const sep = (h.SORTauthors || h.authors || '').includes(';') ? ';' : h.SORTauthors || h.authors ? ',' : /;/.test(raw) ? ';' : '\n';
  return raw
    .split(sep)
    .map((a) => plain(a))
    .filter(Boolean);
}

function subjectsOf(h: Record<string, string>): string[] {
  return (h.topics ?? '')
    .split(/[,;]/)
    .map((t) => plain(t))
    .filter(Boolean);
}

/** One Muse text as an EPUB 3 file. */
export function museToEpub(input: string | MuseDocument, options: EpubOptions = {}): Uint8Array {
  const doc = typeof input === 'string' ? parseMuse(input) : input;
  const h = doc.header;
  const images = new Map<string, { path: string; type: string; data: Uint8Array }>();
  const w = new TextWriter(doc, '', options.files ?? new Map(), 'images/', images, typeof input === 'string');
  const title = plain(h.LISTtitle || h.title) || options.title || 'Untitled';
  w.render(() => title);
  const titlePage = w.titlePage(options);
  return pack({
    title,
    creators: creatorsOf(h, options.author),
    lang: w.lang,
    dir: w.dir,
    identifier: options.identifier || uuidFrom(typeof input === 'string' ? input : JSON.stringify(doc.header) + doc.body.length),
    modified: options.modified ?? new Date(),
    date: plain(h.date) || undefined,
    source: options.sourceUrl || plain(h.source) || undefined,
    description: plain(h.subtitle) || undefined,
    subjects: subjectsOf(h),
    titlePage,
    chunks: w.chunks,
    nav: w.nav,
    images,
  });
}

/**
 * Several texts as one EPUB: the collection's title page, then each text with its own title page and
 * credits and its sections; one table of contents with a top entry per text.
 */
export function collectionToEpub(texts: EpubText[], options: EpubCollectionOptions): Uint8Array {
  const images = new Map<string, { path: string; type: string; data: Uint8Array }>();
  const chunks: Chunk[] = [];
  const nav: NavEntry[] = [];
  const langs: string[] = [];
  const creators = new Set<string>();
  texts.forEach((t, i) => {
    const doc = typeof t.muse === 'string' ? parseMuse(t.muse) : t.muse;
    const prefix = `t${String(i + 1).padStart(3, '0')}-`;
    const w = new TextWriter(doc, prefix, t.files ?? new Map(), `images/${prefix}`, images, typeof t.muse === 'string');
    const title = plain(doc.header.LISTtitle || doc.header.title) || t.title || 'Untitled';
    w.render(() => title);
    const titleFile = `${prefix}000.xhtml`;
    chunks.push({ file: titleFile, title, body: w.titlePage(t, 'h1'), lang: w.lang, dir: w.dir });
    // the text's headings one level below its own entry
    nav.push({ level: 1, title, href: titleFile });
    for (const e of w.nav) nav.push({ ...e, level: e.level + 1 });
    chunks.push(...w.chunks);
    langs.push(w.lang);
    for (const c of creatorsOf(doc.header, t.author)) creators.add(c);
  });
  const lang = options.lang && LANG_OK.test(options.lang) ? options.lang : mostCommon(langs) || 'en';
  const dir = RTL_LANGS.has(lang.split('-')[0].toLowerCase()) ? 'rtl' : 'ltr';
  const title = plain(options.title) || 'Untitled';
  const author = plain(options.author);
  let titlePage = `<section epub:type="titlepage" class="titlepage">\n<h1 class="title">${escapeXml(title)}</h1>\n`;
  for (const k of ['subtitle', 'author', 'date', 'notes', 'source'] as const) {
    const v = plain(options[k]);
    if (v) titlePage += `<p class="${k}">${escapeXml(v)}</p>\n`;
  }
  if (options.credits) titlePage += `<p class="credits">${escapeXml(options.credits)}</p>\n`;
  titlePage += '</section>\n';
  return pack({
    title,
    date: plain(options.date) || undefined,
    source: plain(options.source) || undefined,
    description: plain(options.subtitle) || undefined,
    creators: author ? [author] : [...creators],
    lang,
    dir,
    identifier: options.identifier || uuidFrom(options.title + texts.map((t) => (typeof t.muse === 'string' ? t.muse : t.identifier ?? JSON.stringify(t.muse.header) + t.muse.body.length)).join('\u0000')),
    modified: options.modified ?? new Date(),
    subjects: [],
    titlePage,
    chunks,
    nav,
    images,
  });
}

function mostCommon(xs: string[]): string {
  const counts = new Map<string, number>();
  for (const x of xs) if (x) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

// HTML body renderer. Output structure follows the reference implementation (Text::Amuse),
// so that the full-text view and the conformance corpus agree.
import type { Block, Footnote, Inline, MuseDocument } from './types.ts';
import { inlineText } from './inline.ts';
import { parseMuse } from './parse.ts';
import { isSafeLinkTarget } from './links.ts';

export interface HtmlOptions {
  /** Rewrites image file names to URLs; default: the bare file name. */
  imageUrl?: (fileName: string) => string;
}

export interface TocEntry {
  level: number;
  title: string;
  anchor: string;
}

export interface HtmlResult {
  html: string;
  header: Record<string, string>;
  toc: TocEntry[];
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]);
}

const RTL_LANGS = new Set(['ar', 'he', 'fa']);

/** Percent-encode what is not safe in a URL, as the reference does. */
export function encodeUrl(url: string): string {
  return url.replace(/[^0-9a-zA-Z./:;_%&#?=@-]+/g, (m) => encodeURIComponent(m));
}

/**
 * French typography, as the reference's InlineElement: a narrow no-break space before ; ! ? and a
 * no-break space before : and », replacing any space there, when punctuation, a space or the end
 * of a line follows; a no-break space after « at the start of a line or after such a character.
 */
const FR_NEXT = '[ \\u00a0\\u202f()[\\].,:«»;!?]';
const FR_WS = '[ \\u00a0\\u202f]';
const FR_RULES: [RegExp, string][] = [
  [new RegExp(`${FR_WS}*([;!?])(?=${FR_NEXT})`, 'g'), '\u202f$1'],
  [new RegExp(`${FR_WS}*([;!?])$`, 'gm'), '\u202f$1'],
  [new RegExp(`${FR_WS}*([:»])(?=${FR_NEXT})`, 'g'), '\u00a0$1'],
  [new RegExp(`${FR_WS}*([:»])$`, 'gm'), '\u00a0$1'],
  [new RegExp(`^«${FR_WS}*`, 'gm'), '«\u00a0'],
  [new RegExp(`(?<=${FR_NEXT})«${FR_WS}*`, 'g'), '«\u00a0'],
];

function frenchSpacing(s: string): string {
  for (const [re, to] of FR_RULES) s = s.replace(re, to);
  return s;
}

class HtmlRenderer {
  private refs: { secondary: boolean; n: number }[] = [];
  private tocCount = 0;
  readonly toc: TocEntry[] = [];
  private readonly french: boolean;

  constructor(
    private readonly doc: MuseDocument,
    private readonly opts: HtmlOptions,
  ) {
    this.french = doc.lang === 'fr';
  }

  private text(s: string): string {
    let out = escapeHtml(this.french ? frenchSpacing(s) : s);
    if (out.includes('\u00a0')) out = out.replace(/\u00a0/g, '&#160;');
    return out;
  }

  inline(nodes: Inline[], collect = true): string {
    let out = '';
    for (const n of nodes) {
      switch (n.type) {
        case 'text':
          out += this.text(n.value);
          break;
        case 'code':
          out += `<code>${escapeHtml(n.value)}</code>`;
          break;
        case 'style': {
          const inner = this.inline(n.children, collect);
          if (n.style === 'sf') out += `<span class="muse-sf">${inner}</span>`;
          else if (n.style === 'sc') out += `<span class="muse-sc" style="font-variant: small-caps">${inner}</span>`;
          else out += `<${n.style}>${inner}</${n.style}>`;
          break;
        }
        case 'lang':
          out += `<span lang="${escapeHtml(n.lang)}">${this.inline(n.children, collect)}</span>`;
          break;
        case 'dir':
          out += `<span dir="${n.dir}">${this.inline(n.children, collect)}</span>${n.dir === 'ltr' ? '&#x200F;' : '&#x200E;'}`;
          break;
        case 'ruby':
          out += `<ruby><rb>${this.text(n.base)}</rb><rt>${this.text(n.annotation)}</rt></ruby>`;
          break;
        case 'br':
          out += '<br />';
          break;
        case 'link':
          if (n.internal) {
            out += `<a class="text-amuse-link" href="#text-amuse-label-${escapeHtml(n.target)}">${this.inline(n.children ?? [], collect)}</a>`;
          } else if (!isSafeLinkTarget(n.target)) {
            // a script link (javascript:, data:...): its text only, no anchor
            out += n.children ? this.inline(n.children, collect) : this.text(n.target);
          } else if (n.children) {
            out += `<a class="text-amuse-link" href="${escapeHtml(encodeUrl(n.target))}">${this.inline(n.children, collect)}</a>`;
          } else {
            out += `<a class="text-amuse-link text-amuse-is-single-link" href="${escapeHtml(encodeUrl(n.target))}">${this.text(n.target)}</a>`;
          }
          break;
        case 'image':
          out += this.image(n.image);
          break;
        case 'fnref': {
          if (collect) this.refs.push({ secondary: n.secondary, n: n.n });
          const id = n.secondary ? `b${n.n}` : String(n.n);
          const label = n.secondary ? `{${n.n}}` : `[${n.n}]`;
          out += `<a href="#fn${id}" class="footnote" id="fn_back${id}">${label}</a>`;
          break;
        }
      }
    }
    return out;
  }

  private image(img: Extract<Inline, { type: 'image' }>['image']): string {
    const cls = img.float ? `float_image_${img.float}` : 'image';
    const style: string[] = [];
    if (img.width !== undefined) style.push(`width:${img.width}%;`);
    if (img.rotate) style.push(`transform:rotate(${img.rotate}deg); background: transparent;`);
    const src = this.opts.imageUrl ? this.opts.imageUrl(img.src) : img.src;
    let out = `\n<div class="${cls}"${style.length ? ` style="${style.join(' ')}"` : ''}>\n`;
    out += `<img src="${escapeHtml(src)}" alt="${escapeHtml(img.src)}" class="embedimg" />\n`;
    if (img.caption) out += `<div class="caption">${this.inline(img.caption)}</div>\n`;
    return out + '</div>\n';
  }

  private anchors(names: string[]): string {
    return names.map((a) => `<a id="text-amuse-label-${escapeHtml(a)}" class="text-amuse-internal-anchor"></a>\n`).join('');
  }

  private paragraph(anchors: string[], children: Inline[], cls = ''): string {
    // an image alone is not wrapped in a paragraph; its anchors come first
    if (children.length === 1 && children[0].type === 'image') return this.anchors(anchors) + this.inline(children) + '\n';
    return `\n<p${cls}>\n${this.anchors(anchors)}${this.inline(children)}\n</p>\n`;
  }

  blocks(blocks: Block[]): string {
    let out = '';
    for (const b of blocks) out += this.block(b);
    return out;
  }

  private block(b: Block): string {
    switch (b.type) {
      case 'paragraph':
        return this.paragraph(b.anchors, b.children);
      case 'heading': {
        const tag = `h${b.level + 1}`;
        let id = '';
        if (b.level <= 4) {
          this.tocCount++;
          const anchor = `toc${this.tocCount}`;
          id = ` id="${anchor}"`;
          this.toc.push({ level: b.level, title: tocTitle(b.tocChildren ?? b.children), anchor });
        }
        return `<${tag}${id}>${this.anchors(b.anchors)}${this.inline(b.children)}</${tag}>\n\n`;
      }
      case 'container': {
        if (b.kind === 'quote') return `\n<blockquote>\n${this.blocks(b.children)}\n</blockquote>\n`;
        return `\n<div class="${b.kind}">\n${this.blocks(b.children)}\n</div>\n`;
      }
      case 'direction':
        return `<div dir="${b.dir}">\n${this.blocks(b.children)}</div>\n`;
      case 'language':
        return `<div lang="${escapeHtml(b.lang)}"${RTL_LANGS.has(b.lang.toLowerCase()) ? ' dir="rtl"' : ''}>\n${this.blocks(b.children)}</div>\n`;
      case 'verse': {
        let out = this.anchors(b.anchors) + '<div class="verse">\n';
        const parts: string[] = [];
        let stanza: string[] = [];
        for (const line of b.lines) {
          if (line === null) {
            parts.push(stanza.join('<br />\n'));
            stanza = [];
          } else stanza.push(this.inline(line));
        }
        parts.push(stanza.join('<br />\n'));
        out += parts.join('\n<br /><br />\n');
        return out + '\n</div>\n';
      }
      case 'example':
        return `${this.anchors(b.anchors)}\n<pre class="example">\n${escapeHtml(b.text)}\n</pre>\n`;
      case 'comment':
        if (b.inline) return `<div class="comment" style="display:none">${escapeHtml(b.text)}</div>\n`;
        return `\n<!-- start comment -->\n<div class="comment" style="display:none">\n${escapeHtml(b.text)}\n</div>\n<!-- stop comment -->\n`;
      case 'list': {
        if (b.kind === 'dl') {
          let out = '\n<dl>\n';
          for (const item of b.items) {
            out += `<dt>${this.inline(item.term ?? [])}</dt>\n<dd>\n${this.blocks(item.children)}</dd>\n`;
          }
          return out + '\n</dl>\n';
        }
        let attrs = '';
        if (b.kind === 'ol' && b.style && b.style !== '1') attrs += ` style="list-style-type:${LIST_STYLE[b.style]}"`;
        if (b.start !== undefined) attrs += ` start="${b.start}"`;
        let out = `\n<${b.kind}${attrs}>\n`;
        for (const item of b.items) out += `<li>\n${this.blocks(item.children)}\n</li>\n`;
        return out + `\n</${b.kind}>\n`;
      }
      case 'table':
        return this.anchors(b.anchors) + this.table(b);
      case 'rule':
        return '\n<hr />\n';
      case 'pagebreak':
        return `\n<div class="center">\n\n<p>\n${escapeHtml(b.text ?? '* * * * *')}\n</p>\n\n</div>\n`;
      case 'anchors':
        return this.anchors(b.names);
    }
  }

  private table(b: Extract<Block, { type: 'table' }>): string {
    const md = b.aligns !== null;
    let out = md ? '\n<table class="markdown-style-table" style="width:100%">\n' : '\n<table>\n';
    if (b.caption) out += `<caption>${this.inline(b.caption)}</caption>\n`;
    const cellAttr = (i: number) => {
      if (!b.aligns) return '';
      const parts: string[] = [];
      const a = b.aligns[i];
      if (a && a !== 'justify') parts.push(`text-align:${a}`);
      const w = b.widths?.[i];
      // the reference prints the width as two digits (from its LaTeX p{0.05\textwidth})
      if (w) parts.push(`width:${String(w).padStart(2, '0')}%`);
      return parts.length ? ` style="${parts.join(';')}"` : '';
    };
    const section = (tag: string, cell: string, rows: typeof b.body) => {
      if (!rows.length) return '';
      let s = ` <${tag}>\n`;
      for (const row of rows) {
        s += '  <tr>\n';
        row.forEach((c, i) => {
          s += `   <${cell}${cellAttr(i)}>\n${this.inline(c.children)}\n   </${cell}>\n`;
        });
        s += '  </tr>\n';
      }
      return s + ` </${tag}>\n`;
    };
    out += section('thead', 'th', b.head);
    out += section('tfoot', 'td', b.foot);
    out += section('tbody', 'td', b.body);
    return out + '</table>\n';
  }

  footnotes(): string {
    // Notes are listed once per reference, primary before secondary, each in numeric order.
    // Secondary references inside primary notes are collected while rendering those notes.
    const primary = this.refs.filter((r) => !r.secondary).sort((a, b) => a.n - b.n);
    let out = '';
    for (const r of primary) out += this.note(this.doc.footnotes.get(r.n)!, true);
    const secondary = this.refs.filter((r) => r.secondary).sort((a, b) => a.n - b.n);
    for (const r of secondary) out += this.note(this.doc.secondaryFootnotes.get(r.n)!, false);
    return out;
  }

  private note(fn: Footnote, collect: boolean): string {
    const id = fn.secondary ? `b${fn.n}` : String(fn.n);
    const label = fn.secondary ? `{${fn.n}}` : `[${fn.n}]`;
    const cls = fn.secondary ? 'secondary-fnline' : 'fnline';
    const body = fn.paragraphs.map((p) => this.inline(p, collect)).join('\n<br />\n');
    return (
      `\n<p class="${cls}"><a class="footnotebody" href="#fn_back${id}" id="fn${id}">${label}</a>` +
      `${this.anchors(fn.anchors)} ${body}\n</p>\n`
    );
  }
}

const LIST_STYLE: Record<string, string> = {
  a: 'lower-alpha',
  A: 'upper-alpha',
  i: 'lower-roman',
  I: 'upper-roman',
};

function tocTitle(nodes: Inline[]): string {
  return inlineText(nodes).replace(/\s+/g, ' ').trim();
}

export function museToHtml(input: string | MuseDocument, options: HtmlOptions = {}): HtmlResult {
  const doc = typeof input === 'string' ? parseMuse(input) : input;
  const r = new HtmlRenderer(doc, options);
  let html = r.blocks(doc.body);
  html += r.footnotes();
  return { html, header: { ...doc.header }, toc: r.toc };
}

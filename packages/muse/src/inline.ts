// Inline Muse markup: tokenize left to right, pair delimiters and tags, build a tree.
// Anything that cannot be paired is turned back into its literal source text.
import type { Inline, ImageSpec, StyleName } from './types.ts';

export interface InlineContext {
  /** Primary references [N] are recognised (only if the note exists). */
  primaryRefs: boolean;
  /** Secondary references {N} are recognised (only if the note exists). */
  secondaryRefs: boolean;
  /** [[links]] are interpreted (not in headings). */
  links: boolean;
  hasPrimary: (n: number) => boolean;
  hasSecondary: (n: number) => boolean;
  onImage?: (src: string) => void;
}

type Tok =
  | { k: 'text'; v: string }
  | { k: 'node'; node: Inline }
  | { k: 'emph'; len: number; raw: string; canOpen: boolean; canClose: boolean; pair?: number; opener?: boolean }
  | { k: 'tag'; name: string; close: boolean; raw: string; pair?: number; opener?: boolean }
  | { k: 'dir'; dir: 'rtl' | 'ltr'; raw: string; pair?: number; opener?: boolean; drop?: boolean }
  | { k: 'end' };

const STYLE_TAGS = new Set(['em', 'strong', 'strike', 'del', 'sup', 'sub', 'sf', 'sc']);
const SPECIAL = /[[<={~*>]/g;
const ALNUM = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

function isAlnum(c: string | undefined): boolean {
  return c !== undefined && ALNUM.test(c);
}

function isSpace(c: string | undefined): boolean {
  return c === undefined || SPACE.test(c);
}

const IMAGE_RE = /^([0-9A-Za-z][0-9A-Za-z/-]+\.(?:png|jpe?g))(?:\s+(.*))?$/;
const IMAGE_OPTS_RE = /^(\d+)?\s*([rlf])?\s*(?:a(90|180|270))?$/;
const INTERNAL_RE = /^#([A-Za-z][A-Za-z0-9-]*)$/;
const SHORT_INTERNAL_RE = /^#([A-Za-z][A-Za-z0-9]*)$/;

export function parseImageTarget(target: string): Omit<ImageSpec, 'caption'> | null {
  const m = IMAGE_RE.exec(target);
  if (!m) return null;
  const spec: Omit<ImageSpec, 'caption'> = { src: m[1] };
  if (m[2] !== undefined) {
    const o = IMAGE_OPTS_RE.exec(m[2].trim());
    if (!o) return null;
    if (o[1] !== undefined) spec.width = Math.min(100, Math.max(1, parseInt(o[1], 10)));
    if (o[2]) spec.float = o[2] as 'l' | 'r' | 'f';
    if (o[3]) spec.rotate = parseInt(o[3], 10) as 90 | 180 | 270;
  }
  if ((spec.float === 'l' || spec.float === 'r') && spec.width === undefined) spec.width = 50;
  return spec;
}

function makeLink(inner: string, ctx: InlineContext): Inline {
  const sep = inner.indexOf('][');
  const target = sep >= 0 ? inner.slice(0, sep) : inner;
  const desc = sep >= 0 ? inner.slice(sep + 2) : null;
  const img = parseImageTarget(target);
  if (img) {
    ctx.onImage?.(img.src);
    const sub = { ...ctx, links: false };
    return { type: 'image', image: { ...img, caption: desc !== null && desc !== '' ? parseInline(desc, sub) : null } };
  }
  const sub = { ...ctx, links: false };
  if (desc !== null) {
    const internal = INTERNAL_RE.exec(target);
    return {
      type: 'link',
      target: internal ? internal[1] : target,
      internal: !!internal,
      children: parseInline(desc, sub),
    };
  }
  const short = SHORT_INTERNAL_RE.exec(target);
  if (short) return { type: 'link', target: short[1], internal: true, children: [{ type: 'text', value: short[1] }] };
  return { type: 'link', target, internal: false, children: null };
}

/** Where a `=code=` span opened at `i` closes, or -1. */
function findCodeClose(s: string, i: number): number {
  let j = s.indexOf('=', i + 2);
  while (j >= 0) {
    if (!isSpace(s[j - 1]) && !isAlnum(s[j + 1])) return j;
    j = s.indexOf('=', j + 1);
  }
  return -1;
}

function tokenize(s: string, ctx: InlineContext): Tok[] {
  const toks: Tok[] = [];
  let buf = '';
  let i = 0;
  const n = s.length;
  const flush = () => {
    if (buf) {
      toks.push({ k: 'text', v: buf });
      buf = '';
    }
  };
  const node = (nd: Inline) => {
    flush();
    toks.push({ k: 'node', node: nd });
  };
  while (i < n) {
    SPECIAL.lastIndex = i;
    const m = SPECIAL.exec(s);
    if (!m) {
      buf += s.slice(i);
      break;
    }
    if (m.index > i) buf += s.slice(i, m.index);
    i = m.index;
    const c = s[i];
    if (c === '[') {
      if (s[i + 1] === '[') {
        const end = s.indexOf(']]', i + 2);
        if (end > i + 2) {
          // in headings links are printed literally, markup inside included
          if (ctx.links) node(makeLink(s.slice(i + 2, end), ctx));
          else buf += s.slice(i, end + 2);
          i = end + 2;
          continue;
        }
      }
      const fm = /^\[([1-9][0-9]*)\]/.exec(s.slice(i, i + 12));
      if (fm && ctx.primaryRefs && ctx.hasPrimary(+fm[1])) {
        node({ type: 'fnref', secondary: false, n: +fm[1] });
        i += fm[0].length;
        continue;
      }
      buf += c;
      i++;
      continue;
    }
    if (c === '{') {
      const fm = /^\{([1-9][0-9]*)\}/.exec(s.slice(i, i + 12));
      if (fm && ctx.secondaryRefs && ctx.hasSecondary(+fm[1])) {
        node({ type: 'fnref', secondary: true, n: +fm[1] });
        i += fm[0].length;
        continue;
      }
      buf += c;
      i++;
      continue;
    }
    if (c === '~') {
      if (s[i + 1] === '~') {
        buf += '\u00a0';
        i += 2;
      } else {
        buf += c;
        i++;
      }
      continue;
    }
    if (c === '=') {
      if (!isAlnum(s[i - 1]) && i + 1 < n && !isSpace(s[i + 1])) {
        const j = findCodeClose(s, i);
        if (j > i + 1) {
          node({ type: 'code', value: s.slice(i + 1, j) });
          i = j + 1;
          continue;
        }
      }
      buf += c;
      i++;
      continue;
    }
    if (c === '>') {
      if (s.startsWith('>>>', i)) {
        flush();
        toks.push({ k: 'dir', dir: 'ltr', raw: '>>>' });
        i += 3;
        continue;
      }
      buf += c;
      i++;
      continue;
    }
    if (c === '*') {
      let j = i;
      while (s[j] === '*') j++;
      const len = j - i;
      const raw = s.slice(i, j);
      if (len > 3) {
        buf += raw;
        i = j;
        continue;
      }
      const prev = s[i - 1];
      const next = s[j];
      if (isAlnum(prev) && isAlnum(next)) {
        buf += raw;
        i = j;
        continue;
      }
      flush();
      toks.push({
        k: 'emph',
        len,
        raw,
        canOpen: (i === 0 || !isAlnum(prev)) && next !== undefined && !isSpace(next),
        canClose: i > 0 && !isSpace(prev),
      });
      i = j;
      continue;
    }
    // c === '<'
    const rest = s.slice(i, i + 40);
    if (rest.startsWith('<<<')) {
      flush();
      toks.push({ k: 'dir', dir: 'rtl', raw: '<<<' });
      i += 3;
      continue;
    }
    if (rest.startsWith('<verbatim>')) {
      const end = s.indexOf('</verbatim>', i + 10);
      if (end >= 0) {
        buf += s.slice(i + 10, end);
        i = end + 11;
        continue;
      }
    } else if (rest.startsWith('<code>')) {
      const end = s.indexOf('</code>', i + 6);
      if (end >= 0) {
        // <verbatim> inside <code> only protects its content
        const value = s.slice(i + 6, end).replace(/<verbatim>([\s\S]*?)<\/verbatim>/g, '$1');
        if (value) node({ type: 'code', value });
        i = end + 7;
        continue;
      }
    } else if (rest.startsWith('<ruby>')) {
      const end = s.indexOf('</ruby>', i + 6);
      if (end >= 0) {
        const inner = s.slice(i + 6, end);
        const bar = inner.indexOf('|');
        if (bar > 0 && bar < inner.length - 1) {
          node({ type: 'ruby', base: inner.slice(0, bar), annotation: inner.slice(bar + 1) });
          i = end + 7;
          continue;
        }
      }
    } else {
      const br = /^<br ?\/?>/.exec(rest);
      if (br) {
        node({ type: 'br' });
        i += br[0].length;
        continue;
      }
      const tag = /^<(\/?)([a-z]+)>/.exec(rest);
      if (tag && STYLE_TAGS.has(tag[2])) {
        flush();
        toks.push({ k: 'tag', name: tag[2], close: tag[1] === '/', raw: tag[0] });
        i += tag[0].length;
        continue;
      }
      const lang = /^<(\/?)\[([a-zA-Z-]+)\]>/.exec(rest);
      if (lang) {
        flush();
        toks.push({ k: 'tag', name: '[' + lang[2] + ']', close: lang[1] === '/', raw: lang[0] });
        i += lang[0].length;
        continue;
      }
    }
    buf += c;
    i++;
  }
  flush();
  return toks;
}

/** Pair openers with closers; unpaired markers become text. */
function pair(toks: Tok[]): void {
  const stack: number[] = [];
  // For the "a delimiter of the same length occurs later" rule.
  const laterEmph = [0, 0, 0, 0];
  for (const t of toks) if (t.k === 'emph') laterEmph[t.len]++;
  const closeTo = (idx: number, closer: number) => {
    // everything opened above idx is left unpaired (literal)
    while (stack.length && stack[stack.length - 1] !== idx) stack.pop();
    stack.pop();
    const o = toks[idx] as { pair?: number; opener?: boolean };
    const c = toks[closer] as { pair?: number; opener?: boolean };
    o.pair = closer;
    o.opener = true;
    c.pair = idx;
    c.opener = false;
  };
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.k === 'emph') {
      laterEmph[t.len]--;
      if (t.canClose) {
        let found = -1;
        for (let s = stack.length - 1; s >= 0; s--) {
          const o = toks[stack[s]];
          if (o.k === 'emph' && o.len === t.len) {
            found = stack[s];
            break;
          }
        }
        if (found >= 0 && found !== i - 1) {
          closeTo(found, i);
          continue;
        }
      }
      if (t.canOpen && laterEmph[t.len] > 0) stack.push(i);
    } else if (t.k === 'tag') {
      if (!t.close) {
        stack.push(i);
        continue;
      }
      for (let s = stack.length - 1; s >= 0; s--) {
        const o = toks[stack[s]];
        if (o.k === 'tag' && o.name === t.name) {
          closeTo(stack[s], i);
          break;
        }
      }
    } else if (t.k === 'dir') {
      let found = -1;
      for (let s = stack.length - 1; s >= 0; s--) {
        if (toks[stack[s]].k === 'dir') {
          found = stack[s];
          break;
        }
      }
      if (found < 0) stack.push(i);
      else if ((toks[found] as { dir: string }).dir !== t.dir) closeTo(found, i);
      else t.drop = true; // repeated marker: ignored
    }
  }
  // open directions are closed at the end of the paragraph
  for (let s = stack.length - 1; s >= 0; s--) {
    const o = toks[stack[s]];
    if (o.k === 'dir') {
      toks.push({ k: 'end' });
      closeTo(stack[s], toks.length - 1);
      break;
    }
  }
}

function build(toks: Tok[]): Inline[] {
  const root: Inline[] = [];
  const stack: { children: Inline[]; tok: Tok }[] = [];
  let cur = root;
  const text = (v: string) => {
    const last = cur[cur.length - 1];
    if (last && last.type === 'text') last.value += v;
    else cur.push({ type: 'text', value: v });
  };
  const pop = () => {
    const frame = stack.pop();
    if (!frame) return;
    const kids = cur;
    cur = frame.children;
    closeNode(frame.tok, kids, cur);
  };
  for (const t of toks) {
    if (t.k === 'text') text(t.v);
    else if (t.k === 'node') cur.push(t.node);
    else if (t.k === 'end') {
      text('\n'); // the reference keeps the paragraph's final newline inside the span
      pop();
    }
    else if (t.k === 'dir' && t.drop) continue;
    else if (t.pair !== undefined) {
      if (t.opener) {
        stack.push({ children: cur, tok: t });
        cur = [];
      } else pop();
    } else text(t.raw);
  }
  return root;
}

function closeNode(tok: Tok, kids: Inline[], out: Inline[]): void {
  if (kids.length === 0) return; // an empty pair vanishes
  if (tok.k === 'emph') {
    if (tok.len === 1) out.push({ type: 'style', style: 'em', children: kids });
    else if (tok.len === 2) out.push({ type: 'style', style: 'strong', children: kids });
    else out.push({ type: 'style', style: 'strong', children: [{ type: 'style', style: 'em', children: kids }] });
  } else if (tok.k === 'tag') {
    if (tok.name.startsWith('[')) out.push({ type: 'lang', lang: tok.name.slice(1, -1).toLowerCase(), children: kids });
    else out.push({ type: 'style', style: tok.name as StyleName, children: kids });
  } else if (tok.k === 'dir') {
    out.push({ type: 'dir', dir: tok.dir, children: kids });
  }
}

export function parseInline(s: string, ctx: InlineContext): Inline[] {
  const toks = tokenize(s, ctx);
  pair(toks);
  return build(toks);
}

/** The tags of a paragraph left without a partner (`<em>` never closed, `</strong>` never opened): printed literally. */
export function unpairedTags(s: string, ctx: InlineContext): string[] {
  const toks = tokenize(s, ctx);
  pair(toks);
  return toks.filter((t): t is Extract<Tok, { k: 'tag' }> => t.k === 'tag' && t.pair === undefined).map((t) => t.raw);
}

/** Plain text of an inline tree (for the TOC, alt texts, PDF metadata). */
export function inlineText(nodes: Inline[]): string {
  let out = '';
  for (const n of nodes) {
    switch (n.type) {
      case 'text':
      case 'code':
        out += n.value;
        break;
      case 'style':
      case 'lang':
      case 'dir':
        out += inlineText(n.children);
        break;
      case 'ruby':
        out += n.base;
        break;
      case 'link':
        out += n.children ? inlineText(n.children) : n.target;
        break;
      case 'br':
        out += ' ';
        break;
      default:
        break;
    }
  }
  return out;
}

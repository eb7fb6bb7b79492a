// Inline Muse markup, following Text::Amuse's Output::manage_regular: tokenize left to right,
// pair runs and tags in the reference's passes, build a tree. Unpaired markers are literal text.
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

// [[:alnum:]] in the reference (Perl, Unicode strings): letters and decimal digits
const ALNUM = /[\p{Alphabetic}\p{Nd}]/u;

function isAlnum(c: string | undefined): boolean {
  return c !== undefined && ALNUM.test(c);
}

const IMAGE_RE = /^([0-9A-Za-z][0-9A-Za-z/-]+\.(?:png|jpe?g))(?:\s+(.*))?$/;
const IMAGE_OPTS_RE = /^(\d+)?\s*([rlf])?\s*(?:a(90|180|270))?$/;
const INTERNAL_RE = /^#([A-Za-z][A-Za-z0-9-]*)$/;
// a bare [[#name]] needs two characters, as in the reference
const SHORT_INTERNAL_RE = /^#([A-Za-z][A-Za-z0-9]+)$/;

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

// --- tokenizer ---------------------------------------------------------------------------------
// One left-to-right scan. At every position the alternatives are tried in the reference's order
// (link, verbatim, <code>, =code=, ruby, <<< >>>, [N], {N}, tags, ~~, * runs, <br>); the earliest
// position where one matches wins, the text before it is a text piece.

type PieceType =
  | 'text'
  | 'link'
  | 'verbatim'
  | 'code'
  | 'ruby'
  | 'bidi'
  | 'fn'
  | 'sfn'
  | 'open'
  | 'close'
  | 'nbsp'
  | 'inline'
  | 'open_inline'
  | 'close_inline'
  | 'br';

interface Piece {
  type: PieceType;
  /** The source text of the piece ('' for markers made up by the pairing passes). */
  str: string;
  /** Tag name for open/close (em, strong, …, [lang], rtl, ltr) and the run for inline (*, **, ***). */
  tag: string;
  /** An explicit tag written in the source (for unpairedTags). */
  written?: boolean;
}

const TAG_RE = /^<(\/?)(strong|em|strike|del|sup|sub|sf|sc|\[[a-z-]+\])>/;
const BR_RE = /^<br *\/?>/;
const FN_AT = /^\[[1-9][0-9]*\]/;
const SFN_AT = /^\{[1-9][0-9]*\}/;
const SPACE_CHAR = /\s/;

/** The piece starting exactly at i (without leading white space), or null. */
function matchAt(s: string, i: number, find: Finder): Piece | null {
  const c = s[i];
  const n = s.length;
  switch (c) {
    case '[': {
      if (s[i + 1] === '[' && i + 2 < n && s[i + 2] !== '[') {
        const end = find(']]', i + 3);
        if (end >= 0) return { type: 'link', str: s.slice(i, end + 2), tag: '' };
      }
      const m = FN_AT.exec(s.slice(i, i + 12));
      return m ? { type: 'fn', str: m[0], tag: '' } : null;
    }
    case '<': {
      if (s.startsWith('<verbatim>', i)) {
        const end = find('</verbatim>', i + 10);
        if (end >= 0) return { type: 'verbatim', str: s.slice(i, end + 11), tag: '' };
      }
      if (s.startsWith('<code>', i)) {
        const end = find('</code>', i + 6);
        if (end >= 0) return { type: 'code', str: s.slice(i, end + 7), tag: '' };
      }
      if (s.startsWith('<ruby>', i)) {
        // <ruby>.+?\|.+?</ruby>: a bar after at least one character, then at least one more
        const bar = find('|', i + 7);
        if (bar >= 0) {
          const end = find('</ruby>', bar + 2);
          if (end >= 0) return { type: 'ruby', str: s.slice(i, end + 7), tag: '' };
        }
      }
      if (s.startsWith('<<<', i)) return { type: 'bidi', str: '<<<', tag: '' };
      const rest = s.slice(i, i + 40);
      const t = TAG_RE.exec(rest);
      if (t) return { type: t[1] ? 'close' : 'open', str: t[0], tag: t[2], written: true };
      const br = BR_RE.exec(rest);
      return br ? { type: 'br', str: br[0], tag: '' } : null;
    }
    case '=': {
      if (i + 1 < n && !SPACE_CHAR.test(s[i + 1]) && !isAlnum(s[i - 1])) {
        const j = find('=code', i + 2);
        if (j >= 0) return { type: 'code', str: s.slice(i, j + 1), tag: '' };
      }
      return null;
    }
    case '>':
      return s.startsWith('>>>', i) ? { type: 'bidi', str: '>>>', tag: '' } : null;
    case '{': {
      const m = SFN_AT.exec(s.slice(i, i + 12));
      return m ? { type: 'sfn', str: m[0], tag: '' } : null;
    }
    case '~':
      return s[i + 1] === '~' ? { type: 'nbsp', str: '~~', tag: '' } : null;
    case '*': {
      const run = s[i + 1] === '*' ? (s[i + 2] === '*' ? '***' : '**') : '*';
      return { type: 'inline', str: run, tag: run };
    }
    default:
      return null;
  }
}

/** First position at or after `from` of a needle ('=code': a `=` that can close code), or -1. */
type Finder = (needle: string, from: number) => number;

/**
 * Searches remember their last answer: the first match at or after `from` is also the first at
 * or after any later start up to it, so unclosed openers do not rescan the paragraph (linear).
 */
function finder(s: string): Finder {
  const memo = new Map<string, { from: number; at: number }>();
  return (needle, from) => {
    const m = memo.get(needle);
    if (m && from >= m.from && (m.at < 0 || from <= m.at)) return m.at;
    let at: number;
    if (needle === '=code') {
      at = s.indexOf('=', from);
      while (at >= 0 && (SPACE_CHAR.test(s[at - 1]) || isAlnum(s[at + 1]))) at = s.indexOf('=', at + 1);
    } else at = s.indexOf(needle, from);
    memo.set(needle, { from, at });
    return at;
  };
}

// white space matters only before a note reference or a <br>
// (a run is matched from its start only, so long runs stay linear)
const CANDIDATE = /[[<={~*>]|(?<!\s)\s+(?=[[{<])/g;

function tokenize(s: string): Piece[] {
  const out: Piece[] = [];
  const find = finder(s);
  let textStart = 0;
  let i = 0;
  const n = s.length;
  const emit = (at: number, p: Piece) => {
    if (at > textStart) out.push({ type: 'text', str: s.slice(textStart, at), tag: '' });
    out.push(p);
    i = at + p.str.length;
    textStart = i;
  };
  while (i < n) {
    CANDIDATE.lastIndex = i;
    const m = CANDIDATE.exec(s);
    if (!m) break;
    i = m.index;
    if (SPACE_CHAR.test(s[i])) {
      // white space only starts a note reference ("\s*[N]") or a line break (" *<br>")
      let q = i;
      while (q < n && SPACE_CHAR.test(s[q])) q++;
      const fn = s[q] === '[' ? FN_AT.exec(s.slice(q, q + 12)) : s[q] === '{' ? SFN_AT.exec(s.slice(q, q + 12)) : null;
      if (fn) {
        emit(i, { type: s[q] === '[' ? 'fn' : 'sfn', str: s.slice(i, q) + fn[0], tag: '' });
        continue;
      }
      if (s[q] === '<') {
        const br = BR_RE.exec(s.slice(q, q + 8));
        if (br) {
          let k = q;
          while (k > i && s[k - 1] === ' ') k--;
          emit(k, { type: 'br', str: s.slice(k, q) + br[0], tag: '' });
          continue;
        }
      }
      i = q;
      continue;
    }
    const p = matchAt(s, i, find);
    if (p) emit(i, p);
    else i++;
  }
  // the reference always ends with a text piece, even an empty one: the last run has a next piece
  out.push({ type: 'text', str: s.slice(textStart), tag: '' });
  return out;
}

// --- pairing -----------------------------------------------------------------------------------

const endsAlnum = (s: string) => s.length > 0 && isAlnum(s[s.length - 1]);
const startsAlnum = (s: string) => s.length > 0 && isAlnum(s[0]);
const endsNonSpace = (s: string) => s.length > 0 && !SPACE_CHAR.test(s[s.length - 1]);
const startsNonSpace = (s: string) => s.length > 0 && !SPACE_CHAR.test(s[0]);
const endsNonAlnum = (s: string) => s.length > 0 && !isAlnum(s[s.length - 1]);

function marker(type: 'open' | 'close', tag: string): Piece {
  return { type, str: '', tag };
}

/** Counts, for every position, how many of the pieces after it satisfy `pred`, by tag. */
function laterCounter(pieces: Piece[], pred: (p: Piece) => boolean): { has: (i: number, tag: string) => boolean } {
  // suffix counts as a per-tag list of positions, consumed from the front
  const positions = new Map<string, number[]>();
  pieces.forEach((p, k) => {
    if (!pred(p)) return;
    const list = positions.get(p.tag);
    if (list) list.push(k);
    else positions.set(p.tag, [k]);
  });
  const cursor = new Map<string, number>();
  return {
    has(i, tag) {
      const list = positions.get(tag);
      if (!list) return false;
      let c = cursor.get(tag) ?? 0;
      while (c < list.length && list[c] <= i) c++;
      cursor.set(tag, c);
      return c < list.length;
    },
  };
}

/**
 * The reference's passes over the pieces of one paragraph: direction markers become open/close
 * pairs (closed at the end); `*` runs between two letters are text; a run opens when it can be
 * closed later and closes the innermost open run of the same length; unmatched runs and tags are
 * text; tags still open at the end of the paragraph are closed there; an empty pair vanishes.
 */
function pair(input: Piece[]): Piece[] {
  // directions
  let pieces: Piece[] = [];
  let dir = '';
  for (const p of input) {
    if (p.type !== 'bidi') {
      pieces.push(p);
      continue;
    }
    const d = p.str === '<<<' ? 'rtl' : 'ltr';
    if (!dir) {
      dir = d;
      pieces.push(marker('open', d));
    } else if (dir !== d) {
      pieces.push(marker('close', dir));
      dir = '';
    } // the same direction twice: ignored
  }
  if (dir) pieces.push(marker('close', dir));

  // a run between two alphanumerics is text
  for (let i = 1; i < pieces.length - 1; i++) {
    const p = pieces[i];
    if (p.type === 'inline' && endsAlnum(pieces[i - 1].str) && startsAlnum(pieces[i + 1].str)) {
      p.type = 'text';
      p.tag = '';
    }
  }

  // open or close the runs
  const laterInline = laterCounter(pieces, (p) => p.type === 'inline');
  const marked: Piece[] = [];
  const tracking: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (p.type === 'inline') {
      const prev = marked[marked.length - 1];
      const next = pieces[i + 1];
      const top = tracking[tracking.length - 1];
      let done = false;
      if (!prev) {
        if (next && laterInline.has(i, p.tag) && startsNonSpace(next.str)) {
          p.type = 'open_inline';
          tracking.push(p.tag);
          done = true;
        }
      } else if (!next) {
        if (top === p.tag && endsNonSpace(prev.str)) {
          p.type = 'close_inline';
          tracking.pop();
          done = true;
        }
      } else if (top === p.tag && endsNonSpace(prev.str)) {
        if (prev.type !== 'open_inline') {
          p.type = 'close_inline';
          tracking.pop();
          done = true;
        }
      } else if (startsNonSpace(next.str) && endsNonAlnum(prev.str) && laterInline.has(i, p.tag)) {
        p.type = 'open_inline';
        tracking.push(p.tag);
        done = true;
      }
      if (!done) p.type = 'text';
    }
    marked.push(p);
  }

  // runs to tags, when they match
  const UNROLL: Record<string, string[]> = { '*': ['em'], '**': ['strong'], '***': ['strong', 'em'] };
  const laterClose = laterCounter(marked, (p) => p.type === 'close_inline');
  const unrolled: Piece[] = [];
  tracking.length = 0;
  for (let i = 0; i < marked.length; i++) {
    const p = marked[i];
    if (p.type === 'open_inline') {
      if (laterClose.has(i, p.tag)) {
        tracking.push(p.tag);
        for (const t of UNROLL[p.tag]) unrolled.push(marker('open', t));
        continue;
      }
      p.type = 'text';
    } else if (p.type === 'close_inline') {
      if (tracking.length && tracking[tracking.length - 1] === p.tag) {
        tracking.pop();
        for (const t of [...UNROLL[p.tag]].reverse()) unrolled.push(marker('close', t));
        continue;
      }
      p.type = 'text';
    }
    unrolled.push(p);
  }

  // tags: an opening needs a closing later; a closing must close the innermost open tag
  const laterTagClose = laterCounter(unrolled, (p) => p.type === 'close');
  const out: Piece[] = [];
  const pile: string[] = [];
  for (let i = 0; i < unrolled.length; i++) {
    const p = unrolled[i];
    if (p.type === 'open') {
      if (laterTagClose.has(i, p.tag)) pile.push(p.tag);
      else p.type = 'text';
    } else if (p.type === 'close') {
      if (pile.length && pile[pile.length - 1] === p.tag) {
        pile.pop();
        const last = out[out.length - 1];
        if (last && last.type === 'open' && last.tag === p.tag) {
          out.pop();
          continue;
        }
      } else p.type = 'text';
    }
    out.push(p);
  }
  while (pile.length) out.push(marker('close', pile.pop()!));
  pieces = out;
  return pieces;
}

// --- tree --------------------------------------------------------------------------------------

const STYLE_TAGS = new Set(['em', 'strong', 'strike', 'del', 'sup', 'sub', 'sf', 'sc']);
const LINK_DESC_RE = /^\[\[\s*(.+?)\s*\]\[\s*(.+?)\s*\]\]$/s;
const LINK_SINGLE_RE = /\[\[\s*(.+?)\s*\]\]/s;
const RUBY_RE = /^<ruby>\s*(.+?)\s*\|\s*(.+?)\s*<\/ruby>$/;

function makeLink(raw: string, ctx: InlineContext): Inline[] {
  const sub = { ...ctx, links: false };
  const d = LINK_DESC_RE.exec(raw);
  if (d) {
    const [, target, desc] = d;
    const img = parseImageTarget(target);
    if (img) {
      ctx.onImage?.(img.src);
      return [{ type: 'image', image: { ...img, caption: parseInline(desc, sub) } }];
    }
    const internal = INTERNAL_RE.exec(target);
    return [{ type: 'link', target: internal ? internal[1] : target, internal: !!internal, children: parseInline(desc, sub) }];
  }
  const m = LINK_SINGLE_RE.exec(raw);
  if (!m) return [{ type: 'text', value: raw }];
  const target = m[1];
  const img = parseImageTarget(target);
  if (img) {
    ctx.onImage?.(img.src);
    return [{ type: 'image', image: { ...img, caption: null } }];
  }
  const short = SHORT_INTERNAL_RE.exec(target);
  if (short) return [{ type: 'link', target: short[1], internal: true, children: [{ type: 'text', value: short[1] }] }];
  return [{ type: 'link', target, internal: false, children: null }];
}

function codeValue(str: string): string {
  if (str.startsWith('=')) return str.slice(1, -1);
  const inner = str.slice(6, -7);
  const v = /^<verbatim>([\s\S]*)<\/verbatim>$/.exec(inner);
  return v ? v[1] : inner;
}

function build(pieces: Piece[], ctx: InlineContext): Inline[] {
  const root: Inline[] = [];
  const stack: { children: Inline[]; tag: string }[] = [];
  let cur = root;
  const text = (v: string) => {
    if (!v) return;
    const last = cur[cur.length - 1];
    if (last && last.type === 'text') last.value += v;
    else cur.push({ type: 'text', value: v });
  };
  for (const p of pieces) {
    switch (p.type) {
      case 'open':
        stack.push({ children: cur, tag: p.tag });
        cur = [];
        break;
      case 'close': {
        const frame = stack.pop();
        if (!frame) break;
        const kids = cur;
        cur = frame.children;
        const t = frame.tag;
        if (t === 'rtl' || t === 'ltr') cur.push({ type: 'dir', dir: t, children: kids });
        else if (t.startsWith('[')) cur.push({ type: 'lang', lang: t.slice(1, -1), children: kids });
        else if (STYLE_TAGS.has(t)) cur.push({ type: 'style', style: t as StyleName, children: kids });
        else cur.push(...kids);
        break;
      }
      case 'link':
        if (ctx.links) cur.push(...makeLink(p.str, ctx));
        else text(p.str);
        break;
      case 'fn':
      case 'sfn': {
        const secondary = p.type === 'sfn';
        const num = +/[0-9]+/.exec(p.str)![0];
        const ok = secondary ? ctx.secondaryRefs && ctx.hasSecondary(num) : ctx.primaryRefs && ctx.hasPrimary(num);
        if (ok) {
          text(/^\s*/.exec(p.str)![0]);
          cur.push({ type: 'fnref', secondary, n: num });
        } else text(p.str);
        break;
      }
      case 'verbatim':
        text(p.str.slice(10, -11));
        break;
      case 'code': {
        const value = codeValue(p.str);
        if (value) cur.push({ type: 'code', value });
        break;
      }
      case 'ruby': {
        const m = RUBY_RE.exec(p.str);
        if (m) cur.push({ type: 'ruby', base: m[1], annotation: m[2] });
        else text(p.str);
        break;
      }
      case 'nbsp':
        text('\u00a0');
        break;
      case 'br':
        text(/^ */.exec(p.str)![0]);
        cur.push({ type: 'br' });
        break;
      default:
        text(p.str);
    }
  }
  return root;
}

const BIGSKIP_RE = /^\s*<br *\/*>\s*$/;

export function parseInline(s: string, ctx: InlineContext): Inline[] {
  if (!s) return [];
  if (BIGSKIP_RE.test(s)) return [{ type: 'br' }];
  return build(pair(tokenize(s)), ctx);
}

/** The tags of a paragraph left without a partner (`<em>` never closed, `</strong>` never opened): printed literally. */
export function unpairedTags(s: string, _ctx?: InlineContext): string[] {
  return pair(tokenize(s))
    .filter((p) => p.written && p.type === 'text')
    .map((p) => p.str);
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

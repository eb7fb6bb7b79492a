// Block-level Muse parser: header, line classification, packing, lists, block tree.
import type { Block, Footnote, Inline, ListItem, ListStyle, MuseDocument, TableCell, Align } from './types.ts';
import { parseInline, type InlineContext } from './inline.ts';

type BlockTag = 'quote' | 'center' | 'right' | 'biblio' | 'play';
type Indented = '' | 'quote' | 'center' | 'right';

interface ListInfo {
  kind: 'ul' | 'ol' | 'dl';
  style?: ListStyle;
  index: number;
  term?: string;
}

interface El {
  t:
    | 'null'
    | 'anchor'
    | 'start'
    | 'stop'
    | 'dir'
    | 'lang'
    | 'langstop'
    | 'heading'
    | 'vline'
    | 'table'
    | 'comment'
    | 'fn'
    | 'sfn'
    | 'pagebreak'
    | 'li'
    | 'regular'
    | 'example'
    | 'verse'
    | 'commentblock';
  text: string;
  indent: number;
  block: Indented;
  anchors: string[];
  name?: string;
  level?: number;
  list?: ListInfo;
  paras?: string[];
  lines?: string[];
  n?: number;
  /** Raw line, for list items that turn out not to start a list. */
  raw?: string;
}

const BLOCK_NAMES = 'biblio|play|comment|verse|center|right|example|quote';
const START_RE = new RegExp(`^<(${BLOCK_NAMES})>$`);
const STOP_RE = new RegExp(`^</(${BLOCK_NAMES})>$`);
const ANCHOR_RE = /^( *)#([A-Za-z][A-Za-z0-9-]+)(?: +(.*))?$/;
const LANG_RE = /^<(\/?)\[([a-zA-Z-]+)\]>$/;
const HEADING_RE = /^(\*{1,5}) (.*\S.*)$/;
const VLINE_RE = /^>(?: (.*))?$/;
const COMMENT_RE = /^;(?: +(.*))?$/;
const FN_RE = /^\[([1-9][0-9]*)\]( +)(\S.*)$/;
const SFN_RE = /^\{([1-9][0-9]*)\}( +)(\S.*)$/;
const PAGEBREAK_RE = /^ {6,}\* ?\* ?\* ?\* ?\*$/;
const DL_RE = /^( +)(\S.*?) +:: ?(.*)$/;
const UL_RE = /^( +)- +(\S.*)$/;
const OL_RE = /^( +)([0-9]+|[a-zA-Z]|[ixvl]+|[IXVL]+)\. +(\S.*)$/;

// --- preprocessing and header -------------------------------------------------------------

export function normalizeLines(src: string): string[] {
  let s = src.replace(/\r\n?/g, '\n').replace(/\t/g, '    ');
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  const lines = s.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.endsWith(' ')) lines[i] = l.replace(/ +$/, '');
  }
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const DIRECTIVE_RE = /^#([A-Za-z0-9_-]+)(?:\s+(.*))?$/;

export function splitHeader(lines: string[]): { header: Record<string, string>; body: string[] } {
  const header: Record<string, string> = {};
  let last: string | null = null;
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*$/.test(line)) {
      last = null;
      continue;
    }
    const m = DIRECTIVE_RE.exec(line);
    if (m) {
      const name = m[1].replace(/[_-]/g, '');
      last = name || null;
      if (name) header[name] = m[2] ?? '';
      continue;
    }
    if (last !== null) {
      header[last] += '\n' + line;
      continue;
    }
    break;
  }
  for (const k of Object.keys(header)) header[k] = header[k].replace(/\s+/g, ' ').trim();
  return { header, body: lines.slice(i) };
}

// --- list marks ------------------------------------------------------------------------------

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50 };

function romanValue(s: string): number {
  const t = s.toLowerCase();
  let total = 0;
  for (let i = 0; i < t.length; i++) {
    const v = ROMAN[t[i]];
    const next = ROMAN[t[i + 1]] ?? 0;
    total += v < next ? -v : v;
  }
  return toRoman(total) === t ? total : 0;
}

function toRoman(n: number): string {
  if (n <= 0 || n >= 90) return '';
  const parts: [number, string][] = [
    [50, 'l'],
    [40, 'xl'],
    [10, 'x'],
    [9, 'ix'],
    [5, 'v'],
    [4, 'iv'],
    [1, 'i'],
  ];
  let out = '';
  for (const [v, r] of parts)
    while (n >= v) {
      out += r;
      n -= v;
    }
  return out;
}

function markInfo(mark: string): { style: ListStyle; index: number; alpha?: number } | null {
  if (/^[0-9]+$/.test(mark)) {
    const v = parseInt(mark, 10);
    return v >= 1 && v <= 200 ? { style: '1', index: v } : null;
  }
  const alpha = mark.length === 1 ? mark.toLowerCase().charCodeAt(0) - 96 : undefined;
  if (/^[ixvl]+$/.test(mark)) {
    const v = romanValue(mark);
    return v ? { style: 'i', index: v, alpha } : null;
  }
  if (/^[IXVL]+$/.test(mark)) {
    const v = romanValue(mark);
    return v ? { style: 'I', index: v, alpha } : null;
  }
  if (/^[a-z]$/.test(mark)) return { style: 'a', index: alpha! };
  if (/^[A-Z]$/.test(mark)) return { style: 'A', index: alpha! };
  return null;
}

// --- classification --------------------------------------------------------------------------

function leading(s: string): number {
  let i = 0;
  while (s.charCodeAt(i) === 32) i++;
  return i;
}

function indentedBlock(lead: number): Indented {
  if (lead >= 20) return 'right';
  if (lead >= 6) return 'center';
  if (lead >= 2) return 'quote';
  return '';
}

function el(t: El['t'], text = '', extra: Partial<El> = {}): El {
  return { t, text, indent: 0, block: '', anchors: [], ...extra };
}

function regular(line: string): El {
  const lead = leading(line);
  return el('regular', line.slice(lead), { indent: lead, block: indentedBlock(lead) });
}

function classify(line: string): El {
  if (/^[ \t]*$/.test(line)) return el('null');
  let m = START_RE.exec(line);
  if (m) return el('start', '', { name: m[1] });
  if (line === '<<<' || line === '>>>') return el('dir', '', { name: line === '<<<' ? 'rtl' : 'ltr' });
  m = LANG_RE.exec(line);
  if (m) return el(m[1] ? 'langstop' : 'lang', '', { name: m[2].toLowerCase() });
  m = STOP_RE.exec(line);
  if (m) return el('stop', '', { name: m[1] });
  m = HEADING_RE.exec(line);
  if (m) return el('heading', m[2], { level: m[1].length });
  m = VLINE_RE.exec(line);
  if (m) return el('vline', '', { lines: [m[1] ?? ''] });
  if ((line.charCodeAt(0) === 32 && line.includes('|')) || /^\|+[ +]/.test(line)) {
    return el('table', '', { lines: [line] });
  }
  m = COMMENT_RE.exec(line);
  if (m) return el('comment', m[1] ?? '');
  m = FN_RE.exec(line);
  if (m) return el('fn', '', { n: +m[1], paras: [m[3]], indent: m[1].length + 2 + m[2].length });
  m = SFN_RE.exec(line);
  if (m) return el('sfn', '', { n: +m[1], paras: [m[3]], indent: m[1].length + 2 + m[2].length });
  if (PAGEBREAK_RE.test(line)) return el('pagebreak');
  m = DL_RE.exec(line);
  if (m) {
    return el('li', m[3], { indent: m[1].length + 2, list: { kind: 'dl', index: 0, term: m[2] }, raw: line });
  }
  m = UL_RE.exec(line);
  if (m) return el('li', m[2], { indent: m[1].length + 2, list: { kind: 'ul', index: 0 }, raw: line });
  m = OL_RE.exec(line);
  if (m) {
    const info = markInfo(m[2]);
    if (info) {
      return el('li', m[3], {
        indent: m[1].length + 2,
        list: { kind: 'ol', style: info.style, index: info.index, term: info.alpha ? String(info.alpha) : undefined },
        raw: line,
      });
    }
  }
  return regular(line);
}

// --- phase A: lines to packed elements -------------------------------------------------------

function stripAnchor(line: string): { anchors: string[]; line: string; only: boolean } {
  const anchors: string[] = [];
  let m = ANCHOR_RE.exec(line);
  while (m) {
    anchors.push(m[2]);
    line = m[1] + (m[3] ?? '');
    if (m[3] === undefined) return { anchors, line: '', only: true };
    m = ANCHOR_RE.exec(line);
    // one anchor per line, as the reference does
    break;
  }
  return { anchors, line, only: false };
}

const STRUCTURAL = new Set<El['t']>(['start', 'stop', 'dir', 'lang', 'langstop']);
const CAN_ABSORB = new Set<El['t']>(['regular', 'heading', 'li', 'fn', 'sfn']);

function kindaEqual(a: number, b: number): boolean {
  return a === b || (a > 0 && b > 0 && Math.abs(a - b) <= 1);
}

function packLines(lines: string[]): El[] {
  const out: El[] = [];
  let pending: string[] = [];
  let prevBlank = true;
  let lastReal = null as El | null; // last non-null element (for anchors and footnote paragraphs)
  const push = (e: El) => {
    if (pending.length) {
      e.anchors.push(...pending);
      pending = [];
    }
    out.push(e);
    lastReal = e;
    prevBlank = false;
  };
  const n = lines.length;
  for (let i = 0; i < n; i++) {
    const rawLine = lines[i];
    // greedy literal blocks first: anchors inside them stay literal
    if (rawLine === '<example>' || rawLine === '{{{') {
      const stop = rawLine === '<example>' ? '</example>' : '}}}';
      const body: string[] = [];
      let j = i + 1;
      while (j < n && lines[j] !== stop) body.push(lines[j++]);
      i = j;
      push(el('example', body.join('\n')));
      continue;
    }
    const a = stripAnchor(rawLine);
    if (a.only) {
      if (!prevBlank && lastReal && !STRUCTURAL.has(lastReal.t)) lastReal.anchors.push(...a.anchors);
      else pending.push(...a.anchors);
      continue;
    }
    const line = a.line;
    const e = classify(line);
    e.anchors.push(...a.anchors);
    if (e.t === 'start' && (e.name === 'verse' || e.name === 'comment')) {
      const isVerse = e.name === 'verse';
      const stop = `</${e.name}>`;
      const body: string[] = [];
      const anchors: string[] = [...e.anchors];
      let j = i + 1;
      for (; j < n; j++) {
        const l = lines[j];
        if (l === stop) break;
        if (START_RE.test(l) || l === '{{{') {
          if (!isVerse && l === '<comment>') continue; // nested comment: ignored
          j--; // not consumed
          break;
        }
        const s = stripAnchor(l);
        if (isVerse) anchors.push(...s.anchors);
        const cm = COMMENT_RE.exec(s.line);
        if (cm) {
          if (!isVerse) body.push(cm[1] ?? '');
          continue;
        }
        body.push(s.line);
      }
      i = j;
      if (isVerse) {
        const v = el('verse', '', { lines: body });
        v.anchors = anchors;
        push(v);
      } else push(el('commentblock', body.join('\n')));
      continue;
    }
    if (e.t === 'null') {
      prevBlank = true;
      if (out.length && out[out.length - 1].t !== 'null') out.push(e);
      continue;
    }
    const last = out[out.length - 1];
    if (!prevBlank && last) {
      if (e.t === 'regular' && CAN_ABSORB.has(last.t)) {
        appendText(last, line);
        last.anchors.push(...e.anchors);
        continue;
      }
      if (e.t === 'li' && (last.t === 'fn' || last.t === 'sfn')) {
        appendText(last, line);
        last.anchors.push(...e.anchors);
        continue;
      }
      if ((e.t === 'table' && last.t === 'table') || (e.t === 'vline' && last.t === 'vline')) {
        last.lines!.push(...e.lines!);
        last.anchors.push(...e.anchors);
        continue;
      }
    }
    // a paragraph after a blank line, indented like a footnote's text, continues the note
    if (
      prevBlank &&
      e.t === 'regular' &&
      lastReal &&
      (lastReal.t === 'fn' || lastReal.t === 'sfn') &&
      e.indent > 0 &&
      kindaEqual(e.indent, lastReal.indent)
    ) {
      if (out[out.length - 1].t === 'null') out.pop();
      lastReal.paras!.push(e.text);
      lastReal.anchors.push(...e.anchors);
      prevBlank = false;
      continue;
    }
    push(e);
  }
  if (pending.length) out.push(el('anchor', '', { anchors: pending }));
  return out;
}

function appendText(target: El, line: string): void {
  if (target.paras) target.paras[target.paras.length - 1] += '\n' + line;
  else target.text += '\n' + line.replace(/^ +/, '');
}

// --- phase B: lists --------------------------------------------------------------------------

type Ev =
  | { ev: 'el'; el: El; inList: boolean }
  | { ev: 'listopen'; kind: 'ul' | 'ol' | 'dl'; style?: ListStyle; start?: number }
  | { ev: 'listclose' }
  | { ev: 'item'; term?: string }
  | { ev: 'itemclose' };

interface PileEntry {
  indent: number;
  kind: 'ul' | 'ol' | 'dl';
  style?: ListStyle;
  lastIndex: number;
}

function sameKind(p: PileEntry, l: ListInfo): boolean {
  return p.kind === l.kind && p.style === l.style;
}

function processLists(els: El[]): Ev[] {
  const out: Ev[] = [];
  const pile: PileEntry[] = [];
  const closeTop = () => {
    pile.pop();
    out.push({ ev: 'itemclose' }, { ev: 'listclose' });
  };
  const closeAll = () => {
    while (pile.length) closeTop();
  };
  const open = (e: El) => {
    const l = e.list!;
    pile.push({ indent: e.indent, kind: l.kind, style: l.style, lastIndex: l.index });
    out.push({
      ev: 'listopen',
      kind: l.kind,
      style: l.style,
      start: l.kind === 'ol' && l.index > 1 ? l.index : undefined,
    });
    out.push({ ev: 'item', term: l.term && l.kind === 'dl' ? l.term : undefined });
    out.push({ ev: 'el', el: e, inList: true });
  };
  for (const e of els) {
    if (e.t === 'null') continue;
    if (e.t !== 'regular' && e.t !== 'li') {
      closeAll();
      out.push({ ev: 'el', el: e, inList: false });
      continue;
    }
    if (e.t === 'regular') {
      if (!pile.length) {
        out.push({ ev: 'el', el: e, inList: false });
        continue;
      }
      while (pile.length && e.indent < pile[pile.length - 1].indent && !kindaEqual(e.indent, pile[pile.length - 1].indent))
        closeTop();
      out.push({ ev: 'el', el: e, inList: pile.length > 0 });
      continue;
    }
    // list item
    const l = e.list!;
    if (!pile.length) {
      if (l.kind !== 'dl' && e.indent > 8) {
        out.push({ ev: 'el', el: regular(e.raw!), inList: false });
        continue;
      }
      open(e);
      continue;
    }
    while (pile.length && e.indent < pile[pile.length - 1].indent && !kindaEqual(e.indent, pile[pile.length - 1].indent))
      closeTop();
    const top = pile[pile.length - 1];
    if (!top) {
      open(e);
      continue;
    }
    if (kindaEqual(e.indent, top.indent)) {
      // a single letter that reads as roman may continue an alphabetic list
      if (l.kind === 'ol' && (l.style === 'i' || l.style === 'I') && l.term && top.kind === 'ol') {
        const alphaStyle = l.style === 'i' ? 'a' : 'A';
        if (top.style === alphaStyle && +l.term === top.lastIndex + 1) {
          l.style = alphaStyle;
          l.index = +l.term;
        }
      }
      const progressive = l.index <= 1 || l.index === top.lastIndex + 1;
      if (sameKind(top, l) && (l.kind !== 'ol' || progressive)) {
        top.lastIndex = l.index;
        top.indent = e.indent; // right-aligned marks drift: compare with the latest item
        out.push({ ev: 'itemclose' }, { ev: 'item', term: l.kind === 'dl' ? l.term : undefined });
        out.push({ ev: 'el', el: e, inList: true });
      } else {
        closeTop();
        open(e);
      }
      continue;
    }
    open(e); // deeper: nested list
  }
  closeAll();
  return out;
}

// --- phase C: tree ---------------------------------------------------------------------------

interface Frame {
  kind: 'root' | 'tag' | 'dir' | 'lang' | 'list' | 'item';
  name?: string;
  children: Block[];
  list?: Extract<Block, { type: 'list' }>;
  item?: ListItem;
}

const TABLE_CAPTION_RE = /^\s*\|\+\s*(.*?)\s*\+\|\s*$/;
const SPEC_CELL_RE = /^\s*(:?)-+(?:\s*(\d+)\s*-+)?(:?)\s*$/;

export function parseMuse(source: string): MuseDocument {
  const { header, body } = splitHeader(normalizeLines(source ?? ''));
  const els = packLines(body);
  const primary = new Map<number, El>();
  const secondary = new Map<number, El>();
  for (const e of els) {
    if (e.t === 'fn') primary.set(e.n!, e);
    else if (e.t === 'sfn') secondary.set(e.n!, e);
  }
  const attachments: string[] = [];
  const seen = new Set<string>();
  const onImage = (src: string) => {
    if (!seen.has(src)) {
      seen.add(src);
      attachments.push(src);
    }
  };
  const bodyCtx: InlineContext = {
    primaryRefs: true,
    secondaryRefs: true,
    links: true,
    hasPrimary: (n) => primary.has(n),
    hasSecondary: (n) => secondary.has(n),
    onImage,
  };
  const headingCtx: InlineContext = { ...bodyCtx, links: false };
  const inl = (s: string, ctx: InlineContext = bodyCtx): Inline[] => parseInline(s, ctx);

  const root: Frame = { kind: 'root', children: [] };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1];
  const add = (b: Block) => top().children.push(b);
  const closeTags = (all: boolean) => {
    while (stack.length > 1) {
      const f = top();
      if (f.kind === 'list' || f.kind === 'item') break;
      if (!all && f.kind !== 'tag') break;
      stack.pop();
    }
  };
  const bareAnchors = (anchors: string[]) => {
    if (anchors.length) add({ type: 'anchors', names: anchors });
  };
  let tocCount = 0;

  for (const ev of processLists(els)) {
    if (ev.ev === 'listopen') {
      const list: Extract<Block, { type: 'list' }> = { type: 'list', kind: ev.kind, items: [] };
      if (ev.style && ev.kind === 'ol') list.style = ev.style;
      if (ev.start !== undefined) list.start = ev.start;
      add(list);
      stack.push({ kind: 'list', children: [], list });
      continue;
    }
    if (ev.ev === 'item') {
      const f = top();
      const item: ListItem = { children: [] };
      if (ev.term !== undefined) item.term = inl(ev.term);
      f.list!.items.push(item);
      stack.push({ kind: 'item', children: item.children, item });
      continue;
    }
    if (ev.ev === 'itemclose' || ev.ev === 'listclose') {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const e = ev.el;
    switch (e.t) {
      case 'regular':
      case 'li': {
        const text = e.text;
        const para: Block = { type: 'paragraph', anchors: e.anchors, children: inl(text) };
        if (ev.inList || e.t === 'li') {
          add(para);
        } else if (e.block) {
          add({ type: 'container', kind: e.block, children: [para] });
        } else if (/^-{4,}$/.test(text) && !e.anchors.length) {
          add({ type: 'rule' });
        } else add(para);
        break;
      }
      case 'heading': {
        closeTags(true);
        let printed = e.text;
        let short: string | null = null;
        const m = /^(.*?)\s+\|\s+([\s\S]*\S[\s\S]*)$/s.exec(e.text);
        if (m) {
          short = m[1].trim();
          printed = m[2];
        }
        printed = printed.trim();
        const children = inl(printed, headingCtx);
        const level = e.level as 1 | 2 | 3 | 4 | 5;
        if (level <= 4) tocCount++;
        add({
          type: 'heading',
          level,
          anchors: e.anchors,
          children,
          tocChildren: short ? inl(short, headingCtx) : null,
        });
        break;
      }
      case 'pagebreak':
        closeTags(true);
        bareAnchors(e.anchors);
        add({ type: 'pagebreak' });
        break;
      case 'example':
        closeTags(false);
        add({ type: 'example', anchors: e.anchors, text: e.text });
        break;
      case 'verse':
      case 'vline': {
        closeTags(false);
        const lines: (Inline[] | null)[] = [];
        const src = e.lines!;
        let a = 0;
        let b = src.length;
        while (a < b && /^\s*$/.test(src[a])) a++;
        while (b > a && /^\s*$/.test(src[b - 1])) b--;
        for (let k = a; k < b; k++) {
          const l = src[k];
          if (/^\s*$/.test(l)) lines.push(null);
          else {
            const lead = leading(l);
            lines.push(inl('\u00a0'.repeat(lead) + l.slice(lead).replace(/\s*<br ?\/?>$/, '')));
          }
        }
        add({ type: 'verse', anchors: e.anchors, lines });
        break;
      }
      case 'table':
        closeTags(false);
        add(buildTable(e, inl));
        break;
      case 'comment':
        add({ type: 'comment', text: e.text, inline: true });
        break;
      case 'commentblock':
        add({ type: 'comment', text: e.text, inline: false });
        break;
      case 'start': {
        bareAnchors(e.anchors);
        if (e.name === 'example' || e.name === 'verse' || e.name === 'comment') break;
        const container: Block = { type: 'container', kind: e.name as BlockTag, children: [] };
        add(container);
        stack.push({ kind: 'tag', name: e.name, children: container.children });
        break;
      }
      case 'stop': {
        bareAnchors(e.anchors);
        const f = top();
        if (f.kind === 'tag' && f.name === e.name) stack.pop();
        break;
      }
      case 'lang': {
        bareAnchors(e.anchors);
        const b: Block = { type: 'language', lang: e.name!, children: [] };
        add(b);
        stack.push({ kind: 'lang', name: e.name, children: b.children });
        break;
      }
      case 'langstop': {
        bareAnchors(e.anchors);
        for (let k = stack.length - 1; k > 0; k--) {
          const f = stack[k];
          if (f.kind === 'lang') {
            if (f.name === e.name) stack.length = k;
            break;
          }
          if (f.kind !== 'tag') break;
        }
        break;
      }
      case 'dir': {
        bareAnchors(e.anchors);
        let k = stack.length - 1;
        while (k > 0 && stack[k].kind !== 'dir') k--;
        if (k > 0) {
          if (stack[k].name !== e.name) stack.length = k;
        } else {
          const b: Block = { type: 'direction', dir: e.name as 'rtl' | 'ltr', children: [] };
          add(b);
          stack.push({ kind: 'dir', name: e.name, children: b.children });
        }
        break;
      }
      case 'anchor':
        bareAnchors(e.anchors);
        break;
      default:
        break; // footnotes are stored apart
    }
  }

  const footnotes = new Map<number, Footnote>();
  const secondaryFootnotes = new Map<number, Footnote>();
  const fnCtx: InlineContext = { ...bodyCtx, primaryRefs: false };
  const sfnCtx: InlineContext = { ...bodyCtx, primaryRefs: false, secondaryRefs: false };
  for (const [n, e] of primary) {
    footnotes.set(n, { n, secondary: false, anchors: e.anchors, paragraphs: e.paras!.map((p) => inl(p, fnCtx)) });
  }
  for (const [n, e] of secondary) {
    secondaryFootnotes.set(n, { n, secondary: true, anchors: e.anchors, paragraphs: e.paras!.map((p) => inl(p, sfnCtx)) });
  }
  const lang = (header.lang ?? header.language ?? '').toLowerCase();
  return { header, body: root.children, footnotes, secondaryFootnotes, lang, attachments };
}

function splitRow(row: string): { cells: string[]; sep: number } {
  let sep = 1;
  if (row.includes('|||')) sep = 3;
  else if (row.includes('||')) sep = 2;
  const cells = row.split('|'.repeat(sep));
  while (cells.length > 1 && cells[cells.length - 1].trim() === '') cells.pop();
  return { cells, sep };
}

function buildTable(e: El, inl: (s: string) => Inline[]): Block {
  let caption: Inline[] | null = null;
  const rows: { cells: string[]; sep: number }[] = [];
  for (const line of e.lines!) {
    const cm = TABLE_CAPTION_RE.exec(line);
    if (cm) {
      caption = inl(cm[1]);
      continue;
    }
    rows.push(splitRow(line));
  }
  if (rows.length && rows.every((r) => r.cells.length > 1 && r.cells[0].trim() === '')) {
    for (const r of rows) r.cells.shift();
  }
  // GitHub-style alignment row
  let aligns: Align[] | null = null;
  let widths: (number | null)[] | null = null;
  const specIdx = rows.findIndex((r) => r.cells.length > 0 && r.cells.every((c) => SPEC_CELL_RE.test(c) && c.includes('---')));
  if (specIdx >= 0) {
    const spec = rows[specIdx];
    aligns = [];
    widths = [];
    for (const c of spec.cells) {
      const m = SPEC_CELL_RE.exec(c)!;
      aligns.push(m[1] && m[3] ? 'center' : m[1] ? 'left' : m[3] ? 'right' : 'justify');
      const w = m[2] ? parseInt(m[2], 10) : 0;
      widths.push(w > 0 && w <= 100 ? w : null);
    }
    rows.splice(specIdx, 1);
    if (specIdx === 1 && rows[0].sep === 1) rows[0].sep = 2;
  }
  const width = Math.max(0, ...rows.map((r) => r.cells.length));
  const head: TableCell[][] = [];
  const body: TableCell[][] = [];
  const foot: TableCell[][] = [];
  for (const r of rows) {
    const cells: TableCell[] = r.cells.map((c) => ({ children: inl(c) }));
    while (cells.length < width) cells.push({ children: [] });
    (r.sep === 3 ? foot : r.sep === 2 ? head : body).push(cells);
  }
  if (aligns) {
    while (aligns.length < width) {
      aligns.push('justify');
      widths!.push(null);
    }
    aligns.length = width;
    widths!.length = width;
  }
  return { type: 'table', anchors: e.anchors, caption, head, body, foot, aligns, widths };
}

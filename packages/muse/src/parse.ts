// Block-level Muse parser, following Text::Amuse's Document.pm: every body line becomes an element
// (classified in the reference order), lines are packed as they arrive, lists are built from the
// indentation, notes collect their continuation paragraphs, blocks are balanced, then the tree.
import type { Block, Footnote, Inline, ListItem, ListStyle, MuseDocument, TableCell, Align } from './types.ts';
import { parseInline, type InlineContext } from './inline.ts';

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

// --- elements --------------------------------------------------------------------------------
// Every body line becomes an element, classified in the reference's order (Document.pm
// _parse_string). Strings keep their final newline, as in the reference: the inline passes see it.

interface El {
  type: string;
  /** Block name; '' means "the type" (the reference's block accessor falls back to it). */
  block: string;
  string: string;
  indentation: number;
  anchors: string[];
  raw: string;
  rawNoAnchors: string;
  /** '{{{}}}' for the {{{ }}} example, 'X' otherwise: a block closes only with its own style. */
  style: string;
  startIndex: number;
  /** Term of a description-list item. */
  attribute: string;
  fnSymbol: string;
  language: string;
  paras?: string[];
}

function el(fields: Partial<El> & { removed?: string }): El {
  const { removed, ...rest } = fields;
  return {
    type: 'null',
    block: '',
    string: '',
    indentation: removed?.length ?? 0,
    anchors: [],
    raw: '',
    rawNoAnchors: '',
    style: 'X',
    startIndex: 0,
    attribute: '',
    fnSymbol: '',
    language: '',
    ...rest,
  };
}

const blockOf = (e: El) => e.block || e.type;

const ANCHOR_LINE_RE = /^(\s*)(#([A-Za-z][A-Za-z0-9-]+) *)([\s\S]*)$/;
const BLOCK_NAMES = 'biblio|play|comment|verse|center|right|example|quote';
const START_RE = new RegExp(`^<(${BLOCK_NAMES})>\\s*$`);
const STOP_RE = new RegExp(`^</(${BLOCK_NAMES})>\\s*$`);
const BIDI_RE = /^(<<<|>>>)\s*$/;
const LANG_RE = /^<(\/?)\[([a-zA-Z-]+)\]>\s*$/;
const HEADING_RE = /^(\*{1,5}) ([\s\S]+)$/;
const VERSEP_RE = /^> ([\s\S]*)$/;
const COMMENT_RE = /^;(?: +([\s\S]*))?\n?$/;
const FN_RE = /^(\[([1-9][0-9]*)\] +)([\s\S]+)$/;
const SFN_RE = /^(\{([1-9][0-9]*)\} +)([\s\S]+)$/;
const NEWPAGE_RE = /^( {6,})((?:\* ?){5})\s*$/;
// the last " ::" on the line separates term and definition (greedy term, as in the reference)
const DD_RE = /^( +)([\s\S]+)( +)::(( ?)([\s\S]*))$/;
const UL_RE = /^(( +)- +)([\s\S]*)$/;
const OL_RE = /^(( +)([0-9]+|[a-zA-Z]|[ixvl]+|[IXVL]+)\. +)([\s\S]*)$/;
const INDENTED_RE = /^( {2,})([^ ][\s\S]+)$/;

// List marks and their index: 1–200, a–z, and roman numerals to lxxxix (which win over letters).
const LIST_INDEX = new Map<string, number>();
for (let k = 1; k <= 200; k++) LIST_INDEX.set(String(k), k);
const ROMANS = (() => {
  const out: string[] = [];
  const parts: [number, string][] = [[50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
  for (let n = 1; n < 90; n++) {
    let r = '';
    let v = n;
    for (const [x, s] of parts) while (v >= x) ((r += s), (v -= x));
    out.push(r);
  }
  return out;
})();
for (const list of ['abcdefghijklmnopqrstuvwxyz'.split(''), ROMANS]) {
  list.forEach((m, k) => {
    LIST_INDEX.set(m, k + 1);
    LIST_INDEX.set(m.toUpperCase(), k + 1);
  });
}

function listBlock(mark: string): string {
  if (/^[0-9]+$/.test(mark)) return 'oln';
  if (/^[ixvl]+$/.test(mark)) return 'oli';
  if (/^[IXVL]+$/.test(mark)) return 'olI';
  if (/^[a-z]$/.test(mark)) return 'ola';
  return 'olA';
}

function parseString(line: string, nolist = false): El {
  const e = el({ raw: line, rawNoAnchors: line });
  let l = line;
  const a = ANCHOR_LINE_RE.exec(l);
  if (a) {
    e.anchors.push(a[3]);
    l = a[1] + a[4];
    e.rawNoAnchors = l;
  }
  const set = (fields: Partial<El> & { removed?: string }): El => {
    const { removed, ...rest } = fields;
    return Object.assign(e, rest, { indentation: rest.indentation ?? removed?.length ?? 0 });
  };
  if (/^[\n\t ]*$/.test(l)) return e;
  let m = START_RE.exec(l);
  if (m) return set({ type: 'startblock', block: m[1], removed: l });
  m = BIDI_RE.exec(l);
  if (m) return set({ type: 'bidimarker', block: m[1], removed: l });
  m = LANG_RE.exec(l);
  if (m) return set({ type: m[1] ? 'stopblock' : 'startblock', block: 'languageswitch', language: m[2], removed: l });
  if (/^\{\{\{\s*$/.test(l)) return set({ type: 'startblock', block: 'example', style: '{{{}}}', removed: l });
  if (/^\}\}\}\s*$/.test(l)) return set({ type: 'stopblock', block: 'example', style: '{{{}}}', removed: l });
  m = STOP_RE.exec(l);
  if (m) return set({ type: 'stopblock', block: m[1], removed: l });
  m = HEADING_RE.exec(l);
  if (m) return set({ type: 'h' + m[1].length, string: m[2], removed: m[1] + ' ' });
  m = VERSEP_RE.exec(l);
  if (m) return set({ type: 'versep', string: m[1], removed: '> ' });
  if (/^>\n?$/.test(l)) return set({ type: 'versep', string: '\n', removed: '>' });
  if ((l.charCodeAt(0) === 32 && l.includes('|')) || /^\|+( +|\+)/.test(l)) return set({ type: 'table', string: l });
  m = COMMENT_RE.exec(l);
  if (m) return set({ type: 'inlinecomment', string: m[1] ?? '', removed: ';' });
  m = FN_RE.exec(l);
  if (m) return set({ type: 'footnote', string: m[3], fnSymbol: `[${m[2]}]`, removed: m[1] });
  m = SFN_RE.exec(l);
  if (m) return set({ type: 'secondary_footnote', string: m[3], fnSymbol: `{${m[2]}}`, removed: m[1] });
  m = NEWPAGE_RE.exec(l);
  if (m) return set({ type: 'newpage', string: m[2], removed: m[1] });
  m = l.includes(' ::') ? DD_RE.exec(l) : null;
  if (m) {
    return set({ type: 'dd', block: 'dl', string: m[6], attribute: m[2], indentation: m[1].length + 2, startIndex: 1 });
  }
  if (!nolist) {
    m = UL_RE.exec(l);
    if (m) return set({ type: 'li', block: 'ul', string: m[3], indentation: m[2].length + 2, startIndex: 1 });
    m = OL_RE.exec(l);
    const index = m ? LIST_INDEX.get(m[3]) ?? 0 : 0;
    if (m && index) {
      return set({ type: 'li', block: listBlock(m[3]), string: m[4], indentation: m[2].length + 2, startIndex: index });
    }
  }
  m = INDENTED_RE.exec(l);
  if (m) {
    const n = m[1].length;
    return set({ type: 'regular', block: n >= 20 ? 'right' : n >= 6 ? 'center' : 'quote', string: m[2], removed: m[1] });
  }
  return set({ type: 'regular', string: l });
}

// --- packing (Document.pm _construct_element, Element.pm can_append/append) -------------------

const NO_MERGE_NEXT = new Set(['bidimarker', 'stopblock', 'startblock', 'null', 'table', 'versep', 'newpage', 'inlinecomment', 'comment']);

function shouldCloseBlocks(e: El): boolean {
  if (e.type === 'regular') return false;
  if (/^h[1-5]$/.test(e.type) || e.type === 'newpage') return true;
  const b = blockOf(e);
  return b === 'example' || b === 'verse' || b === 'table';
}

function canAppend(cur: El, e: El): boolean {
  if (!NO_MERGE_NEXT.has(cur.type) && (e.type === 'regular' || e.type === 'verse')) return true;
  // a footnote takes every following line up to a blank line, whatever it starts with,
  // except headings, page breaks, tables, examples and verse
  if (cur.type === 'footnote' && e.type !== 'footnote' && e.type !== 'null' && !shouldCloseBlocks(e)) return true;
  return cur.type === e.type && (e.type === 'table' || e.type === 'versep' || e.type === 'null');
}

function append(cur: El, e: El): void {
  cur.raw += e.raw;
  cur.rawNoAnchors += e.rawNoAnchors;
  if (cur.type === 'example') {
    cur.string += e.raw; // anchors stay literal inside examples
    return;
  }
  cur.string += cur.type === 'verse' || cur.type === 'footnote' ? e.rawNoAnchors : e.string;
  cur.anchors.push(...e.anchors);
}

function moveAnchors(from: El, to: El): void {
  to.anchors.push(...from.anchors);
  from.anchors = [];
}

class Packer {
  private current: El | null = null;
  readonly out: El[] = [];

  add(line: string): void {
    const e = this.construct(line);
    if (e) this.out.push(e);
  }

  private construct(line: string): El | null {
    const cur = this.current;
    const e = parseString(line);
    // anchors on a blank line or a block opening go to the next element
    if (cur && (cur.type === 'null' || cur.type === 'startblock') && cur.anchors.length) moveAnchors(cur, e);
    // an anchor alone on a line joins the element it follows without a blank line
    if (e.type === 'null' && e.anchors.length && cur && cur.type !== 'null' && cur.type !== 'example') {
      moveAnchors(e, cur);
      return null;
    }
    // <example>, <comment> and <verse> take every line up to their own closing tag
    // (an <example> may interrupt the other two, a <comment> may interrupt verse)
    for (const block of ['example', 'comment', 'verse']) {
      if (cur && cur.type === block) {
        if (e.type === 'stopblock' && blockOf(e) === cur.type && e.style === cur.style) {
          this.current = null;
          return el({ removed: e.raw, anchors: e.anchors, raw: e.raw });
        }
        if (!(cur.type === 'verse' && e.type === 'inlinecomment')) append(cur, e);
        return null;
      }
      if (e.type === 'startblock' && blockOf(e) === block) {
        const b = el({ type: block, style: e.style, anchors: e.anchors, removed: e.raw, raw: e.raw, rawNoAnchors: e.rawNoAnchors });
        this.current = b;
        return b;
      }
    }
    if (cur && canAppend(cur, e)) {
      append(cur, e);
      return null;
    }
    this.current = e;
    return e;
  }

  reset(): void {
    this.current = null;
  }
}

// --- lists (Document.pm _parse_body, LISTP) ---------------------------------------------------

/** Indentations compare with a tolerance of one space (none when one of them is 0). */
function compareIndent(a: number, b: number): 1 | 0 | -1 {
  const tolerance = a && b ? 1 : 0;
  const diff = a - b;
  if (diff - tolerance > 0) return 1;
  if (diff + tolerance < 0) return -1;
  return 0;
}

function blockEl(kind: 'startblock' | 'stopblock', block: string, indentation: number): El {
  return el({ type: kind, block, indentation });
}

function processLists(parsed: El[]): El[] {
  const out: El[] = [];
  const pile: El[] = [];
  const last = () => pile[pile.length - 1];
  const openingBlocks = (e: El): El[] => {
    const o: El[] = [];
    if (e.attribute) {
      o.push(blockEl('startblock', 'dt', e.indentation), el({ type: 'dt', string: e.attribute }), blockEl('stopblock', 'dt', e.indentation));
    }
    o.push(blockEl('startblock', e.type, e.indentation));
    return o;
  };
  const openLevel = (e: El) => {
    const o = [blockEl('startblock', e.block, e.indentation), ...openingBlocks(e)];
    o[0].startIndex = o[1].startIndex = e.startIndex;
    out.push(...o);
    const closes = [blockEl('stopblock', e.block, e.indentation), blockEl('stopblock', e.type, e.indentation)];
    for (const c of closes) c.startIndex = e.startIndex;
    pile.push(...closes);
  };
  const closeLevel = () => out.push(pile.pop()!);
  const closeUntil = (e: El) => {
    while (pile.length && compareIndent(e.indentation, last().indentation) < 0) closeLevel();
  };
  const sameKind = (e: El) => {
    for (let k = pile.length - 1; k >= 0; k--) {
      const b = pile[k].block;
      if (b === 'li' || b === 'dd') continue;
      return b === e.block;
    }
    return false;
  };
  const progression = (e: El) => {
    const prev = last().startIndex;
    const cur = e.startIndex;
    if (!prev || !cur) return true;
    if (prev > 0 && cur > 1) return cur - prev === 1;
    return true;
  };
  for (const e of parsed) {
    if (e.type === 'li' || e.type === 'dd') {
      if (pile.length) {
        if (compareIndent(e.indentation, last().indentation) > 0) openLevel(e);
        else {
          closeUntil(e);
          if (!pile.length) openLevel(e);
          else if (sameKind(e) && progression(e)) {
            const next = last().startIndex + 1;
            out.push(pile.pop()!, ...openingBlocks(e));
            const close = blockEl('stopblock', e.type, e.indentation);
            if (e.startIndex) close.startIndex = next;
            pile.push(close);
          } else {
            // another kind of list, or numbering that does not follow: a new list at this level
            const top = last();
            while (pile.length && compareIndent(top.indentation, last().indentation) === 0) closeLevel();
            openLevel(e);
          }
        }
      } else if (e.type === 'dd' || e.indentation <= 8) {
        openLevel(e);
      } else {
        // too indented to start a list: read again as a plain (centered/right) line
        const r = parseString(e.raw || e.rawNoAnchors, true);
        r.anchors = e.anchors;
        if (r.type !== 'regular') r.type = 'regular';
        out.push(r);
        continue;
      }
      e.type = 'regular';
      e.block = '';
    } else if (e.type === 'regular') {
      closeUntil(e);
      if (pile.length) e.block = '';
    } else if (e.type !== 'null') {
      while (pile.length) closeLevel();
    }
    out.push(e);
  }
  while (pile.length) closeLevel();
  return out;
}

// --- footnotes and blocks ----------------------------------------------------------------------

const canBeRegular = (e: El) => e.type === 'regular' && (e.block === 'quote' || e.block === 'center' || e.block === 'right');

/** Takes the notes out; an indented paragraph after a note, aligned with its text, continues it. */
function collectFootnotes(els: El[], notes: Map<string, El>): El[] {
  const out: El[] = [];
  let current: El | null = null;
  for (const e of els) {
    if (e.type === 'footnote' || e.type === 'secondary_footnote') {
      e.paras = [e.string];
      notes.set(e.fnSymbol, e);
      current = e;
    } else if (current) {
      if (e.type === 'null') out.push(e);
      else if (canBeRegular(e) && e.indentation && compareIndent(e.indentation, current.indentation) === 0) {
        current.paras!.push(e.string);
        current.anchors.push(...e.anchors);
      } else {
        current = null;
        out.push(e);
      }
    } else out.push(e);
  }
  return out;
}

/** Indented paragraphs get their quote/center/right block; blocks are balanced. */
function balanceBlocks(els: El[]): El[] {
  const unrolled: El[] = [];
  for (const e of els) {
    if (canBeRegular(e)) {
      const b = e.block;
      e.block = '';
      unrolled.push(blockEl('startblock', b, e.indentation), e, blockEl('stopblock', b, e.indentation));
    } else unrolled.push(e);
  }
  const out: El[] = [];
  const pile: El[] = [];
  for (const e of unrolled) {
    if (e.type === 'startblock') pile.push(blockEl('stopblock', e.block, e.indentation));
    else if (e.type === 'stopblock') {
      const expected = pile.pop();
      if (!expected || expected.block !== e.block) {
        if (expected) pile.push(expected);
        continue; // a closing tag that closes nothing open is dropped
      }
    } else if (pile.length && shouldCloseBlocks(e)) {
      // headings, page breaks, tables, examples and verse close the open blocks;
      // direction switches stay open except across headings and page breaks
      const keepDir = !/^h[1-6]$/.test(e.type) && e.type !== 'newpage';
      const carry: El[] = [];
      while (pile.length) {
        const b = pile.pop()!;
        if (keepDir && (b.block === 'rtl' || b.block === 'ltr')) carry.push(b);
        else out.push(b);
      }
      pile.push(...carry.reverse());
    }
    out.push(e);
  }
  while (pile.length) out.push(pile.pop()!);
  return out;
}

function parseBody(lines: string[]): { els: El[]; notes: Map<string, El> } {
  const packer = new Packer();
  for (const l of lines) packer.add(l + '\n');
  packer.add('\n');
  const parsed = packer.out;
  let dir = '';
  for (const e of parsed) {
    if (e.type === 'versep') e.type = 'verse';
    else if (e.type === 'bidimarker') {
      const d = e.block === '<<<' ? 'rtl' : 'ltr';
      if (dir && dir !== d) {
        e.type = 'stopblock';
        e.block = dir;
        dir = '';
      } else {
        e.type = 'startblock';
        e.block = d;
        dir = d;
      }
    }
  }
  const notes = new Map<string, El>();
  return { els: balanceBlocks(collectFootnotes(processLists(parsed), notes)), notes };
}

// --- tree ------------------------------------------------------------------------------------

interface Frame {
  /** The HTML element the reference opens for this block (closing tags are matched on it). */
  tag: string;
  children: Block[];
  list?: Extract<Block, { type: 'list' }>;
  item?: ListItem;
}

/** The element each block prints as in the reference's HTML. */
function htmlTag(block: string): string {
  if (block === 'quote') return 'blockquote';
  if (block in OL_STYLE) return 'ol';
  if (['ul', 'li', 'dl', 'dt', 'dd'].includes(block)) return block;
  return 'div';
}

const OL_STYLE: Record<string, ListStyle> = { oln: '1', oli: 'i', olI: 'I', ola: 'a', olA: 'A' };
const CONTAINERS = new Set(['quote', 'center', 'right', 'biblio', 'play']);
const RULE_RE = /^\s*-{4,}\s*$/;

/** Drops the paragraph's final newline (kept during inline parsing, as the reference does). */
function trimEnd(nodes: Inline[]): Inline[] {
  const last = nodes[nodes.length - 1];
  if (last && last.type === 'text') {
    last.value = last.value.replace(/[ \t\n]+$/, '');
    if (!last.value) nodes.pop();
  }
  return nodes;
}

function verseLines(src: string, inl: (s: string) => Inline[]): (Inline[] | null)[] {
  const chunks = src.split('\n');
  while (chunks.length && chunks[chunks.length - 1] === '') chunks.pop();
  const stanzas: Inline[][][] = [];
  let stanza: Inline[][] = [];
  for (let l of chunks) {
    l = l.replace(/<br>\s*$/, '');
    if (/^\s*$/.test(l)) {
      stanzas.push(stanza);
      stanza = [];
      continue;
    }
    const lead = /^ */.exec(l)![0].length;
    const text = trimEnd(inl(l.slice(lead)));
    if (text.length) stanza.push(lead ? [{ type: 'text', value: '\u00a0'.repeat(lead) }, ...text] : text);
  }
  if (stanza.length) stanzas.push(stanza);
  const lines: (Inline[] | null)[] = [];
  stanzas.forEach((s, k) => {
    if (k) lines.push(null);
    lines.push(...s);
  });
  return lines;
}

export function parseMuse(source: string): MuseDocument {
  const { header, body } = splitHeader(normalizeLines(source ?? ''));
  const { els, notes } = parseBody(body);
  const has = (sym: string) => notes.has(sym);
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
    hasPrimary: (n) => has(`[${n}]`),
    hasSecondary: (n) => has(`{${n}}`),
    onImage,
  };
  const headingCtx: InlineContext = { ...bodyCtx, links: false };
  const inl = (s: string, ctx: InlineContext = bodyCtx): Inline[] => trimEnd(parseInline(s, ctx));

  const root: Frame = { tag: '', children: [] };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1];
  const add = (b: Block) => top().children.push(b);
  const anchors = (names: string[]) => {
    if (names.length) add({ type: 'anchors', names: [...names] });
  };
  const listFrame = (): Frame => {
    const f = top();
    if (f.list) return f;
    // an item outside a list cannot come out of the list pass; be safe anyway
    const list: Extract<Block, { type: 'list' }> = { type: 'list', kind: 'ul', items: [] };
    add(list);
    return { tag: 'ol', children: [], list };
  };

  for (const e of els) {
    switch (e.type) {
      case 'startblock': {
        const b = e.block;
        const tag = htmlTag(b);
        if (CONTAINERS.has(b)) {
          const c: Block = { type: 'container', kind: b as 'quote', children: [] };
          add(c);
          stack.push({ tag, children: c.children });
        } else if (b === 'languageswitch') {
          const c: Block = { type: 'language', lang: e.language, children: [] };
          add(c);
          stack.push({ tag, children: c.children });
        } else if (b === 'rtl' || b === 'ltr') {
          const c: Block = { type: 'direction', dir: b, children: [] };
          add(c);
          stack.push({ tag, children: c.children });
        } else if (b === 'ul' || b === 'dl' || b in OL_STYLE) {
          const list: Extract<Block, { type: 'list' }> = { type: 'list', kind: b === 'ul' ? 'ul' : b === 'dl' ? 'dl' : 'ol', items: [] };
          if (b in OL_STYLE) list.style = OL_STYLE[b];
          if (list.kind === 'ol' && e.startIndex > 1) list.start = e.startIndex;
          add(list);
          stack.push({ tag, children: [], list });
        } else if (b === 'li' || b === 'dt') {
          const f = listFrame();
          const item: ListItem = b === 'dt' ? { term: [], children: [] } : { children: [] };
          f.list!.items.push(item);
          stack.push({ tag, children: item.children, item });
        } else if (b === 'dd') {
          const f = listFrame();
          let item = f.list!.items[f.list!.items.length - 1];
          if (!item || item.children.length || item.term === undefined) {
            item = { term: [], children: [] };
            f.list!.items.push(item);
          }
          stack.push({ tag, children: item.children, item });
        } else stack.push({ tag, children: top().children });
        anchors(e.anchors);
        break;
      }
      case 'stopblock': {
        anchors(e.anchors);
        // Blocks may close out of order (a direction switch stays open across a verse or a
        // table while the blocks inside it close): as a browser reads the reference's HTML,
        // a closing tag closes the nearest open element of its name and what is inside it.
        const tag = htmlTag(e.block);
        let k = stack.length - 1;
        while (k > 0 && stack[k].tag !== tag) k--;
        if (k > 0) stack.length = k;
        break;
      }
      case 'dt': {
        const item = top().item;
        if (item) item.term = inl(e.string);
        break;
      }
      case 'regular':
        if (RULE_RE.test(e.string)) {
          add({ type: 'rule' });
          anchors(e.anchors);
        } else add({ type: 'paragraph', anchors: e.anchors, children: inl(e.string) });
        break;
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5': {
        const sep = /\s+\|\s+/.exec(e.string);
        const short = sep ? e.string.slice(0, sep.index) : e.string;
        const long = sep && e.string.slice(sep.index + sep[0].length) ? e.string.slice(sep.index + sep[0].length) : short;
        add({
          type: 'heading',
          level: +e.type[1] as 1 | 2 | 3 | 4 | 5,
          anchors: e.anchors,
          children: inl(long, headingCtx),
          tocChildren: long !== short ? inl(short, headingCtx) : null,
        });
        break;
      }
      case 'verse':
        add({ type: 'verse', anchors: e.anchors, lines: verseLines(e.string, (s) => parseInline(s, bodyCtx)) });
        break;
      case 'example':
        add({ type: 'example', anchors: e.anchors, text: e.string.replace(/\n$/, '') });
        break;
      case 'inlinecomment':
        add({ type: 'comment', text: e.string.replace(/\n$/, '').replace(/\s/g, ' '), inline: true });
        break;
      case 'comment':
        add({ type: 'comment', text: e.string.replace(/\n$/, ''), inline: false });
        break;
      case 'table':
        add(buildTable(e, inl));
        break;
      case 'newpage':
        add({ type: 'pagebreak', text: e.string });
        anchors(e.anchors);
        break;
      case 'null':
        anchors(e.anchors);
        break;
      default:
        break;
    }
  }

  const footnotes = new Map<number, Footnote>();
  const secondaryFootnotes = new Map<number, Footnote>();
  const fnCtx: InlineContext = { ...bodyCtx, primaryRefs: false };
  const sfnCtx: InlineContext = { ...bodyCtx, primaryRefs: false, secondaryRefs: false };
  for (const e of notes.values()) {
    const secondary = e.type === 'secondary_footnote';
    const n = +e.fnSymbol.slice(1, -1);
    const paragraphs = e.paras!.map((p) => inl(p, secondary ? sfnCtx : fnCtx));
    (secondary ? secondaryFootnotes : footnotes).set(n, { n, secondary, anchors: e.anchors, paragraphs });
  }
  const lang = (header.lang ?? header.language ?? '').toLowerCase();
  return { header, body: root.children, footnotes, secondaryFootnotes, lang, attachments };
}

// --- tables (Output.pm _split_table_in_hash) ---------------------------------------------------

const TABLE_CAPTION_RE = /^\s*\|\+\s*(.+?)\s*\+\|\s*$/;

/** A GitHub-style specification row: alignment (:---, ---:, :---:) or a width (--- 30 ---) per cell. */
function specRow(cells: string[]): { align: Align; width: number | null }[] | null {
  const spec: { align: Align; width: number | null }[] = [];
  for (const c of cells) {
    if (/^\s*:?---+:?\s*$/.test(c)) {
      const align: Align = /:-+:/.test(c) ? 'center' : /:-/.test(c) ? 'left' : /-:/.test(c) ? 'right' : 'justify';
      spec.push({ align, width: null });
      continue;
    }
    const w = /^\s*---+\s*([0-9]+)\s*---+\s*$/.exec(c);
    if (!w) return null;
    const p = +w[1];
    spec.push({ align: 'justify', width: p > 0 && p < 100 ? p : null });
  }
  return spec.length ? spec : null;
}

function buildTable(e: El, inl: (s: string) => Inline[]): Block {
  let caption: Inline[] | null = null;
  const rows: { cells: string[]; part: 'head' | 'body' | 'foot' }[] = [];
  for (const r of e.string.split('\n')) {
    if (r === '') continue;
    const cm = TABLE_CAPTION_RE.exec(r);
    if (cm) {
      caption = inl(cm[1]);
      continue;
    }
    const cells = r.split(/\|+/);
    while (cells.length && cells[cells.length - 1] === '') cells.pop(); // as Perl's split
    rows.push({ cells, part: r.includes('|||') ? 'foot' : r.includes('||') ? 'head' : 'body' });
  }
  if (rows.length && rows.every((r) => r.cells.length && /^\s*$/.test(r.cells[0]))) for (const r of rows) r.cells.shift();
  const parts: Record<'head' | 'body' | 'foot', string[][]> = { head: [], body: [], foot: [] };
  let width = 0;
  let spec: { align: Align; width: number | null }[] | null = null;
  rows.forEach((r, i) => {
    width = Math.max(width, r.cells.length);
    if (!spec) {
      spec = specRow(r.cells);
      if (spec) {
        // a specification in the second row makes the first row the header
        if (i === 1 && parts.body.length === 1 && parts.head.length === 0) parts.head.push(parts.body.shift()!);
        return;
      }
    }
    parts[r.part].push(r.cells);
  });
  const cellsOf = (rs: string[][]): TableCell[][] =>
    rs.map((r) => {
      const cells = r.map((c) => ({ children: inl(c) }));
      while (cells.length < width) cells.push({ children: [] });
      return cells;
    });
  const s = spec as { align: Align; width: number | null }[] | null;
  let aligns: Align[] | null = null;
  let widths: (number | null)[] | null = null;
  if (s) {
    while (s.length < width) s.push({ align: 'justify', width: null });
    aligns = s.map((x) => x.align);
    widths = s.map((x) => x.width);
  }
  return { type: 'table', anchors: e.anchors, caption, head: cellsOf(parts.head), body: cellsOf(parts.body), foot: cellsOf(parts.foot), aligns, widths };
}

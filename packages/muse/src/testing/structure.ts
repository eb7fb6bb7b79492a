// Structural comparison of two HTML fragments for the conformance test (test-only helper).
// Both sides are parsed with parse5; whitespace-only text is dropped and runs of ASCII
// whitespace collapse to one space (trimmed next to block boundaries). Element names, text and
// the attributes that carry meaning (class, style, dir, lang, start) are compared; generated ids
// and link targets are not.
import { parseFragment } from 'parse5';

interface P5Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: P5Node[];
}

const INLINE = new Set(['a', 'em', 'strong', 'code', 'span', 'sup', 'sub', 'del', 'strike', 'ruby', 'rb', 'rt', 'img']);
const MEANINGFUL = ['class', 'style', 'dir', 'lang', 'start'];

export type Flat = string[];

/** Flatten to a list of tokens: "<tag attrs>", "</tag>", "#text". */
export function flatten(html: string): Flat {
  const frag = parseFragment(html) as unknown as P5Node;
  const out: string[] = [];
  const walk = (n: P5Node) => {
    for (const c of n.childNodes ?? []) {
      if (c.nodeName === '#text') {
        out.push('#' + (c.value ?? '').replace(/[ \t\n\r\f]+/g, ' '));
      } else if (c.nodeName === '#comment') {
        continue;
      } else if (c.tagName) {
        const attrs = (c.attrs ?? [])
          .filter((a) => MEANINGFUL.includes(a.name))
          .map((a) => `${a.name}="${a.value.replace(/\s+/g, ' ').trim()}"`)
          .sort()
          .join(' ');
        const block = !INLINE.has(c.tagName);
        if (block) out.push('|');
        out.push(`<${c.tagName}${attrs ? ' ' + attrs : ''}>`);
        if (block) out.push('|');
        walk(c);
        if (block) out.push('|');
        out.push(`</${c.tagName}>`);
        if (block) out.push('|');
      }
    }
  };
  walk(frag);
  // merge adjacent text, trim around block boundaries ("|"), drop empty text
  const merged: string[] = [];
  for (const t of out) {
    const last = merged[merged.length - 1];
    if (t.startsWith('#') && last?.startsWith('#')) merged[merged.length - 1] = last + t.slice(1);
    else merged.push(t);
  }
  const res: string[] = [];
  for (let i = 0; i < merged.length; i++) {
    let t = merged[i];
    if (t === '|') continue;
    if (t.startsWith('#')) {
      let v = t.slice(1).replace(/ +/g, ' ');
      const prev = merged[i - 1];
      const next = merged[i + 1];
      if (prev === undefined || prev === '|' || prev === '<br>') v = v.replace(/^ /, '');
      if (next === undefined || next === '|' || next === '<br>') v = v.replace(/ $/, '');
      if (v === '' || v === ' ') continue;
      t = '#' + v;
    }
    res.push(t);
  }
  return res;
}

export interface CompareResult {
  equal: boolean;
  /** First differing position, with a little context, when not equal. */
  diff?: string;
}

export function compareHtml(actual: string, expected: string): CompareResult {
  const a = flatten(actual);
  const e = flatten(expected);
  const len = Math.max(a.length, e.length);
  for (let i = 0; i < len; i++) {
    if (a[i] !== e[i]) {
      const ctx = (xs: string[]) => xs.slice(Math.max(0, i - 3), i + 4).join(' ');
      return { equal: false, diff: `at token ${i}\n  actual:   ${ctx(a)}\n  expected: ${ctx(e)}` };
    }
  }
  return { equal: true };
}

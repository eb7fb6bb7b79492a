import { foldText } from '../../lib/shared';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The folded words of a `?highlight=` value (the words a search snippet marked). */
export function highlightWords(value: string | null): Set<string> {
  return new Set((value ?? '').split(/\s+/).map((w) => foldText(w).trim()).filter(Boolean));
}

/**
 * Wraps each word of `root`'s text that folds to one of `words` in <mark> (case and accents folded, as
 * the search folds them) and answers the first mark. Text nodes are split, never re-parsed as HTML.
 */
export function markWords(root: HTMLElement, words: Set<string>): HTMLElement | null {
  if (words.size === 0) return null;
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!(n.parentElement?.closest('mark, script, style'))) nodes.push(n as Text);
  }
  let first: HTMLElement | null = null;
  for (const node of nodes) {
    const text = node.data;
    const hits = [...text.matchAll(WORD)].filter((m) => words.has(foldText(m[0]).trim()));
    if (hits.length === 0) continue;
    const frag = doc.createDocumentFragment();
    let last = 0;
    for (const m of hits) {
      frag.append(text.slice(last, m.index));
      const mark = doc.createElement('mark');
      mark.textContent = m[0];
      frag.append(mark);
      first ??= mark;
      last = m.index + m[0].length;
    }
    frag.append(text.slice(last));
    node.replaceWith(frag);
  }
  return first;
}

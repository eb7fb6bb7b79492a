// A text's top-level sections as the reference splits it (before every heading of levels 1–4; section 0
// is what precedes the first heading, possibly nothing), and the document cut down to some of them: the
// Book Builder's partial selection of a text (the reference's `name:0,3`), for the PDF and the EPUB alike.
import type { Block, MuseDocument } from './types.ts';
import { parseMuse } from './parse.ts';
import { inlineText } from './inline.ts';

/** The body's blocks by section: [0] before the first heading of levels 1–4, then one per such heading. */
export function museSections(doc: MuseDocument): Block[][] {
  const out: Block[][] = [[]];
  for (const b of doc.body) {
    if (b.type === 'heading' && b.level <= 4) out.push([]);
    out[out.length - 1].push(b);
  }
  return out;
}

/** Each section's heading (section 0: ''), so a client can show what the numbers select. */
export function sectionTitles(input: string | MuseDocument): string[] {
  const doc = typeof input === 'string' ? parseMuse(input) : input;
  return museSections(doc).map((s, i) => {
    const h = i > 0 ? (s[0] as Extract<Block, { type: 'heading' }>) : null;
    return h ? inlineText(h.tocChildren ?? h.children).trim() : '';
  });
}

/**
 * The document with only the selected sections, in the text's order (each at most once); numbers past
 * the last section select nothing. Footnotes stay in their maps: the writers print the referenced ones.
 */
export function selectSections(input: string | MuseDocument, selected: readonly number[]): MuseDocument {
  const doc = typeof input === 'string' ? parseMuse(input) : input;
  const want = new Set(selected);
  return { ...doc, body: museSections(doc).flatMap((s, i) => (want.has(i) ? s : [])) };
}

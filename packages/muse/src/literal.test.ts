// museLiteral: plain text written as Muse inline markup reads back as the same text (a cover prefilled
// with a catalogue title must not turn its asterisks into emphasis or its "<" into a broken tag).
import { describe, expect, it } from 'vitest';
import { museLiteral } from '@uc/shared';
import { inlineText, parseInline } from './index.ts';
import { unpairedTags } from './inline.ts';

const ctx = { primaryRefs: true, secondaryRefs: true, links: true, hasPrimary: () => true, hasSecondary: () => true };
const readBack = (muse: string) => inlineText(parseInline(muse, ctx));

describe('museLiteral', () => {
  it('leaves a text without markup characters as it is', () => {
    expect(museLiteral('Mutual Aid: A Factor of Evolution')).toBe('Mutual Aid: A Factor of Evolution');
    expect(museLiteral('Хлеб и воля')).toBe('Хлеб и воля');
  });

  it.each([
    '*Not* emphasis',
    'A <b> study of tags',
    'x < y and y > z',
    '[[not a link]] and [1] {2}',
    '=code= ~~ and __under__',
    '#title at the start',
    'closing </verbatim> inside',
    '</verbatim>',
    '<verbatim>open',
  ])('reads back exactly: %s', (text) => {
    const muse = museLiteral(text);
    expect(unpairedTags(muse)).toEqual([]);
    expect(readBack(muse)).toBe(text);
  });
});

// Parts and chapters start a new page in books, and follow on in articles and short texts when the
// option is 'auto' (issue 32 point 15); 'always' / 'never' decide for any text.
import { describe, expect, it } from 'vitest';
import { ARTICLE_MAX_CHARS, chapterNewpage, collectionToTypst, museToTypst, parseMuse } from './index.ts';

const text = (chars: number) => {
  const para = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(20);
  const paras = Math.ceil(chars / 2 / para.length);
  return `#title T\n\n** One\n\n${(para + '\n\n').repeat(paras)}** Two\n\n${(para + '\n\n').repeat(paras)}`;
};
const breaks = (typ: string) => /#show heading\.where\(level: 2\): it => \{ museBreak/.test(typ);

describe('a new page for each chapter', () => {
  it('auto: an article follows on, a book breaks, at ARTICLE_MAX_CHARS of text', () => {
    expect(breaks(museToTypst(text(ARTICLE_MAX_CHARS * 0.8), { chapter_newpage: 'auto' }))).toBe(false);
    expect(breaks(museToTypst(text(ARTICLE_MAX_CHARS * 1.2), { chapter_newpage: 'auto' }))).toBe(true);
    expect(chapterNewpage('auto', [parseMuse(text(1000))])).toBe(false);
  });

  it('always and never whatever the length; absent is always (the reference’s book class)', () => {
    expect(breaks(museToTypst(text(1000), { chapter_newpage: true }))).toBe(true);
    expect(breaks(museToTypst(text(1000), {}))).toBe(true);
    expect(breaks(museToTypst(text(ARTICLE_MAX_CHARS * 1.2), { chapter_newpage: false }))).toBe(false);
  });

  it('a collection decides by its texts’ average length', () => {
    const short = { muse: text(5000) };
    const long = { muse: text(ARTICLE_MAX_CHARS * 2.5) };
    expect(breaks(collectionToTypst([short, short], { chapter_newpage: 'auto' }).source)).toBe(false);
    expect(breaks(collectionToTypst([short, long], { chapter_newpage: 'auto' }).source)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { splitFullText } from './FullText';

const WORK = '<div id="thework" dir="ltr">\n<h2 id="toc1">Part</h2><p>Text.</p>\n</div>\n';

describe('splitFullText', () => {
  it('takes the table of contents from the server\'s block and leaves the text without it', () => {
    const html = '<div class="table-of-contents" dir="ltr">\n<p class="tableofcontentline toclevel2"><span class="tocprefix">&#160;&#160;&#160;&#160;</span><a href="#toc1">Part</a></p>\n</div>\n' + WORK;
    const { toc, body } = splitFullText(html);
    expect(toc).toEqual([{ id: 'toc1', level: 2, text: 'Part' }]);
    expect(body).not.toContain('table-of-contents');
    expect(body).toContain('<h2 id="toc1">Part</h2>');
  });

  it('has no table of contents when the block is hidden (#notoc)', () => {
    const html = '<div class="table-of-contents" style="display:none" dir="ltr">\n<p class="tableofcontentline toclevel1"><a href="#toc1">Part</a></p>\n</div>\n' + WORK;
    expect(splitFullText(html).toc).toEqual([]);
  });

  it('falls back to the headings of a text without the block', () => {
    expect(splitFullText(WORK).toc).toEqual([{ id: 'toc1', level: 2, text: 'Part' }]);
  });
});

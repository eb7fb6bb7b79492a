import { describe, expect, it } from 'vitest';
import { museToHtml } from '@uc/muse';
import { bareHtml } from './fulltext.ts';

const render = (muse: string) => {
  const { html, toc, header } = museToHtml(muse);
  return bareHtml(html, toc, header);
};

describe('the full text in Text::Amuse\'s bare HTML layout', () => {
  it('lists every heading in the table of contents, indented by level, before the text', () => {
    const out = render('#title T\n\n* Part <em>one</em>\n\n** Chapter & co\n\nText.\n');
    expect(out).toMatch(/^<div class="table-of-contents" dir="ltr">\n/);
    expect(out).toContain('<p class="tableofcontentline toclevel1"><span class="tocprefix">&#160;&#160;</span><a href="#toc1">Part one</a></p>');
    expect(out).toContain('<p class="tableofcontentline toclevel2"><span class="tocprefix">&#160;&#160;&#160;&#160;</span><a href="#toc2">Chapter &amp; co</a></p>');
    expect(out.indexOf('<div id="thework" dir="ltr">')).toBeGreaterThan(out.indexOf('</div>'));
    expect(out).toMatch(/Text\.\n<\/p>\n<\/div>\n$/);
  });

  it('hides the table of contents of a #notoc text, and has none without headings', () => {
    expect(render('#title T\n#notoc\n\n* Part\n\nText.\n')).toMatch(/^<div class="table-of-contents" style="display:none" dir="ltr">/);
    expect(render('#title T\n\nJust text.\n')).toMatch(/^<div id="thework" dir="ltr">\n/);
  });

  it('writes right to left texts right to left', () => {
    expect(render('#title T\n#lang ar\n\n* فصل\n\nنص.\n')).toContain('<div id="thework" dir="rtl">');
  });
});

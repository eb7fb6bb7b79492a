// Random markup soup: parsing never throws, HTML never carries a raw tag from the input,
// and the Typst output always compiles.
import { describe, it, expect } from 'vitest';
import { museToHtml, museToTypst, checkTypst } from './index.ts';

const PIECES = [
  '*', '**', '***', '=', '[[', ']]', '][', '[1]', '{1}', '[2]', '<em>', '</em>', '<strong>', '</sup>', '<sup>',
  '<<<', '>>>', '<[it]>', '</[it]>', '<br>', '~~', '#anchor', '#', '$', '\\', '`', '@x', '<x>', '//', '/*', '-', '+',
  '|', '||', '|+', '+|', '::', ' - ', ' 1. ', '  ', '      ', '\n', '\n\n', '\n> ', '\n; ', '\n[1] ', '\n{1} ',
  '\n* ', '\n** ', '\n<verse>\n', '\n</verse>\n', '\n<quote>\n', '\n</quote>\n', '\n{{{\n', '\n}}}\n', '\n<comment>\n',
  '[[pic.png 50 r][cap]]', '[[#anchor][go ??]]', '[[http://x.y/?a=1&b=<2>]]', '<code>', '</code>', '<verbatim>',
  '</verbatim>', '<ruby>a|b</ruby>', 'word', 'λόγος', 'مرحبا', '\u00a0', '"', "'", '...', '--', '<script>', '&amp;',
];

let seed = 7;
function rnd(n: number): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
}

function soup(len: number): string {
  let s = '#title Fuzz\n\n';
  for (let i = 0; i < len; i++) s += PIECES[rnd(PIECES.length)];
  return s;
}

describe('random input', () => {
  it('never throws and never emits raw input tags', () => {
    for (let i = 0; i < 400; i++) {
      const src = soup(5 + rnd(200));
      const { html } = museToHtml(src);
      expect(html).not.toMatch(/<(script|x)\b/);
      expect(() => museToTypst(src)).not.toThrow();
    }
  });

  it('always produces Typst that compiles', () => {
    const failures: string[] = [];
    for (let i = 0; i < 40; i++) {
      const src = soup(20 + rnd(300));
      const errs = checkTypst(museToTypst(src, { nofinalpage: true }));
      if (errs.length) failures.push(JSON.stringify({ src, errs }).slice(0, 800));
    }
    expect(failures).toEqual([]);
  }, 30000);
});

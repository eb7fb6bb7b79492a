// Unit tests for the parser and the two renderers, on small texts written for them.
import { describe, it, expect } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import { parseMuse, museToHtml, museToTypst, readMuseZip, checkTypst } from './index.ts';

const html = (s: string) => museToHtml(s).html;
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('header', () => {
  it('reads directives, continuations and strips dashes from names', () => {
    const doc = parseMuse('#title A long\n  title\n#sort-authors Rossi; Bianchi\n#notoc\n\n#lang it\n\nBody text\n');
    expect(doc.header.title).toBe('A long title');
    expect(doc.header.sortauthors).toBe('Rossi; Bianchi');
    expect(doc.header.notoc).toBe('');
    expect(doc.lang).toBe('it');
    expect(squash(html('#title x\n\nBody text\n'))).toBe('<p> Body text </p>');
  });
});

describe('escaping', () => {
  it('never lets markup inject HTML', () => {
    const out = html('#title t\n\n<script>alert("x")</script> & <img src=x onerror=y> [[javascript:alert(1)][<b>]]\n');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img src=x');
    expect(out).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;');
    // a script link is its text only (was a live href="javascript:alert(1)" before issue 27)
    expect(out).not.toContain('href="javascript');
    expect(out).toContain('&amp; &lt;img src=x onerror=y&gt; &lt;b&gt;');
  });

  it('escapes Typst specials so text cannot run code', () => {
    const typ = museToTypst('#title t\n\nText #let x = 1 $math$ `raw` <label> @ref [a] *\\* // c\n\n= not a heading\n\n- not a list\n', { nofinalpage: true });
    const body = typ;
    expect(body).toContain('\\#let x \\= 1 \\$math\\$ \\`raw\\` \\<label\\> \\@ref \\[a\\]');
    expect(body).toContain('\\= not a heading');
    expect(body).toContain('\\- not a list');
    expect(checkTypst(typ)).toEqual([]);
  });

  it('keeps example blocks verbatim', () => {
    const out = html('#title t\n\n{{{\n*not em* <b> [1]\n}}}\n\n[1] note\n');
    expect(out).toContain('<pre class="example">\n*not em* &lt;b&gt; [1]\n</pre>');
    expect(out).not.toContain('fnline');
  });
});

describe('inline markup', () => {
  it('renders emphasis forms, code and tags', () => {
    const out = html('#title t\n\n*a* **b** ***c*** =d= <sup>e</sup> <del>f</del> x~~y\n');
    expect(out).toContain('<em>a</em> <strong>b</strong> <strong><em>c</em></strong> <code>d</code> <sup>e</sup> <del>f</del> x&#160;y');
  });

  it('prints unmatched markup literally and does not throw on broken input', () => {
    expect(html('#title t\n\nopen *star and <em>tag\n')).toContain('open *star and &lt;em&gt;tag');
    expect(html('#title t\n\na*b*c 2*3\n')).toContain('a*b*c 2*3');
    for (const broken of ['', '#', '*', '[[', '<verse>', '</quote>\n</quote>', ' |', '[1]', '{{{', '<<<\n>>>\n<<<', '\u0000\r\r\t']) {
      expect(() => museToHtml(broken)).not.toThrow();
      expect(() => museToTypst(broken)).not.toThrow();
    }
  });

  it('makes links, internal links and images', () => {
    const out = html('#title t\n\nFirst.\n\n#here Anchored. [[http://ex.org/a b][site]] [[#here][back]] [[http://ex.org]]\n\n[[pic.png 40 r][A caption]]\n');
    expect(out).toContain('<a id="text-amuse-label-here" class="text-amuse-internal-anchor"></a>');
    expect(out).toContain('<a class="text-amuse-link" href="http://ex.org/a%20b">site</a>');
    expect(out).toContain('<a class="text-amuse-link" href="#text-amuse-label-here">back</a>');
    expect(out).toContain('text-amuse-is-single-link');
    expect(out).toContain('<div class="float_image_r" style="width:40%;">');
    expect(out).toContain('<div class="caption">A caption</div>');
    const custom = museToHtml('#title t\n\n[[pic.png]]\n', { imageUrl: (f) => `/files/${f}` }).html;
    expect(custom).toContain('src="/files/pic.png"');
  });
});

describe('footnotes', () => {
  const src = '#title t\n\nOne [2] two [1] missing [7] zero [0] sec {1}\n\n[1] First\ncontinued\n\n[2] Second with {1}\n\n    second paragraph\n\n{1} Secondary\n\n[9] Unused\n';
  it('links references both ways and lists notes in numeric order, primary first', () => {
    const out = html(src);
    expect(out).toContain('<a href="#fn2" class="footnote" id="fn_back2">[2]</a>');
    expect(out).toContain('missing [7] zero [0]');
    const order = [...out.matchAll(/id="(fnb?\d+)">/g)].map((m) => m[1]);
    expect(order).toEqual(['fn1', 'fn2', 'fnb1', 'fnb1']);
    expect(out).toContain('Second with <a href="#fnb1"');
    expect(out).toContain('\n<br />\n');
    expect(out).not.toContain('Unused');
  });

  it('puts notes at their reference in Typst, eating the space before', () => {
    const typ = museToTypst(src);
    expect(typ).toContain('One#footnote[Second with#museSecondary[Secondary]#parbreak()second paragraph]');
    expect(typ).toContain('missing \\[7\\]');
  });
});

describe('blocks', () => {
  it('builds nested lists with kinds, start values and continuations', () => {
    const out = squash(html('#title t\n\n - one\n   more\n\n   para\n\n   3. x\n   4. y\n\n      i. deep\n - two\n\n term :: def\n\nEnd\n'));
    expect(out).toBe(
      '<ul> <li> <p> one more </p> <p> para </p> <ol start="3"> <li> <p> x </p> </li> <li> <p> y </p> ' +
        '<ol style="list-style-type:lower-roman"> <li> <p> deep </p> </li> </ol> </li> </ol> </li> <li> <p> two </p> </li> </ul> ' +
        '<dl> <dt>term</dt> <dd> <p> def </p> </dd> </dl> <p> End </p>',
    );
  });

  it('classifies indentation as quote, center and right', () => {
    const out = squash(html('#title t\n\n  quoted\n\n        centered\n\n                         right\n\n<quote>\ntagged\n</quote>\n'));
    expect(out).toBe(
      '<blockquote> <p> quoted </p> </blockquote> <div class="center"> <p> centered </p> </div> ' +
        '<div class="right"> <p> right </p> </div> <blockquote> <p> tagged </p> </blockquote>',
    );
  });

  it('parses both table syntaxes with header, footer and caption', () => {
    const out = squash(html('#title t\n\n a || b\n c | d\n e ||| f\n |+ Cap +|\n\n| x | y |\n| :--- | ---: |\n| 1 | 2 |\n'));
    expect(out).toContain('<table> <caption>Cap</caption> <thead> <tr> <th> a </th> <th> b </th> </tr> </thead> <tfoot>');
    expect(out).toContain('<table class="markdown-style-table" style="width:100%"> <thead> <tr> <th style="text-align:left">');
    const doc = parseMuse('#title t\n\n a | b | c\n d |\n');
    const t = doc.body[0];
    expect(t.type === 'table' && t.body.map((r) => r.length)).toEqual([3, 3]);
  });

  it('renders verse with stanzas and leading spaces', () => {
    const out = html('#title t\n\n<verse>\nA line\n  indented\n\nNew stanza\n</verse>\n');
    expect(out).toContain('A line<br />\n&#160;&#160;indented\n<br /><br />\nNew stanza');
    expect(html('#title t\n\n> one\n> two\n')).toContain('one<br />\ntwo');
  });

  it('handles headings, TOC ids and short titles', () => {
    const r = museToHtml('#title t\n\n* Part\n\n** Short | Long chapter\n\n***** Deep\n');
    expect(r.html).toContain('<h2 id="toc1">Part</h2>');
    expect(r.html).toContain('<h3 id="toc2">Long chapter</h3>');
    expect(r.html).toContain('<h6>Deep</h6>');
    expect(r.toc).toEqual([
      { level: 1, title: 'Part', anchor: 'toc1' },
      { level: 2, title: 'Short', anchor: 'toc2' },
    ]);
  });

  it('switches direction and language', () => {
    const out = html('#title t\n#lang en\n\n<<<\nمرحبا\n>>>\n\n<[it]>\nCiao\n</[it]>\n\nword >>>inline\n');
    expect(out).toContain('<div dir="rtl">');
    expect(out).toContain('<div lang="it">');
    expect(out).toContain('<span dir="ltr">inline\n</span>&#x200F;');
  });

  it('drops comments from view and makes page breaks and rules', () => {
    const out = html('#title t\n\n; secret\n\n<comment>\nhidden\n</comment>\n\n----\n\n      * * * * *\n');
    expect(out).toContain('<div class="comment" style="display:none">secret</div>');
    expect(out).toContain('<hr />');
    expect(out).toContain('* * * * *');
    const typ = museToTypst('#title t\n\n; secret\n\nText\n\n      * * * * *\n');
    expect(typ).not.toContain('secret');
    expect(typ).toContain('#pagebreak(weak: true)');
  });
});

describe('typst layout', () => {
  it('applies paper size, margins and flags', () => {
    const typ = museToTypst('#title Book\n\n** One\n\nText\n', { papersize: 'a4', division_factor: 9, twoside: true, notoc: true });
    expect(typ).toContain('width: 210mm, height: 297mm');
    // DIV 9 on A4: inner = 210/9, outer = 2*210/9
    expect(typ).toContain('inside: 23.33mm, outside: 46.67mm, top: 33mm, bottom: 66mm');
    expect(typ).not.toContain('#museToc()');
    expect(museToTypst('#title Book\n\n** One\n\nText\n')).toContain('#museToc()');
    const bodyOnly = museToTypst('#title Book\n\nText\n', { body_only: true });
    expect(bodyOnly).not.toContain('text(size: 2em');
  });

  it('embeds only images present in the text files', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    const withFile = museToTypst('#title t\n\n[[pic.png]]\n', { files: new Map([['pic.png', png]]) });
    expect(withFile).toContain('image("/muse-files/pic.png", format: "png"');
    const without = museToTypst('#title t\n\n[[pic.png]]\n');
    expect(without).not.toContain('image(');
    expect(checkTypst(without)).toEqual([]);
  });
});

describe('zip', () => {
  it('reads the .muse and its attachments from an amusewiki zip', () => {
    const data = zipSync({
      'my-text/': new Uint8Array(),
      'my-text/my-text.muse': strToU8('#title Zipped\n\nHello\n'),
      'my-text/my-text.html': strToU8('<p>x</p>'),
      'my-text/pic.png': new Uint8Array([1, 2, 3]),
      '.hidden': strToU8('x'),
    });
    const z = readMuseZip(data);
    expect(z.baseName).toBe('my-text');
    expect(z.muse).toContain('#title Zipped');
    expect([...z.files.keys()].sort()).toEqual(['my-text.html', 'pic.png']);
    expect(() => readMuseZip(zipSync({ 'a.txt': strToU8('x') }))).toThrow(/no .muse/);
  });
});

// One test per rule of the reference implementation (Text::Amuse) that texts written without
// the corpus in mind run into. Expected HTML is reasoned from the reference's algorithm
// (Document.pm, Element.pm, Output.pm); see docs in CONFORMANCE.md.
import { describe, it, expect } from 'vitest';
import { museToHtml } from './index.ts';

// white space next to tags is not compared (HTML collapses it); text and structure are
const norm = (html: string) => html.replace(/\s+/g, ' ').replace(/ ?(<[^>]*>) ?/g, '$1').trim();
const body = (s: string) => norm(museToHtml('#title t\n\n' + s).html);
const p = (s: string) => body(s).replace(/^<p>/, '').replace(/<\/p>$/, '');
const inline = (muse: string, html: string) => expect(p(muse)).toBe(norm(html));
const same = (muse: string, html: string) => expect(body(muse)).toBe(norm(html));
const anchor = (name: string) => `<a id="text-amuse-label-${name}" class="text-amuse-internal-anchor"></a>`;
const fnref = '<a href="#fn1" class="footnote" id="fn_back1">[1]</a>';
const fnline = (text: string) => `<p class="fnline"><a class="footnotebody" href="#fn_back1" id="fn1">[1]</a> ${text} </p>`;

describe('inline markup left open in a paragraph', () => {
  it('closes a tag still open at the end of the paragraph, after the misplaced closing tag turned text', () => {
    inline('<em>a <strong>b</em> c</strong>', '<em>a <strong>b&lt;/em&gt; c</strong></em>');
    inline('<em>a <em>b</em> d', '<em>a <em>b</em> d</em>');
  });

  it('leaves a tag without any closing tag later, or a closing tag without an opening one, as text', () => {
    inline('a <sup>b', 'a &lt;sup&gt;b');
    inline('a </em> b', 'a &lt;/em&gt; b');
  });

  it('opens a run of asterisks only when the same run comes later, and closes the innermost one', () => {
    inline('a *b and c', 'a *b and c');
    inline('*a **b* c', '<em>a **b</em> c');
    inline('**a *b** c*', '**a <em>b** c</em>');
  });

  it('reads four or more asterisks as runs of three and one, and a run between letters as text', () => {
    inline('x **** y', 'x **** y');
    inline('*a* ****', '<em>a</em> ****');
    inline('foo*bar*baz', 'foo*bar*baz');
  });

  it('drops an empty pair of tags', () => {
    inline('<em></em>x', 'x');
  });
});

describe('links and square brackets', () => {
  it('takes a link from the first [[ not followed by another [, to the first ]]', () => {
    inline('[[[http://x.org]]]', 
      '[<a class="text-amuse-link text-amuse-is-single-link" href="http://x.org">http://x.org</a>]',
    );
  });

  it('keeps brackets brought by the description in the text', () => {
    inline('[[http://x.org][[desc]]]', '<a class="text-amuse-link" href="http://x.org">[desc</a>]');
    inline('[[http://x.org][desc]]]', '<a class="text-amuse-link" href="http://x.org">desc</a>]');
  });

  it('trims the spaces around target and description, and marks up the description', () => {
    inline('[[ http://x.org ][ d ]]', '<a class="text-amuse-link" href="http://x.org">d</a>');
    inline('[[http://x.org][*em*]]', '<a class="text-amuse-link" href="http://x.org"><em>em</em></a>');
  });

  it('needs two characters for a bare internal link', () => {
    inline('[[#ab]]', '<a class="text-amuse-link" href="#text-amuse-label-ab">ab</a>');
    inline('[[#a]]', '<a class="text-amuse-link text-amuse-is-single-link" href="#a">#a</a>');
  });

  it('prints links in headings literally, markup inside them included', () => {
    same('** [[http://x][*y*]]', '<h3 id="toc1">[[http://x][*y*]]</h3>');
  });
});

describe('footnote bodies', () => {
  it('take the following lines even when they start with >, <, a list mark or a term', () => {
    same('Text [1]\n\n[1] Note\n> quoted\n<quote>\n - item\n 1. one\n term :: def\nend', 
      `<p> Text ${fnref} </p>${fnline('Note &gt; quoted &lt;quote&gt; - item 1. one term :: def end')}`,
    );
  });

  it('end at a heading, and continue with an indented paragraph aligned with their text', () => {
    same('T [1]\n\n[1] Note\n* Heading', `<p> T ${fnref} </p><h2 id="toc1">Heading</h2>${fnline('Note')}`);
    same('T [1]\n\n[1] Note\n\n    continued\n\n  quote', 
      `<p> T ${fnref} </p><blockquote><p> quote </p></blockquote>${fnline('Note <br /> continued')}`,
    );
  });

  it('of secondary notes take only plain lines; a primary note takes a {N} line', () => {
    same('Text [1] {1}\n\n[1] Note\n{1} sec\n\n{2} x\n - item', 
      `<p> Text ${fnref} {1} </p><ul><li><p> item </p></li></ul>${fnline('Note {1} sec')}`,
    );
  });
});

describe('lists', () => {
  it('nest by indentation and open a new list when the numbering style changes at the same level', () => {
    same(' 1. a\n 2. b\n    a. x\n    b. y\n    i. r\n 3. c', 
      '<ol><li><p> a </p></li><li><p> b </p>' +
        '<ol style="list-style-type:lower-alpha"><li><p> x </p></li><li><p> y </p></li></ol>' +
        '<ol style="list-style-type:lower-roman"><li><p> r </p></li></ol></li><li><p> c </p></li></ol>',
    );
  });

  it('read i, v, x and l as roman numerals, even after h.', () => {
    same(' h. x\n i. y', 
      '<ol style="list-style-type:lower-alpha" start="8"><li><p> x </p></li></ol>' +
        '<ol style="list-style-type:lower-roman"><li><p> y </p></li></ol>',
    );
  });

  it('continue while numbers follow (or repeat 1) and restart with a start value on a jump', () => {
    same(' 1. a\n 1. b\n 3. c\n 5. d', 
      '<ol><li><p> a </p></li><li><p> b </p></li><li><p> c </p></li></ol><ol start="5"><li><p> d </p></li></ol>',
    );
    same('x\n   b. two\n   c. three', 
      '<p> x </p><ol style="list-style-type:lower-alpha" start="2"><li><p> two </p></li><li><p> three </p></li></ol>',
    );
  });

  it('switch from bullets to numbers as two lists, and keep indented paragraphs in their item', () => {
    same(' - a\n 1. b', '<ul><li><p> a </p></li></ul><ol><li><p> b </p></li></ol>');
    same(' - a\n\n   more\n\n     - b\n\n   back\nout', 
      '<ul><li><p> a </p><p> more </p><ul><li><p> b </p></li></ul><p> back out </p></li></ul>',
    );
  });

  it('do not start more than 8 spaces in: the line is centered text', () => {
    same('           - too deep', '<div class="center"><p> - too deep </p></div>');
  });
});

describe('verse, definition lists and their anchors', () => {
  it('put the anchors of and inside a verse before it; literal # inside a line stays', () => {
    same('para\n#a1\n\n#a2\n<verse>\nline #x\n#a3\nline2\n</verse>\n\nafter', 
      `<p> ${anchor('a1')} para </p>${anchor('a2')} ${anchor('a3')} <div class="verse"> line #x<br /> line2 </div><p> after </p>`,
    );
    same('> one\n#v1\n> two', `${anchor('v1')} <div class="verse"> one<br /> two </div>`);
  });

  it('make a stanza break of a line that is only <br>, and of a leading blank line; trailing blank lines vanish', () => {
    same('<verse>\n\n a\n<br>\nb\n\n\n</verse>', '<div class="verse"><br /><br /> &#160;a <br /><br /> b </div>');
    same('<verse>\nfoo<br>\n\nbar\n</verse>', '<div class="verse"> foo <br /><br /> bar </div>');
  });

  it('give the anchors of a term to its definition', () => {
    same(' term :: def\n#d1\n\n#d2\n other :: x', 
      `<dl><dt>term</dt><dd><p> ${anchor('d1')} def </p></dd><dt>other</dt><dd><p> ${anchor('d2')} x </p></dd></dl>`,
    );
  });

  it('split a term at the last " ::" and start a list after a paragraph line, at any indentation', () => {
    same(' a :: b :: c', '<dl><dt>a :: b</dt><dd><p> c </p></dd></dl>');
    same('first\n term :: def', '<p> first </p><dl><dt>term</dt><dd><p> def </p></dd></dl>');
    same('          term :: def', '<dl><dt>term</dt><dd><p> def </p></dd></dl>');
  });

  it('are not a definition list without leading space, in a table line, or under a differently marked item', () => {
    same('term :: def', '<p> term :: def </p>');
    same(' a | b :: c', '<table><tbody><tr><td> a </td><td> b :: c </td></tr></tbody></table>');
    same(' term :: def\n  - nested', '<dl><dt>term</dt><dd><p> def </p></dd></dl><ul><li><p> nested </p></li></ul>');
  });

  it('keep a rule inside an indented block', () => {
    same('  ----', '<blockquote><hr /></blockquote>');
  });
});

describe('blocks', () => {
  it('verse takes every line up to </verse> except <example> and <comment>, which interrupt it', () => {
    same('<verse>\na\n<quote>\nb\n</verse>', '<div class="verse">a<br />&lt;quote&gt;<br />b</div>');
    same('<verse>\na\n<example>\n*x*\n</example>', '<div class="verse">a</div><pre class="example">*x*</pre>');
  });

  it('a heading closes the open blocks, takes the next line, and a later closing tag is dropped', () => {
    same('<quote>\na\n* H\nb\n</quote>', '<blockquote><p>a</p></blockquote><h2 id="toc1">H b</h2>');
  });

  it('an anchor ends at the first character that cannot be in a name', () => {
    same('#an.x', `<p>${anchor('an')}.x</p>`);
  });
});

describe('French text (#lang fr)', () => {
  it('puts no-break spaces before ; ! ? : » and after «, with or without a space written there', () => {
    const html = museToHtml('#title t\n#lang fr\n\nb ; c « d » e: f?\n').html;
    expect(html).toContain('b\u202f; c «&#160;d&#160;» e&#160;: f\u202f?');
  });
});

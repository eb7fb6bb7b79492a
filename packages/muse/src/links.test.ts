// Script links (issue 27): a link target with a scheme other than http, https or mailto never becomes a
// live link, in the HTML (served by /full-text to any API consumer) nor in the Typst source of a PDF.
import { describe, it, expect } from 'vitest';
import { urlsOf } from './testing/html-urls.ts';
import { museToHtml, museToTypst, checkTypst, isSafeLinkTarget } from './index.ts';


/** The scheme a browser would follow (WHATWG: C0 controls and spaces at the ends and tabs/newlines removed). */
function schemeOf(url: string): string | null {
  const t = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  return /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(t)?.[1].toLowerCase() ?? null;
}

// Written as they would be in a Muse source (inside [[...]]).
const UNSAFE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'JAVASCRIPT:alert(1)',
  '\u0001javascript:alert(1)',
  '\u0000javascript:alert(1)',
  '\u000bjavascript:alert(1)',
  'java\tscript:alert(1)',
  'java\u000dscript:alert(1)',
  'javascript\t:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;avascript:alert(1)',
  '&#0000106&#0000097vascript:alert(1)',
  'javascript&colon;alert(1)',
  'jav&Tab;ascript:alert(1)',
  '&amp;#106;avascript:alert(1)',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'livescript:alert(1)',
  'javascript:alert(1).png',
  '//evil.example/x',
  '\\\\evil.example/x',
  '/\\evil.example/x',
];
const SAFE = [
  'http://example.org/a?b=1&c=2',
  'HTTPS://example.org/',
  'https://example.org/javascript:x',
  'mailto:someone@example.org',
  'page.html',
  '/library/details/1',
  '../up/one',
  '?q=javascript:',
  '#top',
  'chapter-2.html#javascript:x',
];

describe('isSafeLinkTarget', () => {
  it.each(UNSAFE.map((t) => [t]))('refuses %j', (t) => expect(isSafeLinkTarget(t)).toBe(false));
  it.each(SAFE.map((t) => [t]))('accepts %j', (t) => expect(isSafeLinkTarget(t)).toBe(true));
});

describe('script links in a Muse text', () => {
  for (const target of UNSAFE) {
    const muse = `#title t\n\nBefore [[${target}][click me]] and [[${target}]] after.\n`;
    it(`HTML keeps the text only: ${JSON.stringify(target)}`, () => {
      const html = museToHtml(muse).html;
      for (const url of urlsOf(html)) {
        expect(schemeOf(url) ?? 'relative', url).toMatch(/^(https?|mailto|relative)$/);
        expect(url.replace(/^[\u0000-\u0020]+/, ''), url).not.toMatch(/^[/\\]{2}/);
      }
      expect(html).not.toContain('<a class="text-amuse-link');
      expect(html).toContain('click me');
      expect(html).not.toContain('<img');
    });
    it(`Typst keeps the text only: ${JSON.stringify(target)}`, () => {
      const typ = museToTypst(muse, { nofinalpage: true });
      const body = typ.slice(typ.indexOf('Before'));
      expect(body).not.toMatch(/#link\(/);
      expect(body).toContain('click me');
      expect(checkTypst(typ)).toEqual([]);
    });
  }

  it('keeps http, https, mailto, relative and internal links live', () => {
    const muse = '#title t\n\n#anchor\n\n[[https://example.org/x][web]] [[http://example.org]] [[mailto:a@example.org][mail]] [[page.html][rel]] [[#anchor][here]]\n';
    const html = museToHtml(muse).html;
    expect(urlsOf(html)).toEqual(['https://example.org/x', 'http://example.org', 'mailto:a@example.org', 'page.html', '#text-amuse-label-anchor']);
    const typ = museToTypst(muse, { nofinalpage: true });
    expect(typ).toContain('#link("https://example.org/x")[web]');
    expect(typ).toContain('#link("mailto:a@example.org")');
    expect(typ).toContain('#link("page.html")');
  });

  it('an image with a script source is no image, and images keep their file names', () => {
    const html = museToHtml('#title t\n\n[[javascript:alert(1).png]]\n\n[[data:image/png;base64,AAAA.png][c]]\n\n[[pic-1.png][ok]]\n', { imageUrl: (n) => `/files/${n}` }).html;
    expect(urlsOf(html)).toEqual(['/files/pic-1.png']);
  });
});

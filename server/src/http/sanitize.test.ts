import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize.ts';

describe('sanitizeHtml', () => {
  it('keeps ordinary markup and safe links', () => {
    expect(sanitizeHtml('<h2>Title</h2><p>A <em>b</em> <a href="/page/2">c</a></p>')).toBe('<h2>Title</h2><p>A <em>b</em> <a href="/page/2">c</a></p>');
    expect(sanitizeHtml('<a href="https://example.org">x</a>')).toBe('<a href="https://example.org" rel="noopener noreferrer">x</a>');
  });

  it('removes scripts, event handlers and javascript: URLs', () => {
    expect(sanitizeHtml('<p onclick="x()">a<script>alert(1)</script></p>')).toBe('<p>a</p>');
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a><img src="data:x" onerror="y">')).toBe('<a>x</a><img>');
    expect(sanitizeHtml('<iframe src="https://evil"></iframe><style>*{}</style>ok')).toBe('ok');
  });

  it('escapes stray angle brackets and closes open tags', () => {
    expect(sanitizeHtml('1 < 2 <b>bold')).toBe('1 &lt; 2 <b>bold</b>');
    expect(sanitizeHtml('<unknown>t</unknown>')).toBe('t');
  });
});

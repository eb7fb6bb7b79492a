// Allow-list HTML sanitizer for stored HTML (static pages): known tags and safe attributes survive,
// script-like content is dropped, everything else is escaped as text.
const ALLOWED_TAGS = new Set([
  'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'li', 'ol', 'p', 'pre', 's', 'small', 'span', 'strong', 'sub',
  'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
]);
const DROP_WITH_CONTENT = new Set(['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math']);
const VOID = new Set(['br', 'hr', 'img']);
const ALLOWED_ATTRS: Record<string, Set<string>> = {
  '*': new Set(['title', 'lang', 'dir', 'class', 'id']),
  a: new Set(['href']),
  img: new Set(['src', 'alt', 'width', 'height']),
  td: new Set(['colspan', 'rowspan']),
  th: new Set(['colspan', 'rowspan', 'scope']),
};
const SAFE_URL = /^(https?:|mailto:|\/(?!\/)|#|[a-z0-9._~-]+(\/|$))/i;

const escapeText = (s: string) => s.replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z]+);)/gi, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function sanitizeHtml(html: string): string {
  let out = '';
  let i = 0;
  const open: string[] = [];
  const tagRe = /<\s*(\/)?\s*([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>\/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/)?\s*>/y;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out += escapeText(html.slice(i));
      break;
    }
    out += escapeText(html.slice(i, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    tagRe.lastIndex = lt;
    const m = tagRe.exec(html);
    if (!m) {
      out += '&lt;';
      i = lt + 1;
      continue;
    }
    i = tagRe.lastIndex;
    const [, closing, rawName, attrs] = m;
    const name = rawName.toLowerCase();
    if (DROP_WITH_CONTENT.has(name)) {
      if (!closing) {
        const end = html.toLowerCase().indexOf(`</${name}`, i);
        i = end < 0 ? html.length : html.indexOf('>', end) + 1 || html.length;
      }
      continue;
    }
    if (!ALLOWED_TAGS.has(name)) continue;
    if (closing) {
      const idx = open.lastIndexOf(name);
      if (idx >= 0) {
        while (open.length > idx) out += `</${open.pop()}>`;
      }
      continue;
    }
    let attrOut = '';
    for (const a of attrs.matchAll(/([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
      const an = a[1].toLowerCase();
      const value = a[2] ?? a[3] ?? a[4] ?? '';
      if (!(ALLOWED_ATTRS['*'].has(an) || ALLOWED_ATTRS[name]?.has(an))) continue;
      if ((an === 'href' || an === 'src') && !SAFE_URL.test(value.trim())) continue;
      attrOut += ` ${an}="${escapeAttr(value)}"`;
    }
    if (name === 'a' && /href="https?:/.test(attrOut)) attrOut += ' rel="noopener noreferrer"';
    out += `<${name}${attrOut}>`;
    if (!VOID.has(name)) open.push(name);
  }
  while (open.length) out += `</${open.pop()}>`;
  return out;
}

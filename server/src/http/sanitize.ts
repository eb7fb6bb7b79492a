// Allow-list HTML sanitizer for stored HTML (static pages), on sanitize-html (htmlparser2): known tags and
// safe attributes survive, script-like elements are dropped with their content, other unknown tags are
// dropped but keep their text, and every text is escaped.
import sanitize from 'sanitize-html';

const ALLOWED_TAGS = [
  'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'li', 'ol', 'p', 'pre', 's', 'small', 'span', 'strong', 'sub',
  'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
];
/** Dropped together with everything inside them (not only the tag). */
const DROP_WITH_CONTENT = [
  'script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'svg', 'math',
  // sanitize-html's own defaults: raw or form text that must not come back as markup
  'textarea', 'option', 'xmp',
];
const VOID = ['br', 'hr', 'img'];
const GLOBAL_ATTRS = ['title', 'lang', 'dir', 'class', 'id'];

const OPTIONS: sanitize.IOptions = {
  allowedTags: ALLOWED_TAGS,
  nonTextTags: DROP_WITH_CONTENT,
  disallowedTagsMode: 'discard',
  allowedAttributes: {
    '*': GLOBAL_ATTRS,
    // `rel` is never taken from the input: the transform below replaces it.
    a: ['href', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
  },
  // href/src: http, https, mailto or relative ("/page/2", "#top", "x.png"); images http(s) or relative.
  // The scheme is read after entity decoding with control characters and whitespace removed (launder),
  // so "jav&#x09;ascript:" and " JAVASCRIPT:" are caught; "//host" (protocol-relative) is refused too.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  selfClosing: VOID,
  transformTags: {
    a: (tagName, attribs) => {
      const { rel: _ignored, ...rest } = attribs;
      if (/^\s*https?:/i.test(rest.href ?? '')) rest.rel = 'noopener noreferrer';
      return { tagName, attribs: rest };
    },
  },
};

export function sanitizeHtml(html: string): string {
  // sanitize-html writes void elements as `<br />`; the stored form is `<br>`. Every `>` in text and
  // attribute values comes out escaped (`&gt;`), so " />" can only be the end of one of those tags.
  return sanitize(html, OPTIONS).replace(/ \/>/g, '>');
}

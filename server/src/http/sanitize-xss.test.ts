// XSS vectors in the style of the published cheat sheets (OWASP filter evasion, PortSwigger, html5sec):
// each is sanitized, the result is parsed as a browser would (parse5), and the tree must hold no
// script-capable element, no event handler, no style, and no URL with a scheme other than http(s)/mailto.
import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5';
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize.ts';

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.DocumentFragment;

const VECTORS: string[] = [
  // script tags
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>',
  '<ScRiPt>alert(1)</sCrIpT>',
  '<script/xss src="https://xss.example/a.js"></script>',
  '<<script>alert(1);//<</script>',
  '<script>alert(1)//',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '<p>a<script type="text/javascript">document.write("<img src=x onerror=alert(1)>")</script>b</p>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<p><noscript></p><img src=x onerror=alert(1)></noscript>',
  '<b><noscript></b><a href="javascript:alert(1)">x</a></noscript>',
  // event handlers
  '<img src=x onerror=alert(1)>',
  '<IMG SRC=x OnErRoR="alert(1)">',
  '<img src="x" onerror  =  "alert(1)" />',
  '<img/src="x"/onerror=alert(1)>',
  '<body onload=alert(1)>',
  '<div onmouseover="alert(1)">hover</div>',
  '<p onclick=alert(1)//>x</p>',
  '<a href="https://ok.example" onfocus=alert(1) autofocus>x</a>',
  '<details open ontoggle=alert(1)>',
  '<input autofocus onfocus=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<marquee onstart=alert(1)>x</marquee>',
  // javascript: with entities, whitespace and case
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="jav&#x0D;ascript:alert(1)">x</a>',
  '<a href="jav\tascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">x</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="&#14;  javascript:alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href=javascript:alert(1)>x</a>',
  '<a href=`javascript:alert(1)`>x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="//evil.example/x">protocol-relative</a>',
  '<a href="\\\\evil.example/x">backslashes</a>',
  // the spellings the Muse link check refuses too (packages/muse/src/links.ts, issue 27)
  '<a href="/\\evil.example/x">slash and backslash</a>',
  '<a href="&#47;&#47;evil.example/x">encoded slashes</a>',
  '<a href="/&#92;evil.example/x">encoded backslash</a>',
  '<a href="java&NewLine;script:alert(1)">x</a>',
  '<a href="&amp;#106;avascript:alert(1)">twice encoded</a>',
  '<a href="VBSCRIPT:msgbox(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<img src="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PmFsZXJ0KDEpPC9zY3JpcHQ+PC9zdmc+">',
  '<img src="  data:image/png;base64,AAAA">',
  '<img dynsrc="javascript:alert(1)" lowsrc="javascript:alert(1)">',
  // SVG and MathML
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<svg><animate attributeName="href" values="javascript:alert(1)" /></svg>',
  '<svg><style><img src=x onerror=alert(1)></style></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<math href="javascript:alert(1)">click</math>',
  '<svg><textarea><img src=x onerror=alert(1)></textarea></svg>',
  // broken and unclosed tags
  '<img src="x" onerror="alert(1)"',
  '<img """><script>alert(1)</script>">',
  '<a href="https://ok.example"<script>alert(1)</script>x</a>',
  '<p title="a><script>alert(1)</script>">x</p>',
  '<b <script>alert(1)</script>>x</b>',
  '<iframe src=javascript:alert(1)>',
  '<iframe><p><img src=x onerror=alert(1)></p>',
  '<iframe></p><img src=x onerror=alert(1)></iframe>',
  '<svg></p><style><a title="</style><img src=x onerror=alert(1)>">',
  '<</p>iframe src=javascript:alert(1)//<</p>/iframe>',
  // comments and CDATA
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<!-- --!><img src=x onerror=alert(1)>-->',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<!--[if gte IE 4]><script>alert(1)</script><![endif]-->',
  '<?xml version="1.0"?><img src=x onerror=alert(1)>',
  // style
  '<div style="width: expression(alert(1))">x</div>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<style>@import "https://xss.example/x.css";</style>',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<p style="behavior: url(xss.htc)">x</p>',
  // page-level tricks
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0; url=data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg">',
  '<base href="javascript:alert(1)//">',
  '<form action="javascript:alert(1)"><input type="submit"></form>',
  '<form><button formaction="javascript:alert(1)">x</button></form>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<p srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;">x</p>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<applet code="x.class"></applet>',
  '<frameset><frame src="javascript:alert(1)"></frameset>',
  '<template><img src=x onerror=alert(1)></template>',
  '<table background="javascript:alert(1)"><tr><td background="javascript:alert(1)">x</td></tr></table>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<textarea></textarea/><img src=x onerror=alert(1)>',
  '<select><option><img src=x onerror=alert(1)></option></select>',
  '<isindex action="javascript:alert(1)" type=image>',
];

const ALLOWED_ELEMENTS = new Set([
  'a', 'abbr', 'b', 'blockquote', 'br', 'caption', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'li', 'ol', 'p', 'pre', 's', 'small', 'span', 'strong', 'sub',
  'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
]);
const FORBIDDEN_ELEMENTS = ['script', 'style', 'iframe', 'object', 'embed', 'svg', 'math', 'base', 'meta', 'link', 'form', 'frame', 'template'];
const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'background', 'data', 'lowsrc', 'dynsrc', 'poster']);

/** The scheme a browser would follow: entities are decoded by parse5; control characters and whitespace removed. */
function schemeOf(value: string): string | null {
  const cleaned = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  return /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1].toLowerCase() ?? null;
}

function problems(html: string): string[] {
  const found: string[] = [];
  const walk = (node: Node) => {
    if ('tagName' in node) {
      const tag = node.tagName.toLowerCase();
      if (FORBIDDEN_ELEMENTS.includes(tag)) found.push(`element <${tag}>`);
      else if (!ALLOWED_ELEMENTS.has(tag)) found.push(`element <${tag}> outside the allow-list`);
      for (const attr of node.attrs) {
        const name = (attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name).toLowerCase();
        if (name.startsWith('on')) found.push(`event handler ${name} on <${tag}>`);
        if (name === 'style' || name === 'srcdoc') found.push(`${name} on <${tag}>`);
        if (URL_ATTRS.has(name)) {
          const scheme = schemeOf(attr.value);
          if (scheme !== null && !['http', 'https', 'mailto'].includes(scheme)) found.push(`${name}="${attr.value}" on <${tag}>`);
          if (/^[/\\]{2}/.test(attr.value.replace(/[\u0000-\u0020\u007f-\u009f]/g, ''))) found.push(`protocol-relative ${name} on <${tag}>`);
        }
      }
    }
    const content = 'content' in node ? (node.content as Node) : undefined;
    if (content) walk(content);
    if ('childNodes' in node) for (const child of node.childNodes) walk(child);
  };
  walk(parseFragment(html));
  return found;
}

describe('sanitizeHtml against XSS vectors', () => {
  it('the check itself finds what it must refuse', () => {
    expect(problems('<img src=x onerror=alert(1)>')).toEqual(['event handler onerror on <img>']);
    expect(problems('<a href="jav&#x09;ascript:alert(1)">x</a>')).toEqual(['href="jav\tascript:alert(1)" on <a>']);
    expect(problems('<svg><script>1</script></svg>')).toEqual(['element <svg>', 'element <script>']);
    expect(problems('<p>fine <a href="mailto:a@b.example">m</a> <img src="/x.png"></p>')).toEqual([]);
  });

  it.each(VECTORS.map((v) => [v]))('%s', (vector) => {
    const clean = sanitizeHtml(vector);
    expect(problems(clean), clean).toEqual([]);
    // sanitizing the output again changes nothing (no markup appears from re-parsing)
    expect(sanitizeHtml(clean)).toBe(clean);
  });

  it('keeps the harmless parts of a vector', () => {
    expect(sanitizeHtml('<div onmouseover="alert(1)">hover</div>')).toBe('<div>hover</div>');
    expect(sanitizeHtml('<a href="JaVaScRiPt:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="jav&#x09;ascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="//evil.example/x">p</a>')).toBe('<a>p</a>');
    expect(sanitizeHtml('<img src="data:image/png;base64,AAAA" alt="">')).toBe('<img alt="">');
    expect(sanitizeHtml('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(sanitizeHtml('<svg><a href="https://ok.example">x</a></svg>after')).toBe('after');
  });

  it('keeps the allowed policy: safe links and images, table attributes, global attributes', () => {
    expect(sanitizeHtml('<a href="mailto:a@b.example" rel="opener" target="_blank">m</a>')).toBe('<a href="mailto:a@b.example">m</a>');
    expect(sanitizeHtml('<a href="https://x.example" rel="opener">x</a>')).toBe('<a href="https://x.example" rel="noopener noreferrer">x</a>');
    expect(sanitizeHtml('<a href="#top">t</a><a href="page.html?a=1&amp;b=2">r</a>')).toBe('<a href="#top">t</a><a href="page.html?a=1&amp;b=2">r</a>');
    expect(sanitizeHtml('<img src="https://x.example/a.png" alt="A" width="10" height="20" loading="lazy">'))
      .toBe('<img src="https://x.example/a.png" alt="A" width="10" height="20">');
    expect(sanitizeHtml('<img src="mailto:a@b.example">')).toBe('<img>');
    expect(sanitizeHtml('<table><tr><th scope="col" colspan="2">h</th></tr><tr><td rowspan="2" scope="x">d</td></tr></table>'))
      .toBe('<table><tr><th scope="col" colspan="2">h</th></tr><tr><td rowspan="2">d</td></tr></table>');
    expect(sanitizeHtml('<p class="lead" id="a" lang="it" dir="ltr" title="t" data-x="1">p</p>')).toBe('<p class="lead" id="a" lang="it" dir="ltr" title="t">p</p>');
    expect(sanitizeHtml('<p>a &amp; b &lt; c &eacute; "q"</p>')).toBe('<p>a &amp; b &lt; c é "q"</p>');
  });
});

// Which link targets of a Muse text may become live links (an HTML href, a Typst/PDF link). The HTML
// goes to any API consumer, not only our web app behind its CSP, so script links must never come out.

/** Schemes a link may have; a target without one is relative ("page.html", "/x", "?q", "#note"). */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

// The WHATWG URL parser strips leading and trailing C0 controls and spaces, drops every tab and line
// break wherever it is, then reads a scheme as an ASCII letter followed by letters, digits, + - . up to ":".
// Stricter here: controls and white space are dropped everywhere (the Muse parser turns a tab into spaces,
// and older URL readers skip them), so "java  script:" counts as javascript: too.
const BLANKS = /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/g;
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// "//host" and, as browsers read a backslash like a slash in http(s) URLs, "\\host", "/\host": another
// host with the page's own scheme. Not a script, but the sanitizer of stored pages refuses it too (one rule).
const OTHER_HOST = /^[/\\]{2}/;

const NAMED: Record<string, string> = { colon: ':', tab: '\t', newline: '\n', amp: '&', sol: '/', bsol: '\\', period: '.' };

/** Character references decoded (numeric, and the few named ones that can spell a scheme or a slash). */
function decodeReferences(s: string): string {
  return s.replace(/&(?:#(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}))|([A-Za-z]+));?/g, (all, hex: string, dec: string, name: string) => {
    if (name !== undefined) return NAMED[name.toLowerCase()] ?? all;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec, 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

function safeAsBrowserReadsIt(target: string): boolean {
  const t = target.replace(BLANKS, '');
  if (OTHER_HOST.test(t)) return false;
  const scheme = SCHEME.exec(t);
  return scheme === null || SAFE_SCHEMES.has(scheme[1].toLowerCase());
}

/**
 * Whether a link target may be a live link: http, https, mailto, or relative (a path, "?query",
 * "#fragment"). Anything with another scheme (javascript:, data:, vbscript:, file:...) is not, however
 * it is written: any letter case, leading spaces or control characters, tabs or line breaks inside
 * ("java\tscript:"), character references ("&#106;avascript:", "javascript&colon;") for a consumer
 * that decodes them once more. Protocol-relative "//host" is refused as well.
 */
export function isSafeLinkTarget(target: string): boolean {
  if (!safeAsBrowserReadsIt(target)) return false;
  // decoded twice: "&amp;#106;" is one more decoding away from "j"
  const once = decodeReferences(target);
  return once === target || (safeAsBrowserReadsIt(once) && safeAsBrowserReadsIt(decodeReferences(once)));
}

// Plain text written as Muse inline markup (a cover's title field prefilled with a catalogue title).
// Pure and small, so the web app can use it without the Muse parser; packages/muse checks that the
// parser reads it back as the same text (literal.test.ts).

/** Characters that may start Muse inline markup; a text without them reads as itself. */
const INLINE_MARKUP = /[*=<>[\]{}~#;_]/;

/**
 * `text` as Muse inline markup that reads back as exactly that text: as it is when it holds no markup
 * character, else inside <verbatim> (a `</verbatim>` in the text itself is written outside it).
 */
export function museLiteral(text: string): string {
  if (!INLINE_MARKUP.test(text)) return text;
  return text.split('</verbatim>').map((p) => (p ? `<verbatim>${p}</verbatim>` : '')).join('<verbatim></</verbatim>verbatim>');
}

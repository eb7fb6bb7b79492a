// Public API of @uc/muse.
export type * from './types.ts';
export { parseMuse } from './parse.ts';
export { museToHtml, escapeHtml, type HtmlOptions, type HtmlResult, type TocEntry } from './html.ts';

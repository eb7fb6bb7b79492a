// Public API of @uc/muse.
export type * from './types.ts';
export { parseMuse } from './parse.ts';
export { parseInline, inlineText } from './inline.ts';
export { isSafeLinkTarget } from './links.ts';
export { museToHtml, escapeHtml, type HtmlOptions, type HtmlResult, type TocEntry } from './html.ts';
export { ARTICLE_MAX_CHARS, chapterNewpage, textLength, museToTypst, escapeTypst, typstString, museHelpers, museFragmentTypst, museFragmentProblems, imageFormat, FILES_DIR, mm, type TypstOptions } from './typst.ts';
export { resolveLayout, type TypstLayoutOptions, type ResolvedLayout } from './layout.ts';
export { readMuseZip, type MuseZip } from './zip.ts';
export { museToPdf, compileTypst, checkTypst, TypstCompileError } from './pdf.ts';
export { collectionToTypst, collectionToPdf, DEFAULT_COLLECTION_TITLE, type CollectionText, type CollectionTypst } from './collection.ts';
export { justificationLimits } from './layout.ts';
export { availableFonts, fontIndex, useFontIndex, type FontIndex, typstHasFont, readFontFile, fontSpecimenTypst, fontSpecimenPdf, missingGlyphs, missingGlyphsMessage, fontFor, textLetters, lettersMissing, type FontFamily, type FontType, type MissingGlyphs } from './fonts.ts';
export { typstToSvg, typstWarnings, compileTypstPdf, compilerSetup, evictTypstCaches, FONT_DIRS } from './pdf.ts';
export { museToTypstBook, joinTypstBook, type TypstBook, type TypstSegment } from './typst.ts';
export { collectionToTypstBook } from './collection.ts';
export * from './chunks.ts';
export { museToEpub, collectionToEpub, type EpubOptions, type EpubText, type EpubCollectionOptions } from './epub.ts';
export { museSections, sectionTitles, selectSections } from './sections.ts';

// The parts of Citation.js used here: the name parser, the CSL formatter, and in tests the BibTeX and RIS parsers (no type declarations ship).
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown);
    data: Record<string, unknown>[];
    format(format: string, options?: Record<string, unknown>): string;
  }
  export const plugins: { config: { get(name: string): unknown } };
}
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-csl';
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/name' {
  export function parse(name: string): { given?: string; family?: string; suffix?: string; 'non-dropping-particle'?: string; 'dropping-particle'?: string };
}

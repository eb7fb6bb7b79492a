// Rules of the linked-data (Wikidata) details of an author.

/** URL values render as links only when they are http(s) without spaces (spec §2 Author overview). */
export const LINK_VALUE = /^https?:\/\/\S+$/;

export function isLinkValue(value: unknown): value is string {
  return typeof value === 'string' && LINK_VALUE.test(value);
}

/** The Wikidata page of an item id (Q followed by digits), or undefined for anything else. */
export function wikidataItemUrl(id: string | null | undefined): string | undefined {
  return id && /^Q\d+$/.test(id) ? `https://www.wikidata.org/wiki/${id}` : undefined;
}

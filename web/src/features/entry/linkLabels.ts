// A copy's link label (uri_label) comes from the library's records. The labels that harvesters and
// spreadsheets commonly give ("Catalogue record", "Read online"…) are shown in the interface language;
// any other label is the library's own words, shown as written.
import type { TFunction } from 'i18next';

/** Known labels by their folded English form; the values are the English source strings (keys). */
export const LINK_LABELS: Record<string, string> = {
  'catalogue record': 'Catalogue record',
  'catalog record': 'Catalogue record',
  'opac record': 'OPAC record',
  'opac page': 'OPAC page',
  'book page': 'Book page',
  'read online': 'Read online',
  'full text': 'Full text',
  link: 'Link',
};

/** The label of a copy's link in the interface language (`Link` when the record gives none). */
export function linkLabel(t: TFunction, label: string | null | undefined): string {
  const own = (label ?? '').trim();
  if (!own) return t('Link');
  const known = LINK_LABELS[own.toLowerCase().replace(/\s+/g, ' ')];
  return known ? t(known) : own;
}

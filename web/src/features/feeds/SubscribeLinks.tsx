import { useTranslation } from 'react-i18next';
import type { FilterName } from '../../lib/shared';

/** The OPDS acquisition feed's media type (server/src/publish/opds.ts). */
export const OPDS_ACQUISITION = 'application/atom+xml;profile=opds-catalog;kind=acquisition';

/**
 * A search with its filters as one query of the search language, which the feeds follow: a facet's
 * values OR-ed, facets AND-ed, as the search itself does (`library:3`, `(language:fr OR language:it)`).
 */
export function feedQuery(query: string, filters: Partial<Record<FilterName, string[]>> = {}): string {
  const q = query.trim();
  const terms = (Object.entries(filters) as [FilterName, string[] | undefined][])
    .filter(([, values]) => values && values.length > 0)
    .map(([name, values]) => (values!.length === 1 ? `${name}:${values![0]}` : `(${values!.map((v) => `${name}:${v}`).join(' OR ')})`));
  if (terms.length === 0) return q;
  return [q && `(${q})`, ...terms].filter(Boolean).join(' ');
}

/** The Atom feed of a query's newest matches (GET /feed.atom). */
export function atomFeedUrl(query: string): string {
  return query ? `/feed.atom?${new URLSearchParams({ query })}` : '/feed.atom';
}

/** The OPDS acquisition feed of the same matches, those with files (GET /opds/search). */
export function opdsFeedUrl(query: string): string {
  return `/opds/search?${new URLSearchParams({ query })}`;
}

/**
 * "Subscribe": the Atom feed (feed readers) and the OPDS feed (e-book readers) of a search, an author
 * (`creator:N`) or a library (`library:N`), also announced in the document's head for browsers and readers.
 */
export function SubscribeLinks({ query, title, className = '' }: { query: string; title: string; className?: string }) {
  const { t } = useTranslation();
  const atom = atomFeedUrl(query);
  const opds = opdsFeedUrl(query);
  return (
    <>
      {/* React 19 places <link> elements in <head>, wherever they are rendered; they go with the page. */}
      <link rel="alternate" type="application/atom+xml" title={t('Atom feed: {{title}}', { title })} href={atom} />
      <link rel="alternate" type={OPDS_ACQUISITION} title={t('OPDS catalogue: {{title}}', { title })} href={opds} />
      <p className={`flex flex-wrap items-center gap-x-4 gap-y-1 text-sm ${className}`}>
        <a href={atom} type="application/atom+xml" className="link">
          <span aria-hidden="true">◉ </span>
          {t('Subscribe (Atom feed)')}
        </a>
        <a href={opds} type={OPDS_ACQUISITION} className="link">
          {t('Subscribe in an e-book reader (OPDS)')}
        </a>
      </p>
    </>
  );
}

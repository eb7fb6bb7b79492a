import { useId } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LibraryPublic } from '../../lib/shared';
import { displayUrl, establishedYear, libraryPlace, libraryTypeLabel, logoSrc, safeHttpUrl } from './libraryText';
import { languageList } from '../../lib/intl';

const TYPE_STYLES: Record<string, string> = {
  digital: 'text-sky-900',
  physical: 'text-emerald-900',
  closed: 'text-stone-700',
};

/** The library's type as text (never by colour alone). */
export function LibraryType({ type }: { type: string }) {
  const { t } = useTranslation();
  return <span className={`text-sm font-medium ${TYPE_STYLES[type] ?? TYPE_STYLES.closed}`}>{t(libraryTypeLabel(type))}</span>;
}

/** Link to the library's own site, opening in a new tab (spec: 'Visit Library Homepage'). */
export function LibrarySiteLink({ url }: { url: string | null }) {
  const { t } = useTranslation();
  const href = safeHttpUrl(url);
  if (!href) return null;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className="link break-all" title={t('Visit Library Homepage')}>
      {displayUrl(href)}
      <span className="sr-only"> ({t('opens in a new tab')})</span>
    </a>
  );
}

/** The short library card of the overview grid. */
export function LibraryCard({ library: lib }: { library: LibraryPublic }) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const logo = logoSrc(lib.logo_url);
  const year = establishedYear(lib);
  const place = libraryPlace(lib, i18n.language);
  return (
    <article aria-labelledby={headingId} className="flex h-full flex-col rounded-lg border border-stone-300 bg-white p-4 shadow-sm">
      {logo && <img src={logo} alt={t('{{name}} logo', { name: lib.name })} className="mb-3 max-h-20 w-auto self-start" loading="lazy" />}
      <h2 id={headingId} className="text-lg font-semibold leading-snug">
        {lib.name}
      </h2>
      <p className="mt-1">
        <LibraryType type={lib.library_type} />
        {place && <span className="text-sm text-stone-700"> · {place}</span>}
      </p>
      {lib.url && (
        <p className="mt-1 text-sm">
          <LibrarySiteLink url={lib.url} />
        </p>
      )}
      {year && <p className="mt-1 text-sm text-stone-700">{t('Project established in {{year}}', { year })}</p>}
      {lib.languages && <p className="mt-1 text-sm font-semibold">{languageList(lib.languages, i18n.language)}</p>}
      {lib.short_desc && <p className="mt-2 text-sm">{lib.short_desc}</p>}
      <div className="mt-auto flex flex-wrap gap-2 pt-4">
        <Link to={`/library/details/${lib.id}`} className="btn" aria-label={`${t('Library details')}: ${lib.name}`}>
          {t('Library details')}
        </Link>
        {lib.catalog_is_accessible && (
          <Link to={`/library/entries/${lib.id}`} className="btn" aria-label={`${t('See the library entries')}: ${lib.name}`}>
            {t('See the library entries')}
          </Link>
        )}
      </div>
    </article>
  );
}

import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Match } from '../../lib/shared';
import { LanguageTags } from '../../components/LanguageTags';
import { LibraryBadge } from '../../components/LibraryBadge';
import { contentLang } from '../../lib/lang';
import { MergeHandles } from '../curation/AddToBox';
import { OmitButton } from '../curation/OmitButton';

/** What the viewer may do (spec §6): merge handles for can_merge, 'Omit' for can_set_exclusions. */
export interface CurationRights {
  canMerge: boolean;
  canExclude: boolean;
}

export function ResultCard({ match, rights }: { match: Match; rights?: CurationRights }) {
  const { t } = useTranslation();
  const [title, subtitle] = match.title;
  const libraries = Array.from(new Map(match.data_sources.map((ds) => [ds.library_id, ds])).values());
  const marker = match.translate.includes('translation')
    ? 'translation'
    : match.translate.includes('translated')
      ? 'translated'
      : undefined;
  return (
    <article className="rounded-tl-2xl border border-stone-300 bg-stone-50 p-4 font-serif">
      {match.creator.length > 0 && (
        <ul className="mb-1 text-sm">
          {match.creator.map((c) => (
            <li key={c.id} className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
              <span>{c.value}</span>
              <Link
                to={`/library/author/${c.id}`}
                className="link font-sans text-xs"
                aria-label={t('See all entries by {{name}}', { name: c.value })}
              >
                {t('See all entries')}
              </Link>
              {rights?.canMerge && <MergeHandles item={{ id: c.id, label: c.value, type: 'author' }} />}
              {rights?.canExclude && <OmitButton type="author" id={c.id} label={c.value} />}
            </li>
          ))}
        </ul>
      )}
      <h2 className="text-lg font-semibold">
        <Link to={`/entry/${match.entry_id}`} className="link" lang={contentLang(match.language)}>
          {title}
        </Link>{' '}
        <LanguageTags languages={match.language} marker={marker} />
      </h2>
      {subtitle && (
        <p className="italic" lang={contentLang(match.language)}>
          {subtitle}
        </p>
      )}
      {(rights?.canMerge || rights?.canExclude) && (
        <div className="mt-1 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
          {rights.canMerge && <MergeHandles item={{ id: match.entry_id, label: title, type: 'entry' }} />}
          {rights.canExclude && <OmitButton type="entry" id={match.entry_id} label={title} />}
        </div>
      )}
      {libraries.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-1 font-sans" aria-label={t('Libraries')}>
          {libraries.map((ds) => (
            <li key={ds.library_id}>
              <LibraryBadge
                to={`/entry/${match.entry_id}#library-${ds.library_id}`}
                name={ds.library_name}
                type={ds.library_type}
              />
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Match } from '../../lib/shared';
import { LanguageTags } from '../../components/LanguageTags';
import { LibraryBadge } from '../../components/LibraryBadge';
import { contentLang } from '../../lib/lang';
import { DragHandle } from '../curation/AddToBox';
import { CurateMenu } from '../curation/CurateMenu';
import { MARK, sentence } from './sentence';

/** What the viewer may do (spec §6): merge handles for can_merge, 'Omit' for can_set_exclusions. */
export interface CurationRights {
  canMerge: boolean;
  canExclude: boolean;
}

/** The language tags' marker: a translation wins over a translated text (a text can be both). */
export function translationMarker(translate: Match['translate']): 'translation' | 'translated' | undefined {
  const ids = translate.map((x) => x.id);
  if (ids.includes('translation')) return 'translation';
  if (ids.includes('translated')) return 'translated';
  return undefined;
}

/**
 * One search match. The authors are one wrapping line of links (each name leads to all of that
 * author's entries), so a card with many authors stays compact; the whole card is in one font family.
 */
export function ResultCard({ match, rights }: { match: Match; rights?: CurationRights }) {
  const { t } = useTranslation();
  const [{ value: title }, { value: subtitle }] = match.title;
  const lang = contentLang(match.language);
  const libraries = Array.from(new Map(match.data_sources.map((ds) => [ds.library_id, ds])).values());
  const curating = Boolean(rights?.canMerge || rights?.canExclude);
  const last = match.creator.length - 1;
  return (
    <article className="rounded-tl-2xl border border-stone-300 bg-stone-50 p-4">
      {match.creator.length > 0 && (
        <ul
          aria-label={t('Authors')}
          className={`mb-1 flex flex-wrap items-baseline text-sm text-stone-800 ${curating ? 'gap-x-3 gap-y-1' : 'gap-x-1'}`}
        >
          {match.creator.map((c, i) => (
            <li key={c.id} className="flex flex-wrap items-baseline gap-x-1 gap-y-1">
              <Link
                to={`/library/author/${c.id}`}
                className="link"
                aria-label={t('See all entries by {{name}}', { name: c.value })}
              >
                {c.value}
              </Link>
              {!curating && i < last && <span aria-hidden="true">,</span>}
              {rights?.canMerge && <DragHandle item={{ id: c.id, label: c.value, type: 'author' }} />}
            </li>
          ))}
        </ul>
      )}
      <h2 className="text-lg font-semibold">
        <Link to={`/entry/${match.entry_id}`} className="link" lang={lang}>
          {title}
        </Link>{' '}
        <LanguageTags languages={match.language} marker={translationMarker(match.translate)} />
      </h2>
      {subtitle && (
        <p className="italic" lang={lang}>
          {subtitle}
        </p>
      )}
      {match.related && (
        <p className="mt-1 text-sm text-stone-800">
          {sentence(
            t(match.related.relation === 'translation_of' ? 'Listed as a translation of {{title}}' : 'Listed as the original of {{title}}', { title: MARK }),
            <Link to={`/entry/${match.related.entry_id}`} className="link italic">
              {match.related.title}
            </Link>,
          )}
        </p>
      )}
      {match.snippet && <Snippet entryId={match.entry_id} snippet={match.snippet} lang={lang} />}
      {curating && (
        <div className="mt-1 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
          {rights?.canMerge && <DragHandle item={{ id: match.entry_id, label: title, type: 'entry' }} />}
          <CurateMenu
            entry={{ id: match.entry_id, label: title, type: 'entry' }}
            authors={match.creator.map((c) => ({ id: c.id, label: c.value, type: 'author' as const }))}
            canMerge={!!rights?.canMerge} canExclude={!!rights?.canExclude}
          />
        </div>
      )}
      {libraries.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-1" aria-label={t('Libraries')}>
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

/** The full-text page of a snippet: its data source's text opened, the matched words marked. */
export function snippetHref(entryId: number, snippet: NonNullable<Match['snippet']>): string {
  const words = [...new Set(snippet.parts.filter((p) => p.match).map((p) => p.text))];
  const qs = new URLSearchParams({ highlight: words.join(' '), text: String(snippet.data_source_id) });
  return `/entry/${entryId}?${qs.toString()}`;
}

/** A passage of the full text where the query matched; plain text parts (React escapes them), matches in <mark>. */
function Snippet({ entryId, snippet, lang }: { entryId: number; snippet: NonNullable<Match['snippet']>; lang: string | undefined }) {
  const { t } = useTranslation();
  return (
    <p className="mt-2 border-l-2 border-stone-300 pl-3 font-serif text-sm text-stone-800">
      <span className="sr-only">{t('In the full text:')} </span>
      <span lang={lang}>
        {snippet.parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
      </span>{' '}
      <Link to={snippetHref(entryId, snippet)} className="link font-sans whitespace-nowrap">
        {t('Read in the full text')}
      </Link>
    </p>
  );
}

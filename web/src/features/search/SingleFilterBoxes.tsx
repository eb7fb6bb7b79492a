import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAgent, useLibrary } from '../../api/hooks';
import { LIBRARY_TYPE_LABELS } from './labels';
import { libraryPlace } from '../libraries/libraryText';
import { MergeHandles } from '../curation/AddToBox';
import { AgentEdit } from '../curation/AgentEdit';

/** Library card for a `library:N` query. */
export function LibraryFilterBox({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const { data: lib } = useLibrary(id);
  if (!lib) return null;
  const place = libraryPlace(lib, i18n.language);
  return (
    <section className="rounded border border-stone-300 bg-white p-4" aria-label={t('Library')}>
      <h2 className="text-lg font-semibold">{lib.name}</h2>
      <p className="text-sm text-stone-700">
        {t(LIBRARY_TYPE_LABELS[lib.library_type] ?? lib.library_type)}
        {place && ` · ${place}`}
      </p>
      {lib.short_desc && <p className="mt-2 text-sm">{lib.short_desc}</p>}
      <p className="mt-2">
        <Link to={`/library/details/${lib.id}`} className="link">
          {t('Library details')}
        </Link>
      </p>
    </section>
  );
}

/**
 * Author card for a `creator:N` query; users enabled for merging get the merge handles and the edit
 * control (not for an author merged into another, spec §2 Author overview).
 */
export function AgentFilterBox({ id, canMerge = false }: { id: string; canMerge?: boolean }) {
  const { t } = useTranslation();
  const { data: agent } = useAgent(id);
  if (!agent) return null;
  const curate = canMerge && !agent.canonical;
  return (
    <section className="rounded border border-stone-300 bg-white p-4" aria-label={t('Author')}>
      <h2 className="text-lg font-semibold">{agent.name}</h2>
      <p className="mt-2">
        <Link to={`/library/author/${agent.search_link_id || agent.id}`} className="link">
          {t('See all entries')}
        </Link>
      </p>
      {curate && (
        <div className="mt-2 flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
          <MergeHandles item={{ id: agent.id, label: agent.name, type: 'author' }} />
          <AgentEdit agentId={agent.id} name={agent.name} />
        </div>
      )}
    </section>
  );
}

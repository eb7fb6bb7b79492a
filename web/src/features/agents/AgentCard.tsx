import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Agent } from '../../lib/shared';

import { LinkedData } from './LinkedData';
import { wikidataItemUrl } from './linkedData';
import { MergeHandles } from '../curation/AddToBox';
import { AgentEdit } from '../curation/AgentEdit';

type Props = {
  agent: Agent & { entries_count?: number | null };
  /** Users enabled for merging get the merge handles and 'Edit' (never on a merged author). */
  canMerge?: boolean;
};

/**
 * An author card. A merged author (with a canonical) shows the author it was merged into, and its
 * 'See all entries' follows the canonical's id (search_link_id); it never has edit or merge handles.
 */
export function AgentCard({ agent, canMerge = false }: Props) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const wikidata = wikidataItemUrl(agent.wikidata_id);
  return (
    <article aria-labelledby={headingId} className="rounded-lg border border-stone-300 bg-white p-4 shadow-sm">
      <h2 id={headingId} className="text-lg font-semibold leading-snug">
        {agent.name}
      </h2>
      {typeof agent.entries_count === 'number' && (
        <p className="mt-1 text-sm text-stone-700">{t('author_entries', { count: agent.entries_count })}</p>
      )}
      {agent.canonical && (
        <p className="mt-1 text-sm text-stone-800">{t('See “{{name}}”', { name: agent.canonical.name })}</p>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Link
          to={`/library/author/${agent.search_link_id || agent.id}`}
          className="btn"
          aria-label={t('See all entries by {{name}}', { name: agent.canonical?.name ?? agent.name })}
        >
          {t('See all entries')}
        </Link>
        {wikidata && (
          <button
            type="button"
            className="btn"
            aria-expanded={open}
            aria-controls={open ? panelId : undefined}
            onClick={() => setOpen((o) => !o)}
          >
            {t('Linked data')} <span aria-hidden="true">{open ? '▲' : '▼'}</span>
          </button>
        )}
        {wikidata && (
          <a href={wikidata} className="rounded border border-stone-400 px-2 py-0.5 font-mono text-xs text-stone-800 hover:underline" target="_blank" rel="noopener noreferrer">
            <span className="sr-only">Wikidata </span>
            {agent.wikidata_id}
          </a>
        )}
      </div>
      {canMerge && !agent.canonical && (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
          <MergeHandles item={{ id: agent.id, label: agent.name, type: 'author' }} />
          <AgentEdit agentId={agent.id} name={agent.name} />
        </div>
      )}
      {open && <LinkedData id={panelId} agentId={agent.id} wikidataId={agent.wikidata_id} language={i18n.language || 'en'} />}
    </article>
  );
}

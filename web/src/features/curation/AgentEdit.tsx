// Author edit (spec §2 Author overview, §4 Agent edit, §5 linked-data identifier; anchor §6.3.6: validate
// on the client and explain instead of silently clearing): an 'Edit' toggle and an inline form loaded
// from GET /agents/{id}, saving with POST /agents/{id}.
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { queryKeys } from '../../api/hooks';
import type { Agent } from '../../lib/shared';
import { curationApi } from './api';
import { invalidateKeys, serverErrorOr } from './catalogue';

/** Letter Q and digits, as the server checks it (empty clears the id). */
export const WIKIDATA_ID = /^Q\d{1,12}$/;

function EditForm({ agent, onSaved, onCancel }: { agent: Agent; onSaved: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const inputId = useId();
  const helpId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(agent.wikidata_id ?? '');
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (wikidataId: string) => curationApi.editAgent(agent.id, wikidataId),
    onSuccess: () => {
      void invalidateKeys(queryClient, ['agents', 'agent', 'wikidata']);
      onSaved();
    },
    onError: (err) => setError(serverErrorOr(err, t('Failed!'))),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = value.trim();
    if (v !== '' && !WIKIDATA_ID.test(v)) {
      setError(t('The Wikidata id is the letter Q followed by digits (for example Q5682)'));
      inputRef.current?.focus();
      return;
    }
    setError(null);
    mutation.mutate(v);
  };
  return (
    <form onSubmit={submit} className="mt-3 space-y-2 rounded border border-stone-300 bg-stone-50 p-3 font-sans text-sm" noValidate>
      <p className="font-semibold">{agent.name}</p>
      <div>
        <label htmlFor={inputId} className="mb-1 block font-medium">
          {t('Wikidata ID')}
        </label>
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          value={value}
          placeholder="QXXXXXX"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${helpId} ${errorId}` : helpId}
          onChange={(e) => setValue(e.target.value)}
          className="w-full max-w-xs rounded border border-stone-500 bg-white px-2 py-1 font-mono"
        />
        <p id={helpId} className="mt-1 text-stone-700">
          {t('On any Wikipedia page, check Tools menu, Wikidata item')}
        </p>
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-red-800">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary px-3 py-1" disabled={mutation.isPending}>
          {t('Submit')}
        </button>
        <button type="button" className="btn px-3 py-1" onClick={onCancel}>
          {t('Cancel')}
        </button>
      </div>
    </form>
  );
}

function LoadedForm({ agentId, onSaved, onCancel }: { agentId: number; onSaved: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  // Loaded afresh each time the form opens (the list may be older than the author).
  const { data, error, isFetchedAfterMount } = useQuery({
    queryKey: queryKeys.agent(String(agentId)),
    queryFn: ({ signal }) => api.agent(agentId, signal),
    refetchOnMount: 'always',
  });
  if (error) {
    return (
      <p role="alert" className="mt-3 text-red-800">
        {serverErrorOr(error, t('Failed!'))}
      </p>
    );
  }
  if (!data || !isFetchedAfterMount) return <p className="mt-3 text-stone-700">{t('Loading...')}</p>;
  return <EditForm agent={data.agent} onSaved={onSaved} onCancel={onCancel} />;
}

/** The 'Edit' button and, when open, the form under it (for a flex-wrap row: the form takes a whole line). */
export function AgentEdit({ agentId, name }: { agentId: number; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState(false);
  const formId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const hide = (wasSaved: boolean) => {
    setOpen(false);
    setSaved(wasSaved);
    buttonRef.current?.focus();
  };
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={open ? formId : undefined}
        aria-label={`${t('Edit')}: ${name}`}
        onClick={() => {
          setSaved(false);
          setOpen((o) => !o);
        }}
        className="rounded border border-stone-400 bg-white px-1.5 py-0.5 font-sans text-xs text-stone-800 hover:bg-stone-100"
      >
        <span aria-hidden="true">✎</span> {t('Edit')}
      </button>
      <span role="status" className="text-sm text-teal-900">
        {saved ? t('Saved') : ''}
      </span>
      {open && (
        <div id={formId} className="basis-full">
          <LoadedForm agentId={agentId} onSaved={() => hide(true)} onCancel={() => hide(false)} />
        </div>
      )}
    </>
  );
}

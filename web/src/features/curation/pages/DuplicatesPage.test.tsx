import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DuplicateGroup } from '@uc/shared';
import { ANONYMOUS_USER } from '../../../api/account';
import { mockApi, renderApp } from '../../../test/utils';
import { bodyOf, loadCurationStrings, method } from './testing';

beforeAll(loadCurationStrings);

const me = { ...ANONYMOUS_USER, logged_in: 'curator', can_merge: true };

const authorGroups: DuplicateGroup[] = [
  {
    kind: 'author', key: 'kropotkin p',
    items: [{ id: 12, label: 'Pyotr Kropotkin', entries: 30 }, { id: 40, label: 'Kropotkin, Peter', entries: 4 }, { id: 41, label: 'P. Kropotkin', entries: 1 }],
  },
  { kind: 'author', key: 'goldman e', items: [{ id: 3, label: 'Emma Goldman', entries: 9 }, { id: 44, label: 'Goldman, Emma', entries: 2 }] },
];
const entryGroups: DuplicateGroup[] = [
  {
    kind: 'entry', key: 'anarchy malatesta',
    items: [
      { id: 21, label: 'Anarchy — Errico Malatesta', entries: 3, years: [1891, 1974], languages: ['en'], libraries: ['Biblioteca Uno', 'Knjižnica Dva'] },
      { id: 77, label: 'Anarchy — E. Malatesta', entries: 1, years: [2001], languages: ['it'], libraries: ['Biblioteca Uno'] },
    ],
  },
];

function duplicatesApi(merge?: () => { status?: number; body: unknown }) {
  let authors = authorGroups;
  const merges: { path: string; body: unknown }[] = [];
  const api = mockApi({
    '/auth/user': () => ({ body: me }),
    '/curation/duplicates': (url) => ({ body: { groups: url.searchParams.get('kind') === 'entry' ? entryGroups : authors } }),
    '/merge/': (url, init) => {
      if (method(init) !== 'POST') return undefined;
      merges.push({ path: url.pathname, body: bodyOf(init) });
      const res = merge?.();
      if (res) return res;
      authors = authors.slice(1);
      return { body: { op: 'merge-agents', main_id: 12, other_ids: [40, 41], error: null, msg: null, username: 'curator', success: 'Merged' } };
    },
  });
  return { api, merges };
}

describe('/dashboard/duplicates', () => {
  it('lists the author groups with links and counts, and switches to entries with the arrow keys', async () => {
    const user = userEvent.setup();
    const { api } = duplicatesApi();
    renderApp('/dashboard/duplicates');
    expect(await screen.findByRole('heading', { level: 1, name: 'Possible duplicates' })).toBeInTheDocument();
    const authorsTab = screen.getByRole('tab', { name: 'Authors' });
    expect(authorsTab).toHaveAttribute('aria-selected', 'true');
    const panel = screen.getByRole('tabpanel', { name: 'Authors' });
    expect(await within(panel).findByRole('link', { name: 'Kropotkin, Peter' })).toHaveAttribute('href', '/library/author/40');
    expect(within(within(panel).getByRole('link', { name: 'Kropotkin, Peter' }).closest('li')!).getByText('4')).toBeInTheDocument();
    expect(within(panel).getAllByRole('button', { name: /^Merge these/ })).toHaveLength(2);

    authorsTab.focus();
    await user.keyboard('{ArrowRight}');
    const entriesTab = screen.getByRole('tab', { name: 'Entries' });
    expect(entriesTab).toHaveFocus();
    expect(entriesTab).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('link', { name: 'Anarchy — E. Malatesta' })).toHaveAttribute('href', '/entry/77');
    // The records side by side: holdings, years, languages and libraries of each.
    const first = screen.getByRole('link', { name: 'Anarchy — Errico Malatesta' }).closest('li')!;
    expect(first).toHaveTextContent('Holdings3Years1891, 1974LanguagesEnglishLibrariesBiblioteca Uno, Knjižnica Dva');
    const second = screen.getByRole('link', { name: 'Anarchy — E. Malatesta' }).closest('li')!;
    expect(second).toHaveTextContent('Holdings1Years2001LanguagesItalian');
    expect(api.calls('/curation/duplicates').at(-1)!.searchParams.get('kind')).toBe('entry');
  });

  it('merges a group after a confirmation naming the canonical, canonical first', async () => {
    const user = userEvent.setup();
    const { api, merges } = duplicatesApi();
    renderApp('/dashboard/duplicates');
    const mergeButton = await screen.findByRole('button', { name: 'Merge these: Pyotr Kropotkin, Kropotkin, Peter, P. Kropotkin' });
    await user.click(mergeButton);
    let dialog = screen.getByRole('dialog', { name: 'Merge these?' });
    expect(dialog).toHaveTextContent('“Pyotr Kropotkin” stays as the canonical author');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(merges).toEqual([]);

    await user.click(mergeButton);
    dialog = screen.getByRole('dialog', { name: 'Merge these?' });
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    expect(await screen.findByText('Done: the catalogue shows the change now. The change log keeps it, and can undo it.')).toBeInTheDocument();
    expect(merges).toHaveLength(1);
    expect(merges[0].path).toBe('/collector/api/merge/author');
    expect((merges[0].body as { id: number }[]).map((i) => i.id)).toEqual([12, 40, 41]);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Kropotkin, Peter' })).toBeNull());
    expect(api.calls('/curation/duplicates').length).toBeGreaterThanOrEqual(2);
  });

  it('keeps the record the curator picks: it goes first, and the confirmation names it', async () => {
    const user = userEvent.setup();
    const { merges } = duplicatesApi();
    renderApp('/dashboard/duplicates');
    await screen.findByRole('link', { name: 'Kropotkin, Peter' });
    const keepPeter = within(screen.getByRole('link', { name: 'Kropotkin, Peter' }).closest('li')!).getByRole('radio', { name: 'Keep this one' });
    const keepPyotr = within(screen.getByRole('link', { name: 'Pyotr Kropotkin' }).closest('li')!).getByRole('radio', { name: /^Keep this one/ });
    expect(keepPyotr).toBeChecked();
    await user.click(keepPeter);
    expect(keepPeter).toBeChecked();
    expect(keepPyotr).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: /^Merge these: Pyotr Kropotkin/ }));
    const dialog = screen.getByRole('dialog', { name: 'Merge these?' });
    expect(dialog).toHaveTextContent('“Kropotkin, Peter” stays as the canonical author');
    await user.click(within(dialog).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(merges).toHaveLength(1));
    expect((merges[0].body as { id: number }[]).map((i) => i.id)).toEqual([40, 12, 41]);
  });

  it("shows the server's error when a merge is refused", async () => {
    const user = userEvent.setup();
    duplicatesApi(() => ({ status: 400, body: { error: 'Kropotkin, Peter is already a variant of another author' } }));
    renderApp('/dashboard/duplicates');
    await user.click(await screen.findByRole('button', { name: /^Merge these: Pyotr Kropotkin/ }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Merge' }));
    expect(await screen.findByText('Kropotkin, Peter is already a variant of another author')).toBeInTheDocument();
  });

  it("says 'No records' when nothing looks alike", async () => {
    mockApi({ '/auth/user': () => ({ body: me }), '/curation/duplicates': () => ({ body: { groups: [] } }) });
    renderApp('/dashboard/duplicates?kind=entry');
    expect(await screen.findByText('No records')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Entries' })).toHaveAttribute('aria-selected', 'true');
  });
});

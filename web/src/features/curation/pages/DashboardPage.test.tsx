import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ListingResponse } from '@uc/shared';
import { ANONYMOUS_USER } from '../../../api/account';
import { mockApi, renderApp } from '../../../test/utils';
import { bodyOf, loadCurationStrings, method } from './testing';

beforeAll(loadCurationStrings);

const me = { ...ANONYMOUS_USER, logged_in: 'curator', can_merge: true };

const mergedAgents: ListingResponse = {
  target: 'merged-agents',
  fields: [
    { name: 'canonical_name', label: 'Canonical Name' },
    { name: 'canonical_id', label: 'Canonical ID', link: 'agent' },
    { name: 'name', label: 'Name' },
    { name: 'id', label: 'ID', link: 'agent' },
  ],
  records: [
    { canonical_name: 'Pyotr Kropotkin', canonical_id: 12, name: 'Kropotkin, Peter', id: 40, revert: { id: 40 } },
    { canonical_name: 'Emma Goldman', canonical_id: 3, name: 'Goldman, E.', id: 41, revert: { id: 41 } },
    { canonical_name: 'Errico Malatesta', canonical_id: 5, name: 'Malatesta', id: 7, revert: { id: 7 } },
  ],
};

const aggregations: ListingResponse = {
  target: 'aggregations',
  fields: [
    { name: 'aggregation_title', label: 'Aggregation' },
    { name: 'aggregation_id', label: 'Aggregation ID', link: 'entry' },
    { name: 'position', label: 'Position' },
    { name: 'title', label: 'Title' },
    { name: 'id', label: 'ID', link: 'entry' },
  ],
  records: [
    { aggregation_title: 'Freedom Press Anthology', aggregation_id: 100, position: 1, title: 'The Conquest of Bread', id: 21, revert: { id: 100, item: 21 } },
    { aggregation_title: 'Freedom Press Anthology', aggregation_id: 100, position: 2, title: 'Anarchy', id: 22, revert: { id: 100, item: 22 } },
  ],
};

function listingApi(listing: ListingResponse | { status: number; body: unknown }, revert?: () => { status?: number; body: unknown }) {
  let current = listing;
  const reverts: { path: string; body: unknown }[] = [];
  const api = mockApi({
    '/auth/user': () => ({ body: me }),
    '/listing/': () => ('status' in current ? current : { body: current }),
    '/revert/': (url, init) => {
      if (method(init) !== 'POST') return undefined;
      const body = bodyOf(init) as { id: number; item?: number };
      reverts.push({ path: url.pathname, body });
      const res = revert?.();
      if (res) return res;
      if (!('status' in current)) {
        current = { ...current, records: current.records.filter((r) => JSON.stringify(r.revert) !== JSON.stringify(body)) };
      }
      return { body: { op: 'revert', main_id: body.id, other_ids: [], error: null, msg: null, username: 'curator', success: 'Removed' } };
    },
  });
  return { api, reverts };
}

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const column = (i: number) => bodyRows().map((r) => within(r).getAllByRole('cell')[i].textContent);

describe('/dashboard/:type', () => {
  it('shows a translated title, a Back button, the columns and link columns', async () => {
    listingApi(mergedAgents);
    renderApp('/dashboard/merged-agents');
    expect(await screen.findByRole('heading', { level: 1, name: 'Merged authors' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Back/ })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕]/g, ''))).toEqual([
      'Canonical Name', 'Canonical ID', 'Name', 'ID', 'Remove',
    ]);
    // Author ids lead to that author's entries.
    expect(within(bodyRows()[0]).getByRole('link', { name: '12' })).toHaveAttribute('href', '/library/author/12');
    expect(screen.getByText('3 of 3 records')).toBeInTheDocument();
  });

  it('filters on any field, ignoring case, accents and script, and keeps the sort while filtering', async () => {
    const user = userEvent.setup();
    listingApi(mergedAgents);
    renderApp('/dashboard/merged-agents');
    const search = await screen.findByLabelText('Search table here');
    await user.type(search, 'KROP');
    expect(column(2)).toEqual(['Kropotkin, Peter']);
    await user.clear(search);
    // Folded as the search folds: accents and other scripts too.
    await user.type(search, 'Кропоткин');
    expect(column(2)).toEqual(['Kropotkin, Peter']);
    await user.clear(search);
    await user.type(search, 'malatésta');
    expect(column(2)).toEqual(['Malatesta']);
    await user.clear(search);
    await user.type(search, '4');
    expect(column(3)).toEqual(['40', '41']);
    expect(screen.getByText('2 of 3 records')).toBeInTheDocument();
    await user.clear(search);

    // Sorting: ascending, then descending on the second click.
    const nameHeader = screen.getByRole('columnheader', { name: /^Name/ });
    expect(nameHeader).not.toHaveAttribute('aria-sort');
    await user.click(within(nameHeader).getByRole('button'));
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(column(2)).toEqual(['Goldman, E.', 'Kropotkin, Peter', 'Malatesta']);
    await user.click(within(nameHeader).getByRole('button'));
    expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
    expect(column(2)).toEqual(['Malatesta', 'Kropotkin, Peter', 'Goldman, E.']);

    // Numbers sort as numbers.
    await user.click(within(screen.getByRole('columnheader', { name: /^ID/ })).getByRole('button'));
    expect(column(3)).toEqual(['7', '40', '41']);
    expect(nameHeader).not.toHaveAttribute('aria-sort');

    await user.type(search, 'goldman');
    expect(column(3)).toEqual(['41']);
    await user.clear(search);
    await user.type(search, 'R');
    expect(column(3)).toEqual(['7', '40']);
    expect(screen.getByRole('columnheader', { name: /^ID/ })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('asks before removing, then posts the record’s revert body and shows the answer', async () => {
    const user = userEvent.setup();
    const { api, reverts } = listingApi(aggregations);
    renderApp('/dashboard/aggregations');
    const removeAnarchy = await screen.findByRole('button', { name: 'Remove: Freedom Press Anthology, 100, 2, Anarchy, 22' });

    await user.click(removeAnarchy);
    let dialog = screen.getByRole('dialog', { name: 'Remove this record?' });
    expect(dialog).toHaveTextContent('The item is taken out of the aggregation.');
    expect(dialog).toHaveTextContent('Anarchy');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(reverts).toEqual([]);

    // The revert answers only when released, so the 'Working' state can be seen.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const answer = api.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/revert/')) await held;
      return answer(input, init);
    });
    await user.click(removeAnarchy);
    dialog = screen.getByRole('dialog', { name: 'Remove this record?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Working')).toBeInTheDocument();
    release();
    expect(await screen.findByText('Removed')).toBeInTheDocument();
    expect(screen.queryByText('Working')).toBeNull();
    expect(reverts).toEqual([{ path: '/collector/api/revert/aggregations', body: { id: 100, item: 22 } }]);
    expect(api.calls('/listing/aggregations').length).toBeGreaterThanOrEqual(2);
    await waitFor(() => expect(column(3)).toEqual(['The Conquest of Bread']));
  });

  it("falls back to {id} when a record has no revert body, and shows the server's error", async () => {
    const user = userEvent.setup();
    const listing: ListingResponse = {
      target: 'translations',
      fields: [{ name: 'title', label: 'Title' }, { name: 'id', label: 'ID', link: 'entry' }],
      records: [{ title: 'La conquête du pain', id: 31 }],
    };
    const { reverts } = listingApi(listing, () => ({ status: 400, body: { error: 'This entry is not a translation' } }));
    renderApp('/dashboard/translations');
    expect(await screen.findByRole('link', { name: '31' })).toHaveAttribute('href', '/entry/31');
    await user.click(screen.getByRole('button', { name: 'Remove: La conquête du pain, 31' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('This entry is not a translation')).toBeInTheDocument();
    expect(reverts).toEqual([{ path: '/collector/api/revert/translations', body: { id: 31 } }]);
    expect(screen.getByRole('button', { name: 'Remove: La conquête du pain, 31' })).toBeInTheDocument();
  });

  it("says 'No records' when the table is empty or nothing matches", async () => {
    const user = userEvent.setup();
    listingApi({ ...mergedAgents, records: [] });
    const { unmount } = renderApp('/dashboard/merged-agents');
    expect(await screen.findByText('No records')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    unmount();

    listingApi(mergedAgents);
    renderApp('/dashboard/merged-agents');
    await user.type(await screen.findByLabelText('Search table here'), 'bakunin');
    expect(screen.getByText('No records')).toBeInTheDocument();
  });

  it('tells who may not see it', async () => {
    listingApi({ status: 403, body: { error: 'Forbidden' } });
    const { unmount } = renderApp('/dashboard/merged-entries');
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to see this page.');
    expect(screen.getByRole('heading', { level: 1, name: 'Merged entries' })).toBeInTheDocument();
    unmount();

    listingApi({ status: 401, body: { error: 'Please log in' } });
    renderApp('/dashboard/split-agents');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please log in to see this page.');
    expect(screen.getByRole('heading', { level: 1, name: 'Split authors' })).toBeInTheDocument();
  });

  it('translates the exclusion types and answers an unknown dashboard with Page not found', async () => {
    listingApi({
      target: 'exclusions',
      fields: [{ name: 'target', label: 'Name' }, { name: 'type', label: 'Type' }, { name: 'comment', label: 'Reason' }],
      records: [{ id: 4, target: 'La Lanterna', type: 'library', comment: 'Test', revert: { id: 4 } }],
    });
    const { unmount } = renderApp('/dashboard/exclusions');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Exclusions' })).toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Library' })).toBeInTheDocument();
    unmount();

    renderApp('/dashboard/nonsense');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});

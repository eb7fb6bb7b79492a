import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Exclusion } from '@uc/shared';
import { ANONYMOUS_USER } from '../../../api/account';
import { searchResponse } from '../../../test/fixtures';
import { mockApi, renderApp } from '../../../test/utils';
import { bodyOf, loadCurationStrings, method } from './testing';

beforeAll(loadCurationStrings);

const me = { ...ANONYMOUS_USER, logged_in: 'anna' };
const kropotkin: Exclusion = { id: 4, type: 'author', target: 'Pyotr Kropotkin', target_id: 12, comment: 'Not our scope', created: '2024-03-05T10:00:00Z' };
const lanterna: Exclusion = { id: 9, type: 'library', target: 'La Lanterna', target_id: 3, comment: 'Duplicates\nof another source', created: '2024-04-01T08:30:00Z' };

function exclusionsApi(initial: Exclusion[], onDelete?: () => { status?: number; body: unknown }) {
  let list = initial;
  const posts: unknown[] = [];
  const api = mockApi({
    '/auth/user': () => ({ body: me }),
    '/search': () => ({ body: searchResponse() }),
    '/exclusions': (_url, init) => {
      if (method(init) === 'POST') {
        const body = bodyOf(init) as { id: number };
        posts.push(body);
        const res = onDelete?.();
        if (res) return res;
        list = list.filter((x) => x.id !== body.id);
        return { body: { op: 'revert-exclusions', main_id: body.id, other_ids: [], error: null, msg: null, username: 'anna', success: 'Removed' } };
      }
      return { body: { exclusions: list } };
    },
  });
  return { api, posts };
}

describe('/exclusions', () => {
  it('lists my exclusions with their type, reason and date', async () => {
    exclusionsApi([kropotkin, lanterna]);
    renderApp('/exclusions');
    expect(await screen.findByRole('heading', { level: 1, name: 'My Exclusions' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Target', 'Type', 'Reason', 'Date', 'Actions']);
    const cells = within(rows[1]).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 3)).toEqual(['Pyotr Kropotkin', 'Author', 'Not our scope']);
    expect(cells[3]).toBe(new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(kropotkin.created)));
    expect(within(rows[2]).getByRole('cell', { name: 'Library' })).toBeInTheDocument();
    expect(document.title).toContain('My Exclusions');
  });

  it('restores an exclusion: sends {op:"delete", id}, refreshes the list and the search, and says Restored', async () => {
    const user = userEvent.setup();
    const { api, posts } = exclusionsApi([kropotkin, lanterna]);
    const { router } = renderApp('/search?query=anarchy');
    await waitFor(() => expect(api.calls('/search')).toHaveLength(1));
    await router.navigate('/exclusions');
    await user.click(await screen.findByRole('button', { name: 'Restore “Pyotr Kropotkin”' }));
    expect(await screen.findByText('Restored')).toHaveAttribute('aria-live', 'polite');
    expect(posts).toEqual([{ op: 'delete', id: 4 }]);
    expect(screen.queryByRole('button', { name: 'Restore “Pyotr Kropotkin”' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Restore “La Lanterna”' })).toBeInTheDocument();
    // The hidden author comes back in the searches.
    await waitFor(() => expect(api.calls('/search')).toHaveLength(2));
  });

  it("shows the server's refusal and keeps the row", async () => {
    const user = userEvent.setup();
    exclusionsApi([kropotkin], () => ({ status: 400, body: { error: 'Only the owner can remove an exclusion' } }));
    renderApp('/exclusions');
    await user.click(await screen.findByRole('button', { name: 'Restore “Pyotr Kropotkin”' }));
    expect(await screen.findByText('Only the owner can remove an exclusion')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Restore “Pyotr Kropotkin”' })).toBeInTheDocument();
  });

  it("says 'Nothing to show!' when there is none", async () => {
    exclusionsApi([]);
    renderApp('/exclusions');
    expect(await screen.findByText('Nothing to show!')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('asks anonymous visitors to log in', async () => {
    mockApi({
      '/auth/user': () => ({ body: ANONYMOUS_USER }),
      '/exclusions': () => ({ status: 401, body: { error: 'Please log in' } }),
    });
    renderApp('/exclusions');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please log in to see your exclusions');
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Change, ChangesResponse } from '@uc/shared';
import { ANONYMOUS_USER } from '../../../api/account';
import { searchResponse } from '../../../test/fixtures';
import { currentParams, mockApi, renderApp } from '../../../test/utils';
import { loadCurationStrings, method } from './testing';

beforeAll(loadCurationStrings);

const me = { ...ANONYMOUS_USER, logged_in: 'curator', can_merge: true };

function change(id: number, extra: Partial<Change> = {}): Change {
  return {
    id, created: '2024-05-02T09:15:00Z', username: 'curator', operation: 'add-merge-agent',
    comment: 'canonical: Pyotr Kropotkin (12)\nalias: Kropotkin, Peter (40)',
    objects: [{ type: 'agent', id: 12, label: 'Pyotr Kropotkin' }, { type: 'agent', id: 40, label: 'Kropotkin, Peter' }],
    undone_by: null, undoes: null, can_undo: true, blocked_by: null, ...extra,
  };
}

const page = (extra: Partial<ChangesResponse> = {}): ChangesResponse => ({
  changes: [
    change(7),
    change(6, {
      operation: 'add-translation', comment: 'original: Anarchy (21)\ntranslation: Anarchia (22)',
      objects: [{ type: 'entry', id: 22, label: 'Anarchia' }], can_undo: false, blocked_by: 'Change #9 changed Anarchia later: undo it first', blocked_reason: 'later-change', blocking_change_id: 9,
    }),
    change(5, { operation: 'undo', undoes: 3, can_undo: false, objects: [], comment: 'undo of change #3 (add-translation)\noriginal: Anarchy (21)\ntranslation: Anarchia (22)' }),
    change(3, { operation: 'frobnicate', undone_by: 5, can_undo: false, objects: [] }),
  ],
  total: 4, page_number: 1, page_size: 50,
  operations: ['add-merge-agent', 'add-translation', 'undo', 'frobnicate'],
  users: ['anna', 'curator'],
  ...extra,
});

function changesApi(opts: { list?: (url: URL) => ChangesResponse; undo?: () => { status?: number; body: unknown } } = {}) {
  const undos: string[] = [];
  const api = mockApi({
    '/auth/user': () => ({ body: me }),
    '/search': () => ({ body: searchResponse() }),
    '/changes': (url, init) => {
      if (method(init) === 'POST') {
        undos.push(url.pathname);
        return opts.undo?.() ?? { body: { op: 'undo', main_id: null, other_ids: [], error: null, msg: null, username: 'curator', success: 'Undone', change_id: 8 } };
      }
      return { body: (opts.list ?? (() => page()))(url) };
    },
  });
  return { api, undos };
}

const items = () => within(screen.getByRole('list', { name: 'Changes' })).getAllByRole('listitem').filter((li) => li.id.startsWith('change-'));

describe('change log', () => {
  it('shows each change: operation, date, user, comment, linked objects, notes, Undo or why not', async () => {
    changesApi();
    renderApp('/dashboard/changes');
    expect(await screen.findByRole('heading', { level: 1, name: 'Change log' })).toBeInTheDocument();
    await screen.findByRole('heading', { level: 3, name: /Authors merged/ });
    const [merge, translation, undo, other] = items();
    // The comment's roles in the reader's words (the server writes 'canonical:', 'alias:').
    expect(within(merge).getByText(/Canonical: Pyotr Kropotkin \(12\)\s+Merged into it: Kropotkin, Peter \(40\)/)).toHaveClass('whitespace-pre-line');
    expect(within(merge).getByText('curator', { exact: false })).toBeInTheDocument();
    expect(within(merge).getByRole('link', { name: 'Kropotkin, Peter' })).toHaveAttribute('href', '/library/author/40');
    expect(within(merge).getByRole('button', { name: 'Undo #7: Authors merged' })).toBeInTheDocument();

    expect(within(translation).getByRole('heading', { name: /Translation set/ })).toBeInTheDocument();
    expect(within(translation).getByRole('link', { name: 'Anarchia' })).toHaveAttribute('href', '/entry/22');
    expect(within(translation).queryByRole('button', { name: /Undo/ })).toBeNull();
    expect(within(translation).getByText('Change #9 changed this later: undo it first')).toBeInTheDocument();

    expect(within(undo).getByRole('heading', { name: /^Undo/ })).toBeInTheDocument();
    expect(within(undo).getByText('Undoes #3')).toBeInTheDocument();
    // An undo names what it undid by its label, never by the internal name (add-translation).
    expect(within(undo).getByText(/Undo of change #3: Translation set\s+Original: Anarchy \(21\)\s+Translation: Anarchia \(22\)/)).toBeInTheDocument();
    expect(undo.textContent).not.toMatch(/add-translation|canonical:|alias:/);
    // Unknown operations are shown as the server names them.
    expect(within(other).getByRole('heading', { name: /frobnicate/ })).toBeInTheDocument();
    expect(within(other).getByText('Undone by #5')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
  });

  it('puts the filters in the address and in the request; Reset clears them', async () => {
    const user = userEvent.setup();
    const { api } = changesApi();
    const { router } = renderApp('/changes');
    await screen.findByRole('heading', { level: 3, name: /Authors merged/ });
    const form = screen.getByRole('form', { name: 'Filter the changes' });
    await user.selectOptions(within(form).getByLabelText('User'), 'anna');
    await user.selectOptions(within(form).getByLabelText('Operation'), 'Translation set');
    await user.selectOptions(within(form).getByLabelText('Object type'), 'Entry');
    await user.type(within(form).getByLabelText('Object id'), '22');
    await user.type(within(form).getByLabelText('From date'), '2024-01-01');
    await user.type(within(form).getByLabelText('To date'), '2024-12-31');
    await user.click(within(form).getByRole('button', { name: 'Apply' }));

    const expected = { user: 'anna', operation: 'add-translation', object_type: 'entry', object_id: '22', from: '2024-01-01', to: '2024-12-31' };
    await waitFor(() => expect(Object.fromEntries(api.calls('/changes').at(-1)!.searchParams)).toEqual(expected));
    expect(Object.fromEntries(currentParams(router))).toEqual(expected);

    await user.click(within(form).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(api.calls('/changes').at(-1)!.search).toBe(''));
    expect(router.state.location.search).toBe('');
    expect(within(form).getByLabelText('Object id')).toHaveValue(null);
    expect(within(form).getByLabelText('User')).toHaveValue('');
  });

  it('reads the filters from the address and pages with Newer and Older', async () => {
    const user = userEvent.setup();
    const { api } = changesApi({
      list: (url) => page({ total: 120, page_number: Number(url.searchParams.get('page_number') ?? 1) }),
    });
    const { router } = renderApp('/dashboard/changes?user=anna&object_type=agent&object_id=12');
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByLabelText('User')).toHaveValue('anna');
    expect(screen.getByLabelText('Object id')).toHaveValue(12);
    const newer = screen.getByRole('button', { name: 'Newer' });
    const older = screen.getByRole('button', { name: 'Older' });
    expect(newer).toBeDisabled();
    await user.click(older);
    expect(await screen.findByText('Page 2 of 3')).toBeInTheDocument();
    expect(Object.fromEntries(api.calls('/changes').at(-1)!.searchParams)).toEqual({ user: 'anna', object_type: 'agent', object_id: '12', page_number: '2' });
    await user.click(older);
    expect(await screen.findByText('Page 3 of 3')).toBeInTheDocument();
    expect(older).toBeDisabled();
    expect(newer).toBeEnabled();
    expect(currentParams(router).get('page_number')).toBe('3');
  });

  it('asks before undoing, posts the undo, refreshes the log and the search', async () => {
    const user = userEvent.setup();
    const { api, undos } = changesApi();
    const { router } = renderApp('/search?query=kropotkin');
    await waitFor(() => expect(api.calls('/search')).toHaveLength(1));
    await router.navigate('/changes');
    const undo = await screen.findByRole('button', { name: 'Undo #7: Authors merged' });
    await user.click(undo);
    const dialog = screen.getByRole('dialog', { name: 'Undo this change?' });
    expect(dialog).toHaveTextContent('alias: Kropotkin, Peter (40)');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(undos).toEqual([]);

    const listCalls = api.calls('/changes').length;
    await user.click(undo);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undone')).toBeInTheDocument();
    expect(undos).toEqual(['/collector/api/changes/7/undo']);
    expect(api.calls('/changes').length).toBeGreaterThan(listCalls);
    await waitFor(() => expect(api.calls('/search')).toHaveLength(2));
  });

  it("shows the server's reason when an undo is refused", async () => {
    const user = userEvent.setup();
    changesApi({ undo: () => ({ status: 400, body: { error: 'Change #9 depends on it: undo #9 first' } }) });
    renderApp('/changes');
    await user.click(await screen.findByRole('button', { name: 'Undo #7: Authors merged' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Change #9 depends on it: undo #9 first')).toBeInTheDocument();
  });

  it("says 'No records' for an empty log and refuses users without the right", async () => {
    changesApi({ list: () => page({ changes: [], total: 0 }) });
    const { unmount } = renderApp('/changes');
    expect(await screen.findByText('No records')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();
    unmount();

    mockApi({ '/auth/user': () => ({ body: me }), '/changes': () => ({ status: 403, body: { error: 'Forbidden' } }) });
    renderApp('/changes');
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to see this page.');
  });
});

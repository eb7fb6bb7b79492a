import { beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { agent, library, match, searchResponse } from '../../test/fixtures';
import { currentParams, mockApi, renderApp } from '../../test/utils';
import type { SearchResponse } from '../../lib/shared';
import { useMergeBoxes } from './store';
import { bodyOf, dragAndDrop, dropPayload, resetBoxes, tabTo } from './testHelpers';

const KROPOTKIN = { id: 12, value: 'Pyotr Kropotkin' };
const KROPOTKIN_P = { id: 40, value: 'Kropotkin, Peter' };
const BAKUNIN = { id: 7, value: 'Mikhail Bakunin' };

function results(extra: Partial<SearchResponse> = {}): SearchResponse {
  return searchResponse({
    can_merge: true,
    matches: [
      match(1, 'The Conquest of Bread', { creator: [KROPOTKIN] }),
      match(2, 'La Conquête du Pain', { creator: [KROPOTKIN_P, BAKUNIN] }),
      match(3, 'Mutual Aid', { creator: [KROPOTKIN] }),
    ],
    ...extra,
  });
}

type Reply = { status?: number; body: unknown };
interface Posted {
  path: string;
  body: unknown;
}

function curationApi(opts: { search?: () => SearchResponse; commit?: (path: string, body: unknown) => Reply; create?: (body: unknown) => Reply } = {}) {
  const posted: Posted[] = [];
  const record = (url: URL, init?: RequestInit) => {
    const body = bodyOf(init);
    posted.push({ path: url.pathname.replace('/collector/api', ''), body });
    return body;
  };
  const commit = (url: URL, init?: RequestInit) => {
    const body = record(url, init);
    const path = url.pathname.replace('/collector/api', '');
    return (
      opts.commit?.(path, body) ?? {
        body: { op: path, main_id: 1, other_ids: [2], error: null, msg: null, username: 'curator', success: 'Merged', change_id: 5 },
      }
    );
  };
  const api = mockApi({
    '/search': () => ({ body: (opts.search ?? results)() }),
    '/libraries/': () => ({ body: { library } }),
    '/agents/': () => ({ body: { agent } }),
    '/merge/': commit,
    '/set-translations': commit,
    '/set-aggregated': commit,
    '/split-author': commit,
    '/create/': (url, init) => {
      const body = record(url, init);
      return opts.create?.(body) ?? { body: { created: { id: 99, value: (body as { value: string }).value, type: url.pathname.endsWith('agent') ? 'agent' : 'aggregation' } } };
    },
  });
  return { ...api, posted };
}

const box = (name: string) => screen.getByRole('region', { name });
const canonicalZone = (b: HTMLElement) => b.querySelector<HTMLElement>('[data-drop="canonical"]')!;
const authorRow = (card: HTMLElement, name: string) => within(card).getByText(name).closest('li')!;
const handleIn = (el: HTMLElement) => el.querySelector<HTMLElement>('[data-drag-handle]')!;
const card = (title: string) => screen.getByRole('link', { name: title }).closest('article')!;
/** The names listed under the canonical row. */
const listed = (b: HTMLElement) => within(b).queryAllByRole('listitem').map((li) => li.querySelector('span')!.textContent);
const canonicalName = (b: HTMLElement) => canonicalZone(b).querySelector('.font-bold')?.textContent ?? null;

beforeEach(resetBoxes);

describe('merge boxes on the search page', () => {
  it('shows the four boxes, drag handles and menu buttons only to users enabled for merging', async () => {
    curationApi({ search: () => results({ can_merge: false }) });
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    expect(screen.queryByRole('region', { name: 'Merge authors here' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Add to merge box/ })).toBeNull();
    expect(document.querySelector('[data-drag-handle]')).toBeNull();
  });

  it('shows the four boxes with their dashboards for can_merge', async () => {
    curationApi();
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    const names = ['Merge authors here', 'Merge entries here', 'Set translations here', 'Set aggregations here'];
    for (const name of names) expect(box(name)).toBeInTheDocument();
    expect(within(box('Merge authors here')).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/merged-agents');
    expect(within(box('Merge entries here')).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/merged-entries');
    expect(within(box('Set translations here')).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/translations');
    expect(within(box('Set aggregations here')).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/aggregations');
    // The split box belongs to the author overview.
    expect(screen.queryByRole('region', { name: 'Split an author here' })).toBeNull();
  });

  it('first drop is canonical, later drops join the list, duplicates are ignored, a drop on the canonical row replaces it', async () => {
    curationApi();
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    const authors = box('Merge authors here');
    const first = card('The Conquest of Bread');
    const second = card('La Conquête du Pain');

    dragAndDrop(handleIn(authorRow(first, 'Pyotr Kropotkin')), authors);
    expect(canonicalName(authors)).toBe('Pyotr Kropotkin');
    expect(listed(authors)).toEqual([]);
    // A canonical alone cannot be merged.
    expect(within(authors).queryByRole('button', { name: 'Merge' })).toBeNull();

    dragAndDrop(handleIn(authorRow(second, 'Kropotkin, Peter')), authors);
    expect(listed(authors)).toEqual(['Kropotkin, Peter']);
    expect(within(authors).getByRole('button', { name: 'Merge' })).toBeInTheDocument();

    // The same author again (from another card, and the canonical itself): nothing changes.
    dragAndDrop(handleIn(authorRow(second, 'Kropotkin, Peter')), authors);
    dragAndDrop(handleIn(authorRow(card('Mutual Aid'), 'Pyotr Kropotkin')), authors);
    expect(canonicalName(authors)).toBe('Pyotr Kropotkin');
    expect(listed(authors)).toEqual(['Kropotkin, Peter']);

    // Dropped on the canonical row: the new one is canonical, the old one joins the list.
    dragAndDrop(handleIn(authorRow(second, 'Mikhail Bakunin')), canonicalZone(authors));
    expect(canonicalName(authors)).toBe('Mikhail Bakunin');
    expect(listed(authors)).toEqual(['Pyotr Kropotkin', 'Kropotkin, Peter']);

    // A listed item dropped on the canonical row leaves the list.
    dragAndDrop(within(authors).getByText('Kropotkin, Peter'), canonicalZone(authors));
    expect(canonicalName(authors)).toBe('Kropotkin, Peter');
    expect(listed(authors)).toEqual(['Mikhail Bakunin', 'Pyotr Kropotkin']);
  });

  it("refuses a wrong type or an incomplete payload with 'I cannot do that'", async () => {
    curationApi();
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    const authors = box('Merge authors here');
    const entryHandle = handleIn(card('Mutual Aid').querySelector('h2')!.nextElementSibling as HTMLElement);
    dragAndDrop(entryHandle, authors);
    expect(within(authors).getByText('I cannot do that')).toBeInTheDocument();
    expect(canonicalName(authors)).toBeNull();
    dropPayload(box('Merge entries here'), { ID: '5', Label: '', Merge: 'entry' });
    expect(within(box('Merge entries here')).getByText('I cannot do that')).toBeInTheDocument();
    // The entry fits the entries box.
    dragAndDrop(entryHandle, box('Merge entries here'));
    expect(canonicalName(box('Merge entries here'))).toBe('Mutual Aid');
    expect(within(box('Merge entries here')).queryByText('I cannot do that')).toBeNull();
  });

  it('items can be dragged between boxes, removed one by one, made canonical, and cleared', async () => {
    const user = userEvent.setup();
    curationApi();
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    const entries = box('Merge entries here');
    const translations = box('Set translations here');
    for (const title of ['The Conquest of Bread', 'La Conquête du Pain', 'Mutual Aid']) {
      dragAndDrop(handleIn(card(title).querySelector('h2')!.nextElementSibling as HTMLElement), entries);
    }
    expect(canonicalName(entries)).toBe('The Conquest of Bread');
    expect(listed(entries)).toEqual(['La Conquête du Pain', 'Mutual Aid']);

    dragAndDrop(within(entries).getByText('La Conquête du Pain'), translations);
    expect(canonicalName(translations)).toBe('La Conquête du Pain');
    // In the translations box the first place is the original: its button says so.
    dragAndDrop(within(entries).getByText('Mutual Aid'), translations);
    expect(within(translations).queryByRole('button', { name: /^Make canonical/ })).toBeNull();
    await user.click(within(translations).getByRole('button', { name: 'Make original: “Mutual Aid”' }));
    expect(canonicalName(translations)).toBe('Mutual Aid');
    await user.click(within(translations).getByRole('button', { name: 'Make original: “La Conquête du Pain”' }));

    await user.click(within(entries).getByRole('button', { name: 'Remove “Mutual Aid”' }));
    expect(listed(entries)).toEqual(['La Conquête du Pain']);
    await user.click(within(entries).getByRole('button', { name: 'Make canonical: “La Conquête du Pain”' }));
    expect(canonicalName(entries)).toBe('La Conquête du Pain');
    expect(listed(entries)).toEqual(['The Conquest of Bread']);
    await user.click(within(entries).getByRole('button', { name: 'Remove “La Conquête du Pain”' }));
    expect(canonicalName(entries)).toBeNull();
    await user.click(within(entries).getByRole('button', { name: 'Clear list' }));
    expect(listed(entries)).toEqual([]);
    expect(within(entries).queryByRole('button', { name: 'Clear list' })).toBeNull();
    // The other box kept its item.
    expect(canonicalName(translations)).toBe('La Conquête du Pain');
  });

  it('merges authors: canonical first to /merge/author, Working then Done, the box and the author filter cleared, results fetched again', async () => {
    const user = userEvent.setup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const api = curationApi();
    const original = api.fetch.getMockImplementation()!;
    api.fetch.mockImplementation(async (input, init) => {
      if (String(input).includes('/merge/')) await gate;
      return original(input, init);
    });
    const { router } = renderApp('/search?filter_creator=40&filter_language=en');
    await screen.findByText('The Conquest of Bread');
    const authors = box('Merge authors here');
    dragAndDrop(handleIn(authorRow(card('The Conquest of Bread'), 'Pyotr Kropotkin')), authors);
    dragAndDrop(handleIn(authorRow(card('La Conquête du Pain'), 'Kropotkin, Peter')), authors);
    const searches = api.calls('/search').length;

    await user.click(within(authors).getByRole('button', { name: 'Merge' }));
    expect(within(authors).getByText('Working')).toBeInTheDocument();
    expect(within(authors).queryByRole('button', { name: 'Merge' })).toBeNull();
    await act(async () => release());

    expect(await within(authors).findByText('Done: the catalogue shows the change now. The change log keeps it, and can undo it.')).toBeInTheDocument();
    expect(api.posted).toEqual([
      { path: '/merge/author', body: [{ id: 12, label: 'Pyotr Kropotkin' }, { id: 40, label: 'Kropotkin, Peter' }] },
    ]);
    expect(canonicalName(authors)).toBeNull();
    expect(listed(authors)).toEqual([]);
    expect(currentParams(router).has('filter_creator')).toBe(false);
    expect(currentParams(router).getAll('filter_language')).toEqual(['en']);
    await waitFor(() => expect(api.calls('/search').length).toBeGreaterThan(searches));
  });

  it('sets translations (original first) and merges entries to their own calls', async () => {
    const user = userEvent.setup();
    const api = curationApi();
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    const translations = box('Set translations here');
    dragAndDrop(handleIn(card('The Conquest of Bread').querySelector('h2')!.nextElementSibling as HTMLElement), translations);
    dragAndDrop(handleIn(card('La Conquête du Pain').querySelector('h2')!.nextElementSibling as HTMLElement), translations);
    await user.click(within(translations).getByRole('button', { name: 'Set translations' }));
    await within(translations).findByText('Done: the catalogue shows the change now. The change log keeps it, and can undo it.');

    const entries = box('Merge entries here');
    dragAndDrop(handleIn(card('Mutual Aid').querySelector('h2')!.nextElementSibling as HTMLElement), entries);
    dragAndDrop(handleIn(card('The Conquest of Bread').querySelector('h2')!.nextElementSibling as HTMLElement), entries);
    await user.click(within(entries).getByRole('button', { name: 'Merge' }));
    await within(entries).findByText('Done: the catalogue shows the change now. The change log keeps it, and can undo it.');
    expect(api.posted).toEqual([
      { path: '/set-translations', body: [{ id: 1, label: 'The Conquest of Bread' }, { id: 2, label: 'La Conquête du Pain' }] },
      { path: '/merge/entry', body: [{ id: 3, label: 'Mutual Aid' }, { id: 1, label: 'The Conquest of Bread' }] },
    ]);
  });

  it("shows the server's refusal, else 'Failed!', and keeps the box", async () => {
    const user = userEvent.setup();
    let reply: Reply = { status: 400, body: { error: 'Pyotr Kropotkin is already merged into another author' } };
    curationApi({ commit: () => reply });
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    const authors = box('Merge authors here');
    dragAndDrop(handleIn(authorRow(card('The Conquest of Bread'), 'Pyotr Kropotkin')), authors);
    dragAndDrop(handleIn(authorRow(card('La Conquête du Pain'), 'Mikhail Bakunin')), authors);
    await user.click(within(authors).getByRole('button', { name: 'Merge' }));
    expect(await within(authors).findByText('Pyotr Kropotkin is already merged into another author')).toBeInTheDocument();
    expect(canonicalName(authors)).toBe('Pyotr Kropotkin');
    expect(listed(authors)).toEqual(['Mikhail Bakunin']);

    reply = { status: 502, body: {} };
    await user.click(within(authors).getByRole('button', { name: 'Merge' }));
    expect(await within(authors).findByText('Failed!')).toBeInTheDocument();
    expect(within(authors).queryByText('Done: the catalogue shows the change now. The change log keeps it, and can undo it.')).toBeNull();
  });

  it('sends the aggregation first and each item with its position to /set-aggregated; creates an aggregation as canonical', async () => {
    const user = userEvent.setup();
    const api = curationApi();
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    const aggregations = box('Set aggregations here');
    await user.type(within(aggregations).getByLabelText('Create an aggregation'), 'Freedom, 1886{Enter}');
    expect(canonicalName(aggregations)).toBe('Freedom, 1886');
    expect(api.posted[0]).toEqual({ path: '/create/aggregation', body: { value: 'Freedom, 1886' } });

    dragAndDrop(handleIn(card('Mutual Aid').querySelector('h2')!.nextElementSibling as HTMLElement), aggregations);
    dragAndDrop(handleIn(card('The Conquest of Bread').querySelector('h2')!.nextElementSibling as HTMLElement), aggregations);
    const positions = within(aggregations).getAllByLabelText('Position (issue, article number)');
    expect(positions).toHaveLength(2);
    await user.type(positions[0], '3');
    await user.click(within(aggregations).getByRole('button', { name: 'Set aggregation' }));
    await within(aggregations).findByText('Done: the catalogue shows the change now. The change log keeps it, and can undo it.');
    expect(api.posted[1]).toEqual({
      path: '/set-aggregated',
      body: [
        { id: 99, label: 'Freedom, 1886' },
        { id: 3, label: 'Mutual Aid', position: 3 },
        { id: 1, label: 'The Conquest of Bread' },
      ],
    });
  });

  it("creates an author as canonical (the old one joins the list); says 'No data received' for an empty value and shows failures", async () => {
    const user = userEvent.setup();
    let createReply: Reply | undefined;
    const api = curationApi({ create: () => createReply as Reply });
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    const authors = box('Merge authors here');
    const input = within(authors).getByLabelText('Create an author');

    await user.click(within(authors).getByRole('button', { name: 'Create' }));
    expect(within(authors).getByText('No data received')).toBeInTheDocument();
    expect(api.posted).toEqual([]);

    dragAndDrop(handleIn(authorRow(card('The Conquest of Bread'), 'Pyotr Kropotkin')), authors);
    createReply = undefined;
    await user.type(input, 'Peter Kropotkin{Enter}');
    await waitFor(() => expect(canonicalName(authors)).toBe('Peter Kropotkin'));
    expect(listed(authors)).toEqual(['Pyotr Kropotkin']);
    expect(input).toHaveValue('');
    expect(api.posted).toEqual([{ path: '/create/agent', body: { value: 'Peter Kropotkin' } }]);

    createReply = { status: 400, body: { error: 'The name is too long' } };
    await user.type(input, 'X{Enter}');
    expect(await within(authors).findByText('The name is too long')).toBeInTheDocument();
    createReply = { status: 500, body: {} };
    await user.click(within(authors).getByRole('button', { name: 'Create' }));
    expect(await within(authors).findByText('Failure creating entry!')).toBeInTheDocument();
  });

  it('keyboard only: adds through the menu button (arrows, Escape, focus back), announces it, then merges', async () => {
    const user = userEvent.setup();
    const api = curationApi();
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    // One menu per card (not a button per author and per entry): the entry's boxes first, then each author's.
    expect(within(card('La Conquête du Pain')).getAllByRole('button', { name: /^Curate/ })).toHaveLength(1);
    const menuButton = within(card('The Conquest of Bread')).getByRole('button', { name: 'Curate “The Conquest of Bread”' });
    expect(menuButton).toHaveAttribute('aria-haspopup', 'menu');
    expect(menuButton).toHaveAttribute('aria-expanded', 'false');

    await tabTo(user, menuButton);
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Curate “The Conquest of Bread”' });
    expect(within(menu).getAllByRole('menuitem').map((m) => m.textContent)).toEqual([
      'Add “The Conquest of Bread” to Merge entries', 'Add “The Conquest of Bread” to Set translations', 'Add “The Conquest of Bread” to Set aggregations',
      'Add “Pyotr Kropotkin” to Merge authors', 'Add “Pyotr Kropotkin” to Split author',
    ]);
    expect(within(menu).getByRole('menuitem', { name: 'Add “The Conquest of Bread” to Merge entries' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(within(menu).getByRole('menuitem', { name: 'Add “Pyotr Kropotkin” to Split author' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Add “The Conquest of Bread” to Merge entries' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(menuButton).toHaveFocus();

    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Add “Pyotr Kropotkin” to Merge authors' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(menuButton).toHaveFocus();
    expect(screen.getByText('“Pyotr Kropotkin” added to Merge authors (Canonical)')).toBeInTheDocument();

    const second = within(card('La Conquête du Pain')).getByRole('button', { name: 'Curate “La Conquête du Pain”' });
    const pickPeter = async () => {
      await tabTo(user, second);
      await user.keyboard('{Enter}');
      while (document.activeElement?.textContent !== 'Add “Kropotkin, Peter” to Merge authors') await user.keyboard('{ArrowDown}');
      await user.keyboard('{Enter}');
    };
    await pickPeter();
    expect(screen.getByText('“Kropotkin, Peter” added to Merge authors')).toBeInTheDocument();
    // Added twice: said so, not added again.
    await pickPeter();
    expect(screen.getByText('“Kropotkin, Peter” is already in Merge authors')).toBeInTheDocument();

    const authors = box('Merge authors here');
    expect(canonicalName(authors)).toBe('Pyotr Kropotkin');
    expect(listed(authors)).toEqual(['Kropotkin, Peter']);
    await tabTo(user, within(authors).getByRole('button', { name: 'Merge' }));
    await user.keyboard('{Enter}');
    expect(await within(authors).findByText('Done: the catalogue shows the change now. The change log keeps it, and can undo it.')).toBeInTheDocument();
    expect(api.posted).toEqual([
      { path: '/merge/author', body: [{ id: 12, label: 'Pyotr Kropotkin' }, { id: 40, label: 'Kropotkin, Peter' }] },
    ]);
  });

  it('adds creator facet values through their menu button', async () => {
    const user = userEvent.setup();
    curationApi();
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    const facet = screen.getByRole('region', { name: 'Authors' });
    await user.click(within(facet).getByRole('button', { name: 'Add to merge box: “Mikhail Bakunin”' }));
    await user.click(screen.getByRole('menuitem', { name: 'Merge authors' }));
    expect(canonicalName(box('Merge authors here'))).toBe('Mikhail Bakunin');
    expect(handleIn(facet)).not.toBeNull();
  });

  it('keeps the boxes in sessionStorage (they come back after a reload)', async () => {
    const user = userEvent.setup();
    curationApi();
    const first = renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    await user.click(within(card('Mutual Aid')).getByRole('button', { name: 'Curate “Mutual Aid”' }));
    await user.click(screen.getByRole('menuitem', { name: 'Add “Mutual Aid” to Set translations' }));
    const stored = sessionStorage.getItem('merge-boxes')!;
    expect(stored).toContain('Mutual Aid');
    first.unmount();

    // A fresh page: the memory is gone, the session storage is not.
    useMergeBoxes.getState().clear('translations');
    sessionStorage.setItem('merge-boxes', stored);
    await useMergeBoxes.persist.rehydrate();
    renderApp('/search');
    await screen.findByText('The Conquest of Bread');
    expect(canonicalName(box('Set translations here'))).toBe('Mutual Aid');
  });
});

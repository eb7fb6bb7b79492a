import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { library, searchResponse } from '../../test/fixtures';
import { mockApi, renderApp } from '../../test/utils';
import type { AgentsResponse } from '../../lib/shared';
import { bodyOf, resetBoxes, tabTo } from './testHelpers';

beforeEach(resetBoxes);

const BAKUNIN = { id: 7, name: 'Mikhail Bakunin', wikidata_id: 'Q27645', canonical: null, search_link_id: 7, entries_count: 3 };
const ALIAS = { id: 8, name: 'M. Bakunin', wikidata_id: null, canonical: { id: 7, name: 'Mikhail Bakunin' }, search_link_id: 7, entries_count: 3 };
const KROPOTKIN = { id: 12, name: 'Pyotr Kropotkin', wikidata_id: null, canonical: null, search_link_id: 12, entries_count: 5 };

type Reply = { status?: number; body: unknown };

function agentsApi(opts: { canMerge?: boolean; edit?: (body: unknown) => Reply; split?: () => Reply } = {}) {
  const posted: { path: string; body: unknown }[] = [];
  const agents = new Map([BAKUNIN, ALIAS, KROPOTKIN].map((a) => [a.id, { ...a }]));
  const api = mockApi({
    '/agents': (url, init) => {
      const m = url.pathname.match(/\/agents\/(\d+)$/);
      if (!m) {
        const body: AgentsResponse = {
          agents: [...agents.values()],
          matches: 8,
          total_agents: 3,
          warning: null,
          can_merge: opts.canMerge ?? true,
        };
        return { body };
      }
      const a = agents.get(Number(m[1]))!;
      if (init?.method === 'POST') {
        const body = bodyOf(init) as { wikidata_id: string };
        posted.push({ path: url.pathname.replace('/collector/api', ''), body });
        const reply = opts.edit?.(body);
        if (reply) return reply;
        a.wikidata_id = body.wikidata_id || null;
        return { body: { agent: a, error: null } };
      }
      const { entries_count: _, ...plain } = a;
      return { body: { agent: plain } };
    },
    '/create/agent': (_url, init) => {
      const body = bodyOf(init) as { value: string };
      posted.push({ path: '/create/agent', body });
      return { body: { created: { id: 77, value: body.value, type: 'agent' } } };
    },
    '/split-author': (_url, init) => {
      posted.push({ path: '/split-author', body: bodyOf(init) });
      return opts.split?.() ?? { body: { op: 'split', main_id: 12, other_ids: [77], error: null, msg: null, username: 'c', success: 'Done', change_id: 3 } };
    },
    '/merge/author': (_url, init) => {
      posted.push({ path: '/merge/author', body: bodyOf(init) });
      return { body: { op: 'merge', main_id: 7, other_ids: [12], error: null, msg: null, username: 'c', success: 'Merged', change_id: 4 } };
    },
    '/search': () => ({ body: searchResponse({ can_merge: true, querystring: 'creator:7' }) }),
    '/libraries/': () => ({ body: { library } }),
  });
  return { ...api, posted };
}

const cardOf = (name: string) => screen.getByRole('article', { name });

describe('author overview for users enabled for merging', () => {
  it('shows no box, edit or merge control without can_merge', async () => {
    agentsApi({ canMerge: false });
    renderApp('/agent?search=bakunin');
    await screen.findByRole('article', { name: 'Mikhail Bakunin' });
    expect(screen.queryByRole('region', { name: 'Merge authors here' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Add to merge box/ })).toBeNull();
  });

  it('has the merge and split boxes; a merged author has neither Edit nor merge handles', async () => {
    agentsApi();
    renderApp('/agent?search=bakunin');
    await screen.findByRole('article', { name: 'Mikhail Bakunin' });
    expect(screen.getByRole('region', { name: 'Merge authors here' })).toBeInTheDocument();
    const split = screen.getByRole('region', { name: 'Split an author here' });
    expect(within(split).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/split-agents');
    expect(within(cardOf('Mikhail Bakunin')).getByRole('button', { name: 'Edit: Mikhail Bakunin' })).toBeInTheDocument();
    expect(within(cardOf('Mikhail Bakunin')).getByRole('button', { name: 'Add to merge box: “Mikhail Bakunin”' })).toBeInTheDocument();
    expect(cardOf('Mikhail Bakunin').querySelector('[data-drag-handle]')).not.toBeNull();
    const alias = cardOf('M. Bakunin');
    expect(within(alias).queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(within(alias).queryByRole('button', { name: /Add to merge box/ })).toBeNull();
    expect(alias.querySelector('[data-drag-handle]')).toBeNull();
  });

  it('splits an author by keyboard: the author to split first, a created author joins the parts, then Split', async () => {
    const user = userEvent.setup();
    const api = agentsApi();
    renderApp('/agent?search=kropotkin');
    await screen.findByRole('article', { name: 'Pyotr Kropotkin' });
    const split = screen.getByRole('region', { name: 'Split an author here' });
    const menuButton = within(cardOf('Pyotr Kropotkin')).getByRole('button', { name: 'Add to merge box: “Pyotr Kropotkin”' });
    await tabTo(user, menuButton);
    await user.keyboard('{Enter}{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Split author' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(within(split).getByText('Pyotr Kropotkin')).toBeInTheDocument();
    expect(within(split).queryByRole('button', { name: 'Split' })).toBeNull();

    await tabTo(user, within(split).getByLabelText('Create an author'));
    await user.keyboard('Pëtr Kropotkin{Enter}');
    await waitFor(() => expect(within(split).getAllByRole('listitem').map((li) => li.querySelector('span')!.textContent)).toEqual(['Pëtr Kropotkin']));
    await tabTo(user, within(split).getByRole('button', { name: 'Split' }));
    await user.keyboard('{Enter}');
    expect(await within(split).findByText('Done: the catalogue shows the change now. The change log keeps it, and can undo it.')).toBeInTheDocument();
    expect(api.posted).toEqual([
      { path: '/create/agent', body: { value: 'Pëtr Kropotkin' } },
      { path: '/split-author', body: [{ id: 12, label: 'Pyotr Kropotkin' }, { id: 77, label: 'Pëtr Kropotkin' }] },
    ]);
  });

  it('refreshes the author list after a merge', async () => {
    const user = userEvent.setup();
    const api = agentsApi();
    renderApp('/agent?search=a');
    await screen.findByRole('article', { name: 'Pyotr Kropotkin' });
    for (const name of ['Mikhail Bakunin', 'Pyotr Kropotkin']) {
      await user.click(within(cardOf(name)).getByRole('button', { name: `Add to merge box: “${name}”` }));
      await user.click(screen.getByRole('menuitem', { name: 'Merge authors' }));
    }
    const lists = api.calls('/agents').length;
    await user.click(within(screen.getByRole('region', { name: 'Merge authors here' })).getByRole('button', { name: 'Merge' }));
    await screen.findByText('Done: the catalogue shows the change now. The change log keeps it, and can undo it.');
    expect(api.posted).toEqual([{ path: '/merge/author', body: [{ id: 7, label: 'Mikhail Bakunin' }, { id: 12, label: 'Pyotr Kropotkin' }] }]);
    await waitFor(() => expect(api.calls('/agents').length).toBeGreaterThan(lists));
  });
});

describe('author edit (linked-data identifier)', () => {
  it('loads the author, refuses a malformed id with an explanation, saves a good one and hides the form', async () => {
    const user = userEvent.setup();
    const api = agentsApi();
    renderApp('/agent?search=bakunin');
    const card = await screen.findByRole('article', { name: 'Mikhail Bakunin' });
    const edit = within(card).getByRole('button', { name: 'Edit: Mikhail Bakunin' });
    expect(edit).toHaveAttribute('aria-expanded', 'false');
    await user.click(edit);
    expect(edit).toHaveAttribute('aria-expanded', 'true');
    const input = await within(card).findByRole('textbox', { name: 'Wikidata ID' });
    expect(api.calls('/agents/7').length).toBeGreaterThan(0);
    expect(input).toHaveValue('Q27645');
    expect(input).toHaveAttribute('placeholder', 'QXXXXXX');
    expect(input).toHaveAccessibleDescription(/On any Wikipedia page, check Tools menu, Wikidata item/);

    await user.clear(input);
    await user.type(input, 'q27645x');
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    expect(within(card).getByRole('alert')).toHaveTextContent('The Wikidata id is the letter Q followed by digits (for example Q5682)');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveFocus();
    expect(api.posted).toEqual([]);

    const listCalls = () => api.calls('/agents').filter((u) => u.pathname.endsWith('/agents')).length;
    const lists = listCalls();
    await user.clear(input);
    await user.type(input, 'Q5682{Enter}');
    await waitFor(() => expect(within(card).queryByRole('textbox', { name: 'Wikidata ID' })).toBeNull());
    expect(api.posted).toEqual([{ path: '/agents/7', body: { wikidata_id: 'Q5682' } }]);
    expect(edit).toHaveFocus();
    expect(within(card).getByRole('status')).toHaveTextContent('Saved');
    // The list is fetched again and shows the new identifier.
    await waitFor(() => expect(listCalls()).toBeGreaterThan(lists));
    expect(await within(screen.getByRole('article', { name: 'Mikhail Bakunin' })).findByText('Q5682')).toBeInTheDocument();
  });

  it('clears the identifier with an empty value and shows the server refusal in a red line', async () => {
    const user = userEvent.setup();
    let refuse = false;
    const api = agentsApi({ edit: () => (refuse ? { status: 400, body: { error: 'Unknown author' } } : undefined) as Reply });
    renderApp('/agent?search=bakunin');
    const card = await screen.findByRole('article', { name: 'Mikhail Bakunin' });
    await user.click(within(card).getByRole('button', { name: 'Edit: Mikhail Bakunin' }));
    const input = await within(card).findByRole('textbox', { name: 'Wikidata ID' });
    refuse = true;
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('Unknown author');
    expect(within(card).getByRole('textbox', { name: 'Wikidata ID' })).toBeInTheDocument();
    refuse = false;
    await user.clear(input);
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(within(card).queryByRole('textbox', { name: 'Wikidata ID' })).toBeNull());
    expect(api.posted.map((p) => p.body)).toEqual([{ wikidata_id: 'Q27645' }, { wikidata_id: '' }]);
  });

  it('offers the same edit control in the author box of a creator:N search', async () => {
    const user = userEvent.setup();
    const api = agentsApi();
    renderApp('/search?query=creator:7');
    const box = await screen.findByRole('region', { name: 'Author' });
    await within(box).findByRole('heading', { name: 'Mikhail Bakunin' });
    await user.click(within(box).getByRole('button', { name: 'Edit: Mikhail Bakunin' }));
    const input = await within(box).findByRole('textbox', { name: 'Wikidata ID' });
    await user.clear(input);
    await user.type(input, 'Q1{Enter}');
    await waitFor(() => expect(api.posted).toEqual([{ path: '/agents/7', body: { wikidata_id: 'Q1' } }]));
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { agent, library, searchResponse } from '../../test/fixtures';
import { mockApi, renderApp } from '../../test/utils';
import { bodyOf, resetBoxes } from './testHelpers';

beforeEach(resetBoxes);

function omitApi(opts: { canExclude?: boolean; reply?: () => { status?: number; body: unknown } } = {}) {
  const posted: unknown[] = [];
  const api = mockApi({
    '/search': () => ({ body: searchResponse({ can_set_exclusions: opts.canExclude ?? true, is_authenticated: true }) }),
    '/libraries/': () => ({ body: { library } }),
    '/agents/': () => ({ body: { agent } }),
    '/exclusions': (_url, init) => {
      posted.push(bodyOf(init));
      return (
        opts.reply?.() ?? {
          body: { op: 'exclusion', main_id: 4, other_ids: [], error: null, msg: null, username: 'reader', success: 'Added', change_id: 9 },
        }
      );
    },
  });
  return { ...api, posted };
}

const card = (title: string) => screen.getByRole('link', { name: title }).closest('article')!;

describe('omit (exclusions) on the search page', () => {
  it('offers no Omit control without can_set_exclusions', async () => {
    omitApi({ canExclude: false });
    renderApp('/search');
    await screen.findByText('God and the State');
    expect(screen.queryByRole('button', { name: /^Omit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Curate/ })).toBeNull();
  });

  it('asks for a reason (Omit hidden until one is typed), posts it, closes, says where to restore and refreshes the results', async () => {
    const user = userEvent.setup();
    const api = omitApi();
    renderApp('/search');
    await screen.findByText('God and the State');
    await user.click(within(card('God and the State')).getByRole('button', { name: 'Curate “God and the State”' }));
    await user.click(screen.getByRole('menuitem', { name: 'Omit the author “Mikhail Bakunin”…' }));
    const dialog = screen.getByRole('dialog', { name: 'Omit author' });
    const reason = within(dialog).getByRole('textbox', { name: 'Reason' });
    expect(reason).toHaveAttribute('placeholder', 'Reason');
    expect(reason).toHaveFocus();
    expect(within(dialog).queryByRole('button', { name: 'Omit' })).toBeNull();
    await user.type(reason, '   ');
    expect(within(dialog).queryByRole('button', { name: 'Omit' })).toBeNull();
    await user.clear(reason);
    await user.type(reason, 'Not an author of this catalogue');
    const searches = api.calls('/search').length;
    await user.click(within(dialog).getByRole('button', { name: 'Omit' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.posted).toEqual([{ op: 'add', type: 'author', id: 7, comment: 'Not an author of this catalogue' }]);
    const notice = await screen.findByText('Hidden from your searches. You can restore it in My Exclusions.');
    expect(within(notice.parentElement!).getByRole('link', { name: 'My Exclusions' })).toHaveAttribute('href', '/exclusions');
    // The omitted row is about to go: focus moves to the message, not to the page's top.
    await waitFor(() => expect(notice.parentElement).toHaveFocus());
    await waitFor(() => expect(api.calls('/search').length).toBeGreaterThan(searches));

    // Not a stale toast: on another page (here the one its link opens) it is gone.
    api.fetch.mockClear();
    await user.click(within(notice.parentElement!).getByRole('link', { name: 'My Exclusions' }));
    await waitFor(() => expect(screen.queryByText('Hidden from your searches. You can restore it in My Exclusions.')).toBeNull());
  });

  it('omits a single entry and a library with their own type and id', async () => {
    const user = userEvent.setup();
    const api = omitApi();
    renderApp('/search');
    await screen.findByText('God and the State');
    await user.click(within(card('Statism and Anarchy')).getByRole('button', { name: 'Curate “Statism and Anarchy”' }));
    await user.click(screen.getByRole('menuitem', { name: 'Omit this entry “Statism and Anarchy”…' }));
    let dialog = screen.getByRole('dialog', { name: 'Omit single entry' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Duplicate scan');
    await user.click(within(dialog).getByRole('button', { name: 'Omit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const facet = screen.getByRole('region', { name: 'Libraries' });
    await user.click(within(facet).getByRole('button', { name: 'Omit Library: Bibliotheca Test' }));
    dialog = screen.getByRole('dialog', { name: 'Omit Library' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Not my language');
    await user.click(within(dialog).getByRole('button', { name: 'Omit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.posted).toEqual([
      { op: 'add', type: 'entry', id: 2, comment: 'Duplicate scan' },
      { op: 'add', type: 'library', id: 3, comment: 'Not my language' },
    ]);
  });

  it("keeps the dialog open with the server's error; Cancel sends nothing", async () => {
    const user = userEvent.setup();
    const api = omitApi({ reply: () => ({ status: 400, body: { error: 'This author is already excluded' } }) });
    renderApp('/search');
    await screen.findByText('God and the State');
    await user.click(within(card('God and the State')).getByRole('button', { name: 'Curate “God and the State”' }));
    await user.click(screen.getByRole('menuitem', { name: 'Omit this entry “God and the State”…' }));
    const dialog = screen.getByRole('dialog', { name: 'Omit single entry' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Omit' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This author is already excluded');
    expect(screen.queryByText('Hidden from your searches. You can restore it in My Exclusions.')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(within(card('God and the State')).getByRole('button', { name: 'Curate “God and the State”' }));
    await user.click(screen.getByRole('menuitem', { name: 'Omit the author “Mikhail Bakunin”…' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.posted).toHaveLength(1);
  });
});

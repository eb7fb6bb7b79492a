import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { entry } from '../../test/fixtures';
import { mockApi, renderApp } from '../../test/utils';

const BIBTEX = '@book{bakunin1882god1,\n  author = {Bakunin, Mikhail},\n  title = {{God and the State}}\n}\n';

/** The entry API as JSON, and the citation route as text (what the server sends). */
function citeApi(cite: (url: URL) => Response = () => new Response(BIBTEX, { headers: { 'Content-Type': 'application/x-bibtex; charset=utf-8' } })) {
  const api = mockApi({ '/entry/': () => ({ body: entry() }), '/search': () => undefined });
  const jsonFetch = api.fetch;
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    return url.pathname.endsWith('/cite') ? cite(url) : jsonFetch(input, init);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function openEntry() {
  renderApp('/entry/1');
  return screen.findByRole('button', { name: /Cite/ });
}

describe('Cite menu', () => {
  it('is a menu button offering BibTeX, RIS and CSL-JSON downloads and a copy', async () => {
    const user = userEvent.setup();
    citeApi();
    const button = await openEntry();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu', { name: /Cite/ });
    expect(button).toHaveAttribute('aria-controls', menu.id);
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Download BibTeX', 'Download RIS', 'Download CSL-JSON', 'Copy BibTeX']);
    expect(items[0]).toHaveFocus();
    expect(items[0]).toHaveAttribute('href', '/collector/api/entry/1/cite?format=bibtex');
    expect(items[1]).toHaveAttribute('href', '/collector/api/entry/1/cite?format=ris');
    expect(items[2]).toHaveAttribute('href', '/collector/api/entry/1/cite?format=csl-json');
    for (const link of items.slice(0, 3)) expect(link).toHaveAttribute('download');
  });

  it('works from the keyboard: arrows, Home, End, Escape back to the button, Tab closes', async () => {
    const user = userEvent.setup();
    citeApi();
    const button = await openEntry();
    button.focus();
    await user.keyboard('{Enter}');
    let items = screen.getAllByRole('menuitem');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items[1]).toHaveFocus();
    await user.keyboard('{End}');
    expect(items[3]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(items[3]).toHaveFocus();
    await user.keyboard('{Home}');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.keyboard('{ArrowUp}');
    items = screen.getAllByRole('menuitem');
    expect(items[3]).toHaveFocus();
    await user.keyboard('{Tab}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('copies the BibTeX to the clipboard and says so politely, focus back on the button', async () => {
    const user = userEvent.setup();
    const fetchMock = citeApi();
    const button = await openEntry();
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Copy BibTeX' }));
    const status = await screen.findByText('BibTeX copied to the clipboard');
    expect(status).toHaveAttribute('role', 'status');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(await navigator.clipboard.readText()).toBe(BIBTEX);
    expect(button).toHaveFocus();
    const citeCalls = fetchMock.mock.calls.map((c) => String(c[0])).filter((u) => u.includes('/cite'));
    expect(citeCalls).toEqual(['/collector/api/entry/1/cite?format=bibtex']);
  });

  it('says when the citation could not be copied', async () => {
    const user = userEvent.setup();
    citeApi(() => new Response(JSON.stringify({ error: 'The entry does not exist' }), { status: 404 }));
    const button = await openEntry();
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Copy BibTeX' }));
    await waitFor(() => expect(screen.getByText('The citation could not be copied')).toBeInTheDocument());
    expect(screen.getByText('The citation could not be copied')).toHaveAttribute('role', 'status');
  });
});

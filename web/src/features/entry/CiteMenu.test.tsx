import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { dataSource, entry } from '../../test/fixtures';
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
  it('is a menu button offering BibTeX, RIS and CSL-JSON downloads and copies in readable styles', async () => {
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
    expect(items.map((i) => i.textContent)).toEqual(['Download BibTeX', 'Download RIS', 'Download CSL-JSON', 'Copy APA', 'Copy Chicago', 'Copy MLA', 'Copy BibTeX']);
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
    expect(items[6]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(items[6]).toHaveFocus();
    await user.keyboard('{Home}');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await user.keyboard('{ArrowUp}');
    items = screen.getAllByRole('menuitem');
    expect(items[6]).toHaveFocus();
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

  it('copies a readable style of the copy the reader came to, and offers each copy its own Cite', async () => {
    const user = userEvent.setup();
    const APA = 'Bakunin, M. (1882). God and the State. https://example.org/entry/1\n';
    const fetchMock = vi.fn();
    const api = mockApi({
      '/entry/': () => ({ body: entry({ data_sources: [dataSource(), dataSource({ data_source_id: 12, library_id: 4, library_name: 'Archive Four', year_edition: 1970 })] }) }),
      '/search': () => undefined,
    });
    const jsonFetch = api.fetch;
    fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) =>
      new URL(String(input), 'http://localhost').pathname.endsWith('/cite') ? new Response(APA, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } }) : jsonFetch(input, init));
    vi.stubGlobal('fetch', fetchMock);
    // A library badge led here: the header's Cite is that library's copy.
    renderApp('/entry/1#library-4');
    const button = await screen.findByRole('button', { name: /^Cite\W*$/ });
    await user.click(button);
    expect(screen.getByRole('menuitem', { name: 'Download RIS' })).toHaveAttribute('href', '/collector/api/entry/1/cite?format=ris&data_source=12');
    await user.click(screen.getByRole('menuitem', { name: 'Copy APA' }));
    await screen.findByText('APA copied to the clipboard');
    expect(await navigator.clipboard.readText()).toBe(APA.trim());
    const citeCalls = () => fetchMock.mock.calls.map((c) => String(c[0])).filter((u) => u.includes('/cite'));
    expect(citeCalls()).toEqual(['/collector/api/entry/1/cite?format=apa&data_source=12']);
    // Several copies: each box cites its own.
    const boxes = screen.getAllByRole('button', { name: /^Cite this copy/ });
    expect(boxes).toHaveLength(2);
    await user.click(boxes[0]);
    await user.click(screen.getByRole('menuitem', { name: 'Copy MLA' }));
    await screen.findByText('MLA copied to the clipboard');
    expect(citeCalls()[1]).toBe('/collector/api/entry/1/cite?format=mla&data_source=11');
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

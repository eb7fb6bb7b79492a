import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderApp } from '../../test/utils';
import { loadPublicStrings } from '../libraries/testData';
import { isLinkValue } from './linkedData';
import type { AgentsResponse, WikidataCard } from '../../lib/shared';

beforeAll(loadPublicStrings);

const BAKUNIN = { id: 7, name: 'Mikhail Bakunin', wikidata_id: 'Q27645', canonical: null, search_link_id: 7, entries_count: 3 };
const ALIAS = { id: 8, name: 'M. Bakunin', wikidata_id: null, canonical: { id: 7, name: 'Mikhail Bakunin' }, search_link_id: 7, entries_count: 3 };

function agentsBody(extra: Partial<AgentsResponse> = {}): AgentsResponse {
  return { agents: [BAKUNIN, ALIAS], matches: 3, total_agents: 2, warning: null, can_merge: false, ...extra };
}

const CARD: WikidataCard = {
  wikidata_id: 'Q27645',
  name: 'Mikhail Bakunin',
  desc: 'Russian revolutionary',
  link: 'https://en.wikipedia.org/wiki/Mikhail_Bakunin',
  statements: [
    { property: 'P569', name: 'date of birth', data_type: 'time', values: ['1814-05-30'], links: [null] },
    {
      property: 'P856',
      name: 'official website',
      data_type: 'url',
      values: ['https://example.org/bakunin', 'https://exa mple.org/x', 'javascript:alert(1)'],
      links: ['https://example.org/bakunin', null, null],
    },
    { property: 'P214', name: 'VIAF ID', data_type: 'external-id', values: ['https://viaf.org/viaf/1'], links: [null] },
  ],
};

describe('the URL-value rule', () => {
  it('links only http(s) values without spaces', () => {
    expect(isLinkValue('https://example.org/a?b=c')).toBe(true);
    expect(isLinkValue('http://example.org')).toBe(true);
    expect(isLinkValue('https://exa mple.org')).toBe(false);
    expect(isLinkValue('ftp://example.org')).toBe(false);
    expect(isLinkValue('javascript:alert(1)')).toBe(false);
    expect(isLinkValue(' https://example.org')).toBe(false);
    expect(isLinkValue('https://')).toBe(false);
    expect(isLinkValue(null)).toBe(false);
  });
});

describe('/agent', () => {
  it("says 'Please search' and asks nothing when the search is empty", async () => {
    const api = mockApi({ '/agents': () => ({ body: agentsBody() }) });
    renderApp('/agent');
    expect(await screen.findByRole('heading', { level: 1, name: 'Authors' })).toBeInTheDocument();
    expect(screen.getByText('Please search')).toBeInTheDocument();
    expect(api.calls('/agents')).toHaveLength(0);
  });

  it('shows the heading with the entries plural and one card per author', async () => {
    const api = mockApi({ '/agents': () => ({ body: agentsBody() }) });
    renderApp('/agent?search=bakunin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Authors matching “bakunin” (3 entries)' })).toBeInTheDocument();
    expect(api.calls('/agents')[0].searchParams.get('search')).toBe('bakunin');
    const card = screen.getByRole('article', { name: 'Mikhail Bakunin' });
    expect(within(card).getByRole('link', { name: 'See all entries by Mikhail Bakunin' })).toHaveAttribute('href', '/library/author/7');
    expect(within(card).getByText('3 entries')).toBeInTheDocument();
    expect(screen.queryByText('Please search')).toBeNull();
  });

  it('uses the singular for one entry', async () => {
    mockApi({ '/agents': () => ({ body: agentsBody({ agents: [{ ...BAKUNIN, entries_count: 1 }], matches: 1 }) }) });
    renderApp('/agent?search=bak');
    expect(await screen.findByRole('heading', { level: 1, name: 'Authors matching “bak” (1 entry)' })).toBeInTheDocument();
  });

  it('shows a merged author with its canonical name, its entries through the canonical, and no linked data toggle', async () => {
    mockApi({ '/agents': () => ({ body: agentsBody() }) });
    renderApp('/agent?search=bakunin');
    const alias = await screen.findByRole('article', { name: 'M. Bakunin' });
    expect(within(alias).getByText('See “Mikhail Bakunin”')).toBeInTheDocument();
    expect(within(alias).getByRole('link', { name: /See all entries/ })).toHaveAttribute('href', '/library/author/7');
    expect(within(alias).queryByRole('button')).toBeNull();
  });

  it('searches as you type (after a pause) and keeps the search in the URL', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      '/agents': (url) => ({ body: agentsBody(url.searchParams.get('search') === 'kropotkin' ? { agents: [], matches: 0 } : {}) }),
    });
    const { router } = renderApp('/agent');
    const box = await screen.findByRole('searchbox', { name: 'Search authors' });
    await user.type(box, 'kropotkin');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('search')).toBe('kropotkin'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Authors matching “kropotkin” (0 entries)' })).toBeInTheDocument();
    expect(await screen.findByText('No author found.')).toBeInTheDocument();
    // One request for the whole word, not one per keystroke.
    expect(api.calls('/agents').map((u) => u.searchParams.get('search'))).toEqual(['kropotkin']);
  });

  it("shows the server's warning", async () => {
    mockApi({ '/agents': () => ({ body: agentsBody({ warning: 'Too many results, continue searching' }) }) });
    renderApp('/agent?search=a');
    expect(await screen.findByText('Too many results, continue searching')).toBeInTheDocument();
  });

  it('toggles the linked data: name, link, statements, URL values as links only when they qualify', async () => {
    const user = userEvent.setup();
    const api = mockApi({ '/agents/7/wikidata/en': () => ({ body: CARD }), '/agents': () => ({ body: agentsBody() }) });
    renderApp('/agent?search=bakunin');
    const card = await screen.findByRole('article', { name: 'Mikhail Bakunin' });
    const toggle = within(card).getByRole('button', { name: /Linked data/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(api.calls('/agents/7/wikidata')).toHaveLength(0);
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const title = await within(card).findByRole('link', { name: 'Mikhail Bakunin' });
    expect(title).toHaveAttribute('href', CARD.link);
    expect(within(card).getByText('Russian revolutionary')).toBeInTheDocument();
    const value = (name: string) => within(card).getByText(name, { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(value('date of birth')).toHaveTextContent('1814-05-30');
    const site = value('official website');
    expect(within(site).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['https://example.org/bakunin']);
    expect(within(site).getByText('https://exa mple.org/x').tagName).toBe('SPAN');
    expect(within(site).getByText('javascript:alert(1)').tagName).toBe('SPAN');
    // The server said "no link" for this one: it stays text.
    expect(within(value('VIAF ID')).queryByRole('link')).toBeNull();
    expect(api.calls('/agents/7/wikidata')).toHaveLength(1);

    await user.click(toggle);
    expect(within(card).queryByText('date of birth')).toBeNull();
  });

  it('says so when Wikidata cannot be reached, with the server message, and the page works on', async () => {
    const user = userEvent.setup();
    mockApi({
      '/agents/7/wikidata/en': () => ({
        body: { wikidata_id: 'Q27645', name: null, desc: null, link: null, statements: [], error: 'Wikidata could not be reached' },
      }),
      '/agents': () => ({ body: agentsBody() }),
    });
    renderApp('/agent?search=bakunin');
    const card = await screen.findByRole('article', { name: 'Mikhail Bakunin' });
    await user.click(within(card).getByRole('button', { name: /Linked data/ }));
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('The linked data could not be loaded.');
    expect(alert).toHaveTextContent('Wikidata could not be reached');
    expect(within(card).getByRole('link', { name: /See all entries/ })).toBeInTheDocument();
  });
});

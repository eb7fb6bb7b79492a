// The search screen's forgiving parts: "Did you mean …?", the correction searched instead (refusable),
// the translations checkbox and why a widened match is listed.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { agent, library, searchResponse } from '../../test/fixtures';
import { currentParams, mockApi, renderApp } from '../../test/utils';
import type { SearchResponse } from '../../lib/shared';
import { parseSearch, toSearchString, withQuery } from './searchState';

function searchApi(respond: (url: URL) => SearchResponse) {
  return mockApi({
    '/search': (url) => ({ body: respond(url) }),
    '/libraries/': () => ({ body: { library } }),
    '/agents/': () => ({ body: { agent } }),
  });
}

describe('search state: translations and exact', () => {
  it('reads and writes translations=1 and exact=1, and a new query may be corrected again', () => {
    const s = parseSearch('?query=kropotkine&exact=1&translations=1');
    expect(s.translations).toBe(true);
    expect(s.exact).toBe(true);
    expect(toSearchString(s)).toBe('?query=kropotkine&translations=1&exact=1');
    const next = withQuery(s, 'bakunin');
    expect(next.exact).toBeUndefined();
    expect(next.translations).toBe(true);
  });
});

describe('search screen: spelling', () => {
  it('offers "Did you mean …?" as a link that runs the corrected query', async () => {
    const user = userEvent.setup();
    const api = searchApi((url) =>
      url.searchParams.get('query') === 'mutual OR kropotkine'
        ? searchResponse({ total_entries: 1, did_you_mean: 'mutual OR kropotkin', corrected: false })
        : searchResponse(),
    );
    const { router } = renderApp('/search?query=mutual+OR+kropotkine');
    const link = await screen.findByRole('link', { name: 'mutual OR kropotkin' });
    expect(link.closest('p')).toHaveTextContent('Did you mean mutual OR kropotkin?');
    await user.click(link);
    expect(currentParams(router).get('query')).toBe('mutual OR kropotkin');
    await waitFor(() => expect(api.calls('/search').at(-1)?.searchParams.get('query')).toBe('mutual OR kropotkin'));
  });

  it('says when it searched for the correction instead, and searches the words as typed on request', async () => {
    const user = userEvent.setup();
    const api = searchApi((url) =>
      url.searchParams.get('exact') === '1'
        ? searchResponse({ matches: [], total_entries: 0, pretty_query: 'kropotkine', did_you_mean: null })
        : searchResponse({ pretty_query: 'kropotkin', did_you_mean: 'kropotkin', corrected: true, querystring: 'kropotkine' }),
    );
    const { router } = renderApp('/search?query=kropotkine');
    const notice = (await screen.findByText(/Showing results for/)).closest('p')!;
    expect(notice).toHaveTextContent('Showing results for kropotkin. Search instead for kropotkine');
    await user.click(within(notice).getByRole('link', { name: 'kropotkine' }));
    expect(currentParams(router).get('exact')).toBe('1');
    expect(currentParams(router).get('query')).toBe('kropotkine');
    expect(await screen.findByText('No result found!')).toBeInTheDocument();
    expect(api.calls('/search').at(-1)?.searchParams.get('exact')).toBe('1');
    expect(screen.queryByText(/Did you mean/)).not.toBeInTheDocument();
  });
});

describe('search screen: translations of a work', () => {
  it('widens the search with the checkbox beside the query and says why a match is listed', async () => {
    const user = userEvent.setup();
    const api = searchApi((url) => {
      const base = searchResponse();
      if (url.searchParams.get('translations') !== '1') return base;
      const [first, second] = base.matches;
      return { ...base, matches: [first, { ...second, related: { relation: 'translation_of', entry_id: first.entry_id, title: 'God and the State' } }] };
    });
    const { router } = renderApp('/search?query=god');
    await screen.findByText(/Search results for/);
    const box = screen.getByRole('checkbox', { name: 'Include translations and originals' });
    expect(box).not.toBeChecked();
    await user.click(box);
    expect(currentParams(router).get('translations')).toBe('1');
    await waitFor(() => expect(api.calls('/search').at(-1)?.searchParams.get('translations')).toBe('1'));
    const why = await screen.findByText(/Listed as a translation of/);
    expect(within(why).getByRole('link', { name: 'God and the State' })).toHaveAttribute('href', '/entry/1');
    expect(screen.getByRole('checkbox', { name: 'Include translations and originals' })).toBeChecked();
  });
});

describe('search box: suggest as you type', () => {
  const suggestions = [
    { type: 'author' as const, id: 7, value: 'Peter Kropotkin', detail: null },
    { type: 'title' as const, id: 12, value: 'Kropotkin: Selected Writings', detail: 'Peter Kropotkin' },
  ];
  function suggestApi() {
    return mockApi({
      '/search': () => ({ body: searchResponse() }),
      '/suggest': (url) => ({ body: { suggestions: (url.searchParams.get('q') ?? '').length >= 2 ? suggestions : [] } }),
      '/libraries/': () => ({ body: { library } }),
      '/agents/': () => ({ body: { agent } }),
    });
  }

  it('lists titles and authors while typing; arrows choose, Enter opens, Escape closes', async () => {
    const user = userEvent.setup();
    const api = suggestApi();
    const { router } = renderApp('/search');
    await screen.findByText(/All entries/);
    const box = screen.getByRole('combobox', { name: 'Search the catalogue' });
    expect(box).toHaveAttribute('aria-autocomplete', 'list');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await user.type(box, 'krop');
    const list = await screen.findByRole('listbox', { name: 'Suggestions' });
    expect(api.calls('/suggest').at(-1)?.searchParams.get('q')).toBe('krop');
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Peter Kropotkin (Author)', 'Kropotkin: Selected Writings · Peter Kropotkin']);
    expect(box).toHaveAttribute('aria-controls', list.id);
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Suggestions: 2. Up and down arrows to choose.')).toBeInTheDocument();

    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[0].id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[1].id);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(box).toHaveValue('krop');
    expect(box).not.toHaveAttribute('aria-activedescendant');

    await user.keyboard('{ArrowDown}');
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{ArrowUp}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/entry/12'));
  });

  it('Enter without a chosen suggestion searches, and a click on a suggestion opens it', async () => {
    const user = userEvent.setup();
    suggestApi();
    const { router } = renderApp('/search');
    await screen.findByText(/All entries/);
    const box = screen.getByRole('combobox', { name: 'Search the catalogue' });
    await user.type(box, 'krop');
    await screen.findByRole('listbox');
    await user.keyboard('{Enter}');
    expect(currentParams(router).get('query')).toBe('krop');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.type(box, 'o');
    const option = await screen.findByRole('option', { name: 'Peter Kropotkin (Author)' });
    await user.click(option);
    // The author's page: all the author's entries (/library/author/7 shows the search for creator:7).
    await waitFor(() => expect(currentParams(router).get('query')).toBe('creator:7'));
  });
});

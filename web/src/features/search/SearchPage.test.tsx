import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { agent, library, searchResponse } from '../../test/fixtures';
import { currentParams, mockApi, renderApp } from '../../test/utils';
import type { SearchResponse } from '../../lib/shared';
import i18n, { loadBundle } from '../../i18n';

function searchApi(respond: (url: URL) => SearchResponse | { status: number; body: unknown }) {
  return mockApi({
    '/search': (url) => {
      const r = respond(url);
      return 'status' in r && 'body' in r ? (r as { status: number; body: unknown }) : { body: r };
    },
    '/libraries/': () => ({ body: { library } }),
    '/agents/': () => ({ body: { agent } }),
  });
}

const sortOptions = () =>
  within(screen.getByLabelText('Sort results'))
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('search screen: sort selector', () => {
  it('offers acquisition date with an empty query and relevance with a query, swapping on search', async () => {
    const user = userEvent.setup();
    const api = searchApi(() => searchResponse());
    const { router } = renderApp('/search');
    expect(await screen.findByRole('heading', { level: 1, name: 'All entries (2)' })).toBeInTheDocument();
    expect(sortOptions()).toEqual(['Sort by Acquisition Date', 'Sort by Title (A-Z)', 'Sort by Title (Z-A)']);
    expect(screen.getByLabelText('Sort results')).toHaveValue('datestamp');
    expect(api.calls('/search')[0].searchParams.get('sort_by')).toBe('datestamp');

    await user.type(screen.getByRole('combobox', { name: 'Search the catalogue' }), 'bakunin');
    expect(sortOptions()).toEqual(['Sort by Relevance', 'Sort by Title (A-Z)', 'Sort by Title (Z-A)']);
    expect(screen.getByLabelText('Sort results')).toHaveValue('relevance');

    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(currentParams(router).get('sort_by')).toBe('relevance');
    expect(currentParams(router).get('query')).toBe('bakunin');
    await waitFor(() => expect(api.calls('/search').at(-1)?.searchParams.get('sort_by')).toBe('relevance'));

    // Back to an empty query: relevance becomes acquisition date again.
    await user.click(screen.getByRole('button', { name: 'Clear the query' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(currentParams(router).get('sort_by')).toBe('datestamp');
    expect(currentParams(router).has('query')).toBe(false);
  });

  it('keeps a title sort across searches and changing the sort searches at once', async () => {
    const user = userEvent.setup();
    searchApi(() => searchResponse());
    const { router } = renderApp('/search?query=state');
    await screen.findByText(/Search results for/);
    await user.selectOptions(screen.getByLabelText('Sort results'), 'Sort by Title (Z-A)');
    expect(currentParams(router).get('sort_by')).toBe('title_desc');
    await user.clear(screen.getByRole('combobox', { name: 'Search the catalogue' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(currentParams(router).get('sort_by')).toBe('title_desc');
  });
});

describe('search screen: headings and messages', () => {
  it('shows the plural heading with the pretty query', async () => {
    searchApi(() => searchResponse({ pretty_query: 'bakunin', total_entries: 2 }));
    renderApp('/search?query=bakunin');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Search results for “bakunin”: found 2 entries' }),
    ).toBeInTheDocument();
  });

  it('uses the singular for one entry', async () => {
    searchApi(() => searchResponse({ pretty_query: 'Mikhail Bakunin (creator:7)', total_entries: 1 }));
    renderApp('/search?query=creator:7');
    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Search results for “Mikhail Bakunin (creator:7)”: found 1 entry',
      }),
    ).toBeInTheDocument();
  });

  it('says Invalid query! when the server answers 400, with its message', async () => {
    searchApi(() => ({ status: 400, body: { error: 'Unbalanced parentheses' } }));
    renderApp('/search?query=(foo');
    expect(await screen.findByRole('heading', { level: 1, name: 'Invalid query!' })).toBeInTheDocument();
    expect(screen.getByText('Unbalanced parentheses')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('says No result found! on an empty result', async () => {
    searchApi(() => searchResponse({ matches: [], total_entries: 0, pretty_query: 'zzz' }));
    renderApp('/search?query=zzz');
    expect(await screen.findByText('No result found!')).toBeInTheDocument();
  });

  it('says Fetching results, hold on... while the search runs', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { fetch } = mockApi({ '/search': () => ({ body: searchResponse() }) });
    const original = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/search')) await gate;
      return original(input, init);
    });
    renderApp('/search');
    expect(await screen.findByRole('heading', { level: 1, name: 'Fetching results, hold on...' })).toBeInTheDocument();
    await act(async () => release());
    expect(await screen.findByRole('heading', { level: 1, name: 'All entries (2)' })).toBeInTheDocument();
  });
});

describe('search screen: facets and chips', () => {
  it('shows the six facet boxes with translated download values and counts', async () => {
    searchApi(() => searchResponse());
    renderApp('/search');
    await screen.findByText('All entries (2)');
    for (const name of ['Language', 'Authors', 'Libraries', 'Date', 'Download Types', 'Aggregations']) {
      expect(screen.getByRole('heading', { level: 3, name })).toBeInTheDocument();
    }
    expect(screen.getByRole('checkbox', { name: 'Editable and printable text (1)' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Raw scan (1)' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Exclude aggregated items (2)' })).toBeInTheDocument();
    // Download Types and Aggregations have no sort radios; the four others do.
    expect(screen.getAllByRole('radio', { name: 'by term' })).toHaveLength(4);
  });

  it('sorts facet values by count (default) or by term', async () => {
    const user = userEvent.setup();
    searchApi(() => searchResponse());
    renderApp('/search');
    await screen.findByText('All entries (2)');
    const box = screen.getByRole('region', { name: 'Language' });
    const labels = () => within(box).getAllByRole('checkbox').map((c) => c.closest('label')!.textContent);
    expect(within(box).getByRole('radio', { name: 'by count' })).toBeChecked();
    expect(labels()).toEqual(['Italian (5)', 'English (2)', 'German (1)']);
    await user.click(within(box).getByRole('radio', { name: 'by term' }));
    expect(labels()).toEqual(['English (2)', 'German (1)', 'Italian (5)']);
  });

  it('toggling a facet value updates the URL, resets the page and refetches', async () => {
    const user = userEvent.setup();
    const api = searchApi(() => searchResponse());
    const { router } = renderApp('/search?query=state&page_number=3');
    await screen.findByText(/Search results for/);
    await user.click(screen.getByRole('checkbox', { name: 'Italian (5)' }));
    expect(currentParams(router).getAll('filter_language')).toEqual(['it']);
    expect(currentParams(router).has('page_number')).toBe(false);
    expect(currentParams(router).get('query')).toBe('state');
    await waitFor(() => expect(api.calls('/search').at(-1)?.searchParams.getAll('filter_language')).toEqual(['it']));
    expect(screen.getByRole('checkbox', { name: 'Italian (5)' })).toBeChecked();

    await user.click(screen.getByRole('checkbox', { name: 'English (2)' }));
    expect(currentParams(router).getAll('filter_language')).toEqual(['it', 'en']);
    await user.click(screen.getByRole('checkbox', { name: 'Italian (5)' }));
    expect(currentParams(router).getAll('filter_language')).toEqual(['en']);
  });

  it('shows removable chips that are buttons and remove their filter', async () => {
    const user = userEvent.setup();
    searchApi(() => searchResponse());
    const { router } = renderApp('/search?filter_language=it&filter_download=text&page_number=2');
    await screen.findByText('All entries (2)');
    const chip = screen.getByRole('button', { name: /Download Types: Editable and printable text/ });
    expect(chip).toHaveAttribute('title', 'Click to remove the filter');
    expect(screen.getByRole('button', { name: /Language: Italian/ })).toBeInTheDocument();
    chip.focus();
    await user.keyboard('{Enter}');
    expect(currentParams(router).has('filter_download')).toBe(false);
    expect(currentParams(router).getAll('filter_language')).toEqual(['it']);
    expect(currentParams(router).has('page_number')).toBe(false);
    expect(screen.queryByRole('button', { name: /Download Types:/ })).not.toBeInTheDocument();
  });

  it('a new search keeps the filters and goes back to page 1', async () => {
    const user = userEvent.setup();
    searchApi(() => searchResponse());
    const { router } = renderApp('/search?query=state&filter_language=it&page_number=4');
    await screen.findByText(/Search results for/);
    const box = screen.getByRole('combobox', { name: 'Search the catalogue' });
    await user.clear(box);
    await user.type(box, 'anarchy{Enter}');
    const p = currentParams(router);
    expect(p.get('query')).toBe('anarchy');
    expect(p.getAll('filter_language')).toEqual(['it']);
    expect(p.has('page_number')).toBe(false);
  });
});

describe('search screen: pager', () => {
  const pager = [
    { key: 'first', page_id: 1, label: 'First', current: false },
    { key: 'prev', page_id: 1, label: 'Previous', current: false },
    { key: 'p1', page_id: 1, label: '1', current: false },
    { key: 'p2', page_id: 2, label: '2', current: true },
    { key: 'p3', page_id: 3, label: '3', current: false },
    { key: 'next', page_id: 3, label: 'Next', current: false },
    { key: 'last', page_id: 3, label: 'Last', current: false },
  ];

  it('renders real links at top and bottom and pages to the results', async () => {
    const user = userEvent.setup();
    const api = searchApi(() => searchResponse({ pager, total_entries: 25 }));
    const { router } = renderApp('/search?query=state&filter_language=en&page_number=2');
    await screen.findByText(/Search results for/);
    const navs = screen.getAllByRole('navigation', { name: /Result pages/ });
    expect(navs).toHaveLength(2);
    const top = within(navs[0]);
    expect(top.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    const next = top.getByRole('link', { name: 'Next' });
    expect(next).toHaveAttribute('href', '/search?query=state&page_number=3&filter_language=en');
    expect(top.getByRole('link', { name: 'First' })).toHaveAttribute('href', '/search?query=state&filter_language=en');

    const scrolls = (Element.prototype.scrollIntoView as unknown as { mock: { calls: unknown[] } }).mock.calls.length;
    await user.click(within(navs[1]).getByRole('link', { name: 'Next' }));
    expect(currentParams(router).get('page_number')).toBe('3');
    expect((Element.prototype.scrollIntoView as unknown as { mock: { calls: unknown[] } }).mock.calls.length).toBeGreaterThan(scrolls);
    await waitFor(() => expect(api.calls('/search').at(-1)?.searchParams.get('page_number')).toBe('3'));
  });
});

describe('search screen: single-filter boxes', () => {
  it('shows the library card for library:N', async () => {
    searchApi(() => searchResponse({ pretty_query: 'Bibliotheca Test (library:3)' }));
    renderApp('/search?query=library:3&sort_by=title_asc');
    expect(await screen.findByRole('heading', { name: 'Bibliotheca Test', level: 2 })).toBeInTheDocument();
    expect(screen.getByText(/Zagreb, Croatia/)).toBeInTheDocument();
    expect(screen.getByText('A small social-centre library.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Library details' })).toHaveAttribute('href', '/library/details/3');
  });

  it('shows the author for creator:N', async () => {
    searchApi(() => searchResponse({ pretty_query: 'Mikhail Bakunin (creator:7)' }));
    renderApp('/search?query=creator:7');
    const box = await screen.findByRole('region', { name: 'Author' });
    expect(within(box).getByRole('heading', { name: 'Mikhail Bakunin' })).toBeInTheDocument();
    expect(within(box).getByRole('link', { name: 'See all entries' })).toHaveAttribute('href', '/library/author/7');
  });

  it('shows none for an ordinary query', async () => {
    const api = searchApi(() => searchResponse());
    renderApp('/search?query=library');
    await screen.findByText(/Search results for/);
    expect(screen.queryByRole('link', { name: 'Library details' })).not.toBeInTheDocument();
    expect(api.calls('/libraries')).toHaveLength(0);
  });

  it('library and author routes redirect to the search', async () => {
    searchApi(() => searchResponse());
    const { router } = renderApp('/library/entries/3');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(currentParams(router).get('query')).toBe('library:3');
    expect(currentParams(router).get('sort_by')).toBe('title_asc');
    await act(() => router.navigate('/library/author/7'));
    expect(currentParams(router).get('query')).toBe('creator:7');
    expect(currentParams(router).get('sort_by')).toBe('title_asc');
  });
});

describe('search screen: result cards', () => {
  it('links title, authors and library badges', async () => {
    searchApi(() =>
      searchResponse({
        matches: [
          {
            ...searchResponse().matches[0],
            title: [{ id: 1, value: 'God and the State' }, { id: 1, value: 'An essay' }],
            translate: [{ id: 'translation', value: 'Translations' }],
          },
        ],
        total_entries: 1,
      }),
    );
    renderApp('/search');
    const card = (await screen.findAllByRole('article'))[0];
    const c = within(card);
    expect(c.getByRole('link', { name: 'God and the State' })).toHaveAttribute('href', '/entry/1');
    expect(c.getByText('An essay')).toBeInTheDocument();
    expect(c.getByRole('link', { name: 'See all entries by Mikhail Bakunin' })).toHaveAttribute(
      'href',
      '/library/author/7',
    );
    expect(c.getByRole('link', { name: /Bibliotheca Test/ })).toHaveAttribute('href', '/entry/1#library-3');
    expect(c.getByRole('link', { name: /Bibliotheca Test/ })).toHaveTextContent('(Digital library)');
    expect(c.getByTitle('This text is a translation')).toBeInTheDocument();
  });

  it('keeps a card with six authors compact: one wrapping line of author links, no stacked buttons, one font family', async () => {
    const names = ['Ada One', 'Bo Two', 'Cy Three', 'Di Four', 'Ed Five', 'Flo Six'];
    searchApi(() =>
      searchResponse({
        matches: [{ ...searchResponse().matches[0], creator: names.map((value, i) => ({ id: 100 + i, value })) }],
        total_entries: 1,
      }),
    );
    renderApp('/search');
    const card = (await screen.findAllByRole('article'))[0];
    const c = within(card);
    const authors = c.getByRole('list', { name: 'Authors' });
    // Each name is the one way to its author's entries (no separate 'See all entries' per author).
    const links = within(authors).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(names);
    expect(links.map((l) => l.getAttribute('href'))).toEqual(names.map((_, i) => `/library/author/${100 + i}`));
    expect(links[5]).toHaveAccessibleName('See all entries by Flo Six');
    expect(c.queryByText('See all entries')).toBeNull();
    expect(authors).toHaveClass('flex-wrap');
    expect(card.textContent).toContain('Ada One,Bo Two,');
    // No serif/sans mix inside the card.
    expect(card.querySelectorAll('.font-serif, .font-mono')).toHaveLength(0);
    expect(card).not.toHaveClass('font-serif');
  });
});

describe('search screen: URL as the state, kept alive', () => {
  it('follows Back and Forward', async () => {
    const user = userEvent.setup();
    searchApi((url) =>
      searchResponse({ pretty_query: url.searchParams.get('query') ?? '', total_entries: url.searchParams.has('query') ? 1 : 2 }),
    );
    const { router } = renderApp('/search');
    await screen.findByRole('heading', { level: 1, name: 'All entries (2)' });
    await user.type(screen.getByRole('combobox', { name: 'Search the catalogue' }), 'kropotkin{Enter}');
    await screen.findByRole('heading', { level: 1, name: 'Search results for “kropotkin”: found 1 entry' });
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { level: 1, name: 'All entries (2)' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Search the catalogue' })).toHaveValue('');
    await act(() => router.navigate(1));
    expect(await screen.findByRole('heading', { level: 1, name: /kropotkin/ })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Search the catalogue' })).toHaveValue('kropotkin');
  });

  it('keeps the search view and its results when going to an entry and back', async () => {
    const user = userEvent.setup();
    const api = mockApi({
      '/search': () => ({ body: searchResponse({ pretty_query: 'state' }) }),
      '/entry/': () => ({ status: 404, body: { error: 'Not found' } }),
    });
    const { router } = renderApp('/search?query=state');
    await screen.findByText(/Search results for/);
    await user.click(screen.getByRole('checkbox', { name: 'Italian (5)' }));
    await waitFor(() => expect(api.calls('/search')).toHaveLength(2));
    await user.click(screen.getByRole('link', { name: 'God and the State' }));
    expect(await screen.findByText('Sorry! We could not found this entry!')).toBeInTheDocument();
    // Hidden, not unmounted.
    expect(screen.queryByRole('heading', { level: 1, name: /Search results/ })).not.toBeInTheDocument();
    await act(() => router.navigate(-1));
    // Instantly back, without a new request.
    expect(screen.getByRole('heading', { level: 1, name: /Search results for “state”/ })).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Italian (5)' })).toBeChecked();
    expect(api.calls('/search')).toHaveLength(2);
  });
});

describe('search screen: scroll position', () => {
  it('comes back to the same scroll position, but a different search starts at the top', async () => {
    const user = userEvent.setup();
    mockApi({
      '/search': () => ({ body: searchResponse({ pretty_query: 'state' }) }),
      '/entry/': () => ({ status: 404, body: { error: 'Not found' } }),
    });
    const { router } = renderApp('/search?query=state');
    await screen.findByText(/Search results for/);
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 640 });
    window.dispatchEvent(new Event('scroll'));
    await user.click(screen.getByRole('link', { name: 'God and the State' }));
    await screen.findByText('Sorry! We could not found this entry!');
    expect(window.scrollTo).toHaveBeenLastCalledWith(0, 0);
    await act(() => router.navigate(-1));
    expect(window.scrollTo).toHaveBeenLastCalledWith(0, 640);
    await act(() => router.navigate('/entry/1'));
    await act(() => router.navigate('/search?query=other'));
    expect(window.scrollTo).toHaveBeenLastCalledWith(0, 0);
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
  });
});

describe('search screen: help dialog', () => {
  it('opens a modal dialog with the syntax help, closes on Escape and returns focus', async () => {
    // The app's whole English bundle: the help's forgiving-search paragraphs live in the search feature's file.
    i18n.addResourceBundle('en', 'translation', await loadBundle('en'), true, true);
    const user = userEvent.setup();
    searchApi(() => searchResponse());
    renderApp('/search');
    await screen.findByText('All entries (2)');
    const helpButton = screen.getByRole('button', { name: 'Help on the query syntax' });
    await user.click(helpButton);
    const dialog = screen.getByRole('dialog', { name: 'Help on the query syntax' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveTextContent('by title with the prefix “title:”');
    expect(dialog).toHaveTextContent('AND, OR, NOT');
    expect(dialog).toHaveTextContent('For example:');
    // The forgiving search (issue 16): other scripts, typos, translations, suggestions, snippets.
    expect(dialog).toHaveTextContent('“Кропоткин” finds “Kropotkin”');
    expect(dialog).toHaveTextContent('(“Did you mean …?”)');
    expect(dialog).toHaveTextContent('Tick “Include translations and originals”');
    expect(dialog).toHaveTextContent('with the up and down arrows and Enter');
    expect(dialog).toHaveTextContent('“Read in the full text” opens the text at the first of them');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    // Focus stays inside on Tab.
    await user.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(helpButton).toHaveFocus();
  });
});

describe('search screen: UX review', () => {
  const emptyFacets = () =>
    Object.fromEntries(
      Object.entries(searchResponse().facets).map(([k, f]) => [k, { ...f, values: [] }]),
    ) as unknown as SearchResponse['facets'];

  it('shows the previous results as stale while the next search runs, never with the new query', async () => {
    const user = userEvent.setup();
    let release!: () => void;
    let gate: Promise<void> = Promise.resolve();
    const { fetch } = searchApi((url) =>
      url.searchParams.has('query')
        ? searchResponse({ pretty_query: 'tolstoy', total_entries: 1, matches: searchResponse().matches.slice(1) })
        : searchResponse({ total_entries: 565 }),
    );
    const original = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('/search')) await gate;
      return original(input, init);
    });
    renderApp('/search');
    await screen.findByRole('heading', { level: 1, name: 'All entries (565)' });
    const results = screen.getByRole('region', { name: 'Results' });
    expect(results).toHaveAttribute('aria-busy', 'false');
    const oldTitles = within(results).getAllByRole('article').length;

    gate = new Promise<void>((r) => (release = r));
    await user.type(screen.getByRole('combobox', { name: 'Search the catalogue' }), 'tolstoy{Enter}');
    // The old answer stays, dimmed and busy; the heading pairs no query with the old count.
    expect(await screen.findByRole('heading', { level: 1, name: 'Fetching results, hold on...' })).toBeInTheDocument();
    expect(results).toHaveAttribute('aria-busy', 'true');
    expect(results).toHaveClass('opacity-85');
    expect(within(results).getAllByRole('article')).toHaveLength(oldTitles);
    expect(screen.queryByText(/Search results for “tolstoy”/)).not.toBeInTheDocument();
    expect(screen.queryByText(/565/)).not.toBeInTheDocument();

    await act(async () => release());
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Search results for “tolstoy”: found 1 entry' }),
    ).toBeInTheDocument();
    expect(results).toHaveAttribute('aria-busy', 'false');
    expect(results).not.toHaveClass('opacity-85');
    expect(within(results).getAllByRole('article')).toHaveLength(oldTitles - 1);
  });

  it('shows no lone Filters heading on an empty result or an error', async () => {
    searchApi((url) =>
      url.searchParams.get('query') === '(foo'
        ? { status: 400, body: { error: 'Unbalanced parentheses' } }
        : searchResponse({ matches: [], total_entries: 0, pretty_query: 'zzz', facets: emptyFacets() }),
    );
    const { router } = renderApp('/search?query=zzz');
    await screen.findByText('No result found!');
    expect(screen.queryByRole('heading', { name: 'Filters' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Filters/ })).not.toBeInTheDocument();
    await act(() => router.navigate('/search?query=(foo'));
    await screen.findByRole('heading', { level: 1, name: 'Invalid query!' });
    expect(screen.queryByRole('heading', { name: 'Filters' })).not.toBeInTheDocument();
  });

  it('Tab from the search box reaches "Skip to results", and Enter moves focus to the results', async () => {
    const user = userEvent.setup();
    searchApi(() => searchResponse());
    renderApp('/search');
    await screen.findByRole('heading', { level: 1, name: 'All entries (2)' });
    screen.getByRole('combobox', { name: 'Search the catalogue' }).focus();
    const skip = screen.getByRole('link', { name: 'Skip to results' });
    for (let i = 0; i < 6 && document.activeElement !== skip; i++) await user.tab();
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('region', { name: 'Results' })).toHaveFocus();
  });

  describe('collapsible facet boxes', () => {
    afterEach(() => window.sessionStorage.clear());

    it('collapse with a button, take the checkboxes out of the page and stay collapsed for the session', async () => {
      const user = userEvent.setup();
      searchApi(() => searchResponse());
      const first = renderApp('/search');
      await screen.findByText('All entries (2)');
      const toggle = within(screen.getByRole('heading', { level: 3, name: 'Language' })).getByRole('button', {
        name: 'Language',
      });
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
      expect(within(screen.getByRole('region', { name: 'Language' })).getAllByRole('checkbox')).toHaveLength(3);
      await user.click(toggle);
      expect(toggle).toHaveAttribute('aria-expanded', 'false');
      expect(within(screen.getByRole('region', { name: 'Language' })).queryAllByRole('checkbox')).toHaveLength(0);
      expect(within(screen.getByRole('region', { name: 'Authors' })).getAllByRole('checkbox')).toHaveLength(1);

      first.unmount();
      renderApp('/search');
      await screen.findByText('All entries (2)');
      const again = within(screen.getByRole('heading', { level: 3, name: 'Language' })).getByRole('button');
      expect(again).toHaveAttribute('aria-expanded', 'false');
      await user.click(again);
      expect(within(screen.getByRole('region', { name: 'Language' })).getAllByRole('checkbox')).toHaveLength(3);
    });
  });

  it('names language facet values in the interface language', async () => {
    const de = await loadBundle('de');
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await i18n.changeLanguage('de');
    try {
      const facets = searchResponse().facets;
      searchApi(() =>
        searchResponse({
          facets: {
            ...facets,
            language: {
              ...facets.language,
              values: [
                { id: 'fr', key: 'languagefr', term: 'French', count: 5, active: false },
                { id: 'xx-nope', key: 'languagexx-nope', term: 'Server name', count: 1, active: false },
              ],
            },
          },
        }),
      );
      const user = userEvent.setup();
      const { router } = renderApp('/search');
      const box = await screen.findByRole('region', { name: de['Language'] });
      expect(within(box).getByRole('checkbox', { name: 'Französisch (5)' })).toBeInTheDocument();
      expect(within(box).getByRole('checkbox', { name: 'Server name (1)' })).toBeInTheDocument();
      await user.click(within(box).getByRole('checkbox', { name: 'Französisch (5)' }));
      expect(currentParams(router).getAll('filter_language')).toEqual(['fr']);
      expect(await screen.findByRole('button', { name: new RegExp(`${de['Language']}: Französisch`) })).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('reserves the right column only for curators’ boxes', async () => {
    searchApi(() => searchResponse());
    const first = renderApp('/search?query=state');
    await screen.findByText(/Search results for/);
    const grid = () => screen.getByRole('region', { name: 'Results' }).parentElement!;
    expect(grid().className).not.toMatch(/18rem/);
    first.unmount();
    renderApp('/search?query=library:3');
    await screen.findByRole('heading', { name: 'Bibliotheca Test', level: 2 });
    expect(grid().className).toMatch(/lg:grid-cols-\[16rem_minmax\(0,1fr\)_18rem\]/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderApp } from '../../test/utils';
import { match, searchResponse } from '../../test/fixtures';
import { CANUTS, CLOUD, KOENJI, LANTERNA, LIBRARIES, PROSTOR, loadPublicStrings } from '../libraries/testData';

// jsdom has no layout: give the map container a size so Leaflet computes a view.
const sizes = { clientWidth: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth'), clientHeight: Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight') };
beforeAll(() => {
  loadPublicStrings();
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
});
afterAll(() => {
  for (const [k, d] of Object.entries(sizes)) if (d) Object.defineProperty(HTMLElement.prototype, k, d);
});

const markerNames = () =>
  Array.from(document.querySelectorAll('.leaflet-marker-pane [role="button"]')).map((m) => m.textContent ?? '');

describe('/map', () => {
  it('draws a marker (or cluster) for every library with coordinates, on the built-in basemap', async () => {
    mockApi({ '/libraries': () => ({ body: { libraries: LIBRARIES } }) });
    renderApp('/map');
    expect(await screen.findByRole('heading', { level: 2, name: 'Map of the libraries' })).toBeInTheDocument();
    const map = await screen.findByRole('region', { name: 'Map of the libraries' });
    // Natural Earth countries as vector paths, no tile images.
    await waitFor(() => expect(map.querySelectorAll('path.leaflet-interactive, .leaflet-overlay-pane path').length).toBeGreaterThan(100));
    expect(map.querySelector('img.leaflet-tile')).toBeNull();
    await waitFor(() => expect(markerNames().length).toBeGreaterThan(0));
    const names = markerNames().join(' | ');
    // Europe's three may be one cluster at the first zoom; Tokyo stands alone; Cloud Shelf has no place.
    expect(names).toContain('Kōenji Free Library (Physical library)');
    expect(names).not.toContain('Cloud Shelf');
    const standalone = map.querySelectorAll('.uc-marker').length;
    const clustered = Array.from(map.querySelectorAll('.uc-cluster')).reduce((sum, c) => {
      expect(c.querySelector('.uc-sr-only')?.textContent).toMatch(/^\d+ libraries here: zoom in$/);
      return sum + Number(c.querySelector('[aria-hidden="true"]')?.textContent);
    }, 0);
    expect(standalone + clustered).toBe(4);
    // Markers are keyboard-reachable buttons drawn as inline SVG (no default PNG icons).
    for (const m of map.querySelectorAll('.leaflet-marker-icon')) {
      expect(m).toHaveAttribute('tabindex', '0');
      expect(m.tagName).not.toBe('IMG');
    }
    expect(screen.getByRole('link', { name: 'See all the physical and digital libraries (5)' })).toHaveAttribute('href', '/library');
  });

  it('the home page: search box, counts, latest additions, the map with its legend, keyboard help folded', async () => {
    const user = userEvent.setup();
    const latest = {
      entries: [match(41, 'Mutual Aid', { creator: [{ id: 9, value: 'Peter Kropotkin' }], date: [{ id: 1902, value: 1902 }] }), match(40, 'Fields, Factories and Workshops')],
      total_entries: 1234,
      total_languages: 3,
    };
    const api = mockApi({ '/libraries': () => ({ body: { libraries: LIBRARIES } }), '/latest': () => ({ body: latest }) });
    const { router } = renderApp('/map');
    expect(await screen.findByRole('heading', { level: 1, name: 'Test Catalogue' })).toBeInTheDocument();
    // The counts: libraries from the list, entries and languages from the one GET /latest.
    const numbers = screen.getByRole('region', { name: 'The catalogue in numbers' });
    await waitFor(() => expect(within(numbers).getByText('1,234')).toBeInTheDocument());
    expect(within(numbers).getByText('Entries')).toBeInTheDocument();
    expect(within(numbers).getByText(String(LIBRARIES.length))).toBeInTheDocument();
    expect(within(numbers).getByText('3')).toBeInTheDocument();
    const calls = api.calls('/latest');
    expect(calls).toHaveLength(1);
    expect(calls[0].searchParams.get('page_size')).toBe('5');
    expect(calls[0].searchParams.get('query')).toBeNull();
    expect(api.calls('/search')).toHaveLength(0);
    // The latest additions, linked to their entries, with authors and year.
    const additions = screen.getByRole('region', { name: 'Latest additions' });
    expect(within(additions).getByRole('link', { name: 'Mutual Aid' })).toHaveAttribute('href', '/entry/41');
    expect(within(additions).getAllByRole('listitem')[0]).toHaveTextContent('Peter Kropotkin · 1902');
    expect(within(additions).getByRole('link', { name: 'All the entries, newest first' })).toHaveAttribute('href', '/search?sort_by=datestamp');
    // The map keeps its place, with a legend; the keyboard help is folded away.
    await screen.findByRole('region', { name: 'Map of the libraries' });
    const legend = screen.getByRole('region', { name: 'Map legend' });
    expect(within(legend).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Physical library',
      'Digital library',
      'Closed library',
      '3Several libraries close together (zoom in)',
    ]);
    const help = screen.getByText('Using the map with the keyboard').closest('details')!;
    expect(help).not.toHaveAttribute('open');
    // Searching goes to the search page.
    await user.type(screen.getByRole('combobox', { name: 'Search the catalogue' }), 'kropotkin{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(new URLSearchParams(router.state.location.search).get('query')).toBe('kropotkin');
  });

  it('lists the libraries in view, and those without a place apart', async () => {
    mockApi({ '/libraries': () => ({ body: { libraries: LIBRARIES } }) });
    renderApp('/map');
    const inView = await screen.findByRole('region', { name: /libraries in this view/ });
    const items = () => within(inView).getAllByRole('listitem').map((li) => within(li).getAllByRole('link')[0].textContent);
    await waitFor(() => expect(items()).toEqual([LANTERNA.name, CANUTS.name, PROSTOR.name, KOENJI.name].sort((a, b) => a.localeCompare(b))));
    expect(within(inView).getAllByRole('button', { name: /Show on the map/ })).toHaveLength(4);
    const elsewhere = screen.getByRole('region', { name: 'Libraries without a place on the map' });
    expect(within(elsewhere).getByRole('link', { name: CLOUD.name })).toHaveAttribute('href', `/library/details/${CLOUD.id}`);
  });

  it('opens a library card from its marker, with the details link', async () => {
    const user = userEvent.setup();
    mockApi({ '/libraries': () => ({ body: { libraries: [KOENJI] } }) });
    renderApp('/map');
    await waitFor(() => expect(markerNames()).toHaveLength(1));
    const marker = document.querySelector('.leaflet-marker-icon') as HTMLElement;
    await user.click(marker);
    const popup = await waitFor(() => {
      const p = document.querySelector('.leaflet-popup');
      if (!p) throw new Error('no popup');
      return p as HTMLElement;
    });
    await waitFor(() => expect(within(popup).getByRole('link', { name: 'Library details' })).toHaveAttribute('href', '/library/details/5'));
    expect(popup).toHaveTextContent('Kōenji Free Library');
    expect(popup).toHaveTextContent('Physical library');
    expect(popup).toHaveTextContent('Tōkyō, Japan');
  });

  it('?show=<id> opens that library\'s card (the library page links there)', async () => {
    mockApi({ '/libraries': () => ({ body: { libraries: LIBRARIES } }) });
    renderApp(`/map?show=${KOENJI.id}`);
    const popup = await waitFor(() => {
      const p = document.querySelector('.leaflet-popup');
      if (!p?.textContent?.includes(KOENJI.name)) throw new Error('no card yet');
      return p as HTMLElement;
    });
    expect(within(popup).getByRole('link', { name: 'Library details' })).toHaveAttribute('href', `/library/details/${KOENJI.id}`);
  });

  it('with a search, shows only the libraries holding the results, with their counts', async () => {
    const response = searchResponse({
      total_entries: 6,
      facets: {
        ...searchResponse().facets,
        library: {
          name: 'library',
          values: [
            { id: '1', key: 'library1', term: LANTERNA.name, count: 4, active: false },
            { id: '5', key: 'library5', term: KOENJI.name, count: 2, active: false },
          ],
        },
      },
    });
    const api = mockApi({ '/libraries': () => ({ body: { libraries: LIBRARIES } }), '/search': () => ({ body: response }) });
    renderApp('/map?query=anarchy&filter_language=it');
    expect(await screen.findByRole('heading', { level: 1, name: 'Libraries holding these results' })).toBeInTheDocument();
    const search = api.calls('/search')[0].searchParams;
    expect(search.get('query')).toBe('anarchy');
    expect(search.getAll('filter_language')).toEqual(['it']);
    const inView = await screen.findByRole('region', { name: /libraries in this view/ });
    await waitFor(() => expect(within(inView).getAllByRole('listitem')).toHaveLength(2));
    const count = within(inView).getByRole('link', { name: '4 entries found here' });
    const target = new URL(count.getAttribute('href')!, 'http://x');
    expect(target.pathname).toBe('/search');
    expect(target.searchParams.get('query')).toBe('anarchy');
    expect(target.searchParams.getAll('filter_library')).toEqual(['1']);
    expect(target.searchParams.getAll('filter_language')).toEqual(['it']);
    expect(within(inView).getByRole('link', { name: '2 entries found here' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Libraries without a place on the map' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the search results' })).toHaveAttribute('href', '/search?query=anarchy&filter_language=it');
    await waitFor(() => expect(markerNames().join('|')).toContain('4 entries found here'));
  });

  it('the search page links to the map of the libraries holding the results', async () => {
    mockApi({ '/search': () => ({ body: searchResponse() }) });
    renderApp('/search?query=bakunin&filter_language=en');
    const link = await screen.findByRole('link', { name: 'Show these libraries on the map' });
    expect(link).toHaveAttribute('href', '/map?query=bakunin&filter_language=en');
  });
});

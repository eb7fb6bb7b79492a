import { beforeAll, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderApp } from '../../test/utils';
import { searchResponse } from '../../test/fixtures';
import { addressLines, displayUrl, establishedYear, holdingsHref, libraryMatches, placeMatches, safeHttpUrl } from './libraryText';
import { CANUTS, CLOUD, KOENJI, LANTERNA, LIBRARIES, PROSTOR, lib, loadPublicStrings } from './testData';

beforeAll(loadPublicStrings);

const librariesApi = () => mockApi({ '/libraries': () => ({ body: { libraries: LIBRARIES } }) });
const cardNames = () => screen.queryAllByRole('article').map((a) => within(a).getByRole('heading', { level: 2 }).textContent);

describe('library filter rule', () => {
  it('matches accent- and case-insensitively across every text field', () => {
    expect(libraryMatches(CANUTS, 'BIBLIOTHEQUE')).toBe(true);
    expect(libraryMatches(CANUTS, 'bibliothèque')).toBe(true);
    expect(libraryMatches(PROSTOR, 'knjiznica')).toBe(true);
    expect(libraryMatches(KOENJI, 'koenji')).toBe(true);
    expect(libraryMatches(KOENJI, 'TOKYO')).toBe(true); // the city, not the name
    expect(libraryMatches(LANTERNA, 'mQINBGexample')).toBe(true); // even the PGP key
    expect(libraryMatches(LANTERNA, 'emilia-romagna')).toBe(true);
    expect(libraryMatches(LANTERNA, 'croix')).toBe(false);
    expect(libraryMatches(LANTERNA, '   ')).toBe(true);
    expect(libraryMatches(CLOUD, 'Digital library', ['Digital library'])).toBe(true);
  });

  it("matches a place search on the library's own place fields, every word, the country also in the interface language", () => {
    expect(placeMatches(LANTERNA, 'bologna', 'en')).toBe(true);
    expect(placeMatches(LANTERNA, 'Bologna Italy', 'en')).toBe(true);
    expect(placeMatches(LANTERNA, 'Bologna, France', 'en')).toBe(false);
    expect(placeMatches(LANTERNA, 'italien', 'de')).toBe(true); // the country as a German reader writes it
    expect(placeMatches(LANTERNA, 'ιταλία', 'el')).toBe(true);
    expect(placeMatches(LANTERNA, 'europa bologna', 'de', ['Europa'])).toBe(true); // the region as shown
    expect(placeMatches(LANTERNA, 'lanterna', 'en')).toBe(true); // the name
    expect(placeMatches(LANTERNA, 'mQINBGexample', 'en')).toBe(false); // not a place field
    expect(placeMatches(LANTERNA, '  ', 'en')).toBe(true);
    expect(holdingsHref(7)).toBe('/search?query=library%3A7&sort_by=title_asc');
  });

  it('formats addresses, years and links safely', () => {
    expect(addressLines(LANTERNA, 'en')).toEqual([
      'Vicolo della Lanterna 7',
      'Primo piano',
      '40126 Bologna',
      'Emilia-Romagna',
      'Italy',
    ]);
    // The country in the interface language (Intl.DisplayNames), from the English name or an ISO code.
    expect(addressLines(LANTERNA, 'de').at(-1)).toBe('Italien');
    expect(addressLines(LANTERNA, 'el').at(-1)).toBe('Ιταλία');
    expect(addressLines(lib({ address_country: 'hr' }), 'it').at(-1)).toBe('Croazia');
    expect(addressLines(lib({ address_country: 'Atlantis' }), 'de').at(-1)).toBe('Atlantis');
    expect(establishedYear(LANTERNA)).toBe('1978');
    expect(establishedYear(lib({ established: null, year_established: null }))).toBeUndefined();
    expect(displayUrl('https://lanterna.example.org/')).toBe('lanterna.example.org');
    expect(safeHttpUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeHttpUrl('ftp://x.example.org')).toBeUndefined();
    expect(safeHttpUrl(' https://x.example.org ')).toBe('https://x.example.org/');
  });
});

describe('/library', () => {
  it('lists every library as a card with its details link and the contact button', async () => {
    librariesApi();
    renderApp('/library');
    expect(await screen.findByRole('heading', { level: 1, name: 'Libraries' })).toBeInTheDocument();
    await waitFor(() => expect(cardNames()).toHaveLength(LIBRARIES.length));
    expect(screen.getByText('5 libraries')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add your library or archive' })).toHaveAttribute('href', '/contact');
    const card = screen.getByRole('article', { name: LANTERNA.name });
    expect(within(card).getByRole('link', { name: `Library details: ${LANTERNA.name}` })).toHaveAttribute('href', '/library/details/1');
    expect(within(card).getByRole('link', { name: `See the library entries: ${LANTERNA.name}` })).toHaveAttribute('href', '/library/entries/1');
    expect(within(card).getByText('Project established in 1978')).toBeInTheDocument();
    expect(within(card).getByText('Physical library')).toBeInTheDocument();
    // No 'See the library entries' when the catalogue is not accessible.
    const canuts = screen.getByRole('article', { name: CANUTS.name });
    expect(within(canuts).queryByRole('link', { name: /See the library entries/ })).toBeNull();
  });

  it('filters as you type, ignoring accents and case, and keeps the filter in the URL', async () => {
    const user = userEvent.setup();
    librariesApi();
    const { router } = renderApp('/library');
    const box = await screen.findByRole('searchbox', { name: 'Filter the libraries' });
    await waitFor(() => expect(cardNames()).toHaveLength(5));
    await user.type(box, 'BIBLIOTHEQUE');
    await waitFor(() => expect(cardNames()).toEqual([CANUTS.name]));
    expect(screen.getByText('1 of 5 libraries')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('filter')).toBe('BIBLIOTHEQUE');

    await user.clear(box);
    await user.type(box, 'knjiznica');
    await waitFor(() => expect(cardNames()).toEqual([PROSTOR.name]));

    await user.clear(box);
    await user.type(box, 'zzz');
    expect(await screen.findByText('No library matches “zzz”.')).toBeInTheDocument();
  });

  it('starts filtered from the URL', async () => {
    librariesApi();
    renderApp('/library?filter=tokyo');
    await waitFor(() => expect(cardNames()).toEqual([KOENJI.name]));
    expect(screen.getByRole('searchbox', { name: 'Filter the libraries' })).toHaveValue('tokyo');
  });
});

describe('/library/details/{id}', () => {
  it('shows no logo from another host (an address from before logos were kept by us)', async () => {
    mockApi({ '/libraries/1': () => ({ body: { library: { ...LANTERNA, logo_url: 'https://tracker.example.net/pixel.png' } } }) });
    renderApp('/library/details/1');
    expect(await screen.findByRole('heading', { level: 1, name: LANTERNA.name })).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: `${LANTERNA.name} logo` })).toBeNull();
  });

  it('shows every field of the library', async () => {
    mockApi({ '/libraries/1': () => ({ body: { library: LANTERNA } }) });
    renderApp('/library/details/1');
    expect(await screen.findByRole('heading', { level: 1, name: LANTERNA.name })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: `${LANTERNA.name} logo` })).toHaveAttribute('src', LANTERNA.logo_url);
    expect(screen.getByRole('link', { name: /^lanterna\.example\.org\s?\(opens in a new tab\)$/ })).toHaveAttribute('href', 'https://lanterna.example.org/');
    const field = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling as HTMLElement;
    expect(field('Year established')).toHaveTextContent('1978');
    expect(field('Languages')).toHaveTextContent('Italian, English');
    expect(field('Description')).toHaveTextContent('Founded by printers. Twelve thousand books.');
    expect(field('Opening Hours')).toHaveTextContent('Tue–Thu 16:00–20:00');
    expect(within(field('Email')).getByRole('link')).toHaveAttribute('href', 'mailto:biblioteca@lanterna.example.org');
    expect(field('Address')).toHaveTextContent('Vicolo della Lanterna 7Primo piano40126 BolognaEmilia-RomagnaItaly');
    const key = screen.getByLabelText('PGP Public Key', { selector: 'pre' });
    expect(key).toHaveClass('font-mono');
    expect(key.textContent).toBe(LANTERNA.pgp_public_key);
    expect(screen.getByRole('link', { name: 'See the library entries' })).toHaveAttribute('href', '/library/entries/1');
    expect(screen.getByRole('link', { name: 'Show on the map' })).toHaveAttribute('href', '/map?show=1');
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent(`Libraries / ${LANTERNA.name}`);
    await waitFor(() => expect(document.title).toBe(`${LANTERNA.name} – Test Catalogue`));
  });

  it('shows a small map of the library\'s place, only when it has one', async () => {
    // jsdom has no layout: give the map container a size so Leaflet draws the marker.
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(256);
    mockApi({ '/libraries/1': () => ({ body: { library: LANTERNA } }), '/libraries/9': () => ({ body: { library: CLOUD } }) });
    const { router } = renderApp('/library/details/1');
    expect(await screen.findByRole('heading', { level: 2, name: 'On the map' })).toBeInTheDocument();
    const map = await screen.findByRole('region', { name: `Location of ${LANTERNA.name}` });
    await waitFor(() => expect(map.querySelectorAll('.uc-marker')).toHaveLength(1));
    expect(map.querySelector('.uc-sr-only')).toHaveTextContent(`${LANTERNA.name} (Physical library)`);
    await act(() => router.navigate('/library/details/9'));
    expect(await screen.findByRole('heading', { level: 1, name: CLOUD.name })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'On the map' })).toBeNull();
    expect(document.querySelector('.uc-map')).toBeNull();
    vi.restoreAllMocks();
  });

  it('copies the PGP key', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    mockApi({ '/libraries/1': () => ({ body: { library: LANTERNA } }) });
    renderApp('/library/details/1');
    await user.click(await screen.findByRole('button', { name: 'Copy the key' }));
    expect(writeText).toHaveBeenCalledWith(LANTERNA.pgp_public_key);
    expect(await screen.findByText('Copied!')).toBeInTheDocument();
  });

  it('offers the entries only when the catalogue is accessible, and hides empty fields', async () => {
    mockApi({ '/libraries/3': () => ({ body: { library: CANUTS } }) });
    renderApp('/library/details/3');
    expect(await screen.findByRole('heading', { level: 1, name: CANUTS.name })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'See the library entries' })).toBeNull();
    expect(screen.queryByText('PGP Public Key')).toBeNull();
    expect(screen.getByRole('link', { name: 'Show on the map' })).toHaveAttribute('href', '/map?show=3');
    expect(screen.queryByText('Email')).toBeNull();
  });

  it('says so when the library is unknown or not visible', async () => {
    mockApi({ '/libraries/99': () => ({ body: { library: null } }) });
    renderApp('/library/details/99');
    expect(await screen.findByRole('heading', { level: 1, name: 'Library not found' })).toBeInTheDocument();
    expect(screen.getByText('The library does not exist or it is not public.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All the libraries' })).toHaveAttribute('href', '/library');
  });

  it('the entries link leads to the library search sorted by title', async () => {
    mockApi({ '/libraries/1': () => ({ body: { library: LANTERNA } }), '/search': () => ({ body: searchResponse() }) });
    const user = userEvent.setup();
    const { router } = renderApp('/library/details/1');
    await user.click(await screen.findByRole('link', { name: 'See the library entries' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    const sp = new URLSearchParams(router.state.location.search);
    expect(sp.get('query')).toBe('library:1');
    expect(sp.get('sort_by')).toBe('title_asc');
  });
});

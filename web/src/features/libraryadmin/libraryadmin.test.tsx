import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { mockApi, renderApp } from '../../test/utils';
import strings from '../../i18n/libraryadmin/en.json';
import harvestStrings from '../../i18n/harvest/en.json';
import { libraryFormErrors, type AdminLibrary, type LibraryUser } from './api';

beforeAll(() => {
  i18n.addResourceBundle('en', 'translation', strings, true, true);
  i18n.addResourceBundle('en', 'translation', harvestStrings, true, true);
});

const LIB: AdminLibrary = {
  id: 1, name: 'Biblioteca Uno', url: 'https://uno.example.org', logo_url: null, library_type: 'digital', public: true, active: true,
  year_established: '1975-04-01', established: '1975', languages: 'it', description: 'A library', short_desc: null, opening_hours: null,
  email_public: null, email_internal: 'staff@uno.example.org', address_line_1: null, address_line_2: null, address_zip: null,
  address_city: 'Milano', address_state: null, address_country: 'Italy', pgp_public_key: null, latitude: 45.46, longitude: 9.19,
  region: 'Europe', catalog_is_accessible: true, created: '2026-01-01T00:00:00Z', last_modified: '2026-01-01T00:00:00Z',
};
const USERS: LibraryUser[] = [
  { id: 5, username: 'keeper', email: 'k@example.org', name: 'Kim Keeper', last_login: '2026-11-01', expiration: null, can_merge: true, library_admin: true, removable: false },
  { id: 7, username: 'reader', email: 'r@example.org', name: 'Rae Reader', last_login: null, expiration: '2027-01-01', can_merge: false, library_admin: false, removable: true },
];

type Body = Record<string, unknown>;
function api(extra: Record<string, (url: URL, init?: RequestInit) => { status?: number; body: unknown } | undefined> = {}) {
  const posts: { path: string; body: Body | FormData }[] = [];
  const record = (url: URL, init?: RequestInit) => {
    if (init?.method === 'POST') {
      const body = init.body instanceof FormData ? init.body : (JSON.parse(String(init.body ?? '{}')) as Body);
      posts.push({ path: url.pathname.replace('/collector/api', ''), body });
    }
  };
  const mocked = mockApi({
    '/library/details/': (url, init) => {
      record(url, init);
      if (init?.method === 'POST') return { body: { success: 'OK', library: { ...LIB, ...(JSON.parse(String(init.body)) as Body), latitude: 45.5 } } };
      return { body: { library: LIB, users: USERS } };
    },
    '/library/remove-user/': (url, init) => (record(url, init), { body: { success: 'User removed' } }),
    '/library/create-user/': (url, init) => (record(url, init), { body: { success: 'User added', status: 'added', user_id: 9 } }),
    '/auth/user-check/': (url) => ({ body: { username: 'x', username_exists: url.pathname.endsWith('/reader') ? 1 : 0 } }),
    '/spreadsheet/': () => ({ body: { sites: [{ id: 3, title: 'Shelf list', csv_type: 'generic', column_names: 'identifier, title, authors', expected_headers: ['identifier', 'title', 'authors'] }], max_bytes: 10485760 } }),
    '/library/sites/': () => ({ body: { sites: [] } }),
    ...extra,
  });
  return { ...mocked, posts };
}


/** The spreadsheet sites of library 1 (one csv site, id 3) for GET /spreadsheet/1, which the POST handler declines. */
function answerSitesList(m: ReturnType<typeof api>, columnNames: string[]): void {
  const origFetch = m.fetch.getMockImplementation()!;
  m.fetch.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/collector/api/spreadsheet/1' && init?.method !== 'POST') {
      return new Response(JSON.stringify({ sites: [{ id: 3, title: 'Shelf list', csv_type: 'generic', column_names: columnNames.join(', '), expected_headers: columnNames }], max_bytes: 10485760 }), { status: 200 });
    }
    return origFetch(input, init);
  });
}
describe('library form rules', () => {
  it('requires the internal e-mail and checks addresses, bounds, step and the date', () => {
    const ok = { name: 'X', email_internal: 'a@b.org', email_public: '', latitude: '45.123456', longitude: '-180', year_established: '' };
    expect(libraryFormErrors(ok)).toEqual([]);
    expect(libraryFormErrors({ ...ok, email_internal: '' })).toEqual(['The internal e-mail is required']);
    expect(libraryFormErrors({ ...ok, email_public: 'nope' })).toHaveLength(1);
    expect(libraryFormErrors({ ...ok, latitude: '90.1' })).toHaveLength(1);
    expect(libraryFormErrors({ ...ok, latitude: '45.1234567' })).toHaveLength(1);
    expect(libraryFormErrors({ ...ok, longitude: '181' })).toHaveLength(1);
    expect(libraryFormErrors({ ...ok, year_established: 'spring' })).toHaveLength(1);
  });
});

describe('/library/admin/:id', () => {
  it('edits the library and says "The library was updated"', async () => {
    const m = api();
    renderApp('/library/admin/1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration of Biblioteca Uno' })).toBeInTheDocument();
    const internal = screen.getByLabelText('Internal e-mail');
    expect(internal).toHaveValue('staff@uno.example.org');
    expect(internal).toBeRequired();
    expect(screen.getByLabelText('Latitude')).toHaveAttribute('step', '0.000001');
    expect(screen.getByLabelText('Established')).toHaveAttribute('type', 'date');
    const city = screen.getByLabelText('City');
    await userEvent.clear(city);
    await userEvent.type(city, 'Torino');
    await userEvent.click(screen.getByRole('button', { name: 'Update library' }));
    expect(await screen.findByText('The library was updated')).toBeInTheDocument();
    const post = m.posts.find((p) => p.path === '/library/details/1')!.body as Body;
    expect(post).toMatchObject({ address_city: 'Torino', email_internal: 'staff@uno.example.org', latitude: '45.46', year_established: '1975-04-01' });
  });

  it('uploads a logo file (labelled, from the keyboard too) and shows the logo we now serve; a refusal is shown', async () => {
    let refuse = false;
    const m = api({
      '/library/logo/1': (url, init) => {
        const form = init?.body as FormData;
        m.posts.push({ path: url.pathname.replace('/collector/api', ''), body: form });
        if (refuse) return { status: 400, body: { error: 'The logo must be a PNG, JPEG, WebP or GIF image' } };
        return { body: { success: 'OK', library: { ...LIB, logo_url: '/collector/api/libraries/1/logo?v=abc123' } } };
      },
    });
    renderApp('/library/admin/1');
    const input = await screen.findByLabelText('Logo file');
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp,image/gif');
    expect(screen.getByText('PNG, JPEG, WebP or GIF, at most 512 KB')).toBeInTheDocument();
    await userEvent.upload(input, new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText('The logo was updated')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Biblioteca Uno logo' })).toHaveAttribute('src', '/collector/api/libraries/1/logo?v=abc123');
    const sent = m.posts.find((p) => p.path === '/library/logo/1')!.body as FormData;
    expect((sent.get('logo') as File).name).toBe('logo.png');
    // The edit then sends our own logo address back unchanged.
    await userEvent.click(screen.getByRole('button', { name: 'Update library' }));
    await screen.findByText('The library was updated');
    expect((m.posts.find((p) => p.path === '/library/details/1')!.body as Body).logo_url).toBe('/collector/api/libraries/1/logo?v=abc123');
    refuse = true;
    await userEvent.upload(input, new File(['<svg/>'], 'logo.png', { type: 'image/png' }));
    expect(await screen.findByText('The logo must be a PNG, JPEG, WebP or GIF image')).toBeInTheDocument();
  });

  it('refuses an empty internal e-mail before sending, and shows the server error', async () => {
    const m = api({
      '/library/details/': (_url, init) => (init?.method === 'POST' ? { status: 400, body: { error: 'Invalid request (latitude: no)' } } : { body: { library: LIB, users: USERS } }),
    });
    renderApp('/library/admin/1');
    const internal = await screen.findByLabelText('Internal e-mail');
    await userEvent.clear(internal);
    await userEvent.click(screen.getByRole('button', { name: 'Update library' }));
    expect(await screen.findByText('The internal e-mail is required')).toBeInTheDocument();
    expect(m.posts).toHaveLength(0);
    await userEvent.type(internal, 'a@b.org');
    await userEvent.click(screen.getByRole('button', { name: 'Update library' }));
    expect(await screen.findByText('Invalid request (latitude: no)')).toBeInTheDocument();
  });

  it('lists the library users and removes one (admins cannot be removed)', async () => {
    const m = api();
    renderApp('/library/admin/1');
    const table = within(await screen.findByRole('region', { name: 'Library Users' })).getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).queryByRole('button', { name: 'Remove keeper' })).toBeNull();
    await userEvent.click(within(table).getByRole('button', { name: 'Remove reader' }));
    // Asked first; cancelling (button or Escape) sends nothing.
    let dialog = screen.getByRole('dialog', { name: 'Remove reader from Biblioteca Uno?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(within(table).getByRole('button', { name: 'Remove reader' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(m.posts.filter((p) => p.path.startsWith('/library/remove-user/'))).toEqual([]);

    await userEvent.click(within(table).getByRole('button', { name: 'Remove reader' }));
    dialog = screen.getByRole('dialog', { name: 'Remove reader from Biblioteca Uno?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove user' }));
    await waitFor(() => expect(m.posts).toContainEqual({ path: '/library/remove-user/1', body: { id: 7 } }));
    expect(m.posts.filter((p) => p.path.startsWith('/library/remove-user/'))).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sits in the page container of the public pages (centred, padded from the window edges)', async () => {
    api();
    renderApp('/library/admin/1');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Administration of Biblioteca Uno' });
    expect(heading.parentElement).toHaveClass('mx-auto', 'max-w-screen-2xl', 'px-4', 'py-6');
  });

  it('warns that an existing username will be added, then adds it', async () => {
    const m = api();
    renderApp('/library/admin/1');
    const form = await screen.findByRole('form', { name: 'Add user' });
    await userEvent.type(within(form).getByLabelText('Username'), 'reader');
    expect(await within(form).findByText('This username already exist. You are going to add it to this library.')).toBeInTheDocument();
    await userEvent.click(within(form).getByLabelText('Enabled for merging'));
    await userEvent.type(within(form).getByLabelText('Expiration'), '2027-05-01');
    await userEvent.click(within(form).getByRole('button', { name: 'Add user' }));
    expect(await within(form).findByText('The existing user was added to this library.')).toBeInTheDocument();
    expect(m.posts.find((p) => p.path === '/library/create-user/1')!.body).toMatchObject({ username: 'reader', can_merge: true, expiration: '2027-05-01' });
  });

  it('uploads a spreadsheet, previews it, processes it with progress and reports success', async () => {
    let polls = 0;
    const m = api({
      '/spreadsheet/1': (_url, init) => {
        if (init?.method !== 'POST') return undefined;
        return { body: { success: 'Spreadsheet uploaded', uploaded: 42, number_of_records: 2, replace_all: false, bad_rows: [], sample: [{ name: 'title', value: 'Quaderni' }] } };
      },
      '/spreadsheet/process/': () => ({ body: { success: 'Processing started', id: 42, status: 'queued', job_id: 1, total: 2, done: 0, stored: 0, removed: 0, error: null } }),
      '/spreadsheet/status/': () => {
        polls++;
        return { body: { id: 42, status: polls > 1 ? 'finished' : 'working', job_id: 1, total: 2, done: polls > 1 ? 2 : 1, stored: polls > 1 ? 2 : 1, removed: 0, error: null } };
      },
    });
    answerSitesList(m, ['identifier', 'title', 'authors']);
    renderApp('/library/admin/1');
    const section = await screen.findByRole('region', { name: 'Upload records' });
    expect(await within(section).findByText('identifier, title, authors')).toBeInTheDocument();
    const file = new File(['title\nQuaderni\n'], 'sheet.csv', { type: 'text/csv' });
    await userEvent.upload(within(section).getByLabelText('Spreadsheet file (CSV UTF-8 or XLSX)'), file);
    await userEvent.click(within(section).getByRole('button', { name: 'Upload' }));
    expect(await within(section).findByText('Records in the file: 2')).toBeInTheDocument();
    expect(within(section).getByText('Quaderni')).toBeInTheDocument();
    const form = m.fetch.mock.calls.find((c) => String(c[0]).endsWith('/spreadsheet/1') && c[1]?.method === 'POST')![1]!.body as FormData;
    expect(form.get('site_id')).toBe('3');
    expect((form.get('spreadsheet') as File).name).toBe('sheet.csv');
    await userEvent.click(within(section).getByRole('button', { name: 'Process File' }));
    expect(await within(section).findByText('The file was processed: 2 records stored, 0 removed.', {}, { timeout: 4000 })).toBeInTheDocument();
  });

  it('previews the columns of the file: the ones read with the field they fill, and a warning naming the ignored ones', async () => {
    const columns = [
      { name: 'author', field: null }, { name: 'title', field: 'title' }, { name: 'year', field: null },
      { name: 'language', field: null }, { name: 'place_date_of_publication_distribution', field: 'place_date_of_publication_distribution' },
      { name: 'Year Edition', field: 'year_edition' },
    ];
    const m = api({
      '/spreadsheet/1': (_url, init) => {
        if (init?.method !== 'POST') return undefined;
        return { body: { success: 'Spreadsheet uploaded', uploaded: 42, number_of_records: 1, replace_all: false, bad_rows: [], sample: [{ name: 'title', value: 'Quaderni' }], columns } };
      },
    });
    answerSitesList(m, ['identifier', 'title', 'authors']);
    renderApp('/library/admin/1');
    const section = await screen.findByRole('region', { name: 'Upload records' });
    await within(section).findByText('identifier, title, authors');
    await userEvent.upload(within(section).getByLabelText('Spreadsheet file (CSV UTF-8 or XLSX)'), new File(['author,title\nX,Quaderni\n'], 'sheet.csv', { type: 'text/csv' }));
    await userEvent.click(within(section).getByRole('button', { name: 'Upload' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('These columns are not read: author, year, language. Expected column names: identifier, title, authors');
    const read = within(section).getByText('Columns read').nextElementSibling as HTMLElement;
    expect(within(read).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'title → Title',
      'place_date_of_publication_distribution → Place and date of publication',
      'Year Edition → Year of this edition',
    ]);
  });

  it('offers to process a failed file again (nothing of it was stored) and reports the second run', async () => {
    let run = 0;
    const m = api({
      '/spreadsheet/1': (_url, init) => {
        if (init?.method !== 'POST') return undefined;
        return { body: { success: 'Spreadsheet uploaded', uploaded: 42, number_of_records: 2, replace_all: false, bad_rows: [], sample: [{ name: 'title', value: 'Quaderni' }] } };
      },
      '/spreadsheet/process/': () => {
        run++;
        return { body: { success: 'Processing started', id: 42, status: 'queued', job_id: run, total: 2, done: 0, stored: 0, removed: 0, error: null } };
      },
      '/spreadsheet/status/': () => {
        const failed = run === 1;
        return { body: { id: 42, status: failed ? 'failed' : 'finished', job_id: run, total: 2, done: failed ? 0 : 2, stored: failed ? 0 : 2, removed: 0, error: failed ? 'disk full' : null } };
      },
    });
    answerSitesList(m, ['identifier', 'title']);
    renderApp('/library/admin/1');
    const section = await screen.findByRole('region', { name: 'Upload records' });
    await userEvent.upload(await within(section).findByLabelText('Spreadsheet file (CSV UTF-8 or XLSX)'), new File(['title\nQuaderni\n'], 'sheet.csv', { type: 'text/csv' }));
    await userEvent.click(within(section).getByRole('button', { name: 'Upload' }));
    await userEvent.click(await within(section).findByRole('button', { name: 'Process File' }));
    expect(await within(section).findByText('Processing failed: disk full', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(within(section).getByText('Nothing of this file was stored. You can process it again.')).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Process it again' }));
    expect(await within(section).findByText('The file was processed: 2 records stored, 0 removed.', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(m.fetch.mock.calls.filter((c) => String(c[0]).includes('/spreadsheet/process/42')).length).toBe(2);
  });

  it('shows the bad rows of a refused file with their line numbers', async () => {
    const m = api();
    const origFetch = m.fetch.getMockImplementation()!;
    m.fetch.mockImplementation(async (input, init) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/collector/api/spreadsheet/1' && init?.method === 'POST') {
        return new Response(JSON.stringify({ error: 'No row can be stored: 1 row(s) with errors', bad_rows: [{ line: 3, message: 'the title is empty' }] }), { status: 200 });
      }
      return origFetch(input, init);
    });
    renderApp('/library/admin/1');
    const section = await screen.findByRole('region', { name: 'Upload records' });
    await userEvent.upload(await within(section).findByLabelText('Spreadsheet file (CSV UTF-8 or XLSX)'), new File(['x'], 'bad.csv'));
    await userEvent.click(within(section).getByRole('button', { name: 'Upload' }));
    expect(await within(section).findByText('No row can be stored: 1 row(s) with errors')).toBeInTheDocument();
    expect(within(section).getByText('Line 3: the title is empty')).toBeInTheDocument();
  });

  it("has a 'Sites and harvesting' section with the library's sites (GET /library/sites/1)", async () => {
    const m = api({
      '/library/sites/': () => ({
        body: {
          sites: [{
            id: 4, library_id: 1, title: 'Koha OPAC', site_type: 'koha-marc21', url: 'https://opac.uno.example.org/cgi-bin/koha/oai.pl', oai_set: null,
            oai_metadata_format: null, active: true, harvest_interval_minutes: 60, tree_path: null, csv_type: null, data_sources: 12,
            last_harvested: null, consecutive_failures: 0, failing: false, last_run: null,
          }],
        },
      }),
    });
    renderApp('/library/admin/1');
    const region = await screen.findByRole('region', { name: 'Sites and harvesting' });
    expect(await within(region).findByRole('heading', { name: 'Koha OPAC' })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Add a site' })).toBeInTheDocument();
    expect(m.calls('/library/sites/1')).toHaveLength(1);
  });

  it('tells a user who may not administer the library', async () => {
    mockApi({ '/library/details/': () => ({ status: 403, body: { error: 'You cannot administer this library' } }) });
    renderApp('/library/admin/2');
    expect(await screen.findByText('You cannot administer this library.')).toBeInTheDocument();
  });
});

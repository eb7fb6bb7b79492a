import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../i18n';
import adminEn from '../../i18n/admin/en.json';
import harvestEn from '../../i18n/harvest/en.json';
import { mockApi, renderApp } from '../../test/utils';
import type { AdminLibrary, AdminPage, Site } from './api';

beforeAll(() => {
  i18n.addResourceBundle('en', 'translation', adminEn, true, true);
  i18n.addResourceBundle('en', 'translation', harvestEn, true, true);
});

const settings = { site_name: 'Test Catalogue', site_logo: '', description: '', contact_email: 'info@example.org' };
const lib = (id: number, name: string, extra: Partial<AdminLibrary> = {}): AdminLibrary => ({
  id, name, url: null, logo_url: null, library_type: 'digital', public: true, active: true, email_public: null, email_internal: null,
  description: null, short_desc: null, address_city: null, address_country: null, latitude: null, longitude: null, languages: null,
  region: null, sites: 1, data_sources: 0, ...extra,
});
const method = (init?: RequestInit) => init?.method ?? 'GET';
const calibreSite: Site = {
  id: 11, library_id: 1, title: 'Calibre shelf', site_type: 'calibretree', url: null, oai_set: null, oai_metadata_format: null,
  active: true, harvest_interval_minutes: 30, tree_path: 'uno/books', csv_type: null, data_sources: 4, last_harvested: null,
  consecutive_failures: 0, failing: false, last_run: null,
};

describe('/admin', () => {
  it('tells a logged-in non-superuser they are not allowed', async () => {
    mockApi({ '/admin/': () => ({ status: 403, body: { error: 'Only superusers may use the admin area' } }) });
    renderApp('/admin');
    expect(await screen.findByRole('alert')).toHaveTextContent('You are not allowed to use the admin area: it is for superusers only.');
    expect(screen.queryByRole('navigation', { name: 'Admin sections' })).toBeNull();
  });

  it('asks an anonymous visitor to log in', async () => {
    mockApi({ '/admin/': () => ({ status: 401, body: { error: 'Please log in' } }) });
    renderApp('/admin?section=users');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please log in as a superuser to use the admin area.');
  });

  it('lists the libraries; deleting asks first, and the server refusal is shown', async () => {
    const user = userEvent.setup();
    const deletes: string[] = [];
    mockApi({
      '/admin/settings': () => ({ body: { settings } }),
      '/admin/libraries': (url, init) => {
        if (method(init) === 'DELETE') {
          deletes.push(url.pathname);
          return { status: 409, body: { error: 'The library "Uno" still holds 3 data sources' } };
        }
        return { body: { libraries: [lib(1, 'Uno', { data_sources: 3 }), lib(2, 'Due', { public: false })] } };
      },
      '/auth/user': () => ({ body: { logged_in: 'root' } }),
    });
    renderApp('/admin');
    const table = await screen.findByRole('table', { name: 'Libraries' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(screen.getByRole('navigation', { name: 'Admin sections' })).getByRole('link', { name: 'Libraries' })).toHaveAttribute('aria-current', 'page');

    await user.click(screen.getByRole('button', { name: 'Delete Uno' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Uno?' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(deletes).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Uno' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('still holds 3 data sources');
    expect(deletes).toEqual(['/collector/api/admin/libraries/1']);
  });

  it('shows no outbox pager on a single page; on several pages the button that leads nowhere is disabled', async () => {
    const user = userEvent.setup();
    const msg = (id: number) => ({
      id, kind: 'reset', to_address: `u${id}@example.org`, cc_address: null, reply_to: null, subject: `Message ${id}`, body: 'Hello',
      status: 'sent', error: null, attempts: 1, created: '2026-11-01T10:00:00Z', sent_at: null,
    });
    let total = 2;
    mockApi({
      '/admin/settings': () => ({ body: { settings } }),
      '/admin/outbox': (url) => {
        const page = Number(url.searchParams.get('page'));
        return { body: { messages: [msg(page * 100 + 1)], total, page, page_size: 25 } };
      },
    });
    const view = renderApp('/admin?section=outbox');
    expect(await screen.findByText('Message 101')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Outbox pages' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Newer' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Older' })).toBeNull();
    view.unmount();

    total = 30;
    renderApp('/admin?section=outbox');
    const pager = await screen.findByRole('navigation', { name: 'Outbox pages' });
    expect(pager).toHaveTextContent('Page 1 of 2');
    expect(within(pager).getByRole('button', { name: 'Newer' })).toBeDisabled();
    expect(within(pager).getByRole('button', { name: 'Older' })).toBeEnabled();
    await user.click(within(pager).getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('Message 201')).toBeInTheDocument();
    expect(pager).toHaveTextContent('Page 2 of 2');
    expect(within(pager).getByRole('button', { name: 'Older' })).toBeDisabled();
    expect(within(pager).getByRole('button', { name: 'Newer' })).toBeEnabled();
  });

  it('sits in the page container of the public pages (centred, padded from the window edges)', async () => {
    mockApi({ '/admin/settings': () => ({ body: { settings } }), '/admin/libraries': () => ({ body: { libraries: [] } }) });
    renderApp('/admin');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Admin' });
    expect(heading.parentElement).toHaveClass('mx-auto', 'max-w-screen-2xl', 'px-4', 'py-6');
  });

  it('saves the general settings and refreshes the site name', async () => {
    const user = userEvent.setup();
    let saved: Record<string, string> | null = null;
    const api = mockApi({
      '/admin/settings': (_url, init) => {
        if (method(init) === 'PUT') {
          saved = JSON.parse(String(init?.body));
          return { body: { settings: { ...settings, ...saved } } };
        }
        return { body: { settings } };
      },
    });
    renderApp('/admin?section=settings');
    const name = await screen.findByLabelText('Site name');
    await user.clear(name);
    await user.type(name, 'New Name');
    const before = api.calls('/general').length;
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('The settings were saved')).toBeInTheDocument();
    expect(saved).toMatchObject({ site_name: 'New Name', contact_email: 'info@example.org' });
    await waitFor(() => expect(api.calls('/general').length).toBeGreaterThan(before));
  });

  it('saves the description in another language, each language a field of its own', async () => {
    const user = userEvent.setup();
    let saved: Record<string, string> | null = null;
    mockApi({
      '/admin/settings': (_url, init) => {
        if (method(init) === 'PUT') {
          saved = JSON.parse(String(init?.body));
          return { body: { settings: { ...settings, ...saved } } };
        }
        return { body: { settings: { ...settings, description: 'A catalogue.', description_el: 'Ένας κατάλογος.' } } };
      },
    });
    renderApp('/admin?section=settings');
    await user.click(await screen.findByText('The description in the other languages'));
    expect(screen.getByLabelText('Description (Ελληνικά)')).toHaveValue('Ένας κατάλογος.');
    await user.type(screen.getByLabelText('Description (Deutsch)'), 'Ein Katalog.');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('The settings were saved')).toBeInTheDocument();
    expect(saved).toMatchObject({ description: 'A catalogue.', description_de: 'Ein Katalog.', description_el: 'Ένας κατάλογος.' });
  });

  it('creates a page with the HTML typed in a textarea and shows the server error', async () => {
    const user = userEvent.setup();
    const posted: unknown[] = [];
    const pages: AdminPage[] = [];
    mockApi({
      '/admin/settings': () => ({ body: { settings } }),
      '/admin/pages': (_url, init) => {
        if (method(init) === 'POST') {
          const body = JSON.parse(String(init?.body));
          posted.push(body);
          if (!body.summary) return { status: 400, body: { error: 'Invalid request (summary: required here)' } };
          pages.push({ ...body, id: 5, last_modified: '' });
          return { body: { page: pages[0] } };
        }
        return { body: { pages } };
      },
    });
    renderApp('/admin?section=pages');
    await user.click(await screen.findByRole('button', { name: 'Add a page' }));
    const form = screen.getByRole('form', { name: 'New page' });
    await user.type(within(form).getByLabelText('Title'), 'About');
    const content = within(form).getByLabelText('Content (HTML)');
    expect(content.tagName).toBe('TEXTAREA');
    await user.type(content, '<p>Hello</p>');
    await user.selectOptions(within(form).getByLabelText('Location'), 'footer');
    await user.click(within(form).getByLabelText('Published'));
    await user.click(within(form).getByRole('button', { name: 'Save page' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('summary: required here');
    await user.type(within(form).getByLabelText('Summary'), 'Who we are');
    await user.click(within(form).getByRole('button', { name: 'Save page' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New page' })).toBeNull());
    expect(posted[1]).toMatchObject({ title: 'About', summary: 'Who we are', content: '<p>Hello</p>', location: 'footer', published: true, language: 'en' });
    expect(await screen.findByRole('cell', { name: 'About' })).toBeInTheDocument();
  });

  it('deleting a page asks first; cancelling sends nothing', async () => {
    const user = userEvent.setup();
    const deletes: string[] = [];
    let pages: AdminPage[] = [
      { id: 5, title: 'About', summary: 'Who we are', content: '<p>Hi</p>', language: 'en', location: 'footer', sorting: 0, published: true, last_modified: '' },
    ];
    mockApi({
      '/admin/settings': () => ({ body: { settings } }),
      '/admin/pages': (url, init) => {
        if (method(init) === 'DELETE') {
          deletes.push(url.pathname);
          pages = [];
          return { body: { success: 'OK' } };
        }
        return { body: { pages } };
      },
    });
    renderApp('/admin?section=pages');
    await user.click(await screen.findByRole('button', { name: 'Delete About' }));
    // The list names where the page is linked, as the form does, not the stored code.
    expect(screen.getByRole('row', { name: /About/ })).toHaveTextContent(/^About\s*Footer\s*en/);
    let dialog = screen.getByRole('dialog', { name: 'Delete the page “About”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete About' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(deletes).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete About' }));
    dialog = screen.getByRole('dialog', { name: 'Delete the page “About”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete page' }));
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'About' })).toBeNull());
    expect(deletes).toEqual(['/collector/api/admin/pages/5']);
  });

  it("shows a library's sites; a superuser may edit a Calibre site and its folder (PUT to the admin API)", async () => {
    const user = userEvent.setup();
    const saved: { path: string; method: string; body: Record<string, unknown> }[] = [];
    mockApi({
      '/admin/settings': () => ({ body: { settings } }),
      '/admin/libraries/1/sites': (url, init) => {
        if (method(init) === 'GET') return { body: { sites: [calibreSite] } };
        const body = JSON.parse(String(init?.body));
        saved.push({ path: url.pathname, method: method(init), body });
        return { body: { site: { ...calibreSite, ...body } } };
      },
      '/admin/libraries': () => ({ body: { libraries: [lib(1, 'Uno')] } }),
    });
    renderApp('/admin');
    await user.click(await screen.findByRole('button', { name: 'Sites of Uno' }));
    const region = await screen.findByRole('region', { name: 'Sites of Uno' });
    const site = await within(region).findByRole('article', { name: 'Calibre shelf' });
    expect(within(site).getByText('Calibre library (folder on the server)')).toBeInTheDocument();
    expect(within(site).getByText('uno/books')).toBeInTheDocument();
    expect(within(site).getByRole('button', { name: 'Harvest now' })).toBeInTheDocument();
    await user.click(within(site).getByRole('button', { name: 'Edit Calibre shelf' }));
    const form = within(region).getByRole('form', { name: 'Edit the site “Calibre shelf”' });
    const folder = within(form).getByLabelText('Calibre folder');
    expect(folder).toHaveValue('uno/books');
    await user.clear(folder);
    await user.click(within(form).getByRole('button', { name: 'Save site' }));
    expect(folder).toHaveAccessibleDescription(/A Calibre site needs the folder of its library/);
    expect(saved).toHaveLength(0);
    await user.type(folder, 'uno/calibre');
    await user.click(within(form).getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(within(region).queryByRole('form')).toBeNull());
    expect(saved).toEqual([{
      path: '/collector/api/admin/libraries/1/sites/11', method: 'PUT',
      body: { title: 'Calibre shelf', site_type: 'calibretree', url: null, oai_set: null, oai_metadata_format: null, active: true, harvest_interval_minutes: 30, tree_path: 'uno/calibre', csv_type: null },
    }]);
  });
});

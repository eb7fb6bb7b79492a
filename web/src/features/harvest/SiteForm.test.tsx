import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderApp } from '../../test/utils';
import { LIBRARY, addHarvestStrings, bodyOf, method, site, type Body } from './testData';
import { siteBodySchema } from './api';

beforeAll(addHarvestStrings);

function libraryAdmin(onSave: (path: string, body: Body, method: string) => { status?: number; body: unknown }) {
  const saved: { path: string; body: Body; method: string }[] = [];
  const sites = [site()];
  mockApi({
    '/library/details/': () => ({ body: { library: LIBRARY, users: [] } }),
    '/spreadsheet/': () => ({ body: { sites: [], max_bytes: 1024 } }),
    '/library/sites/': (url, init) => {
      if (method(init) === 'GET') return { body: { sites } };
      const entry = { path: url.pathname.replace('/collector/api', ''), body: bodyOf(init), method: method(init) };
      saved.push(entry);
      return onSave(entry.path, entry.body, entry.method);
    },
  });
  return saved;
}

const openNewSiteForm = async (user: ReturnType<typeof userEvent.setup>) => {
  const region = await screen.findByRole('region', { name: 'Sites and harvesting' });
  await user.click(within(region).getByRole('button', { name: 'Add a site' }));
  return within(region).getByRole('form', { name: 'New site' });
};

describe('the site form', () => {
  it('"Test connection" shows what the address offers, lets a set be picked, and says why an address fails', async () => {
    const user = userEvent.setup();
    const tested: Body[] = [];
    let answer: unknown = {
      ok: true, repository_name: 'Biblioteca OAI', formats: ['oai_dc'], format: 'marc21', format_offered: false,
      sets: [{ spec: 'zines', name: 'Zines' }, { spec: 'books', name: 'Books' }], more_sets: false,
    };
    libraryAdmin((path, body) => {
      if (path.endsWith('/test')) {
        tested.push(body);
        return { body: answer };
      }
      return { body: {} };
    });
    renderApp('/library/admin/1');
    const form = await openNewSiteForm(user);
    await user.selectOptions(within(form).getByLabelText('Site type'), 'koha-marc21');
    const test = within(form).getByRole('button', { name: 'Test connection' });
    expect(test).toBeDisabled(); // no address yet
    await user.type(within(form).getByLabelText('OAI-PMH endpoint URL'), 'https://opac.example.org/oai');
    await user.click(test);
    const status = await within(form).findByRole('status');
    expect(status).toHaveTextContent('Connected to “Biblioteca OAI”.');
    expect(status).toHaveTextContent('Metadata formats: oai_dc');
    expect(status).toHaveTextContent('This repository does not offer marc21, the format this site is harvested in.');
    expect(tested).toEqual([{ site_type: 'koha-marc21', url: 'https://opac.example.org/oai', oai_metadata_format: null }]);
    await user.selectOptions(within(form).getByLabelText('Sets of the repository (2)'), 'zines');
    expect(within(form).getByLabelText('OAI set')).toHaveValue('zines');

    answer = { ok: false, error: 'There is no site at opac.example.org: check the address for a typing mistake' };
    await user.click(test);
    expect(await within(form).findByRole('alert')).toHaveTextContent('There is no site at opac.example.org');
  });

  it('shows the OAI fields for OAI types only, and the Calibre folder to superusers only', async () => {
    const user = userEvent.setup();
    libraryAdmin(() => ({ body: {} }));
    renderApp('/library/admin/1');
    const form = await openNewSiteForm(user);
    const title = within(form).getByLabelText('Title');
    await waitFor(() => expect(title).toHaveFocus());
    const type = within(form).getByLabelText('Site type');
    const options = within(type).getAllByRole('option').map((o) => (o as HTMLOptionElement).value);
    expect(options).toEqual(['amusewiki', 'koha-marc21', 'koha-unimarc', 'generic', 'csv']);

    // amusewiki (the default): the endpoint URL; its set and format are fixed.
    expect(within(form).getByLabelText('OAI-PMH endpoint URL')).toBeInTheDocument();
    expect(within(form).queryByLabelText('OAI set')).toBeNull();
    expect(within(form).queryByLabelText('Metadata format')).toBeNull();
    expect(within(form).getByText('Amusewiki sites are harvested from their “web” set.')).toBeInTheDocument();
    expect(within(form).getByText('MARC21 (marc21), set by the site type')).toBeInTheDocument();
    expect(within(form).getByLabelText('Harvest interval (minutes)')).toHaveValue(30);
    expect(within(form).getByLabelText('Harvest this site automatically')).toBeChecked();

    // A generic OAI-PMH repository: set and a format to choose.
    await user.selectOptions(type, 'generic');
    expect(within(form).getByLabelText('OAI set')).toBeInTheDocument();
    const format = within(form).getByLabelText('Metadata format');
    expect(within(format).getAllByRole('option').map((o) => (o as HTMLOptionElement).value)).toEqual(['', 'oai_dc', 'marc21']);

    await user.selectOptions(type, 'csv');
    expect(within(form).getByLabelText('Address')).toBeInTheDocument();
    expect(within(form).queryByLabelText('OAI-PMH endpoint URL')).toBeNull();
    expect(within(form).queryByLabelText('OAI set')).toBeNull();
    expect(within(form).queryByLabelText('Metadata format')).toBeNull();
    expect(within(form).queryByText(/set by the site type/)).toBeNull();
    expect(within(form).getByLabelText('Spreadsheet format')).toBeInTheDocument();
    expect(within(form).queryByLabelText('Calibre folder')).toBeNull();

    await user.selectOptions(type, 'koha-unimarc');
    expect(within(form).getByLabelText('OAI-PMH endpoint URL')).toBeInTheDocument();
    expect(within(form).getByLabelText('OAI set')).toBeInTheDocument();
    expect(within(form).queryByLabelText('Spreadsheet format')).toBeNull();
  });

  it('requires a metadata format for a generic OAI-PMH site before sending, then shows the server 400', async () => {
    const user = userEvent.setup();
    let answers = 0;
    const saved = libraryAdmin(() => (answers++ === 0
      ? { status: 400, body: { error: 'Invalid request (url: the endpoint does not answer Identify)' } }
      : { body: { site: site({ id: 20, title: 'Repository', site_type: 'generic' }) } }));
    renderApp('/library/admin/1');
    const form = await openNewSiteForm(user);
    await user.type(within(form).getByLabelText('Title'), 'Repository');
    await user.selectOptions(within(form).getByLabelText('Site type'), 'generic');
    await user.click(within(form).getByRole('button', { name: 'Save site' }));

    // The schema's rules, shown next to their fields; nothing is sent.
    const url = within(form).getByLabelText('OAI-PMH endpoint URL');
    const format = within(form).getByLabelText('Metadata format');
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveAccessibleDescription(/An OAI-PMH site needs the URL of its OAI-PMH endpoint/);
    expect(format).toHaveAccessibleDescription('Choose the metadata format of the generic OAI-PMH site (oai_dc or marc21)');
    await waitFor(() => expect(url).toHaveFocus());
    expect(saved).toHaveLength(0);

    await user.type(url, 'ftp://repo.example.org');
    await user.click(within(form).getByRole('button', { name: 'Save site' }));
    expect(url).toHaveAccessibleDescription(/The URL must start with http:\/\/ or https:\/\//);
    await user.clear(url);
    await user.type(url, 'https://repo.example.org/oai');
    await user.selectOptions(format, 'oai_dc');
    const interval = within(form).getByLabelText('Harvest interval (minutes)');
    await user.clear(interval);
    await user.type(interval, '2');
    await user.click(within(form).getByRole('button', { name: 'Save site' }));
    expect(interval).toHaveAccessibleDescription(/whole number of minutes between 5 and 10080/);
    expect(saved).toHaveLength(0);
    await user.clear(interval);
    await user.type(interval, '60');

    await user.click(within(form).getByRole('button', { name: 'Save site' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Invalid request (url: the endpoint does not answer Identify)');
    await user.click(within(form).getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New site' })).toBeNull());
    expect(saved[1]).toEqual({
      path: '/library/sites/1', method: 'POST',
      body: {
        title: 'Repository', site_type: 'generic', url: 'https://repo.example.org/oai', oai_set: null, oai_metadata_format: 'oai_dc',
        active: true, harvest_interval_minutes: 60, csv_type: null,
      },
    });
    // A library admin never sends a Calibre folder; the body passes the shared rules.
    expect(siteBodySchema.safeParse(saved[1].body).success).toBe(true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add a site' })).toHaveFocus());
  });

  it('edits a site with PUT and its current values', async () => {
    const user = userEvent.setup();
    const saved = libraryAdmin((_p, body) => ({ body: { site: site(body as never) } }));
    renderApp('/library/admin/1');
    const region = await screen.findByRole('region', { name: 'Sites and harvesting' });
    await user.click(await within(region).findByRole('button', { name: 'Edit Anarchist Library' }));
    const form = within(region).getByRole('form', { name: 'Edit the site “Anarchist Library”' });
    expect(within(form).getByLabelText('Title')).toHaveValue('Anarchist Library');
    expect(within(form).getByLabelText('OAI-PMH endpoint URL')).toHaveValue('https://al.example.org/oai-pmh');
    const interval = within(form).getByLabelText('Harvest interval (minutes)');
    await user.clear(interval);
    await user.type(interval, '120');
    await user.click(within(form).getByLabelText('Harvest this site automatically'));
    await user.click(within(form).getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      path: '/library/sites/1/10', method: 'PUT',
      body: {
        title: 'Anarchist Library', site_type: 'amusewiki', url: 'https://al.example.org/oai-pmh', oai_set: null, oai_metadata_format: null,
        active: false, harvest_interval_minutes: 120, csv_type: null,
      },
    });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { mockApi, renderApp } from '../../test/utils';
import { HARVEST_POLL_MS } from './SitesPanel';
import { LIBRARY, addHarvestStrings, bodyOf, method, run, site, type Body } from './testData';
import type { HarvestRun, Site } from './api';

beforeAll(addHarvestStrings);

type Handler = Parameters<typeof mockApi>[0][string];

/** The library admin screen of library 1 with these sites, plus extra handlers. */
function libraryAdmin(sites: Site[], extra: Record<string, Handler> = {}) {
  const posts: { path: string; body: Body }[] = [];
  const mocked = mockApi({
    '/library/details/': () => ({ body: { library: LIBRARY, users: [] } }),
    '/spreadsheet/': () => ({ body: { sites: [], max_bytes: 1024 } }),
    '/library/sites/': () => ({ body: { sites } }),
    ...extra,
  });
  const original = mocked.fetch.getMockImplementation()!;
  mocked.fetch.mockImplementation(async (input, init) => {
    if (method(init) !== 'GET') posts.push({ path: new URL(String(input), 'http://localhost').pathname.replace('/collector/api', ''), body: bodyOf(init) });
    return original(input, init);
  });
  return { ...mocked, posts };
}

const sitesRegion = async () => screen.findByRole('region', { name: 'Sites and harvesting' });
const card = async (title: string) => within(await sitesRegion()).findByRole('article', { name: title });

describe('the sites panel (library admin screen)', () => {
  it('lists the sites with type, URL, data sources, last harvest and the last run', async () => {
    libraryAdmin([site(), site({ id: 11, title: 'Shelf list', site_type: 'csv', csv_type: 'generic', url: null, data_sources: 7, last_run: null, last_harvested: null })]);
    renderApp('/library/admin/1');
    const oai = await card('Anarchist Library');
    expect(within(oai).getByText('Amusewiki site (OAI-PMH)')).toBeInTheDocument();
    expect(within(oai).getByText('OAI-PMH endpoint URL')).toBeInTheDocument();
    expect(within(oai).getByText('https://al.example.org/oai-pmh')).toBeInTheDocument();
    expect(within(oai).getByText('1200')).toBeInTheDocument();
    expect(within(oai).getByRole('status')).toHaveTextContent('Finished');
    expect(within(oai).getByText('Every 30 minutes')).toBeInTheDocument();
    expect(within(oai).getByRole('button', { name: 'Harvest now' })).toBeEnabled();
    expect(within(oai).queryByText(/Failing/)).toBeNull();
    // A spreadsheet site gets its records from uploads: no harvest buttons.
    const csv = await card('Shelf list');
    expect(within(csv).getByText('Spreadsheet uploads (CSV or XLSX)')).toBeInTheDocument();
    expect(within(csv).queryByRole('button', { name: 'Harvest now' })).toBeNull();
    expect(within(csv).getByRole('button', { name: 'Edit Shelf list' })).toBeInTheDocument();
  });

  it('says that a site never harvested waits for a first successful "Harvest now" before its automatic harvests', async () => {
    libraryAdmin([site({ last_harvested: null, last_run: null })]);
    renderApp('/library/admin/1');
    const oai = await card('Anarchist Library');
    expect(within(oai).getByText('Every 30 minutes, after a first successful “Harvest now”')).toBeInTheDocument();
  });

  it('"Harvest now" posts, and the progress bar appears and advances as the polled run changes, then polling stops', async () => {
    const user = userEvent.setup();
    const queued = run({ id: 2, status: 'queued', started: null, finished: null, records: 0, total: null, new: 0, updated: 0, unchanged: 0 });
    const polled: HarvestRun[] = [
      run({ id: 2, status: 'running', finished: null, records: 0, total: null, new: 0, updated: 0, unchanged: 0 }),
      run({ id: 2, status: 'running', finished: null, records: 40, total: 100, new: 40, updated: 0, unchanged: 0 }),
      run({ id: 2, status: 'running', finished: null, records: 80, total: 100, new: 80, updated: 0, unchanged: 0 }),
      run({ id: 2, status: 'finished', records: 100, total: 100, new: 97, updated: 3, unchanged: 0 }),
    ];
    let polls = 0;
    const m = libraryAdmin([site()], {
      '/admin/sites/10/harvest': (_url, init) => (method(init) === 'POST' ? { status: 202, body: { run: queued } } : undefined),
      '/admin/sites/10/harvests': () => ({ body: { runs: [polled[Math.min(polls++, polled.length - 1)], run()] } }),
    });
    renderApp('/library/admin/1');
    const oai = await card('Anarchist Library');
    // Nothing is polled while no run is queued or running.
    expect(m.calls('/admin/sites/10/harvests')).toHaveLength(0);
    await user.click(within(oai).getByRole('button', { name: 'Harvest now' }));
    expect(m.posts).toContainEqual({ path: '/admin/sites/10/harvest', body: { force: false } });

    const bar = await within(oai).findByRole('progressbar', { name: 'Harvest progress of “Anarchist Library”' });
    expect(within(oai).getByRole('button', { name: 'Harvest now' })).toBeDisabled();
    await waitFor(() => expect(within(oai).getByRole('status')).toHaveTextContent('Running'));
    // No total announced yet: an indeterminate bar.
    expect(within(oai).getByRole('progressbar')).not.toHaveAttribute('aria-valuenow');
    await waitFor(() => expect(within(oai).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40'), { timeout: 3 * HARVEST_POLL_MS });
    expect(within(oai).getByRole('progressbar')).toHaveAttribute('aria-valuemax', '100');
    expect(within(oai).getByText('40 of 100 records')).toBeInTheDocument();
    await waitFor(() => expect(within(oai).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '80'), { timeout: 3 * HARVEST_POLL_MS });
    expect(bar).toBeInTheDocument();

    await waitFor(() => expect(within(oai).queryByRole('progressbar')).toBeNull(), { timeout: 3 * HARVEST_POLL_MS });
    expect(within(oai).getByRole('status')).toHaveTextContent('Finished');
    expect(within(oai).getByRole('button', { name: 'Harvest now' })).toBeEnabled();
    // The run is over: the sites are asked for again and the runs are not polled any more.
    await waitFor(() => expect(m.calls('/library/sites/1').length).toBeGreaterThan(1));
    const seen = m.calls('/admin/sites/10/harvests').length;
    await act(() => new Promise((r) => setTimeout(r, 2 * HARVEST_POLL_MS)));
    expect(m.calls('/admin/sites/10/harvests')).toHaveLength(seen);
  }, 20000);

  it('follows a run that was already running when the screen opened', async () => {
    const running = run({ id: 3, status: 'running', finished: null, records: 10, total: 50 });
    libraryAdmin([site({ last_run: running })], {
      '/admin/sites/10/harvests': () => ({ body: { runs: [{ ...running, records: 25 }] } }),
    });
    renderApp('/library/admin/1');
    const oai = await card('Anarchist Library');
    await waitFor(() => expect(within(oai).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25'));
    expect(within(oai).getByRole('progressbar')).toHaveAttribute('aria-valuemax', '50');
  });

  it('asks before a full harvest, posts force, and shows a refusal (409)', async () => {
    const user = userEvent.setup();
    const m = libraryAdmin([site()], {
      '/admin/sites/10/harvest': () => ({ status: 409, body: { error: 'A harvest of this site is already queued or running' } }),
      '/admin/sites/10/harvests': () => ({ body: { runs: [run()] } }),
    });
    renderApp('/library/admin/1');
    const oai = await card('Anarchist Library');
    await user.click(within(oai).getByRole('button', { name: 'Full harvest…' }));
    const dialog = screen.getByRole('dialog', { name: 'Full harvest of “Anarchist Library”?' });
    expect(dialog).toHaveTextContent('replaces the site’s records once the new set is complete');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(m.posts).toHaveLength(0);

    await user.click(within(oai).getByRole('button', { name: 'Full harvest…' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Start the full harvest' }));
    expect(await within(oai).findByRole('alert')).toHaveTextContent('A harvest of this site is already queued or running');
    expect(m.posts).toEqual([{ path: '/admin/sites/10/harvest', body: { force: true } }]);
  });

  it('flags a failing site (text and icon) and lists the failed records of its runs', async () => {
    const user = userEvent.setup();
    const failedRun = run({ id: 7, status: 'failed', message: 'The endpoint answered HTML, not OAI-PMH XML', records: 0, total: null, new: 0, updated: 0, unchanged: 0 });
    const partial = run({
      id: 6, failed: 3,
      errors: [
        { identifier: 'oai:al.example.org:text-1', message: 'The record has no title' },
        { identifier: 'oai:al.example.org:text-2', message: 'Unknown language code xx' },
      ],
    });
    libraryAdmin([site({ failing: true, consecutive_failures: 3, last_run: failedRun })], {
      '/admin/sites/10/harvests': () => ({ body: { runs: [failedRun, partial] } }),
    });
    renderApp('/library/admin/1');
    const oai = await card('Anarchist Library');
    const flag = within(oai).getByText('Failing: the last 3 harvests of this site failed.');
    expect(flag.parentElement!.querySelector('svg')).not.toBeNull();
    expect(within(oai).getByRole('status')).toHaveTextContent('Failed');

    const toggle = within(oai).getByRole('button', { name: 'Show the runs' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const table = await within(oai).findByRole('table', { name: 'Harvest runs of “Anarchist Library”' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Failed');
    expect(rows[1]).toHaveTextContent('The endpoint answered HTML, not OAI-PMH XML');
    expect(rows[2]).toHaveTextContent('Finished');
    expect(rows[2]).toHaveTextContent('1 min 5 s');

    const record = within(rows[2]).getByText('oai:al.example.org:text-1');
    expect(record).not.toBeVisible();
    await user.click(within(rows[2]).getByText('Failed records (3)'));
    expect(record).toBeVisible();
    expect(record.closest('li')).toHaveTextContent('oai:al.example.org:text-1: The record has no title');
    expect(within(rows[2]).getByText('Shown: 2 of 3 failed records')).toBeInTheDocument();
  });

  it('lets a library admin edit a Calibre site but not its folder (sent unchanged)', async () => {
    const user = userEvent.setup();
    const m = libraryAdmin([site({ id: 12, title: 'Calibre shelf', site_type: 'calibretree', url: null, tree_path: 'uno/books', last_run: null })], {
      '/library/sites/1/12': (_url, init) => ({ body: { site: site({ id: 12, ...bodyOf(init) } as Partial<Site>) } }),
    });
    renderApp('/library/admin/1');
    const calibre = await card('Calibre shelf');
    expect(within(calibre).getByRole('button', { name: 'Harvest now' })).toBeInTheDocument();
    await user.click(within(calibre).getByRole('button', { name: 'Edit Calibre shelf' }));
    const form = screen.getByRole('form', { name: 'Edit the site “Calibre shelf”' });
    expect(within(form).queryByLabelText('Calibre folder')).toBeNull();
    expect(within(form).getByText('uno/books')).toBeInTheDocument();
    expect(within(form).getByText('(only superusers can change it)')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Title'));
    await user.type(within(form).getByLabelText('Title'), 'Calibre books');
    await user.click(within(form).getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(m.posts).toHaveLength(1));
    expect(m.posts[0]).toMatchObject({ path: '/library/sites/1/12', body: { title: 'Calibre books', site_type: 'calibretree', tree_path: 'uno/books' } });
  });

  it('passes axe-core with a failing site, a running harvest, open runs and a form with errors, and works from the keyboard', async () => {
    const user = userEvent.setup();
    const running = run({ id: 9, status: 'running', finished: null, records: 30, total: 120 });
    const partial = run({ id: 8, failed: 1, errors: [{ identifier: 'oai:x:1', message: 'The record has no title' }] });
    libraryAdmin([site({ failing: true, consecutive_failures: 4, last_run: running })], {
      '/admin/sites/10/harvests': () => ({ body: { runs: [running, partial] } }),
    });
    renderApp('/library/admin/1');
    const oai = await card('Anarchist Library');
    await within(oai).findByRole('progressbar');
    // Keyboard only: Tab to "Show the runs", Enter; then to "Add a site", Enter (the title field gets the focus).
    const toggle = within(oai).getByRole('button', { name: 'Show the runs' });
    for (let i = 0; i < 300 && document.activeElement !== toggle; i++) await user.tab();
    await user.keyboard('{Enter}');
    expect(await within(oai).findByRole('table')).toBeInTheDocument();
    await user.click(within(oai).getByText('Failed records (1)'));
    const add = screen.getByRole('button', { name: 'Add a site' });
    for (let i = 0; i < 300 && document.activeElement !== add; i++) await user.tab();
    await user.keyboard('{Enter}');
    const form = screen.getByRole('form', { name: 'New site' });
    await waitFor(() => expect(within(form).getByLabelText('Title')).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(within(form).getByLabelText('Title')).toHaveAccessibleDescription('The title is required');

    const r = await axe.run(document.body, { resultTypes: ['violations'], rules: { 'color-contrast': { enabled: false } } });
    expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`)).toEqual([]);
  }, 20000);
});

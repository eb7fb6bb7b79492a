import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderApp } from '../../test/utils';
import { general } from '../../test/fixtures';
import { browser } from '../../lib/reload';

describe('header and footer', () => {
  it('has landmarks, the site name linking home and the document title', async () => {
    mockApi({});
    renderApp('/contact');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Search' })).toHaveAttribute('href', '/search');
    expect(await screen.findByRole('link', { name: 'Test Catalogue' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(document.title).toBe('Contacts – Test Catalogue'));
  });

  it('offers the six languages by native name; choosing one stores it and reloads', async () => {
    const user = userEvent.setup();
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    mockApi({});
    renderApp('/contact');
    const select = screen.getByLabelText('UI language');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'English',
      'Deutsch',
      'Ελληνικά',
      'Français',
      'Hrvatski',
      'Italiano',
    ]);
    expect(select).toHaveValue('en');
    await user.selectOptions(select, 'Italiano');
    expect(window.localStorage.getItem('language')).toBe('it');
    expect(reload).toHaveBeenCalledTimes(1);
    reload.mockRestore();
  });

  it('lists the footer pages and links Contacts', async () => {
    const api = mockApi({});
    renderApp('/contact');
    const footer = screen.getByRole('contentinfo');
    const page = await within(footer).findByRole('link', { name: /About us/ });
    expect(page).toHaveAttribute('href', '/page/1');
    expect(page).toHaveTextContent('Who we are');
    expect(within(footer).getByRole('link', { name: 'Contacts' })).toHaveAttribute('href', '/contact');
    expect(api.calls('/pages/footer/en')).toHaveLength(1);
  });
});

describe('simple pages', () => {
  it('contact shows the site name and a mail link', async () => {
    mockApi({});
    renderApp('/contact');
    expect(await screen.findByRole('link', { name: 'info@example.org' })).toHaveAttribute(
      'href',
      'mailto:info@example.org',
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Test Catalogue');
  });

  it('contact without an address says so', async () => {
    mockApi({ '/general': () => ({ body: { ...general, contact_email: '' } }) });
    renderApp('/contact');
    expect(
      await screen.findByText('This project has no contact email. Please check the footer instead'),
    ).toBeInTheDocument();
  });

  it('/ redirects to the home page (/map), which has the search box', async () => {
    mockApi({});
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Test Catalogue' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/map');
    expect(screen.getByRole('combobox', { name: 'Search the catalogue' })).toBeInTheDocument();
  });

  it('shows a static page and a not-found page', async () => {
    mockApi({
      '/pages/2': () => ({ body: { page: { id: 2, title: 'Our mission', summary: '', content: '<p>We catalogue.</p>' } } }),
    });
    const { router } = renderApp('/page/2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Our mission' })).toBeInTheDocument();
    expect(screen.getByText('We catalogue.')).toBeInTheDocument();
    await router.navigate('/no/such/place');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});

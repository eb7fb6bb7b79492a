import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuthUser } from '@uc/shared';
import { dataSource, entry, searchResponse } from '../../test/fixtures';
import { mockApi, renderApp } from '../../test/utils';
import { ANONYMOUS_USER } from '../../api/account';

function user(extra: Partial<AuthUser> = {}): AuthUser {
  return { ...ANONYMOUS_USER, logged_in: 'anna', email: 'anna@example.org', ...extra };
}

/** A mocked server whose /auth/user follows login and logout. */
function accountApi(opts: { me?: AuthUser; login?: () => { status?: number; body: unknown }; extra?: Parameters<typeof mockApi>[0] } = {}) {
  let me: AuthUser = opts.me ?? ANONYMOUS_USER;
  const bodies: Record<string, unknown[]> = {};
  const record = (k: string, init?: RequestInit) => (bodies[k] ??= []).push(init?.body ? JSON.parse(String(init.body)) : undefined);
  const api = mockApi({
    '/auth/user': () => ({ body: me }),
    '/auth/login': (_u, init) => {
      record('login', init);
      const res = opts.login?.() ?? { body: user() };
      if ((res.status ?? 200) === 200) me = res.body as AuthUser;
      return res;
    },
    '/auth/logout': () => {
      me = ANONYMOUS_USER;
      return { body: { ok: 'Logged out' } };
    },
    '/auth/reset-password': (_u, init) => {
      record('reset', init);
      return { body: { message: 'If this account exists, we sent it a link.' } };
    },
    '/pages/user_menu/': () => ({ body: { pages: [{ id: 9, title: 'Staff handbook', summary: '' }] } }),
    '/search': () => ({ body: searchResponse() }),
    ...opts.extra,
  });
  return { api, bodies };
}

const banner = () => within(screen.getByRole('banner'));

async function openLogin(u: ReturnType<typeof userEvent.setup>) {
  const toggle = await banner().findByRole('button', { name: 'Log in' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await u.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return toggle;
}

describe('header user area', () => {
  it('cycles hidden → login → reset → login → hidden with labelled fields', async () => {
    const u = userEvent.setup();
    const { bodies } = accountApi();
    renderApp('/search');
    expect(banner().queryByLabelText('Username')).toBeNull();
    const toggle = await openLogin(u);
    expect(banner().getByLabelText('Username')).toHaveFocus();
    expect(banner().getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(banner().getByRole('button', { name: 'Login' })).toBeInTheDocument();

    await u.click(banner().getByRole('button', { name: 'Reset password?' }));
    expect(banner().queryByLabelText('Password')).toBeNull();
    await u.type(banner().getByLabelText('Username'), 'anna');
    await u.click(banner().getByRole('button', { name: 'Require Password Reset' }));
    expect(await banner().findByText('If this account exists, we sent it a link.')).toBeInTheDocument();
    expect(bodies.reset).toEqual([{ operation: 'send-link', username: 'anna' }]);

    await u.click(banner().getByRole('button', { name: 'Back to login' }));
    expect(banner().getByLabelText('Password')).toBeInTheDocument();
    await u.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(banner().queryByLabelText('Username')).toBeNull();

    // Escape closes the open area and returns to the user button.
    await u.click(toggle);
    expect(banner().getByLabelText('Username')).toHaveFocus();
    await u.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveFocus();
  });

  it("shows the server's error, else 'Failed login'", async () => {
    const u = userEvent.setup();
    let answer: { status: number; body: unknown } = { status: 401, body: { logged_in: null, error: 'Invalid login' } };
    accountApi({ login: () => answer });
    renderApp('/search');
    await openLogin(u);
    await u.type(banner().getByLabelText('Username'), 'anna');
    await u.type(banner().getByLabelText('Password'), 'wrong');
    await u.click(banner().getByRole('button', { name: 'Login' }));
    expect(await banner().findByRole('alert')).toHaveTextContent('Invalid login');

    // Slowed after repeated failures: the wait is named (the server's message, in the reader's language).
    answer = { status: 429, body: { error: 'Too many attempts. Please try again in 8 second(s).' } };
    await u.click(banner().getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(banner().getByRole('alert')).toHaveTextContent('Too many attempts. Please try again in 8 second(s).'));

    answer = { status: 500, body: {} };
    await u.click(banner().getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(banner().getByRole('alert')).toHaveTextContent('Failed login'));
  });

  it('logs in: greeting, user menu, and the search results are fetched again', async () => {
    const u = userEvent.setup();
    const { api, bodies } = accountApi();
    renderApp('/search?query=bakunin');
    await waitFor(() => expect(api.calls('/search')).toHaveLength(1));
    await openLogin(u);
    await u.type(banner().getByLabelText('Username'), ' anna ');
    await u.type(banner().getByLabelText('Password'), 'secret{Enter}');
    expect(await banner().findByText('Hello, anna!')).toBeInTheDocument();
    expect(bodies.login).toEqual([{ username: 'anna', password: 'secret' }]);
    expect(banner().getByRole('button', { name: 'User menu' })).toHaveFocus();
    await waitFor(() => expect(api.calls('/search')).toHaveLength(2));
  });

  it('has a keyboard menu: a plain user sees Exclusions, user-menu pages and Logout', async () => {
    const u = userEvent.setup();
    accountApi({ me: user() });
    renderApp('/search');
    const button = await banner().findByRole('button', { name: 'User menu' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    button.focus();
    await u.keyboard('{ArrowDown}');
    const menu = banner().getByRole('menu', { name: 'User menu' });
    const items = () => within(menu).getAllByRole('menuitem');
    await waitFor(() => expect(items().map((i) => i.textContent)).toEqual(['Exclusions', 'Staff handbook', 'Logout']));
    expect(items()[0]).toHaveFocus();
    expect(items()[0]).toHaveAttribute('href', '/exclusions');
    expect(items()[1]).toHaveAttribute('href', '/page/9');
    await u.keyboard('{ArrowDown}');
    expect(items()[1]).toHaveFocus();
    await u.keyboard('{End}');
    expect(items()[2]).toHaveFocus();
    await u.keyboard('{ArrowDown}');
    expect(items()[0]).toHaveFocus();
    await u.keyboard('{Escape}');
    expect(banner().queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows Admin to superusers and one entry per library to library admins', async () => {
    const u = userEvent.setup();
    accountApi({
      me: user({ is_superuser: true, is_library_admin: true, libraries: [{ id: 3, name: 'La Lanterna' }, { id: 5, name: 'Kate Sharpley' }] }),
    });
    const { router } = renderApp('/search');
    await u.click(await banner().findByRole('button', { name: 'User menu' }));
    const menu = banner().getByRole('menu');
    await waitFor(() =>
      expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual([
        'Admin', 'Exclusions', 'La Lanterna', 'Kate Sharpley', 'Staff handbook', 'Logout',
      ]),
    );
    expect(within(menu).getByRole('menuitem', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    expect(within(menu).getByRole('menuitem', { name: 'Kate Sharpley' })).toHaveAttribute('href', '/library/admin/5');
    await u.click(within(menu).getByRole('menuitem', { name: 'Staff handbook' }));
    expect(router.state.location.pathname).toBe('/page/9');
    expect(banner().queryByRole('menu')).toBeNull();
  });

  it('hides Admin and the libraries from a plain user with affiliations', async () => {
    const u = userEvent.setup();
    accountApi({ me: user({ libraries: [{ id: 3, name: 'La Lanterna' }] }) });
    renderApp('/search');
    await u.click(await banner().findByRole('button', { name: 'User menu' }));
    const menu = banner().getByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Admin' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'La Lanterna' })).toBeNull();
  });

  it('offers the dashboards to users enabled for merging only, and Exclusions opens the exclusions page', async () => {
    const u = userEvent.setup();
    accountApi({
      me: user({ can_merge: true }),
      extra: { '/exclusions': () => ({ body: { exclusions: [] } }) },
    });
    const { router } = renderApp('/search');
    await u.click(await banner().findByRole('button', { name: 'User menu' }));
    const menu = banner().getByRole('menu');
    await waitFor(() =>
      expect(within(menu).getAllByRole('menuitem').map((i) => [i.textContent, i.getAttribute('href')])).toEqual([
        ['Exclusions', '/exclusions'],
        ['Merged authors', '/dashboard/merged-agents'],
        ['Merged entries', '/dashboard/merged-entries'],
        ['Translations', '/dashboard/translations'],
        ['Aggregations', '/dashboard/aggregations'],
        ['Split authors', '/dashboard/split-agents'],
        ['Change log', '/dashboard/changes'],
        ['Possible duplicates', '/dashboard/duplicates'],
        ['Staff handbook', '/page/9'],
        ['Logout', null],
      ]),
    );
    // The keyboard still walks the longer menu.
    await u.keyboard('{End}');
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toHaveFocus();
    await u.keyboard('{Home}');
    expect(within(menu).getByRole('menuitem', { name: 'Exclusions' })).toHaveFocus();
    await u.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/exclusions'));
    expect(await screen.findByRole('heading', { level: 1, name: 'My Exclusions' })).toBeInTheDocument();
    expect(screen.queryByText('Page not found')).toBeNull();
  });

  it('shows no dashboard links to users not enabled for merging', async () => {
    const u = userEvent.setup();
    accountApi({ me: user({ can_set_exclusions: true, is_superuser: true }) });
    renderApp('/search');
    await u.click(await banner().findByRole('button', { name: 'User menu' }));
    const menu = banner().getByRole('menu');
    await waitFor(() => expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Admin', 'Exclusions', 'Staff handbook', 'Logout']));
    expect(within(menu).queryByRole('menuitem', { name: 'Change log' })).toBeNull();
  });

  it('logs out: back to the user button, the user and the results are fetched again', async () => {
    const u = userEvent.setup();
    const { api } = accountApi({ me: user() });
    renderApp('/search?query=x');
    await u.click(await banner().findByRole('button', { name: 'User menu' }));
    await waitFor(() => expect(api.calls('/search')).toHaveLength(1));
    const userChecks = api.calls('/auth/user').length;
    await u.click(within(banner().getByRole('menu')).getByRole('menuitem', { name: 'Logout' }));
    expect(await banner().findByRole('button', { name: 'Log in' })).toHaveFocus();
    expect(banner().queryByText('Hello, anna!')).toBeNull();
    expect(api.calls('/auth/logout')).toHaveLength(1);
    await waitFor(() => expect(api.calls('/search')).toHaveLength(2));
    await waitFor(() => expect(api.calls('/auth/user').length).toBeGreaterThan(userChecks));
  });
});

describe('password reset page', () => {
  function resetApi(answer: () => { status?: number; body: unknown }) {
    const bodies: unknown[] = [];
    const api = mockApi({
      '/auth/user': () => ({ body: ANONYMOUS_USER }),
      '/auth/reset-password': (_u, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return answer();
      },
      '/search': () => ({ body: searchResponse() }),
    });
    return { api, bodies };
  }

  it('asks for both fields, tells a mismatch, and shows the button only when both match', async () => {
    const u = userEvent.setup();
    resetApi(() => ({ body: user() }));
    renderApp('/reset-password/anna/tok123');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reset password for anna' })).toBeInTheDocument();
    const main = within(screen.getByRole('main'));
    expect(main.getByText('Please type your new password in both fields')).toBeInTheDocument();
    expect(main.queryByRole('button', { name: 'Set the new password' })).toBeNull();
    await u.type(main.getByLabelText('New password'), 'long-enough-1');
    expect(main.queryByText('The passwords do not match')).toBeNull();
    await u.type(main.getByLabelText('Repeat the new password'), 'long-enough-2');
    expect(main.getByText('The passwords do not match')).toBeInTheDocument();
    expect(main.getByText('Please type your new password in both fields')).toBeInTheDocument();
    expect(main.queryByRole('button', { name: 'Set the new password' })).toBeNull();
    await u.clear(main.getByLabelText('Repeat the new password'));
    await u.type(main.getByLabelText('Repeat the new password'), 'long-enough-1');
    expect(main.queryByText('The passwords do not match')).toBeNull();
    expect(main.queryByText('Please type your new password in both fields')).toBeNull();
    expect(main.getByRole('button', { name: 'Set the new password' })).toBeInTheDocument();
  });

  it('shows the server\'s password rule before sending, and offers no button for a password that is too short', async () => {
    const u = userEvent.setup();
    const bodies: unknown[] = [];
    mockApi({
      '/general': () => ({ body: { site_name: 'S', site_logo: '', description: '', contact_email: '', password_min_length: 12 } }),
      '/auth/user': () => ({ body: ANONYMOUS_USER }),
      '/auth/reset-password': (_u, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return { body: user() };
      },
      '/search': () => ({ body: searchResponse() }),
    });
    renderApp('/reset-password/anna/tok123');
    const main = within(await screen.findByRole('main'));
    const field = await main.findByLabelText('New password');
    expect(await main.findByText('At least 12 characters.')).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription(expect.stringContaining('At least 12 characters.'));
    await u.type(field, 'short-pw');
    await u.type(main.getByLabelText('Repeat the new password'), 'short-pw');
    expect(main.queryByRole('button', { name: 'Set the new password' })).toBeNull();
    await u.type(field, '-longer');
    await u.type(main.getByLabelText('Repeat the new password'), '-longer');
    await u.click(main.getByRole('button', { name: 'Set the new password' }));
    expect(bodies).toEqual([{ operation: 'reset', username: 'anna', token: 'tok123', password: 'short-pw-longer' }]);
  });

  it('on success is logged in and lands on /search', async () => {
    const u = userEvent.setup();
    const { bodies } = resetApi(() => ({ body: user() }));
    const { router } = renderApp('/reset-password/anna/tok123');
    const main = within(await screen.findByRole('main'));
    await u.type(await main.findByLabelText('New password'), 'long-enough-1');
    await u.type(main.getByLabelText('Repeat the new password'), 'long-enough-1');
    await u.click(main.getByRole('button', { name: 'Set the new password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(bodies).toEqual([{ operation: 'reset', username: 'anna', token: 'tok123', password: 'long-enough-1' }]);
    expect(await banner().findByText('Hello, anna!')).toBeInTheDocument();
  });

  it("shows the server's error and stays", async () => {
    const u = userEvent.setup();
    resetApi(() => ({ status: 400, body: { logged_in: null, error: 'This link is invalid or expired' } }));
    const { router } = renderApp('/reset-password/anna/bad');
    const main = within(await screen.findByRole('main'));
    await u.type(await main.findByLabelText('New password'), 'long-enough-1');
    await u.type(main.getByLabelText('Repeat the new password'), 'long-enough-1');
    await u.click(main.getByRole('button', { name: 'Set the new password' }));
    expect(await main.findByRole('alert')).toHaveTextContent('This link is invalid or expired');
    expect(router.state.location.pathname).toBe('/reset-password/anna/bad');
  });
});

describe('Report Error', () => {
  function entryApi(me: AuthUser, reportError: boolean, report?: () => { status?: number; body: unknown }) {
    const bodies: unknown[] = [];
    const api = mockApi({
      '/auth/user': () => ({ body: me }),
      '/entry/': () => ({ body: entry({ data_sources: [dataSource({ report_error: reportError })] }) }),
      '/search': () => undefined,
      '/report/data-source-error/': (_u, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return report?.() ?? { body: { success: 'OK', report_id: 4 } };
      },
    });
    return { api, bodies };
  }

  it('is offered only to logged-in users with an e-mail address, for libraries that take reports', async () => {
    for (const [me, flag, shown] of [
      [ANONYMOUS_USER, true, false],
      [user({ email: '' }), true, false],
      [user(), false, false],
      [user(), true, true],
    ] as const) {
      entryApi(me, flag);
      const { unmount } = renderApp('/entry/1');
      await screen.findByRole('heading', { level: 1, name: /God and the State/ });
      if (me.logged_in) await screen.findByText('Hello, anna!');
      else await banner().findByRole('button', { name: 'Log in' });
      expect(!!screen.queryByRole('button', { name: 'Report Error' }), `${me.email} ${flag}`).toBe(shown);
      unmount();
    }
  });

  it("sends the message and reads 'Report Sent!'; Send only with a message", async () => {
    const u = userEvent.setup();
    const { api, bodies } = entryApi(user(), true);
    renderApp('/entry/1');
    await u.click(await screen.findByRole('button', { name: 'Report Error' }));
    const dialog = screen.getByRole('dialog', { name: 'Report an error for “God and the State” (Bibliotheca Test)' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const message = within(dialog).getByLabelText('Message');
    expect(message).toHaveFocus();
    const send = within(dialog).getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await u.type(message, '   ');
    expect(send).toBeDisabled();
    await u.type(message, 'The year is wrong');
    expect(send).toBeEnabled();
    await u.click(send);
    expect(await within(dialog).findByText('Report Sent!')).toBeInTheDocument();
    expect(bodies).toEqual([{ message: 'The year is wrong', report_type: 'error' }]);
    expect(api.calls('/report/data-source-error/11')).toHaveLength(1);
    await u.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Report Sent' })).toHaveFocus();
  });

  it('shows the failure text with the server detail', async () => {
    const u = userEvent.setup();
    entryApi(user(), true, () => ({ status: 502, body: { error: 'The report was stored but the e-mail could not be sent' } }));
    renderApp('/entry/1');
    await u.click(await screen.findByRole('button', { name: 'Report Error' }));
    const dialog = screen.getByRole('dialog');
    await u.type(within(dialog).getByLabelText('Message'), 'Hello');
    await u.click(within(dialog).getByRole('button', { name: 'Send' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failure sending the report. Please contact us by email!');
    expect(alert).toHaveTextContent('The report was stored but the e-mail could not be sent');
    expect(within(dialog).queryByText('Report Sent!')).toBeNull();
  });
});

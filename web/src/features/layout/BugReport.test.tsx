import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderApp } from '../../test/utils';
import { loadPublicStrings } from '../libraries/testData';
import { bugReportMessage } from './BugReport';

beforeAll(loadPublicStrings);

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  const footer = screen.getByRole('contentinfo');
  await user.click(within(footer).getByRole('button', { name: 'Bug Report' }));
  return screen.getByRole('dialog', { name: 'Report a bug to the site administrators' });
}

describe('bug report dialog', () => {
  it('is a modal with From, a read-only Page and the message; Send only when sender and message are filled', async () => {
    const user = userEvent.setup();
    mockApi({});
    renderApp('/contact');
    const dialog = await openDialog(user);
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const from = within(dialog).getByLabelText('From:');
    expect(from).toHaveFocus();
    expect(from).toHaveAttribute('type', 'email');
    const page = within(dialog).getByLabelText('Page:');
    expect(page).toHaveAttribute('readonly');
    expect(page).toHaveValue(window.location.href);
    const message = within(dialog).getByLabelText('Message');

    expect(within(dialog).queryByRole('button', { name: 'Send' })).toBeNull();
    await user.type(message, 'The map is upside down');
    expect(within(dialog).queryByRole('button', { name: 'Send' })).toBeNull();
    await user.type(from, '   ');
    expect(within(dialog).queryByRole('button', { name: 'Send' })).toBeNull();
    await user.clear(from);
    await user.type(from, 'me@example.org');
    expect(within(dialog).getByRole('button', { name: 'Send' })).toBeInTheDocument();
    await user.clear(message);
    expect(within(dialog).queryByRole('button', { name: 'Send' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it("sends the combined message and the sender, then reads 'Report Sent'", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    const api = mockApi({
      '/report/bug': (_url, init) => {
        bodies.push(JSON.parse(String(init?.body)));
        return { body: { success: 'OK', report_id: 1 } };
      },
    });
    renderApp('/contact');
    const dialog = await openDialog(user);
    const page = (within(dialog).getByLabelText('Page:') as HTMLInputElement).value;
    await user.type(within(dialog).getByLabelText('From:'), 'me@example.org');
    await user.type(within(dialog).getByLabelText('Message'), 'Broken link');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));

    expect(await within(dialog).findByText('Report Sent!')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Report Sent' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Send' })).toBeNull();
    expect(api.calls('/report/bug')).toHaveLength(1);
    expect(api.fetch.mock.calls.find((c) => String(c[0]).includes('/report/bug'))?.[1]?.method).toBe('POST');
    expect(bodies).toEqual([{ message: bugReportMessage(page, 'me@example.org', 'Broken link'), email_from: 'me@example.org' }]);
    expect(bugReportMessage('http://x/map', 'a@b.c', 'Hi')).toBe('On http://x/map\n\nFrom a@b.c\n\nHi');

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const footerButton = within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Report Sent' });
    expect(footerButton).toHaveFocus();
  });

  it('shows the failure text with the server detail', async () => {
    const user = userEvent.setup();
    mockApi({ '/report/bug': () => ({ status: 502, body: { error: 'The report was stored but the e-mail could not be sent' } }) });
    renderApp('/contact');
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('From:'), 'me@example.org');
    await user.type(within(dialog).getByLabelText('Message'), 'Hello');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failure sending the report. Please contact us by email!');
    expect(alert).toHaveTextContent('The report was stored but the e-mail could not be sent');
    // The text is kept, so the visitor can copy it into an e-mail or try again.
    expect(within(dialog).getByLabelText('Message')).toHaveValue('Hello');
    expect(within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Bug Report' })).toBeInTheDocument();
  });

  it('shows the rate-limit message (429) as the detail', async () => {
    const user = userEvent.setup();
    mockApi({ '/report/bug': () => ({ status: 429, body: { error: 'Too many reports from your address. Please try again in 10 minute(s).' } }) });
    renderApp('/contact');
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('From:'), 'me@example.org');
    await user.type(within(dialog).getByLabelText('Message'), 'Hello again');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failure sending the report. Please contact us by email!');
    expect(alert).toHaveTextContent('Too many reports from your address. Please try again in 10 minute(s).');
  });

  it("treats an answer without success as a failure ('Error' when there is no detail)", async () => {
    const user = userEvent.setup();
    mockApi({ '/report/bug': () => ({ body: {} }) });
    renderApp('/contact');
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('From:'), 'me@example.org');
    await user.type(within(dialog).getByLabelText('Message'), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(/Error$/);
  });

  it('closes on Escape and gives the focus back to the footer button', async () => {
    const user = userEvent.setup();
    mockApi({});
    renderApp('/contact');
    await openDialog(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Bug Report' })).toHaveFocus();
  });
});

// The Book Builder's format choice (issue 31): PDF by default; EPUB says the print options are ignored,
// is sent with build, and a finished EPUB is offered for download instead of the embedded PDF.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BookFont, BookText, BookbuilderResponse } from '@uc/shared';
import { mockApi, renderApp, type MockedApi } from '../../test/utils';
import { useBookBuilder } from './store';
import { useBookFormat } from './FormatChoice';

const SID = 'sessionsessionsession1';
const TEXT: BookText = { id: 1, sid: SID, attributes: { entry_id: 10, data_source_id: 100, title: 'First Text', authors: ['An Author'], size: 1234 } };
const NOTE = /the paper size, the imposition and the crop marks are ignored/;

const font = (name: string, type: BookFont['type']): BookFont => ({
  name, desc: name, type, preview_pdf: '', preview_png: '', preview_svg: '', bundled: true, covers_texts: true, missing: '', offered: true,
});
const FONTS = [font('DejaVu Sans', 'sans'), font('DejaVu Sans Mono', 'mono'), font('DejaVu Serif', 'serif')];

type Body = Record<string, unknown> & { action: string };
const bodies = (api: MockedApi) =>
  api.fetch.mock.calls.filter((c) => String(c[0]).includes('/bookbuilder') && c[1]?.method === 'POST').map((c) => JSON.parse(String(c[1]!.body)) as Body);

function bookApi(finished: BookbuilderResponse) {
  return mockApi({
    '/bookbuilder': (_url, init) => {
      const b = JSON.parse(String(init?.body ?? '{}')) as Body;
      if (b.action === 'get_fonts') return { body: { fonts: FONTS } };
      if (b.action === 'get_headings') return { body: { headings: [] } };
      if (b.action === 'list') return { body: { session_id: SID, texts: [TEXT], status: 'OK' } };
      if (b.action === 'build') return { body: { session_id: SID, job_id: 42, status: 'inactive' } };
      if (b.action === 'check_job') return { body: finished };
      return { status: 400, body: { error: 'bad' } };
    },
  });
}

beforeEach(() => {
  useBookBuilder.getState().reset();
  useBookFormat.setState({ format: 'pdf', produced: 'pdf' });
  useBookBuilder.setState({ session_id: SID, text_list: [TEXT] });
});

describe('Book Builder format', () => {
  it('is PDF by default; EPUB shows the note, is sent with build and its file is offered without the PDF frame', async () => {
    const api = bookApi({ session_id: SID, job_id: 42, status: 'finished', pages: null, book_pages: null, sheets: null, format: 'epub' });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    const group = await screen.findByRole('group', { name: 'Format' });
    expect(screen.getByRole('radio', { name: 'PDF, for printing' })).toBeChecked();
    expect(screen.queryByText(NOTE)).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'EPUB, for e-readers and phones' }));
    const note = screen.getByText(NOTE);
    expect(group).toHaveAttribute('aria-describedby', note.id);

    await user.click(screen.getByRole('button', { name: 'Build' }));
    const link = await screen.findByRole('link', { name: 'Download the EPUB' }, { timeout: 3000 });
    expect(link).toHaveAttribute('href', `/collector/api/bookbuilder/${SID}?job=42`);
    expect(screen.queryByTitle('Preview of the book (PDF)')).toBeNull();
    expect(bodies(api).find((b) => b.action === 'build')).toMatchObject({ session_id: SID, format: 'epub' });
  }, 10_000);

  it('sends pdf and embeds the PDF when PDF stays chosen', async () => {
    const api = bookApi({ session_id: SID, job_id: 42, status: 'finished', pages: 24, book_pages: 24, sheets: null, format: 'pdf' });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Build' }));
    expect(await screen.findByTitle('Preview of the book (PDF)', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download the PDF' })).toBeInTheDocument();
    expect(bodies(api).find((b) => b.action === 'build')).toMatchObject({ format: 'pdf' });
  }, 10_000);
});

// The Covers tab: the form from the server's tokens, the live sheet size, the spine from the built book,
// the book's font, uploads with the print resolution, the live preview and its errors, the build with
// polling and the PDF, Reset, and the values kept in localStorage.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { COVER_LANGUAGES, type BookbuilderResponse, type BookcoverResponse, type BookcoverUploadResponse, type CoverToken } from '@uc/shared';
import { mockApi, renderApp, type MockedApi } from '../../test/utils';
import { useBookBuilder } from '../bookbuilder/store';
import { COVER_STORAGE_KEY, initialCoverState, useCoverStore } from './store';

const CSID = 'coversessioncoversession1';
const FONTS = ['DejaVu Serif', 'DejaVu Sans', 'Linux Libertine O'].map((f) => ({ value: f, label: f }));
const dim = (name: string, desc: string, value: number, min: number, max: number): CoverToken => ({ name, desc, type: 'int', value, min, max });
const TOKENS: CoverToken[] = [
  dim('coverheight', 'Cover height (mm)', 210, 50, 600),
  dim('coverwidth', 'Cover width (mm)', 148, 50, 600),
  dim('spinewidth', 'Spine width (mm)', 0, 0, 150),
  dim('flapwidth', 'Flap width (mm)', 0, 0, 300),
  dim('wrapwidth', 'Wrap-around width (mm)', 0, 0, 50),
  dim('bleedwidth', 'Bleed (mm)', 10, 0, 30),
  dim('marklength', 'Crop mark length (mm)', 5, 0, 30),
  { name: 'foldingmargin', desc: 'Folding margin', type: 'bool', value: false },
  { name: 'font_name', desc: 'Font', type: 'select', value: 'DejaVu Serif', options: FONTS },
  { name: 'language_code', desc: 'Language', type: 'select', value: 'en', options: COVER_LANGUAGES },
  { name: 'author_muse_str', desc: 'Author', type: 'muse_str', value: '' },
  { name: 'title_muse_str', desc: 'Title', type: 'muse_str', value: '' },
  { name: 'subtitle_muse_str', desc: 'Subtitle', type: 'muse_str', value: '' },
  { name: 'image_file', desc: 'Image', type: 'file', value: null },
  { name: 'image_width_in_mm_int', desc: 'Image width', type: 'int', value: 0, min: 0, max: 500 },
  { name: 'front_footer_muse_str', desc: 'Front footer', type: 'muse_str', value: '' },
  { name: 'back_text_muse_body', desc: 'Back text', type: 'muse_body', value: '' },
  { name: 'isbn_isbn', desc: 'ISBN', type: 'isbn', value: '' },
  // A site's own template may bring tokens the form does not know: labelled by their desc.
  { name: 'publisher_muse_str', desc: 'Publisher of this edition', type: 'muse_str', value: '' },
];
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="326mm" height="240mm"></svg>';

type Args = Record<string, unknown> & { session_id: string };
type CoverBody = { action: string; session_id?: string | null; args?: Args };

interface FakeServer {
  preview?: (args: Args) => { status?: number; body: BookcoverResponse | { error: string } } | undefined;
  build?: (args: Args) => { status?: number; body: BookcoverResponse | { error: string } } | undefined;
  upload?: { status?: number; body: BookcoverUploadResponse | { error: string } };
  jobs?: BookbuilderResponse[];
  /** The session get_tokens answers (default: the one asked for, else CSID). */
  session?: string;
}

function coverApi(server: FakeServer = {}): MockedApi {
  const jobs = [...(server.jobs ?? [])];
  return mockApi({
    '/bookcover/upload': () => server.upload ?? { body: { session_id: CSID, tokens: { image_file: 'image_file.png' }, image: { token: 'image_file', file: 'image_file.png', width_px: 4000, height_px: 3000, bytes: 1000 } } },
    '/bookcover': (_url, init) => {
      const b = JSON.parse(String(init?.body)) as CoverBody;
      switch (b.action) {
        case 'get_tokens':
          return { body: { session_id: server.session ?? b.session_id ?? CSID, tokens: TOKENS } };
        case 'preview':
          return server.preview?.(b.args!) ?? { body: { svg: SVG, sheet: { width_mm: 326, height_mm: 240 }, warnings: [] } };
        case 'build':
          return server.build?.(b.args!) ?? { body: { session_id: CSID, job_id: 77, status: 'inactive' } };
      }
      return { status: 400, body: { error: 'Unknown action' } };
    },
    '/bookbuilder': (_url, init) => {
      const b = JSON.parse(String(init?.body)) as { action: string };
      if (b.action === 'check_job') return { body: jobs.length > 1 ? jobs.shift()! : jobs[0] };
      return { status: 400, body: { error: 'bad' } };
    },
  });
}

/** The JSON bodies sent to POST /bookcover, in order. */
const coverBodies = (api: MockedApi) =>
  api.fetch.mock.calls.filter((c) => new URL(String(c[0]), 'http://localhost').pathname === '/collector/api/bookcover').map((c) => JSON.parse(String(c[1]!.body)) as CoverBody);
const previews = (api: MockedApi) => coverBodies(api).filter((b) => b.action === 'preview');

let urls = 0;
const created: string[] = [];
const revoked: string[] = [];

beforeEach(() => {
  useBookBuilder.getState().reset();
  useCoverStore.setState(initialCoverState());
  urls = 0;
  created.length = 0;
  revoked.length = 0;
  // jsdom has no Blob URLs.
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, writable: true, value: vi.fn(() => { const u = `blob:preview-${++urls}`; created.push(u); return u; }) });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: vi.fn((u: string) => void revoked.push(u)) });
});

afterEach(() => {
  delete (URL as { createObjectURL?: unknown }).createObjectURL;
  delete (URL as { revokeObjectURL?: unknown }).revokeObjectURL;
});

/** Opens /coverbuilder and waits for the form (the first visit loads the lazy chunk). */
async function openCovers() {
  const view = renderApp('/coverbuilder');
  await screen.findByRole('group', { name: 'Sheet dimensions' }, { timeout: 10_000 });
  return view;
}

const sheet = () => screen.getByText(/^Sheet: /);
const num = (name: string) => screen.getByRole('spinbutton', { name });

describe('Covers tab', () => {
  it('renders every token the server sends, grouped, with labels (desc for unknown tokens), and the preview', async () => {
    const api = coverApi({ preview: () => ({ body: { svg: SVG, sheet: { width_mm: 326, height_mm: 240 }, warnings: ['The barcode needs a white box', 'image_file: the image prints at 100 dpi'] } }) });
    await openCovers();
    expect(screen.getByRole('heading', { level: 1, name: 'Covers' })).toBeInTheDocument();
    expect(coverBodies(api)[0]).toEqual({ action: 'get_tokens', session_id: null });

    const sheetGroup = screen.getByRole('group', { name: 'Sheet dimensions' });
    for (const name of ['Cover height (mm)', 'Cover width (mm)', 'Spine width (mm)', 'Flap width (mm)', 'Wrap-around width (mm)', 'Bleed (mm)', 'Crop mark length (mm)']) {
      expect(within(sheetGroup).getByRole('spinbutton', { name })).toBeInTheDocument();
    }
    expect(num('Cover width (mm)')).toHaveValue(148);
    expect(num('Cover width (mm)')).toHaveAttribute('max', '600');
    expect(within(sheetGroup).getByRole('checkbox', { name: /Folding margin for a hard cover/ })).not.toBeChecked();

    const text = screen.getByRole('group', { name: 'Text' });
    const font = within(text).getByRole('combobox', { name: 'Font' });
    expect(font).toHaveValue('DejaVu Serif');
    expect(within(font).getAllByRole('option').map((o) => o.textContent)).toEqual(['DejaVu Serif', 'DejaVu Sans', 'Linux Libertine O']);
    expect(within(text).getByRole('combobox', { name: 'Language of the cover texts' })).toHaveValue('en');
    for (const name of ['Author', 'Title', 'Subtitle', 'Footer of the front cover', 'Publisher of this edition']) expect(within(text).getByRole('textbox', { name })).toBeInTheDocument();

    const image = screen.getByRole('group', { name: 'Image' });
    const file = within(image).getByLabelText('Front image (PNG or JPEG)');
    expect(file).toHaveAttribute('type', 'file');
    expect(file).toHaveAttribute('accept', 'image/png,image/jpeg');
    expect(within(image).getByRole('spinbutton', { name: /Image width in mm/ })).toHaveValue(0);

    const back = screen.getByRole('group', { name: 'Back cover' });
    expect(within(back).getByRole('textbox', { name: 'Text on the back cover' }).tagName).toBe('TEXTAREA');
    const isbn = within(back).getByRole('textbox', { name: 'ISBN (printed as a barcode on the back)' });
    expect(isbn).toHaveAttribute('inputmode', 'text');

    // Every token has its control, by group, in the server's order within each group.
    const controls = [...document.querySelectorAll(':is(input, select, textarea)[id^="cover-field-"]')].map((c) => c.id.replace('cover-field-', ''));
    expect(controls).toEqual(FORM_ORDER);
    expect(new Set(controls)).toEqual(new Set(TOKENS.map((t) => t.name)));

    const img = await screen.findByRole('img', { name: 'Preview of the cover' });
    expect(img).toHaveAttribute('src', 'blob:preview-1');
    expect(screen.getByText('The barcode needs a white box')).toBeInTheDocument();
    // An image's resolution is told under its own field, translated, not twice.
    expect(screen.queryByText(/the image prints at 100 dpi/)).toBeNull();
    expect(previews(api)[0].args).toMatchObject({ session_id: CSID, coverwidth: 148, font_name: 'DejaVu Serif', image_file: null, isbn_isbn: '' });
  });

  it('shows the total sheet size as the dimensions change', async () => {
    coverApi();
    await openCovers();
    const user = userEvent.setup();
    expect(sheet()).toHaveTextContent('Sheet: 326 × 240 mm');
    await user.clear(num('Cover width (mm)'));
    await user.type(num('Cover width (mm)'), '150');
    expect(sheet()).toHaveTextContent('Sheet: 330 × 240 mm');
    await user.clear(num('Spine width (mm)'));
    await user.type(num('Spine width (mm)'), '12');
    expect(sheet()).toHaveTextContent('Sheet: 342 × 240 mm');
    await user.click(screen.getByRole('checkbox', { name: /Folding margin/ }));
    expect(sheet()).toHaveTextContent('Sheet: 356 × 240 mm');
    await user.clear(num('Cover height (mm)'));
    await user.type(num('Cover height (mm)'), '200');
    expect(sheet()).toHaveTextContent('Sheet: 356 × 230 mm');
  });

  it('without a built book, points to the Book Builder for the spine', async () => {
    coverApi();
    await openCovers();
    expect(screen.getByText(/Build your book first/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the Book Builder' })).toHaveAttribute('href', '/bookbuilder');
    expect(screen.queryByRole('button', { name: 'Use for the spine' })).toBeNull();
  });

  it('computes the spine from the built book’s pages, paper and board allowance; the field stays editable', async () => {
    useBookBuilder.setState({ produced: { pages: 240, book_pages: 240, sheets: null } });
    const api = coverApi();
    await openCovers();
    const user = userEvent.setup();
    expect(screen.getByText('Your book has 240 pages')).toBeInTheDocument();
    const paper = screen.getByRole('spinbutton', { name: 'Paper thickness (mm), the same as in the Book Builder' });
    expect(paper).toHaveValue(0.1);
    expect(paper).toHaveAttribute('step', '0.01');
    expect(screen.getByRole('spinbutton', { name: 'Board allowance (mm)' })).toHaveValue(0);
    await user.click(screen.getByRole('button', { name: 'Use for the spine' }));
    expect(num('Spine width (mm)')).toHaveValue(12);
    expect(sheet()).toHaveTextContent('Sheet: 338 × 240 mm');
    await waitFor(() => expect(previews(api).at(-1)?.args).toMatchObject({ spinewidth: 12 }));

    await user.clear(paper);
    await user.type(paper, '0.12');
    await user.type(screen.getByRole('spinbutton', { name: 'Board allowance (mm)' }), '{Backspace}2');
    expect(screen.getByText('Spine width for these pages: 17 mm')).toBeInTheDocument();
    // one paper thickness: the Book Builder's (issue 32 point 12)
    expect(useBookBuilder.getState().collection_data.crop_paper_thickness).toBe(0.12);
    await user.click(screen.getByRole('button', { name: 'Use for the spine' }));
    expect(num('Spine width (mm)')).toHaveValue(17);
    await user.clear(num('Spine width (mm)'));
    await user.type(num('Spine width (mm)'), '20');
    expect(num('Spine width (mm)')).toHaveValue(20);
  });

  it('a catalogue title with Muse markup characters is prefilled as text that reads back as written, not as emphasis or a tag', async () => {
    const text = { id: 2, sid: 'S'.repeat(22), attributes: { entry_id: 2, data_source_id: 2, title: '*Notes* on <b>', authors: ['A = B'], size: 1000 } };
    useBookBuilder.setState({ session_id: 'S'.repeat(22), text_list: [text], produced: null });
    const api = coverApi();
    await openCovers();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('<verbatim>*Notes* on <b></verbatim>'));
    await waitFor(() => expect(previews(api).at(-1)?.args).toMatchObject({ title_muse_str: '<verbatim>*Notes* on <b></verbatim>', author_muse_str: '<verbatim>A = B</verbatim>' }));
  });

  it('starts from the book: its title and author, the spine from the last build and the paper thickness; a narrow spine is said to carry no text (issue 32 point 14)', async () => {
    const text = (id: number, title: string, authors: string[]) => ({ id, sid: 'S'.repeat(22), attributes: { entry_id: id, data_source_id: id, title, authors, size: 1000 } });
    useBookBuilder.setState({ session_id: 'S'.repeat(22), text_list: [text(1, 'Mutual Aid', ['Peter Kropotkin'])], produced: { pages: 240, book_pages: 240, sheets: null } });
    const api = coverApi();
    await openCovers();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Mutual Aid'));
    expect(screen.getByRole('textbox', { name: 'Author' })).toHaveValue('Peter Kropotkin');
    expect(num('Spine width (mm)')).toHaveValue(12);
    await waitFor(() => expect(previews(api).at(-1)?.args).toMatchObject({ title_muse_str: 'Mutual Aid', author_muse_str: 'Peter Kropotkin', spinewidth: 12 }));
    expect(screen.queryByTestId('spine-no-text')).toBeNull();
    const user = userEvent.setup();
    await user.clear(num('Spine width (mm)'));
    await user.type(num('Spine width (mm)'), '4');
    expect(screen.getByTestId('spine-no-text')).toHaveTextContent('A spine narrower than 6 mm is too narrow to read: it is left without text.');
  });

  it('a collection of several texts gives the cover its title page’s title and author; typed values stay', async () => {
    const text = (id: number, title: string) => ({ id, sid: 'S'.repeat(22), attributes: { entry_id: id, data_source_id: id, title, authors: ['X'], size: 1000 } });
    useBookBuilder.setState({ session_id: 'S'.repeat(22), text_list: [text(1, 'One'), text(2, 'Two')] });
    useBookBuilder.getState().setField('title', 'Two Essays');
    useBookBuilder.getState().setField('author', 'Various');
    useCoverStore.setState({ values: { author_muse_str: 'Typed Author' } });
    coverApi();
    await openCovers();
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Two Essays'));
    expect(screen.getByRole('textbox', { name: 'Author' })).toHaveValue('Typed Author');
  });

  it('sets the book’s font in one click', async () => {
    useBookBuilder.getState().setField('mainfont', 'Linux Libertine O');
    const api = coverApi();
    await openCovers();
    const user = userEvent.setup();
    expect(screen.getByRole('combobox', { name: 'Font' })).toHaveValue('DejaVu Serif');
    await user.click(screen.getByRole('button', { name: 'Use the book’s font (Linux Libertine O)' }));
    expect(screen.getByRole('combobox', { name: 'Font' })).toHaveValue('Linux Libertine O');
    await waitFor(() => expect(previews(api).at(-1)?.args).toMatchObject({ font_name: 'Linux Libertine O' }));
  });

  it('says so when the book’s font is not one of the cover fonts', async () => {
    useBookBuilder.getState().setField('mainfont', 'TeX Gyre Pagella');
    coverApi();
    await openCovers();
    expect(screen.getByText('The book’s font (TeX Gyre Pagella) is not available for covers.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Use the book’s font/ })).toBeNull();
  });

  it('uploads the image as multipart with the token name as field, warns under 300 dpi, and Remove clears it', async () => {
    const api = coverApi({ upload: { body: { session_id: CSID, tokens: { image_file: 'image_file.png' }, image: { token: 'image_file', file: 'image_file.png', width_px: 800, height_px: 600, bytes: 51234 } } } });
    await openCovers();
    const user = userEvent.setup();
    const input = screen.getByLabelText('Front image (PNG or JPEG)');
    await waitFor(() => expect(input).toBeEnabled());
    await user.upload(input, new File(['png'], 'my-photo.png', { type: 'image/png' }));

    const call = api.fetch.mock.calls.find((c) => String(c[0]).endsWith('/bookcover/upload'))!;
    const form = call[1]!.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('session_id')).toBe(CSID);
    expect((form.get('image_file') as File).name).toBe('my-photo.png');
    expect([...form.keys()]).toEqual(['session_id', 'image_file']);

    expect(await screen.findByText(/Image: my-photo\.png/)).toHaveTextContent('(800 × 600 pixels)');
    // 800 px over 148 − 30 = 118 mm: 172 dpi.
    expect(screen.getByText(/Low resolution/)).toHaveTextContent('at 118 mm wide this image prints at 172 dpi, below the 300 dpi');
    await waitFor(() => expect(previews(api).at(-1)?.args).toMatchObject({ image_file: 'image_file.png' }));

    // Placed 60 mm wide the same image prints at 338 dpi.
    await user.clear(screen.getByRole('spinbutton', { name: /Image width in mm/ }));
    await user.type(screen.getByRole('spinbutton', { name: /Image width in mm/ }), '60');
    expect(screen.queryByText(/Low resolution/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Remove the image my-photo.png' }));
    expect(screen.queryByText(/Image: my-photo\.png/)).toBeNull();
    await waitFor(() => expect(previews(api).at(-1)?.args).toMatchObject({ image_file: null }));
  });

  it('shows an upload error by the image field', async () => {
    coverApi({ upload: { status: 400, body: { error: 'image_file: The image has too many pixels' } } });
    await openCovers();
    const user = userEvent.setup();
    const input = screen.getByLabelText('Front image (PNG or JPEG)');
    await waitFor(() => expect(input).toBeEnabled());
    await user.upload(input, new File(['png'], 'huge.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The image has too many pixels');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('The image has too many pixels');
  });

  it('shows a preview error on its field, keeps the last image, and clears it when fixed', async () => {
    const api = coverApi({ preview: (args) => (args.isbn_isbn === '978-0-00-000000-1' ? { status: 400, body: { error: 'isbn_isbn: The ISBN checksum is wrong' } } : undefined) });
    await openCovers();
    const user = userEvent.setup();
    await screen.findByRole('img', { name: 'Preview of the cover' });
    const isbn = screen.getByRole('textbox', { name: 'ISBN (printed as a barcode on the back)' });
    await user.type(isbn, '978-0-00-000000-1');
    await waitFor(() => expect(isbn).toHaveAttribute('aria-invalid', 'true'));
    expect(isbn).toHaveAccessibleDescription(/The ISBN checksum is wrong/);
    expect(screen.getByRole('alert')).toHaveTextContent('The ISBN checksum is wrong');
    // the preview says why it is not updated (issue 32 point 14)
    expect(screen.getByTestId('cover-preview-blocked')).toHaveTextContent('The preview is not updated while “ISBN (printed as a barcode on the back)” is not valid: The ISBN checksum is wrong');
    expect(screen.getByRole('img', { name: 'Preview of the cover' })).toHaveAttribute('src', 'blob:preview-1');
    await user.clear(isbn);
    await user.type(isbn, '978-3-16-148410-0');
    await waitFor(() => expect(isbn).not.toHaveAttribute('aria-invalid'));
    expect(screen.queryByTestId('cover-preview-blocked')).toBeNull();
    expect(screen.getByRole('img', { name: 'Preview of the cover' })).toHaveAttribute('src', 'blob:preview-2');
    expect(revoked).toContain('blob:preview-1');
    expect(previews(api).at(-1)?.args).toMatchObject({ isbn_isbn: '978-3-16-148410-0' });
  });

  it('debounces the preview: a burst of typing sends one request, marked busy meanwhile', async () => {
    let release: () => void = () => undefined;
    const api = coverApi();
    await openCovers();
    await screen.findByRole('img', { name: 'Preview of the cover' });
    const before = previews(api).length;
    expect(before).toBe(1);
    // The next preview hangs until released, so the old image is shown busy.
    const inner = api.fetch.getMockImplementation()!;
    api.fetch.mockImplementation(async (input, init) => {
      if (String(init?.body ?? '').includes('"preview"')) await new Promise<void>((r) => (release = r));
      return inner(input, init);
    });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'A Title');
    await waitFor(() => expect(previews(api).length).toBe(before + 1));
    expect(previews(api).at(-1)?.args).toMatchObject({ title_muse_str: 'A Title' });
    const frame = screen.getByRole('img', { name: 'Preview of the cover' }).parentElement!;
    expect(frame).toHaveAttribute('aria-busy', 'true');
    release();
    await waitFor(() => expect(frame).toHaveAttribute('aria-busy', 'false'));
    await new Promise((r) => setTimeout(r, 400));
    expect(previews(api).length).toBe(before + 1);
  });

  it('builds, polls check_job with the cover session (Queued, Working), then embeds the PDF', async () => {
    const api = coverApi({
      jobs: [
        { session_id: CSID, job_id: 77, status: 'inactive', queue_position: 1 },
        { session_id: CSID, job_id: 77, status: 'active' },
        { session_id: CSID, job_id: 77, status: 'finished', pages: 1 },
      ],
    });
    await openCovers();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Cover Title');
    const build = screen.getByRole('button', { name: 'Build' });
    await waitFor(() => expect(build).toBeEnabled());
    await user.click(build);
    expect(await screen.findByText('Queued')).toBeInTheDocument();
    expect(screen.getByText('(1 builds ahead)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Build' })).toBeDisabled();
    expect(await screen.findByText('Working', {}, { timeout: 3000 })).toBeInTheDocument();
    const frame = await screen.findByTitle('Preview of the cover (PDF)', {}, { timeout: 3000 });
    expect(frame).toHaveAttribute('src', `/collector/api/bookbuilder/${CSID}?inline=1&job=77`);
    expect(screen.getByRole('link', { name: 'Download the PDF' })).toHaveAttribute('href', `/collector/api/bookbuilder/${CSID}?job=77`);
    expect(screen.getByRole('button', { name: 'Build' })).toBeEnabled();

    expect(coverBodies(api).find((b) => b.action === 'build')!.args).toMatchObject({ session_id: CSID, title_muse_str: 'Cover Title', coverwidth: 148 });
    const checks = api.fetch.mock.calls.filter((c) => String(c[0]).endsWith('/bookbuilder')).map((c) => JSON.parse(String(c[1]!.body)));
    expect(checks.length).toBeGreaterThanOrEqual(3);
    for (const c of checks) expect(c).toEqual({ action: 'check_job', session_id: CSID, check_job_id: 77 });
  }, 10_000);

  it('shows "Job failed" with its reason', async () => {
    coverApi({ jobs: [{ session_id: CSID, job_id: 77, status: 'failed', error: 'The font is missing' }] });
    await openCovers();
    const user = userEvent.setup();
    const build = screen.getByRole('button', { name: 'Build' });
    await waitFor(() => expect(build).toBeEnabled());
    await user.click(build);
    expect(await screen.findByText('Job failed', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('The font is missing')).toBeInTheDocument();
  });

  it('a build refused for a field shows the error by that field and focuses it', async () => {
    coverApi({ build: () => ({ status: 400, body: { error: 'coverwidth: Must be at most 600' } }) });
    await openCovers();
    const user = userEvent.setup();
    const build = screen.getByRole('button', { name: 'Build' });
    await waitFor(() => expect(build).toBeEnabled());
    await user.click(build);
    const width = num('Cover width (mm)');
    await waitFor(() => expect(width).toHaveAttribute('aria-invalid', 'true'));
    expect(width).toHaveAccessibleDescription('Must be at most 600');
    expect(width).toHaveFocus();
  });

  it('Reset asks first, then restores the defaults', async () => {
    coverApi();
    await openCovers();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Temporary');
    await user.clear(num('Cover width (mm)'));
    await user.type(num('Cover width (mm)'), '170');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset the cover?' });
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Temporary');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reset all fields' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('');
    expect(num('Cover width (mm)')).toHaveValue(148);
    expect(sheet()).toHaveTextContent('Sheet: 326 × 240 mm');
  });

  it('keeps the values and the cover session across a reload (localStorage)', async () => {
    const api = coverApi();
    const first = await openCovers();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'Kept Title');
    await user.clear(num('Spine width (mm)'));
    await user.type(num('Spine width (mm)'), '9');
    const saved = localStorage.getItem(COVER_STORAGE_KEY)!;
    expect(JSON.parse(saved).state).toMatchObject({ session_id: CSID, values: { title_muse_str: 'Kept Title', spinewidth: 9 } });
    first.unmount();

    // A reload: the memory is gone, the storage is not.
    useCoverStore.setState(initialCoverState());
    localStorage.setItem(COVER_STORAGE_KEY, saved);
    await useCoverStore.persist.rehydrate();
    await openCovers();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Kept Title');
    expect(num('Spine width (mm)')).toHaveValue(9);
    expect(sheet()).toHaveTextContent('Sheet: 335 × 240 mm');
    await waitFor(() => expect(coverBodies(api).filter((b) => b.action === 'get_tokens').at(-1)).toEqual({ action: 'get_tokens', session_id: CSID }));
  });

  it('a new session from the server drops the uploaded image but keeps the texts', async () => {
    useCoverStore.setState({
      session_id: 'expiredsessionexpired1',
      tokens: TOKENS,
      values: { ...Object.fromEntries(TOKENS.map((t) => [t.name, t.value])), title_muse_str: 'Still here', image_file: 'image_file.png' },
      images: { image_file: { token: 'image_file', file: 'image_file.png', width_px: 4000, height_px: 3000, bytes: 10, name: 'old.png' } },
    });
    coverApi({ session: CSID });
    await openCovers();
    await waitFor(() => expect(useCoverStore.getState().session_id).toBe(CSID));
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Still here');
    expect(screen.queryByText(/Image: old\.png/)).toBeNull();
  });
});

/** The form's order: groups (sheet, text, image, back), then the server's order inside each. */
const FORM_ORDER = [
  ...['coverheight', 'coverwidth', 'spinewidth', 'flapwidth', 'wrapwidth', 'bleedwidth', 'marklength', 'foldingmargin'],
  ...['font_name', 'language_code', 'author_muse_str', 'title_muse_str', 'subtitle_muse_str', 'front_footer_muse_str', 'publisher_muse_str'],
  ...['image_file', 'image_width_in_mm_int'],
  ...['back_text_muse_body', 'isbn_isbn'],
];

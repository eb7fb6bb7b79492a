// The Book Builder screen: tab rules, Build/Reset visibility, job polling states, the text list, and
// the entry page button + header link.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toBuildPayload, type BookFont, type BookText, type BookbuilderResponse } from '@uc/shared';
import { entry } from '../../test/fixtures';
import { mockApi, renderApp, type MockedApi } from '../../test/utils';
import { BOOKBUILDER_STORAGE_KEY, defaultCollection, useBookBuilder } from './store';

const SID = 'sessionsessionsession1';
const text = (id: number, title: string): BookText => ({ id, sid: SID, attributes: { entry_id: id * 10, data_source_id: id * 100, title, authors: ['An Author'], size: 1234 } });
const TWO = [text(1, 'First Text'), text(2, 'Second Text')];
const THREE = [...TWO, text(3, 'Third Text')];
const font = (name: string, type: BookFont['type'], extra: Partial<BookFont> = {}): BookFont => {
  const slug = name.replace(/ /g, '-');
  return {
    name, desc: name, type, preview_pdf: `/collector/api/bookbuilder/fonts/${slug}.pdf`, preview_png: `/collector/api/bookbuilder/fonts/${slug}.png`, preview_svg: `/collector/api/bookbuilder/fonts/${slug}.svg`,
    bundled: name.startsWith('DejaVu'), covers_texts: true, missing: '', offered: true, ...extra,
  };
};
const FONTS = [font('DejaVu Sans', 'sans'), font('DejaVu Sans Mono', 'mono'), font('DejaVu Serif', 'serif')];

type Body = Record<string, unknown> & { action: string };
const bodies = (api: MockedApi) =>
  api.fetch.mock.calls.filter((c) => String(c[0]).includes('/bookbuilder') && c[1]?.method === 'POST').map((c) => JSON.parse(String(c[1]!.body)) as Body);
/** The calls that change the session (the font list is asked again after each). */
const edits = (api: MockedApi) => bodies(api).filter((b) => !b.action.startsWith('get_'));

/** A fake server: list answers the given texts; check_job answers the statuses in turn. */
function bookApi(opts: { texts?: BookText[]; jobs?: BookbuilderResponse[]; onBuild?: (b: Body) => BookbuilderResponse; extra?: (b: Body) => BookbuilderResponse | undefined } = {}) {
  let texts = opts.texts ?? [];
  // A text added again (Undo) comes back from its data source with a new id.
  const known = new Map(texts.map((x) => [x.attributes.data_source_id, x]));
  let nextId = 50;
  const jobs = [...(opts.jobs ?? [])];
  return mockApi({
    '/bookbuilder': (_url, init) => {
      const b = JSON.parse(String(init?.body ?? '{}')) as Body;
      const extra = opts.extra?.(b);
      if (extra) return { body: extra };
      switch (b.action) {
        case 'get_fonts':
          return { body: { fonts: FONTS } };
        case 'get_headings':
          return { body: { headings: [{ name: '0', desc: 'None' }, { name: 'part_chapter', desc: 'Part and chapter. If one side document: part.' }] } };
        case 'list':
          return { body: { session_id: SID, texts, status: 'OK' } };
        case 'reorder': {
          const rest = texts.filter((x) => x.id !== b.move_id);
          const at = b.to_id === null ? rest.length : rest.findIndex((x) => x.id === b.to_id);
          rest.splice(at, 0, texts.find((x) => x.id === b.move_id)!);
          texts = rest;
          return { body: { session_id: SID, texts, status: 'OK' } };
        }
        case 'remove':
          texts = texts.filter((x) => x.id !== b.remove_id);
          return { body: { session_id: SID, texts, status: 'OK' } };
        case 'add': {
          const again = known.get(Number(b.add));
          texts = [...texts, again ? { ...again, id: nextId++ } : text(3, 'Added Text')];
          return { body: { session_id: SID, texts, status: 'OK' } };
        }
        case 'build':
          return { body: opts.onBuild?.(b) ?? { session_id: SID, job_id: 42, status: 'inactive' } };
        case 'check_job':
          return { body: jobs.length > 1 ? jobs.shift()! : jobs[0] };
      }
      return { status: 400, body: { error: 'bad' } };
    },
  });
}

function withSession(texts: BookText[], extra: Partial<ReturnType<typeof useBookBuilder.getState>> = {}) {
  useBookBuilder.setState({ session_id: SID, text_list: texts, ...extra });
}

beforeEach(() => {
  useBookBuilder.getState().reset();
});

const tab = (name: string) => screen.getByRole('tab', { name: new RegExp(`^${name}`) });

describe('Book Builder screen', () => {
  it('starts empty: no Build, no Reset, the two tool tabs and five option tabs', async () => {
    bookApi();
    renderApp('/bookbuilder');
    // The first visit loads the lazy route chunk.
    expect(await screen.findByRole('heading', { level: 1, name: 'Book Builder' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('No text added, so far!')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Build' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Overview', 'Layout', 'Fonts', 'Imposition', 'Advanced']);
    const tools = screen.getByRole('navigation', { name: 'Book Builder and covers' });
    expect(within(tools).getByRole('link', { name: 'Covers' })).toHaveAttribute('href', '/coverbuilder');
  });

  it('the cover tab shows the cover form', async () => {
    const api = bookApi();
    const inner = api.fetch.getMockImplementation()!;
    api.fetch.mockImplementation(async (input, init) =>
      String(input).endsWith('/bookcover') && String(init?.body).includes('"get_tokens"')
        ? new Response(JSON.stringify({ session_id: SID, tokens: [{ name: 'coverwidth', desc: 'Cover width (mm)', type: 'int', value: 148, min: 50, max: 600 }] }), { status: 200 })
        : inner(input, init),
    );
    renderApp('/coverbuilder');
    const sheet = await screen.findByRole('group', { name: 'Sheet dimensions' });
    expect(within(sheet).getByRole('spinbutton', { name: 'Cover width (mm)' })).toHaveValue(148);
  });

  it('tabs follow the keyboard (arrows, Home, End)', async () => {
    bookApi();
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await screen.findByRole('tablist');
    await user.click(tab('Overview'));
    await user.keyboard('{ArrowRight}');
    expect(tab('Layout')).toHaveAttribute('aria-selected', 'true');
    expect(tab('Layout')).toHaveFocus();
    await user.keyboard('{End}');
    expect(tab('Advanced')).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}');
    expect(tab('Overview')).toHaveAttribute('aria-selected', 'true');
  });

  it('with one text: Build and Reset show, no virtual header', async () => {
    withSession([TWO[0]]);
    bookApi({ texts: [TWO[0]] });
    renderApp('/bookbuilder');
    expect(await screen.findByRole('button', { name: 'Build' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Title' })).toBeNull();
  });

  it('with two texts asks for the virtual header and does not build without a title', async () => {
    withSession(TWO);
    const api = bookApi({ texts: TWO });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    for (const name of ['Title', 'Subtitle', 'Author', 'Date', 'Notes', 'Source']) expect(await screen.findByRole('textbox', { name })).toBeInTheDocument();
    // nothing typed yet: no error yet (issue 32 point 15); leaving the empty field, or Build, shows it
    expect(screen.queryByText('A collection of several texts needs a title')).toBeNull();
    expect(tab('Overview')).not.toHaveTextContent('!');
    await user.click(screen.getByRole('textbox', { name: 'Title' }));
    await user.click(screen.getByRole('textbox', { name: 'Subtitle' }));
    expect(screen.getByText('A collection of several texts needs a title')).toBeInTheDocument();
    expect(tab('Overview')).toHaveTextContent('!');
    await user.click(screen.getByRole('button', { name: 'Build' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please check these settings before building:');
    expect(bodies(api).some((b) => b.action === 'build')).toBe(false);
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'My Book');
    expect(screen.queryByText('A collection of several texts needs a title')).toBeNull();
  });

  it('with two texts, Build before typing anything shows the missing title at once', async () => {
    withSession(TWO);
    bookApi({ texts: TWO });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await screen.findByRole('textbox', { name: 'Title' });
    expect(screen.queryByText('A collection of several texts needs a title')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Build' }));
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveAccessibleDescription('A collection of several texts needs a title');
  });

  it('Layout: custom sizes and margins appear with "Please set"; two-sided shows the opening', async () => {
    withSession([TWO[0]]);
    bookApi({ texts: [TWO[0]] });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Layout' }));
    expect(screen.queryByRole('spinbutton', { name: 'Width in mm' })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Please choose a paper size' }), 'custom');
    const width = screen.getByRole('spinbutton', { name: 'Width in mm' });
    expect(width).toHaveAttribute('aria-invalid', 'true');
    expect(width).toHaveAccessibleDescription('Please set');
    await user.type(width, '120');
    expect(width).not.toHaveAttribute('aria-invalid');

    expect(screen.queryByRole('spinbutton', { name: 'Text block width in mm' })).toBeNull();
    await user.selectOptions(screen.getByRole('combobox', { name: /Automatic margins/ }), '0');
    expect(screen.getByRole('spinbutton', { name: 'Text block width in mm' })).toHaveAccessibleDescription('Please set');
    const outer = screen.getByRole('spinbutton', { name: 'Outer margin in mm' });
    expect(screen.getByRole('spinbutton', { name: 'Top margin in mm' })).not.toHaveAttribute('aria-invalid');
    await user.type(outer, '10');
    expect(screen.getByRole('spinbutton', { name: 'Top margin in mm' })).toHaveAttribute('aria-invalid', 'true');

    expect(screen.queryByRole('combobox', { name: 'Page where to start a chapter' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Two side layout' }));
    expect(screen.getByRole('combobox', { name: 'Page where to start a chapter' })).toBeInTheDocument();
    expect(useBookBuilder.getState().collection_data).toMatchObject({ papersize: 'custom', papersize_width: 120, division_factor: 0, geometry_outer_margin: 10, twoside: true });
    // chapters on a new page: by the texts' length unless chosen (issue 32 point 15)
    const chapters = screen.getByRole('combobox', { name: 'Start each chapter on a new page' });
    expect(chapters).toHaveValue('auto');
    expect(toBuildPayload(useBookBuilder.getState().collection_data)).toMatchObject({ chapter_newpage: 'auto' });
    await user.selectOptions(chapters, 'always');
    expect(toBuildPayload(useBookBuilder.getState().collection_data)).not.toHaveProperty('chapter_newpage');
  });

  it('Fonts: the sans font selector only with sans section titles; mono fonts only for mono', async () => {
    withSession([TWO[0]]);
    bookApi({ texts: [TWO[0]] });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Fonts' }));
    const mono = await screen.findByRole('combobox', { name: 'Mono Font' });
    expect(within(mono).getAllByRole('option').map((o) => o.textContent)).toEqual(['DejaVu Sans Mono']);
    expect(screen.queryByRole('combobox', { name: 'Sans Font' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Sample of the font DejaVu Serif' })).toHaveAttribute('src', FONTS[2].preview_svg);
    await user.click(screen.getByRole('tab', { name: 'Advanced' }));
    await user.click(screen.getByRole('checkbox', { name: 'Use sans fonts for section titles' }));
    await user.click(screen.getByRole('tab', { name: 'Fonts' }));
    expect(screen.getByRole('combobox', { name: 'Sans Font' })).toHaveValue('DejaVu Sans');
  });

  it("Fonts: for the session's texts, families lacking their letters are set apart with the letters, and cannot be chosen", async () => {
    const JA = text(7, 'Japanese Text');
    withSession([TWO[0], JA]);
    // the fake server marks the fonts against the texts of the session, as the real one does
    const api = bookApi({
      texts: [TWO[0], JA],
      extra: (b) => {
        if (b.action !== 'get_fonts') return undefined;
        const ja = useBookBuilder.getState().text_list.some((x) => x.id === JA.id);
        const lack = (extra: Partial<BookFont>) => (ja ? extra : {});
        return {
          fonts: [
            font('DejaVu Sans Mono', 'mono', lack({ covers_texts: false, missing: '町図書' })),
            font('DejaVu Serif', 'serif', lack({ covers_texts: false, missing: '町図書' })),
            font('Libertinus Serif', 'serif', lack({ covers_texts: false, missing: '町図書', offered: false })),
            font('Linux Libertine Mono O', 'mono', lack({ covers_texts: false, missing: '町図', offered: false })),
            font('Noto Serif CJK JP', 'serif'),
          ],
        };
      },
    });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Fonts' }));
    const main = await screen.findByRole('combobox', { name: 'Main Font' });
    await waitFor(() => expect(within(main).getAllByRole('option')).toHaveLength(5));
    const options = within(main).getAllByRole('option') as HTMLOptionElement[];
    expect(options.filter((o) => !o.disabled).map((o) => o.textContent)).toEqual(['DejaVu Sans Mono', 'DejaVu Serif', 'Noto Serif CJK JP']);
    const apart = within(main).getByRole('group', { name: 'Without some letters of your texts' });
    expect(within(apart).getAllByRole('option').map((o) => [o.textContent, (o as HTMLOptionElement).disabled])).toEqual([['Libertinus Serif (no 町図書)', true], ['Linux Libertine Mono O (no 町図)', true]]);
    const mono = screen.getByRole('combobox', { name: 'Mono Font' });
    expect(within(within(mono).getByRole('group')).getByRole('option')).toHaveTextContent('Linux Libertine Mono O (no 町図)');
    // the bundled default is offered all the same, saying which letters another font sets
    expect(main).toHaveAccessibleDescription('DejaVu Serif has no 町図書: these letters are set in another installed font.');
    await user.selectOptions(main, 'Noto Serif CJK JP');
    expect(main).not.toHaveAccessibleDescription();
    expect(bodies(api).filter((b) => b.action === 'get_fonts').at(-1)).toMatchObject({ session_id: SID });

    // a family chosen before the Japanese text came is named as the problem
    useBookBuilder.getState().setField('mainfont', 'Libertinus Serif');
    expect(await screen.findByText('This font lacks letters of your texts: choose one of those offered')).toBeInTheDocument();

    // without the Japanese text the list is asked again and every family is offered
    await user.click(tab('Overview'));
    await user.click(screen.getByRole('button', { name: 'Remove: Japanese Text' }));
    await user.click(tab('Fonts'));
    await waitFor(() => expect(within(screen.getByRole('combobox', { name: 'Main Font' })).queryByRole('group')).toBeNull());
    expect(screen.queryByText('This font lacks letters of your texts: choose one of those offered')).toBeNull();
  });

  it('a list the server does not give shows the reason and Try again, not an endless "Loading…"', async () => {
    withSession([TWO[0]]);
    const api = bookApi({ texts: [TWO[0]] });
    let failing = true;
    const inner = api.fetch.getMockImplementation()!;
    api.fetch.mockImplementation(async (input, init) => {
      if (failing && /"get_(fonts|headings)"/.test(String(init?.body ?? ''))) {
        return new Response(JSON.stringify({ error: 'Server busy' }), { status: 503, headers: { 'Content-Type': 'application/json' } });
      }
      return inner(input, init);
    });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Fonts' }));
    const fontsAlert = await screen.findByRole('alert');
    expect(fontsAlert).toHaveTextContent('The list of fonts could not be loaded: Server busy');
    expect(screen.queryByText('Loading…')).toBeNull();
    // The Layout tab keeps working with the built-in headings, and says the server's list failed.
    await user.click(screen.getByRole('tab', { name: 'Layout' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The list of running headings could not be loaded: Server busy');
    expect(screen.getByRole('combobox', { name: 'Running headings' })).toBeInTheDocument();
    failing = false;
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await user.click(screen.getByRole('tab', { name: 'Fonts' }));
    await user.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('combobox', { name: 'Mono Font' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Imposition: signature selectors per schema, crop options only with a schema, pictures drawn in SVG', async () => {
    withSession([TWO[0]]);
    bookApi({ texts: [TWO[0]] });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Imposition' }));
    const schema = screen.getByRole('combobox', { name: 'Imposition Schema' });
    expect(screen.queryByRole('checkbox', { name: 'Add crop marks to PDF' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Please select the signature size' })).toBeNull();

    await user.selectOptions(schema, '2up');
    const sig = screen.getByRole('combobox', { name: 'Please select the signature size' });
    expect(within(sig).getAllByRole('option')).toHaveLength(2 + 20);
    expect(screen.getByRole('img', { name: 'Sheet 1, front: 8, 1' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Sheet 1, back: 2, 7' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Fill with blank pages/ })).toBeChecked();

    await user.selectOptions(schema, '4up');
    expect(within(screen.getByRole('combobox', { name: 'Please select the signature size' })).getAllByRole('option')).toHaveLength(2 + 10);

    await user.selectOptions(schema, '2x4x2');
    expect(screen.queryByRole('combobox', { name: 'Please select the signature size' })).toBeNull();
    expect(screen.getAllByRole('img', { name: /^Sheet/ })).toHaveLength(4);

    await user.click(screen.getByRole('checkbox', { name: 'Add crop marks to PDF' }));
    const crop = screen.getByRole('combobox', { name: /size of each page including the crop marks/ });
    // A5 pages in 16-page blocks cannot stay on A4: the smallest paper with room for the marks (issue 32 point 12)
    expect(crop).toHaveValue('b5');
    expect(screen.getByText('(Original size is A5)')).toBeInTheDocument();
    expect(screen.getByTestId('sheet-summary')).toHaveTextContent(/This sheet is larger than A4/);
    await user.selectOptions(crop, 'a6');
    expect(crop).toHaveAccessibleDescription(/The crop-mark paper must be at least as large as the page/);
    expect(screen.getByRole('spinbutton', { name: /Paper thickness in mm/ })).toHaveValue(0.1);
  });

  it('Imposition: once built, shows the first sheets of this book with its own page numbers', async () => {
    withSession([TWO[0]]);
    bookApi({ texts: [TWO[0]] });
    useBookBuilder.setState({ produced: { pages: 10, book_pages: 10, sheets: null } });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Imposition' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Imposition Schema' }), '2up');
    expect(screen.getByText('The first sheets of this book (10 pages, as last built):')).toBeInTheDocument();
    // 10 pages in one signature filled to 12 with blanks before the last page, which stays last
    expect(screen.getByRole('img', { name: 'Sheet 1, front: 10, 1' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Sheet 1, back: 2, blank' })).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Please select the signature size' }), '4');
    expect(screen.getByRole('img', { name: 'Sheet 1, front: 4, 1' })).toBeInTheDocument();
    // the generic example stays next to it
    expect(screen.getByText('Example: a book of 8 pages.')).toBeInTheDocument();
    // creep compensation without crop marks: sent as a length, only while crop marks are off
    // one paper thickness field: the creep takes it when asked for (issue 32 point 12)
    expect(screen.getAllByRole('spinbutton', { name: /thickness/i })).toHaveLength(1);
    const creep = screen.getByRole('checkbox', { name: /Creep compensation for saddle stitching/ });
    expect(creep).not.toBeChecked();
    expect(toBuildPayload(useBookBuilder.getState().collection_data)).not.toHaveProperty('creep');
    await user.click(creep);
    expect(toBuildPayload(useBookBuilder.getState().collection_data)).toMatchObject({ creep: '0.1mm' });
    const thickness = screen.getByRole('spinbutton', { name: /Paper thickness in mm/ });
    await user.clear(thickness);
    await user.type(thickness, '0.2');
    expect(toBuildPayload(useBookBuilder.getState().collection_data)).toMatchObject({ creep: '0.2mm' });
    await user.click(screen.getByRole('checkbox', { name: 'Add crop marks to PDF' }));
    expect(screen.queryByRole('checkbox', { name: /Creep compensation/ })).toBeNull();
    expect(screen.getAllByRole('spinbutton', { name: /thickness/i })).toHaveLength(1);
    expect(toBuildPayload(useBookBuilder.getState().collection_data)).not.toHaveProperty('creep');
  });

  it('builds, polls once a second (Queued, Working), then embeds the PDF; Reset hides while a status exists', async () => {
    withSession([TWO[0]]);
    const api = bookApi({
      texts: [TWO[0]],
      jobs: [
        { session_id: SID, job_id: 42, status: 'inactive', queue_position: 2 },
        { session_id: SID, job_id: 42, status: 'active' },
        { session_id: SID, job_id: 42, status: 'finished', pages: 24, book_pages: 24, sheets: null },
      ],
    });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Build' }));
    expect(await screen.findByText('Queued')).toBeInTheDocument();
    expect(screen.getByText('(2 builds ahead)')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reset' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Build' })).toBeDisabled();
    expect(await screen.findByText('Working', {}, { timeout: 3000 })).toBeInTheDocument();
    const frame = await screen.findByTitle('Preview of the book (PDF)', {}, { timeout: 3000 });
    expect(frame).toHaveAttribute('src', `/collector/api/bookbuilder/${SID}?inline=1&job=42`);
    expect(screen.getByRole('link', { name: 'Download the PDF' })).toHaveAttribute('href', `/collector/api/bookbuilder/${SID}?job=42`);
    expect(screen.getByText('24 pages')).toBeInTheDocument();
    const s = useBookBuilder.getState();
    expect(s).toMatchObject({ job_id: null, job_produced: 42, status: 'finished' });
    const build = bodies(api).find((b) => b.action === 'build')!;
    // The build payload of spec §7: lengths with units, no flag that is off, no crop options without crop marks.
    expect(build).toMatchObject({ session_id: SID, collection_data: { papersize: 'a5', fontsize: 12, bcor: '0mm', division: 12, tex_emergencystretch: '30pt' } });
    for (const absent of ['cropmarks', 'crop_papersize', 'crop_paper_thickness', 'linespacing', 'signature', 'twoside', 'binding_correction', 'division_factor']) {
      expect(build.collection_data, absent).not.toHaveProperty(absent);
    }
    // polling stopped
    const checks = bodies(api).filter((b) => b.action === 'check_job').length;
    await new Promise((r) => setTimeout(r, 1200));
    expect(bodies(api).filter((b) => b.action === 'check_job').length).toBe(checks);
    expect(JSON.parse(localStorage.getItem(BOOKBUILDER_STORAGE_KEY)!).state).toMatchObject({ session_id: SID, job_produced: 42, status: 'finished' });
  }, 10_000);

  it('shows a running build\'s step when it has several (a large book, per chunk)', async () => {
    withSession([TWO[0]]);
    bookApi({
      texts: [TWO[0]],
      jobs: [
        { session_id: SID, job_id: 42, status: 'active', progress: { step: 3, steps: 8 } },
        { session_id: SID, job_id: 42, status: 'active', progress: { step: 4, steps: 8 } },
        { session_id: SID, job_id: 42, status: 'finished', pages: 24, book_pages: 24, sheets: null },
      ],
    });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Build' }));
    expect(await screen.findByText('(step 3 of 8)')).toBeInTheDocument();
    expect(screen.getByText('Working')).toBeInTheDocument();
    expect(await screen.findByText('(step 4 of 8)', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(await screen.findByText('24 pages', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.queryByText(/step \d+ of/)).toBeNull();
  }, 10_000);

  it('shows "Job failed" with its reason', async () => {
    withSession([TWO[0]]);
    bookApi({ texts: [TWO[0]], jobs: [{ session_id: SID, job_id: 42, status: 'failed', error: 'Typesetting failed: bad' }] });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Build' }));
    expect(await screen.findByText('Job failed', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(screen.getByText('Typesetting failed: bad')).toBeInTheDocument();
    expect(useBookBuilder.getState()).toMatchObject({ job_id: null, status: 'failed', error: 'Typesetting failed: bad' });
  });

  it('shows "Job not found. Stale session?"', async () => {
    withSession([TWO[0]], { job_id: 7, status: 'active' });
    bookApi({ texts: [TWO[0]], jobs: [{ session_id: SID, job_id: 7, status: 'not found' }] });
    renderApp('/bookbuilder');
    expect(await screen.findByText('Job not found. Stale session?', {}, { timeout: 3000 })).toBeInTheDocument();
  });

  it('Reset asks first, then clears everything and restores the defaults', async () => {
    withSession([TWO[0]], { collection_data: { ...defaultCollection(), fontsize: 9 } });
    bookApi({ texts: [TWO[0]] });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Reset' }));
    let dialog = screen.getByRole('dialog', { name: 'Reset the Book Builder?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    // Closing the dialog keeps everything.
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useBookBuilder.getState()).toMatchObject({ session_id: SID, collection_data: { fontsize: 9 } });
    expect(screen.getByRole('button', { name: 'Reset' })).toHaveFocus();
    await user.keyboard('{Enter}');
    dialog = screen.getByRole('dialog', { name: 'Reset the Book Builder?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset the Book Builder' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useBookBuilder.getState()).toMatchObject({ session_id: null, text_list: [], collection_data: { fontsize: 12 } });
    expect(screen.getByText('No text added, so far!')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Book Builder' })).toHaveFocus());
  });

  it('reorders with the keyboard buttons and removes texts', async () => {
    withSession(TWO);
    const api = bookApi({ texts: TWO });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    const titles = () => screen.getAllByTestId('book-text').map((li) => within(li).getByRole('link').textContent);
    expect(await screen.findByRole('button', { name: 'Move up: First Text' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Move down: First Text' }));
    await waitFor(() => expect(titles()).toEqual(['Second Text', 'First Text']));
    expect(bodies(api).find((b) => b.action === 'reorder')).toMatchObject({ move_id: 2, to_id: 1 });
    expect(screen.getByText('Second Text moved to position 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Move up: First Text' }));
    await waitFor(() => expect(titles()).toEqual(['First Text', 'Second Text']));
    await user.click(screen.getByRole('button', { name: 'Remove: First Text' }));
    await waitFor(() => expect(titles()).toEqual(['Second Text']));
    expect(edits(api).at(-1)).toMatchObject({ action: 'remove', remove_id: 1, session_id: SID });
  });

  it('keeps the focus on the moved text\'s own move button, never on Remove', async () => {
    withSession(THREE);
    bookApi({ texts: THREE });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    const titles = () => screen.getAllByTestId('book-text').map((li) => within(li).getByRole('link').textContent);
    // Move down on the second-to-last text: it becomes last, so focus goes to its Move up.
    (await screen.findByRole('button', { name: 'Move down: Second Text' })).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(titles()).toEqual(['First Text', 'Third Text', 'Second Text']));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move up: Second Text' })));
    expect(document.activeElement).not.toBe(screen.getByRole('button', { name: 'Remove: Second Text' }));
    // A second Enter moves it back up instead of deleting it; it can still go up, so focus stays there.
    await user.keyboard('{Enter}');
    await waitFor(() => expect(titles()).toEqual(['First Text', 'Second Text', 'Third Text']));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move up: Second Text' })));
    // Move down from the top keeps focus on Move down while it can still move down.
    screen.getByRole('button', { name: 'Move down: First Text' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(titles()).toEqual(['Second Text', 'First Text', 'Third Text']));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move down: First Text' })));
    // Move up to the top: focus moves to its Move down.
    screen.getByRole('button', { name: 'Move up: First Text' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(titles()).toEqual(['First Text', 'Second Text', 'Third Text']));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move down: First Text' })));
  });

  it('Remove offers Undo, which adds the text again at its old position', async () => {
    withSession(THREE);
    const api = bookApi({ texts: THREE });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    const titles = () => screen.getAllByTestId('book-text').map((li) => within(li).getByRole('link').textContent);
    await user.click(await screen.findByRole('button', { name: 'Remove: Second Text' }));
    await waitFor(() => expect(titles()).toEqual(['First Text', 'Third Text']));
    const status = await screen.findByText('Removed “Second Text”.');
    const undo = within(status.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'Undo' });
    // Focus goes to Undo, so a second Enter cannot remove the next text.
    await waitFor(() => expect(undo).toHaveFocus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(titles()).toEqual(['First Text', 'Second Text', 'Third Text']));
    const calls = edits(api).slice(-2);
    expect(calls[0]).toEqual({ action: 'add', add: 200, session_id: SID });
    expect(calls[1]).toMatchObject({ action: 'reorder', session_id: SID, move_id: 50, to_id: 3 });
    expect(screen.queryByText('Removed “Second Text”.')).toBeNull();
    expect(screen.getByText('Second Text is back in the book')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Second Text' })).toHaveFocus());
  });

  it('Undo of the only text brings it back from the empty list without a reorder', async () => {
    withSession([TWO[0]]);
    const api = bookApi({ texts: [TWO[0]] });
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove: First Text' }));
    expect(await screen.findByText('No text added, so far!')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByRole('link', { name: 'First Text' })).toBeInTheDocument();
    expect(edits(api).at(-1)).toEqual({ action: 'add', add: 100, session_id: SID });
  });

  it('an expired session found on opening empties the list', async () => {
    withSession(TWO);
    bookApi({ texts: TWO, extra: (b) => (b.action === 'list' ? { session_id: null, texts: [], status: 'OK' } : undefined) });
    renderApp('/bookbuilder');
    expect(await screen.findByText('No text added, so far!')).toBeInTheDocument();
    expect(useBookBuilder.getState().session_id).toBeNull();
  });
});

describe('entry page and header', () => {
  it('"Add to the Book Builder" adds the text, then links to the tool; the header shows the link', async () => {
    const api = bookApi({ extra: (b) => (b.action === 'add' ? { session_id: SID, texts: [text(3, 'God and the State')].map((x) => ({ ...x, attributes: { ...x.attributes, data_source_id: 11 } })), status: 'OK' } : undefined) });
    mockApiEntry(api);
    renderApp('/entry/1');
    const user = userEvent.setup();
    // The header links to the Book Builder before any text is added (issue 32, point 13).
    expect(await screen.findByRole('link', { name: /^Book Builder/ })).toHaveAttribute('href', '/bookbuilder');
    await user.click(await screen.findByRole('button', { name: 'Add to the Book Builder' }));
    const added = await screen.findByRole('link', { name: 'Added to the Book Builder!' });
    expect(added).toHaveAttribute('href', '/bookbuilder');
    expect(bodies(api).find((b) => b.action === 'add')).toEqual({ action: 'add', add: 11, session_id: null });
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toContainElement(screen.getByRole('link', { name: /^Book Builder/ }));
  });

  it('says so when another library\'s copy of the same text is already in the Book Builder', async () => {
    // The entry's data source 11 is of entry 1; the list already holds entry 1 from data source 99.
    const other = { ...text(5, 'God and the State'), attributes: { ...text(5, 'God and the State').attributes, entry_id: 1, data_source_id: 99 } };
    withSession([other]);
    const api = bookApi({
      texts: [other],
      extra: (b) =>
        b.action === 'add'
          ? { session_id: SID, texts: [other, { ...other, id: 6, attributes: { ...other.attributes, data_source_id: 11 } }], status: 'This text is already in the Book Builder from another library' }
          : undefined,
    });
    mockApiEntry(api);
    renderApp('/entry/1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add to the Book Builder' }));
    const added = await screen.findByRole('link', { name: 'Added to the Book Builder!' });
    const status = added.closest('[role="status"]') as HTMLElement;
    expect(status).toHaveTextContent('This text is already in the Book Builder from another library. You can remove one of them in the Book Builder.');
  });

  it('shows the server error when the text cannot be added', async () => {
    const api = bookApi({ extra: (b) => (b.action === 'add' ? undefined : undefined) });
    mockApiEntry(api, { status: 413, body: { error: 'Quota exceeded: too big' } });
    renderApp('/entry/1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add to the Book Builder' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Quota exceeded: too big');
  });
});

/** Adds the entry route (and optionally a failing add) to a mocked API. */
function mockApiEntry(api: MockedApi, failAdd?: { status: number; body: unknown }) {
  const inner = api.fetch.getMockImplementation()!;
  api.fetch.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/collector/api/entry/1') return new Response(JSON.stringify(entry()), { status: 200, headers: { 'Content-Type': 'application/json' } });
    if (failAdd && url.pathname === '/collector/api/bookbuilder' && String(init?.body).includes('"add"')) {
      return new Response(JSON.stringify(failAdd.body), { status: failAdd.status, headers: { 'Content-Type': 'application/json' } });
    }
    return inner(input, init);
  });
}

import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { dataSource, entry } from '../../test/fixtures';
import { mockApi, renderApp } from '../../test/utils';
import type { Entry } from '../../lib/shared';
import i18n, { loadBundle } from '../../i18n';

// The server's layout (Text::Amuse's bare HTML): the table-of-contents block, then the text.
const FULL_TEXT =
  '<div class="table-of-contents" dir="ltr">\n' +
  '<p class="tableofcontentline toclevel1"><span class="tocprefix">&#160;&#160;</span><a href="#toc1">First chapter</a></p>\n' +
  '<p class="tableofcontentline toclevel2"><span class="tocprefix">&#160;&#160;&#160;&#160;</span><a href="#toc2">A section</a></p>\n' +
  '</div>\n<div id="thework" dir="ltr">\n' +
  '<h2 id="toc1">First chapter <a href="#fn1" class="footnote" id="fn_back1">[1]</a></h2><p>Body of the text.</p>' +
  '<h3 id="toc2">A section</h3><p>More.</p>\n</div>\n';

function entryApi(e: Entry | ((id: string) => Entry | undefined)) {
  return mockApi({
    '/entry/': (url) => {
      const id = url.pathname.split('/').pop()!;
      const found = typeof e === 'function' ? e(id) : e;
      return found ? { body: found } : { status: 404, body: { error: 'Entry not found' } };
    },
    '/full-text/': () => ({ body: { html: FULL_TEXT } }),
    '/search': () => undefined,
  });
}

describe('entry page', () => {
  it('shows the entry, its data source box and the metadata rows', async () => {
    entryApi(entry());
    renderApp('/entry/1');
    expect(await screen.findByRole('heading', { level: 1, name: /God and the State/ })).toBeInTheDocument();
    expect(screen.getByText('An essay')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Mikhail Bakunin' })).toHaveAttribute('href', '/library/author/7');
    const box = document.getElementById('library-3')!;
    expect(box).not.toBeNull();
    const b = within(box);
    expect(b.getByRole('link', { name: 'Bibliotheca Test' })).toHaveAttribute('href', '/library/details/3');
    expect(b.getByRole('rowheader', { name: 'Shelf Location Code' })).toBeInTheDocument();
    expect(b.getByRole('rowheader', { name: 'ISBN' })).toBeInTheDocument();
    expect(b.getByRole('rowheader', { name: 'Publisher' })).toBeInTheDocument();
    expect(b.getByRole('rowheader', { name: 'Edition Place and Date' })).toBeInTheDocument();
    expect(b.queryByRole('rowheader', { name: 'Material Description' })).not.toBeInTheDocument();
    expect(b.getByRole('rowheader', { name: 'Read on the library site' })).toBeInTheDocument();
    expect(b.getByRole('link', { name: 'https://library.example.org/library/god-and-state' })).toBeInTheDocument();
    expect(b.getByRole('link', { name: /PDF/ })).toHaveAttribute('href', '/collector/api/download/11.pdf');
    expect(b.getByText(/First line/)).toHaveClass('whitespace-pre-line');
    await waitFor(() => expect(document.title).toBe('God and the State – Test Catalogue'));
  });

  it('hides Edition Place and Date when it equals the year, and unsafe links', async () => {
    entryApi(
      entry({
        data_sources: [
          dataSource({ place_date_of_publication_distribution: '1882', uri: 'javascript:alert(1)', koha_url: 'https://opac.example.org/1' }),
        ],
      }),
    );
    renderApp('/entry/1');
    await screen.findByRole('heading', { level: 1, name: /God and the State/ });
    expect(screen.queryByRole('rowheader', { name: 'Edition Place and Date' })).not.toBeInTheDocument();
    expect(screen.queryByRole('rowheader', { name: 'Read on the library site' })).not.toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: 'OPAC page' })).toBeInTheDocument();
  });

  it('loads the full text once, on the first toggle, with its table of contents', async () => {
    const user = userEvent.setup();
    const api = entryApi(entry());
    renderApp('/entry/1');
    const button = await screen.findByRole('button', { name: 'Full text' });
    expect(api.calls('/full-text')).toHaveLength(0);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(await screen.findByText('Body of the text.')).toBeVisible();
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const toc = screen.getByRole('navigation', { name: 'Table of contents' });
    expect(within(toc).getByRole('link', { name: 'First chapter' })).toHaveAttribute('href', '#toc1');
    expect(within(toc).getByRole('link', { name: 'A section' })).toBeInTheDocument();
    // The server's table-of-contents block is laid out as the navigation, not repeated in the text.
    expect(screen.getAllByRole('link', { name: 'First chapter' })).toHaveLength(1);
    await user.click(button);
    expect(screen.getByText('Body of the text.')).not.toBeVisible();
    await user.click(button);
    expect(screen.getByText('Body of the text.')).toBeVisible();
    expect(api.calls('/full-text')).toHaveLength(1);
    expect(api.calls('/full-text')[0].pathname).toBe('/collector/api/full-text/11');
  });

  it('opens the full text from a search snippet with the matched words marked, the first scrolled into view', async () => {
    const scrolled: Element[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) { scrolled.push(this); };
    try {
      const api = entryApi(entry());
      renderApp('/entry/1?highlight=TEXT+more&text=11');
      expect(await screen.findByText('Body of the', { exact: false })).toBeVisible();
      expect(screen.getByRole('button', { name: 'Full text' })).toHaveAttribute('aria-expanded', 'true');
      const marks = document.querySelectorAll('article.fulltext mark');
      expect([...marks].map((m) => m.textContent)).toEqual(['text', 'More']);
      await waitFor(() => expect(scrolled[0]).toBe(marks[0]));
      expect(api.calls('/full-text')).toHaveLength(1);
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it('full text and PDF viewer are mutually exclusive', async () => {
    const user = userEvent.setup();
    entryApi(entry());
    renderApp('/entry/1');
    const text = await screen.findByRole('button', { name: 'Full text' });
    const pdf = screen.getByRole('button', { name: 'View PDF' });
    await user.click(text);
    expect(await screen.findByText('Body of the text.')).toBeVisible();
    await user.click(pdf);
    const frame = screen.getByTitle('PDF: God and the State');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', '/collector/api/download/11.pdf?inline=1');
    expect(screen.getByText('Body of the text.')).not.toBeVisible();
    expect(text).toHaveAttribute('aria-expanded', 'false');
    expect(pdf).toHaveAttribute('aria-expanded', 'true');
    await user.click(text);
    expect(screen.queryByTitle('PDF: God and the State')).not.toBeInTheDocument();
    expect(screen.getByText('Body of the text.')).toBeVisible();
  });

  it('offers no Full text or View PDF button when the data source has neither', async () => {
    entryApi(entry({ data_sources: [dataSource({ has_full_text: false, has_pdf: false, downloads: [] })] }));
    renderApp('/entry/1');
    await screen.findByRole('heading', { level: 1, name: /God and the State/ });
    expect(screen.queryByRole('button', { name: 'Full text' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View PDF' })).not.toBeInTheDocument();
  });

  it('shows a curated aggregation (no copy of its own) with its parts', async () => {
    const part = { entry_id: 5, id: 5, title: [{ id: 1, value: 'Without Government' }], subtitle: [], authors: [], languages: [] };
    entryApi(entry({ title: 'Selected Essays', subtitle: null, data_sources: [], aggregated: [part] }));
    renderApp('/entry/1');
    expect(await screen.findByRole('heading', { level: 1, name: /Selected Essays/ })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Contains:' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Without Government/ })).toHaveAttribute('href', '/entry/5');
    expect(screen.queryByText('Sorry! We could not found this entry!')).not.toBeInTheDocument();
  });

  it('shows the not-found texts for a missing entry', async () => {
    entryApi(() => undefined);
    renderApp('/entry/999');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Sorry! We could not found this entry!' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('The entry does not exist, it was deleted or it is not public any more'),
    ).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Sorry! We could not found this entry! – Test Catalogue'));
  });

  it('shows the loading message while fetching', async () => {
    entryApi(entry());
    renderApp('/entry/1');
    expect(screen.getByText('Fetching results, hold on...')).toBeInTheDocument();
    await screen.findByRole('heading', { level: 1, name: /God and the State/ });
  });

  it('replaces the URL with the id the server returned (merged entry)', async () => {
    const api = entryApi((id) => (id === '5' || id === '1' ? entry({ id: 1 }) : undefined));
    const { router } = renderApp('/entry/5#library-3');
    await waitFor(() => expect(router.state.location.pathname).toBe('/entry/1'));
    expect(router.state.location.hash).toBe('#library-3');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(await screen.findByRole('heading', { level: 1, name: /God and the State/ })).toBeInTheDocument();
    expect(api.calls('/entry')).toHaveLength(1);
    // The library badge's anchor is scrolled into view once the boxes exist.
    await waitFor(() =>
      expect(
        (Element.prototype.scrollIntoView as unknown as { mock: { contexts: unknown[] } }).mock.contexts,
      ).toContain(document.getElementById('library-3')),
    );
  });

  it('links the other languages with Original and Translation titles', async () => {
    entryApi(
      entry({
        id: 2,
        original_entry: { id: 1, languages: [{ id: 'fr', value: 'French' }] },
        translations: [
          { id: 2, languages: [{ id: 'en', value: 'English' }] },
          { id: 3, languages: [{ id: 'it', value: 'Italian' }] },
        ],
      }),
    );
    renderApp('/entry/2');
    const section = await screen.findByRole('region', { name: 'Other languages:' });
    const links = within(section).getAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAttribute('href', '/entry/1');
    expect(links[0]).toHaveAttribute('title', 'Original');
    expect(links[1]).toHaveAttribute('href', '/entry/3');
    expect(links[1]).toHaveAttribute('title', 'Translation');
    // The entry itself is marked as a translation (by text, not colour alone).
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('(This text is a translation)');
  });

  it('shows Part of and Contains boxes without nested links', async () => {
    const short = (id: number, title: string) => ({
      entry_id: id,
      id,
      title: [{ id, value: title }],
      subtitle: [],
      authors: [{ id: 9, value: 'Various' }],
      languages: [{ id: 'en', value: 'English' }],
    });
    entryApi(entry({ aggregations: [short(20, 'The Anthology')], aggregated: [short(30, 'Chapter One'), short(31, 'Chapter Two')] }));
    renderApp('/entry/1');
    const partOf = await screen.findByRole('region', { name: 'Part of:' });
    expect(within(partOf).getByRole('link', { name: 'The Anthology' })).toHaveAttribute('href', '/entry/20');
    const contains = screen.getByRole('region', { name: 'Contains:' });
    expect(within(contains).getAllByRole('link').map((a) => a.textContent)).toEqual(['Chapter One', 'Chapter Two']);
    for (const a of document.querySelectorAll('a')) expect(a.querySelector('a')).toBeNull();
  });

  it('Back goes home without history and back with history', async () => {
    const user = userEvent.setup();
    entryApi(entry());
    const { router } = renderApp('/entry/1');
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/map'));
    await act(() => router.navigate('/entry/1'));
    await user.click(await screen.findByRole('button', { name: 'Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/map'));
    expect(router.state.historyAction).toBe('POP');
  });

  it('names the downloads in the interface language by their format, unknown formats as the server sends them', async () => {
    const de = await loadBundle('de');
    i18n.addResourceBundle('de', 'translation', de, true, true);
    await i18n.changeLanguage('de');
    try {
      const downloads = [
        { code: 'muse', ext: '.muse', desc: 'Muse source' },
        { code: 'zip', ext: '.zip', desc: 'Source and images (zip)' },
        { code: 'txt', ext: '.txt', desc: 'Plain text' },
        { code: 'djvu', ext: '.djvu', desc: 'DjVu scan' },
      ];
      entryApi(entry({ data_sources: [dataSource({ downloads })] }));
      renderApp('/entry/1');
      const list = await screen.findByRole('list', { name: de['Downloads'] });
      const names = within(list).getAllByRole('link').map((a) => a.textContent!.replace('⤓', '').trim());
      expect(names).toEqual([de['Muse source'], de['Source and images (zip)'], de['Plain text'], 'DjVu scan']);
      expect(names[0]).not.toBe('Muse source');
      expect(within(list).getByRole('link', { name: new RegExp(de['Muse source']) })).toHaveAttribute('href', '/collector/api/download/11.muse');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

// The result card's snippet: a passage of the full text, matched words marked, never parsed as HTML.
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { agent, library, match, searchResponse } from '../../test/fixtures';
import { mockApi, renderApp } from '../../test/utils';

describe('result card: snippet', () => {
  it('shows the passage with the matched words marked and links to the full text at the match', async () => {
    const snippet = {
      data_source_id: 11,
      parts: [
        { text: '… the <b>prisoners</b> of ', match: false },
        { text: 'Clairvaux', match: true },
        { text: ' read. ', match: false },
        { text: 'Clairvaux', match: true },
      ],
    };
    mockApi({
      '/search': () => ({ body: searchResponse({ matches: [match(1, 'Notes from Lyon', { snippet }), match(2, 'Clairvaux Prison Diary')] }) }),
      '/libraries/': () => ({ body: { library } }),
      '/agents/': () => ({ body: { agent } }),
    });
    renderApp('/search?query=clairvaux');
    const card = (await screen.findByRole('link', { name: 'Notes from Lyon' })).closest('article')!;
    const marks = card.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['Clairvaux', 'Clairvaux']);
    // Text, not HTML: the tags show as written.
    expect(card.querySelector('b')).toBeNull();
    expect(card.textContent).toContain('the <b>prisoners</b> of');
    const link = within(card).getByRole('link', { name: 'Read in the full text' });
    expect(link).toHaveAttribute('href', '/entry/1?highlight=Clairvaux&text=11');
    // A card without a snippet has neither.
    const other = screen.getByRole('link', { name: 'Clairvaux Prison Diary' }).closest('article')!;
    expect(other.querySelector('mark')).toBeNull();
    expect(within(other).queryByRole('link', { name: 'Read in the full text' })).toBeNull();
  });
});

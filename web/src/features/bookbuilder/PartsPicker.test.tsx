// Choosing the parts of a text in the Book Builder's list: the disclosure lists the text's sections as
// checkboxes (all ticked for a whole text), All / None, Save sends set_partial and the collapsed row then
// says which parts are chosen.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BookText } from '@uc/shared';
import { mockApi, renderApp, type MockedApi } from '../../test/utils';
import { useBookBuilder } from './store';

const SID = 'sessionsessionsession1';
const TEXT: BookText = { id: 1, sid: SID, attributes: { entry_id: 10, data_source_id: 100, title: 'Paper Notes', authors: ['An Author'], size: 1234 } };
const SECTIONS = [
  { number: 1, title: 'Why paper dies' },
  { number: 2, title: 'The room' },
  { number: 3, title: 'Handling' },
  { number: 4, title: 'Repairs' },
];

type Body = Record<string, unknown> & { action: string };
const bodies = (api: MockedApi) =>
  api.fetch.mock.calls.filter((c) => String(c[0]).includes('/bookbuilder') && c[1]?.method === 'POST').map((c) => JSON.parse(String(c[1]!.body)) as Body);

function bookApi() {
  let text = TEXT;
  return mockApi({
    '/bookbuilder': (_url, init) => {
      const b = JSON.parse(String(init?.body ?? '{}')) as Body;
      if (b.action === 'get_fonts') return { body: { fonts: [] } };
      if (b.action === 'get_headings') return { body: { headings: [] } };
      if (b.action === 'list') return { body: { session_id: SID, texts: [text], status: 'OK' } };
      if (b.action === 'get_sections') return { body: { sections: SECTIONS } };
      if (b.action === 'set_partial') {
        const { partial: _old, ...rest } = text.attributes;
        text = { ...text, attributes: b.partial === null ? rest : { ...rest, partial: String(b.partial).split(',').map(Number) } };
        return { body: { session_id: SID, texts: [text], status: 'OK' } };
      }
      return { status: 400, body: { error: 'bad' } };
    },
  });
}

beforeEach(() => {
  useBookBuilder.getState().reset();
  useBookBuilder.setState({ session_id: SID, text_list: [TEXT] });
});

describe('choosing the parts of a text', () => {
  it('lists the sections ticked, saves a choice with set_partial and shows it on the collapsed row', async () => {
    const api = bookApi();
    renderApp('/bookbuilder');
    const user = userEvent.setup();
    const toggle = await screen.findByRole('button', { name: 'Choose parts: Paper Notes' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('parts-summary')).toBeNull();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const group = await screen.findByRole('group', { name: 'Parts of “Paper Notes”' });
    const boxes = within(group).getAllByRole('checkbox');
    expect(boxes.map((b) => b.closest('label')!.textContent)).toEqual(['1. Why paper dies', '2. The room', '3. Handling', '4. Repairs']);
    expect(boxes.every((b) => (b as HTMLInputElement).checked)).toBe(true);

    // None leaves nothing to save; then two parts by keyboard
    await user.click(within(group).getByRole('button', { name: 'No parts' }));
    expect(within(group).getByRole('button', { name: 'Save the parts' })).toBeDisabled();
    expect(within(group).getByText('Choose at least one part.')).toBeInTheDocument();
    within(group).getByRole('checkbox', { name: '1. Why paper dies' }).focus();
    await user.keyboard(' ');
    await user.click(within(group).getByRole('checkbox', { name: '3. Handling' }));
    await user.click(within(group).getByRole('button', { name: 'Save the parts' }));

    expect(await screen.findByTestId('parts-summary')).toHaveTextContent('Parts 1, 3 of 4');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(bodies(api).find((b) => b.action === 'set_partial')).toEqual({ action: 'set_partial', session_id: SID, text_id: 1, partial: '1,3' });
    expect(useBookBuilder.getState().text_list[0].attributes.partial).toEqual([1, 3]);

    // reopened: the saved choice is ticked; All makes it the whole text again (partial null)
    await user.click(toggle);
    const again = await screen.findByRole('group', { name: 'Parts of “Paper Notes”' });
    expect(within(again).getAllByRole('checkbox').map((b) => (b as HTMLInputElement).checked)).toEqual([true, false, true, false]);
    await user.click(within(again).getByRole('button', { name: 'All parts' }));
    await user.click(within(again).getByRole('button', { name: 'Save the parts' }));
    await screen.findByRole('button', { name: 'Choose parts: Paper Notes', expanded: false });
    expect(bodies(api).filter((b) => b.action === 'set_partial').at(-1)).toMatchObject({ partial: null });
    expect(screen.queryByTestId('parts-summary')).toBeNull();
  });
});

// axe-core (the rules the e2e run uses) on the curation controls in their busiest states: boxes with
// items, an open 'Add to merge box' menu, the omit dialog, the author edit form.
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { agent, library, match, searchResponse } from '../../test/fixtures';
import { mockApi, renderApp } from '../../test/utils';
import { resetBoxes } from './testHelpers';

beforeEach(resetBoxes);

async function violations() {
  // jsdom has no layout: colour contrast is checked by the e2e run in a browser.
  const r = await axe.run(document.body, { resultTypes: ['violations'], rules: { 'color-contrast': { enabled: false } } });
  return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`);
}

describe('curation controls and axe-core', () => {
  it('the search page with filled boxes, an open menu and the omit dialog', async () => {
    const user = userEvent.setup();
    mockApi({
      '/search': () => ({
        body: searchResponse({
          can_merge: true,
          can_set_exclusions: true,
          querystring: 'creator:7',
          matches: [match(1, 'God and the State'), match(2, 'Statism and Anarchy', { creator: [{ id: 8, value: 'M. Bakunin' }] })],
        }),
      }),
      '/libraries/': () => ({ body: { library } }),
      '/agents/': () => ({ body: { agent } }),
    });
    renderApp('/search?query=creator:7');
    await screen.findByText('God and the State');
    await user.click(screen.getAllByRole('button', { name: 'Add to merge box: “Mikhail Bakunin”' })[0]);
    await user.click(screen.getByRole('menuitem', { name: 'Merge authors' }));
    for (const [card, item] of [
      ['Statism and Anarchy', 'Add “M. Bakunin” to Merge authors'],
      ['God and the State', 'Add “God and the State” to Set aggregations'],
      ['Statism and Anarchy', 'Add “Statism and Anarchy” to Set aggregations'],
    ]) {
      await user.click(screen.getByRole('button', { name: `Curate “${card}”` }));
      await user.click(screen.getByRole('menuitem', { name: item }));
    }
    await user.click(within(screen.getByRole('region', { name: 'Author' })).getByRole('button', { name: 'Edit: Mikhail Bakunin' }));
    await screen.findByRole('textbox', { name: 'Wikidata ID' });
    await user.click(screen.getByRole('button', { name: 'Curate “God and the State”' }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(await violations()).toEqual([]);

    await user.click(screen.getByRole('menuitem', { name: 'Omit the author “Mikhail Bakunin”…' }));
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'x');
    expect(await violations()).toEqual([]);
  }, 20_000); // axe over the whole search page takes seconds when the suite runs files in parallel

  it('the author overview with both boxes and an edit form', async () => {
    const user = userEvent.setup();
    const a = { id: 7, name: 'Mikhail Bakunin', wikidata_id: null, canonical: null, search_link_id: 7, entries_count: 3 };
    mockApi({
      '/agents': (url) =>
        url.pathname.endsWith('/agents')
          ? { body: { agents: [a], matches: 3, total_agents: 1, warning: null, can_merge: true } }
          : { body: { agent: a } },
    });
    renderApp('/agent?search=bak');
    const card = await screen.findByRole('article', { name: 'Mikhail Bakunin' });
    await user.click(within(card).getByRole('button', { name: 'Add to merge box: “Mikhail Bakunin”' }));
    await user.click(screen.getByRole('menuitem', { name: 'Split author' }));
    await user.click(within(card).getByRole('button', { name: 'Edit: Mikhail Bakunin' }));
    await within(card).findByRole('textbox', { name: 'Wikidata ID' });
    await user.click(within(card).getByRole('button', { name: 'Submit' }));
    expect(await violations()).toEqual([]);
  });
});

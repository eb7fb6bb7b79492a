// Issue 27 item 7: words and years found only in a private library's copy of an entry (the demo's
// Archivio Operaio del Porto, library 8) leaked to anonymous searches: "Linda Brent", cholera epidemic
// and apprezzato found their entries, and the match's date list, the date facet and filter_date held the
// private copies' years. Anonymous searches must find nothing of them; the library's own admin and a
// superuser must still find them (the same search works); malformed filter values match nothing.
import type { Attack } from './types.ts';

const PRIVATE_LIBRARY = 8;
const HIDDEN_WORDS = ['"Linda Brent"', 'cholera epidemic', 'apprezzato', 'apprez*', '"Marx stesso"'];
/** Entries held by public libraries too, and the year only the private copy has. */
const HIDDEN_YEARS: [title: string, year: number][] = [
  ['Incidents in the Life of a Slave Girl', 1968],
  ['Il ventre di Napoli', 2022],
  ['Il Capitale di Carlo Marx brevemente compendiato', 1962],
];

interface Answer {
  total_entries: number;
  matches: { title: { value: string }[]; date: { id: number }[]; data_sources: { library_id: number }[] }[];
  facets: { date: { values: { id: string; count: number }[] } };
}

export const attack: Attack = {
  name: 'private-copies',
  async run(ctx) {
    const anonymous = ctx.client();
    const search = async (client: ReturnType<typeof ctx.client>, params: string): Promise<Answer> =>
      (await client.ok('GET', `/collector/api/search?exact=1&page_size=100&${params}`)) as Answer;

    for (const q of HIDDEN_WORDS) {
      const a = await search(anonymous, `query=${encodeURIComponent(q)}`);
      ctx.check(a.total_entries === 0, `anonymous search for ${q} finds nothing (got ${a.total_entries})`);
    }
    for (const [title, year] of HIDDEN_YEARS) {
      const a = await search(anonymous, `query=${encodeURIComponent(`"${title}"`)}`);
      const m = a.matches.find((x) => x.title[0]?.value === title);
      ctx.check(!!m, `anonymous search finds the public entry "${title}"`);
      ctx.check(!!m && !m.date.some((d) => d.id === year), `its date list has no ${year} (the private copy's year)`);
      ctx.check(!!m && !m.data_sources.some((d) => d.library_id === PRIVATE_LIBRARY), 'its copies list has no private copy');
      ctx.check(!a.facets.date.values.some((v) => v.id === String(year)), `its date facet has no ${year}`);
      const byYear = await search(anonymous, `filter_date=${year}`);
      ctx.check(!byYear.matches.some((x) => x.title[0]?.value === title), `filter_date=${year} does not find "${title}"`);
    }
    for (const bad of ['filter_date=abc', 'filter_library=x', 'filter_download=all']) {
      const a = await search(anonymous, bad);
      ctx.check(a.total_entries === 0, `malformed ${bad} matches nothing (got ${a.total_entries})`);
    }

    // The same searches by the library's own admin and by a superuser find the private copies.
    for (const account of [await ctx.account({ libraryAdmin: PRIVATE_LIBRARY }), await ctx.account({ superuser: true })]) {
      const client = await ctx.login(account);
      const a = await search(client, `query=${encodeURIComponent('"Linda Brent"')}`);
      ctx.check(a.total_entries === 1 && a.matches[0].date.some((d) => d.id === 1968), `${account.username} (may see library ${PRIVATE_LIBRARY}) finds "Linda Brent" with 1968`);
    }
  },
};
